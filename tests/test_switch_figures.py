"""Blackjack Switch beyond the house edge: the round's outcome distribution
(bjsolve.exact.switch_law), checked against sources of its own.

- A card-by-card brute force in exact fractions on the 16-card shoe of tests/test_switch.py
  (no splitting; 1:1 naturals, dealer 22 pushes, H17, peek) gives two laws: the real round
  (both hands from one shoe, hand 1, hand 2, then the dealer) under the analysis'
  decisions, and the law the method computes (each hand played alone from the shoe with the
  five cards out, the two combined as independent given the dealer's final total).  The
  library must equal the second to 1e-12; the first measures the method's error.
- Identities: the law's mean is the analysis' EV; the two hands' laws are equal; the
  round's variance is twice a hand's plus twice the covariance.
- The simulation of the real round (bjsolve.simulation.switch) on six decks, with splits:
  the outcome probabilities and the SD within 4 standard errors.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from test_switch import (NO_SPLIT, SMALL, _beta, _deals, _decision_shoe, _hand_total,
                         _minus, _outcome, alone, dealer_law)

from bjsolve import Rules, Shoe
from bjsolve.exact.switch_removal import switch_effects_of_removal
from bjsolve.exact.switch import solve_switch
from bjsolve.exact.switch_law import switch_round_joint
from bjsolve.simulation.switch import simulate_switch


# 40 cards: without splitting the simulation, the analysis and the law agree (with splits on
# a shoe this small the analysis and both simulations disagree: docs/games.md)
FORTY = (6, 0, 0, 0, 0, 8, 0, 8, 0, 18)


def _lump(d):
    """The dealer outcomes of the engine's law: 17..21, 22, and 'over' 22."""
    return "over" if d > 22 else d


def _stand_law(result_of, shoe, up, law, weight):
    """law[(result, t)] += weight * P(t) for a finished hand, the dealer from ``shoe``."""
    for d, q in dealer_law(shoe, up).items():
        key = (-1, "nat") if d == "nat" else (result_of(d), _lump(d))
        law[key] = law.get(key, 0) + weight * q


def hand_law(cards, shoe, up, natural, weight=Fraction(1), law=None):
    """The joint law {(result, dealer outcome): chance} of a hand played alone from
    ``shoe`` by the analysis' decisions (``alone``), unconditioned."""
    law = {} if law is None else law
    if natural:
        _stand_law(lambda d: 1, shoe, up, law, weight)
        return law
    t, _ = _hand_total(cards)
    if t > 21:
        _stand_law(lambda d: -1, shoe, up, law, weight)
        return law
    action = "stand" if tuple(sorted(cards)) == (1, 10) else alone(tuple(sorted(cards)),
                                                                    shoe, up)[1]
    if action == "stand":
        _stand_law(lambda d: _outcome(t, d), shoe, up, law, weight)
        return law
    n = sum(shoe)
    for r in range(1, 11):
        if not shoe[r - 1]:
            continue
        p = Fraction(shoe[r - 1], n)
        after, rest = cards + (r,), _minus(shoe, r)
        if action == "double":
            tr, _ = _hand_total(after)
            final = tr if tr <= 21 else None
            _stand_law(lambda d, f=final: 2 * _outcome(f, d), rest, up, law, weight * p)
        else:
            hand_law(after, rest, up, False, weight * p, law)
    return law


def _choose(a, b, c, e, u, left, beta, sbj):
    from test_switch import _arrangement_value
    kept = (tuple(sorted((a, b))), tuple(sorted((c, e))))
    swapped = (tuple(sorted((a, e))), tuple(sorted((c, b))))
    k = _arrangement_value(*kept, left, u, beta, False, sbj)
    w = _arrangement_value(*swapped, left, u, beta, True, sbj)
    return (((a, e), (c, b)), True) if w > k else (((a, b), (c, e)), False)


def brute_force_laws(shoe, sbj, insured=None):
    """(the method's joint law {(r1, r2): chance}, the real round's law {total: chance})
    in exact fractions, and whether the two hands' dealer marginals were equal in every
    deal.  ``insured``: a dict that receives the method's joint law with both hands
    insured against an ace (each hand's half unit: +1 when the hole card makes the
    dealer's natural, -1/2 when it does not)."""
    method: dict = {}
    real: dict = {}
    marginals_equal = True
    insured = {} if insured is None else insured

    def add(law, r1, r2, q, up, dealer_natural):
        ins = 0 if up != 1 else 1 if dealer_natural else Fraction(-1, 2)
        key = (r1 + ins, r2 + ins)
        law[key] = law.get(key, 0) + q

    for p, a, b, c, e, u in _deals(shoe):
        left = _minus(shoe, a, b, c, e, u)
        beta = _beta(left, u)
        dealt = (tuple(sorted((a, b))), tuple(sorted((c, e))))
        loss = tuple(0 if h == (1, 10) else -1 for h in dealt)
        method[loss] = method.get(loss, 0) + p * beta
        add(insured, *loss, p * beta, u, True)
        real[sum(loss)] = real.get(sum(loss), 0) + p * beta
        if beta == 1:
            continue
        hands, switched = _choose(a, b, c, e, u, left, beta, sbj)
        naturals = [tuple(sorted(h)) == (1, 10) and (not switched or sbj) for h in hands]
        laws = [hand_law(tuple(h), left, u, nat) for h, nat in zip(hands, naturals)]
        marg = [{}, {}]
        for k in range(2):
            for (r, t), q in laws[k].items():
                if t != "nat":
                    marg[k][t] = marg[k].get(t, 0) + q
        marginals_equal &= marg[0] == marg[1]
        for (r1, t1), q1 in laws[0].items():
            if t1 == "nat":
                continue
            for (r2, t2), q2 in laws[1].items():
                if t2 == t1:
                    key = (r1, r2)
                    method[key] = method.get(key, 0) + p * q1 * q2 / marg[0][t1]
                    add(insured, r1, r2, p * q1 * q2 / marg[0][t1], u, False)
        for total, q in _real_round_law(hands, naturals, left, u).items():
            real[total] = real.get(total, 0) + p * q
    return method, real, marginals_equal


def _real_round_law(hands, naturals, left, up):
    """{total: chance, no dealer natural} of the round played for real from ``left``."""
    out: dict = {}

    def play(k, cards, shoe, finished, weight):
        if k == 2:
            for d, q in dealer_law(shoe, up).items():
                if d == "nat":
                    continue
                total = sum(1 if t == "nat" else stake * _outcome(t, d)
                            for t, stake in finished)
                out[total] = out.get(total, 0) + weight * q
            return
        nxt = tuple(hands[1]) if k == 0 else None
        if naturals[k]:
            return play(k + 1, nxt, shoe, finished + (("nat", 1),), weight)
        t, _ = _hand_total(cards)
        if t > 21:
            return play(k + 1, nxt, shoe, finished + ((None, 1),), weight)
        own = tuple(sorted(cards))
        action = ("stand" if own == (1, 10) else
                  alone(own, _decision_shoe(left, hands[k], own), up)[1])
        if action == "stand":
            return play(k + 1, nxt, shoe, finished + ((t, 1),), weight)
        n = sum(shoe)
        for r in range(1, 11):
            if shoe[r - 1]:
                p = Fraction(shoe[r - 1], n)
                after, rest = cards + (r,), _minus(shoe, r)
                if action == "double":
                    tr, _ = _hand_total(after)
                    play(k + 1, nxt, rest, finished + ((tr if tr <= 21 else None, 2),),
                         weight * p)
                else:
                    play(k, after, rest, finished, weight * p)

    play(0, tuple(hands[0]), left, (), Fraction(1))
    return out


def _moments(law):
    mean = sum(v * p for v, p in law.items())
    return mean, sum((v - mean) ** 2 * p for v, p in law.items())


@pytest.fixture(scope="module")
def small_laws():
    shoe = Shoe(list(SMALL))
    out = {}
    for sbj in (False, True):
        sol = solve_switch(NO_SPLIT.replace(switch_blackjack=sbj), shoe, threads=1)
        insured: dict = {}
        out[sbj] = (sol, brute_force_laws(SMALL, sbj, insured), insured)
    return out


@pytest.mark.parametrize("sbj", [False, True])
def test_law_equals_brute_force_of_the_method(small_laws, sbj):
    sol, (method, real, marginals_equal), _ = small_laws[sbj]
    # the two hands' dealer marginals are the same (the dealer's law of one shoe)
    assert marginals_equal
    joint, values, _ = switch_round_joint(sol, threads=1)
    ours: dict = {}
    for i, j in zip(*np.nonzero(joint)):
        key = (round(float(values[i]), 9), round(float(values[j]), 9))
        ours[key] = ours.get(key, 0.0) + float(joint[i, j])
    theirs = {(float(a), float(b)): float(q) for (a, b), q in method.items() if q}
    assert set(ours) == set(theirs)
    for key, q in theirs.items():
        assert ours[key] == pytest.approx(q, abs=1e-12), key
    # its mean is the analysis' EV, and the real round's too (tests/test_switch.py)
    mean_real, var_real = _moments(real)
    dist = sol.outcome_distribution(threads=1)
    assert dist.mean == pytest.approx(sol.expected_value, abs=1e-12)
    assert dist.mean == pytest.approx(float(mean_real), abs=1e-12)
    # what the combination leaves out on 16 cards (a hand takes several of them):
    # measured (1.5e-4 of 1.567), stated in docs/games.md
    assert abs(dist.sd - float(var_real) ** 0.5) < 1e-3


def _law_of(pairs):
    """{total: chance} and {one hand's result: chance} of a joint law {(r1, r2): chance}."""
    totals, hand = {}, {}
    for (r1, r2), q in pairs.items():
        totals[r1 + r2] = totals.get(r1 + r2, 0) + q
        for r in (r1, r2):
            hand[r] = hand.get(r, 0) + q / 2
    return totals, hand


def _assert_law(dist, law):
    ours = {round(float(v), 9): float(p) for v, p in zip(dist.values, dist.probabilities)}
    theirs = {round(float(v), 9): float(q) for v, q in law.items() if q}
    assert set(ours) == set(theirs)
    for v, q in theirs.items():
        assert ours[v] == pytest.approx(q, abs=1e-12), v


@pytest.mark.parametrize("sbj", [False, True])
def test_insured_law_equals_brute_force_of_the_method(small_laws, sbj):
    # both hands insured against an ace: the brute force settles each hand's half unit on
    # whether the hole card completed the dealer's natural, deal by deal
    sol, _, insured = small_laws[sbj]
    dist = sol.outcome_distribution(insurance=True, threads=1)
    totals, hand = _law_of(insured)
    _assert_law(dist, totals)
    _assert_law(dist.per_spot, hand)
    mean = sum(v * q for v, q in totals.items())
    assert dist.mean == pytest.approx(float(mean), abs=1e-12)
    # the insurance's EV by a count of the cards: an ace up (2 of 16), then the hole card
    # is any of the 15 others alike (the four player cards unseen by the bet's value),
    # a ten 7 times in 15; each hand's half unit wins 1 or loses 1/2
    insurance = Fraction(2, 16) * 2 * (Fraction(7, 15) * 1 - Fraction(8, 15) * Fraction(1, 2))
    assert sol.insurance_value == pytest.approx(float(insurance), abs=1e-15)
    assert dist.mean == pytest.approx(sol.expected_value + float(insurance), abs=1e-12)
    # a round's variance: twice a hand's plus twice the covariance
    assert dist.variance == pytest.approx(2 * dist.per_spot.variance + 2 * dist.covariance,
                                          abs=1e-12)
    uninsured = sol.outcome_distribution(threads=1)
    assert dist.variance != pytest.approx(uninsured.variance, abs=1e-6)


def test_insurance_ev_counts_the_tens_left():
    sol = solve_switch(NO_SPLIT, Shoe(list(SMALL)), threads=1)
    # A up, hands T8 and 6A: 16 - 5 = 11 cards left, six tens
    assert sol.insurance_ev("T8", ("6", "A")) == pytest.approx(3 * 6 / 11 - 1, abs=1e-15)
    # nothing known but the ace: 7 tens in 15
    assert sol.insurance_ev() == pytest.approx(3 * 7 / 15 - 1, abs=1e-15)
    assert "unconditioned" in repr(sol.insurance_ev())
    with pytest.raises(ValueError, match="hand1"):
        sol.insurance_ev("AA")             # with the dealer's ace: three aces of two
    with pytest.raises(ValueError, match="hand2.*two cards"):
        sol.insurance_ev("T", "TTT")
    assert sol.insurance_ev(10, [6, 1]) == pytest.approx(3 * 6 / 12 - 1, abs=1e-15)
    no_ace = solve_switch(NO_SPLIT, Shoe([0, 0, 0, 0, 0, 4, 0, 5, 0, 7]), threads=1)
    with pytest.raises(ValueError, match="insurance: the shoe cannot deal the dealer an ace"):
        no_ace.insurance_ev()
    assert no_ace.insurance_value == 0.0
    with pytest.raises(TypeError, match="insurance must be True or False"):
        sol.outcome_distribution(insurance="yes")


def _identities(sol):
    joint, values, gap = switch_round_joint(sol)
    dist = sol.outcome_distribution()
    assert dist.mean == pytest.approx(sol.expected_value, abs=1e-12)
    assert dist.per_spot.mean == pytest.approx(sol.expected_value / 2, abs=1e-12)
    assert np.abs(joint.sum(axis=0) - joint.sum(axis=1)).max() < 1e-12
    assert gap < 1e-12
    assert dist.variance == pytest.approx(2 * dist.per_spot.variance + 2 * dist.covariance,
                                          abs=1e-9)
    assert dist.probabilities.sum() == pytest.approx(1.0, abs=1e-12)
    return dist


def test_the_law_reads_the_analysis_tables_in_their_order():
    from bjsolve.exact import switch, switch_law
    assert switch_law.PAIRS == switch.PAIRS and switch_law.ACE_TEN == switch.ACE_TEN


def test_identities_with_splits():
    sol = solve_switch(Rules.preset("blackjack-switch"), Shoe(list(FORTY)), threads=1)
    dist = _identities(sol)
    assert not dist.exact and dist.sd > 0


@pytest.mark.slow
def test_identities_on_six_decks():
    _identities(solve_switch(Rules.preset("blackjack-switch", decks=6)))


def _sd_standard_error(dist, rounds):
    v, p = dist.values, dist.probabilities
    m2 = float(np.dot(p, (v - dist.mean) ** 2))
    m4 = float(np.dot(p, (v - dist.mean) ** 4))
    return ((m4 - m2 * m2) / rounds) ** 0.5 / (2 * m2 ** 0.5)




@pytest.fixture(scope="module")
def forty():
    rules = Rules.preset("blackjack-switch", max_split_hands=1)
    sol = solve_switch(rules, Shoe(list(FORTY)), threads=1)
    return sol, sol.outcome_distribution(threads=1)


def test_compiled_simulation_against_the_law(forty):
    sol, dist = forty
    rounds = 1_000_000
    sim = simulate_switch(sol, rounds, seed=17, threads=2)
    assert abs(sim.mean - sol.expected_value) < 4 * sim.standard_error
    se_rate = (sol.switch_rate * (1 - sol.switch_rate) / rounds) ** 0.5
    assert abs(sim.switch_rate - sol.switch_rate) < 4 * se_rate
    assert abs(sim.sd - dist.sd) < 4 * _sd_standard_error(dist, rounds)
    assert set(sim.outcomes) <= set(float(v) for v in dist.values)
    for v, p in zip(dist.values, dist.probabilities):
        se = (p * (1 - p) / rounds) ** 0.5
        assert abs(sim.outcomes.get(float(v), 0.0) - p) < 4 * se + 1e-7, v


def test_compiled_and_python_simulations_agree(forty):
    sol, _ = forty
    python = simulate_switch(sol, 60_000, seed=4, compiled=False)
    compiled = simulate_switch(sol, 600_000, seed=4, threads=1)
    both = (python.standard_error ** 2 + compiled.standard_error ** 2) ** 0.5
    assert abs(python.mean - compiled.mean) < 4 * both
    # the same seed and rounds give the same figures on any number of threads
    again = simulate_switch(sol, 600_000, seed=4, threads=2)
    assert (again.mean, again.sd, again.outcomes) == (compiled.mean, compiled.sd,
                                                      compiled.outcomes)


def test_insured_simulations_against_the_insured_law(forty):
    # both hands insured against every ace: the compiled and the pure-Python round give
    # the insured law's mean (and the compiled one its chances), within their errors
    sol, _ = forty
    insured = sol.outcome_distribution(insurance=True, threads=1)
    rounds = 1_000_000
    sim = simulate_switch(sol, rounds, seed=23, threads=2, insurance=True)
    assert abs(sim.mean - insured.mean) < 4 * sim.standard_error
    assert abs(sim.sd - insured.sd) < 4 * _sd_standard_error(insured, rounds)
    for v, p in zip(insured.values, insured.probabilities):
        se = (p * (1 - p) / rounds) ** 0.5
        assert abs(sim.outcomes.get(float(v), 0.0) - p) < 4 * se + 1e-7, v
    python = simulate_switch(sol, 60_000, seed=9, compiled=False, insurance=True)
    assert abs(python.mean - insured.mean) < 4 * python.standard_error
    # (insuring moves the mean: the test tells the two games apart)
    assert abs(insured.mean - sol.expected_value) > 8 * sim.standard_error
    with pytest.raises(TypeError, match="insurance"):
        simulate_switch(sol, 10, insurance=2)


def test_six_deck_simulation_against_the_analysis():
    sol = solve_switch(Rules.preset("blackjack-switch", decks=6), removal="own")
    sim = simulate_switch(sol, 1_000_000, seed=8, threads=2)
    assert abs(sim.mean - sol.expected_value) < 4 * sim.standard_error


@pytest.mark.slow
def test_long_simulation_against_the_analysis_and_the_law():
    # 10^8 rounds of the real six-deck round against the full-removal analysis and its law
    sol = solve_switch(Rules.preset("blackjack-switch", decks=6))
    dist = sol.outcome_distribution()
    rounds = 10**8
    sim = simulate_switch(sol, rounds, seed=2032)
    assert abs(sim.mean - sol.expected_value) < 4 * sim.standard_error
    assert abs(sim.sd - dist.sd) < 4 * _sd_standard_error(dist, rounds)


def test_fixed_effects_of_removal_sum_to_zero():
    # the full shoe's decisions look only at the dealt cards and each hand's own: a card
    # removed at random changes nothing on average (with splits, 40 cards)
    rules = Rules.preset("blackjack-switch")
    shoe = Shoe(list(FORTY))
    fixed = switch_effects_of_removal(rules, shoe, threads=1)
    assert set(fixed.effects) == {1, 6, 8, 10}
    assert abs(fixed.weighted_mean()) < 1e-12
    reopt = switch_effects_of_removal(rules, shoe, strategy="reoptimized", threads=1)
    # playing each depleted shoe's own best is worth at least the frozen decisions there
    for r in fixed.effects:
        assert reopt.effects[r] >= fixed.effects[r] - 1e-12
    assert reopt.weighted_mean() > 0


def test_reoptimized_effects_against_the_brute_force():
    from test_switch import brute_force
    rules = NO_SPLIT
    small = (2, 0, 0, 0, 0, 4, 0, 3, 0, 8)     # 17 cards: one out leaves a round's 16
    eor = switch_effects_of_removal(rules, Shoe(list(small)), strategy="reoptimized",
                                    threads=1)
    base = brute_force(small, False, real_round=False)[0]
    for r, effect in eor.effects.items():
        shoe = list(small)
        shoe[r - 1] -= 1
        assert effect == pytest.approx(float(brute_force(tuple(shoe), False, False)[0] - base)
                                       / 2, abs=1e-12), r


def test_command_line_figures_and_refusals():
    import io
    import json

    from bjsolve.cli import main

    def risk(*flags):
        out = io.StringIO()
        assert main(["risk", "--preset", "blackjack-switch", "--infinite", *flags,
                     "--format", "json"], out=out) == 0
        outcomes, summary = json.loads(out.getvalue())["tables"]
        return outcomes["notes"], {r["figure"]: r["value"] for r in summary["records"]}

    notes, figures = risk()
    assert "SD of one hand" in figures and "covariance between the two hands" in figures
    # on an infinite shoe the combination is exact (the hands draw independently)
    assert "exact" in notes
    # --insurance insures both hands against an ace: the mean moves by the insurance's
    # EV, on an infinite shoe 1/13 x 2 x (4/13 x 1 - 9/13 x 1/2)
    insured_notes, insured = risk("--insurance")
    assert any("both hands insured against an ace" in note for note in insured_notes)
    assert insured["mean"] - figures["mean"] == pytest.approx(2 / 13 * (4 / 13 - 9 / 26),
                                                              abs=1e-12)
    for argv in (["risk", "--spots", "2"],
                 ["simulate", "--spots", "2"], ["simulate", "--plays"],
                 ["eor", "--infinite"], ["counts"]):
        assert main([argv[0], "--preset", "blackjack-switch", *argv[1:]],
                    out=io.StringIO()) == 2, argv


def test_true_count_advantage():
    from bjsolve.counting.switch_counting import switch_advantage_by_true_count
    rules = Rules.preset("blackjack-switch")
    # one deck dealt at true count 0 takes one whole deck (4 of each rank, 16 tens): the
    # exact figure is that of five decks
    res = switch_advantage_by_true_count(rules, true_counts=[0, 4], dealt_decks=1,
                                         removal="own")
    five = solve_switch(rules.replace(decks=5), removal="own")
    assert res[0].exact == pytest.approx(five.expected_value / 2, abs=1e-12)
    assert res[4].exact > res[0].exact and res[4].linear > res[0].linear


@pytest.mark.slow
def test_true_count_linear_estimate_of_a_whole_deck_is_the_base():
    from bjsolve.counting.switch_counting import switch_advantage_by_true_count
    # the fixed effects (full removal) weighted by a deck's composition sum to 0: taking
    # one whole deck leaves the linear estimate at the full shoe's EV
    rules = Rules.preset("blackjack-switch", decks=2)
    res = switch_advantage_by_true_count(rules, true_counts=[0], dealt_decks=1)
    base = solve_switch(rules)
    assert res[0].linear == pytest.approx(base.expected_value / 2, abs=1e-12)
