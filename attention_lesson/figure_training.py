"""The training figure of notebooks/06-watch-a-wide-layer-stall.ipynb.

The notebook trains the attention head, averages over its repeats and passes the curves in; this module
only draws them, so the figure can show nothing that the printed table beside it does not.
"""
from collections.abc import Mapping

import numpy as np

from attention_lesson.checks import as_score_rows, as_width
from attention_lesson.style import DIVISOR_COLOURS, figure

# What the notebook records at every step, one panel each, in this order.
TRAINING_MEASURES = ("loss", "share attended correctly", "share-out", "gradient size")
# The two settings trained in the notebook: one row of panels each, top to bottom.
ROW_TITLES = {"none": "undivided scores", "sqrt(d_k)": r"scores divided by $\sqrt{d_k}$"}
# Widths are told apart by line style (and width), so the figure survives printing in grey.
WIDTH_STYLES = (":", "-.", "--", "-")
# Labelled steps on the horizontal axis (those inside the range of steps are shown).
STEP_TICKS = (0, 5, 10, 30, 100, 300, 1000, 3000, 10000)


def _as_steps(steps):
    """The step numbers as a 1-D array that starts at 0 or later and strictly increases."""
    steps = as_score_rows(steps, "steps", ndim=(1,))
    if steps.size < 2 or np.any(np.diff(steps) <= 0) or steps[0] < 0:
        raise ValueError(f"steps must hold at least two step numbers, from 0 up, strictly increasing; got {steps[:5]}...")
    return steps


def _as_curves(curves, name, shape):
    """Check a mapping (divisor name, d_k) -> array of shape (len(steps), len(names)); return it cleaned."""
    if not isinstance(curves, Mapping) or not curves:
        raise TypeError(f"{name} must be a dict from (divisor name, d_k) to an array of shape {shape}")
    cleaned = {}
    for key, values in curves.items():
        if not (isinstance(key, tuple) and len(key) == 2 and key[0] in ROW_TITLES):
            raise ValueError(f"{name} has key {key!r}; use (divisor, d_k) with divisor among {sorted(ROW_TITLES)}")
        divisor, d_k = key[0], as_width(key[1], f"the d_k in {name}[{key!r}]")
        values = as_score_rows(values, f"{name}[{key!r}]", ndim=(2,))
        if values.shape != shape:
            raise ValueError(f"{name}[{key!r}] must have one row per step and one column per measure, "
                             f"shape {shape}; got shape {values.shape}")
        if np.any(values < 0):
            raise ValueError(f"{name}[{key!r}] must not be negative: every measure drawn here is 0 or more")
        cleaned[divisor, d_k] = values
    return cleaned


def plot_training_curves(steps, mean, low=None, high=None, names=TRAINING_MEASURES):
    """Draw training curves: one row of panels per divisor, one panel per measure, one line per width.

    steps     -- the step numbers at which the measures were recorded (the horizontal axis)
    mean      -- dict (divisor, d_k) -> array (len(steps), len(names)): the curve drawn as a line;
                 divisor is "none" or "sqrt(d_k)"
    low, high -- optional dicts with the same keys and shapes: a shaded band from low to high around
                 each line (the notebook passes the smallest and largest value over its repeats)
    names     -- the measures, in the order of the columns of the arrays; they label the panels

    The panels of a column share one vertical scale, from 0 up, so the rows can be compared by eye; the
    first panel of each row names its divisor. Lines carry gid "<divisor> <d_k>" and bands
    "<divisor> <d_k> band", so that a test can find them.
    Used in notebooks/06-watch-a-wide-layer-stall.ipynb.
    """
    steps = _as_steps(steps)
    names = tuple(names)
    if not names or not all(isinstance(n, str) and n for n in names):
        raise ValueError(f"names must be a non-empty list of measure names (strings); got {names!r}")
    shape = (steps.size, len(names))
    mean = _as_curves(mean, "mean", shape)
    if (low is None) != (high is None):
        raise ValueError("low and high must be given together (the band runs from one to the other) or not at all")
    bands = {}
    if low is not None:
        low, high = _as_curves(low, "low", shape), _as_curves(high, "high", shape)
        for label, band in (("low", low), ("high", high)):
            if set(band) != set(mean):
                raise ValueError(f"{label} must have the same keys as mean: {sorted(mean)}; got {sorted(band)}")
        for key in mean:
            if np.any(low[key] > high[key]):
                raise ValueError(f"low[{key!r}] must not be above high[{key!r}] anywhere")
            bands[key] = (low[key], high[key])

    divisors = [d for d in ROW_TITLES if any(key[0] == d for key in mean)]
    widths = sorted({d_k for _, d_k in mean})
    if len(widths) > len(WIDTH_STYLES):
        raise ValueError(f"mean holds {len(widths)} widths; the figure can tell at most {len(WIDTH_STYLES)} apart")
    fig, axes = figure(len(divisors), len(names), figsize=(3.1 * len(names), 2.6 * len(divisors)),
                       sharex=True, squeeze=False, layout="constrained")
    for row, divisor in enumerate(divisors):
        colour = DIVISOR_COLOURS[divisor]
        for column, name in enumerate(names):
            ax = axes[row, column]
            for index, d_k in enumerate(widths):
                if (divisor, d_k) not in mean:
                    continue
                if (divisor, d_k) in bands:
                    lower, upper = bands[divisor, d_k]
                    ax.fill_between(steps, lower[:, column], upper[:, column], color=colour, alpha=0.12,
                                    linewidth=0, gid=f"{divisor} {d_k} band")
                ax.plot(steps, mean[divisor, d_k][:, column], color=colour, linestyle=WIDTH_STYLES[index],
                        linewidth=1.0 + 0.4 * index, label=f"d_k = {d_k}", gid=f"{divisor} {d_k}")
            ax.set_ylabel(name if column else f"{ROW_TITLES[divisor]}\n{name}")
        axes[row, 0].legend(fontsize=8, frameon=False)
    for column, name in enumerate(names):
        # one vertical scale per column, from 0 to a little above the highest value drawn in it
        drawn = [curves[:, column] for curves in mean.values()] + [upper[:, column] for _, upper in bands.values()]
        top = max(float(np.max(values)) for values in drawn)
        for ax in axes[:, column]:
            ax.set_ylim(0, 1.05 * top if top > 0 else 1.0)
        axes[0, column].set_title(name)
    for ax in axes[-1]:
        # the first steps are where the undivided rows close: linear up to step 10, logarithmic beyond
        ax.set_xscale("symlog", linthresh=10, linscale=1.5)
        ax.set_xlim(steps[0], steps[-1])
        ticks = [t for t in STEP_TICKS if steps[0] <= t <= steps[-1]]
        ax.set_xticks(ticks, [str(t) for t in ticks])
        ax.minorticks_off()
        ax.set_xlabel("step (linear to 10, then log scale)")
    return fig
