"""Every notebook is written in our own words: no run of ten words stands as in the source lesson.

The source lesson is not ours to copy into the repository, so what the test compares with is a fingerprint of it:
source_runs.txt holds, one a line, a short hash of every run of ten words in it (no word of it can be read back).
Every clone, CI's included, checks the notebooks against it. Where the lesson itself sits beside the clone
(../shared/seed/), a test also checks that the fingerprint is the lesson's; `python -m tests.lessons.test_own_words`
writes it again from there.
"""
import hashlib
import re
import sys

import pytest

from coursekit.repository import ROOT, load_notebook

SEED_DIR = ROOT.parent / "shared" / "seed"
FINGERPRINT = ROOT / "tests" / "lessons" / "source_runs.txt"
RUN = 10


def words(text):
    return re.findall(r"[a-z0-9']+", text.lower())


def runs(ws):
    return {tuple(ws[i:i + RUN]) for i in range(len(ws) - RUN + 1)}


def digest(run):
    return hashlib.sha256(" ".join(run).encode()).hexdigest()[:16]


def shared_runs(text, fingerprint):
    """The runs of ten words of `text` whose hash is in `fingerprint`, sorted."""
    return sorted(run for run in runs(words(text)) if digest(run) in fingerprint)


def seed_fingerprint():
    """The fingerprint of the source lesson beside the clone; None if it is not there."""
    seeds = sorted(SEED_DIR.glob("*.txt"))
    if not seeds:
        return None
    return {digest(run) for run in runs([w for f in seeds for w in words(f.read_text(encoding="utf-8",
                                                                                      errors="replace"))])}


def all_notebooks():
    return sorted(p for folder in ("notebooks", "source", "release") for p in (ROOT / folder).rglob("*.ipynb")
                  if ".ipynb_checkpoints" not in p.parts)


@pytest.fixture(scope="module")
def fingerprint():
    return set(FINGERPRINT.read_text(encoding="ascii").split())


def test_the_check_finds_a_run_it_was_given_in_the_middle_of_a_cell():
    borrowed = "the quick brown fox jumps over the lazy dog and then runs far away"
    fingerprint = {digest(run) for run in runs(words(borrowed))}
    cell = "We write our own. " + borrowed.upper() + ", said nobody."
    assert tuple(words(borrowed)[:RUN]) in shared_runs(cell, fingerprint)
    assert not shared_runs("the quick brown fox jumps over the lazy cat and then runs far away", fingerprint)


def test_the_fingerprint_is_the_source_lessons():
    expected = seed_fingerprint()
    if expected is None:
        pytest.skip(f"the source lesson is not beside this clone ({SEED_DIR}): the committed fingerprint is used")
    assert set(FINGERPRINT.read_text(encoding="ascii").split()) == expected, \
        "source_runs.txt is stale: write it again with `python -m tests.lessons.test_own_words`"


@pytest.mark.parametrize("path", all_notebooks(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_ten_words_as_in_the_source(path, fingerprint):
    assert len(fingerprint) > 2000, "the fingerprint of the source lesson is nearly empty"
    for i, cell in enumerate(load_notebook(path)["cells"]):
        shared = shared_runs("".join(cell["source"]), fingerprint)
        assert not shared, f"{path.relative_to(ROOT)}, cell {i}: '{' '.join(shared[0])}' stands as in the source lesson"


if __name__ == "__main__":
    found = seed_fingerprint()
    if found is None:
        sys.exit(f"the source lesson is not at {SEED_DIR}: nothing to take a fingerprint of")
    FINGERPRINT.write_text("".join(f"{h}\n" for h in sorted(found)), encoding="ascii")
    print(f"{FINGERPRINT.relative_to(ROOT)}: {len(found)} runs of {RUN} words")
