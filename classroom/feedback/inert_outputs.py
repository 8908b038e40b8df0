"""Cell outputs reduced to what a page can show without running anything, within caps.

An output keeps only inert content: a stream's text, an error's name, message and traceback, and of displayed data
only `text/plain` and PNG or JPEG images checked by classroom.feedback.inert_images. HTML, JavaScript, SVG,
Markdown, LaTeX, widget views and every other mimetype are left out, and so is every output's metadata (nbconvert
writes image metadata into the page unquoted). One cell's outputs share a budget of text (characters, a few per
output for its keys too) and of image bytes; what does not fit is cut. Each reason something was cut or left out
is said once, in a note the grader adds to the cell: an error output of kind OUTPUT_CUT (classroom.trusted.failures).

The same reduction runs on each output as the display run receives it (ExecuteForDisplay, so nothing big is ever
held) and on each cell's outputs at the end (InertContent, for whatever reached the notebook by another way). The
output that decides a grade cell's score in nbgrader's reading (`decides_grade`) is kept in its smallest form
(`kept_as_decided`) whatever the caps say.
"""
from ..trusted import failures
from .inert_images import FORMATS, checked, decoded_size

SHOWN = ("text/plain", *FORMATS)
STREAMS = ("stdout", "stderr")
KEY_CHARS = 40  # characters counted for each output besides its text: its keys, as the notebook file spells them
NAME_CHARS = 200  # of an error's name, and of a mimetype named in a note
REASONS_SHOWN = 5
DECIDES = ("error", "execute_result")  # with a stderr stream: the outputs nbgrader's determine_grade stops at
REASONS_KEPT = 20  # a cell with more reasons than this (a thousand mimetypes, say) is told the first ones


def as_text(value):
    """A notebook string field as one string (nbformat files may split strings into lists of lines)."""
    if isinstance(value, list):
        return "".join(str(part) for part in value)
    return "" if value is None else str(value)


class Budget:
    """What one cell's outputs may still hold, under the caps of `limits` (an InertContent), and why anything was cut
    or left out."""

    def __init__(self, limits):
        self.limits = limits
        self.chars = limits.max_output_chars
        self.image_bytes = limits.max_cell_image_bytes
        self.notes_left = limits.max_notes
        self.reasons = []
        self._noted = 0

    def reason(self, why):
        if why not in self.reasons and len(self.reasons) < REASONS_KEPT:
            self.reasons.append(why)

    def take(self, text):
        """The part of `text` that fits (all of it, or its start), charged to the budget."""
        text = as_text(text)
        if len(text) <= self.chars:
            self.chars -= len(text)
            return text
        kept, self.chars = text[:max(self.chars, 0)], 0
        self.reason(self.full())
        return kept

    def room_for_one_more(self):
        if self.chars < KEY_CHARS:
            self.chars = 0
            self.reason(self.full())
            return False
        self.chars -= KEY_CHARS
        return True

    def full(self):
        return f"everything after its first {self.limits.max_output_chars:,} characters"

    def new_notes(self):
        """The note (a list of none or one error output, plain dicts) for the reasons not written out yet."""
        fresh, self._noted = self.reasons[self._noted:], len(self.reasons)
        if not fresh:
            return []
        said = "; ".join(fresh[:REASONS_SHOWN]) + ("; and more" if len(fresh) > REASONS_SHOWN else "")
        return [failures.error_output(failures.OUTPUT_CUT, f"the grader cut or left out part of this cell's output "
                                                           f"({said}). Feedback pages show text and PNG or JPEG "
                                                           "images only, within size caps.")]


def _error(output, budget):
    limits = budget.limits
    ename = as_text(output.get("ename"))[:NAME_CHARS]
    evalue = as_text(output.get("evalue"))
    if ename in failures.KINDS:  # the grader's own note or verdict: the student's errors never bear these names
        if budget.notes_left <= 0:
            return None
        budget.notes_left -= 1
        return failures.error_output(ename, evalue[:limits.max_error_chars])
    if not budget.room_for_one_more():
        return None
    if len(evalue) > limits.max_error_chars:
        evalue = evalue[:limits.max_error_chars]
        budget.reason(f"an error message after {limits.max_error_chars:,} characters")
    traceback, room = [], limits.max_traceback_chars
    for line in output.get("traceback") or []:
        line = as_text(line)
        if len(line) > room:
            budget.reason(f"a traceback after {limits.max_traceback_chars:,} characters")
            traceback.append(line[:room])
            break
        traceback.append(line)
        room -= len(line)
    ename, evalue = budget.take(ename), budget.take(evalue)
    return {"output_type": "error", "ename": ename, "evalue": evalue,
            "traceback": [kept for kept in (budget.take(line) for line in traceback) if kept]}


def _image(mimetype, data, budget):
    limits = budget.limits
    image, why = checked(mimetype, as_text(data), limits.max_image_bytes, limits.max_image_pixels)
    if image is not None and decoded_size(image) > budget.image_bytes:
        image, why = None, f"images after {limits.max_cell_image_bytes:,} bytes of images in one cell"
    if image is None:
        budget.reason(why)
        return None
    budget.image_bytes -= decoded_size(image)
    return image


def _data(output, budget):
    data = output.get("data") if isinstance(output.get("data"), dict) else {}
    for mimetype in data:
        if mimetype not in SHOWN:
            budget.reason(f"{str(mimetype)[:NAME_CHARS]} output")
    kept = {}
    for mimetype in FORMATS:
        if mimetype in data and (image := _image(mimetype, data[mimetype], budget)) is not None:
            kept[mimetype] = image
    if "text/plain" in data and (text := budget.take(data["text/plain"])):
        kept["text/plain"] = text
    if not kept:
        return None
    out = {"output_type": output["output_type"], "data": kept, "metadata": {}}
    if output["output_type"] == "execute_result":
        count = output.get("execution_count")
        out["execution_count"] = count if type(count) is int else None
    return out


def reduce_output(output, budget):
    """`output` (an nbformat output as a dict) made inert and charged to `budget`: a new plain dict, or None when
    nothing of it is kept (the reason is in the budget)."""
    kind = output.get("output_type")
    if kind == "error":
        return _error(output, budget)
    if kind not in ("stream", "display_data", "execute_result"):
        budget.reason(f"an output of type {str(kind)[:NAME_CHARS]}")
        return None
    if not budget.room_for_one_more():
        return None
    if kind == "stream":
        text = budget.take(output.get("text"))
        name = output.get("name") if output.get("name") in STREAMS else "stdout"
        return {"output_type": "stream", "name": name, "text": text} if text else None
    return _data(output, budget)


def reduce_outputs(outputs, limits):
    """A cell's `outputs` made inert and capped under `limits`, with a note saying what was cut or left out."""
    budget = Budget(limits)
    kept = [out for out in (reduce_output(dict(output), budget) for output in outputs or []
                            if isinstance(output, dict)) if out is not None]
    return kept + budget.new_notes()


def decides_grade(output):
    """Whether nbgrader's determine_grade reads `output` as the grade cell's verdict."""
    kind = output.get("output_type")
    return kind in DECIDES or kind == "stream" and output.get("name") == "stderr"


def kept_as_decided(output, limits):
    """The smallest form of a grade-deciding output that nbgrader reads as it reads `output`."""
    kind = output["output_type"]
    if kind == "error":
        return {"output_type": "error", "ename": str(output.get("ename"))[:200],
                "evalue": str(output.get("evalue"))[:limits.max_error_chars], "traceback": []}
    if kind == "stream":
        return {"output_type": "stream", "name": "stderr", "text": str(output.get("text") or " ")[:200]}
    data = output.get("data") if isinstance(output.get("data"), dict) else {}
    text = data.get("text/plain")
    return {"output_type": "execute_result", "metadata": {}, "execution_count": None,
            "data": {"text/plain": (text if isinstance(text, str) else "".join(text or []))[:1000]} if text else {}}
