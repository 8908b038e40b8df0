"""Markdown cells that render to nothing active, in any Markdown renderer (nbconvert's, JupyterLab's, the
formgrader's).

A cell is shown as the student wrote it unless its source holds raw HTML (a `<` that opens a tag, a comment or an
autolink, other than a bare `<details>` or `<summary>` tag), an image other than one of the cell's own checked
attachments, or a link whose target is neither a web address, a mail address, an anchor nor a plain relative path.
Such a cell is shown as text: its `<`, `[` and `]` become character references, so no tag, image or link is left
(the rest of its formatting stays), with a note saying why. Deciding on the source's characters, not on one parser's
reading of them, leaves no room for renderers that disagree. Attachments are kept only as PNG or JPEG images within
caps (classroom.feedback.inert_images).
"""
import re

from .inert_images import FORMATS, checked, decoded_size
from .inert_outputs import as_text

RAW_HTML = re.compile(r"<[A-Za-z/!?]")
# The one markup kept as written: a collapsed hint, `<details>` and `<summary>` with no attribute, which can neither
# load nor run anything (the assignment hides a result in one).
HINT_TAGS = re.compile(r"</?(details|summary)>")
OWN_IMAGE = re.compile(r"!\[[^\[\]]*\]\(attachment:([A-Za-z0-9_.-]{1,100})\)")
LINK_TARGET = re.compile(r"\]\(\s*<?([^)\s>]*)|^ {0,3}\[[^\]\n]*\]:\s*<?(\S*)", re.MULTILINE)
WEB_TARGET = re.compile(r"(https?://|mailto:|#)", re.IGNORECASE)
ATTACHMENT_NAME = re.compile(r"[A-Za-z0-9_.-]{1,100}")
AS_TEXT = {"<": "&lt;", "[": "&#91;", "]": "&#93;"}
NOTE_ROOM = 1000  # characters the grader's notes may add to a cell cut at the source cap
NOTES_SHOWN = 3

SHOWN_AS_TEXT = ("*The grader shows this cell as text: it holds HTML, an image from outside the notebook or a link "
                 "that is not a web address, which feedback pages never render.*")


def plain_target(target):
    return bool(WEB_TARGET.match(target)) or not any(sign in target for sign in ":&\\")


def active(source, own_images=()):
    """Whether the Markdown `source` could make a page load, run or show anything but text and its own images."""
    if RAW_HTML.search(HINT_TAGS.sub("", source)):
        return True
    rest = OWN_IMAGE.sub(lambda m: "" if m.group(1) in own_images else m.group(0), source)
    if "![" in rest:
        return True
    return any(not plain_target(a or b) for a, b in LINK_TARGET.findall(source))


def as_plain_text(text):
    """`text` with no tag, image or link left: `<`, `[` and `]` as character references."""
    return re.sub("[<\\[\\]]", lambda m: AS_TEXT[m.group(0)], text)


def checked_attachments(attachments, limits, notes):
    """The attachments kept ({name: {mimetype: base64}}: one PNG or JPEG each, within the caps of `limits`); a
    note for each left out is added to `notes`."""
    kept, room = {}, limits.max_cell_image_bytes
    for name, bundle in (attachments or {}).items() if isinstance(attachments, dict) else ():
        shown_name = as_plain_text(re.sub(r"[`*_\\]", "", str(name)[:60]))
        image, why = None, "its name is not plain letters, digits, dots, dashes and underscores"
        if ATTACHMENT_NAME.fullmatch(str(name)) and isinstance(bundle, dict):
            image, why = None, "it is not a PNG or JPEG image"
            for mimetype in (m for m in FORMATS if m in bundle):
                image, why = checked(mimetype, as_text(bundle[mimetype]), limits.max_image_bytes,
                                     limits.max_image_pixels)
                if image is not None and decoded_size(image) > room:
                    image, why = None, f"images after {limits.max_cell_image_bytes:,} bytes in one cell"
                if image is not None:
                    kept[name], room = {mimetype: image}, room - decoded_size(image)
                    break
        if image is None:
            notes.append(f"*The grader left out the attachment {shown_name}: {as_plain_text(why)}.*")
    return kept


def inert_markdown(source, attachments, limits):
    """(source, attachments) of a Markdown cell made inert and capped under `limits` (an InertContent), notes
    first."""
    notes = []
    kept = checked_attachments(attachments, limits, notes)
    if len(notes) > NOTES_SHOWN:
        more = len(notes) - NOTES_SHOWN
        notes[NOTES_SHOWN:] = [f"*And {more} more {'attachment was' if more == 1 else 'attachments were'} left out.*"]
    source = as_text(source)
    if len(source) > limits.max_source_chars:
        source = source[:limits.max_source_chars - NOTE_ROOM]
        notes.append(f"*The grader cut this cell to its first {len(source):,} characters.*")
    if active(source, kept):
        source = as_plain_text(source)
        notes.append(SHOWN_AS_TEXT)
    return "\n\n".join([*notes, source]) if notes else source, kept
