"""The row-wise softmax used throughout the lesson (introduced in notebooks/01-why-a-root-of-d_k.ipynb)."""
import numpy as np

from attention_lesson.checks import as_score_rows


def softmax_rows(scores):
    """Share one unit out along each row: alpha_ij = exp(e_ij) / sum_m exp(e_im).

    Works on one row (1-D) or on a stack of rows (2-D). The row maximum is subtracted before
    exponentiating: the result is the same (the softmax ignores a shift of the whole row), but no
    exponential can overflow.
    """
    e = as_score_rows(scores)
    shifted = np.exp(e - e.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)
