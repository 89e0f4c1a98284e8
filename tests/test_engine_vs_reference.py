"""The compiled engine against the slow exact reference solver (``bjsolve._reference``) on
random small shoes: whole-round and per-upcard EVs, and every action's value for every
two-card hand against every upcard, under random rule combinations and all three post-split
classes.

The reference follows the documented conventions (docs/conventions.md) literally with exact ``Fraction``s and shares no code
with the kernels, so agreement to 1e-12 over these cases is an independent check of the
kernel's recursions, batching and memoisation.  Small shoes (14-22 cards) keep the exact
reference fast; some of them could run out of cards in a round, where both sides follow the
same documented conventions.
"""

import random
import warnings

import pytest

from bjsolve import Rules, Shoe, solve
from bjsolve._reference import ReferenceSolver, two_card_deals

EXACT = 1e-12


def random_case(seed):
    rng = random.Random(seed)
    size = rng.randrange(14, 23)
    counts = [1] * 10
    for _ in range(size - 10):
        counts[rng.randrange(10)] += 1
    rules = dict(hit_soft_17=rng.random() < 0.5, double=rng.choice(("any", "9-11", "10-11")),
                 double_soft=rng.random() < 0.7, double_any_cards=rng.random() < 0.3,
                 double_after_split=rng.random() < 0.6, max_split_hands=rng.choice((1, 2, 3, 4)),
                 resplit_aces=rng.random() < 0.4,
                 blackjack_payout=rng.choice((1.5, 1.2, 1.0)))
    surrender = rng.random() < 0.4
    split = rng.choice(("CDZ-", "CDP1", "CDP"))
    return counts, rules, surrender, split


CASES = [random_case(seed) for seed in range(8)]
# The default run keeps five cases that cover the three post-split classes, H17 and S17,
# surrender, 3:2 and 6:5, resplit aces and limits of 1, 2 and 4 hands; the three costliest
# (18-20 cards: cases 0, 5 and 7, with the 1:1 payout and the 3-hand limit) run with --run-slow.
SLOW_CASES = {0, 5, 7}


@pytest.fixture(scope="module", ids=lambda i: f"case{i}",
                params=[pytest.param(i, marks=pytest.mark.slow if i in SLOW_CASES else ())
                        for i in range(len(CASES))])
def pair(request):
    counts, rules, surrender, split = CASES[request.param]
    from fractions import Fraction
    ref = ReferenceSolver(counts, late_surrender=surrender, split=split,
                          **{**rules, "blackjack_payout": Fraction(rules["blackjack_payout"])})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)   # tiny shoes may run out
        sol = solve(Rules(decks=1, surrender="late" if surrender else "none", **rules),
                    shoe=Shoe(counts), split=split)
    return ref, sol, counts


def test_round_and_upcard_evs(pair):
    ref, sol, _ = pair
    assert float(ref.round_ev()) == pytest.approx(sol.expected_value, abs=EXACT)
    expected = {u: float(v) for u, v in ref.ev_by_upcard().items()}
    assert set(expected) == set(sol.ev_by_upcard)
    for u, v in expected.items():
        assert sol.ev_by_upcard[u] == pytest.approx(v, abs=EXACT), u


def test_every_two_card_hand(pair):
    ref, sol, counts = pair
    checked = 0
    for u, c1, c2 in two_card_deals(counts):
        want = {a: float(v) for a, v in ref.hand_values_unconditioned((c1, c2), u).items()}
        got = sol.hand_ev((c1, c2), u, given_no_blackjack=False)
        # the reference values doubling on every two-card hand (DESIGN section 3);
        # the engine lists only the actions the rules allow
        assert set(got) <= set(want) and set(want) - set(got) <= {"double"}, (c1, c2, u)
        for action, v in got.items():
            assert v == pytest.approx(want[action], abs=EXACT), (c1, c2, u, action)
        # and given no dealer blackjack, as a player sees them after the peek
        want = ref.hand_values((c1, c2), u)
        got = sol.hand_ev((c1, c2), u)
        assert got.given_no_blackjack
        for action, v in got.items():
            assert v == pytest.approx(float(want[action]), abs=EXACT), (c1, c2, u, action)
        checked += 1
    assert checked > 100


def test_random_later_decisions(pair):
    """Hands of three and four cards: stand, hit and (where allowed) double."""
    ref, sol, counts = pair
    rng = random.Random(sum(counts))
    checked = 0
    while checked < 30:
        u = rng.randrange(1, 11)
        cards = tuple(rng.randrange(1, 11) for _ in range(rng.choice((3, 4))))
        need = [0] * 10
        for c in (u,) + cards:
            need[c - 1] += 1
        if sum(cards) > 21 or any(k > n for k, n in zip(need, counts)):
            continue
        want = ref.hand_values_unconditioned(cards, u)
        got = sol.hand_ev(cards, u, given_no_blackjack=False)
        assert set(got) <= {"stand", "hit", "double"}
        for action, v in got.items():
            assert v == pytest.approx(float(want[action]), abs=EXACT), (cards, u, action)
        checked += 1
