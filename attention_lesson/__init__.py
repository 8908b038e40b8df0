"""Helpers behind the notebooks on why attention divides its scores by sqrt(d_k).

The mathematics a student has to see is written out in the notebooks themselves; this package holds
what would only distract there: argument validation, text tables and figure drawing. Each function's
docstring names the notebook that introduces it.
"""
from attention_lesson.arguments import as_curve, as_rows, as_width, as_widths
from attention_lesson.softmax import softmax_rows
from attention_lesson.tables import format_table

__all__ = ["as_curve", "as_rows", "as_width", "as_widths", "format_table", "softmax_rows"]
