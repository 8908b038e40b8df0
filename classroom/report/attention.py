"""Which submissions need an instructor's look, and why. Decided on data only, never on the wording of a message:

  * a grade is flagged for manual grading in the gradebook (classroom.autograde does that for a file that is not a
    readable notebook, and when the grader itself failed on a notebook);
  * the grader recorded a failure of a kind that failures.ATTENTION lists (timed out, crashed, ran out of memory,
    output cut, could not be run): the kind is the error output's `ename` (see `kind`, the one place that reads it);
  * the submitted notebook lacks grade cells, or has them changed (type, points, locked source) or duplicated: the
    grader put them back from the gradebook (a cell exactly as an earlier release issued it, before the assignment
    was changed, is no change). This is the comparison RepairGradeCells makes, redone from submitted/ and the
    gradebook, so it does not depend on keeping the autograde log;
  * a notebook was not handed in, is not a notebook, has no autograded copy, or its grading no longer holds
    (classroom.grading.record: handed in again, the assignment changed, a grading left unfinished);
  * the work was handed in after the due date (with the late penalty nbgrader applied);
  * collect left files of the hand-in out (with the reason each), or the hand-in's timestamp.txt disagrees with the
    time the server saw it arrive (classroom.intake.RECORD, which collect writes beside the collected copy).

A student can only add reasons to their own row (their own cell may raise an exception named like a kind). The one
reason a student could hide is "grade cells changed", by forging nbgrader's checksum of an edited cell; the grader
restores such a cell all the same, so no grade depends on it.
"""

from ..trusted import failures
from .. import cells as cell_meta
from . import notebook
from .model import Reason



def kind(output):
    """The failure kind an output of an autograded notebook records (its `ename`, one of failures.KINDS), or None."""
    if not isinstance(output, dict) or output.get("output_type") != "error":
        return None
    ename = output.get("ename")
    return ename if ename in failures.KINDS else None


def _points(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def as_released(cell):
    """True if a grade cell is exactly as some release of the assignment issued it: nbgrader's checksum of the cell
    matches the one the release wrote into it. A cell from an earlier release, before the instructor changed the
    assignment, is no edit of the student's."""
    from nbformat import from_dict
    from nbgrader.utils import compute_checksum

    try:
        return cell_meta.nbgrader(cell).get("checksum") == compute_checksum(
            from_dict(dict(cell, source=cell_meta.source(cell))))
    except (KeyError, TypeError, ValueError, AttributeError):
        return False


def repairs(submitted, cells, points):
    """([missing grade ids], [changed grade ids]) of a submitted notebook against the gradebook's `cells`
    ([classroom.cells.SourceCell]) and `points` ({grade_id: points})."""
    known = {cell.name: cell for cell in cells if cell.name in points}
    seen, changed = set(), []
    for cell in notebook.cells(submitted):
        name = cell_meta.grade_id(cell)
        if name not in known:
            continue
        if name in seen:
            changed.append(name)  # a duplicate of a grade cell: dropped by the grader
            continue
        seen.add(name)
        original, meta = known[name], cell_meta.nbgrader(cell)
        visible = cell_meta.HIDDEN.sub("", original.source or "")
        if (cell.get("cell_type") != original.cell_type or not meta.get("grade")
                or _points(meta.get("points")) != float(points[name])
                or (original.locked and cell_meta.source(cell).strip() != visible.strip())) and not as_released(cell):
            changed.append(name)
    missing = [name for name in known if name not in seen]
    return missing, sorted(set(changed), key=list(known).index)


class _Reasons:
    """Reasons in the order found; the same (words, detail) met again only adds to where it happened."""

    def __init__(self):
        self._found = {}

    def add(self, words, detail, where=None):
        listed = self._found.setdefault((words, detail), [])
        if where and where not in listed:
            listed.append(where)

    def result(self):
        return tuple(Reason(words, detail, tuple(where)) for (words, detail), where in self._found.items())


def _duration(seconds):
    days, rest = divmod(int(round(seconds)), 86400)
    hours, rest = divmod(rest, 3600)
    return (f"{days} d " if days else "") + f"{hours} h {rest // 60:02d} min"


def reasons(handed, flagged, expected, late=0.0, penalty=0.0, collected=None):
    """(Reason, ...) why one submission needs a look; empty if it needs none.

    handed: [Handed], one per notebook of the assignment; flagged: the grade ids the gradebook marks for manual
    grading; expected: {notebook: ([SourceCell], {grade_id: points})} from the gradebook; collected: collect's record
    of the hand-in (classroom.intake.read_record), {} or None for none.
    """
    found = _Reasons()
    collected = collected or {}
    for entry in collected.get("dropped") or ():
        if isinstance(entry, list) and len(entry) == 2:
            found.add("left out at collect", str(entry[1]), str(entry[0]))
    if collected.get("time_disagrees") is True:
        found.add("hand-in time", f"its timestamp.txt said {str(collected.get('timestamp_txt'))[:60]!r}; the server "
                  f"saw the hand-in last change at {collected.get('arrived')}, the time used")
    if late > 0:
        found.add("late", f"handed in {_duration(late)} after the due date; late penalty {penalty:g} points")
    if flagged:
        found.add("flagged for manual grading", f"{len(flagged)} checks wait for a grade by hand in the gradebook")
    for nb in handed:
        name = f"{nb.notebook}.ipynb"
        if not nb.handed_in:
            found.add("not handed in", f"{name} was not handed in (nbgrader scored its checks 0)")
            continue
        if nb.autograded is None:
            found.add("not graded", f"{name} has no readable autograded copy: run `make autograde`")
        elif nb.stale:
            found.add("not graded", f"{name}: its grading is out of date ({nb.stale}): run `make autograde`")
        for where, _, output in notebook.error_outputs(nb.autograded):
            words = failures.ATTENTION.get(kind(output))
            if words:
                found.add(words, notebook.message(output) or f"{name}: {kind(output)}", where)
        if nb.unreadable:
            found.add("unreadable submission", f"{name} is not a readable notebook file")
        elif nb.submitted is not None:
            missing, changed = repairs(nb.submitted, *expected[nb.notebook])
            for grade_id in missing:
                found.add("grade cells missing", f"{name} lacked grade cells; the grader put them back", grade_id)
            for grade_id in changed:
                found.add("grade cells changed", f"{name} had grade cells edited, retyped or duplicated; the grader "
                          "restored them", grade_id)
    return found.result()
