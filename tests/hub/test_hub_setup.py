"""The hub's set-up checks that need no accounts (deploy/jupyterhub/hub_class.py): one Node.js requirement that the
proxy's package.json, its lockfile and INSTRUCTORS.md agree on, checked with a message that says what to install; a
hub port already taken is seen before anything is made."""
import json
import re
import socket

import pytest

from coursekit.real_parts.hub import DEPLOY, deploy_module
from coursekit.repository import ROOT

hub_class = deploy_module("hub_class")
hub_settings = deploy_module("hub_settings")


def version(text):
    return tuple(int(part) for part in text.split("."))


def satisfies(found, spec):
    """Does the version `found` (a tuple) satisfy an npm `engines` range of the forms the lockfile holds: `*`,
    `>=X[.Y[.Z]]`, `>= X`, `^X[.Y[.Z]]`, joined by `||`?"""
    for alternative in spec.split("||"):
        alternative = alternative.strip()
        if alternative == "*":
            return True
        match = re.fullmatch(r"(>=|\^)\s*(\d+(?:\.\d+){0,2})", alternative)
        assert match, f"a range this test does not read: {spec!r}"
        low = version(match.group(2)) + (0,) * (3 - len(version(match.group(2))))
        if found >= low and (match.group(1) == ">=" or found[0] == low[0]):
            return True
    return False


def test_one_node_requirement_that_every_locked_package_accepts_and_one_needs():
    text, minimum = hub_class.node_requirement()
    lock = json.loads((DEPLOY / "package-lock.json").read_text())
    ranges = {name: entry["engines"]["node"] for name, entry in lock["packages"].items()
              if isinstance(entry.get("engines"), dict) and "node" in entry["engines"]}
    assert ranges[""] == text, "the lockfile's own engines are package.json's"
    refused = {name: spec for name, spec in ranges.items() if not satisfies(minimum, spec)}
    assert not refused, f"packages the declared minimum Node {text} cannot run: {refused}"
    below = (minimum[0] - 1, 99, 99)
    assert any(not satisfies(below, spec) for spec in ranges.values()), f"nothing needs Node {text}: lower it"


def test_instructors_md_states_the_same_node_requirement():
    text, minimum = hub_class.node_requirement()
    assert text == f">={minimum[0]}"
    assert f"**Node.js {minimum[0]} or later**" in (ROOT / "INSTRUCTORS.md").read_text()


@pytest.fixture
def fake_node(tmp_path, monkeypatch):
    monkeypatch.setattr(hub_class.shutil, "which", lambda name: f"/usr/bin/{name}")

    def node(shown):
        script = tmp_path / "node"
        script.write_text(f"#!/bin/sh\necho {shown}\n")
        script.chmod(0o755)
        return str(script)
    return node


def test_a_node_too_old_is_refused_saying_what_it_found_and_what_to_install(fake_node):
    message = hub_class.check_node(fake_node("v18.19.0"))
    assert "needs Node.js >=20" in message and "Node.js v18.19.0" in message and "apt-get install nodejs npm" in message


@pytest.mark.parametrize("shown", ["v20.0.0", "v20.20.2", "v22.12.0"])
def test_a_node_new_enough_passes(fake_node, shown):
    assert hub_class.check_node(fake_node(shown)) is None


def test_no_node_at_all_is_said_so(tmp_path, monkeypatch):
    monkeypatch.setattr(hub_class.shutil, "which", lambda name: None)
    message = hub_class.check_node(str(tmp_path / "missing"))
    assert "this machine has no Node.js and no npm" in message


def test_a_taken_port_is_seen_and_a_free_one_is_not():
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        assert hub_settings.port_taken("127.0.0.1", port)
        refused = hub_settings.port_refused({"ip": "127.0.0.1", "port": str(port)}, "nothing was made")
        assert refused.startswith(f"Port {port} on 127.0.0.1 is taken (another hub?): nothing was made. "), refused
    assert not hub_settings.port_taken("127.0.0.1", port)
    assert hub_settings.port_refused({"ip": "127.0.0.1", "port": str(port)}, "nothing was made") is None


def test_new_homes_are_made_private_once_and_other_home_modes_are_set_aside(tmp_path):
    defs = tmp_path / "login.defs"
    defs.write_text("UMASK\t\t022\n#HOME_MODE\t0700\nHOME_MODE 0755\n")
    assert hub_class.private_new_homes(defs) is True
    lines = defs.read_text().splitlines()
    assert [line.split() for line in lines if line.startswith("HOME_MODE")] == [["HOME_MODE", "0700"]], lines
    assert "UMASK\t\t022" in lines and "#HOME_MODE 0755" in lines
    assert hub_class.private_new_homes(defs) is False and defs.read_text().splitlines() == lines


def test_every_page_that_points_to_the_kubernetes_folder_says_it_is_not_tested():
    """deploy/kubernetes/ is on paper: no test or CI job renders or runs it, and each page that links it says so."""
    pages = [ROOT / "README.md", ROOT / "INSTRUCTORS.md", *sorted((ROOT / "docs").glob("*.md"))]
    for page in pages:
        for paragraph in page.read_text(encoding="utf-8").split("\n\n"):
            if "kubernetes/" in paragraph:
                assert "not tested" in paragraph.replace("\n", " "), (page.name, paragraph[:80])


def test_the_kubernetes_notes_point_to_the_page_that_holds_every_permission():
    notes = (ROOT / "deploy" / "kubernetes" / "README.md").read_text(encoding="utf-8")
    assert '"Every permission, and why"' in notes and "](../../INSTRUCTORS.md)" in notes
    assert "### Every permission, and why" in (ROOT / "INSTRUCTORS.md").read_text(encoding="utf-8")
    assert "Every permission, and why" not in (ROOT / "docs" / "hub.md").read_text(encoding="utf-8")
