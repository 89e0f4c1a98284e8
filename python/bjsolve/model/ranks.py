"""Card ranks: one place that turns what users type into ranks 1..10.

Ranks are ints 1..10 (1 = ace, 10 = any ten-valued card).  Accepted spellings:
``1..10``, ``"A"``, ``"2"``..``"9"``, ``"T"``, ``"10"``, ``"J"``, ``"Q"``, ``"K"``
(case-insensitive).
"""
from __future__ import annotations

import numbers

RANKS = tuple(range(1, 11))
RANK_LABELS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
UPCARD_ORDER = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)  # how dealer columns are printed

def show(value, limit: int = 40) -> str:
    """repr of a bad value for an error message, cut short so that a message never echoes
    kilobytes of input (a 400-digit int or a long string stays readable)."""
    try:
        text = repr(value)
    except Exception:  # a hostile __repr__ must not hide the real error
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[:limit - 3] + "..."


_NAMES = {"A": 1, "ACE": 1, "T": 10, "10": 10, "J": 10, "Q": 10, "K": 10}
_NAMES.update({str(r): r for r in range(1, 10)})


def rank(card, *, field: str = "card") -> int:
    """Normalise one card to a rank 1..10, or raise ValueError/TypeError naming ``field``."""
    if isinstance(card, bool):
        raise TypeError(f"{field}: {show(card)} is not a card (use 1..10 or A, 2..9, T, J, Q, K)")
    if isinstance(card, numbers.Integral):
        if 1 <= int(card) <= 10:
            return int(card)
        raise ValueError(f"{field}: {show(card)} is not a rank; allowed 1..10 (1 = ace, 10 = ten)")
    if isinstance(card, str):
        key = card.strip().upper()
        if key in _NAMES:
            return _NAMES[key]
        raise ValueError(f"{field}: {show(card)} is not a card; allowed A, 2..9, T, 10, J, Q, K")
    raise TypeError(f"{field}: {show(card)} ({type(card).__name__}) is not a card; "
                    "use 1..10 or A, 2..9, T, J, Q, K")


# characters that may be run together in a string of cards such as "A7" or "TT"; "1" is
# left out so that "11" is an error rather than two aces, and "10" inside a run is refused
_RUN_CHARS = frozenset("A23456789TJQK")


def ranks(cards, *, field: str = "cards") -> tuple[int, ...]:
    """Normalise a card or an iterable of cards to a tuple of ranks.

    A string is one card ("A", "10", "ace") or a run of one-character cards ("A7", "TT").
    """
    if isinstance(cards, str):
        key = cards.strip().upper()
        if key in _NAMES:
            return (_NAMES[key],)
        if len(key) > 1 and all(c in _RUN_CHARS for c in key):
            return tuple(_NAMES[c] for c in key)
        raise ValueError(f"{field}: {show(cards)} is not a card or a run of cards such as 'A7' or "
                         "'TT'; cards are A, 2..9, T, 10, J, Q, K")
    if isinstance(cards, numbers.Integral) and not isinstance(cards, bool):
        return (rank(cards, field=field),)
    if isinstance(cards, (bytes, bytearray, dict, set, frozenset)):
        raise TypeError(f"{field}: {show(cards)} is not a card or a sequence of cards")
    try:
        items = list(cards)
    except TypeError:
        raise TypeError(f"{field}: {show(cards)} ({type(cards).__name__}) is not a card or a "
                        "sequence of cards; use 1..10 or A, 2..9, T, J, Q, K") from None
    return tuple(rank(c, field=field) for c in items)


def label(r: int) -> str:
    """Printable label of a rank: A, 2..9, T."""
    return RANK_LABELS[r - 1]


def counts_of(cards) -> list[int]:
    """Count vector (index 0 = aces .. 9 = tens) of a tuple of ranks."""
    out = [0] * 10
    for c in cards:
        out[c - 1] += 1
    return out


def hand_total(cards) -> tuple[int, bool]:
    """(best total, soft?) of ranks; an ace counts 11 when that does not bust."""
    hard = sum(cards)
    if 1 in cards and hard + 10 <= 21:
        return hard + 10, True
    return hard, False
