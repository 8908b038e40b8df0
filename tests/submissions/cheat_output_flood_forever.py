import numpy as np

while True:
    print("flood " * 10_000)


def score_gradient(A, G):
    return A * (G - np.sum(A * G, axis=1, keepdims=True))
