"""The explorer in a real browser (Debian's Chromium through Playwright): every number the view draws, over a grid of
settings (every width, p in steps of 0.05, every T, three seeds), is the Python model's: each weight and each point of
the curve to 1e-12, each readout and each entry of the table of numbers to the digits printed.

The other browser tests: test_browser_page.py (the page from disk, by keyboard) and test_browser_notebooks.py
(JupyterLab, Voilà, nbconvert); what they share is in browser_view.py. Without Chromium or playwright the tests are
skipped (coursekit.parts), unless REQUIRE_BROWSER_TESTS=1 (CI).
"""
import numpy as np

from attention_lesson.explorer.captions import readout_texts
from attention_lesson.explorer.model import WIDTHS, explorer_state
from coursekit.parts import requires
from tests.explorer.browser_view import VIEW, offline_page, page_file

pytestmark = requires("browser")

GRID_SEEDS = (0, 1, 2)

# Runs in the page: for one seed, sets every T, p step and width through the view's own inputs (as a key press
# does) and reads back what the view shows: the weights and the curve (full precision, from the marks' data
# attributes), the readouts and the table of numbers (their text).
GRID = """([seed, Ts, pSteps, widthCount]) => {
    const root = document.querySelector('.divisor-explorer');
    const set = (selector, value) => {
        const input = root.querySelector(selector);
        input.value = value;
        input.dispatchEvent(new Event('input', {bubbles: true}));
    };
    const shown = [];
    set('.explorer-seed input', seed);
    for (const T of Ts) {
        set('.explorer-t input', T);
        for (let k = 0; k <= pSteps; k += 1) {
            set('.explorer-p input', k);
            for (let i = 0; i < widthCount; i += 1) {
                set('.explorer-d-k input', i);
                shown.push({
                    T, k, i,
                    weights: [...root.querySelectorAll('.explorer-weight-bar[data-weight]')]
                             .map(r => Number(r.dataset.weight)),
                    curve: [...root.querySelectorAll('.explorer-curve-dot')].map(c => Number(c.dataset.topWeight)),
                    readouts: Object.fromEntries([...root.querySelectorAll('td[data-readout]')]
                                                 .map(td => [td.dataset.readout, td.textContent])),
                    numbers: [...root.querySelectorAll('.explorer-numbers tbody tr')]
                             .map(tr => [...tr.cells].map(cell => cell.textContent)),
                });
            }
        }
    }
    return shown;
}"""



def test_every_number_the_view_shows_is_the_python_models(tmp_path):
    path = page_file(tmp_path, seeds=len(GRID_SEEDS))
    Ts = list(range(2, 17))
    wrong, compared = [], 0
    with offline_page() as page:
        page.goto(path.as_uri())
        page.wait_for_selector(VIEW)
        for seed in GRID_SEEDS:
            for seen in page.evaluate(GRID, [seed, Ts, 20, len(WIDTHS)]):
                T, p, d_k = seen["T"], seen["k"] / 20, WIDTHS[seen["i"]]
                state = explorer_state(d_k=d_k, p=p, T=T, seed=seed)
                where = f"d_k={d_k}, p={p:.2f}, T={T}, seed={seed}"
                if len(seen["weights"]) != T or np.max(np.abs(np.subtract(seen["weights"], state.weights))) > 1e-12:
                    wrong.append(f"{where}: weights {seen['weights']} != {state.weights.tolist()}")
                if np.max(np.abs(np.subtract(seen["curve"], state.curve))) > 1e-12:
                    wrong.append(f"{where}: curve {seen['curve']} != {state.curve.tolist()}")
                if seen["readouts"] != readout_texts(state):
                    wrong.append(f"{where}: readouts {seen['readouts']} != {readout_texts(state)}")
                numbers = [[str(j + 1), f"{e:.3f}", f"{d:.3f}", f"{a:.4f}"]
                           for j, (e, d, a) in enumerate(zip(state.scores, state.divided, state.weights))]
                if seen["numbers"] != numbers:
                    wrong.append(f"{where}: table {seen['numbers']} != {numbers}")
                compared += 1
        assert page.errors == []
    assert compared == len(GRID_SEEDS) * 15 * 21 * len(WIDTHS)
    assert not wrong, f"{len(wrong)} of {compared} states differ, the first ones:\n" + "\n".join(wrong[:10])
