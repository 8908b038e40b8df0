"""Figures for the width sweep in notebooks/02-scores-grow-like-the-root-of-d_k.ipynb.

The notebook does every measurement itself and passes the numbers in; these functions only draw them,
so a figure can never show anything the printed table beside it does not.
"""
import numpy as np
from matplotlib.ticker import FuncFormatter

from attention_lesson.arguments import as_by_divisor, as_curve, as_width, as_widths
from attention_lesson.style import DIVISOR_COLOURS, OKABE_ITO, figure
from attention_lesson.vocabulary import DIVISOR_MATH, LOGIT, TOP_WEIGHT

# Marker per divisor, so the three curves differ by shape as well as by colour.
DIVISOR_MARKERS = {"1": "o", "√d_k": "s", "d_k": "^"}


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
    widths = as_widths(widths)
    typical = as_curve(typical, "typical", len(widths), per="width", positive=True)
    fig, ax = figure(figsize=(5.6, 3.8))
    grid = np.geomspace(widths.min(), widths.max(), 200)
    ax.plot(grid, np.sqrt(grid), color=OKABE_ITO["black"], linestyle="--", linewidth=1.2,
            label=r"law: $\sqrt{d_k}$", gid="law")
    ax.plot(widths, typical, color=DIVISOR_COLOURS["1"], marker=DIVISOR_MARKERS["1"], linestyle="none", markersize=7,
            label=r"measured: $\sqrt{\mathrm{mean}(e^2)}$", gid="measured")
    _width_axis(ax, widths)
    _log_size_axis(ax)
    ax.set_ylabel("typical size of a score $e$")
    ax.set_title("Undivided scores grow like the root of the width")
    ax.legend(frameon=False)
    fig.tight_layout()
    return fig


def plot_divisors(widths, sizes, top_weights, positions):
    """Draw, for each divisor, the typical size of the logits (the divided scores) and the mean top weight of a row.

    `sizes` and `top_weights` map a divisor ("1", "√d_k", "d_k", as in attention_lesson.vocabulary) to one
    value per width; `positions` is T, the number of scores in a row, whose even weight 1/T is drawn for reference.
    Returns the matplotlib Figure. Used in notebooks/02-scores-grow-like-the-root-of-d_k.ipynb.
    """
    widths = as_widths(widths)
    sizes = as_by_divisor(sizes, "sizes", lambda v, label: as_curve(v, label, len(widths), per="width", positive=True))
    top_weights = as_by_divisor(top_weights, "top_weights",
                                lambda v, label: as_curve(v, label, len(widths), per="width", low=0.0, high=1.0))
    positions = as_width(positions, "positions")
    fig, (left, right) = figure(1, 2, figsize=(10, 3.8))
    for ax, series in ((left, sizes), (right, top_weights)):
        for key, values in series.items():
            ax.plot(widths, values, color=DIVISOR_COLOURS[key], marker=DIVISOR_MARKERS[key], markersize=7,
                    label=DIVISOR_MATH[key], gid=key)
        _width_axis(ax, widths)
    _log_size_axis(left)
    left.set_ylabel(f"typical size of the {LOGIT}s")
    left.set_title("Only the root keeps the size at 1")
    right.axhline(1 / positions, color=OKABE_ITO["black"], linestyle=":", linewidth=1.2,
                  label=f"even weight 1/T = 1/{positions}", gid="even weight")
    right.set_ylim(0, 1.05)
    right.set_ylabel(f"mean {TOP_WEIGHT} (rows of T = {positions})")
    right.set_title("Only the root keeps the top weight fixed")
    left.legend(frameon=False)
    # between the undivided curve (high) and the other two (low), clear of every marker
    right.legend(frameon=False, loc="center right", bbox_to_anchor=(1.0, 0.6))
    fig.tight_layout()
    return fig
