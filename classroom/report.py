"""A class report after grading: a PNG to glance at, an HTML page for detail and a grade CSV beside them.

    python -m classroom.report ASSIGNMENT [--out report/]        (run from the course directory)

Reads the gradebook (nbgrader's Gradebook, at the db URL the course's nbgrader_config.py gives), the autograded
notebooks (autograded/<student>/<assignment>/) and the submitted ones (submitted/<student>/<assignment>/), and writes

  <out>/<assignment>.png   the histogram of total scores, and the share of the class failing each check;
  <out>/<assignment>.html  the same figure (embedded, with its numbers in the alt text), then as tables: the score
                           distribution, every check with what it detects, its points, the share failing and the
                           most common failure messages, and the submissions that needed attention, with why;
  <out>/grades.csv         one row per student (the columns are listed in CSV_NOTE below).

What a check "detects" is the one-line docstring that opens its grade cell (read as a string literal, nothing else of
the cell), and its failure messages are the `evalue`s of the error the grader wrote as the cell's output in the
autograded notebook: the same student-facing sentences the feedback shows. No other text of a grade cell is read, so
the hidden tests' code cannot reach the report.

A submission "needed attention" when (the signals, all read from files nbgrader leaves behind, not from logs):
  * a grade is flagged for manual grading in the gradebook (classroom.autograde does that, with an explanation in
    the autograded notebook, when nbgrader could not process a submission);
  * a message the grader wrote says it timed out, crashed (died, exited, was killed), ran out of memory, cut the
    output, or could not run the notebook;
  * the submitted notebook lacks grade cells, or has them changed (source, type, points, id): the grader put them
    back from the gradebook. This compares submitted/ with the gradebook, the same comparison RepairGradeCells
    makes, so it does not depend on keeping the autograde log;
  * a notebook of the assignment was not handed in, or was handed in but has no autograded copy (or an out-of-date
    one): grade it with `make autograde`.
"""
import argparse
import ast
import base64
import csv
import html
import io
import json
import re
import sys
from collections import Counter, namedtuple
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

MESSAGES_SHOWN = 3  # most common failure messages listed per check
CSV_NOTE = ("grades.csv: one row per student: student_id, raw_score, late_submission_penalty, score (raw_score - "
            "late_submission_penalty) and max_score as in `nbgrader export`, then needs_attention (yes/no) and "
            "attention (the reasons, '; '-separated), then one column per notebook (its score), then one column per "
            "check (its grade_id: the score of that check).")

# Grader-written messages that mean a submission needs a look, by kind. Checked in this order; first match wins.
ATTENTION_PATTERNS = [
    ("timed out", re.compile(r"did not (return|finish) within|ran for more than|used up the [\d.]+ ?s|timed? ?out",
                             re.I)),
    ("crashed", re.compile(r"exited with status|killed by signal|\bdied\b|KernelDied|stopped the kernel|"
                           r"stopped calling your function|could not recover", re.I)),
    ("ran out of memory", re.compile(r"MemoryError|out of memory", re.I)),
    ("output cut", re.compile(r"output cut", re.I)),
    ("could not be run", re.compile(r"could not (be )?run|could not process", re.I)),
]
# Error names the display run (ExecuteForDisplay) writes itself; other errors in non-grade cells are the student's.
GRADER_ERRORS = {"KernelDied", "CellTimeoutError", "DeadKernelError", "CellControlSignal", "TimeoutError",
                 "NotGraded"}
# Stream text the display run writes itself.
# (A cell skipped after a crash or a hang is not listed again: the cell that crashed or hung already is.)
GRADER_NOTES = re.compile(r"\[output cut by the grader[^\]]*\]|The grader did not run this cell: an earlier cell "
                          r"used up [^\n]*")
HIDDEN = re.compile(r"^[ \t]*### BEGIN HIDDEN TESTS.*?^[ \t]*### END HIDDEN TESTS[ \t]*\n?", re.S | re.M)


SourceCell = namedtuple("SourceCell", "name cell_type source locked")


class ReportError(Exception):
    """Bad input: the message says what to do."""


@dataclass
class Check:
    notebook: str
    grade_id: str
    points: float
    description: str  # the grade cell's docstring: what it checks, hence the mistake it detects
    hidden: bool
    failing: int = 0
    handed_in: int = 0
    messages: Counter = field(default_factory=Counter)

    @property
    def share_failing(self):
        return self.failing / self.handed_in if self.handed_in else 0.0


@dataclass
class Reason:
    kind: str
    detail: str
    where: list = field(default_factory=list)

    def text(self):
        where = ""
        if self.where:
            shown = ", ".join(self.where[:4]) + (f" and {len(self.where) - 4} more" if len(self.where) > 4 else "")
            where = f" [{shown}]"
        return f"{self.kind}: {self.detail}{where}"


@dataclass
class Student:
    id: str
    raw_score: float
    penalty: float
    max_score: float
    notebooks: dict  # {notebook: score}
    checks: dict     # {grade_id: score}
    reasons: list = field(default_factory=list)

    @property
    def score(self):
        return self.raw_score - self.penalty


@dataclass
class Summary:
    assignment: str
    course_id: str
    max_score: float
    notebooks: list  # [(name, max score)]
    checks: list     # [Check]
    students: list   # [Student]

    @property
    def histogram(self):
        """[(total score, number of students)], lowest score first."""
        return sorted(Counter(s.score for s in self.students).items())

    @property
    def attention(self):
        return [s for s in self.students if s.reasons]


# ---- reading --------------------------------------------------------------------------------------------------
def course_directory(root):
    """nbgrader's CourseDirectory configured by the course's nbgrader_config.py (db URL, directory names)."""
    from nbgrader.coursedir import CourseDirectory
    from traitlets.config.loader import PyFileConfigLoader

    root = Path(root).resolve()
    if not (root / "nbgrader_config.py").exists():
        raise ReportError(f"there is no nbgrader_config.py in {root}: run this from the course directory "
                          "(the repository root)")
    config = PyFileConfigLoader("nbgrader_config.py", path=str(root)).load_config()
    return CourseDirectory(config=config, root=str(root))


def describe(source):
    """The docstring opening a grade cell's source (only that string literal, never any other text of the cell)."""
    try:
        value = ast.get_docstring(ast.parse(source or ""), clean=True)
        if value:
            return " ".join(value.split())
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        pass
    lines = (source or "").lstrip().splitlines()  # a cell that does not parse: its first line, if a literal
    if not lines:
        return ""
    try:
        value = ast.literal_eval(lines[0].strip())
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return ""
    return " ".join(value.split()) if isinstance(value, str) else ""


def _read_notebook(path):
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _meta(cell):
    meta = cell.get("metadata", {}).get("nbgrader")
    return meta if isinstance(meta, dict) else {}


def _source(cell):
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def _kind(message):
    for kind, pattern in ATTENTION_PATTERNS:
        if pattern.search(message):
            return kind
    return None


def _graded_messages(nb):
    """({grade_id: message of its error output}, [(cell name, grader-written text)] for every code cell)."""
    verdicts, grader_text = {}, []
    for index, cell in enumerate(nb.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        meta = _meta(cell)
        name = meta.get("grade_id") or f"cell {index + 1}"
        is_check = meta.get("grade") and not meta.get("solution")
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                message = " ".join(str(out.get("evalue", "")).split())[:600]
                if is_check:
                    verdicts.setdefault(name, message or out.get("ename", "error"))
                    grader_text.append((name, message))
                elif out.get("ename") in GRADER_ERRORS:
                    grader_text.append((name, message))
            elif out.get("output_type") == "stream":
                text = out.get("text", "")
                for note in GRADER_NOTES.findall("".join(text) if isinstance(text, list) else str(text)):
                    grader_text.append((name, note))
    return verdicts, grader_text


def _repairs(submitted_nb, source_cells, points):
    """([missing grade ids], [changed grade ids]) of a submitted notebook against the gradebook."""
    known = {cell.name: cell for cell in source_cells if cell.name in points}
    seen, changed = set(), []
    for cell in submitted_nb.get("cells", []):
        meta = _meta(cell)
        name = meta.get("grade_id")
        if name not in known:
            continue
        if name in seen:
            changed.append(name)  # a duplicate of a grade cell: dropped by the grader
            continue
        seen.add(name)
        original = known[name]
        visible = HIDDEN.sub("", original.source or "")
        if (cell.get("cell_type") != original.cell_type or not meta.get("grade")
                or _points(meta.get("points")) != float(points[name])
                or (original.locked and _source(cell).strip() != visible.strip())):
            changed.append(name)
    missing = [name for name in known if name not in seen]
    return missing, sorted(set(changed), key=list(known).index)


def _points(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _timestamp(folder):
    path = Path(folder) / "timestamp.txt"
    return path.read_text().strip() if path.exists() else None


def collect(root, assignment):
    """Everything the report shows, read from the gradebook and the notebooks of the course at `root`."""
    from nbgrader.api import Gradebook, MissingEntry

    coursedir = course_directory(root)
    db_url = coursedir.db_url
    if db_url.startswith("sqlite:///") and not Path(db_url[len("sqlite:///"):]).exists():
        raise ReportError(f"there is no gradebook ({db_url[len('sqlite:///'):]}): nothing has been graded in this "
                          "course yet. Collect the submissions and run `make autograde` first.")
    with Gradebook(db_url) as gb:
        try:
            source = gb.find_assignment(assignment)
        except MissingEntry:
            known = ", ".join(sorted(a.name for a in gb.assignments)) or "none"
            raise ReportError(f"the gradebook has no assignment {assignment!r} (it has: {known}). Check the name; "
                              "an assignment enters the gradebook with `make release`.") from None
        notebooks = sorted(source.notebooks, key=lambda nb: (nb.name != assignment, nb.name))
        checks, cells_of = [], {}
        for nb in notebooks:
            points = {cell.name: float(cell.max_score) for cell in nb.grade_cells}
            sources = {cell.name: cell for cell in nb.source_cells}
            order = [c.name for c in nb.source_cells if c.name in points] + \
                    sorted(n for n in points if n not in sources)
            solutions = {cell.name for cell in nb.solution_cells}
            cells_of[nb.name] = ([SourceCell(c.name, c.cell_type, c.source or "", bool(c.locked))
                                  for c in nb.source_cells], points)
            for name in order:
                if name in solutions:
                    continue  # an autograded answer cell is graded by running it, not a check of its own
                text = sources[name].source if name in sources else ""
                checks.append(Check(nb.name, name, points[name], describe(text), "BEGIN HIDDEN TESTS" in text))
        submissions = list(gb.assignment_submissions(assignment))
        if not submissions:
            raise ReportError(f"nothing has been graded for {assignment!r} yet: collect the submissions "
                              f"(`nbgrader collect {assignment}`) and run `make autograde` first.")
        students = []
        for sub in sorted(submissions, key=lambda s: s.student.id):
            grades = {nb.name: {g.name: (float(g.score), float(g.max_score)) for g in nb.grades}
                      for nb in sub.notebooks}
            student = Student(sub.student.id, float(sub.score), float(sub.late_submission_penalty or 0.0),
                              float(sub.max_score), {nb.name: float(nb.score) for nb in sub.notebooks},
                              {g.name: float(g.score) for nb in sub.notebooks for g in nb.grades})
            flagged = [g.name for nb in sub.notebooks for g in nb.grades if g.needs_manual_grade]
            students.append((student, grades, flagged))
        max_score = float(source.max_score)
        course_id = coursedir.course_id
    by_id = {(c.notebook, c.grade_id): c for c in checks}
    for student, grades, flagged in students:
        _read_student(coursedir, assignment, notebooks, cells_of, by_id, student, grades, flagged)
    return Summary(assignment, course_id, max_score, [(nb.name, float(nb.max_score)) for nb in notebooks], checks,
                   [s for s, _, _ in students])


def _read_student(coursedir, assignment, notebooks, cells_of, by_id, student, grades, flagged):
    submitted = Path(coursedir.format_path(coursedir.submitted_directory, student.id, assignment))
    autograded = Path(coursedir.format_path(coursedir.autograded_directory, student.id, assignment))
    reasons = {}

    def add(kind, detail, where=None):
        reason = reasons.setdefault((kind, detail), Reason(kind, detail))
        if where and where not in reason.where:
            reason.where.append(where)

    if flagged:
        add("flagged for manual grading", f"{len(flagged)} checks wait for a grade by hand in the gradebook")
    for nb in notebooks:
        sub_path, graded_path = submitted / f"{nb.name}.ipynb", autograded / f"{nb.name}.ipynb"
        handed_in = sub_path.exists() or (graded_path.exists() and not submitted.exists())
        if not handed_in:
            add("not handed in", f"{nb.name}.ipynb was not handed in (nbgrader scored its checks 0)")
            continue
        graded = _read_notebook(graded_path) if graded_path.exists() else None
        if graded is None:
            add("not graded", f"{nb.name}.ipynb has no readable autograded copy: run `make autograde`")
        elif submitted.exists() and _timestamp(submitted) != _timestamp(autograded):
            add("not graded", f"{nb.name}.ipynb was submitted again after grading: run `make autograde`")
        verdicts, grader_text = _graded_messages(graded or {})
        for where, message in grader_text:
            kind = _kind(message)
            if kind:
                add(kind, message, where)
        if sub_path.exists():
            handed = _read_notebook(sub_path)
            if handed is None:
                add("unreadable submission", f"{nb.name}.ipynb is not a readable notebook file")
            else:
                missing, changed = _repairs(handed, *cells_of[nb.name])
                for name in missing:
                    add("grade cells missing", f"{nb.name}.ipynb lacked grade cells; the grader put them back",
                        name)
                for name in changed:
                    add("grade cells changed", f"{nb.name}.ipynb had grade cells edited, retyped or duplicated; "
                        "the grader restored them", name)
        for (notebook, grade_id), check in by_id.items():
            if notebook != nb.name or grade_id not in grades.get(nb.name, {}):
                continue
            check.handed_in += 1
            score, max_score = grades[nb.name][grade_id]
            if score < max_score:
                check.failing += 1
                check.messages[verdicts.get(grade_id, "no message (no error output in the autograded notebook)")] += 1
    student.reasons = list(reasons.values())


# ---- writing --------------------------------------------------------------------------------------------------
def _fmt(x):
    return f"{x:g}"


def _pct(share):
    return f"{100 * share:.0f}%"


def histogram_text(summary):
    counts = "; ".join(f"{_fmt(score)} points: {n}" for score, n in summary.histogram)
    return (f"Histogram of total scores out of {_fmt(summary.max_score)} for {len(summary.students)} students "
            f"(score: number of students): {counts}.")


def failing_text(summary):
    parts = "; ".join(f"{c.grade_id}: {c.failing} of {c.handed_in} ({_pct(c.share_failing)})"
                      for c in summary.checks)
    return f"Share of the students who handed the notebook in failing each check: {parts}."


def draw_png(summary, path):
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch
    from matplotlib.ticker import MaxNLocator

    from attention_lesson.style import OKABE_ITO, figure

    checks = summary.checks
    height = max(4.0, 0.32 * len(checks) + 1.6)
    fig, (hist, bars) = figure(1, 2, figsize=(13, height), gridspec_kw={"width_ratios": [1, 1.5]},
                               constrained_layout=True)
    top = int(summary.max_score) if float(summary.max_score).is_integer() else int(summary.max_score) + 1
    counts = Counter(min(int(s.score // 1), top) for s in summary.students)
    xs = list(range(0, top + 1))
    hist.bar(xs, [counts.get(x, 0) for x in xs], width=0.85, color=OKABE_ITO["blue"], edgecolor="black",
             linewidth=0.5)
    for x in xs:
        if counts.get(x):
            hist.annotate(str(counts[x]), (x, counts[x]), ha="center", va="bottom", fontsize=9,
                          xytext=(0, 2), textcoords="offset points")
    hist.set_xlim(-0.7, top + 0.7)
    hist.set_ylim(0, max(counts.values(), default=1) * 1.18 + 0.2)
    hist.yaxis.set_major_locator(MaxNLocator(integer=True))
    hist.xaxis.set_major_locator(MaxNLocator(integer=True))
    hist.set_xlabel(f"total score (out of {_fmt(summary.max_score)})")
    hist.set_ylabel("number of students")
    hist.set_title(f"{summary.assignment}: total scores of {len(summary.students)} students")

    palette = [OKABE_ITO[c] for c in ("orange", "sky blue", "reddish purple", "bluish green", "vermillion")]
    colour = {name: palette[i % len(palette)] for i, (name, _) in enumerate(summary.notebooks)}
    ys = list(range(len(checks)))[::-1]
    bars.barh(ys, [100 * c.share_failing for c in checks], color=[colour[c.notebook] for c in checks],
              edgecolor="black", linewidth=0.5)
    for y, c in zip(ys, checks):
        bars.annotate(f"{c.failing}/{c.handed_in} ({_pct(c.share_failing)})", (100 * c.share_failing, y),
                      va="center", fontsize=8, xytext=(3, 0), textcoords="offset points")
    bars.set_yticks(ys, [f"{c.grade_id} ({_fmt(c.points)} pt)" for c in checks], fontsize=8)
    bars.set_xlim(0, 118)
    bars.set_xticks(range(0, 101, 20))
    bars.set_xlabel("students failing the check (% of those who handed in its notebook)")
    bars.set_title("share of the class failing each check")
    bars.legend(handles=[Patch(facecolor=colour[name], edgecolor="black", label=f"{name}.ipynb")
                         for name, _ in summary.notebooks], loc="lower right", fontsize=8)
    path = Path(path)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def write_csv(summary, path):
    notebook_names = [name for name, _ in summary.notebooks]
    check_ids = [c.grade_id for c in summary.checks]
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["student_id", "raw_score", "late_submission_penalty", "score", "max_score",
                         "needs_attention", "attention", *[f"{n}.ipynb" for n in notebook_names], *check_ids])
        for s in summary.students:
            writer.writerow([s.id, _fmt(s.raw_score), _fmt(s.penalty), _fmt(s.score), _fmt(s.max_score),
                             "yes" if s.reasons else "no", "; ".join(r.text() for r in s.reasons),
                             *[_fmt(s.notebooks.get(n, 0.0)) for n in notebook_names],
                             *[_fmt(s.checks.get(g, 0.0)) for g in check_ids]])
    return Path(path)


CSS = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 72em; color: #111; line-height: 1.4; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #bbb; padding: 0.3em 0.6em; text-align: left; vertical-align: top; }
th { background: #eee; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: 1em 0; } figcaption { font-size: 0.9em; color: #333; }
img { max-width: 100%; height: auto; }
ul { margin: 0; padding-left: 1.2em; } .muted { color: #555; font-size: 0.9em; }
"""


def _table(table_id, head, rows, numeric=()):
    e = html.escape
    out = [f'<table id="{table_id}">', "<thead><tr>" + "".join(f"<th>{e(h)}</th>" for h in head) + "</tr></thead>",
           "<tbody>"]
    for row in rows:
        cells = []
        for i, value in enumerate(row):
            cls = ' class="num"' if i in numeric else ""
            cells.append(f"<td{cls}>{value}</td>")  # values are escaped by the caller (some hold lists)
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


def _list(items):
    return "<ul>" + "".join(f"<li>{item}</li>" for item in items) + "</ul>" if items else ""


def write_html(summary, path, png_path, csv_name):
    e = html.escape
    png = base64.b64encode(Path(png_path).read_bytes()).decode("ascii")
    scores = [s.score for s in summary.students]
    mean = sum(scores) / len(scores)
    ordered = sorted(scores)
    mid = len(ordered) // 2
    median = ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2
    attention = summary.attention
    alt = histogram_text(summary) + " " + failing_text(summary)

    distribution = _table("score-distribution", ["total score", "students"],
                          [(e(_fmt(score)), str(n)) for score, n in summary.histogram], numeric=(0, 1))
    check_rows = []
    for c in summary.checks:
        common = c.messages.most_common()
        shown = [f"{n} &times; {e(message)}" for message, n in common[:MESSAGES_SHOWN]]
        if len(common) > MESSAGES_SHOWN:
            others = sum(n for _, n in common[MESSAGES_SHOWN:])
            rest = len(common) - MESSAGES_SHOWN
            shown.append(f"{others} &times; {rest} other message{'s' if rest > 1 else ''}")
        check_rows.append((e(f"{c.notebook}.ipynb"), f"<code>{e(c.grade_id)}</code>", e(c.description),
                           "hidden" if c.hidden else "visible", e(_fmt(c.points)), str(c.failing), str(c.handed_in),
                           e(_pct(c.share_failing)), _list(shown)))
    checks = _table("checks", ["notebook", "check", "what it checks (a failure is the mistake that breaks this)",
                               "test", "points", "failing", "handed in", "share failing",
                               "most common failure messages"], check_rows, numeric=(4, 5, 6, 7))
    attention_rows = [(e(s.id), e(_fmt(s.score)), _list([f"<strong>{e(r.kind)}</strong>: {e(r.detail)}"
                                                          + (f" <span class='muted'>({e(', '.join(r.where))})"
                                                             "</span>" if r.where else "")
                                                          for r in s.reasons]))
                      for s in attention]
    attention_table = (_table("attention", ["student", "score", "why it needed attention"], attention_rows,
                              numeric=(1,)) if attention_rows
                       else '<p id="attention">No submission needed attention.</p>')
    notebook_names = [name for name, _ in summary.notebooks]
    student_rows = [(e(s.id), *[e(_fmt(s.notebooks.get(n, 0.0))) for n in notebook_names], e(_fmt(s.score)),
                     "yes" if s.reasons else "no") for s in summary.students]
    students = _table("students", ["student", *[f"{n}.ipynb" for n in notebook_names],
                                   f"score (out of {_fmt(summary.max_score)})", "needed attention"],
                      student_rows, numeric=tuple(range(1, len(notebook_names) + 2)))
    notebooks = ", ".join(f"{e(name)}.ipynb ({_fmt(points)} points)" for name, points in summary.notebooks)
    page = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{e(summary.assignment)}: class report</title>
<style>{CSS}</style></head>
<body>
<h1>{e(summary.assignment)}: class report</h1>
<p>Course <code>{e(summary.course_id)}</code>; {notebooks}; {len(summary.students)} students graded,
mean <span id="mean">{e(f"{mean:.2f}")}</span>, median <span id="median">{e(_fmt(median))}</span> out of
{e(_fmt(summary.max_score))}; <a href="#attention-section">{len(attention)} needed attention</a>.
Grades per student and per check: <a href="{e(csv_name)}">{e(csv_name)}</a>.
<span class="muted">Written {e(datetime.now().strftime("%Y-%m-%d %H:%M"))} from the gradebook and the autograded
notebooks.</span></p>
<figure>
<img src="data:image/png;base64,{png}" alt="{e(alt)}">
<figcaption id="caption">Left: how many students reached each total score (out of {e(_fmt(summary.max_score))}).
Right: the share of the students who handed a notebook in who failed each of its checks, coloured by notebook
(Okabe&ndash;Ito colours, safe for colour-blind readers). The tables below give the same numbers.</figcaption>
</figure>
<h2>Score distribution</h2>
{distribution}
<h2>Checks</h2>
<p class="muted">Each check is named by its grade id and described by its one-line docstring; a student fails it by
making the opposite mistake. Messages are the sentences students see in their feedback, counted over the students
who failed. A check counts only students who handed in its notebook.</p>
{checks}
<h2 id="attention-section">Submissions that needed attention</h2>
<p class="muted">Flagged for manual grading, timed out, crashed, ran out of memory, output cut, not run; grade cells
missing from or changed in the submission (the grader put them back); a notebook not handed in or not graded.</p>
{attention_table}
<h2>Students</h2>
{students}
</body></html>
"""
    Path(path).write_text(page, encoding="utf-8")
    return Path(path)


def build(root, assignment, out):
    """Write the PNG, the HTML page and the CSV for `assignment` of the course at `root` into `out`."""
    summary = collect(root, assignment)
    out = Path(root) / out if not Path(out).is_absolute() else Path(out)
    out.mkdir(parents=True, exist_ok=True)
    png = draw_png(summary, out / f"{assignment}.png")
    grades = write_csv(summary, out / "grades.csv")
    page = write_html(summary, out / f"{assignment}.html", png, grades.name)
    return summary, [png, page, grades]


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m classroom.report",
                                     description="Write a class report (PNG, HTML, CSV) from the gradebook; run "
                                                 "it from the course directory after `make autograde`.",
                                     epilog=CSV_NOTE)
    parser.add_argument("assignment", help="the assignment's name, e.g. score_gradient")
    parser.add_argument("--out", default="report", help="folder for the report (default: report/)")
    args = parser.parse_args(argv)
    import matplotlib

    matplotlib.use("Agg")  # a file, never a window
    try:
        summary, written = build(Path.cwd(), args.assignment, args.out)
    except ReportError as exc:
        print(f"classroom.report: {exc}", file=sys.stderr)
        return 1
    root = Path.cwd().resolve()
    names = [str(p.resolve().relative_to(root)) if p.resolve().is_relative_to(root) else str(p) for p in written]
    print(f"Wrote {', '.join(names)}: {len(summary.students)} students, {len(summary.attention)} needed attention.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
