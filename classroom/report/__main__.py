"""The class report's command line: `python -m classroom.report ASSIGNMENT [--out DIR]`, from the course directory.

Reads the course (collect), then writes the PNG (figure), the CSV (spreadsheet) and the HTML page (render).
"""
import argparse
import sys
from pathlib import Path

from .read import ReportError, collect
from .spreadsheet import COLUMNS


def build(root, assignment, out):
    """Write the PNG, the CSV and the HTML page for `assignment` of the course at `root` into `out` (a folder,
    relative to `root` unless absolute). Returns the Summary and the paths written."""
    import matplotlib

    matplotlib.use("Agg")  # a file, never a window
    from .figure import draw_png
    from .render import write_html
    from .spreadsheet import write_csv

    summary = collect(root, assignment)
    out = Path(root) / out
    out.mkdir(parents=True, exist_ok=True)
    png = draw_png(summary, out / f"{assignment}.png")
    table = write_csv(summary, out)
    page = write_html(summary, out / f"{assignment}.html", png, table.name)
    return summary, [png, page, table]


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m classroom.report",
                                     description="Write a class report (PNG, HTML, CSV) from the gradebook; run "
                                                 "it from the course directory after `make autograde`.",
                                     epilog=COLUMNS)
    parser.add_argument("assignment", help="the assignment's name, e.g. score_gradient")
    parser.add_argument("--out", default="report", help="folder for the report (default: report/)")
    args = parser.parse_args(argv)
    try:
        summary, written = build(Path.cwd(), args.assignment, args.out)
    except ReportError as exc:
        print(f"classroom.report: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:  # a full disk, say: each file is the new one, whole, or the one that was there
        print(f"classroom.report: the report could not be written ({exc}); each of its files is either new and "
              "whole or as it was before. Free some space and run it again.", file=sys.stderr)
        return 1
    root = Path.cwd().resolve()
    names = [str(p.resolve().relative_to(root)) if p.resolve().is_relative_to(root) else str(p) for p in written]
    print(f"Wrote {', '.join(names)}: {len(summary.students)} students, {len(summary.attention)} needed attention"
          + (f", {len(summary.ungraded)} collected but not graded (run `make autograde`)." if summary.ungraded
             else "."))
    return 0


if __name__ == "__main__":
    sys.exit(main())
