"""pip against uv, installing this project's pinned requirements into a new virtual environment, as `make lab` does
on a fresh clone: each with an empty cache of its own (a fresh machine has none), alternated, the best of each kept.

    python -m bench.installers [runs]

Prints each installer's wall-clock seconds and CPU seconds, the ratio, and whether both environments hold the same
distributions at the same versions (the choice of installer must not change what is installed). Needs uv on PATH,
or installs the Makefile's pinned uv into a throw-away environment first. Standard library only: it runs before
.venv exists.
"""
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def uv_version():
    """The uv release the Makefile pins (UV_VERSION = ...)."""
    return re.search(r"^UV_VERSION = (\S+)", (ROOT / "Makefile").read_text(), re.M).group(1)


def timed(command, env):
    """(wall seconds, CPU seconds of the command's children) for one command, which must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def install(installer, uv, work):
    """Time a new venv plus the pinned requirements and the project (editable) by `installer`, with an empty cache."""
    venv, cache = work / f"venv-{installer}", work / f"cache-{installer}"
    shutil.rmtree(venv, ignore_errors=True)
    shutil.rmtree(cache, ignore_errors=True)
    env = dict(os.environ, PIP_CACHE_DIR=str(cache), UV_CACHE_DIR=str(cache), PIP_DISABLE_PIP_VERSION_CHECK="1")
    python = venv / "bin" / "python"
    steps = [[sys.executable, "-m", "venv", str(venv)]]
    if installer == "pip":
        steps.append([str(python), "-m", "pip", "install", "-q", "-r", "requirements.txt", "-e", "."])
    else:
        steps.append([uv, "pip", "install", "-q", "--compile-bytecode", "--python", str(python), "-r", "requirements.txt",
                      "-e", "."])  # as `make lab` runs it: with .pyc, as pip writes them
    wall = cpu = 0.0
    for step in steps:
        w, c = timed(step, env)
        wall, cpu = wall + w, cpu + c
    return wall, cpu, python


def installed(python):
    """{distribution: version} in an environment, names normalised as PyPI does."""
    listing = subprocess.run([str(python), "-c", "import importlib.metadata as m; print('\\n'.join("
                              "f'{d.metadata[\"Name\"]}=={d.version}' for d in m.distributions()))"],
                             capture_output=True, text=True, check=True).stdout.split()
    found = {}
    for line in listing:
        name, version = line.split("==")
        found[re.sub(r"[-_.]+", "-", name).lower()] = version
    for tool in ("pip", "setuptools", "uv"):
        found.pop(tool, None)
    return found


def main(runs=2):
    with tempfile.TemporaryDirectory(prefix="bench-installers-") as tmp:
        work = Path(tmp)
        uv = shutil.which("uv")
        if uv is None:
            subprocess.run([sys.executable, "-m", "venv", str(work / "uv-tool")], check=True)
            subprocess.run([str(work / "uv-tool/bin/python"), "-m", "pip", "install", "-q",
                            "--disable-pip-version-check", f"uv=={uv_version()}"], check=True)
            uv = str(work / "uv-tool/bin/uv")
        best = {}
        for run in range(runs):
            for installer in ("pip", "uv"):
                wall, cpu, python = install(installer, uv, work)
                print(f"run {run + 1}  {installer:>3}: {wall:6.1f} s wall, {cpu:6.1f} CPU-s", flush=True)
                if installer not in best or wall < best[installer][0]:
                    best[installer] = (wall, cpu, installed(python))
        pip, uv_ = best["pip"], best["uv"]
        print(f"best of {runs}: pip {pip[0]:.1f} s ({pip[1]:.1f} CPU-s), uv {uv_[0]:.1f} s ({uv_[1]:.1f} CPU-s); "
              f"pip takes {pip[0] / uv_[0]:.1f} times as long")
        differ = sorted(set(pip[2].items()) ^ set(uv_[2].items()))
        print("same distributions and versions in both" if not differ else f"they differ: {differ}")
        return 0 if not differ else 1


if __name__ == "__main__":
    sys.exit(main(*(int(a) for a in sys.argv[1:2])))
