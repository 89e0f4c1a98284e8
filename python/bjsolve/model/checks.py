"""Argument checks shared across the package: what counts as a usable number.

A user may hand any object where a number is expected; Python ints have no size limit,
so ``math.isfinite(10**400)`` raises OverflowError instead of answering.  These helpers
answer for every object, so that each caller can raise its own error naming its field.
"""
from __future__ import annotations

import math
import numbers

__all__ = ["is_finite_real"]


def is_finite_real(value) -> bool:
    """True for a real number (not a bool) that is finite as a float: False for inf,
    NaN, ints beyond a float's range (about 1.8e308), strings and other objects."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False
