"""Pip and conda users get the same versions: environment.yml agrees with requirements.txt, pin for pin."""
import re

import yaml

from coursekit.repository import ROOT


def pip_pins():
    pins = {}
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, sep, version = line.partition("==")
            assert sep, f"requirements.txt: {line!r} is not pinned with =="
            pins[name.strip().lower()] = version.strip()
    return pins


def conda_pins():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    pins = {}
    for dep in env["dependencies"]:
        if isinstance(dep, str) and dep.split("=")[0].split(">")[0].split("<")[0] not in ("python", "pip"):
            name, sep, version = dep.partition("=")
            assert sep and not version.startswith("="), f"environment.yml: pin {dep!r} as name=version"
            pins[name.strip().lower()] = version.strip()
    return pins


def test_requirements_are_exact_pins():
    assert pip_pins(), "requirements.txt pins nothing"


def test_conda_and_pip_pin_the_same_packages_and_versions():
    assert conda_pins() == pip_pins()


def test_conda_installs_the_project_itself():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    pip_section = [d for d in env["dependencies"] if isinstance(d, dict)]
    assert pip_section and "-e ." in pip_section[0]["pip"]


def test_python_range_agrees_with_the_package_and_the_makefile():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    assert "python>=3.10,<3.14" in env["dependencies"]
    assert 'requires-python = ">=3.10,<3.14"' in (ROOT / "pyproject.toml").read_text()
    assert re.search(r"\(3, 10\) <= sys.version_info\[:2\] <= \(3, 13\)", (ROOT / "Makefile").read_text())
