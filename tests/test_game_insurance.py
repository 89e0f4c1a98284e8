"""The counted game's insurance gain per state against brute-force enumeration of every
set of cards seen and every deal of a small shoe."""
import numpy as np
import pytest

from bjsolve import Shoe
from bjsolve.counting.count_laws import CountDistribution
from bjsolve.risk.game import insurance_gains
from insurance_oracle import brute_force_gains as _oracle

COUNTS = (2, 1, 1, 1, 1, 1, 1, 1, 1, 4)      # 14 cards, every rank


def brute_force_gains(system, n, index):
    # (every deal of one hand's two cards and the ace up)
    return _oracle(COUNTS, system, n, index, hands=2)


@pytest.mark.parametrize("system", ["hilo", "omega2"])
@pytest.mark.parametrize("index, tolerance", [(-1000, 1e-14), (3, 6e-3), (8, 2e-3)])
def test_insurance_gain_per_state_equals_brute_force(system, index, tolerance):
    # Always insured (index -1000): exact, the ace-ten product from the within-class second
    # moments (the product of the mean ace and ten counts misses it by up to 8e-3 here).
    # Insured by the count after the deal: the hands' tag classes are drawn from the
    # state's mean class counts, an approximation that on this 14-card shoe misses by up
    # to 5.3e-3 of gains up to 0.056 (on shoes of 2-6 decks the states' class counts
    # spread far less, relative to the cards left)
    dist = CountDistribution(system, Shoe(COUNTS))
    for n in (2, 5):
        got = insurance_gains(dist, np.array([n]), index, hands=2)[0]
        for rc, want in brute_force_gains(system, n, index).items():
            j = int(np.argmin(abs(dist.running_counts - rc)))
            assert got[j] == pytest.approx(want, abs=tolerance), (n, rc)


def test_the_product_of_mean_counts_overstates_insurance():
    # what the exact ace-ten product replaced: the mean counts' product is higher
    dist = CountDistribution("hilo", Shoe.decks(6))
    seen = np.arange(50, 230, 30)
    aces, ace_ten = (m[seen] for m in dist.unseen_rank_moments(1, 10))
    _, tens = (m[seen] for m in dist.unseen_rank_moments(10, 1))
    ok = ~np.isnan(ace_ten) & (dist.probabilities[seen] > 1e-6)
    assert np.all((aces * tens)[ok] > ace_ten[ok])
