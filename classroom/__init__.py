"""Grading with nbgrader, every verdict decided outside the student's kernel (instructor side; needs the `grading`
extra, i.e. nbgrader), and what the grade cells import (classroom.checks: NumPy and the standard library only).

classroom reaches the lesson's package, attention_lesson, at three seams, one import each, and nowhere else:
classroom.checks.exercise (the lesson's softmax, with which the checks draw their weights), classroom.quiz.variants
(the self-check's question bank, which the graded quiz's variants must not repeat) and classroom.report.figure (the
lesson's figure style).
"""
