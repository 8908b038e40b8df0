"""One look for every figure in the lesson: a colour-blind-safe palette and the house style.

The palette is Okabe and Ito's (2008), chosen so that the colours stay distinct under the common forms
of colour blindness; every figure also says with labels what it says with colour.
"""
import matplotlib
import matplotlib.pyplot as plt

OKABE_ITO = {
    "orange": "#E69F00",
    "sky blue": "#56B4E9",
    "bluish green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "reddish purple": "#CC79A7",
    "black": "#000000",
}

# The three divisors the lesson compares (keyed as in attention_lesson.vocabulary), always in the same colours.
DIVISOR_COLOURS = {
    "1": OKABE_ITO["vermillion"],
    "√d_k": OKABE_ITO["blue"],
    "d_k": OKABE_ITO["bluish green"],
}

# Readable defaults for every figure: larger text, no top/right frame, a light grid.
RC = {
    "figure.dpi": 100,
    "font.size": 10,
    "axes.titlesize": 10,
    "axes.labelsize": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.prop_cycle": plt.cycler(color=[OKABE_ITO[c] for c in ("blue", "orange", "bluish green", "vermillion",
                                                                "reddish purple", "sky blue", "black")]),
}


def figure(nrows=1, ncols=1, **kwargs):
    """A new figure and axes in the house style (a thin wrapper over plt.subplots).

    Leaving rc_context restores every rc setting it saw on entry, `interactive` included. In a fresh
    kernel the inline backend switches interactive mode on while the first figure is made; restoring
    the old value would silently stop every later figure from showing. So that one setting is kept.
    """
    with plt.rc_context(RC):
        made = plt.subplots(nrows, ncols, **kwargs)
        interactive = matplotlib.is_interactive()
    matplotlib.interactive(interactive)
    return made
