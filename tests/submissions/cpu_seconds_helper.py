import time

import numpy as np


def _compute_for(seconds):
    """Busy for this many seconds of CPU time: on a loaded machine, many more on the clock."""
    stop = time.process_time() + seconds
    for _ in range(1000000000000):  # a loop of a length written out: not over cells or rows
        if time.process_time() > stop:
            break
