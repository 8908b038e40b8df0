"""Which file of a submission is which notebook: the exact name, or an unambiguous renamed copy of it.

Browsers and JupyterLab rename files on download and copy (`score_gradient (1).ipynb`, `score_gradient-1.ipynb`,
`score_gradient-Copy1.ipynb`, `Copy of score_gradient.ipynb`, `score_gradient copy.ipynb`). `handed_in` takes such a
copy when it is the only candidate, and says so; otherwise it says exactly which file was expected and what was found.
Only the folder listing is read (lstat, never through a symlink).
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


def handed_in(folder, notebook, others=()):
    """(file name or None, note or None) for `notebook` in a submitted folder.

    `others` are the assignment's other notebooks: a file that is one of them is never taken for this one.
    """
    expected = f"{notebook}.ipynb"
    present = _regular_notebooks(folder)
    if expected in present:
        return expected, None
    taken = {f"{other}.ipynb" for other in others}
    patterns = [_pattern(template, notebook) for template in RENAMED]
    candidates = [f for f in present if f not in taken and any(p.fullmatch(f) for p in patterns)]
    if len(candidates) == 1:
        return candidates[0], (f"You handed in this notebook as `{shown(candidates[0])}`; it was graded as "
                               f"`{expected}`, the name the assignment expects.")
    listing = ", ".join(f"`{shown(f)}`" for f in present[:10]) or "no notebook at all"
    if candidates:
        return None, (f"Expected `{expected}`, and the submission holds several copies of it ({listing}); none was "
                      "graded, because the grader cannot tell which one you meant. Hand in one file named "
                      f"`{expected}`.")
    return None, f"Expected `{expected}`, and the submission holds {listing}. Hand in a file named `{expected}`."
