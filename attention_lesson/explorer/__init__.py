"""The divisor explorer of notebooks/04-explore-the-divisor.ipynb, one job per module.

* model: every number the explorer shows, as pure functions of its four settings (d_k, p, T, seed);
* captions: the state in words (the readout table of the page, the heading and readout line of the still picture);
* figure: the picture, one matplotlib figure redrawn in place, and its PNG bytes;
* widget: the ipywidgets controls that tie the three together (`DivisorExplorer`).

docs/explorer.md tells maintainers how it is built, tested and timed.
"""
from attention_lesson.explorer.model import explorer_state
from attention_lesson.explorer.widget import DivisorExplorer

__all__ = ["DivisorExplorer", "explorer_state"]
