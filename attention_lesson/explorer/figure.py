"""The explorer's picture: one matplotlib figure made once and redrawn in place, and its PNG bytes.

Used by the explorer of notebooks/04-explore-the-divisor.ipynb. `ExplorerFigure` draws an ExplorerState
(attention_lesson.explorer.model computes every number) on a figure that is made once; each new state only
changes bar heights, a line and some texts, and `png()` renders it to PNG bytes from a cached background.
That keeps a redraw short (docs/explorer.md has the measurements, bench/explorer_latency.py takes them).
"""
import io

import matplotlib
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import PolyCollection
from matplotlib.figure import Figure
from PIL import Image

from attention_lesson.explorer.captions import PANELS, heading, readout_line
from attention_lesson.explorer.model import POSITIONS, WIDTHS
from attention_lesson.style import DIVISOR_COLOURS, OKABE_ITO, RC
from attention_lesson.vocabulary import divisor_name

# The colour of a divisor d_k**p that is none of the three named ones, and of the undivided scores behind.
OTHER_EXPONENT_COLOUR = OKABE_ITO["reddish purple"]
UNDIVIDED_COLOUR = "#999999"
# The widths of the bars: the divided scores stand in front of the undivided ones, half as wide.
UNDIVIDED_WIDTH, DIVIDED_WIDTH = 0.8, 0.4
# The score panel runs from -SCORE_LIMIT to SCORE_LIMIT at every width: sqrt(1024) * 3.9 fits (3.9 > sqrt(15),
# the largest unit-scale score a row of 16 can hold).
SCORE_LIMIT = 150
# The height of the three panels, in inches; the figure adds room for titles, labels and captions.
PANEL_HEIGHT = 2.2625
# The score panel's symmetric log scale (matplotlib's symlog: linear within ±SYMLOG["linthresh"]).
SYMLOG = {"base": 10, "linthresh": 1, "linscale": 0.6}
# Room left and right of the first and last bar, in positions; the winner's label sits this high above its bar.
X_MARGIN, WINNER_LIFT = 0.6, 0.02


def bar_outlines(heights, width):
    """The corners of one bar per height, centred on positions 1, 2, ...: an (n, 4, 2) array for a PolyCollection.

    Each bar runs from 0 to its height: corners (left, 0), (left, h), (right, h), (right, 0).
    """
    heights = np.asarray(heights, dtype=float)
    centres = np.arange(1, len(heights) + 1)
    corners = np.zeros((len(heights), 4, 2))
    corners[:, :2, 0] = (centres - width / 2)[:, None]
    corners[:, 2:, 0] = (centres + width / 2)[:, None]
    corners[:, 1:3, 1] = heights[:, None]
    return corners


def bar_heights(bars):
    """The heights of the bars drawn by a PolyCollection made from `bar_outlines` (what a test reads back)."""
    return np.array([path.vertices[1, 1] for path in bars.get_paths()])


def exponent_colour(p):
    """The bar colour for the divisor d_k**p: the lesson's colour of a named divisor, another one in between."""
    return DIVISOR_COLOURS.get(divisor_name(p), OTHER_EXPONENT_COLOUR)


def png_bytes(rgba):
    """Encode an (height, width, 4) uint8 picture as an RGB PNG with Pillow, at its fastest compression level."""
    buffer = io.BytesIO()
    Image.fromarray(np.asarray(rgba)).convert("RGB").save(buffer, "PNG", compress_level=1)
    return buffer.getvalue()


class ExplorerFigure:
    """One matplotlib figure for the explorer, made once and updated in place by `draw(state)`.

    Left: the undivided scores (grey) with the divided ones (in the divisor's colour) in front, on a
    fixed symmetric log scale, so that growth with d_k shows as taller bars rather than a new axis.
    Middle: the attention weights as bars, the winner's weight written on its bar and the even share 1/T dotted.
    Right: the top weight against d_k for this divisor, with the current width ringed.
    With `captions` (the default, for a still picture): the settings as a heading and the readouts as a
    line of text below. The live widget turns them off, as its page shows both as text, and the figure is
    shorter by their room; the panels keep their size.

    Everything that changes with the state is an "animated" artist: `png()` pastes a cached picture of
    the fixed parts (one per T, since the ticks follow T) and draws only those artists on it, which is
    tens of times faster than drawing the whole figure. `figure.savefig` still draws everything. Each
    set of bars is one PolyCollection (one draw call, not one per bar; read it back with `bar_heights`).
    The artists a test may read back are attributes: `score_bars`, `divided_bars`, `weight_bars`,
    `winner_text`, `even_line`, `curve_line`, `curve_marker`, `curve_even_line`, and with captions
    `heading_text` and `readout_text` (None without).
    """

    def __init__(self, state=None, *, max_positions=POSITIONS[1], dpi=80, captions=True):
        self.dpi = dpi
        self.max_positions = max_positions
        self.captions = captions
        self._backgrounds = {}
        # inches above the panels (their titles, and the heading) and below them (ticks, labels, the readouts)
        above, below = (0.663, 0.975) if captions else (0.36, 0.64)
        height = above + PANEL_HEIGHT + below
        with matplotlib.rc_context({**RC, "axes.axisbelow": True}):
            self.figure = Figure(figsize=(11, height), dpi=dpi)
            FigureCanvasAgg(self.figure)
            self.figure.subplots_adjust(left=0.07, right=0.985, bottom=below / height, top=1 - above / height,
                                        wspace=0.3)
            self.score_ax, self.weight_ax, self.curve_ax = self.figure.subplots(1, 3)
            # each set of bars is one PolyCollection (one draw call rather than one per bar); see bar_outlines
            self.score_bars = self._bars(self.score_ax, UNDIVIDED_COLOUR)
            self.divided_bars = self._bars(self.score_ax, DIVISOR_COLOURS["√d_k"])
            self.score_ax.axhline(0, color=OKABE_ITO["black"], linewidth=0.8)
            self.score_ax.set_yscale("symlog", **SYMLOG)
            self.score_ax.set_ylim(-SCORE_LIMIT, SCORE_LIMIT)
            self.score_ax.set_yticks([-100, -10, -1, 0, 1, 10, 100], ["−100", "−10", "−1", "0", "1", "10", "100"])
            self._label(self.score_ax, PANELS["scores"])

            self.weight_bars = self._bars(self.weight_ax, DIVISOR_COLOURS["√d_k"])
            self.even_line = self.weight_ax.axhline(0, color=OKABE_ITO["black"], linestyle=":", linewidth=1.2)
            self.winner_text = self.weight_ax.text(1, 0, "", ha="center", va="bottom", fontweight="bold")
            self.weight_ax.set_ylim(0, 1.15)
            self._label(self.weight_ax, PANELS["weights"])

            self.curve_line, = self.curve_ax.plot(WIDTHS, np.zeros(len(WIDTHS)), "o-", markersize=4)
            self.curve_marker, = self.curve_ax.plot([WIDTHS[0]], [0], "o", markersize=11, fillstyle="none",
                                                    color=OKABE_ITO["black"], markeredgewidth=1.5)
            self.curve_even_line = self.curve_ax.axhline(0, color=OKABE_ITO["black"], linestyle=":", linewidth=1.2)
            self.curve_ax.set_xscale("log", base=2)
            self.curve_ax.set_xticks(WIDTHS, [str(w) if i % 2 == 0 else "" for i, w in enumerate(WIDTHS)])
            self.curve_ax.minorticks_off()
            self.curve_ax.set_xlim(WIDTHS[0] / 1.3, WIDTHS[-1] * 1.3)
            self.curve_ax.set_ylim(0, 1.05)
            self._label(self.curve_ax, PANELS["curve"])

            # the state as text: a heading line above the panels and the readouts under them
            self.heading_text = self.readout_text = None
            if captions:
                self.heading_text = self.score_ax.text(0.5, 0.975, "", transform=self.figure.transFigure,
                                                       ha="center", va="top", fontsize=11, clip_on=False)
                self.readout_text = self.score_ax.text(0.5, 0.02, "", transform=self.figure.transFigure,
                                                       ha="center", va="bottom", fontsize=11, clip_on=False)
        self._dynamic = [self.score_bars, self.divided_bars, self.weight_bars, self.even_line, self.winner_text,
                         self.curve_line, self.curve_marker, self.curve_even_line]
        if captions:
            self._dynamic += [self.heading_text, self.readout_text]
        for artist in self._dynamic:
            artist.set_animated(True)
        self.state = None
        if state is not None:
            self.draw(state)

    @staticmethod
    def _label(ax, words):
        ax.set_title(words["title"])
        ax.set_xlabel(words["xlabel"])
        ax.set_ylabel(words["ylabel"])

    @staticmethod
    def _bars(ax, colour):
        bars = PolyCollection([], closed=True, facecolors=colour, edgecolors="none", linewidths=0, zorder=1)
        ax.add_collection(bars, autolim=False)
        return bars

    def draw(self, state):
        """Show `state` (an ExplorerState): change heights, lines and texts; nothing is re-created."""
        if state.T > self.max_positions:
            raise ValueError(f"state.T must be at most {self.max_positions}, the bars this figure holds; got {state.T}")
        colour = exponent_colour(state.p)
        T = state.T
        self.score_bars.set_verts(bar_outlines(state.scores, UNDIVIDED_WIDTH))
        self.divided_bars.set_verts(bar_outlines(state.divided, DIVIDED_WIDTH))
        self.weight_bars.set_verts(bar_outlines(state.weights, UNDIVIDED_WIDTH))
        self.divided_bars.set_facecolor(colour)
        self.weight_bars.set_facecolor(colour)
        if self.state is None or self.state.T != T:
            for ax in (self.score_ax, self.weight_ax):
                ax.set_xlim(1 - X_MARGIN, T + X_MARGIN)
                ax.set_xticks(range(1, T + 1))

        even = 1 / T
        self.even_line.set_ydata([even, even])
        self.curve_even_line.set_ydata([even, even])
        winner_weight = state.weights[state.winner]
        self.winner_text.set_position((state.winner + 1, winner_weight + WINNER_LIFT))
        self.winner_text.set_text(f"{winner_weight:.2f}")

        self.curve_line.set_data(state.widths, state.curve)
        self.curve_line.set_color(colour)
        here = list(state.widths).index(state.d_k) if state.d_k in state.widths else None
        self.curve_marker.set_data([state.d_k], [state.curve[here] if here is not None else winner_weight])

        if self.captions:
            self.heading_text.set_text(heading(state))
            self.readout_text.set_text(readout_line(state))
        self.state = state
        return self

    def _background(self):
        """The fixed parts of the figure for the current T, drawn once and then reused."""
        key = self.state.T if self.state is not None else None
        if key not in self._backgrounds:
            canvas = self.figure.canvas
            canvas.draw()  # animated artists are left out
            self._backgrounds[key] = canvas.copy_from_bbox(self.figure.bbox)
        return self._backgrounds[key]

    def rgba(self):
        """The figure as an (height, width, 4) uint8 array, drawn the fast way (see the class docstring)."""
        canvas = self.figure.canvas
        background = self._background()
        canvas.restore_region(background)
        renderer = canvas.get_renderer()
        for artist in self._dynamic:
            if artist.get_visible():
                artist.draw(renderer)
        return np.asarray(canvas.buffer_rgba())

    def png(self):
        """The figure as PNG bytes (fast path: cached background plus the changing artists)."""
        return png_bytes(self.rgba())

    def svg(self):
        """The figure as SVG text: the same on every run (fixed ids, no date) and with its words as text."""
        buffer = io.StringIO()
        with matplotlib.rc_context({"svg.hashsalt": "divisor-explorer", "svg.fonttype": "none"}):
            self.figure.savefig(buffer, format="svg", metadata={"Date": None})
        return buffer.getvalue()

