"""Which file of a submission is which notebook: the exact name, or an unambiguous renamed copy of it.

Browsers and JupyterLab rename files on download and copy (`score_gradient (1).ipynb`, `score_gradient-1.ipynb`,
`score_gradient-Copy1.ipynb`, `Copy of score_gradient.ipynb`, `score_gradient copy.ipynb`). `handed_in` takes such a
copy when it is the only candidate, and says so; otherwise it says exactly which file was expected and what was found.
A notebook that is not taken but may be among the files (several renamed copies of it, or a notebook named like none
of the assignment's, such as `my_answers.ipynb`) is *misnamed*: those files are its `suspects`, the grader flags it for
grading by hand, and the feedback and the report name them. Telling which file is which reads only the folder listing
(lstat, never through a symlink).

In the staging copy of a submission (classroom.grading.staging), `set_aside` then puts each notebook to grade under
the name the assignment expects, and sets aside what cannot be graded, saying why: a file that is not a readable
notebook, one the safe copy left out; a lone surrogate in a notebook's text is mended so that it can be graded.
"""
import json
import os
import re
import stat

import nbformat

RENAMED = ["{name} ({n}).ipynb", "{name}-{n}.ipynb", "{name}_{n}.ipynb", "{name}-Copy{n}.ipynb",
           "{name}-Copy.ipynb", "Copy of {name}.ipynb", "Copy of {name} ({n}).ipynb",
           "{name} copy.ipynb", "{name} copy {n}.ipynb"]
LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def shown(name, limit=80):
    """A student's file name as the grader's notes show it: letters, digits and `_ . - ( ) + /` and spaces kept,
    anything else (markup, backticks, control characters) as `?`, at most `limit` characters."""
    safe = re.sub(r"[^A-Za-z0-9_.\-()+/ ]", "?", name)
    return safe if len(safe) <= limit else safe[:limit - 1] + "…"


def _pattern(template, name):
    escaped = re.escape(template).replace(re.escape("{name}"), re.escape(name)).replace(re.escape("{n}"), r"\d{1,3}")
    return re.compile(escaped, re.IGNORECASE)


def _regular_notebooks(folder):
    try:
        entries = os.listdir(folder)
    except OSError:
        return []
    found = []
    for entry in sorted(entries):
        try:
            if entry.endswith(".ipynb") and stat.S_ISREG(os.lstat(os.path.join(folder, entry)).st_mode):
                found.append(entry)
        except OSError:
            continue
    return found


def _candidates(present, notebook):
    patterns = [_pattern(template, notebook) for template in RENAMED]
    return [f for f in present if any(p.fullmatch(f) for p in patterns)]


def _look(folder, notebook, others):
    """(file taken or None, note or None, suspects) for `notebook` among the regular notebooks of `folder`."""
    expected = f"{notebook}.ipynb"
    present = _regular_notebooks(folder)
    if expected in present:
        return expected, None, ()
    taken = {f"{other}.ipynb" for other in others}
    candidates = [f for f in _candidates(present, notebook) if f not in taken]
    if len(candidates) == 1:
        return candidates[0], (f"You handed in this notebook as `{shown(candidates[0])}`; it was graded as "
                               f"`{expected}`, the name the assignment expects."), ()
    listing = ", ".join(f"`{shown(f)}`" for f in present[:10]) or "no notebook at all"
    if candidates:
        return None, (f"Expected `{expected}`, and the submission holds several copies of it ({listing}); none was "
                      "graded automatically, because the grader cannot tell which one you meant: your teacher will "
                      f"grade it by hand. Next time, hand in one file named `{expected}`."), tuple(candidates)
    claimed = set(taken) | {f for other in others for f in _candidates(present, other)}
    unknown = tuple(f for f in present if f not in claimed)
    if unknown:
        named = ", ".join(f"`{shown(f)}`" for f in unknown[:10])
        return None, (f"Expected `{expected}`, and the submission holds {named}, which may be it: it was not graded "
                      f"automatically; your teacher will grade it by hand. Next time, hand in a file named "
                      f"`{expected}`."), unknown
    return None, f"Expected `{expected}`, and the submission holds {listing}. Hand in a file named `{expected}`.", ()


def handed_in(folder, notebook, others=()):
    """(file name or None, note or None) for `notebook` in a submitted folder.

    `others` are the assignment's other notebooks: a file that is one of them is never taken for this one.
    """
    return _look(folder, notebook, others)[:2]


def handed_in_all(folder, notebooks):
    """{notebook: (file name or None, note or None, suspects)} for each of the assignment's `notebooks`; `suspects`
    are the files that may be a notebook not taken (see the module docstring), () when it is simply not there."""
    return {name: _look(folder, name, [other for other in notebooks if other != name]) for name in notebooks}


def set_aside(job, staged_submission, dropped, mended):
    """Put each notebook to grade under its expected name; {notebook: why} for those that cannot be graded.
    `dropped` is {file: why} of what the safe copy left out; `mended` gets {notebook: note or None} (see
    _lone_surrogates)."""
    left_out = {}
    for name in job.notebooks:
        filename, note, _ = job.handed[name]
        target = os.path.join(staged_submission, f"{name}.ipynb")
        source = os.path.join(staged_submission, filename) if filename else None
        if source is None or not os.path.isfile(source):
            missing = filename or f"{name}.ipynb"  # also when collect left the notebook out (its record says why)
            left_out[name] = (f"`{shown(missing)}` could not be graded: {dropped[missing]}"
                              if missing in dropped
                              else note or f"`{name}.ipynb` was not handed in")
            continue
        if source != target:
            os.replace(source, target)
        try:
            nbformat.validate(nbformat.read(target, as_version=nbformat.NO_CONVERT))
        except Exception as exc:  # not JSON, not a notebook, an nbformat it cannot read
            left_out[name] = f"the file you handed in is not a readable notebook ({type(exc).__name__})"
            os.remove(target)
            continue
        mended[name] = _lone_surrogates(target)
    for name in set(job.handed) - set(job.notebooks):  # graded another time: not in this staging
        filename = job.handed[name][0]
        if filename and os.path.isfile(os.path.join(staged_submission, filename)):
            os.remove(os.path.join(staged_submission, filename))
    return left_out


def _lone_surrogates(path):
    """Replace each lone surrogate in the notebook's text (an escape such as \\ud83d in its JSON, half of a
    character, which no file can hold) with U+FFFD, the replacement character, so that it can be graded and
    written; the note for the student that says which cells, or None if there was none."""
    with open(path, encoding="utf-8") as file:
        nb = json.load(file)
    where = []

    def mend(value, cell=None):
        if isinstance(value, str):
            fixed = LONE_SURROGATE.sub("\ufffd", value)
            if fixed != value and cell not in where:
                where.append(cell)
            return fixed
        if isinstance(value, list):
            return [mend(item, cell) for item in value]
        if isinstance(value, dict):
            return {mend(key, cell): mend(item, cell) for key, item in value.items()}
        return value

    cells_of = nb.get("cells") if isinstance(nb, dict) and isinstance(nb.get("cells"), list) else []
    mended = {key: mend(value) for key, value in nb.items() if key != "cells"} if isinstance(nb, dict) else nb
    if isinstance(mended, dict) and cells_of:
        mended["cells"] = [mend(cell, number) for number, cell in enumerate(cells_of, start=1)]
    if not where:
        return None
    with open(path, "w", encoding="utf-8") as file:
        json.dump(mended, file, ensure_ascii=False)
    places = ", ".join(f"cell {n}" for n in where if n is not None) or "its metadata"
    return (f"Your notebook holds half of a character (a lone surrogate: often left by copying text from a PDF or "
            f"a web page) in {places}. The grader read it as \ufffd and graded the rest; retype that text, or your "
            "notebook may not save or run as you expect.")
