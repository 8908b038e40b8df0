import numpy as np


def score_gradient(A, G):
    rows = [a * (g - np.dot(a, g)) for a, g in zip(A, G)]
    return np.array(rows).reshape(A.shape)
