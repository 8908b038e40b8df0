"""Figures for notebooks/03-a-saturated-row-stops-the-gradient.ipynb.

Both functions only draw: every number on a figure is computed in the notebook, where the student can
see how, and is passed in. Each returns the matplotlib Figure, so a test can read back what was drawn.
"""
from attention_lesson.arguments import as_by_divisor, as_curve, as_rows, as_widths
from attention_lesson.figure_sweep import DIVISOR_MARKERS
from attention_lesson.style import DIVISOR_COLOURS, OKABE_ITO, figure
from attention_lesson.vocabulary import DIVISOR_WORDS, LARGEST_SLOPE, LOGIT, MEASURE_FORMULAS, TOP_WEIGHT, TOTAL_SLOPE

ROW_MEASURES = (TOP_WEIGHT, TOTAL_SLOPE, LARGEST_SLOPE)


def plot_slope_and_sigmoid_slope(alpha, alpha_slope, x, sigmoid_slope):
    """Draw alpha(1 - alpha) against alpha beside sigma'(x) against x, in two panels.

    Used in notebooks/03-a-saturated-row-stops-the-gradient.ipynb to show that the diagonal of the
    softmax Jacobian and the derivative of the sigmoid are one curve: a hump of height 0.25 in the
    middle and flat on both sides. `alpha` and `alpha_slope` are the left curve, `x` and
    `sigmoid_slope` the right one (x is the gap between the two logits of a two-position row).
    """
    alpha = as_curve(alpha, "alpha", low=0.0, high=1.0)
    alpha_slope = as_curve(alpha_slope, "alpha_slope", alpha.size, per="entry of alpha")
    x = as_curve(x, "x")
    sigmoid_slope = as_curve(sigmoid_slope, "sigmoid_slope", x.size, per="entry of x")

    fig, (left, right) = figure(1, 2, figsize=(9, 3.4), sharey=True, layout="constrained")
    left.plot(alpha, alpha_slope, color=OKABE_ITO["blue"], linewidth=2)
    left.set_xlabel(r"attention weight $\alpha_j$")
    left.set_ylabel("slope")
    left.set_title(r"diagonal of the softmax Jacobian: $\alpha(1-\alpha)$")

    right.plot(x, sigmoid_slope, color=OKABE_ITO["orange"], linewidth=2)
    right.set_xlabel(rf"{LOGIT} gap $x = s_1 - s_2$ in a row of two")
    right.set_title(r"derivative of the sigmoid: $\sigma(x)\,(1-\sigma(x))$")

    for ax in (left, right):
        ax.axhline(0.25, color=OKABE_ITO["black"], linestyle=":", linewidth=1)
        ax.set_ylim(bottom=0)
    left.annotate("0.25 at the middle", xy=(0.5, 0.25), xytext=(0.5, 0.12), ha="center",
                  arrowprops={"arrowstyle": "->", "color": OKABE_ITO["black"]})
    right.annotate("flat tail", xy=(x.max() * 0.8, 0.005), xytext=(x.max() * 0.55, 0.09), ha="center",
                   arrowprops={"arrowstyle": "->", "color": OKABE_ITO["black"]})
    return fig


def plot_saturation_by_width(widths, measured, names=ROW_MEASURES, references=None):
    """Draw each measure of a row of attention weights against d_k, one line per divisor, one panel per measure.

    Used in notebooks/03-a-saturated-row-stops-the-gradient.ipynb as the picture of its table.
    `measured` maps a divisor ("1", "√d_k" or "d_k", as in attention_lesson.vocabulary) to an array with
    one row per width and one column per measure, in the order of `names` (by default the top weight, the
    total slope and the largest slope). `references` optionally maps a measure to a pair (value, label)
    drawn as a dotted horizontal line, such as the floor 1/T of the top weight.
    """
    widths = as_widths(widths)
    names = tuple(names)
    shape = (widths.size, len(names))

    def table(values, label):
        values = as_rows(values, label, ndim=(2,))
        if values.shape != shape:
            raise ValueError(f"{label} must have one row per width and one column per measure, shape {shape}; "
                             f"got shape {values.shape}")
        return values

    measured = as_by_divisor(measured, "measured", table)
    references = dict(references or {})
    unknown = sorted(set(references) - set(names))
    if unknown:
        raise ValueError(f"references names measures that are not plotted: {unknown}; choose from {list(names)}")

    fig, axes = figure(1, len(names), figsize=(3.3 * len(names), 3.3), layout="constrained", squeeze=False)
    for column, (ax, name) in enumerate(zip(axes[0], names)):
        for key, values in measured.items():
            ax.plot(widths, values[:, column], marker=DIVISOR_MARKERS[key], color=DIVISOR_COLOURS[key],
                    label=DIVISOR_WORDS[key], gid=key)
        if name in references:
            value, text = references[name]
            ax.axhline(value, color=OKABE_ITO["black"], linestyle=":", linewidth=1, label=text, gid="reference")
        ax.set_xscale("log", base=2)
        ax.set_xticks(widths, [str(w) for w in widths])
        ax.minorticks_off()
        ax.set_xlabel(r"width $d_k$")
        ax.set_ylabel(name)
        ax.set_title(MEASURE_FORMULAS.get(name, name))
        highest = max(max(values[:, column].max() for values in measured.values()), references.get(name, (0, ""))[0])
        ax.set_ylim(0, 1.2 * highest)
        if name in references:
            ax.legend(handles=ax.get_lines()[len(measured):], loc="center right")
    fig.legend(handles=axes[0, 0].get_lines()[:len(measured)], loc="outside upper center", ncols=len(measured))
    return fig
