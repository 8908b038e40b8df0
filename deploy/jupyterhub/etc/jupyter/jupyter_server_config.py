"""The single-user servers of the class's JupyterHub (make hub-env copies this file into the shared environment's
etc/jupyter/). JupyterHub sets SQDK_ROLE from the account's Linux groups (deploy/jupyterhub/jupyterhub_config.py).
"""
import os

c = get_config()  # noqa: F821 (provided by Jupyter Server when it reads this file)

# JupyterHub forbids every page of a single-user server to be shown in a frame (frame-ancestors 'none'), since on a
# hub where all servers share one origin, another user's page could frame yours and act in it. That is why the
# formgrader, which JupyterLab shows in a frame, said "refused to connect". With JupyterHub's subdomains (set by our
# jupyterhub_config.py, seen here as JUPYTERHUB_HOST) each user's server has an origin of its own, so 'self' lets
# only the user's own JupyterLab frame their own formgrader.
if os.environ.get("JUPYTERHUB_HOST"):
    c.ServerApp.tornado_settings = {"headers": {"Content-Security-Policy": "frame-ancestors 'self'"}}

# A terminal is an interactive bash that keeps the server's PATH (the shared environment first). Without a command
# set, Jupyter starts a login shell under JupyterHub, and Debian's /etc/profile then resets PATH (`python: command
# not found`).
c.ServerApp.terminado_settings = {"shell_command": ["/bin/bash"]}

if os.environ.get("SQDK_ROLE") == "instructor" and os.environ.get("SQDK_COURSE"):
    # What instructors make stays writable by the instructors' group (the course directory's setgid bit gives it that
    # group; nbgrader's CourseDirectory.groupshared does the same for what nbgrader makes): a teaching assistant
    # grades as the first instructor does. Others may read it only where the mode of a folder above lets them: the
    # course directory lets nobody else in, and the exchange is where released files and feedback must be readable.
    os.umask(0o002)
    # The server works from the course directory, so that a terminal (which JupyterLab opens in the folder it shows,
    # a path relative to here) starts there, ready for the commands of INSTRUCTORS.md.
    os.chdir(os.environ["SQDK_COURSE"])
else:
    # students have no course directory: no formgrader, nor its Autograde button's extension (classroom);
    # etc/jupyter/student/ (on their JUPYTER_CONFIG_PATH) takes the matching panels out of their JupyterLab
    c.ServerApp.jpserver_extensions.update({"nbgrader.server_extensions.formgrader": False,
                                            "classroom.plugins.formgrader_autograde": False})
