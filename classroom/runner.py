"""The grading child: a fresh Python that runs only the student's solution cell and answers calls on it.

Everything in this process is untrusted once the student's code has run: the grader (classroom.student) believes
nothing it says beyond plain data (JSON headers and .npy arrays loaded without pickle), and measures memory and
time from outside. This file is started by path (see classroom.sandbox), so it needs the standard library and
NumPy only; the framing helpers `send` and `recv_frame` are shared with the trusted side.

Requests (JSON header, then arrays as .npy blobs):
  {"op": "define", "source": str}                      run the solution source in a fresh namespace
  {"op": "define_each", "sources": [str]}              run several answer cells in one namespace, each on its own:
                                                       one that raises does not stop the next (reply lists errors)
  {"op": "lookup", "name": str}                        what is `name`: a function, plain data, or missing
  {"op": "call", "name": str, "writeable": [bool], "trace": bool}, blobs = the arguments
Replies: {"ok": true, ...} or {"ok": false, "error": "ExcType", "message": str}.
"""
import io
import json
import os
import struct
import sys

HEADER = struct.Struct("<Q")


def send(stream, header, blobs=()):
    """Write one frame: a JSON header, then each blob, all length-prefixed."""
    header = dict(header, nblobs=len(blobs))
    raw = json.dumps(header).encode()
    parts = [HEADER.pack(len(raw)), raw]
    for blob in blobs:
        parts += [HEADER.pack(len(blob)), blob]
    stream.write(b"".join(parts))
    stream.flush()


def recv_frame(read_exact):
    """Read one frame with `read_exact(n) -> bytes`; returns (header dict, list of blobs)."""
    header = json.loads(read_exact(HEADER.unpack(read_exact(HEADER.size))[0]).decode())
    blobs = [read_exact(HEADER.unpack(read_exact(HEADER.size))[0]) for _ in range(int(header.get("nblobs", 0)))]
    return header, blobs


def _error(exc):
    message = str(exc)
    return {"ok": False, "error": type(exc).__name__, "message": message[:500]}


def _plain_items(value):
    """True for a small collection of short strings, whole numbers, floats and booleans (sent as JSON)."""
    return len(value) <= 100 and all(type(item) in (str, int, float, bool) and len(repr(item)) <= 100
                                     for item in value)


def _npy(np, array):
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=False)
    return buffer.getvalue()


def _encode(np, value):
    """Describe a returned value as plain data: (header fields, blobs)."""
    if isinstance(value, np.ndarray):
        array = np.asarray(value)
        if array.dtype.hasobject:
            return {"kind": "other", "type": "ndarray of Python objects"}, []
        return {"kind": "ndarray"}, [_npy(np, array)]
    if value is None:
        return {"kind": "none"}, []
    if type(value) is str:
        if len(value) > 10000:
            return {"kind": "other", "type": "very long str"}, []
        return {"kind": "str", "value": value}, []
    if type(value) in (set, frozenset, list, tuple) and _plain_items(value) and (
            type(value) in (set, frozenset) or any(type(item) is str for item in value)):
        items = sorted(value, key=repr) if type(value) in (set, frozenset) else list(value)
        return {"kind": "json-" + ("set" if type(value) in (set, frozenset) else type(value).__name__),
                "value": items}, []
    if isinstance(value, (bool, int, float, complex, np.generic)) and not isinstance(value, np.void):
        kind = "numpy-scalar" if isinstance(value, np.generic) else "python-scalar"
        return {"kind": kind, "type": type(value).__name__}, [_npy(np, np.asarray(value))]
    if type(value) in (list, tuple):
        try:
            array = np.asarray(value)
        except Exception:
            return {"kind": "other", "type": type(value).__name__}, []
        if array.dtype.hasobject or array.dtype.kind not in "biufc":
            return {"kind": "other", "type": type(value).__name__}, []
        return {"kind": type(value).__name__}, [_npy(np, array)]
    return {"kind": "other", "type": type(value).__name__}, []


def _line_counter():
    counts = [0]

    def local(frame, event, arg):
        if event == "line":
            counts[0] += 1
        return local

    def global_(frame, event, arg):
        return local

    return counts, global_


def serve(proto_in, proto_out):
    import numpy as np

    def read_exact(n):
        data = b""
        while len(data) < n:
            chunk = proto_in.read(n - len(data))
            if not chunk:
                raise EOFError
            data += chunk
        return data

    namespace = {"__name__": "__main__", "np": np}
    while True:
        try:
            request, blobs = recv_frame(read_exact)
        except EOFError:
            return
        op = request.get("op")
        if op == "define":
            try:
                exec(compile(request["source"], "<your solution cell>", "exec"), namespace)
                reply = {"ok": True}
            except BaseException as exc:  # SystemExit and KeyboardInterrupt too: the student's code chose them
                reply = _error(exc)
            send(proto_out, reply)
        elif op == "define_each":
            errors = []
            for number, source in enumerate(request["sources"], start=1):
                try:
                    exec(compile(source, f"<your answer cell {number}>", "exec"), namespace)
                except BaseException as exc:  # one cell's failure must not cost the others
                    errors.append(dict(_error(exc), cell=number))
            send(proto_out, {"ok": True, "errors": errors})
        elif op == "lookup":
            name = request["name"]
            if name not in namespace:
                send(proto_out, {"ok": True, "kind": "missing"})
            elif callable(namespace[name]):
                send(proto_out, {"ok": True, "kind": "function"})
            else:
                try:
                    fields, out = _encode(np, namespace[name])
                except BaseException as exc:
                    send(proto_out, _error(exc))
                    continue
                send(proto_out, dict(fields, ok=True), out)
        elif op == "call":
            args = [np.load(io.BytesIO(blob), allow_pickle=False) for blob in blobs]
            for array, writeable in zip(args, request.get("writeable", [])):
                array.setflags(write=bool(writeable))
            counts, tracer = _line_counter()
            try:
                function = namespace[request["name"]]
                if request.get("trace"):
                    sys.settrace(tracer)
                try:
                    value = function(*args)
                finally:
                    sys.settrace(None)
                fields, out = _encode(np, value)
            except BaseException as exc:
                send(proto_out, _error(exc))
                continue
            inputs_after = [_npy(np, np.asarray(a)) for a in args]
            send(proto_out, dict(fields, ok=True, lines=counts[0], ninputs=len(inputs_after)), out + inputs_after)
        else:
            send(proto_out, {"ok": False, "error": "ProtocolError", "message": f"unknown op {op!r}"})


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
