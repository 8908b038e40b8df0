import numpy as np


def score_gradient(A, G):
    T = A.shape[0]
    out = np.empty((T, T), dtype=np.result_type(A, G))
    for i in range(T):
        s = np.dot(A[i], G[i])
        for j in range(T):
            out[i, j] = A[i, j] * (G[i, j] - s)
    return out
