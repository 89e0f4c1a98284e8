"""The player's actions and the one rule for choosing among them.

Every module that compares action values (the solve, the chart, the counting indices) uses
``first_best`` so that exact ties are broken the same way everywhere.
"""
from __future__ import annotations

from bjcore import TIE_TOLERANCE

ACTIONS = ("stand", "hit", "double", "split", "surrender")
ACTION_CODE = {a: i for i, a in enumerate(ACTIONS)}

# kinds of decision a frozen policy distinguishes (the kernel's policy table keys)
KIND_START, KIND_LATER, KIND_SPLIT = 0, 1, 2


def improves(challenger: float, incumbent: float) -> bool:
    """Whether a later option beats the current choice: only if strictly better; values
    within a relative TIE_TOLERANCE are an exact tie rounded differently, and the earlier
    option keeps it.  The kernels use the same rule."""
    return challenger - incumbent > TIE_TOLERANCE * max(1.0, abs(incumbent))


def first_best(values) -> str | None:
    """The chosen action among ``values`` (action -> EV): the first strictly best in the
    order stand, hit, double, split, surrender."""
    best = None
    for a in ACTIONS:
        if a in values and (best is None or improves(values[a], values[best])):
            best = a
    return best
