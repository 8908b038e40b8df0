"""The instructor's subcommands beside `classroom autograde` (classroom.autograde), `classroom exchange`
(classroom/app/exchange.py) and `classroom quiz-variant` (classroom/app/quiz.py): release, feedback, grades, report,
the decisions about one student (extension, drop, decisions), and quiz-key. Each does its work through the
module that owns it; this file holds only what the command line and the configuration say."""
import subprocess
import sys
from pathlib import Path

from traitlets import Bool, Unicode

from .base import Command

ASSIGNMENT = "score_gradient"


def assignment_trait():
    return Unicode("", help="The assignment's name, e.g. score_gradient.").tag(config=True)


def nbgrader_command(*args):
    """nbgrader's own command line, from this environment."""
    return [sys.executable, "-m", "nbgrader", *args]


class ReleaseCommand(Command):
    """`classroom release ASSIGNMENT`: nbgrader generate_assignment, refusing to put a changed graded quiz into the
    gradebook once it is handed out (classroom.decisions.quiz_key); --replace-quiz puts it in knowingly and records
    its key."""

    description = "Write release/ASSIGNMENT/ from source/ (nbgrader generate_assignment), keeping a handed-out quiz."
    positional = required = ("assignment",)
    assignment = assignment_trait()
    replace_quiz = Bool(False, help="Put a changed graded quiz into the gradebook knowingly, and record its key as "
                        "the handed-out one (every student must fetch the new quiz).").tag(config=True)
    flags = {"replace-quiz": ({"ReleaseCommand": {"replace_quiz": True}}, replace_quiz.help)}

    def run(self):
        return release(self, self.assignment, self.replace_quiz)


def release(app, assignment, replace_quiz=False):
    """nbgrader generate_assignment of `assignment` for the command `app`, refusing a changed graded quiz once it is
    handed out, or (`replace_quiz`) putting it in knowingly and recording its key; the exit status."""
    if not replace_quiz:
        status = QuizKeyCommand.refuse_changed(app, assignment)
        if status:
            return status
    status = subprocess.call(nbgrader_command("generate_assignment", assignment, "--force"))
    if status or not replace_quiz:
        return status
    return QuizKeyCommand.accept(app, assignment)


class QuizKeyCommand(Command):
    """`classroom quiz-key ASSIGNMENT [--accept]` (classroom.decisions.quiz_key)."""

    description = ("Refuse (status 2) when the source's graded quiz would replace the handed-out one; --accept "
                   "records the gradebook's quiz key as the handed-out one, knowingly.")
    positional = required = ("assignment",)
    assignment = assignment_trait()
    accept_key = Bool(False, help="Record the gradebook's quiz key as the handed-out one, knowingly.").tag(config=True)
    flags = {"accept": ({"QuizKeyCommand": {"accept_key": True}}, accept_key.help)}

    def run(self):
        return (self.accept if self.accept_key else self.refuse_changed)(self, self.assignment)

    @staticmethod
    def refuse_changed(app, assignment):
        from ..decisions import quiz_key

        gb = quiz_key.open_gradebook(app.coursedir)
        try:
            said = quiz_key.refusal(app, gb, assignment, quiz_key.source_key(app.coursedir, assignment),
                                    "`make release`")
        finally:
            if gb is not None:
                gb.close()
        if said:
            print(f"classroom quiz-key: {said}", file=sys.stderr)
            return 2
        return 0

    @staticmethod
    def accept(app, assignment):
        from ..decisions import quiz_key, store
        from ..bookkeeping import lock

        gb = quiz_key.open_gradebook(app.coursedir)
        if gb is None:
            print("classroom quiz-key: the course has no gradebook yet: nothing to record", file=sys.stderr)
            return 2
        try:
            with lock.hold(lock.work_folder(app.coursedir.root), wait=True,
                           tell=lambda message: print(f"classroom quiz-key: {message}", file=sys.stderr)):
                data = store.read(app.coursedir.root)
                data["quiz_keys"][assignment] = quiz_key.gradebook_key(gb, assignment)
                store.write(app.coursedir.root, data)
        finally:
            gb.close()
        print(f"classroom quiz-key: the quiz of {assignment} now in the gradebook is recorded as the handed-out one: "
              "every student is graded with its key.")
        return 0


class FeedbackCommand(Command):
    """`classroom feedback ASSIGNMENT`: nbgrader generate_feedback --force while holding the course's lock (it waits
    for a grading run to finish, and says so), so that no page is made from half a run."""

    description = "Write the HTML feedback pages of ASSIGNMENT to feedback/, after any grading run ends."
    positional = required = ("assignment",)
    assignment = assignment_trait()

    def run(self):
        from ..decisions import store
        from ..bookkeeping import lock

        with lock.hold(lock.work_folder(self.coursedir.root), wait=True,
                       tell=lambda message: print(f"[classroom feedback] {message}", file=sys.stderr, flush=True)):
            # a dropped student is no longer in the gradebook: nbgrader would stop at their autograded/ folder
            dropped = sorted(store.dropped(store.read(self.coursedir.root)))
            excluded = [s for s in self.coursedir.student_id_exclude.split(",") if s] + dropped
            if dropped:
                print(f"[classroom feedback] no page for the dropped: {', '.join(dropped)}", flush=True)
            exclude = [f"--CourseDirectory.student_id_exclude={','.join(excluded)}"] if excluded else []
            return subprocess.call(nbgrader_command("generate_feedback", self.assignment, "--force", *exclude))


class GradesCommand(Command):
    """`classroom grades`: nbgrader export of every grade to a CSV file (nbgrader's own columns)."""

    description = "Every grade of the course to a CSV file (nbgrader export)."
    to = Unicode("grades.csv", help="The CSV file to write.").tag(config=True)
    aliases = {"to": "GradesCommand.to"}

    def run(self):
        return subprocess.call(nbgrader_command("export", "--to", self.to))


class ReportCommand(Command):
    """`classroom report ASSIGNMENT` (classroom.report)."""

    description = ("Write the class report of ASSIGNMENT from the gradebook, after grading: report/ASSIGNMENT.png, "
                   ".html and -by-check.csv.")
    positional = required = ("assignment",)
    assignment = assignment_trait()
    out = Unicode("report", help="The folder the report is written to.").tag(config=True)
    aliases = {"out": "ReportCommand.out"}

    def run(self):
        from ..report.build import report_command

        return report_command(Path(self.coursedir.root), self.assignment, self.out)


class ExtensionCommand(Command):
    """`classroom extension ASSIGNMENT STUDENT DUEDATE` (classroom.decisions.store)."""

    description = 'Give one student a due date of their own, e.g. "2026-12-18 23:59:00 -0500"; --remove takes it back.'
    positional = ("assignment", "student", "duedate")
    required = ("assignment", "student")
    assignment = assignment_trait()
    student = Unicode("", help="The student's id.").tag(config=False)
    duedate = Unicode("", help='The new due date, e.g. "2026-12-18 23:59:00 -0500".').tag(config=False)
    remove = Bool(False, help="Remove the student's extension.").tag(config=True)
    flags = {"remove": ({"ExtensionCommand": {"remove": True}}, remove.help)}

    def run(self):
        if bool(self.duedate) == self.remove:
            return self.refuse("give the new due date, or --remove (not both)")
        from ..decisions import store

        return decide(self, lambda: store.grant(self.coursedir, self.assignment, self.student, self.duedate or None))


class DropCommand(Command):
    """`classroom drop STUDENT [--undo]` (classroom.decisions.store)."""

    description = "Drop a student from the course for good (--undo takes them back)."
    positional = required = ("student",)
    student = Unicode("", help="The student's id.").tag(config=False)
    undo = Bool(False, help="Take a dropped student back.").tag(config=True)
    flags = {"undo": ({"DropCommand": {"undo": True}}, undo.help)}

    def run(self):
        from ..decisions import store

        return decide(self, lambda: store.drop(self.coursedir, self.student, self.undo))


class DecisionsCommand(Command):
    """`classroom decisions`: what is decided about single students (classroom.decisions.store)."""

    description = "List the extensions, dropped students and handed-out quiz keys."

    def run(self):
        from ..decisions import store

        print(store.show(self.coursedir.root))
        return 0


def decide(app, change):
    """Make one decision under the course's lock; what it said, or why nothing was changed."""
    from ..bookkeeping import lock

    try:
        with lock.hold(lock.work_folder(app.coursedir.root), wait=True,
                       tell=lambda message: print(f"classroom {app.subcommand_name}: {message}", file=sys.stderr)):
            said = change()
    except ValueError as exc:  # DecisionError, DueDateError, intake.BadSubmission
        return app.refuse(f"nothing was changed: {exc}")
    print(said)
    return 0
