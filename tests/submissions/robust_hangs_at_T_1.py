import numpy as np


def score_gradient(A, G):
    T = A.shape[0]
    while T == 1:
        pass
    return A * (G - np.sum(A * G, axis=1, keepdims=True))
