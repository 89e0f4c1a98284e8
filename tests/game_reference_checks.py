"""What the games' engine-versus-reference tests share: a solve on a small shoe, and the
comparison of its values with the pure-Python reference (``GameReferenceSolver``, written
independently of the kernels), to 1e-12."""
import warnings

import pytest

from bjsolve import Shoe, solve
from bjsolve._reference import two_card_deals
from bjsolve._reference_games import GameReferenceSolver, reference_kwargs

EXACT = 1e-12


def solve_small(rules, counts, split="CDZ-"):
    """``solve`` on the shoe of ``counts``, one thread, the warnings of a tiny shoe (that
    may run out of cards) silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return solve(rules, shoe=Shoe(counts), split=split, threads=1)


def compare_with_reference(rules, counts, split="CDZ-", upcards=None, min_hands=50):
    """The engine against the reference on the shoe ``counts``: the round's EV and each
    upcard's (only ``upcards``' when given, and then not the round's), and every two-card
    hand's action values, unconditioned and, where the dealer peeks, given no dealer
    blackjack.  At least ``min_hands`` deals are compared (a test that compares nothing
    cannot fail)."""
    ref = GameReferenceSolver(counts, split=split, **reference_kwargs(rules))
    sol = solve_small(rules, counts, split)
    if upcards is None:
        assert sol.expected_value == pytest.approx(float(ref.round_ev()), abs=EXACT)
        for u, v in ref.ev_by_upcard().items():
            assert sol.ev_by_upcard[u] == pytest.approx(float(v), abs=EXACT), u
    else:
        for u in upcards:
            assert sol.ev_by_upcard[u] == pytest.approx(float(ref.ev_given_dealer(u)),
                                                        abs=EXACT), u
    checked = 0
    for u, c1, c2 in two_card_deals(counts):
        if upcards is not None and u not in upcards:
            continue
        want = ref.hand_values_unconditioned((c1, c2), u)
        for action, value in sol.hand_ev((c1, c2), u, given_no_blackjack=False).items():
            assert value == pytest.approx(float(want[action]), abs=EXACT), (c1, c2, u, action)
        if rules.hole_card == "peek":
            want = ref.hand_values((c1, c2), u)
            for action, value in sol.hand_ev((c1, c2), u).items():
                assert value == pytest.approx(float(want[action]), abs=EXACT), \
                    (c1, c2, u, action, "given no blackjack")
        checked += 1
    assert checked > min_hands
