import numpy as np

np.einsum?


def score_gradient(A, G):
    return A * (G - np.einsum("ij,ij->i", A, G)[:, None])
