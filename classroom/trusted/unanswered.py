"""What the grader says of work not done yet: code that still raises the NotImplementedError the assignment was
handed out with (`raise NotImplementedError()` under `# YOUR CODE HERE`), in a student's words."""


def not_answered(what, kind="code", message=""):
    """The sentence for code still raising the NotImplementedError the assignment was handed out with."""
    said = f" ({message})" if message else ""
    return (f"Not answered yet: {what} still raises NotImplementedError{said}; replace `raise NotImplementedError()` "
            f"with your {kind}.")
