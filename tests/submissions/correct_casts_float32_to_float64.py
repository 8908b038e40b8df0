import numpy as np


def score_gradient(A, G):
    A = np.asarray(A, dtype=np.float64)  # rebinding the name, not writing into the caller's array
    G = np.asarray(G, dtype=np.float64)
    return A * (G - (A * G).sum(axis=-1, keepdims=True))
