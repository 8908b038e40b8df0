"""`clean_html`: the HTML that pages made from notebooks may hold, for nbconvert's template filter of that name.

nbgrader_config.py sets `HTMLExporter.sanitize_html`, so every HTML page made from a notebook (feedback, the
formgrader's manual grading view) passes the HTML of Markdown cells and outputs through this filter; nbconvert's own
`clean_html` is bleach (archived upstream) with a list so short that it shows headings, paragraphs and tables as
tags. This is nh3 (the Python binding of the Rust sanitizer ammonia, which parses as browsers do, with html5ever),
with the tags Markdown and Pygments produce; no script, style, frame, form or media element, no event handler, no
style but a table cell's alignment; links only to web and mail addresses and anchors; images only as PNG or JPEG
data (a cell's attachments, checked by classroom.feedback.inert_markdown); and the MathML that latex2mathml writes
for the maths of Markdown (classroom.feedback.markdown_math): its presentation elements, each with the attributes
that set its layout, their values plain words and lengths (no link, colour or style). Any other element is removed,
its text kept (a script's or a style sheet's text too is removed); any other attribute is removed.
"""
import re

import nh3

TAGS = {"a", "abbr", "b", "blockquote", "br", "caption", "code", "dd", "del", "details", "div", "dl", "dt", "em",
        "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "kbd", "li", "ol", "p", "pre", "s", "samp", "span",
        "strong", "sub", "summary", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul"}
CELL = ["align", "colspan", "rowspan", "style"]
IMAGE_DATA = re.compile(r"data:image/(png|jpeg);base64,[A-Za-z0-9+/=]*")
LINK = re.compile(r"(https?://|mailto:|#|[^:]*$)", re.IGNORECASE)
NUMBER = re.compile(r"[0-9]{1,5}%?")
MATH_TAGS = {"math", "menclose", "mfrac", "mi", "mn", "mo", "mover", "mpadded", "mphantom", "mroot", "mrow", "mspace",
             "msqrt", "mstyle", "msub", "msubsup", "msup", "mtable", "mtd", "mtext", "mtr", "munder", "munderover"}
MATH_ATTRIBUTES = {"accent", "columnalign", "columnlines", "columnspacing", "depth", "displaystyle", "fence", "form",
                   "height", "largeop", "linethickness", "lspace", "mathsize", "mathvariant", "maxsize", "minsize",
                   "movablelimits", "notation", "rowlines", "rowspacing", "rspace", "scriptlevel", "separator",
                   "stretchy", "voffset", "width"}
MATH_VALUE = re.compile(r"[A-Za-z0-9 .%-]{0,100}")
MATHML = "http://www.w3.org/1998/Math/MathML"


def _value(tag, name, value):
    """nh3's attribute filter: `value` if the attribute may keep it, else None (the attribute is removed)."""
    if name in ("class", "id", "title"):
        keep = True
    elif tag in MATH_TAGS:
        keep = (name in MATH_ATTRIBUTES and MATH_VALUE.fullmatch(value) is not None) or tag == "math" and (
            (name == "display" and value in ("block", "inline")) or (name, value) == ("xmlns", MATHML))
    elif tag == "a":
        keep = name == "href" and LINK.match(value) is not None
    elif tag == "img":
        keep = (name == "src" and IMAGE_DATA.fullmatch(value) is not None) or name == "alt" or (
            name in ("width", "height") and NUMBER.fullmatch(value) is not None)
    else:
        keep = tag in ("td", "th") and name in CELL
    return value if keep else None


ATTRIBUTES = {"*": {"class", "id", "title"}, "a": {"href"}, "img": {"src", "alt", "width", "height"},
              "td": set(CELL), "th": set(CELL), **{tag: set(MATH_ATTRIBUTES) for tag in MATH_TAGS}}
ATTRIBUTES["math"] |= {"display", "xmlns"}


def clean_html(html):
    """`html` (text or bytes) with everything that could run, load or restyle the page removed."""
    html = html.decode("utf-8", "replace") if isinstance(html, bytes) else str(html)
    return nh3.clean(html, tags=TAGS | MATH_TAGS, attributes=ATTRIBUTES, attribute_filter=_value,
                     url_schemes={"http", "https", "mailto", "data"}, filter_style_properties={"text-align"},
                     strip_comments=True, link_rel=None)
