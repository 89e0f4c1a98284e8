"""Regression tests for legal inputs that used to end in an internal error or a silently
wrong number (issue 9): every legal shoe gives an answer, and the answer is consistent.

Expected values come from identities (a dealer who surely holds a natural takes one unit;
the round's EV is the weighted sum over dealer cards; a chart cannot beat optimal play; a
numpy scalar means the same number as the Python one) or from the pure-Python reference.
"""
from __future__ import annotations

import ast
import math
import pathlib
import pickle
import warnings

import numpy as np
import pytest

import bjsolve
from bjsolve import Rules, Shoe, solve
from bjsolve._reference import ReferenceSolver
from bjsolve.model.rules import payout_label
from bjsolve.exact.strategy import StrategyChart
from bjsolve.exact.tables import TABLE_NAMES, build_table

TOL = 1e-12
COLUMNS = "23456789TA"


def quiet_solve(rules, shoe=None, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # tiny shoes warn that they may run out
        return solve(rules, shoe=shoe, **kw)


def all_tables(sol):
    out = {}
    for name in TABLE_NAMES:
        if name == "insurance" and (sol.rules.hole_card == "exposed" or 1 not in sol.ev_by_upcard):
            continue
        out[name] = build_table(name, sol.rules, sol.shoe, lambda: sol)
    return out


def assert_consistent(sol):
    """The properties every solve must have, whatever the shoe."""
    weights = sol.deal.weights
    assert math.isclose(sum(weights.values()), 1.0, abs_tol=1e-12)
    assert float(sol.expected_value) == pytest.approx(
        sum(weights[k] * v for k, v in sol.ev_by_dealer.items()), abs=TOL)
    for name, table in all_tables(sol).items():
        if table.values.dtype != object:
            assert not np.isinf(table.values).any(), name
            if name == "initial":
                assert table.values.sum() == pytest.approx(1.0, abs=1e-12)
                assert (table.values >= 0).all()
    chart_ev = sol.evaluate(sol.strategy)
    assert chart_ev <= sol.expected_value + 1e-12


# ---- issue 9 item 2: the hole card must complete a natural -----------------------------

def test_values_given_no_blackjack_are_undefined_when_the_dealer_surely_has_one():
    # one ace and sixteen tens: with the ace up, the hole card is surely a ten
    sol = quiet_solve(Rules(decks=1), Shoe([1, 0, 0, 0, 0, 0, 0, 0, 0, 16]))
    ev = sol.hand_ev("TT", "A")
    assert ev.given_no_blackjack is False  # reported unconditioned, and says so
    # the dealer's natural takes exactly the original bet, whatever the player does
    assert dict(ev) == {"stand": -1.0, "hit": -1.0, "double": -1.0, "split": -1.0}
    with pytest.raises(ValueError, match="given_no_blackjack"):
        sol.hand_ev("TT", "A", given_no_blackjack=True)
    assert_consistent(sol)


# ---- item 3: infinite shoe with a zero proportion --------------------------------------

@pytest.mark.parametrize("missing", [1, 3, 10])
def test_infinite_shoe_with_a_rank_at_zero(missing):
    props = [4] * 9 + [16]
    props[missing - 1] = 0
    sol = solve(Rules(decks=math.inf), shoe=Shoe.infinite(props))
    assert missing not in sol.ev_by_upcard  # an upcard it cannot deal is not listed
    assert_consistent(sol)


# ---- item 6: the chart of a depleted shoe is playable on that shoe ---------------------

@pytest.mark.parametrize("removed", ["2222", "333", "55", "22223333", "99998888"])
def test_chart_of_a_depleted_shoe_plays_on_that_shoe(removed):
    sol = solve(Rules(decks=1), shoe=Shoe.decks(1).remove(removed))
    assert sol.evaluate(sol.strategy) <= sol.expected_value + 1e-12


# ---- item 8: fractional shoes ------------------------------------------------------------

@pytest.mark.parametrize("counts, hole_card", [
    ([4.5, 4, 4, 4, 4, 4, 4, 4, 4, 16.3], "peek"),
    ([0.5, 4, 4, 4, 4, 4, 4, 4, 4, 16.3], "peek"),        # less than one ace
    ([1.5, 4, 4, 4, 2.5, 4, 4, 4, 4, 16.3], "exposed"),   # less than two of a pair
])
def test_fractional_shoes_solve_chart_and_tabulate(counts, hole_card):
    sol = quiet_solve(Rules(decks=1, hole_card=hole_card), Shoe.fractional(counts))
    assert_consistent(sol)


def test_fractional_shoe_with_whole_counts_is_the_shoe():
    counts = [3, 4, 4, 3, 4, 4, 4, 4, 4, 15]
    a = solve(Rules(decks=1), shoe=Shoe.fractional(counts))
    b = solve(Rules(decks=1), shoe=Shoe(counts))
    assert float(a.expected_value) == pytest.approx(float(b.expected_value), abs=1e-14)
    assert a.strategy.rows == b.strategy.rows


# ---- item 9: narrow numpy dtypes ----------------------------------------------------------

@pytest.mark.parametrize("dtype, values", [
    (np.int8, [100] * 9 + [120]),          # their sum overflows int8
    (np.float16, [60000] * 10),            # their sum overflows float16
    (np.uint8, [4] * 9 + [16]),
])
def test_narrow_numpy_counts_mean_the_same_numbers(dtype, values):
    arr = np.array(values, dtype=dtype)
    plain = [float(v) for v in arr]
    got = solve(Rules(decks=math.inf), shoe=Shoe.infinite(arr)).expected_value
    want = solve(Rules(decks=math.inf), shoe=Shoe.infinite(plain)).expected_value
    assert float(got) == float(want) != 0.0
    frac = Shoe.fractional(arr)
    assert frac.size == sum(plain)


# ---- item 10: argument types and message length ----------------------------------------

def test_insurance_takes_one_card_as_hand_ev_does():
    sol = solve(Rules(decks=1))
    assert sol.insurance_ev(10) == sol.insurance_ev((10,)) == sol.insurance_ev("T")
    # 16 tens among 50 unseen cards: 3 * 15/50 - 1 with a ten out
    assert float(sol.insurance_ev(10)) == pytest.approx(3 * 15 / 50 - 1, abs=TOL)


@pytest.mark.parametrize("call", [
    lambda sol: sol.hand_ev("X" * 100_000, 2),
    lambda sol: sol.hand_ev([1] * 100_000, 2),
    lambda sol: sol.hand_ev("TT", "Z" * 100_000),
    lambda sol: solve(Rules(), split="C" * 100_000),
    lambda sol: Rules(surrender="x" * 100_000),
    lambda sol: Rules(max_split_hands=10 ** 5000),
    lambda sol: Shoe([10 ** 5000] * 10),
    lambda sol: sol.evaluate(lambda c, d, a: "q" * 100_000),
])
def test_error_messages_stay_short(call):
    sol = solve(Rules(decks=1))
    with pytest.raises((ValueError, TypeError)) as info:
        call(sol)
    assert len(str(info.value)) < 400


# ---- item 12: a user chart that splits where no split is allowed -------------------------

def _chart(row16):
    rows = {str(t): {c: "H" if t < 17 else "S" for c in COLUMNS} for t in range(4, 21)}
    rows.update({f"A{k}": {c: "H" if k < 7 else "S" for c in COLUMNS} for k in range(2, 10)})
    rows.update({p: {c: "P" for c in COLUMNS} for p in ("22", "33", "44", "55", "66", "77",
                                                        "88", "99", "TT", "AA")})
    rows["16"] = {c: row16 for c in COLUMNS}
    return StrategyChart(rows)


@pytest.mark.parametrize("code", ["P", "Rp", "Ph"])
def test_split_code_on_a_row_that_cannot_split_means_hit(code):
    sol = solve(Rules(decks=6, max_split_hands=1))
    assert sol.evaluate(_chart(code)) == sol.evaluate(_chart("H"))


# ---- item 16: runs of cards, pickling, tiny payouts --------------------------------------

def test_shoe_remove_and_add_accept_runs():
    full = Shoe.decks(1)
    assert full.remove("AT") == full.remove("A", "T") == full.remove((1, 10))
    assert full.remove("AT").add("TA") == full


def test_solution_pickles_and_gives_the_same_values():
    sol = solve(Rules(decks=1, surrender="late"), split="CDP1")
    chart = sol.strategy
    back = pickle.loads(pickle.dumps(sol))
    assert back.expected_value == sol.expected_value
    assert back.expected_value.split == "CDP1"
    assert back.ev_by_upcard == sol.ev_by_upcard
    assert back.strategy.rows == chart.rows
    for cards, up in [("TT", 6), ("88", "T"), ("A7", 9), ("5623", 10), ("A5", "A")]:
        assert dict(back.hand_ev(cards, up)) == dict(sol.hand_ev(cards, up))
    fresh = pickle.loads(pickle.dumps(solve(Rules(decks=2))))
    assert fresh.evaluate(fresh.strategy) <= fresh.expected_value


@pytest.mark.parametrize("payout, label", [(1.5, "3:2"), (1.2, "6:5"), (1.0, "1:1"),
                                           (0.001, "0.001:1"), (1e-7, "1e-07:1"),
                                           (0.123456789, "0.123456789:1")])
def test_payout_labels_never_round_to_zero(payout, label):
    # simple ratios as x:y, anything else in full: never "0:1", and the summary reads back
    assert payout_label(payout) == label
    assert label in Rules(blackjack_payout=payout).describe()
    assert Rules.parse(label).blackjack_payout == payout


# ---- what a natural against a natural does when the dealer wins ties ----------------------

def test_natural_tie_rule_field():
    assert Rules().natural_tie == "lose"
    with pytest.raises(ValueError, match="natural_tie"):
        Rules(natural_tie="draw")
    assert "tied naturals win" in Rules(dealer_wins_ties=True, natural_tie="win").describe()
    # without dealer_wins_ties tied naturals push whatever the field says
    a = solve(Rules(decks=1, natural_tie="win")).expected_value
    b = solve(Rules(decks=1)).expected_value
    assert a == b


@pytest.mark.parametrize("tie", ["lose", "push", "win"])
def test_a_natural_given_no_dealer_natural_is_paid_the_payout(tie):
    rules = Rules(decks=1, dealer_wins_ties=True, natural_tie=tie, blackjack_payout=1.2)
    sol = solve(rules)
    for up in (10, 1):
        assert sol.hand_ev("AT", up)["stand"] == pytest.approx(1.2, abs=TOL)
    # unconditioned against an ace: 1.2 (1 - beta) + t beta, beta = 15/49 tens left
    beta = 15 / 49
    t = {"lose": -1.0, "push": 0.0, "win": 1.2}[tie]
    got = sol.hand_ev("AT", "A", given_no_blackjack=False)["stand"]
    assert got == pytest.approx(1.2 * (1 - beta) + t * beta, abs=TOL)


def test_double_exposure_preset_matches_the_reference():
    rules = Rules.preset("double-exposure")
    assert (rules.hole_card, rules.dealer_wins_ties, rules.natural_tie,
            rules.blackjack_payout) == ("exposed", True, "win", 1.0)
    counts = (2, 2, 2, 1, 2, 1, 2, 1, 2, 6)
    sol = quiet_solve(rules.replace(decks=1, max_split_hands=2), Shoe(counts))
    ref = ReferenceSolver(counts, hole_card="exposed", dealer_wins_ties=True, natural_tie="win",
                          blackjack_payout=1, double="9-11", hit_soft_17=True,
                          max_split_hands=2, double_after_split=True)
    for key in [(1, 10), (6, 10), (2, 9)]:
        assert float(sol.ev_by_dealer[key]) == pytest.approx(float(ref.ev_given_dealer(key)),
                                                             abs=TOL)


# ---- issue 10: one deal per solve, and no import cycle -------------------------------------

def test_strategy_module_does_not_import_the_solver():
    source = pathlib.Path(bjsolve.exact.strategy.__file__).read_text()
    imported = {node.module for node in ast.walk(ast.parse(source))
                if isinstance(node, ast.ImportFrom)}
    assert "solve" not in imported and ".solve" not in imported


def test_a_solve_works_out_the_deal_once(monkeypatch):
    from bjsolve.model import deal as deal_module
    calls = []
    original = deal_module.Deal.__init__

    def counting_init(self, *args, **kwargs):
        calls.append(1)
        original(self, *args, **kwargs)

    monkeypatch.setattr(deal_module.Deal, "__init__", counting_init)
    monkeypatch.setattr(deal_module, "dealer_keys", None)  # nothing recomputes the keys
    sol = solve(Rules(decks=2, hole_card="exposed", max_split_hands=2))
    sol.evaluate(lambda cards, dealer, allowed: "stand")
    assert len(calls) == 1
