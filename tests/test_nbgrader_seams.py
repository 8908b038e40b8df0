"""classroom.nbgrader_seams, checked against the installed nbgrader: each seam's test fails when nbgrader
changes what the seam relies on (a name, a signature, a route, where it looks a name up), and no class of classroom
overrides a private method of nbgrader's or jupyter_client's outside the places docs/differences-from-nbgrader.md
names ("Private seams")."""
import ast
import datetime
import importlib
import inspect
import pkgutil
import shutil
import sys

import pytest

import classroom
from classroom.decisions import dates
from classroom import nbgrader_seams
from classroom.plugins import formgrader_autograde
from coursekit.repository import ROOT


def _calls(function, name):
    """Whether the source of `function` calls `name` (a dotted name, as written there)."""
    return f"{name}(" in inspect.getsource(function)


# ---- due dates: nbgrader.utils.parse_utc -------------------------------------------------------------------------
def test_nbgraders_gradebook_reads_due_dates_through_the_module_function_the_seam_replaces():
    import nbgrader.api
    import nbgrader.utils

    assert list(inspect.signature(nbgrader.utils.parse_utc).parameters) == ["ts"]
    assert nbgrader.api.utils is nbgrader.utils  # looked up on the module at each call, so the replacement reaches it
    for method in (nbgrader.api.Gradebook.add_assignment, nbgrader.api.Gradebook.update_or_create_assignment):
        assert _calls(method, "utils.parse_utc"), method.__name__


def test_a_due_date_given_to_nbgraders_gradebook_is_read_right_or_refused(monkeypatch, tmp_path, empty_gradebook):
    import nbgrader.utils
    from nbgrader.api import Gradebook

    from coursekit.trial_course import COURSE_ID

    monkeypatch.setattr(nbgrader.utils, "parse_utc", nbgrader.utils.parse_utc)  # put back afterwards
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    nbgrader_seams.read_due_dates_strictly(dates.parse_utc, dates.DueDateError)
    nbgrader_seams.read_due_dates_strictly(dates.parse_utc, dates.DueDateError)  # again: the hook is not wrapped twice
    assert nbgrader.utils.parse_utc is dates.parse_utc and sys.excepthook.due_dates
    shutil.copyfile(empty_gradebook, tmp_path / "gradebook.db")
    with Gradebook(f"sqlite:///{tmp_path / 'gradebook.db'}", COURSE_ID) as gb:
        gb.add_assignment("ps1", duedate="2026-12-01 09:05:00 -0500")  # nbgrader alone: 09:13:20 UTC
        assert gb.find_assignment("ps1").duedate == datetime.datetime(2026, 12, 1, 14, 5)
        with pytest.raises(dates.DueDateError, match="PST"):
            gb.update_or_create_assignment("ps1", duedate="2026-12-01 09:05:00 PST")


def test_a_command_refused_for_its_due_date_ends_with_one_sentence(capsys):
    passed = []
    hook = nbgrader_seams._said(lambda *exc: passed.append(exc[0]), dates.DueDateError)
    hook(dates.DueDateError, dates.DueDateError("soon", "it is no date"), None)
    hook(KeyError, KeyError("x"), None)
    assert capsys.readouterr().err.startswith("[nbgrader] ERROR: nothing was changed: the due date 'soon'")
    assert passed == [KeyError]


# ---- the formgrader's Autograde route ---------------------------------------------------------------------------
def test_the_formgrader_serves_autograde_at_the_route_ours_answers_first():
    from nbgrader.server_extensions.formgrader import apihandlers

    assert (formgrader_autograde.ROUTE, apihandlers.AutogradeHandler) in apihandlers.default_handlers


@pytest.mark.parametrize("nbgrader_first", [True, False])
def test_our_handler_answers_whichever_extension_loads_first(nbgrader_first):
    from tornado import httputil, web

    class Theirs(web.RequestHandler):
        pass

    class Ours(web.RequestHandler):
        pass

    app = web.Application([(r"/api/other", web.RequestHandler)])
    theirs = [(formgrader_autograde.ROUTE, Theirs), (r"/formgrader/api/assignments", Theirs)]
    if nbgrader_first:
        app.add_handlers(".*$", theirs)
    nbgrader_seams.serve_first(app, ".*$", [(formgrader_autograde.ROUTE, Ours)])
    if not nbgrader_first:
        app.add_handlers(".*$", theirs)

    def answering(path):
        request = httputil.HTTPServerRequest(method="POST", uri=path, headers=httputil.HTTPHeaders(Host="localhost"))
        return app.find_handler(request).handler_class

    assert answering("/formgrader/api/submission/ps1/alice/autograde") is Ours
    assert answering("/formgrader/api/assignments") is Theirs and answering("/api/other") is web.RequestHandler


# ---- zip_collect's folders and matching, the late penalty's bounds ----------------------------------------------
def test_zip_collect_keeps_each_step_where_the_seam_says_and_matches_as_the_seam_calls_it(tmp_path):
    from nbgrader.apps.zipcollectapp import ZipCollectApp
    from nbgrader.coursedir import CourseDirectory
    from nbgrader.plugins.zipcollect import FileNameCollectorPlugin

    assert list(inspect.signature(ZipCollectApp._format_collect_path).parameters) == ["self", "collect_step"]
    for step in (ZipCollectApp.extract_archive_files, ZipCollectApp.process_extracted_files):  # nbgrader's steps
        assert _calls(step, "self._format_collect_path"), step.__name__  # find their folders through it
    app = ZipCollectApp(coursedir=CourseDirectory(root=str(tmp_path), assignment_id="ps1"))
    assert nbgrader_seams.collect_path(app, "archive") == str(tmp_path / "downloaded" / "ps1" / "archive")
    plugin = FileNameCollectorPlugin(named_regexp=r"(?P<student_id>\w+)_(?P<file_id>\w+)")
    assert nbgrader_seams.match_at_start(plugin, "alice_ps1.ipynb") == {"student_id": "alice", "file_id": "ps1"}
    assert nbgrader_seams.match_at_start(plugin, "x/alice_ps1.ipynb") is None  # at the start only


def test_nbgraders_late_penalty_is_still_bounded_by_the_method_the_seam_calls():
    from nbgrader.preprocessors import AssignLatePenalties

    assert list(inspect.signature(AssignLatePenalties._check_late_penalty).parameters) == ["self", "notebook",
                                                                                          "penalty"]
    assert _calls(AssignLatePenalties.preprocess, "self._check_late_penalty")
    step, notebook = AssignLatePenalties(), type("Notebook", (), {"score": 3.0})()
    assert [nbgrader_seams.bound_late_penalty(step, notebook, p) for p in (-1.0, 2.0, 5.0)] == [0, 2.0, 3.0]


# ---- the sandboxed kernel's launch: jupyter_client's KernelManager -----------------------------------------------
def test_jupyter_client_still_launches_and_cleans_up_through_the_methods_the_kernel_manager_overrides():
    from jupyter_client.manager import AsyncKernelManager, KernelManager

    assert list(inspect.signature(KernelManager._async_launch_kernel).parameters) == ["self", "kernel_cmd", "kw"]
    assert list(inspect.signature(KernelManager._async_cleanup_resources).parameters) == ["self", "restart"]
    assert _calls(KernelManager._async_start_kernel, "self._async_launch_kernel")
    assert _calls(KernelManager._async_shutdown_kernel, "self._async_cleanup_resources")
    assert AsyncKernelManager.cleanup_resources is KernelManager._async_cleanup_resources


# ---- nowhere else ------------------------------------------------------------------------------------------------
ALLOWED = {("classroom.sandbox.kernel", "SandboxedKernelManager", "_async_launch_kernel"),
           ("classroom.sandbox.kernel", "SandboxedKernelManager", "_async_cleanup_resources")}
THEIRS = ("nbgrader", "jupyter_client")


def _private_overrides():
    """{(module, class, method)}: a method of a class of classroom's, named with one leading underscore, that a base
    class of nbgrader's or jupyter_client's defines too (traitlets' `_<trait>_default` methods aside)."""
    found = set()
    for info in pkgutil.walk_packages(classroom.__path__, "classroom."):
        if info.name.endswith(("__main__", ".nbgrader_config")):  # a command; a configuration file nbgrader reads
            continue
        module = importlib.import_module(info.name)
        for name, cls in vars(module).items():
            if not inspect.isclass(cls) or cls.__module__ != module.__name__:
                continue
            for attr, value in vars(cls).items():
                if not (attr.startswith("_") and not attr.startswith("__") and inspect.isfunction(value)):
                    continue
                if attr.endswith("_default") and attr[1:-len("_default")] in getattr(cls, "class_trait_names",
                                                                                     lambda: [])():
                    continue
                if any(base.__module__.split(".")[0] in THEIRS and attr in vars(base) for base in cls.__mro__[1:]):
                    found.add((module.__name__, name, attr))
    return found


def test_no_class_of_classroom_overrides_a_private_method_of_nbgraders_but_the_documented_ones():
    assert _private_overrides() == ALLOWED


def test_no_module_but_the_seams_assigns_into_nbgrader():
    """Replacing a name of nbgrader's (nbgrader.utils.parse_utc = ...) happens in nbgrader_seams only."""
    found = []
    for path in sorted((ROOT / "classroom").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Attribute) and ast.unparse(target).split(".")[0] in THEIRS:
                        found.append(f"{path.relative_to(ROOT)}: {ast.unparse(target)}")
    assert found == ["classroom/nbgrader_seams.py: nbgrader.utils.parse_utc",
                     "classroom/nbgrader_seams.py: nbgrader.apps.dbapp.DbStudentAddApp.start",
                     "classroom/nbgrader_seams.py: nbgrader.apps.dbapp.DbStudentImportApp.start"]


def _private_names_of_nbgrader():
    """Every name with one leading underscore that a module or a class of the installed nbgrader defines."""
    import nbgrader

    found = set()
    for info in pkgutil.walk_packages(nbgrader.__path__, "nbgrader."):
        if ".tests" in info.name or info.name.endswith("__main__") or ".docs" in info.name:
            continue
        try:
            module = importlib.import_module(info.name)
        except Exception:  # noqa: BLE001 (a part of nbgrader this environment cannot import is used by nobody here)
            continue
        for name, value in vars(module).items():
            if inspect.isclass(value) and value.__module__ == module.__name__:
                found.update(attr for attr in vars(value) if attr.startswith("_") and not attr.startswith("__"))
            elif name.startswith("_") and not name.startswith("__"):
                found.add(name)
    return found


def test_no_module_but_the_documented_ones_reaches_a_private_name_of_nbgraders():
    """`x._name` where nbgrader defines `_name` and classroom does not: only in the seams."""
    theirs, ours, trees = _private_names_of_nbgrader(), set(), {}
    for path in sorted((ROOT / "classroom").rglob("*.py")):
        trees[path] = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(trees[path]):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                ours.add(node.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                ours.update(t.id if isinstance(t, ast.Name) else t.attr for t in targets
                            if isinstance(t, (ast.Name, ast.Attribute)))
    found = sorted({f"{path.relative_to(ROOT).as_posix()}: {node.attr}" for path, tree in trees.items()
                    for node in ast.walk(tree) if isinstance(node, ast.Attribute) and node.attr in theirs - ours})
    assert found == ["classroom/nbgrader_seams.py: _check_late_penalty",
                     "classroom/nbgrader_seams.py: _format_collect_path", "classroom/nbgrader_seams.py: _match"]


def test_each_seam_has_its_line_in_the_differences_page():
    page = (ROOT / "docs" / "differences-from-nbgrader.md").read_text(encoding="utf-8")
    section = page[page.index("## Private seams"):]
    for name in ("nbgrader.utils.parse_utc", "sys.excepthook", "require_plain_roster_ids", "serve_first", "_async_launch_kernel",
                 "_async_cleanup_resources", "init_src", "_format_collect_path", "_match", "_check_late_penalty"):
        assert name in section, name
