import numpy as np


def mean_sizes(d_k, draws, seed, T=8):
    """Another correct way: every draw made up front, keys first, from a generator of another kind."""
    rng = np.random.Generator(np.random.PCG64DXSM(seed))
    keys = rng.standard_normal((draws, T, d_k))
    queries = rng.standard_normal((draws, T, d_k))
    upstream = rng.standard_normal((draws, T, T))
    sizes = np.array([[score_gradient_size(q, k, g, s) for s in (1.0, np.sqrt(d_k))]
                      for q, k, g in zip(queries, keys, upstream)])
    return tuple(sizes.mean(axis=0))
