"""The distribution of a round's outcome (bjsolve.exact.distribution).

Independent sources: the published whole-round EVs (the mean), a card-by-card Fraction brute
force of the real game on small shoes (``bjsolve._reference_distribution``), a direct
computation on the infinite shoe written here from the rules alone (every card an
independent draw: the hands of a round are independent given the dealer's final outcome), a
simulation dealing real cards (``tests/simulator.py``), and identities.
"""
import math
import os
import random
import sys
import warnings

import numpy as np
import pytest

from bjsolve import Rules, Shoe, solve
from bjsolve._reference import dealer_probabilities
from bjsolve._reference_distribution import round_distribution
from bjsolve.exact.distribution import OutcomeDistribution
from bjsolve.model.actions import first_best

sys.path.insert(0, os.path.dirname(__file__))
from simulator import engine_policy, simulate  # noqa: E402


def optimal_callable(sol):
    """The solve's composition-dependent play as a strategy callable (split hands: the
    unsplit values of the same composition, i.e. CDZ-), for the brute force and the kernel's
    policy mode alike."""
    cache = {}

    def play(cards, dealer, allowed):
        key = (cards, dealer, allowed)
        if key not in cache:
            ev = sol.hand_ev(cards, dealer, given_no_blackjack=False)
            cache[key] = first_best({a: ev[a] for a in allowed})
        return cache[key]
    return play


def ref_arrays(ref: dict):
    items = sorted(ref.items())
    return (np.array([float(v) for v, _ in items]), np.array([float(p) for _, p in items]))


def ref_moments(ref: dict):
    mean = sum(v * p for v, p in ref.items())
    var = sum((v - mean) ** 2 * p for v, p in ref.items())
    return float(mean), float(var)


def pmf_error(dist, ref: dict) -> float:
    values = set(dist.pmf) | {float(v) for v in ref}
    exact = {float(v): float(p) for v, p in ref.items()}
    return max(abs(dist.pmf.get(v, 0.0) - exact.get(v, 0.0)) for v in values)


# ---- the mean is the solve's EV: published figures ------------------------------------------

PUBLISHED = [  # whole-round EV, CDZ- unless stated; peek, 3:2, S17 DOA DAS, 4 hands, no RSA
    (dict(decks=1), "CDZ-", 0.0018193430614842354),
    (dict(decks=2), "CDZ-", -0.0017885990553269115),
    (dict(decks=6), "CDZ-", -0.0040287023611541364),
    (dict(decks=6), "CDP1", -0.004028643427670363),
    (dict(decks=1, double_after_split=False, max_split_hands=2), "CDZ-", 0.00024273905049485706),
    (dict(decks=6, surrender="late"), "CDZ-", -0.0033026803733750346),
]
PUBLISHED_SLOW = [
    (dict(decks=6), "CDP", -0.004028615234221981),
    (dict(decks=6, hit_soft_17=True), "CDZ-", -0.006153891229248358),
    (dict(decks=8), "CDZ-", -0.004305806289703673),
]


def _check_published(outcome_law, kw, split, ev):
    sol, dist = outcome_law(split, **kw)
    assert abs(dist.mean - ev) < 1e-14, (kw, split, dist.mean, ev)
    assert abs(dist.probabilities.sum() - 1.0) < 1e-15
    assert np.all(dist.probabilities >= 0)
    assert np.all(np.diff(dist.values) > 0)


@pytest.mark.parametrize("kw,split,ev", PUBLISHED)
def test_mean_is_the_published_ev(outcome_law, kw, split, ev):
    _check_published(outcome_law, kw, split, ev)


@pytest.mark.slow
@pytest.mark.parametrize("kw,split,ev", PUBLISHED_SLOW)
def test_mean_is_the_published_ev_slow(outcome_law, kw, split, ev):
    _check_published(outcome_law, kw, split, ev)


VARIANTS = [
    dict(decks=1, hole_card="enhc"),
    dict(decks=1, hole_card="enhc-obo", surrender="late"),
    dict(decks=1, hole_card="exposed", max_split_hands=2),
    dict(decks=1, surrender="early", hit_soft_17=True, resplit_aces=True, hit_split_aces=True),
    dict(decks=1, dealer_wins_ties=True, double="10-11", double_any_cards=True),
    dict(decks=1, blackjack_payout=1.2, double_soft=False, double_after_split=False),
]


def _variant_class_cases():
    """Every variant under every class; CDP1 and CDP of the OBO, exposed and ties variants
    (a 1-deck law each, a second or more; the OBO and ties charts' laws with them) run with
    --run-slow: the default run keeps every variant under CDZ- and all three classes, the
    chart's law included, under three of them."""
    cases = []
    for i, kw in enumerate(VARIANTS):
        for split in ("CDZ-", "CDP1", "CDP"):
            slow = split != "CDZ-" and i in (1, 2, 4)
            cases.append(pytest.param(kw, split, id=f"kw{i}-{split}",
                                      marks=pytest.mark.slow if slow else ()))
    return cases


@pytest.mark.parametrize("kw, split", _variant_class_cases())
def test_mean_equals_ev_for_every_variant_and_class(kw, split):
    rules = Rules(**kw)
    sol = solve(rules, split=split)
    dist = sol.outcome_distribution()
    assert abs(dist.mean - sol.expected_value) < 1e-14, (kw, split)
    assert abs(dist.probabilities.sum() - 1.0) < 1e-15
    # the chart's law, once per variant (under CDP, as before the split by class)
    if split == "CDP" and rules.hole_card != "exposed":   # (a chart over 55 dealer hands is
        chart = sol.strategy                               # slow to freeze)
        dist = sol.outcome_distribution(chart)
        assert abs(dist.mean - sol.evaluate(chart)) < 1e-14


def test_natural_payout_off_the_half_lattice():
    dist = solve(Rules(decks=2, blackjack_payout=1.2, max_split_hands=2)).outcome_distribution()
    assert 1.2 in dist.pmf and 1.5 not in dist.pmf
    assert all(v == 1.2 or float(2 * v).is_integer() for v in dist.values)


# ---- against the card-by-card brute force -----------------------------------------------------

def _random_small_shoe(rng, min_points):
    while True:
        counts = [rng.randint(0, 2) for _ in range(9)] + [rng.randint(2, 4)]
        counts[0] = max(counts[0], 1)
        if 10 <= sum(counts) <= 14 and sum((r + 1) * c for r, c in enumerate(counts)) > min_points:
            return tuple(counts)


def _random_rules(rng, **fixed):
    kw = dict(
        decks=1, hit_soft_17=rng.random() < 0.5, double=rng.choice(["any", "9-11", "10-11"]),
        double_soft=rng.random() < 0.7, double_any_cards=rng.random() < 0.3,
        surrender=rng.choice(["none", "late", "early"]),
        hole_card=rng.choice(["peek", "enhc", "enhc-obo", "exposed"]),
        dealer_wins_ties=rng.random() < 0.2, blackjack_payout=rng.choice([1.5, 1.2, 1.0]))
    kw.update(fixed)
    return Rules(**kw)


@pytest.mark.parametrize("seed", range(6))
def test_exact_without_splits_on_random_small_shoes(seed):
    """No split possible: the kernel's pmf is the brute force's, entry by entry."""
    rng = random.Random(seed)
    rules = _random_rules(rng, max_split_hands=1)
    counts = _random_small_shoe(rng, 31 + 26)
    sol = solve(rules, shoe=Shoe(counts))
    play = optimal_callable(sol)
    insurance = rules.hole_card != "exposed" and seed % 2 == 0
    ref = round_distribution(rules, counts, play, insurance=insurance)
    assert sum(ref.values()) == 1
    for strategy in ("optimal", play):
        dist = sol.outcome_distribution(strategy, insurance=insurance)
        assert dist.exact
        assert pmf_error(dist, ref) < 1e-13, (rules, counts)
        mean, var = ref_moments(ref)
        assert abs(dist.mean - mean) < 1e-13 and abs(dist.variance - var) < 1e-12


def _small_shoe(rng, lo, hi, min_points):
    while True:
        counts = [rng.randint(0, 2) for _ in range(9)] + [rng.randint(2, 4)]
        counts[0] = max(counts[0], 1)
        if lo <= sum(counts) <= hi and sum((r + 1) * c for r, c in enumerate(counts)) > min_points:
            return tuple(counts)


def _split_shoe(rng):
    """A small shoe where a split is worth playing (the brute force's cost grows fast with
    the shoe: 10-12 cards)."""
    while True:
        counts = _small_shoe(rng, 10, 12, 2 * 31 + 26)
        if max(counts) >= 2:
            return counts


@pytest.mark.parametrize("seed", range(4))
def test_two_hand_splits_exact_on_random_small_shoes(seed):
    """No resplitting (at most two hands): the kernel's joint law of both split hands and
    the dealer is the card-by-card brute force's, entry by entry, every variant."""
    rng = random.Random(300 + seed)
    rules = _random_rules(rng, max_split_hands=2)
    counts = _split_shoe(rng)
    sol = solve(rules, shoe=Shoe(counts))
    assert not sol.may_run_out
    play = optimal_callable(sol)
    ref = round_distribution(rules, counts, play)
    mean, var = ref_moments(ref)
    for strategy in (play, "optimal"):
        dist = sol.outcome_distribution(strategy)
        assert dist.exact, dist.method
        assert pmf_error(dist, ref) < 1e-13, (rules, counts)
        assert abs(dist.mean - mean) < 1e-13 and abs(dist.variance - var) < 1e-12
        assert abs(dist.probabilities.sum() - 1) < 1e-15
    assert abs(dist.mean - sol.expected_value) < 1e-14


def _kernel_split_policy(sol, split):
    """The post-split class's decisions for the hands of a two-hand split, as the kernel
    makes them (only the decisions: the law under them is the brute force's)."""
    from bjcore import RoundLaws
    from bjsolve.exact.kernel_rules import SPLIT_CLASSES, kernel_rules
    params = kernel_rules(sol.rules, SPLIT_CLASSES[split])
    laws = {}
    names = ("stand", "hit", "double")

    def play(cards, dealer, allowed, pair):
        if dealer not in laws:
            laws[dealer] = RoundLaws(sol.shoe.kernel_weights(), dealer, params, False)
        counts = [0] * 10
        for c in cards:
            counts[c - 1] += 1
        action = names[laws[dealer].split_hand_action(pair, counts)]
        assert action in allowed
        return action
    return play


@pytest.mark.parametrize("seed,split", [(0, "CDP1"), (1, "CDP")])
def test_two_hand_splits_exact_for_the_post_split_classes(seed, split):
    """CDP1 / CDP play a split hand by its cards and the other pair card gone: the brute
    force, given those decisions for split hands, gives the kernel's pmf; the mean is the
    class's EV."""
    rng = random.Random(400 + seed)
    rules = _random_rules(rng, max_split_hands=2, hole_card=rng.choice(["peek", "enhc"]))
    counts = _split_shoe(rng)
    sol = solve(rules, shoe=Shoe(counts), split=split)
    dist = sol.outcome_distribution()
    ref = round_distribution(rules, counts, optimal_callable(sol),
                             split_policy=_kernel_split_policy(sol, split))
    assert dist.exact
    assert pmf_error(dist, ref) < 1e-13, (rules, counts)
    assert abs(dist.mean - sol.expected_value) < 1e-14
    assert abs(float(sum(v * p for v, p in ref.items())) - sol.expected_value) < 1e-13


def test_two_hand_split_law_differs_from_the_independent_combination():
    """The exact two-hand law and the fast independent combination (exact_splits=False)
    share their mean; their variances differ slightly (the hands take cards from each
    other) and only the exact one is flagged exact (the fast one's variance too is the
    combination's)."""
    sol = solve(Rules(decks=1, max_split_hands=2))
    exact = sol.outcome_distribution()
    fast = sol.outcome_distribution(exact_splits=False)
    assert exact.exact and not fast.exact and "independent" in fast.method
    assert abs(exact.mean - fast.mean) < 1e-15 and abs(exact.mean - sol.expected_value) < 1e-14
    assert 1e-6 < abs(exact.variance - fast.variance) < 1e-3
    assert not fast.variance_exact and fast.variance == fast.pmf_variance
    with pytest.raises(TypeError, match="exact_splits"):
        sol.outcome_distribution(exact_splits=1)


# shoes holding more points than three hands and the dealer can use (no run-out), few ranks
# to keep the brute force small, and a pair of 8s (or 7s) that splits and resplits
RESPLIT_SHOES = [(0, (1, 0, 0, 0, 1, 1, 2, 3, 1, 7)), (2, (1, 0, 0, 0, 0, 2, 0, 3, 1, 8))]


@pytest.mark.parametrize("seed,counts", RESPLIT_SHOES)
def test_resplits_on_small_shoes_mean_exact_and_pmf_close(seed, counts):
    """With resplits (3 hands possible) on a finite shoe the split hands' pmf is combined as
    independent given the dealer's outcome: the mean stays exact; the pmf and its variance
    are within the stated error (measured on 15-16-card shoes, where the hands take the
    largest share of the shoe from each other: variance 0.5-1.4 % high, probabilities
    within 1.7e-3; docs/risk.md); ``variance`` itself is exact."""
    rng = random.Random(500 + seed)
    rules = _random_rules(rng, max_split_hands=3, hole_card=rng.choice(["peek", "enhc"]),
                          surrender="none")
    sol = solve(rules, shoe=Shoe(counts))
    assert not sol.may_run_out
    play = optimal_callable(sol)
    ref = round_distribution(rules, counts, play)
    dist = sol.outcome_distribution(play)
    mean, var = ref_moments(ref)
    assert abs(dist.mean - mean) < 1e-13
    assert not dist.exact and "independent" in dist.method
    assert abs(dist.pmf_variance - var) < 0.02 * var
    assert dist.variance_exact and abs(dist.variance - var) < 1e-12
    assert pmf_error(dist, ref) < 3e-3


@pytest.mark.parametrize("kw", [dict(decks=2), dict(decks=2, hole_card="enhc", resplit_aces=True)])
def test_fractional_shoe_probabilities_sum_to_one(kw):
    """A shoe placed exactly at a true count has fractional counts (1.8 pairs left of a
    rank...): the split construction's blocks for more pair cards than the shoe holds have
    non-zero weight there.  Regression: 2 decks at Hi-Lo true count +2 gave a sum of
    1 - 9.4e-6."""
    from bjsolve.counting.removal import true_count_shoes
    rules = Rules(**kw)
    shoes, _ = true_count_shoes(rules, "hilo", [2, 6])
    for shoe in shoes.values():
        assert shoe.is_fractional
        dist = solve(rules, shoe=shoe).outcome_distribution()
        assert abs(dist.probabilities.sum() - 1.0) < 1e-15
        assert np.all(dist.probabilities >= 0)


def test_two_spots_without_splits_against_brute_force():
    rules = Rules(decks=1, max_split_hands=1)
    counts = (2, 0, 0, 0, 3, 0, 0, 0, 3, 6)   # four ranks keep the two-spot enumeration small
    sol = solve(rules, shoe=Shoe(counts))
    play = optimal_callable(sol)
    ref = round_distribution(rules, counts, play, spots=2)
    dist = sol.outcome_distribution(play, spots=2)
    mean, var = ref_moments(ref)
    assert abs(dist.mean - mean) < 1e-13            # 2 x EV: exact
    assert abs(dist.mean - 2 * sol.expected_value) < 1e-13
    # the spots take cards from each other, left out on a finite shoe: on this 14-card shoe
    # the variance comes out 3 % high (docs/risk.md); it shrinks as the shoe grows
    assert not dist.exact and abs(dist.variance - var) < 0.05 * var


# ---- the infinite shoe: a direct computation --------------------------------------------------

P_INF = [1 / 13] * 9 + [4 / 13]


def _total(cards):
    s = sum(cards)
    return s + 10 if 1 in cards and s + 10 <= 21 else s


def _direct_infinite(rules, play):
    """{net: p} on the infinite shoe, from the rules: dealer law by upcard, each hand's final
    (total, bet) law, the split hands' count by the forced-resplit process, and hands
    independent given the dealer's outcome (peek game, no surrender)."""
    tie = -1.0 if rules.dealer_wins_ties else 0.0

    memo = {}

    def hand_law(cards, up, split_hand):
        key = (tuple(sorted(cards)), up, split_hand and cards[0])   # split aces stand
        if key not in memo:
            memo[key] = _hand_law(cards, up, split_hand)
        return memo[key]

    def _hand_law(cards, up, split_hand):
        """{(total or 0 for bust, bet): p} playing on from ``cards``."""
        if split_hand and cards[0] == 1 and not rules.hit_split_aces:
            return {(_total(cards), 1): 1.0}
        allowed = ("stand", "hit")
        t = _total(cards)
        soft = 1 in cards and sum(cards) + 10 <= 21
        dbl = ((rules.double == "any" or t in ((9, 10, 11) if rules.double == "9-11" else (10, 11)))
               and (rules.double_soft or not soft) and (len(cards) == 2 or rules.double_any_cards)
               and (rules.double_after_split or not split_hand))
        if dbl:
            allowed += ("double",)
        return action_law(cards, up, split_hand, play(tuple(sorted(cards)), up, allowed))

    def action_law(cards, up, split_hand, a):
        """{(total or 0 for bust, bet): p} taking action ``a`` (stand, hit or double) on
        ``cards`` and playing on."""
        if a == "stand":
            return {(_total(cards), 1): 1.0}
        out = {}
        for r in range(1, 11):
            new = cards + (r,)
            if _total(new) > 21:
                sub = {(0, 2 if a == "double" else 1): 1.0}
            elif a == "double":
                sub = {(_total(new), 2): 1.0}
            else:
                sub = hand_law(new, up, split_hand)
            for k, q in sub.items():
                out[k] = out.get(k, 0.0) + P_INF[r - 1] * q
        return out

    def result(state, d):
        t, bet = state
        if t == 0:
            return -bet
        if d == "bust" or t > d:
            return bet
        return -bet if t < d else tie * bet

    def conv(a, b):
        out = {}
        for x, p in a.items():
            for y, q in b.items():
                out[x + y] = out.get(x + y, 0.0) + p * q
        return out

    total = {}
    for up in range(1, 11):
        dealer = {k: float(v) for k, v in dealer_probabilities(None, (up,), rules.hit_soft_17).items()}
        for c1 in range(1, 11):
            for c2 in range(1, 11):
                w = P_INF[up - 1] * P_INF[c1 - 1] * P_INF[c2 - 1]
                cards = (c1, c2)
                allowed = ("stand", "hit", "double")
                limit = rules.max_split_hands if c1 != 1 or rules.resplit_aces else min(2, rules.max_split_hands)
                if c1 == c2 and limit >= 2:
                    allowed += ("split",)
                natural = sorted(cards) == [1, 10]
                a = "stand" if natural else play(tuple(sorted(cards)), up, allowed)
                if a == "split":
                    one = {}   # a split hand whose second card may be anything at the limit
                    for r in range(1, 11):
                        for k, q in hand_law((c1, r), up, True).items():
                            one[k] = one.get(k, 0.0) + P_INF[r - 1] * q
                    non = {}   # ... or is known not to be a pair card
                    for r in range(1, 11):
                        if r != c1:
                            for k, q in hand_law((c1, r), up, True).items():
                                non[k] = non.get(k, 0.0) + P_INF[r - 1] / (1 - P_INF[c1 - 1]) * q
                # dealer outcome by outcome
                for d, pd in dealer.items():
                    if pd == 0:
                        continue
                    if d == "blackjack":
                        v = tie if natural else -1.0
                        total[v] = total.get(v, 0.0) + w * pd
                        continue
                    if natural:
                        dist = {rules.blackjack_payout: 1.0}
                    elif a == "split":
                        dist = {}
                        # the split process fixes which hands are known to hold a non-pair
                        # second card and which (dealt at the limit) may hold any card
                        res_non = {}
                        res_one = {}
                        for k, q in non.items():
                            res_non[result(k, d)] = res_non.get(result(k, d), 0.0) + q
                        for k, q in one.items():
                            res_one[result(k, d)] = res_one.get(result(k, d), 0.0) + q
                        for hands, ph in _split_patterns(limit, P_INF[c1 - 1]):
                            n_non, n_any = hands
                            acc = {0.0: 1.0}
                            for _ in range(n_non):
                                acc = conv(acc, res_non)
                            for _ in range(n_any):
                                acc = conv(acc, res_one)
                            for x, q in acc.items():
                                dist[x] = dist.get(x, 0.0) + ph * q
                    else:
                        law = action_law(cards, up, False, a)
                        dist = {}
                        for k, q in law.items():
                            dist[result(k, d)] = dist.get(result(k, d), 0.0) + q
                    for x, q in dist.items():
                        total[x] = total.get(x, 0.0) + w * pd * q
    return total


def _split_patterns(limit, p):
    """[((hands with a non-pair second card, hands whose second card is unrestricted), p)]:
    a second card that is a pair card starts a new hand while fewer than ``limit`` exist;
    once the limit is reached the hands still waiting take any card."""
    out = {}

    def walk(hands, waiting, done, prob):
        if waiting == 0:
            out[(done, 0)] = out.get((done, 0), 0.0) + prob
            return
        if hands == limit:
            out[(done, waiting)] = out.get((done, waiting), 0.0) + prob
            return
        walk(hands + 1, waiting + 1, done, prob * p)      # a pair card: one more hand
        walk(hands, waiting - 1, done + 1, prob * (1 - p))
    walk(2, 2, 0, 1.0)
    return list(out.items())


@pytest.mark.parametrize("kw", [dict(max_split_hands=4), dict(max_split_hands=3, resplit_aces=True,
                                                               hit_soft_17=True, dealer_wins_ties=True)])
def test_infinite_shoe_against_direct_computation(kw):
    rules = Rules(decks=math.inf, **kw)
    sol = solve(rules, shoe=Shoe.infinite())
    play = optimal_callable(sol)
    direct = _direct_infinite(rules, play)
    assert abs(sum(direct.values()) - 1) < 1e-12
    for strategy in (play, "optimal"):
        dist = sol.outcome_distribution(strategy)
        assert dist.exact
        err = max(abs(dist.pmf.get(v, 0.0) - p) for v, p in direct.items())
        assert err < 1e-13
        assert set(v for v, p in direct.items() if p > 1e-300) == set(dist.pmf)
    assert abs(dist.mean - sol.expected_value) < 1e-14


def test_infinite_shoe_spots_are_independent_given_the_dealer():
    """Two spots on the infinite shoe: Var(total) = 2 Var + 2 Cov, with a positive covariance
    (both spots face the same dealer); the one-spot law is the one-spot distribution."""
    sol = solve(Rules(decks=math.inf, max_split_hands=2), shoe=Shoe.infinite())
    one = sol.outcome_distribution()
    two = sol.outcome_distribution(spots=2)
    three = sol.outcome_distribution(spots=3)
    assert two.exact and three.exact
    assert abs(two.mean - 2 * one.mean) < 1e-14 and abs(three.mean - 3 * one.mean) < 1e-14
    assert np.allclose(two.per_spot.probabilities, one.probabilities, atol=1e-15)
    assert 0.3 < two.correlation < 0.6
    assert abs(two.variance - (2 * one.variance + 2 * two.covariance)) < 1e-12
    assert abs(three.variance - (3 * one.variance + 6 * three.covariance)) < 1e-12


# ---- identities ------------------------------------------------------------------------------

def test_no_splitting_gives_one_pmf_for_every_class():
    for decks in (1, 6):
        rules = Rules(decks=decks, max_split_hands=1)
        laws = [solve(rules, split=s).outcome_distribution() for s in ("CDZ-", "CDP1", "CDP")]
        for other in laws[1:]:
            assert np.array_equal(other.values, laws[0].values)
            assert np.max(np.abs(other.probabilities - laws[0].probabilities)) < 1e-15
        assert laws[0].exact


def test_insurance_shift():
    """Insuring every hand against an ace adds 1/2 x (3 P(hole ten) - 1) per ace upcard to
    the mean, and moves each ace-up outcome by +1 (dealer natural) or -1/2."""
    sol = solve(Rules(decks=6))
    plain = sol.outcome_distribution()
    ins = sol.outcome_distribution(insurance=True)
    p_ace = sol.shoe.probabilities()[0]
    assert abs(ins.mean - plain.mean - p_ace * 0.5 * sol.insurance_ev()) < 1e-14
    # an insured hand that loses one unit to a non-natural: -1.5, which no plain round gives
    # (the exact insured pmf is checked against the brute force on small shoes)
    assert ins.pmf[-1.5] > 0 and -1.5 not in plain.pmf
    assert abs(ins.probabilities.sum() - 1) < 1e-15
    with pytest.raises(ValueError, match="insurance"):
        solve(Rules(decks=2, hole_card="exposed")).outcome_distribution(insurance=True)


def test_standard_sd_sanity(outcome_law):
    _, one = outcome_law(decks=1, max_split_hands=2)
    assert abs(one.sd - 1.156) < 5e-4            # 1D S17 DAS one split (published: 1.156)
    _, six = outcome_law(decks=6)
    assert abs(six.sd - 1.15) < 0.01
    _, no_das = outcome_law(decks=6, double_after_split=False)
    assert 0 < six.sd - no_das.sd < 0.05         # doubling after splits adds a few hundredths


def test_result_object():
    dist = solve(Rules(decks=2)).outcome_distribution()
    assert isinstance(dist, OutcomeDistribution)
    assert dist.values.min() >= -8 and dist.values.max() <= 8
    assert dist.quantile(0) == dist.values[0] and dist.quantile(1) == dist.values[-1]
    assert dist.quantile(0.5) in (-1.0, 0.0, 1.0)
    assert dist.cdf(dist.quantile(0.3)) >= 0.3
    assert abs(dist.sd ** 2 - dist.variance) < 1e-15
    with pytest.raises(TypeError):
        dist.pmf[0.0] = 1.0
    with pytest.raises(ValueError):
        dist.values[0] = 1.0
    with pytest.raises(ValueError, match="q"):
        dist.quantile(1.5)
    assert "OutcomeDistribution(mean=" in repr(dist)
    assert dist.pmf[1.5] > 0.04                   # naturals
    try:
        import pandas     # optional: bjsolve does not require it
    except ImportError:
        pandas = None
    if pandas is None:
        with pytest.raises(ImportError, match="pandas"):
            dist.to_pandas()
    else:
        frame = dist.to_pandas()
        assert list(frame.columns) == ["value", "probability"] and len(frame) == len(dist.values)


# ---- simulation ------------------------------------------------------------------------------

@pytest.mark.parametrize("decks,rounds", [(1, 60_000), (6, 60_000)])
def test_variance_against_simulation_with_resplits(decks, rounds):
    rules = Rules(decks=decks, max_split_hands=4, resplit_aces=True)
    sol = solve(rules)
    dist = sol.outcome_distribution()
    mean, se = simulate(rules, engine_policy(sol), rounds=rounds, seed=20 + decks)
    var_hat = se * se * rounds
    mu4 = float(np.dot(dist.probabilities, (dist.values - dist.mean) ** 4))
    se_var = math.sqrt((mu4 - dist.variance ** 2) / rounds)
    z = (var_hat - dist.variance) / se_var
    assert abs(z) <= 4, (var_hat, dist.variance, se_var)


# ---- bad input ---------------------------------------------------------------------------

def test_bad_input():
    sol = solve(Rules(decks=1, max_split_hands=2))
    for spots in (0, 4, -1):
        with pytest.raises(ValueError, match="spots"):
            sol.outcome_distribution(spots=spots)
    for spots in (1.0, True, "2"):
        with pytest.raises(TypeError, match="spots"):
            sol.outcome_distribution(spots=spots)
    with pytest.raises(TypeError, match="insurance"):
        sol.outcome_distribution(insurance=1)
    with pytest.raises(ValueError, match="strategy"):
        sol.outcome_distribution("best")
    with pytest.raises(TypeError, match="strategy"):
        sol.outcome_distribution(42)
    with pytest.raises(ValueError, match="split"):    # splits 5-5 with one split allowed...
        sol.outcome_distribution(lambda cards, dealer, allowed: "split")
    nodbl = solve(Rules(decks=1, double="10-11"))
    with pytest.raises(ValueError, match="double"):
        nodbl.outcome_distribution(lambda cards, dealer, allowed: "double")


def test_tiny_shoe_warns_and_flags():
    counts = (2, 1, 1, 1, 1, 1, 1, 0, 0, 2)    # 49 points: a round may need more
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sol = solve(Rules(decks=1, max_split_hands=1), shoe=Shoe(counts))
    with pytest.warns(RuntimeWarning, match="run out"):
        dist = sol.outcome_distribution()
    assert dist.may_run_out and sol.may_run_out


def test_two_hand_split_with_doubled_hands_that_can_bust():
    """A 13-card shoe where split 7s against a 6 double 7-5 (a 12, which a ten busts):
    the brute force, given the kernel's decisions, gives the kernel's pmf.  A doubled
    bust was once taken as the double node's law less its other children's, which does
    not pair up when both hands bust doubled: the split's law summed to 1.18."""
    rules, counts = Rules(decks=1, max_split_hands=2), [1, 0, 0, 0, 1, 2, 2, 3, 3, 1]
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)   # no run-out: a real game
        sol = solve(rules, shoe=Shoe(counts), split="CDZ-", threads=1)
    dist = sol.outcome_distribution(threads=1)
    ref = round_distribution(rules, counts, optimal_callable(sol),
                             split_policy=_kernel_split_policy(sol, "CDZ-"))
    assert dist.exact
    assert pmf_error(dist, ref) < 1e-13
    assert abs(dist.mean - sol.expected_value) < 1e-14


def test_cdz_split_ace_ten_is_decided_on_the_natural_s_value():
    """CDZ- decides a split hand of A and T on the unsplit values of A-T, where standing
    is worth the natural's payout: stand against a 2, double against a 4 (1.74 > 1.5) on
    this ten-rich shoe.  The split's law must follow, so its mean is the split EV of the
    pure-Python reference (it once always stood, 0.077 under it against the 4)."""
    from fractions import Fraction

    from bjcore import RoundLaws
    from bjsolve._reference import ReferenceSolver
    from bjsolve.exact.distribution import column_values as _column_values
    from bjsolve.exact.kernel_rules import kernel_rules
    counts = [1, 4, 0, 2, 0, 0, 0, 4, 0, 10]
    rules = Rules(decks=1, max_split_hands=2)
    ref = ReferenceSolver(counts, max_split_hands=2, split="CDZ-",
                          blackjack_payout=Fraction(3, 2))
    values = _column_values(1.5)
    for upcard in (2, 4):
        law = RoundLaws(Shoe(counts).kernel_weights(), upcard, kernel_rules(rules, 0), False)
        for exact in (True, False):
            split_law, _ = law.split_law(10, exact)
            mean = float((split_law.sum(axis=0) * values).sum())
            assert abs(mean - float(ref.split_ev(10, upcard, conditioned=False))) < 1e-13
        assert law.split_hand_action(10, [1] + [0] * 8 + [1]) == (0 if upcard == 2 else 2)
    sol = solve(rules, shoe=Shoe(counts), threads=1)
    assert abs(sol.outcome_distribution(threads=1).mean - sol.expected_value) < 1e-14


@pytest.mark.parametrize("hole_card", ["peek", "enhc", "exposed"])
def test_small_shoes_laws_sum_to_one_with_the_solve_s_mean(hole_card):
    """Random small shoes (that cannot run out), two-hand splits in every class: each
    dealer key's law sums to 1 and the round's mean is the solve's EV (which the
    pure-Python reference checks elsewhere)."""
    from bjsolve.model.deal import round_may_run_out
    rng = random.Random({"peek": 11, "enhc": 12, "exposed": 13}[hole_card])
    done = 0
    while done < 6:
        counts = [rng.randint(0, 4) for _ in range(9)] + [rng.randint(4, 16)]
        rules = Rules(decks=1, hole_card=hole_card, max_split_hands=2,
                      surrender=rng.choice(["none", "late"]))
        if sum(counts) < 20 or round_may_run_out(rules, Shoe(counts)):
            continue
        for split in ("CDZ-", "CDP1", "CDP"):
            sol = solve(rules, shoe=Shoe(counts), split=split, threads=1)
            dist = sol.outcome_distribution(threads=1)
            assert abs(dist.probabilities.sum() - 1) < 1e-13, (counts, split)
            assert abs(dist.mean - sol.expected_value) < 1e-13, (counts, split)
        done += 1
