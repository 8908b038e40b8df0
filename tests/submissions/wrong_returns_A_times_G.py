import numpy as np


def score_gradient(A, G):
    return A * G
