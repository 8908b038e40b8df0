"""What the explorer's view in the browser (browser/view.js) is given, and the explorer as HTML that needs no kernel.

Used by the explorer of notebooks/04-explore-the-divisor.ipynb. The view computes every number itself from a row's
unit-scale scores; this module hands it

* `view_look()`: every word (attention_lesson.explorer.captions), colour (attention_lesson.style) and scale it draws
  with, the scales and panel boxes read off the still picture's matplotlib figure, so both pictures agree;
* `seed_rows(seeds)`: the rows of each seed, one per T, from attention_lesson.explorer.model.unit_scores.

`stand_in_html` is the explorer's output where no kernel runs (an exported notebook, a notebook opened again): the
still picture with its readout table, which a page that runs scripts turns into the live explorer with the rows of a
few seeds embedded (attention_lesson.explorer.page wraps it into one self-contained page). Both are rendered from
Jinja2 templates with autoescaping.
"""
import base64
import functools
import json
from pathlib import Path

import jinja2
from markupsafe import Markup

from attention_lesson.explorer.captions import (CONTROLS, NUMBER_COLUMNS, PANELS, TEMPLATES, VIEW_WORDS, heading,
                                                readout_html, readout_labels, readout_line)
from attention_lesson.explorer.figure import (DIVIDED_WIDTH, OTHER_EXPONENT_COLOUR, SYMLOG, UNDIVIDED_COLOUR,
                                              UNDIVIDED_WIDTH, WINNER_LIFT, X_MARGIN, ExplorerFigure)
from attention_lesson.explorer.model import (DEFAULT_SETTINGS, POSITIONS, READOUTS, WIDTHS, as_seed, explorer_state,
                                             unit_scores)
from attention_lesson.style import DIVISOR_COLOURS, RC
from attention_lesson.vocabulary import DIVISOR_EXPONENTS

BROWSER = Path(__file__).resolve().parent / "browser"
VIEW_JS, VIEW_CSS = BROWSER / "view.js", BROWSER / "view.css"
# The p slider moves in steps of 1/P_STEPS (0.05).
P_STEPS = 20
# The largest seed the seed field accepts (numpy's generators take any non-negative int; this keeps it an int32).
LARGEST_SEED = 2 ** 31 - 1
# The seeds whose rows a stand-in in a notebook carries, counted from the seed on screen.
STAND_IN_SEEDS = 8

HTML_TEMPLATES = jinja2.Environment(loader=jinja2.FileSystemLoader(BROWSER), autoescape=True,
                                    keep_trailing_newline=True)


def _ticks(ax, axis):
    """[(value, label)] of the major ticks of one axis of `ax` that lie within its limits."""
    ticks = ax.xaxis if axis == "x" else ax.yaxis
    low, high = sorted(ax.get_xlim() if axis == "x" else ax.get_ylim())
    labels = [label.get_text() for label in ticks.get_ticklabels()]
    return [(float(v), text) for v, text in zip(ticks.get_ticklocs(), labels) if low <= v <= high]


@functools.lru_cache(maxsize=1)
def view_look():
    """Everything the browser's view draws with, as plain JSON-ready data (the same for every explorer)."""
    figure = ExplorerFigure(captions=False)
    width, height = figure.figure.canvas.get_width_height()
    figure.figure.canvas.draw()
    renderer = figure.figure.canvas.get_renderer()

    def panel(name, ax, xscale, yscale):
        box = ax.get_position()  # in figure fractions, from the bottom left
        label = ax.yaxis.label.get_window_extent(renderer)
        return {"name": name, **PANELS[name], "box": [box.x0 * width, (1 - box.y1) * height, box.x1 * width,
                                                      (1 - box.y0) * height],
                "ylabel_offset": (box.x0 * width - (label.x0 + label.x1) / 2) / font_px,
                "xlim": [float(v) for v in ax.get_xlim()], "ylim": [float(v) for v in ax.get_ylim()],
                "yticks": _ticks(ax, "y"), "xticks": _ticks(ax, "x") if name == "curve" else None,
                "xscale": xscale, "yscale": yscale}

    font_px = RC["font.size"] * figure.dpi / 72
    return {
        "size": [width, height], "font_px": font_px,
        "panels": [panel("scores", figure.score_ax, "linear", {"kind": "symlog", **SYMLOG}),
                   panel("weights", figure.weight_ax, "linear", {"kind": "linear"}),
                   panel("curve", figure.curve_ax, "log2", {"kind": "linear"})],
        "widths": list(WIDTHS), "positions": list(POSITIONS), "p_steps": P_STEPS, "largest_seed": LARGEST_SEED,
        "divisors": [[name, exponent] for name, exponent in DIVISOR_EXPONENTS.items()],
        "measures": [[name] for name in READOUTS], "readouts": readout_labels(READOUTS),
        "colours": {"divisors": DIVISOR_COLOURS, "other": OTHER_EXPONENT_COLOUR, "undivided": UNDIVIDED_COLOUR},
        "bar_widths": {"undivided": UNDIVIDED_WIDTH, "divided": DIVIDED_WIDTH},
        "x_margin": X_MARGIN, "winner_lift": WINNER_LIFT,
        "marker_px": {"dot": figure.curve_line.get_markersize() / 2 * figure.dpi / 72,
                      "ring": figure.curve_marker.get_markersize() / 2 * figure.dpi / 72},
        "controls": CONTROLS, "words": {**TEMPLATES, **VIEW_WORDS}, "columns": list(NUMBER_COLUMNS),
    }


def seed_rows(seeds):
    """{seed: {T: the row's unit-scale scores}} for every T the explorer offers, keys as strings (JSON's)."""
    return {str(as_seed(seed)): {str(T): unit_scores(T, seed).tolist() for T in range(POSITIONS[0], POSITIONS[1] + 1)}
            for seed in seeds}


def _script_json(data):
    """`data` as JSON that can stand inside a <script> element (no '<', so no '</script>')."""
    return Markup(json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c"))


def _script_source(path):
    source = path.read_text(encoding="utf-8")
    if "</script" in source.lower():
        raise ValueError(f"{path} must not contain '</script', which would end the inline script early")
    return Markup(source)


def stand_in_html(settings=None, seeds=STAND_IN_SEEDS):
    """The explorer without a kernel, as an HTML fragment: the still picture of `settings` (the default settings
    if None) with its readout table, and the live view with the rows of `seeds` seeds from the settings' seed on,
    which a page that runs scripts shows instead. The same on every run."""
    state = explorer_state(**{**DEFAULT_SETTINGS, **(settings or {})})
    if not 1 <= seeds <= 1000:
        raise ValueError(f"seeds must be between 1 and 1000 (each seed adds about 3 kB); got {seeds!r}")
    if state.seed + seeds - 1 > LARGEST_SEED:
        raise ValueError(f"the seeds embedded must stay at most {LARGEST_SEED}; got {seeds} from {state.seed}")
    picture = base64.b64encode(ExplorerFigure(state).svg().encode("utf-8")).decode("ascii")
    model = {"d_k": state.d_k, "p": state.p, "T": state.T, "seed": state.seed,
             "rows": seed_rows(range(state.seed, state.seed + seeds)),
             "look": view_look(), "reseed": "embedded"}
    data = {"model": model, "css": VIEW_CSS.read_text(encoding="utf-8")}
    return HTML_TEMPLATES.get_template("stand_in.html.j2").render(
        picture=picture, alt=f"{heading(state)}. {readout_line(state)}", width=view_look()["size"][0],
        table=Markup(readout_html(state)), data=_script_json(data), script=_script_source(VIEW_JS))
