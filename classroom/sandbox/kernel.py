"""The kernel manager of the display run (classroom.preprocessors.execute_for_display): the student's kernel is
started by the grading run's launcher (classroom.sandbox.launchers), with its limits: inside bubblewrap unless the
configuration chose otherwise.

Sandboxed (an `isolated` launcher), the kernel has no network, so it talks ZeroMQ over IPC: the connection file and
the sockets live in `ipc_dir`, a fresh directory that is bound into the sandbox (see classroom.sandbox.launch). It
is made on /dev/shm where that is a tmpfs, so that what the kernel writes there is memory charged to the kernel's
control group (classroom.sandbox.cgroups: one per kernel, made when the command is built and removed with the
kernel), never unbounded disk.

The student's code can write into `ipc_dir`, so the grader never connects to a path there: once the kernel has made
its five sockets, each is moved (rename, which never follows a link) into a folder of the grader's own beside it,
checked to be a socket the kernel's own account made, and only then connected to. A socket the student's code
replaced by a symbolic link (to another process's socket, say) is refused, and the kernel is treated as one that
would not start.
"""
import asyncio
import contextlib
import os
import shutil
import stat
import subprocess
import time

from jupyter_client.manager import AsyncKernelManager
from traitlets import Instance, Integer, Unicode, default

from . import launch, scratch
from .launchers import BubblewrapLauncher, Launcher
from ..units import MiB

SHARED_MEMORY = "/dev/shm"
SOCKETS_WAIT = 60.0  # seconds a starting kernel may take to make its sockets


class SandboxedKernelManager(AsyncKernelManager):
    """An AsyncKernelManager whose kernel command is made by its `launcher` (the sandbox unless set otherwise)."""

    memory = Integer(2048 * MiB, help="Address-space limit of the kernel, in bytes.")
    cpu_seconds = Integer(300, help="CPU seconds the kernel may use in all.")
    launcher = Instance(Launcher)
    workdir = Unicode(None, allow_none=True)
    ipc_dir = Unicode(None, allow_none=True)

    def use_ipc(self, ipc_dir):
        self.ipc_dir = ipc_dir
        self.transport = "ipc"
        self.connection_file = os.path.join(ipc_dir, "kernel.json")
        self.ip = self._kernel_ip = os.path.join(ipc_dir, "zmq")

    _cgroup = None
    _kernel_ip = None
    _grader_dir = None

    @default("launcher")
    def _bubblewrap(self):
        return BubblewrapLauncher(parent=self)

    def format_kernel_cmd(self, extra_arguments=None):
        self.kernel_spec.interrupt_mode = "signal"  # until the kernel's sockets are the grader's (see below)
        argv = super().format_kernel_cmd(extra_arguments)
        self._close_cgroup()
        self._cgroup = launch.new_cgroup(self.memory)
        return self.launcher.command(argv, memory=self.memory, cpu_seconds=self.cpu_seconds, home=self.workdir,
                                     ipc_dir=self.ipc_dir, env=launch.untrusted_env(self.workdir), cgroup=self._cgroup)

    async def _async_launch_kernel(self, kernel_cmd, **kw):
        # The student's code writes into its notebook only: what it writes to its own standard streams (os.write(2,
        # ...), terminal escapes) never reaches the instructor's terminal, the grading log or the formgrader's window.
        kw.update(stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        await super()._async_launch_kernel(kernel_cmd, **kw)
        if self._kernel_ip is not None:
            await self._take_sockets()
            # An interrupt by signal reaches the launcher's process group, which the sandbox's own session leaves
            # out: once its sockets are safe to connect to, the kernel is asked by message (its control channel).
            self.kernel_spec.interrupt_mode = "message"

    async def _take_sockets(self):
        """Move the kernel's sockets out of `ipc_dir` into a folder only the grader can write, and connect there."""
        self._grader_dir = scratch.folder("grader-ipc", os.path.dirname(self.ipc_dir))
        waiting = {port: f"{self._kernel_ip}-{port}" for port in
                   (self.shell_port, self.iopub_port, self.stdin_port, self.control_port, self.hb_port)}
        deadline = time.monotonic() + SOCKETS_WAIT
        while waiting:
            for port, path in list(waiting.items()):
                if not os.path.lexists(path):
                    continue
                moved = os.path.join(self._grader_dir, f"zmq-{port}")
                os.rename(path, moved)
                st = os.lstat(moved)
                if not stat.S_ISSOCK(st.st_mode) or st.st_uid != os.stat(self.ipc_dir).st_uid:
                    raise RuntimeError(f"the student's kernel put something else where its socket {path} was (a "
                                       "symbolic link?): the grader does not connect to it")
                del waiting[port]
            if waiting:
                if time.monotonic() > deadline or not await self.is_alive():
                    raise RuntimeError("the student's kernel did not make its sockets")
                await asyncio.sleep(0.01)
        self.ip = os.path.join(self._grader_dir, "zmq")

    @property
    def cgroup(self):
        """The control group of the kernel's process tree (classroom.sandbox.cgroups), or None."""
        return self._cgroup

    def _close_cgroup(self):
        if self._cgroup is not None:
            self._cgroup.close()
            self._cgroup = None

    async def _async_cleanup_resources(self, restart=False):
        await super()._async_cleanup_resources(restart=restart)
        self._close_cgroup()
        if self._grader_dir is not None:
            shutil.rmtree(self._grader_dir, ignore_errors=True)
            self._grader_dir = None

    # AsyncKernelManager binds `cleanup_resources` to jupyter_client's own function, which nbclient calls after a
    # kernel died: this class's cleanup must run then too.
    cleanup_resources = _async_cleanup_resources


@contextlib.contextmanager
def kernel_folders(assignment_path=None):
    """(workdir, ipc_dir), removed afterwards: a fresh working copy holding the assignment's files and folders but not
    its notebooks (which hold the tests), and a folder for the kernel's connection file and sockets."""
    workdir = scratch.folder("student-kernel")
    shm = os.path.isdir(SHARED_MEMORY) and os.access(SHARED_MEMORY, os.W_OK)
    ipc_dir = scratch.folder("student-ipc", SHARED_MEMORY if shm else None)
    try:
        launch.copy_data_files(assignment_path, workdir)
        yield workdir, ipc_dir
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
        shutil.rmtree(ipc_dir, ignore_errors=True)
