"""The lesson's opening figure: one row of scores at three widths, and its attention weights under three divisors.

Used by notebooks/01-why-divide-by-the-root-of-d_k.ipynb. The notebook computes every number; this
module only draws them.
"""
import numpy as np

from attention_lesson.arguments import as_by_divisor, as_rows, as_widths
from attention_lesson.style import DIVISOR_COLOURS, OKABE_ITO, figure
from attention_lesson.vocabulary import DIVISOR_MATH, WEIGHTS


def plot_divisor_grid(widths, scores, weights):
    """Draw undivided scores (top row) and the attention weights after each divisor (one row of panels each).

    widths  -- the widths d_k, one column of panels per width
    scores  -- array (len(widths), T): the undivided scores of the row at each width
    weights -- dict divisor -> array (len(widths), T) of attention weights (rows sum to 1); the divisors
               are keys of attention_lesson.vocabulary.DIVISOR_EXPONENTS ("1", "√d_k", "d_k")
    The top weight is written above each group of bars, a dotted line marks the even weight 1/T,
    and the "√d_k" row is shaded.
    """
    widths = as_widths(widths)
    scores = as_rows(scores, "scores", ndim=(2,))
    if scores.shape[0] != len(widths):
        raise ValueError(f"scores must have one row per width ({len(widths)}); got shape {scores.shape}")

    def weight_rows(w, label):
        w = as_rows(w, label, ndim=(2,))
        if w.shape != scores.shape:
            raise ValueError(f"{label} must have the shape of scores {scores.shape}; got {w.shape}")
        if np.any(w < 0) or not np.allclose(w.sum(axis=1), 1.0):
            raise ValueError(f"{label} must be attention weights: non-negative rows that sum to 1")
        return w

    checked = as_by_divisor(weights, "weights", weight_rows)

    T = scores.shape[1]
    positions = np.arange(1, T + 1)
    fig, axes = figure(1 + len(checked), len(widths), figsize=(3.2 * len(widths), 1.9 * (1 + len(checked))),
                       sharex=True, squeeze=False, constrained_layout=True)
    top = float(np.abs(scores).max()) * 1.15
    for col, d_k in enumerate(widths):
        ax = axes[0, col]
        ax.bar(positions, scores[col], color=OKABE_ITO["black"], alpha=0.55)
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_ylim(-top, top)
        ax.set_title(f"d_k = {d_k}: undivided scores")
        for row, (name, w) in enumerate(checked.items(), start=1):
            ax = axes[row, col]
            ax.bar(positions, w[col], color=DIVISOR_COLOURS[name])
            ax.axhline(1 / T, color=OKABE_ITO["black"], linestyle=":", linewidth=1)  # the even weight 1/T
            winner = int(np.argmax(w[col]))
            ax.text(positions[winner], w[col, winner] + 0.03, f"{w[col, winner]:.2f}", ha="center", va="bottom",
                    fontweight="bold")
            ax.set_ylim(0, 1.18)
            ax.set_title(f"softmax of {DIVISOR_MATH[name]}")
            if name == "√d_k":
                ax.set_facecolor("#EAF2FA")
    for row in range(axes.shape[0]):
        axes[row, 0].set_ylabel("score" if row == 0 else WEIGHTS)
    for ax in axes[-1]:
        ax.set_xlabel("position j in the row")
        ax.set_xticks(positions)
    return fig
