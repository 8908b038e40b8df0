"""The lessons stay short: at most 6,000 words of Markdown prose across notebooks/, half what they once held.

Words are counted in Markdown cells only, after removing the maths ($$...$$ and $...$ spans), as runs matching
[A-Za-z][A-Za-z'’-]*. Run with `-s` to see the count of every notebook.
"""
import re

import pytest

from coursekit.repository import LESSON_NOTEBOOKS, load_notebook

LIMIT = 6000
DISPLAY_MATHS = re.compile(r"\$\$.*?\$\$", re.DOTALL)
INLINE_MATHS = re.compile(r"\$[^$]*\$")
WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")


def prose_words(markdown):
    """The number of words in `markdown` once its maths is removed."""
    return len(WORD.findall(INLINE_MATHS.sub(" ", DISPLAY_MATHS.sub(" ", markdown))))


def notebook_words(path):
    return sum(prose_words("".join(cell["source"])) for cell in load_notebook(path)["cells"]
               if cell["cell_type"] == "markdown")


@pytest.mark.parametrize("text, words", [
    ("Dividing by $\\sqrt{d_k}$ keeps the row's weights.", 6),
    ("Before\n$$e^2 = d_k + \\sum_{m \\ne n} s_m s_n$$\nafter, well-known.", 3),
    ("$x$ and $y$", 1),
    ("d_k = 64, T = 8", 3),
])
def test_words_are_counted_without_the_maths(text, words):
    assert prose_words(text) == words


def test_the_lessons_total_at_most_six_thousand_words():
    counts = {path.name: notebook_words(path) for path in LESSON_NOTEBOOKS}
    report = "\n".join(f"{count:6d}  {name}" for name, count in counts.items())
    total = sum(counts.values())
    print(f"\nMarkdown words per lesson notebook:\n{report}\n{total:6d}  in all (limit {LIMIT})")
    assert total <= LIMIT, f"the lessons hold {total} words of prose, more than {LIMIT}:\n{report}"
