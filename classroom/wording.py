"""The one way the course's commands point from a typo to the name that was meant: " (did you mean 'alice'?)"."""
import difflib


def did_you_mean(word, choices, quote=repr):
    """" (did you mean <the closest of choices>?)", the name written with `quote`; "" if none is close to `word`."""
    close = difflib.get_close_matches(word, sorted(choices), n=1, cutoff=0.5)
    return f" (did you mean {quote(close[0])}?)" if close else ""


def code(name):
    """A name written as code in a message: `root`."""
    return f"`{name}`"
