"""Trip ruin's fast recursion (blocks of rounds moved by convolution away from the ruin
barrier, round by round next to it) against the plain round-by-round recursion written
out here, on a blackjack-like law and on a bet ramp's wide mixture law; and its compiled
inner loop against a loop in Python."""
from types import SimpleNamespace

import numpy as np
import pytest

from bjsolve.risk.ruin import lattice, trip_ruin


def _blackjack_like():
    """A law on half units -8 .. +8 and +1.5 (a natural), mean about -0.5%, SD ~1.15:
    made up here, shaped like a round of blackjack."""
    values = np.array([-8, -7, -6, -5, -4, -3, -2, -1, -0.5, 0, 1, 1.5, 2, 3, 4, 5, 6, 7, 8])
    probs = np.array([2e-7, 2e-6, 2e-5, 9e-5, 5e-4, 2e-3, 0.047, 0.43, 0.02, 0.085, 0.315,
                      0.045, 0.05, 2e-3, 4e-4, 8e-5, 2e-5, 2e-6, 2e-7])
    probs = probs / probs.sum()
    shift = -0.005 - float(values @ probs)                  # fix the mean at -0.005
    probs[7] -= shift / 2.0                                 # move mass between -1 and +1
    probs[10] += shift / 2.0
    return SimpleNamespace(values=values, probabilities=probs)


def _ramp_mixture(law, bets=(1, 2, 4, 8), weights=(0.7, 0.15, 0.1, 0.05), edges=None):
    """A ramp-like law: bet b with chance w, the round's outcome scaled by b."""
    acc = {}
    for b, w in zip(bets, weights):
        for v, p in zip(law.values, law.probabilities):
            acc[v * b] = acc.get(v * b, 0.0) + w * p
    values = np.array(sorted(acc))
    return SimpleNamespace(values=values, probabilities=np.array([acc[v] for v in values]))


def _plain_trip_ruin(dist, bankroll, rounds):
    """P(ruin within ``rounds``): the law of the alive bankroll, round by round, nothing
    left out (index i alive: i + 1 lattice steps above ruin)."""
    h, steps, probs = lattice(dist)
    lo = int(steps.min())
    kernel = np.zeros(int(steps.max()) - lo + 1)
    kernel[steps - lo] = probs
    start = int(np.ceil(bankroll / h - 1e-9)) - 1
    alive = np.zeros(start + 1)
    alive[start] = 1.0
    ruined = 0.0
    for _ in range(rounds):
        new = np.convolve(alive, kernel)          # new[j] is index j + lo
        ruined += float(new[:-lo].sum())
        alive = new[-lo:]
    return ruined


@pytest.mark.parametrize("bankroll,rounds", [(20, 3000), (60, 3000), (5, 500), (40, 70)])
def test_against_the_plain_recursion(bankroll, rounds):
    dist = _blackjack_like()
    want = _plain_trip_ruin(dist, bankroll, rounds)
    got = trip_ruin(dist, bankroll, rounds)
    assert got.error_bound <= 1e-15
    # both round in double precision over thousands of rounds
    assert got.probability == pytest.approx(want, rel=1e-12, abs=2e-15)


def test_a_ramps_wide_law_against_the_plain_recursion():
    """Losses up to 64 units (128 lattice steps): blocks of rounds move by FFT here."""
    dist = _ramp_mixture(_blackjack_like())
    want = _plain_trip_ruin(dist, 120, 1200)
    got = trip_ruin(dist, 120, 1200)
    assert 1e-4 < want < 0.5
    assert got.error_bound <= 1e-15
    assert got.probability == pytest.approx(want, rel=1e-12, abs=2e-15)


def test_positive_edge_far_bankroll():
    """A player with an edge and a bankroll a few SDs of the trip away: a small ruin
    probability, still against the plain recursion to its precision."""
    law = _blackjack_like()
    dist = SimpleNamespace(values=law.values + 0.0, probabilities=law.probabilities)
    # shift the mean to +1%: move mass from -1 to +1
    p = dist.probabilities.copy()
    p[7] -= 0.0075
    p[10] += 0.0075
    dist.probabilities = p
    want = _plain_trip_ruin(dist, 120, 4000)
    got = trip_ruin(dist, 120, 4000)
    assert 1e-4 < want < 0.1
    assert got.probability == pytest.approx(want, rel=1e-11, abs=2e-15)


def test_compiled_rounds_against_a_python_loop():
    from bjcore import killed_rounds
    steps = np.array([-3, -1, 0, 2, 5])
    probs = np.array([0.1, 0.35, 0.15, 0.3, 0.1])
    f = np.array([0.1, 0.0, 0.3, 0.25, 0.05, 0.3])
    for rounds in (1, 2, 5):
        alive, ruined = f.copy(), 0.0
        for _ in range(rounds):
            new = np.zeros(len(alive) + 5)
            for i, v in enumerate(alive):
                for s, p in zip(steps, probs):
                    if i + s < 0:
                        ruined += v * p
                    else:
                        new[i + s] += v * p
            alive = new
        got, got_ruined, dropped = killed_rounds(f, steps, probs, rounds)
        assert dropped == 0.0
        assert got_ruined == pytest.approx(ruined, abs=1e-16)
        assert np.abs(got - alive[:len(got)]).max() < 1e-16
        assert alive[len(got):].sum() == 0.0
        # a cut drops the top tail only, and says how much
        cut_law, cut_ruined, cut_mass = killed_rounds(f, steps, probs, rounds, 0.01)
        assert cut_ruined == pytest.approx(ruined, abs=1e-16)
        assert 0 <= cut_mass <= 0.01 * rounds
        assert cut_law.sum() + cut_mass == pytest.approx(alive.sum(), abs=1e-15)


def _every_path(values, probs, bankroll, rounds):
    """P(bankroll + S_n <= 0 for some n <= rounds), every path enumerated exactly."""
    from fractions import Fraction
    ruined, alive = Fraction(0), {Fraction(0): Fraction(1)}
    for _ in range(rounds):
        nxt = {}
        for s, w in alive.items():
            for v, p in zip(values, probs):
                t, wp = s + v, w * Fraction(p)
                if Fraction(bankroll) + t <= 0:
                    ruined += wp
                else:
                    nxt[t] = nxt.get(t, 0) + wp
        alive = nxt
    return float(ruined)


@pytest.mark.parametrize("bankroll", [0.5, 199.5, 200, 200.5, 399.99, 400, 650])
def test_outcomes_on_a_coarser_lattice_against_every_path(bankroll):
    """Outcomes that are all multiples of 100 units run on the 100-unit lattice (exact:
    the same rounds ruin); the barrier is where the bankroll falls to zero or below."""
    values, probs = [-200, 100, 300], ["0.5", "0.3", "0.2"]
    law = SimpleNamespace(values=values, probabilities=[float(p) for p in probs])
    got = trip_ruin(law, bankroll, 6)
    assert abs(got.probability - _every_path(values, probs, bankroll, 6)) <= 1e-15 + got.error_bound


def test_a_flat_bet_of_a_hundred_units_runs_on_the_hundred_unit_lattice():
    """+-100 units: ruin after three net losses from 219.77 units, (q/p)^3 over a long trip
    (gambler's ruin against an unbounded upper side).  It took minutes at 10^5 rounds on
    the 1-unit lattice (the fuzz campaign's one risk hang); on its own lattice it fits a
    budget of half a second by the cost estimate (no timing here)."""
    law = SimpleNamespace(values=[-100, 100], probabilities=[0.45, 0.55])
    got = trip_ruin(law, 219.77070906584834, 10**5, max_seconds=0.5)
    assert abs(got.probability - (0.45 / 0.55) ** 3) <= 1e-12
