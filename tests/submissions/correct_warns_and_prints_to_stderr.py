import sys
import warnings

import numpy as np


def score_gradient(A, G):
    with np.errstate(divide="warn"):
        np.log(np.zeros(1))  # a RuntimeWarning on every call
    warnings.warn("this is only a test of the grader", UserWarning)
    print("debug: shapes", A.shape, G.shape, file=sys.stderr)
    print("debug: on stdout too")
    return A * (G - np.sum(A * G, axis=1, keepdims=True))
