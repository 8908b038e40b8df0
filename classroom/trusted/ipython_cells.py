"""A notebook cell as the Python IPython would run, for the grading child (which is plain Python, not IPython).

`as_python(source)` returns (code, notes). `%time STATEMENT` and `%timeit [options] STATEMENT` become the statement
itself, and a cell starting with `%%time`, `%%timeit` or `%%capture` its body, so that what they run still runs
(once) and the grader's static reading sees it. Every other IPython line (`!ls`, `x?`, `%matplotlib`, `%%bash`
cells) is transformed by IPython's own TransformerManager into a call on `get_ipython()`, which does nothing in
the grading child (classroom.trusted.server); `notes` names those lines for the feedback. Line numbers are kept.
IPython is imported only when a cell has such a line (the student's kernel imports classroom.checks.measures, which
needs none of it).
"""
import re

RUN_BODY = re.compile(r"^(\s*)%(time|timeit)\b(?:\s+-[a-zA-Z]+(?:\s+\d+)?)*\s*(.*)$")
CELL_RUN = re.compile(r"^\s*%%(time|timeit|capture)\b")
IPYTHON_LINE = re.compile(r"^\s*(%|!)|^[^#]*\?\s*$|^\s*[\w.]+\s*=\s*[!%]")


def _run_bodies(lines):
    out = []
    for line in lines:
        match = RUN_BODY.match(line)
        if match:
            line = match.group(1) + (match.group(3) or "pass") + "\n"
        out.append(line)
    return out


def as_python(source):
    """(the cell as plain Python, [notes on the IPython lines that will do nothing])."""
    lines = source.splitlines(keepends=True)
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is not None and CELL_RUN.match(lines[first]):
        lines[first] = "\n"
    lines = _run_bodies(lines)
    text = "".join(lines)
    if not any(IPYTHON_LINE.search(line) for line in lines):
        return text, []
    from IPython.core.inputtransformer2 import TransformerManager

    try:
        code = TransformerManager().transform_cell(text)
    except Exception:  # IPython could not read it either: the grading child reports the syntax error
        return text, []
    skipped = [line.strip() for line, new in zip(text.splitlines(), code.splitlines())
               if line.strip() != new.strip() and "get_ipython()" in new]
    notes = [f"the grader skipped {len(skipped)} IPython line(s) of your solution cell, which do nothing while "
             f"grading: {'; '.join(skipped)[:300]}"] if skipped else []
    return code, notes
