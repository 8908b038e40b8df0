"""Units of size, spelled once for every limit and message of the course's tools (imports nothing)."""

MiB = 2 ** 20
# nbgrader's kB, in which CourseDirectory.max_file_size and .max_dir_size count: 1000 bytes, not 1024, as nbgrader's
# own copies read them (nbgrader.utils.ignore_patterns, the exchange's do_copy).
NBGRADER_KB = 1000


def nbgrader_bytes(kilobytes):
    """The bytes of one of nbgrader's size limits, given in its kB (CourseDirectory.max_file_size, .max_dir_size)."""
    return NBGRADER_KB * kilobytes


def size(n):
    """A number of bytes as a sentence says it: "20 MiB", "512 bytes"."""
    return f"{n / MiB:g} MiB" if n >= MiB else f"{n} bytes"
