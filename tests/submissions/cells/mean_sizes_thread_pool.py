from concurrent.futures import ThreadPoolExecutor

_pool = ThreadPoolExecutor(2)  # the draws of a measurement, two at a time


def mean_sizes(d_k, draws, seed, T=8):
    rng = np.random.default_rng(seed)
    sets = [(rng.normal(size=(T, d_k)), rng.normal(size=(T, d_k)), rng.normal(size=(T, T))) for _ in range(draws)]
    size = globals()["score_gradient_size"]  # my function, found by name

    def both(draw):
        Q, K, G = draw
        return size(Q, K, G, 1.0), size(Q, K, G, np.sqrt(d_k))

    return tuple(np.mean(list(_pool.map(both, sets)), axis=0))
