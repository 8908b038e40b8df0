"""`markdown2html`: Markdown to HTML with its maths as MathML written at generation, for nbconvert's template filter
of that name (nbgrader_config.py's HTMLExporter.filters).

nbconvert's own filter leaves `$...$` and `$$...$$` in the page for MathJax, which the page template loads from a
CDN: without a network the student sees raw TeX. Here the TeX of each formula (`$...$`, `$$...$$`, `\\(...\\)`,
`\\[...\\]` and `\\begin{env}...\\end{env}`, found by nbconvert's own Markdown parser) becomes MathML through
latex2mathml, which browsers render natively; nothing is loaded. The page's `clean_html` (clean_html.py) lets exactly
the MathML elements and attributes latex2mathml writes through. A formula latex2mathml cannot read is shown as its
TeX, in code style.
"""
from html import escape

from jinja2 import pass_context
from latex2mathml.converter import convert
from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath


def mathml(tex, display="inline"):
    """The MathML of the TeX formula `tex` (escaped TeX in a code element if it cannot be read)."""
    try:
        return convert(tex, display=display)
    except Exception:  # noqa: BLE001 (latex2mathml raises many kinds on malformed TeX; the page must still be made)
        return f'<code class="tex">{escape(tex)}</code>'


class MathMLRenderer(IPythonRenderer):
    """nbconvert's Markdown renderer, with maths as MathML instead of TeX left for MathJax."""

    def inline_math(self, body):
        return mathml(body)

    def block_math(self, body):
        return mathml(body, display="block")

    def latex_environment(self, name, body):
        return mathml(f"\\begin{{{name}}}{body}\\end{{{name}}}", display="block")


@pass_context
def markdown2html(context, source):
    """The HTML of the Markdown `source` of the cell being rendered (its attachments as images), maths as MathML."""
    cell = context.get("cell", {})
    renderer = MathMLRenderer(escape=False, attachments=cell.get("attachments", {}),
                              path=context.get("resources", {}).get("metadata", {}).get("path", ""))
    return MarkdownWithMath(renderer=renderer).render(source)
