"""The last line against script in the pages made from notebooks: classroom.feedback.clean_html (nh3) lets no script,
event handler or script link through, written as HTML or as Markdown (rendered by the pages' own Markdown filter),
and what it gives back is clean again when parsed a second time. No browser here: test_inert_pages.py beside it
looks at the pages in Chromium."""
import html as html_text
import re

import pytest
from jinja2 import Environment

from classroom.feedback.clean_html import clean_html
from classroom.feedback.markdown_math import markdown2html
from tests.feedback.markup import Tags

ACTIVE_TAGS = {"script", "style", "iframe", "frame", "object", "embed", "applet", "form", "input", "button", "base",
               "meta", "link", "svg", "video", "audio", "source", "template", "noscript", "xmp", "maction"}
SCRIPT_URL = re.compile(r"^(javascript|vbscript|data:(?!image/(png|jpeg);))", re.IGNORECASE)

HTML_ATTACKS = [
    "<script>alert(1)</script>",
    "<SCRIPT SRC=https://example.invalid/x.js></SCRIPT>",
    "<img src=x onerror=alert(1)>",
    '<img src="data:image/png;base64,AAAA" onload="alert(1)">',
    "<body onload=alert(1)>",
    '<p onclick="alert(1)" onmouseover="alert(1)">text</p>',
    "<details open ontoggle=alert(1)>x</details>",
    '<a href="javascript:alert(1)">x</a>',
    '<a href="JaVaScRiPt:alert(1)">x</a>',
    '<a href="java&#x09;script:alert(1)">x</a>',
    '<a href=" &#14; javascript:alert(1)">x</a>',
    '<a href="vbscript:msgbox(1)">x</a>',
    '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
    '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
    "<svg onload=alert(1)><circle r=1 /></svg>",
    "<svg><script>alert(1)</script></svg>",
    '<math><maction actiontype="statusline" xlink:href="javascript:alert(1)">x</maction></math>',
    '<math href="javascript:alert(1)"><mi>x</mi></math>',
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>",
    "<noscript><p title=\"</noscript><img src=x onerror=alert(1)>\"></noscript>",
    '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
    '<object data="javascript:alert(1)"></object><embed src="javascript:alert(1)">',
    '<form action="javascript:alert(1)"><button formaction="javascript:alert(1)">go</button></form>',
    '<base href="javascript:alert(1)//">',
    '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
    '<style>@import "https://example.invalid/x.css";</style>',
    '<div style="background:url(javascript:alert(1))">x</div>',
    '<td style="text-align:right;background:url(javascript:alert(1))">x</td>',
    "<!-- a comment --><img src=x onerror=alert(1)><!-- <script>alert(1)</script> -->",
    "<template><script>alert(1)</script></template>",
    "<xmp><script>alert(1)</script></xmp>",
]
MARKDOWN_ATTACKS = [
    "[click](javascript:alert(1))",
    "![x](javascript:alert(1))",
    "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "Some text <script>alert(1)</script> and more.",
    "A picture: <img src=x onerror=alert(1)>",
    "<details><summary onclick=alert(1)>hint</summary>\n\ntext\n\n</details>",
    "$x$ and <svg onload=alert(1)>",
    "$\\href{javascript:alert(1)}{x}$",
    "$\\text{<script>alert(1)</script>}$",
    "[a](<javascript:alert(1)>)",
    "<a href='javascript:alert(1)'>raw</a> and `<script>` in code",
]


def what_runs(html):
    """[(tag, what)] for every element, event handler and script link a browser could run in `html`."""
    found = []
    for tag, attrs in Tags(html).found:
        if tag in ACTIVE_TAGS:
            found.append((tag, "element"))
        for name, value in attrs.items():
            url = re.sub(r"[\x00-\x20]", "", html_text.unescape(value or ""))
            if name.startswith("on") or name == "style" and "url(" in url.lower():
                found.append((tag, name))
            elif name in ("href", "src", "action", "formaction", "data", "srcdoc", "xlink:href") and (
                    SCRIPT_URL.match(url) or name == "srcdoc"):
                found.append((tag, f"{name}={value}"))
    return found


def markdown(source):
    """`source` as the pages' Markdown filter makes it (in a Jinja context, as a page template applies it)."""
    env = Environment()
    env.filters["md"] = markdown2html
    return env.from_string("{{ text | md }}").render(text=source)


@pytest.mark.parametrize("attack", HTML_ATTACKS)
def test_no_script_or_event_handler_in_html_survives(attack):
    assert what_runs(attack), "the attack holds something that runs, else this test could not fail"
    cleaned = clean_html(attack)
    assert what_runs(cleaned) == [], cleaned
    assert clean_html(cleaned) == cleaned  # parsed again, it is the same: nothing mutates into markup


@pytest.mark.parametrize("source", MARKDOWN_ATTACKS)
def test_no_script_or_event_handler_written_in_markdown_survives(source):
    cleaned = clean_html(markdown(source))
    assert what_runs(cleaned) == [], cleaned
    assert clean_html(cleaned) == cleaned


def test_the_text_around_what_was_removed_is_kept():
    assert clean_html("before<script>alert(1)</script><blink>kept</blink>after") == "beforekeptafter"
    assert clean_html("<p>a &lt; b</p>") == "<p>a &lt; b</p>"
