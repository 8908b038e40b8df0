"""Every command an instructor or a maintainer runs answers --help, in one of two styles: the grading driver is an
nbgrader-style application (traitlets: its options also settable in nbgrader_config.py, --help-all lists every
class's), the rest argparse. Each is run as `python -m ...` (or, for deploy/'s script, `python PATH`) runs it (its
`__main__` part), in this process, and must print its usage and end with status 0, having done nothing else."""
import runpy
import sys

import pytest

from coursekit.repository import ROOT

MODULES = ["classroom.report", "classroom.decisions", "classroom.decisions.quiz_key", "classroom.grading.lock",
           "classroom.lms.collect_zip", "classroom.lms.release_zip", "classroom.lms.grades",
           "classroom.lms.feedback", "classroom.self_study.exercise", "classroom.self_study.check",
           "bench.autograde_cost", "bench.autograde_scale", "bench.driver_overhead", "bench.sandbox_overhead",
           "bench.notebook_runtime", "bench.explorer_latency", "tools.write_grade_cells", "tools.make_exchange",
           "tools.quiz_bank", "tools.quiz_variant", "tools.refresh_notebooks", "tools.nbgrader_contract",
           "attention_lesson.explorer.page"]
SCRIPTS = ["deploy/jupyterhub/hub_class.py"]  # no package: it runs as root with any Python 3


def run_help(monkeypatch, capsys, command, *flags):
    """(exit status, what it printed) of one command run with `flags`, as its `__main__` runs it."""
    monkeypatch.setattr(sys, "argv", [command, *flags])
    monkeypatch.setattr(sys, "path", list(sys.path))  # a script may put its own folder first
    with pytest.raises(SystemExit) as ended:
        if command.endswith(".py"):
            runpy.run_path(str(ROOT / command), run_name="__main__")
        else:
            runpy.run_module(command, run_name="__main__", alter_sys=True)
    return ended.value.code, capsys.readouterr().out


@pytest.mark.filterwarnings("ignore:.*found in sys.modules:RuntimeWarning")
@pytest.mark.parametrize("command", MODULES + SCRIPTS)
def test_every_argparse_command_answers_help(monkeypatch, capsys, command):
    status, said = run_help(monkeypatch, capsys, command, "--help")
    assert status == 0 and said.startswith("usage: ") and "-h, --help" in said, said[:500]


@pytest.mark.filterwarnings("ignore:.*found in sys.modules:RuntimeWarning")
def test_the_grading_driver_answers_help_and_help_all_as_an_nbgrader_application(monkeypatch, capsys):
    status, said = run_help(monkeypatch, capsys, "classroom.autograde", "--help")
    assert status in (0, None)
    for option in ("--jobs=<Int>", "--scheduler=<Unicode>", "--wait", "--no-sandbox", "--force", "--student=",
                   "--notebook=", "--db=", "Equivalent to: [--ClassroomAutogradeApp.jobs]"):
        assert option in said, option
    status, said = run_help(monkeypatch, capsys, "classroom.autograde", "--help-all")
    assert status in (0, None)
    for option in ("--ClassroomAutogradeApp.jobs=<Int>", "--CourseDirectory.db_url=", "--Grader.launcher_class=",
                   "--TrustedGrades.call_timeout=", "--ExecuteForDisplay.timeout="):
        assert option in said, option
