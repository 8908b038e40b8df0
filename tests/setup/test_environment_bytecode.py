"""The environment holds its packages' compiled bytecode (.pyc), as pip writes it and `make lab` asks uv to.

Every grading run, kernel, sandboxed child and nbgrader command is a new Python process. Without .pyc, and where
PYTHONDONTWRITEBYTECODE is set (as on this project's machines), each of them compiles nbgrader, IPython and numpy from
source again: 4.7 s instead of 1.6 s to import the three here, which doubled `make test`.
"""
import importlib
import importlib.util
import os

import pytest

HEAVY = ("nbgrader.apps", "IPython", "numpy", "jupyter_client", "nbconvert")


@pytest.mark.parametrize("name", HEAVY)
def test_the_packages_every_process_imports_are_compiled(name):
    module = importlib.import_module(name)
    compiled = importlib.util.cache_from_source(module.__file__)
    assert os.path.exists(compiled), (
        f"{name} has no compiled bytecode ({compiled} is missing): this environment was installed without .pyc "
        "(uv without --compile-bytecode, as an older Makefile ran it), so every Python process compiles it again "
        "and `make test` takes about twice as long. Rebuild it: make clean-venv && make test")
