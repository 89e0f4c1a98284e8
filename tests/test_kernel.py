"""Kernel-level properties: thread-count independence, the dealer trie built in C, the
engine's memory reuse.

Every expected value is independent of the engine's own output: a solve is compared with
the same solve run another way (one thread against several), the C trie with a direct
recursive enumeration written here.
"""
from fractions import Fraction

import pytest

import bjcore
from bjsolve import Rules, Shoe, solve


def _all_values(sol):
    """Every number a Solution holds: the round EVs and each upcard's round EV."""
    return ([float(sol.expected_value)]
            + [float(v) for v in sol.ev_by_dealer.values()])


@pytest.mark.parametrize("rules, shoe, split", [
    (Rules(decks=1), None, "CDZ-"),
    (Rules(decks=2, hit_soft_17=True), None, "CDP"),
    (Rules(decks=1, hole_card="exposed"), None, "CDP1"),
    (Rules(decks=1), Shoe.decks(1).remove(1, 5, 10, 10), "CDP1"),
])
def test_results_do_not_depend_on_threads(rules, shoe, split):
    one = solve(rules, shoe=shoe, split=split, threads=1)
    reference = _all_values(one)
    for n in (2, 3, None):
        sol = solve(rules, shoe=shoe, split=split, threads=n)
        assert _all_values(sol) == reference   # bit for bit
        assert list(sol.ev_by_dealer) == list(one.ev_by_dealer)
    dealer = max(one.ev_by_dealer)            # an upcard, or both exposed cards
    if isinstance(dealer, tuple) and sorted(dealer) == [1, 10]:
        dealer = (9, 10)
    assert (dict(sol.hand_ev((8, 8), dealer, given_no_blackjack=False))
            == dict(one.hand_ev((8, 8), dealer, given_no_blackjack=False)))


@pytest.mark.parametrize("bad, error", [(0, ValueError), (-2, ValueError), (1.5, TypeError),
                                        (True, TypeError), ("2", TypeError)])
def test_threads_must_be_a_positive_whole_number(bad, error):
    with pytest.raises(error, match="threads"):
        solve(Rules(decks=1), threads=bad)


def _dealer_by_recursion(start, weights, hit_soft_17):
    """Dealer outcome probabilities [17..21, natural, bust] by drawing card after card
    (exact fractions), for a shoe of counts ``weights`` after the start cards."""
    out = [Fraction(0)] * 7

    def total(cards):
        hard = sum(cards)
        return hard + 10 if 1 in cards and hard + 10 <= 21 else hard

    def walk(cards, shoe, p):
        t = total(cards)
        soft17 = t == 17 and 1 in cards and sum(cards) + 10 == 17
        if len(cards) == 2 and sorted(cards) == [1, 10]:
            out[5] += p
            return
        if t > 21:
            out[6] += p
            return
        if t >= 17 and not (hit_soft_17 and soft17):
            out[t - 17] += p
            return
        left = sum(shoe)
        for r in range(10):
            if shoe[r]:
                shoe[r] -= 1
                walk(cards + [r + 1], shoe, p * Fraction(shoe[r] + 1, left))
                shoe[r] += 1

    walk(list(start), list(weights), Fraction(1))
    return out


@pytest.mark.parametrize("start", [(1,), (6,), (10,), (2, 4), (1, 6)])
@pytest.mark.parametrize("hit_soft_17", [False, True])
def test_dealer_trie_built_in_c_matches_a_direct_recursion(start, hit_soft_17):
    shoe = [4] * 9 + [16]
    for c in start:
        shoe[c - 1] -= 1
    shoe[4] -= 2          # a depleted shoe, so that removal effects show
    shoe[9] -= 5
    want = _dealer_by_recursion(start, shoe, hit_soft_17)
    got = bjcore.DealerTrie(start, hit_soft_17).distribution(shoe)
    for g, w in zip(got, want):
        assert g == pytest.approx(float(w), abs=1e-15)


def test_repeated_solves_are_identical():
    """Memory reused between solves must not leak values from one solve into the next."""
    a = solve(Rules(decks=2), split="CDP", threads=1)
    solve(Rules(decks=1, hit_soft_17=True), threads=1)
    b = solve(Rules(decks=2), split="CDP", threads=1)
    assert _all_values(a) == _all_values(b)


@pytest.mark.parametrize("split", ["CDZ-", "CDP1", "CDP"])
def test_fixed_strategy_effects_of_removal_average_to_zero(split):
    """Fundamental theorem of card counting: with every decision frozen (split hands as
    the class plays them), the probability-weighted mean of one-card EORs is 0."""
    from bjsolve.counting.removal import effects_of_removal
    eor = effects_of_removal(Rules(decks=1), strategy="fixed", split=split)
    assert abs(eor.weighted_mean()) < 1e-15
    assert max(abs(v) for v in eor.effects.values()) > 1e-3   # not trivially zero


@pytest.mark.parametrize("split", ["CDP1", "CDP"])
@pytest.mark.parametrize("rules", [Rules(decks=1, hit_soft_17=True),
                                   Rules(decks=2, max_split_hands=2)], ids=["1D-H17", "2D-SPL1"])
def test_frozen_policy_replays_the_solve(split, rules):
    """A policy engine on the solve's own shoe, playing the recorded decisions, gives the
    optimal round EVs back, and meets no decision it lacks.  (The optimal solve values its
    hands bottom-up, split hands too with one split allowed; the policy engine by the
    recursion.)"""
    from bjsolve.exact.kernel_rules import POLICY_CLASS
    from bjsolve.exact.engines import make_engines
    sol = solve(rules, split=split, threads=1)
    frozen = make_engines(rules, sol.shoe, POLICY_CLASS)
    for key, engine in sol._engines.items():
        engine.freeze_decisions()
        engine.copy_policy_to(frozen[key])
        assert frozen[key].round_ev() == pytest.approx(float(sol.ev_by_dealer[key]),
                                                       abs=1e-15)
        assert frozen[key].policy_misses == 0


@pytest.mark.parametrize("split", ["CDP1", "CDP"])
@pytest.mark.parametrize("shoe", [Shoe.decks(2), Shoe.decks(1).remove(1, 5, 8, 8, 10, 10)],
                         ids=["2D", "1D-depleted"])
def test_one_split_shoes_queued_with_the_unsplit_hands(shoe, split):
    """With one split allowed, a solve queues the split hands' own dealer shoes in its
    walk over the unsplit hands (_hands.queue_folded_split_shoes); a split valued on
    an engine that has not solved the round queues them in a walk over the split hands.
    The two give the same split values, bit for bit."""
    from bjsolve.exact.kernel_rules import SPLIT_CLASSES, kernel_rules
    params = kernel_rules(Rules(decks=1, max_split_hands=2), SPLIT_CLASSES[split])
    weights = shoe.kernel_weights()
    compared = 0
    for up in range(1, 11):
        solved = bjcore.UpcardEngine(weights, up, params)
        solved.round_ev()
        alone = bjcore.UpcardEngine(weights, up, params)
        for pair in range(1, 11):
            if solved.split_limit(pair) < 2:
                continue
            assert alone.split_ev(pair) == solved.split_ev(pair), (up, pair)
            compared += 1
    assert compared >= 80


@pytest.mark.parametrize("split", ["CDP1", "CDP"])
def test_one_split_decisions_recorded_after_a_solve(split):
    """A one-split solve values the split hands bottom-up and keeps those of three cards or
    more out of the memo; recording the decisions afterwards (freeze_decisions) values
    them again by the recursion.  An engine that records without solving first takes the
    recursion throughout.  Both record the same decisions: the same count, and a policy
    engine playing either gives the same round value, bit for bit."""
    from bjsolve.exact.kernel_rules import POLICY_CLASS, SPLIT_CLASSES, kernel_rules
    rules = Rules(decks=2, max_split_hands=2)
    params = kernel_rules(rules, SPLIT_CLASSES[split])
    policy_params = kernel_rules(rules, POLICY_CLASS)
    weights = Shoe.decks(2).kernel_weights()
    for up in (1, 2, 6, 10):
        solved = bjcore.UpcardEngine(weights, up, params)
        solved.round_ev()
        alone = bjcore.UpcardEngine(weights, up, params)
        assert solved.freeze_decisions() == alone.freeze_decisions()
        played = []
        for recorder in (solved, alone):
            frozen = bjcore.UpcardEngine(weights, up, policy_params)
            recorder.copy_policy_to(frozen)
            played.append(frozen.round_ev())
            assert frozen.policy_misses == 0
        assert played[0] == played[1], up
