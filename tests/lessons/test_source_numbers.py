"""Every number the source lesson prints is reproduced by our notebooks, to the digits it prints.

The notebooks' committed outputs are read here; nbval, in the same suite, re-runs every notebook in a fresh
kernel and fails if an output differs, so what is checked is what their own code computes from the lesson's seeds. The
expected values below are the source lesson's: the numbers its prose and figure quote, and the full tables its two code
cells print (obtained by running those cells, default_rng(7) and default_rng(11), with numpy 2.2.6).
"""
import re
from fractions import Fraction

import pytest

from coursekit.repository import ROOT
from tests.lessons.outputs import stored_text

NOTEBOOKS = ROOT / "notebooks"

# The source lesson's first cell: Gaussian scores, N = 8000 pairs per width.
GAUSSIAN_SWEEP = [  # d_k, mean (3 decimals), typical size, sqrt(d_k), divided (2 decimals)
    ("4", "-0.012", "2.00", "2.00", "1.00"),
    ("16", "0.047", "3.97", "4.00", "0.99"),
    ("64", "0.020", "7.98", "8.00", "1.00"),
    ("256", "-0.021", "15.90", "16.00", "0.99"),
    ("1024", "0.236", "32.03", "32.00", "1.00"),
]
# The source lesson's second cell: T = 8 positions, N = 4000 rows per width.
SATURATION = [  # divide by, d_k, top weight, total slope 1 - sum a^2 (3 decimals),
    # largest slope max a(1-a) (4 decimals)
    ("1", "8", "0.670", "0.445", "0.1755"),
    ("√d_k", "8", "0.369", "0.758", "0.2143"),
    ("1", "64", "0.880", "0.171", "0.0798"),
    ("√d_k", "64", "0.362", "0.767", "0.2171"),
    ("1", "512", "0.953", "0.066", "0.0321"),
    ("√d_k", "512", "0.360", "0.768", "0.2162"),
]
# The source lesson's figure: the top weight of the row after dividing by 1, √d_k, d_k at d_k = 4, 16, 64.
FIGURE_WINNERS = {
    "1": ("0.68", "0.92", "0.99"),
    "√d_k": ("0.43", "0.43", "0.43"),
    "d_k": ("0.29", "0.23", "0.20"),
}


def run(name):
    """Everything a lesson notebook printed, as one text."""
    return "\n".join(stored_text(next(NOTEBOOKS.glob(f"{name}-*.ipynb")))[1])


@pytest.fixture(scope="module")
def printed():
    return {name: run(name) for name in ("01", "02", "03")}


def rows(text, pattern):
    return [m.groups() for m in re.finditer(pattern, text, flags=re.MULTILINE)]


NUM = r"(-?\d+(?:\.\d+)?)"


def test_agreement_counts(printed):
    found = rows(printed["01"], rf"^\s*{NUM}\s+{NUM}\s+{NUM}\s+{NUM}\s*$")
    assert ("4", "3", "1", "2") in found and ("400", "300", "100", "200") in found


def test_figure_winners(printed):
    found = {name: tuple(vals) for name, *vals in rows(printed["01"], rf"^(1|√d_k|d_k)\s+{NUM}\s+{NUM}\s+{NUM}\s*$")}
    assert found == FIGURE_WINNERS


def test_exact_enumeration_of_sign_vectors(printed):
    found = rows(printed["02"], r"^\s*(\d+)\s+(\d+)\s+0\s+0\s+(\d+)\s*$")
    widths = {int(d) for d, _, _ in found}
    assert set(range(1, 17)) <= widths, f"exact table covers d_k = {sorted(widths)}"
    for d, count, second_moment in found:
        assert int(count) == 2 ** int(d) and Fraction(second_moment) == int(d)


def test_gaussian_sweep(printed):
    found = rows(printed["02"], rf"^\s*(\d+)\s+{NUM}\s+{NUM}\s+{NUM}\s+{NUM}\s*$")
    assert [r for r in found if r in GAUSSIAN_SWEEP] == GAUSSIAN_SWEEP


def test_saturation_table(printed):
    found = rows(printed["03"], rf"^(1|√d_k)\s+(\d+)\s+{NUM}\s+{NUM}\s+{NUM}\s*$")
    assert found == SATURATION


@pytest.mark.parametrize("line", ["exp(8) = 2981", "1 - 1/8 = 0.875"])
def test_quoted_constants(printed, line):
    assert line in printed["03"]


def test_sigmoid_derivative_peaks_at_a_quarter(printed):
    assert re.search(r"largest value: 0\.25(00)?\b", printed["03"])
