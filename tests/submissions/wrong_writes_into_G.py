import numpy as np


def score_gradient(A, G):
    G -= np.sum(A * G, axis=1, keepdims=True)
    G *= A
    return G
