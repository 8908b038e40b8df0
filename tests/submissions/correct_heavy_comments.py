# For each row i of the map, the softmax couples all the scores of that row:
# for every cell (i, j) the gradient is alpha_ij times (g_ij minus the average of
# row i of G weighted by row i of A). While writing this I first tried a loop
# "for i in range(T): for j in range(T): ..." and then replaced it by broadcasting.
import numpy as np  # NumPy does the looping in C


def score_gradient(A, G):
    """Backward pass of the row-wise softmax.

    For each row, subtract the weighted mean; while the loop version is easier
    to read, this one is what the exercise asks for.
    """
    # weighted mean of each row, shape (T, 1), so that it broadcasts over columns
    mean = (A * G).sum(axis=1, keepdims=True)
    # for every cell: alpha_ij * (g_ij - mean_i)
    return A * (G - mean)  # while we are here: nothing is written into A or G
