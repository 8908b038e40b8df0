import inspect
import threading

import numpy as np


def score_gradient(A, G):
    total = getattr(np, "sum")  # a name written out: the static reading sees it
    return A * (G - total(A * G, axis=1, keepdims=True))


# My own checks beside the function: none of this is score_gradient's work.
print("signature:", inspect.signature(score_gradient))
for name in ("shape", "dtype"):
    print(name, getattr(score_gradient(np.eye(2), np.eye(2)), name))
worker = threading.Thread(target=score_gradient, args=(np.eye(3), np.eye(3)))
worker.start()
worker.join()
