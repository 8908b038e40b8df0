"""The test suite's nbgrader and classroom commands, each forked from a process that has already imported nbgrader.

Every nbgrader or classroom command imports nbgrader first (nbgrader's `__init__` imports its server extensions, and
with them nbconvert, SQLAlchemy and Jupyter's server): about 0.55 CPU-s of a fresh process's life, and the suite's
helpers (trial_course.nbgrader, .autograde, .classroom, grading_runs.start_driver, ...) run a few hundred of them.

`Popen` and `run` take subprocess's arguments. Where SQDK_FORKED_COMMANDS=1 (tests/conftest.py sets it for the suite
unless it is set already: SQDK_FORKED_COMMANDS=0 runs every command afresh), a command line
`[sys.executable, "-m", MODULE, ...]`, `[sys.executable, "-c", CODE, ...]` or `[this environment's bin/nbgrader or
bin/classroom, ...]` goes to this test process's preloader: a fresh `python` that has imported PRELOAD (packages of
others only) and then forks once per command. The fork becomes the command as a fresh interpreter would: it takes the
caller's standard streams, working folder, environment, umask and (start_new_session) a session of its own, closes
every other file, sets sys.argv and sys.path[0] as `python -m`, `python -c` or the script does, runs it (runpy), and
leaves through the interpreter's own exit (atexit handlers run, streams are flushed, an uncaught exception is printed
and exits 1). The caller gets the command's own pid (a signal reaches the command itself; the sandbox's control
groups are named after it) and its exit status as subprocess gives it.

What differs from a fresh process: the preloaded packages were imported before the command's environment was set
(none reads it at import for anything a command uses); our own packages are never preloaded, so each command imports
them under its own environment; /proc/PID/cmdline shows the preloader's command line (nothing of ours reads it).
tests/setup/test_forked_commands.py runs one probe both ways and compares what it sees. Any other command line or
subprocess argument (user, preexec_fn, pass_fds...), or an environment whose PYTHON* variables (PYTHONPATH,
PYTHONHASHSEED...) or locale are not the preloader's, starts a fresh process; so does every command outside the suite
(the benches measure what an instructor's command costs, imports included).
"""
import atexit
import json
import os
import selectors
import signal
import socket
import struct
import subprocess
import sys
import threading

PRELOAD = ("nbgrader", "nbgrader.apps", "nbgrader.api", "nbgrader.converters", "nbgrader.preprocessors", "nbconvert",
           "nbclient", "jupyter_client", "sqlalchemy", "traitlets")
OURS = ("attention_lesson", "bench", "classroom", "coursekit", "source", "tests", "tools")  # never preloaded
FORK = "SQDK_FORKED_COMMANDS"  # "1": fork what can be forked; anything else: every command afresh
SCRIPTS = ("nbgrader", "classroom")  # this environment's console scripts that are forked
ACCEPTED = {"cwd", "env", "stdin", "stdout", "stderr", "text", "universal_newlines", "encoding", "errors",
            "start_new_session", "bufsize"}
_STATUS = struct.Struct("q")


def forkable(args, kwargs):
    """Whether this command line, with these subprocess arguments, runs in a fork of the preloader."""
    if os.environ.get(FORK) != "1" or not hasattr(os, "pidfd_open") or not set(kwargs) <= ACCEPTED:
        return False
    if not isinstance(args, (list, tuple)) or not args or not all(isinstance(a, (str, os.PathLike)) for a in args):
        return False
    env = os.environ if kwargs.get("env") is None else kwargs["env"]
    if _interpreter_settings(env) != _interpreter_settings(_started_with()):
        return False
    first = os.fspath(args[0])
    if first == sys.executable:
        return len(args) >= 3 and args[1] in ("-m", "-c")
    return first in [os.path.join(os.path.dirname(sys.executable), name) for name in SCRIPTS]


def _interpreter_settings(env):
    """The variables that change how a Python interpreter starts (PYTHONPATH, PYTHONHASHSEED, ..., and the locale,
    which sets its streams' encoding)."""
    return {key: value for key, value in env.items() if key.startswith(("PYTHON", "LC_")) or key == "LANG"}


def _started_with():
    """The environment this process's preloader starts (or started) with."""
    return _preloaders[os.getpid()].env if os.getpid() in _preloaders else _preloader_env()


def _preloader_env():
    return {key: value for key, value in os.environ.items() if not key.startswith("PYTEST_")}


class _Preloader:
    """This process's preloader: started on first use, ended when this process ends (or with it: PR_SET_PDEATHSIG)."""

    def __init__(self):
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.env = _preloader_env()
        self.process = subprocess.Popen([sys.executable, __file__, "--serve", str(theirs.fileno())],
                                        pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL, env=self.env, cwd="/")
        theirs.close()
        self.socket, self.lock = ours, threading.Lock()
        if self.socket.recv(16) != b"ready":
            raise self.ended()
        atexit.register(self.close)

    def ended(self):
        return RuntimeError(f"the preloader of coursekit.forked_commands has ended (exit status {self.process.wait()}, "
                            f"what it printed is above); run with {FORK}=0 to start every command afresh")

    def start(self, request, fds):
        """Hand the preloader a command and its standard streams; (the command's pid, the socket of its status)."""
        status, theirs = socket.socketpair()
        try:
            with self.lock:
                socket.send_fds(self.socket, [json.dumps(request).encode()], [*fds, theirs.fileno()])
        except OSError:
            pass  # the preloader has ended: said below
        finally:
            theirs.close()
        pid = _receive(status)  # nothing if the preloader has ended
        if not pid:
            status.close()
            raise self.ended()
        return _STATUS.unpack(pid)[0], status

    def close(self):
        self.socket.close()
        self.process.wait()


_preloaders = {}  # {pid: _Preloader}: a forked test process starts its own


def _preloader():
    """This process's preloader; a new one if it has none or its last one has ended (killed, out of memory)."""
    if os.getpid() not in _preloaders or _preloaders[os.getpid()].process.poll() is not None:
        _preloaders[os.getpid()] = _Preloader()
    return _preloaders[os.getpid()]


def _receive(sock, blocking=True):
    """The 8 bytes of a status or pid from `sock`; None if not there yet (blocking=False); b"" if its sender ended."""
    sock.setblocking(blocking)
    data = b""
    try:
        while len(data) < _STATUS.size:
            part = sock.recv(_STATUS.size - len(data))
            if not part:
                return b""
            data += part
            sock.setblocking(True)  # the rest of a status that has started to arrive
    except BlockingIOError:
        return None
    return data


class Popen(subprocess.Popen):
    """subprocess.Popen whose command runs in a fork of the preloader (only for what `forkable` accepts)."""

    def _execute_child(self, args, executable, preexec_fn, close_fds, pass_fds, cwd, env, startupinfo, creationflags,
                       shell, p2cread, p2cwrite, c2pread, c2pwrite, errread, errwrite, restore_signals, gid, gids,
                       uid, umask, start_new_session, *later):
        mask = os.umask(0o022)
        os.umask(mask)
        request = {"argv": [os.fspath(a) for a in args], "cwd": os.fspath(cwd) if cwd is not None else os.getcwd(),
                   "env": dict(os.environ if env is None else env), "umask": mask if umask < 0 else umask,
                   "session": bool(start_new_session)}
        streams = [p2cread if p2cread != -1 else 0, c2pwrite if c2pwrite != -1 else 1,
                   errwrite if errwrite != -1 else 2]
        try:
            self.pid, self._status = _preloader().start(request, streams)
            self._child_created = True
        finally:
            for child_end, parent_end in ((p2cread, p2cwrite), (c2pwrite, c2pread), (errwrite, errread)):
                if child_end != -1 and parent_end != -1 and child_end != getattr(self, "_devnull", None):
                    os.close(child_end)
            if hasattr(self, "_devnull"):
                os.close(self._devnull)
            self._closed_child_pipe_fds = True

    def _try_wait(self, wait_flags):
        data = _receive(self._status, blocking=not wait_flags & os.WNOHANG)
        if data is None:
            return 0, 0
        self._status.close()
        # a preloader that ended before the command did (its test process ended): the command counts as killed
        return self.pid, _STATUS.unpack(data)[0] if data else signal.SIGKILL

    def _internal_poll(self, _deadstate=None, **unused):
        if self.returncode is None and self._waitpid_lock.acquire(False):
            try:
                if self.returncode is None:
                    pid, status = self._try_wait(os.WNOHANG)
                    if pid == self.pid:
                        self._handle_exitstatus(status)
            finally:
                self._waitpid_lock.release()
        return self.returncode


def popen(args, **kwargs):
    """subprocess.Popen(args, **kwargs), the command forked from the preloader where `forkable` says so."""
    return (Popen if forkable(args, kwargs) else subprocess.Popen)(args, **kwargs)


def run(args, *, input=None, capture_output=False, timeout=None, check=False, **kwargs):
    """subprocess.run(args, ...), the command forked from the preloader where `forkable` says so."""
    if capture_output:
        kwargs.update(stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if input is not None:
        kwargs["stdin"] = subprocess.PIPE
    with popen(args, **kwargs) as process:
        try:
            out, err = process.communicate(input, timeout=timeout)
        except BaseException:
            process.kill()
            raise
    result = subprocess.CompletedProcess(process.args, process.returncode, out, err)
    if check:
        result.check_returncode()
    return result


# ---- the preloader's side -------------------------------------------------------------------------------------------
def serve(fd):
    """Import PRELOAD, say "ready", then fork one command per request until the test process closes the socket."""
    import ctypes
    import importlib

    # PR_SET_PDEATHSIG (1): end with the test process. classroom.grading.pool has this as a function, but importing it
    # here would preload our own package into every command
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)
    requests = socket.socket(fileno=fd)
    for name in PRELOAD:
        importlib.import_module(name)
    requests.sendall(b"ready")
    waiting = selectors.DefaultSelector()
    waiting.register(requests, selectors.EVENT_READ)
    while True:
        for key, _ in waiting.select():
            if key.fileobj is requests:
                message, fds, _, _ = socket.recv_fds(requests, 1 << 20, 4)
                if not message:
                    return
                pid = os.fork()
                if pid == 0:  # nothing of the preloader's loop is used from here on, and its files are closed below
                    for other in waiting.get_map().values():
                        if other.data:
                            other.data[1].detach()
                    waiting.close()
                    requests.close()
                    _become(json.loads(message), fds)  # in the fork: runs the command, never returns
                status = socket.socket(fileno=fds[3])
                for stream in fds[:3]:
                    os.close(stream)
                status.sendall(_STATUS.pack(pid))
                waiting.register(os.pidfd_open(pid), selectors.EVENT_READ, (pid, status))
            else:
                pid, status = key.data
                waiting.unregister(key.fileobj)
                os.close(key.fileobj)
                with status:
                    try:
                        status.sendall(_STATUS.pack(os.waitpid(pid, 0)[1]))
                    except OSError:  # the caller is gone
                        pass


def _become(request, fds):
    """In the fork: become the command `request` describes, as a fresh interpreter would start it."""
    import runpy
    import types

    for target, stream in enumerate(fds[:3]):
        os.dup2(stream, target)
    os.closerange(3, os.sysconf("SC_OPEN_MAX") if os.sysconf("SC_OPEN_MAX") > 0 else 65536)
    os.chdir(request["cwd"])
    os.umask(request["umask"])
    if request["session"]:
        os.setsid()
    os.environ.clear()
    os.environ.update(request["env"])
    argv = request["argv"]
    if argv[0] == sys.executable and argv[1] == "-m":
        sys.argv = [argv[2], *argv[3:]]
        sys.path.insert(0, os.getcwd())
        runpy.run_module(argv[2], run_name="__main__", alter_sys=True)
    elif argv[0] == sys.executable:
        sys.argv = ["-c", *argv[3:]]
        sys.path.insert(0, "")
        main = sys.modules["__main__"] = types.ModuleType("__main__")
        main.__builtins__ = __builtins__
        exec(compile(argv[2], "<string>", "exec"), main.__dict__)
    else:
        sys.argv = argv
        sys.path.insert(0, os.path.dirname(os.path.realpath(argv[0])))
        runpy.run_path(argv[0], run_name="__main__")
    sys.exit(0)


if __name__ == "__main__" and sys.argv[1:2] == ["--serve"]:
    del sys.path[0]  # this file's folder: nothing of ours is imported here
    serve(int(sys.argv[2]))
