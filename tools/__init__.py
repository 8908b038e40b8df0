"""Maintainers' scripts, each run from the repository root as a module: `python -m tools.write_grade_cells`
(make release), `python -m tools.refresh_notebooks` (make notebooks), `python -m tools.quiz_bank`,
`python -m tools.config_reference`, `python -m tools.nbgrader_contract` (make nbgrader-contract). What an instructor
runs is a `classroom` subcommand instead (classroom/app/). The tests import them as `tools.*`."""
