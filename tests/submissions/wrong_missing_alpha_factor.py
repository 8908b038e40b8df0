import numpy as np


def score_gradient(A, G):
    return G - (A * G).sum(axis=1, keepdims=True)
