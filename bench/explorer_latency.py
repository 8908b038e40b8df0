"""How fast the divisor explorer redraws in a real browser, beside a plain `interactive` baseline.

    .venv/bin/python -m bench.explorer_latency [--presses 30] [--server lab|voila]

One notebook holds two copies of the same picture: our explorer (attention_lesson.explorer: one figure
updated in place, sent as PNG bytes to an Image widget) and a baseline made the usual way, `interactive`
with a new figure drawn and shown inline on every change. The page is served by JupyterLab (or Voilà) and
opened in headless Chromium. For each key press on a d_k slider the page itself measures the time from the
keydown event to the first animation frame after the new picture has been decoded, i.e. until the changed
plot can be on screen. Presses alternate between the two widgets so that both see the same machine load.
Goal: a median of 50 ms or less for the explorer, and at most half the baseline's.

The kernel-side cost of one redraw (no browser) is measured too, for both ways of drawing, and within the
explorer's redraw the share taken by encoding the PNG (Pillow). docs/explorer.md records the results.
"""
import argparse
import statistics
import tempfile
import time
from pathlib import Path

import nbformat

from coursekit import parts, repository
from coursekit.browser import Server, chromium, focus, run_all_cells

ROOT = repository.ROOT

SETUP = """\
import ipywidgets as widgets
from IPython.display import display

from attention_lesson.explorer import DivisorExplorer, explorer_state
from attention_lesson.explorer.figure import plot_explorer
from attention_lesson.explorer.model import POSITIONS, WIDTHS"""
OURS = """\
explorer = DivisorExplorer()
explorer.add_class("bench-ours")
explorer"""
BASELINE = """\
def draw_anew(d_k, p, T, seed):
    display(plot_explorer(explorer_state(d_k=d_k, p=p, T=T, seed=seed)))  # a new figure, shown inline


baseline = widgets.interactive(
    draw_anew, d_k=widgets.SelectionSlider(options=list(WIDTHS), value=64, description="d_k"),
    p=widgets.FloatSlider(value=0.5, min=0, max=1, step=0.05),
    T=widgets.IntSlider(value=8, min=POSITIONS[0], max=POSITIONS[1]),
    seed=widgets.BoundedIntText(value=0, min=0, max=2**31 - 1))
baseline.add_class("bench-baseline")
baseline"""
CONTESTANTS = {
    "explorer (in place, PNG to Image)": (".bench-ours", ".explorer-d-k .noUi-handle", "img.explorer-image"),
    "baseline (interactive, new figure)": (".bench-baseline", ".widget-slider .noUi-handle", ".widget-output img"),
}

# Runs in the page before a key press: arms a watcher that stores, in window.__latency, the time from the
# keydown event to the first animation frame after a new picture has been decoded (the page's own clock).
ARM = """([container, picture]) => {
    const box = document.querySelector(container);
    const old = box.querySelector(picture)?.src;
    let start = null;
    window.__latency = null;
    document.addEventListener('keydown', (event) => { start = event.timeStamp; }, {capture: true, once: true});
    const observer = new MutationObserver(async () => {
        const img = box.querySelector(picture);
        if (!img || img.src === old || start === null) return;
        observer.disconnect();
        try { await img.decode(); } catch (e) { /* replaced again before decoding: it still changed */ }
        requestAnimationFrame(() => { window.__latency = performance.now() - start; });
    });
    observer.observe(box, {subtree: true, childList: true, attributes: true, attributeFilter: ['src']});
}"""


def bench_notebook(folder):
    path = Path(folder) / "explorer-latency.ipynb"
    kernel = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in (SETUP, OURS, BASELINE)],
                                  metadata={"kernelspec": kernel})
    nbformat.write(nb, path)
    return path


def kernel_side(repeats=30):
    """Median milliseconds in this process: the explorer's whole update, the PNG encoding within it, and a new
    figure drawn to PNG (the baseline's way)."""
    import io

    import matplotlib

    matplotlib.use("Agg")
    from attention_lesson.explorer import DivisorExplorer, explorer_state
    from attention_lesson.explorer.figure import plot_explorer, png_bytes
    from attention_lesson.explorer.model import WIDTHS

    explorer = DivisorExplorer()
    ours, encode, anew = [], [], []
    for i in range(repeats):
        d_k = WIDTHS[i % len(WIDTHS)]
        start = time.perf_counter()
        explorer.d_k.value = d_k if explorer.d_k.value != d_k else WIDTHS[-1 - i % len(WIDTHS)]
        ours.append(time.perf_counter() - start)
        rgba = explorer.picture.rgba()
        start = time.perf_counter()
        png_bytes(rgba)
        encode.append(time.perf_counter() - start)
        start = time.perf_counter()
        fig = plot_explorer(explorer_state(d_k=d_k))
        fig.savefig(io.BytesIO(), format="png", bbox_inches="tight")  # what the inline backend does
        anew.append(time.perf_counter() - start)
    return tuple(1000 * statistics.median(times) for times in (ours, encode, anew))


def press_sequence(presses):
    """Key presses that walk d_k up to 1024, down to 4 and back, starting from 64."""
    position, keys, step = 4, [], 1  # index of 64 in WIDTHS (4 ... 1024)
    while len(keys) < presses:
        if not 0 <= position + step <= 8:
            step = -step
        position += step
        keys.append("ArrowRight" if step > 0 else "ArrowLeft")
    return keys


def browser_side(kind, presses):
    with tempfile.TemporaryDirectory() as folder, Server(kind, notebook=bench_notebook(folder)) as server, \
            chromium() as page:
        page.goto(server.url(), wait_until="commit", timeout=60_000)
        if kind == "lab":
            run_all_cells(page)
        for container, _, picture in CONTESTANTS.values():
            page.wait_for_selector(f"{container} {picture}", timeout=60_000)
        page.wait_for_timeout(1000)  # let the first pictures settle
        times = {name: [] for name in CONTESTANTS}
        for key in press_sequence(presses):
            for name, (container, handle, picture) in CONTESTANTS.items():
                focus(page, f"{container} {handle}")
                page.evaluate(ARM, [container, picture])
                page.keyboard.press(key)
                page.wait_for_function("window.__latency !== null", timeout=20_000)
                times[name].append(page.evaluate("window.__latency"))
                page.wait_for_timeout(100)
        server.stop()
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=30, help="key presses per widget (median is reported)")
    parser.add_argument("--server", choices=("lab", "voila"), default="lab",
                        help="serve the page with JupyterLab or Voilà")
    args = parser.parse_args()
    if args.presses < 1:
        parser.error("--presses must be at least 1")
    missing = parts.why_missing("browser")
    if missing:
        parser.error(f"no browser: {missing.why} (install: {missing.install})")

    ours_ms, encode_ms, anew_ms = kernel_side()
    print(f"kernel side, one redraw: explorer {ours_ms:.1f} ms (of which PNG encoding {encode_ms:.1f} ms), "
          f"new figure to PNG {anew_ms:.1f} ms")
    times = browser_side(args.server, args.presses)
    print(f"\nkey press -> changed picture in Chromium ({args.server}, {args.presses} presses each)")
    print(f"{'':<36} {'median ms':>9} {'p10 ms':>7} {'p90 ms':>7}")
    medians = {}
    for name, values in times.items():
        deciles = statistics.quantiles(values, n=10) if len(values) > 1 else values * 9
        medians[name] = statistics.median(values)
        print(f"{name:<36} {medians[name]:9.1f} {deciles[0]:7.1f} {deciles[-1]:7.1f}")
    ours, baseline = medians.values()
    print(f"\nexplorer / baseline: {ours / baseline:.2f}")
    print(f"goal, median at most 50 ms: {'met' if ours <= 50 else 'missed'}; "
          f"at most half the baseline: {'met' if ours <= baseline / 2 else 'missed'}")


if __name__ == "__main__":
    main()
