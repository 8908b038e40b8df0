import numpy as np


def score_gradient(A, G):
    return A * (G - np.sum(A * G, axis=0, keepdims=True))
