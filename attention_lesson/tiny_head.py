"""The tiny attention head that notebooks/06-watch-a-wide-layer-stall.ipynb trains, and its appendix 07 too.

Notebook 06 derives the forward and backward pass and prints the source of `loss_and_gradients` and
`qk_norm_loss_and_gradients`; it checks both against central differences (`nudged_gradient`). What lives here is
the code both notebooks run: the task, the starting weights, the training loop with its twins, and Adam's step.

The task: each sequence has T = 8 positions; an input holds CONTENT = 8 standard normal coordinates, then a
one-hot code of its position (D_IN = 16 numbers); the target at position i is the input at position i + 1 (the
last wraps round). The head's output is o_i = sum_j a_ij x_j, with no value matrix; only W^Q and W^K are trained.
"""
from collections import namedtuple

import numpy as np

from attention_lesson.softmax import softmax_rows

T, CONTENT = 8, 8              # positions per sequence; random coordinates carried by each input
D_IN = CONTENT + T             # an input: its content, then a one-hot code for its position
NEXT = (np.arange(T) + 1) % T  # where each position has to look: the next one (the last wraps round)
STEPS, REPEATS, SEQUENCES, SEED = 200, 3, 8, 6
WIDTHS = (16, 64, 256)           # the widths d_k both notebooks train
TWIN = 1e-12                     # a twin's W^Q is (1 + TWIN) times its head's
B1, B2, EPS = 0.9, 0.999, 1e-8   # Adam's usual constants

# What `train` records at every step, per copy: the loss, and the largest |logit| of any row.
History = namedtuple("History", "losses largest_logit")


def make_task(rng, repeats, sequences):
    """Inputs X and targets Y, both (repeats, sequences, T, D_IN); Y at position i is X at NEXT[i]."""
    content = rng.standard_normal((repeats, sequences, T, CONTENT))
    where = np.broadcast_to(np.eye(T), (repeats, sequences, T, T))
    X = np.concatenate([content, where], axis=-1)
    return X, X[:, :, NEXT]


def initial_weights(rng, repeats, d_k):
    """W^Q and W^K, (repeats, D_IN, d_k), with entries of variance 1 / (CONTENT + 1)."""
    scale = 1 / np.sqrt(CONTENT + 1)  # an input has CONTENT + 1 non-zero coordinates of size about 1
    return (scale * rng.standard_normal((repeats, D_IN, d_k)),
            scale * rng.standard_normal((repeats, D_IN, d_k)))


def start(d_k, copies):
    """Task and starting weights, the same draw for every divisor and width, stacked `copies` times."""
    rng = np.random.default_rng(SEED)
    X, Y = make_task(rng, REPEATS, SEQUENCES)
    W_Q, W_K = initial_weights(rng, REPEATS, d_k)
    return [np.tile(a, (copies, 1, 1, 1)[:a.ndim]) for a in (X, Y, W_Q, W_K)]


def row_jacobians(A):
    """J[..., i, j, m] = d a_ij / d s_im, built for every row i."""
    J = -A[..., :, :, None] * A[..., :, None, :]
    J[..., np.arange(T), np.arange(T)] += A
    return J


def through_softmax(A, G):
    """From G = d loss / d A to d loss / d S at the logits: each row g_i is multiplied through its own J_i."""
    return np.einsum("...ij,...ijm->...im", G, row_jacobians(A))


def loss_and_gradients(W_Q, W_K, X, Y, divisor):
    """Loss per copy, the logits S, and the gradients for S, for W^Q and for W^K (notebook 06, section 2)."""
    M = W_Q @ W_K.swapaxes(-1, -2) / divisor           # (copies, D_IN, D_IN): S = X M X^T
    S = X @ M[:, None] @ X.swapaxes(-1, -2)            # logits, (copies, sequences, T, T)
    A = softmax_rows(S.reshape(-1, T)).reshape(S.shape)
    O = A @ X                                          # output o_i = sum over j of a_ij x_j
    loss = np.sum((O - Y) ** 2, axis=-1).mean(axis=(1, 2))
    R = 2 * (O - Y) / (X.shape[1] * T)                 # d loss / d o_i
    dS = through_softmax(A, R @ X.swapaxes(-1, -2))    # d loss / d a_ij = r_i . x_j, then through each J_i
    dM = np.sum(X.swapaxes(-1, -2) @ dS @ X, axis=1)   # summed over the sequences
    return loss, S, dS, dM @ W_K / divisor, dM.swapaxes(-1, -2) @ W_Q / divisor


def rms_normalised(Z):
    """Each row of Z divided by its root mean square, and that root mean square."""
    r = np.sqrt(np.mean(Z**2, axis=-1, keepdims=True))
    return Z / r, r


def qk_norm_loss_and_gradients(W_Q, W_K, X, Y, divisor):
    """As loss_and_gradients, with every query and key scaled to root mean square 1 first (QK-norm; section 7)."""
    (Q, r_Q), (K, r_K) = rms_normalised(X @ W_Q[:, None]), rms_normalised(X @ W_K[:, None])
    S = Q @ K.swapaxes(-1, -2) / divisor
    A = softmax_rows(S.reshape(-1, T)).reshape(S.shape)
    O = A @ X
    loss = np.sum((O - Y) ** 2, axis=-1).mean(axis=(1, 2))
    dS = through_softmax(A, 2 * (O - Y) / (X.shape[1] * T) @ X.swapaxes(-1, -2))
    d = Q.shape[-1]
    back = lambda U, r, dU: (dU - U * np.sum(U * dU, axis=-1, keepdims=True) / d) / r  # through Z -> Z / rms(Z)
    dQ, dK = back(Q, r_Q, dS @ K / divisor), back(K, r_K, dS.swapaxes(-1, -2) @ Q / divisor)
    return loss, S, dS, np.sum(X.swapaxes(-1, -2) @ dQ, axis=1), np.sum(X.swapaxes(-1, -2) @ dK, axis=1)


def nudged_gradient(loss_of, W, h=1e-6):
    """Central differences: nudge each entry of W by +h and -h and watch the loss."""
    grad = np.zeros_like(W)
    for index in np.ndindex(W.shape):
        step = np.zeros_like(W)
        step[index] = h
        grad[index] = (loss_of(W + step) - loss_of(W - step)) / (2 * h)
    return grad


def adam_step(W, g, m, v, t, rate):
    """One Adam step on W, in place: m and v are running means of g and g*g; t counts steps from 1."""
    m += (1 - B1) * (g - m)
    v += (1 - B2) * (g * g - v)
    W -= rate * (m / (1 - B1 ** t)) / (np.sqrt(v / (1 - B2 ** t)) + EPS)


def final_loss(losses):
    """Final loss per rate, mean over the repeats; nan where a twin ended more than 1e-8 from its head."""
    head, twin = losses[-1, :, 0], losses[-1, :, 1]
    return np.where(np.abs(head - twin).max(axis=-1) > 1e-8, np.nan, head.mean(axis=-1))


def loss_text(loss, digits=3):
    """A final loss as the notebooks' tables print it: "~" for a chaotic run (nan from `final_loss`)."""
    return "~" if np.isnan(loss) else f"{loss:.{digits}f}"


def largest_logit_text(run, bound):
    """Per rate, the largest |logit| of a run over all its steps and repeats, as notebook 06 §7 prints it: one
    decimal for a calm run; for a chaotic one, f">{bound}" when head and twin both passed `bound`, else "~"."""
    ends, largest = final_loss(run.losses), run.largest_logit.max(axis=(0, 3))  # (rates, head or twin)
    return [f"{head:.1f}" if not np.isnan(end) else (f">{bound:g}" if min(head, twin) > bound else "~")
            for end, (head, twin) in zip(ends, largest)]


def reached_by(losses, fraction):
    """Which runs over the rates end below `fraction` of the starting loss, reading every run: "calm" when a calm
    run does, "chaotic" when only chaotic runs do, "none" when no run does. A chaotic run counts when head and twin
    both end below (mean over the repeats); where they disagree, the reading depends on the processor: "~"
    (docs/training-experiment.md)."""
    threshold = fraction * losses[0].mean()
    if np.any(final_loss(losses) < threshold):
        return "calm"
    head, twin = losses[-1, :, 0].mean(axis=-1) < threshold, losses[-1, :, 1].mean(axis=-1) < threshold
    return "~" if np.any(head != twin) else "chaotic" if np.any(head) else "none"


def train(d_k, divisor, rates, scale=1.0, adam=False, gradients=loss_and_gradients):
    """History of heads started from `scale` times the usual weights and trained at each rate by gradient descent
    or by Adam, each beside its twin; both fields (STEPS + 1, rates, head or twin, REPEATS)."""
    X, Y, W_Q, W_K = start(d_k, 2 * len(rates))
    twin = np.tile(np.repeat([0.0, TWIN], REPEATS), len(rates))[:, None, None]
    W_Q, W_K = scale * W_Q * (1 + twin), scale * W_K
    rate = np.repeat(rates, 2 * REPEATS)[:, None, None]
    moments = [np.zeros_like(W_Q) for _ in range(4)]  # Adam's m and v for W^Q, then for W^K
    losses, largest = [], []
    for t in range(1, STEPS + 2):
        loss, S, _, dW_Q, dW_K = gradients(W_Q, W_K, X, Y, divisor)
        losses.append(loss)
        largest.append(np.abs(S).max(axis=(1, 2, 3)))
        if t > STEPS:
            break
        if adam:
            adam_step(W_Q, dW_Q, *moments[:2], t, rate)
            adam_step(W_K, dW_K, *moments[2:], t, rate)
        else:
            W_Q -= rate * dW_Q
            W_K -= rate * dW_K
    shape = (STEPS + 1, len(rates), 2, REPEATS)
    return History(np.reshape(losses, shape), np.reshape(largest, shape))
