"""A cell's time limits in nbgrader's design (classroom.sandbox.cell_limits): CPU time counts, the clock only while the
cell computes nothing (as nbgrader's own limit counts a sleeping cell) or past `wall_factor` times the limit; and the
CPU time of a tree, which every limit reads (classroom.sandbox.process_tree)."""
import subprocess
import sys
import time

import pytest

from classroom.sandbox import cgroups, launch
from classroom.sandbox.cell_limits import LEFT_TO_ALL, reason
from classroom.sandbox.process_tree import Tree
from classroom.units import MiB


def stop(used, elapsed, computing, now=0.0, limit=30, deadline=None):
    return reason(used, elapsed, computing, now, limit, 6, deadline, 3600)


def test_cpu_time_past_the_limit_stops_a_cell_whatever_the_clock_says():
    assert stop(30.5, 31, True) == "used more than 30 s of CPU time"
    assert stop(29, 29.5, True) is None


def test_a_computing_cell_on_a_busy_machine_gets_more_of_the_clock_a_waiting_one_does_not():
    assert stop(12, 60, True) is None  # five times slower than its CPU time: the machine is busy
    assert stop(0.1, 31, False) == "ran for more than 30 s"  # asleep, as nbgrader would stop it
    assert stop(12, 181, True) == "ran for more than 180 s on the clock"


def test_a_cells_own_limit_counts_its_own_code_and_what_all_cells_have_left_counts_the_kernels_work_too():
    # 2 s of its own code and 9 s of the kernel's work (fresh memory): within its own 30 s, not within 10 s left to all
    assert reason(2, 11, True, 0.0, 30, 6, None, 3600, used_total=11, left=10) == LEFT_TO_ALL
    assert reason(2, 11, True, 0.0, 30, 6, None, 3600, used_total=11, left=12) is None
    assert reason(31, 31, True, 0.0, 30, 6, None, 3600, used_total=31, left=None) == "used more than 30 s of CPU time"


def test_no_limit_per_cell_leaves_only_the_whole_runs_deadline():
    for no_limit in (None, 0):
        assert stop(500, 500, True, limit=no_limit) is None
        assert stop(1, 10, False, now=101.0, limit=no_limit, deadline=100.0) == (
            "ran into the 3600 s the grader gives all cells together")


BURN = """import sys, time
start = time.process_time()
while time.process_time() - start < 0.4:
    pass
sys.stdin.read()
"""


def test_a_trees_cpu_time_is_read_from_its_control_group_and_is_what_its_processes_used():
    """Where the tree has a control group that counts CPU time, the limits read it there (one file, not a search of
    the machine's processes); it must say what psutil reads from the tree's processes, here a launcher that burns
    0.4 s of CPU time and then waits."""
    group = launch.new_cgroup(512 * MiB)
    if group is None or group.cpu_times() is None:
        why = cgroups.support()["why"] or "the machine's control groups do not count CPU time (no v1 cpuacct)"
        pytest.skip(f"no control group that counts CPU time here: {why}")
    proc = subprocess.Popen(launch.limited([sys.executable, "-c", BURN], 512 * MiB, 30, cgroup=group),
                            stdin=subprocess.PIPE)
    try:
        counted, searched = Tree(proc.pid, group), Tree(proc.pid)
        while searched.cpu(rescan=True).total < 0.4 and proc.poll() is None:
            time.sleep(0.05)
        time.sleep(0.1)  # it waits on its standard input now: neither count grows
        by_group, by_processes = counted.cpu(), searched.cpu(rescan=True)
        assert 0.35 <= by_group.total <= by_processes.total + 0.05, (by_group, by_processes)
        assert by_processes.total - by_group.total < 0.3, "the group missed CPU time the tree's processes used"
        assert 0.1 <= by_group.user <= by_group.total and abs(by_group.user - by_processes.user) < 0.1, \
            (by_group, by_processes)  # the part that is its own code's (user time) agrees too
    finally:
        proc.stdin.close()
        proc.wait()
        group.close()
