"""The house rules a newcomer relies on to find their way (docs/architecture.md): no folder of the project's code
holds more than 12 modules, and no module is over 300 lines. Student hand-ins kept as test fixtures
(tests/submissions/) are data, not modules, and are not counted."""
import os
from collections import Counter

from coursekit.repository import ROOT

CODE = ["attention_lesson", "bench", "classroom", "coursekit", "deploy", "source", "tests", "tools"]
FIXTURES = {ROOT / "tests" / "submissions"}
MOST_MODULES, MOST_LINES = 12, 300
SKIPPED = {"__pycache__", "node_modules", ".ipynb_checkpoints"}


def modules():
    """Every Python module of the project's code, but the fixtures (paths under ROOT)."""
    found = [ROOT / "nbgrader_config.py"]
    for top in CODE:
        for parent, folders, files in os.walk(ROOT / top):
            folders[:] = [name for name in folders if name not in SKIPPED and ROOT / parent / name not in FIXTURES]
            found += [ROOT / parent / name for name in files if name.endswith(".py")]
    return found


def test_the_walk_finds_the_code_and_leaves_out_the_fixtures():
    found = {path.relative_to(ROOT).as_posix() for path in modules()}
    assert {"classroom/autograde.py", "tests/setup/test_layout.py", "nbgrader_config.py"} <= found
    assert not [path for path in found if path.startswith("tests/submissions/")]


def test_no_folder_holds_more_than_12_modules():
    counted = Counter(path.parent for path in modules() if path.name != "__init__.py")
    crowded = {folder.relative_to(ROOT).as_posix() or ".": n for folder, n in counted.items() if n > MOST_MODULES}
    assert not crowded, f"split these folders by role (modules in each): {crowded}"


def test_no_module_is_over_300_lines():
    long = {}
    for path in modules():
        with open(path, encoding="utf-8") as handle:
            lines = sum(1 for _ in handle)
        if lines > MOST_LINES:
            long[path.relative_to(ROOT).as_posix()] = lines
    assert not long, f"split these modules along a seam (lines in each): {long}"


def test_the_maintainers_map_names_every_module_of_classroom():
    """docs/architecture.md says what each module of classroom/ is for, and README's layout table names each of its
    folders: a module added without a word there is a room a newcomer cannot find."""
    architecture = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    package = ROOT / "classroom"
    unnamed = [path.relative_to(ROOT).as_posix() for path in modules() if path.is_relative_to(package)
               and path.name not in ("__init__.py", "__main__.py") and f"`{path.name}`" not in architecture
               and f"/{path.name}`" not in architecture]
    assert not unnamed, f"docs/architecture.md does not say what these are for: {unnamed}"
    folders = [path.name for path in package.iterdir() if (path / "__init__.py").exists()]
    assert folders and not [name for name in folders if f"`{name}/`" not in readme], "README's layout table"
