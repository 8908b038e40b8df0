"""The class report's run (`classroom report ASSIGNMENT [--out DIR]`, classroom.app.instructor), from the course
directory. Reads the course (read_summary), then writes the PNG (figure), the CSV (spreadsheet) and the HTML page (render).
"""
import sys
from pathlib import Path

from .attention import OTHER_QUIZ, RESCORED, UNFINISHED
from .read import ReportError, read_summary


# Reasons the command's own output names by student, besides the page and the CSV: (kind, heading).
SAID = ((UNFINISHED, "Grading by hand unfinished (these answers count 0 in grades.csv and are left "
         "out of `make lms-grades` until graded in the formgrader's Manual Grading):"),
        (OTHER_QUIZ, "Quizzes of another variant than the gradebook grades (look at them, grade them by hand):"),
        (RESCORED, "Scores changed by their last grading (`make autograde`):"))


def build(root, assignment, out):
    """Write the PNG, the CSV and the HTML page for `assignment` of the course at `root` into `out` (a folder,
    relative to `root` unless absolute). Returns the Summary and the paths written."""
    import matplotlib

    matplotlib.use("Agg")  # a file, never a window
    from .figure import draw_png
    from .render import write_html
    from .spreadsheet import write_csv

    summary = read_summary(root, assignment)
    out = Path(root) / out
    out.mkdir(parents=True, exist_ok=True)
    png = draw_png(summary, out / f"{assignment}.png")
    table = write_csv(summary, out)
    page = write_html(summary, out / f"{assignment}.html", png, table.name)
    return summary, [png, page, table]


def report_command(root, assignment, out):
    """Write the report and say what was written; the exit status (1: it could not be, and why is said)."""
    try:
        summary, written = build(root, assignment, out)
    except ReportError as exc:
        print(f"classroom report: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:  # a full disk, say: each file is the new one, whole, or the one that was there
        print(f"classroom report: the report could not be written ({exc}); each of its files is either new and "
              "whole or as it was before. Free some space and run it again.", file=sys.stderr)
        return 1
    root = Path(root).resolve()
    names = [str(p.resolve().relative_to(root)) if p.resolve().is_relative_to(root) else str(p) for p in written]
    print(f"Wrote {', '.join(names)}: {len(summary.students)} students, {len(summary.attention)} needed attention"
          + (f", {len(summary.absent)} handed nothing in ({', '.join(summary.absent)}: scored 0, as in grades.csv)"
             if summary.absent else "")
          + (f", {len(summary.ungraded)} collected but not graded (run `make autograde`)." if summary.ungraded
             else "."))
    for kind, heading in SAID:
        named = [(s.id, r) for s in summary.students for r in s.reasons if r.kind == kind]
        if named:
            print(heading)
            for who, reason in named:
                print(f"  {who}: {', '.join(reason.where) or reason.detail}")
    return 0

