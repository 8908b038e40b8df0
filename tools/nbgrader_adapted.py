"""A pytest plugin for `make nbgrader-contract` (tools/nbgrader_contract.py): nbgrader's tests whose failure with our
plugins is one of set-up, run as nbgrader means them.

nbgrader's release_feedback tests grade and make the pages in one gradebook, passing `--db` to autograde and
generate_feedback, and then release without it, so the release reads the course's default gradebook, which holds
none of their grades (docs/differences-from-nbgrader.md, "release_feedback"). Run with this plugin, a test's course
configuration (the nbgrader_config.py its `temp_cwd` fixture writes) names that gradebook, `c.CourseDirectory.db_url`,
before the test's body runs: the one gradebook the test means, so every nbgrader command of the test reads it, and
what the test then checks is what our release does with current pages. Nothing else of the test changes.
"""
import os

import pytest


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_call(item):
    db = getattr(item, "funcargs", {}).get("db")
    if db and os.path.isfile("nbgrader_config.py"):
        with open("nbgrader_config.py", "a", encoding="utf-8") as config:
            config.write(f"\nc.CourseDirectory.db_url = {db!r}  # the gradebook the test grades in\n")
