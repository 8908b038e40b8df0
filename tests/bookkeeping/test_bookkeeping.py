"""classroom.bookkeeping: the course's lock, which says who holds it, and the digest the course's records and quiz
keys are made of, whose values are kept in the course's files and so must never change."""
import multiprocessing

import pytest

from classroom.bookkeeping import lock
from classroom.bookkeeping.digest import digest


def _hold_then_wait(folder, ready, done):
    with lock.hold(folder):
        ready.set()
        done.wait(30)


def test_a_second_run_is_told_who_holds_the_lock(tmp_path):
    ready, done = multiprocessing.Event(), multiprocessing.Event()
    holder = multiprocessing.Process(target=_hold_then_wait, args=(str(tmp_path), ready, done))
    holder.start()
    try:
        assert ready.wait(30)
        with pytest.raises(lock.Busy, match=f"process {holder.pid}"):
            with lock.hold(str(tmp_path)):
                pass
    finally:
        done.set()
        holder.join()
    with lock.hold(str(tmp_path)):  # released when its holder ended
        pass


def test_the_digest_of_kept_records_never_changes():
    """A grading record's digests and a handed-out quiz's key are kept in the course: a new way of digesting would
    make every recorded grading look stale and every handed-out quiz look replaced."""
    assert digest([b"bytes", "text", 1.0, None]) == "a369d876840195d77b57ed45d143ef77"
    assert digest([b"ab"]) != digest([b"a", b"b"])  # each part is closed off
