"""InertContent and its parts on their own (no kernel, no nbgrader run): what a notebook keeps once made inert, what
it loses, the notes that say so, and that doing it twice changes nothing more. The browser test
(tests/feedback/test_inert_pages.py) and the size test (tests/feedback/test_output_caps.py) run the same through the
real commands."""
import copy
import io
import json
import re

import nbformat
import pytest
from nbconvert.exporters import HTMLExporter
from nbformat import from_dict
from PIL import Image
from traitlets.config import Config

from classroom import cells
from classroom.trusted import failures
from classroom.preprocessors.inert_content import InertContent
from classroom.feedback.clean_html import clean_html
from classroom.feedback.inert_images import checked
from classroom.feedback.inert_markdown import active, inert_markdown
from classroom.feedback.inert_outputs import reduce_outputs
from classroom.preprocessors.sanitize_feedback import SanitizeFeedback
from tests.feedback import hostile
from coursekit.trial_course import SUBMISSIONS, nbgrader_env, submission
from tests.feedback.markup import Tags

CORRECT = (SUBMISSIONS / "correct_keepdims.py").read_text()
HONEST_MARKDOWN = [
    "# My notes\n\nThe row sum is $\\sum_j a_{ij} g_{ij}$ and $T < d_k$ here; see [the paper](https://arxiv.org/abs/"
    "1706.03762) or [the lesson](../notebooks/01-why-divide.ipynb#Scores) and [below](#checks).",
    "| T | seconds |\n|--:|--:|\n| 8 | 0.1 |\n\n* one\n* two\n\n```python\nx = A * G\n```\n\n> a quote, `code`",
    "Mail me: [me](mailto:me@example.org). A plain ! and [brackets] too.",
    "<details>\n<summary>Hint (open it once you have tried)</summary>\n\nThe result is $a_{ik}$.\n\n</details>",
]
# A collapsed hint with anything more than the bare tags is shown as text like any other HTML.
NOT_A_BARE_HINT = ["<details open>hint</details>", "<details ontoggle=alert(1) open>x</details>",
                   "<summary onclick=alert(1)>x</summary>", "<details><script>alert(1)</script></details>"]


def cut_kinds(outputs):
    return [o["ename"] for o in outputs if o.get("output_type") == "error" and o["ename"] in failures.KINDS]


def png(width, height, mode="L"):
    buffer = io.BytesIO()
    Image.new(mode, (width, height)).save(buffer, format="PNG")
    return hostile.b64(buffer.getvalue())


def jpeg(width, height):
    buffer = io.BytesIO()
    Image.new("RGB", (width, height)).save(buffer, format="JPEG")
    return hostile.b64(buffer.getvalue())


def inert(nb, **caps):
    return InertContent(**caps).preprocess(from_dict(copy.deepcopy(nb)), {})[0]


# ---- Markdown --------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("source", HONEST_MARKDOWN)
def test_honest_markdown_is_kept_as_written(source):
    assert not active(source)
    assert inert_markdown(source, None, InertContent()) == (source, {})


@pytest.mark.parametrize("source", NOT_A_BARE_HINT)
def test_a_hint_with_attributes_or_content_tags_is_shown_as_text(source):
    assert active(source)


@pytest.mark.parametrize("name", sorted(hostile.MARKDOWN))
def test_markdown_that_could_run_or_load_is_shown_as_text(name):
    source, _ = inert_markdown(hostile.MARKDOWN[name], None, InertContent())
    assert source.startswith("*The grader shows this cell as text")
    assert not re.search(r"<[A-Za-z/!?]|!\[|\]\(|\]:", source)
    assert inert_markdown(source, None, InertContent())[0] == source  # twice changes nothing more


def test_an_attached_png_is_kept_and_anything_else_attached_is_left_out():
    attachments = {"plot.png": {"image/png": png(4, 3)}, "photo.jpg": {"image/jpeg": jpeg(2, 2)},
                   "evil.svg": {"image/svg+xml": hostile.b64(b"<svg onload=alert(1)/>")},
                   "fake.png": {"image/png": hostile.b64(b"<html><script>alert(1)</script>")},
                   "bomb.png": {"image/png": hostile.b64(hostile.png_claiming(50_000, 50_000))},
                   "<b>x</b>": {"image/png": png(1, 1)}}
    source = "![a plot](attachment:plot.png) ![photo](attachment:photo.jpg) ![svg](attachment:evil.svg)"
    shown, kept = inert_markdown(source, attachments, InertContent())
    assert set(kept) == {"plot.png", "photo.jpg"} and set(kept["photo.jpg"]) == {"image/jpeg"}
    assert "left out the attachment evil.svg" in shown and "And 1 more attachment was left out" in shown
    assert "![svg]" not in shown and "&#91;svg&#93;" in shown  # the image of a dropped attachment is text
    assert "<b>" not in shown


# ---- images ----------------------------------------------------------------------------------------------------------
def test_images_are_checked_by_their_header_within_caps():
    assert checked("image/png", png(20, 10), 10_000, 200)[1] is None
    assert checked("image/jpeg", jpeg(5, 5), 10_000, 200)[1] is None
    assert "21 x 10 pixels" in checked("image/png", png(21, 10), 10_000, 200)[1]
    assert "pixels" in checked("image/png", hostile.b64(hostile.png_claiming(50_000, 50_000)), 10**6, 10**6)[1]
    assert "bytes" in checked("image/png", png(20, 10), 10, 200)[1]
    assert "is PNG" in checked("image/jpeg", png(2, 2), 10_000, 200)[1]
    assert checked("image/png", "not base64 at all!", 10_000, 200)[0] is None
    assert checked("image/svg+xml", hostile.b64(b"<svg/>"), 10_000, 200)[0] is None


# ---- outputs ---------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(hostile.BUNDLES))
def test_outputs_keep_text_and_checked_images_only_and_say_what_was_left_out(name):
    output = hostile.legacy_output(name)
    kept = reduce_outputs([output], InertContent())
    shown = [out for out in kept if out["output_type"] != "error"]
    assert all(out["metadata"] == {} and set(out["data"]) <= {"text/plain", "image/png"} for out in shown)
    left_out = set(output["data"]) - {"text/plain", "image/png"}
    if left_out:
        assert cut_kinds(kept) == [failures.OUTPUT_CUT] and all(m in kept[-1]["evalue"] for m in left_out)
    assert reduce_outputs(kept, InertContent()) == kept


def test_one_cells_outputs_share_one_text_budget_errors_included():
    outputs = [{"output_type": "stream", "name": "stdout", "text": "x" * 600},
               {"output_type": "error", "ename": "ValueError", "evalue": "E" * 5000, "traceback": ["T" * 9000] * 3},
               *({"output_type": "display_data", "data": {"text/plain": ""}, "metadata": {}} for _ in range(500))]
    kept = reduce_outputs(outputs, InertContent(max_output_chars=3000, max_error_chars=1000))
    assert len(json.dumps(kept)) < 3000 + 3000  # the budget, plus the note and the outputs' keys
    error = next(o for o in kept if o["output_type"] == "error")
    assert error["ename"] == "ValueError" and len(error["evalue"]) == 1000
    assert cut_kinds(kept) == [failures.OUTPUT_CUT]
    assert "error message after 1,000 characters" in kept[-1]["evalue"]
    assert "everything after its first 3,000 characters" in kept[-1]["evalue"]


def test_the_graders_own_verdicts_and_notes_are_kept_but_counted():
    verdict = failures.error_output(failures.CHECK_FAILED, "it equals A * G")
    kept = reduce_outputs([verdict] + [failures.error_output(failures.TIMED_OUT, "t")] * 50, InertContent())
    assert kept[0] == verdict and len(kept) == InertContent().max_notes


# ---- the notebook as a whole -----------------------------------------------------------------------------------------
def test_a_hostile_notebook_keeps_nothing_active_and_twice_changes_nothing_more():
    nb = hostile.with_legacy_outputs(hostile.hostile_page_notebook(CORRECT))
    once = inert(nb)
    assert set(once.metadata) == {"kernelspec", "language_info"}
    assert all(set(cell.metadata) <= {"nbgrader", "deletable", "editable"} for cell in once.cells)
    for cell in once.cells:
        if cell.cell_type != "code":
            assert not active(cell.source), cell.source
    assert json.dumps(inert(once)) == json.dumps(once)
    graded = [(c.metadata["nbgrader"], c.source) for c in once.cells if "nbgrader" in c.metadata]
    assert graded == [(c["metadata"]["nbgrader"], cells.source(c)) for c in nb["cells"] if "nbgrader" in c["metadata"]]


def test_nbgrader_metadata_that_could_break_out_of_a_page_is_dropped():
    nb = hostile.hostile_page_notebook(CORRECT)
    answer = lambda c: c["metadata"].get("nbgrader", {}).get("solution") and c["cell_type"] == "code"
    solution = next(c for c in nb["cells"] if answer(c))
    solution["metadata"]["nbgrader"].update(points=float("nan"), extra="<script>", checksum="<b>")
    check = next(c for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("grade"))
    check["metadata"]["nbgrader"]["grade_id"] = '"><script>alert(1)</script>'
    once = inert(nb)
    kept = next(c for c in once.cells if answer(c)).metadata.nbgrader
    assert "extra" not in kept and "points" not in kept and "checksum" not in kept
    assert not any("script" in json.dumps(c.metadata) for c in once.cells)


def test_past_its_size_cap_the_notebook_keeps_the_graded_cells_and_answers_with_a_note():
    nb = hostile.hostile_page_notebook(CORRECT)
    nb["cells"][1:1] = [hostile.markdown_cell(f"Cell {i}: " + "words " * 2000) for i in range(100)]
    once = inert(nb, max_notebook_bytes=300_000)
    assert len(json.dumps(once)) < 300_000
    notes = [c for c in once.cells if c.cell_type == "markdown" and "left out" in c.source]
    assert len(notes) == 1 and "cells from here on" in notes[0].source
    assert [c.metadata.get("nbgrader") for c in once.cells if "nbgrader" in c.metadata] == \
        [c["metadata"]["nbgrader"] for c in nb["cells"] if "nbgrader" in c["metadata"]]
    assert json.dumps(inert(once, max_notebook_bytes=300_000)) == json.dumps(once)


def test_a_cells_source_is_capped_with_a_note():
    nb = hostile.hostile_page_notebook(CORRECT)
    nb["cells"][1:1] = [hostile.markdown_cell("m" * 50_000), hostile.code_cell("x = 1\n" * 10_000)]
    once = inert(nb, max_source_chars=5_000)
    assert len(once.cells[1].source) <= 5_000 and "cut this cell" in once.cells[1].source
    assert len(once.cells[2].source) <= 5_000 and once.cells[2].source.rstrip().endswith("characters.")


# ---- pages made from a notebook -------------------------------------------------------------------------------------
def test_clean_html_keeps_markdowns_markup_and_nothing_that_runs():
    html = ('<h2 id="x">T</h2><p>a <em>b</em> <code>c</code></p><table><tr><td style="text-align:right;color:red">1'
            '</td></tr></table><a href="https://e.org">l</a><a href="javascript:alert(1)">j</a>'
            '<img src="data:image/png;base64,AAAA" width="3" onerror="alert(1)"><img src="http://x.invalid/p.png">'
            '<script>alert(1)</script><style>body{}</style><iframe srcdoc="x"></iframe><svg onload="alert(1)"/>'
            '<details open ontoggle="alert(1)"><summary onclick="alert(1)">h</summary>x</details>')
    tags = Tags(clean_html(html)).found
    assert {t for t, _ in tags} == {"h2", "p", "em", "code", "table", "tbody", "tr", "td", "a", "img", "details",
                                    "summary"}
    assert [a for t, a in tags if t in ("details", "summary")] == [{}, {}]
    assert [a for t, a in tags if t == "a"] == [{"href": "https://e.org"}, {}]
    assert [a for t, a in tags if t == "img"] == [{"src": "data:image/png;base64,AAAA", "width": "3"}, {}]
    assert [a for t, a in tags if t == "td"] == [{"style": "text-align:right"}]


# What the formgrader's manual grading view gives its template (nbgrader's formgrader/handlers.py).
FORMGRADER_RESOURCES = {"assignment_id": "a", "notebook_id": "n", "submission_id": "s", "index": 0, "total": 1,
                        "base_url": "", "student": "x", "last_name": None, "first_name": None, "notebook_path": "/x"}


def exported(nb, template):
    """The tags and attributes of the HTML page nbconvert makes of `nb` with the `template` and what
    nbgrader_config.py sets for every page; the page's event handlers and scripts, in order."""
    from nbgrader.server_extensions.formgrader import handlers

    config = Config()
    config.HTMLExporter.preprocessors = ["classroom.preprocessors.inert_content.InertContent"]
    config.HTMLExporter.sanitize_html = True
    config.HTMLExporter.filters = {"clean_html": "classroom.feedback.clean_html.clean_html"}
    config.HTMLExporter.template_name = template
    config.HTMLExporter.extra_template_basedirs = [handlers.template_path]
    resources = dict(FORMGRADER_RESOURCES) if template == "formgrade" else None
    html, _ = HTMLExporter(config=config).from_notebook_node(nbformat.reads(json.dumps(nb), 4), resources=resources)
    tags = Tags(html).found
    handlers_ = [(t, name, value) for t, a in tags for name, value in a.items() if name.startswith("on")]
    return tags, handlers_ + [(t, a.get("type", "")) for t, a in tags if t == "script"]


@pytest.mark.parametrize("template", ["lab", "classic", "formgrade"])
def test_a_notebook_graded_before_is_inert_once_exported_with_the_course_configuration(template):
    """The feedback's templates and the formgrader's manual grading view, on a notebook as stored before."""
    tags, active = exported(hostile.with_legacy_outputs(hostile.hostile_page_notebook(CORRECT)), template)
    assert active == exported(submission(CORRECT), template)[1]  # only the template's own scripts and handlers
    assert not [(t, a) for t, a in tags for value in a.values() if value and hostile.HOST in value and t != "a"]
    assert not [(t, a) for t, a in tags if t in ("iframe", "object", "embed", "base", "form", "svg")
                or (t == "meta" and "http-equiv" in a) or (t == "link" and hostile.HOST in a.get("href", ""))]


def test_feedback_makes_a_notebook_graded_before_inert():
    nb = hostile.with_legacy_outputs(hostile.hostile_page_notebook(CORRECT))
    shown, _ = SanitizeFeedback().preprocess(from_dict(nb), {})
    # SanitizeFeedback's own addition: each graded cell's name for the student (text the page shows through
    # clean_html), which InertContent, knowing nothing of it, would drop; everything else is as InertContent makes it
    names = [cell.metadata.pop("classroom") for cell in shown.cells if "classroom" in cell.metadata]
    assert names and all(isinstance(name["label"], str) for name in names)
    assert json.dumps(shown) == json.dumps(inert(shown))
    assert "widgets" not in shown.metadata
    assert not [c.source for c in shown.cells if c.cell_type != "code" and active(c.source)]
    assert {m for c in shown.cells for o in c.get("outputs", []) for m in o.get("data", {})} <= {"text/plain",
                                                                                                "image/png"}


@pytest.mark.integration  # a gradebook (nbgrader runs alembic)
def test_in_autograded_the_instructors_locked_cell_stays_as_written_and_nothing_else_does(tmp_path, monkeypatch):
    """AutogradedInertContent leaves a locked Markdown cell as written when its source is the instructor's, as the
    gradebook holds it (nbgrader's own test_hidden_tests_single_notebook validates the autograded notebook); the same
    image in the student's Markdown, or a locked cell whose source is not the gradebook's, is made text."""
    from nbgrader.api import Gradebook

    from classroom.preprocessors.inert_content import AutogradedInertContent

    monkeypatch.setenv("PATH", nbgrader_env()["PATH"])
    figure = "Look at this: ![](jupyter.png)"
    db_url = f"sqlite:///{tmp_path / 'gradebook.db'}"
    with Gradebook(db_url) as gb:
        gb.add_assignment("ps1")
        gb.add_notebook("problem", "ps1")
        gb.add_source_cell("intro", "problem", "ps1", cell_type="markdown", locked=True, source=figure,
                           checksum="0")
    def markdown(source, **meta):
        return from_dict({"cell_type": "markdown", "metadata": {"nbgrader": {"grade_id": meta.get("grade_id", "x"),
                          "locked": meta.get("locked", False), "solution": meta.get("solution", False),
                          "grade": False, "schema_version": 3}}, "source": source})
    nb = nbformat.v4.new_notebook()
    nb.cells = [markdown(figure, grade_id="intro", locked=True), markdown(figure, grade_id="answer", solution=True),
                markdown(figure + " (changed)", grade_id="intro", locked=True)]
    resources = {"nbgrader": {"db_url": db_url, "notebook": "problem", "assignment": "ps1"}}
    out, _ = AutogradedInertContent().preprocess(copy.deepcopy(nb), resources)
    assert out.cells[0].source == figure
    assert all(cell.source != cell_in.source and not active(cell.source, None)
               for cell, cell_in in zip(out.cells[1:], nb.cells[1:]))
    plain, _ = InertContent().preprocess(copy.deepcopy(nb), resources)  # every page made from it: text again
    assert plain.cells[0].source != figure
