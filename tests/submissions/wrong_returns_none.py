import numpy as np


def score_gradient(A, G):
    result = A * (G - np.sum(A * G, axis=1, keepdims=True))
