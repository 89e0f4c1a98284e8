"""The deal: which dealer cards the player sees, and how likely each starting hand is.

A *dealer key* is what the player's decisions are keyed by: the upcard (an int) in the
usual game, or the sorted tuple of both dealer cards when they are dealt face up
(``hole_card="exposed"``).
"""
from __future__ import annotations

from .hands import two_card_hands
from .ranks import UPCARD_ORDER, hand_total, label
from .rules import Rules
from .shoe import Shoe


def exposed(rules: Rules) -> bool:
    return rules.hole_card == "exposed"


def is_natural(cards) -> bool:
    return len(cards) == 2 and sorted(cards) == [1, 10]


def _pair_weight(counts, a, b, infinite) -> float:
    """Chance that two cards dealt from ``counts`` are {a, b} (in either order)."""
    n = sum(counts)
    if infinite:
        w = counts[a - 1] * counts[b - 1] / (n * n)
    else:
        if n < 2:
            return 0.0
        w = counts[a - 1] * (counts[b - 1] - (a == b)) / (n * (n - 1))
    return 2 * w if a != b else w


def dealer_keys(rules: Rules, shoe: Shoe) -> list:
    """Every dealer key the shoe can produce, in print order (naturals included)."""
    if not exposed(rules):
        return [u for u in UPCARD_ORDER if shoe.is_infinite or shoe.counts[u - 1] > 0]
    return [h for h in two_card_hands()
            if _pair_weight(shoe.counts, h[0], h[1], shoe.is_infinite) > 0]


def dealer_key_weight(shoe: Shoe, key) -> float:
    if isinstance(key, int):
        return shoe.probabilities()[key - 1]
    return _pair_weight(shoe.counts, key[0], key[1], shoe.is_infinite)


def remaining_after(shoe: Shoe, cards) -> list:
    """Counts (or proportions, infinite) left once ``cards`` are out."""
    left = list(shoe.counts)
    if not shoe.is_infinite:
        for c in cards:
            left[c - 1] -= 1
    return left


def player_hand_weights(shoe: Shoe, key) -> dict:
    """{two-card hand: chance of being dealt it} given the dealer key."""
    left = remaining_after(shoe, (key,) if isinstance(key, int) else key)
    out = {}
    for a, b in two_card_hands():
        w = _pair_weight(left, a, b, shoe.is_infinite)
        if w > 0:
            out[(a, b)] = w
    return out


def dealer_code(cards) -> str:
    """The seed's dealer code: hard totals, "A2".."A6" soft 13..17, soft 18+ as hard
    totals, "AA" (soft 12), "BJ"."""
    if is_natural(cards):
        return "BJ"
    total, soft = hand_total(cards)
    if soft and total == 12:
        return "AA"
    if soft and total <= 17:
        return f"A{total - 11}"
    return str(total)


DEALER_CODES = tuple(str(t) for t in range(4, 21)) + ("AA",) + tuple(f"A{k}" for k in range(2, 7)) + ("BJ",)


def dealer_label(key) -> str:
    return label(key) if isinstance(key, int) else dealer_code(key)


def dealer_columns(keys) -> list:
    """[(column label, [keys])] in print order: upcards, or dealer codes."""
    groups: dict = {}
    for k in keys:
        groups.setdefault(dealer_label(k), []).append(k)
    if keys and isinstance(keys[0], int):
        return list(groups.items())
    return [(c, groups[c]) for c in DEALER_CODES if c in groups]


def round_may_run_out(rules: Rules, shoe: Shoe) -> bool:
    """Whether some deal and play of one round could need a card from an empty shoe.

    Conservative (it may say True for a shoe that would in fact suffice): while a card is
    still wanted, every finished player hand holds at most 31 in hard points (21 and the
    card that busted it), the hand being played at most 20, and the dealer at most 26, so a
    round that wants a card has used at most ``31 * max_split_hands + 26`` points.  A shoe
    holding more points than that can never run dry.  In a shoe that can, the exact values
    follow degenerate conventions (a dealer who must draw from an empty shoe busts) that
    describe no real game.
    """
    if shoe.is_infinite:
        return False
    points = sum(r * c for r, c in enumerate(shoe.counts, 1))
    return points <= 31 * rules.max_split_hands + 26
