"""classroom.plugins.exchange_root, the students' exchange classes of the hub (whose exchange root is root's, 0755):
each is nbgrader's class with one check changed, the course's folder instead of a writable root, and nbgrader's
commands still make that check where the students' commands start (tests/hub/ runs them against a closed root)."""
import inspect

import pytest
from nbgrader.auth import Authenticator
from nbgrader.coursedir import CourseDirectory
from nbgrader.exchange import ExchangeError
from nbgrader.exchange.default.exchange import Exchange
from traitlets.config import Config

from classroom.plugins import exchange_root

CLASSES = [exchange_root.ClosedRootFetch, exchange_root.ClosedRootFetchFeedback, exchange_root.ClosedRootList,
           exchange_root.ClosedRootSubmit]


def test_nbgraders_exchange_checks_its_root_through_the_method_these_classes_replace():
    assert "self.ensure_root()" in inspect.getsource(Exchange.start)
    for cls in CLASSES:
        assert cls.ensure_root is exchange_root.CourseFolderRoot.ensure_root, cls
        assert issubclass(cls, Exchange)


def lister(root, course_id):
    config = Config()
    config.Exchange.root = str(root)
    config.CourseDirectory.course_id = course_id
    coursedir = CourseDirectory(config=config)
    return exchange_root.ClosedRootList(coursedir=coursedir, authenticator=Authenticator(config=config),
                                        config=config)


def test_the_course_folder_is_what_a_student_needs_and_its_absence_is_said(tmp_path):
    (tmp_path / "sqrt-dk").mkdir()
    lister(tmp_path, "sqrt-dk").ensure_root()  # no error: the course's folder is there
    with pytest.raises(ExchangeError, match="The exchange has no folder for the course 'other'"):
        lister(tmp_path, "other").ensure_root()
