"""The bet ramp (bjsolve.risk.ramp): one parser for the counted game, the simulator and the CLI.

Expected values are written out by hand from the ramp's definition (the bet of the highest
point at or below the count, the lowest point's bet below it, 0 below wong_in)."""
import math

import numpy as np
import pytest

import bjsolve
from bjsolve import Rules
from bjsolve.risk.ramp import Ramp, parse_ramp, ramp_figures


def test_every_spelling_gives_the_same_ramp():
    want = Ramp(((1, 1.0), (2, 2.0), (3, 4.0)))
    assert parse_ramp("1:1,2:2,3:4") == want
    assert parse_ramp(" 1 : 1 , 2:2 ,3:4, ") == want
    assert parse_ramp({3: 4, 1: 1, 2: 2}) == want          # any order: sorted
    assert parse_ramp([(2, 2), (1, 1), (3, 4.0)]) == want
    assert parse_ramp("3:4,1:1,2:2") == want
    assert parse_ramp(want) is want
    assert parse_ramp(np.array([[1, 1], [2, 2], [3, 4]])) == want
    assert parse_ramp({1.0: 1, 2: np.float64(2), np.int64(3): 4}) == want


def test_bets_between_below_and_above_the_points():
    ramp = parse_ramp("-1:0,1:1,2:3,5:12")
    tcs = [-4, -1, 0, 1, 2, 3, 4, 5, 9]
    assert ramp.bets(tcs).tolist() == [0, 0, 0, 1, 3, 3, 3, 12, 12]
    assert ramp.bet_at(2) == 3.0
    assert ramp.spread == 12.0
    wong = parse_ramp("1:1,2:3", wong_in=2)
    assert wong.bets([0, 1, 2, 3]).tolist() == [0, 0, 3, 3]
    assert wong.describe() == "1:1,2:3 (wong in at 2)"


@pytest.mark.parametrize("ramp, error, words", [
    ("1:1,2", ValueError, "ramp entry '2' is not 'true count:bet'"),
    ("1:x", ValueError, "'1:x' is not 'true count:bet' with two numbers"),
    ("", ValueError, "at least one"),
    (" , ", ValueError, "at least one"),
    ({}, ValueError, "at least one"),
    ("1:-2", ValueError, "ramp bet at true count +1 must be 0 (sits the round out) or"),
    ({1: math.inf}, ValueError, "ramp bet at true count +1"),
    ({1: "2"}, TypeError, "ramp bet at true count +1 must be a number"),
    ({1: True}, TypeError, "ramp bet"),
    ("1.5:2", ValueError, "ramp true count must be a whole number"),
    ({"1": 2}, TypeError, "ramp true count must be a whole number, got '1'"),
    ("1:0,2:0", ValueError, "every bet is 0"),
    ("1:1,1:2", ValueError, "true count +1 is given twice"),
    ([(1, 1), (1.0, 2)], ValueError, "given twice"),
    ([(1, 1, 1)], ValueError, "(true count, bet) pairs"),
    (5, TypeError, "ramp must be text"),
    (None, TypeError, "ramp must be text"),
    (b"1:1", TypeError, "ramp must be text"),
    ([1, 2], TypeError, "ramp must be text"),
])
def test_bad_ramps_name_the_field_and_what_is_allowed(ramp, error, words):
    with pytest.raises(error) as info:
        parse_ramp(ramp)
    assert words in str(info.value)
    assert type(info.value) is error


def test_bad_wong_in():
    with pytest.raises(ValueError, match="wong_in must be a whole number"):
        parse_ramp("1:1", wong_in=1.5)
    with pytest.raises(TypeError, match="wong_in"):
        parse_ramp("1:1", wong_in="2")


def test_errors_echo_a_shortened_value():
    with pytest.raises(ValueError) as info:
        parse_ramp("1:" + "9" * 5000 + "x")
    assert len(str(info.value)) < 200
    with pytest.raises(TypeError) as info:
        parse_ramp(12345678901234567890 ** 40)
    assert len(str(info.value)) < 200


def test_the_simulator_uses_the_same_ramp():
    """The simulator's bet table and its record of the ramp follow the shared parser: any
    order, a Ramp object, the same errors."""
    from bjsolve.simulation.simulator import build_plan
    from bjsolve.simulation.result import TC_LOW
    rules = Rules(decks=6)
    plans = [build_plan(rules, ramp=r)[0].bet_by_tc
             for r in ("1:1,2:2,3:4", "3:4,2:2,1:1", parse_ramp({1: 1, 2: 2, 3: 4}))]
    assert all(np.array_equal(plans[0], p) for p in plans[1:])
    bets = plans[0]
    assert [bets[tc - TC_LOW] for tc in (-3, 0, 1, 2, 3, 7)] == [1, 1, 1, 2, 4, 4]
    for bad, error in (("1:1,1:2", ValueError), (5, TypeError), ("2:0", ValueError)):
        with pytest.raises(error, match="ramp"):
            bjsolve.simulate(rules, rounds=10, seed=1, ramp=bad)


# ---- a Ramp built by hand is checked as parse_ramp checks it --------------------------------

@pytest.mark.parametrize("points, error, words", [
    ((), ValueError, "at least one"),
    (((0, math.nan),), ValueError, "ramp bet at true count +0 must be 0 (sits the round out) or a number"),
    (((0, -1),), ValueError, "ramp bet at true count +0"),
    (((0, 0), (1, 0)), ValueError, "every bet is 0"),
    (((2, 1), (1, 2)), ValueError, "increasing"),
    (((1, 1), (1, 2)), ValueError, "increasing"),
    (((0.5, 1),), ValueError, "ramp true count must be a whole number"),
    (((5000, 1),), ValueError, "ramp true count must be a whole number -1000..+1000"),
    (((0, 1, 2),), ValueError, "(true count, bet) pairs"),
    ((0, 1), ValueError, "(true count, bet) pairs"),
    ("0:1", TypeError, "points"),
    (None, TypeError, "points"),
])
def test_a_hand_built_ramp_is_checked(points, error, words):
    with pytest.raises(error) as info:
        Ramp(points)
    assert words in str(info.value)


def test_a_hand_built_ramp_checks_wong_in_and_keeps_good_points():
    with pytest.raises(ValueError, match="wong_in must be a whole number"):
        Ramp(((0, 1),), wong_in=math.nan)
    ramp = Ramp([(0, 1), (2, 4)], wong_in=1)
    assert ramp.points == ((0, 1.0), (2, 4.0)) and ramp.wong_in == 1
    assert ramp == parse_ramp("0:1,2:4", wong_in=1)


def test_a_ramp_that_plays_no_round_has_no_advantage_figure():
    """Every round sat out: nothing is bet, so the win per amount bet is undefined (it
    divided by zero)."""
    freq = np.array([0.5, 0.5])
    result = ramp_figures(None, np.zeros(2), freq, np.array([0.01, 0.02]),
                          np.array([1.3, 1.3]), None)
    assert result.rounds_played == 0.0 and result.win_rate == 0.0
    assert math.isnan(result.advantage)
    assert math.isnan(result.summary()["advantage (win / amount bet)"])


def test_parse_ramp_checks_each_field_once(monkeypatch):
    """parse_ramp and the Ramp it builds share one check per field: each true count and
    each bet is judged once (parse_ramp and Ramp.__post_init__ each checked them all)."""
    import bjsolve.risk.ramp as ramp_module
    calls = {"count": 0, "bet": 0}
    true_count, bet = ramp_module._true_count, ramp_module._bet

    def counted_true_count(value, field):
        calls["count"] += 1
        return true_count(value, field)

    def counted_bet(value, tc):
        calls["bet"] += 1
        return bet(value, tc)
    monkeypatch.setattr(ramp_module, "_true_count", counted_true_count)
    monkeypatch.setattr(ramp_module, "_bet", counted_bet)
    got = parse_ramp("3:4,1:1,2:2")
    assert got.points == ((1, 1.0), (2, 2.0), (3, 4.0))
    assert calls == {"count": 3, "bet": 3}
    assert parse_ramp(got, wong_in=2).points == got.points and calls["bet"] == 3
