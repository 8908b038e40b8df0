"""Every number the prose of notebook 06 and its appendix 07 quotes is what they print, at the printed precision.

The committed outputs are read here; nbval, in the same suite, re-runs the notebook in a fresh kernel and fails if
an output differs, so the check is against what its own code computes. Nothing below hard-codes a result: each claim
pairs a phrase of the prose, with a gap for every number, with the table cells those numbers were read from. If a
computation changes, the prose has to change with it, and this test says which sentence is out of date. Chaotic runs
print `~` instead of digits, and yes-or-no readings that hold with a margin; what the prose says of them in words is
paired with those cells.
"""
import re

import pytest

from coursekit.repository import ROOT
from tests.lessons.outputs import stored_text

NOTEBOOKS = (ROOT / "notebooks" / "06-watch-a-wide-layer-stall.ipynb",
             ROOT / "notebooks" / "07-appendix-the-divisor-under-adam.ipynb")

# Each printed table is found by a match of its first line; a row is named by its first `key` tokens.
TABLES = {  # name: (regex for the header, tokens naming a row)
    "start": (r"^divide by\s+d_k\s+loss\s", 2),      # divisor d_k | loss, total slope, gradient at S, at W
    "grid": (r"^divide by\s+d_k(\s+[\d.]+)+\s*$", 2),  # divisor d_k | final loss at each rate of the header
    "summary": (r"start loss\s+below start/10", 2),  # divisor d_k | start loss | which runs get below start/10, /2
    "gd": (r"divided, rate 1", 1),                    # d_k | divided | rescaled | every step within 1e-7
    "adam change": (r"rescaled, η/√d_k", 1),          # d_k | divided | two rescaled | every step within 1e-7
    "qk": (r"^\s*head, rate\s+0\.3\s", 2),               # plain or QK-norm, final or largest | one value per rate
    "adam": (r"Adam 0\.01\s+Adam 0\.1", 2),           # divisor d_k | final loss at 0.01 and 0.1
}
# Columns, by token position. The grid's are named by their rate, or as grid_cell says.
LOSS, SLOPE = 2, 3                                    # "start"
START_LOSS, TENTH, HALF = 2, 3, 4                     # "summary"
GD_DIVIDED, GD_RESCALED, GD_SAME = 1, 2, 3            # "gd"
A_DIVIDED, A_GD_RULE, A_ADAM_RULE, A_SAME = 1, 2, 3, 4  # "adam change"
ADAM_01, ADAM_1, ADAM_TENTH = 2, 3, 4                 # "adam"
QK_LOSS, QK_LOGIT = 3, 3                              # "qk": first value of a "final loss" and a "largest |logit|" row
WIDTHS = ("16", "64", "256")
DIVISORS = ("1", "√d_k", "d_k")


def each(table, divisor, column):
    """One cell per width, in the order 16, 64, 256."""
    return [[(table, (divisor, d_k), column)] for d_k in WIDTHS]


def every(table, rows, columns):
    return [(table, row, column) for row in rows for column in columns]


# (phrase with {} for each quoted number, then for each {} the list of cells that must print exactly that number)
CLAIMS = [
    ("rows start more saturated the wider the head: total slope {}, {} and {}", *each("start", "1", SLOPE)),
    ("one rate is best at every width, {}, with final losses {}, {} and {}",
     [("grid", ("√d_k", d), "best") for d in WIDTHS], *each("grid", "√d_k", "1")),
    ("from starting losses of {} to {}", [("start", ("√d_k", "64"), LOSS), ("summary", ("√d_k", "64"), START_LOSS)],
     [("start", ("√d_k", "16"), LOSS), ("summary", ("√d_k", "16"), START_LOSS)]),
    ("at a best rate that grows with the width: {}, {} and {}", *each("grid", "d_k", "best")),
    ("At $d_k = 16$ the best calm run ends at {}, at rate {}", [("grid", ("1", "16"), ("value", 3))],
     [("grid", ("1", "16"), ("rate", 3))]),
    ("At 256 no run, calm or chaotic, halves the starting loss of {}: the calm ones end at {} at rate {} and {} at {}",
     [("start", ("1", "256"), LOSS), ("summary", ("1", "256"), START_LOSS)], [("grid", ("1", "256"), ("value", 0))],
     [("grid", ("1", "256"), ("rate", 0))], [("grid", ("1", "256"), ("value", 1))],
     [("grid", ("1", "256"), ("rate", 1))]),
    ("Those rows start with a total slope of {}", [("start", ("1", "256"), SLOPE)]),
    ("ends far behind the divided one at every width ({} against {} at $d_k = 16$)",
     [("adam change", ("16",), A_GD_RULE)], [("adam change", ("16",), A_DIVIDED), ("adam", ("√d_k", "16"), ADAM_01)]),
    ("At 0.1 the loss is {} at $d_k = 16$ and {} at 64", [("adam", ("√d_k", "16"), ADAM_1)],
     [("adam", ("√d_k", "64"), ADAM_1)]),
    ("the three widths end close together at both rates: {}, {} and {} at 0.01", *each("adam", "d_k", ADAM_01)),
    ("Plain, the calm runs' logits reach {} and {}", [("qk", ("plain", "largest"), QK_LOGIT)],
     [("qk", ("plain", "largest"), QK_LOGIT + 1)]),
    ("the largest logit stays between {} and {}", [("qk", ("QK-norm", "largest"), QK_LOGIT)],
     [("qk", ("QK-norm", "largest"), QK_LOGIT + 3)]),
    ("the final loss is between {} and {} at every rate from {} to {}", [("qk", ("QK-norm", "final"), QK_LOSS + 2)],
     [("qk", ("QK-norm", "final"), QK_LOSS)], [("headers", ("qk", 6), 2)], [("headers", ("qk", 6), 6)]),
    ("no run halves the loss: its rows start with a total slope of {}",
     [("start", ("1", "256"), SLOPE)]),
]
# (phrase the prose must contain, the token every listed cell must print): claims in words, read from the
# yes-or-no columns and from the `~` that marks a chaotic run.
FACTS = [
    ("Look for `True` on every line", "True", [("check", (d,), 0) for d in ("1", "2", "4")]),
    ("to rates at which runs turn chaotic", "~", every("grid", [(d, w) for d in DIVISORS for w in WIDTHS], ["last"])),
    ("only chaotic runs, at larger rates, get below a tenth of the start", "chaotic",
     [("summary", ("1", "16"), TENTH)]),
    ("At 64 only chaotic runs halve the loss", "chaotic", [("summary", ("1", "64"), HALF)]),
    ("At 256 no run, calm or chaotic, halves the starting loss", "none", [("summary", ("1", "256"), HALF)]),
    ("from rate 0.003 up the runs are chaotic", "~", [("grid", ("1", "256"), ("from", "0.003"))]),
    ("Divided by $d_k$**, every width reaches a tenth of its start", "calm",
     every("summary", [("d_k", w) for w in WIDTHS], [TENTH])),
    ("The two runs agree at every step", "True", every("gd", [(w,) for w in WIDTHS], [GD_SAME])),
    ("though not within $10^{-7}$ at every step", "False", every("adam change", [(w,) for w in WIDTHS], [A_SAME])),
    ("at 64 and 256 both rates are chaotic", "~", every("adam", [("1", "64"), ("1", "256")], [ADAM_01, ADAM_1])),
    ("and no run gets below a tenth of the start", "none", every("adam", [("1", "64"), ("1", "256")], [ADAM_TENTH])),
    ("and the run at 256 is chaotic", "~", [("adam", ("√d_k", "256"), ADAM_1)]),
    ("from rate 3 up the runs are chaotic", "~",
     every("qk", [("plain", "final")], [QK_LOSS + 2, QK_LOSS + 3, QK_LOSS + 4])),
    ("and their logits pass 32", ">32",
     every("qk", [("plain", "largest")], [QK_LOGIT + 2, QK_LOGIT + 3, QK_LOGIT + 4])),
]
# Decimal numbers the prose may use without their being printed here, and why.
NOT_PRINTED = {
    "0.875": "the largest total slope of a row of eight, 1 - 1/8, worked out in the prose itself",
}
# Tables printed in every run, whatever they are called.
ALWAYS = {"check", "headers"}
NUMBER = r"(\d+(?:\.\d+)?)"


def pattern(phrase):
    """A regex for a phrase whose {} are numbers; any run of white space in the prose matches one space."""
    parts = [r"\s+".join(re.escape(word) for word in piece.split(" ")) for piece in phrase.split("{}")]
    return re.compile(NUMBER.join(parts))


def parse_tables(texts):
    """Every table the notebook printed, as {name: {row key: tokens}}, plus the gradient checks as table 'check'
    and the header of each table as table 'headers' (a rate or threshold quoted in the prose may live there).
    A row of the rate grid maps each rate of its table's header to the printed value."""
    tables = {"check": {}, "headers": {}}
    for text in texts:
        for divisor, verdict in re.findall(r"^divide by (\S+): largest \|backward - nudged\| below 1e-7: (\S+)$",
                                           text, flags=re.MULTILINE):
            tables["check"][divisor,] = [verdict]
        for block in re.split(r"\n\s*\n", text):
            lines = block.strip("\n").splitlines()
            for name, (marker, key) in TABLES.items():
                if lines and re.search(marker, lines[0]):
                    tables["headers"][name, len(tables["headers"])] = lines[0].split()
                    rows = tables.setdefault(name, {})
                    for line in lines[1:]:
                        tokens = line.split()
                        if name == "grid":
                            tokens = dict(zip(lines[0].split()[3:], tokens[2:]))
                        assert tuple(line.split()[:key]) not in rows, f"two rows {line.split()[:key]} in {name}"
                        rows[tuple(line.split()[:key])] = tokens
    return tables


def grid_cell(values, column):
    """A cell of a row of the rate grid, `values` mapping each rate of the row (as printed) to its final loss.

    column: a rate, for its loss; "best", for the rate whose printed loss is lowest (chaotic runs, ~, print
    none); "last", for the loss at the largest rate; ("rate", k) and ("value", k), for the k-th rate and its loss;
    ("from", rate), for the loss at that rate and every larger one: one token if they all print the same."""
    rates = list(values)
    if column == "best":
        printed = {rate: float(value) for rate, value in values.items() if value != "~"}
        return min(printed, key=printed.get) if printed else None
    if column == "last":
        return values[rates[-1]]
    if isinstance(column, tuple):
        kind, which = column
        if kind == "rate":
            return rates[which]
        if kind == "value":
            return values[rates[which]]
        if kind == "from" and which in rates:
            tokens = {values[rate] for rate in rates[rates.index(which):]}
            return tokens.pop() if len(tokens) == 1 else sorted(tokens)
        return None
    return values.get(column)


def printed_at(tables, table, row, column):
    """The token a table prints at (row, column), or None when nothing is printed there."""
    try:
        tokens = tables[table][row]
        return grid_cell(tokens, column) if table == "grid" else tokens[column]
    except (KeyError, IndexError):
        return None


def mismatches(prose, tables):
    """Every way in which the prose and the printed tables disagree, as readable messages (empty: agreement)."""
    flat = re.sub(r"\s+", " ", prose)
    problems = []
    expectations = []  # (phrase, the value the prose needs, where it must be printed)
    for phrase, *places in CLAIMS:
        found = pattern(phrase).search(flat)
        if not found:
            problems.append(f"the prose no longer says: {phrase!r}")
            continue
        expectations += [(phrase, quoted, place) for quoted, where in zip(found.groups(), places) for place in where]
    for phrase, expected, where in FACTS:
        if re.sub(r"\s+", " ", phrase) not in flat:
            problems.append(f"the prose no longer says: {phrase!r}")
        expectations += [(phrase, expected, place) for place in where]
    for phrase, expected, (table, row, column) in expectations:
        printed = printed_at(tables, table, row, column)
        if printed is None:
            problems.append(f"{phrase!r}: nothing printed at {table} {row} column {column}")
        elif printed != expected:
            problems.append(f"{phrase!r} needs {expected}, but the {table} table prints {printed} "
                            f"at {row} column {column}")
    printed_tokens = {token for rows in tables.values() for tokens in rows.values()
                      for token in (tokens.values() if isinstance(tokens, dict) else tokens)}
    for quoted in sorted(set(re.findall(r"(?<![\w.^{:])\d+\.\d+", prose))):
        if quoted not in printed_tokens and quoted not in NOT_PRINTED:
            problems.append(f"the prose quotes {quoted}, which no table prints")
    return problems


@pytest.fixture(scope="module")
def notebook_output():
    """The notebook's prose and the tables its code cells printed."""
    texts = [stored_text(path) for path in NOTEBOOKS]
    return "\n".join(prose for prose, _ in texts), parse_tables([p for _, printed in texts for p in printed])


def test_every_table_was_printed(notebook_output):
    _, tables = notebook_output
    assert set(tables) == set(TABLES) | ALWAYS
    every_run = [(d, w) for d in DIVISORS for w in WIDTHS]
    for name in ("start", "grid", "summary", "adam"):
        assert list(tables[name]) == every_run, f"the {name} table does not have one row per divisor and width"
    for name in ("gd", "adam change"):
        assert list(tables[name]) == [(w,) for w in WIDTHS]


def test_the_rescaled_runs_end_where_the_divided_ones_do(notebook_output):
    _, tables = notebook_output
    for d_k in WIDTHS:
        gd, adam = tables["gd"][d_k,], tables["adam change"][d_k,]
        assert gd[GD_RESCALED] == gd[GD_DIVIDED], f"gradient descent, d_k = {d_k}: {gd}"
        assert adam[A_ADAM_RULE] == adam[A_DIVIDED], f"Adam with rate eta / d_k^(1/4), d_k = {d_k}: {adam}"


def test_the_prose_quotes_what_the_notebook_prints(notebook_output):
    prose, tables = notebook_output
    problems = mismatches(prose, tables)
    assert not problems, "\n".join(problems)


def test_the_check_catches_a_changed_number_in_the_prose(notebook_output):
    prose, tables = notebook_output
    changed = prose.replace("halves the starting loss of 16.163", "halves the starting loss of 16.164")
    assert changed != prose
    assert any("16.164" in problem for problem in mismatches(changed, tables))
    reworded = prose.replace("The two runs agree at every step", "The two runs agree at most steps")
    assert any("no longer says" in problem for problem in mismatches(reworded, tables))
    assert any("no table prints" in problem for problem in mismatches(prose + " It reached 42.125.", tables))


def test_the_check_catches_a_changed_table(notebook_output):
    prose, tables = notebook_output
    altered = {name: {row: (dict(tokens) if isinstance(tokens, dict) else list(tokens)) for row, tokens in rows.items()}
               for name, rows in tables.items()}
    altered["start"]["1", "256"][SLOPE] = "0.999"
    altered["summary"]["1", "256"][HALF] = "calm"
    altered["grid"]["√d_k", "64"]["0.3"] = "0.001"  # now the lowest of its row: the best rate moves
    problems = mismatches(prose, altered)
    assert any("prints 0.999" in problem for problem in problems)
    assert any("needs none" in problem and "prints calm" in problem for problem in problems)
    assert any("needs 1" in problem and "prints 0.3" in problem for problem in problems)
