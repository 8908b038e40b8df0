"""Waiting for what a test or a bench started: one polling loop, which fails saying what never happened, and fails at
once, with the end of its log, where the process that was to make it happen has ended instead."""
import time
import urllib.error
import urllib.request

WAIT_S = 120
WAIT_MS = WAIT_S * 1000  # the same, for playwright


def until(condition, what, seconds=WAIT_S, pause=0.2, process=None, log=None):
    """Wait until condition() is true (checked every `pause` s), or fail saying `what` never happened within
    `seconds`; with `process` (a Popen), fail as soon as it has ended; `log()` gives the text a failure ends with."""
    deadline = time.monotonic() + seconds
    while not condition():
        if process is not None and process.poll() is not None:
            raise AssertionError(f"{what}: the process ended (exit {process.returncode}) first\n{log() if log else ''}")
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {seconds} s\n{log() if log else ''}")
        time.sleep(pause)


def status(url, timeout=5):
    """The HTTP status with which a server begins its answer to `url`, read from the status line without waiting for
    the body (Voila sends its status as it starts running a notebook, the page once every cell has run); None if
    nothing answers."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as reply:
            return reply.status
    except urllib.error.HTTPError as refused:
        return refused.code
    except OSError:
        return None


def answers(url, timeout=5):
    """Whether a server answers HTTP at `url` (an HTTP error is an answer: it listens)."""
    return status(url, timeout) is not None
