"""The trusted side of grading: every check is decided here, outside the student's kernel.

`verdict` runs a grade cell's code in this process against `proxy`s of the student's functions; a proxy speaks to
the grading `child` process (the `server` that runs the student's cells inside the sandbox), kept running within the
submission's time by a `supervisor`, in the plain data of `protocol`, the arrays of a call in the files of `inputs`;
`failures` and `student_errors` name what went wrong; `ipython_cells` and `unanswered` read the student's cells.
"""
