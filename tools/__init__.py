"""Maintainers' scripts, each run from the repository root as a module: `python -m tools.write_grade_cells`
(make release),
`python -m tools.refresh_notebooks` (make notebooks), `python -m tools.quiz_variant` (make quiz-variant),
`python -m tools.quiz_bank`, `python -m tools.make_exchange` (make exchange). The tests import them as `tools.*`."""
