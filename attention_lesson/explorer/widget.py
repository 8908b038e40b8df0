"""The divisor explorer of notebooks/04-explore-the-divisor.ipynb as a widget that draws in the browser (anywidget).

The view (browser/view.js) computes the row, the divisor, the softmax and the readouts from the row's unit-scale
scores, and draws the picture itself, so moving a control needs no kernel: a busy or distant kernel does not hold it
up. The kernel only sends the rows of a new seed (attention_lesson.explorer.model.unit_scores, one row per T), and
keeps the settings the view sends back, so `state` is always the reference for what is on screen.

Wherever no kernel runs (an exported notebook, GitHub's preview, a notebook opened again), the stored output shows
`stand_in_html` instead: the still picture with its readout table, turned into the live explorer with the rows of a
few seeds embedded where the page runs scripts. The PNG of the still picture is kept for readers that take images
only, and the text/plain is the same sentence on every run, so nbval can compare it.
"""
import base64

import anywidget
import traitlets

from attention_lesson.explorer.figure import ExplorerFigure
from attention_lesson.explorer.model import (DEFAULT_SETTINGS, POSITIONS, WIDTHS, as_exponent, as_positions, as_seed,
                                             explorer_state)
from attention_lesson.explorer.view import LARGEST_SEED, VIEW_CSS, VIEW_JS, seed_rows, stand_in_html, view_look

# What the stored output of the explorer says as plain text.
STAND_IN_TEXT = "Divisor explorer (its starting state as a still picture; a page that runs scripts shows it live)"


def _checked(check, proposal, name):
    """`check(value, name)`, with a refusal turned into the TraitError traitlets expects from a validator."""
    try:
        return check(proposal["value"], name)
    except (TypeError, ValueError) as exc:
        raise traitlets.TraitError(str(exc)) from exc


class DivisorExplorer(anywidget.AnyWidget):
    """The explorer: sliders for d_k, the divisor d_k**p and T, a seed and a button for a new row, and the picture.

    The four settings are traits shared with the view; `rows` holds the unit-scale scores of the current seed for
    every T. Setting a trait from Python moves the view too. Served alone, without code, by `make explore` (Voilà).
    """

    _esm = VIEW_JS
    _css = VIEW_CSS
    d_k = traitlets.Int(DEFAULT_SETTINGS["d_k"]).tag(sync=True)
    p = traitlets.Float(DEFAULT_SETTINGS["p"]).tag(sync=True)
    T = traitlets.Int(DEFAULT_SETTINGS["T"]).tag(sync=True)
    seed = traitlets.Int(DEFAULT_SETTINGS["seed"]).tag(sync=True)
    rows = traitlets.Dict().tag(sync=True)
    look = traitlets.Dict().tag(sync=True)
    reseed = traitlets.Unicode("kernel").tag(sync=True)  # a new row comes from the kernel ("embedded": from a page)

    def __init__(self, d_k=DEFAULT_SETTINGS["d_k"], p=DEFAULT_SETTINGS["p"], T=DEFAULT_SETTINGS["T"],
                 seed=DEFAULT_SETTINGS["seed"]):
        super().__init__(d_k=d_k, p=p, T=T, seed=seed, rows=seed_rows([seed]), look=view_look())
        self.add_class("divisor-explorer-widget")
        self.on_msg(self._asked)

    def _asked(self, _widget, content, _buffers):
        """The view asks again for a seed's rows when they have not come (a change sent to a busy kernel was seen
        never to be answered): take that seed if it is new, and send the seed and its rows either way."""
        if not (isinstance(content, dict) and set(content) == {"seed"}):
            self.log.warning("DivisorExplorer: ignored a message from the view that is not {'seed': n}: %r", content)
            return
        try:
            self.seed = content["seed"]
        except traitlets.TraitError as exc:
            self.log.warning("DivisorExplorer: the view asked for a seed it may not have: %s", exc)
            return
        self.send_state(["seed", "rows"])

    @traitlets.validate("d_k")
    def _valid_d_k(self, proposal):
        if proposal["value"] not in WIDTHS:
            raise traitlets.TraitError(f"d_k must be one of the widths the slider offers, {list(WIDTHS)}; "
                                       f"got {proposal['value']!r}")
        return proposal["value"]

    @traitlets.validate("p")
    def _valid_p(self, proposal):
        return _checked(as_exponent, proposal, "p")

    @traitlets.validate("T")
    def _valid_T(self, proposal):
        T = _checked(as_positions, proposal, "T")
        if T > POSITIONS[1]:
            raise traitlets.TraitError(f"T must be at most {POSITIONS[1]}, the most positions the slider offers; "
                                       f"got {T}")
        return T

    @traitlets.validate("seed")
    def _valid_seed(self, proposal):
        seed = _checked(as_seed, proposal, "seed")
        if seed > LARGEST_SEED:
            raise traitlets.TraitError(f"seed must be at most {LARGEST_SEED}; got {seed}")
        return seed

    @traitlets.observe("seed")
    def _send_rows(self, change):
        """A new seed: send its rows, the only thing the view cannot work out for itself."""
        self.rows = seed_rows([change["new"]])

    def settings(self):
        """The four settings on screen, as keyword arguments of explorer_state."""
        return {"d_k": self.d_k, "p": self.p, "T": self.T, "seed": self.seed}

    @property
    def state(self):
        """Every number on screen, from the Python model (attention_lesson.explorer.model)."""
        return explorer_state(**self.settings())

    def _repr_mimebundle_(self, **kwargs):
        """The widget where a kernel runs it, and everywhere else the stand-in of the state it was shown in.

        JupyterLab and Voilà show the widget view in a live session; without the widget's model (nbconvert,
        GitHub's preview, a notebook opened without running it) a page takes the text/html, the still picture
        and its readout table, which becomes the live explorer where scripts run; image/png is for readers of
        images only (a PDF, say).
        """
        bundle = super()._repr_mimebundle_(**kwargs)
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})
        data = dict(data)
        data["text/html"] = stand_in_html(self.settings())
        data["image/png"] = base64.b64encode(ExplorerFigure(self.state).png()).decode("ascii")
        data["text/plain"] = STAND_IN_TEXT
        return data, metadata
