"""A throw-away class on a JupyterHub of its own, for tests/hub/test_hub_class.py.

Real Linux accounts (sqdk-test-<random>-…: an instructor and two students) in two groups of the same prefix, a
course directory, exchange and hub state in a fresh folder, the shared environment made by `make hub-env` and the
proxy by npm (both reused when already made), and JupyterHub started with deploy/jupyterhub/jupyterhub_config.py
on a free loopback port. Leaving the context stops the hub (and with it every user's server), and removes the
accounts, their homes and processes, the groups and the folder, whatever happened in between.
"""
import contextlib
import importlib.util
import json
import os
import secrets
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from coursekit.ports import free_port
from coursekit.repository import ROOT

DEPLOY = ROOT / "deploy" / "jupyterhub"
WAIT_S = 120


def deploy_module(name):
    """deploy/jupyterhub/<name>.py as a module (it is no package: it runs as root with any Python 3)."""
    spec = importlib.util.spec_from_file_location(f"deploy_{name}", DEPLOY / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module



def until(condition, what, seconds=WAIT_S):
    """Wait until condition() is true (checked every 0.2 s), or fail saying `what` never happened."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {seconds} s")
        time.sleep(0.2)


class Hub:
    """The class and its hub; attributes: settings (SQDK_* values), instructor, students, passwords, url."""

    def __init__(self):
        self.hub_class = deploy_module("hub_class")
        prefix = f"sqdk-test-{secrets.token_hex(3)}"
        self.folder = Path(tempfile.mkdtemp(prefix=f"{prefix}-"))
        os.chmod(self.folder, 0o755)  # the accounts must reach the course and exchange inside it
        port = free_port()
        self.env = {"SQDK_INSTRUCTORS": f"{prefix}-teach", "SQDK_STUDENTS": f"{prefix}-learn",
                    "SQDK_COURSE": str(self.folder / "course"), "SQDK_EXCHANGE": str(self.folder / "exchange"),
                    "SQDK_STATE": str(self.folder / "hub"), "SQDK_PORT": str(port),
                    "SQDK_SERVICE_TOKEN": secrets.token_hex(16)}
        self.settings = deploy_module("hub_settings").settings(self.env)
        self.instructor, self.students = f"{prefix}-t", [f"{prefix}-s1", f"{prefix}-s2"]
        self.passwords, self.proc, self.url = {}, None, self.settings["url"]

    def build(self):
        """The shared environment and the proxy, as `make hub` makes them (each reused when already made)."""
        for target in ("hub-env", "deploy/jupyterhub/node_modules/.bin/configurable-http-proxy"):
            made = subprocess.run(["make", "--no-print-directory", target], cwd=ROOT, capture_output=True, text=True)
            assert made.returncode == 0, f"make {target}:\n{made.stdout[-3000:]}\n{made.stderr[-3000:]}"

    def __enter__(self):
        try:
            self.build()
            for group in (self.settings["instructors"], self.settings["students"]):
                self.hub_class.add_group(group)
            self.passwords[self.instructor] = self.hub_class.add_account(self.instructor, self.settings["instructors"])
            for name in self.students:
                self.passwords[name] = self.hub_class.add_account(name, self.settings["students"])
            self.hub_class.make_course(self.settings, self.instructor)
            Path(self.settings["state"]).mkdir(mode=0o700)
            self.log = open(self.folder / "hub" / "jupyterhub.log", "wb")
            self.proc = subprocess.Popen([f"{self.settings['env']}/bin/jupyterhub", "-f",
                                          str(DEPLOY / "jupyterhub_config.py")], cwd=self.settings["state"],
                                         env=dict(os.environ, **self.env), stdout=self.log,
                                         stderr=subprocess.STDOUT, start_new_session=True)
            until(self._answers, "JupyterHub never answered")
        except BaseException:
            self.__exit__()
            raise
        return self

    def _answers(self):
        if self.proc.poll() is not None:
            raise AssertionError(f"JupyterHub exited with {self.proc.returncode}:\n{self.tail()}")
        try:
            self.api("GET", "/")
            return True
        except OSError:
            return False

    def tail(self, chars=4000):
        path = self.folder / "hub" / "jupyterhub.log"
        return path.read_text(errors="replace")[-chars:] if path.exists() else ""

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
        return self.hub_class.as_user(user, self.settings, *command, cwd=cwd or self.folder)

    def __exit__(self, *exc):
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.send_signal(signal.SIGTERM)  # JupyterHub stops every user's server and the proxy
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                pass
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
            self.log.close()
        self.hub_class.remove_class(self.settings, [self.instructor, *self.students])
        shutil.rmtree(self.folder, ignore_errors=True)
