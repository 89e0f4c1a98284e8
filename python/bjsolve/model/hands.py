"""Player hand compositions and the chart's hand codes."""
from __future__ import annotations

from .ranks import hand_total, label

HARD_CODES = tuple(str(t) for t in range(4, 21))           # "4".."20"
SOFT_CODES = tuple(f"A{k}" for k in range(2, 10))          # soft 13..20
PAIR_CODES = tuple(label(r) * 2 for r in (2, 3, 4, 5, 6, 7, 8, 9, 10, 1))  # "22".."TT", "AA"


def two_card_hands():
    """Every two-card composition (c1 <= c2) as a sorted tuple of ranks."""
    return [(a, b) for a in range(1, 11) for b in range(a, 11)]


def total_code(cards) -> str:
    """Hard/soft code of a hand ignoring pairs: "15", "A7" (soft 18), "21", "BJ"."""
    total, soft = hand_total(cards)
    if total == 21:
        return "BJ" if len(cards) == 2 and soft else "21"
    if soft:
        return "AA" if total == 12 else f"A{total - 11}"
    return str(total)


def hand_code(cards, *, can_split: bool = True) -> str:
    """The chart code: pairs "22".."TT","AA" when splittable, else the total code."""
    if can_split and len(cards) == 2 and cards[0] == cards[1]:
        return label(cards[0]) * 2
    return total_code(cards)


def compositions(limit_counts, *, max_hard: int = 21, min_cards: int = 1):
    """All multisets of ranks (sorted tuples) with hard sum <= max_hard and counts within
    ``limit_counts`` (None: unlimited), with at least ``min_cards`` cards."""
    out = []

    def walk(prefix, lowest, hard):
        if len(prefix) >= min_cards:
            out.append(prefix)
        for r in range(lowest, 11):
            if hard + r > max_hard:
                break
            if limit_counts is not None and prefix.count(r) + 1 > limit_counts[r - 1]:
                continue
            walk(prefix + (r,), r, hard + r)

    walk((), 1, 0)
    return out
