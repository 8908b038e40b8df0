"""Figures for notebooks/03-a-saturated-row-stops-the-gradient.ipynb.

Both functions only draw: every number on a figure is computed in the notebook, where the student can
see how, and is passed in. Each returns the matplotlib Figure, so a test can read back what was drawn.
"""
import numpy as np

from attention_lesson.checks import as_score_rows, as_width
from attention_lesson.style import DIVISOR_COLOURS, OKABE_ITO, figure

SATURATION_MEASURES = ("top weight", "share-out", "max a(1-a)")


def _same_length_curve(x, y, x_name, y_name):
    """Check that `x` and `y` are two 1-D arrays of numbers of one length; return them as floats."""
    x = as_score_rows(x, x_name, ndim=(1,))
    y = as_score_rows(y, y_name, ndim=(1,))
    if x.shape != y.shape:
        raise ValueError(f"{y_name} must have one value per entry of {x_name}: "
                         f"got {y.size} values for {x.size} points")
    return x, y


def plot_slope_and_sigmoid_slope(alpha, alpha_slope, x, sigmoid_slope):
    """Draw alpha(1 - alpha) against alpha beside sigma'(x) against x, in two panels.

    Used in notebooks/03-a-saturated-row-stops-the-gradient.ipynb to show that the diagonal of the
    softmax Jacobian and the derivative of the sigmoid are one curve: a hump of height 0.25 in the
    middle and flat on both sides. `alpha` and `alpha_slope` are the left curve, `x` and
    `sigmoid_slope` the right one (x is the gap between the two scores of a two-position row).
    """
    alpha, alpha_slope = _same_length_curve(alpha, alpha_slope, "alpha", "alpha_slope")
    x, sigmoid_slope = _same_length_curve(x, sigmoid_slope, "x", "sigmoid_slope")
    if alpha.min() < 0 or alpha.max() > 1:
        raise ValueError(f"alpha must hold weights between 0 and 1; got values from {alpha.min():g} to {alpha.max():g}")

    fig, (left, right) = figure(1, 2, figsize=(9, 3.4), sharey=True, layout="constrained")
    left.plot(alpha, alpha_slope, color=OKABE_ITO["blue"], linewidth=2)
    left.set_xlabel(r"weight $\alpha_{ij}$")
    left.set_ylabel("slope")
    left.set_title(r"diagonal of the softmax Jacobian: $\alpha(1-\alpha)$")

    right.plot(x, sigmoid_slope, color=OKABE_ITO["orange"], linewidth=2)
    right.set_xlabel(r"score gap $x = e_{i1} - e_{i2}$ in a row of two")
    right.set_title(r"derivative of the sigmoid: $\sigma(x)\,(1-\sigma(x))$")

    for ax in (left, right):
        ax.axhline(0.25, color=OKABE_ITO["black"], linestyle=":", linewidth=1)
        ax.set_ylim(bottom=0)
    left.annotate("0.25 at the middle", xy=(0.5, 0.25), xytext=(0.5, 0.12), ha="center",
                  arrowprops={"arrowstyle": "->", "color": OKABE_ITO["black"]})
    right.annotate("flat tail", xy=(x.max() * 0.8, 0.005), xytext=(x.max() * 0.55, 0.09), ha="center",
                   arrowprops={"arrowstyle": "->", "color": OKABE_ITO["black"]})
    return fig


def plot_saturation_by_width(widths, undivided, divided, names=SATURATION_MEASURES, references=None):
    """Draw each measure of the saturation table against d_k, undivided beside divided by sqrt(d_k).

    Used in notebooks/03-a-saturated-row-stops-the-gradient.ipynb as the picture of its table.
    `undivided` and `divided` hold one row per width and one column per measure, in the order of
    `names` (one panel per measure). `references` optionally maps a measure's name to a pair
    (value, label) drawn as a dotted horizontal line, such as the share-out ceiling 1 - 1/T.
    """
    if isinstance(widths, (str, bytes)) or not hasattr(widths, "__len__") or len(widths) == 0:
        raise ValueError(f"widths must be a non-empty list of d_k values; got {widths!r}")
    widths = np.array([as_width(w, "widths") for w in widths])
    names = tuple(names)
    shape = (widths.size, len(names))
    undivided = as_score_rows(undivided, "undivided", ndim=(2,))
    divided = as_score_rows(divided, "divided", ndim=(2,))
    for label, values in (("undivided", undivided), ("divided", divided)):
        if values.shape != shape:
            raise ValueError(f"{label} must have one row per width and one column per measure, shape {shape}; "
                             f"got shape {values.shape}")
    references = dict(references or {})
    unknown = sorted(set(references) - set(names))
    if unknown:
        raise ValueError(f"references names measures that are not plotted: {unknown}; choose from {list(names)}")

    fig, axes = figure(1, len(names), figsize=(3.3 * len(names), 3.3), layout="constrained", squeeze=False)
    for column, (ax, name) in enumerate(zip(axes[0], names)):
        ax.plot(widths, undivided[:, column], "o-", color=DIVISOR_COLOURS["none"], label="undivided")
        ax.plot(widths, divided[:, column], "s--", color=DIVISOR_COLOURS["sqrt(d_k)"], label=r"divided by $\sqrt{d_k}$")
        if name in references:
            value, text = references[name]
            ax.axhline(value, color=OKABE_ITO["black"], linestyle=":", linewidth=1, label=text)
        ax.set_xscale("log", base=2)
        ax.set_xticks(widths, [str(w) for w in widths])
        ax.minorticks_off()
        ax.set_xlabel(r"width $d_k$")
        ax.set_ylabel(name)
        highest = max(undivided[:, column].max(), divided[:, column].max(), references.get(name, (0, ""))[0])
        ax.set_ylim(0, 1.2 * highest)
        if name in references:
            ax.legend(handles=ax.get_lines()[2:], fontsize=8, loc="center right")
    fig.legend(handles=axes[0, 0].get_lines()[:2], loc="outside upper center", ncols=2)
    return fig
