"""The gate of the real parts (coursekit.parts), run by a pytest of its own on a small suite written here: a test
that needs a missing part is skipped with the reason before its fixtures are made, or fails where CI requires the
part; `-m "not <part>"` leaves it out; one closing line names what was missing and how to install it, also under
pytest-xdist. The suite's machine is made up in its conftest (PostgreSQL missing, a hub present), so the result does
not depend on this one's."""
import pytest

from coursekit import parts
from coursekit.repository import ROOT

CONFTEST = '''
pytest_plugins = ["coursekit.parts"]


def pytest_configure():
    from coursekit import parts

    missing = parts.Missing("no initdb in this test", "apt-get install -y postgresql")
    parts.PARTS["postgres"] = ("a server", lambda: missing)
    parts.PARTS["hub"] = ("a hub", lambda: None)
'''
SUITE = '''
import pytest

from coursekit.parts import requires


@pytest.fixture
def expensive():
    raise AssertionError("made a fixture for a test that cannot run")


@requires("postgres")
def test_on_postgres(expensive):
    pass


@requires("hub")
def test_on_the_hub():
    pass


def test_plain():
    pass
'''


@pytest.fixture
def suite(pytester, monkeypatch):
    for part in parts.PARTS:
        monkeypatch.delenv(parts.variable(part), raising=False)  # CI sets them: this suite decides its own
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_suite=SUITE)
    return pytester


def closing(result):
    lines = [line for line in result.outlines if line.startswith("Real parts")]
    assert len(lines) == 1, result.stdout.str()
    return lines[0]


def test_a_missing_part_is_skipped_with_its_reason_and_named_at_the_end(suite):
    result = suite.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:nbval", "-rs")
    result.assert_outcomes(passed=2, skipped=1)
    result.stdout.fnmatch_lines(["*no postgres here: no initdb in this test (install: apt-get install -y postgresql)*"])
    assert closing(result) == ("Real parts missing here: postgres (1 skipped: no initdb in this test; install: "
                               "apt-get install -y postgresql). CI installs them and requires their tests "
                               "(REQUIRE_<PART>_TESTS=1, .ci/run).")


@pytest.mark.integration  # a pytest with two workers of its own
def test_a_required_part_that_is_missing_fails_and_the_line_comes_once_under_xdist(suite, monkeypatch):
    monkeypatch.setenv("REQUIRE_POSTGRES_TESTS", "1")
    result = suite.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:nbval", "-n", "2")
    result.assert_outcomes(passed=2, errors=1)
    result.stdout.fnmatch_lines(["*REQUIRE_POSTGRES_TESTS=1 but no initdb in this test*"])
    assert closing(result).startswith("Real parts missing here: postgres (1 error: no initdb in this test;")


def test_a_part_can_be_left_out_by_its_marker(suite):
    result = suite.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:nbval", "-m", "not postgres")
    result.assert_outcomes(passed=2, deselected=1)
    assert closing(result) == "Real parts: every test that needs one ran (hub 1)."
    left = suite.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:nbval", "-m", "not integration")
    left.assert_outcomes(passed=1, deselected=2)
    assert not [line for line in left.outlines if line.startswith("Real parts")], "a line where no part was needed"


def test_only_known_parts_are_accepted():
    with pytest.raises(ValueError, match="browser, hub, postgres, dask, sandbox, axe; got gpu"):
        parts.requires("gpu")
    assert [mark.name for mark in parts.requires("hub", "browser")] == ["integration", "hub", "browser"]


def test_a_skip_for_another_reason_is_named_with_its_reason_at_the_end(suite):
    suite.makepyfile(test_other='''
import pytest


def test_own_words():
    pytest.skip("the source lesson is not beside the clone")
''')
    result = suite.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:nbval")
    result.assert_outcomes(passed=2, skipped=2)
    others = [line for line in result.outlines if line.startswith("Skipped for other reasons")]
    assert others == ["Skipped for other reasons (1): test_other.py::test_own_words: the source lesson is not "
                      "beside the clone."], result.stdout.str()
    assert closing(result).startswith("Real parts missing here: postgres (1 skipped")
