"""The divisor explorer of notebooks/04-explore-the-divisor.ipynb: one figure drawn in place, and its widget.

Two layers, both thin:

* `ExplorerFigure` draws an `ExplorerState` (attention_lesson.explorer_model computes every number) on a
  figure that is made once; each new state only changes bar heights, a line and some texts, and `png()`
  renders it to PNG bytes. That is what keeps a redraw fast (about 4 ms, see bench/explorer_latency.py).
* `DivisorExplorer` is the ipywidgets box: controls, the PNG in an Image widget, the readouts as text in an
  HTML table. Its live picture leaves that text to the page. Wherever no kernel runs
  (GitHub's preview, nbconvert, a notebook opened without running it), its output shows instead a PNG of
  the state it was displayed in, with the settings and readouts written above and below the panels.
"""
import base64
import html
import struct
import zlib

import ipywidgets as widgets
import matplotlib
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import PolyCollection
from matplotlib.figure import Figure

from attention_lesson.explorer_model import (DEFAULT_SETTINGS, DIVISORS, POSITIONS, READOUT_NAMES, WIDTHS,
                                             explorer_state)
from attention_lesson.style import DIVISOR_COLOURS, OKABE_ITO, RC

# The colour of the divisor d_k**p: the lesson's three colours at p = 0, 1/2, 1; another one in between.
EXPONENT_COLOURS = {0.0: DIVISOR_COLOURS["none"], 0.5: DIVISOR_COLOURS["sqrt(d_k)"], 1.0: DIVISOR_COLOURS["d_k"]}
OTHER_EXPONENT_COLOUR = OKABE_ITO["reddish purple"]
UNDIVIDED_COLOUR = "#999999"
# The widths of the bars: the divided scores stand in front of the undivided ones, half as wide.
UNDIVIDED_WIDTH, DIVIDED_WIDTH = 0.8, 0.4
# The score panel runs from -SCORE_LIMIT to SCORE_LIMIT at every width: sqrt(1024) * 3.9 fits (3.9 > sqrt(15),
# the largest unit-scale score a row of 16 can hold).
SCORE_LIMIT = 150
# The height of the three panels, in inches; the figure adds room for titles, labels and captions.
PANEL_HEIGHT = 2.2625
# What the stored output of the explorer says as plain text (nbval compares it; GitHub shows the PNG).
STAND_IN_TEXT = "Divisor explorer (a picture of its starting state; run the notebook to move the sliders)"


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
    """The bar colour for the divisor d_k**p."""
    for exponent, colour in EXPONENT_COLOURS.items():
        if np.isclose(p, exponent):
            return colour
    return OTHER_EXPONENT_COLOUR


class ExplorerFigure:
    """One matplotlib figure for the explorer, made once and updated in place by `draw(state)`.

    Left: the undivided scores (grey) with the divided ones (in the divisor's colour) in front, on a
    fixed symmetric log scale, so that growth with d_k shows as taller bars rather than a new axis.
    Middle: the share-out as bars, with the winner's weight written on its bar and the even share 1/T dotted.
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
            self.divided_bars = self._bars(self.score_ax, EXPONENT_COLOURS[0.5])
            self.score_ax.axhline(0, color=OKABE_ITO["black"], linewidth=0.8)
            self.score_ax.set_yscale("symlog", linthresh=1, linscale=0.6)
            self.score_ax.set_ylim(-SCORE_LIMIT, SCORE_LIMIT)
            self.score_ax.set_yticks([-100, -10, -1, 0, 1, 10, 100], ["−100", "−10", "−1", "0", "1", "10", "100"])
            self.score_ax.set_xlabel("position j in the row")
            self.score_ax.set_ylabel("score (symmetric log scale)")
            self.score_ax.set_title("scores: undivided (grey), divided (colour)")

            self.weight_bars = self._bars(self.weight_ax, EXPONENT_COLOURS[0.5])
            self.even_line = self.weight_ax.axhline(0, color=OKABE_ITO["black"], linestyle=":", linewidth=1.2)
            self.winner_text = self.weight_ax.text(1, 0, "", ha="center", va="bottom", fontweight="bold")
            self.weight_ax.set_ylim(0, 1.15)
            self.weight_ax.set_xlabel("position j in the row")
            self.weight_ax.set_ylabel("softmax weight α_j")
            self.weight_ax.set_title("share-out (dotted: the even share 1/T)")

            self.curve_line, = self.curve_ax.plot(WIDTHS, np.zeros(len(WIDTHS)), "o-", markersize=4)
            self.curve_marker, = self.curve_ax.plot([WIDTHS[0]], [0], "o", markersize=11, fillstyle="none",
                                                    color=OKABE_ITO["black"], markeredgewidth=1.5)
            self.curve_even_line = self.curve_ax.axhline(0, color=OKABE_ITO["black"], linestyle=":", linewidth=1.2)
            self.curve_ax.set_xscale("log", base=2)
            self.curve_ax.set_xticks(WIDTHS, [str(w) if i % 2 == 0 else "" for i, w in enumerate(WIDTHS)])
            self.curve_ax.minorticks_off()
            self.curve_ax.set_xlim(WIDTHS[0] / 1.3, WIDTHS[-1] * 1.3)
            self.curve_ax.set_ylim(0, 1.05)
            self.curve_ax.set_xlabel("width d_k (log scale)")
            self.curve_ax.set_ylabel("top weight")
            self.curve_ax.set_title("top weight against d_k, this divisor")

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
                ax.set_xlim(0.4, T + 0.6)
                ax.set_xticks(range(1, T + 1))

        even = 1 / T
        self.even_line.set_ydata([even, even])
        self.curve_even_line.set_ydata([even, even])
        winner_weight = state.weights[state.winner]
        self.winner_text.set_position((state.winner + 1, winner_weight + 0.02))
        self.winner_text.set_text(f"{winner_weight:.2f}")

        self.curve_line.set_data(state.widths, state.curve)
        self.curve_line.set_color(colour)
        here = list(state.widths).index(state.d_k) if state.d_k in state.widths else None
        self.curve_marker.set_data([state.d_k], [state.curve[here] if here is not None else winner_weight])

        if self.captions:
            divided_by = "1 (undivided)" if state.p == 0 else f"{state.label} = {state.divisor:.4g}"
            self.heading_text.set_text(f"d_k = {state.d_k}, divided by {divided_by} (p = {state.p:.2f}),"
                                       f" T = {T} positions, seed {state.seed}")
            self.readout_text.set_text("      ".join(f"{name}: {value:.4f}"
                                                   for name, value in state.readouts.items()))
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
        return encode_png(self.rgba())


def _png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def encode_png(rgba, level=1):
    """Encode an (height, width, 3 or 4) uint8 array as an RGB PNG, without row filters and with fast zlib.

    Lossless, and about twice as quick as Pillow's encoder for pictures like ours (Pillow tries a filter
    on every row); the file is a little larger, some 40 kB for the explorer.
    """
    pixels = np.asarray(rgba)
    if pixels.dtype != np.uint8 or pixels.ndim != 3 or pixels.shape[2] not in (3, 4):
        raise ValueError(f"rgba must be a (height, width, 3 or 4) array of uint8; got {pixels.dtype} {pixels.shape}")
    height, width = pixels.shape[:2]
    rows = np.empty((height, 1 + 3 * width), np.uint8)
    rows[:, 0] = 0  # each row starts with its filter type, 0: none
    for channel in range(3):  # one strided copy per channel: several times quicker than copying pixels[..., :3]
        rows[:, 1 + channel::3] = pixels[..., channel]
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8 bits, truecolour, no interlace
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header)
            + _png_chunk(b"IDAT", zlib.compress(rows, level)) + _png_chunk(b"IEND", b""))


def plot_explorer(state):
    """Draw one state of the explorer and return the matplotlib Figure (for a static picture or a test)."""
    return ExplorerFigure(state).figure


def readout_html(state):
    """The readouts as a small HTML table; each value cell carries data-readout="<name>" for tests."""
    rows = [("divisor", f"{state.label} = {state.divisor:.4g}")]
    rows += [(name, f"{value:.4f}") for name, value in state.readouts.items()]
    rows += [("winner", f"position {state.winner + 1} of {state.T}"), ("seed", str(state.seed))]
    cells = "".join(f'<tr><th style="text-align:left;padding-right:1em">{html.escape(name)}</th>'
                    f'<td data-readout="{html.escape(name)}" style="font-family:monospace">'
                    f'{html.escape(text)}</td></tr>'
                    for name, text in rows)
    return f'<table class="explorer-readout-table">{cells}</table>'


class DivisorExplorer(widgets.VBox):
    """The explorer: sliders for d_k, the divisor d_k**p and T, a button for a new row, and the live picture.

    Every control writes its value back into `settings()`; each change recomputes the state with
    attention_lesson.explorer_model.explorer_state and redraws the one figure in place. `state` is the
    state on screen. Used in notebooks/04-explore-the-divisor.ipynb (and served alone by `make explore`).
    """

    def __init__(self, d_k=DEFAULT_SETTINGS["d_k"], p=DEFAULT_SETTINGS["p"], T=DEFAULT_SETTINGS["T"],
                 seed=DEFAULT_SETTINGS["seed"], *, dpi=80):
        self.state = explorer_state(d_k=d_k, p=p, T=T, seed=seed)
        # the page shows the settings and readouts as text beside the picture, so the live picture leaves out
        # the captions (drawing text is most of a redraw); the static stand-in keeps them
        self.picture = ExplorerFigure(self.state, dpi=dpi, captions=False)
        self.d_k = widgets.SelectionSlider(options=list(WIDTHS), value=self.state.d_k, description="d_k",
                                           continuous_update=True)
        self.divisor = widgets.ToggleButtons(options=list(DIVISORS.items()), value=None, description="divide by",
                                             style={"button_width": "4.5em"})
        self.p = widgets.FloatSlider(value=self.state.p, min=0.0, max=1.0, step=0.05, readout_format=".2f",
                                     description="p in d_k^p", continuous_update=True,
                                     style={"description_width": "initial"})
        self.T = widgets.IntSlider(value=self.state.T, min=POSITIONS[0], max=POSITIONS[1], description="T",
                                   continuous_update=True)
        self.seed = widgets.BoundedIntText(value=self.state.seed, min=0, max=2 ** 31 - 1, description="seed",
                                           layout=widgets.Layout(width="12em"))
        self.new_row = widgets.Button(description="new row of scores", icon="refresh",
                                      layout=widgets.Layout(width="auto"),
                                      tooltip="draw a new row of scores (the seed goes up by one)")
        png = self.picture.png()
        width, height = self.picture.figure.canvas.get_width_height(physical=True)  # the picture's size in pixels
        # a fixed aspect ratio lets the page keep its layout while a new picture is decoded
        self.image = widgets.Image(value=png, format="png", width=str(width), height=str(height),
                                   layout=widgets.Layout(width="100%", max_width=f"{width}px", height="auto"))
        self.readout = widgets.HTML(readout_html(self.state))
        for name in ("d_k", "divisor", "p", "T", "seed", "new_row", "image", "readout"):
            getattr(self, name).add_class(f"explorer-{name.replace('_', '-')}")
        self._sync_divisor()

        self.divisor.observe(self._on_divisor, names="value")
        for control in (self.d_k, self.p, self.T, self.seed):
            control.observe(self._on_change, names="value")
        self.new_row.on_click(self._on_new_row)
        controls = widgets.HBox([widgets.VBox([self.d_k, self.divisor, self.p]),
                                 widgets.VBox([self.T, widgets.HBox([self.seed, self.new_row]), self.readout])])
        super().__init__([controls, self.image])
        self.add_class("divisor-explorer")

    def settings(self):
        """The four settings on the controls, as keyword arguments of explorer_state."""
        return {"d_k": self.d_k.value, "p": self.p.value, "T": self.T.value, "seed": self.seed.value}

    def _sync_divisor(self):
        """Light up the named divisor that equals d_k**p, or none of them for another p."""
        named = [exponent for exponent in DIVISORS.values() if np.isclose(self.p.value, exponent)]
        self.divisor.value = named[0] if named else None

    def _on_divisor(self, change):
        if change["new"] is not None and not np.isclose(change["new"], self.p.value):
            self.p.value = change["new"]  # redraws through _on_change

    def _on_change(self, change):
        if change["owner"] is self.p:
            self._sync_divisor()
        self.update()

    def _on_new_row(self, _button):
        self.seed.value = self.seed.value + 1  # redraws through _on_change

    def update(self):
        """Recompute the state from the controls and show it: the picture, then the readouts."""
        self.state = explorer_state(**self.settings())
        self.image.value = self.picture.draw(self.state).png()
        self.readout.value = readout_html(self.state)

    def _repr_mimebundle_(self, **kwargs):
        """The widget where a kernel runs it, and a PNG of the state it was shown in everywhere else.

        JupyterLab shows the widget view in a live session; nbconvert (without saved widget state),
        GitHub's preview and a notebook opened without running it fall back to the image/png, and
        the text/plain is the same sentence on every run, so nbval can compare it.
        """
        bundle = super()._repr_mimebundle_(**kwargs)
        if isinstance(bundle, tuple):
            bundle = bundle[0]
        bundle = dict(bundle)
        stand_in = ExplorerFigure(self.state, dpi=self.picture.dpi, captions=True).png()
        bundle["image/png"] = base64.b64encode(stand_in).decode("ascii")
        bundle["text/plain"] = STAND_IN_TEXT
        return bundle
