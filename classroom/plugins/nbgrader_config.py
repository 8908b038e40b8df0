"""The grading system's plugin selection for nbgrader: which of classroom's classes nbgrader uses, and nothing about a
course (no course id, folder, roster or time zone). A course loads it first thing in its own nbgrader_config.py:

    from classroom.plugins import SELECTION_FOLDER
    load_subconfig("nbgrader_config.py", path=SELECTION_FOLDER)

or puts this folder on nbgrader's config path (JUPYTER_CONFIG_PATH=<this folder>), as `make nbgrader-contract` does to
run nbgrader's own tests with these plugins (docs/differences-from-nbgrader.md). A course's own lines, read after
this file, override it. What each piece does: INSTRUCTORS.md and the modules named below.
"""
from classroom.feedback import page as feedback_page
from classroom import intake, nbgrader_seams
from classroom.decisions import dates

c = get_config()  # noqa: F821 (provided by nbgrader when it reads this file)

# Due dates (`nbgrader db assignment add --duedate`, `generate_assignment --duedate`, the formgrader's field) are read
# right or refused: an offset such as -0500, a zone name such as America/New_York, or UTC (classroom/decisions/dates.py
# reads them; classroom/nbgrader_seams.py puts that reading in place of nbgrader 0.9.5's, which takes -0500 for
# -500 seconds).
nbgrader_seams.read_due_dates_strictly(dates.parse_utc, dates.DueDateError)
# Roster ids (`nbgrader db student add`, `nbgrader db student import`) are refused where they enter unless plain: ASCII
# letters, digits, '_', '.' and '-', as collect requires (classroom/intake/__init__.py; the seam in nbgrader_seams.py).
nbgrader_seams.require_plain_roster_ids(intake.id_rule_broken)

PREPROCESSORS = "classroom.preprocessors"
# Autograde: nbgrader's own pipeline, every student process in the sandbox. Each assignment is graded with the design
# its checks are written for (classroom/grading/design.py: the trusted design when its grade cells import
# classroom.checks or c.GradingDesign.trusted_assignments names it, else nbgrader's); each step below that belongs to
# one design does nothing for the other.
#   RepairGradeCells     restore deleted, edited or re-labelled grade cells from the gradebook before grading;
#   SandboxedExecute     nbgrader's design: nbgrader's Execute, every cell in order in one sandboxed kernel, grade
#                        cells included (limits on CPU time, memory and output; the grader's marks kept as data);
#   ExecuteForDisplay    the trusted design: run the student's own cells once, for the feedback only;
#   TrustedGrades        the trusted design: decide every grade cell outside the student's kernel, in this process,
#                        against the student's answer cells run in a separate child process (StartTrustedGrades
#                        begins that work first, so that it runs beside ExecuteForDisplay);
#   SaveAutoGrades       nbgrader's, reading each grade cell's outputs: the verdicts, or what the cell printed;
#   InertContent         rebuild every cell from inert content within size caps: no HTML, script, widget or outside
#                        image from a student reaches autograded/, feedback/ or the formgrader's pages.
c.Autograde.sanitize_preprocessors = [
    "nbgrader.preprocessors.ClearOutput",
    "nbgrader.preprocessors.DeduplicateIds",
    "nbgrader.preprocessors.OverwriteKernelspec",
    f"{PREPROCESSORS}.repair_grade_cells.RepairGradeCells",
    "nbgrader.preprocessors.OverwriteCells",
    "nbgrader.preprocessors.CheckCellMetadata",
]
c.OverwriteCells.add_missing_cells = True  # RepairGradeCells has already put missing grade cells back
# Every student process (the kernel, the grading child) is started by one launcher, the sandbox unless the course
# chooses otherwise (c.Grader.launcher_class, classroom/sandbox/launchers.py).
c.Autograde.autograde_preprocessors = [
    f"{PREPROCESSORS}.start_trusted_grades.StartTrustedGrades",  # TrustedGrades' work, begun beside the display run
    f"{PREPROCESSORS}.sandboxed_execute.SandboxedExecute",
    f"{PREPROCESSORS}.execute_for_display.ExecuteForDisplay",
    "nbgrader.preprocessors.IgnorePattern",
    "nbconvert.preprocessors.ClearMetadataPreprocessor",
    "nbgrader.preprocessors.LimitOutput",
    f"{PREPROCESSORS}.trusted_grades.TrustedGrades",
    "nbgrader.preprocessors.SaveAutoGrades",
    "nbgrader.preprocessors.AssignLatePenalties",
    f"{PREPROCESSORS}.inert_content.AutogradedInertContent",
    "nbgrader.preprocessors.CheckCellMetadata",
]

# Feedback: SanitizeFeedback shows students which hidden checks failed and why, never the checks' code nor grade ids.
c.GenerateFeedback.preprocessors = [
    f"{PREPROCESSORS}.sanitize_feedback.SanitizeFeedback",
    "nbgrader.preprocessors.GetGrades",
    "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor",
]
# The feedback page is our template, classroom/feedback/templates/feedback, extending nbgrader's
# (classroom/feedback/page.py): each check named by its description, no grade id, no MathJax nor any other outside
# file, text that wraps. Set on FeedbackPage, not HTMLExporter, so the formgrader's own pages keep nbgrader's templates
# and its Generate Feedback button makes this page too.
c.GenerateFeedback.exporter_class = "classroom.feedback.page.FeedbackPage"
c.FeedbackPage.template_name = feedback_page.TEMPLATE
c.FeedbackPage.extra_template_basedirs = [feedback_page.TEMPLATES]
# Every HTML page made from a notebook with this configuration (feedback, the formgrader's manual grading view) is
# made from an inert copy, even of a notebook autograded before InertContent was in the pipeline; any HTML left in
# Markdown passes classroom's whitelist (nbconvert's own clean_html shows headings and tables as tags). Maths in
# Markdown is written as MathML when the page is made (latex2mathml; browsers render it with no script), and the
# whitelist lets exactly that MathML through.
c.HTMLExporter.preprocessors = [f"{PREPROCESSORS}.inert_content.InertContent"]
c.HTMLExporter.sanitize_html = True
c.HTMLExporter.filters = {"clean_html": "classroom.feedback.clean_html.clean_html",
                          "markdown2html": "classroom.feedback.markdown_math.markdown2html"}

# Collect reads each hand-in as untrusted (inbound/ is writable by every student): who handed in is the account that
# owns the folder, when is the server's clock, only regular files are copied (the assignment's notebooks first), and
# what cannot be taken is refused or dropped with its reason, while the rest is collected (classroom/plugins/
# exchange_collect.py, classroom/intake/__init__.py). Submit leaves a hand-in no classmate can change (exchange_submit.py).
c.ExchangeFactory.collect = "classroom.plugins.exchange_collect.SafeCollect"
c.ExchangeFactory.submit = "classroom.plugins.exchange_submit.SafeSubmit"
# Release Feedback releases only the pages of the current grades (a page made before a re-grade or a score changed by
# hand is named and held back), and a hand-in without timestamp.txt stops nobody
# (classroom/plugins/release_feedback.py).
c.ExchangeFactory.release_feedback = "classroom.plugins.release_feedback.SafeReleaseFeedback"
# `nbgrader export` writes grades.csv through the csv module, text that a spreadsheet would evaluate made inert, same
# columns as nbgrader's (classroom/plugins/csv_export.py).
c.ExportApp.plugin_class = "classroom.plugins.csv_export.SafeCsvExport"
# `nbgrader zip_collect` (and `make collect-zip`) unpack an LMS's download of submissions with SafeExtractor
# (notebooks only, every member's name, kind, size and compression ratio checked before a capped read: never
# nbgrader's unpack_archive) and place each notebook as LmsCollector decides (c.LmsCollector.named_regexp as nbgrader
# reads it, else Canvas's and Moodle's naming with the LMS's ids mapped to nbgrader ids by the course's roster; the
# notebook recognised by its graded cells; the latest re-submission), reporting every file not placed and why.
c.ZipCollectApp.extractor_plugin = "classroom.lms.extractor.SafeExtractor"
c.ZipCollectApp.collector_plugin = "classroom.lms.collector.LmsCollector"
