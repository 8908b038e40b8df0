"""A cell's time limits in nbgrader's design (classroom.sandbox.cell_limits): CPU time counts, the clock only while the
cell computes nothing (as nbgrader's own limit counts a sleeping cell) or past `wall_factor` times the limit."""
from classroom.sandbox.cell_limits import reason


def stop(used, elapsed, computing, now=0.0, limit=30, deadline=None):
    return reason(used, elapsed, computing, now, limit, 6, deadline, 3600)


def test_cpu_time_past_the_limit_stops_a_cell_whatever_the_clock_says():
    assert stop(30.5, 31, True) == "used more than 30 s of CPU time"
    assert stop(29, 29.5, True) is None


def test_a_computing_cell_on_a_busy_machine_gets_more_of_the_clock_a_waiting_one_does_not():
    assert stop(12, 60, True) is None  # five times slower than its CPU time: the machine is busy
    assert stop(0.1, 31, False) == "ran for more than 30 s"  # asleep, as nbgrader would stop it
    assert stop(12, 181, True) == "ran for more than 180 s on the clock"


def test_no_limit_per_cell_leaves_only_the_whole_runs_deadline():
    for no_limit in (None, 0):
        assert stop(500, 500, True, limit=no_limit) is None
        assert stop(1, 10, False, now=101.0, limit=no_limit, deadline=100.0) == (
            "ran into the 3600 s the grader gives all cells together")
