"""nbgrader's contract: the plugin selection is one file with no course setting, and `make nbgrader-contract`
(tools/nbgrader_contract.py) holds the failures of nbgrader's own tests to docs/differences-from-nbgrader.md.

The first test runs it (integration: nbgrader's 104 app tests, a few minutes, mostly waiting on kernels and
nbgrader's own sleeps; this file is among the first `make test` starts, so that waiting overlaps the rest of the
suite). The others are fast: the checker on results written here, the document against nbgrader's installed tests,
the configuration files."""
import re
import subprocess
import sys

import pytest
from traitlets.config.loader import PyFileConfigLoader

from classroom.plugins import SELECTION_FOLDER
from coursekit.parts import requires
from coursekit.repository import ROOT
from tools import nbgrader_contract as contract


@requires("sandbox")  # the plugins grade in the sandbox, as an instructor's nbgrader does
def test_nbgraders_own_app_tests_fail_with_our_plugins_only_where_the_document_says_why():
    # two workers, not four: beside the rest of the suite, which keeps both cores busy, two more workers only add their
    # start-up (131 CPU-s against 113 with two, measured side by side)
    result = subprocess.run([sys.executable, "-m", "tools.nbgrader_contract", "--jobs", "2"], cwd=ROOT,
                            capture_output=True, text=True)
    summary = [line for line in result.stdout.splitlines() if line.startswith(("nbgrader's app tests", "FAILED and",
                                                                              "Named in", "pytest wrote", "Failed for",
                                                                              "Did not pass"))]
    assert result.returncode == 0, "\n".join(summary) or result.stdout[-3000:] + result.stderr[-3000:]


JUNIT = """<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest">
<testcase classname="nbgrader.tests.apps.test_nbgrader_collect.TestNbGraderCollect" name="test_permissions[False]">
  <failure message="assert '755' == '777'">...</failure></testcase>
<testcase classname="nbgrader.tests.apps.test_nbgrader_collect.TestNbGraderCollect" name="test_permissions[True]"/>
<testcase classname="nbgrader.tests.apps.test_nbgrader_autograde.TestNbGraderAutograde" name="test_grade"/>
<testcase classname="nbgrader.tests.apps.test_nbgrader_autograde.TestNbGraderAutograde" name="test_side_effects">
  <error message="boom">...</error></testcase>
<testcase classname="nbgrader.tests.apps.test_nbgrader_autograde.TestNbGraderAutograde" name="test_many_students">
  <skipped message="too long"/></testcase>
</testsuite></testsuites>"""


def test_results_are_read_per_test_function_a_failing_parameter_failing_the_function():
    assert contract.outcomes(JUNIT) == {
        ("test_nbgrader_collect.py", "test_permissions"): {"failed", "passed"},
        ("test_nbgrader_autograde.py", "test_grade"): {"passed"},
        ("test_nbgrader_autograde.py", "test_side_effects"): {"failed"},
        ("test_nbgrader_autograde.py", "test_many_students"): {"skipped"}}


def test_a_failure_the_document_does_not_name_and_a_named_test_that_passes_both_fail_the_run():
    results = contract.outcomes(JUNIT)
    both = {("test_nbgrader_collect.py", "test_permissions"), ("test_nbgrader_autograde.py", "test_side_effects")}
    assert contract.judge(results, both) == ([], [])
    assert contract.judge(results, {("test_nbgrader_collect.py", "test_permissions")}) == (
        [("test_nbgrader_autograde.py", "test_side_effects")], [])
    named = both | {("test_nbgrader_autograde.py", "test_grade"), ("test_nbgrader_autograde.py", "test_gone")}
    assert contract.judge(results, named) == ([], [("test_nbgrader_autograde.py", "test_gone"),
                                                   ("test_nbgrader_autograde.py", "test_grade")])


def test_a_named_test_failing_on_something_other_than_the_document_says_fails_the_run():
    texts = contract.failures(JUNIT)
    assert texts[("test_nbgrader_collect.py", "test_permissions")].startswith("assert '755' == '777'")
    said = {("test_nbgrader_collect.py", "test_permissions"): "'755' == '777'",
            ("test_nbgrader_autograde.py", "test_side_effects"): "boom"}
    assert contract.other_reasons(texts, said) == []
    said[("test_nbgrader_autograde.py", "test_side_effects")] = "a file written beside the notebook"
    assert contract.other_reasons(texts, said) == [(("test_nbgrader_autograde.py", "test_side_effects"), "boom")]
    del said[("test_nbgrader_autograde.py", "test_side_effects")]  # a named test must say what it fails on
    assert [key for key, _ in contract.other_reasons(texts, said)] == [("test_nbgrader_autograde.py",
                                                                      "test_side_effects")]


def test_the_document_gives_each_named_test_what_it_fails_on():
    text = contract.DOC.read_text(encoding="utf-8")
    assert set(contract.reasons(text)) == contract.documented(text)
    assert contract.reasons("| `test_nbgrader_collect.py::test_permissions` (fails on `'755' == '777'`) | x | y |") \
        == {("test_nbgrader_collect.py", "test_permissions"): "'755' == '777'"}


def test_a_test_failing_on_its_set_up_passes_adapted_or_names_a_test_of_ours_that_exists():
    row = ("| `test_nbgrader_releasefeedback.py::test_single_file` (fails on `unexpected return code: 1`; passes "
           "adapted) | x | y |")
    assert contract.adapted(row) == {("test_nbgrader_releasefeedback.py", "test_single_file")}
    assert contract.reasons(row) == {("test_nbgrader_releasefeedback.py", "test_single_file"):
                                     "unexpected return code: 1"}
    text = contract.DOC.read_text(encoding="utf-8")
    assert len(contract.adapted(text)) == 4 and contract.adapted(text) <= contract.documented(text)
    assert len(contract.ours(text)) == 3
    for file, function in contract.ours(text):
        assert re.search(rf"^def {function}\(", (ROOT / file).read_text(), re.M), (file, function)


def test_an_adapted_test_must_pass_every_parameter_and_run_at_all():
    results = contract.outcomes(JUNIT)
    assert contract.not_passing(results, {("test_nbgrader_autograde.py", "test_grade")}) == []
    assert contract.not_passing(results, {("test_nbgrader_collect.py", "test_permissions"),
                                          ("test_nbgrader_autograde.py", "test_gone")}) == [
        ("test_nbgrader_autograde.py", "test_gone"), ("test_nbgrader_collect.py", "test_permissions")]


def test_the_document_names_tests_as_file_and_function():
    text = ("| `test_nbgrader_collect.py::test_permissions` | 755 | why |\n"
            "not `test_x.py::test_y` nor test_nbgrader_a.py")
    assert contract.documented(text) == {("test_nbgrader_collect.py", "test_permissions")}


def test_every_difference_named_is_an_nbgrader_test_of_the_files_run_with_what_we_do_and_why():
    text = contract.DOC.read_text(encoding="utf-8")
    named = contract.documented(text)
    assert named, "the document names no test"
    for file, function in named:
        assert file in contract.FILES, file
        assert re.search(rf"^\s+def {function}\(", (contract.nbgrader_tests() / file).read_text(), re.M), function
    for row in (line for line in text.splitlines() if contract.NAMED.search(line)):
        cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
        assert len(cells) == 3 and all(len(cell) > 5 for cell in cells[1:]), row  # what we do instead, and why


def configuration(folder):
    return PyFileConfigLoader("nbgrader_config.py", path=str(folder)).load_config()


def test_the_plugin_selection_holds_no_course_setting_and_the_course_loads_all_of_it():
    selection, course = configuration(SELECTION_FOLDER), configuration(ROOT)
    assert "CourseDirectory" not in selection and "LmsRoster" not in selection and "Exchange" not in selection
    for section, settings in selection.items():
        for name, value in settings.items():
            assert course[section][name] == value, f"c.{section}.{name}"
    assert course.ExchangeFactory.collect == "classroom.plugins.exchange_collect.SafeCollect"
    assert course.CourseDirectory.course_id == "sqrt-dk"


@pytest.mark.parametrize("section", ["Autograde", "GenerateFeedback", "ExchangeFactory", "ExportApp",
                                     "ZipCollectApp", "HTMLExporter"])
def test_the_course_file_itself_chooses_no_plugin(section):
    own = (ROOT / "nbgrader_config.py").read_text(encoding="utf-8")
    assert f"c.{section}." not in own  # one place chooses them: classroom/plugins/nbgrader_config.py


def test_nbgrader_stamps_a_new_gradebook_with_the_head_the_contract_looks_up_once():
    """tools/nbgrader_alembic_once.py keeps nbgrader.api.get_alembic_version's first answer: it holds only while a
    new Gradebook reads its head through that function, and the kept answer is the function's own."""
    import inspect

    import nbgrader.api

    assert "get_alembic_version()" in inspect.getsource(nbgrader.api.Gradebook.__init__)
    real = nbgrader.api.get_alembic_version
    try:
        from tools import nbgrader_alembic_once

        nbgrader_alembic_once.pytest_configure(None)
        once = nbgrader.api.get_alembic_version
        assert once is not real and once.__wrapped__ is real
    finally:
        nbgrader.api.get_alembic_version = real
