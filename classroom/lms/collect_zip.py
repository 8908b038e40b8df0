"""`make collect-zip ZIP=...` (`python -m classroom.lms.collect_zip ASSIGNMENT ZIP`): an LMS's bulk download of
submissions into submitted/<student>/<assignment>/, then a report of every file placed and every file not placed.

It is nbgrader's own `zip_collect` (ZipCollectApp): the zip is copied into downloaded/<assignment>/archive/ (whatever
was there before is removed: it is this command's own staging folder), unpacked by SafeExtractor into
downloaded/<assignment>/extracted/, and each file placed as LmsCollector decides, with timestamp.txt holding its
submission time; a student's submitted folder is replaced by what this zip holds for them (--force), the others are
left as they are. Both plugins are used whatever nbgrader_config.py says, so this command is never the unsafe one.
What each placed file came from (the LMS, its ids) is kept in downloaded/<assignment>/lms-collected.json, which
`make lms-feedback` reads (Canvas's feedback upload names the student's submitted file).
"""
import json
import os
import shutil
import sys

from nbgrader.apps.zipcollectapp import ZipCollectApp

from .. import atomic
from ..nbgrader_seams import collect_path
from .collector import LmsCollector
from .extractor import SafeExtractor

MANIFEST = "lms-collected.json"


class LmsCollectApp(ZipCollectApp):
    name = "classroom-lms-collect"

    def init_plugins(self):
        self.extractor_plugin, self.collector_plugin = SafeExtractor, LmsCollector
        super().init_plugins()


def zip_collect(assignment, zip_path, config=None):
    """Run zip_collect on `zip_path` for `assignment` in the current course directory, with `config` (the course's,
    as the command read it); the app, once done."""
    app = LmsCollectApp()
    app.initialize([assignment, "--force"])
    if config is not None:  # the command's own reading (nbgrader_config.py, then its command line) has the last word
        app.update_config(config)
    archive = collect_path(app, app.archive_directory)
    if os.path.realpath(zip_path).startswith(os.path.realpath(archive) + os.sep):
        raise SystemExit(f"{zip_path} lies in {archive}, which this command empties first: move it elsewhere")
    if os.path.isdir(archive):
        shutil.rmtree(archive)
    os.makedirs(archive)
    shutil.copyfile(zip_path, os.path.join(archive, os.path.basename(zip_path)))
    app.start()
    save_manifest(collect_path(app, MANIFEST), app.collector_plugin_inst.placed)
    return app


def save_manifest(path, placed):
    """Add what was placed to the manifest (one entry per student and notebook, the latest collect's)."""
    try:
        with open(path, encoding="utf-8") as handle:
            entries = json.load(handle)
    except (OSError, ValueError):
        entries = {}
    for item in placed:
        entries.setdefault(item.student_id, {})[item.notebook] = {
            "member": item.member, "lms": item.info.lms, "lms_id": item.info.lms_id,
            "attachment": item.info.attachment, "late": item.info.late,
            "timestamp": None if item.timestamp is None else str(item.timestamp)}
    with atomic.replacing(path, encoding="utf-8") as handle:
        json.dump(entries, handle, indent=1, sort_keys=True)


def load_manifest(app):
    try:
        with open(collect_path(app, MANIFEST), encoding="utf-8") as handle:
            return json.load(handle)
    except (OSError, ValueError):
        return {}


def report(app):
    """The lines an instructor reads: each file placed, each not placed and why."""
    placed = app.collector_plugin_inst.placed
    refused = app.extractor_plugin_inst.refused + app.collector_plugin_inst.refused
    lines = [f"Placed {len(placed)} notebooks:"]
    for item in placed:
        late = " (Canvas: LATE)" if item.info.late else ""
        where = f" in {item.archive}" if item.archive else ""
        when = f"submitted {item.timestamp} UTC" if item.timestamp is not None else "no submission time"
        lines.append(f"  {item.member!r}{where} -> {item.student_id}/{item.notebook}, {when}{late}")
    lines.append(f"Not placed: {len(refused)} files." if refused else "Every file was placed.")
    lines += [f"  {refusal}" for refusal in refused]
    return lines


def collect_command(config, assignment, zip_path):
    """`classroom collect-zip`: collect the zip and say what was placed and what was not; the exit status."""
    if not os.path.isfile(zip_path):
        print(f"classroom collect-zip: no such file: {zip_path!r} (make collect-zip ZIP=path/to/the/download.zip): "
              "nothing was collected", file=sys.stderr)
        return 2
    app = zip_collect(assignment, zip_path, config=config)
    print("\n".join(report(app)))
    return 0

