"""JupyterHub for a class on one Linux server: INSTRUCTORS.md, "A class on JupyterHub". Run as root by `make hub`.

Accounts are the server's own Linux accounts, checked by PAM (JupyterHub's default authenticator); the Linux groups
of hub_settings.py say who teaches and who learns, and only their members may log in. Each user's JupyterLab runs
as that Linux user (LocalProcessSpawner) from the shared environment that `make hub-env` builds, so every file
permission below is enforced by the kernel, not by JupyterHub. Paths and names: hub_settings.py.
"""
import os
import pwd
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from hub_settings import LESSONS, members, role, settings  # noqa: E402

c = get_config()  # noqa: F821 (provided by JupyterHub when it reads this file)
S = settings()
ENV = Path(S["env"])


def course_id(course):
    """The course id that the course's own nbgrader_config.py sets (students need it, and cannot read that file)."""
    from traitlets.config.loader import PyFileConfigLoader

    return PyFileConfigLoader("nbgrader_config.py", path=course).load_config().CourseDirectory.course_id


# The proxy listens on SQDK_IP:SQDK_PORT; every user's server gets an origin of its own below SQDK_URL
# (http://<user>.localhost:8000 by default; on a real server a wildcard DNS name and certificate), so that one
# user's pages can never act inside another's (etc/jupyter/jupyter_server_config.py relies on it).
c.JupyterHub.ip = S["ip"]
c.JupyterHub.port = int(S["port"])
c.JupyterHub.subdomain_host = S["url"]
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


def prepare(spawner):
    """Before a server starts: private home, the role's nbgrader settings, the lessons for a student."""
    account = pwd.getpwnam(spawner.user.name)
    home = account.pw_dir
    os.chmod(home, 0o700)  # no other account may list or read it
    who = role(spawner.user.name, S)
    env = {"PATH": PATH, "SQDK_ROLE": who or "", "SQDK_COURSE_ID": COURSE_ID, "SQDK_EXCHANGE": S["exchange"]}
    if who == "instructor":
        env["SQDK_COURSE"] = S["course"]
        spawner.notebook_dir = S["course"]  # Lab serves the course: the formgrader's links to source/ open
    else:
        copy_lessons(account, home)
        first = sorted(p.name for p in (ENV / LESSONS).glob("01-*.ipynb"))[0]
        spawner.default_url = f"/lab/tree/sqrt-dk-lessons/{first}"
    spawner.environment = {**spawner.environment, **env}


c.Spawner.pre_spawn_hook = prepare
c.JupyterHub.cleanup_servers = True  # Ctrl-C stops every user's server too
