"""How grading starts a student process: one launcher, chosen in the configuration as JupyterHub chooses its spawner.

    c.Grader.launcher_class = "bubblewrap"   # the default: every student process in the sandbox (launch.py)
    c.Grader.launcher_class = "unsandboxed"  # knowingly: the student's code runs with the grader's rights

(or `--Grader.launcher_class=unsandboxed` on nbgrader's command line; `python -m classroom.autograde --no-sandbox`
passes that). A launcher may also be named by its import path: another one is a subclass of `Launcher`.

The display run's kernel (classroom.sandbox.kernel, classroom.preprocessors.execute_for_display) and the grading
child (classroom.trusted.child_handle, through classroom.preprocessors.trusted_grades) are both started with it: each
preprocessor asks `chosen(self)` for the launcher, `require()`s it before any student code runs, and hands it down.
"""
from traitlets import TraitError, Type
from traitlets.config import Configurable, LoggingConfigurable

from . import launch


class Launcher(LoggingConfigurable):
    """Starts a student process with its limits; subclasses say where it runs."""

    isolated = False  # whether the process has a network of its own (then a kernel talks over IPC, not 127.0.0.1)

    def require(self):
        """Before any student code runs: raise an error that says what to do if this launcher cannot work here."""

    def command(self, argv, *, memory, cpu_seconds, processes=launch.PROCESSES, home=None, readonly=(), writable=(),
                ipc_dir=None, env=None, cgroup=None):
        """The command line that runs `argv` (see classroom.sandbox.launch.bubblewrap for the arguments)."""
        raise NotImplementedError


class BubblewrapLauncher(Launcher):
    """Every student process in a bubblewrap sandbox: no network, no course files, limits (classroom.sandbox.launch)."""

    isolated = True

    def require(self):
        launch.require()  # SandboxUnavailable, saying how to install bubblewrap and how to grade without it

    def command(self, argv, **where):
        return launch.bubblewrap(argv, **where)


class UnsandboxedLauncher(Launcher):
    """The same limits without a sandbox: the student's code runs with the grader's rights. Only for a machine or an
    account that holds nothing else (no other course, no other student's work), and only when chosen."""

    def require(self):
        self.log.warning("Grading WITHOUT the sandbox (Grader.launcher_class=unsandboxed): the student's code runs "
                         "with your rights")

    def command(self, argv, *, memory, cpu_seconds, processes=launch.PROCESSES, cgroup=None, **where):
        return launch.limited(argv, memory, cpu_seconds, processes=processes, cgroup=cgroup)


NAMES = {"bubblewrap": BubblewrapLauncher, "unsandboxed": UnsandboxedLauncher}


class LauncherType(Type):
    """A Launcher class, given as a short name of NAMES, an import path, or the class itself."""

    def _resolve_string(self, string):
        return NAMES[string] if string in NAMES else super()._resolve_string(string)

    def validate(self, obj, value):
        try:
            return super().validate(obj, value)
        except TraitError:
            raise TraitError(f"Grader.launcher_class is {value!r}, which is not a launcher: name one of "
                             f"{', '.join(NAMES)}, or the import path of a subclass of {__name__}.Launcher") from None


class Grader(Configurable):
    """Choices that hold for every student process a grading run starts."""

    launcher_class = LauncherType(BubblewrapLauncher, klass=Launcher, help=(
        "How student processes are started: 'bubblewrap' (the sandbox), 'unsandboxed' (knowingly: the student's code "
        "runs with your rights), or the import path of a Launcher subclass.")).tag(config=True)


def chosen(parent):
    """The configured launcher, built as a child of `parent` (a preprocessor) so that its options reach it."""
    return Grader(parent=parent).launcher_class(parent=parent)
