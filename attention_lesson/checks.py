"""Input checks shared by every helper: each failure names the argument and says what to pass instead."""
from numbers import Integral, Real

import numpy as np


def as_score_rows(values, name="scores", *, ndim=(1, 2)):
    """Return `values` as a finite float array of 1 or 2 dimensions, or raise a clear error.

    A 1-D array is one row of scores; a 2-D array holds one row per query position.
    """
    try:
        array = np.asarray(values, dtype=float)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be numbers (a list or a numpy array of floats); got {type(values).__name__}") from exc
    if array.ndim not in ndim:
        wanted = " or ".join(f"{n}-D" for n in ndim)
        raise ValueError(f"{name} must be a {wanted} array; got shape {array.shape}")
    if array.size == 0 or 0 in array.shape:
        raise ValueError(f"{name} must hold at least one score in every row; got shape {array.shape}")
    if not np.all(np.isfinite(array)):
        bad = int(np.size(array) - np.count_nonzero(np.isfinite(array)))
        raise ValueError(f"{name} must be finite; it holds {bad} NaN or infinite value(s): check how it was computed")
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
