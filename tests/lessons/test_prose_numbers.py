"""Every decimal number the prose of a lesson notebook quotes is one its own code cells print, digit for digit.

The committed outputs are read here; nbval, in the same suite, re-runs each notebook in a fresh kernel and fails if
an output differs, so a number that passes here is what the notebook's code computes. A quoted number must appear,
as printed, among the printed numbers of the same notebook; rounding it in the prose ("about 0.36" for a printed
0.369) fails. Numbers the prose works out itself or sets by hand (a ceiling of 0.25, a slider at 0.45) are listed
below with the reason. Notebook 06 has a stricter reading of its own, phrase by phrase (test_training_numbers.py).
"""
import re

import pytest

from coursekit.repository import LESSON_NOTEBOOKS
from tests.lessons.outputs import stored_text

DECIMAL = re.compile(r"(?<![\w.^{:])-?\d+\.\d+(?!\.?\d)")
PRINTED_NUMBER = re.compile(r"-?\d+\.\d+(?:e[-+]?\d+)?")

# notebook number -> {decimal the prose may quote without its being printed: why}
NOT_PRINTED = {
    "01": {},
    "02": {"0.36": "the standard error 32/sqrt(8000), worked out in the sentence that quotes it",
           "0.125": "1/T for T = 8, the even row's weight, worked out in the prose"},
    "03": {"0.25": "the largest value of a(1 - a), at a = 1/2, derived in the prose",
           "0.109": "1/8 times 7/8, the even row's largest Jacobian entry, worked out in the prose",
           "0.875": "1 - 1/8, the largest total slope of a row of eight, worked out in the prose"},
    "04": {"0.25": "the largest value of a(1 - a), from notebook 03",
           "0.45": "a setting of the p slider the reader is asked to try",
           "0.55": "a setting of the p slider the reader is asked to try"},
    "05": {},
    "06": {"0.875": "1 - 1/8, the largest total slope of a row of eight, worked out in the prose"},
    "07": {},
}


def quoted_numbers(prose):
    return sorted(set(DECIMAL.findall(prose)), key=float)


def printed_numbers(printed):
    return {token for text in printed for token in PRINTED_NUMBER.findall(text)}


def unprinted(path):
    """The decimals the prose of the notebook at `path` quotes that it neither prints nor lists in NOT_PRINTED."""
    prose, printed = stored_text(path)
    allowed = NOT_PRINTED.get(path.name[:2], {})
    tokens = printed_numbers(printed)
    return [number for number in quoted_numbers(prose) if number not in tokens and number not in allowed]


def test_every_notebook_has_its_list_and_no_stale_entry():
    assert {path.name[:2] for path in LESSON_NOTEBOOKS} <= set(NOT_PRINTED)
    for path in LESSON_NOTEBOOKS:
        stale = set(NOT_PRINTED[path.name[:2]]) - set(quoted_numbers(stored_text(path)[0]))
        assert not stale, f"NOT_PRINTED lists {sorted(stale)} for {path.name}, whose prose no longer quotes them"


@pytest.mark.parametrize("path", LESSON_NOTEBOOKS, ids=lambda p: p.name[:2])
def test_the_prose_quotes_only_printed_numbers(path):
    missing = unprinted(path)
    assert not missing, (f"{path.name} quotes {', '.join(missing)} in its prose, but none of its code cells prints "
                         "that number: quote the digits the output shows")


def test_the_check_catches_a_rounded_number():
    prose, printed = "The top weight stays about 0.36 and the slope at $0.758$.", ["0.369  0.758\n"]
    tokens = printed_numbers(printed)
    assert [n for n in quoted_numbers(prose) if n not in tokens] == ["0.36"]


def test_numbers_inside_words_and_exponents_are_not_quotes():
    assert quoted_numbers(r"see arXiv:1706.03762, section 3.2.1, $10^{-8}$ and e^{0.5}, and 2.5 times") == ["2.5"]
