"""Units of size, spelled once for every limit and message of the course's tools (imports nothing)."""

MiB = 2 ** 20
