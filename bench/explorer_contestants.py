"""The two explorers bench/explorer_latency.py puts side by side, in one notebook, and one key press on either, timed
by the page's own clock.

Ours is attention_lesson.explorer.DivisorExplorer, an anywidget whose view computes and draws the row itself; today's
is the explorer as it was before: ipywidgets controls whose every change the kernel answers with a new PNG of the
same matplotlib picture (attention_lesson.explorer.figure, redrawn in place) and a new readout table.
"""
from pathlib import Path

import nbformat

from coursekit.real_parts.browser import focus

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

