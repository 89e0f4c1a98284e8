"""The games' pure-Python reference (``bjsolve._reference_games``) on its own: identities
that tie each rule to the classic game or to a formula, and the card-by-card brute force of
one real round, all in exact Fractions on small shoes (and the infinite shoe)."""
from fractions import Fraction as F

import pytest

from bjsolve._reference import ReferenceSolver
from bjsolve._reference_games import (
    GameReferenceSolver,
    ShoeExhausted,
    brute_force_game_round,
    game_dealer_probabilities,
    game_policy,
)

SMALL = (2, 1, 1, 2, 1, 2, 2, 2, 1, 3)          # 17 cards, every rank
FREE_BET = dict(dealer_22_push=True, free_double_totals={9, 10, 11},
                free_split_ranks=set(range(1, 10)))
SPANISH = dict(player_21_wins=True, natural_always_wins=True, bonus_21=(F(3, 2), 2, 3),
               bonus_678=(F(3, 2), 2, 3), bonus_777=(F(3, 2), 2, 3), super_bonus=50,
               redoubles=3, double_rescue=True, double_any_cards=True,
               double_split_aces=True)


@pytest.mark.slow     # ~4 minutes
@pytest.mark.parametrize("classic", [
    dict(hit_soft_17=True, max_split_hands=3, surrender="late"),
    dict(hole_card="enhc", double_any_cards=True, max_split_hands=2),
])
def test_no_game_rule_is_the_classic_reference(classic):
    game = GameReferenceSolver(SMALL, **classic)
    classic_solver = ReferenceSolver(SMALL, **classic)
    for u in (1, 6):
        assert game.ev_given_dealer(u) == classic_solver.ev_given_dealer(u)


@pytest.mark.slow
def test_bonus_payouts_of_one_are_the_classic_game():
    ones = dict(bonus_21=(1, 1, 1), bonus_678=(1, 1, 1), bonus_777=(1, 1, 1),
                bonus_after_split=True, super_bonus=0)
    game = GameReferenceSolver(SMALL, max_split_hands=2, **ones)
    classic = ReferenceSolver(SMALL, max_split_hands=2)
    assert game.ev_given_dealer(7) == classic.ev_given_dealer(7)


def test_dealer_22_push_where_the_dealer_cannot_make_22():
    """Sevens, nines and tens only: dealer totals 14, 16, 17, 19, 20, 21 and 23 or more,
    never 22, so pushing a dealer 22 changes nothing."""
    shoe = (0, 0, 0, 0, 0, 0, 4, 0, 3, 6)
    for u in (7, 9, 10):
        assert game_dealer_probabilities(shoe[:6] + (shoe[6] - (u == 7),) + shoe[7:8]
                                         + (shoe[8] - (u == 9), shoe[9] - (u == 10)),
                                         (u,))[22] == 0
    game = GameReferenceSolver(shoe, dealer_22_push=True)
    assert game.round_ev() == ReferenceSolver(shoe).round_ev()
    # where the dealer can make 22, pushing it (instead of paying it) costs the player
    assert GameReferenceSolver(SMALL, dealer_22_push=True, max_split_hands=2).ev_given_dealer(
        6) < ReferenceSolver(SMALL, max_split_hands=2).ev_given_dealer(6)


def _win_loss(shoe_after, total, upcard):
    """P(win), P(loss) of a standing total against the dealer (no natural possible)."""
    d = game_dealer_probabilities(shoe_after, (upcard,))
    assert d["blackjack"] == 0
    win = d["bust"] + d[22] + sum(d[k] for k in range(17, 22) if k < total)
    loss = sum(d[k] for k in range(17, 22) if k > total)
    return win, loss


@pytest.mark.parametrize("counts", [SMALL, None], ids=["17 cards", "infinite"])
def test_free_double_is_two_wins_less_one_loss(counts):
    """Doubling hard 10 (4, 6) free against a 6: one card; a win pays own + free stake (2),
    a loss costs the own stake (1), a bust 1: the formula from the dealer's law alone."""
    game = GameReferenceSolver(counts, free_double_totals={10})
    classic = ReferenceSolver(counts)
    shoe = None if counts is None else tuple(
        c - (r in (4, 6)) - (r == 6) for r, c in enumerate(counts, 1))
    free = paid = F(0)
    for r in range(1, 11):
        p = F(1, 13) * (4 if r == 10 else 1) if shoe is None else F(shoe[r - 1], sum(shoe))
        if p == 0:
            continue
        total = 10 + (11 if r == 1 else r)
        after = None if shoe is None else tuple(c - (k == r) for k, c in enumerate(shoe, 1))
        win, loss = _win_loss(after, total, 6)
        free += p * (2 * win - loss)
        paid += p * 2 * (win - loss)
    assert game.hand_values_unconditioned((4, 6), 6)["double"] == free
    assert classic.hand_values_unconditioned((4, 6), 6)["double"] == paid


@pytest.mark.slow
def test_a_free_split_is_worth_at_least_a_paid_one():
    game = GameReferenceSolver(SMALL, free_split_ranks=set(range(1, 11)), max_split_hands=3)
    classic = ReferenceSolver(SMALL, max_split_hands=3)
    for pair in (1, 4, 6, 7, 8, 10):
        for u in (5, 10):
            assert game.split_ev(pair, u) >= classic.split_ev(pair, u), (pair, u)


@pytest.mark.slow
def test_natural_always_wins_adds_the_payout_of_both_naturals():
    """E changes by exactly b x P(player natural and dealer natural)."""
    shoe = SMALL
    n, a, t = sum(shoe), shoe[0], shoe[9]
    both = F(2 * a * t, n * (n - 1)) * F(2 * (a - 1) * (t - 1), (n - 2) * (n - 3))
    game = GameReferenceSolver(shoe, natural_always_wins=True, max_split_hands=2)
    classic = ReferenceSolver(shoe, max_split_hands=2)
    assert game.round_ev() - classic.round_ev() == F(3, 2) * both


@pytest.mark.slow
def test_player_21_wins_never_hurts():
    game = GameReferenceSolver(SMALL, player_21_wins=True, max_split_hands=2)
    classic = ReferenceSolver(SMALL, max_split_hands=2)
    for u in (1, 7, 10):
        assert game.ev_given_dealer(u) >= classic.ev_given_dealer(u)


def _brute(counts, rules, upcard, cards):
    ref = GameReferenceSolver(counts, **rules)
    rest = list(counts)
    for c in (upcard,) + cards:
        rest[c - 1] -= 1
    brute_rules = {k: v for k, v in rules.items() if k != "natural_always_wins"}
    brute_rules["natural_tie_value"] = ref._t
    values = ref.hand_values_unconditioned(cards, upcard)
    action = ref.best_action(cards, upcard)
    brute = brute_force_game_round(rest, upcard, cards, game_policy(ref),
                                   sevens=counts[6], **brute_rules)
    return values[action], brute, action


BRUTE = [
    # (shoe, rules, upcard, player cards)
    pytest.param((3, 2, 2, 2, 2, 3, 3, 3, 2, 6),
                 dict(FREE_BET, hit_soft_17=True, max_split_hands=2), 6, (8, 8),
                 marks=pytest.mark.slow),
    ((3, 2, 2, 2, 2, 3, 3, 3, 2, 6), dict(FREE_BET, hit_soft_17=True, max_split_hands=2),
     10, (4, 5)),
    ((3, 2, 2, 2, 2, 3, 3, 3, 2, 6), dict(FREE_BET, hit_soft_17=True, max_split_hands=2),
     1, (5, 6)),
    ((2, 2, 2, 2, 2, 3, 4, 3, 2, 4), dict(SPANISH, hit_soft_17=True, max_split_hands=2,
                                          surrender="late"), 6, (2, 3)),
    ((2, 2, 2, 2, 2, 3, 4, 3, 2, 4), dict(SPANISH, hit_soft_17=True, max_split_hands=2,
                                          surrender="late"), 5, (6, 7)),
    ((2, 2, 2, 2, 2, 3, 4, 3, 2, 4), dict(SPANISH, hit_soft_17=True, max_split_hands=2,
                                          surrender="late"), 10, (1, 10)),
    pytest.param((2, 2, 2, 2, 2, 3, 4, 3, 2, 4), dict(SPANISH, max_split_hands=2), 7, (7, 7),
                 marks=pytest.mark.slow),
    pytest.param((2, 2, 2, 2, 2, 3, 3, 3, 2, 4), dict(FREE_BET, hole_card="enhc",
                                                      max_split_hands=2, double_rescue=True),
                 10, (3, 3), marks=pytest.mark.slow),
    ((2, 2, 2, 2, 2, 3, 3, 3, 2, 4), dict(hole_card="enhc", redoubles=2, double_rescue=True,
                                          surrender="late"), 10, (4, 6)),
]


@pytest.mark.parametrize("counts, rules, upcard, cards", BRUTE,
                         ids=[f"{v[2]}-{v[3]}" for v in
                              (getattr(c, "values", c) for c in BRUTE)])
def test_the_brute_force_of_one_round(counts, rules, upcard, cards):
    try:
        want, got, action = _brute(counts, rules, upcard, cards)
    except ShoeExhausted:
        pytest.skip("a path of this round runs out of cards")
    assert got == want, action
