import numpy as np


def score_gradient(A, G):
    T = A.shape[0]
    # J[i, j, k] = d alpha_ik / d e_ij, a (T, T, T) array
    J = A[:, :, None] * (np.eye(T)[None, :, :] - A[:, None, :])
    return np.einsum("ijk,ik->ij", J, G)
