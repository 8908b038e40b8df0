"""Figures for the width sweep in notebooks/02-scores-grow-like-the-root-of-d_k.ipynb.

The notebook does every measurement itself and passes the numbers in; these functions only draw them,
so a figure can never show anything the printed table beside it does not.
"""
from collections.abc import Mapping

import numpy as np
from matplotlib.ticker import FuncFormatter

from attention_lesson.checks import as_score_rows, as_width
from attention_lesson.style import DIVISOR_COLOURS, OKABE_ITO, figure

# Marker per divisor, so the three curves differ by shape as well as by colour.
DIVISOR_MARKERS = {"none": "o", "sqrt(d_k)": "s", "d_k": "^"}
DIVISOR_LABELS = {"none": "$e$ (undivided)", "sqrt(d_k)": r"$e\,/\sqrt{d_k}$", "d_k": r"$e\,/\,d_k$"}


def _as_widths(widths):
    """The widths as a 1-D int array of positive whole numbers, or a clear error naming `widths`."""
    array = as_score_rows(widths, "widths", ndim=(1,))
    return np.array([as_width(w, f"widths[{i}]") for i, w in enumerate(array)])


def _as_series(values, name, length, *, upper=None):
    """One measured value per width: 1-D, finite, positive (log axes), and as long as `widths`."""
    array = as_score_rows(values, name, ndim=(1,))
    if array.shape != (length,):
        raise ValueError(f"{name} must hold one value per width ({length}); got {array.shape[0]}")
    if np.any(array <= 0):
        raise ValueError(f"{name} must be positive (it is drawn on a log axis or is a softmax weight); got {array.tolist()}")
    if upper is not None and np.any(array > upper):
        raise ValueError(f"{name} must be at most {upper} (a softmax weight); got {array.tolist()}")
    return array


def _as_by_divisor(values, name, length, *, upper=None):
    """A mapping from divisor name ('none', 'sqrt(d_k)', 'd_k') to one value per width."""
    if not isinstance(values, Mapping) or not values:
        raise TypeError(f"{name} must be a dict from divisor name to values, with keys among {sorted(DIVISOR_COLOURS)}")
    unknown = [key for key in values if key not in DIVISOR_COLOURS]
    if unknown:
        raise ValueError(f"{name} has unknown divisor(s) {unknown}; use keys among {sorted(DIVISOR_COLOURS)}")
    return {key: _as_series(series, f"{name}[{key!r}]", length, upper=upper) for key, series in values.items()}


def _width_axis(ax, widths):
    """A log-2 axis for d_k whose ticks are exactly the measured widths."""
    ax.set_xscale("log", base=2)
    ax.set_xticks(widths)
    ax.set_xticklabels([str(w) for w in widths])
    ax.minorticks_off()
    ax.set_xlabel("width $d_k$ (coordinates per query and per key)")


def _log_size_axis(ax):
    """A log-2 vertical axis labelled with plain numbers (2, 4, 0.25, ...), as in the printed tables."""
    ax.set_yscale("log", base=2)
    ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:g}"))


def plot_typical_size(widths, typical):
    """Draw the measured typical size of a score against d_k, beside the law sqrt(d_k).

    `widths` are the d_k values of the sweep and `typical[i]` is sqrt(mean(e**2)) measured at
    `widths[i]`. Both axes are logarithmic, so the law is a straight line of slope 1/2.
    Returns the matplotlib Figure. Used in notebooks/02-scores-grow-like-the-root-of-d_k.ipynb.
    """
    widths = _as_widths(widths)
    typical = _as_series(typical, "typical", len(widths))
    fig, ax = figure(figsize=(5.6, 3.8))
    grid = np.geomspace(widths.min(), widths.max(), 200)
    ax.plot(grid, np.sqrt(grid), color=OKABE_ITO["black"], linestyle="--", linewidth=1.2,
            label=r"law: $\sqrt{d_k}$", gid="law")
    ax.plot(widths, typical, color=DIVISOR_COLOURS["none"], marker="o", linestyle="none", markersize=7,
            label=r"measured: $\sqrt{\mathrm{mean}(e^2)}$", gid="measured")
    _width_axis(ax, widths)
    _log_size_axis(ax)
    ax.set_ylabel("typical size of a score $e$")
    ax.set_title("Undivided scores grow like the root of the width")
    ax.legend(frameon=False)
    fig.tight_layout()
    return fig


def plot_divisors(widths, sizes, top_weights, positions):
    """Draw, for each divisor, the typical size of the scaled scores and the top softmax weight.

    `sizes` and `top_weights` map a divisor name ('none', 'sqrt(d_k)', 'd_k') to one value per width;
    `positions` is T, the number of scores in a row, whose even share 1/T is drawn for reference.
    Returns the matplotlib Figure. Used in notebooks/02-scores-grow-like-the-root-of-d_k.ipynb.
    """
    widths = _as_widths(widths)
    sizes = _as_by_divisor(sizes, "sizes", len(widths))
    top_weights = _as_by_divisor(top_weights, "top_weights", len(widths), upper=1.0)
    positions = as_width(positions, "positions")
    fig, (left, right) = figure(1, 2, figsize=(10, 3.8))
    for ax, series in ((left, sizes), (right, top_weights)):
        for key, values in series.items():
            ax.plot(widths, values, color=DIVISOR_COLOURS[key], marker=DIVISOR_MARKERS[key], markersize=7,
                    label=DIVISOR_LABELS[key], gid=key)
        _width_axis(ax, widths)
    _log_size_axis(left)
    left.set_ylabel("typical size of the scaled scores")
    left.set_title("Only the root keeps the size at 1")
    right.axhline(1 / positions, color=OKABE_ITO["black"], linestyle=":", linewidth=1.2,
                  label=f"even share 1/T = 1/{positions}", gid="even share")
    right.set_ylim(0, 1.05)
    right.set_ylabel(f"mean top softmax weight (row of T = {positions})")
    right.set_title("Too big: one winner; too small: an even split")
    left.legend(frameon=False)
    # between the undivided curve (high) and the other two (low), clear of every marker
    right.legend(frameon=False, loc="center right", bbox_to_anchor=(1.0, 0.6), fontsize=9)
    fig.tight_layout()
    return fig
