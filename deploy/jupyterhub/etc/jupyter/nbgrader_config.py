"""nbgrader's settings for every account of the class's JupyterHub (make hub-env copies this file into the shared
environment's etc/jupyter/, where nbgrader reads it in every process: the single-user servers, their kernels and
terminals, and `make autograde`).

JupyterHub passes each server the values (deploy/jupyterhub/jupyterhub_config.py): SQDK_COURSE_ID, read from the
course's own nbgrader_config.py, and SQDK_EXCHANGE for everyone; SQDK_COURSE, the course directory, only to
instructors (whose servers open there; nbgrader then also reads the course's nbgrader_config.py). A student who sets
SQDK_COURSE only points their own nbgrader at a folder they cannot open.
"""
import os

c = get_config()  # noqa: F821 (provided by nbgrader when it reads this file)

if os.environ.get("SQDK_COURSE_ID"):
    c.CourseDirectory.course_id = os.environ["SQDK_COURSE_ID"]
c.Exchange.root = os.environ.get("SQDK_EXCHANGE", "/srv/sqrt-dk/exchange")
if os.environ.get("SQDK_COURSE"):
    c.CourseDirectory.root = os.environ["SQDK_COURSE"]
