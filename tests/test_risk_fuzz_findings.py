"""Defects the fuzz campaign found in bjsolve.risk (issue #22: nothing silently wrong,
nothing that hangs), each against an independent figure or a bound on the work done."""
import pytest

from bjsolve import risk
from bjsolve.risk import lifetime_ruin, trip_ruin

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

    import bjcore._ruin
    rounds_run = bjcore._ruin.killed_rounds

    def counting_rounds(f, steps, probs, rounds, cut=0.0):
        work["seconds"] += rounds * (len(f) + rounds * max(int(steps[-1]), 0)) * len(steps) \
            * walk.STEP_SECONDS
        assert work["seconds"] <= risk.MAX_TRIP_SECONDS, "beyond the limit"
        return rounds_run(f, steps, probs, rounds, cut)

    monkeypatch.setattr(walk, "kernel", counting_kernel)
    monkeypatch.setattr(bjcore._ruin, "killed_rounds", counting_rounds)
    for bankroll, rounds in ((5, 350), (3, 1000)):
        # with an edge of ~1.5 units a round, the ruin after 350 rounds (from ~500 units
        # up) is negligible: the trip ruin is the lifetime ruin (ladder heights)
        got = trip_ruin(FINE, bankroll, rounds).probability
        assert got == pytest.approx(lifetime_ruin(FINE, bankroll).probability, rel=1e-9)
    with pytest.raises(ValueError, match="rounds must be at most about"):
        trip_ruin(FINE, 5, 50_000)
