"""The grading child: a fresh Python that runs only the student's solution cells and answers calls on them.

Everything in this process is untrusted once the student's code has run: the grader (classroom.trusted.proxy) believes
nothing it says beyond plain data (classroom.trusted.protocol: JSON headers and .npy arrays loaded without pickle), and
reads the inputs after a call and the memory itself (classroom.trusted.child_handle). This file is started by path
(`python -I server.py`, see classroom.trusted.child_handle), so it needs the standard library and NumPy only, and loads
by path protocol.py from beside itself and the line counter from classroom/checks/line_count.py (the sandbox binds
exactly `FILES`).

The cells arrive already transformed as IPython would (classroom.trusted.ipython_cells): `get_ipython()` here is a
stand-in on which magics and shell lines do nothing. The student's cells run as the module `__main__` (the server's
own module is not reachable through sys.modules), and an audit hook (which nothing can remove) refuses what would
switch off or reach into the line count: sys.settrace and sys.setprofile from the student's code, gc's object walks,
other threads' frames, traceback and generator frames, ctypes, and /proc/*/mem or clear_refs.
"""
import mmap
import os
import sys
import types

RUNNER = os.path.abspath(__file__)
PROTOCOL_FILE = os.path.join(os.path.dirname(RUNNER), "protocol.py")
LINE_COUNT_FILE = os.path.join(os.path.dirname(os.path.dirname(RUNNER)), "checks", "line_count.py")
FILES = (RUNNER, PROTOCOL_FILE, LINE_COUNT_FILE)  # what the sandbox binds for this process


def _load(name, path):
    """The module in the file `path`, loaded by path (and not registered in sys.modules)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


try:
    from . import protocol
    from ..checks import line_count
except ImportError:  # started by path: no package, and -I keeps these folders off sys.path
    protocol = _load("classroom_protocol", PROTOCOL_FILE)
    line_count = _load("classroom_line_count", LINE_COUNT_FILE)

# get_ipython() in the grading child: defined from source in a namespace of its own, so that nothing reachable from
# it leads back to this module.
IPYTHON_STAND_IN = '''
class _Skipped:
    """IPython is not running here: magics, shell lines and help do nothing."""
    def __getattr__(self, name):
        return self
    def __call__(self, *args, **kwargs):
        return None
    def getoutput(self, *args, **kwargs):
        return []
_shell = _Skipped()
def get_ipython():
    return _shell
'''
REFUSED = {"sys.settrace", "sys.setprofile", "sys._current_frames", "gc.get_objects", "gc.get_referrers",
           "gc.get_referents"}
FRAMES = {"tb_frame", "gi_frame", "cr_frame", "ag_frame"}


def guard():
    """Install the audit hook; returns the switch that lets the server itself set the tracer."""
    allow = [False]

    def hook(event, args):
        if event in REFUSED and not allow[0] or event.startswith("ctypes."):
            raise RuntimeError(f"{event} is not allowed in the process that grades your code")
        if event == "object.__getattr__" and len(args) > 1 and args[1] in FRAMES:
            raise RuntimeError("frames are not reachable in the process that grades your code")
        if event == "open" and isinstance(args[0], str) and args[0].startswith("/proc/") and (
                args[0].endswith(("/mem", "/clear_refs"))):
            raise RuntimeError("that file is not reachable in the process that grades your code")

    line_count.UNTRACED.add(hook.__code__)  # what the hook runs is the grader's, not lines of the student's call
    sys.addaudithook(hook)
    return allow


def student_module():
    """The module the student's cells run in, registered as __main__, with the IPython stand-in."""
    module = types.ModuleType("__main__")
    stand_in = {"__builtins__": __builtins__}
    exec(compile(IPYTHON_STAND_IN, "<grading child>", "exec"), stand_in)
    module.__dict__.update(np=protocol.np, get_ipython=stand_in["get_ipython"])
    sys.modules["__main__"] = module
    return module.__dict__


def _define(namespace, request):
    """Run the cells; one on its own (each_on_its_own) may fail without stopping the next."""
    cells = list(request["cells"])
    if not request.get("each_on_its_own"):
        try:
            exec(compile("\n\n".join(cells), "<your solution cell>", "exec"), namespace)
        except BaseException as exc:  # SystemExit and KeyboardInterrupt too: the student's code chose them
            return protocol.error_reply(exc)
        return {"ok": True, "errors": []}
    errors = []
    for number, source in enumerate(cells, start=int(request.get("first", 1))):
        try:
            exec(compile(source, f"<your answer cell {number}>", "exec"), namespace)
        except BaseException as exc:  # one cell's failure must not cost the others
            errors.append(dict(protocol.error_reply(exc), cell=number))
    return {"ok": True, "errors": errors}


def _lookup(namespace, name):
    if name not in namespace:
        return {"ok": True, "kind": protocol.MISSING}, []
    if callable(namespace[name]):
        return {"ok": True, "kind": protocol.FUNCTION}, []
    fields, blobs = protocol.encode(namespace[name])
    return dict(fields, ok=True), blobs


def _array(spec):
    """An array, mapped from the file the grader wrote: shared if writeable, read-only otherwise."""
    np = protocol.np
    dtype, shape = np.dtype(spec["dtype"]), tuple(int(n) for n in spec["shape"])
    if dtype.kind not in protocol.ARRAY_KINDS:
        raise TypeError("arrays passed to your function hold numbers, strings or dates")
    count = int(np.prod(shape, dtype=np.int64))
    if count == 0:
        array = np.zeros(shape, dtype)
        array.setflags(write=bool(spec["writeable"]))
        return array
    with open(spec["file"], "r+b" if spec["writeable"] else "rb") as file:
        shared = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_WRITE if spec["writeable"] else mmap.ACCESS_READ)
    return np.frombuffer(shared, dtype=dtype, count=count, offset=int(spec["offset"])).reshape(shape)


def _argument(spec):
    """One argument as the grader passed it: an array (`_array`), or plain data whose arrays are mapped the same
    way (classroom.trusted.protocol)."""
    if "value" not in spec:
        return _array(spec)
    arrays = spec.get("arrays", [])
    return protocol.plain(spec["value"], lambda n: _array(arrays[n]))


def _call(namespace, request, allow):
    args = [_argument(spec) for spec in request["inputs"]]
    function = namespace[request["name"]]
    if request.get("trace"):
        value, lines, kept = line_count.count_lines(function, *args, allow=allow)
    else:
        value, lines, kept = function(*args), 0, True
    fields, out = protocol.encode(value)
    return dict(fields, ok=True, lines=lines, tracer_kept=kept), out


def serve(proto_in, proto_out):
    def read_exact(n):
        data = b""
        while len(data) < n:
            chunk = proto_in.read(n - len(data))
            if not chunk:
                raise EOFError
            data += chunk
        return data

    allow = guard()
    namespace = student_module()
    while True:
        try:
            request, _ = protocol.recv_frame(read_exact)
        except EOFError:
            return
        op = request.get("op")
        try:
            if op == protocol.READY:
                reply, out = {"ok": True}, []
            elif op == protocol.DEFINE:
                reply, out = _define(namespace, request), []
            elif op == protocol.LOOKUP:
                reply, out = _lookup(namespace, request["name"])
            elif op == protocol.CALL:
                reply, out = _call(namespace, request, allow)
            else:
                reply, out = {"ok": False, "error": "ProtocolError", "message": f"unknown op {op!r}"}, []
        except BaseException as exc:  # whatever the student's code raised, even SystemExit
            reply, out = protocol.error_reply(exc), []
        protocol.send(proto_out, reply, out)


def main():
    # As in a kernel, the working folder (the assignment's files: a helper module beside the notebook) is importable.
    sys.path.insert(0, os.getcwd())
    # Keep the protocol on private descriptors; whatever the student prints goes nowhere.
    proto_in = os.fdopen(os.dup(0), "rb", buffering=0)
    proto_out = os.fdopen(os.dup(1), "wb", buffering=0)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    sys.stdin = open(os.devnull)
    sys.stdout = sys.stderr = open(os.devnull, "w")
    serve(proto_in, proto_out)


if __name__ == "__main__":
    main()
