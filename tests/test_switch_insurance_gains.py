"""Blackjack Switch's insurance in the counted game: the gain per state of insuring both
hands, decided on the true count read after the deal of the FOUR player cards and the ace
(``insurance_gains(..., hands=4)``, what ``CountedGame`` uses for Switch: 2 x its two
spots), against a brute-force enumeration of every set of cards seen and every deal of a
small shoe (tests/test_game_insurance.py does the one-hand deal)."""
import numpy as np
import pytest
from bjsolve import Shoe
from bjsolve.counting.count_laws import CountDistribution
from bjsolve.risk.game import insurance_gains
from insurance_oracle import brute_force_gains as _oracle

COUNTS = (3, 3, 3, 3, 3, 3, 3, 3, 3, 12)      # 39 cards, every rank
PLAYER_CARDS = 4


def brute_force_gains(system, n, index, hands):
    return _oracle(COUNTS, system, n, index, hands)


@pytest.mark.parametrize("system, index", [("hilo", 3), ("omega2", 1)])
def test_switch_insurance_gain_per_state_equals_brute_force(system, index):
    # the count after the deal takes the four player cards: the hands' tag classes drawn
    # from the state's mean class counts (the one approximation; 39 cards, 2 seen: it
    # misses by at most 4e-6, measured); read after two player cards, as one hand
    # would be, it misses by 3.6e-4 or more: the four cards matter
    dist = CountDistribution(system, Shoe(COUNTS))
    n = 2
    switch = insurance_gains(dist, np.array([n]), index, hands=PLAYER_CARDS)[0]
    one_hand = insurance_gains(dist, np.array([n]), index, hands=2)[0]
    want = brute_force_gains(system, n, index, PLAYER_CARDS)
    worst_one_hand = 0.0
    for rc, gain in want.items():
        j = int(np.argmin(abs(dist.running_counts - rc)))
        assert switch[j] == pytest.approx(gain, abs=3e-5), rc
        worst_one_hand = max(worst_one_hand, abs(one_hand[j] - gain))
    assert worst_one_hand > 3e-4


def test_always_insured_the_player_cards_do_not_matter():
    # insured whatever the count: the gain is 1.5 P(ace up, ten in the hole) - 0.5 P(ace
    # up) of the state, exact, whatever cards the player holds (the classic test's case)
    dist = CountDistribution("hilo", Shoe(COUNTS))
    got = insurance_gains(dist, np.array([2]), -1000, hands=PLAYER_CARDS)[0]
    for rc, gain in brute_force_gains("hilo", 2, -1000, PLAYER_CARDS).items():
        j = int(np.argmin(abs(dist.running_counts - rc)))
        assert got[j] == pytest.approx(gain, abs=1e-14)
