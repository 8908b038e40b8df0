"""A throw-away class made by `make hub`, as INSTRUCTORS.md says, with names of its own, for tests/hub/.

`make hub` runs with SQDK_DEMO, SQDK_COURSE, ... set to this run's names (accounts sqdk-test-<random>-teacher, -ta,
-ann and -ben in two groups of the same prefix, the course, exchange and hub state in a fresh folder) and
HUB_PORT a free port: it builds or reuses the shared environment and the proxy, makes the class, prints the
passwords and starts JupyterHub. Leaving the context presses Ctrl-C (SIGINT to make's process group, as a terminal
does), waits for the hub, its proxy and every user's server to stop, and runs `make hub-clean`, which removes the
accounts, their homes and processes, the groups and the folders, whatever happened in between. `stopped` then says
whether a process was left behind (and kills it, so nothing is).
"""
import contextlib
import importlib.util
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

from coursekit.real_parts.ports import free_port
from coursekit.repository import ROOT
from coursekit.real_parts.waiting import until

DEPLOY = ROOT / "deploy" / "jupyterhub"
START_S = 600  # `make hub` on a fresh machine builds the shared environment first (about a minute of pip)
PASSWORD = re.compile(r"^\s+(?:instructor|student)\s+(\S+)\s+password (\S+)$", re.M)


def deploy_module(name):
    """deploy/jupyterhub/<name>.py as a module (it is no package: it runs as root with any Python 3)."""
    spec = importlib.util.spec_from_file_location(f"deploy_{name}", DEPLOY / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def make(*args, env, **kwargs):
    """`make ARGS` in the repository with the class's SQDK_* names."""
    return subprocess.run(["make", "--no-print-directory", *args], cwd=ROOT, env=dict(os.environ, **env),
                          capture_output=True, text=True, **kwargs)


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


class Hub:
    """The class and its hub; attributes: settings (SQDK_* values), instructor, assistant, students, passwords,
    url, port; after leaving: `stopped`, the processes that had to be killed (none when all went well)."""

    def __init__(self, port=None):
        prefix = f"sqdk-test-{secrets.token_hex(3)}"
        self.folder = Path(tempfile.mkdtemp(prefix=f"{prefix}-"))
        os.chmod(self.folder, 0o755)  # the accounts must reach the course and exchange inside it
        self.port = port or free_port()
        self.env = {"SQDK_DEMO": prefix, "SQDK_INSTRUCTORS": f"{prefix}-teach", "SQDK_STUDENTS": f"{prefix}-learn",
                    "SQDK_COURSE": str(self.folder / "course"), "SQDK_EXCHANGE": str(self.folder / "exchange"),
                    "SQDK_STATE": str(self.folder / "hub"), "SQDK_SERVICE_TOKEN": secrets.token_hex(16)}
        settings = deploy_module("hub_settings")
        self.settings = settings.settings(dict(self.env, SQDK_PORT=str(self.port)))
        accounts = settings.demo_accounts(self.settings)
        (self.instructor, self.assistant), self.students = accounts["instructors"], accounts["students"]
        self.passwords, self.proc, self.url, self.stopped = {}, None, self.settings["url"], []
        self.late = []  # accounts a test adds after set-up (removed at the end whoever made them)
        self.log_path = self.folder / "make-hub.log"

    def __enter__(self):
        try:
            self.log = open(self.log_path, "wb")
            self.proc = subprocess.Popen(["make", "--no-print-directory", "hub", f"HUB_PORT={self.port}"], cwd=ROOT,
                                         env=dict(os.environ, **self.env), stdout=self.log, stderr=subprocess.STDOUT,
                                         start_new_session=True)
            until(self._answers, "make hub never started JupyterHub", START_S, process=self.proc, log=self.tail)
            self.passwords = dict(PASSWORD.findall(self.tail(100_000)))
            self.proxy_pid = int((Path(self.settings["state"]) / "proxy.pid").read_text())
        except BaseException:
            self.__exit__()
            raise
        return self

    def _answers(self):
        try:
            self.api("GET", "/")
            return True
        except OSError:
            return False

    def tail(self, chars=4000):
        return self.log_path.read_text(errors="replace")[-chars:] if self.log_path.exists() else ""

    def api(self, method, path):
        request = urllib.request.Request(f"{self.url}/hub/api{path}", method=method,
                                         headers={"Authorization": f"token {self.env['SQDK_SERVICE_TOKEN']}"})
        with urllib.request.urlopen(request, timeout=30) as reply:
            body = reply.read()
        return json.loads(body) if body else None

    def stop_server(self, user):
        """Stop `user`'s server (it costs CPU while other users work), and wait until it has stopped."""
        with contextlib.suppress(urllib.error.HTTPError):  # already stopped
            self.api("DELETE", f"/users/{user}/server")
        until(lambda: not self.api("GET", f"/users/{user}").get("server"), f"{user}'s server did not stop")

    def as_user(self, user, *command, cwd=None):
        """Run `command` as the Linux account `user`, as its own server would (its groups, the shared env)."""
        return deploy_module("hub_class").as_user(user, self.settings, *command, cwd=cwd or self.folder)

    def _stop(self):
        """Ctrl-C, as in the terminal that runs `make hub`; what had to be killed afterwards goes to `stopped`."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGINT)
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.stopped.append(f"make hub (pid {self.proc.pid})")
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.stopped.append(f"a process of make hub's group {self.proc.pid}")
        self.proc.wait()
        proxy = getattr(self, "proxy_pid", None)
        if proxy and alive(proxy):
            self.stopped.append(f"the proxy (pid {proxy})")
            os.kill(proxy, signal.SIGKILL)

    def __exit__(self, *exc):
        if self.proc is not None:
            self._stop()
            self.log.close()
        cleaned = make("hub-clean", env=self.env)
        self.cleaned = cleaned.stdout + cleaned.stderr
        deploy_module("hub_teardown").remove_class(self.settings, [self.instructor, self.assistant, *self.students,
                                                                   *self.late])  # if clean failed
        shutil.rmtree(self.folder, ignore_errors=True)
