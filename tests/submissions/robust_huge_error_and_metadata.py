import base64
import struct
import zlib

import numpy as np
from IPython.display import display

# A correct function whose cell also makes output far past every cap: a 5-million-character error message shown
# without stopping the cell, 5 million characters of output metadata, and a PNG whose header claims 50000 x 50000
# pixels. The autograded notebook and the feedback stay small, and say what was cut; the grade does not change.


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


bomb = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 50_000, 50_000, 8, 0, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(b"\0" * 1024)) + chunk(b"IEND", b""))
display({"image/png": base64.b64encode(bomb).decode(), "text/plain": "a picture"}, raw=True)
display({"text/plain": "metadata"}, metadata={"junk": "M" * 5_000_000}, raw=True)
try:
    raise ValueError("E" * 5_000_000)
except ValueError:
    try:
        get_ipython().showtraceback()  # in the notebook: an error output, and the cell goes on
    except NameError:  # the grader's own run of this cell has no IPython
        pass


def score_gradient(A, G):
    return A * (G - np.sum(A * G, axis=1, keepdims=True))
