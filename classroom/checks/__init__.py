"""What the grade cells of an assignment import, in the student's kernel at Validate and in the grader alike:
`exercise` (inputs drawn from seeds, the result read as a float matrix, the visible checks' plumbing), `measures`
(loops, memory) and `loops` (the static reading of the no-loop rule)."""
