"""Defects the fuzz campaign found in bjsolve.risk (issue #22: nothing silently wrong,
nothing that hangs), each against an independent figure or a bound on the work done."""
import math
from decimal import Decimal, getcontext
from fractions import Fraction

import pytest

from bjsolve.risk import ruin as risk
from bjsolve.risk.ramp import diffusion_ruin
from bjsolve.risk.ruin import RuinCurve, bankroll_for_risk, lifetime_ruin, risk_summary, trip_ruin

# a dozen outcomes with two decimals: a 1/100 lattice, ~1,000 steps wide (made up here,
# shaped like the law the campaign found trip_ruin spending 45 s on for 350 rounds)
FINE = dict(zip([-2.37, -2.16, 0.49, 0.52, 2.29, 2.95, 3.04, 3.05, 3.86, 3.89, 6.05, 7.87],
                [0.03, 0.12, 0.05, 0.1, 0.04, 0.11, 0.08, 0.07, 0.13, 0.09, 0.1, 0.08]))


def test_trip_ruin_on_a_fine_lattice_does_the_work_it_estimates(monkeypatch):
    """The work actually done (product terms building the laws of blocks of rounds, and
    states x outcomes run round by round), priced at the walk's own unit costs, stays
    within the 10 s limit trip_ruin enforces (no timing: the work is counted).  Before,
    the estimate left out the width of those laws (their wins' side), and 350 rounds
    built laws of 40,000 steps by direct convolution (~10^10 terms)."""
    work = {"seconds": 0.0}
    walk = risk._TripWalk
    built = walk.kernel

    def counting_kernel(self, k):
        if k not in self.kernels:
            part = len(built(self, k // self.BRANCH)[1])
            work["seconds"] += self.BRANCH * (self.BRANCH - 1) / 2 * part * part * \
                walk.TERM_SECONDS
            assert work["seconds"] <= risk.MAX_TRIP_SECONDS, "beyond the limit"
        return built(self, k)

    import bjcore
    rounds_run = bjcore.killed_rounds   # (the walk looks the kernel up here: _TripWalk)

    def counting_rounds(f, steps, probs, rounds, cut=0.0):
        work["seconds"] += rounds * (len(f) + rounds * max(int(steps[-1]), 0)) * len(steps) \
            * walk.STEP_SECONDS
        assert work["seconds"] <= risk.MAX_TRIP_SECONDS, "beyond the limit"
        return rounds_run(f, steps, probs, rounds, cut)

    monkeypatch.setattr(walk, "kernel", counting_kernel)
    monkeypatch.setattr(bjcore, "killed_rounds", counting_rounds)
    for bankroll, rounds in ((5, 350), (3, 1000)):
        # with an edge of ~1.5 units a round, the ruin after 350 rounds (from ~500 units
        # up) is negligible: the trip ruin is the lifetime ruin (ladder heights)
        got = trip_ruin(FINE, bankroll, rounds).probability
        assert got == pytest.approx(lifetime_ruin(FINE, bankroll).probability, rel=1e-9)
    with pytest.raises(ValueError, match="rounds must be at most about"):
        trip_ruin(FINE, 5, 50_000)


def test_bankroll_for_risk_at_a_tiny_edge_against_exact_arithmetic():
    """+-0.1 with ties and an edge of ~1e-12: the ruin from k steps is (q/p)^k for the
    chances as given; the smallest k with (q/p)^k <= 1%, in 60 digits from the exact
    binary values, and the smallest bankroll on the 0.1 lattice needing k losses."""
    q, p = 0.3499999999996499, 0.35000000000035003
    getcontext().prec = 60
    ratio = Fraction(q) / Fraction(p)
    k = math.ceil(Decimal("0.01").ln() / (Decimal(ratio.numerator) /
                                          Decimal(ratio.denominator)).ln())
    want = float(Fraction(k - 1, 10) + Fraction(1, 10))
    assert bankroll_for_risk({-0.1: q, 0.1: p, 0.0: 0.3}, 0.01) == want


@pytest.mark.parametrize("bankroll", [1e301, 1e308, math.inf, math.nan, 10 ** 400, -1])
def test_ruin_curve_refuses_a_bankroll_out_of_range_by_name(bankroll):
    curve = RuinCurve({-5.666666666666667: 0.2, 2.0: 0.8})
    with pytest.raises(ValueError, match="bankroll"):
        curve(bankroll)
    with pytest.raises(ValueError, match="bankroll"):
        curve.dominant(bankroll)
    assert curve(1e300) == 0.0              # the edge's ruin at the largest bankroll


class _LyingLaw:
    def __init__(self, mean, variance, values=(-1, 1), probabilities=(0.45, 0.55)):
        self.values, self.probabilities = list(values), list(probabilities)
        self.mean, self.variance = mean, variance


@pytest.mark.parametrize("mean,variance", [("x", 1.0), (math.inf, 0.0), (None, "x"),
                                           (1e308, math.nan), (-1.0, 1e-300)])
def test_a_laws_stated_moments_are_not_trusted(mean, variance):
    """The mean and SD come from the pmf (+-1 at 0.55: mean 0.1, variance 0.99), whatever
    a hand-made law says its moments are."""
    law = _LyingLaw(mean, variance)
    s = risk_summary(law, bankroll=10)
    assert s.ev == pytest.approx(0.1, rel=1e-12)
    assert s.sd == pytest.approx(math.sqrt(0.99), rel=1e-12)
    life = lifetime_ruin(law, 10)
    assert life.normal == pytest.approx(math.exp(-2 * 0.1 * 10 / 0.99), rel=1e-12)
    assert math.isfinite(bankroll_for_risk(law, 0.01))


@pytest.mark.parametrize("values,probabilities,field,error", [
    (["-1", "1"], [0.5, 0.5], "values", TypeError),
    ([-1, 1], ["x", 0.5], "probabilities", TypeError),
    ([True, False], [0.5, 0.5], "values", TypeError),
    ([-1, 1j], [0.5, 0.5], "values", TypeError),
    ([-1, 10 ** 400], [0.5, 0.5], "values", ValueError),
    ([-1, 1], [0.5, math.nan], "probabilities", ValueError),
    ("ab", [0.5, 0.5], "values", TypeError),
])
def test_a_laws_fields_are_checked_by_name(values, probabilities, field, error):
    law = _LyingLaw(0.0, 1.0, values, probabilities)
    for call in (lambda: lifetime_ruin(law, 10), lambda: bankroll_for_risk(law, 0.01),
                 lambda: risk_summary(law), lambda: trip_ruin(law, 10, 10)):
        with pytest.raises(error, match=f"dist: {field}"):
            call()


def test_a_bankroll_beyond_a_float_is_inf_by_the_documented_rule():
    """An edge of 1e-302 units (a win of 0.01 at chance 1e-300 beside a fair +-1): the
    bankroll for 1% ruin is ~2.3e302 units, beyond MAX_BANKROLL: inf (documented)."""
    law = {-1: 0.5, 1: 0.5, 0.01: 1e-300}
    assert bankroll_for_risk(law, 0.01) == math.inf
    # an edge below the float range is refused by name, not a hang
    with pytest.raises(ValueError, match="dist: the edge"):
        bankroll_for_risk({-1: 0.5, 1: 0.5, 0.01: 5e-324}, 0.01)


@pytest.mark.parametrize("call", [
    lambda big: risk.lifetime_ruin({-1: 0.4, 1: 0.6}, big),
    lambda big: risk.trip_ruin({-1: 0.4, 1: 0.6}, 10, big),
    lambda big: risk.trip_ruin({-1: 0.4, 1: 0.6}, big, 10),
    lambda big: diffusion_ruin(0.01, 1.0, big),
    lambda big: diffusion_ruin(big, 1.0, 10),
])
def test_integers_of_over_4300_digits_are_named_not_echoed(call):
    big = 10 ** 5000
    with pytest.raises((ValueError, TypeError)) as caught:
        call(big)
    message = str(caught.value)
    assert "Exceeds the limit" not in message and len(message) < 500
    assert "bankroll" in message or "rounds" in message or "win" in message
