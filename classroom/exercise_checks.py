"""The old name of classroom.checks.exercise, kept for one term: notebooks released before the move import it."""
from classroom.checks.exercise import *  # noqa: F401,F403
