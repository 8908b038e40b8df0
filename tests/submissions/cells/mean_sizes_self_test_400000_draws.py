def mean_sizes(d_k, draws, seed, T=8):
    rng = np.random.default_rng(seed)
    undivided = divided = 0.0
    for _ in range(draws):
        Q, K, G = rng.normal(size=(T, d_k)), rng.normal(size=(T, d_k)), rng.normal(size=(T, T))
        undivided += score_gradient_size(Q, K, G, 1.0) / draws
        divided += score_gradient_size(Q, K, G, d_k ** 0.5) / draws
    return undivided, divided


print("my own check, with many draws:", mean_sizes(64, 400000, seed=0))
