print("my own check, with many draws:", mean_sizes(64, 40000, seed=0))
