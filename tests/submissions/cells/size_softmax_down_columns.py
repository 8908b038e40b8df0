def score_gradient_size(Q, K, G, divisor):
    scores = Q @ K.T / divisor
    weights = np.exp(scores - scores.max(axis=0, keepdims=True))
    weights /= weights.sum(axis=0, keepdims=True)  # normalised down the columns, not along the rows
    return float(np.abs(score_gradient(weights, G)).mean())
