"""The deal: which dealer cards the player sees, and how likely each starting hand is.

A *dealer key* is what the player's decisions are keyed by: the upcard (an int) in the
usual game, or the sorted tuple of both dealer cards when they are dealt face up
(``hole_card="exposed"``).
"""
from __future__ import annotations

import math
from collections.abc import Mapping

from .hands import two_card_hands
from .ranks import UPCARD_ORDER, counts_of, hand_total, label
from .rules import Rules
from .shoe import Shoe


def exposed(rules: Rules) -> bool:
    return rules.hole_card == "exposed"


def is_natural(cards) -> bool:
    return len(cards) == 2 and sorted(cards) == [1, 10]


def _dealable(counts, cards, infinite) -> bool:
    """Whether the shoe holds ``cards`` (ranks): every rank needed k times has count >= k
    (the compiled engines' rule, also for the non-integer counts of a fractional shoe),
    or a positive proportion in an infinite shoe."""
    if len(cards) == 1:   # (the common case: an upcard)
        return counts[cards[0] - 1] > 0 if infinite else counts[cards[0] - 1] >= 1
    need = counts_of(cards)
    if infinite:
        return all(counts[r] > 0 for r in range(10) if need[r])
    return all(counts[r] >= k for r, k in enumerate(need) if k)


def _polynomial_pair_weight(counts, a, b, infinite) -> float:
    """The falling-factorial chance that two cards dealt from ``counts`` are {a, b} (in
    either order), whether or not the shoe holds them (it can be negative for the
    non-integer counts of a fractional shoe)."""
    n = sum(counts)
    if infinite:
        w = counts[a - 1] * counts[b - 1] / (n * n)
    else:
        if n <= 1:
            return 0.0
        w = counts[a - 1] * (counts[b - 1] - (a == b)) / (n * (n - 1))
    return 2 * w if a != b else w


def _pair_weight(counts, a, b, infinite) -> float:
    """Chance that two cards dealt from ``counts`` are {a, b}; 0 when the shoe does not
    hold them."""
    return _polynomial_pair_weight(counts, a, b, infinite) if _dealable(counts, (a, b), infinite) else 0.0


def _normalised(weights: dict, complete: bool) -> dict:
    """``weights`` as they are when nothing was left out (they sum to 1 up to rounding);
    rescaled to sum to 1 when some deal had to be left out: a fractional shoe holding less
    than one card of a rank (less than two for a pair) cannot deal it, and the
    polynomial weight it would carry is spread over the deals it can make."""
    if complete:
        return weights
    total = sum(weights.values())
    return {k: w / total for k, w in weights.items()}


def _key_weights(rules: Rules, shoe: Shoe) -> dict:
    """{dealer key: chance} for every key the shoe can deal, in print order."""
    counts, infinite = shoe.counts, shoe.is_infinite
    if not exposed(rules):
        n = sum(counts)
        wanted = {u: counts[u - 1] / n for u in UPCARD_ORDER if counts[u - 1] > 0}
    else:
        wanted = {h: _polynomial_pair_weight(counts, h[0], h[1], infinite)
                  for h in two_card_hands()}
        wanted = {h: w for h, w in wanted.items() if w > 0}
    out = {k: w for k, w in wanted.items()
           if _dealable(counts, (k,) if isinstance(k, int) else k, infinite)}
    return _normalised(out, complete=len(out) == len(wanted))


def dealer_keys(rules: Rules, shoe: Shoe) -> list:
    """Every dealer key the shoe can produce, in print order (naturals included)."""
    return list(_key_weights(rules, shoe))


def dealer_key_weight(shoe: Shoe, key, rules: Rules | None = None) -> float:
    """Chance of the dealer key (0 if the shoe cannot deal it).  Give ``rules`` for a
    fractional shoe short of some rank, whose weights are rescaled (see ``Deal``)."""
    if rules is not None:
        return _key_weights(rules, shoe).get(key, 0.0)
    if isinstance(key, int):
        return shoe.probabilities()[key - 1] if _dealable(shoe.counts, (key,), shoe.is_infinite) else 0.0
    return _pair_weight(shoe.counts, key[0], key[1], shoe.is_infinite)


def remaining_after(shoe: Shoe, cards) -> list:
    """Counts (or proportions, infinite) left once ``cards`` are out."""
    left = list(shoe.counts)
    if not shoe.is_infinite:
        for c in cards:
            left[c - 1] -= 1
    return left


def hand_limit(shoe: Shoe, key):
    """How many cards of each rank a player hand may hold against the dealer key: the
    counts left (None: unlimited in an infinite shoe, except ranks it never deals)."""
    if shoe.is_infinite:
        return None if all(c > 0 for c in shoe.counts) else [
            21 if c > 0 else 0 for c in shoe.counts]
    left = remaining_after(shoe, (key,) if isinstance(key, int) else key)
    if shoe.is_fractional:
        # a rank is dealt while its count left is positive: 2.7 left deals a third card
        return [max(0, math.ceil(c)) for c in left]
    return left


def player_hand_weights(shoe: Shoe, key) -> dict:
    """{two-card hand: chance of being dealt it} given the dealer key.

    A fractional shoe deals as the engines do: a rank is drawn in proportion to its count
    left while that is positive (a count that falls below zero counts as zero)."""
    left = remaining_after(shoe, (key,) if isinstance(key, int) else key)
    if not shoe.is_fractional:
        out = {}
        for a, b in two_card_hands():
            w = _pair_weight(left, a, b, shoe.is_infinite)
            if w > 0:
                out[(a, b)] = w
        return out
    first = [max(c, 0.0) for c in left]
    n1 = sum(first)
    out = {}
    for a in range(1, 11):
        if first[a - 1] <= 0:
            continue
        second = list(first)
        second[a - 1] = max(left[a - 1] - 1, 0.0)
        n2 = sum(second)
        for b in range(1, 11):
            if second[b - 1] > 0:
                hand = (min(a, b), max(a, b))
                out[hand] = out.get(hand, 0.0) + first[a - 1] / n1 * second[b - 1] / n2
    return {h: out[h] for h in two_card_hands() if h in out}


class Deal:
    """One round's deal for a rule set and shoe, worked out once per solve and handed down.

    keys: every dealer key the shoe can deal, in print order (exposed naturals included);
    weights: {key: chance}; playable_keys: the keys the player decides against (all but an
    exposed dealer natural, which ends the round); may_run_out: whether a round could need a
    card from an empty shoe (``round_may_run_out``).
    """

    __slots__ = ("rules", "shoe", "weights", "keys", "playable_keys", "may_run_out",
                 "_hands")

    def __init__(self, rules: Rules, shoe: Shoe):
        self.rules = rules
        self.shoe = shoe
        self.weights = _key_weights(rules, shoe)
        self.keys = tuple(self.weights)
        self.playable_keys = tuple(k for k in self.keys
                                   if not (isinstance(k, tuple) and is_natural(k)))
        self.may_run_out = round_may_run_out(rules, shoe)
        self._hands: dict = {}    # dealer key -> player_hand_weights(shoe, key)

    def hand_weights(self, key) -> dict:
        """{two-card hand: chance} given the dealer key (cached)."""
        got = self._hands.get(key)
        if got is None:
            got = self._hands[key] = player_hand_weights(self.shoe, key)
        return got

    def hand_limit(self, key):
        return hand_limit(self.shoe, key)

    def composition_weight(self, key, cards) -> float:
        """Chance that the player's first ``len(cards)`` cards are ``cards`` (in any
        order) given the dealer key."""
        left = remaining_after(self.shoe, (key,) if isinstance(key, int) else key)
        need = counts_of(cards)
        n = sum(left)
        w = float(math.factorial(len(cards)))
        for r, k in enumerate(need):
            w /= math.factorial(k)
            for j in range(k):
                w *= left[r] / n if self.shoe.is_infinite else (left[r] - j)
        if not self.shoe.is_infinite:
            for j in range(len(cards)):
                w /= n - j
        return w

    def combine(self, values: Mapping) -> float:
        """The round's EV from {key: E[round | key]}."""
        return sum(self.weights[k] * values[k] for k in self.keys)


def dealer_code(cards) -> str:
    """The dealer code of the exposed game's charts: hard totals, "A2".."A6" soft 13..17, soft 18+ as hard
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
