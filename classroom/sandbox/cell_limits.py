"""The time limits of one cell of a sandboxed kernel (classroom.preprocessors.sandboxed_execute), read from outside
the kernel, so that the machine's load does not change them.

`watch` follows the kernel's process tree while a cell runs and returns, in words that follow "it", why the cell
must be interrupted: it used more than `limit` seconds of CPU time running its own code (user time: the kernel's
work for it, mostly fresh memory, costs what the host makes it, classroom.sandbox.process_tree.CpuTime); or it ran
for more than `limit` seconds on the clock while computing nothing (sleeping, waiting), as nbgrader's own limit
counts; or it used more than the `left` CPU seconds of all cells together, the kernel's work counted; or it ran for
more than `wall_factor` times `limit` on the clock even while computing; or the whole run's `deadline` passed. With
no `limit` (None or 0: nbgrader's "no limit"), only the deadline and `left` count.

`interrupt` interrupts the cell, then follows the kernel until it has computed nothing for a while: a kernel that
handles its interrupt computes (it raises KeyboardInterrupt and replies), one that neither computes nor replies (it
ignores SIGINT while it waits, or the student's code broke the kernel's own machinery) never will, and is stopped
rather than waited for up to the cell's time on the clock.
"""
import asyncio
import signal
import time

from .process_tree import Tree

POLL = 0.05  # seconds between two readings of a running cell's CPU time
WINDOW = 1.0  # seconds over which a cell past its time on the clock must be computing to be given more
COMPUTING = 0.05  # the share of one CPU that counts as computing


LEFT_TO_ALL = "used up the CPU time left to all cells"  # the words for a cell past `left`
UNANSWERED = "did not answer when interrupted (it computed nothing for {:g} s after it, and was stopped)"


def reason(used, elapsed, computing, now, limit, wall_factor, deadline, total_seconds, used_total=0.0, left=None):
    """Why a cell that has used `used` CPU seconds of its own (`used_total` with the kernel's work) in `elapsed`
    seconds (and is `computing` or not) must stop now, or None. `left`: the CPU seconds, the kernel's work counted,
    that all cells together have left (None: no such budget)."""
    if left is not None and used_total > left:
        return LEFT_TO_ALL
    if limit and used > limit:
        return f"used more than {limit:g} s of CPU time"
    if limit and elapsed > limit and not computing:
        return f"ran for more than {limit:g} s"
    if limit and elapsed > wall_factor * limit:
        return f"ran for more than {wall_factor * limit:g} s on the clock"
    if deadline is not None and now > deadline:
        return f"ran into the {total_seconds:g} s the grader gives all cells together"
    return None


def _slide(window, now, total):
    """The readings [(time, CPU seconds)] of the last WINDOW seconds with (now, total) added, and whether the tree
    computed over them (at least COMPUTING of one CPU)."""
    window = [(t, c) for t, c in window if now - t <= WINDOW] + [(now, total)]
    return window, window[-1][1] - window[0][1] >= COMPUTING * max(now - window[0][0], POLL)


def kernel_tree(km):
    """The process tree of `km`'s kernel (from its launcher down), its CPU time read from the tree's control group where
    the kernel manager made one (SandboxedKernelManager.cgroup); None before the kernel runs."""
    process = getattr(getattr(km, "provisioner", None), "process", None)
    return None if process is None else Tree(process.pid, getattr(km, "cgroup", None))


async def watch(km, limit, wall_factor, deadline=None, total_seconds=None, left=None):
    """Follow the process tree of `km`'s kernel from now on; return why its cell must stop (`reason`)."""
    tree = kernel_tree(km)
    start, began = tree.cpu(rescan=True), time.monotonic()
    window = [(began, start.total)]
    limit = limit if limit and limit > 0 else None
    while True:
        await asyncio.sleep(POLL)
        now, cpu = time.monotonic(), tree.cpu()
        window, computing = _slide(window, now, cpu.total)
        why = reason(cpu.user - start.user, now - began, computing, now, limit, wall_factor, deadline, total_seconds,
                     cpu.total - start.total, left)
        if why:
            return why


async def quiet_for(km, seconds):
    """Return once `km`'s kernel has computed nothing for `seconds` on end (its CPU time read as `watch` reads it)."""
    tree = kernel_tree(km)
    quiet_since = time.monotonic()
    window = [(quiet_since, tree.cpu(rescan=True).total)]
    while time.monotonic() - quiet_since <= seconds:
        await asyncio.sleep(POLL)
        now = time.monotonic()
        window, computing = _slide(window, now, tree.cpu().total)
        if computing:
            quiet_since = now


async def interrupt(km, grace, giving_up):
    """Interrupt the cell `km`'s kernel runs. The caller cancels this once the cell replies; a kernel that computes
    nothing for `grace` seconds and has not replied never will: `giving_up()` is called and the kernel killed (its
    client then sees it die)."""
    await km.interrupt_kernel()
    await quiet_for(km, grace)
    giving_up()
    await km.signal_kernel(signal.SIGKILL)
