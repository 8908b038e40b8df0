"""The divisor explorer of notebooks/04-explore-the-divisor.ipynb, one job per module.

* model: every number the explorer shows, as pure functions of its four settings (d_k, p, T, seed): the reference;
* captions: its words (panels, controls, the state as text: readout table, heading and readout line);
* figure: the still picture, one matplotlib figure (PNG, SVG), where no page runs the live view;
* view: what the browser's view is given (words, colours, scales, rows of scores), the stand-in and the
  self-contained page (`make explore-page`); browser/ holds the view itself (view.js, view.css) and its templates;
* widget: `DivisorExplorer`, the anywidget that ties the view to a kernel, which only sends a new seed's rows.

docs/explorer.md tells maintainers how it is built, tested and timed.
"""
from attention_lesson.explorer.model import explorer_state
from attention_lesson.explorer.widget import DivisorExplorer

__all__ = ["DivisorExplorer", "explorer_state"]
