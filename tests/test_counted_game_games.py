"""The counted game of the games (Free Bet, Spanish 21): the round model's cards under the
games' plays, the Spanish deck's true count, the fundamental theorem's identity, and
frequencies and edges against the compiled simulator (docs/counted-game.md, "The games")."""
import math
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from bjsolve import CountedGame, Rules, Shoe, solve
from bjsolve.counting.count_laws import CountDistribution
from bjsolve.counting.removal import SYSTEMS
from bjsolve.risk.round_model import round_cards_law
from true_count_runs import simulated_by_true_count

HILO = SYSTEMS["hilo"][1]
CLASSIC_FREE_BET = dict(dealer_22="bust", free_doubles=(), free_splits=())


def _law(law):
    return law.law, law.offsets


def test_free_doubles_and_splits_take_the_cards_of_doubles_and_splits():
    # a free double or split is played as the paid one (the chart's free codes play as
    # their twins) and a dealer 22 draws nothing: the same law as the classic rules
    rules = Rules.preset("free-bet", decks=2)
    classic = replace(rules, **CLASSIC_FREE_BET)
    chart = solve(rules).strategy
    probs = rules.shoe().probabilities()
    game, plain = (round_cards_law(r, probs, chart, HILO, max_cards=32) for r in (rules, classic))
    assert game.law.shape == plain.law.shape
    assert np.array_equal(game.offsets, plain.offsets)
    assert np.abs(game.law - plain.law).max() < 1e-15


@pytest.mark.parametrize("choice, more", [("redouble", True), ("rescue", False)])
def test_redoubles_take_cards_and_a_rescue_ends_the_hand(choice, more):
    # after a double: always redoubling takes more cards than always standing; always
    # rescuing takes fewer (a rescued hand needs no dealer draw); every law sums to 1 and
    # keeps Wald's identity (mean tag sum = mean cards x mean tag: the round is a stopping
    # time of independent draws)
    rules = Rules.preset("spanish-21", decks=6)
    chart = solve(Rules(decks=6, hit_soft_17=True, double_any_cards=True,
                        surrender="late")).strategy
    probs = rules.shoe().probabilities()

    def always(act):
        return lambda cards, up, allowed, split, doubles: act if act in allowed else "stand"
    # (40 cards: always redoubling makes rounds longer than the default grid's 32)
    stand = round_cards_law(rules, probs, chart, HILO, after_double=always("stand"),
                            max_cards=40)
    other = round_cards_law(rules, probs, chart, HILO, after_double=always(choice),
                            max_cards=40)
    assert (other.mean_cards > stand.mean_cards) == more
    assert other.mean_cards != pytest.approx(stand.mean_cards, abs=1e-4)
    mean_tag = float(probs @ np.array(HILO, dtype=float))
    for law in (stand, other):
        assert law.law.sum() == pytest.approx(1.0, abs=1e-12) and law.law.min() >= 0
        assert law.mean_count == pytest.approx(law.mean_cards * mean_tag, abs=1e-10)
    # no choice after a double (None, as the simulator without after_double): stand
    none = round_cards_law(rules, probs, chart, HILO, max_cards=40)
    assert np.abs(none.law - stand.law).max() < 1e-15


def test_spanish_true_counts_are_the_excess_per_48_card_deck():
    # Hi-Lo on a Spanish deck (12 ten-valued cards): unbalanced by the shoe, +4 a deck;
    # the true count is the running count in excess of its expectation, per 48-card deck
    # left, floored: checked against exact fractions
    shoe = Shoe.decks(1, spanish=True)
    count = CountDistribution("hilo", shoe, deck_cards=48)
    assert count.cards == 48 and count.mean_tag == pytest.approx(4 / 48)
    for n in (0, 5, 12, 30, 44):
        tcs = count.true_counts(n)
        for rc, tc in zip(count.running_counts, tcs):
            exact = (Fraction(int(rc)) - Fraction(4 * n, 48)) * 48 / (48 - n)
            assert tc == math.floor(exact), (n, rc)
    with pytest.raises(ValueError, match="deck_cards"):
        CountDistribution("hilo", shoe, deck_cards=50)


# ---- the counted game ------------------------------------------------------------------

def test_the_fundamental_theorem_holds_for_a_game():
    # round starts taken as random depletions (no round-length correction): the
    # frequency-weighted edge of a fixed strategy (the chart and the full shoe's
    # after-double chart) is the full shoe's EV, exactly once calibrated; the mean
    # compositions alone (one band: the calibration is one offset) miss it
    rules = Rules.preset("spanish-21", decks=1)
    g = CountedGame(rules, "hilo", penetration=0.6, depth_bands=1, tc_min=-4, tc_max=6,
                    round_length_correction=False)
    full = solve(rules)
    want = full.evaluate(g.chart, after_double="basic")
    assert g.full_shoe_chart_ev == pytest.approx(want, abs=1e-12)
    assert float(g.frequency @ g.edge) == pytest.approx(want, abs=1e-12)
    assert abs(g.band_offset[0]) > 1e-6
    assert float(g.frequency.sum()) == pytest.approx(1.0, abs=1e-12)
    # and the second moment: the full shoe's, from the outcome distribution of the chart
    # with the after-double chart
    dist = full.outcome_distribution(g.chart, after_double="basic")
    second = float(g.frequency @ (g.variance + g.edge ** 2))
    # (the pmf's: the counted game's laws combine a resplit's hands, the full shoe's
    # anchor too, as in the classic counted game; outcome_distribution's variance is the
    # exact one, a little lower)
    assert second == pytest.approx(dist.pmf_variance + dist.mean ** 2, abs=1e-12)
    assert 0.0 <= dist.pmf_variance - dist.variance < 1e-3


def test_the_flat_second_moment_of_a_game_is_the_full_shoes():
    # the fundamental theorem for the whole outcome law: over random depletions a fixed
    # strategy's second moment per round is the full shoe's; calibrated per depth band,
    # the flat bettor's sum f (v + m^2) is the full shoe's exact second moment, from
    # Solution.outcome_distribution of the chart (Free Bet: no choice after a double)
    rules = Rules.preset("free-bet", decks=1)
    g = CountedGame(rules, "hilo", penetration=0.6, depth_bands=2, tc_min=-4, tc_max=6,
                    round_length_correction=False)
    second = float(g.frequency @ (g.variance + g.edge ** 2))
    dist = solve(rules).outcome_distribution(g.chart)
    assert dist.mean == pytest.approx(g.full_shoe_chart_ev, abs=1e-12)
    # (the pmf's: the counted game's laws combine a resplit's hands, the full shoe's
    # anchor too, as in the classic counted game; outcome_distribution's variance is the
    # exact one, a little lower)
    assert second == pytest.approx(dist.pmf_variance + dist.mean ** 2, abs=1e-12)
    assert 0.0 <= dist.pmf_variance - dist.variance < 1e-3
    flat = g.evaluate({0: 1})
    assert flat.variance + flat.win_rate ** 2 == pytest.approx(second, rel=1e-12)


@pytest.mark.parametrize("preset", ["spanish-21",
                                    pytest.param("free-bet", marks=pytest.mark.slow)])
def test_frequencies_and_edges_match_the_compiled_simulator(preset):
    # 2 decks, one depth band, 6 x 10^5 simulated rounds in 8 runs: every true count's
    # frequency and edge within 4 standard errors (benchmarks/bench_game_games.py runs 6
    # decks at length); the Spanish shoe counted as CountedGame counts it (the simulator
    # judges its 48-card decks and takes the running count in excess of its expectation)
    rules = Rules.preset(preset, decks=2)
    g = CountedGame(rules, "hilo", penetration=0.75, depth_bands=1, tc_min=-6, tc_max=8,
                    curvature="band")
    ((f, fse), (e, ese), _), per_shoe = simulated_by_true_count(
        rules, -6, 8, 600_000, 8, seed=91, after_double="basic")
    zf = (g.frequency - f) / fse
    ze = (g.edge - e) / ese
    assert np.abs(zf).max() < 4, list(zip(g.labels, np.round(zf, 2)))
    assert np.abs(ze).max() < 4, list(zip(g.labels, np.round(ze, 2)))
    assert g.rounds_per_shoe == pytest.approx(per_shoe, rel=0.005)


def test_index_shoes_of_a_spanish_game_are_spanish_shoes_at_that_true_count():
    # the shoes the index numbers are solved on: a Spanish shoe (12 ten-valued cards a
    # deck) with half its 48-card decks dealt, whose removed cards carry the true count in
    # the Spanish convention (excess over the expected running count, per 48-card deck)
    from bjsolve.counting.removal import true_count_shoes
    rules = Rules.preset("spanish-21", decks=2)
    shoes, _ = true_count_shoes(rules, "hilo", [-4, 0, 3])
    full = np.array(rules.shoe().counts, dtype=float)
    tags = np.array(HILO, dtype=float)
    assert full.sum() == 96 and full[9] == 24
    for tc, shoe in shoes.items():
        removed = full - np.array(shoe.counts, dtype=float)
        assert removed.sum() == pytest.approx(48, abs=1e-9)
        excess = float(removed @ tags) - 48 * float(full @ tags) / 96
        assert excess / (48 / 48) == pytest.approx(tc, abs=1e-9)
