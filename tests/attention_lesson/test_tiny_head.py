"""The tiny head of notebooks 06 and 07 (attention_lesson.tiny_head): its gradients and its calm-run readings."""
import numpy as np
import pytest

from attention_lesson import tiny_head as head


@pytest.mark.parametrize("gradients", [head.loss_and_gradients, head.qk_norm_loss_and_gradients])
@pytest.mark.parametrize("divisor", [1.0, 2.0])
def test_the_backward_pass_agrees_with_central_differences(gradients, divisor):
    rng = np.random.default_rng(5)
    X, Y = head.make_task(rng, 1, 2)
    W_Q, W_K = head.initial_weights(rng, 1, 3)
    _, _, _, dW_Q, dW_K = gradients(W_Q, W_K, X, Y, divisor)
    by_Q = head.nudged_gradient(lambda W: gradients(W, W_K, X, Y, divisor)[0][0], W_Q)
    by_K = head.nudged_gradient(lambda W: gradients(W_Q, W, X, Y, divisor)[0][0], W_K)
    assert np.abs(dW_Q - by_Q).max() < 1e-7 and np.abs(dW_K - by_K).max() < 1e-7


def test_qk_norm_bounds_every_logit_by_the_root_of_d_k():
    rng = np.random.default_rng(6)
    X, Y = head.make_task(rng, 1, 4)
    W_Q, W_K = (50 * w for w in head.initial_weights(rng, 1, 16))  # large weights: large logits without the norm
    assert np.abs(head.loss_and_gradients(W_Q, W_K, X, Y, 4.0)[1]).max() > 4
    assert np.abs(head.qk_norm_loss_and_gradients(W_Q, W_K, X, Y, 4.0)[1]).max() <= 4 + 1e-12


def test_reached_by_reads_every_run_and_says_which_kind():
    losses = np.ones((head.STEPS + 1, 2, 2, head.REPEATS))
    losses[-1, 0] = 0.6                              # rate 0: calm, ends at 0.6 of the start
    losses[-1, 1, 0], losses[-1, 1, 1] = 0.01, 0.02  # rate 1: head and twin apart, so chaotic; both far below
    assert head.reached_by(losses, 0.7) == "calm" and head.reached_by(losses, 1 / 2) == "chaotic"
    assert head.reached_by(losses, 0.005) == "none"
    losses[-1, 1, 1] = 0.4                           # the twin ends above a tenth, its head below
    assert head.reached_by(losses, 1 / 10) == "~"


def test_loss_text_marks_a_chaotic_run_and_rounds_a_calm_one():
    losses = np.ones((head.STEPS + 1, 2, 2, head.REPEATS))
    losses[-1, 1, 1] = 0.5                           # rate 1: the twin ends apart from its head
    calm, chaotic = head.final_loss(losses)
    assert (head.loss_text(calm), head.loss_text(chaotic)) == ("1.000", "~")
    assert head.loss_text(0.123456, 4) == "0.1235"
