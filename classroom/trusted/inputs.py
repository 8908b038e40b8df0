"""The two files that carry the arrays of one call of the student's function, written and read back by the grader.

The grading child (classroom.trusted.server) maps the writeable file shared and the read-only one read-only (bound
read-only into the sandbox, owned by the grader, classroom.trusted.child_handle); after the call the grader reads the
writeable file back itself, so what the call did to its inputs is never the child's word.
"""
import os
import shutil

import numpy as np

from ..sandbox import scratch
from . import failures, protocol
from .student_errors import StudentError


class Inputs:
    """The two files that carry a call's arrays: `rw` (writeable by the child) and `ro` (only readable there).

    An argument that is an array is mapped from them; any other argument travels as plain data in the request
    (classroom.trusted.protocol), any arrays inside it in the files too. Only the arrays passed as arguments of their
    own are read back after the call: a list, a dict or a string reaches the student's function as a copy."""

    def __init__(self):
        self.folder = scratch.folder("grading-inputs")
        os.chmod(self.folder, 0o755)
        self.rw, self.ro = os.path.join(self.folder, "rw"), os.path.join(self.folder, "ro")
        for path in (self.rw, self.ro):
            open(path, "wb").close()
        os.chmod(self.ro, 0o644)

    def put(self, args):
        """Write the arrays of `args` into the files; returns the specs the child rebuilds the arguments from (and
        the grader reads the arrays back by)."""
        sizes, parts = {self.rw: 0, self.ro: 0}, {self.rw: [], self.ro: []}

        def place(array):
            if array.dtype.kind not in protocol.ARRAY_KINDS:
                raise TypeError(f"the grader passes arrays of numbers, strings or dates, not {array.dtype}")
            path = self.rw if array.flags.writeable else self.ro
            offset = -(-sizes[path] // 64) * 64
            parts[path].append((offset, np.ascontiguousarray(array).tobytes()))
            sizes[path] = offset + array.nbytes
            return {"file": path, "offset": offset, "dtype": array.dtype.str, "shape": list(array.shape),
                    "writeable": path == self.rw}

        specs = []
        for arg in args:
            if isinstance(arg, np.ndarray):
                specs.append(place(arg))
                continue
            nested = []
            try:
                value = protocol.tree(arg, lambda array: nested.append(place(array)) or len(nested) - 1)
            except protocol.TooBig as error:
                raise failures.AssignmentError(
                    f"this check passes your code a value this assignment's grader cannot pass ({error}): it passes "
                    f"{protocol.PLAIN_DATA} only. That is not your mistake; your teacher is told.") from None
            specs.append({"value": value, "arrays": nested})
        for path, pieces in parts.items():
            with open(path, "r+b") as file:  # the same inode: it is what the sandbox has bound
                if os.fstat(file.fileno()).st_size != sizes[path]:  # resizing costs far more than writing
                    file.truncate(sizes[path])
                for offset, data in pieces:
                    file.seek(offset)
                    file.write(data)
        return specs

    @staticmethod
    def read(spec):
        """One argument as it is in its file now (read by the grader after the call); None for plain data."""
        if "value" in spec:
            return None
        dtype = np.dtype(spec["dtype"])
        count = int(np.prod(spec["shape"], dtype=np.int64))
        with open(spec["file"], "rb") as file:
            file.seek(spec["offset"])
            data = file.read(count * dtype.itemsize)
        if len(data) != count * dtype.itemsize:
            raise StudentError("your code changed the size of the file holding its inputs", failures.WRONG_TYPE)
        return np.frombuffer(data, dtype=dtype).reshape(spec["shape"]).copy()

    def remove(self):
        shutil.rmtree(self.folder, ignore_errors=True)
