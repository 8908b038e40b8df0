"""Hostile notebooks for the tests of what reaches autograded/ and feedback/ (tests/feedback/test_inert_pages.py,
tests/feedback/test_output_caps.py, tests/feedback/test_inert_content.py).

Every script payload, if it ever ran, would leave four traces a browser test can see: it adds its name to
`window.__pwned`, sets the page title, asks for a page on its own host `<name>.payload.invalid`, and opens a dialog.
Payloads that cannot run script (a stylesheet, a refresh, an external image) name such a host too, so a request to
it is the trace. Nothing here runs anything: these are notebooks as plain data, handed in through
coursekit.trial_course.
"""
import base64
import io
import struct
import zlib

from coursekit.trial_course import submission

HOST = "payload.invalid"
MARKER_TITLE = "pwned"


def js(name, scope="window"):
    """JavaScript (no quotes, no spaces: it must survive any attribute) that leaves the four traces of `name`."""
    return (f"{scope}.__pwned=({scope}.__pwned||[]).concat(`{name}`);{scope}.document.title=`{MARKER_TITLE}-{name}`;"
            f"{scope}.fetch(`http://{name}.{HOST}/`);{scope}.alert(`{name}`)")


def url(name, path=""):
    return f"http://{name}.{HOST}/{path}"


# ---- Markdown the student writes (raw HTML, images, links) ---------------------------------------------------------
MARKDOWN = {
    "md-script": f"A note.\n\n<script>{js('md-script')}</script>\n",
    "md-img-onerror": f'Look: <img src="{url("md-img-onerror", "x.png")}" onerror="{js("md-img-onerror")}">',
    "md-svg-onload": f'<svg onload="{js("md-svg-onload")}"><circle r="4"/></svg>',
    "md-iframe-srcdoc": f'<iframe srcdoc="<script>{js("md-iframe-srcdoc", "parent")}</script>"></iframe>',
    "md-meta-refresh": f'<meta http-equiv="refresh" content="0;url={url("md-meta-refresh")}">',
    "md-style-hides": ("<style>body, #notebook, .container { display: none !important; }\n"
                       f"html {{ background: url({url('md-style-hides', 'bg.png')}); }}</style>"),
    "md-object": f'<object data="{url("md-object", "x.html")}"></object>',
    "md-embed": f'<embed src="{url("md-embed", "x.swf")}">',
    "md-base": f'<base href="{url("md-base")}"><a href="relative.html">a relative link</a>',
    "md-link-stylesheet": f'<link rel="stylesheet" href="{url("md-link-stylesheet", "x.css")}">',
    "md-external-image": f"![a tracking pixel]({url('md-external-image', 'pixel.png')})",
    "md-reference-image": f"![a pixel][pix]\n\n[pix]: {url('md-reference-image', 'pixel.png')}\n",
    "md-javascript-link": f"[press here](javascript:{js('md-javascript-link')})",
    "md-noscript-mutation": f'<noscript><p title="</noscript><img src=x onerror={js("md-noscript-mutation")}>">',
    "md-math-breakout": f"$$</script><script>{js('md-math-breakout')}</script>$$",
    "md-form-button": f'<form action="{url("md-form-button")}"><button autofocus onfocus="{js("md-form-button")}">'
                      "Go</button></form>",
    "md-details-ontoggle": f'<details open ontoggle="{js("md-details-ontoggle")}"><summary>s</summary></details>',
}

# ---- what the student's code displays (the display run keeps outputs for the feedback) ----------------------------
WIDGET_VIEW = {"model_id": "0123456789abcdef", "version_major": 2, "version_minor": 0}
SVG = f'<svg xmlns="http://www.w3.org/2000/svg" onload="{js("out-svg")}"/>'
# name: (data, metadata) of a display_data output; PIXEL stands for a valid 1 x 1 PNG.
BUNDLES = {
    "out-html-script": ({"text/html": f"<script>{js('out-html-script')}</script>", "text/plain": "h"}, {}),
    "out-html-img": ({"text/html": f"<img src=x onerror={js('out-html-img')}>"}, {}),
    "out-javascript": ({"application/javascript": js("out-javascript")}, {}),
    "out-markdown": ({"text/markdown": f"<img src=x onerror={js('out-markdown')}>"}, {}),
    "out-svg": ({"image/svg+xml": SVG}, {}),
    "out-latex": ({"text/latex": f"$\\href{{javascript:{js('out-latex')}}}{{x}}$"}, {}),
    "out-widget": ({"application/vnd.jupyter.widget-view+json": WIDGET_VIEW, "text/plain": "w"}, {}),
    "out-png-width": ({"image/png": "PIXEL"}, {"image/png": {"width": f"1 onload={js('out-png-width')}"}}),
    "out-png-filename": ({"image/png": "PIXEL"}, {"filenames": {"image/png": url("out-png-filename", "x.png")}}),
    "out-isolated-html": ({"text/html": f"<script>{js('out-isolated-html', 'top')}</script>"},
                          {"text/html": {"isolated": True}}),
}
# name: code that displays through IPython's own objects, returns an object with an HTML repr, or raises.
IPYTHON_CODE = {
    "ipy-html": f"display(HTML('<script>{js('ipy-html')}</script>'))",
    "ipy-javascript": f"display(Javascript('{js('ipy-javascript')}'))",
    "ipy-markdown": f"display(Markdown('<img src=x onerror={js('ipy-markdown')}>'))",
    "ipy-svg": f"display(SVG('{SVG.replace('out-svg', 'ipy-svg')}'))",
    "ipy-repr-html": ("class Shown:\n    def _repr_html_(self):\n"
                      f"        return '<img src=x onerror={js('ipy-repr-html')}>'\nShown()"),
    "ipy-error-html": f"raise ValueError('<script>{js('ipy-error-html')}</script>')",
}


def bundle(name):
    """(data, metadata) of BUNDLES[name], the PNG filled in."""
    data, metadata = BUNDLES[name]
    return {k: b64(tiny_png()) if v == "PIXEL" else v for k, v in data.items()}, metadata


def display_code(name):
    data, metadata = BUNDLES[name]
    return f"display({data!r}, metadata={metadata!r}, raw=True)".replace("'PIXEL'", "PIXEL")


def legacy_output(name):
    """The output BUNDLES[name] as the grader wrote it before outputs were made inert."""
    data, metadata = bundle(name)
    return {"output_type": "display_data", "data": data, "metadata": metadata}


def with_legacy_outputs(nb):
    """`nb` (from hostile_page_notebook) with each displayed payload's output as the grader stored it before it
    made notebooks inert."""
    for cell in nb["cells"]:
        if cell["metadata"].get("payload"):
            cell["outputs"] = [legacy_output(cell["metadata"]["payload"])]
    return nb


def tiny_png(width=1, height=1):
    """A valid grey PNG of the given size (Pillow writes it)."""
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("L", (width, height), 128).save(buffer, format="PNG")
    return buffer.getvalue()


def png_claiming(width, height):
    """A PNG whose header claims `width` x `height` pixels, with one short compressed row after it: a decoder
    that believed the header would reserve width x height bytes."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8-bit grey
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 1024))
            + chunk(b"IEND", b""))


def b64(data):
    return base64.b64encode(data).decode("ascii")


def markdown_cell(source, attachments=None, **metadata):
    cell = {"cell_type": "markdown", "metadata": metadata, "source": source}
    if attachments:
        cell["attachments"] = attachments
    return cell


def code_cell(source, **metadata):
    return {"cell_type": "code", "metadata": metadata, "source": source, "outputs": [], "execution_count": None}


def with_cells(nb, new_cells):
    """`nb` with `new_cells` inserted after its first cell (where a student writes a note under the title)."""
    nb["cells"][1:1] = new_cells
    return nb


def hostile_page_notebook(solution_code):
    """The released notebook with `solution_code`, and every payload: each Markdown one in a cell of its own (plus
    an attachment, a raw cell and cell metadata), each output one in a code cell of its own, and widget state in
    the notebook's metadata."""
    nb = submission(solution_code)
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" onload="{js("attachment-svg")}"/>'
    extra = [markdown_cell(source) for source in MARKDOWN.values()]
    extra += [
        markdown_cell("![an attachment](attachment:evil.svg) ![html](attachment:page.html)",
                      attachments={"evil.svg": {"image/svg+xml": b64(svg.encode())},
                                   "page.html": {"text/html": b64(f"<script>{js('attachment-html')}</script>"
                                                                  .encode())}}),
        {"cell_type": "raw", "metadata": {"raw_mimetype": "text/html", "format": "text/html"},
         "source": f"<script>{js('raw-html')}</script>"},
        markdown_cell("Tagged.", tags=[f'"><img src=x onerror={js("cell-tags")}>']),
    ]
    preamble = ("from IPython.display import HTML, Javascript, Markdown, SVG, display\n"
                f"PIXEL = {b64(tiny_png())!r}\n")
    extra.append(code_cell(preamble))
    extra += [code_cell(display_code(name), payload=name) for name in BUNDLES]
    extra += [code_cell(source) for source in IPYTHON_CODE.values()]
    nb["metadata"]["widgets"] = {"application/vnd.jupyter.widget-state+json": {
        "version_major": 2, "version_minor": 0,
        "state": {WIDGET_VIEW["model_id"]: {"model_name": "HTMLModel", "model_module": "@jupyter-widgets/controls",
                                            "model_module_version": "2.0.0",
                                            "state": {"value": f"<img src=x onerror={js('widget-state')}>"}}}}}
    return with_cells(nb, extra)


# ---- sizes: what a student can make big ------------------------------------------------------------------------
MIB = 1024 * 1024
HUGE_MESSAGE_CHARS = 20_000_000
HUGE_METADATA_CHARS = 20_000_000
HUGE_ATTACHMENT_BYTES = 50 * MIB
BOMB_SIDE = 50_000

SIZE_CODE = {
    "huge-exception": f"raise ValueError('E' * {HUGE_MESSAGE_CHARS})",
    "huge-metadata": f"display({{'text/plain': 'meta'}}, metadata={{'junk': 'M' * {HUGE_METADATA_CHARS}}}, raw=True)",
    "png-bomb-output": "display({'image/png': BOMB}, raw=True)",
    "many-outputs": "for _ in range(20_000):\n    display({'text/plain': ''}, raw=True)",
}


def huge_attachment():
    """A Markdown attachment labelled PNG: the PNG signature, then HUGE_ATTACHMENT_BYTES zero bytes."""
    return {"big.png": {"image/png": b64(b"\x89PNG\r\n\x1a\n" + b"\0" * HUGE_ATTACHMENT_BYTES)}}


def huge_notebook(solution_code):
    """The released notebook with `solution_code`, a 50 MiB attachment, a PNG bomb as an attachment and as an
    output, an exception with a 20-million-character message, 20 million characters of output metadata and 20 000
    empty outputs, each in a cell of its own."""
    nb = submission(solution_code)
    bomb = png_claiming(BOMB_SIDE, BOMB_SIDE)
    extra = [
        markdown_cell("![big](attachment:big.png)", attachments=huge_attachment()),
        markdown_cell("![bomb](attachment:bomb.png)", attachments={"bomb.png": {"image/png": b64(bomb)}}),
        code_cell("from IPython.display import display\n" f"BOMB = {b64(bomb)!r}\n"),
    ]
    extra += [code_cell(source) for source in SIZE_CODE.values()]
    return with_cells(nb, extra)
