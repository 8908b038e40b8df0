import numpy as np


def score_gradient(A, G):
    """A ufunc's reduce is a whole-array operation, whatever its name."""
    weighted_mean = np.add.reduce(A * G, axis=1, keepdims=True)
    return A * (G - weighted_mean)
