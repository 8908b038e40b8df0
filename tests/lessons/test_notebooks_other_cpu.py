"""Every lesson notebook prints the same text when the processor takes other code paths.

nbval (run by plain `pytest`) checks that the stored outputs come back on *this* machine. Another machine may do
the same sums in another order: OpenBLAS picks its kernels for the processor it finds, and numpy picks its SIMD
loops (AVX-512, AVX2, ...) at run time. A printed number that hangs on those last bits, such as a digit of a
chaotic training run, passes here and fails in CI or for the next developer. So this test reruns every lesson
notebook under nbval with other code paths forced by environment variables, which the kernel inherits:

* OPENBLAS_CORETYPE picks another OpenBLAS kernel family (honoured by builds with DYNAMIC_ARCH, as numpy's wheels);
* NPY_DISABLE_CPU_FEATURES switches off numpy's run-time dispatch to the named SIMD extensions;
* OPENBLAS_NUM_THREADS=1 rules out a different split of the work between threads.

A probe notebook, written here, prints which SIMD extensions numpy uses; run beside the lessons it must fail
whenever a setting switches off an extension this machine has, which shows that the settings reach the kernel
and that a difference in the printed text is caught.
"""
import ast
import os
import platform
import re
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

import nbformat
import pytest

from coursekit.repository import ROOT

import numpy as np

# numpy's public report of its run-time dispatch: "found" are the extensions it uses on this processor (less those
# switched off), "not found" the others it could dispatch to.
SIMD = np.show_config(mode="dicts")["SIMD Extensions"]
IN_USE = set(SIMD.get("found", []))  # a key is left out when its list would be empty
DISPATCHED = IN_USE | set(SIMD.get("not found", []))

# name: (OpenBLAS kernel family, numpy extensions to switch off; only those numpy dispatches at run time are used)
AVX512 = ("AVX512F", "AVX512CD", "AVX512_KNL", "AVX512_KNM", "AVX512_SKX", "AVX512_CLX", "AVX512_CNL", "AVX512_ICL",
          "AVX512_SPR")
SETTINGS = {
    "haswell-avx2": ("Haswell", AVX512),  # AVX2 and FMA, as on most laptops and CI runners
    "prescott-sse": ("Prescott", ("SSSE3", "SSE41", "POPCNT", "SSE42", "AVX", "F16C", "FMA3", "AVX2") + AVX512),
}
IN_USE_NOW = "import numpy as np\nprint(sorted(np.show_config(mode='dicts')['SIMD Extensions'].get('found', [])))"
COLOUR = re.compile(r"(\x1b|#x1B)\[[0-9;]*m")  # nbval colours its messages; the XML report spells ESC as #x1B

pytestmark = [pytest.mark.integration, pytest.mark.skipif(platform.machine().lower() not in ("x86_64", "amd64"),
                                reason="the settings name x86-64 code paths")]


def environment(setting):
    """This process's environment with the code paths of `setting` forced; also the numpy extensions switched off."""
    coretype, features = SETTINGS[setting]
    off = [f for f in features if f in DISPATCHED]  # numpy refuses to switch off what it does not dispatch
    env = dict(os.environ, OPENBLAS_CORETYPE=coretype, OPENBLAS_NUM_THREADS="1", NPY_DISABLE_CPU_FEATURES=" ".join(off))
    return env, off


def probe_notebook(path):
    """A notebook whose stored output is what the probe prints in this process, with the native code paths."""
    cell = nbformat.v4.new_code_cell(IN_USE_NOW, execution_count=1)
    native = sorted(IN_USE)
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=f"{native}\n")]
    nb = nbformat.v4.new_notebook(cells=[cell])
    nb.metadata = {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}}
    nbformat.write(nb, path)
    return path


# A hang guard, not a timing check: the slowest lesson cell takes seconds, so a cell still running after this long
# has hung (a kernel that died mid-cell is never noticed by nbval otherwise); nbval then names that cell and goes on.
CELL_HANG_GUARD = 600


def nbval_results(paths, env, folder):
    """Run nbval on `paths` in a fresh pytest under `env`; return {test id: failure text or None}, and the output.

    Its output goes to a file, not a pipe: a kernel left running after that pytest ends (it inherits the standard
    output) would otherwise hold the pipe open and keep this test waiting for its end."""
    report, log = folder / "report.xml", folder / "nbval.log"
    command = [sys.executable, "-m", "pytest", "--nbval", "--nbval-current-env", "-p", "no:cacheprovider", "-q",
               f"--nbval-cell-timeout={CELL_HANG_GUARD}", "--rootdir", str(ROOT), f"--junitxml={report}",
               *map(str, paths)]
    with open(log, "w") as out:
        subprocess.run(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    output = log.read_text(errors="replace")
    if not report.exists():
        pytest.fail(f"nbval did not run:\n{output[-6000:]}")
    results = {}
    for case in ElementTree.parse(report).iter("testcase"):
        problem = case.find("failure")
        if problem is None:
            problem = case.find("error")
        text = None if problem is None else COLOUR.sub("", problem.text or problem.get("message", ""))
        results[f"{case.get('classname')}::{case.get('name')}"] = text  # classname: notebooks.<file name>
    return results, output


@pytest.mark.parametrize("setting", SETTINGS)
def test_numpy_honours_the_setting(setting):
    env, off = environment(setting)
    run = subprocess.run([sys.executable, "-c", IN_USE_NOW], env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and not run.stderr, f"numpy did not accept the setting {setting}:\n{run.stderr}"
    still_on = set(off) & set(ast.literal_eval(run.stdout))
    assert not still_on, f"NPY_DISABLE_CPU_FEATURES did not switch off {sorted(still_on)}"


@pytest.mark.parametrize("setting", SETTINGS)
def test_every_notebook_prints_the_same_with_other_code_paths(setting, tmp_path):
    env, off = environment(setting)
    lessons = sorted((ROOT / "notebooks").glob("*.ipynb"))
    probe = probe_notebook(tmp_path / "probe.ipynb")
    results, output = nbval_results([*lessons, probe], env, tmp_path)

    lesson_results = {name: problem for name, problem in results.items() if name.startswith("notebooks.")}
    for path in lessons:
        assert f"notebooks.{path.name}::Cell 0" in lesson_results, (
            f"nbval ran no cell of {path.name}:\n{output[-2000:]}")
    failed = {name: problem for name, problem in lesson_results.items() if problem is not None}
    assert not failed, (
        f"with OPENBLAS_CORETYPE={env['OPENBLAS_CORETYPE']} and numpy's {' '.join(off) or 'nothing'} switched off, "
        f"these cells print something else than what is stored:\n\n"
        + "\n\n".join(f"{name}\n{problem[-1500:]}" for name, problem in failed.items())
        + "\n\nA printed number depends on the processor's code path. Print it with fewer digits, or print what "
          "holds with a margin instead (docs/training-experiment.md shows how notebook 06 does it).")

    probe_results = [problem for name, problem in results.items() if not name.startswith("notebooks.")]
    assert len(probe_results) == 1, f"the probe notebook did not run:\n{output[-2000:]}"
    machine_has = [f for f in off if f in IN_USE]
    if machine_has:
        assert probe_results[0] is not None, (
            f"the kernel still used {machine_has}: the setting did not reach it, so this test would pass blindly")
    else:
        assert probe_results[0] is None, "the probe failed although the setting switches off nothing this machine has"
