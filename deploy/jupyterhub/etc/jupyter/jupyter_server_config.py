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

if os.environ.get("SQDK_ROLE") == "instructor":
    # what instructors write in the course directory stays readable and writable by the instructors' group and
    # by nobody else (the directory's setgid bit gives new files that group)
    os.umask(0o007)
else:
    # students have no course directory: no formgrader, nor its Autograde button's extension (classroom)
    c.ServerApp.jpserver_extensions.update({"nbgrader.server_extensions.formgrader": False,
                                            "classroom.plugins.formgrader_autograde": False})
