"""The simulator against the exact evaluation of the same strategy in the games (issue 25):
``simulate(rules, strategy=chart, after_double=f)`` and ``solve(rules).evaluate(chart,
after_double=f)`` play the same first decisions (the basic chart) and the same choice after
a double (``f``: the full-shoe after-double chart, frozen in the engine's policy table under
the simulator's kinds), so their means agree within 4 standard errors.

Default: 2 x 10^6 rounds a game.  The slow campaign: 10^8 rounds a game
(BJSOLVE_GAME_CHART_ROUNDS sets another length)."""
import functools
import os

import pytest

import bjsolve
from bjsolve import Rules
from bjsolve.exact.policy import after_double_chart

SLOW_ROUNDS = int(float(os.environ.get("BJSOLVE_GAME_CHART_ROUNDS", 1e8)))
GAMES = ("free-bet", "spanish-21")


@functools.lru_cache(maxsize=None)
def _solved(rules):
    """``solve(rules)``, once for the module (a 6-deck game's solve costs seconds; several
    tests read the same one and never change it)."""
    return bjsolve.solve(rules)


def _chart_and_after_double(rules):
    sol = _solved(rules)
    after = after_double_chart(sol) if (rules.redoubles or rules.double_rescue) else None
    return sol, sol.strategy, after


def _agree(name, rounds, seed):
    rules = Rules.preset(name)
    sol, chart, after = _chart_and_after_double(rules)
    exact = float(sol.evaluate(chart, after_double=after))
    # a fresh shoe every round: the exact value's full shoe (a cut card would add the
    # cut-card effect, z -2.1 for Spanish 21 at 10^8 rounds, benchmarks/bench_games_sim.py)
    res = bjsolve.simulate(rules, rounds=rounds, seed=seed, strategy=chart,
                           after_double=after, penetration="every-round", threads=1)
    assert abs(res.mean - exact) < 4 * res.se, (name, exact, res.mean, res.se)


@pytest.mark.parametrize("name", GAMES)
def test_simulated_chart_matches_its_exact_value(name):
    _agree(name, 2_000_000, seed=25)


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_simulated_chart_matches_its_exact_value_long(name):
    _agree(name, SLOW_ROUNDS, seed=2500)


def test_always_standing_after_a_double_is_the_game_without_the_choice():
    # an identity: a frozen "stand" after every double plays Spanish 21 without redoubles
    # and rescue, whose engine never meets the choice
    rules = Rules.preset("spanish-21")
    chart = _solved(rules).strategy
    plain = rules.replace(redoubles=0, double_rescue=False)
    stand = float(_solved(rules).evaluate(chart, after_double=lambda *a: "stand"))
    assert stand == pytest.approx(float(bjsolve.solve(plain).evaluate(chart)), abs=1e-13)


def test_the_frozen_choice_is_played():
    # the optimal choice (None) is worth at least any frozen one, and the full-shoe chart
    # lies between always standing and the optimum
    rules = Rules.preset("spanish-21")
    sol, chart, after = _chart_and_after_double(rules)
    optimal = float(sol.evaluate(chart))
    charted = float(sol.evaluate(chart, after_double=after))
    stand = float(sol.evaluate(chart, after_double=lambda *a: "stand"))
    assert stand < charted <= optimal + 1e-13


def test_basic_names_the_same_after_double_chart_on_both_sides():
    rules = Rules.preset("spanish-21")
    sol, chart, after = _chart_and_after_double(rules)
    assert float(sol.evaluate(chart, after_double="basic")) == float(
        sol.evaluate(chart, after_double=after))
    a = bjsolve.simulate(rules, rounds=20_000, seed=3, strategy=chart, after_double="basic",
                         threads=1)
    b = bjsolve.simulate(rules, rounds=20_000, seed=3, strategy=chart, after_double=after,
                         threads=1)
    assert (a.mean, a.se) == (b.mean, b.se)


def test_a_bad_after_double_is_refused():
    rules = Rules.preset("spanish-21")
    sol = _solved(rules)
    with pytest.raises(ValueError, match="after_double returned 'hit'.*allowed: stand"):
        sol.evaluate(sol.strategy, after_double=lambda *a: "hit")
    with pytest.raises(TypeError, match="after_double must be a callable"):
        sol.evaluate(sol.strategy, after_double="stand")


def test_the_simulator_deals_a_spanish_shoe():
    # 6 Spanish decks: 24 of each rank, 72 ten-valued cards (J Q K); it dealt 96 before
    from bjsolve.simulation.game_plan import _shoe_counts
    rules = Rules.preset("spanish-21")
    assert _shoe_counts(rules, None) == ([24] * 9 + [72], False)
    assert _shoe_counts(rules.replace(decks=float("inf")), None) == ([4] * 9 + [12], True)
