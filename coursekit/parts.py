"""The real parts some tests need, and the one gate in front of them: a pytest plugin (tests/conftest.py loads it).

The parts: a browser (Debian's Chromium through playwright), axe-core (npm's, for the accessibility checks), a
JupyterHub class (Linux accounts, npm's proxy), a PostgreSQL server (initdb and pg_ctl), a Dask cluster
(`distributed`) and the bubblewrap sandbox. A test that needs
one says so with `requires(part)`: it is marked `integration` and `<part>` (so `pytest -m "not hub"` leaves it out),
and where this machine lacks the part it is skipped with the reason, or fails where CI requires the part
(REQUIRE_<PART>_TESTS=1, as .ci/run sets them). At the end of the run one line names each part that was missing,
what it cost, and the command that installs it; under pytest-xdist the line is written once, from the workers'
reports. `why_missing(part)` serves the benches too.
"""
import functools
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest


DASK = Path(sys.executable).parent / "dask"  # the `dask` command of this environment (Dask `distributed`)


class Missing(NamedTuple):
    why: str
    install: str


def _browser():
    if importlib.util.find_spec("playwright") is None:
        return Missing("the Python package playwright is not installed", "make .venv/.ready (requirements.txt)")
    from coursekit.real_parts.browser import CHROMIUM

    if not Path(CHROMIUM).exists():
        return Missing(f"Chromium is not at {CHROMIUM}", "apt-get install -y chromium (or set CHROMIUM=/path/to/it)")
    return None


def _axe():
    from coursekit.real_parts.browser import AXE

    if not AXE.exists():
        return Missing("axe-core is not installed in accessibility/node_modules", "npm ci --prefix accessibility")
    return None


def _hub():
    if os.geteuid() != 0:
        return Missing("it makes Linux accounts and runs JupyterHub as root", "run the tests as root")
    for command, package in (("useradd", "passwd"), ("userdel", "passwd"), ("groupadd", "passwd"),
                             ("chpasswd", "passwd"), ("npm", "npm")):
        if shutil.which(command) is None:
            return Missing(f"{command} is not installed", f"apt-get install -y {package}")
    works = Path("/usr/bin/python3").exists() and subprocess.run(
        ["/usr/bin/python3", "-c", "import venv, ensurepip"], capture_output=True).returncode == 0
    if not works:
        return Missing("the shared environment is made by /usr/bin/python3 -m venv, which this machine lacks",
                       "apt-get install -y python3-venv")
    from coursekit.real_parts.hub import deploy_module

    node = deploy_module("hub_class").check_node()  # the proxy's Node.js, as `make hub` checks it
    return Missing(node, "install the Node.js it names (INSTRUCTORS.md, step 1)") if node else None


def _postgres():
    from coursekit.real_parts import postgres

    absent = [name for name in ("initdb", "pg_ctl") if postgres.program(name) is None]
    if absent:
        return Missing(f"PostgreSQL is not installed ({', '.join(absent)} not found)", "apt-get install -y postgresql")
    return None


def _dask():
    if importlib.util.find_spec("distributed") is None or not DASK.exists():
        return Missing("Dask's `distributed` is not installed in this environment",
                       "make .venv/.ready (requirements.txt)")
    return None


def _sandbox():
    from classroom.sandbox import launch

    if launch.bwrap_path() is None:
        return Missing("bubblewrap (bwrap) is not installed", "apt-get install -y bubblewrap")
    return None


# part: (what its marker means, the check that says why it is missing here, or None)
PARTS = {
    "browser": ("drives Debian's Chromium through playwright", _browser),
    "hub": ("a class on JupyterHub with real Linux accounts (root)", _hub),
    "postgres": ("a throw-away PostgreSQL server (initdb, pg_ctl)", _postgres),
    "dask": ("a Dask scheduler and workers on 127.0.0.1", _dask),
    "sandbox": ("grades inside the bubblewrap sandbox and tests it", _sandbox),
    "axe": ("runs axe-core (npm, pinned in accessibility/) in Chromium", _axe),
}
# the test reports' user properties: the parts a test needs, and each one this machine lacked (part, why, install)
NEEDS, LACKED = "real parts", "missing part"


@functools.cache
def why_missing(part):
    """Missing(why, install) where this machine lacks `part`, or None where it has it."""
    return PARTS[part][1]()


def required(part):
    """True where CI requires the part's tests: REQUIRE_<PART>_TESTS=1."""
    return os.environ.get(variable(part)) == "1"


def variable(part):
    return f"REQUIRE_{part.upper()}_TESTS"


class Marks(list):
    """The marks of `requires`: a list for `pytestmark` and `pytest.param(marks=...)`, a decorator for a test."""

    def __call__(self, test):
        for mark in self:
            test = mark(test)
        return test


def requires(*parts):
    """The marks of a test that needs these real parts: `integration` and one marker a part."""
    unknown = [part for part in parts if part not in PARTS]
    if unknown or not parts:
        raise ValueError(f"requires() takes parts among {', '.join(PARTS)}; got {', '.join(unknown) or 'none'}")
    return Marks([pytest.mark.integration, *(getattr(pytest.mark, part) for part in parts)])


# ---- the plugin ------------------------------------------------------------------------------------------------
def pytest_configure(config):
    config.addinivalue_line("markers", "integration: real nbgrader, kernel, sandbox, browser or hub; slow "
                                       "(make test-fast leaves these out)")
    for part, (meaning, _) in PARTS.items():
        config.addinivalue_line("markers", f"{part}: {meaning}; skipped where missing, unless {variable(part)}=1")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """Before any fixture of the test is made: skip it (or fail it, where required) if a part it needs is missing."""
    needs = list(dict.fromkeys(mark.name for mark in item.iter_markers() if mark.name in PARTS))
    if not needs:
        return
    item.user_properties.append((NEEDS, tuple(needs)))
    missing = {part: why_missing(part) for part in needs if why_missing(part)}
    if not missing:
        return
    for part, (why, install) in missing.items():
        item.user_properties.append((LACKED, (part, why, install)))
    demanded = [part for part in missing if required(part)]
    if demanded:
        pytest.fail("; ".join(f"{variable(part)}=1 but {missing[part].why} (install: {missing[part].install})"
                              for part in demanded), pytrace=False)
    pytest.skip("; ".join(f"no {part} here: {why} (install: {install})" for part, (why, install) in missing.items()))


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_terminal_summary(terminalreporter):
    """One closing line, after pytest's own summary: the parts this run lacked, what each cost, and how to install
    it; or that none was lacking. Nothing when no test of the run needs a part (make test-fast)."""
    yield
    reports = [report for reports in terminalreporter.stats.values() for report in reports]
    for line in (closing_line(reports), other_skips(reports)):
        if line:
            terminalreporter.write_line(line)


def other_skips(reports):
    """A closing line naming every test skipped for a reason other than a missing part, with its reason (a skip that
    is not said reads as "something is broken"); None when there is none."""
    lacking = {report.nodeid for report in reports
               if any(name == LACKED for name, _ in getattr(report, "user_properties", ()))}
    skipped = {}
    for report in reports:
        if getattr(report, "skipped", False) and report.nodeid not in lacking:
            longrepr = report.longrepr
            why = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)
            skipped[report.nodeid] = why.removeprefix("Skipped: ")
    if not skipped:
        return None
    return (f"Skipped for other reasons ({len(skipped)}): "
            + "; ".join(f"{nodeid}: {why}" for nodeid, why in sorted(skipped.items())) + ".")


def closing_line(reports):
    """The closing line, from the run's test reports (the workers' reports, under pytest-xdist)."""
    needed, lacked = {}, {}
    for report in reports:
        if getattr(report, "when", None) != "setup":
            continue
        for name, value in report.user_properties:
            if name == NEEDS:
                for part in value:
                    needed[part] = needed.get(part, 0) + 1
            elif name == LACKED:
                part, why, install = value
                lacked.setdefault(part, [why, install, {}])[2][report.nodeid] = report.outcome
    if not needed:
        return None
    if not lacked:
        return "Real parts: every test that needs one ran (" + ", ".join(
            f"{part} {needed[part]}" for part in PARTS if part in needed) + ")."
    said = []
    for part in PARTS:
        if part in lacked:
            why, install, outcomes = lacked[part]
            skipped = list(outcomes.values()).count("skipped")
            errors = len(outcomes) - skipped  # failed in setup: required here
            counts = [f"{skipped} skipped"] * bool(skipped) + [f"{errors} error{'s' * (errors != 1)}"] * bool(errors)
            said.append(f"{part} ({', '.join(counts)}: {why}; install: {install})")
    return ("Real parts missing here: " + ", ".join(said) + ". CI installs them and requires their tests "
            "(REQUIRE_<PART>_TESTS=1, .ci/run).")
