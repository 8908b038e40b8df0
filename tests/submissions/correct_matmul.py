import numpy as np


def score_gradient(A, G):
    ones = np.ones((A.shape[1], 1), dtype=A.dtype)
    return A * (G - (A * G) @ ones)
