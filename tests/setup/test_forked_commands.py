"""coursekit.forked_commands: a command forked from the preloader starts as a fresh interpreter starts it (one probe
run both ways sees the same), is a process of its own that signals reach, and is forked only where it is meant to be."""
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from coursekit import forked_commands


@pytest.fixture(autouse=True)
def forking(monkeypatch):
    monkeypatch.setenv(forked_commands.FORK, "1")  # as tests/conftest.py sets it for the suite

PROBE = """
import atexit, json, os, sys
atexit.register(lambda: print("atexit ran", flush=True))
print(json.dumps({
    "argv": sys.argv, "name": __name__, "cwd": os.getcwd(), "path0": sys.path[0], "env": os.environ.get("PROBE_ENV"),
    "umask": os.umask(0), "session_leader": os.getsid(0) == os.getpid(), "fds": sorted(os.listdir("/proc/self/fd")),
    "ours": sorted(m for m in sys.modules if m.split(".")[0] in %r), "stdin": sys.stdin.read(),
    "preloaded": "nbgrader" in sys.modules}))
sys.exit(3)
""" % (forked_commands.OURS,)


def probe_both_ways(tmp_path, *args, **kwargs):
    (tmp_path / "probe_module.py").write_text(PROBE)
    kwargs = dict(cwd=tmp_path, env=dict(os.environ, PROBE_ENV="set by the caller"), input="typed in", text=True,
                  capture_output=True, **kwargs)
    forked_commands.run([sys.executable, "-c", "pass"])  # the preloader started before the caller's umask is set
    mask = os.umask(0o027)
    try:
        return [run([sys.executable, "-m", "probe_module", *args], **kwargs)
                for run in (forked_commands.run, subprocess.run)]
    finally:
        os.umask(mask)


def report(result):
    lines = result.stdout.splitlines()
    assert result.returncode == 3 and lines[1:] == ["atexit ran"], result.stdout + result.stderr
    return json.loads(lines[0])


@pytest.mark.parametrize("new_session", [False, True])
def test_a_probe_sees_the_same_forked_as_fresh(tmp_path, new_session):
    forked, fresh = (report(result) for result in probe_both_ways(tmp_path, "an argument",
                                                                   start_new_session=new_session))
    assert forked.pop("preloaded") and not fresh.pop("preloaded")  # it was forked, and the other was not
    assert forked == fresh
    assert forked["argv"] == [str(tmp_path / "probe_module.py"), "an argument"] and forked["name"] == "__main__"
    assert forked["umask"] == 0o027 and forked["session_leader"] is new_session and forked["ours"] == []
    assert forked["fds"] == ["0", "1", "2", "3"]  # its three streams, and the folder listdir reads


def test_the_other_command_lines_run_as_python_runs_them(tmp_path):
    code = "import sys; print(sys.argv, __name__, sys.path[0] == ''); raise ValueError('the error')"
    forked, fresh = (run([sys.executable, "-c", code, "x"], capture_output=True, text=True)
                     for run in (forked_commands.run, subprocess.run))
    assert forked.returncode == fresh.returncode == 1 and forked.stdout == fresh.stdout == "['-c', 'x'] __main__ True\n"
    assert forked.stderr.endswith("ValueError: the error\n") and fresh.stderr.endswith("ValueError: the error\n")
    script = [str(Path(sys.executable).parent / "nbgrader"), "--version"]
    assert forked_commands.forkable(script, {})
    forked, fresh = (run(script, capture_output=True, text=True) for run in (forked_commands.run, subprocess.run))
    assert forked.returncode == fresh.returncode == 0 and forked.stdout == fresh.stdout and "nbgrader" in forked.stdout


def test_the_pid_is_the_commands_own_and_signals_reach_it():
    # Python leaves SIGINT ignored where its parent ignored it (`make test &` in a script: the shell ignores it for
    # background jobs), forked or not; the sleeper takes Ctrl-C as a terminal's Python does
    sleeper = ("import os, signal, time; signal.signal(signal.SIGINT, signal.default_int_handler); "
               "print(os.getpid(), flush=True); time.sleep(60)")
    for sent, status in ((signal.SIGTERM, -15), (signal.SIGKILL, -9), (signal.SIGINT, -2)):
        process = forked_commands.popen([sys.executable, "-c", sleeper], stdout=subprocess.PIPE, text=True,
                                        start_new_session=True)
        assert isinstance(process, forked_commands.Popen)
        assert int(process.stdout.readline()) == process.pid == os.getpgid(process.pid)
        assert process.poll() is None
        os.killpg(process.pid, sent)
        assert process.wait(timeout=60) == status
        process.stdout.close()


def test_what_it_cannot_start_as_python_would_starts_fresh(monkeypatch):
    command = [sys.executable, "-m", "json.tool", "--help"]
    assert forked_commands.forkable(command, {"cwd": "/", "text": True})
    assert not forked_commands.forkable(command, {"preexec_fn": os.getpid})  # an argument it does not take
    assert not forked_commands.forkable(command, {"env": dict(os.environ, PYTHONPATH="/elsewhere")})
    assert not forked_commands.forkable(command, {"env": dict(os.environ, LC_ALL=os.environ.get("LC_ALL", "C") + "x")})
    assert not forked_commands.forkable(["true"], {})
    assert not forked_commands.forkable([sys.executable, "script.py"], {})
    assert not forked_commands.forkable([str(Path(sys.executable).parent / "jupyter-lab")], {})
    monkeypatch.setenv(forked_commands.FORK, "0")  # outside the suite (a bench), or asked for
    assert not forked_commands.forkable(command, {})
    process = forked_commands.popen(["true"])
    assert type(process) is subprocess.Popen and process.wait() == 0


def test_a_preloader_that_ended_is_replaced_and_a_command_it_took_down_counts_as_killed():
    sleeper = forked_commands.popen([sys.executable, "-c", "import time; time.sleep(60)"])
    preloader = forked_commands._preloader()
    preloader.process.kill()
    preloader.process.wait()
    os.kill(sleeper.pid, signal.SIGKILL)  # orphaned: nobody would report its end
    assert sleeper.wait(timeout=60) == -signal.SIGKILL
    again = forked_commands.run([sys.executable, "-c", "print('again')"], capture_output=True, text=True)
    assert again.stdout == "again\n" and forked_commands._preloader() is not preloader
