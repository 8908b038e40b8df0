def score_gradient_size(Q, K, G, divisor):
    scores = Q @ K.T / divisor
    weights = np.exp(scores)  # overflows once a score passes about 709
    weights /= weights.sum(axis=1, keepdims=True)
    return float(np.abs(score_gradient(weights, G)).mean())
