"""Waiting for what a test or a bench started: one polling loop, which fails saying what never happened, and fails at
once, with the end of its log, where the process that was to make it happen has ended instead."""
import time
import urllib.error
import urllib.request

WAIT_S = 120


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


def answers(url, timeout=5):
    """Whether a server answers HTTP at `url` (an HTTP error is an answer: it listens)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout):
            return True
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False
