"""Numbers a hostile caller may pass where the counted game and ramps expect a count, a
bet, a bankroll or a length: ints beyond a float's range (10**400), inf, NaN, bytes.  Each is
refused with a ValueError or TypeError naming the field (found by the fuzzing campaign:
OverflowError, ZeroDivisionError or Python's own words before)."""
import math

import numpy as np
import pytest

from bjsolve import Rules
from bjsolve.model.checks import is_finite_real
from bjsolve.risk.game import CountedGame
from bjsolve.risk.ramp import Ramp, diffusion_ruin, parse_ramp

HUGE = 10 ** 400


@pytest.fixture(scope="module")
def game():
    return CountedGame(Rules(decks=1), depth_bands=1)


@pytest.mark.parametrize("value, expected", [
    (1, True), (2.5, True), (np.float32(3), True), (HUGE, False), (-HUGE, False),
    (math.inf, False), (math.nan, False), (True, False), ("1", False), (None, False),
])
def test_is_finite_real(value, expected):
    assert is_finite_real(value) is expected


@pytest.mark.parametrize("make, field", [
    (lambda: parse_ramp({1: HUGE}), "bet"),
    (lambda: parse_ramp({HUGE: 1}), "true count"),
    (lambda: Ramp(((HUGE, 1.0),)), "true count"),
    (lambda: Ramp(((0, 1.0),), wong_in=math.inf), "wong_in"),
])
def test_ramp_refuses_numbers_beyond_a_float(make, field):
    with pytest.raises(ValueError, match=field):
        make()


@pytest.mark.parametrize("kwargs, field", [
    (dict(ramp="1:1", bankroll=1000, trip_rounds=b"x"), "trip_rounds"),
    (dict(ramp="1:1", bankroll=1000, trip_rounds=math.nan), "trip_rounds"),
    (dict(ramp="1:1", bankroll=1000, trip_rounds=2.5), "trip_rounds"),
    (dict(ramp="1:1", bankroll=HUGE), "bankroll"),
    (dict(ramp="1:1", unit=HUGE), "unit"),
])
def test_evaluate_refuses(game, kwargs, field):
    with pytest.raises((ValueError, TypeError), match=field):
        game.evaluate(kwargs.pop("ramp"), **kwargs)


def test_bets_beyond_a_float(game):
    with pytest.raises(ValueError, match="bets"):
        game.ramp_distribution(np.array([HUGE] * len(game.tc_values), dtype=object))
    with pytest.raises(ValueError, match="max_spread"):
        game.optimal_ramp(-HUGE)


def test_vanishing_bets_are_refused():
    # bets of 1e-300 units: the win rate squared underflows to 0 (N0 divided by zero)
    with pytest.raises(ValueError, match="bet at true count"):
        Ramp(((0, 1e-300),))


@pytest.mark.parametrize("win, variance, bankroll, expected", [
    (0.01, 0.0, 10.0, 0.0),           # a walk that only wins is never ruined
    (-0.01, 1.0, 10.0, 1.0),
    (0.01, 1.0, 100.0, math.exp(-2.0)),
])
def test_diffusion_ruin_values(win, variance, bankroll, expected):
    assert diffusion_ruin(win, variance, bankroll) == pytest.approx(expected, rel=1e-15)


@pytest.mark.parametrize("variance", [-1.0, math.nan, math.inf])
def test_diffusion_ruin_refuses_a_bad_variance(variance):
    with pytest.raises(ValueError, match="variance"):
        diffusion_ruin(0.01, variance, 10.0)


@pytest.mark.parametrize("kwargs, field", [
    (dict(penetration=HUGE), "penetration"),
    (dict(tc_min=math.nan, tc_max=-5), "tc_min"),
    (dict(tc_max=math.inf), "tc_max"),
    (dict(burn=HUGE), "burn"),
])
def test_counted_game_construction_refuses(kwargs, field):
    with pytest.raises(ValueError, match=field) as info:
        CountedGame(Rules(decks=1), depth_bands=1, **kwargs)
    assert len(str(info.value)) < 300


def test_evaluate_takes_whole_float_rounds(game):
    # trip_rounds=1000.0 is a whole number: the same trip ruin as trip_rounds=1000
    a = game.evaluate("1:1,2:2", bankroll=200, trip_rounds=1000)
    b = game.evaluate("1:1,2:2", bankroll=200, trip_rounds=1000.0)
    assert a.trip_ruin == b.trip_ruin
