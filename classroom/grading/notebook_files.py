"""Which file of a submission is which notebook: the exact name, or an unambiguous renamed copy of it.

Browsers and JupyterLab rename files on download and copy (`score_gradient (1).ipynb`, `score_gradient-1.ipynb`,
`score_gradient-Copy1.ipynb`, `Copy of score_gradient.ipynb`, `score_gradient copy.ipynb`). `handed_in` takes such a
copy when it is the only candidate, and says so; otherwise it says exactly which file was expected and what was found.
A notebook that is not taken but may be among the files (several renamed copies of it, or a notebook named like none
of the assignment's, such as `my_answers.ipynb`) is *misnamed*: those files are its `suspects`, the grader flags it for
grading by hand, and the feedback and the report name them. Only the folder listing is read (lstat, never through a
symlink).
"""
import os
import re
import stat

RENAMED = ["{name} ({n}).ipynb", "{name}-{n}.ipynb", "{name}_{n}.ipynb", "{name}-Copy{n}.ipynb",
           "{name}-Copy.ipynb", "Copy of {name}.ipynb", "Copy of {name} ({n}).ipynb",
           "{name} copy.ipynb", "{name} copy {n}.ipynb"]


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
