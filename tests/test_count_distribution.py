"""Exact count distributions against brute-force enumeration of every set of cards seen."""
import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from bjsolve import Shoe
from bjsolve.counting.count_laws import CountDistribution, decks_remaining, round_true_count
from bjsolve.counting.removal import SYSTEMS

SMALL_SHOES = [
    (2, 1, 1, 1, 1, 1, 1, 1, 1, 4),      # 14 cards, every rank
    (1, 2, 0, 1, 2, 1, 0, 1, 1, 3),      # 12 cards, two ranks missing
]


def brute_force(tags, counts, n):
    """{(running count as Fraction, cards seen per rank): probability} by enumerating
    every n-subset of the cards (each card a distinct object)."""
    cards = [r for r in range(10) for _ in range(counts[r])]
    total = math.comb(len(cards), n)
    law = {}
    for subset in itertools.combinations(range(len(cards)), n):
        rc = sum(Fraction(tags[cards[i]]).limit_denominator(12) for i in subset)
        law[rc] = law.get(rc, 0) + Fraction(1, total)
    return law


@pytest.mark.parametrize("system", ["hilo", "ko", "halves", "omega2"])
@pytest.mark.parametrize("counts", SMALL_SHOES)
def test_running_count_law_equals_brute_force(system, counts):
    tags = SYSTEMS[system][1]
    dist = CountDistribution(system, Shoe(counts))
    for n in range(sum(counts) + 1):
        exact = brute_force(tags, counts, n)
        got = dist.running_count_law(n)
        assert set(got) == {float(k) for k in exact}
        for rc, p in exact.items():
            assert got[float(rc)] == pytest.approx(float(p), rel=1e-12, abs=1e-15)


def _decks_and_rounding():
    """Every decks estimation with floor, every rounding with exact decks in the default run
    (a second of brute force each); the other six pairs with --run-slow."""
    return [pytest.param(decks, rounding, id=f"{rounding}-{decks}",
                         marks=() if decks == "exact" or rounding == "floor" else pytest.mark.slow)
            for rounding in ("floor", "truncate", "round", "exact")
            for decks in ("exact", "half", "full")]


@pytest.mark.parametrize("decks, rounding", _decks_and_rounding())
def test_true_count_law_equals_brute_force(decks, rounding):
    # 2 decks of which only the deal of the first 30 cards matters: enumeration over the
    # tag classes is exact (cards of one class are interchangeable for the count)
    counts = (1, 1, 1, 1, 1, 1, 1, 1, 1, 4)
    tags = SYSTEMS["hilo"][1]
    shoe = Shoe(counts)
    dist = CountDistribution("hilo", shoe)
    burn = 1
    for n in range(0, sum(counts) - burn):
        left = sum(counts) - n - burn
        d = {"exact": Fraction(left, 52),
             "half": max(Fraction(math.floor(Fraction(left, 26) + Fraction(1, 2)), 2), Fraction(1, 2)),
             "full": max(Fraction(math.floor(Fraction(left, 52) + Fraction(1, 2))), Fraction(1))}[decks]
        want = {}
        for rc, p in brute_force(tags, counts, n).items():
            tc = rc / d
            tc = {"floor": math.floor(tc), "truncate": math.trunc(tc),
                  "round": math.floor(tc + Fraction(1, 2)), "exact": tc}[rounding]
            want[float(tc)] = want.get(float(tc), 0) + p
        got = dist.true_count_law(n, burn=burn, decks_estimation=decks, tc_rounding=rounding)
        assert sorted(got) == pytest.approx(sorted(want), abs=1e-9)
        for tc, p in want.items():
            key = min(got, key=lambda k: abs(k - tc))
            assert got[key] == pytest.approx(float(p), rel=1e-12, abs=1e-15)


def test_unbalanced_true_count_subtracts_the_expected_running_count():
    shoe = Shoe.decks(1)
    dist = CountDistribution("ko", shoe)    # KO: +4 per deck
    assert dist.mean_tag == pytest.approx(4 / 52)
    n = 26
    tcs = dist.true_counts(n, tc_rounding="exact")
    expected = (dist.running_counts - 2.0) / (26 / 52)
    assert np.allclose(tcs, expected)


@pytest.mark.parametrize("system", ["hilo", "halves"])
def test_class_means_and_second_moments_equal_brute_force(system):
    counts = SMALL_SHOES[0]
    tags = SYSTEMS[system][1]
    dist = CountDistribution(system, Shoe(counts))
    means = dist.class_means()
    second = dist.class_second_moments()
    cards = [r for r in range(10) for _ in range(counts[r])]
    cls = dist.classes
    for n in (3, 7, 11):
        acc = {}
        for subset in itertools.combinations(range(len(cards)), n):
            rc = sum(Fraction(tags[cards[i]]).limit_denominator(12) for i in subset)
            k = [sum(1 for i in subset if cards[i] + 1 in members) for members in cls.members]
            tot = acc.setdefault(float(rc), [0, [0] * len(k), [0] * len(k)])
            tot[0] += 1
            tot[1] = [a + b for a, b in zip(tot[1], k)]
            tot[2] = [a + b * b for a, b in zip(tot[2], k)]
        for rc, (num, ksum, k2sum) in acc.items():
            j = int(np.argmin(abs(dist.running_counts - rc)))
            for c in range(len(ksum)):
                assert means[c, n, j] == pytest.approx(ksum[c] / num, rel=1e-12)
                assert second[c, n, j] == pytest.approx(k2sum[c] / num, rel=1e-12)


def test_six_decks_rows_sum_to_one_and_are_symmetric():
    dist = CountDistribution("hilo", Shoe.decks(6))
    assert np.allclose(dist.probabilities.sum(axis=1), 1.0, atol=1e-12)
    # Hi-Lo: the +1 and -1 classes are the same size, so the law is symmetric in the count
    assert np.allclose(dist.probabilities, dist.probabilities[:, ::-1], atol=1e-15)
    assert dist.running_count_law(312) == {0.0: pytest.approx(1.0)}


def test_conventions_helpers():
    assert float(decks_remaining(39, "half")) == 1.0      # 1.5 half-decks rounds up to 2
    assert float(decks_remaining(10, "full")) == 1.0
    assert list(round_true_count([-1.5, -0.5, 0.5, 1.5, 2.0], "round")) == [-1, 0, 1, 2, 2]
    assert list(round_true_count([-1.5, -0.5, 1.9], "truncate")) == [-1, 0, 1]
    assert list(round_true_count([-1.5, -0.5, 1.9], "floor")) == [-2, -1, 1]


@pytest.mark.parametrize("bad, field", [
    (dict(decks_estimation="quarter"), "decks_estimation"),
    (dict(tc_rounding="ceil"), "tc_rounding")])
def test_bad_conventions_name_the_field(bad, field):
    dist = CountDistribution("hilo", Shoe.decks(1))
    with pytest.raises(ValueError, match=field):
        dist.true_count_law(10, **bad)


def test_unknown_system():
    with pytest.raises(ValueError, match="count system"):
        CountDistribution("nosuch", Shoe.decks(1))


@pytest.mark.parametrize("system", ["hilo", "omega2", "halves"])
def test_unseen_rank_moments_equal_brute_force(system):
    # E[u_A] and E[u_A u_T] (u: cards of a rank not yet seen) given the running count:
    # aces and tens in one class (Hi-Lo, Halves) or in two (Omega II: the ace counts 0),
    # and 5 and 6 (one class in Hi-Lo, two in Omega II and Halves)
    counts = SMALL_SHOES[0]
    tags = SYSTEMS[system][1]
    dist = CountDistribution(system, Shoe(counts))
    ace, ace_ten = dist.unseen_rank_moments(1, 10)
    _, five_six = dist.unseen_rank_moments(5, 6)
    cards = [r for r in range(10) for _ in range(counts[r])]
    for n in (3, 7, 11):
        acc = {}
        for subset in itertools.combinations(range(len(cards)), n):
            rc = sum(Fraction(tags[cards[i]]).limit_denominator(12) for i in subset)
            u = list(counts)
            for i in subset:
                u[cards[i]] -= 1
            tot = acc.setdefault(float(rc), [0, 0, 0, 0])
            for k, v in enumerate((1, u[0], u[0] * u[9], u[4] * u[5])):
                tot[k] += v
        for rc, (num, a, at, fs) in acc.items():
            j = int(np.argmin(abs(dist.running_counts - rc)))
            assert ace[n, j] == pytest.approx(a / num, rel=1e-12, abs=1e-14)
            assert ace_ten[n, j] == pytest.approx(at / num, rel=1e-12, abs=1e-14)
            assert five_six[n, j] == pytest.approx(fs / num, rel=1e-12, abs=1e-14)
    with pytest.raises(ValueError, match="two different ranks"):
        dist.unseen_rank_moments(1, 1)
