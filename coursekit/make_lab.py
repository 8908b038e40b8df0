"""`make lab` started as a user would, on a free loopback port, for tests/test_make_lab.py and
tests/test_formgrader_lab.py; leaving the context stops its whole process group."""
import contextlib
import os
import signal
import subprocess
import tempfile
import time
import urllib.request

from tests.helpers.browser import ROOT, free_port

TOKEN = "lesson-test-token"


@contextlib.contextmanager
def make_lab(cwd=ROOT, env=None, make_args=()):
    """Yield (base URL, token) once `make lab` answers; fail with the end of its output if it exits instead."""
    port = free_port()
    lab_args = f"--no-browser --ip=127.0.0.1 --port={port} --ServerApp.token={TOKEN}"
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(["make", "--no-print-directory", *make_args, "lab", f"LAB_ARGS={lab_args}"], cwd=cwd,
                                env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(240):  # JupyterLab takes a few seconds to start; give up after about two minutes
                if proc.poll() is not None:
                    log.seek(0)
                    raise AssertionError(f"make lab exited with {proc.returncode}:\n"
                                         f"{log.read().decode(errors='replace')[-3000:]}")
                try:
                    urllib.request.urlopen(f"{base}/api/status?token={TOKEN}", timeout=5).close()
                    break
                except OSError:
                    time.sleep(0.5)
            else:
                raise AssertionError("make lab never answered")
            yield base, TOKEN
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
