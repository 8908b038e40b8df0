"""One grading child process: started through classroom.sandbox, spoken to in classroom.protocol, watched from outside.

`Child.request` sends one frame and waits at most `timeout` seconds for the reply, reading at most `max_reply`
bytes; a child that hangs raises TimeoutError, one that dies or overflows raises StudentError (with its kind).
Memory is read from /proc by the grader, never reported by the child.
"""
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from . import failures, protocol, runner, sandbox
from .errors import StudentError
from .sandbox import MiB

RUNNER = os.path.abspath(runner.__file__)
PROTOCOL = runner.PROTOCOL_FILE


class Child:
    """One running grading child (runner.py in the sandbox, unless `sandboxed` is off)."""

    def __init__(self, memory, max_reply, sandboxed=True, cpu_seconds=120):
        self.home = tempfile.mkdtemp(prefix="grading-child-")
        self.max_reply = max_reply
        env = sandbox.untrusted_env(self.home)
        command = sandbox.wrap([sys.executable, "-I", RUNNER], memory=memory, cpu_seconds=cpu_seconds,
                               sandboxed=sandboxed, home=self.home, readonly=[RUNNER, PROTOCOL], env=env)
        info_read, info_write = os.pipe()  # bwrap tells us the host pid of the student's process (for /proc)
        if sandboxed:
            command[1:1] = ["--info-fd", str(info_write)]
        try:
            self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, cwd=self.home, env=env, start_new_session=True,
                                         pass_fds=(info_write,))
        finally:
            os.close(info_write)
        self.pid = self.proc.pid
        try:
            if sandboxed:
                self.pid = sandbox.student_pid(info_read)
        except (OSError, ValueError, KeyError, TimeoutError):
            pass  # the child died at once: the first request reports it
        finally:
            os.close(info_read)
        self.received = 0
        self.baseline = {}

    def alive(self):
        return self.proc.poll() is None

    def request(self, header, blobs=(), timeout=5.0):
        deadline = time.monotonic() + timeout
        try:
            protocol.send(self.proc.stdin, header, blobs)
        except (BrokenPipeError, OSError):
            raise self._died() from None
        self.received = 0
        try:
            return protocol.recv_frame(lambda n: self._read_exact(n, deadline))
        except EOFError:
            raise self._died() from None

    def _read_exact(self, n, deadline):
        self.received += n
        if self.received > self.max_reply:
            self.kill()
            raise StudentError(f"your code sent back more than {self.max_reply // MiB} MiB of data, far more "
                               "than the values asked for", failures.WRONG_TYPE)
        fd = self.proc.stdout.fileno()
        chunks, need = [], n
        while need:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise TimeoutError
            chunk = os.read(fd, min(need, 1 << 20))
            if not chunk:
                raise EOFError
            chunks.append(chunk)
            need -= len(chunk)
        return b"".join(chunks)

    def _died(self):
        try:
            code = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.kill()
            code = self.proc.returncode
        if code is not None and code < 0:
            how = f"was killed by signal {signal.Signals(-code).name}"
            if -code == signal.SIGXCPU:
                how += " (it used up its CPU time)"
        else:
            how = f"exited with status {code} (os._exit or sys.exit from your code?)"
        return StudentError(f"the process running your code {how}", failures.CRASHED)

    def memory_status(self):
        """Peak and current memory of the child in bytes, read by the grader from /proc (not reported by the child)."""
        fields = {}
        with open(f"/proc/{self.pid}/status") as status:
            for line in status:
                key, _, value = line.partition(":")
                if key in ("VmHWM", "VmRSS", "VmPeak", "VmSize"):
                    fields[key] = int(value.split()[0]) * 1024
        return fields

    def reset_peak(self):
        with open(f"/proc/{self.pid}/clear_refs", "w") as clear:
            clear.write("5")

    def kill(self):
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        shutil.rmtree(self.home, ignore_errors=True)
