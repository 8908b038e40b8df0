"""The grading settings that are not one preprocessor's own: whether student processes run in the sandbox.

Set in nbgrader_config.py or on the command line like any nbgrader option (`--Sandbox.enabled=False`).
"""
from traitlets import Bool
from traitlets.config import Configurable

from . import launch


class Sandbox(Configurable):
    """The one switch for grading without bubblewrap: `--Sandbox.enabled=False` (what `classroom.autograde
    --no-sandbox` passes). Nothing else turns the sandbox off; without bwrap, grading raises SandboxUnavailable."""

    enabled = Bool(True, help="Run every student process in the bubblewrap sandbox (classroom.sandbox).").tag(
        config=True)


def sandboxed(parent):
    """Whether `parent` (a preprocessor) runs student code sandboxed: True, or SandboxUnavailable if bwrap is
    missing; False only when configured so, with a warning in the log."""
    enabled = Sandbox(parent=parent).enabled
    if enabled:
        launch.require()
    else:
        parent.log.warning("Grading WITHOUT the sandbox (Sandbox.enabled=False): the student's code runs with your "
                           "rights")
    return enabled
