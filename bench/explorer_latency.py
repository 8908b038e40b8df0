"""Key press to changed picture: the explorer drawn in the browser beside today's, drawn by the kernel, in one run.

    .venv/bin/python -m bench.explorer_latency [--presses 30] [--cases lab,voila,page,busy,busy-voila,far,far-voila]
    (or: make bench)

One notebook holds both explorers (bench/explorer_contestants.py): ours, drawn in the browser, and today's, as it was
before, drawn by the kernel. Headless Chromium opens it and presses the arrow keys on each one's d_k slider in turn,
so that both see the same machine. For each press the page itself measures, with its own clock, the time from the
keydown event to the first animation frame after the picture changed (for today's, after the new PNG is decoded):
then the new picture is painted. Each case reports the median (and the 10th and 90th percentiles) of `--presses`
presses each:

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
import contextlib
import json
import queue
import statistics
import tempfile
import time
from pathlib import Path

from bench.delay_proxy import DelayProxy
from bench.explorer_contestants import CONTESTANTS, OURS_NAME, TODAYS_NAME, bench_notebook, press, press_sequence
from coursekit import parts
from coursekit.real_parts.browser import Server, chromium, run_all_cells

FRAME_MS = 1000 / 60
CASES = ("lab", "voila", "page", "busy", "busy-voila", "far", "far-voila")


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
