"""What the instructor sees while a class is graded: a progress bar on a terminal, plain lines anywhere else.

On a terminal (stderr is a TTY): one tqdm bar with the count, the rate, the time left (ETA) and the failures so far;
every other message is printed above it. Elsewhere (a log file, CI, a pipe): the driver's plain lines, one per
submission as it is handed to a grader (`3/40 alice: grading (why)`), which a script can follow. The total is the
number of submissions this run grades: after an interrupted run, what was left.
"""
import sys

from tqdm import tqdm


class _Bar(tqdm):
    monitor_interval = 0  # no monitor thread: grader processes are forked from the driver while the bar is shown


class Progress:
    """Progress of one run over `total` submissions; `say` prints one plain line (classroom.grading.driver.say)."""

    def __init__(self, total, say, stream=None, bar=None):
        self.stream = stream or sys.stderr
        self.say_plain, self.total, self.started_count, self.failures = say, total, 0, 0
        bar = self.stream.isatty() if bar is None else bar
        self.bar = _Bar(total=total, file=self.stream, unit="submission", desc="grading", dynamic_ncols=True,
                        miniters=1, postfix={"failed": 0}) if bar and total else None

    def say(self, message):
        if self.bar is None:
            self.say_plain(message)
        else:
            with self.bar.external_write_mode():
                self.say_plain(message)

    def started(self, student, why):
        self.started_count += 1
        if self.bar is None:
            self.say_plain(f"{self.started_count}/{self.total} {student}: grading ({why})")

    def finished(self, failed):
        self.failures += bool(failed)
        if self.bar is not None:
            self.bar.set_postfix(failed=self.failures, refresh=False)
            self.bar.update(1)

    def close(self):
        if self.bar is not None:
            self.bar.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
