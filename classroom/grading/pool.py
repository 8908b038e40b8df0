"""Where submissions are staged: in the driver itself, in N processes of this machine, or on Dask workers.

The driver (classroom.grading.driver) hands `Stager.run` its [(Job, why)] and gets back events in the order things
happen: ("started", job, why) when a submission is handed to a grader, ("finished", job, why, outcome) when its
staging ends, where outcome is a Staged (classroom.grading.staging) or the GraderFailure that stopped it. Only the
driver commits (classroom.grading.commit), one result at a time: the gradebook has a single writer, whatever the
number of graders. At most as many submissions are out as there are graders, so an interrupted run loses at most
that many stagings (each keeps its previous state; the next run grades it).

  Serial  (`jobs` 1, no scheduler): stage() in the driver's process, one after another.
  Local   (`jobs` N > 1): N processes forked from the driver. Each dies with the driver (PR_SET_PDEATHSIG: even a
          SIGKILL of the driver ends them, and bubblewrap's --die-with-parent then ends their sandboxes), ignores
          Ctrl-C (the driver stops them). A process that dies (the out-of-memory killer) breaks the pool: the
          submissions out at that moment fail for this run, and a new pool grades the rest.
  Dask    (`scheduler` tcp://HOST:PORT): each staging is a task of Dask `distributed`. Submissions and results travel
          through the course's shared file system (the Job and the Staged hold paths; Dask carries only those small
          records), so every worker must see the course directory at the same path. A worker lost mid-task has its
          tasks run again elsewhere by the scheduler (up to its `allowed-failures`, then KilledWorker, which fails
          that submission for this run); a staging area left by a lost attempt is never committed and is removed at
          the end of the run.
"""
import collections
import concurrent.futures
from concurrent.futures.process import BrokenProcessPool
import contextlib
import ctypes
import logging
import multiprocessing
import os
import signal
import socket
import uuid

from ..sandbox import launch
from . import environment, staging

PR_SET_PDEATHSIG = 1


class Unreachable(RuntimeError):
    """The Dask scheduler given with --scheduler does not answer; str() says so and what to do."""


def stage_anywhere(job, template, work):
    """staging.stage() as a grader process or a Dask worker runs it: the course environment's programs on PATH
    (nbgrader runs `alembic`), and the sandbox required as the driver requires it."""
    environment.prepare()
    enabled = (job.config or {}).get("Sandbox", {}).get("enabled", True)
    if enabled and launch.bwrap_path() is None:
        raise staging.GraderFailure(f"{socket.gethostname()} has no bubblewrap (`bwrap`), so it cannot grade: "
                                    "install it there (apt-get install bubblewrap)")
    return staging.stage(job, template, work, logging.getLogger("classroom.autograde"))  # warnings only


def signal_on_parent_death(signum, parent):
    """Have the kernel send `signum` to this process when its parent process ends (PR_SET_PDEATHSIG); False if the
    parent, `parent` (a process id read earlier), has already ended."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signum)
    return os.getppid() == parent


def _die_with_driver(driver):
    """Initializer of each local grader process."""
    if not signal_on_parent_death(signal.SIGKILL, driver):  # the driver ended before the line above
        os._exit(1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_DFL)


def _outcome(future, lost):
    """A finished future's Staged, or the GraderFailure to report; `lost` maps the exceptions of a lost grader
    (a process or a worker that died) to what the instructor is told."""
    try:
        return future.result()
    except staging.GraderFailure as exc:
        return exc
    except Exception as exc:
        for kind, why in lost:
            if isinstance(exc, kind):
                return staging.GraderFailure(f"{why}; the next run tries again")
        return staging.grader_failure(exc, "staging the submission")


class Stager:
    """Runs stagings; subclasses say how (see the module docstring)."""
    lost = ()

    def __init__(self, log):
        self.log = log

    def run(self, jobs, template, work, check=lambda: None):
        """Yield the events of staging `jobs` (see the module docstring). `check` is called at least every
        second while stagings run: the driver raises there when a signal asked it to stop (an exception raised
        by a signal handler can be lost, when it lands in a garbage collector's callback)."""
        waiting, out = collections.deque(jobs), {}
        while waiting or out:
            while waiting and len(out) < self.capacity():
                job, why = waiting.popleft()
                yield "started", job, why
                out[self.submit(job, template, work)] = (job, why)
            check()
            for future in self.wait(list(out)):
                job, why = out.pop(future)
                yield "finished", job, why, _outcome(future, self.lost)


class Serial(Stager):
    def capacity(self):
        return 1

    def submit(self, job, template, work):
        future = concurrent.futures.Future()
        try:
            future.set_result(staging.stage(job, template, work, self.log))
        except staging.GraderFailure as exc:
            future.set_exception(exc)
        return future

    def wait(self, futures):
        return futures

    def close(self):
        pass


class Local(Stager):
    lost = ((BrokenProcessPool,
             "its grading process ended abruptly (killed, or out of memory)"),)

    def __init__(self, log, jobs):
        super().__init__(log)
        self.jobs, self.executor = jobs, None

    def _new_executor(self):
        self.close()
        self.executor = concurrent.futures.ProcessPoolExecutor(
            self.jobs, mp_context=multiprocessing.get_context("fork"), initializer=_die_with_driver,
            initargs=(os.getpid(),))

    def capacity(self):
        return self.jobs

    def submit(self, job, template, work):
        if self.executor is None:
            self._new_executor()
        try:
            return self.executor.submit(stage_anywhere, job, template, work)
        except BrokenProcessPool:  # a process died: its submissions failed, not these
            self._new_executor()
            return self.executor.submit(stage_anywhere, job, template, work)

    def wait(self, futures):
        return concurrent.futures.wait(futures, timeout=1, return_when=concurrent.futures.FIRST_COMPLETED).done

    def close(self):
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
            for child in multiprocessing.active_children():  # a staging still running is not waited for
                child.kill()
            self.executor.shutdown(wait=True)
            self.executor = None


class Dask(Stager):
    def __init__(self, log, address):
        super().__init__(log)
        from distributed import Client
        from distributed.scheduler import KilledWorker

        self.lost = ((KilledWorker, "the Dask workers grading it died several times"),
                     (concurrent.futures.CancelledError, "the Dask scheduler was lost"))
        try:
            self.client = Client(address, timeout="30s")
        except (OSError, ValueError) as exc:
            raise Unreachable(f"nothing was graded: the Dask scheduler at {address} cannot be reached ({exc}); "
                              "start it (`dask scheduler`) or fix --scheduler") from exc

    def capacity(self):
        return max(1, sum(self.client.nthreads().values()))

    def submit(self, job, template, work):
        return self.client.submit(stage_anywhere, job, template, work, key=f"stage-{job.student}-{uuid.uuid4().hex}",
                                  pure=False)

    def wait(self, futures):
        from distributed import wait

        try:
            return wait(futures, timeout=1, return_when="FIRST_COMPLETED").done
        except TimeoutError:
            return ()

    def close(self):
        self.client.close()


@contextlib.contextmanager
def stager(log, jobs=1, scheduler=None):
    """The Stager for `jobs` processes here, or for the Dask scheduler at `scheduler`; closed (every grader of
    this run stopped) when the block ends, however it ends."""
    chosen = Dask(log, scheduler) if scheduler else Local(log, jobs) if jobs > 1 else Serial(log)
    try:
        yield chosen
    finally:
        chosen.close()
