"""The exact variance of rounds with resplits on finite shoes (bjcore._split_moments).

A split that may make 3 or 4 hands has its pmf combined as independent given the dealer's
outcome (approximate on a finite shoe), but its second moment exactly: every pair of
split hands' joint law with the dealer.  Independent sources: the card-by-card Fraction
enumeration of the real game (``bjsolve._reference_distribution``, which deals every split
hand's cards, resplits included, in the casino's order) and the solver's split EVs.
"""
import os
import random
import sys

import numpy as np
import pytest

from bjsolve import Rules, Shoe, solve
from bjsolve._reference_distribution import round_distribution

sys.path.insert(0, os.path.dirname(__file__))
from test_distribution import (_kernel_split_policy, _random_rules,  # noqa: E402
                               optimal_callable, ref_moments)


def _resplit_shoe(rng, limit):
    """A small shoe holding ``limit`` cards of a pair rank and enough tens that no round
    can run out (few ranks keep the enumeration small).  No aces: on such ten-rich shoes
    doubling a natural can beat standing, which the solver weighs and the enumeration,
    paying a natural at once, does not (docs/conventions.md)."""
    counts = [0] * 10
    pair = rng.choice([2, 3, 6, 7, 8, 9])
    counts[pair - 1] = limit
    counts[9] = rng.randint(10, 12) if limit == 4 else rng.randint(5, 7)
    size = rng.randint(16, 18) if limit == 4 else rng.randint(12, 14)
    while sum(counts) < size:
        r = rng.randrange(1, 9)
        if counts[r] < 3 and r != pair - 1:
            counts[r] += 1
    return tuple(counts)


def _case(seed):
    rng = random.Random(900 + seed)
    while True:
        limit = 4 if seed % 2 == 0 else 3
        split = "CDP1" if seed % 3 == 2 else "CDZ-"
        rules = _random_rules(rng, max_split_hands=limit, resplit_aces=rng.random() < 0.5,
                              hit_split_aces=rng.random() < 0.3)
        counts = _resplit_shoe(rng, limit)
        sol = solve(rules, shoe=Shoe(counts), split=split)
        if not sol.may_run_out:
            return rules, counts, split, sol


@pytest.mark.parametrize("seed", range(8))
def test_resplit_variance_exact_on_random_small_shoes(seed):
    """Resplits to 3 or 4 hands on a finite shoe: the variance is the card-by-card
    enumeration's (to 1e-12), the mean too; the pmf is the stated combination (its own
    variance differs), every hole-card game, CDZ- and CDP1."""
    rules, counts, split, sol = _case(seed)
    split_policy = _kernel_split_policy(sol, split) if split == "CDP1" else None
    ref = round_distribution(rules, counts, optimal_callable(sol), split_policy=split_policy)
    mean, var = ref_moments(ref)
    dist = sol.outcome_distribution()
    assert not dist.exact and dist.variance_exact, dist.method
    assert "variance is exact" in dist.method
    assert abs(dist.mean - mean) < 1e-13
    assert abs(dist.variance - var) < 1e-12, (rules, counts, split)
    assert abs(dist.sd ** 2 - dist.variance) < 1e-14
    # the combination's own variance is off (the split hands take cards from each other)
    assert abs(dist.pmf_variance - var) > 1e-6
    assert abs(dist.mean - sol.expected_value) < 1e-14


def test_resplit_variance_exact_with_a_strategy_callable_and_insurance():
    """A callable strategy (frozen decisions) and insurance against an ace: the exact
    second moment carries the insurance bet's shift.  (Doubling only 10 and 11: on this
    ten-rich shoe the solver would double a natural, which the enumeration pays at once.)"""
    rules = Rules(decks=1, max_split_hands=3, double="10-11")
    counts = (1, 0, 0, 0, 0, 1, 1, 3, 1, 8)
    sol = solve(rules, shoe=Shoe(counts))
    assert not sol.may_run_out
    play = optimal_callable(sol)
    ref = round_distribution(rules, counts, play, insurance=True)
    mean, var = ref_moments(ref)
    dist = sol.outcome_distribution(play, insurance=True)
    assert dist.variance_exact and not dist.exact
    assert abs(dist.mean - mean) < 1e-13 and abs(dist.variance - var) < 1e-12


@pytest.mark.parametrize("decks,cases", [(1, [(1, 8), (7, 2), (10, 9), (6, 6)]),
                                         (6, [(10, 8), (1, 3), (9, 9)])])
def test_split_moments_mean_and_dealer_law_are_the_solvers(decks, cases):
    """The pair-of-hands construction's mean, per dealer outcome, is the split law's (the
    solver's construction), and in total the solve's split EV (CDZ-), to 1e-14."""
    from bjcore import RoundLaws, split_moment_law
    from bjsolve.exact.distribution import column_values as _column_values
    from bjsolve.exact.kernel_rules import SPLIT_CLASSES, kernel_rules
    rules = Rules(decks=decks)
    sol = solve(rules)
    params = kernel_rules(rules, SPLIT_CLASSES["CDZ-"])
    columns = _column_values(rules.blackjack_payout)
    for up, pair in cases:
        laws = RoundLaws(sol.shoe.kernel_weights(), up, params, False, True)
        law, _ = laws.split_law(pair)
        p_t, m1, m2, ok = split_moment_law(laws, pair)
        assert ok
        assert np.abs(p_t - law.sum(axis=1)).max() < 1e-15
        assert np.abs(m1 - law @ columns).max() < 1e-15
        ev = sol.hand_ev((pair, pair), up, given_no_blackjack=False)["split"]
        assert abs(m1.sum() - ev) < 1e-14, (up, pair)
        # the exact second moment is below the combination's: the hands take cards from
        # each other (an identity would not tell them apart; the enumeration tests do)
        assert 0 < (law @ columns ** 2).sum() - m2.sum() < 0.05


def test_cdp_resplits_keep_the_combined_variance():
    """CDP plays a split hand by how many pair cards are gone: its hands' bodies do not
    stop by a rule on their own cards, so the variance stays the combination's."""
    dist = solve(Rules(decks=1), split="CDP").outcome_distribution()
    assert not dist.exact and not dist.variance_exact
    assert abs(dist.variance - dist.pmf_variance) < 1e-14


def test_variance_flags_on_the_infinite_shoe_and_for_spots():
    """Infinite shoe: the pmf is exact, so is its variance.  Two spots on a finite shoe:
    each spot's variance exact, the covariance combined, so the total is not exact."""
    inf = solve(Rules(), shoe=Shoe.infinite()).outcome_distribution()
    assert inf.exact and inf.variance_exact and inf.variance == inf.pmf_variance
    two = solve(Rules(decks=2)).outcome_distribution(spots=2)
    assert not two.exact and not two.variance_exact
    one = two.per_spot
    assert one.variance_exact and not one.exact
    assert abs(two.variance - (2 * one.variance + 2 * two.covariance)) < 1e-14
    assert abs(two.pmf_variance - (2 * one.pmf_variance + 2 * two.covariance)) < 1e-12


def test_two_hand_split_moments_equal_the_exact_two_hand_law():
    """With two hands at most, the pair construction (the second card free for both, no
    pair card gone) and the exact two-hand pmf of ``RoundLaws.split_law`` are different
    computations of the same law: equal second moments per dealer outcome."""
    from bjcore import RoundLaws, split_moment_law
    from bjsolve.exact.distribution import column_values as _column_values
    from bjsolve.exact.kernel_rules import SPLIT_CLASSES, kernel_rules
    rules = Rules(decks=1, max_split_hands=2, hole_card="enhc")
    sol = solve(rules)
    columns = _column_values(rules.blackjack_payout)
    params = kernel_rules(rules, SPLIT_CLASSES["CDZ-"])
    for up, pair in [(6, 2), (10, 8), (1, 9)]:
        laws = RoundLaws(sol.shoe.kernel_weights(), up, params, False, True)
        law, _ = laws.split_law(pair, exact=True)
        p_t, m1, m2, ok = split_moment_law(laws, pair)
        assert ok
        assert np.abs(m2 - law @ columns ** 2).max() < 1e-14, (up, pair)
        assert np.abs(m1 - law @ columns).max() < 1e-14
    fast = sol.outcome_distribution(exact_splits=False)
    assert not fast.variance_exact and fast.variance == fast.pmf_variance


def test_split_moment_jobs_give_the_same_figures_on_any_threads_in_any_order():
    """The resplits' second moments are jobs (one per dealer key and pair) run on any
    thread: run in reverse order, or on two threads, they give bit-identical figures, and
    the one-thread ``round_second_moments`` the same."""
    from bjcore import RoundLaws, round_second_moments, second_moments, split_moment_jobs
    from bjsolve.exact.kernel_rules import SPLIT_CLASSES, kernel_rules
    rules = Rules(decks=1, max_split_hands=4, resplit_aces=True)
    sol = solve(rules)
    one = sol.outcome_distribution(threads=1)
    two = sol.outcome_distribution(threads=2)
    assert one.variance == two.variance and one.variance_exact
    assert (one.probabilities == two.probabilities).all() and one.mean == two.mean
    params = kernel_rules(rules, SPLIT_CLASSES["CDZ-"])
    for up in (2, 7):
        laws = RoundLaws(sol.shoe.kernel_weights(), up, params, False, True)
        laws.outcome_law()
        jobs, exact = split_moment_jobs(laws)
        assert exact and len(jobs) >= 2, up
        for job in reversed(jobs):
            job.run()
        m2, ok = second_moments(laws, jobs, exact)
        again = RoundLaws(sol.shoe.kernel_weights(), up, params, False, True)
        again.outcome_law()
        serial, ok2 = round_second_moments(again)
        assert ok and ok2 and (m2 == serial).all(), up
