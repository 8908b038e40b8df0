"""Due dates read right, or refused with a sentence that says what to write instead.

nbgrader 0.9.5 reads every due date through `nbgrader.utils.parse_utc`: `nbgrader db assignment add --duedate`,
`nbgrader generate_assignment --duedate` and the formgrader's due-date field (which sends the date and its zone
field joined by a space) all end in the gradebook's `update_or_create_assignment`, which calls it. Its reading of
"2026-12-01 09:05:00 -0500" takes -0500 as -500 *seconds* (09:13:20 UTC instead of 14:05 UTC), and a zone it does
not know ("PST", "Europe/Nowhere") is dropped without a word, so the date is taken as UTC.

`parse_due(text)` reads a date with dateutil (as nbgrader does) and a zone that is one of:
  * nothing: the date is UTC, as nbgrader stores every date;
  * an offset: -0500, +05:30, -05, Z;
  * a name the system's time-zone database knows: UTC, GMT, EST, CET, America/New_York, Europe/Berlin (daylight
    saving time as it applies on that date).
Anything else is refused (ValueError, DueDateError): an unknown name ("PST": say -0800 or America/Los_Angeles), the
POSIX form UTC-5 (which means +5), a local time that does not exist or happens twice at a daylight-saving change.

`parse_utc` is nbgrader's parse_utc with due dates read by parse_due; the plugin selection
(classroom/plugins/nbgrader_config.py) puts it in place of nbgrader's, at nbgrader's one seam for due dates
(classroom.nbgrader_seams.read_due_dates_strictly), so every nbgrader command and the formgrader that read
the course's configuration use it. Timestamps nbgrader writes itself ("2026-12-01 14:05:00.123456 UTC") read as
before.
"""
import datetime
import re
import zoneinfo

import dateutil.parser

FORMS = ("2026-12-14 23:59:00 UTC", "2026-12-14 23:59:00 -0500", "2026-12-14 23:59:00 America/New_York")
POSIX = re.compile(r"\b(?:UTC|GMT)\s*[+-]\s*\d", re.IGNORECASE)  # "UTC-5" means +5 hours in POSIX: never guessed


class DueDateError(ValueError):
    """A due date that cannot be read for sure; str() says why and how to write it."""

    def __init__(self, text, why):
        super().__init__(f"the due date {text!r} cannot be read: {why}. Write it as one of: "
                         + "; ".join(FORMS) + " (a date without a zone is UTC)")


def known_zone(name):
    """The zone of the system's time-zone database called `name` (zoneinfo.ZoneInfo), or None if it has none."""
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):  # ValueError: not a key at all ("../x", "")
        return None


def _exists(when):
    """Whether the aware local time `when` is on the clocks (not skipped at a daylight-saving change)."""
    back = when.astimezone(datetime.timezone.utc).astimezone(when.tzinfo)
    return back.replace(tzinfo=None) == when.replace(tzinfo=None)


def _ambiguous(when):
    """Whether the aware local time `when` happens twice (the clocks go back over it)."""
    return when.replace(fold=0).utcoffset() != when.replace(fold=1).utcoffset()


def _zone(text, name, offset):
    """dateutil's `tzinfos` callback: an offset as it is, a zone name only if the time-zone database knows it."""
    if name is None:
        return offset
    if name.upper() in ("UTC", "Z", "GMT"):
        return datetime.timezone.utc
    found = known_zone(name)
    if found is None:
        raise DueDateError(text, f"the time zone {name!r} is unknown (write an offset such as -0800, or a zone name "
                                 "such as America/Los_Angeles)")
    return found


def _read(text, tail_zone):
    try:
        when = dateutil.parser.parse(text, tzinfos=lambda name, offset: _zone(text, name, offset))
    except DueDateError:
        raise
    except (ValueError, OverflowError) as exc:
        raise DueDateError(text, str(exc)) from None
    if tail_zone is not None:
        if when.tzinfo is not None:
            raise DueDateError(text, "it names two time zones")
        when = when.replace(tzinfo=tail_zone)
    return when


def parse_due(text):
    """The UTC time (a naive datetime, as nbgrader stores dates) that `text` names; DueDateError if it cannot be read
    for sure (see the module docstring)."""
    original, text = text, text.strip().strip("\"'").strip()
    if not text:
        raise DueDateError(original, "it is empty")
    if POSIX.search(text):
        raise DueDateError(original, "UTC-5 and the like mean the opposite sign in POSIX (write -0500 instead)")
    tail_zone, head = None, text
    words = text.rsplit(None, 1)
    if len(words) == 2 and "/" in words[1]:  # a zone name of the database (America/New_York): dateutil cannot read it
        tail_zone = known_zone(words[1])
        if tail_zone is None:
            raise DueDateError(original, f"the time zone {words[1]!r} is unknown")
        head = words[0]
    when = _read(head, tail_zone)
    if when.tzinfo is None:
        return when
    if not _exists(when):
        raise DueDateError(original, "that local time does not exist (the clocks jump over it at a daylight-saving "
                                     "change)")
    if _ambiguous(when):
        raise DueDateError(original, "that local time happens twice (the clocks go back at a daylight-saving "
                                     "change): write it with an offset")
    return when.astimezone(datetime.timezone.utc).replace(tzinfo=None)


def parse_utc(ts):
    """nbgrader.utils.parse_utc with due dates read by parse_due: None as None, a datetime converted to naive UTC as
    nbgrader does, a string through parse_due."""
    if ts is None:
        return None
    if isinstance(ts, datetime.datetime):
        return ts if ts.tzinfo is None else (ts - ts.utcoffset()).replace(tzinfo=None)
    return parse_due(ts)
