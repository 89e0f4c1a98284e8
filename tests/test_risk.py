"""Risk of ruin from a round's distribution (bjsolve.risk).

Independent sources: the gambler's-ruin closed form, an exhaustive Fraction enumeration of
every path of a tiny distribution, a Monte Carlo of the walk, and identities (the trip ruin
grows to the lifetime ruin; bankroll_for_risk inverts lifetime_ruin).
"""
import itertools
import math
import random
from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest

from bjsolve import Rules, solve
from bjsolve.risk.ruin import bankroll_for_risk, lattice, lifetime_ruin, risk_summary, trip_ruin


def dist_of(pairs):
    values = np.array([float(v) for v, _ in pairs])
    probs = np.array([float(p) for _, p in pairs])
    return SimpleNamespace(values=values, probabilities=probs)


COIN = dist_of([(-1, 0.45), (1, 0.55)])
# a blackjack-like lattice: half units, losses up to 2, a 1.5 payout, positive edge
TINY = [(Fraction(-2), Fraction(1, 20)), (Fraction(-1), Fraction(3, 10)),
        (Fraction(-1, 2), Fraction(1, 20)), (Fraction(0), Fraction(1, 10)),
        (Fraction(1), Fraction(9, 20)), (Fraction(3, 2), Fraction(1, 20))]   # mean +0.1
TINY_DIST = dist_of(TINY)


def brute_trip_ruin(pairs, bankroll, rounds):
    """Every path of ``rounds`` outcomes, exactly: P(B + S_n <= 0 for some n <= rounds)."""
    ruin = Fraction(0)
    for path in itertools.product(pairs, repeat=rounds):
        s, p, ruined = Fraction(0), Fraction(1), False
        for v, q in path:
            p *= q
            s += v
            ruined = ruined or bankroll + s <= 0
        if ruined:
            ruin += p
    return ruin


def test_gamblers_ruin_closed_form():
    q_over_p = 0.45 / 0.55
    for b in (1, 5, 20):
        life = lifetime_ruin(COIN, b)
        assert abs(life.probability - q_over_p ** b) < 1e-12
        assert abs(life.dominant_root_estimate - q_over_p ** b) < 1e-12
        assert abs(life.root - q_over_p) < 1e-12
    # the ruin still to come after 3000 rounds is ~4e-10
    assert abs(trip_ruin(COIN, 5, 3000).probability - q_over_p ** 5) < 1e-9


@pytest.mark.parametrize("bankroll,rounds", [(1, 5), (2, 6), (2.5, 6)])
def test_trip_ruin_against_every_path(bankroll, rounds):
    exact = brute_trip_ruin(TINY, Fraction(bankroll).limit_denominator(), rounds)
    got = trip_ruin(TINY_DIST, bankroll, rounds)
    assert abs(got.probability - float(exact)) < 1e-14
    assert got.error_bound < 1e-15


def test_trip_ruin_against_monte_carlo():
    rng = random.Random(5)
    values = [float(v) for v, _ in TINY]
    weights = [float(p) for _, p in TINY]
    n, ruined = 20_000, 0
    for _ in range(n):
        s = 0.0
        for v in rng.choices(values, weights, k=40):
            s += v
            if 4 + s <= 0:
                ruined += 1
                break
    p = trip_ruin(TINY_DIST, 4, 40).probability
    assert abs(ruined / n - p) < 4 * math.sqrt(p * (1 - p) / n)


def test_trip_ruin_grows_to_the_lifetime_ruin():
    """Several roots matter (losses of 1/2, 1 and 2): the exact root method must equal the
    long-horizon dynamic programme; the dominant root alone is only close."""
    life = lifetime_ruin(TINY_DIST, 3)
    trips = [trip_ruin(TINY_DIST, 3, n).probability for n in (10, 100, 1000, 8000)]
    assert all(a <= b + 1e-15 for a, b in zip(trips, trips[1:]))
    assert abs(trips[-1] - life.probability) < 1e-12
    assert abs(life.dominant_root_estimate - life.probability) > 1e-6


def test_bankroll_for_risk_inverts_lifetime_ruin():
    for dist in (TINY_DIST, COIN):
        h, _, _ = lattice(dist)
        for risk in (0.2, 0.05, 0.01):
            b = bankroll_for_risk(dist, risk)
            assert lifetime_ruin(dist, b).probability <= risk
            if b - h > 0:
                assert lifetime_ruin(dist, b - h).probability > risk


def test_negative_edge_is_certain_ruin():
    sol = solve(Rules(decks=6))
    dist = sol.outcome_distribution()
    assert dist.mean < 0
    assert lifetime_ruin(dist, 1000).probability == 1.0
    assert bankroll_for_risk(dist, 0.05) == math.inf
    trip = trip_ruin(dist, 50, 2000).probability
    assert 0 < trip < 1


def test_blackjack_summary_and_approximations():
    dist = solve(Rules(decks=1, max_split_hands=2)).outcome_distribution()   # +0.15% edge
    s = risk_summary(dist, bankroll=400, trip_rounds=2000)
    assert abs(s.sd - dist.sd) < 1e-15 and abs(s.sd_per_100 - 10 * dist.sd) < 1e-12
    assert abs(s.n0 - (dist.sd / dist.mean) ** 2) < 1e-6 * s.n0
    assert abs(s.di - 1000 * dist.mean / dist.sd) < 1e-12
    # SCORE: the win per 100 rounds of Kelly bets (mean / variance of a 10,000-unit bankroll)
    kelly_bet = 10_000 * dist.mean / dist.variance
    assert abs(s.score - 100 * kelly_bet * dist.mean) < 1e-9 * s.score
    # lifetime: the three methods agree to a few per cent at this bankroll
    assert abs(s.lifetime_ruin_normal / s.lifetime_ruin - 1) < 0.05
    assert abs(s.lifetime_ruin_dominant_root / s.lifetime_ruin - 1) < 0.05
    assert 0 < s.trip_ruin < s.lifetime_ruin
    assert s.bankroll_for_1pct > s.bankroll_for_5pct > s.bankroll_for_13_5pct > 0
    assert [k for k, _ in s.rows()][0] == "EV per round"



def test_summary_takes_the_distributions_own_variance():
    # docs/risk.md: risk_summary takes the SD from .variance, the distribution's best
    # figure, which for two spots on a finite shoe (each spot's exact variance, the
    # covariance combined) is not the pmf's; a law without .variance gives the pmf's
    dist = solve(Rules(decks=1)).outcome_distribution(spots=2)
    assert not dist.exact and dist.variance != dist.pmf_variance
    s = risk_summary(dist)
    assert s.sd == dist.sd and s.ev == dist.mean
    plain = risk_summary(SimpleNamespace(values=dist.values, probabilities=dist.probabilities))
    assert abs(plain.sd - math.sqrt(dist.pmf_variance)) < 1e-14
    assert abs(plain.sd - s.sd) > 1e-7


def test_bad_input():
    for b in (0, -5, math.inf, math.nan):
        with pytest.raises(ValueError, match="bankroll"):
            trip_ruin(COIN, b, 10)
        with pytest.raises(ValueError, match="bankroll"):
            lifetime_ruin(COIN, b)
    for b in ("100", None, True):
        with pytest.raises(TypeError, match="bankroll"):
            lifetime_ruin(COIN, b)
    for n in (0, -1):
        with pytest.raises(ValueError, match="rounds"):
            trip_ruin(COIN, 10, n)
    for n in (1.5, "10", True):
        with pytest.raises(TypeError, match="rounds"):
            trip_ruin(COIN, 10, n)
    for r in (0, 1, 1.5, -0.1):
        with pytest.raises(ValueError, match="risk"):
            bankroll_for_risk(COIN, r)
    with pytest.raises(TypeError, match="values"):
        lifetime_ruin([1, 2], 10)
    with pytest.raises(ValueError, match="sum to 1"):
        lifetime_ruin(dist_of([(-1, 0.5), (1, 0.6)]), 10)
    with pytest.raises(ValueError, match="lattice"):
        lifetime_ruin(dist_of([(-1, 0.5), (math.pi, 0.5)]), 10)
    with pytest.raises(ValueError, match="bankroll"):
        risk_summary(COIN, trip_rounds=10)


# ---- lifetime ruin by ladder heights, against independent computations ----------------------

def _random_law(rng, loss, gain, half=True):
    """A law with an edge on the half-unit lattice: losses down to -loss, gains up to +gain."""
    steps = np.arange(-2 * loss if half else -loss, (2 * gain if half else gain) + 1)
    while True:
        p = rng.random(len(steps)) ** 3
        p /= p.sum()
        if float(p @ steps) > 0.02 * float(np.abs(steps).mean()):
            break
    values = steps / 2.0 if half else steps.astype(float)
    return SimpleNamespace(values=values, probabilities=p)


def _bracket(dist, top):
    """Lower and upper bounds of psi(0 .. top) by brute force: the equation
    psi(i) = sum_k p_k psi(i + k) solved as a linear system on 0 .. top, psi = 1 below 0,
    and above top psi = 0 (lower bound) or Lundberg's bound r^(j+1) (upper bound; r in
    (0, 1) solves E[r^K] = 1, found here by plain bisection)."""
    h, steps, probs = lattice(dist)
    a_, b_ = 1e-9, 1.0 - 1e-12
    for _ in range(200):
        m = 0.5 * (a_ + b_)
        a_, b_ = (m, b_) if float(probs @ m ** steps.astype(float)) > 1 else (a_, m)
    r = b_
    n = top + 1
    out = []
    for upper in (False, True):
        a = np.eye(n)
        b = np.zeros(n)
        for i in range(n):
            for k, p in zip(steps, probs):
                j = i + int(k)
                if 0 <= j < n:
                    a[i, j] -= p
                else:
                    b[i] += p * (1.0 if j < 0 else r ** (j + 1) if upper else 0.0)
        out.append(np.linalg.solve(a, b))
    return h, out[0], out[1]


@pytest.mark.parametrize("seed", range(6))
def test_ladder_ruin_against_a_brute_force_linear_system(seed):
    from bjsolve.risk.ruin import RuinCurve
    dist = _random_law(np.random.default_rng(seed), loss=1 + seed % 3, gain=2 + seed % 2)
    curve = RuinCurve(dist)
    assert curve.method.startswith("ladder heights")
    h, low, high = _bracket(dist, 1500)
    assert float(np.max(high[:300] - low[:300])) < 1e-13     # the bracket is tight there
    for i in (0, 1, 7, 40, 150, 299):
        got = curve((i + 1) * h)                              # index i: a bankroll of (i+1) h
        assert low[i] - 1e-13 <= got <= high[i] + 1e-13


@pytest.mark.parametrize("seed", range(6))
def test_ladder_ruin_against_the_root_method(seed):
    """The classic root method (eigenvalues of the companion matrix, a Vandermonde solve)
    is an independent computation of the same figure: agreement to ~1e-11 (the root
    method's own error; the ladder figures satisfy the ruin equation to ~1e-15)."""
    from bjsolve.risk.ruin import RuinCurve, _root_method
    rng = np.random.default_rng(100 + seed)
    dist = _random_law(rng, loss=4 + 4 * seed, gain=4 + 4 * seed)
    h, steps, probs = lattice(dist)
    curve = RuinCurve(dist)
    roots = _root_method(steps, probs)
    for bankroll in (0.5, 3, 25, 200, 1000):
        want = roots(math.ceil(bankroll / h - 1e-9) - 1)
        assert curve(bankroll) == pytest.approx(want, abs=1e-10, rel=1e-8)
    # the defining equation, away from the barrier
    lo, hi = int(steps.min()), int(steps.max())
    psi = {i: (1.0 if i < 0 else curve((i + 1) * h)) for i in range(lo, 200 + hi)}
    worst = max(abs(psi[i] - sum(p * psi[i + int(k)] for k, p in zip(steps, probs)))
                for i in range(0, 200))
    assert worst < 1e-13


def test_ladder_ruin_on_a_coarse_lattice():
    """Outcomes on every second lattice point (gcd 2): the same figure as the law with the
    steps halved and the bankroll halved."""
    from bjsolve.risk.ruin import RuinCurve
    coarse = dist_of([(-2, 0.3), (2, 0.5), (4, 0.2)])
    fine = dist_of([(-1, 0.3), (1, 0.5), (2, 0.2)])
    for b in (1, 2, 3, 7.5, 40):
        assert RuinCurve(coarse)(b) == pytest.approx(RuinCurve(fine)(b / 2), abs=1e-14)
    assert lifetime_ruin(coarse, 3).probability == pytest.approx(
        lifetime_ruin(fine, 1.5).probability, abs=1e-14)


def test_ladder_ruin_against_a_simulation_with_a_tiny_bankroll():
    """Monte Carlo of 100,000 walks from a bankroll of 1 unit, each followed until ruined
    or 80 units up (from there the ruin is below 4e-7, allowed for)."""
    rng = np.random.default_rng(11)
    values = np.array([float(v) for v, _ in TINY])
    weights = np.array([float(p) for _, p in TINY])
    trials = 100_000
    bank = np.ones(trials)
    alive = np.ones(trials, dtype=bool)
    while alive.any():
        bank[alive] += rng.choice(values, size=int(alive.sum()), p=weights)
        alive &= (bank > 0) & (bank < 80)
    p = float(np.mean(bank <= 0))
    se = math.sqrt(p * (1 - p) / trials)
    far = lifetime_ruin(TINY_DIST, 80).probability
    assert far < 4e-7
    assert abs(lifetime_ruin(TINY_DIST, 1).probability - p) < 4 * se + far


def test_trip_ruin_out_of_reach_is_zero_with_a_bound():
    """A bankroll the walk cannot lose in that many rounds: exactly 0; one it can but
    almost surely does not: 0 with Doob's bound, which the full dynamic programme (a
    smaller tolerance forces it) respects."""
    assert trip_ruin(TINY_DIST, 41, 20) == trip_ruin(TINY_DIST, 41, 20)
    assert trip_ruin(TINY_DIST, 41, 20).probability == 0.0
    assert trip_ruin(TINY_DIST, 41, 20).error_bound == 0.0     # 20 rounds lose at most 40
    quick = trip_ruin(TINY_DIST, 30, 16)
    assert quick.probability == 0.0 and 0 < quick.error_bound <= 1e-15
    full = trip_ruin(TINY_DIST, 30, 16, tolerance=1e-40)
    assert 0 < full.probability <= quick.error_bound
    # the bound is an upper bound wherever it is computed
    from bjsolve.risk.ruin import _maximal_bound
    h, steps, probs = lattice(TINY_DIST)
    for b, n in ((3, 40), (5, 100), (10, 60)):
        exact = trip_ruin(TINY_DIST, b, n, tolerance=1e-30).probability
        assert exact <= _maximal_bound(steps, probs, math.ceil(b / h), n) * (1 + 1e-12)


# ---- any edge, against closed forms -----------------------------------------------------------

def _coin(edge):
    """+-1 with E[X] = edge: p = (1 + edge) / 2, q = (1 - edge) / 2 (as floats)."""
    return 0.5 + edge / 2, 0.5 - edge / 2


def _log_q_over_p(p, q):
    """ln(q / p) to the last digits: p - q is exact in floating point (Sterbenz)."""
    return -math.log1p((p - q) / q)


EDGES = (1e-15, 1e-13, 1e-11, 1e-9, 1e-7, 1e-5, 1e-3, 0.05, 0.2, 0.5)


@pytest.mark.parametrize("edge", EDGES)
def test_simple_random_walk_at_any_edge(edge):
    """Gambler's ruin against an infinitely rich house: (q/p)^b for steps of +-1."""
    p, q = _coin(edge)
    log_ratio = _log_q_over_p(p, q)
    curve_law = {1: p, -1: q}
    for b in (1, 2, 10, 1000, 10 ** 6, 10 ** 9, 10 ** 12, 10 ** 15):
        want = math.exp(b * log_ratio)
        life = lifetime_ruin(curve_law, b)
        assert life.probability == pytest.approx(want, rel=1e-12, abs=1e-300)
        assert life.dominant_root_estimate == pytest.approx(want, rel=1e-12, abs=1e-300)
        assert life.error_bound == 0.0
    for risk in (0.5, 0.05, 1e-6, 1e-12):
        need = math.log(risk) / log_ratio        # (q/p)^b <= risk from b = ceil(need) on
        if abs(need - round(need)) > 1e-6 * need:
            assert bankroll_for_risk(curve_law, risk) == max(math.ceil(need), 1)


@pytest.mark.parametrize("edge", (1e-15, 1e-12, 1e-9, 1e-3, 0.3))
def test_ten_unit_steps_with_ties(edge):
    """+-10 with ties: ruined once ceil(b / 10) more losses than wins: (q/p)^ceil(b/10)."""
    p, q = (x / 10 for x in _coin(edge))
    law = {10: p, -10: q, 0: 1 - p - q}
    log_ratio = _log_q_over_p(p, q)
    for b in (1, 10, 11, 99.5, 10 ** 5, 10 ** 7 + 3):
        want = math.exp(math.ceil(b / 10) * log_ratio)
        assert lifetime_ruin(law, b).probability == pytest.approx(want, rel=1e-12)


def test_the_reported_cases():
    p, q = 0.05 + 1e-13, 0.05 - 1e-13
    assert lifetime_ruin({10: p, -10: q, 0: 0.9}, 1e5).probability == pytest.approx(
        math.exp(10 ** 4 * _log_q_over_p(p, q)), rel=1e-13)
    p, q = 0.5 + 1e-12, 0.5 - 1e-12
    assert lifetime_ruin({1: p, -1: q}, 2).probability == pytest.approx(
        math.exp(2 * _log_q_over_p(p, q)), rel=1e-15)
    p, q = 0.5 + 1e-9, 0.5 - 1e-9
    assert bankroll_for_risk({1: p, -1: q}, 0.05) == math.ceil(
        math.log(0.05) / _log_q_over_p(p, q))
    assert bankroll_for_risk({1: 0.55, -1: 0.45}, 1e-12) == math.ceil(
        math.log(1e-12) / math.log(0.45 / 0.55))


def _two_root_ruin(p1, q1, q2, i):
    """Steps +1, -1, -2 (p1, q1, q2): psi(i) = c1 r^i + c2 w^i over the two roots inside
    the unit circle of p1 w^2 + (p1 - 1) w - q2 = 0 (E[w^K] = 1 divided by w - 1), with
    psi(-1) = psi(-2) = 1; in 80-digit decimals."""
    from decimal import Decimal, localcontext
    with localcontext() as ctx:
        ctx.prec = 80
        exact = [Decimal(Fraction(x).numerator) / Decimal(Fraction(x).denominator)
                 for x in (p1, q1, q2)]
        total = sum(exact)
        a1, b1, b2 = (x / total for x in exact)
        disc = ((1 - a1) ** 2 + 4 * a1 * b2).sqrt()
        r, w = ((1 - a1) + disc) / (2 * a1), ((1 - a1) - disc) / (2 * a1)
        u, v = 1 / r, 1 / w
        c1, c2 = (1 - v) / (u * (u - v)), (1 - u) / (v * (v - u))
        return float(c1 * r ** i + c2 * w ** i)


@pytest.mark.parametrize("edge", (1e-15, 1e-12, 1e-9, 1e-6, 1e-3, 0.1, 0.5))
def test_two_roots_at_any_edge(edge):
    """Losses of 1 and 2 steps (the ladder heights and the asymptote C r^(i+1)) against
    the two-root closed form, bankrolls 1 to 10^15."""
    from bjsolve.risk.ruin import RuinCurve
    p1, q1, q2 = 0.55 + edge / 2, 0.35 - edge / 2, 0.1
    curve = RuinCurve({1: p1, -1: q1, -2: q2})
    assert curve.method.startswith("ladder heights")
    for b in (1, 2, 5, 100, 10 ** 4, 10 ** 6, 10 ** 9, 10 ** 12, 10 ** 15):
        want = _two_root_ruin(p1, q1, q2, b - 1)
        assert curve(b) == pytest.approx(want, rel=2e-12, abs=1e-300)


def test_no_edge_is_certain_ruin_and_no_loss_none():
    for law in ({10: 0.4, -10: 0.4, 0: 0.2}, {1: 0.5, -1: 0.5}, {2: 0.25, -1: 0.5, 0: 0.25},
                {-1: 1.0}, {-1: 0.5, 0: 0.5}):
        life = lifetime_ruin(law, 1e7)
        assert (life.probability, life.dominant_root_estimate, life.normal) == (1, 1, 1)
        assert bankroll_for_risk(law, 0.05) == math.inf
    for law in ({1: 0.5, 2: 0.5}, {0: 0.5, 0.5: 0.5}):
        life = lifetime_ruin(law, 10)
        assert (life.probability, life.dominant_root_estimate, life.normal) == (0, 0, 0)
        assert trip_ruin(law, 10, 100).probability == 0.0
    s = risk_summary({1: 0.5, 2: 0.5}, 10, 100)
    assert s.lifetime_ruin == s.trip_ruin == 0.0 and s.bankroll_for_5pct == 1.0
    assert s.di == 1000 * 1.5 / 0.5 and s.n0 == pytest.approx((0.5 / 1.5) ** 2)


def test_degenerate_laws():
    with pytest.raises(ValueError, match="every outcome is 0"):
        risk_summary({0: 1.0}, 10, 100)
    for f in (lambda d: lifetime_ruin(d, 10), lambda d: trip_ruin(d, 10, 10),
              lambda d: bankroll_for_risk(d, 0.1)):
        with pytest.raises(ValueError, match="every outcome is 0"):
            f({0: 1.0})
    # no spread: a sure win or loss each round
    win, loss = risk_summary({1: 1.0}, 5, 10), risk_summary({-1: 1.0}, 5, 10)
    assert win.di == math.inf and win.n0 == 0.0 and win.lifetime_ruin == 0.0
    assert loss.di == -math.inf and loss.score == 0.0 and loss.lifetime_ruin == 1.0
    assert loss.trip_ruin == 1.0 and trip_ruin({-1: 1.0}, 5, 4).probability == 0.0


# ---- large outcomes: bounded work ---------------------------------------------------------

@pytest.mark.parametrize("big", (1e4, 3e4, 1e6, 1e9))
def test_a_huge_win_with_unit_losses(big):
    """Losses of one step: psi = r^b, r the root of p / r + p r^big = 1 in (0, 1): r = 1/2
    to far below a double's precision (r - 1/2 ~ 2^-big)."""
    law = {big: 0.5, -1: 0.5}
    for b in (1, 10, 50):
        assert lifetime_ruin(law, b).probability == pytest.approx(0.5 ** b, rel=1e-14)
    assert bankroll_for_risk(law, 1e-9) == 30            # 2^-30 < 1e-9 < 2^-29
    # within 1,000 rounds any win makes the bankroll safe: ruin = ten losses first
    assert trip_ruin(law, 10, 1000).probability == pytest.approx(2.0 ** -10, rel=1e-14)
    s = risk_summary(law, 10, 1000)
    assert s.lifetime_ruin == pytest.approx(2.0 ** -10, rel=1e-14)


def test_beyond_the_exact_methods_lundberg_bracket():
    """A largest loss of 5,000 steps: the answer lies in Lundberg's bracket
    [r^(i+d), r^(i+1)], given as its midpoint with the half-width as the error bound; a
    bankroll from bankroll_for_risk keeps the bracket's top within the risk."""
    from bjsolve.risk.ruin import RuinCurve
    law = {-5000: 0.3, 5001: 0.7}
    curve = RuinCurve(law)
    assert curve.method.startswith("Lundberg's bracket")
    life = lifetime_ruin(law, 10_000)
    top, bottom = curve.r ** 10_000, curve.r ** (9_999 + 5_000)
    assert life.probability == pytest.approx((top + bottom) / 2, rel=1e-9)
    assert life.error_bound == pytest.approx((top - bottom) / 2, rel=1e-9)
    assert life.dominant_root_estimate == pytest.approx(top, rel=1e-9)
    b = bankroll_for_risk(law, 0.01)
    life = lifetime_ruin(law, b)
    assert life.probability + life.error_bound <= 0.01
    # the adjustment coefficient against its equation E[exp(-R X)] = 1, in 40 digits
    from decimal import Decimal, localcontext
    with localcontext() as ctx:
        ctx.prec = 40
        rate = Decimal(-math.log(curve.r))
        m = Decimal("0.3") * (5000 * rate).exp() + Decimal("0.7") * (-5001 * rate).exp()
        assert abs(m - 1) < Decimal(1e-12)


def test_trip_ruin_refuses_what_it_cannot_do_in_bounded_time():
    with pytest.raises(ValueError, match="spanning at most"):
        trip_ruin({1e4: 0.5, -1: 0.5}, 10, 100_000)
    with pytest.raises(ValueError, match="spanning at most"):
        trip_ruin({-3000: 0.3, 1: 0.2, 3001: 0.5}, 10_000, 1000)
    with pytest.raises(ValueError, match="rounds must be at most"):
        trip_ruin({-500: 0.3, 1: 0.2, 501: 0.5}, 3000, 500_000)
    with pytest.raises(ValueError, match="rounds must be at most 1,000,000"):
        trip_ruin(COIN, 10, 10 ** 7)


def test_trip_ruin_clamped_gains_against_every_path():
    """Gains beyond what the rounds left can lose are clamped (exact): against the
    brute force on a law with a win of 50 units and 6 rounds."""
    pairs = [(Fraction(-1), Fraction(1, 2)), (Fraction(50), Fraction(1, 4)),
             (Fraction(1, 2), Fraction(1, 4))]
    for b, n in ((2, 6), (3.5, 6), (1, 4)):
        want = brute_trip_ruin(pairs, Fraction(b).limit_denominator(), n)
        assert trip_ruin(dist_of(pairs), b, n).probability == pytest.approx(float(want),
                                                                            abs=1e-15)


# ---- input checks -------------------------------------------------------------------------

def test_numbers_out_of_range_name_their_field():
    for b in (10 ** 400, 1e301, -(10 ** 400)):
        with pytest.raises(ValueError, match="bankroll"):
            lifetime_ruin(COIN, b)
    with pytest.raises(ValueError, match="rounds"):
        trip_ruin(COIN, 10, 10 ** 400)
    for r in (math.nan, math.inf, 10 ** 400):
        with pytest.raises(ValueError, match="risk"):
            bankroll_for_risk(COIN, r)
    for t in (0, -1, math.nan, 1.5):
        with pytest.raises(ValueError, match="tolerance"):
            trip_ruin(COIN, 10, 10, tolerance=t)
    with pytest.raises(ValueError, match="dist: outcomes must be at most"):
        lifetime_ruin({1e12: 0.5, -1: 0.5}, 10)
    for probs in ((0.0, 0.0), (-0.5, -0.5), (math.nan, 1.0), (0.5, math.inf)):
        with pytest.raises(ValueError, match="dist"):
            lifetime_ruin(dist_of([(1, probs[0]), (-1, probs[1])]), 10)
    with pytest.raises(TypeError, match="dist"):
        lifetime_ruin({1: "half", -1: 0.5}, 10)


def test_normal_approximation_is_a_probability():
    for law in ({1: 0.5, -1: 0.5}, {1: 0.45, -1: 0.55}, {1: 0.5 + 1e-16, -1: 0.5 - 1e-16}):
        assert 0.0 <= lifetime_ruin(law, 10).normal <= 1.0


def test_the_dominant_root_to_the_last_digit():
    """r = exp(-R) against the root of E[r^K] = 1 by Newton in 60-digit decimals, on the
    1-deck one-split law (the probabilities as given, normalised exactly): within 2 ulps
    (Newton on w in extended precision left it 1.8e-14 off, moving the ruin at 3,000
    units by 1e-10)."""
    from decimal import Decimal, localcontext
    from bjsolve.risk.ruin import RuinCurve
    law = solve(Rules(decks=1, max_split_hands=2)).outcome_distribution()
    curve = RuinCurve(law)
    with localcontext() as ctx:
        ctx.prec = 60
        exact = [Decimal(Fraction(float(p)).numerator) / Decimal(Fraction(float(p)).denominator)
                 for p in law.probabilities]
        ps = [p / sum(exact) for p in exact]
        ks = [int(round(2 * v)) // curve.g for v in law.values]
        r = Decimal(curve.r)
        for _ in range(40):
            f = sum(p * r ** k for p, k in zip(ps, ks)) - 1
            r -= f / sum(p * k * r ** (k - 1) for p, k in zip(ps, ks))
        assert abs(Decimal(curve.r) - r) < Decimal(2.3e-16)
