"""Every notebook is written in our own words: no run of ten words stands as in the source lesson."""
import re

import pytest

from coursekit.repository import ROOT, load_notebook

SEED_DIR = ROOT.parent / "shared" / "seed"
RUN = 10


def words(text):
    return re.findall(r"[a-z0-9']+", text.lower())


def runs(ws):
    return {tuple(ws[i:i + RUN]) for i in range(len(ws) - RUN + 1)}


def all_notebooks():
    return sorted(p for folder in ("notebooks", "source", "release") for p in (ROOT / folder).rglob("*.ipynb")
                  if ".ipynb_checkpoints" not in p.parts)


@pytest.fixture(scope="module")
def source_runs():
    seeds = sorted(SEED_DIR.glob("*.txt"))
    if not seeds:
        pytest.skip(f"the source lesson is not beside this clone ({SEED_DIR}); nothing to compare with")
    return runs([w for f in seeds for w in words(f.read_text(encoding="utf-8", errors="replace"))])


def test_the_check_can_fail(source_runs):
    seed = (sorted(SEED_DIR.glob("*.txt"))[0]).read_text(encoding="utf-8", errors="replace")
    assert runs(words(seed)[100:140]) & source_runs


@pytest.mark.parametrize("path", all_notebooks(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_ten_words_as_in_the_source(path, source_runs):
    for i, cell in enumerate(load_notebook(path)["cells"]):
        shared = runs(words("".join(cell["source"]))) & source_runs
        assert not shared, f"{path.relative_to(ROOT)}, cell {i}: '{' '.join(sorted(shared)[0])}' stands as in the source lesson"
