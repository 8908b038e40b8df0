"""The learner's subcommands (classroom.self_study): exercise (a copy of the exercise to work in) and check-exercise
(that copy graded as a class's work is, with its feedback)."""
from traitlets import Bool, Unicode

from .base import Command
from ..self_study import ASSIGNMENT, WORK


class _Learner(Command):
    positional = ("assignment",)
    assignment = Unicode(ASSIGNMENT, help="The exercise's name.").tag(config=True)
    work = Unicode(WORK, help="The learner's folder.").tag(config=True)


class ExerciseCommand(_Learner):
    """`classroom exercise [ASSIGNMENT] [--work my-work]` (classroom.self_study.exercise)."""

    description = "Copy the exercise into my-work/ASSIGNMENT/ (a file already there is kept: your work is never lost)."
    in_lab = Bool(False, help="Then open the copy in the JupyterLab already serving this folder; exit status 3 where "
                              "none runs (make exercise then starts one).").tag(config=True)
    quiet = Bool(False, help="Say only what was copied (make lab runs it so).").tag(config=True)
    aliases = {"work": "ExerciseCommand.work"}
    flags = {"in-lab": ({"ExerciseCommand": {"in_lab": True}}, in_lab.help),
             "quiet": ({"ExerciseCommand": {"quiet": True}}, quiet.help)}

    def run(self):
        from ..self_study.exercise import exercise_command

        return exercise_command(self.assignment, self.work, in_lab=self.in_lab, quiet=self.quiet)


class CheckExerciseCommand(_Learner):
    """`classroom check-exercise [ASSIGNMENT] [--work my-work] [--no-sandbox]` (classroom.self_study.grade_exercise)."""

    description = ("Grade my-work/ASSIGNMENT/ as a class's work is graded, and write its feedback to "
                   "my-work/feedback/.")
    no_sandbox = Bool(False, help="Grade without bubblewrap, knowingly: your code runs with your rights.").tag(
        config=True)
    aliases = {"work": "CheckExerciseCommand.work"}
    flags = {"no-sandbox": ({"CheckExerciseCommand": {"no_sandbox": True}}, no_sandbox.help)}

    def run(self):
        from ..self_study.grade_exercise import check_exercise_command

        return check_exercise_command(self.assignment, self.work, not self.no_sandbox)
