"""`make lab` really starts JupyterLab on the lesson notebooks (as root too, as on CI)."""
import json
import os
import signal
import socket
import subprocess
import time
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
    assert {p.name for p in LESSON_NOTEBOOKS} <= served, f"JupyterLab serves {sorted(served)}, not the lessons"
    with urllib.request.urlopen(f"{base}/lab?token={token}") as page:
        assert page.status == 200 and b"JupyterLab" in page.read()
