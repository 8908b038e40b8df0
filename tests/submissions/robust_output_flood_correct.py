import numpy as np

print("x" * 3_000_000)  # a flood of output when the cell runs


def score_gradient(A, G):
    for_show = "y" * 200_000
    print(for_show)
    return A * (G - np.sum(A * G, axis=1, keepdims=True))
