"""Blackjack Switch's insurance in the counted game: the gain per state of insuring both
hands, decided on the true count read after the deal of the FOUR player cards and the ace
(``insurance_gains(..., hands=4)``, what ``CountedGame`` uses for Switch: 2 x its two
spots), against a brute-force enumeration of every set of cards seen and every deal of a
small shoe (tests/test_game_insurance.py does the one-hand deal)."""
import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from bjsolve import Shoe
from bjsolve.counting.count_laws import CountDistribution
from bjsolve.counting.removal import SYSTEMS
from bjsolve.risk.game import insurance_gains

COUNTS = (3, 3, 3, 3, 3, 3, 3, 3, 3, 12)      # 39 cards, every rank
PLAYER_CARDS = 4


def _tag(system, rank):
    return Fraction(SYSTEMS[system][1][rank]).limit_denominator(12)


def brute_force_gains(system, n, index, hands):
    """{running count: insurance gain per hand} after n cards seen: every n-subset of the
    cards seen equally likely, then every deal of ``hands`` player cards and the ace up
    from the cards left (grouped by the player cards' ranks, any order), the hole card
    any card left; insured when the true count after the deal (exact decks left, floor)
    is >= index; half the bet, paid 2:1."""
    unseen = sum(COUNTS) - n
    rest = unseen - hands - 1               # the cards the hole card comes from
    acc: dict = {}
    for seen in itertools.product(*(range(c + 1) for c in COUNTS)):
        if sum(seen) != n:
            continue
        ways = math.prod(math.comb(c, k) for c, k in zip(COUNTS, seen))
        rc = sum(k * _tag(system, r) for r, k in enumerate(seen))
        left = [c - k for c, k in zip(COUNTS, seen)]
        gain = 0.0
        for cards in itertools.combinations_with_replacement(range(10), hands):
            take = [cards.count(r) for r in range(10)]
            orders = math.factorial(hands) / math.prod(math.factorial(t) for t in take)
            take[0] += 1                     # the ace up
            if any(t > k for t, k in zip(take, left)):
                continue
            w = orders
            for r, t in enumerate(take):
                for i in range(t):
                    w *= left[r] - i
            for i in range(hands + 1):
                w /= unseen - i
            after = rc + sum(_tag(system, r) for r in cards) + _tag(system, 0)
            if math.floor(after / Fraction(rest, 52)) < index:
                continue
            gain += w * (1.5 * (left[9] - take[9]) / rest - 0.5)
        slot = acc.setdefault(float(rc), [0, 0.0])
        slot[0] += ways
        slot[1] += ways * gain
    return {rc: g / k for rc, (k, g) in acc.items()}


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
