"""Grading with nbgrader, every verdict decided outside the student's kernel (instructor side; needs the `grading`
extra, i.e. nbgrader), and the measures the hidden tests use (classroom.checks.measures: NumPy only)."""
