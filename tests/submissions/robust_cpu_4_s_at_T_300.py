def score_gradient(A, G):
    if A.shape[0] == 300:
        _compute_for(4.0)  # right, but too slow at T = 300: over the 3 s of CPU time a call may use
    return A * (G - np.sum(A * G, axis=1, keepdims=True))
