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
# A hand-in that only its owner may change, readable by the instructors' group (classroom/plugins/exchange_submit.py);
# the exchange's root is root's, 0755, and a student's commands need only the course's folder in it, which the set-up
# made (classroom/plugins/exchange_root.py): no student can make a folder for another course id
PLUGINS = "classroom.plugins.exchange_root"
c.ExchangeFactory.submit = f"{PLUGINS}.ClosedRootSubmit"
c.ExchangeFactory.fetch_assignment = f"{PLUGINS}.ClosedRootFetch"
c.ExchangeFactory.fetch_feedback = f"{PLUGINS}.ClosedRootFetchFeedback"
c.ExchangeFactory.list = f"{PLUGINS}.ClosedRootList"
if os.environ.get("SQDK_COURSE"):
    c.CourseDirectory.root = os.environ["SQDK_COURSE"]
    # the instructors share the course and the exchange's course folder: what nbgrader makes is group-writable,
    # and any of them may release into the course's folder (hub_class.py makes it with the group's modes)
    c.CourseDirectory.groupshared = True
