"""`classroom`, the course's one command (classroom/app/): `--help-all` lists every subcommand and every option of
each; each subcommand is an nbgrader application (reads nbgrader_config.py, options settable there, an unknown option
refused with the nearest real one, nothing done); the instructor's and the learner's make targets are aliases of its
subcommands, kept in step with its list."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

from classroom.app.main import SUBCOMMANDS, command_class
from coursekit import forked_commands
from coursekit.trial_course import nbgrader_env
from coursekit.repository import ROOT

# Subcommands with no target of their own, and why: `quiz-key` is a step of `classroom release` (make release).
NO_TARGET = {"quiz-key"}


def classroom(*args, cwd=ROOT):
    return forked_commands.run([sys.executable, "-m", "classroom.app", *args], cwd=cwd, env=nbgrader_env(),
                               capture_output=True, text=True)


@pytest.fixture(scope="module")
def help_all():
    shown = classroom("--help-all")
    assert shown.returncode == 0, shown.stderr[-2000:]
    return shown.stdout


def course_targets():
    """{target: its recipe} of the Makefile's learner and instructor targets (its .PHONY lines after "Learners" and
    without the benchmarks)."""
    makefile = (ROOT / "Makefile").read_text()
    phony = set()
    for line in re.findall(r"^\.PHONY: ((?:.*\\\n)*.*)$", makefile[makefile.index("exercise: $(READY)") - 300:], re.M):
        phony |= set(line.replace("\\\n", " ").split())
    recipes = dict(re.findall(r"^([a-z][\w-]*): .*\n((?:\t.*\n)+)", makefile, re.M))
    return {target: recipes[target] for target in phony if target in recipes and not target.startswith(("bench", "hub"))}


def test_help_all_lists_every_subcommand_and_every_option_of_each(help_all):
    sections = re.split(r"^=+\nclassroom ([\w-]+)\n=+$", help_all, flags=re.M)
    shown = dict(zip(sections[1::2], sections[2::2]))
    assert list(shown) == list(SUBCOMMANDS)
    for name, text in shown.items():
        cls = command_class(name)
        for option in [*cls.aliases, *cls.flags]:
            assert f"--{option}" in text, (name, option)
        for trait in cls.class_own_traits(config=True):
            assert f"--{cls.__name__}.{trait}=" in text, (name, trait)


def test_every_course_target_is_an_alias_of_a_subcommand_and_every_subcommand_has_one():
    targets = course_targets()
    assert {"autograde", "report", "exercise", "check-exercise", "lms-grades"} <= set(targets)
    aliased = {}
    for target, recipe in targets.items():
        called = re.findall(r"\$\((?:CLASSROOM|BIN\)/classroom)\)? ([\w-]+)", recipe)
        assert len(called) == 1, f"make {target} should run one `classroom` subcommand: {recipe}"
        assert called[0] in SUBCOMMANDS, (target, called[0])
        aliased[target] = called[0]
    assert set(aliased.values()) == set(SUBCOMMANDS) - NO_TARGET
    assert all(target == sub or target.replace("lms-", "") == sub for target, sub in aliased.items()), aliased


def test_the_console_script_is_the_same_command():
    script = Path(sys.executable).parent / "classroom"
    assert script.exists(), "pip install -e . makes bin/classroom (pyproject.toml [project.scripts])"
    shown = subprocess.run([str(script), "--help"], capture_output=True, text=True, env=nbgrader_env())
    assert shown.returncode == 0 and all(name in shown.stdout for name in SUBCOMMANDS), shown.stdout[-2000:]


def test_an_unknown_option_or_subcommand_is_refused_with_the_nearest_name_and_nothing_done(tmp_path):
    (tmp_path / "nbgrader_config.py").write_text("c = get_config()\n")
    refused = classroom("report", "score_gradient", "--otu", "x", cwd=tmp_path)
    assert refused.returncode == 2 and "there is no option --otu (did you mean 'out'?)" in refused.stderr
    assert not (tmp_path / "x").exists() and not (tmp_path / "report").exists()
    refused = classroom("reprot", "score_gradient", cwd=tmp_path)
    assert refused.returncode == 2 and "did you mean 'report'?" in refused.stderr
    refused = classroom("report", cwd=tmp_path)
    assert refused.returncode == 2 and "name the ASSIGNMENT" in refused.stderr
    refused = classroom("drop", "alice", "bob", cwd=tmp_path)
    assert refused.returncode == 2 and "too many arguments (bob)" in refused.stderr
    assert not list(tmp_path.glob("*.json")) and not (tmp_path / ".grading").exists()


def test_an_option_set_in_nbgrader_config_is_obeyed(tmp_path):
    """`c.GradesCommand.to` in the course's configuration: `classroom grades` writes there."""
    (tmp_path / "nbgrader_config.py").write_text('c = get_config()\nc.CourseDirectory.course_id = "c"\n'
                                                'c.GradesCommand.to = "all-grades.csv"\n')
    done = classroom("grades", cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert (tmp_path / "all-grades.csv").exists() and not (tmp_path / "grades.csv").exists()
    done = classroom("grades", "--to", "other.csv", cwd=tmp_path)  # the command line over the configuration
    assert done.returncode == 0 and (tmp_path / "other.csv").exists(), done.stderr[-2000:]


def test_the_grading_driver_answers_help_and_help_all_as_an_nbgrader_application():
    said = classroom("autograde", "--help")
    assert said.returncode == 0
    for option in ("--jobs=<Int>", "--scheduler=<Unicode>", "--wait", "--no-sandbox", "--force", "--student=",
                   "--notebook=", "--db=", "Equivalent to: [--ClassroomAutogradeApp.jobs]"):
        assert option in said.stdout, option
    said = classroom("autograde", "--help-all")
    assert said.returncode == 0
    for option in ("--ClassroomAutogradeApp.jobs=<Int>", "--CourseDirectory.db_url=", "--Grader.launcher_class=",
                   "--TrustedGrades.call_timeout=", "--ExecuteForDisplay.timeout=", "--SandboxedExecute.total_seconds="):
        assert option in said.stdout, option


def test_every_flag_sets_an_option_the_command_reads():
    """A flag sets configuration; a trait that is not configurable would ignore it silently (`drop --undo` dropping
    the student again)."""
    for name in SUBCOMMANDS:
        cls = command_class(name)
        for flag, (config, _) in cls.flags.items():
            for section, values in config.items():
                if section == cls.__name__:
                    for trait in values:
                        assert cls.class_traits()[trait].metadata.get("config"), (name, flag, trait)
