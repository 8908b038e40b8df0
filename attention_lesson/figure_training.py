"""The rate-sweep figure of notebooks/06-watch-a-wide-layer-stall.ipynb.

The notebook trains the heads, averages over their repeats and decides which runs are chaotic; this module only
draws what it is given, so the figure can show nothing that the printed tables beside it do not.
"""
from collections.abc import Mapping

import numpy as np

from attention_lesson.arguments import as_rows, as_width
from attention_lesson.style import DIVISOR_COLOURS, figure
from attention_lesson.vocabulary import DIVISOR_WORDS

# Widths are told apart by line style (and width), so the figure survives printing in grey.
WIDTH_STYLES = (":", "--", "-", "-.")


def _as_rates(rates):
    """The rates of each divisor as positive, strictly increasing 1-D arrays, keyed as in vocabulary."""
    if not isinstance(rates, Mapping) or not rates:
        raise TypeError(f"rates must be a dict from divisor ({', '.join(DIVISOR_COLOURS)}) to its learning rates")
    cleaned = {}
    for divisor, values in rates.items():
        if divisor not in DIVISOR_COLOURS:
            raise ValueError(f"rates has the divisor {divisor!r}; use divisors among {list(DIVISOR_COLOURS)}")
        values = as_rows(values, f"rates[{divisor!r}]", ndim=(1,))
        if np.any(values <= 0) or np.any(np.diff(values) <= 0):
            raise ValueError(f"rates[{divisor!r}] must be positive and strictly increasing; got {values.tolist()}")
        cleaned[divisor] = values
    return cleaned


def _as_runs(values, name, rates, *, boolean=False):
    """Check a dict (divisor, d_k) -> one value per rate of that divisor; return it cleaned."""
    if not isinstance(values, Mapping) or not values:
        raise TypeError(f"{name} must be a dict from (divisor, d_k) to one value per rate")
    cleaned = {}
    for key, series in values.items():
        if not (isinstance(key, tuple) and len(key) == 2 and key[0] in rates):
            raise ValueError(f"{name} has key {key!r}; use (divisor, d_k) with a divisor of rates: {list(rates)}")
        divisor, d_k = key[0], as_width(key[1], f"the d_k in {name}[{key!r}]")
        series = np.asarray(series, dtype=bool) if boolean else as_rows(series, f"{name}[{key!r}]", ndim=(1,))
        if series.shape != rates[divisor].shape:
            raise ValueError(f"{name}[{key!r}] must hold one value per rate of {divisor!r} "
                             f"({rates[divisor].size}); got shape {series.shape}")
        if not boolean and np.any(series <= 0):
            raise ValueError(f"{name}[{key!r}] must be positive: it is drawn on a logarithmic axis")
        cleaned[divisor, d_k] = series
    return cleaned


def plot_rate_sweep(rates, final, chaotic, ylabel="final loss"):
    """Draw the final loss against the learning rate: one panel per divisor, one line per width.

    rates   -- dict divisor ("1", "√d_k" or "d_k") -> the learning rates it was trained at, increasing
    final   -- dict (divisor, d_k) -> the final loss at each of those rates (positive)
    chaotic -- dict with the same keys -> True where the run is chaotic: its point is drawn as an open circle,
               the others as filled ones
    ylabel  -- the label of the vertical axis

    Both axes are logarithmic, and the panels share them, so a shift of the best rate from one divisor to the
    next reads directly. Lines carry gid "<divisor> <d_k>", and the points "<divisor> <d_k> calm" and
    "<divisor> <d_k> chaotic", so that a test can find them.
    Used in notebooks/06-watch-a-wide-layer-stall.ipynb.
    """
    rates = _as_rates(rates)
    final = _as_runs(final, "final", rates)
    chaotic = _as_runs(chaotic, "chaotic", rates, boolean=True)
    if set(chaotic) != set(final):
        raise ValueError(f"chaotic must have the same keys as final: {sorted(final)}; got {sorted(chaotic)}")
    widths = sorted({d_k for _, d_k in final})
    if len(widths) > len(WIDTH_STYLES):
        raise ValueError(f"final holds {len(widths)} widths; the figure can tell at most {len(WIDTH_STYLES)} apart")
    divisors = [d for d in DIVISOR_COLOURS if d in rates]
    fig, axes = figure(1, len(divisors), figsize=(3.6 * len(divisors), 3.2), sharex=True, sharey=True,
                       squeeze=False, layout="constrained")
    for ax, divisor in zip(axes[0], divisors):
        colour = DIVISOR_COLOURS[divisor]
        for index, d_k in enumerate(widths):
            if (divisor, d_k) not in final:
                continue
            x, y, wild = rates[divisor], final[divisor, d_k], chaotic[divisor, d_k]
            ax.plot(x, y, color=colour, linestyle=WIDTH_STYLES[index], linewidth=1.0 + 0.4 * index,
                    label=f"d_k = {d_k}", gid=f"{divisor} {d_k}")
            ax.scatter(x[~wild], y[~wild], s=22, color=colour, zorder=3, gid=f"{divisor} {d_k} calm")
            ax.scatter(x[wild], y[wild], s=22, facecolors="white", edgecolors=colour, zorder=3,
                       gid=f"{divisor} {d_k} chaotic")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.minorticks_off()  # decades only: clearer, and the many minor ticks of log axes are slow to lay out
        ax.set_title(DIVISOR_WORDS[divisor])
        ax.set_xlabel("learning rate (log scale)")
        ax.legend(frameon=False)
    axes[0, 0].set_ylabel(f"{ylabel} (log scale)")
    return fig
