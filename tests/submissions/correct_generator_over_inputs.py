import numpy as np


def score_gradient(A, G):
    A, G = (np.asarray(x, dtype=float) for x in (A, G))  # a loop over the two inputs, not over rows
    return A * (G - (A * G).sum(axis=1, keepdims=True))
