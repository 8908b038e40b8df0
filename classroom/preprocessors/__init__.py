"""nbgrader preprocessors for grading with every verdict decided outside the student's kernel, one per module (wired
in by nbgrader_config.py):

* `repair_grade_cells.RepairGradeCells` (autograde, sanitize stage): every grade cell the gradebook knows is present
  once, with its original source and metadata, whatever the student did to it.
* `execute_for_display.ExecuteForDisplay` (autograde): runs the student's own cells so the feedback shows their
  outputs; nothing there decides a grade.
* `trusted_grades.TrustedGrades` (autograde, before SaveAutoGrades): decides every grade cell in the trusted process
  (classroom.trusted.verdict) and writes the verdict as the cell's outputs; `start_trusted_grades.StartTrustedGrades`
  (autograde, first) starts that work in a thread, so that it runs beside the display run.
* `sanitize_feedback.SanitizeFeedback` (generate_feedback): grade cells show their visible part and their verdict,
  each named for the student by what it checks (the feedback page's template: classroom/feedback/page.py).
* `inert_content.InertContent` (autograde, last before SaveAutoGrades; and every HTML page made from a notebook): each
  cell rebuilt from inert content within size caps (its parts, and the page template's filters, are in
  classroom.feedback).
"""
