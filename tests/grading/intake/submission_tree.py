"""What the intake tests in tests/grading/intake/ build and read: a secret the instructor can read and the student
must never reach (conftest.py's `tree` puts a submission folder beside it), and every file that arrived."""
import os
import stat

SECRET = b"instructor-only: def score_gradient(A, G): return A * (G - (A * G).sum(-1, keepdims=True))\n"


def everything_under(path):
    """{relative name: bytes} of every regular file under `path` (never following a link)."""
    out = {}
    for folder, _, files in os.walk(path):
        for name in files:
            full = os.path.join(folder, name)
            assert stat.S_ISREG(os.lstat(full).st_mode), f"{full} is not a regular file"
            out[os.path.relpath(full, path)] = open(full, "rb").read()
    return out


def assert_no_secret(dest):
    assert not [name for name, data in everything_under(dest).items() if SECRET[:30] in data]
