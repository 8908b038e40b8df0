"""The explorer's words: its panels and controls, and its state in words (the readout table, the still picture's
heading and readout line).

Used by the explorer of notebooks/04-explore-the-divisor.ipynb: attention_lesson.explorer.figure labels the panels
of the still picture with PANELS and writes the line and heading on it; attention_lesson.explorer.view hands every
word here to the view drawn in the browser (browser/view.js), which fills the same TEMPLATES. Every name of an idea
comes from attention_lesson.vocabulary; the table is rendered by Jinja2 with autoescaping.
"""
import jinja2

from attention_lesson.explorer.model import OTHER_DIVISOR
from attention_lesson.vocabulary import LOGIT, MEASURE_FORMULAS, SCORE, TOP_WEIGHT, WEIGHTS

# The three panels, left to right: title and axis labels.
PANELS = {
    "scores": {"title": f"{SCORE}s (grey), {LOGIT}s = {SCORE}s / d_k^p (colour)", "xlabel": "position j in the row",
               "ylabel": f"{SCORE} or {LOGIT} (symmetric log scale)"},
    "weights": {"title": f"{WEIGHTS} (dotted: the even share 1/T)", "xlabel": "position j in the row",
                "ylabel": "attention weight α_j"},
    "curve": {"title": f"{TOP_WEIGHT} against d_k, this divisor", "xlabel": "width d_k (log scale)",
              "ylabel": TOP_WEIGHT},
}
# The label of each control, as the notebook's table of controls names them.
CONTROLS = {"d_k": "d_k", "divisor": "divide by", "p": "p in d_k^p", "T": "T", "seed": "seed",
            "new_row": "new row of scores"}
# Sentences with blanks ({name}), filled here by str.format and in the browser by the same names.
TEMPLATES = {
    "divisor": "{label} = {value}",                    # the divisor with its value, value to 4 significant digits
    "other_divisor": OTHER_DIVISOR,                    # a divisor d_k**p that has no name, p to 2 decimals
    "winner": "position {position} of {T}",
    "pending": "asking the kernel for the row of seed {seed} …",
}
# The columns of the table of numbers under the live picture, and the other words of the live view.
NUMBER_COLUMNS = ("position j", SCORE, LOGIT, "attention weight α_j")
VIEW_WORDS = {
    "picture": f"Three panels: the {SCORE}s and {LOGIT}s of the row, its {WEIGHTS}, and its {TOP_WEIGHT} at every "
               "width d_k. "
               "The readouts beside the controls and the table of numbers under the picture give the same numbers.",
    "numbers": "the numbers behind the bars",
    "readout_caption": "readouts",
}

_TABLE = jinja2.Environment(autoescape=True).from_string(
    '<table class="explorer-readout-table">'
    "{% for key, label, text in rows %}"
    '<tr><th style="text-align:left;padding-right:1em">{{ label }}</th>'
    '<td data-readout="{{ key }}" style="font-family:monospace">{{ text }}</td></tr>'
    "{% endfor %}</table>")


def measure_label(name):
    """How a measure is labelled on screen: its name and formula, such as 'total slope (1 − Σα²)'."""
    return f"{name} ({MEASURE_FORMULAS[name]})"


def readout_labels(measures):
    """The rows of the readout table, [(key, label)], for the measures named in `measures` (model.READOUTS)."""
    return [("divisor", "divisor"), *[(name, measure_label(name)) for name in measures], ("winner", "winner"),
            ("seed", "seed")]


def divisor_text(state):
    """The divisor with its value, such as '√d_k = 8'; a divisor whose name is its value is said once ('1')."""
    value = f"{state.divisor:.4g}"
    return value if state.label == value else TEMPLATES["divisor"].format(label=state.label, value=value)


def heading(state):
    """One line with the four settings, for the top of the still picture."""
    divided_by = "1 (undivided)" if state.p == 0 else divisor_text(state)
    return f"d_k = {state.d_k}, divided by {divided_by} (p = {state.p:.2f}), T = {state.T} positions, seed {state.seed}"


def readout_line(state):
    """The readouts in one line, for the foot of the still picture."""
    return "      ".join(f"{measure_label(name)}: {value:.4f}" for name, value in state.readouts.items())


def readout_texts(state):
    """Each readout as the page writes it, keyed as the rows of `readout_labels`."""
    texts = {"divisor": divisor_text(state)}
    texts.update({name: f"{value:.4f}" for name, value in state.readouts.items()})
    texts["winner"] = TEMPLATES["winner"].format(position=state.winner + 1, T=state.T)
    texts["seed"] = str(state.seed)
    return texts


def readout_html(state):
    """The readouts as a small HTML table; each value cell carries data-readout="<key>" for the tests to read."""
    texts = readout_texts(state)
    return _TABLE.render(rows=[(key, label, texts[key]) for key, label in readout_labels(state.readouts)])
