"""`make lab` really starts JupyterLab on the lesson notebooks (as root too, as on CI).

It serves the repository root, the nbgrader course directory (so the formgrader's links to source/ and release/
open: tests/lab/test_formgrader_lab.py), and its address without a path leads to the first lesson."""
import json
import urllib.parse
import urllib.request

import pytest

from coursekit.repository import LESSON_NOTEBOOKS
from coursekit.real_parts.browser import make_lab

pytestmark = pytest.mark.integration  # starts a real JupyterLab


@pytest.fixture
def lab():
    with make_lab() as (base, token):
        yield base, token


def get_json(url):
    with urllib.request.urlopen(url) as reply:
        return json.load(reply)


def test_make_lab_serves_the_lesson_notebooks(lab):
    base, token = lab
    listing = get_json(f"{base}/api/contents?token={token}")
    served = {item["name"] for item in listing["content"]}
    assert {"notebooks", "source", "release"} <= served, f"JupyterLab serves {sorted(served)}, not the course directory"
    lessons = {item["name"] for item in get_json(f"{base}/api/contents/notebooks?token={token}")["content"]}
    assert {p.name for p in LESSON_NOTEBOOKS} <= lessons, f"notebooks/ holds {sorted(lessons)}, not the lessons"
    # what opens first: the address without a path (the one `make lab` gives the browser) leads to lesson 01
    first_page = urllib.request.Request(f"{base}/", headers={"Authorization": f"token {token}"})
    with urllib.request.urlopen(first_page) as page:
        assert page.status == 200 and b"JupyterLab" in page.read()
        first = urllib.parse.urlsplit(page.url).path
    assert first == f"/lab/tree/notebooks/{LESSON_NOTEBOOKS[0].name}", f"JupyterLab opens {first} first"
