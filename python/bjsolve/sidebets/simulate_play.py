"""The simulator's player: play every spot's hands out by a chart, many rounds at once.

Each round (a row) reads its cards from the shuffled shoe through a cursor of its own: a
hand that hits takes the card at the cursor and moves it on.  Spot after spot, hand after
hand (a split's second hand gets its second card when its turn comes, as dealt), each
hand asks the strategy for its action by its state: total, soft, two cards or more, a
pair's value, whether it is a split hand and may split again, the up card.  The strategy
is asked once per state with cards that make that state (``_cards_for``), so it must be a
total-dependent chart (a ``StrategyChart``'s rows, or a callable f(cards, dealer, allowed)
that reads only the total, softness, pair and number of cards).

Rules followed: a natural takes no card; with a hole card and the peek (``hole_card``
"peek") a dealer natural ends the round before any play; double one card (two cards only
unless ``double_any_cards``; after a split only with ``double_after_split``; the totals
``double`` allows; soft hands only with ``double_soft``); split up to
``max_split_hands`` hands, split aces one card each unless ``hit_split_aces`` (aces are not
resplit here, whatever ``resplit_aces`` says); surrender of the first two cards (not after a split) where
``surrender`` is allowed.
"""
from __future__ import annotations

import numpy as np

ACTIONS = ("stand", "hit", "double", "split", "surrender")
STAND, HIT, DOUBLE, SPLIT, SURRENDER = range(5)


def _value(kind):
    return np.minimum(kind // 4 + 1, 10)


def _cards_for(total: int, soft: bool, two: bool, pair: int) -> tuple:
    """Cards (values 1..10) making the state: a pair, two cards, or three."""
    if pair:
        return (pair, pair)
    if soft:
        return (1, total - 11) if two else (1, 1, total - 12)
    if two:
        low = max(2, total - 10)
        if low == total - low and low + 1 <= 10 and total - low - 1 >= 2:
            low += 1                      # not a pair: 6 is 2, 4 rather than 3, 3
        return (low, total - low)
    return (2, 2, total - 4) if total <= 13 else (10, 2, total - 12)


class ChartPlayer:
    """The decisions of ``strategy`` (f(cards, dealer, allowed) -> action) under ``rules``,
    looked up per state (asked once each)."""

    def __init__(self, strategy, rules):
        self.strategy, self.rules = strategy, rules
        self.cache: dict = {}

    def allowed(self, total, soft, two, pair, split_hand, can_split):
        r = self.rules
        out = ["stand", "hit"]
        totals = {"any": True, "9-11": 9 <= total <= 11, "10-11": 10 <= total <= 11}
        if ((two or r.double_any_cards) and (not split_hand or r.double_after_split)
                and totals[r.double] and (not soft or r.double_soft)):
            out.append("double")
        if pair and can_split:
            out.append("split")
        if two and not split_hand and r.surrender != "none":
            out.append("surrender")
        return tuple(out)

    def decide(self, key) -> int:
        act = self.cache.get(key)
        if act is None:
            total, soft, two, pair, split_hand, can_split, up = key
            allowed = self.allowed(total, soft, two, pair, split_hand, can_split)
            choice = self.strategy(_cards_for(total, soft, two, pair), up, allowed)
            if choice not in allowed:
                raise ValueError(f"strategy: {choice!r} for {_cards_for(total, soft, two, pair)}"
                                 f" v {up} is not allowed here ({', '.join(allowed)})")
            act = self.cache[key] = ACTIONS.index(choice)
        return act

    # a state as one whole number: total 0..31, soft, two, pair 0..10, split hand, can
    # split, up 0..10 (mixed radix), so that a table indexed by it holds the decisions
    RADIX = (32, 2, 2, 11, 2, 2, 11)

    def actions(self, columns) -> np.ndarray:
        """The action of each row's state (columns: total, soft, two, pair, split hand,
        can split, up card, each an array over the rows)."""
        code = np.zeros(len(columns[0]), dtype=np.int64)
        for column, radix in zip(columns, self.RADIX):
            code = code * radix + np.asarray(column, dtype=np.int64)
        table = self.__dict__.setdefault("_table", np.full(int(np.prod(self.RADIX)), -1))
        for c in np.unique(code[table[code] < 0]):
            key, rest = [], int(c)
            for radix in reversed(self.RADIX):
                key.append(rest % radix)
                rest //= radix
            table[c] = self.decide(tuple(reversed(key)))
        return table[code]


def play_out(player: ChartPlayer, first, spots: int, card_at, cursor: np.ndarray
             ) -> np.ndarray:
    """Play every spot's hands; ``first``: the round's first 2 * spots + 2 cards in
    dealing order (spot 1..k, the up card, spot 1..k, the hole card); ``card_at(offsets)``
    the round's card at each offset (-1: past the shoe); returns the cursor after the
    player's last card."""
    rules = player.rules
    most = rules.max_split_hands
    up, hole = first[spots], first[2 * spots + 1]
    up_value = _value(up)
    dealer_natural = (((up_value == 1) & (_value(hole) == 10))
                      | ((up_value == 10) & (_value(hole) == 1)))
    plays = np.ones(len(cursor), dtype=bool)
    if rules.hole_card == "peek":
        plays = ~dealer_natural
    cursor = cursor.copy()

    def draw(mask):
        card = card_at(np.where(mask, cursor, 0))
        if (card[mask] < 0).any():
            raise ValueError("shoe too small: a player's hand ran out of cards")
        cursor[mask] += 1
        return np.where(mask, card, -1)

    for s in range(spots):
        a, b = first[s], first[spots + 1 + s]
        va, vb = _value(a), _value(b)
        natural = ((va == 1) & (vb == 10)) | ((va == 10) & (vb == 1))
        hands = np.ones(len(cursor), dtype=int)              # hands this spot has
        waiting = np.full((most, len(cursor)), 0)            # first card's value per hand
        waiting[0] = va
        for h in range(most):
            active = plays & ~natural & (hands > h)
            if not active.any():
                break
            split_hand = hands > 1 if h == 0 else np.ones(len(cursor), dtype=bool)
            v1 = waiting[h]
            v2 = vb if h == 0 else _value(draw(active))
            hard = v1 + v2
            ace = (v1 == 1) | (v2 == 1)
            n = np.full(len(cursor), 2)
            pair_aces_done = np.zeros(len(cursor), dtype=bool)
            if h > 0:   # a split hand of aces takes its one card (unless hitting allowed)
                pair_aces_done = (v1 == 1) & ~np.asarray(rules.hit_split_aces)
            active = active & ~pair_aces_done
            while active.any():
                soft = ace & (hard <= 11)
                total = np.where(soft, hard + 10, hard)
                active &= total < 21
                if not active.any():
                    break
                two = n == 2
                pair = np.where(two & (v1 == v2) & (hard == 2 * v1), v1, 0)
                can_split = (hands < most) & ((v1 != 1) | ~split_hand)
                act = np.full(len(cursor), STAND)
                act[active] = player.actions([c[active] for c in (
                    total, soft, two, pair, split_hand, can_split, up_value)])
                splits = active & (act == SPLIT)
                if splits.any():
                    # the second card waits as a new hand; this hand takes a new card
                    rows = np.nonzero(splits)[0]
                    waiting[hands[rows], rows] = v1[rows]
                    hands = hands + splits
                    split_hand = split_hand | splits
                    card = draw(splits)
                    v2 = np.where(splits, _value(card), v2)
                    hard = np.where(splits, v1 + v2, hard)
                    ace = np.where(splits, (v1 == 1) | (v2 == 1), ace)
                    aces_done = splits & (v1 == 1) & ~np.asarray(rules.hit_split_aces)
                    active = active & ~aces_done
                    continue
                takes = active & ((act == HIT) | (act == DOUBLE))
                card = draw(takes)
                hard = hard + np.where(takes, _value(card), 0)
                ace = ace | (takes & (_value(card) == 1))
                n = n + takes
                active = active & (act == HIT)
    return cursor
