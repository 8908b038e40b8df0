"""A class report after grading: a PNG to glance at, an HTML page for detail and a CSV beside them.

    python -m classroom.report ASSIGNMENT [--out report/]        (run from the course directory)

writes, from the gradebook and each graded notebook's result in autograded/ (classroom.grading.result; found through
nbgrader's CourseDirectory),

  <out>/<assignment>.png           the histogram of total scores, and the share of the class failing each check;
  <out>/<assignment>.html          the same figure (its numbers in the alt text), then as tables: the score
                                   distribution, every check with what it detects, its points, the share failing
                                   and the most common failure messages, the submissions that needed attention and
                                   why, and every student's scores with the grader's notes;
  <out>/<assignment>-by-check.csv  one row per student (spreadsheet.COLUMNS lists the columns).

One job per module:
  model        the data (frozen dataclasses): Summary, Student, Check, CheckResult, Reason
  attention    which submissions need a look, and why, decided on the results' data (failure kinds, repairs, status)
  read         the gradebook, the results and the grading records into a Summary (`read_summary`)
  figure       the PNG and its alt text
  spreadsheet  the CSV
  render       the HTML page (templates/report.html.j2, Jinja2 with autoescape)
  __main__     the command line

What a check "detects" is the one-line docstring that opens its grade cell in the gradebook, and its failure messages
are those its results record: the sentences the feedback shows. No other text of a grade cell is read, so the
hidden tests' code cannot reach the report.
"""
from .read import ReportError, read_summary
from .model import Summary

__all__ = ["ReportError", "Summary", "read_summary"]
