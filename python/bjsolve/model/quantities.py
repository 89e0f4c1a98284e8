"""Numbers people type for counts of rounds: '1e6', '2M', '1_000_000', '10,000,000'.

One reader for the command line (``--rounds``, ``--trip-rounds``, ``--chunk-rounds``, ...)
and the web forms, so that a number of rounds reads the same wherever it is typed.
"""
from __future__ import annotations

import math
from decimal import Decimal, InvalidOperation

__all__ = ["parse_rounds", "ROUNDS_FORMS"]

ROUNDS_FORMS = "such as 100000, 1e6, 2M, 1_000_000 or 1,000,000"

# a trailing word for thousands, millions, billions (case-insensitive: 2m, 2M)
_SUFFIXES = {"k": 10**3, "m": 10**6, "b": 10**9}


def parse_rounds(text: str, field: str = "rounds", maximum: int | None = None) -> int:
    """A whole number of rounds, 1..``maximum`` (None: no upper limit here; the caller's
    own limit applies), from text: digits with ``_`` or ``,`` between them, a power of
    ten ('1e6', '2.5e5'), or a K/M/B suffix ('250k', '2M', '1.5B').  Read in decimal, so
    '1.1M' is exactly 1,100,000.  ``ValueError`` names ``field``, the text and what is
    allowed."""
    if not isinstance(text, str):
        raise TypeError(f"{field} must be a string such as '1e6', got {type(text).__name__}")
    word = text.strip().replace("_", "").replace(",", "")
    scale = 1
    if word[-1:].lower() in _SUFFIXES:
        scale, word = _SUFFIXES[word[-1].lower()], word[:-1].rstrip()
    value = _decimal(word)
    if value is not None:
        value *= scale
    limit = f"1..{maximum:,}" if maximum is not None else ">= 1"
    if (value is None or not value.is_finite() or value != value.to_integral_value()
            or value < 1 or (maximum is not None and value > maximum)):
        raise ValueError(f"{field} must be a whole number {limit}, {ROUNDS_FORMS}; got "
                         f"{text.strip()[:40]!r}")
    return int(value)


def _decimal(word: str) -> Decimal | None:
    """The number ``word`` spells, or None; beyond a float's range (1e400) counts as not a
    number of rounds, as it did when rounds were read as floats."""
    try:
        value = Decimal(word)
    except InvalidOperation:
        return None
    if value.is_finite() and not math.isfinite(float(value)):
        return None
    return value
