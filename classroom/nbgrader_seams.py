"""The places the grading system reaches into nbgrader where nbgrader has no documented class, trait or hook for it:
one function a seam, all in this module at the bottom of classroom/ (it imports nothing of ours, so every room may
import it: plugins/, lms/ and decisions/ do), each with a test against the installed nbgrader that fails when
nbgrader changes what the seam relies on (tests/test_nbgrader_seams.py), and a line in
docs/differences-from-nbgrader.md ("Private seams").
Everywhere else the course plugs in by nbgrader's configuration and subclasses its documented classes.

  read_due_dates_strictly(parse_utc, refusal)
                             nbgrader's gradebook (nbgrader.api) reads every due date through
                             `nbgrader.utils.parse_utc`, looked up on the module at each call: replacing the module's
                             function (with classroom.decisions.dates.parse_utc, handed in by the plugin selection,
                             classroom/plugins/nbgrader_config.py) is the one place a due date can be read right or
                             refused. The modules that import the name themselves (coursedir, apps.zipcollectapp,
                             apps.api, the exchange's collect) keep nbgrader's reading: they read times nbgrader
                             wrote, not due dates. A refused date ends the command with one sentence
                             (sys.excepthook), not a traceback;
  require_plain_roster_ids(rule_broken)
                             `nbgrader db student add ID` and `nbgrader db student import FILE` (DbStudentAddApp,
                             DbStudentImportApp: no trait or hook checks an id) refuse an id that is not plain
                             (`rule_broken`, classroom.intake.id_rule_broken, handed in by the plugin selection),
                             every bad one named with the rule, before anything is written: wrapped `start`, reading
                             the file as nbgrader does (csv, keys stripped, `id`);
  serve_first(web_app, ...)  the formgrader's Autograde button posts to a route nbgrader's formgrader serves itself,
                             and no trait chooses its handler: ours is put ahead of it in the Jupyter server's tornado
                             routing, whichever of the two extensions is loaded first;
  collect_path(app, step)    where zip_collect keeps each step (ZipCollectApp._format_collect_path, which every step
                             of nbgrader's zip_collect uses), so the LMS route reads and writes where nbgrader looks;
  match_at_start(plugin, p)  nbgrader's own matching of `named_regexp` at the start of a path
                             (FileNameCollectorPlugin._match), so a pattern written for nbgrader places the same files;
  bound_late_penalty(step, notebook, penalty)
                             nbgrader's bounds of a late penalty (AssignLatePenalties._check_late_penalty): between 0
                             and the notebook's score, with nbgrader's warnings (classroom.decisions.penalty).

One more private seam is not nbgrader's and stays with its class: the sandboxed kernel's launch
(classroom.sandbox.kernel overrides two private methods of jupyter_client's KernelManager). The same test file,
tests/test_nbgrader_seams.py, checks it.
"""
import csv
import os
import sys

CHECKED_WITH = "0.9.5"  # the nbgrader these seams were last read against


def read_due_dates_strictly(parse_utc, refusal):
    """Make nbgrader read every due date through `parse_utc` (nbgrader's signature:
    classroom.decisions.dates.parse_utc), and end a command it refuses (`refusal`, its exception class) with one sentence. Safe to call again."""
    import nbgrader.utils

    nbgrader.utils.parse_utc = parse_utc
    if not getattr(sys.excepthook, "due_dates", False):
        sys.excepthook = _said(sys.excepthook, refusal)


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


def require_plain_roster_ids(rule_broken):
    """Make nbgrader's `db student add` and `db student import` refuse ids that are not plain: `rule_broken(id)` is the
    sentence that says how an id breaks the rule, or None. Safe to call again."""
    import nbgrader.apps.dbapp

    if not getattr(nbgrader.apps.dbapp.DbStudentAddApp.start, "checks_ids", False):
        nbgrader.apps.dbapp.DbStudentAddApp.start = _refusing(nbgrader.apps.dbapp.DbStudentAddApp.start,
                                                              lambda app: app.extra_args[:1], rule_broken)
        nbgrader.apps.dbapp.DbStudentImportApp.start = _refusing(nbgrader.apps.dbapp.DbStudentImportApp.start,
                                                                 _imported_ids, rule_broken)


def _imported_ids(app):
    """The ids of the students file `nbgrader db student import FILE` reads, as it reads them ([] if none)."""
    path = app.extra_args[0] if len(app.extra_args) == 1 else None
    if not path or not os.path.isfile(path):
        return []  # nbgrader says why
    with open(path, newline="") as handle:
        reader = csv.DictReader(handle)
        reader.fieldnames = [key.strip() for key in reader.fieldnames or ()]
        return [row["id"] for row in reader if "id" in row]


def _refusing(start, ids, rule_broken):
    """`start` of an nbgrader app, refusing (app.fail: exit 1, nothing written) when an id `ids(app)` gives breaks
    the rule (`rule_broken`)."""
    def start_checked(self):
        broken = [said for said in map(rule_broken, ids(self)) if said]
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


def bound_late_penalty(step, notebook, penalty):
    """`penalty` kept between 0 and `notebook.score` as nbgrader's AssignLatePenalties (`step`) keeps it, warnings and
    all."""
    return step._check_late_penalty(notebook, penalty)
