"""`make nbgrader-contract`: nbgrader's own app tests, run with the grading system's plugins, held to
docs/differences-from-nbgrader.md.

nbgrader ships its test suite inside the installed package (nbgrader/tests/apps/). This runs its tests of the apps our
plugins replace a part of (FILES) as they are, with the plugin selection (classroom/plugins/nbgrader_config.py) on
nbgrader's config path (JUPYTER_CONFIG_PATH), so every `nbgrader` they run loads our plugins before the test's own
configuration. Then every test that failed must be named in the document (as `test_nbgrader_x.py::test_function`,
with what we do instead and why), and every test named there must have failed: anything else fails the run, so the
document says exactly where an instructor who knows nbgrader will meet something else. Each named test also says
what it fails on (`` `file::test` (fails on `a line of its failure`) ``): a named test that fails on something else
fails the run too, so a test that starts failing for a new reason is never hidden behind its old one. A named test
that fails only on how nbgrader's test sets itself up says so (`(fails on `...`; passes adapted)`): it is run a second
time with that set-up as nbgrader means it (tools/nbgrader_adapted.py), and must then pass; one whose set-up cannot
be adapted names the test of ours that checks the same behaviour (`(ours: `tests/...py::test_function`)`). Every run
looks up nbgrader's alembic head once per worker (tools/nbgrader_alembic_once.py), not once per gradebook.

    python -m tools.nbgrader_contract [--jobs N] [--select EXPR]
                    (N pytest workers, default 4: most of the time is waiting; EXPR as pytest's -k, for a few tests)

`make nbgrader-contract` runs it alone; `make test` runs it too (tests/setup/test_nbgrader_contract.py).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "differences-from-nbgrader.md"
FILES = ("test_nbgrader_collect.py", "test_nbgrader_zip_collect.py", "test_nbgrader_export.py",
         "test_nbgrader_generate_feedback.py", "test_nbgrader_releasefeedback.py", "test_nbgrader_autograde.py")
NAMED = re.compile(r"`(test_nbgrader_\w+\.py)::(test_\w+)`")
REASON = re.compile(r"`(test_nbgrader_\w+\.py)::(test_\w+)` \(fails on `([^`]+)`(?:; passes adapted)?\)")
ADAPTED = re.compile(r"`(test_nbgrader_\w+\.py)::(test_\w+)` \(fails on `[^`]+`; passes adapted\)")
OURS = re.compile(r"\(ours: `(tests/[\w/]+\.py)::(test_\w+)`\)")
TEST_FILE = re.compile(r"(test_nbgrader_\w+)")


def nbgrader_tests():
    """The folder of nbgrader's app tests in the installed nbgrader."""
    import nbgrader

    return Path(nbgrader.__file__).parent / "tests" / "apps"


def documented(text):
    """{(test file, test function)} the document names."""
    return set(NAMED.findall(text))


def reasons(text):
    """{(test file, test function): what its failure must show} the document gives."""
    return {(file, name): fragment for file, name, fragment in REASON.findall(text)}


def adapted(text):
    """{(test file, test function)} the document says pass once their set-up is as nbgrader means it."""
    return set(ADAPTED.findall(text))


def ours(text):
    """{(our test file, test function)} the document names as checking what a named test cannot."""
    return set(OURS.findall(text))


def _key(case):
    where = TEST_FILE.search(case.get("classname", "") + " " + case.get("file", ""))
    return f"{where.group(1)}.py" if where else case.get("classname", "?"), case.get("name", "?").split("[")[0]


def failures(junit_xml):
    """{(test file, test function): the text of its failures and errors (message and report, every parameter)}."""
    found = {}
    for case in ElementTree.fromstring(junit_xml).iter("testcase"):
        for child in case:
            if child.tag in ("failure", "error"):
                found[_key(case)] = found.get(_key(case), "") + f"{child.get('message', '')}\n{child.text or ''}\n"
    return found


def other_reasons(failed_texts, expected):
    """[(test, the first line of its failure)] of the named tests that failed but not on what the document says
    (or for which it says nothing)."""
    wrong = []
    for key, text in sorted(failed_texts.items()):
        fragment = expected.get(key)
        if fragment is None or fragment not in text:
            wrong.append((key, next((line for line in text.splitlines() if line.strip()), "")[:300]))
    return wrong


def outcomes(junit_xml):
    """{(test file, test function): {"passed", "failed", "skipped"}} from pytest's JUnit XML (a parametrized
    function's items together)."""
    found = {}
    for case in ElementTree.fromstring(junit_xml).iter("testcase"):
        key = _key(case)
        kinds = {child.tag for child in case}
        outcome = "failed" if kinds & {"failure", "error"} else "skipped" if "skipped" in kinds else "passed"
        found.setdefault(key, set()).add(outcome)
    return found


def judge(results, named):
    """(failures the document does not name, tests it names that did not fail), each sorted."""
    failed = {key for key, seen in results.items() if "failed" in seen}
    return sorted(failed - named), sorted(named - failed)


def not_passing(results, tests):
    """The `tests` that did not pass in `results` (a parameter failing, or not run at all), sorted."""
    return sorted(key for key in tests if results.get(key) != {"passed"})


def run(jobs, junit, files=FILES, select="", adapted=False):
    """Run `files` of nbgrader's app tests (those of them `select`, pytest's -k, chooses) with the plugin selection on
    nbgrader's config path, as they are or (`adapted`) with their set-up as nbgrader means it
    (tools/nbgrader_adapted.py); pytest's exit status."""
    from classroom.plugins import SELECTION_FOLDER

    tests = nbgrader_tests()
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST_")}  # not a worker of ours
    env.update(JUPYTER_CONFIG_PATH=SELECTION_FOLDER,
               PATH=os.pathsep.join([os.path.dirname(sys.executable), os.environ.get("PATH", "")]),
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")])))  # our pytest plugins
    with tempfile.TemporaryDirectory(prefix="nbgrader-contract-") as folder:
        Path(folder, "pytest.ini").write_text("[pytest]\n")  # nbgrader's tests as they are, not this course's options
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", folder,
                   "-c", str(Path(folder, "pytest.ini")), f"--junitxml={junit}", "-o", "junit_family=xunit1",
                   *(["-n", str(jobs), "--dist", "load"] if jobs > 1 else ["-p", "no:xdist"]),
                   *(["-k", select] if select else []), "-p", "tools.nbgrader_alembic_once",
                   *(["-p", "tools.nbgrader_adapted"] if adapted else []),
                   *(str(tests / name) for name in files)]
        return subprocess.run(command, cwd=folder, env=env).returncode


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=4, help="pytest workers (default 4)")
    parser.add_argument("--select", default="", metavar="EXPR",
                        help="only nbgrader's tests pytest's -k EXPR selects (the document is held to those only)")
    args = parser.parse_args(argv)
    text = DOC.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory(prefix="nbgrader-contract-junit-") as folder:
        junit, adapted_junit = Path(folder, "results.xml"), Path(folder, "adapted.xml")
        status = run(args.jobs, junit, select=args.select)
        if not junit.exists():
            print(f"pytest wrote no results (exit status {status}): nbgrader's tests did not run")
            return 1
        xml = junit.read_text(encoding="utf-8")
        results, texts = outcomes(xml), failures(xml)
        setup = {key for key in adapted(text) if key in results}
        if setup:
            run(args.jobs, adapted_junit, files=sorted({file for file, _ in setup}),
                select=" or ".join(sorted({name for _, name in setup})), adapted=True)
        adapted_results = outcomes(adapted_junit.read_text(encoding="utf-8")) if adapted_junit.exists() else {}
    named = documented(text) & set(results) if args.select else documented(text)
    unexpected, stale = judge(results, named)
    elsewhere = other_reasons({key: texts.get(key, "") for key in named if "failed" in results.get(key, ())},
                              reasons(text))
    failed = sum("failed" in seen for seen in results.values())
    print(f"nbgrader's app tests with our plugins: {len(results)} tests, {failed} failed, "
          f"{len(named)} differences named in {DOC.relative_to(ROOT)}")
    for file, name in unexpected:
        print(f"FAILED and not named in {DOC.name}: {file}::{name} (fix it, or name it there with what we do "
              "instead and why)")
    for file, name in stale:
        print(f"Named in {DOC.name} but did not fail: {file}::{name} (remove it there)")
    for (file, name), line in elsewhere:
        print(f"Failed for another reason than {DOC.name} gives: {file}::{name}: {line}")
    still = not_passing(adapted_results, setup)
    for file, name in still:
        print(f"Did not pass with its set-up as nbgrader means it (tools/nbgrader_adapted.py): {file}::{name}")
    print(f"with their set-up as nbgrader means it: {len(setup) - len(still)} of {len(setup)} passed")
    return 1 if unexpected or stale or elsewhere or still else 0


if __name__ == "__main__":
    sys.exit(main())
