"""Write docs/configuration.md, the reference of every option of this course's code, from the code's own traits (the
way nbgrader's documentation of its options is made): each configurable class of `classroom` with options of its own,
each option with its type, its default and its help. INSTRUCTORS.md links it instead of copying defaults by hand;
tests/setup/test_config_reference.py fails when the file is not what this writes.

    python -m tools.config_reference            (rewrites docs/configuration.md)
    python -m tools.config_reference --check    (status 1 when docs/configuration.md is out of date)
"""
import argparse
import importlib
import inspect
import pkgutil
import sys
from pathlib import Path

from traitlets.config import Configurable

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "configuration.md"
SKIPPED = ("__main__", "nbgrader_config")  # modules that run when imported (a command, a configuration file)
HEADER = """# Configuration reference

Every option of this course's code, generated from the code's traits by `python -m tools.config_reference` (do not
edit by hand: `make test` fails when this file differs from what the code says). Set an option in the course's
`nbgrader_config.py` (`c.SandboxedExecute.kernel_memory = 4 * 1024**3`) or on the command line of a `classroom`
subcommand (`--SandboxedExecute.kernel_memory=4294967296`); `classroom --help-all` lists the same options by
subcommand. nbgrader's own options are in [nbgrader's documentation](https://nbgrader.readthedocs.io/en/stable/
configuration/config_options.html).
"""


def configurable_classes():
    """Every class defined in `classroom` that is configurable and has options of its own, by module then name."""
    import classroom

    found = {}
    for info in pkgutil.walk_packages(classroom.__path__, "classroom."):
        if info.name.rsplit(".", 1)[-1] in SKIPPED:
            continue
        module = importlib.import_module(info.name)
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if (issubclass(cls, Configurable) and cls.__module__ == module.__name__ and not name.startswith("_")
                    and options(cls)):
                found[f"{cls.__module__}.{cls.__name__}"] = cls
    return [found[key] for key in sorted(found)]


def options(cls):
    """{name: trait} of the options `cls` has from classes of `classroom` (its own and its classroom bases'; those
    of nbgrader or traitlets are in their documentation)."""
    def owner(name):
        return next(base for base in cls.__mro__ if name in vars(base))

    return {name: trait for name, trait in sorted(cls.class_traits(config=True).items())
            if owner(name).__module__.startswith("classroom.")}


def _cell(text):
    return " ".join(str(text).split()).replace("|", "\\|")


def reference():
    """The text of docs/configuration.md."""
    parts = [HEADER]
    for cls in configurable_classes():
        doc = inspect.cleandoc(vars(cls).get("__doc__") or "")
        parts.append(f"\n## `{cls.__name__}`\n\n`{cls.__module__}`" + (f": {_cell(doc.split(chr(10) * 2)[0])}"
                                                                     if doc else "") + "\n")
        parts.append("| Option | Type | Default | What it sets |\n|---|---|---|---|")
        for name, trait in options(cls).items():
            parts.append(f"| `c.{cls.__name__}.{name}` | {type(trait).__name__} | "
                         f"`{_cell(trait.default_value_repr())}` | {_cell(trait.help)} |")
    return "\n".join(parts) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only say whether docs/configuration.md is current")
    args = parser.parse_args(argv)
    text = reference()
    if args.check:
        current = OUT.exists() and OUT.read_text(encoding="utf-8") == text
        print(f"{OUT.relative_to(ROOT)} is {'current' if current else 'out of date: run python -m tools.config_reference'}")
        return 0 if current else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
