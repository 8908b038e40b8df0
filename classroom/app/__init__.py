"""`classroom`, the course's one command (console script; `python -m classroom.app` is the same), and its
subcommands: classroom.app.main lists them; each is an nbgrader application (classroom.app.base.Command) whose work
is done by the module that owns it (classroom.grading, classroom.report, classroom.lms, classroom.decisions,
classroom.self_study)."""
