"""Every number the prose of notebook 06 quotes is what the notebook itself prints, at the printed precision.

The notebook is executed afresh here (not read from its stored outputs), so the check is against what its own
code computes now. Nothing below hard-codes a result: each claim pairs a phrase of the prose, with a gap for
every number, with the table cells those numbers were read from. If a computation changes, the prose has to
change with it, and this test says which sentence is out of date. The chaotic runs are printed as yes-or-no
readings rather than digits; what the prose says of them in words is paired with those cells in the same way.
"""
import re

import nbformat
import pytest
from nbclient import NotebookClient

from conftest import ROOT

NOTEBOOK = ROOT / "notebooks" / "06-watch-a-wide-layer-stall.ipynb"

# Each printed table is found by a match of its header; a row is named by its first `key` tokens.
TABLES = {  # name: (regex for the header, tokens naming a row)
    "rule": (r"divided 16", 1),           # rate | stable | final loss of the divided runs at d_k = 16, 64, 256
    "signs": (r"rows closed", 2),         # divisor d_k | loss, correct, share-out, gradient at step 0 | 4 readings
    "end": (r"final loss range", 1),      # d_k | loss, correct, share-out, gradient at the end | range "a to b"
    "steps": (r"^\s*step\b", 1),          # step | loss | correct | share-out | gradient
    "start": (r"at the scores", 2),       # divisor d_k | share-out | at the scores | at W^Q and W^K
    "own": (r"best < start/10", 2),       # divisor d_k | start loss | best < start/10 | best < start/2
}
# Columns, by token position.
STABLE, RULE_16, RULE_64, RULE_256 = 1, 2, 3, 4
LOSS0, CORRECT0, SHARE0, GRAD0, ABOVE_10, NEVER_HALF, CLOSED, FADED = range(2, 10)  # "signs"
END_LOSS, END_CORRECT, END_SHARE, END_GRAD, RANGE_LOW, RANGE_HIGH = 1, 2, 3, 4, 5, 7  # "end" ("a to b": 3 tokens)
STEP_LOSS, STEP_CORRECT, STEP_SHARE, STEP_GRAD = 1, 2, 3, 4                          # "steps"
START_LOSS, TENTH, HALF = 2, 3, 4                                                     # "own"
WIDTHS = ("16", "64", "256")


def each(table, label, column):
    """One cell per width, in the order 16, 64, 256."""
    return [[(table, (label, d_k), column)] for d_k in WIDTHS]


def all_widths(table, label, columns):
    return [(table, (label, d_k), column) for d_k in WIDTHS for column in columns]


# (phrase with {} for each quoted number, then for each {} the list of cells that must print exactly that number)
CLAIMS = [
    ("The rule picks the rate {}", [("chosen", (), 0)]),
    ("at rate 1 the divided runs end at losses of {}, {} and {}",
     [("rule", ("1",), RULE_16)], [("rule", ("1",), RULE_64)], [("rule", ("1",), RULE_256)]),
    ("goes from chance to {}, and the final loss is {}, {} and {}",
     [("end", (d,), END_CORRECT) for d in WIDTHS], *[[("end", (d,), END_LOSS), ("rule", ("1",), column)]
                                                     for d, column in zip(WIDTHS, (RULE_16, RULE_64, RULE_256))]),
    ("the repeats agree closely ({} to {} at $d_k = 256$)",
     [("end", ("256",), RANGE_LOW)], [("end", ("256",), RANGE_HIGH)]),
    ("The starting share-out is the same at every width, {}, {} and {}", *each("signs", "divided", SHARE0)),
    ("The starting share-out falls with the width, {}, {} and {}", *each("signs", "undivided", SHARE0)),
    ("on $W^Q$ and $W^K$ ({} at $d_k = 256$) than the divided one ({})",
     [("signs", ("undivided", "256"), GRAD0)], [("signs", ("divided", "256"), GRAD0)]),
    ("the loss goes up, from {} to {}, and the share-out falls from {} to {}; by step 4 it is {}",
     [("steps", ("0",), STEP_LOSS), ("signs", ("undivided", "256"), LOSS0)], [("steps", ("1",), STEP_LOSS)],
     [("steps", ("0",), STEP_SHARE), ("signs", ("undivided", "256"), SHARE0)], [("steps", ("1",), STEP_SHARE)],
     [("steps", ("4",), STEP_SHARE)]),
    ("shrinks as the rows close, {}, {} and {}, while divided it stays at about 0.43 ({}, {}, {})",
     *each("start", "undivided", 3), *each("start", "divided", 3)),
    ("the undivided gradient is the larger one: {} against {} at $d_k = 256$",
     [("start", ("undivided", "256"), 4), ("signs", ("undivided", "256"), GRAD0)],
     [("start", ("divided", "256"), 4), ("signs", ("divided", "256"), GRAD0)]),
    ("below a tenth of its start of {}",
     [("own", ("undivided", "16"), START_LOSS), ("signs", ("undivided", "16"), LOSS0)]),
    ("more than halves the start of {}",
     [("own", ("undivided", "64"), START_LOSS), ("signs", ("undivided", "64"), LOSS0)]),
    ("no rate of the grid even halves its start of {}",
     [("own", ("undivided", "256"), START_LOSS), ("signs", ("undivided", "256"), LOSS0)]),
    ("At 256 the undivided head already starts with a share-out of {}", [("signs", ("undivided", "256"), SHARE0)]),
    ("(share-out {} at $d_k = 256$, against {} divided)",
     [("signs", ("undivided", "256"), SHARE0)], [("signs", ("divided", "256"), SHARE0)]),
    ("with one rate ({}) chosen for the divided runs", [("chosen", (), 0)]),
]
# (phrase the prose must contain, the token every listed cell must print): claims in words, read from the
# yes-or-no columns, which are what the notebook prints for the chaotic runs instead of their digits.
FACTS = [
    ("At rate 3 the divided loss climbs above its starting value", "False", [("rule", ("3",), STABLE)]),
    ("Across the stable rates the three columns move together", "True",
     [("rule", (rate,), STABLE) for rate in ("0.01", "0.03", "0.1", "0.3", "1")]),
    ("All four readings are `True` at every width", "True",
     all_widths("signs", "undivided", (ABOVE_10, NEVER_HALF, CLOSED, FADED))),
    ("The divided runs' gradient fades too", "True", all_widths("signs", "divided", (FADED,))),
    ("the divided rows never close in the sense used here", "False",
     all_widths("signs", "divided", (ABOVE_10, NEVER_HALF, CLOSED))),
    ("its best rate takes the loss below a tenth", "True", [("own", ("undivided", "16"), TENTH)]),
    ("more than halves the start of 14.840, but stays above a tenth of it", "True", [("own", ("undivided", "64"), HALF)]),
    ("more than halves the start of 14.840, but stays above a tenth of it", "False", [("own", ("undivided", "64"), TENTH)]),
    ("no rate of the grid even halves its start", "False", [("own", ("undivided", "256"), HALF)]),
    ("The divided head passes both tests at every width", "True", all_widths("own", "divided", (TENTH, HALF))),
]
# Decimal numbers the prose may use without their being printed here, and why.
NOT_PRINTED = {
    "0.45": "notebook 03's undivided share-out at d_k = 8 (0.445), quoted in the introduction",
    "0.43": "the rounded level of the three divided values quoted beside it",
}
# Tables printed in every run, whatever they are called.
ALWAYS = {"chosen", "headers"}
NUMBER = r"(\d+(?:\.\d+)?)"


def pattern(phrase):
    """A regex for a phrase whose {} are numbers; any run of white space in the prose matches one space."""
    parts = [r"\s+".join(re.escape(word) for word in piece.split(" ")) for piece in phrase.split("{}")]
    return re.compile(NUMBER.join(parts))


def parse_tables(texts):
    """Every table the notebook printed, as {name: {row key: tokens}}, plus the chosen rate as table 'chosen'
    and the header of each table as table 'headers' (a threshold quoted in the prose may live there)."""
    tables = {"chosen": {}, "headers": {}}
    for text in texts:
        chosen = re.search(r"^chosen rate: (\S+)$", text, flags=re.MULTILINE)
        if chosen:
            tables["chosen"][()] = [chosen.group(1)]
        lines = text.splitlines()
        for name, (marker, key) in TABLES.items():
            if lines and re.search(marker, lines[0]):
                assert name not in tables, f"two printed tables look like the {name!r} table"
                tables["headers"][name,] = lines[0].split()
                rows = {}
                for line in lines[1:]:
                    if not line.strip():
                        break
                    tokens = line.split()
                    rows[tuple(tokens[:key])] = tokens
                tables[name] = rows
    return tables


def printed_at(tables, table, row, column):
    """The token a table prints at (row, column), or None when nothing is printed there."""
    try:
        return tables[table][row][column]
    except (KeyError, IndexError):
        return None


def mismatches(prose, tables):
    """Every way in which the prose and the printed tables disagree, as readable messages (empty: agreement)."""
    prose = re.sub(r"\s+", " ", prose)
    problems = []
    expectations = []  # (phrase, the value the prose needs, where it must be printed)
    for phrase, *places in CLAIMS:
        found = pattern(phrase).search(prose)
        if not found:
            problems.append(f"the prose no longer says: {phrase!r}")
            continue
        expectations += [(phrase, quoted, place) for quoted, where in zip(found.groups(), places) for place in where]
    for phrase, expected, where in FACTS:
        if phrase not in prose:
            problems.append(f"the prose no longer says: {phrase!r}")
        expectations += [(phrase, expected, place) for place in where]
    for phrase, expected, (table, row, column) in expectations:
        printed = printed_at(tables, table, row, column)
        if printed is None:
            problems.append(f"{phrase!r}: nothing printed at {table} {row} column {column}")
        elif printed != expected:
            problems.append(f"{phrase!r} needs {expected}, but the {table} table prints {printed} "
                            f"at {row} column {column}")
    printed_tokens = {token for rows in tables.values() for tokens in rows.values() for token in tokens}
    for quoted in sorted(set(re.findall(r"(?<![\w.^{])\d+\.\d+", prose))):
        if quoted not in printed_tokens and quoted not in NOT_PRINTED:
            problems.append(f"the prose quotes {quoted}, which no table prints")
    return problems


@pytest.fixture(scope="module")
def fresh_run():
    """Execute the notebook in a fresh kernel; return its prose and everything its code cells printed."""
    nb = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    prose = "\n".join(cell.source for cell in nb.cells if cell.cell_type == "markdown")
    texts = [out["text"] for cell in nb.cells if cell.cell_type == "code"
             for out in cell.outputs if out.get("output_type") == "stream"]
    return prose, parse_tables(texts)


def test_every_table_was_printed(fresh_run):
    _, tables = fresh_run
    assert set(tables) == set(TABLES) | ALWAYS
    assert [key[1] for key in tables["signs"]] == [d for d in WIDTHS for _ in range(2)]
    assert [key[0] for key in tables["end"]] == list(WIDTHS)


def test_the_prose_quotes_what_the_notebook_prints(fresh_run):
    prose, tables = fresh_run
    problems = mismatches(prose, tables)
    assert not problems, "\n".join(problems)


def test_the_check_catches_a_changed_number_in_the_prose(fresh_run):
    prose, tables = fresh_run
    changed = prose.replace("even halves its start of 16.163", "even halves its start of 16.164")
    assert changed != prose
    assert any("16.164" in problem for problem in mismatches(changed, tables))
    reworded = prose.replace("The divided head passes both tests", "The divided head passes one test")
    assert any("no longer says" in problem for problem in mismatches(reworded, tables))
    assert any("no table prints" in problem for problem in mismatches(prose + " It reached 42.125.", tables))


def test_the_check_catches_a_changed_table(fresh_run):
    prose, tables = fresh_run
    altered = {name: {row: list(tokens) for row, tokens in rows.items()} for name, rows in tables.items()}
    altered["signs"]["undivided", "256"][SHARE0] = "0.999"
    altered["signs"]["undivided", "64"][CLOSED] = "False"
    problems = mismatches(prose, altered)
    assert any("prints 0.999" in problem for problem in problems)
    assert any("needs True" in problem and "prints False" in problem for problem in problems)
