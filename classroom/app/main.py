"""`classroom`: the one command of this course, with a subcommand for each thing an instructor or a learner does.

    classroom SUBCOMMAND [ARGUMENTS] [OPTIONS]       (from the course directory; `python -m classroom` is the same)
    classroom --help-all                             every subcommand and every option of each

Each subcommand is an nbgrader application: it reads nbgrader_config.py, every option it has can also be set there
(`c.ReportCommand.out = "reports"`), and an option it does not know is refused with the nearest real one. The make
targets of INSTRUCTORS.md and README.md are aliases of these (tests/setup/test_classroom_app.py keeps them in step);
the configuration reference, docs/configuration.md, is generated from the same traits (tools/config_reference.py).
"""
import os
import sys

from nbgrader.apps.baseapp import NbGrader
from traitlets import default

from ..wording import did_you_mean
from .base import PROG, strict_loader

DESCRIPTION = __doc__.split("\n\n")[0]
# name: (the application, what it does): the order is the order of a course's cycle, then the learner's
SUBCOMMANDS = {
    "exchange": ("classroom.app.exchange.ExchangeCommand", "Once per machine: the exchange and the course's folder."),
    "release": ("classroom.app.instructor.ReleaseCommand", "Write release/ from source/, keeping a handed-out quiz."),
    "quiz-variant": ("classroom.app.quiz.QuizVariantCommand", "Draw the graded quiz from a secret seed, release it."),
    "quiz-key": ("classroom.app.instructor.QuizKeyCommand", "Refuse a changed graded quiz, or record its key."),
    "autograde": ("classroom.autograde.ClassroomAutogradeApp", "Grade a class, every student's code sandboxed."),
    "feedback": ("classroom.app.instructor.FeedbackCommand", "Write the feedback pages, after any grading run."),
    "grades": ("classroom.app.instructor.GradesCommand", "Every grade of the course to grades.csv."),
    "report": ("classroom.app.instructor.ReportCommand", "The class report of an assignment (PNG, HTML, CSV)."),
    "extension": ("classroom.app.instructor.ExtensionCommand", "Give one student a due date of their own."),
    "drop": ("classroom.app.instructor.DropCommand", "Drop a student for good (--undo takes them back)."),
    "decisions": ("classroom.app.instructor.DecisionsCommand", "List what is decided about single students."),
    "release-zip": ("classroom.app.lms.ReleaseZipCommand", "The student version as one zip to upload to the LMS."),
    "collect-zip": ("classroom.app.lms.CollectZipCommand", "The LMS's download of submissions into submitted/."),
    "lms-grades": ("classroom.app.lms.LmsGradesCommand", "The grades in the LMS's import CSV."),
    "lms-feedback": ("classroom.app.lms.LmsFeedbackCommand", "The feedback pages as the LMS's upload zip."),
    "exercise": ("classroom.app.learner.ExerciseCommand", "Copy the exercise into my-work/ to answer it."),
    "check-exercise": ("classroom.app.learner.CheckExerciseCommand", "Grade my-work/ as a class's work is graded."),
}


def command_class(name):
    """The application class of one subcommand."""
    from traitlets.utils.importstring import import_item

    return import_item(SUBCOMMANDS[name][0])


class ClassroomApp(NbGrader):
    """`classroom` (see the module)."""

    name = PROG
    description = DESCRIPTION
    subcommands = {name: (path, help) for name, (path, help) in SUBCOMMANDS.items()}
    aliases = {}
    flags = {key: NbGrader.flags[key] for key in ("debug", "quiet") if key in NbGrader.flags}

    @default("classes")
    def _classes_default(self):
        return []

    def init_syspath(self):
        """Nothing of the course directory is imported."""

    def _create_loader(self, argv, aliases, flags, classes):
        return strict_loader(self, argv, aliases, flags, classes)

    def initialize_subcommand(self, subc, argv=None):
        command_class(subc).subcommand_name = subc  # its messages name it: `classroom report: ...`
        super().initialize_subcommand(subc, argv)

    def print_help(self, classes=False):
        """The subcommands; with --help-all, every option of each as well."""
        super().print_help(classes=False)
        if classes:
            for name in SUBCOMMANDS:
                app = command_class(name)()
                print(f"\n{'=' * 80}\n{PROG} {name}\n{'=' * 80}")
                app.print_description()
                app.print_options()
                classes = app._classes_default()
                for cls in [type(app), *(cls for cls in classes if cls is not type(app))]:
                    if cls.class_traits(config=True):
                        print(cls.class_get_help())

    def start(self):
        if self.subapp is None:
            unknown = self.extra_args[0] if self.extra_args else ""
            hint = did_you_mean(unknown, SUBCOMMANDS) if unknown else ""
            said = f"there is no subcommand {unknown!r}{hint}" if unknown else "name a subcommand"
            print(f"{PROG}: {said}; `{PROG} --help` lists them.", file=sys.stderr)
            self.status = 2
            return
        self.subapp.start()
        self.status = self.subapp.status


def main(argv=None):
    """Run `classroom` on `argv` (default: the command line); the exit status of the subcommand."""
    from ..grading import environment

    argv = sys.argv[1:] if argv is None else list(argv)
    parent = os.getppid()
    environment.prepare()
    app = ClassroomApp()
    try:
        app.initialize(argv)
    except SystemExit as exc:  # --help and --help-all end here (0), as does an option traitlets cannot read
        return 0 if exc.code in (0, None) else 2
    if app.subapp is not None:
        app.subapp.started_by = parent  # autograde stops when the process that started it ends
    app.start()
    return app.status
