"""nbgrader configuration: the repository itself is the course directory (run nbgrader from here).

The autograde and feedback pipelines are nbgrader's own with four pieces from `classroom` (see INSTRUCTORS.md):
  RepairGradeCells     restore deleted, edited or re-labelled grade cells from the gradebook before grading;
  ExecuteForDisplay    run the student's own cells once, for the feedback only (time, memory and output capped);
  TrustedGrades        decide every grade cell outside the student's kernel, in this process, against the
                       student's solution run in a separate child process;
  SanitizeFeedback     show students which hidden checks failed and why, never the checks' code.
"""
c = get_config()  # noqa: F821 (provided by nbgrader when it reads this file)

c.CourseDirectory.course_id = "sqrt-dk"
c.CourseDirectory.source_directory = "source"
c.CourseDirectory.release_directory = "release"
# The quiz answers will join this assignment as a second notebook beside score_gradient.ipynb.

c.Autograde.sanitize_preprocessors = [
    "nbgrader.preprocessors.ClearOutput",
    "nbgrader.preprocessors.DeduplicateIds",
    "nbgrader.preprocessors.OverwriteKernelspec",
    "classroom.preprocessors.RepairGradeCells",
    "nbgrader.preprocessors.OverwriteCells",
    "nbgrader.preprocessors.CheckCellMetadata",
]
c.OverwriteCells.add_missing_cells = True  # RepairGradeCells has already put missing grade cells back

c.Autograde.autograde_preprocessors = [
    "classroom.preprocessors.ExecuteForDisplay",
    "nbgrader.preprocessors.IgnorePattern",
    "nbconvert.preprocessors.ClearMetadataPreprocessor",
    "nbgrader.preprocessors.LimitOutput",
    "classroom.preprocessors.TrustedGrades",
    "nbgrader.preprocessors.SaveAutoGrades",
    "nbgrader.preprocessors.AssignLatePenalties",
    "nbgrader.preprocessors.CheckCellMetadata",
]

c.GenerateFeedback.preprocessors = [
    "classroom.preprocessors.SanitizeFeedback",
    "nbgrader.preprocessors.GetGrades",
    "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor",
]
