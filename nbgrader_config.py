"""nbgrader configuration: the repository itself is the course directory (run nbgrader from here).

The grading system's plugins (the preprocessors of classroom.preprocessors, safe collect, zip_collect and export, the
feedback page) are chosen in one file with no course setting, classroom/plugins/nbgrader_config.py, loaded first
below; another course uses the same grading system by loading that file the same way. Everything after it is this
course's (how grading works: docs/grading.md; where our plugins differ from nbgrader's:
docs/differences-from-nbgrader.md).
"""
from classroom.plugins import SELECTION_FOLDER

c = get_config()  # noqa: F821 (provided by nbgrader when it reads this file)
load_subconfig("nbgrader_config.py", path=SELECTION_FOLDER)  # noqa: F821 (as get_config)

c.CourseDirectory.course_id = "sqrt-dk"
c.CourseDirectory.source_directory = "source"
c.CourseDirectory.release_directory = "release"
# The checks, hidden tests included, live in source/<assignment>/grade_cells.py (tools/write_grade_cells.py writes
# them into the grade cells): never copied to release/, autograded/ or feedback/.
c.CourseDirectory.ignore = [".ipynb_checkpoints", "*.pyc", "__pycache__", "feedback", "grade_cells.py",
                            ".classroom-*.json"]  # the grading record and results (classroom.grading.record, .result)
# and collect's receipt of a hand-in (classroom.intake.RECEIPT)
# How student processes start (classroom/sandbox/launchers.py): the sandbox, "bubblewrap", unless you choose,
# knowingly, on a machine that holds nothing else, to grade with your own rights (what `python -m classroom.autograde
# --no-sandbox` passes):
# c.Grader.launcher_class = "unsandboxed"

# The graded quiz's conceptual statements (INSTRUCTORS.md, "A quiz of your own"): your own file, outside this
# repository and the course directory, in the format of classroom/quiz/demo_statements.json (a demo only). Without
# it, `make quiz-variant` refuses to draw a secret quiz:
# c.QuizStatements.path = "/home/you/private/sqrt-dk-quiz-statements.json"

# The LMS route (INSTRUCTORS.md, "The LMS route"; classroom/lms/): the LMS's own list of students, Canvas's gradebook
# export or Moodle's grading worksheet (classroom/lms/roster.py), and the column of it that holds each student's
# nbgrader id.
c.LmsRoster.path = "lms/roster.csv"
c.LmsRoster.canvas_student_column = "SIS Login ID"
c.LmsRoster.moodle_student_column = "Email address"  # the part before @
# Another LMS: a pattern for the member names of its download, matched at the start of each file's path under
# extracted/ as nbgrader matches it, with (?P<student_id>...) (the nbgrader id itself) or (?P<lms_id>...) (an id of the
# roster's), and (?P<file_id>...); (?P<timestamp>...) if the name carries the time (without it no time is recorded,
# as with nbgrader). E.g. Blackboard's "<assignment>_<username>_attempt_<date>_<file>":
# c.LmsCollector.named_regexp = r".*?_(?P<student_id>[A-Za-z0-9.-]+)_attempt_(?P<timestamp>[0-9-]+)_(?P<file_id>.+)"
# The dates of the zip's members carry no time zone; the LMS's server's zone (Moodle dates them at upload):
c.SafeExtractor.zip_timezone = "UTC"
