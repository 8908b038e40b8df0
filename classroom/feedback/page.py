"""FeedbackPage: the exporter `nbgrader generate_feedback` writes each student's feedback page with (nbgrader_config.py:
GenerateFeedback.exporter_class), so that the page is our template, classroom/feedback/templates/feedback, whichever way
the feedback is made (`make feedback`, or the formgrader's button, which asks HTMLExporter for nbgrader's template).

Our template extends nbgrader's own feedback template, reached as `nbgrader/feedback/index.html.j2`, and changes:
  * the summary at the top: the grader's notes for the student, then each graded cell named by what it checks (the
    first line of its docstring, which SanitizeFeedback puts in the cell's metadata), never by its grade id, with
    its verdict from the notebook's result (classroom.grading.result); points as "1 point", "2 points" (`points`,
    the template's filter of the same name);
  * each grade cell's heading: the same description, where nbgrader prints the grade id;
  * the page's head: no MathJax from a CDN (maths arrives as MathML, classroom.feedback.markdown_math), so the
    page loads nothing from outside; and a style sheet (feedback.css) under which every message, output and code
    line wraps inside its box.
"""
import os

import nbgrader
from jinja2 import FileSystemLoader, PrefixLoader
from nbconvert.exporters import HTMLExporter
from traitlets import default

TEMPLATES = os.path.join(os.path.dirname(__file__), "templates")  # for HTMLExporter.extra_template_basedirs
TEMPLATE = "feedback"
NBGRADER_TEMPLATES = os.path.join(os.path.dirname(nbgrader.__file__), "server_extensions", "formgrader", "templates")


def points(value):
    """`value` points in words: "1 point", "2 points", "0.5 points" (the feedback's one wording of points)."""
    value = float(value)
    return f"{value:g} point" + ("" if value == 1 else "s")


class FeedbackPage(HTMLExporter):
    """nbgrader's feedback exporter (an HTMLExporter), with nbgrader's templates reachable as `nbgrader/...`, so that
    a template may extend nbgrader's template of the same file name, and ours as `classroom/...` (the self_study page
    extends `classroom/feedback/index.html.j2`); and the filter `points`."""

    def default_filters(self):
        yield from super().default_filters()
        yield "points", points

    @default("extra_loaders")
    def _nbgrader_templates(self):
        return [PrefixLoader({"nbgrader": FileSystemLoader(NBGRADER_TEMPLATES),
                              "classroom": FileSystemLoader(TEMPLATES)})]
