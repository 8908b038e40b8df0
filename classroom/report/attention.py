"""Which submissions need an instructor's look, and why. Decided on data only, never on the wording of a message:
each notebook's result (classroom.grading.result, written when it was graded), the gradebook and the grading record.

  * a grade is flagged for manual grading in the gradebook (classroom.autograde does that for a file that is not a
    readable notebook, and when the grader itself failed on a notebook);
  * the result records a failure of a kind that failures.ATTENTION lists (timed out, crashed, ran out of memory,
    output cut, could not be run), in a check or in a cell the grader ran for display;
  * the result says RepairGradeCells put grade cells back, restored them (type, points, locked source changed), or
    stripped nbgrader metadata nobody issued (a repeated or unknown grade id);
  * the result says a notebook was not handed in, is not a readable notebook, or is misnamed (files that may be it
    were handed in under other names: the reason names them); or there is no result, or the grading no longer holds
    (classroom.grading.record: handed in again, the assignment changed, a grading left unfinished, graded before results
    were recorded): `make autograde` grades it again;
  * the work was handed in after the due date (with the late penalty nbgrader applied);
  * collect left files of the hand-in out (with the reason each), or the hand-in's timestamp.txt disagrees with the
    time the server saw it arrive (classroom.intake.RECEIPT, which collect writes beside the collected copy).
  * a re-submission of changed work cleared grading by hand (the result names what was cleared);
  * grading by hand is unfinished: an answer (the written derivation) still waits for its grade in the gradebook,
    so its points count 0 in every export until it is graded (named by cell);
  * a quiz handed in with other questions than the gradebook's (its quiz checks, `quiz_*`, as an earlier release
    issued them: a variant handed out before the quiz was replaced);
  * its last grading changed a notebook's score (the result records from what to what: a check fixed and released,
    a re-submission, a restored gradebook graded again).

A student can only add reasons to their own row, and none can hide one: the result is written by the grader.
"""
from ..decisions.quiz_key import PREFIX as QUIZ_PREFIX
from ..grading import result as results
from ..trusted import failures
from .model import Reason

UNFINISHED, RESCORED = "grading by hand unfinished", "score changed"  # kinds the report's command also lists
OTHER_QUIZ = "other quiz variant"
NOTHING = Reason("handed nothing in", "no submission was collected or graded: scored 0, as grades.csv has it")
MESSAGE_CHARS = 600  # a grader-written message longer than this is cut in the report


def message(text):
    """A message for the student, on one line, as the report shows it."""
    return " ".join(str(text).split())[:MESSAGE_CHARS]


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


def _graded(found, name, graded):
    """The reasons one notebook's Result gives."""
    if graded.status == results.NOT_HANDED_IN:
        found.add("not handed in", f"{name} was not handed in (nbgrader scored its checks 0)")
        return
    if graded.status == results.UNREADABLE:
        found.add("unreadable submission", f"{name} is not a readable notebook file")
    if graded.status == results.MISNAMED:
        found.add("misnamed", f"{name} was handed in under another name: the submission holds "
                  + ", ".join(graded.suspects) + ", which may be it; grade it by hand")
    if graded.rescored:
        found.add(RESCORED, f"{name}: its last grading changed its score from {graded.rescored[0]:g} to "
                  f"{graded.rescored[1]:g}")
    if graded.cleared:
        found.add("grading by hand cleared", f"{name} was handed in again with changed work, so what was graded by "
                  "hand was cleared: " + "; ".join(graded.cleared))
    failed = [(check.grade_id, check.kind, check.message) for check in graded.checks]
    for where, kind, text in failed + [(cell.cell, cell.kind, cell.message) for cell in graded.cells]:
        words = failures.ATTENTION.get(kind)
        if words:
            found.add(words, message(text) or f"{name}: {kind}", where)
    other_quiz = [g for g in graded.repairs.earlier if g.startswith(QUIZ_PREFIX)]
    if other_quiz:
        found.add(OTHER_QUIZ, f"{name} was handed in with other quiz questions than the gradebook grades: a variant "
                  "handed out before the quiz was replaced? Its answers were graded with the new variant's key; look "
                  "at it and grade it by hand", ", ".join(other_quiz))
    for grade_id in graded.repairs.missing:
        found.add("grade cells missing", f"{name} lacked grade cells; the grader put them back", grade_id)
    for grade_id in graded.repairs.changed:
        found.add("grade cells changed", f"{name} had grade cells edited or retyped; the grader restored them",
                  grade_id)
    if graded.repairs.stripped:
        found.add("grade cells changed", f"{name} had {graded.repairs.stripped} cells carrying nbgrader metadata "
                  "nobody issued (a repeated or unknown grade id); the grader made them plain cells")


def reasons(handed, flagged, late=0.0, penalty=0.0, collected=None, waiting=()):
    """(Reason, ...) why one submission needs a look; empty if it needs none.

    handed: [Handed], one per notebook of the assignment; flagged: the grade ids the gradebook marks for manual
    grading; collected: collect's receipt of the hand-in (classroom.intake.read_receipt), {} or None for none;
    waiting: the answers ("notebook.ipynb grade id") that still wait for their grade by hand.
    """
    found = _Reasons()
    collected = collected or {}
    for entry in collected.get("dropped") or ():
        if isinstance(entry, list) and len(entry) == 2:
            found.add("left out at collect", message(entry[1]), message(entry[0]))
    if collected.get("time_disagrees") is True:
        found.add("hand-in time", f"its timestamp.txt said {message(collected.get('timestamp_txt'))[:60]!r}; the "
                  f"server saw the hand-in last change at {message(collected.get('arrived'))}, the time used")
    if late > 0:
        found.add("late", f"handed in {_duration(late)} after the due date; late penalty {penalty:g} points")
    if flagged:
        found.add("flagged for manual grading", f"{len(flagged)} checks wait for a grade by hand in the gradebook")
    for where in waiting:
        found.add(UNFINISHED, "an answer waits for its grade in the formgrader's Manual Grading; "
                  "its points count 0 in grades.csv and are left out of `make lms-grades` until then", where)
    for nb in handed:
        name = f"{nb.notebook}.ipynb"
        if nb.result is not None:
            _graded(found, name, nb.result)
        if nb.stale:
            found.add("not graded", f"{name}: its grading is out of date ({nb.stale}): run `make autograde`")
        elif nb.result is None and nb.handed_in:
            found.add("not graded", f"{name} has no grading result (graded by an earlier version of the grader, or "
                      "by plain nbgrader): run `make autograde`")
        elif nb.result is None:
            found.add("not handed in", f"{name} was not handed in (nbgrader scored its checks 0)")
    return found.result()
