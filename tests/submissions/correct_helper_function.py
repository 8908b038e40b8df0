import numpy as np


def weighted_row_mean(weights, values):
    """The mean of each row of `values`, weighted by the same row of `weights`, kept as a column."""
    return np.sum(weights * values, axis=1, keepdims=True)


def score_gradient(A, G):
    return A * (G - weighted_row_mean(A, G))
