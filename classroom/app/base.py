"""What every `classroom` subcommand is: an nbgrader application (nbgrader's NbGrader base, as `nbgrader autograde`
is one) that reads nbgrader_config.py, declares its options as traits (so `--help`, `--help-all` and
`c.<Command>.<option> = ...` in the configuration all work), refuses an option it does not know with the nearest
real one, and takes its positional arguments (an assignment, a student ...) by name into traits.

A command sets `positional` to the traits its positional arguments fill, in order (the last may take the rest when
`rest` is set), and implements `run()`, which returns the exit status: 0 done, 1 failed part-way (it says what), 2
nothing was done (it says why).
"""
import re
import sys

from nbgrader.apps.baseapp import NbGrader
from nbgrader.coursedir import CourseDirectory
from traitlets import default
from traitlets.config.loader import KVArgParseConfigLoader

from ..wording import did_you_mean

PROG = "classroom"


class StrictLoader(KVArgParseConfigLoader):
    """traitlets' loader of the command line, with the error its docs suggest for an option nobody defines (traitlets
    only warns: a mistyped `--studnet alice` must not grade the whole class)."""

    command = PROG  # what --help is asked of, in the message
    refused_means = "nothing was done"

    def _handle_unrecognized_alias(self, arg):
        self.parser.error(self._unknown(arg))

    def _unknown(self, arg):
        return (f"there is no option --{arg}{did_you_mean(arg, [*self.aliases, *self.flags], cutoff=0.5)} "
                f"(`{self.command} --help` lists them): {self.refused_means}")

    def _create_parser(self):
        """traitlets' parser, whose complaint about an unknown option given without a value (`--forse`, read as an
        option that wants one) names the option and the nearest real one instead."""
        super()._create_parser()
        complain = self.parser.error

        def error(message):
            unknown = re.fullmatch(r"argument --([\w-]+): expected one argument", message)
            if unknown and unknown.group(1) not in [*self.aliases, *self.flags]:
                message = self._unknown(unknown.group(1))
            complain(message)

        self.parser.error = error


def strict_loader(app, argv, aliases, flags, classes):
    """A StrictLoader for `app` (a subcommand names itself in its messages)."""
    loader = StrictLoader(argv, aliases, flags, classes=classes, log=app.log, subcommands=app.subcommands)
    loader.command = " ".join(filter(None, [PROG, getattr(app, "subcommand_name", "")]))
    loader.refused_means = getattr(app, "refused_means", loader.refused_means)
    return loader


class Command(NbGrader):
    """One `classroom` subcommand (see the module)."""

    subcommand_name = ""  # e.g. "report": set by classroom.app.main
    positional = ()       # the traits the positional arguments fill, in order
    required = ()         # those that must be given (on the command line or in the configuration)
    rest = False          # the last positional takes every argument left (a command to run)
    status = None         # the exit status, once run

    extra_classes = ()    # configurable classes it reads beyond its own and CourseDirectory (--help-all lists them)

    @default("classes")
    def _classes_default(self):
        return [type(self), CourseDirectory, *self.extra_classes]

    def init_syspath(self):
        """The course directory is not put on sys.path: nothing of it is imported."""

    def _create_loader(self, argv, aliases, flags, classes):
        return strict_loader(self, argv, aliases, flags, classes)

    def say(self, message, error=False):
        print(message, file=sys.stderr if error else sys.stdout, flush=True)

    def refuse(self, message):
        """Status 2, having said why nothing was done."""
        self.say(f"{PROG} {self.subcommand_name}: {message}", error=True)
        return 2

    def fill_positional(self):
        """The positional arguments into their traits; a refusal message, or None."""
        args = list(self.extra_args)
        names = list(self.positional)
        if self.rest and names:
            *names, last = names
            head, tail = args[:len(names)], args[len(names):]
            if tail:
                setattr(self, last, tail)
            args = head
        if len(args) > len(names):
            return (f"too many arguments ({' '.join(args[len(names):])}): it takes "
                    f"{' '.join(n.upper() for n in self.positional) or 'none'}")
        for name, value in zip(names, args):
            setattr(self, name, value)
        missing = [name.upper() for name in self.required if not getattr(self, name)]
        if missing:
            return f"name the {' and the '.join(missing)} (`{PROG} {self.subcommand_name} --help` shows how)"
        return None

    def start(self):
        refused = self.fill_positional()
        self.status = self.refuse(refused) if refused else self.run()

    def run(self):
        raise NotImplementedError
