"""docs/configuration.md is what the code's traits say (tools/config_reference.py), and what INSTRUCTORS.md links for
the limits' values: an option added, renamed or given another default without the page fails here."""
import re

from coursekit.repository import ROOT
from tools import config_reference

SHOWN_AS_TYPOS = {"ExecuteForDisplay.timout"}  # INSTRUCTORS.md's example of a typo that grading refuses


def test_the_reference_is_what_the_code_says():
    assert (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8") == config_reference.reference(), \
        "docs/configuration.md is out of date: run python -m tools.config_reference"


def test_the_reference_holds_the_grading_limits_with_their_defaults():
    from classroom.preprocessors.sandboxed_execute import SandboxedExecute
    from classroom.preprocessors.trusted_grades import TrustedGrades

    text = config_reference.reference()
    for cls, option in ((TrustedGrades, "call_timeout"), (SandboxedExecute, "kernel_memory")):
        default = cls.class_traits()[option].default_value_repr()
        assert f"| `c.{cls.__name__}.{option}` |" in text and f"`{default}`" in text


def test_instructors_link_the_reference_and_every_option_they_name_is_in_it():
    instructors = (ROOT / "INSTRUCTORS.md").read_text(encoding="utf-8")
    assert "(docs/configuration.md)" in instructors
    reference = config_reference.reference()
    ours = {m.group(1) for m in re.finditer(r"`c\.(\w+\.\w+)`", reference)}
    named = {m.group(1) for m in re.finditer(r"`c\.(\w+\.\w+)", instructors)}
    classes = {name.split(".")[0] for name in ours}
    unknown = sorted(name for name in named - SHOWN_AS_TYPOS if name.split(".")[0] in classes and name not in ours)
    assert not unknown, f"INSTRUCTORS.md names options the code does not have: {unknown}"
