import numpy as np


def score_gradient(A, G):
    inner = (A * G).sum(axis=1)
    return A * (G - inner[:, None])
