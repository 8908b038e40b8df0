import time

import numpy as np


def score_gradient(A, G):
    time.sleep(1.3)  # right, but slow: every call takes 1.3 s
    return A * (G - np.sum(A * G, axis=1, keepdims=True))
