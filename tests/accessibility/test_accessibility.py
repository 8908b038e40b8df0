"""axe-core, run in Debian's Chromium, finds no serious or critical accessibility violation on the pages students read:
the explorer's page (make explore-page), notebook 04 as a Voilà app, a student's feedback page and the class report.

axe-core is pinned in accessibility/package.json and installed by `npm ci --prefix accessibility` (.ci/run does it).
Without it, or without Chromium, the tests are skipped with the reason (coursekit.parts: the parts "axe" and
"browser"), unless REQUIRE_AXE_TESTS=1 and REQUIRE_BROWSER_TESTS=1 (CI), where a missing part is an error. The
feedback page and the report come from one small class graded by the course kit: one wrong submission, so that the
feedback shows failed checks and the report a student who needs attention.
"""
from pathlib import Path

import pytest

from attention_lesson.explorer.page import page_html
from coursekit import trial_course
from coursekit.real_parts.browser import AXE, Server, chromium
from coursekit.trial_course import ASSIGNMENT, SUBMISSIONS
from coursekit.parts import requires
from coursekit.real_parts.waiting import WAIT_MS

pytestmark = requires("browser", "axe")

SERIOUS = ("serious", "critical")

# Runs axe on the whole page; keeps each violation's rule, impact, help and the first few elements it names.
RUN_AXE = """async () => {
    const results = await axe.run(document, {resultTypes: ['violations']});
    return results.violations.map(v => ({
        id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.slice(0, 5).map(n => n.target.join(' ') + ': ' + n.failureSummary),
    }));
}"""


def serious_violations(page):
    return [v for v in page.evaluate(RUN_AXE) if v["impact"] in SERIOUS]


def report(violations):
    return "\n".join(f"{v['impact']} {v['id']}: {v['help']}\n    " + "\n    ".join(v["nodes"]) for v in violations)


@pytest.fixture
def page():
    """A Chromium page where axe is loaded into every document before its own scripts (so no page's content security
    policy keeps it out)."""
    with chromium() as page:
        page.context.add_init_script(path=str(AXE))
        yield page


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """A class of one: a wrong submission, graded, with its feedback page and the class report."""
    place = trial_course.make_course(tmp_path_factory.mktemp("accessibility") / "course")
    trial_course.write_submission(place, "wrong", trial_course.submission((SUBMISSIONS / "wrong_returns_A_times_G.py").read_text()))
    result = trial_course.autograde(place)
    assert result.returncode == 0, (place / "autograde.log").read_text()[-4000:]
    trial_course.nbgrader("generate_feedback", ASSIGNMENT, "--force", cwd=place)
    trial_course.report(place)
    return place


def test_the_explorer_page(page, tmp_path):
    path = tmp_path / "divisor-explorer.html"
    path.write_text(page_html(seeds=2), encoding="utf-8")
    page.goto(path.as_uri())
    page.wait_for_selector(".divisor-explorer svg.explorer-picture")
    page.locator(".explorer-numbers summary").click()  # the table of numbers, opened, is checked too
    violations = serious_violations(page)
    assert not violations, report(violations)


def test_notebook_04_in_voila(page):
    with Server("voila") as server:
        page.goto(server.url(), wait_until="commit", timeout=WAIT_MS)
        page.wait_for_selector(".divisor-explorer svg.explorer-picture", state="attached", timeout=WAIT_MS)
        page.wait_for_load_state("load")
        violations = serious_violations(page)
    assert not violations, report(violations)


def test_a_students_feedback_page(page, graded):
    page.goto((Path(graded) / "feedback" / "wrong" / ASSIGNMENT / f"{ASSIGNMENT}.html").as_uri())
    violations = serious_violations(page)
    assert not violations, report(violations)


def test_the_class_report(page, graded):
    page.goto((Path(graded) / "report" / f"{ASSIGNMENT}.html").as_uri())
    violations = serious_violations(page)
    assert not violations, report(violations)
