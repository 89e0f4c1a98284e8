"""Rule variants: no hole card, early surrender, hitting split aces, ties, insurance and
the game with both dealer cards face up (the both-cards-up exercise, docs/validation.md)."""
import math

import pytest

from bjsolve import Rules, dealer_probabilities, solve


@pytest.fixture(scope="module")
def easy():
    return solve(Rules.preset("easy"))


def test_both_cards_up_exercise_worked_examples(easy):
    ev = easy.hand_ev((10, 9), (10, 10))
    assert not ev.given_no_blackjack
    assert ev["hit"] == pytest.approx(-10 / 13, abs=1e-14)
    assert ev["double"] == pytest.approx(-20 / 13, abs=1e-14)
    assert ev["stand"] == pytest.approx(-1.0, abs=1e-14)
    assert ev["surrender"] == -0.5
    assert ev.best == "surrender"
    # standing on hard 18 against dealer hard 16 is 6/13
    assert easy.hand_ev((10, 8), (10, 6))["stand"] == pytest.approx(6 / 13, abs=1e-14)
    d = dealer_probabilities(Rules.preset("easy"), (10, 6))
    assert d["bust"] == pytest.approx(8 / 13, abs=1e-15)


def test_exposed_game_needs_both_dealer_cards(easy):
    with pytest.raises(ValueError, match="two cards"):
        easy.hand_ev((10, 9), 10)
    with pytest.raises(ValueError, match="natural"):
        easy.hand_ev((10, 9), ("A", "K"))


def test_exposed_advantage_is_the_weighted_sum_over_starting_hands(easy):
    # sum p_i p_j EV_ij, with the dealer's naturals (player loses unless a natural pushes)
    p = [1 / 13] * 9 + [4 / 13]
    total = 0.0
    for key, ev in easy.ev_by_dealer.items():
        a, b = key
        w = p[a - 1] * p[b - 1] * (1 if a == b else 2)
        total += w * ev
    assert total == pytest.approx(easy.expected_value, abs=1e-15)
    p_nat = 2 * p[0] * p[9]
    assert easy.ev_by_dealer[(1, 10)] == pytest.approx(-(1 - p_nat), abs=1e-15)


def test_enhc_obo_equals_peek_and_enhc_matches_published_figure():
    peek = solve(Rules(decks=6, hit_soft_17=True)).expected_value
    obo = solve(Rules(decks=6, hit_soft_17=True, hole_card="enhc-obo")).expected_value
    assert obo == pytest.approx(peek, abs=1e-15)
    enhc = solve(Rules(decks=6, hit_soft_17=True, hole_card="enhc"))
    # published ENHC 6D H17 DAS figure (approximate splits, ~1e-5): -0.0072705
    assert enhc.expected_value == pytest.approx(-0.0072705, abs=1.5e-5)
    assert enhc.expected_value < peek
    ev = enhc.hand_ev((6, 5), 10)
    assert not ev.given_no_blackjack
    assert "unconditioned" in repr(ev)


def test_enhc_changes_doubling_11_against_ten():
    # the textbook ENHC departure: hit, not double, 11 v T
    assert solve(Rules(decks=6, hole_card="enhc")).best_action((6, 5), 10) == "hit"
    assert solve(Rules(decks=6)).best_action((6, 5), 10) == "double"


def test_surrender_ordering_and_values():
    none = solve(Rules(decks=6)).expected_value
    late = solve(Rules(decks=6, surrender="late"))
    early = solve(Rules(decks=6, surrender="early"))
    assert early.expected_value > late.expected_value > none
    # early surrender is decided before the peek: -0.5 unconditioned against an ace
    ev = early.hand_ev((10, 6), 1)
    assert ev["surrender"] == -0.5 and not ev.given_no_blackjack
    # late surrender, unconditioned: -1/2 - beta/2
    ev_late = late.hand_ev((10, 6), 1, given_no_blackjack=False)
    beta = (96 - 1) / (312 - 3)  # tens left after the hand T,6 and the ace
    assert ev_late["surrender"] == pytest.approx(-0.5 - 0.5 * beta, abs=1e-15)


def test_hit_split_aces_helps_and_dealer_wins_ties_hurts():
    base = solve(Rules(decks=2)).expected_value
    assert solve(Rules(decks=2, hit_split_aces=True)).expected_value > base
    assert solve(Rules(decks=2, dealer_wins_ties=True)).expected_value < base - 0.05


def test_dealer_wins_ties_stand_values():
    sol = solve(Rules(decks=math.inf, dealer_wins_ties=True))
    plain = solve(Rules(decks=math.inf))
    d = dealer_probabilities(Rules(decks=math.inf), 7)
    ev, ev0 = sol.hand_ev((10, 7), 7)["stand"], plain.hand_ev((10, 7), 7)["stand"]
    assert ev == pytest.approx(ev0 - d[17], abs=1e-14)  # the 17-17 pushes now lose


def test_insurance_reference_figures():
    sol = solve(Rules(decks=1))
    assert sol.insurance_ev() == pytest.approx(-3 / 51, abs=1e-15)
    assert sol.insurance_ev((10,)) - sol.insurance_ev() == pytest.approx(-0.04118, abs=5e-6)
    assert sol.insurance_ev((5,)) - sol.insurance_ev() == pytest.approx(0.01882, abs=5e-6)


def test_payouts():
    evs = [solve(Rules(decks=6, blackjack_payout=b)).expected_value for b in (1.0, 1.2, 1.5, 2.0)]
    assert evs == sorted(evs)
    # the payout enters linearly through the player's naturals
    p_nat = 2 * (24 / 312) * (96 / 311)
    assert evs[2] - evs[1] == pytest.approx(0.3 * p_nat * _no_dealer_natural(6), rel=1e-9)


def _no_dealer_natural(decks):
    # chance that the dealer has no natural given the player has one, times 1
    n = 52 * decks - 2
    aces, tens = 4 * decks - 1, 16 * decks - 1
    return 1 - 2 * aces * tens / (n * (n - 1))


def test_double_exposure_finite_shoe():
    rules = Rules(decks=6, hole_card="exposed", dealer_wins_ties=True, blackjack_payout=1.0)
    sol = solve(rules)
    assert -0.05 < sol.expected_value < 0.05
    ev = sol.hand_ev((10, 6), (10, 7))
    assert ev.best in ("hit", "surrender") or ev["hit"] > ev["stand"]
