import numpy as np


def score_gradient(A, G):
    while True:
        pass
