"""The row-wise softmax used throughout the lesson (introduced in notebooks/01-why-divide-by-the-root-of-d_k.ipynb)."""
import numpy as np

from attention_lesson.checks import as_score_rows


def softmax_rows(scores):
    """Attention weights from scores, row by row: alpha_ij = exp(e_ij) / sum_m exp(e_im).

    Works on one row (1-D) or on a stack of rows (2-D). The row maximum is subtracted before
    exponentiating: the weights are the same (a shift of the whole row cancels), and exp never
    sees a positive argument, so it cannot overflow.
    """
    e = as_score_rows(scores)
    shifted = np.exp(e - e.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)
