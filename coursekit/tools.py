"""Maintainer scripts from tools/ (not a package), loaded as modules for the tests and the benches."""
import importlib.util
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[2] / "tools"


def load_tool(name):
    """tools/<name>.py as a module, e.g. load_tool("quiz_bank")."""
    spec = importlib.util.spec_from_file_location(f"tool_{name}", TOOLS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
