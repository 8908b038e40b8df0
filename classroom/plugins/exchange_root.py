"""A students' exchange whose root they cannot write (the class's JupyterHub: deploy/jupyterhub/etc/jupyter/).

nbgrader's students' commands (fetch, list, submit, fetch feedback) first check that the exchange's root is writable
by them (`Exchange.ensure_root`), so nbgrader's exchange root is rwx for everyone, and any student may make
`<root>/<another course id>/` there, taking the name before its instructors do. On the hub the root is root's
(0755) and the set-up makes the course's folder in it (deploy/jupyterhub/hub_class.py); a hand-in needs only that
folder. These are nbgrader's classes with that one check changed: the course's folder must be there for them to
enter (or, with no course id, the root to read), as nbgrader's own next steps then check the folders inside.
"""
import os

from nbgrader.exchange.default.fetch_assignment import ExchangeFetchAssignment
from nbgrader.exchange.default.fetch_feedback import ExchangeFetchFeedback
from nbgrader.exchange.default.list import ExchangeList
from nbgrader.utils import check_directory

from classroom.plugins.exchange_submit import SafeSubmit


class CourseFolderRoot:
    """`ensure_root` of a closed exchange root: the course's folder, not the root, is what a student needs."""

    def ensure_root(self):
        course_id = self.coursedir.course_id
        needed = os.path.join(self.root, course_id) if course_id else self.root
        if not check_directory(needed, read=not course_id, execute=True):
            self.fail(f"The exchange has no folder for the course {course_id!r} that you may enter ({needed}): "
                      "please contact your instructor" if course_id else
                      f"Unreadable exchange, please contact your instructor: {needed}")


class ClosedRootFetch(CourseFolderRoot, ExchangeFetchAssignment):
    pass


class ClosedRootFetchFeedback(CourseFolderRoot, ExchangeFetchFeedback):
    pass


class ClosedRootList(CourseFolderRoot, ExchangeList):
    pass


class ClosedRootSubmit(CourseFolderRoot, SafeSubmit):
    pass
