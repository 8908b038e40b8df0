"""No script from a submission runs in any page the course generates: a class with hostile submissions is graded by
the course's own commands (`python -m classroom.autograde`, `nbgrader generate_feedback`, `python -m
classroom.report`), and every feedback page and the report page are opened in Debian's Chromium (Playwright).

The payloads (tests/feedback/hostile.py) are Markdown (script, event handlers, iframe, refresh, stylesheet, object,
embed, base, form, outside images, a script link), outputs of every rich kind (HTML, JavaScript, Markdown, SVG, LaTeX,
a widget view, image metadata that nbconvert writes into the page unquoted), attachments, a raw cell, cell tags and
widget state. Each payload, if it ran, would leave a trace: a dialog, a changed title, a name in `window.__pwned`, or a
request to its own host. A third student's notebook is swapped, after grading, for one holding the payloads' outputs
as the grader stored them before it made notebooks inert: its feedback must be inert too. An honest student's page
is the yardstick for the scripts, frames and styles the page template itself brings.
"""
import json
import stat
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from coursekit import trial_course
from coursekit.real_parts.browser import chromium
from coursekit.trial_course import ASSIGNMENT, SUBMISSIONS
from coursekit.parts import requires
from coursekit.quiz.answers import SECRETS
from tests.feedback import hostile

pytestmark = requires("browser")

CORRECT = (SUBMISSIONS / "correct_keepdims.py").read_text()
# A function that raises with HTML in its message: the message reaches the report's list of common failures.
RAISES = f"def score_gradient(A, G):\n    raise ValueError('<img src=x onerror={hostile.js('report-message')}>')\n"
STUDENTS = {"honest": trial_course.submission(CORRECT), "hostile": hostile.hostile_page_notebook(CORRECT),
            "legacy": hostile.hostile_page_notebook(CORRECT), "raises": trial_course.submission(RAISES)}

# What the page (in the page's own scripts, frames, styles and event handlers) holds that could run or load.
PROBE = """() => ({
    pwned: window.__pwned || [],
    title: document.title,
    text: document.body ? document.body.innerText : '',
    active: [...document.querySelectorAll('script, iframe, frame, object, embed, base, meta, form, svg, link, style, '
                                          + 'video, audio, img[src^="http"]')]
        .map(el => el.tagName.toLowerCase() + (el.getAttribute('type') ? ' ' + el.getAttribute('type') : '')).sort(),
    // event handlers, script addresses, and a payload's host anywhere but in a link (which needs a click)
    handlers: [...document.querySelectorAll('*')].flatMap(el => [...el.attributes]
        .filter(a => a.name.startsWith('on') || /^\\s*javascript:/i.test(a.value)
                     || (/payload\\.invalid/i.test(a.value) && !(el.tagName === 'A' && a.name === 'href')))
        .map(a => `${el.tagName.toLowerCase()} ${a.name}=${a.value.slice(0, 60)}`)),
})"""


def legacy_notebook(autograded):
    """The submitted hostile notebook as the grader stored it before notebooks were made inert: every payload as it
    was handed in, the displayed payloads as outputs, the verdicts of the real autograded notebook."""
    nb = hostile.with_legacy_outputs(hostile.hostile_page_notebook(CORRECT))
    verdicts = {c["metadata"]["nbgrader"]["grade_id"]: c["outputs"] for c in autograded["cells"]
                if c.get("metadata", {}).get("nbgrader", {}).get("grade") and c["cell_type"] == "code"}
    for cell in nb["cells"]:
        grade_id = cell["metadata"].get("nbgrader", {}).get("grade_id")
        if grade_id in verdicts:
            cell["outputs"] = verdicts[grade_id]
    return nb


@pytest.fixture(scope="module")
def graded_class(tmp_path_factory):
    place = trial_course.make_course(tmp_path_factory.mktemp("inert") / "course")
    for student, nb in STUDENTS.items():
        trial_course.write_submission(place, student, nb)
    result = trial_course.autograde(place)
    assert result.returncode == 0, (place / "autograde.log").read_text()[-4000:]
    path = Path(place) / "autograded" / "legacy" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    path.chmod(path.stat().st_mode | stat.S_IWUSR)
    path.write_text(json.dumps(legacy_notebook(json.loads(path.read_text()))))
    trial_course.nbgrader("generate_feedback", ASSIGNMENT, "--force", cwd=place)
    trial_course.report(place)
    return place


def feedback_page(place, student):
    return Path(place) / "feedback" / student / ASSIGNMENT / f"{ASSIGNMENT}.html"


def visit(context, path):
    """Open `path` in a new tab of `context`, let it settle, and return what the page did and holds."""
    seen = {"dialogs": [], "requests": []}
    page = context.new_page()
    page.on("dialog", lambda dialog: (seen["dialogs"].append(dialog.message), dialog.dismiss()))
    page.on("request", lambda request: seen["requests"].append(request.url))  # frames' requests too
    page.goto(path.as_uri(), wait_until="load")
    page.wait_for_timeout(1500)  # a refresh after 0 s, a timer, a lazy image
    found = page.evaluate(PROBE)
    found.update(seen, url=page.url, popups=len(context.pages) - 2)
    page.close()
    return found


@pytest.fixture(scope="module")
def pages(graded_class):
    """{page name: what Chromium saw}, for every feedback page and the report page."""
    paths = sorted(Path(graded_class, "feedback").rglob("*.html")) + sorted(Path(graded_class, "report").glob("*.html"))
    seen = {}
    with chromium() as first:
        context = first.context
        context.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:")
                      else route.abort())  # nothing leaves the machine, but every request is recorded first
        for path in paths:
            seen[str(path.relative_to(graded_class))] = visit(context, path)
    return seen


def test_every_page_was_opened(graded_class, pages):
    expected = {f"feedback/{s}/{ASSIGNMENT}/{ASSIGNMENT}.html" for s in STUDENTS} | {f"report/{ASSIGNMENT}.html"}
    assert expected <= set(pages)


def test_the_hostile_students_are_graded_like_the_honest_one(graded_class):
    scores = trial_course.scores(graded_class)
    full = {g: p for g, p in trial_course.max_scores(graded_class).items()}
    for student in ("honest", "hostile", "legacy"):
        assert {g: scores[student][g] for g in full} == full, student


@pytest.mark.parametrize("student", ["hostile", "legacy", "raises"])
def test_no_payload_runs_in_a_feedback_page(pages, student):
    page = pages[f"feedback/{student}/{ASSIGNMENT}/{ASSIGNMENT}.html"]
    honest = pages[f"feedback/honest/{ASSIGNMENT}/{ASSIGNMENT}.html"]
    assert_inert(page)
    assert page["title"] == honest["title"]
    assert page["active"] == honest["active"], "the page holds scripts, frames or styles the template did not put there"
    assert "Score:" in page["text"], "the page's content is hidden"


def test_no_payload_runs_in_the_report(pages):
    page = pages[f"report/{ASSIGNMENT}.html"]
    assert_inert(page)
    assert [kind for kind in page["active"] if not kind.startswith(("meta", "style"))] == []
    assert "class report" in page["text"]


def assert_inert(page):
    assert page["dialogs"] == [], f"a payload opened dialogs: {page['dialogs']}"
    assert page["pwned"] == [], f"payloads ran: {page['pwned']}"
    assert hostile.MARKER_TITLE not in page["title"]
    assert page["url"].startswith("file:"), f"the page navigated to {page['url']}"
    assert page["popups"] == 0, "the page opened another window"
    outside = [url for url in page["requests"] if not url.startswith(("file:", "data:"))]
    assert [url for url in outside if hostile.HOST in urlsplit(url).netloc] == [], "a payload's host was asked"
    assert not outside, f"the page asked for files from outside (its template asks for none): {sorted(set(outside))}"
    assert page["handlers"] == [], f"event handlers or payload addresses in the page: {page['handlers'][:5]}"


@pytest.mark.parametrize("student", sorted(STUDENTS))
def test_feedback_never_shows_hidden_tests_or_the_reference(graded_class, student):
    html = feedback_page(graded_class, student).read_text()
    assert [s for s in SECRETS if s in html or s.replace("*", "&#42;") in html] == []
