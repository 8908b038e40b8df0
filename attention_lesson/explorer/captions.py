"""The explorer's state in words: the heading and readout line of the still picture, and the page's readout table.

Used by the explorer of notebooks/04-explore-the-divisor.ipynb (attention_lesson.explorer.figure writes the
line and heading on its still picture; attention_lesson.explorer.widget shows the table beside the controls).
Every name comes from attention_lesson.vocabulary; the table is rendered by Jinja2 with autoescaping.
"""
import jinja2

from attention_lesson.vocabulary import MEASURE_FORMULAS

_TABLE = jinja2.Environment(autoescape=True).from_string(
    '<table class="explorer-readout-table">'
    "{% for key, label, text in rows %}"
    '<tr><th style="text-align:left;padding-right:1em">{{ label }}</th>'
    '<td data-readout="{{ key }}" style="font-family:monospace">{{ text }}</td></tr>'
    "{% endfor %}</table>")


def measure_label(name):
    """How a measure is labelled on screen: its name and formula, such as 'total slope (1 − Σα²)'."""
    return f"{name} ({MEASURE_FORMULAS[name]})"


def divisor_text(state):
    """The divisor with its value, such as '√d_k = 8'."""
    return f"{state.label} = {state.divisor:.4g}"


def heading(state):
    """One line with the four settings, for the top of the still picture."""
    divided_by = "1 (undivided)" if state.p == 0 else divisor_text(state)
    return f"d_k = {state.d_k}, divided by {divided_by} (p = {state.p:.2f}), T = {state.T} positions, seed {state.seed}"


def readout_line(state):
    """The readouts in one line, for the foot of the still picture."""
    return "      ".join(f"{measure_label(name)}: {value:.4f}" for name, value in state.readouts.items())


def readout_html(state):
    """The readouts as a small HTML table; each value cell carries data-readout="<key>" for the tests to read."""
    rows = [("divisor", "divisor", divisor_text(state))]
    rows += [(name, measure_label(name), f"{value:.4f}") for name, value in state.readouts.items()]
    rows += [("winner", "winner", f"position {state.winner + 1} of {state.T}"), ("seed", "seed", str(state.seed))]
    return _TABLE.render(rows=rows)
