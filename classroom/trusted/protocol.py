"""The wire protocol between the grader (classroom.trusted.child_handle) and the grading child
(classroom.trusted.server), in one place.

A frame is a JSON header, then blobs (NumPy arrays as .npy bytes, never pickles), each length-prefixed. A value (what
the student's function returns, a name the student's cells bind, an argument that is not an array) travels as plain
data: `encode` (in the child, or the grader for arguments) and `decode` (on the other side) are the two halves of one
table. An array is a blob; anything else is a tree of JSON: None, booleans, whole numbers of any size, floats (NaN
and infinities too), strings, and containers tagged by their type, {"list": [...]}, {"tuple": [...]}, {"set": [...]},
{"frozenset": [...]}, {"dict": [[key, value], ...]}, {"complex": [re, im]}, {"numpy": [dtype, value]} (a NumPy
number), {"iterator": [...]} (a generator or other iterator, by its values: it is run to its end, and rebuilt as an
iterator over them; one with more than MAX_ITEMS values is not sent) and {"ndarray": n} (the n-th blob); a list of lists of numbers of one type (floats, whole numbers or
booleans), as a T x T matrix a student's function may return, travels as an array too, {"numbers": n}, rebuilt as the
same lists. A subclass travels as its plain type (a Counter as a dict, a named tuple as a tuple). Anything else, or a
value past the caps below, is OTHER: the grader stands a ForeignObject in for it.

The child is started by path (`python -I server.py`, inside the sandbox), so this module needs the standard library
and NumPy only, and is loaded from beside server.py there (classroom.sandbox binds it read-only).

Requests:
  {"op": READY}                                              answered once the child has started: {"ok": true}
  {"op": DEFINE, "cells": [str], "each_on_its_own": bool,    run the cells in one namespace; each_on_its_own: one
   "first": int}                                             that raises does not stop the next (reply lists errors,
                                                             numbering the cells from `first`)
  {"op": LOOKUP, "name": str}                                what is `name`: MISSING, FUNCTION, or a value
  {"op": CALL, "name": str, "inputs": [spec], "trace": bool}  a spec is an array in a file the grader wrote
                                                             (classroom.trusted.inputs.Inputs) or {"value": tree}
Replies: {"ok": true, ...} or {"ok": false, "error": "ExcType", "base": the nearest built-in exception class of it,
"message": str}.
"""
import builtins
import collections.abc
import io
import itertools
import json
import numbers
import struct

import numpy as np

DEFINE, LOOKUP, CALL, READY = "define", "lookup", "call", "ready"

# Kinds of value a reply describes.
MISSING = "missing"            # LOOKUP: no such name
FUNCTION = "function"          # LOOKUP: a callable (call it with CALL)
NDARRAY = "ndarray"            # one blob: the array
PLAIN = "plain"                # header "value": the tree (arrays inside it are blobs)
OTHER = "other"                # header "type": the type's name; the grader stands a ForeignObject in for it

# Caps on one value: containers nested, items in all, characters of all its strings together; numbers in one list of
# numbers sent as an array (what the reply's own cap, TrustedGrades.max_reply, allows of float64).
MAX_DEPTH = 32
MAX_ITEMS = 100_000
MAX_CHARS = 1_000_000
MAX_NUMBERS = 8 * 2 ** 20
PACKED = {float: np.float64, int: np.int64, bool: np.bool_}

TAGS = {"list": list, "tuple": tuple, "set": set, "frozenset": frozenset}
# What travels, in the words messages use.
PLAIN_DATA = ("plain data (numbers, strings, NumPy arrays, a generator's values, and lists, tuples, sets and dicts of "
              "them)")
NUMBER_KINDS = "biufc"  # NumPy's kinds of numbers (booleans, integers, floats, complex)
ARRAY_KINDS = NUMBER_KINDS + "USMm"  # arrays of those, of strings, of dates and times: .npy holds them without pickle

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


def builtin_base(exc_type):
    """The name of the nearest built-in exception class among `exc_type`'s bases (itself if it is one)."""
    for klass in getattr(exc_type, "__mro__", ()):
        if getattr(builtins, getattr(klass, "__name__", ""), None) is klass:
            return klass.__name__
    return "Exception"


def error_reply(exc):
    return {"ok": False, "error": type(exc).__name__, "base": builtin_base(type(exc)), "message": str(exc)[:500]}


# ---- arrays -------------------------------------------------------------------------------------------------------
def npy(array):
    """An array as .npy bytes (no pickles)."""
    buffer = io.BytesIO()
    np.save(buffer, np.asarray(array), allow_pickle=False)
    return buffer.getvalue()


def load(blob):
    return np.load(io.BytesIO(blob), allow_pickle=False)


# ---- values -------------------------------------------------------------------------------------------------------
class TooBig(Exception):
    """A value past the caps, or of a type plain data does not carry; str() says which."""


class Malformed(Exception):
    """A tree that `tree` cannot have written."""


class _Tree:
    """Turns one value into the JSON tree, counting items and characters against the caps; each array is handed to
    `on_array(array) -> n`, which says where it travels."""

    def __init__(self, on_array):
        self.items = self.chars = 0
        self.on_array = on_array

    def node(self, value, depth=0):
        self.items += 1
        if self.items > MAX_ITEMS or depth > MAX_DEPTH:
            raise TooBig(f"{type(value).__name__} too large to send back")
        if value is None or type(value) in (bool, int, float):
            return value
        if type(value) is list and (numbers := packed(value)) is not None:
            return {"numbers": self.on_array(numbers)}
        if isinstance(value, np.ndarray) and value.dtype.hasobject and value.ndim == 1:
            value = _numbers_array(value)  # as np.asarray(value, float) reads an array of Fractions, say
        if isinstance(value, np.ndarray):
            if value.dtype.kind not in ARRAY_KINDS:
                raise TooBig("ndarray of Python objects" if value.dtype.hasobject else f"ndarray of {value.dtype}")
            return {"ndarray": self.on_array(value)}
        if isinstance(value, np.generic) and value.dtype.kind in NUMBER_KINDS:
            item = value.item()
            return {"numpy": [value.dtype.str, [item.real, item.imag] if isinstance(item, complex) else item]}
        for number in (bool, int, float):  # a subclass (an IntEnum, say) as its plain type
            if isinstance(value, number):
                return number(value)
        if isinstance(value, complex):
            return {"complex": [value.real, value.imag]}
        if isinstance(value, str):
            self.chars += len(value)
            if self.chars > MAX_CHARS:
                raise TooBig("str too long to send back")
            return str(value)
        if isinstance(value, dict):
            return {"dict": [[self.node(k, depth + 1), self.node(v, depth + 1)] for k, v in dict.items(value)]}
        for tag, kind in TAGS.items():
            if isinstance(value, kind):
                items = sorted(value, key=repr) if kind in (set, frozenset) else value
                return {tag: [self.node(item, depth + 1) for item in items]}
        number = _real(value)
        if number is not None:
            return number
        if isinstance(value, collections.abc.Iterator):  # a generator: its values, in order
            values = list(itertools.islice(value, MAX_ITEMS + 1))
            if len(values) > MAX_ITEMS:
                raise TooBig(f"generator of more than {MAX_ITEMS:,} values")
            return {"iterator": [self.node(item, depth + 1) for item in values]}
        raise TooBig(type(value).__name__)


def _real(value):
    """A number of another type (fractions.Fraction, decimal.Decimal) as the int or float a grade cell in the
    student's kernel reads it as (classroom.checks.exercise.three_numbers, attention_lesson.quiz.answer_form), so
    that Validate and the grader read one answer alike; None for anything else, or a number that refuses."""
    try:
        if isinstance(value, numbers.Integral):
            return int(value)
        if isinstance(value, numbers.Real) or isinstance(value, numbers.Number) and not isinstance(value,
                                                                                               numbers.Complex):
            return float(value)
    except Exception:  # the student's object refused to convert: it is described as the type it is
        return None
    return None


def _numbers_array(array):
    """A small 1-D array of Python objects that are all real numbers, as an array of floats; else as it is."""
    if array.size > MAX_ITEMS:
        return array
    items = [item if type(item) in (int, float) else _real(item) for item in array.tolist()]
    return array if any(item is None or type(item) is bool for item in items) else np.array(items, dtype=float)


def packed(value):
    """A list (of lists...) of numbers all of one type (PACKED), rectangular, as an array of that type; None for
    anything else (then it travels item by item)."""
    kinds, stack, count = set(), [value], 0
    while stack:
        item = stack.pop()
        count += 1
        if count > MAX_NUMBERS:
            return None
        if type(item) is list:
            stack.extend(item)
        elif type(item) in PACKED and len(kinds | {type(item)}) == 1:
            kinds.add(type(item))
        else:
            return None
    if not kinds:
        return None
    try:
        return np.array(value, dtype=PACKED[kinds.pop()])
    except (ValueError, OverflowError, TypeError):  # ragged, or a whole number past 64 bits
        return None


def tree(value, on_array):
    """`value` as a JSON tree (see the module's docstring); raises TooBig for what plain data does not carry."""
    try:
        return _Tree(on_array).node(value)
    except RecursionError:
        raise TooBig(f"{type(value).__name__} nested too deep") from None


def plain(node, array, depth=0):
    """The value a JSON tree describes; `array(n)` is the n-th array. Raises Malformed for a tree `tree` cannot have
    written."""
    if depth > MAX_DEPTH:
        raise Malformed("too deep")
    if node is None or type(node) in (bool, int, float, str):
        return node
    if type(node) is not dict or len(node) != 1:
        raise Malformed(repr(node)[:50])
    (tag, inner), = node.items()
    try:
        if tag in TAGS and type(inner) is list:
            return TAGS[tag](plain(item, array, depth + 1) for item in inner)
        if tag == "iterator" and type(inner) is list:
            return iter([plain(item, array, depth + 1) for item in inner])
        if tag == "dict" and type(inner) is list and all(type(p) is list and len(p) == 2 for p in inner):
            return {plain(k, array, depth + 1): plain(v, array, depth + 1) for k, v in inner}
    except TypeError:  # an unhashable item of a set or key of a dict
        raise Malformed(tag) from None
    if tag == "complex" and type(inner) is list and len(inner) == 2 and all(type(x) is float for x in inner):
        return complex(*inner)
    if tag == "numbers" and type(inner) is int:
        found = array(inner)
        if not isinstance(found, np.ndarray) or found.dtype.kind not in "fib" or found.ndim == 0:
            raise Malformed(tag)
        return found.tolist()
    if tag == "ndarray" and type(inner) is int:
        found = array(inner)
        if not isinstance(found, np.ndarray) or found.dtype.kind not in ARRAY_KINDS:
            raise Malformed(tag)
        return found
    if tag == "numpy" and type(inner) is list and len(inner) == 2 and type(inner[0]) is str:
        dtype = np.dtype(inner[0])
        number = complex(*inner[1]) if dtype.kind == "c" and type(inner[1]) is list else inner[1]
        if dtype.kind not in NUMBER_KINDS or type(number) not in (bool, int, float, complex):
            raise Malformed(tag)
        return dtype.type(number)
    raise Malformed(tag)


def encode(value):
    """Describe a value as plain data: (header fields, blobs). Runs in the child, on the student's value."""
    if type(value) is np.ndarray and value.dtype.kind in ARRAY_KINDS:
        return {"kind": NDARRAY}, [npy(value)]
    blobs = []

    def blob(array):
        blobs.append(npy(array))
        return len(blobs) - 1

    try:
        return {"kind": PLAIN, "value": tree(value, blob)}, blobs
    except TooBig as error:
        return {"kind": OTHER, "type": str(error)[:100]}, []


def decode(header, blobs, foreign):
    """Rebuild a value from `encode`'s description, in the grader; `foreign(type name)` stands in for the rest."""
    kind = header.get("kind")

    def array(n):
        if not 0 <= n < len(blobs):
            raise Malformed("no such array")
        return load(blobs[n])

    try:
        if kind == NDARRAY and blobs:
            found = load(blobs[0])
            if found.dtype.kind in ARRAY_KINDS:
                return found
        if kind == PLAIN and "value" in header:
            return plain(header["value"], array)
    except (Malformed, ValueError, TypeError, OverflowError, RecursionError, EOFError, OSError):
        pass
    return foreign(str(header.get("type", "unknown"))[:100] if kind == OTHER else "unknown")
