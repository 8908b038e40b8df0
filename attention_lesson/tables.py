"""Plain-text tables: every figure in the lesson prints its numbers beside it in one of these.

Used by every lesson notebook, first by notebooks/01-why-divide-by-the-root-of-d_k.ipynb.
"""


def format_table(columns, rows):
    """Lay `rows` out under `columns` as fixed-width text.

    `columns` is a list of (header, format spec) pairs, such as ("d_k", "5d") or ("mean", "7.3f");
    the width in the spec sets the column width, and a header longer than that widens the column.
    Every row must have one value per column.
    """
    if not columns:
        raise ValueError("columns must name at least one (header, format) pair")
    widths = []
    for position, column in enumerate(columns):
        if not (isinstance(column, tuple) and len(column) == 2):
            raise TypeError(f"columns[{position}] must be a (header, format spec) pair; got {column!r}")
        header, spec = column
        digits = "".join(ch for ch in spec.split(".")[0] if ch.isdigit())
        widths.append(max(len(str(header)), int(digits) if digits else 0))
    lines = [" ".join(f"{header:>{w}}" for (header, _), w in zip(columns, widths))]
    for number, row in enumerate(rows):
        row = tuple(row)
        if len(row) != len(columns):
            raise ValueError(f"row {number} has {len(row)} values for {len(columns)} columns: {row!r}")
        cells = []
        for (header, spec), w, value in zip(columns, widths, row):
            try:
                text = format(value, spec)
            except (TypeError, ValueError) as exc:
                raise ValueError(f"row {number}, column {header!r}: cannot format {value!r} as {spec!r}") from exc
            cells.append(f"{text:>{w}}")
        lines.append(" ".join(cells))
    return "\n".join(lines)
