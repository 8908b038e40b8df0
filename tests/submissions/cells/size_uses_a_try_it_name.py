print("a quick look first:", np.round(weights[0], 3))  # `weights` is set by the try-it cell of part 1


def score_gradient_size(Q, K, G, divisor):
    scores = Q @ K.T / divisor
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)
    return float(np.abs(score_gradient(weights, G)).mean())
