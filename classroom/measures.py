"""The old name of classroom.checks.measures, kept for one term: notebooks released before the move import it."""
from classroom.checks.measures import *  # noqa: F401,F403
from classroom.checks.measures import peak_extra_bytes, python_loops  # noqa: F401
