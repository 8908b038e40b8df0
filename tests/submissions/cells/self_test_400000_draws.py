print("my own check, with very many draws:", mean_sizes(64, 400000, seed=0))
