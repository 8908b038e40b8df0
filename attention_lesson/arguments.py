"""Argument validation shared by every helper: each failure names the argument and says what to pass instead.

Four shapes of input recur: rows of scores, logits or weights (`as_rows`), one curve or series of numbers
(`as_curve`, and `as_widths` for a list of widths d_k), a single width (`as_width`), and one such input per
divisor (`as_by_divisor`).
"""
from collections.abc import Mapping
from numbers import Integral, Real

import numpy as np

from attention_lesson.vocabulary import DIVISOR_EXPONENTS


def _as_finite_array(values, name):
    """`values` as a float array whose entries are all finite, or a clear error naming `name`."""
    try:
        array = np.asarray(values, dtype=float)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be numbers (a list or a numpy array of floats); "
                        f"got {type(values).__name__}") from exc
    if not np.all(np.isfinite(array)):
        bad = int(np.size(array) - np.count_nonzero(np.isfinite(array)))
        raise ValueError(f"{name} must be finite; it holds {bad} NaN or infinite value(s): check how it was computed")
    return array


def as_rows(values, name="scores", *, ndim=(1, 2)):
    """Return `values` as a finite float array of 1 or 2 dimensions, or raise a clear error.

    A 1-D array is one row (of scores, logits or weights); a 2-D array holds one row per query position.
    """
    array = _as_finite_array(values, name)
    if array.ndim not in ndim:
        wanted = " or ".join(f"{n}-D" for n in ndim)
        raise ValueError(f"{name} must be a {wanted} array; got shape {array.shape}")
    if array.size == 0 or 0 in array.shape:
        raise ValueError(f"{name} must hold at least one value in every row; got shape {array.shape}")
    return array


def as_curve(values, name, length=None, *, per="point", positive=False, low=None, high=None):
    """Return `values` as a 1-D finite float array: one curve or series of a figure, or raise a clear error.

    length   -- if given, how many values there must be (one per `per`: "width", "point", ...)
    positive -- every value must be above 0 (the values sit on a log axis)
    low, high -- inclusive bounds every value must respect (0 and 1 for weights, say)
    """
    array = _as_finite_array(values, name)
    if array.ndim != 1:
        raise ValueError(f"{name} must be a 1-D list of numbers, one per {per}; got shape {array.shape}")
    if array.size == 0:
        raise ValueError(f"{name} must hold at least one value")
    if length is not None and array.size != length:
        raise ValueError(f"{name} must hold one value per {per} ({length}); got {array.size}")
    if positive and np.any(array <= 0):
        raise ValueError(f"{name} must be positive (it is drawn on a log axis); got {array.tolist()}")
    outside = (low is not None and array.min() < low) or (high is not None and array.max() > high)
    if outside:
        raise ValueError(f"{name} must lie between {low} and {high}; "
                         f"got values from {array.min():g} to {array.max():g}")
    return array


def as_width(d_k, name="d_k"):
    """Return the width `d_k` as a positive int, or raise a clear error."""
    if isinstance(d_k, bool) or not isinstance(d_k, (Integral, Real)):
        raise TypeError(f"{name} must be a positive whole number of coordinates; got {d_k!r}")
    if isinstance(d_k, Real) and not isinstance(d_k, Integral):
        if not np.isfinite(d_k) or d_k != int(d_k):
            raise ValueError(f"{name} must be a positive whole number of coordinates; got {d_k!r}")
    if d_k <= 0:
        raise ValueError(f"{name} must be at least 1 (it counts coordinates); got {d_k!r}")
    return int(d_k)


def as_widths(values, name="widths"):
    """Return a list of widths d_k as a 1-D int array of positive whole numbers, or raise a clear error."""
    if isinstance(values, (str, bytes)):
        raise TypeError(f"{name} must be numbers (a list of widths d_k); got {type(values).__name__}")
    array = as_curve(values, name, per="width")
    return np.array([as_width(w, f"{name}[{i}]") for i, w in enumerate(array)])


def as_by_divisor(values, name, check):
    """Check a dict from divisor ("1", "√d_k", "d_k", as in attention_lesson.vocabulary) to data; return it checked.

    `check(value, label)` checks one entry and returns it; `label` (such as "sizes['d_k']") names it in errors.
    """
    if not isinstance(values, Mapping) or not values:
        raise TypeError(f"{name} must be a dict from divisor to data, with keys among {list(DIVISOR_EXPONENTS)}")
    unknown = [key for key in values if key not in DIVISOR_EXPONENTS]
    if unknown:
        raise ValueError(f"{name} has unknown divisor(s) {unknown}; use keys among {list(DIVISOR_EXPONENTS)}")
    return {key: check(value, f"{name}[{key!r}]") for key, value in values.items()}
