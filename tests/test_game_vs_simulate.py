"""The counted game's flat-betting edge (the frequency-weighted edge by true count: the win
per round of a flat bettor) against the compiled shoe simulator on the same game: Hi-Lo,
floor, exact decks, 75% penetration, one spot, the basic chart, with and without late
surrender and the Illustrious 18 with insurance.

The slow campaign: every scenario within 4 standard errors of a simulation whose error
is 0.0025% of a unit (about 2 x 10^9 rounds in 40 independent runs: a 0.01% bias shows
as 4 SE); BJSOLVE_GAME_SIM_ROUNDS sets another length.  The errors come from the spread of
the runs (rounds of one shoe are correlated through the count)."""
import math
import os

import numpy as np
import pytest

import bjsolve
from bjsolve import Rules
from bjsolve.risk.game import CountedGame
from one_plan import one_plan_for_every_run

SLOW_ROUNDS = int(float(os.environ.get("BJSOLVE_GAME_SIM_ROUNDS", 2e9)))
RUNS = 40


def _simulated_edge(rules, indices, rounds, runs, seed):
    """(mean win per round, its standard error from the spread of ``runs`` runs)."""
    means = []
    with one_plan_for_every_run():     # the runs differ in their seed only
        for k in range(runs):
            res = bjsolve.simulate(rules, rounds=rounds // runs, seed=seed + k,
                                   penetration=0.75, system="hilo", tc_rounding="floor",
                                   threads=1, indices=indices,
                                   insurance=None if indices else False)
            means.append(res.mean)
    means = np.array(means)
    return float(means.mean()), float(means.std(ddof=1) / math.sqrt(runs))


def _game_and_indices(rules, indexed):
    indices = None
    if indexed:
        from bjsolve.counting.indices import generate_indices
        indices = generate_indices(rules, "hilo", tc_rounding="floor").select("i18")
    game = CountedGame(rules, "hilo", penetration=0.75, indices=indices)
    return game, indices


SCENARIOS = [(decks, h17, ls, indexed) for decks in (2, 6) for h17 in (False, True)
             for ls in (False, True) for indexed in (False, True)]


@pytest.mark.slow
@pytest.mark.parametrize("decks, h17, ls, indexed", SCENARIOS)
def test_flat_edge_matches_a_long_simulation(decks, h17, ls, indexed):
    rules = Rules(decks=decks, hit_soft_17=h17, double_after_split=True,
                  surrender="late" if ls else "none")
    game, indices = _game_and_indices(rules, indexed)
    flat = float(game.frequency @ game.edge)
    seed = 10_000 * decks + 1000 * h17 + 100 * ls + 10 * indexed
    mean, se = _simulated_edge(rules, indices, SLOW_ROUNDS, RUNS, seed)
    assert abs(flat - mean) < 4 * se, (flat, mean, se)


def test_flat_edge_matches_a_short_simulation_with_surrender_and_insurance():
    # the default suite's sample of the campaign above: 2 decks H17 LS, insurance at true
    # counts >= +3 (after the deal, as the simulator takes it), no index plays, one depth
    # band and one calibration offset (the cheap settings: they move the flat edge by
    # about 0.01%); 2 x 10^6 rounds in 8 runs (an error of about 0.08%)
    # (insurance=3 with the basic chart: the index plays' insurance index without index
    # plays was spelled indices=SimpleNamespace(lines={}, insurance=3) before)
    rules = Rules(decks=2, hit_soft_17=True, double_after_split=True, surrender="late")
    game = CountedGame(rules, "hilo", penetration=0.75, depth_bands=1, curvature="band",
                       tc_min=-6, tc_max=8, insurance=3)
    assert game.strategy == "basic" and game.insurance == 3
    means = [bjsolve.simulate(rules, rounds=250_000, seed=99 + k, penetration=0.75,
                              system="hilo", tc_rounding="floor", threads=1, insurance=3).mean
             for k in range(8)]
    se = float(np.std(means, ddof=1) / math.sqrt(len(means)))
    assert abs(float(game.frequency @ game.edge) - float(np.mean(means))) < 4 * se
