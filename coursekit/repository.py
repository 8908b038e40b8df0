"""The repository's own files as the tests and the benches read them: its root, the lesson notebooks, a notebook."""
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LESSON_NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def load_notebook(path):
    """A notebook as plain data (nbformat's JSON)."""
    return json.loads(Path(path).read_text(encoding="utf-8"))
