"""The counted game's insurance gain per state by brute force, for the tests of
``bjsolve.risk.game.insurance_gains`` (tests/test_game_insurance.py: one hand's deal;
tests/test_switch_insurance_gains.py: Blackjack Switch's four player cards)."""
import itertools
import math
from fractions import Fraction

from bjsolve.counting.removal import SYSTEMS


def tag(system, rank):
    """The count system's tag of rank index ``rank`` (0 = ace), as an exact fraction."""
    return Fraction(SYSTEMS[system][1][rank]).limit_denominator(12)


def brute_force_gains(counts, system, n, index, hands):
    """{running count: insurance gain} after n cards seen of the shoe ``counts``: every
    n-subset of the cards seen equally likely (grouped by how many of each rank it holds),
    then every deal of ``hands`` player cards and the ace up from the cards left (grouped
    by the player cards' ranks, any order), the hole card any card left; insured when the
    true count after the deal (exact decks left, floor) is >= index; half the bet, paid
    2:1."""
    unseen = sum(counts) - n
    rest = unseen - hands - 1               # the cards the hole card comes from
    acc: dict = {}
    for seen in itertools.product(*(range(c + 1) for c in counts)):
        if sum(seen) != n:
            continue
        ways = math.prod(math.comb(c, k) for c, k in zip(counts, seen))
        rc = sum(k * tag(system, r) for r, k in enumerate(seen))
        left = [c - k for c, k in zip(counts, seen)]
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
            after = rc + sum(tag(system, r) for r in cards) + tag(system, 0)
            if math.floor(after / Fraction(rest, 52)) < index:
                continue
            gain += w * (1.5 * (left[9] - take[9]) / rest - 0.5)
        slot = acc.setdefault(float(rc), [0, 0.0])
        slot[0] += ways
        slot[1] += ways * gain
    return {rc: g / k for rc, (k, g) in acc.items()}
