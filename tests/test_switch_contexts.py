"""The game engine's Blackjack Switch entry points (``GameEngine.set_other``,
``GameEngine.opening_values``), each against the engine's plain calls on their own:

- an engine with another hand's cards set out (``set_other``) values every hand and split
  exactly as a fresh engine built on the shoe without those cards (the dealer laws it
  keeps from earlier contexts are keyed by every card out, so they are the same laws);
- ``opening_values`` gives what ``hand_values``, ``may_double_hand`` and ``split_ev``
  give one by one.

The analysis built on them is checked against an independent brute force in
tests/test_switch.py.
"""
from __future__ import annotations

import pytest

from bjsolve import Rules, Shoe
from bjsolve.exact.engines import make_engine
from bjsolve.exact.kernel_rules import SPLIT_CLASSES, kernel_rules
from bjsolve.exact.switch import PAIR_LISTS, PAIRS, game_rules

RULES = game_rules(Rules.preset("blackjack-switch", decks=1))
PARAMS = kernel_rules(RULES, SPLIT_CLASSES["CDZ-"])
ONE_DECK = Shoe.decks(1)


def _counts(*cards):
    out = [0] * 10
    for c in cards:
        out[c - 1] += 1
    return out


def _values(engine, shoe_left):
    """Every dealable hand's (stand, hit, double, natural chance) and every pair's split."""
    out = {}
    for hand, counts in zip(PAIRS, PAIR_LISTS):
        if all(counts[r] <= shoe_left[r] for r in range(10)):
            out[hand] = engine.hand_values(counts)
    for p in range(1, 11):
        if shoe_left[p - 1] >= 2 and engine.split_limit(p) >= 2:
            out[p] = engine.split_ev(p)
    return out


@pytest.mark.parametrize("up", [1, 6, 10])
def test_other_hand_out_equals_an_engine_without_its_cards(up):
    shared = make_engine(PARAMS, ONE_DECK, up)
    # several contexts in turn on one engine: the later ones reuse the earlier laws
    for other in [(10, 10), (2, 3), (up, 10), (5, 5)]:
        shared.set_other(_counts(*other))
        alone = make_engine(PARAMS, ONE_DECK.remove(*other), up)
        left = [c - o - (r + 1 == up) for r, (c, o) in
                enumerate(zip(ONE_DECK.counts, _counts(*other)))]
        assert _values(shared, left) == _values(alone, left)
    shared.set_other([0] * 10)   # the cards back: the engine's own shoe again
    full = make_engine(PARAMS, ONE_DECK, up)
    left = [c - (r + 1 == up) for r, c in enumerate(ONE_DECK.counts)]
    assert _values(shared, left) == _values(full, left)


def test_opening_values_equal_the_single_calls():
    shoe = ONE_DECK.remove(9, 8)   # upcard 9: two nines left, so 99 deals and splits
    engine = make_engine(PARAMS, shoe, 9)
    batch = engine.opening_values(list(PAIR_LISTS))
    single = make_engine(PARAMS, shoe, 9)
    for (a, b), counts, got in zip(PAIRS, PAIR_LISTS, batch):
        split = (single.split_ev(a) if a == b and single.split_limit(a) >= 2
                 else (float("nan"),) * 2)
        want = (*single.hand_values(counts), float(single.may_double_hand(counts)), *split)
        assert got[:5] == want[:5]
        assert got[5:] == want[5:] or (got[5] != got[5] and want[5] != want[5])


def test_set_other_refuses_what_it_does_not_compute():
    infinite = make_engine(PARAMS, Shoe.infinite(), 6)
    with pytest.raises(ValueError, match="whole shoe"):
        infinite.set_other(_counts(2, 3))
    engine = make_engine(PARAMS, ONE_DECK, 6)
    with pytest.raises(ValueError, match=r"counts\[0\]"):
        engine.set_other([5] + [0] * 9)
    with pytest.raises(ValueError, match="10 entries"):
        engine.set_other([0] * 9)
    with pytest.raises(ValueError, match="must be two cards"):
        engine.opening_values([_counts(2, 3, 4)])
