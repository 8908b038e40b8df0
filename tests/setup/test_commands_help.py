"""Every command a maintainer runs answers --help: the benchmarks and tools are argparse scripts (the instructor's and
the learner's commands are the `classroom` application's subcommands, tests/setup/test_classroom_app.py). Each is run
as `python -m ...` (or, for deploy/'s script, `python PATH`) runs it (its `__main__` part), in this process, and must
print its usage and end with status 0, having done nothing else."""
import importlib.util
import runpy
import sys

import pytest

from coursekit.repository import ROOT

MODULES = ["bench.autograde_cost", "bench.autograde_scale", "bench.driver_overhead", "bench.sandbox_overhead",
           "bench.notebook_runtime", "bench.explorer_latency", "bench.suite_cpu", "tools.write_grade_cells",
           "tools.quiz_bank", "tools.refresh_notebooks", "tools.nbgrader_contract", "attention_lesson.explorer.page"]
SCRIPTS = ["deploy/jupyterhub/hub_class.py"]  # no package: it runs as root with any Python 3


def run_help(monkeypatch, capsys, command, *flags):
    """(exit status, what it printed) of one command run with `flags`, as its `__main__` runs it."""
    monkeypatch.setattr(sys, "argv", [command, *flags])
    monkeypatch.setattr(sys, "path", list(sys.path))  # a script may put its own folder first
    with pytest.raises(SystemExit) as ended:
        if command.endswith(".py"):
            runpy.run_path(str(ROOT / command), run_name="__main__")
        elif hasattr(importlib.util.find_spec(command).loader, "get_code"):
            runpy.run_module(command, run_name="__main__", alter_sys=True)
        else:  # loaded as this run's pytest plugin (`python -m bench.suite_cpu` runs the suite so): its loader is
            # pytest's assertion rewriter, which runpy cannot run a module with
            runpy.run_path(importlib.util.find_spec(command).origin, run_name="__main__")
    return ended.value.code, capsys.readouterr().out


@pytest.mark.filterwarnings("ignore:.*found in sys.modules:RuntimeWarning")
@pytest.mark.parametrize("command", MODULES + SCRIPTS)
def test_every_argparse_command_answers_help(monkeypatch, capsys, command):
    status, said = run_help(monkeypatch, capsys, command, "--help")
    assert status == 0 and said.startswith("usage: ") and "-h, --help" in said, said[:500]
