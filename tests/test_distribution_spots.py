"""Several spots on a finite shoe: the exact covariance (``exact_spots=True``,
bjcore._spot_moments).

Independent source: the card-by-card Fraction enumeration of the real game
(``bjsolve._reference_distribution``), which deals every spot's cards from the one shoe in
the casino's order, spots one after the other, then the dealer.  ``strict=True`` makes it
raise when any path of the round (the dealer's draws included) would need a card from an
empty shoe, which certifies that the small shoes below describe a real game; the public
function's own guard (``spots_may_run_out``, a conservative bound on points) refuses
every shoe this small, so the tests replace it by that certificate.
"""
import os
import random
import sys
import warnings

import pytest

import bjsolve.exact.distribution as distribution
from bjsolve import Rules, Shoe, solve
from bjsolve._reference_distribution import round_distribution

sys.path.insert(0, os.path.dirname(__file__))
from test_distribution import (_kernel_split_policy, _random_rules,  # noqa: E402
                               optimal_callable, ref_moments)


@pytest.fixture
def certified_shoes(monkeypatch):
    """Small shoes that the strict enumeration certifies cannot run out."""
    monkeypatch.setattr(distribution, "spots_may_run_out", lambda rules, shoe, spots: False)


def _small_shoe(rng):
    counts = [0] * 10
    counts[9] = rng.randint(6, 8)
    size = rng.randint(12, 15)
    while sum(counts) < size:
        r = rng.randrange(1, 9)
        if counts[r] < 3:
            counts[r] += 1
    return tuple(counts)


def _case(seed):
    """Random rules (every hole-card game, surrender, 6:5 and even money, ties to the
    dealer, H17) with at most two hands per spot, a random 12-15-card shoe, CDZ- or CDP1,
    insurance sometimes, the solve's play or a callable."""
    rng = random.Random(5000 + seed)
    split = "CDP1" if seed % 4 == 3 else "CDZ-"
    rules = _random_rules(rng, max_split_hands=2, resplit_aces=rng.random() < 0.5,
                          hit_split_aces=rng.random() < 0.3)
    counts = _small_shoe(rng)
    insurance = rules.hole_card != "exposed" and rng.random() < 0.3
    callable_strategy = split != "CDP1" and rng.random() >= 0.6
    return rules, counts, split, insurance, callable_strategy


# seeds whose enumeration takes about a second and covers peek, enhc, enhc-obo, exposed
# (its dealer-natural keys), CDP1, insurance and a callable; seed 21 (a second enhc game,
# the costliest) with --run-slow
@pytest.mark.parametrize("seed", [6, 12, 15, 18, pytest.param(21, marks=pytest.mark.slow), 27])
def test_two_spots_variance_exact_on_random_small_shoes(seed, certified_shoes):
    rules, counts, split, insurance, callable_strategy = _case(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)   # one spot's run-out guard
        sol = solve(rules, shoe=Shoe(counts), split=split)
    play = optimal_callable(sol)
    split_policy = _kernel_split_policy(sol, split) if split == "CDP1" else None
    ref = round_distribution(rules, counts, play, spots=2, insurance=insurance,
                             split_policy=split_policy, strict=True)
    mean, var = ref_moments(ref)
    strategy = play if callable_strategy else "optimal"
    dist = sol.outcome_distribution(strategy, spots=2, insurance=insurance,
                                    exact_spots=True, threads=1)
    assert dist.variance_exact and not dist.exact, dist.method
    assert "covariance between spots exact" in dist.method
    assert abs(dist.mean - mean) < 1e-13
    assert abs(dist.variance - var) < 1e-12, (rules, counts, split)
    # Var(S) = 2 Var(X) + 2 Cov, and the combination (the default) is off on shoes this
    # small: the spots take a large share of the cards from each other
    one = dist.per_spot
    assert abs(2 * one.variance + 2 * dist.covariance - dist.variance) < 1e-14
    combined = sol.outcome_distribution(strategy, spots=2, insurance=insurance, threads=1)
    assert not combined.variance_exact and abs(combined.variance - var) > 1e-3
    assert combined.covariance != dist.covariance and abs(combined.mean - dist.mean) < 1e-14


def test_three_spots_variance_exact(certified_shoes):
    """E[S^2] = 3 E[X^2] + 6 E[X_1 X_2]: the pair law of two spots does not depend on a
    third spot (its cards are unseen to them)."""
    rules = Rules(decks=1, max_split_hands=1)
    counts = (0, 0, 0, 0, 2, 0, 0, 1, 2, 9)
    sol = solve(rules, shoe=Shoe(counts))
    ref = round_distribution(rules, counts, optimal_callable(sol), spots=3, strict=True)
    mean, var = ref_moments(ref)
    dist = sol.outcome_distribution(spots=3, exact_spots=True, threads=1)
    assert dist.variance_exact and abs(dist.mean - mean) < 1e-13
    assert abs(dist.variance - var) < 1e-12
    assert abs(sol.outcome_distribution(spots=3).variance - var) > 0.1   # combined: 30 % off


@pytest.mark.parametrize("kw,counts,split", [
    (dict(max_split_hands=3, double="10-11", surrender="late"),
     (0, 0, 0, 0, 0, 0, 0, 3, 1, 12), "CDZ-"),
    (dict(max_split_hands=4, double="10-11"), (0, 0, 0, 0, 0, 0, 0, 4, 1, 14), "CDZ-"),
    (dict(max_split_hands=4, double="10-11", hole_card="enhc", surrender="early"),
     (0, 0, 0, 0, 0, 0, 1, 4, 0, 14), "CDP1"),
])
def test_resplits_two_spots_variance_exact(kw, counts, split, certified_shoes):
    """Resplits to three and four hands in a spot (8s to split, tens to stand on): each
    spot's variance by the split moments, the covariance through the split construction's
    mean with the other spot in the dealer's place."""
    rules = Rules(decks=1, **kw)
    sol = solve(rules, shoe=Shoe(counts), split=split)
    split_policy = _kernel_split_policy(sol, split) if split == "CDP1" else None
    ref = round_distribution(rules, counts, optimal_callable(sol), spots=2,
                             split_policy=split_policy, strict=True)
    mean, var = ref_moments(ref)
    dist = sol.outcome_distribution(spots=2, exact_spots=True, threads=2)
    assert dist.variance_exact and abs(dist.mean - mean) < 1e-13
    assert abs(dist.variance - var) < 1e-12
    assert abs(sol.outcome_distribution(spots=2).variance - var) > 0.05   # combined


def test_exact_spots_identities_and_refusals():
    # the infinite shoe is exact already; one spot has no covariance
    inf = solve(Rules(), shoe=Shoe.infinite())
    a = inf.outcome_distribution(spots=2)
    b = inf.outcome_distribution(spots=2, exact_spots=True)
    assert a.exact and b.exact and a.variance == b.variance
    # a shoe that two spots could exhaust keeps the combination, and says why
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        small = solve(Rules(decks=1, max_split_hands=2), shoe=Shoe((2, 1, 1, 1, 2, 1, 1, 1, 2, 6)))
    d = small.outcome_distribution(spots=2, exact_spots=True)
    assert not d.variance_exact and "could run out" in d.method
    with pytest.raises(TypeError, match="exact_spots"):
        inf.outcome_distribution(spots=2, exact_spots="yes")


@pytest.mark.slow   # about 8 s of CPU (a full deck)
def test_cli_exact_spots_flag():
    """bjsolve risk --spots 2 --exact-spots: the figures follow the exact covariance
    (1 deck without splits: the combination's covariance is about 1 % high on a full shoe)."""
    import io
    import json

    from bjsolve.__main__ import main
    out = io.StringIO()
    args = ["risk", "--decks", "1", "--max-split-hands", "1", "--spots", "2", "--format", "json"]
    assert main(args + ["--exact-spots"], out=out) == 0
    figures = {r["figure"]: r["value"] for r in json.loads(out.getvalue())["tables"][1]["records"]}
    combined = solve(Rules(decks=1, max_split_hands=1)).outcome_distribution(spots=2)
    cov = figures["covariance between two spots"]
    assert 0.003 < combined.covariance - cov < 0.01
    assert abs(figures["variance"] - 2 * figures["SD of one spot"] ** 2 - 2 * cov) < 1e-12
