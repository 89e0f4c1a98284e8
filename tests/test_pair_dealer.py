"""The split hands' grouped dealer distributions (bjcore._pair_dealer) against the plain
trie pass, and split values that do not depend on the order of the calls."""
import pickle
import random

import pytest

import bjsolve
from bjcore import PairDealer, dealer_trie

STARTS = [(1,), (2,), (5,), (6,), (9,), (10,), (2, 3), (6, 10)]


def _shoe(rng, start):
    decks = rng.choice([1, 2, 6, 8])
    counts = [4 * decks] * 9 + [16 * decks]
    for c in start:
        counts[c - 1] -= 1
    return [max(0, c - rng.randint(0, 3)) for c in counts]


@pytest.mark.parametrize("hit_soft_17", [False, True])
@pytest.mark.parametrize("start", STARTS)
def test_grouped_outcomes_match_the_trie_pass(start, hit_soft_17):
    # the grouped pass sorts each dealer composition by the pair cards it draws and its
    # length, and applies those factors last: the same sums in another order
    trie = dealer_trie(start, hit_soft_17)
    grouped = PairDealer(trie)
    rng = random.Random(hash((start, hit_soft_17)) & 0xFFFF)
    shoes = [_shoe(rng, start) for _ in range(6)]
    shoes += [[1, 0, 0, 0, 1, 0, 0, 0, 0, 2],      # runs out: the rest counts as bust
              [0, 3, 0, 2, 0, 0, 1, 0, 0, 5],
              [2.5, 1.25, 4, 4, 4, 4, 4, 4, 4, 15.5]]   # fractional counts
    for weights in shoes:
        want = trie.distribution(weights)[:6]
        for pair in range(1, 11):
            got = grouped.outcomes(pair, weights)
            assert max(abs(a - b) for a, b in zip(got, want)) <= 1e-15, (pair, weights)


def test_outcomes_checks_its_arguments():
    grouped = PairDealer(dealer_trie((6,), False))
    with pytest.raises(ValueError, match="pair"):
        grouped.outcomes(11, [4] * 10)
    with pytest.raises(ValueError, match="weights"):
        grouped.outcomes(2, [4] * 9)
    with pytest.raises(ValueError, match="weights"):
        grouped.outcomes(2, [4] * 9 + [-1])


@pytest.mark.parametrize("split", ["CDZ-", "CDP1", "CDP"])
@pytest.mark.parametrize("decks", [1, 6])
def test_split_values_do_not_depend_on_call_order(split, decks):
    # a solved Solution has valued every unsplit hand before its splits; one restored
    # from a pickle has fresh engines that value the pair first: the same bits
    sol = bjsolve.solve(bjsolve.Rules(decks=decks), split=split, threads=1)
    fresh = pickle.loads(pickle.dumps(sol))
    for pair, up in [(8, 10), (2, 6), (9, 7), (1, 5)]:
        a = sol.hand_ev((pair, pair), up, given_no_blackjack=False)["split"]
        b = fresh.hand_ev((pair, pair), up, given_no_blackjack=False)["split"]
        assert a == b, (pair, up)
