"""The double-down rescue after a redouble (``Rules.rescue_after_redouble``, kernel key
``rescue_after_redouble``): by default a hand that has redoubled can no longer be rescued;
with the rule it can, still for the original bet.

What pins the numbers: the pure-Python reference (``bjsolve._reference_games``, exact
fractions; its recursion, and its brute force over every card of a round) on a 13-card
shoe for both readings; the rule model (summary code, validation, the classic kernels
refusing the key); monotonicity (an extra option never lowers the value); the after-double
chart's printed edge is the value of playing it.  That the rule set reproduces the values
of the engine before the rule existed is tested in test_game_engine.py (its brute force,
"rescue after redouble") and was checked bit for bit on Spanish 21 when the rule came in.
"""
import warnings

import pytest

import bjsolve
from bjcore import UpcardEngine, check_rules
from bjsolve import Rules, Shoe, solve
from bjsolve._reference_games import (GameReferenceSolver, brute_force_game_round,
                                      game_policy, reference_kwargs)
from bjsolve.exact.after_double_table import AfterDoubleTotals
from bjsolve.exact.after_double_values import rescue_offered
from bjsolve.exact.kernel_rules import kernel_rules

EXACT = 1e-12
# 13 cards: every rank, few tens, room for a double and two redoubles
SHOE = (1, 1, 1, 1, 2, 2, 2, 1, 1, 1)
BASE = dict(decks=1, redoubles=2, double_rescue=True, double_any_cards=True,
            surrender="late")


def _rules(after):
    return Rules(rescue_after_redouble=after, **BASE)


# ---- the rule model ------------------------------------------------------------------

def test_the_rule_is_off_by_default_and_in_the_spanish_preset():
    assert Rules().rescue_after_redouble is False
    assert Rules.preset("spanish-21").rescue_after_redouble is False
    assert rescue_offered(_rules(False), 1) and not rescue_offered(_rules(False), 2)
    assert rescue_offered(_rules(True), 3)


def test_the_summary_code_reads_back():
    rules = _rules(True)
    text = rules.describe()
    assert "RSCRD" in text.split()
    assert Rules.parse(text) == rules
    assert "RSCRD" not in _rules(False).describe().split()


@pytest.mark.parametrize("fields", [dict(rescue_after_redouble=True),
                                    dict(rescue_after_redouble=True, redoubles=2),
                                    dict(rescue_after_redouble=True, double_rescue=True)])
def test_the_rule_needs_the_rescue_and_redoubles(fields):
    with pytest.raises(ValueError, match="rescue_after_redouble"):
        Rules(**fields)


def test_the_kernel_key_is_decoded_checked_and_refused_by_classic_kernels():
    keys = kernel_rules(_rules(True), 0)
    assert keys["rescue_after_redouble"] == 1
    assert "rescue_after_redouble" not in kernel_rules(_rules(False), 0)
    assert check_rules(keys)["rescue_after_redouble"] == 1
    with pytest.raises(ValueError, match="rescue_after_redouble"):
        check_rules(dict(kernel_rules(Rules(), 0), rescue_after_redouble=1))
    with pytest.raises(ValueError, match="rescue_after_redouble"):
        check_rules(dict(keys, rescue_after_redouble=2))
    classic = dict(kernel_rules(Rules(), 0), double_rescue=1, redoubles=1,
                   rescue_after_redouble=1)
    with pytest.raises(ValueError, match="rules of the games|rule of the games"):
        UpcardEngine([4] * 9 + [16], 6, classic)


# ---- the engine against the reference ----------------------------------------------

def _solve(rules):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)   # a tiny shoe may run out
        return solve(rules, shoe=Shoe(SHOE), split="CDP", threads=1)


@pytest.fixture(scope="module", params=[False, True], ids=["no-rescue-after", "rescue-after"])
def both(request):
    rules = _rules(request.param)
    ref = GameReferenceSolver(SHOE, split="CDP", **reference_kwargs(rules))
    return rules, _solve(rules), ref


def test_engine_equals_the_reference_on_a_13_card_shoe(both):
    rules, sol, ref = both
    for up in (5, 10):          # the reference's whole round: 4 s per upcard
        assert sol.ev_by_upcard[up] == pytest.approx(float(ref.ev_given_dealer(up)),
                                                     abs=EXACT), up
    for up, cards in ((6, (2, 7)), (5, (3, 6)), (10, (2, 9)), (7, (1, 6)), (4, (5, 5))):
        want = ref.hand_values_unconditioned(cards, up)
        for action, value in sol.hand_ev(cards, up, given_no_blackjack=False).items():
            assert value == pytest.approx(float(want[action]), abs=EXACT), (cards, up, action)


@pytest.mark.parametrize("after", [False, True], ids=["no-rescue-after", "rescue-after"])
def test_split_hands_under_cdz_equal_the_reference(after):
    """CDZ-: a split hand's redouble and rescue are chosen with only its own cards gone,
    in the engine and the reference alike (docs/games.md; tests/test_cdz_split_play.py)."""
    rules = _rules(after)
    ref = GameReferenceSolver(SHOE, split="CDZ-", **reference_kwargs(rules))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        sol = solve(rules, shoe=Shoe(SHOE), split="CDZ-", threads=1)
    for up, cards in ((10, (6, 6)), (10, (7, 7)), (5, (6, 6)), (10, (5, 5))):
        want = ref.hand_values_unconditioned(cards, up)["split"]
        got = sol.hand_ev(cards, up, given_no_blackjack=False)["split"]
        assert got == pytest.approx(float(want), abs=EXACT), (cards, up)


def test_the_reference_recursion_equals_its_brute_force(both):
    # every card of the round dealt, the reference's own choices played
    rules, _, ref = both
    kw = {k: v for k, v in reference_kwargs(rules).items()
          if k not in ("natural_always_wins", "natural_tie")}
    kw["natural_tie_value"] = ref._t
    play = game_policy(ref)
    for up, cards in ((6, (2, 7)), (5, (3, 6))):
        rest = list(SHOE)
        for c in (up,) + cards:
            rest[c - 1] -= 1

        def double_first(hand, dealer, allowed, state, cards=cards):
            # the two cards double; every later choice (redouble, rescue) is the reference's
            if tuple(hand) == cards and state["doubled"] is None:
                return "double"
            return play(hand, dealer, allowed, state)
        brute = brute_force_game_round(rest, up, cards, double_first, sevens=SHOE[6], **kw)
        assert brute == ref.hand_values_unconditioned(cards, up)["double"]


def test_the_rescue_after_a_redouble_is_an_extra_option():
    without, with_ = _solve(_rules(False)), _solve(_rules(True))
    no_rescue = _solve(Rules(**dict(BASE, double_rescue=False)))
    assert no_rescue.expected_value <= without.expected_value <= with_.expected_value
    # and on this shoe it matters
    assert with_.expected_value - without.expected_value > 1e-6


# ---- the after-double chart --------------------------------------------------------

@pytest.fixture(scope="module")
def spanish_inf():
    sol = bjsolve.solve(Rules.preset("spanish-21", decks=float("inf")))
    return sol, AfterDoubleTotals(sol)


def test_no_rescue_in_the_chart_after_a_redouble(spanish_inf):
    _, chart = spanish_inf
    for d in chart.doubles[1:]:
        assert all("rescue" not in cell for row in chart.cells[d].values()
                   for cell in row.values())
        assert all("RS" not in row for row in chart.codes(d))


@pytest.mark.parametrize("more", [{}, dict(rescue_after_redouble=True), dict(hole_card="enhc")],
                         ids=["preset", "rescue-after-redouble", "enhc"])
def test_in_an_infinite_shoe_the_after_double_charts_are_the_optimal_play(more, request):
    # in an infinite shoe a doubled hand's values depend on its total only (a doubled hand
    # gets no bonus), so a chart that prices every choice as the engine does plays the
    # optimum exactly: the basic chart with either after-double chart is worth what the
    # basic chart with the optimal choice after a double is worth (the preset's solve is
    # the module's, spanish_inf)
    if more:
        sol = bjsolve.solve(Rules.preset("spanish-21", decks=float("inf"), **more))
    else:
        sol, _ = request.getfixturevalue("spanish_inf")
    optimal = float(sol.evaluate(sol.strategy))
    for after in (AfterDoubleTotals(sol), "basic"):
        assert float(sol.evaluate(sol.strategy, after_double=after)) == pytest.approx(
            optimal, abs=1e-12)
