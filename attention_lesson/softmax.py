"""The row-wise softmax used throughout the lesson (introduced in notebooks/01-why-divide-by-the-root-of-d_k.ipynb)."""
import numpy as np

from attention_lesson.arguments import as_rows


def softmax_rows(logits):
    """Attention weights from logits, row by row: alpha_ij = exp(s_ij) / sum_m exp(s_im).

    Works on one row (1-D) or on a stack of rows (2-D). The row maximum is subtracted before
    exponentiating: the weights are the same (a shift of the whole row cancels), and exp never
    sees a positive argument, so it cannot overflow.
    """
    s = as_rows(logits, "logits")
    shifted = np.exp(s - s.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)
