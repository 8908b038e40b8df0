"""JupyterHub for a class on one Linux server: INSTRUCTORS.md, "A class on JupyterHub". Run as root by `make hub`.

Accounts are the server's own Linux accounts, checked by PAM (JupyterHub's default authenticator); the Linux groups
of hub_settings.py say who teaches and who learns, and only their members may log in. Each user's JupyterLab runs
as that Linux user (LocalProcessSpawner) from the shared environment that `make hub-env` builds, so every file
permission below is enforced by the kernel, not by JupyterHub. Paths and names: hub_settings.py.
"""
import os
import pwd
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from hub_settings import LESSONS, STUDENT_CONFIG, course_id, members, port_refused, role, settings  # noqa: E402

c = get_config()  # noqa: F821 (provided by JupyterHub when it reads this file)
S = settings()
# A proxy on a taken port dies while JupyterHub says it is running: stop first, with the sentence `make hub` gives.
if port_refused(S, "JupyterHub was not started"):
    sys.exit(port_refused(S, "JupyterHub was not started"))
ENV = Path(S["env"])


def free_port(ip="127.0.0.1"):
    """A port nothing listens on now, for the hub's own API and the proxy's (never fixed ones: a second hub on the
    machine, or a test beside `make hub`, takes others)."""
    with socket.socket() as probe:
        probe.bind((ip, 0))
        return probe.getsockname()[1]


# The proxy listens on SQDK_IP:SQDK_PORT (checked free above); every user's server gets an origin of
# its own below SQDK_URL (http://<user>.localhost:8000 by default; on a real server a wildcard DNS name and
# certificate), so that one user's pages can never act inside another's (etc/jupyter/jupyter_server_config.py relies
# on it). The hub's API and the proxy's API listen on free ports of 127.0.0.1, chosen at each start.
c.JupyterHub.ip = S["ip"]
c.JupyterHub.port = int(S["port"])
c.JupyterHub.subdomain_host = S["url"]
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = free_port()
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{free_port()}"
c.ConfigurableHTTPProxy.command = [str(HERE / "node_modules" / ".bin" / "configurable-http-proxy")]
state = Path(S["state"])
c.JupyterHub.db_url = f"sqlite:///{state / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(state / "jupyterhub_cookie_secret")
c.ConfigurableHTTPProxy.pid_file = str(state / "proxy.pid")

c.JupyterHub.authenticator_class = "pam"
c.Authenticator.allowed_groups = {S["instructors"], S["students"]}
c.JupyterHub.load_groups = {group: {"users": sorted(members(group))} for group in (S["instructors"], S["students"])}

c.JupyterHub.spawner_class = "jupyterhub.spawner.LocalProcessSpawner"
c.Spawner.cmd = [str(ENV / "bin" / "jupyterhub-singleuser")]
c.Spawner.default_url = "/lab"
COURSE_ID = course_id(S["course"])
# nbgrader runs `alembic` from PATH, hence the environment's bin/ first
PATH = os.pathsep.join([str(ENV / "bin"), "/usr/local/bin", "/usr/bin", "/bin"])

# Automation (the tests) may be given a token that starts and stops servers, and nothing else.
if os.environ.get("SQDK_SERVICE_TOKEN"):
    c.JupyterHub.services = [{"name": "sqdk-servers", "api_token": os.environ["SQDK_SERVICE_TOKEN"]}]
    c.JupyterHub.load_roles = [{"name": "sqdk-servers", "services": ["sqdk-servers"],
                                "scopes": ["list:users", "read:users", "servers"]}]


def copy_lessons(account, home):
    """Copy the lessons into ~/sqrt-dk-lessons, as the student (so root never writes where a student decides)."""
    script = ("import os, shutil, sys; target = os.path.join(os.path.expanduser('~'), 'sqrt-dk-lessons');"
              " os.path.lexists(target) or shutil.copytree(sys.argv[1], target)")
    subprocess.run([str(ENV / "bin" / "python"), "-c", script, str(ENV / LESSONS)], user=account.pw_uid,
                   group=account.pw_gid, extra_groups=[], cwd=home, env={"HOME": home, "PATH": PATH}, check=True)


def runtime_dir(account):
    """The account's Jupyter runtime folder: its kernels' connection files and Unix sockets (etc/jupyter/
    jupyter_config.py). A socket's path may hold 107 bytes, and a kernel's is this folder plus
    `/kernel-<36-character id>-ipc-<n>` (about 50): Jupyter's default, ~/.local/share/jupyter/runtime, is too long for
    a long account name, so ~/.jupyter-run, or where even that is too long, a fresh private folder in /tmp."""
    short = os.path.join(account.pw_dir, ".jupyter-run")
    if len(short) <= 50:
        return short  # jupyter_core makes it 0700
    made = tempfile.mkdtemp(prefix="jupyter-run-")
    os.chown(made, account.pw_uid, account.pw_gid)
    return made


def prepare(spawner):
    """Before a server starts: private home, the role's nbgrader and JupyterLab settings, the lessons for a student."""
    account = pwd.getpwnam(spawner.user.name)
    home = account.pw_dir
    os.chmod(home, 0o700)  # no other account may list or read it
    who = role(spawner.user.name, S)
    env = {"PATH": PATH, "SQDK_ROLE": who or "", "SQDK_COURSE_ID": COURSE_ID, "SQDK_EXCHANGE": S["exchange"],
           "JUPYTER_RUNTIME_DIR": runtime_dir(account)}
    if who == "instructor":
        env["SQDK_COURSE"] = S["course"]
        spawner.notebook_dir = S["course"]  # Lab serves the course: the formgrader's links to source/ open
    else:
        env["JUPYTER_CONFIG_PATH"] = str(ENV / STUDENT_CONFIG)  # JupyterLab without the instructors' panels
        copy_lessons(account, home)
        first = sorted(p.name for p in (ENV / LESSONS).glob("01-*.ipynb"))[0]
        spawner.default_url = f"/lab/tree/sqrt-dk-lessons/{first}"
    spawner.environment = {**spawner.environment, **env}


c.Spawner.pre_spawn_hook = prepare
c.JupyterHub.cleanup_servers = True  # Ctrl-C stops every user's server too
