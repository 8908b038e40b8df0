import time

import numpy as np


def score_gradient(A, G):
    time.sleep(0.5)  # right, but every call waits half a second: no CPU time, only time on the clock
    return A * (G - np.sum(A * G, axis=1, keepdims=True))
