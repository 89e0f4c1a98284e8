"""The games (docs/games.md) through ``bjsolve.solve`` (the compiled ``bjcore.GameEngine``)
against the exact pure-Python reference ``bjsolve._reference_games.GameReferenceSolver`` on
small shoes, to 1e-12: every rule of the games alone, and the rules of each preset the
solver computes.  What each case calls: ``solve(rules, shoe=Shoe(counts), split=...)`` then
``expected_value``, ``ev_by_upcard`` and ``hand_ev(cards, dealer)`` for every two-card hand
(unconditioned and, in the peek game, given no dealer blackjack), against ``round_ev``,
``ev_by_upcard``, ``hand_values_unconditioned`` and ``hand_values``.

Every case is compared under CDP, where each split hand's play is its own best in its
context in both, and under CDZ-, where both play a split hand by its own values as the
split hand it is, only its own cards gone (docs/games.md): its stand / hit / double /
surrender, its choice after a double and split aces' double (a play the brute force
replays: tests/test_cdz_split_play.py).

A sample runs by default; the rest is marked ``slow`` (a case takes 4-30 s of exact
fractions).
"""

import pytest

from bjsolve import Rules
from game_reference_checks import compare_with_reference as _compare


# small shoes (16-18 cards) with every rank, room for 6-7-8 and 7-7-7, and few tens
SHOE_A = (2, 1, 1, 2, 1, 2, 3, 2, 1, 3)
SHOE_B = (1, 2, 1, 1, 2, 2, 3, 2, 2, 2)

# one rule at a time (on a classic base), then combinations
ONE_RULE = {
    "dealer_22_push": dict(dealer_22="push"),
    "free_doubles": dict(free_doubles=(9, 10, 11)),
    "free_doubles_any_total": dict(free_doubles=tuple(range(4, 21))),
    "free_splits": dict(free_splits=tuple(range(1, 10)), max_split_hands=3),
    "free_splits_4_hands_rsa": dict(free_splits=(1, 2, 8), max_split_hands=4,
                                    resplit_aces=True),
    "player_21_wins": dict(player_21_wins=True),
    "natural_always_wins": dict(natural_always_wins=True),
    "bonus_21": dict(bonus_21=(1.5, 2.0, 3.0), double_any_cards=False),
    "bonus_678_777": dict(bonus_678=(1.5, 2.0, 3.0), bonus_777=(1.5, 2.0, 3.0)),
    "bonus_after_split": dict(bonus_21=(1.5, 2.0, 3.0), bonus_678=(1.5, 2.0, 3.0),
                              bonus_777=(2.0, 3.0, 5.0), bonus_after_split=True),
    "super_bonus": dict(bonus_777=(1.5, 2.0, 3.0), super_bonus=25.0),
    "redoubles": dict(redoubles=3, double_any_cards=True),
    "double_rescue": dict(double_rescue=True),
    "redoubles_and_rescue": dict(redoubles=2, double_rescue=True, surrender="late"),
    "double_split_aces": dict(double_split_aces=True, max_split_hands=2),
    "dealer_22_and_21_wins": dict(dealer_22="push", player_21_wins=True,
                                  dealer_wins_ties=False),
    "enhc_free_bet": dict(hole_card="enhc", dealer_22="push", free_doubles=(9, 10, 11),
                          free_splits=(1, 2, 3, 4, 5, 6, 7, 8, 9), max_split_hands=3),
    "enhc_rescue": dict(hole_card="enhc", double_rescue=True, redoubles=1),
}
SOLVABLE_PRESETS = ("free-bet", "spanish-21")


def _case(name):
    if name in ONE_RULE:
        return Rules(decks=1, **ONE_RULE[name]), SHOE_A
    return Rules.preset(name, decks=1), SHOE_B






DEFAULT_RUN = {("free-bet", "CDZ-"), ("bonus_21", "CDP"), ("double_rescue", "CDZ-"),
               ("enhc_free_bet", "CDZ-"), ("bonus_678_777", "CDZ-"),
               ("double_split_aces", "CDZ-")}


def _cases():
    for name in list(ONE_RULE) + list(SOLVABLE_PRESETS):
        for split in ("CDZ-", "CDP"):
            marks = () if (name, split) in DEFAULT_RUN else (pytest.mark.slow,)
            yield pytest.param(name, split, marks=marks, id=f"{name}-{split}")


@pytest.mark.parametrize("name, split", list(_cases()))
def test_game_engine_against_the_reference(name, split):
    rules, counts = _case(name)
    _compare(rules, counts, split)


@pytest.mark.slow
@pytest.mark.parametrize("split", ["CDP1", "CDP"])
def test_free_bet_post_split_classes(split):
    _compare(Rules.preset("free-bet", decks=1, max_split_hands=3), SHOE_A, split)


def test_classic_rules_through_the_game_engine_are_the_classic_values():
    """The contract: with no game key set, a game engine gives the classic values; the
    reference with no game rule is the classic reference (test_reference_games)."""
    _compare(Rules(decks=1, hit_soft_17=True, surrender="late", max_split_hands=3), SHOE_A)


def test_natural_always_wins_through_the_classic_engine():
    """A classic key (natural_tie_value = blackjack_payout): the classic engine computes
    it now, against the games' reference."""
    _compare(Rules(decks=1, natural_always_wins=True, max_split_hands=2), SHOE_A)


# A freak shoe where a split ten catching an ace should double its 21: the dealer's 6 busts
# or makes 22 so often that doubling a soft 21 beats standing on it.  In the games (here a
# dealer 22 pushes) a CDZ- split hand plays its own best as the split hand it is (an ordinary
# 21, docs/games.md), not the unsplit hand's values, where an ace-ten is a natural worth 3:2.
FREAK_SHOE = (6, 0, 0, 0, 0, 8, 0, 8, 0, 18)


def _split_tens_against_6(shoe, double_ace_ten):
    """Exact EV (Fractions) of splitting 10-10 against a 6 (two hands, no resplit), each
    hand drawn in turn from ``shoe`` (the pair and the 6 already out): T+A doubles or
    stands, T+6 and T+8 and T+T stand; then the dealer draws to 17 (stands on soft 17); a
    dealer 22 pushes the standing hands.  Written card by card, apart from the engine and
    the reference (the card-by-card draws of tests/test_cdp_split_play.py)."""
    from fractions import Fraction

    from test_cdp_split_play import _dealer as dealer
    from test_cdp_split_play import _draws as draws
    from test_cdp_split_play import _total as total

    def hand(s):       # (total, stake, probability, shoe left) of one split ten's play
        for card, p, rest in draws(s):
            if card == 1 and double_ace_ten:
                for third, q, rest2 in draws(rest):
                    yield total([10, 1, third]), 2, p * q, rest2
            else:
                yield total([10, card]), 1, p, rest

    def settle(player, dealer_total):
        if player > 21:
            return -1
        if dealer_total == 22:
            return 0
        if dealer_total > 21:
            return 1
        return (player > dealer_total) - (player < dealer_total)

    ev = Fraction(0)
    for t1, k1, p1, s1 in hand(shoe):
        for t2, k2, p2, s2 in hand(s1):
            for dt, pd in dealer(s2, [6]):
                ev += p1 * p2 * pd * (k1 * settle(t1, dt) + k2 * settle(t2, dt))
    return ev


def test_a_split_ace_ten_is_an_ordinary_21_in_the_games_cdz():
    rules = Rules(decks=1, max_split_hands=2, dealer_22="push")
    _compare(rules, FREAK_SHOE, min_hands=5)
    left = {1: 6, 6: 7, 8: 8, 10: 16}           # the shoe less the pair of tens and the 6
    doubles = _split_tens_against_6(left, double_ace_ten=True)
    stands = _split_tens_against_6(left, double_ace_ten=False)
    assert doubles > stands                     # so its own best doubles the 21
    from game_reference_checks import solve_small
    value = solve_small(rules, FREAK_SHOE).hand_ev((10, 10), 6, given_no_blackjack=False)
    assert value["split"] == pytest.approx(float(doubles), abs=1e-12)
