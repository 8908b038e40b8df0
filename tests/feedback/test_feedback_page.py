"""The feedback page as a student reads it, in Debian's Chromium (Playwright) at 1000 px wide, after one real
`python -m classroom.autograde` of three students and one `nbgrader generate_feedback`: a correct solution, a wrong one
whose solution cell also prints a long unbroken line, and the released notebooks handed in untouched (nothing
answered). On every page: nothing wider than its box or the window, a summary naming each check by the description
its cell opens with, maths as MathML with no `$` left in the text, no request beyond the page's own file, and no grade
id a student could not already see in the notebook. Full-page screenshots go to build/feedback-screenshots/ (git
ignores build/), to look at.
"""
import json
import re
from pathlib import Path

import pytest

from classroom import cells
from coursekit import trial_course
from coursekit.real_parts.browser import chromium
from coursekit.trial_course import ASSIGNMENT, SUBMISSIONS
from coursekit.parts import requires
from coursekit.repository import ROOT

pytestmark = requires("browser")

SHOTS = ROOT / "build" / "feedback-screenshots"
WIDTH = 1000
NOTEBOOKS = (ASSIGNMENT, "intuition_quiz")
LONG_LINE = "0123456789" * 40
STUDENTS = ("correct", "wrong", "unanswered")

# What Chromium measures on a page: boxes wider than they are shown (or past the window's right edge), the summary's
# lines, the maths, the text of the rendered Markdown, and the whole page's text.
PROBE = """() => {
    const doc = document.documentElement;
    const blocks = [...document.querySelectorAll('pre, math, .output_subarea, .input_area, .text_cell_render, '
                                                  + '.nbgrader_cell, .panel-heading, #toc, table')]
        .filter(el => getComputedStyle(el).display !== 'inline');
    const wide = blocks.filter(el => el.scrollWidth > el.clientWidth + 1
                                     || el.getBoundingClientRect().right > doc.clientWidth + 1)
        .map(el => `${el.tagName.toLowerCase()}.${el.className} ${el.scrollWidth} > ${el.clientWidth}`);
    return {
        page: [doc.scrollWidth, doc.clientWidth], wide,
        summary: [...document.querySelectorAll('#toc > li')].map(li => li.innerText.replace(/\\s+/g, ' ').trim()),
        maths: document.querySelectorAll('.text_cell_render math').length,
        markdown: [...document.querySelectorAll('.text_cell_render')].map(el => el.innerText).join('\\n'),
        text: document.body.innerText,
    };
}"""


def unanswered_notebook(name):
    return json.loads((ROOT / "release" / ASSIGNMENT / f"{name}.ipynb").read_text())


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The course, every student graded in one run and given feedback in one run."""
    place = trial_course.make_course(tmp_path_factory.mktemp("feedback-page") / "course")
    wrong = (SUBMISSIONS / "wrong_returns_A_times_G.py").read_text() + f"\nprint({LONG_LINE!r})\n"
    trial_course.write_submission(place, "correct", trial_course.submission((SUBMISSIONS / "correct_keepdims.py").read_text()))
    trial_course.write_submission(place, "wrong", trial_course.submission(wrong))
    for name in NOTEBOOKS:
        trial_course.write_submission(place, "unanswered", unanswered_notebook(name), notebook=name)
    result = trial_course.autograde(place)
    assert result.returncode == 0, (place / "autograde.log").read_text()[-4000:]
    trial_course.nbgrader("generate_feedback", ASSIGNMENT, "--force", cwd=place)
    return place


@pytest.fixture(scope="module")
def pages(graded):
    """{(student, notebook): what Chromium measured, and every request the page made}; screenshots saved."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    seen = {}
    with chromium(viewport=(WIDTH, 800)) as first:
        context = first.context
        context.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:")
                      else route.abort())  # nothing leaves the machine; every request is still recorded
        for student in STUDENTS:
            for name in NOTEBOOKS:
                path = Path(graded) / "feedback" / student / ASSIGNMENT / f"{name}.html"
                requests, page = [], context.new_page()
                page.on("request", lambda request: requests.append(request.url))
                page.goto(path.as_uri(), wait_until="load")
                page.screenshot(path=str(SHOTS / f"{student}-{name}.png"), full_page=True)
                seen[student, name] = dict(page.evaluate(PROBE), requests=requests)
                page.close()
    return seen


def released(place, name):
    return json.loads((Path(place) / "release" / ASSIGNMENT / f"{name}.ipynb").read_text())


def says_in_order(line, markdown):
    """Whether `line` holds every word of the Markdown `markdown` outside its maths and marks, in order."""
    said = iter(line.split())
    words = re.sub(r"\$[^$]*\$|[`*]", " ", markdown).split()
    return bool(words) and all(word in said for word in words)


@pytest.mark.parametrize("student", STUDENTS)
@pytest.mark.parametrize("name", NOTEBOOKS)
def test_everything_wraps_within_its_box(pages, student, name):
    page = pages[student, name]
    assert page["page"][0] <= page["page"][1], f"the page scrolls sideways: {page['page']}"
    assert page["wide"] == [], f"boxes wider than shown: {page['wide'][:5]}"


@pytest.mark.parametrize("student", STUDENTS)
@pytest.mark.parametrize("name", NOTEBOOKS)
def test_the_page_asks_for_nothing_beyond_its_own_file(pages, student, name):
    assert [url for url in pages[student, name]["requests"] if not url.startswith(("file:", "data:"))] == []


@pytest.mark.parametrize("student", ["wrong", "unanswered"])
def test_the_summary_names_each_check_by_its_description(graded, pages, student):
    for name in NOTEBOOKS if student == "unanswered" else (ASSIGNMENT,):
        graded_cells = [c for c in released(graded, name)["cells"] if cells.is_grade(c)]
        summary = [line for line in pages[student, name]["summary"] if "(Score:" in line]  # not comments' lines
        assert len(summary) == len(graded_cells) and len(set(summary)) == len(summary), summary
        for line, cell in zip(summary, graded_cells):
            points = cells.nbgrader(cell)["points"]
            assert line.endswith(f"/ {points:g} point{'' if points == 1 else 's'})"), line
            if cells.is_check(cell):
                assert says_in_order(line, cells.docstring(cells.source(cell))), line


@pytest.mark.parametrize("student", ["correct", "unanswered"])
def test_maths_are_mathml_with_no_dollar_left(pages, student):
    for name in NOTEBOOKS if student == "unanswered" else (ASSIGNMENT,):
        page = pages[student, name]
        assert page["maths"] > 0 and "$" not in page["markdown"], name


def test_an_unanswered_solution_says_so(pages):
    for name in NOTEBOOKS:
        text = pages["unanswered", name]["text"]
        assert re.search(r"not answered", text, re.IGNORECASE), name
        assert "while checking" not in text and "cell 2 raised" not in text


def test_the_long_line_of_a_wrong_solution_is_shown_whole(pages):
    assert LONG_LINE in pages["wrong", ASSIGNMENT]["text"].replace("\n", "")


@pytest.mark.parametrize("student", STUDENTS)
@pytest.mark.parametrize("name", NOTEBOOKS)
def test_no_grade_id_reaches_the_page(graded, pages, student, name):
    notebook = released(graded, name)
    shown = "\n".join(cells.source(c) for c in notebook["cells"])  # a name the student's own notebook shows anyway
    ids = {cells.grade_id(c) for c in notebook["cells"] if cells.grade_id(c)}
    leaked = [grade_id for grade_id in ids if grade_id not in shown and grade_id in pages[student, name]["text"]]
    assert ids and leaked == []
