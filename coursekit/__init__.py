"""What the grading tests and the benches share: a throw-away course, submissions, the corpus, the quiz's answers.

Imported from the repository root as `tests.helpers` (pytest: `pythonpath = ["."]` in pyproject.toml; the benches
run as `python -m bench.autograde_cost` from the root), so nothing edits sys.path by hand.
"""
