"""The course kit: what the tests and the benches share, so that neither imports the other.

A throw-away nbgrader course made from this repository and graded as instructors grade (`trial_course`,
`grading_runs`), what its students hand in (`corpus`, `notebook_edits`: the edits a student might make; `quiz/`: quiz
answers and statements), the real parts around it (`real_parts/`: browser, hub, postgres, ports, waiting), the
repository's own files (`repository`), the gate of every test that needs a real part (`parts`: `requires("hub")`, one
marker a part, the closing line that names what was skipped), what a failing check of a lesson a learner's
JupyterLab saved tells them (`lesson_edits`), and how the helpers start nbgrader and classroom commands without
importing nbgrader anew each time (`forked_commands`).

Imported from the repository root as `coursekit` (pytest: `pythonpath = ["."]` in pyproject.toml; the benches run as
`python -m bench.autograde_cost` from the root), so nothing edits sys.path by hand.
"""
