"""The law of a round's net result in the games (``bjsolve.exact.game_law``, the game
engine's ``round_law_entries``; docs/risk.md, "The games").

* one round after two given cards, no split: the engine's joint law of (dealer outcome, net
  result) against the card-by-card brute force of ``_reference_games`` in exact Fractions
  (``brute_force_game_round(law=True)``, every card dealt, the suits of a bonus apart), to
  1e-12, for Free Bet, Spanish 21 (redoubles, rescue, bonuses, 21 always wins), a dealer
  22 that pushes and a no-hole-card game;
* a split round: exact on an infinite shoe (the brute force with independent draws); on a
  finite shoe a split into two hands is exact too (more cases: tests/test_game_two_hands.py);
* the mean of ``outcome_distribution`` is the solve's (or the chart's) EV, to 1e-12;
* the compiled simulator's SD of 6-deck Free Bet agrees with the law's.
"""
import math
import warnings

import bjsolve
import numpy as np
import pytest
from bjsolve import Rules, Shoe, solve
from bjsolve._reference_games import (
    GameReferenceSolver,
    brute_force_game_round,
    game_policy,
    reference_kwargs,
)
from bjsolve.exact.distribution import game_round_law
from bjsolve.exact.game_law import GAME_DEALER_OUTCOMES, law_arrays
from bjsolve.exact.kernel_rules import SPLIT_CLASSES, kernel_rules
from bjsolve.exact.policy import policy_engines

from bjcore import GameEngine

EXACT = 1e-12
LABEL = {17: 0, 18: 1, 19: 2, 20: 3, 21: 4, "natural": 5, 22: 6, "bust": 7}
SHOE_A = (2, 1, 1, 2, 1, 2, 3, 2, 1, 3)
SHOE_B = (1, 2, 1, 1, 2, 2, 3, 2, 2, 2)
SHOE_C = (2, 2, 2, 2, 2, 3, 3, 3, 2, 4)
STANDARD = (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)


def _brute_law(rules, counts, upcard, cards, split="CDZ-", infinite=False):
    kw = reference_kwargs(rules)
    ref = GameReferenceSolver(None if infinite else counts, split=split, **kw)
    rest = list(counts)
    if not infinite:
        for c in (upcard,) + cards:
            rest[c - 1] -= 1
    brute_kw = {k: v for k, v in kw.items() if k not in ("natural_always_wins", "natural_tie")}
    brute_kw["natural_tie_value"] = ref._t
    law = brute_force_game_round(rest, upcard, cards, game_policy(ref), law=True,
                                 infinite=infinite, sevens=None if infinite else counts[6],
                                 **brute_kw)
    out: dict = {}
    for (t, v), p in law.chances.items():
        key = (LABEL[t], float(v))
        out[key] = out.get(key, 0.0) + float(p)
    return out, ref.best_action(cards, upcard)


def _engine_law(rules, counts, upcard, cards, split="CDZ-", infinite=False):
    weights = [c / sum(counts) for c in counts] if infinite else [float(c) for c in counts]
    engine = GameEngine(weights, upcard, kernel_rules(rules, SPLIT_CLASSES[split]), infinite)
    values, law = law_arrays(engine.round_law_entries(*cards))
    return {(t, float(v)): float(law[t, i]) for t in range(law.shape[0])
            for i, v in enumerate(values) if law[t, i] != 0.0}


def _gap(a, b):
    return max(abs(a.get(k, 0.0) - b.get(k, 0.0)) for k in set(a) | set(b))


def _moments(law):
    m = sum(p * v for (_, v), p in law.items())
    return m, sum(p * v * v for (_, v), p in law.items()) - m * m


FREE_BET = Rules.preset("free-bet", decks=1)
SPANISH = Rules.preset("spanish-21", decks=1)
NO_SPLIT = [
    (FREE_BET, SHOE_A, 10, (4, 5)),        # a free double
    (FREE_BET, SHOE_A, 1, (2, 9)),
    (FREE_BET, SHOE_A, 10, (1, 10)),       # a natural
    (SPANISH, SHOE_B, 6, (2, 3)),          # doubles any cards, redoubles, rescue
    (SPANISH, SHOE_B, 5, (6, 7)),          # 6-7-8 by suits, 21 always wins
    (SPANISH, SHOE_B, 7, (7, 8)),
    (Rules(decks=1, dealer_22="push"), SHOE_A, 6, (3, 9)),
    (Rules(decks=1, hole_card="enhc", redoubles=2, double_rescue=True, surrender="late"),
     SHOE_C, 10, (4, 6)),
]


@pytest.mark.parametrize("rules, counts, upcard, cards", NO_SPLIT,
                         ids=[f"{r.describe()[:12]}-{u}-{c}" for r, _, u, c in NO_SPLIT])
def test_one_round_without_a_split_is_the_brute_force(rules, counts, upcard, cards):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        brute, action = _brute_law(rules, counts, upcard, cards)
    assert action != "split"
    engine = _engine_law(rules, counts, upcard, cards)
    assert _gap(brute, engine) < EXACT
    assert sum(engine.values()) == pytest.approx(1.0, abs=EXACT)


def test_a_split_on_the_infinite_shoe_is_exact():
    rules = Rules.preset("free-bet", max_split_hands=2)
    brute, action = _brute_law(rules, STANDARD, 6, (8, 8), split="CDP1", infinite=True)
    assert action == "split"
    engine = _engine_law(rules, STANDARD, 6, (8, 8), split="CDP1", infinite=True)
    assert _gap(brute, engine) < EXACT


SPLIT_SHOES = [
    # (the former combination of the hands given the dealer's outcome: variance relative
    # error, largest error of a chance, measured)
    (1, 1, 1, 1, 1, 1, 2, 2, 1, 2),   # 13 cards (1.4 %, 0.0063)
    pytest.param((1, 1, 1, 1, 1, 2, 1, 3, 1, 2), marks=pytest.mark.slow),   # 14 (1.1 %, 0.0060)
    pytest.param(SHOE_A, marks=pytest.mark.slow),   # 16 cards (0.8 %, 0.0028)
]


@pytest.mark.parametrize("counts", SPLIT_SHOES)
def test_a_two_hand_split_on_a_finite_shoe_is_the_brute_force(counts):
    # a free split into two hands: the joint law of both hands and the dealer
    rules = Rules.preset("free-bet", decks=1, max_split_hands=2)
    brute, action = _brute_law(rules, counts, 6, (8, 8), split="CDP1")
    assert action == "split"
    engine = _engine_law(rules, counts, 6, (8, 8), split="CDP1")
    assert _gap(brute, engine) < EXACT
    assert sum(engine.values()) == pytest.approx(1.0, abs=EXACT)
    assert _moments(engine)[1] == pytest.approx(_moments(brute)[1], abs=EXACT)


MEAN_CASES = [
    ("free-bet", dict(decks=1), None),
    ("free-bet", dict(decks=1, max_split_hands=4, hole_card="enhc"), None),
    ("free-bet", dict(), "infinite"),
    ("spanish-21", dict(decks=1), None),
    ("spanish-21", dict(decks=1, redoubles=1), None),
    # CDZ- split hands' rescue picked in the generic context by the law as by the solve
    ("pontoon", dict(decks=1), None),
]


@pytest.mark.parametrize("name, change, shoe", MEAN_CASES)
def test_the_mean_is_the_solve_ev(name, change, shoe):
    rules = Rules.preset(name, **change)
    sol = solve(rules, shoe=Shoe.infinite() if shoe == "infinite" else None, threads=1)
    dist = sol.outcome_distribution(threads=1)
    assert dist.mean == pytest.approx(float(sol.expected_value), abs=EXACT)
    assert float(dist.probabilities.sum()) == pytest.approx(1.0, abs=EXACT)
    assert dist.exact == (shoe == "infinite")


@pytest.mark.slow
def test_the_mean_of_a_chart_is_its_evaluated_ev():
    rules = Rules.preset("spanish-21", decks=2)
    sol = solve(rules, threads=1)
    chart = sol.strategy
    for after in (None, "basic"):
        dist = sol.outcome_distribution(chart, after_double=after, threads=1)
        assert dist.mean == pytest.approx(float(sol.evaluate(chart, after_double=after)),
                                          abs=EXACT)


def test_game_round_law_for_the_counted_game():
    # a chart frozen in a policy engine (the after-double choice its own best): the law's
    # mean is the engine's EV of the chart
    rules = Rules.preset("spanish-21", decks=1)
    shoe = rules.shoe()
    sol = solve(rules, shoe=shoe, threads=1)
    engines = policy_engines(rules, shoe, sol.strategy)
    values, law = game_round_law(rules, shoe, 7, engines[7])
    assert values.ndim == 1 and np.all(np.diff(values) > 0)
    assert law.shape == (len(GAME_DEALER_OUTCOMES), len(values))
    assert float(law.sum()) == pytest.approx(1.0, abs=EXACT)
    chart_ev = engines[7].round_ev()
    assert float(law.sum(axis=0) @ values) == pytest.approx(chart_ev, abs=EXACT)
    values, law = game_round_law(rules, shoe, 7, None)
    assert float(law.sum(axis=0) @ values) == pytest.approx(sol._engines[7].round_ev(),
                                                            abs=EXACT)
    # a fractional shoe (the counted game's true counts): the mean is the EV engine's
    counts = list(shoe.counts)
    counts[9] -= 5.5
    counts[4] -= 1.25
    frac = Shoe.fractional(counts)
    values, law = game_round_law(rules, frac, 7, None)
    assert float(law.sum()) == pytest.approx(1.0, abs=EXACT)
    assert float(law.sum(axis=0) @ values) == pytest.approx(
        solve(rules, shoe=frac, threads=1)._engines[7].round_ev(), abs=EXACT)
    with pytest.raises(TypeError, match="engine must be a policy GameEngine"):
        game_round_law(rules, shoe, 7, "chart")


def test_the_simulated_sd_of_free_bet():
    rules = Rules.preset("free-bet")
    sol = solve(rules)
    chart = sol.strategy
    dist = sol.outcome_distribution(chart)
    rounds = 1_000_000
    res = bjsolve.simulate(rules, rounds=rounds, seed=31, strategy=chart, threads=1)
    # the standard error of a sample SD: sd * sqrt((kurtosis - 1) / (4 n))
    x = dist.values - dist.mean
    kurtosis = float(dist.probabilities @ x ** 4) / dist.variance ** 2
    se_sd = dist.sd * math.sqrt((kurtosis - 1.0) / (4.0 * rounds))
    assert abs(res.sd - dist.sd) < 4 * se_sd, (res.sd, dist.sd, se_sd)
    assert abs(res.mean - dist.mean) < 4 * res.se


def _classic_game_law_pmf(sol):
    """The game engine's law of a classic rule set (no game key), over the solve's deal."""
    params = kernel_rules(sol.rules, SPLIT_CLASSES[sol.split])
    pmf: dict = {}
    for key in sol.deal.playable_keys:
        engine = GameEngine(sol.shoe.kernel_weights(), key, params, sol.shoe.is_infinite)
        values, law = law_arrays(engine.round_law_entries())
        for v, p in zip(values, law.sum(axis=0)):
            pmf[round(float(v), 9)] = pmf.get(round(float(v), 9), 0.0) + sol.deal.weights[key] * p
    return pmf


@pytest.mark.parametrize("hands", [1, 3])
def test_the_classic_game_through_the_game_law_is_the_classic_kernels(hands):
    # two kernels written apart: the classic outcome kernel (bjcore._distribution) and the
    # game law on the classic game.  Without splits both are exact: equal.  With splits
    # to three hands both combine those hands given the dealer's outcome, equal up to how
    # each treats the dealer's law of a split hand that overdraws the pair's cards
    # (measured 7e-8), and both have the aces' two-hand split exact; the exact variance
    # is within the combination's error (1e-4 in 1D).  (Two hands: test_game_two_hands.)
    sol = solve(Rules(decks=1, max_split_hands=hands), threads=1)
    classic = sol.outcome_distribution(threads=1)
    pmf = _classic_game_law_pmf(sol)
    gap = max(abs(pmf.get(k, 0.0) - classic.pmf.get(k, 0.0)) for k in set(pmf) | set(classic.pmf))
    assert gap < (1e-13 if hands == 1 else 1e-6)
    mean = sum(v * p for v, p in pmf.items())
    sd = math.sqrt(sum(v * v * p for v, p in pmf.items()) - mean ** 2)
    assert mean == pytest.approx(float(sol.expected_value), abs=EXACT)
    exact = sol.outcome_distribution(threads=1)
    assert abs(sd - exact.sd) < (1e-12 if hands == 1 else 3e-4)


@pytest.mark.parametrize("name, other", [("free-bet", None), ("spanish-21", None),
                                         ("blackjack-switch", (5, 10))])
def test_start_laws_in_one_walk_are_each_hands_own_walk(name, other):
    """``start_law_entries`` walks several starting hands with one memo (a hand's law after
    its cards does not depend on the two that began it): each hand's law is the one its
    own walk (``round_law_entries(c1, c2)``) gives, pairs and the ace-ten included, on a
    depleted 2-deck shoe (Blackjack Switch: the game without the swap, another hand's
    cards out, as its analysis asks)."""
    rules = Rules.preset(name).replace(decks=2)
    if rules.switch:
        from bjsolve.exact.switch import game_rules
        rules = game_rules(rules)
    shoe = Shoe.decks(2, spanish=rules.spanish_deck) if rules.spanish_deck else Shoe.decks(2)
    counts = list(shoe.counts)
    for rank in other or ():
        counts[rank - 1] -= 1
    counts[9] -= 3
    params = kernel_rules(rules, SPLIT_CLASSES["CDZ-"])
    hands = [(2, 3), (8, 8), (1, 10), (10, 6), (5, 5), (1, 1), (9, 2), (3, 2)]
    for up in (6, 10):
        left = list(counts)
        left[up - 1] -= 1
        batched = GameEngine(left, up, params).start_law_entries(hands)
        alone = GameEngine(left, up, params)
        assert len(batched) == len(hands)
        for (c1, c2), entries in zip(hands, batched):
            values, law = law_arrays(entries)
            own_values, own_law = law_arrays(alone.round_law_entries(c1, c2))
            assert np.array_equal(values, own_values)
            assert np.abs(law - own_law).max() <= 1e-15, (up, c1, c2)
    with pytest.raises(ValueError, match="ranks 1..10"):
        GameEngine(left, 10, params).start_law_entries([(0, 5)])
