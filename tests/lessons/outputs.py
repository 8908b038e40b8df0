"""What a lesson notebook says, read from its committed outputs (tests/lessons/test_source_numbers.py,
test_training_numbers.py).

Reading the committed outputs is as good as running the notebook because nbval, in the same suite, re-runs every
lesson notebook in a fresh kernel and fails if any output differs from the committed one."""
from coursekit.repository import load_notebook


def stored_text(path):
    """(Markdown prose, [what each code cell printed]) of a lesson notebook, from its committed outputs."""
    nb = load_notebook(path)
    text = lambda cell: "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
    prose = "\n".join(text(c) for c in nb["cells"] if c["cell_type"] == "markdown")
    printed = []
    for cell in (c for c in nb["cells"] if c["cell_type"] == "code"):
        parts = []
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream":
                parts.append("".join(out["text"]))
            elif "text/plain" in out.get("data", {}):
                parts.append("".join(out["data"]["text/plain"]))
        printed.append("".join(parts))
    return prose, printed
