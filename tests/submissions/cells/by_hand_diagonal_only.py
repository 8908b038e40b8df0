# only the term j = k of the sum: alpha_k (1 - alpha_k) g_k
by_hand = [1 / 2 * 1 / 2 * 6, 1 / 3 * 2 / 3 * 0, 1 / 6 * 5 / 6 * 12]
