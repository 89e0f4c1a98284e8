"""BB+1's round law with split hands (``src/bjcore/game_law.h``: ``combine`` and
``bb1_settle_natural``; docs/games.md, "BB+1 with split hands"; ``outcome_distribution``).

With no hole card, BB+1 takes from a split box its busted (and rescued) stakes and one unit
in all when any hand still stands at the dealer's natural.  The law combines a split's hands
as independent given the dealer's outcome, as for every game, keeping whether any hand
stands; the chance that none does is set to the value walk's exact one (game_bb1.h).

* infinite shoe (the hands independent): the law of a split round is exactly the brute
  force's, ``_reference_games.brute_force_game_round(law=True, natural_loss="bb+1")`` in
  Fractions, every card dealt (1e-12): two and three hands, the rescue, the charlie and the
  surrender at any time (a natural voids it: the hand stands), Pontoon's 21 paid at once;
* finite shoe: a split into two hands is the brute force's law (1e-12: the joint law of
  both hands and the dealer, game_two_hands.h, which knows whether either hand stands);
  a split that may make three hands keeps the mean and each dealer outcome's chance of the
  brute force (1e-12), the hands' cards taken from one another left out of the rest;
* ``outcome_distribution``'s mean is the solve's EV, 2 to 4 hands (1e-12);
* slow: the compiled simulator's mean and SD of a BB+1 game with splits, within 4 SE.
"""
import math
import warnings

import pytest

import bjsolve
from bjsolve import Rules, Shoe, solve
from bjsolve._reference_games import brute_force_game_round
from bjsolve.exact.kernel_rules import SPLIT_CLASSES, kernel_rules
from test_game_law import _engine_law, _gap, _moments
from test_natural_loss_law import check_mean_is_the_solve_ev, split_round_play

from bjcore import GameEngine

EXACT = 1e-12
LABEL = {17: 0, 18: 1, 19: 2, 20: 3, 21: 4, "natural": 5, 22: 6, "bust": 7}
STANDARD = (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)
ENHC_BB1 = dict(decks=1, hole_card="enhc", natural_loss="bb+1")


def _brute_bb1_law(rules, counts, upcard, pair, infinite=False):
    """The law {(dealer outcome, result): chance} of the round that splits ``pair``
    against ``upcard`` (resplitting while it may, as the engine's split model does), every
    card dealt, BB+1 settled on the whole box; the split hands play the reference's
    decisions under OBBO (the engine values each hand with OBBO's charge of one unit, so
    it plays them too: docs/games.md)."""
    ref, rest, brute_kw, policy = split_round_play(rules, counts, upcard, pair, infinite)
    brute_kw.update(natural_tie_value=ref._t, natural_loss="bb+1")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        law = brute_force_game_round(rest, upcard, (pair, pair), policy, law=True,
                                     infinite=infinite,
                                     sevens=None if infinite else counts[6], **brute_kw)
    out: dict = {}
    for (t, v), p in law.chances.items():
        key = (LABEL[t], float(v))
        out[key] = out.get(key, 0.0) + float(p)
    return out


def _splits(rules, counts, upcard, pair, infinite=False):
    """Whether the engine's best play of the pair is to split it (the law follows it)."""
    weights = [c / sum(counts) for c in counts] if infinite else [float(c) for c in counts]
    engine = GameEngine(weights, upcard, kernel_rules(rules, SPLIT_CLASSES["CDP1"]), infinite)
    hand = [0] * 10
    hand[pair - 1] = 2
    return engine.split_ev(pair)[0] > max(engine.hand_values(hand)[:3])


def _natural_row(law):
    return {v: p for (t, v), p in law.items() if t == LABEL["natural"]}


NO_DAS = dict(ENHC_BB1, double_after_split=False)   # (fewer rounds to deal: a fast case)


@pytest.mark.parametrize("rules, upcard, pair", [
    # a charlie stands at the natural; a surrender at any time is voided by it (stands)
    (Rules(**NO_DAS, max_split_hands=2, charlie=5, surrender="late", surrender_any_time=True),
     10, 8),
    pytest.param(Rules(**ENHC_BB1, max_split_hands=2), 10, 8, marks=pytest.mark.slow),
    pytest.param(Rules(**NO_DAS, max_split_hands=3), 10, 8, marks=pytest.mark.slow),
    # the rescue (settled at once: not standing), a redouble
    pytest.param(Rules(**ENHC_BB1, max_split_hands=2, redoubles=1, double_rescue=True), 10, 8,
                 marks=pytest.mark.slow),
    # Pontoon: split aces' 21s paid at once, before the natural (not standing)
    pytest.param(Rules.preset("pontoon", decks=1, natural_loss="bb+1", max_split_hands=2),
                 10, 1, marks=pytest.mark.slow),
], ids=["charlie-lsa-8s-T", "2-hands-8s-T", "3-hands-8s-T", "rescue-8s-T", "pontoon-As-T"])
def test_a_split_on_the_infinite_shoe_is_the_brute_force(rules, upcard, pair):
    assert _splits(rules, STANDARD, upcard, pair, infinite=True)
    brute = _brute_bb1_law(rules, STANDARD, upcard, pair, infinite=True)
    engine = _engine_law(rules, STANDARD, upcard, (pair, pair), split="CDP1", infinite=True)
    assert _gap(brute, engine) < EXACT
    # (the natural's row differs from OBBO's: the unit is the box's)
    obbo = _engine_law(rules.replace(natural_loss="obbo"), STANDARD, upcard, (pair, pair),
                       split="CDP1", infinite=True)
    assert _gap(_natural_row(obbo), _natural_row(engine)) > 1e-4


SHOE_S = (2, 1, 1, 1, 1, 1, 1, 2, 1, 4)   # 15 cards
SHOE_T = (1, 1, 1, 1, 1, 1, 1, 3, 1, 3)   # 14 cards (three 8s: a resplit)


@pytest.mark.parametrize("rules, counts, upcard, pair", [
    (Rules(**ENHC_BB1, max_split_hands=2), SHOE_S, 10, 8),
    pytest.param(Rules(**ENHC_BB1, max_split_hands=3), SHOE_T, 10, 8, marks=pytest.mark.slow),
    pytest.param(Rules(**NO_DAS, max_split_hands=2, charlie=5, surrender="late",
                       surrender_any_time=True), SHOE_S, 10, 8, marks=pytest.mark.slow),
    pytest.param(Rules(**ENHC_BB1, max_split_hands=2, redoubles=1, double_rescue=True),
                 SHOE_S, 10, 8, marks=pytest.mark.slow),
], ids=["2-hands-15-cards", "3-hands-14-cards", "charlie-lsa-15-cards", "rescue-15-cards"])
def test_a_split_on_a_finite_shoe_keeps_the_mean_and_the_dealers_outcomes(rules, counts,
                                                                           upcard, pair):
    assert _splits(rules, counts, upcard, pair)
    brute = _brute_bb1_law(rules, counts, upcard, pair)
    engine = _engine_law(rules, counts, upcard, (pair, pair), split="CDP1")
    assert _moments(engine)[0] == pytest.approx(_moments(brute)[0], abs=EXACT)
    if rules.max_split_hands == 2:   # (exact)
        assert _gap(brute, engine) < EXACT
    for t in range(8):
        assert (sum(p for (s, _), p in engine.items() if s == t)
                == pytest.approx(sum(p for (s, _), p in brute.items() if s == t), abs=EXACT))
    assert sum(engine.values()) == pytest.approx(1.0, abs=EXACT)
    assert min(engine.values()) >= 0.0


@pytest.mark.parametrize("rules, shoe", [
    (Rules(decks=1, hole_card="enhc", natural_loss="bb+1", max_split_hands=2), None),
    (Rules(decks=1, hole_card="enhc", natural_loss="bb+1", max_split_hands=3,
           redoubles=1, double_rescue=True), None),
    (Rules.preset("pontoon", decks=2, natural_loss="bb+1", max_split_hands=2), None),
    (Rules(hole_card="enhc", natural_loss="bb+1", max_split_hands=4), "infinite"),
    pytest.param(Rules(decks=1, hole_card="enhc", natural_loss="bb+1", max_split_hands=4),
                 None, marks=pytest.mark.slow),
], ids=["1d-2-hands", "1d-3-hands-rescue", "pontoon-2d", "infinite-4-hands", "1d-4-hands"])
def test_the_mean_is_the_solve_ev(rules, shoe):
    dist = check_mean_is_the_solve_ev(rules, shoe)
    obbo = solve(rules.replace(natural_loss="obbo"), shoe=Shoe.infinite() if shoe else None,
                 threads=1).outcome_distribution(threads=1)
    assert dist.mean > obbo.mean   # (the standing split hands' units back)


def test_the_mean_of_a_chart_is_its_evaluated_ev():
    sol = solve(Rules(decks=1, hole_card="enhc", natural_loss="bb+1", max_split_hands=3),
                threads=1)
    chart = sol.strategy
    dist = sol.outcome_distribution(chart, threads=1)
    assert dist.mean == pytest.approx(float(sol.evaluate(chart)), abs=EXACT)


@pytest.mark.slow
def test_the_simulated_mean_and_sd():
    """The compiled simulator settles BB+1 on the whole box (docs/games.md): its mean and
    SD of a chart's rounds, a fresh two-deck shoe every round, within 4 standard errors of
    the law's (whose hands are combined given the dealer's outcome)."""
    rules = Rules(decks=2, hole_card="enhc", natural_loss="bb+1", max_split_hands=3)
    sol = solve(rules)
    chart = sol.strategy
    dist = sol.outcome_distribution(chart)
    rounds = 4_000_000
    res = bjsolve.simulate(rules, rounds=rounds, seed=11, strategy=chart,
                           penetration="every-round")
    # the standard error of a sample SD: sd * sqrt((kurtosis - 1) / (4 n))
    x = dist.values - dist.mean
    kurtosis = float(dist.probabilities @ x ** 4) / dist.variance ** 2
    se_sd = dist.sd * math.sqrt((kurtosis - 1.0) / (4.0 * rounds))
    assert abs(res.sd - dist.sd) < 4 * se_sd, (res.sd, dist.sd, se_sd)
    assert abs(res.mean - dist.mean) < 4 * res.se, (res.mean, dist.mean, res.se)
