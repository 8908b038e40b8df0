"""The report's figure: a histogram of total scores beside the share of the class failing each check, as a PNG,
with an alt text that carries every number drawn (so the figure is never the only place a number lives)."""
from collections import Counter
from pathlib import Path

import matplotlib.pyplot as plt
from matplotlib.patches import Patch
from matplotlib.ticker import MaxNLocator

from attention_lesson.style import OKABE_ITO, figure

from .. import atomic

from .model import number, percent


def histogram_text(summary):
    counts = "; ".join(f"{number(score)} points: {n}" for score, n in summary.histogram)
    return (f"Histogram of total scores out of {number(summary.max_score)} for {len(summary.students)} students "
            f"(score: number of students): {counts}.")


def failing_text(summary):
    parts = "; ".join(f"{r.check.grade_id}: {r.failing} of {r.handed_in} ({percent(r.share_failing)})"
                      for r in summary.results)
    return f"Share of the students who handed the notebook in failing each check: {parts}."


def alt_text(summary):
    return histogram_text(summary) + " " + failing_text(summary)


def _histogram(ax, summary):
    top = int(summary.max_score) if float(summary.max_score).is_integer() else int(summary.max_score) + 1
    counts = Counter(min(int(s.score // 1), top) for s in summary.students)  # one bar per whole point
    xs = list(range(0, top + 1))
    ax.bar(xs, [counts.get(x, 0) for x in xs], width=0.85, color=OKABE_ITO["blue"], edgecolor="black", linewidth=0.5)
    for x in xs:
        if counts.get(x):
            ax.annotate(str(counts[x]), (x, counts[x]), ha="center", va="bottom", fontsize=9, xytext=(0, 2),
                        textcoords="offset points")
    ax.set_xlim(-0.7, top + 0.7)
    ax.set_ylim(0, max(counts.values(), default=1) * 1.18 + 0.2)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(f"total score (out of {number(summary.max_score)})")
    ax.set_ylabel("number of students")
    ax.set_title(f"{summary.assignment}: total scores of {len(summary.students)} students")


def _failing(ax, summary):
    results = summary.results
    palette = [OKABE_ITO[c] for c in ("orange", "sky blue", "reddish purple", "bluish green", "vermillion")]
    colour = {name: palette[i % len(palette)] for i, (name, _) in enumerate(summary.notebooks)}
    ys = list(range(len(results)))[::-1]
    ax.barh(ys, [100 * r.share_failing for r in results], color=[colour[r.check.notebook] for r in results],
            edgecolor="black", linewidth=0.5)
    for y, r in zip(ys, results):
        ax.annotate(f"{r.failing}/{r.handed_in} ({percent(r.share_failing)})", (100 * r.share_failing, y),
                    va="center", fontsize=8, xytext=(3, 0), textcoords="offset points")
    ax.set_yticks(ys, [f"{r.check.grade_id} ({number(r.check.points)} pt)" for r in results], fontsize=8)
    ax.set_xlim(0, 118)
    ax.set_xticks(range(0, 101, 20))
    ax.set_xlabel("students failing the check (% of those who handed in its notebook)")
    ax.set_title("share of the class failing each check")
    ax.legend(handles=[Patch(facecolor=colour[name], edgecolor="black", label=f"{name}.ipynb")
                       for name, _ in summary.notebooks], loc="lower right", fontsize=8)


def draw_png(summary, path):
    """Write the figure to `path` (a PNG) and return the path."""
    height = max(4.0, 0.32 * len(summary.checks) + 1.6)
    fig, (hist, bars) = figure(1, 2, figsize=(13, height), gridspec_kw={"width_ratios": [1, 1.5]},
                               constrained_layout=True)
    _histogram(hist, summary)
    _failing(bars, summary)
    path = Path(path)
    try:
        with atomic.replacing(path, "wb") as handle:
            fig.savefig(handle, format="png", dpi=110)
    finally:
        plt.close(fig)
    return path
