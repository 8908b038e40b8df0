import numpy as np


def score_gradient(A, G):
    row = np.sum(A * G, axis=1, keepdims=True)
    return A * (G - row)
