"""`make lab` really starts JupyterLab on the lesson notebooks (as root too, as on CI).

It serves the repository root, the nbgrader course directory (so the formgrader's links to source/ and release/
open: tests/test_formgrader_lab.py), and its address without a path leads to the first lesson."""
import json
import os
import signal
import socket
import subprocess
import time
import urllib.parse
import urllib.request

import pytest

from conftest import LESSON_NOTEBOOKS, ROOT

pytestmark = pytest.mark.integration  # starts a real JupyterLab


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def lab():
    port, token = free_port(), "lesson-test-token"
    args = f"--no-browser --ip=127.0.0.1 --port={port} --ServerApp.token={token}"
    proc = subprocess.Popen(["make", "--no-print-directory", "lab", f"LAB_ARGS={args}"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        yield proc, f"http://127.0.0.1:{port}", token
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def get_json(url):
    with urllib.request.urlopen(url) as reply:
        return json.load(reply)


def test_make_lab_serves_the_lesson_notebooks(lab):
    proc, base, token = lab
    listing = None
    for _ in range(240):  # JupyterLab takes a few seconds to start; give up after about two minutes
        if proc.poll() is not None:
            pytest.fail(f"make lab exited with {proc.returncode}:\n{proc.stdout.read().decode(errors='replace')[-3000:]}")
        try:
            listing = get_json(f"{base}/api/contents?token={token}")
            break
        except OSError:
            time.sleep(0.5)
    assert listing is not None, "JupyterLab never answered"
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
