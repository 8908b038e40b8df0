"""The divisor explorer of notebooks/04-explore-the-divisor.ipynb as an ipywidgets box: a thin layer of controls.

The controls' values go to attention_lesson.explorer.model.explorer_state; the state it returns is drawn by
attention_lesson.explorer.figure (the picture, as PNG bytes in an Image widget) and put in words by
attention_lesson.explorer.captions (the readout table). Wherever no kernel runs (GitHub's preview, nbconvert,
a notebook opened but not run), the stored output shows instead a still picture of the state it was displayed
in, with the settings and readouts written above and below the panels.
"""
import base64

import ipywidgets as widgets

from attention_lesson.explorer.captions import readout_html
from attention_lesson.explorer.figure import ExplorerFigure
from attention_lesson.explorer.model import DEFAULT_SETTINGS, POSITIONS, WIDTHS, explorer_state
from attention_lesson.vocabulary import DIVISOR_EXPONENTS, divisor_name

# What the stored output of the explorer says as plain text (nbval compares it; a page shows the PNG).
STAND_IN_TEXT = "Divisor explorer (a picture of its starting state; run the notebook to move the sliders)"


class DivisorExplorer(widgets.VBox):
    """The explorer: sliders for d_k, the divisor d_k**p and T, a button for a new row, and the live picture.

    Each change of a control recomputes the state from `settings()` and redraws the one figure in place;
    `state` is the state on screen. Served alone, without code, by `make explore` (Voilà).
    """

    def __init__(self, d_k=DEFAULT_SETTINGS["d_k"], p=DEFAULT_SETTINGS["p"], T=DEFAULT_SETTINGS["T"],
                 seed=DEFAULT_SETTINGS["seed"], *, dpi=80):
        self.state = explorer_state(d_k=d_k, p=p, T=T, seed=seed)
        # the page shows the settings and readouts as text beside the picture, so the live picture leaves out
        # the captions (drawing text is most of a redraw); the still stand-in keeps them
        self.picture = ExplorerFigure(self.state, dpi=dpi, captions=False)
        self.d_k = widgets.SelectionSlider(options=list(WIDTHS), value=self.state.d_k, description="d_k",
                                           continuous_update=True)
        self.divisor = widgets.ToggleButtons(options=list(DIVISOR_EXPONENTS.items()), value=None,
                                             description="divide by", style={"button_width": "4.5em"})
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
        width, height = self.picture.figure.canvas.get_width_height(physical=True)  # the picture's size in pixels
        # a fixed aspect ratio lets the page keep its layout while a new picture is decoded
        self.image = widgets.Image(value=self.picture.png(), format="png", width=str(width), height=str(height),
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
        self.divisor.value = DIVISOR_EXPONENTS.get(divisor_name(self.p.value))

    def _on_divisor(self, change):
        if change["new"] is not None and divisor_name(self.p.value) != divisor_name(change["new"]):
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
