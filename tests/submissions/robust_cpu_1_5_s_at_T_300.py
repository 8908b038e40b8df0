def score_gradient(A, G):
    if A.shape[0] == 300:
        _compute_for(1.5)  # right, but slow at T = 300: half the 3 s of CPU time a call may use
    return A * (G - np.sum(A * G, axis=1, keepdims=True))
