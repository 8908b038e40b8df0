"""Servers and a browser for the tests and the benchmark that use a page as a student or an instructor does.

Starts JupyterLab or Voilà (`Server`), or `make lab` itself (`make_lab`), on a free loopback port in its own process
group and stops the whole group afterwards; launches Debian's Chromium through Playwright (never `playwright
install`). Whether this machine has a browser at all: coursekit.parts (`requires("browser")`).
"""
import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

from coursekit.real_parts.ports import free_port
from coursekit.repository import ROOT
from coursekit.real_parts.waiting import WAIT_MS, answers, status, until

EXPLORER = ROOT / "notebooks" / "04-explore-the-divisor.ipynb"
# axe-core, the accessibility engine run in Chromium (npm ci --prefix accessibility).
AXE = ROOT / "accessibility" / "node_modules" / "axe-core" / "axe.min.js"
CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
# Headless Chromium on a machine without network: no GPU, no first-run page, and no background traffic
# (without the last flags Chromium keeps calling home, and this closed network refuses the connections).
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-default-apps", "--mute-audio"]
ROOT_FLAG = ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []


class Server:
    """A JupyterLab or Voilà process serving a copy of the explorer notebook (and `extra_files`) from a scratch folder.

    The notebook is copied so that nothing the browser does (autosave, trust, checkpoints) can touch the
    repository. Voilà serves the folder as `make explore` does, so that links between notebooks work. Use as a
    context manager: leaving it stops the server's whole process group.
    """

    def __init__(self, kind, notebook=EXPLORER, extra_files=(), lab_args=()):
        if kind not in ("lab", "voila"):
            raise ValueError(f"kind must be 'lab' or 'voila'; got {kind!r}")
        self.kind, self.port, self.token = kind, free_port(), "explorer-test-token"
        self.scratch = Path(tempfile.mkdtemp(prefix=f"explorer-{kind}-"))
        self.folder = self.scratch / "served"
        self.folder.mkdir()
        self.name = Path(notebook).name
        for path in (notebook, *extra_files):
            shutil.copy(path, self.folder / Path(path).name)
        self.base = f"http://127.0.0.1:{self.port}"
        self.lab_args = list(lab_args)  # more options for JupyterLab's command line
        self.proc, self.log = None, self.scratch / "server.log"

    def command(self):
        if self.kind == "lab":
            return [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ip=127.0.0.1", f"--port={self.port}",
                    f"--ServerApp.token={self.token}", f"--ServerApp.root_dir={self.folder}",
                    "--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
                    "--ServerApp.open_browser=False", *ROOT_FLAG, *self.lab_args]
        return [sys.executable, "-m", "voila", str(self.folder), "--no-browser", "--Voila.ip=127.0.0.1",
                f"--port={self.port}", f"--token={self.token}"]

    def url(self, name=None):
        """The page of the notebook `name` (by default the one the server was made for)."""
        if self.kind == "lab":
            return f"{self.base}/lab/tree/{name or self.name}?token={self.token}"
        return f"{self.base}/voila/render/{name or self.name}?token={self.token}"

    def __enter__(self):
        # empty user settings: what the page shows comes from .venv alone (no "would you like news?" question there:
        # lab/overrides.json, linked in by make)
        env = dict(os.environ, JUPYTERLAB_SETTINGS_DIR=str(self.scratch / "settings"),
                   JUPYTERLAB_WORKSPACES_DIR=str(self.scratch / "workspaces"), PYTHONUNBUFFERED="1")
        self._log_file = open(self.log, "wb")
        self.proc = subprocess.Popen(self.command(), cwd=self.folder, env=env, stdout=self._log_file,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        try:
            self._wait_until_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def _wait_until_ready(self):
        probe = (f"{self.base}/api/status?token={self.token}" if self.kind == "lab" else self.base + "/voila/static/")
        until(lambda: answers(probe), f"{self.kind} did not answer", pause=0.3, process=self.proc, log=self.tail)

    def tail(self, chars=3000):
        return self.log.read_text(errors="replace")[-chars:] if self.log.exists() else ""

    def api(self, path, method="GET"):
        request = urllib.request.Request(f"{self.base}{path}?token={self.token}", method=method)
        with urllib.request.urlopen(request, timeout=10) as reply:
            body = reply.read()
        return json.loads(body) if body else None

    def status(self, link, timeout=120):
        """The HTTP status of this server's answer to `link` (a page's own link, which carries no token); None if it
        does not answer within `timeout` seconds."""
        parts = urllib.parse.urlsplit(link)
        query = "&".join(filter(None, [parts.query, f"token={self.token}"]))
        return status(f"{self.base}{parts.path}?{query}", timeout)

    def kernels(self):
        """[(process id, connection file)] of the kernels this server started (its descendants run with `-f FILE`)."""
        found = []
        for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
            with contextlib.suppress(OSError, ValueError):
                args = cmdline.read_bytes().decode(errors="replace").split("\0")
                if "-f" in args and self._descends(int(cmdline.parent.name)):
                    found.append((int(cmdline.parent.name), args[args.index("-f") + 1]))
        return found

    def _descends(self, pid):
        while pid > 1:
            if pid == self.proc.pid:
                return True
            status = Path(f"/proc/{pid}/status").read_text()
            pid = int(status.split("PPid:")[1].split()[0])
        return False

    def stop(self):
        """Shut the kernels down (JupyterLab), then end the server's process group; return the kernel ids seen."""
        kernels = []
        if self.proc is None:
            return kernels
        if self.kind == "lab" and self.proc.poll() is None:
            with contextlib.suppress(OSError, ValueError):
                kernels = [k["id"] for k in self.api("/api/kernels")]
                for kernel in kernels:
                    self.api(f"/api/kernels/{kernel}", method="DELETE")
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self._log_file.close()
        return kernels

    def __exit__(self, *exc):
        self.stop()
        shutil.rmtree(self.scratch, ignore_errors=True)


@contextlib.contextmanager
def chromium(viewport=(1400, 1100)):
    """A headless Chromium page (Playwright), closed with its browser on leaving."""
    from playwright.sync_api import sync_playwright

    profile = tempfile.mkdtemp(prefix="explorer-chromium-")
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(profile, executable_path=CHROMIUM, headless=True,
                                                       args=CHROMIUM_ARGS,
                                                       viewport={"width": viewport[0], "height": viewport[1]})
        try:
            yield context.pages[0] if context.pages else context.new_page()
        finally:
            context.close()
            shutil.rmtree(profile, ignore_errors=True)


def choose_run_all(page):
    """Run > Run All Cells, from JupyterLab's menu bar; fails saying what a dialog in the way says."""
    for dialog in page.locator(".jp-Dialog").all():
        raise RuntimeError(f"a JupyterLab dialog is in the way of Run All: {dialog.inner_text()!r}")
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()


# Marks the page once the first code cell's prompt shows "[*]" or a text other than now (Run All sets every prompt
# to "[*]" as it queues them); it watches the page, not the prompt, which JupyterLab may render anew meanwhile.
WATCH_FIRST_PROMPT = """() => { window.runAllStarted = false;
    const text = () => document.querySelector('.jp-NotebookPanel .jp-CodeCell .jp-InputPrompt')?.innerText;
    const before = text(); new MutationObserver((_, seen) => { const now = text();
        if (now?.includes('*') || (before !== undefined && now !== undefined && now !== before)) {
            window.runAllStarted = true; seen.disconnect(); } }).observe(document.body, {childList: true,
    characterData: true, subtree: true}); }"""


def run_all_cells(page, timeout_ms=WAIT_MS, attempts=3, wait_for_end=True):
    """In JupyterLab, choose Run > Run All Cells once the kernel is idle, and make sure the cells did start.
    Right after the kernel turns idle, JupyterLab can still drop a request to run cells, so the command is given
    again if the first cell's prompt has not changed within 5 s (a stored output's "[1]" says nothing of a new run).
    With `wait_for_end=False` it returns once they have started (for a notebook whose last cell keeps the kernel busy).
    """
    page.wait_for_selector(".jp-NotebookPanel .jp-CodeCell .jp-InputPrompt", timeout=timeout_ms)
    # the toolbar's execution indicator carries the kernel status
    page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']", state="attached", timeout=timeout_ms)
    for _ in range(attempts):
        page.evaluate(WATCH_FIRST_PROMPT)
        choose_run_all(page)
        try:
            page.wait_for_function("() => window.runAllStarted === true", timeout=5_000)
            break
        except Exception:  # playwright's TimeoutError: try the command again
            continue
    else:
        raise RuntimeError(f"JupyterLab did not run the cells after {attempts} tries of Run All Cells")
    if not wait_for_end:
        return
    wait_for_the_run_to_end(page, timeout_ms)
    page.wait_for_timeout(300)


# Each code cell's prompt ("[3]", "[*]" or "[ ]") and the kernel's status, as the page shows them.
PROMPTS = """() => ({prompts: [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')].map(p => p.innerText.trim()),
    status: document.querySelector('.jp-Notebook-ExecutionIndicator')?.getAttribute('data-status')})"""
LEFT_BEHIND_MS = 5_000  # an idle kernel with cells that never started, for this long: JupyterLab dropped them


def wait_for_the_run_to_end(page, timeout_ms):
    """Wait until every code cell has run (its prompt shows a number): when the run ends, JupyterLab moves the focus,
    which must not happen mid-test. On a loaded machine JupyterLab can drop some of a Run All's cells, which then
    never start while the kernel sits idle: after LEFT_BEHIND_MS of that, Run All is given once more. Fails naming
    the prompts and the kernel's status."""
    start = time.monotonic()
    idle_since, again = None, False
    while True:
        seen, now = page.evaluate(PROMPTS), time.monotonic()
        prompts = seen["prompts"]
        if prompts and all(re.search(r"\[\d+\]", prompt) for prompt in prompts):
            return
        stalled = seen["status"] == "idle" and not any("*" in prompt for prompt in prompts)
        idle_since = (idle_since or now) if stalled else None
        if stalled and now - idle_since >= LEFT_BEHIND_MS / 1000 and not again:
            choose_run_all(page)
            again, idle_since = True, None
        if now - start >= timeout_ms / 1000:
            raise AssertionError(f"Run All did not end within {timeout_ms // 1000} s: prompts {prompts}, kernel "
                                 f"{seen['status']!r}{' (Run All given twice)' if again else ''}")
        page.wait_for_timeout(250)


def focus(page, selector):
    """Give the keyboard focus to the element at `selector`, and make sure it really has it."""
    element = page.locator(selector).first
    element.focus()
    page.wait_for_function("(selector) => document.activeElement === document.querySelector(selector)", arg=selector,
                           timeout=5_000)


# ---- `make lab` as a user starts it (tests/lab/) ------------------------------------------------------------
LAB_TOKEN = "lesson-test-token"


def written(log):
    """All that processes wrote to the temporary file `log`, read where it lies (os.pread): the processes share the
    file's offset with `log`, so a seek and read of ours could start wherever a write of theirs left it."""
    fd = log.fileno()
    return os.pread(fd, os.fstat(fd).st_size, 0).decode(errors="replace")


def said(log):
    """The end of what a process wrote to the temporary file `log`."""
    return written(log)[-3000:]


def group_alive(pgid):
    """Whether any process of the process group `pgid` is still running."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@contextlib.contextmanager
def make_lab(cwd=ROOT, env=None, make_args=(), output=None):
    """Yield (base URL, token) once `make lab` answers; fail with the end of its output if it exits instead. The list
    `output`, if given, receives what make lab printed, once it has stopped."""
    port = free_port()
    lab_args = f"--no-browser --ip=127.0.0.1 --port={port} --ServerApp.token={LAB_TOKEN}"
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(["make", "--no-print-directory", *make_args, "lab", f"LAB_ARGS={lab_args}"], cwd=cwd,
                                env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        base = f"http://127.0.0.1:{port}"
        try:
            until(lambda: answers(f"{base}/api/status?token={LAB_TOKEN}"), "make lab never answered", pause=0.5,
                  process=proc, log=lambda: said(log))
            yield base, LAB_TOKEN
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=30)
                # make ends first; JupyterLab, in its process group, may still be writing as it shuts down
                until(lambda: not group_alive(proc.pid), "make lab's processes never ended", seconds=30)
            except (subprocess.TimeoutExpired, AssertionError):
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
            if output is not None:
                output.append(written(log))
