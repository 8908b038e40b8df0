import os

import numpy as np


def _compute_for(seconds):
    """Busy for this many seconds of CPU time in its own code (user time, what a call's limit counts; a loop that
    asks the clock at every step spends most of its time in the kernel): on a loaded machine, many more on the
    clock."""
    stop = os.times().user + seconds
    for step in range(1000000000000):  # a loop of a length written out: not over cells or rows
        if step % 10000 == 0 and os.times().user > stop:
            break
