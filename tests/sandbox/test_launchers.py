"""How student processes are started is one launcher chosen in the configuration (classroom.sandbox.launchers):
bubblewrap unless an instructor names another knowingly; both preprocessors that start student code take it from
there; a launcher name that is not one is refused before anything is graded; without bwrap the sandbox refuses with
what to do."""
import logging

import pytest
from traitlets import TraitError
from traitlets.config import Config
from traitlets.config.loader import PyFileConfigLoader

from classroom.grading import settings
from classroom.preprocessors.execute_for_display import ExecuteForDisplay
from classroom.preprocessors.trusted_grades import TrustedGrades
from classroom.sandbox import launch, launchers
from classroom.sandbox.launchers import BubblewrapLauncher, Launcher, UnsandboxedLauncher
from coursekit.parts import requires
from coursekit.repository import ROOT


def configured(value):
    """The course's nbgrader_config.py, with `c.Grader.launcher_class = value`."""
    config = PyFileConfigLoader("nbgrader_config.py", path=str(ROOT)).load_config()
    config.Grader.launcher_class = value
    return config


class Recording(Launcher):
    """A launcher of the instructor's own, named by its import path."""


def test_the_sandbox_is_the_default_for_both_preprocessors():
    assert type(TrustedGrades().launcher) is BubblewrapLauncher
    assert type(ExecuteForDisplay().launcher) is BubblewrapLauncher


@pytest.mark.parametrize("value, chosen", [("unsandboxed", UnsandboxedLauncher), ("bubblewrap", BubblewrapLauncher),
                                           (f"{__name__}.Recording", Recording), (UnsandboxedLauncher,
                                                                                  UnsandboxedLauncher)])
def test_the_configuration_chooses_the_launcher_of_both_preprocessors(value, chosen):
    config = configured(value)
    assert type(TrustedGrades(config=config).launcher) is chosen
    assert type(ExecuteForDisplay(config=config).launcher) is chosen


@pytest.mark.parametrize("value", ["no_sandbox", "classroom.sandbox.launch.MiB", "logging.Logger"])
def test_a_launcher_that_is_not_one_is_refused_before_grading(value):
    with pytest.raises(TraitError):
        TrustedGrades(config=configured(value))
    found = settings.problems(configured(value))
    assert [p for p in found if "TrustedGrades" in p and "name one of bubblewrap, unsandboxed" in p], found


def test_a_typo_in_the_option_is_named_before_grading():
    config = Config()
    config.Grader.launcher_clas = "unsandboxed"
    assert any("did you mean `launcher_class`" in p for p in settings.problems(config))


def test_without_bwrap_the_sandbox_refuses_saying_how_to_install_it_or_grade_without(monkeypatch):
    monkeypatch.setattr(launch.shutil, "which", lambda name: None)
    with pytest.raises(launch.SandboxUnavailable) as refused:
        BubblewrapLauncher().require()
    assert str(refused.value) == launch.MISSING and "apt-get install bubblewrap" in launch.MISSING
    with pytest.raises(launch.SandboxUnavailable):
        BubblewrapLauncher().command(["python"], memory=2 ** 30, cpu_seconds=5)
    UnsandboxedLauncher().require()  # no bwrap needed to grade without the sandbox, knowingly


def test_grading_without_the_sandbox_says_so_in_the_log(caplog):
    launcher = UnsandboxedLauncher(log=logging.getLogger("grading"))
    with caplog.at_level(logging.WARNING, logger="grading"):
        launcher.require()
    assert "WITHOUT the sandbox" in caplog.text


def test_the_unsandboxed_command_keeps_the_limits_and_nothing_of_bubblewrap(tmp_path):
    command = UnsandboxedLauncher().command(["python", "x.py"], memory=2 ** 30, cpu_seconds=7, home=str(tmp_path),
                                            readonly=["/etc/hostname"], env={"HOME": str(tmp_path)})
    assert command[-3:] == ["--", "python", "x.py"]
    assert ["--memory", str(2 ** 30)] == command[command.index("--memory"):][:2] and "--cpu" in command
    assert not [arg for arg in command if "bwrap" in arg or arg.startswith("--unshare")]


@requires("sandbox")  # the command is made by probing the real bwrap
def test_the_bubblewrap_command_has_no_network_and_binds_only_what_it_is_given(tmp_path):
    given, home = tmp_path / "given.txt", tmp_path / "home"
    given.write_text("x")
    home.mkdir()
    command = BubblewrapLauncher().command(["python"], memory=2 ** 30, cpu_seconds=7, home=str(home),
                                           readonly=[str(given)])
    assert command[0] == launch.bwrap_path() and "--unshare-net" in command
    assert ["--ro-bind", str(given), str(given)] == command[command.index(str(given)) - 1:][:3]
    assert str(tmp_path) not in [command[i + 1] for i, arg in enumerate(command) if arg in ("--bind", "--ro-bind")]
    assert launchers.BubblewrapLauncher.isolated and not launchers.UnsandboxedLauncher.isolated
