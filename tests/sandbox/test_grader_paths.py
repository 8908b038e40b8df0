"""The grader never follows a path the student's code could write, and leaves nothing of a student's run behind.

  * The display kernel (classroom.sandbox.kernel) makes its ZeroMQ sockets in a folder bound into the sandbox, where
    the student's code may replace them. A kernel that puts symbolic links to another Unix socket (here a bait the
    test listens on, standing for any socket the grader's account may reach) where its sockets should be is
    refused before the grader connects anywhere, and the bait sees no connection.
  * A grading child (classroom.trusted.child_handle) whose code forges a deeply nested reply on the protocol's pipe
    makes the grader fail that call as the student's, and the child's folders (its home, its inputs) are gone from
    TMPDIR at once.
"""
import asyncio
import json
import os
import socket
import sys
import tempfile
import textwrap

import numpy as np
import pytest

from classroom.sandbox.kernel import SandboxedKernelManager, kernel_folders
from classroom.trusted import failures
from classroom.trusted.student_errors import StudentError
from classroom.trusted.proxy import StudentCode
from coursekit import trial_course
from coursekit.parts import requires

pytestmark = requires("sandbox")

# A "kernel" that does what student code run at the kernel's start could do: read its connection file and put a
# symbolic link to the bait where each of its sockets belongs, then wait.
FORGER = textwrap.dedent("""
    import json, os, sys, time
    info = json.load(open(sys.argv[1]))
    for name in ("shell_port", "iopub_port", "stdin_port", "control_port", "hb_port"):
        os.symlink(sys.argv[2], f"{info['ip']}-{info[name]}")
    time.sleep(60)
""")


def test_the_grader_never_connects_through_a_link_the_kernel_put_in_place_of_its_socket(tmp_path, monkeypatch):
    bait_path = tmp_path / "bait.sock"
    bait = socket.socket(socket.AF_UNIX)
    bait.bind(str(bait_path))
    bait.listen(16)
    bait.setblocking(False)
    os.chmod(tmp_path, 0o755)
    spec = tmp_path / "share" / "kernels" / "forger"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-c", FORGER, "{connection_file}", str(bait_path)],
        "display_name": "forger", "language": "python"}))
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "share"))

    made = []

    async def start():
        with kernel_folders() as (workdir, ipc_dir):
            km = SandboxedKernelManager(kernel_name="forger")
            km.workdir = workdir
            km.use_ipc(ipc_dir)
            try:
                with pytest.raises(RuntimeError, match="put something else where its socket"):
                    await km.start_kernel()
                made.extend([ipc_dir, km._grader_dir])
            finally:
                await km.shutdown_kernel(now=True)

    asyncio.run(start())
    connections = 0
    while True:
        try:
            bait.accept()[0].close()
            connections += 1
        except BlockingIOError:
            break
    bait.close()
    assert connections == 0, "the grader connected to the socket the kernel's links pointed at"
    assert made[1] and not [path for path in made if os.path.lexists(path)], made  # the kernel's folder, the grader's


FORGED_REPLY = '''
import os, stat, struct
def score_gradient(A, G):
    header = b"[" * 200000 + b"]" * 200000
    for fd in range(3, 64):
        try:
            if stat.S_ISFIFO(os.fstat(fd).st_mode):
                os.write(fd, struct.pack("<Q", len(header)) + header)
        except OSError:
            pass
    import time
    time.sleep(30)
'''


def test_a_forged_deeply_nested_reply_is_the_students_failure_and_leaves_nothing_in_tmpdir(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    code = StudentCode([FORGED_REPLY], launcher=trial_course.LAUNCHER)
    try:
        with pytest.raises(StudentError, match="malformed reply") as failed:
            code.call("score_gradient", [np.ones((2, 2)), np.ones((2, 2))])
        assert failed.value.kind == failures.WRONG_TYPE
        assert os.listdir(tmp_path) == [], "the dead child's folders stayed behind"
    finally:
        code.close()
