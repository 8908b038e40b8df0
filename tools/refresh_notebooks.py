"""Re-run lesson notebooks top to bottom in a fresh kernel and save them with clean metadata.

    .venv/bin/python -m tools.refresh_notebooks notebooks/*.ipynb     (or: make notebooks)

What is saved is exactly one top-to-bottom run: outputs in order, execution counts 1, 2, 3, ...
Machine-specific metadata (Python version, timings, widget state) is dropped so that a refresh on
another machine gives the same file, and `git diff` shows only what really changed.
"""
import argparse
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from classroom.cells import NOTEBOOK_METADATA  # what a notebook may carry at the top: its kernel and language

# What a cell may carry: tags (read by nbval and nbgrader) and nbgrader's own record.
CELL_METADATA_KEPT = ("tags", "nbgrader")


def clean(nb):
    """Drop machine-specific metadata from a notebook, in place; return it."""
    nb.metadata = nbformat.from_dict(NOTEBOOK_METADATA)
    for cell in nb.cells:
        cell.metadata = nbformat.from_dict({k: v for k, v in cell.metadata.items() if k in CELL_METADATA_KEPT})
        if cell.cell_type == "code":
            for output in cell.get("outputs", []):
                output.get("metadata", {}).pop("execution", None)
    return nb


def refresh(path, timeout=120):
    """Execute the notebook at `path` in a fresh kernel, from its own folder, and save it cleaned."""
    path = Path(path)
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    NotebookClient(nb, timeout=timeout, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    nbformat.validate(nb)
    nbformat.write(clean(nb), path)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="+", type=Path)
    args = parser.parse_args(argv)
    missing = [str(p) for p in args.notebooks if not p.is_file()]
    if missing:
        parser.error(f"no such notebook: {', '.join(missing)}")
    for path in args.notebooks:
        print(f"running {path} ...", flush=True)
        refresh(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
