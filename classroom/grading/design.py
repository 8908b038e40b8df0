"""Which design an assignment's checks are written for, and so how it is graded: one rule, read by the autograde
pipeline's steps and by `make autograde`, which names the design of the assignment it grades.

  TRUSTED   checks written for verdicts decided outside the student's process (this course's score_gradient):
            the answer cells run on their own in a grading child, each check runs in the grader against them, and
            only plain data passes between the two (classroom.preprocessors.trusted_grades, classroom.trusted);
  NBGRADER  checks written for nbgrader's design: the whole notebook runs in order in one kernel, checks included,
            and nbgrader reads each grade cell's outputs (an error: 0, a number: partial credit), inside the sandbox
            (classroom.preprocessors.sandboxed_execute).

The rule, in this order: an assignment that `c.GradingDesign.trusted_assignments` or `.nbgrader_assignments` names
has that design; otherwise one whose grade cells import classroom.checks (any of its notebooks, as the gradebook
holds them) is TRUSTED; every other assignment is graded as nbgrader grades it. Only what the instructor controls
decides: the configuration and the gradebook's grade cells, never anything in a student's notebook.
"""
import ast
from dataclasses import dataclass

from traitlets import List, Unicode
from traitlets.config import Configurable

from .. import cells
from ..trusted.ipython_cells import as_python

TRUSTED, NBGRADER = "trusted", "nbgrader"
# The modules a grade cell written for trusted verdicts imports (the two old names are kept for one term).
TRUSTED_MODULES = ("classroom.checks", "classroom.exercise_checks", "classroom.measures")
SAID = {TRUSTED: "trusted verdicts (answer cells run on their own, each check decided outside the student's process)",
        NBGRADER: "nbgrader's design (every cell in order in one sandboxed kernel, grades read from the outputs)"}


class GradingDesign(Configurable):
    """Which assignments are graded with which design, where the rule (see classroom.grading.design) should not
    decide."""

    trusted_assignments = List(Unicode(), help="Assignments graded with trusted verdicts whatever their grade cells "
                               "import (their checks must be written for it: INSTRUCTORS.md, \"Writing checks\").").tag(
        config=True)
    nbgrader_assignments = List(Unicode(), help="Assignments graded as nbgrader grades them (every cell in order in "
                                "one sandboxed kernel) even though their grade cells import classroom.checks.").tag(
        config=True)


@dataclass(frozen=True)
class Design:
    name: str  # TRUSTED or NBGRADER
    why: str   # what decided it, in words that follow "because"

    def __str__(self):
        return f"{SAID[self.name]}, because {self.why}"


def imports_trusted_checks(source):
    """Whether a grade cell's source imports classroom.checks (or an old name of it)."""
    try:
        tree = ast.parse(as_python(source)[0])
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return any(module in source for module in TRUSTED_MODULES)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        if any(name == module or name.startswith(module + ".") for name in names for module in TRUSTED_MODULES):
            return True
    return False


def of_assignment(gb, assignment, config=None):
    """The Design of `assignment` (the gradebook `gb` holds its grade cells; `config` the course's configuration)."""
    chosen = GradingDesign(config=config) if config is not None else GradingDesign()
    if assignment in chosen.trusted_assignments:
        return Design(TRUSTED, "c.GradingDesign.trusted_assignments names it")
    if assignment in chosen.nbgrader_assignments:
        return Design(NBGRADER, "c.GradingDesign.nbgrader_assignments names it")
    for notebook in gb.find_assignment(assignment).notebooks:
        for cell in cells.source_cells_of(notebook):
            if cell.is_check and imports_trusted_checks(cell.source):
                return Design(TRUSTED, f"the grade cells of {notebook.name}.ipynb import classroom.checks")
    return Design(NBGRADER, "no grade cell imports classroom.checks")


def of_resources(resources, parent=None):
    """The Design of the assignment a pipeline step is working on (resources["nbgrader"], as nbgrader's converters
    give it), read once per notebook and kept in resources["classroom"]["design"]; `parent` a configurable whose
    configuration holds the course's settings."""
    kept = resources.setdefault("classroom", {})
    if "design" not in kept:
        from nbgrader.api import Gradebook

        info = resources["nbgrader"]
        with Gradebook(info["db_url"]) as gb:
            kept["design"] = of_assignment(gb, info["assignment"], getattr(parent, "config", None))
    return kept["design"]


def conflicts(config):
    """[sentence] for assignments that the configuration names for both designs (classroom.grading.settings)."""
    chosen = GradingDesign(config=config)
    both = sorted(set(chosen.trusted_assignments) & set(chosen.nbgrader_assignments))
    return [f"`c.GradingDesign` names {name!r} both in trusted_assignments and in nbgrader_assignments: keep one"
            for name in both]
