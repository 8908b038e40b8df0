"""Key press to changed picture: the explorer drawn in the browser beside today's, drawn by the kernel, in one run.

    .venv/bin/python -m bench.explorer_latency [--presses 30] [--cases lab,voila,page,busy,busy-voila,far,far-voila]
    (or: make bench)

One notebook holds both explorers: ours (attention_lesson.explorer.DivisorExplorer, an anywidget whose view computes
and draws the row itself) and today's, as it was before: ipywidgets controls whose every change the kernel answers
with a new PNG of the same matplotlib picture (attention_lesson.explorer.figure, redrawn in place) and a new readout
table. Headless Chromium opens it and presses the arrow keys on each one's d_k slider in turn, so that both see the same
machine. For each press the page itself measures, with its own clock, the time from the keydown event to the first
animation frame after the picture changed (for today's, after the new PNG is decoded): then the new picture is
painted. Each case reports the median (and the 10th and 90th percentiles) of `--presses` presses each:

* lab:       JupyterLab, the kernel idle;
* voila:     the notebook as a Voilà app;
* page:      the self-contained page of make explore-page, opened from disk (ours only: today's page shows a still
             picture, which never changes);
* busy:      JupyterLab while the kernel runs time.sleep(10), sent as a cell is sent (execute_request) by a client of
             this script whenever no sleep runs before a press, which then comes one second into the sleep;
* busy-voila: the same for Voilà;
* far:       JupyterLab behind a delay proxy on 127.0.0.1 that holds every chunk 50 ms each way (100 ms a round trip);
* far-voila: the same for Voilà.

Goal: at most one frame (16.7 ms) wherever today's explorer waits for the kernel, and below today's figure everywhere.
docs/explorer.md records the figures.
"""
import argparse
import asyncio
import contextlib
import json
import queue
import statistics
import tempfile
import threading
import time
from pathlib import Path

import nbformat

from coursekit import parts
from coursekit.browser import Server, chromium, focus, run_all_cells
from coursekit.ports import free_port

FRAME_MS = 1000 / 60
CASES = ("lab", "voila", "page", "busy", "busy-voila", "far", "far-voila")

SETUP = '''\
import ipywidgets as widgets

from attention_lesson.explorer import DivisorExplorer
from attention_lesson.explorer.captions import readout_html
from attention_lesson.explorer.figure import ExplorerFigure
from attention_lesson.explorer.model import WIDTHS, explorer_state


class TodaysExplorer(widgets.VBox):
    """The explorer before it drew in the browser: each move of d_k asks the kernel for a new PNG and readout table."""

    def __init__(self):
        self.picture = ExplorerFigure(explorer_state(), captions=False)
        self.d_k = widgets.SelectionSlider(options=list(WIDTHS), value=64, description="d_k")
        self.image = widgets.Image(value=self.picture.png(), format="png")
        self.readout = widgets.HTML(readout_html(explorer_state()))
        self.d_k.observe(self.update, names="value")
        super().__init__([self.d_k, self.readout, self.image])

    def update(self, change):
        state = explorer_state(d_k=self.d_k.value)
        self.image.value = self.picture.draw(state).png()
        self.readout.value = readout_html(state)'''
OURS = '''\
ours = DivisorExplorer()
ours.add_class("bench-ours")
ours'''
TODAYS = '''\
todays = TodaysExplorer()
todays.add_class("bench-todays")
todays'''
# name: (the widget's box, the element a key press goes to, the picture that changes)
CONTESTANTS = {
    "in the browser (now)": (".bench-ours", ".explorer-d-k input", "svg.explorer-picture"),
    "by the kernel (today's)": (".bench-todays", ".widget-slider .noUi-handle", "img"),
}
OURS_NAME, TODAYS_NAME = CONTESTANTS

# Runs in the page before a key press: arms a watcher that stores in window.__latency the time from the keydown event
# to the first animation frame after the picture changed (an <img> once its new source is decoded).
ARM = """([container, picture]) => {
    const box = document.querySelector(container);
    const old = box.querySelector(picture)?.getAttribute('src');
    let start = null;
    window.__latency = null;
    document.addEventListener('keydown', (event) => { start = event.timeStamp; }, {capture: true, once: true});
    const observer = new MutationObserver(async () => {
        const shown = box.querySelector(picture);
        if (start === null || (shown.tagName === 'IMG' && shown.getAttribute('src') === old)) return;
        observer.disconnect();
        if (shown.tagName === 'IMG') {
            try { await shown.decode(); } catch (e) { /* replaced again before decoding: it still changed */ }
        }
        requestAnimationFrame(() => { window.__latency = performance.now() - start; });
    });
    observer.observe(box, {subtree: true, childList: true, attributes: true, characterData: true});
}"""


def bench_notebook(folder):
    path = Path(folder) / "explorer-latency.ipynb"
    kernel = {"name": "python3", "display_name": "Python 3", "language": "python"}
    cells = [nbformat.v4.new_code_cell(source) for source in (SETUP, OURS, TODAYS)]
    nbformat.write(nbformat.v4.new_notebook(cells=cells, metadata={"kernelspec": kernel}), path)
    return path


def press_sequence(presses):
    """Key presses that walk d_k up to 1024, down to 4 and back, starting from 64 (the fifth of nine widths)."""
    position, keys, step = 4, [], 1
    while len(keys) < presses:
        if not 0 <= position + step <= 8:
            step = -step
        position += step
        keys.append("ArrowRight" if step > 0 else "ArrowLeft")
    return keys


def press(page, contestant, key, root=""):
    """Press `key` on a contestant's d_k slider; return the milliseconds until its changed picture is painted."""
    container, handle, picture = contestant
    container = f"{root} {container}".strip()
    focus(page, f"{container} {handle}")
    page.evaluate(ARM, [container, picture])
    page.keyboard.press(key)
    page.wait_for_function("window.__latency !== null", timeout=60_000)
    return page.evaluate("window.__latency")


# ---- the 100 ms between browser and server ------------------------------------------------------------------------
class DelayProxy:
    """A TCP proxy on 127.0.0.1 (a free port) to 127.0.0.1:`port` that holds every chunk `delay_s` in each direction,
    in order. Runs an asyncio loop in a thread; use as a context manager."""

    def __init__(self, port, delay_s=0.05):
        self.target, self.delay_s, self.port = port, delay_s, free_port()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    async def _pipe(self, reader, writer):
        queue = asyncio.Queue()

        async def send():
            while (item := await queue.get()) is not None:
                due, chunk = item
                await asyncio.sleep(max(0.0, due - self.loop.time()))
                writer.write(chunk)
                await writer.drain()
            writer.close()

        sender = asyncio.ensure_future(send())
        with contextlib.suppress(ConnectionError):
            while chunk := await reader.read(65536):
                queue.put_nowait((self.loop.time() + self.delay_s, chunk))
        queue.put_nowait(None)
        with contextlib.suppress(ConnectionError):
            await sender

    async def _connection(self, client_reader, client_writer):
        try:
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:  # the server has stopped
            client_writer.close()
            return
        await asyncio.gather(self._pipe(client_reader, server_writer), self._pipe(server_reader, client_writer))

    def __enter__(self):
        self.thread.start()
        started = asyncio.run_coroutine_threadsafe(asyncio.start_server(self._connection, "127.0.0.1", self.port),
                                                   self.loop)
        self.server = started.result(timeout=10)
        return self

    def __exit__(self, *exc):
        self.loop.call_soon_threadsafe(self.server.close)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)


# ---- the cases ------------------------------------------------------------------------------------------------------
def served(kind, folder, page, proxy_delay=None):
    """Open the bench notebook in `kind` (lab or voila), directly or through a DelayProxy; yield (server, page)."""

    @contextlib.contextmanager
    def opened():
        with Server(kind, notebook=bench_notebook(folder)) as server, \
                (DelayProxy(server.port, proxy_delay) if proxy_delay else contextlib.nullcontext()) as proxy:
            url = server.url() if proxy is None else server.url().replace(f":{server.port}/", f":{proxy.port}/")
            page.goto(url, wait_until="commit", timeout=120_000)
            if kind == "lab":
                page.wait_for_selector(".jp-NotebookPanel .jp-Cell", timeout=120_000)
                page.wait_for_timeout(2000)
                for dialog in page.locator(".jp-Dialog").all():  # JupyterLab sometimes asks something first
                    print(f"  (closed a JupyterLab dialog: {dialog.inner_text()[:200]!r})", flush=True)
                    page.keyboard.press("Escape")
                run_all_cells(page, timeout_ms=120_000)
            for container, _, picture in CONTESTANTS.values():
                page.wait_for_selector(f"{container} {picture}", state="attached", timeout=120_000)
            page.locator(".bench-ours").scroll_into_view_if_needed()
            page.wait_for_timeout(1000)  # let the first pictures settle
            yield server
            server.stop()

    return opened()


def alternate(page, presses, pause_ms=100, before_each=None):
    """Press each contestant's slider in turn, `presses` times each; {name: [ms, ...]}."""
    times = {name: [] for name in CONTESTANTS}
    for key in press_sequence(presses):
        for name, contestant in CONTESTANTS.items():
            if before_each:
                before_each(name)
            times[name].append(press(page, contestant, key))
            page.wait_for_timeout(pause_ms)
    return times


def case_served(kind, presses, proxy_delay=None):
    with tempfile.TemporaryDirectory() as folder, chromium() as page, \
            served(kind, folder, page, proxy_delay):
        return alternate(page, presses)


def case_page(presses):
    from attention_lesson.explorer.page import page_html

    with tempfile.TemporaryDirectory() as folder, chromium() as page:
        path = Path(folder) / "divisor-explorer.html"
        path.write_text(page_html(seeds=2), encoding="utf-8")
        page.goto(path.as_uri())
        page.wait_for_selector(".divisor-explorer svg.explorer-picture")
        container, handle, picture = CONTESTANTS[OURS_NAME]
        times = []
        for key in press_sequence(presses):
            times.append(press(page, ("main", handle, picture), key))
            page.wait_for_timeout(100)
        return {OURS_NAME: times}


def case_busy(kind, presses, sleep_s=10):
    """`kind` (lab or voila) while the kernel sleeps: before a press, whenever no sleep runs, a second client of the
    kernel sends time.sleep(sleep_s) as a cell is sent (execute_request), and the press comes one second into it."""
    from jupyter_client import BlockingKernelClient

    with tempfile.TemporaryDirectory() as folder, chromium() as page, served(kind, folder, page) as server:
        [(_, connection)] = server.kernels()
        client = BlockingKernelClient(connection_file=connection)
        client.load_connection_file()
        client.start_channels()
        running = []

        def busy(_name):
            if running:  # the reply to the sleep's execute_request comes when it has ended
                with contextlib.suppress(queue.Empty):
                    client.get_shell_msg(timeout=0)
                    running.clear()
            if not running:
                running.append(client.execute(f"import time; time.sleep({sleep_s})"))
                time.sleep(1)

        try:
            return alternate(page, presses, before_each=busy)
        finally:
            client.stop_channels()


def run_case(case, presses):
    if case == "page":
        return case_page(presses)
    if case.startswith("busy"):
        return case_busy("voila" if case.endswith("voila") else "lab", presses)
    kind = "voila" if case.endswith("voila") else "lab"
    return case_served(kind, presses, proxy_delay=0.05 if case.startswith("far") else None)


def summary(values):
    if not values:
        return None
    deciles = statistics.quantiles(values, n=10, method="inclusive") if len(values) > 1 else values * 9
    return {"median": statistics.median(values), "p10": deciles[0], "p90": deciles[-1], "n": len(values)}


def cell(figures):
    return "—" if figures is None else f"{figures['median']:7.1f} ({figures['p10']:.1f}–{figures['p90']:.1f})"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=30, help="key presses per explorer and case (default 30)")
    parser.add_argument("--cases", default=",".join(CASES), help=f"comma-separated, of {', '.join(CASES)}")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    cases = [case.strip() for case in args.cases.split(",") if case.strip()]
    unknown = [case for case in cases if case not in CASES]
    if unknown or not cases:
        parser.error(f"--cases: unknown {unknown or 'none given'}; choose from {', '.join(CASES)}")
    if args.presses < 1:
        parser.error("--presses must be at least 1")
    missing = parts.why_missing("browser")
    if missing:
        parser.error(f"no browser: {missing.why} (install: {missing.install})")

    print(f"key press -> changed picture painted, ms: median (p10–p90) of {args.presses} presses each")
    print(f"{'case':<10} {OURS_NAME:>28} {TODAYS_NAME:>28} {'ratio':>6}  goal")
    results = {}
    for case in cases:
        times = run_case(case, args.presses)
        ours, todays = summary(times.get(OURS_NAME, [])), summary(times.get(TODAYS_NAME, []))
        results[case] = {"now": ours, "today": todays}
        ratio = f"{ours['median'] / todays['median']:6.3f}" if todays else f"{'':>6}"
        within = ours["median"] <= FRAME_MS
        below = todays is None or ours["median"] < todays["median"]
        goal = "met" if within and below else "missed: " + " and ".join(
            part for part, ok in (("over one frame", within), ("not below today's", below)) if not ok)
        print(f"{case:<10} {cell(ours):>28} {cell(todays):>28} {ratio}  {goal}", flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
