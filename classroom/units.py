"""Units of size, spelled once for every limit and message of the course's tools (imports nothing)."""

MiB = 2 ** 20


def size(n):
    """A number of bytes as a sentence says it: "20 MiB", "512 bytes"."""
    return f"{n / MiB:g} MiB" if n >= MiB else f"{n} bytes"
