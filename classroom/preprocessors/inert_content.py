"""InertContent: a notebook made safe to show as a web page, and small enough, whatever the student put in it.

Runs last before nbgrader saves the grades in autograde (so the autograded notebook itself is inert: the feedback and
the formgrader's manual grading view, which show it in a browser, get nothing that runs), and again on every HTML page
made from a notebook (nbgrader_config.py's HTMLExporter.preprocessors; SanitizeFeedback too), for notebooks graded
before. Each cell is rebuilt from what is known to be inert:

* outputs: text, errors and checked PNG or JPEG images, capped per cell (classroom.feedback.inert_outputs);
* Markdown: shown as written unless it holds HTML, an outside image or a script link, then as text; attachments only
  as checked PNG or JPEG images (classroom.feedback.inert_markdown); raw cells, which HTML exporters write
  into the page, are held to the same rule;
* metadata: of a cell, only its nbgrader metadata (checked field by field) and whether it may be edited or deleted; of
  the notebook, only its kernel's and language's names (widget state, which pages load a widget manager for, goes);
* every cell's source is capped, and the notebook as a whole: past its cap, the cells that are neither graded nor an
  answer are left out from there on, with a note.
In autograded/ (AutogradedInertContent, the autograde pipeline's step), a locked Markdown or raw cell whose source is
the instructor's own, as the gradebook holds it, keeps that source as written (its attachments are still checked):
it is the instructor's, not the student's, and every page made from the notebook still gets the rule above.
Every cut is said where it happened, so the student sees what is missing. Running it twice changes nothing more.
"""
import json
import math
import re

from nbconvert.preprocessors import Preprocessor
from nbformat import from_dict
from nbformat.corpus.words import generate_corpus_id
from traitlets import Bool, Integer

from .. import cells
from ..feedback.inert_markdown import inert_markdown
from ..feedback.inert_outputs import as_text, reduce_outputs
from ..units import MiB

CELL_ID = re.compile(r"[a-zA-Z0-9_-]{1,64}")
NAME = re.compile(r"[A-Za-z0-9_.+ ()-]{1,100}")
GRADE_ID = re.compile(r"[^<>\"'&`\s\x00-\x1f]{1,200}")
CHECKSUM = re.compile(r"[0-9a-f]{1,64}")
NBGRADER_FLAGS = ("grade", "solution", "locked", "task")


def nbgrader_metadata(meta):
    """A cell's nbgrader metadata with only its known fields, each of the right type; None if its grade id could
    break out of the page where nbgrader's templates print it."""
    if not isinstance(meta, dict) or not GRADE_ID.fullmatch(str(meta.get("grade_id", ""))):
        return None
    kept = {key: meta[key] for key in NBGRADER_FLAGS if type(meta.get(key)) is bool}
    kept["grade_id"] = meta["grade_id"]
    points = meta.get("points")
    if type(points) in (int, float) and math.isfinite(points):
        kept["points"] = points
    if isinstance(meta.get("checksum"), str) and CHECKSUM.fullmatch(meta["checksum"]):
        kept["checksum"] = meta["checksum"]
    if type(meta.get("schema_version")) is int:
        kept["schema_version"] = meta["schema_version"]
    if meta.get("cell_type") in ("code", "markdown"):
        kept["cell_type"] = meta["cell_type"]
    return kept


def cell_metadata(metadata):
    kept = {key: metadata[key] for key in ("deletable", "editable") if type(metadata.get(key)) is bool}
    nbgrader = nbgrader_metadata(metadata.get("nbgrader"))
    if nbgrader is not None:
        kept["nbgrader"] = nbgrader
    return kept


def notebook_metadata(metadata):
    """Of the notebook's metadata, only the fields of cells.NOTEBOOK_METADATA (the kernel's name and language, the
    language's name and lexer), each a plain name."""
    kept = {}
    for key, fields in cells.NOTEBOOK_METADATA.items():
        found = metadata.get(key) if isinstance(metadata.get(key), dict) else {}
        names = {field: found[field] for field in fields if NAME.fullmatch(str(found.get(field, "")))}
        if names:
            kept[key] = names
    return kept


def size(cell):
    return len(json.dumps(cell))


class InertContent(Preprocessor):
    """Every cell rebuilt from inert content, within caps; the notebook within its size cap."""

    enabled = Bool(True, help="Whether the step runs (it always should).").tag(config=True)

    max_output_chars = Integer(20_000, help="Characters of text kept of one cell's outputs.").tag(config=True)
    max_error_chars = Integer(2_000, help="Characters kept of an error's message.").tag(config=True)
    max_traceback_chars = Integer(8_000, help="Characters kept of an error's traceback.").tag(config=True)
    max_image_bytes = Integer(1 * MiB, help="Bytes of one PNG or JPEG image, in an output or attached.").tag(
        config=True)
    max_image_pixels = Integer(4_000_000, help="Pixels of one image, as its header says.").tag(config=True)
    max_cell_image_bytes = Integer(2 * MiB, help="Bytes of all the images of one cell.").tag(config=True)
    max_source_chars = Integer(100_000, help="Characters kept of one cell's source.").tag(config=True)
    max_notebook_bytes = Integer(8 * MiB, help="Bytes of the whole notebook file, near enough.").tag(config=True)
    max_notes = Integer(10, help="Notes and verdicts from the grader kept in one cell's outputs.")

    keep_instructors_cells = False  # AutogradedInertContent: see the module

    def preprocess(self, nb, resources):
        with_ids = nb.get("nbformat_minor", 0) >= 5
        self._instructors = instructors_sources(resources) if self.keep_instructors_cells else {}
        rebuilt = [self.inert_cell(cell, with_ids) for cell in nb.get("cells", []) if isinstance(cell, dict)]
        nb.cells = self.within_size([cell for cell in rebuilt if cell is not None], with_ids)
        nb.metadata = from_dict(notebook_metadata(nb.get("metadata") or {}))
        return nb, resources

    def inert_cell(self, cell, with_ids):
        """The cell rebuilt from inert content (an nbformat node), or None for a cell of no known type."""
        kind = cell.get("cell_type")
        if kind not in ("code", "markdown", "raw"):
            return None
        metadata = cell.get("metadata") if isinstance(cell.get("metadata"), dict) else {}
        new = {"cell_type": kind, "metadata": cell_metadata(metadata)}
        if with_ids:
            new["id"] = cell["id"] if CELL_ID.fullmatch(str(cell.get("id", ""))) else generate_corpus_id()
        if kind == "code":
            new["source"] = self.code(cell.get("source"))
            new["outputs"] = reduce_outputs(cell.get("outputs"), self)
            count = cell.get("execution_count")
            new["execution_count"] = count if type(count) is int else None
        else:  # Markdown, or raw text, which HTML exporters write into the page as HTML
            attachments = cell.get("attachments") if kind == "markdown" else None
            new["source"], attachments = inert_markdown(cell.get("source"), attachments, self)
            theirs = self._instructors.get(cells.grade_id(cell)) if cells.is_locked(cell) else None
            if theirs is not None and theirs == as_text(cell.get("source")):
                new["source"] = theirs
            if attachments:
                new["attachments"] = attachments
        return from_dict(new)

    def code(self, source):
        """A code cell's source, cut at the cap with a comment saying so."""
        source = as_text(source)
        if len(source) <= self.max_source_chars:
            return source
        kept = source[:self.max_source_chars - 200]
        return f"{kept}\n# The grader cut this cell to its first {len(kept):,} characters.\n"

    def within_size(self, rebuilt, with_ids):
        """The cells, in order, but past the notebook's size cap only the graded cells and the answers, with a
        note where the others start being left out."""
        needed = [cells.is_grade(cell) or cells.is_solution(cell) for cell in rebuilt]
        room = self.max_notebook_bytes - 2000 - sum(size(c) for c, n in zip(rebuilt, needed) if n)
        kept, left_out, note_at = [], 0, None
        for cell, is_needed in zip(rebuilt, needed):
            if not is_needed and left_out == 0 and size(cell) <= room:
                room -= size(cell)
            elif not is_needed:
                note_at = len(kept) if note_at is None else note_at
                left_out += 1
                continue
            kept.append(cell)
        if left_out:
            note = {"cell_type": "markdown", "metadata": {}, "source": (
                f"*The grader left out {left_out} cells from here on (all but the graded cells and your answers): "
                f"the notebook passed its size cap of {self.max_notebook_bytes:,} bytes.*")}
            if with_ids:
                note["id"] = generate_corpus_id()
            kept.insert(note_at, from_dict(note))
        return kept


class AutogradedInertContent(InertContent):
    """InertContent in autograde: the instructor's own locked cells kept as written in autograded/ (see the module)."""

    keep_instructors_cells = True


def instructors_sources(resources):
    """{grade id: source} of the locked Markdown and raw cells of this notebook as the gradebook holds them (the
    instructor's), or {} when the gradebook cannot say."""
    from nbgrader.api import Gradebook, MissingEntry

    info = resources.get("nbgrader") or {}
    if not all(info.get(key) for key in ("db_url", "notebook", "assignment")):
        return {}
    try:
        with Gradebook(info["db_url"]) as gb:
            notebook = gb.find_notebook(info["notebook"], info["assignment"])
            return {cell.name: cell.source for cell in notebook.source_cells
                    if cell.locked and cell.cell_type in ("markdown", "raw")}
    except (MissingEntry, OSError, ValueError):
        return {}
