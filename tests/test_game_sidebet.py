"""A side bet beside the counted game's ramp: ``CountedGame(..., sidebet=...)`` with
``evaluate(..., sidebet_threshold=, sidebet_units=)`` and ``simulate(..., sidebet=...)``.

The exact side (per true count: the bet's mean and second moment from the count's class
laws, the covariance with the main hand from the first cards' law) is checked against
identities (the top of the shoe is the bet's edge; the first cards' law gives the solve's
EV and the bet's edge) and against the compiled simulator, which deals kinds (rank and
suit) and settles the bet by the Monte Carlo module's own classifiers.  The simulator's
standard errors come from the spread of independent runs (rounds of one shoe are
correlated through the count)."""
import dataclasses
import math
import os

import numpy as np
import pytest

import bjsolve
from bjsolve import Rules, sidebets
from bjsolve.risk.game import CountedGame
from bjsolve.risk.side_bet import (
    first_cards_covariance,
    first_cards_law,
    hand_values,
    side_bet_play,
    side_moments_by_state,
    side_outcome_table,
)
from one_plan import one_plan_for_every_run

RAMP = "1:1,2:2,3:4,4:8"
SLOW_ROUNDS = int(float(os.environ.get("BJSOLVE_SIDEBET_SIM_ROUNDS", 8e6)))


@pytest.fixture(scope="module")
def two_decks():
    """2 decks S17 DAS, Hi-Lo, the cheap settings (one depth band), with and without
    Perfect Pairs."""
    rules = Rules(decks=2)
    settings = dict(penetration=0.75, depth_bands=1, curvature="band", threads=2)
    return (rules, CountedGame(rules, "hilo", sidebet="perfect-pairs", **settings),
            CountedGame(rules, "hilo", **settings))


# ---- the exact side: identities ----------------------------------------------------------

@pytest.mark.parametrize("name", ["21+3", "perfect-pairs", "lucky-ladies", "lucky-lucky"])
def test_the_top_of_the_shoe_is_the_bets_edge_and_its_second_moment(name):
    """No card seen: one running count, the full shoe; the mean is ``sidebets.edge``'s EV
    and the second moment sum pay^2 P + P(no win), from the edge's own probabilities."""
    play = side_bet_play(name)
    mean, second = side_moments_by_state(play, 6, "hilo", [0], np.array([0.0]), 1)
    exact = sidebets.edge(name, decks=6)
    expected_second = sum(pay ** 2 * exact.probabilities[o] for o, pay in exact.pays.items())
    assert mean[0, 0] == pytest.approx(exact.expected_value, abs=1e-13)
    assert second[0, 0] == pytest.approx(expected_second, abs=1e-12)


@pytest.fixture(scope="module")
def six_deck_solution():
    return bjsolve.solve(Rules(decks=6))


@pytest.mark.parametrize("name", ["21+3", "perfect-pairs", "match-the-dealer", "over-13",
                                  "lucky-ladies"])
def test_the_first_cards_law_gives_the_solves_ev_and_the_bets_edge(name, six_deck_solution):
    """Over the cells (first cards' values, dealer natural): the chances sum to 1, the
    natural's cells to P(dealer natural) = 2 x 24/312 x 96/311, the side bet's mean is its
    exact edge (the simulator's outcome table, its own classifiers, read over every ordered
    deal of kinds); sum P(v) E[X | v] is the round's EV (the hand values unconditioned,
    the best action: the solve's optimal play)."""
    p, side = first_cards_law(side_bet_play(name), 6)
    assert p.sum() == pytest.approx(1.0, abs=1e-13)
    assert p[1::2].sum() == pytest.approx(2 * 24 / 312 * 96 / 311, abs=1e-14)
    # (Lucky Ladies: 7.3 million deals, pays up to 1000: rounding near 1e-12)
    assert float(p @ side) == pytest.approx(sidebets.edge(name, decks=6).expected_value,
                                            abs=1e-11)
    hands = hand_values(six_deck_solution)
    p_v = p[0::2] + p[1::2]
    assert float(p_v @ hands) == pytest.approx(float(six_deck_solution.expected_value),
                                               abs=1e-12)


def test_the_covariance_of_a_bet_blind_to_the_hole_card(six_deck_solution):
    """Over 13 reads the player's two cards only: the covariance split by the dealer's
    natural is the plain one over the values, sum P(v) E[X | v] E[S | v] - E[X] E[S]."""
    p, side = first_cards_law(side_bet_play("over-13"), 6)
    hands = hand_values(six_deck_solution)
    p_v, s_v = p[0::2] + p[1::2], side[0::2]
    plain = float(p_v @ (hands * s_v)) - float(p_v @ hands) * float(p_v @ s_v)
    got = first_cards_covariance((p, side), hands, [24] * 9 + [96], 0.0)
    assert got == pytest.approx(plain, abs=1e-14)


def test_the_outcome_table_pays_the_edge_of_a_four_card_bet():
    """Lucky Ladies reads the hole card (its queen-of-hearts pair with a dealer natural):
    the table (three kinds, and whether the hole card makes a natural), read over every
    deal of four distinct kinds of one deck (each equally likely), gives the exact edge."""
    cards, outcome, pays = side_outcome_table(side_bet_play("lucky-ladies"))
    assert cards == 4 and outcome.shape == (2 * 52 ** 3,)
    kinds = np.indices((52,) * 4).reshape(4, -1)
    distinct = np.ones(kinds.shape[1], dtype=bool)
    for a in range(4):
        for b in range(a):
            distinct &= kinds[a] != kinds[b]
    first, up, second, hole = kinds[:, distinct]
    up_value, hole_value = np.minimum(up // 4, 9), np.minimum(hole // 4, 9)
    natural = (up_value + hole_value == 9) & ((up_value == 0) | (hole_value == 0))
    ev = pays[outcome[((first * 52 + up) * 52 + second) * 2 + natural]].mean()
    assert ev == pytest.approx(sidebets.edge("lucky-ladies", decks=1).expected_value,
                               abs=1e-13)


# ---- the game ----------------------------------------------------------------------------

def test_the_main_game_is_unchanged_by_a_side_bet(two_decks):
    _, with_side, without = two_decks
    for field in ("tc_values", "frequency", "edge", "variance"):
        assert np.array_equal(getattr(with_side, field), getattr(without, field)), field
    plain = without.evaluate(RAMP, 500)
    both = with_side.evaluate(RAMP, 500, sidebet_threshold=1)
    assert both.sidebet.main_win_rate == plain.win_rate
    assert both.sidebet.main_sd == plain.sd
    # the combined figures put the pieces together as stated
    side = both.sidebet
    assert both.win_rate == pytest.approx(plain.win_rate + side.win_rate, abs=1e-15)
    assert both.sd ** 2 == pytest.approx(plain.sd ** 2 + side.sd ** 2 + 2 * side.covariance,
                                         rel=1e-12)
    # the diffusion figure on the combined play (certain ruin without an edge)
    assert both.ror == (pytest.approx(math.exp(-2 * both.win_rate * 500 / both.sd ** 2),
                                      rel=1e-12) if both.win_rate > 0 else 1.0)


def test_a_game_with_a_side_bet_pickles_and_gives_the_same_figures(two_decks):
    import pickle
    _, game, _ = two_decks
    again = pickle.loads(pickle.dumps(game))
    assert again.evaluate(RAMP, 500, sidebet_threshold=2) == game.evaluate(
        RAMP, 500, sidebet_threshold=2)


def test_the_side_bet_is_made_at_and_above_its_threshold(two_decks):
    _, game, _ = two_decks
    result = game.evaluate(RAMP, sidebet_threshold=3, sidebet_units=2)
    above = game.tc_values >= 3
    assert result.sidebet.rounds_bet == pytest.approx(float(game.frequency[above].sum()),
                                                      abs=1e-15)
    assert result.sidebet.win_rate == pytest.approx(
        2 * float(game.frequency[above] @ game.side_mean[above]), abs=1e-15)
    # a ramp of its own: 1 unit from +3, 4 from +6
    ramp = game.evaluate(RAMP, sidebet_threshold=3, sidebet_units="3:1,6:4")
    units = np.where(game.tc_values >= 6, 4.0, np.where(above, 1.0, 0.0))
    assert ramp.sidebet.win_rate == pytest.approx(
        float(game.frequency @ (units * game.side_mean)), abs=1e-15)


def test_bad_side_bet_input_is_refused_naming_the_field(two_decks):
    rules, game, plain = two_decks
    with pytest.raises(ValueError, match="sidebet: bust-it is not played beside the game"):
        CountedGame(rules, sidebet="bust-it")
    with pytest.raises(ValueError, match="paytable"):
        CountedGame(rules, sidebet="21+3", sidebet_paytable="no-such-table")
    with pytest.raises(ValueError, match="sidebet_threshold / sidebet_units: the game has no "
                                         "side bet"):
        plain.evaluate(RAMP, sidebet_threshold=2)
    with pytest.raises(ValueError, match="sidebet_threshold"):
        game.evaluate(RAMP, sidebet_threshold=2.5)
    with pytest.raises(ValueError, match="sidebet_units"):
        game.evaluate(RAMP, sidebet_units=-1)
    with pytest.raises(ValueError, match="sidebet_units: a number of units or a ramp"):
        game.evaluate(RAMP, sidebet_units="3:x")


# ---- the simulator -----------------------------------------------------------------------

def test_the_simulators_main_game_is_the_same_with_a_side_bet():
    """The side bet reads the dealt kinds and changes no card: the same seed gives the same
    main game (==), with or without it."""
    rules = Rules(decks=6)
    kw = dict(rounds=200_000, seed=5, ramp=RAMP, threads=2, chunk_rounds=50_000)
    plain = bjsolve.simulate(rules, **kw)
    side = bjsolve.simulate(rules, sidebet="21+3", sidebet_threshold=1, **kw)
    assert plain.sidebet is None and side.sidebet.rounds_bet > 0
    for field in ("total_won", "total_bet", "mean", "sd", "hands", "shuffles"):
        assert getattr(plain, field) == getattr(side, field), field
    assert plain.per_true_count == side.per_true_count


@pytest.mark.parametrize("name", ["21+3", "lucky-ladies"])
def test_a_flat_side_bet_in_the_simulator_has_the_bets_edge(name):
    """Bet every round (1 unit), the mean per unit is the full shoe's edge within 4 SE
    (every round's first cards are a uniform draw of the shoe)."""
    with one_plan_for_every_run():     # the runs differ in their seed only
        means = [bjsolve.simulate(Rules(decks=6), rounds=250_000, seed=40 + k, threads=2,
                                  sidebet=name).sidebet.win_rate for k in range(8)]
    se = float(np.std(means, ddof=1) / math.sqrt(len(means)))
    assert abs(float(np.mean(means)) - sidebets.edge(name, decks=6).expected_value) < 4 * se


def _simulated(rules, name, threshold, rounds, runs, seed):
    """(means, SEs) of the combined win per round, the combined SD, the side bet's win
    per round and the covariance, from ``runs`` independent runs."""
    rows = []
    with one_plan_for_every_run():     # the runs differ in their seed only
        for k in range(runs):
            s = bjsolve.simulate(rules, rounds=rounds // runs, seed=seed + k, ramp=RAMP,
                                 threads=2, sidebet=name, sidebet_threshold=threshold).sidebet
            rows.append((s.combined_mean, s.combined_sd, s.mean, s.covariance))
    rows = np.array(rows)
    return rows.mean(axis=0), rows.std(axis=0, ddof=1) / math.sqrt(runs)


def test_the_game_with_a_side_bet_matches_a_short_simulation(two_decks):
    # the default suite's sample: 2 decks, Perfect Pairs from true count +1, 2e6 rounds
    # in 8 runs
    rules, game, _ = two_decks
    exact = game.evaluate(RAMP, sidebet_threshold=1)
    mean, se = _simulated(rules, "perfect-pairs", 1, 2_000_000, 8, 700)
    assert abs(exact.win_rate - mean[0]) < 4 * se[0], (exact.win_rate, mean[0], se[0])
    assert abs(exact.sd - mean[1]) < 4 * se[1], (exact.sd, mean[1], se[1])
    assert abs(exact.sidebet.win_rate - mean[2]) < 4 * se[2]


@pytest.fixture(scope="module")
def six_decks():
    return CountedGame(Rules(decks=6), "hilo", penetration=0.75, sidebet="21+3")


@pytest.mark.slow
@pytest.mark.parametrize("name", ["21+3", "perfect-pairs", "lucky-ladies", "lucky-lucky",
                                  "match-the-dealer", "royal-match", "over-13"])
@pytest.mark.parametrize("threshold", [None, 2])
def test_the_game_with_a_side_bet_matches_a_long_simulation(six_decks, name, threshold):
    """6 decks S17 DAS, Hi-Lo 1-8 ramp, each bet flat and from true count +2: the combined
    win rate and SD within 4 SE of SLOW_ROUNDS rounds (16 runs)."""
    game = six_decks
    if name != game.sidebet.bet:
        # the main game is the same: only the side bet's figures are built again
        game.sidebet = side_bet_play(name)
        game._side_first_cards = first_cards_law(game.sidebet, 6)
        game._side_moments()
    exact = game.evaluate(RAMP, sidebet_threshold=threshold)
    mean, se = _simulated(game.rules, name, threshold, SLOW_ROUNDS, 16, 900)
    assert abs(exact.win_rate - mean[0]) < 4 * se[0], (exact.win_rate, mean[0], se[0])
    assert abs(exact.sd - mean[1]) < 4 * se[1], (exact.sd, mean[1], se[1])


def test_bad_side_bet_input_to_simulate_is_refused():
    rules = Rules(decks=6)
    with pytest.raises(ValueError, match="whole decks"):
        bjsolve.simulate(rules, rounds=10, seed=1, shoe=bjsolve.Shoe.infinite([4] * 9 + [16]),
                         sidebet="21+3")
    with pytest.raises(ValueError, match="sidebet_threshold must be a whole true count"):
        bjsolve.simulate(rules, rounds=10, seed=1, sidebet="21+3", sidebet_threshold=25)
    with pytest.raises(ValueError, match="need a sidebet"):
        bjsolve.simulate(rules, rounds=10, seed=1, sidebet_threshold=2)


def test_the_side_bet_keywords_are_the_same_in_game_and_simulate():
    import inspect
    game = inspect.signature(CountedGame.__init__).parameters
    evaluate = inspect.signature(CountedGame.evaluate).parameters
    sim = inspect.signature(bjsolve.simulate).parameters
    for name in ("sidebet", "sidebet_paytable"):
        assert game[name].default is None and sim[name].default is None
    for name in ("sidebet_threshold", "sidebet_units"):
        assert evaluate[name].default == sim[name].default
    from bjsolve.simulation.result import SideBetTotals
    assert dataclasses.is_dataclass(SideBetTotals)
