"""The wire protocol between the grader (classroom.trusted.child) and the grading child (classroom.trusted.server),
in one place.

A frame is a JSON header, then blobs (NumPy arrays as .npy bytes, never pickles), each length-prefixed. What the
child sends back for a value is a header naming its KIND (the constants below) plus, for numbers, one blob;
`encode` (in the child) and `decode` (in the grader) are the two halves of one table.

The child is started by path (`python -I server.py`, inside the sandbox), so this module needs the standard library
and NumPy only, and is loaded from beside server.py there (classroom.sandbox binds it read-only).

Requests:
  {"op": READY}                                              answered once the child has started: {"ok": true}
  {"op": DEFINE, "cells": [str], "each_on_its_own": bool,    run the cells in one namespace; each_on_its_own: one
   "first": int}                                             that raises does not stop the next (reply lists errors,
                                                             numbering the cells from `first`)
  {"op": LOOKUP, "name": str}                                what is `name`: MISSING, FUNCTION, or a value
  {"op": CALL, "name": str, "writeable": [bool], "trace": bool}, blobs = the arguments
Replies: {"ok": true, ...} or {"ok": false, "error": "ExcType", "message": str}.
"""
import io
import json
import numbers
import struct

import numpy as np

DEFINE, LOOKUP, CALL, READY = "define", "lookup", "call", "ready"

# Kinds of value a reply describes.
MISSING = "missing"            # LOOKUP: no such name
FUNCTION = "function"          # LOOKUP: a callable (call it with CALL)
NDARRAY = "ndarray"            # one blob: the array
NONE = "none"
STR = "str"                    # header "value": the string
LIST, TUPLE = "list", "tuple"  # one blob: a list or tuple of numbers, as an array
PYTHON_SCALAR = "python-scalar"
NUMPY_SCALAR = "numpy-scalar"
JSON_SET, JSON_LIST, JSON_TUPLE = "json-set", "json-list", "json-tuple"  # header "value": short plain items
OTHER = "other"                # header "type": the type's name; the grader stands a ForeignObject in for it

JSON_CONTAINERS = {JSON_SET: set, JSON_LIST: list, JSON_TUPLE: tuple}
MAX_STR = 10000
MAX_ITEMS = 100

LENGTH = struct.Struct("<Q")


# ---- framing ------------------------------------------------------------------------------------------------------
def send(stream, header, blobs=()):
    """Write one frame: a JSON header, then each blob, all length-prefixed."""
    raw = json.dumps(dict(header, nblobs=len(blobs))).encode()
    parts = [LENGTH.pack(len(raw)), raw]
    for blob in blobs:
        parts += [LENGTH.pack(len(blob)), blob]
    stream.write(b"".join(parts))
    stream.flush()


def recv_frame(read_exact):
    """Read one frame with `read_exact(n) -> bytes`; returns (header dict, list of blobs)."""
    header = json.loads(read_exact(LENGTH.unpack(read_exact(LENGTH.size))[0]).decode())
    blobs = [read_exact(LENGTH.unpack(read_exact(LENGTH.size))[0]) for _ in range(int(header.get("nblobs", 0)))]
    return header, blobs


def error_reply(exc):
    return {"ok": False, "error": type(exc).__name__, "message": str(exc)[:500]}


# ---- arrays -------------------------------------------------------------------------------------------------------
def npy(array):
    """An array as .npy bytes (no pickles)."""
    buffer = io.BytesIO()
    np.save(buffer, np.asarray(array), allow_pickle=False)
    return buffer.getvalue()


def load(blob):
    return np.load(io.BytesIO(blob), allow_pickle=False)


# ---- values -------------------------------------------------------------------------------------------------------
def _plain_items(value):
    """True for a small collection of short strings, whole numbers, floats and booleans (sent as JSON)."""
    return len(value) <= MAX_ITEMS and all(type(item) in (str, int, float, bool) and len(repr(item)) <= 100
                                           for item in value)


def _other(type_name):
    return {"kind": OTHER, "type": type_name}, []


def _plain_item(item):
    """One item as plain data: a str of a subclass (np.str_) as str, a number of another type (np.float64,
    fractions.Fraction, decimal.Decimal) as int or float; anything else as it is."""
    if type(item) in (str, int, float, bool):
        return item
    if isinstance(item, str):
        return str(item)
    if isinstance(item, numbers.Integral) and not isinstance(item, (bool, np.bool_)):
        return int(item)
    if isinstance(item, numbers.Number) and not isinstance(item, numbers.Complex) or isinstance(item, numbers.Real):
        return float(item)
    return item


def plain(value):
    """What a value stands for as plain data, the way the grade cells read an answer in the student's kernel
    (attention_lesson.quiz.answer_form reads a str of any kind, a set or list of them, any real number;
    classroom.checks.exercise.three_numbers reads numbers of any kind): a str subclass or another kind of number
    as `_plain_item` makes it, a set, list or tuple (or a subclass) of such items as a plain one of plain items, a
    1-D array of Python numbers as an array of floats. Anything else, or anything that fails to convert, is left as
    it is."""
    try:
        if isinstance(value, np.ndarray) and value.dtype.hasobject and value.ndim == 1 and value.size <= MAX_ITEMS:
            items = [_plain_item(item) for item in value.tolist()]  # an array, as np.asarray(value, float) reads it
            return np.array(items, dtype=float) if all(type(item) in (int, float) for item in items) else value
        if isinstance(value, (set, frozenset, list, tuple)) and len(value) <= MAX_ITEMS:
            kind = set if isinstance(value, (set, frozenset)) else list if isinstance(value, list) else tuple
            return kind(_plain_item(item) for item in value)
        if not isinstance(value, (np.generic, np.ndarray, bool, complex)):
            return _plain_item(value)
    except Exception:  # the student's object refused to convert: it stays as it is, and is described as such
        pass
    return value


def encode(value):
    """Describe a value as plain data: (header fields, blobs). Runs in the child, on the student's value."""
    value = plain(value)
    if isinstance(value, np.ndarray):
        array = np.asarray(value)
        return _other("ndarray of Python objects") if array.dtype.hasobject else ({"kind": NDARRAY}, [npy(array)])
    if value is None:
        return {"kind": NONE}, []
    if type(value) is str:
        return _other("very long str") if len(value) > MAX_STR else ({"kind": STR, "value": value}, [])
    containers = (set, frozenset, list, tuple)
    if type(value) in containers and _plain_items(value) and (
            type(value) in (set, frozenset) or any(type(item) is str for item in value)):
        if type(value) in (set, frozenset):
            return {"kind": JSON_SET, "value": sorted(value, key=repr)}, []
        return {"kind": JSON_LIST if type(value) is list else JSON_TUPLE, "value": list(value)}, []
    if isinstance(value, (bool, int, float, complex, np.generic)) and not isinstance(value, np.void):
        kind = NUMPY_SCALAR if isinstance(value, np.generic) else PYTHON_SCALAR
        return {"kind": kind, "type": type(value).__name__}, [npy(value)]
    if type(value) in (list, tuple):
        try:
            array = np.asarray(value)
        except Exception:
            return _other(type(value).__name__)
        if array.dtype.hasobject or array.dtype.kind not in "biufc":
            return _other(type(value).__name__)
        return {"kind": LIST if type(value) is list else TUPLE}, [npy(array)]
    return _other(type(value).__name__)


def decode(header, blobs, foreign):
    """Rebuild a value from `encode`'s description, in the grader; `foreign(type name)` stands in for the rest."""
    kind = header.get("kind")
    if kind == NDARRAY:
        return load(blobs[0])
    if kind == NONE:
        return None
    if kind in (LIST, TUPLE):
        data = load(blobs[0]).tolist()
        return data if kind == LIST else (tuple(data) if isinstance(data, list) else data)
    if kind == PYTHON_SCALAR:
        return load(blobs[0]).item()
    if kind == NUMPY_SCALAR:
        return load(blobs[0])[()]
    if kind == STR and isinstance(header.get("value"), str):
        return header["value"]
    if kind in JSON_CONTAINERS and isinstance(header.get("value"), list) and all(
            type(v) in (str, int, float, bool) for v in header["value"]):
        return JSON_CONTAINERS[kind](header["value"])
    return foreign(header.get("type", "unknown"))
