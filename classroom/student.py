"""The trusted side of grading: a student's solution, run in a separate child process, seen through proxies.

`StudentCode(source)` starts (lazily) a child that runs only `source` (see classroom.runner and classroom.sandbox).
`code.lookup("score_gradient")` returns a `FunctionProxy`: calling it sends the arguments as .npy bytes, waits at
most `call_timeout` seconds, and returns plain data rebuilt here (an ndarray, a list, a scalar, None, or a
`ForeignObject` that refuses every use). Nothing the student's code defines ever runs in this process, so
patched NumPy, patched builtins, lying objects and frame inspection cannot reach the checks.

Failures of the student's code arrive as `StudentError` (with a message meant for the student); a child that hangs
is killed after `call_timeout`; a child that dies is reported and restarted for the next call, until `max_strikes`
hangs or deaths, after which calls fail at once (an infinite loop must not cost minutes).
"""
import io
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import numpy as np

from . import runner, sandbox

MiB = 2 ** 20
RUNNER = os.path.abspath(runner.__file__)


class StudentError(Exception):
    """Something the student's code did (raised, hung, crashed); str() is the message for the student."""


class ForeignObject:
    """Stands for a returned value that is not plain data; every use fails with an explanation."""

    __slots__ = ("_description",)

    def __init__(self, description):
        object.__setattr__(self, "_description", description)

    def _refuse(self, *args, **kwargs):
        raise TypeError(f"your code produced {object.__getattribute__(self, '_description')}, "
                        "not a NumPy array of numbers (nor a number, a string or a set of strings)")

    def __getattr__(self, name):
        self._refuse()

    __array__ = __bool__ = __len__ = __iter__ = __float__ = __int__ = __index__ = _refuse
    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __getitem__ = _refuse
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = _refuse
    __hash__ = None

    def __repr__(self):
        return f"<{object.__getattribute__(self, '_description')}>"


def foreign(type_name):
    """A ForeignObject whose class carries the student's type name (so `type(out).__name__` reads naturally)."""
    cls = type(str(type_name)[:60] or "object", (ForeignObject,), {"__slots__": ()})
    return cls(f"a {type_name} object")


class _Child:
    """One running grading child; `request` enforces a deadline and a size cap on what comes back."""

    def __init__(self, memory, max_reply, sandboxed=True):
        self.home = tempfile.mkdtemp(prefix="grading-child-")
        self.max_reply = max_reply
        env = sandbox.untrusted_env(self.home)
        command = sandbox.wrap([sys.executable, "-I", RUNNER], memory=memory, sandboxed=sandboxed, home=self.home,
                               readonly=[RUNNER], env=env)
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

    def request(self, header, blobs=(), timeout=5.0):
        deadline = time.monotonic() + timeout
        try:
            runner.send(self.proc.stdin, header, blobs)
        except (BrokenPipeError, OSError):
            raise self._died() from None
        self.received = 0
        try:
            return runner.recv_frame(lambda n: self._read_exact(n, deadline))
        except EOFError:
            raise self._died() from None

    def _read_exact(self, n, deadline):
        self.received += n
        if self.received > self.max_reply:
            self.kill()
            raise StudentError(f"your function sent back more than {self.max_reply // MiB} MiB of data "
                               "(far more than a (T, T) array)")
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
        return StudentError(f"the process running your code {how}")

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


def _npy(array):
    buffer = io.BytesIO()
    np.save(buffer, np.asarray(array), allow_pickle=False)
    return buffer.getvalue()


def _load(blob):
    return np.load(io.BytesIO(blob), allow_pickle=False)


class StudentCode:
    """A student's solution source, run on demand in grading children (one child, restarted after a hang or crash)."""

    def __init__(self, source, call_timeout=3.0, define_timeout=5.0, max_strikes=3,
                 memory=2048 * MiB, max_reply=64 * MiB, sandboxed=True):
        """`source` is the solution cell's code, or a list of answer cells' code run one by one (a cell that
        raises then costs only the names it would have defined)."""
        self.source = source
        self.cell_errors = []
        self.call_timeout = call_timeout
        self.define_timeout = define_timeout
        self.max_strikes = max_strikes
        self.memory = memory
        self.max_reply = max_reply
        self.sandboxed = sandboxed
        self.strikes = 0
        self.define_error = None
        self._child = None

    # -- children ---------------------------------------------------------------------------------------------
    def _start(self):
        """A child with the solution defined in it, or a StudentError that says why there cannot be one."""
        if self.define_error is not None:
            raise StudentError(self.define_error)
        if self.strikes >= self.max_strikes:
            raise StudentError(f"grading stopped calling your function after it hung or crashed {self.strikes} "
                               "times")
        child = _Child(self.memory, self.max_reply, self.sandboxed)
        try:
            request = ({"op": "define_each", "sources": list(self.source)} if isinstance(self.source, (list, tuple))
                       else {"op": "define", "source": self.source})
            reply, _ = child.request(request, timeout=self.define_timeout)
        except TimeoutError:
            child.kill()
            self.define_error = (f"running your solution cell did not finish within {self.define_timeout:g} s "
                                 "(an infinite loop outside the function?)")
            raise StudentError(self.define_error) from None
        except StudentError as exc:
            child.kill()
            self.define_error = f"while running your solution cell, {exc}"
            raise StudentError(self.define_error) from None
        if not reply.get("ok"):
            child.kill()
            self.define_error = (f"your solution cell raised {reply.get('error')}: {reply.get('message')}"
                                 " (the grader runs that cell on its own)")
            raise StudentError(self.define_error)
        self.cell_errors = list(reply.get("errors", []))
        child.baseline = child.memory_status()
        return child

    def _shared(self):
        if self._child is None or self._child.proc.poll() is not None:
            self._child = self._start()
        return self._child

    def close(self):
        if self._child is not None:
            self._child.kill()
            self._child = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- requests ---------------------------------------------------------------------------------------------
    def _request(self, child, header, blobs=(), timeout=None):
        try:
            return child.request(header, blobs, timeout=timeout or self.call_timeout)
        except TimeoutError:
            child.kill()
            self._child = None
            self.strikes += 1
            raise StudentError(f"your function did not return within {timeout or self.call_timeout:g} s "
                               "(an infinite loop?)") from None
        except StudentError:
            child.kill()
            self._child = None
            self.strikes += 1
            raise

    def lookup(self, name):
        """The student's `name`: a FunctionProxy, plain data, or NameError if the solution cell does not define it."""
        header, blobs = self._request(self._shared(), {"op": "lookup", "name": name})
        if not header.get("ok"):
            raise StudentError(f"reading {name} failed: {header.get('error')}: {header.get('message')}")
        if header["kind"] == "missing":
            if self.cell_errors:
                why = "; ".join(f"cell {e['cell']} raised {e['error']}" + (f": {e['message']}" if e["message"] else "")
                                for e in self.cell_errors)
                raise NameError(f"name '{name}' is not defined by your answer cells ({why})")
            raise NameError(f"name '{name}' is not defined by your solution cell (the grader runs that cell on "
                            "its own: keep imports and helpers inside it)")
        if header["kind"] == "function":
            return FunctionProxy(self, name)
        return _rebuild(header, blobs)

    def call(self, name, args, trace=False):
        """Call the student's `name` on arrays; returns (value, inputs as they were after the call, line count)."""
        arrays = [np.asarray(a) for a in args]
        header = {"op": "call", "name": name, "writeable": [bool(a.flags.writeable) for a in arrays],
                  "trace": bool(trace)}
        reply, blobs = self._request(self._shared(), header, [_npy(a) for a in arrays])
        if not reply.get("ok"):
            raise StudentError(f"your function raised {reply.get('error')}: {reply.get('message')}")
        n_inputs = int(reply.get("ninputs", 0))
        if n_inputs != len(arrays) or len(blobs) < n_inputs:
            raise StudentError("the process running your code sent back a malformed reply")
        value_blobs, input_blobs = blobs[:len(blobs) - n_inputs], blobs[len(blobs) - n_inputs:]
        after = [_load(b) for b in input_blobs]
        return _rebuild(reply, value_blobs), after, int(reply.get("lines", 0))


def _rebuild(header, blobs):
    kind = header.get("kind")
    if kind == "ndarray":
        return _load(blobs[0])
    if kind == "none":
        return None
    if kind in ("list", "tuple"):
        data = _load(blobs[0]).tolist()
        return data if kind == "list" else (tuple(data) if isinstance(data, list) else data)
    if kind == "python-scalar":
        return _load(blobs[0]).item()
    if kind == "numpy-scalar":
        return _load(blobs[0])[()]
    if kind == "str" and isinstance(header.get("value"), str):
        return header["value"]
    if kind in ("json-set", "json-list", "json-tuple") and isinstance(header.get("value"), list) and all(
            type(v) in (str, int, float, bool) for v in header["value"]):
        return {"json-set": set, "json-list": list, "json-tuple": tuple}[kind](header["value"])
    return foreign(header.get("type", "unknown"))


class FunctionProxy:
    """Calls the student's function in the child; behaves like the function for arrays in, plain data out.

    If the student's function wrote into an argument, the change is copied back into the caller's array (as it
    would have happened in the student's own kernel); a read-only argument the child reports as changed means
    the student switched the flag back on, which is reported as the write it is.
    """

    def __init__(self, code, name):
        self.code = code
        self.name = name
        self.__name__ = name

    def __call__(self, *args, **kwargs):
        if kwargs:
            raise TypeError("the grader calls score_gradient with positional arguments only")
        value, after, _ = self.code.call(self.name, args)
        self._copy_back(args, after)
        return value

    @staticmethod
    def _copy_back(args, after):
        for original, changed in zip(args, after):
            if not isinstance(original, np.ndarray):
                continue
            if changed.shape != original.shape or changed.dtype != original.dtype:
                raise StudentError("your function changed the shape or type of an array it was given")
            if np.array_equal(changed, original, equal_nan=original.dtype.kind in "fc"):
                continue
            if not original.flags.writeable:
                raise ValueError("assignment destination is read-only (your function wrote into an input it "
                                 "was given as read-only)")
            np.copyto(original, changed)

    def line_count(self, *args):
        """How many Python lines ran during one call (counted inside the child; used only to spot loops)."""
        _, _, lines = self.code.call(self.name, args, trace=True)
        return lines

    def peak_extra_bytes(self, *args):
        """Peak memory added by one call, read by the grader from /proc: the growth of the resident peak during
        the call (after resetting it), or of the child's lifetime peak address space over its size after running
        the solution cell, whichever is larger (the child can reset the first, not the second)."""
        child = self.code._shared()
        child.reset_peak()
        before = child.memory_status()
        self.code.call(self.name, args)
        if child.proc.poll() is not None:
            raise StudentError("the process running your code died during the call")
        after = child.memory_status()
        return max(after["VmHWM"] - before["VmRSS"], after["VmPeak"] - child.baseline["VmSize"], 0)
