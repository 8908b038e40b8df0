"""The one way the course's commands point from a typo to the name that was meant: " (did you mean 'alice'?)"."""
import difflib


def did_you_mean(word, choices, quote=repr, cutoff=0.6):
    """" (did you mean <the closest of choices>?)", the name written with `quote`; "" if none is as close to `word` as
    `cutoff` (difflib's ratio: 0.6, its default, unless a caller asks for looser hints)."""
    close = difflib.get_close_matches(word, sorted(choices), n=1, cutoff=cutoff)
    return f" (did you mean {quote(close[0])}?)" if close else ""


def code(name):
    """A name written as code in a message: `root`."""
    return f"`{name}`"
