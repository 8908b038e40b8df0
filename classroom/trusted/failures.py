"""The kinds of failure the grader records, spelled once: the contract between grading and the class report.

Every output the grader writes for a failure carries its kind as the output's `ename` (an nbformat error output:
`{"output_type": "error", "ename": KIND, "evalue": the sentence for the student, ...}`). The report, the feedback
and the tests decide on the kind, never on the wording of the sentence, so a message can be reworded freely.
"""

CHECK_FAILED = "CheckFailed"      # a check's assertion failed: an ordinary wrong answer
RAISED = "ErrorInYourCode"        # the student's code raised an exception
WRONG_TYPE = "WrongType"          # the student's code returned something that is not plain data
TIMED_OUT = "TimedOut"            # a call, the solution cell or a displayed cell ran past its time limit
CRASHED = "Crashed"               # the process running the student's code died (exit, signal, killed)
OUT_OF_MEMORY = "OutOfMemory"     # the student's code ran out of the memory it is given
OUTPUT_CUT = "OutputCut"          # the grader cut a cell's output at its size cap
NOT_RUN = "NotRun"                # a displayed cell was not run because an earlier one stopped the run
NOT_GRADED = "NotGraded"          # the notebook could not be graded at all (unreadable, missing, grader failed)
ASSIGNMENT_FAILED = "AssignmentFailed"  # a cell of the assignment's own (not the student's to change) failed

KINDS = (CHECK_FAILED, RAISED, WRONG_TYPE, TIMED_OUT, CRASHED, OUT_OF_MEMORY, OUTPUT_CUT, NOT_RUN, NOT_GRADED,
         ASSIGNMENT_FAILED)

# The kinds that make a submission need an instructor's look, with the words the report uses for them.
ATTENTION = {
    TIMED_OUT: "timed out",
    CRASHED: "crashed",
    OUT_OF_MEMORY: "ran out of memory",
    OUTPUT_CUT: "output cut",
    NOT_GRADED: "could not be run",
    ASSIGNMENT_FAILED: "a cell of the assignment's own failed",
}


def error_output(kind, message):
    """The nbformat error output (a plain dict) that records one failure of `kind` with `message` for the student."""
    if kind not in KINDS:
        raise ValueError(f"unknown failure kind {kind!r}; use one of {', '.join(KINDS)}")
    return {"output_type": "error", "ename": kind, "evalue": message, "traceback": [f"{kind}: {message}"]}


class AssignmentError(Exception):
    """A check failed because of the assignment itself, not the student's work (a name only a cell of the
    assignment's own defines, a value the grader cannot pass): ASSIGNMENT_FAILED, which asks for the teacher's look.
    str() is the sentence the student reads."""
