"""The late penalty of a committed grading, decided as plain nbgrader decides it.

nbgrader's AssignLatePenalties (the last step of `nbgrader autograde`) asks the configured late-submission plugin
(`c.AssignLatePenalties.plugin_class`, nbgrader's LateSubmissionPlugin by default, `c.LateSubmissionPlugin.
penalty_method` "none" or "zero") for the penalty of each notebook of a late submission, from the notebook's whole
score in the gradebook (automatic scores, manual scores and extra credit) and the seconds late (after the student's
extension), and keeps it between 0 and that score. The driver stages each grading in a private gradebook that holds no
grading by hand, so it asks again here, at commit (classroom.grading.commit), on the course's gradebook, once the
scores kept by hand are back beside the new automatic ones: penalty "zero" leaves 0, whatever was given by hand.
"""


def extension(class_due, due):
    """nbgrader's SubmittedAssignment.extension for work due at `due` when the class's is `class_due` (None: none)."""
    if due is None or class_due is None or due == class_due:
        return None
    return due - class_due


def late_penalty(config, student, notebook, seconds_late):
    """The penalty (or None) of one submitted notebook (nbgrader's SubmittedNotebook, its score current) handed in
    `seconds_late` after its due date, by the plugin and the bounds of nbgrader's AssignLatePenalties."""
    from nbgrader.preprocessors import AssignLatePenalties

    from ..nbgrader_seams import bound_late_penalty

    if not seconds_late or seconds_late <= 0:
        return None
    step = AssignLatePenalties(config=config)
    step.init_plugin()
    found = step.plugin_inst.late_submission_penalty(student, notebook.score, seconds_late)
    return None if found is None else bound_late_penalty(step, notebook, found)  # nbgrader's bounds
