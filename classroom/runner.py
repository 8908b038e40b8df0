"""The grading child: a fresh Python that runs only the student's solution cells and answers calls on them.

Everything in this process is untrusted once the student's code has run: the grader (classroom.student) believes
nothing it says beyond plain data (classroom.protocol: JSON headers and .npy arrays loaded without pickle), and
measures memory and time from outside. This file is started by path (`python -I runner.py`, see classroom.child),
so it needs the standard library and NumPy only, and loads protocol.py from beside itself.
"""
import os
import sys

try:
    from . import protocol
except ImportError:  # started by path: no package, and -I keeps this folder off sys.path
    import importlib.util

    _spec = importlib.util.spec_from_file_location(
        "classroom_protocol", os.path.join(os.path.dirname(os.path.abspath(__file__)), "protocol.py"))
    protocol = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(protocol)

PROTOCOL_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "protocol.py")


def count_lines(function, *args):
    """Call `function(*args)` counting the Python lines it runs: (its value, the count). Used here on a `trace`
    call, and by classroom.measures when the function is an ordinary one (in the student's own kernel)."""
    counts = [0]

    def local(frame, event, arg):
        if event == "line":
            counts[0] += 1
        return local

    previous = sys.gettrace()
    sys.settrace(lambda frame, event, arg: local)
    try:
        value = function(*args)
    finally:
        sys.settrace(previous)
    return value, counts[0]


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
    for number, source in enumerate(cells, start=1):
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


def _call(namespace, request, blobs):
    np = protocol.np
    args = [protocol.load(blob) for blob in blobs]
    for array, writeable in zip(args, request.get("writeable", [])):
        array.setflags(write=bool(writeable))
    function = namespace[request["name"]]
    if request.get("trace"):
        value, lines = count_lines(function, *args)
    else:
        value, lines = function(*args), 0
    fields, out = protocol.encode(value)
    inputs_after = [protocol.npy(np.asarray(a)) for a in args]
    return dict(fields, ok=True, lines=lines, ninputs=len(inputs_after)), out + inputs_after


def serve(proto_in, proto_out):
    def read_exact(n):
        data = b""
        while len(data) < n:
            chunk = proto_in.read(n - len(data))
            if not chunk:
                raise EOFError
            data += chunk
        return data

    namespace = {"__name__": "__main__", "np": protocol.np}
    while True:
        try:
            request, blobs = protocol.recv_frame(read_exact)
        except EOFError:
            return
        op = request.get("op")
        try:
            if op == protocol.DEFINE:
                reply, out = _define(namespace, request), []
            elif op == protocol.LOOKUP:
                reply, out = _lookup(namespace, request["name"])
            elif op == protocol.CALL:
                reply, out = _call(namespace, request, blobs)
            else:
                reply, out = {"ok": False, "error": "ProtocolError", "message": f"unknown op {op!r}"}, []
        except BaseException as exc:  # whatever the student's code raised, even SystemExit
            reply, out = protocol.error_reply(exc), []
        protocol.send(proto_out, reply, out)


def main():
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
