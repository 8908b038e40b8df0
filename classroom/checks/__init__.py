"""What the grade cells of an assignment import, in the student's kernel at Validate and in the grader alike:
`exercise` (inputs drawn from seeds, the result read as a float matrix, the visible checks' plumbing), `measures`
(loops, memory), `loops` (the static reading of the no-loop rule), `bindings` (what the answer cells bind and use, by
name) and `line_count` (the count of the Python lines a call runs, also loaded by path in the grading child).

Light, and knowing nothing of the trusted side: nothing here imports classroom.trusted, classroom.sandbox,
classroom.grading, nbgrader or IPython. The grader plugs in by duck typing: what stands for the student's function
there offers the measurements itself (classroom.checks.measures says which).
"""
