"""Maths in the pages made from notebooks is MathML written at generation (classroom.feedback.markdown_math), and
the pages' whitelist (classroom.feedback.clean_html.clean_html) lets through exactly the MathML that needs, no
link, colour or style. No browser here: tests/feedback/test_feedback_page.py looks at the rendered page."""
import re

import pytest
from jinja2 import Environment

from classroom.feedback.clean_html import clean_html
from classroom.feedback.markdown_math import markdown2html, mathml
from coursekit.repository import ROOT, load_notebook
from tests.feedback.markup import Tags

NOTEBOOKS = sorted((ROOT / "release").rglob("*.ipynb")) + sorted((ROOT / "notebooks").glob("*.ipynb"))
MATH = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$", re.S)


def render(markdown):
    """`markdown` through the filter as a page template applies it (in a Jinja context)."""
    env = Environment()
    env.filters["md"] = markdown2html
    return env.from_string("{{ text | md }}").render(text=markdown)


def formulas():
    """Every TeX formula of the lessons' and the assignment's Markdown."""
    found = set()
    for path in NOTEBOOKS:
        for cell in load_notebook(path)["cells"]:
            if cell["cell_type"] == "markdown":
                found.update((m.group(1) or m.group(2)).strip() for m in MATH.finditer("".join(cell["source"])))
    return sorted(found)


def test_the_lessons_have_maths_to_render():
    assert len(formulas()) > 20


def test_markdown_maths_become_mathml_with_no_dollar_left():
    html = render("The weight $\\alpha_{ij}$ of row $i$:\n\n$$\\frac{\\partial \\ell}{\\partial e_{ij}} = 0$$\n")
    elements = Tags(html).found
    mathml = "http://www.w3.org/1998/Math/MathML"
    assert [attrs for tag, attrs in elements if tag == "math"] == [
        {"display": "inline", "xmlns": mathml}] * 2 + [{"display": "block", "xmlns": mathml}]
    assert "$" not in re.sub(r"<[^>]*>", "", html)
    assert ("mfrac", {}) in elements


def test_text_and_code_keep_their_dollars():
    html = render("A price of \\$5, and `echo $HOME` in code.")
    assert "math" not in html and "$5" in html and "$HOME" in html


def test_every_formula_of_the_lessons_passes_the_whitelist_whole():
    for tex in formulas():
        for display in ("inline", "block"):
            made = mathml(tex, display)
            assert Tags(clean_html(made)).found == Tags(made).found, tex


@pytest.mark.parametrize("tex", ["\\href{javascript:alert(1)}{x}", "\\color{red}{x}", "\\colorbox{red}{x}",
                                 "\\textcolor{red}{x}"])
def test_mathml_keeps_no_link_colour_or_style(tex):
    cleaned = clean_html(mathml(tex))
    assert not re.search(r"\s(href|style|mathcolor|mathbackground)=", cleaned), cleaned
    assert "<math" in cleaned


def test_mathml_from_elsewhere_loses_what_the_whitelist_does_not_name():
    cleaned = clean_html('<math xmlns="http://example.invalid" display="x" href="https://example.invalid">'
                         '<maction actiontype="toggle"><mi>x</mi></maction><semantics><annotation-xml>'
                         '<a href="x">y</a></annotation-xml></semantics></math>')
    assert Tags(cleaned).found[0] == ("math", {})
    assert "<maction" not in cleaned and "<semantics" not in cleaned and "<annotation" not in cleaned


def test_a_formula_latex2mathml_cannot_read_is_shown_as_its_tex():
    assert mathml("\\frac{<b>}{") == '<code class="tex">\\frac{&lt;b&gt;}{</code>'  # an unclosed group
    # latex2mathml writes \text{...} as it is: the whitelist is what keeps a tag in it from running
    assert "<script" not in clean_html(mathml("\\text{<script>alert(1)</script>}"))
