"""Grading a class so that no grade is ever silently stale or half-written (classroom.grading.driver, which
`python -m classroom.autograde` runs).

Each submission is graded as one transaction (staging.py, then commit.py): nbgrader's own autograde pipeline runs
on a private staging copy (a safe copy of the submitted folder, an empty staging gradebook), then the result is
committed: the grades in one gradebook transaction, then the autograded folder swapped in whole, holding a record
(classroom.grading.record) of what was graded: the submission's digest, the assignment's version and the grades
written. A later run compares that record with the submission, the assignment and the gradebook, and re-grades
whatever does not match, so a run killed at any point is repaired by the next plain run.
"""
