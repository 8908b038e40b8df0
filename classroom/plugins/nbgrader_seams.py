"""The places the grading system reaches into nbgrader where nbgrader has no documented class, trait or hook for it:
one function a seam, each with a test against the installed nbgrader that fails when nbgrader changes what the seam
relies on (tests/plugins/test_nbgrader_seams.py), and a line in docs/differences-from-nbgrader.md ("Private seams").
Everywhere else the course plugs in by nbgrader's configuration and subclasses its documented classes.

  read_due_dates_strictly()  nbgrader's gradebook (nbgrader.api) reads every due date through
                             `nbgrader.utils.parse_utc`, looked up on the module at each call: replacing the module's
                             function is the one place a due date can be read right or refused
                             (classroom.decisions.dates). The modules that import the name themselves (coursedir,
                             apps.zipcollectapp, apps.api, the exchange's collect) keep nbgrader's reading: they read
                             times nbgrader wrote, not due dates. A refused date ends the command with one sentence
                             (sys.excepthook), not a traceback;
  check_roster_ids()         `nbgrader db student add ID` and `nbgrader db student import FILE` (DbStudentAddApp,
                             DbStudentImportApp: no trait or hook checks an id) refuse an id that is not plain
                             (classroom.intake.id_rule_broken), every bad one named with the rule, before anything is
                             written: wrapped `start`, reading the file as nbgrader does (csv, keys stripped, `id`);
  serve_first(web_app, ...)  the formgrader's Autograde button posts to a route nbgrader's formgrader serves itself,
                             and no trait chooses its handler: ours is put ahead of it in the Jupyter server's tornado
                             routing, whichever of the two extensions is loaded first;
  collect_path(app, step)    where zip_collect keeps each step (ZipCollectApp._format_collect_path, which every step
                             of nbgrader's zip_collect uses), so the LMS route reads and writes where nbgrader looks;
  match_at_start(plugin, p)  nbgrader's own matching of `named_regexp` at the start of a path
                             (FileNameCollectorPlugin._match), so a pattern written for nbgrader places the same files.

Two seams stay where they are used, as this package is above them: the late penalty's bounds
(classroom.decisions.penalty calls AssignLatePenalties._check_late_penalty, so a penalty is kept between 0 and the
score, with nbgrader's warnings), and the sandboxed kernel's launch (classroom.sandbox.kernel overrides two private
methods of jupyter_client's KernelManager, not of nbgrader). The same test file checks them.
"""
import csv
import os
import sys

CHECKED_WITH = "0.9.5"  # the nbgrader these seams were last read against


def read_due_dates_strictly():
    """Make nbgrader read every due date through classroom.decisions.dates.parse_utc. Safe to call again."""
    import nbgrader.utils

    from ..decisions import dates

    nbgrader.utils.parse_utc = dates.parse_utc
    if not getattr(sys.excepthook, "due_dates", False):
        sys.excepthook = _said(sys.excepthook, dates.DueDateError)


def _said(hook, refusal):
    """sys.excepthook that ends a command refused for its due date (`refusal`) with the one sentence that says why (the
    nbgrader command then exits 1, nothing written), not a traceback; any other exception goes to `hook`."""
    def excepthook(kind, value, traceback):
        if isinstance(value, refusal):
            print(f"[nbgrader] ERROR: nothing was changed: {value}", file=sys.stderr)
        else:
            hook(kind, value, traceback)
    excepthook.due_dates = True
    return excepthook


def check_roster_ids():
    """Make nbgrader's `db student add` and `db student import` refuse ids that are not plain. Safe to call again."""
    import nbgrader.apps.dbapp

    if not getattr(nbgrader.apps.dbapp.DbStudentAddApp.start, "checks_ids", False):
        nbgrader.apps.dbapp.DbStudentAddApp.start = _refusing(nbgrader.apps.dbapp.DbStudentAddApp.start,
                                                              lambda app: app.extra_args[:1])
        nbgrader.apps.dbapp.DbStudentImportApp.start = _refusing(nbgrader.apps.dbapp.DbStudentImportApp.start,
                                                                 _imported_ids)


def _imported_ids(app):
    """The ids of the students file `nbgrader db student import FILE` reads, as it reads them ([] if none)."""
    path = app.extra_args[0] if len(app.extra_args) == 1 else None
    if not path or not os.path.isfile(path):
        return []  # nbgrader says why
    with open(path, newline="") as handle:
        reader = csv.DictReader(handle)
        reader.fieldnames = [key.strip() for key in reader.fieldnames or ()]
        return [row["id"] for row in reader if "id" in row]


def _refusing(start, ids):
    """`start` of an nbgrader app, refusing (app.fail: exit 1, nothing written) when an id `ids(app)` gives is not
    plain."""
    from .. import intake

    def start_checked(self):
        broken = [said for said in map(intake.id_rule_broken, ids(self)) if said]
        if broken:
            self.fail("nothing was changed: " + " ".join(broken))
        return start(self)
    start_checked.checks_ids = True
    return start_checked


def serve_first(web_app, host_pattern, handlers):
    """Add `handlers` to the server's tornado application ahead of every handler added before them (the formgrader's
    own included). tornado tries its host rules in order, and add_handlers puts a new one after those added before
    (ahead only of the server's own catch-all): the rules it adds are moved to the front."""
    routers = [web_app.default_router] + ([web_app.wildcard_router] if web_app.default_host is not None else [])
    before = [list(router.rules) for router in routers]
    web_app.add_handlers(host_pattern, handlers)
    for router, old in zip(routers, before):
        added = [rule for rule in router.rules if rule not in old]
        router.rules[:] = added + old


def collect_path(app, step):
    """The folder of one step of nbgrader's zip_collect (`app` a ZipCollectApp; `step` its archive_directory,
    extracted_directory, or a file name beside them): downloaded/<assignment>/<step>, as the course's
    c.ZipCollectApp.collect_directory_structure lays it out, where nbgrader looks."""
    return app._format_collect_path(step)


def match_at_start(plugin, path):
    """The groups of `plugin.named_regexp` (a FileNameCollectorPlugin's) matched at the start of `path`, or None: as
    nbgrader's zip_collect matches them."""
    return plugin._match(path)
