"""Instructor-side tooling for the score_gradient assignment: grading, feedback and reports with nbgrader."""
