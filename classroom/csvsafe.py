"""Every CSV file the course writes, safe to open in a spreadsheet app: the one place for that rule.

  - The csv module writes the fields, quoting where needed, so a comma, a quote or a line break inside a field (a
    student id such as `c15eve,,,,21.0`) never shifts the columns.
  - A text field a spreadsheet would evaluate as a formula, one starting with = + - @, a tab or a carriage return
    (or the full-width ＝ ＋ － ＠ that some spreadsheets read the same way), is written with a leading single
    quote, which spreadsheets show as text. Numbers are written as numbers.

Used by the class report (classroom/report/spreadsheet.py, `<assignment>-by-check.csv`) and by `make grades`
(classroom/plugins/csv_export.py, nbgrader export's grades.csv).
"""
import csv

from . import atomic

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def text(value):
    """`value` as a text field a spreadsheet shows as written."""
    value = str(value)
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def field(value, number=str):
    """One CSV field: None as empty, an int or float through `number`, anything else as inert text."""
    if value is None:
        return ""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return number(value)
    return text(value)


def write(path, rows, number=str):
    """Write `rows` (sequences of values) to the CSV file `path`, UTF-8, every value through field().

    Lines end in CRLF (RFC 4180), never a bare LF: the csv module quotes a field holding a carriage return only when
    the line terminator holds one too, and an unquoted one splits the row in a reader."""
    with atomic.replacing(path, "w", newline="", encoding="utf-8") as handle:  # whole or not at all
        writer = csv.writer(handle, lineterminator="\r\n")
        writer.writerows([field(value, number) for value in row] for row in rows)
    return path
