"""Self-checks of the pure-Python reference solver ``bjsolve._reference``.

Only independent figures are asserted: published tables (docs/validation.md),
exact identities (probabilities summing to 1, the fundamental theorem of card counting for a
fixed strategy), and an independent card-by-card brute force of real rounds.
"""

import math
from fractions import Fraction

import pytest

from bjsolve._reference import (
    ReferenceSolver,
    ShoeExhausted,
    _dealer_probabilities_naive,
    brute_force_round_ev,
    dealer_probabilities,
    solver_policy,
    without,
)

ONE_DECK = (4,) * 9 + (16,)
TWO_DECKS = (8,) * 9 + (32,)
OUTCOMES = (17, 18, 19, 20, 21, "bust")


@pytest.fixture(scope="module")
def one_deck_spl1_no_das():
    """1D S17 DOA, no DAS, SPL1 (two hands), CDZ-."""
    return ReferenceSolver(ONE_DECK, max_split_hands=2, double_after_split=False)


@pytest.fixture(scope="module")
def one_deck_spl3_das():
    """1D S17 DOA DAS SPL3 (four hands) no RSA, CDZ-."""
    return ReferenceSolver(ONE_DECK, max_split_hands=4, double_after_split=True)


# ---------------------------------------------------------------------------------------------
# Dealer probabilities
# ---------------------------------------------------------------------------------------------

def test_infinite_shoe_dealer_hard_16():
    """The both-cards-up exercise: a dealer hard 16 ends bust 8/13 and 17..21 with 1/13 each (infinite shoe)."""
    for cards in [(10, 6), (9, 7), (2, 4, 10)]:
        d = dealer_probabilities(None, cards)
        assert d["bust"] == Fraction(8, 13)
        for k in (17, 18, 19, 20, 21):
            assert d[k] == Fraction(1, 13)
        assert d["blackjack"] == 0


@pytest.mark.parametrize("hit_soft_17", [False, True])
def test_dealer_probabilities_sum_to_one(hit_soft_17):
    shoes = [ONE_DECK, (1, 0, 2, 0, 1, 0, 0, 3, 0, 4), (0, 0, 0, 0, 0, 0, 0, 0, 0, 3), None]
    for shoe in shoes:
        for u in range(1, 11):
            if shoe is not None and shoe[u - 1] == 0:
                continue
            rest = None if shoe is None else without(shoe, u)
            d = dealer_probabilities(rest, (u,), hit_soft_17)
            assert set(d) == set(OUTCOMES) | {"blackjack"}
            assert all(isinstance(v, Fraction) and v >= 0 for v in d.values())
            assert sum(d.values()) == 1


def test_dealer_fast_recursion_equals_naive_enumeration():
    """The memoised integer recursion equals the literal unmemoised enumeration of section 2,
    including shoes so small that the dealer can run out (the missing mass is a bust)."""
    shoes = [(1, 1, 1, 1, 1, 1, 1, 1, 1, 4), (2, 3, 0, 1, 0, 2, 0, 0, 1, 2),
             (1, 2, 0, 0, 0, 0, 0, 0, 0, 0), (3, 0, 0, 0, 0, 0, 0, 0, 0, 1),
             (0, 0, 0, 0, 0, 0, 0, 0, 0, 0), None]
    for shoe in shoes:
        for h17 in (False, True):
            for cards in [(1,), (2,), (6,), (10,), (1, 5), (2, 2, 2), (10, 1), (5, 1, 1)]:
                fast = dealer_probabilities(shoe, cards, h17)
                slow = _dealer_probabilities_naive(shoe, cards, h17)
                assert fast == slow, (shoe, cards, h17)


def test_dealer_natural_and_exhaustion_conventions():
    assert dealer_probabilities(ONE_DECK, (1, 10))["blackjack"] == 1
    assert dealer_probabilities(ONE_DECK, (10, 1))["blackjack"] == 1
    # A dealer ten drawing from a shoe of aces only always has a natural.
    assert dealer_probabilities((3,) + (0,) * 9, (10,))["blackjack"] == 1
    # Three cards totalling 21 are an ordinary 21; a two-card non-natural hand has no natural.
    assert dealer_probabilities(ONE_DECK, (10, 5, 6))[21] == 1
    assert dealer_probabilities(ONE_DECK, (9, 8))["blackjack"] == 0
    # A dealer 12 who must draw from an empty shoe busts.
    assert dealer_probabilities((0,) * 10, (10, 2))["bust"] == 1


TWO_DECK_DEALER_TABLE_TWO_DECKS = """
2  13.94 13.33 13.07 12.40 11.93 35.33
3  13.28 13.07 12.46 12.18 11.54 37.48
4  13.07 12.02 12.10 11.64 11.31 39.85
5  12.10 12.28 11.73 10.90 10.73 42.25
6  16.62 10.62 10.67 10.12  9.75 42.21
7  37.05 13.82  7.80  7.88  7.34 26.11
8  12.97 36.12 12.90  6.89  6.96 24.16
9  12.09 11.20 35.41 12.11  6.10 23.09
10 11.29 11.22 11.30 33.56 11.31 21.32
1  12.85 13.09 13.02 13.12 36.34 11.59
"""


def test_two_deck_dealer_table_two_deck_dealer_table():
    """The published 2-deck dealer table: 2 decks S17, only the upcard removed, percent to 2 decimals; its 21 column
    INCLUDES the natural."""
    for line in TWO_DECK_DEALER_TABLE_TWO_DECKS.strip().splitlines():
        u, *cols = line.split()
        u = int(u)
        d = dealer_probabilities(without(TWO_DECKS, u), (u,))
        ours = [d[17], d[18], d[19], d[20], d[21] + d["blackjack"], d["bust"]]
        for x, published in zip(ours, cols):
            assert abs(100 * float(x) - float(published)) <= 0.005 + 1e-12, (u, published, x)


SOLOWIEJ_TABLE_1 = """
2	0.13897	0.13176	0.13181	0.12394	0.12052	0.35297
3	0.13030	0.13094	0.12376	0.12334	0.11604	0.37559
4	0.13097	0.11416	0.12067	0.11628	0.11509	0.40280
5	0.11968	0.12348	0.11690	0.10469	0.10632	0.42890
6	0.16694	0.10645	0.10719	0.10070	0.09787	0.42082
7	0.37234	0.13858	0.07733	0.07889	0.07298	0.25985
8	0.13085	0.36298	0.12944	0.06828	0.06979	0.23862
9	0.12188	0.10392	0.35739	0.12225	0.06110	0.23344
10	0.12415	0.12248	0.12442	0.35686	0.03956	0.23249
1	0.18378	0.19089	0.18868	0.19169	0.07513	0.16981
"""
# Entries of Table 1 that are not the 5-digit truncation of the exact value: (3, 17) is
# 0.1303132 (truncation 0.13031), (3, bust) 0.3755879 and (1, 19) 0.1886799 are rounded.
SOLOWIEJ_NOT_TRUNCATED = {(3, 17), (3, "bust"), (1, 19)}


def test_solowiej_table_1_one_deck_given_no_blackjack():
    """Solowiej (2024) Table 1: 1 deck S17, dealer probabilities given no BJ, cut after 5 digits."""
    mismatches = set()
    for line in SOLOWIEJ_TABLE_1.strip().splitlines():
        u, *cols = line.split()
        u = int(u)
        d = dealer_probabilities(without(ONE_DECK, u), (u,))
        p = 1 - d["blackjack"]
        for k, published in zip(OUTCOMES, cols):
            exact = d[k] / p
            published = Fraction(published)
            assert abs(exact - published) < Fraction(15, 10**6), (u, k)
            if math.floor(exact * 10**5) != published * 10**5:
                mismatches.add((u, k))
    assert mismatches == SOLOWIEJ_NOT_TRUNCATED


# ---------------------------------------------------------------------------------------------
# Published exact-analyzer figures (docs/validation.md)
# ---------------------------------------------------------------------------------------------

# The reference's whole-round EVs of a full deck (15-20 s each in Fractions) run with
# --run-slow; the engine's equal published figures (test_engine.py), the engine against
# this reference on small shoes (test_engine_vs_reference.py) and the reference's published
# per-hand and split values below stay in the default run.
@pytest.mark.slow
def test_round_ev_1d_spl1_no_das(one_deck_spl1_no_das):
    e = one_deck_spl1_no_das.round_ev()
    assert abs(float(e) - 0.00024273905049485706) < 1e-12


@pytest.mark.slow
def test_round_ev_1d_spl3_das(one_deck_spl3_das):
    e = one_deck_spl3_das.round_ev()
    assert abs(float(e) - 0.0018193430614842354) < 1e-12


def test_per_hand_values_1d_dealer_ace(one_deck_spl3_das):
    """1D S17 DOA DAS SPL3, dealer A, given no BJ (6 decimals)."""
    expected = {
        (1, 2): {"stand": -0.661732, "hit": -0.067808, "double": -0.593281},
        (6, 5): {"stand": -0.634013, "hit": 0.172946, "double": 0.240259},
    }
    for cards, figures in expected.items():
        values = one_deck_spl3_das.hand_values(cards, 1)
        for option, published in figures.items():
            assert abs(float(values[option]) - published) <= 5e-7 + 1e-12, (cards, option)


def test_split_2_2_v6_1d_no_das(one_deck_spl1_no_das):
    v = one_deck_spl1_no_das.split_ev(2, 6)
    assert abs(float(v) - 0.1189818683947885) < 1e-12


@pytest.mark.parametrize("split_class, published", [
    ("CDZ-", 0.25865047428631513),
    ("CDP1", 0.26559380008320427),
    ("CDP", 0.26559380008320427),
])
def test_split_2_2_v6_1d_d9_das(split_class, published):
    solver = ReferenceSolver(ONE_DECK, double="9-11", double_after_split=True,
                             max_split_hands=2, split=split_class)
    assert abs(float(solver.split_ev(2, 6)) - published) < 1e-12
    # Upcard 6: conditioning changes nothing.
    assert solver.split_ev(2, 6) == solver.split_ev(2, 6, conditioned=False)


# Our values for v7 and v8 (exact, confirmed by the card-by-card brute force of the real round)
# are 0.34057388768563... and 0.17936690492499...: 1.8e-6 and 5.1e-5 BELOW the published ones.
# Under these rules CDZ-, CDP1 and CDP give identical values here, and for two hands (no
# resplit) CDP is the best strategy that uses only the split hand's own cards, so no zero-memory
# post-split strategy reaches the published v7/v8 figures in the exact model.
NINE_NINE_DISCREPANCY = pytest.mark.xfail(
    strict=True, reason="published 9-9 v7/v8 exceed the best zero-memory split value; see report")


@pytest.mark.parametrize("upcard, published", [
    (5, 0.339219595561846),
    (6, 0.359377292533821),
    pytest.param(7, 0.34057565610755, marks=NINE_NINE_DISCREPANCY),
    pytest.param(8, 0.179418224640052, marks=NINE_NINE_DISCREPANCY),
])
def test_split_9_9_1d_no_das_unconditioned(one_deck_spl1_no_das, upcard, published):
    v = one_deck_spl1_no_das.split_ev(9, upcard, conditioned=False)
    assert abs(float(v) - published) < 1e-12


SOLOWIEJ_TABLE_2 = """
2 10 -0.156818 -0.165123 -0.330246
3 10 -0.155641 -0.232503 -0.465006
4 10 -0.154544 -0.304424 -0.608848
5 10 -0.153729 -0.376364 -0.752728
6 10 -0.165609 -0.414113 -0.828226
7 10 0.001024 -0.496273 -0.992546
8 10 0.276027 -0.597068 -1.194140
9 10 0.490271 -0.714945 -1.429890
10 10 0.700605 -0.849453 -1.698910
1 1 -0.129268 0.192311 0.213109
1 2 -0.134355 0.164810 0.204564
1 3 -0.133179 0.142659 0.200079
1 4 -0.132096 0.118918 0.189631
1 5 -0.131183 0.107088 0.197579
1 6 0.012003 0.131284 0.262569
1 7 0.273910 0.192289 0.384579
1 8 0.489571 0.240709 0.481418
1 9 0.699584 0.284227 0.568454
1 10 1.500000 0.337395 0.674791
"""
# Two doubles of Solowiej's table are internally inconsistent: for a hard 18 or 20 against a 6,
# DD = 2 HT identically (every card either stands or busts), but the table prints 2 HT + 4e-6.
SOLOWIEJ_TABLE_2_INCONSISTENT = {((8, 10), "double"), ((10, 10), "double")}


def test_solowiej_table_2_two_deck_stand_hit_double_v6():
    """Solowiej (2024) Table 2: 2 decks S17, stand/hit/double vs 6 (the hand's cards removed)."""
    solver = ReferenceSolver(TWO_DECKS)
    for line in SOLOWIEJ_TABLE_2.strip().splitlines():
        c1, c2, *cols = line.split()
        cards = (int(c1), int(c2))
        values = solver.hand_values(cards, 6)
        for option, published in zip(("stand", "hit", "double"), cols):
            if (cards, option) in SOLOWIEJ_TABLE_2_INCONSISTENT:
                assert values["double"] == 2 * values["hit"]
                assert abs(float(values[option]) - float(published)) < 5e-6
            else:
                assert abs(float(values[option]) - float(published)) <= 5e-7 + 1e-12


# ---------------------------------------------------------------------------------------------
# Independent brute force of real rounds versus the formulas
# ---------------------------------------------------------------------------------------------

def rules_of(solver):
    return dict(blackjack_payout=solver.b, max_split_hands=solver.max_split_hands,
                resplit_aces=solver.resplit_aces, hit_soft_17=solver.hit_soft_17,
                double=solver.double, double_soft=solver.double_soft,
                double_any_cards=solver.double_any_cards,
                double_after_split=solver.double_after_split,
                late_surrender=solver.late_surrender)


def cdz_policy(solver):
    """Always split the original pair; split hands: the UNSPLIT optimal choice of the same
    composition among the allowed options (CDZ-), ties to the earlier option; later decisions of
    an unsplit hand: the solver's choice."""
    def policy(cards, upcard, allowed, is_split_hand):
        if not is_split_hand and len(cards) == 2 and "split" in allowed:
            return "split"
        if is_split_hand:
            values = solver.hand_values_unconditioned(cards, upcard)
            options = [o for o in ("stand", "hit", "double") if o in allowed]
            choice = options[0]
            for o in options[1:]:
                if values[o] > values[choice]:
                    choice = o
            return choice
        return solver.best_action(cards, upcard)
    return policy


SPLIT_CASES = [
    # (analysis shoe S, pair, upcard, max hands, extra rules)
    ((2, 4, 0, 0, 1, 1, 1, 1, 1, 9), 2, 1, 2, {}),
    ((2, 4, 0, 0, 1, 1, 1, 1, 1, 9), 2, 10, 2, {}),
    ((2, 4, 0, 0, 1, 1, 1, 1, 1, 9), 2, 1, 3, {}),
    ((2, 4, 0, 0, 1, 1, 1, 1, 1, 9), 2, 6, 4, {}),
    ((2, 4, 0, 0, 1, 1, 1, 1, 1, 9), 2, 2, 4, {}),       # upcard of the pair rank: m = 1
    ((2, 4, 0, 0, 1, 1, 1, 1, 1, 9), 2, 1, 4, {}),
    ((1, 0, 0, 0, 0, 0, 2, 4, 1, 8), 8, 1, 4, {}),
    ((1, 0, 0, 0, 0, 0, 2, 4, 1, 8), 8, 8, 3, {}),
    ((1, 0, 0, 0, 0, 0, 2, 4, 1, 8), 8, 10, 4, {"hit_soft_17": True}),
    ((4, 0, 0, 0, 1, 1, 1, 0, 2, 9), 1, 10, 4, {"resplit_aces": True}),
    ((4, 0, 0, 0, 1, 1, 1, 0, 2, 9), 1, 1, 3, {"resplit_aces": True}),
    ((4, 0, 0, 0, 1, 1, 1, 0, 2, 9), 1, 6, 4, {}),
    ((2, 1, 1, 1, 1, 1, 1, 1, 1, 10), 10, 1, 4, {}),
    ((2, 1, 1, 1, 1, 1, 1, 1, 1, 10), 10, 10, 3, {}),
    ((2, 1, 1, 1, 1, 1, 1, 1, 1, 10), 10, 6, 4, {}),
    ((2, 0, 4, 1, 1, 1, 1, 1, 1, 10), 3, 3, 4, {"double_after_split": False}),
    ((2, 0, 4, 1, 1, 1, 1, 1, 1, 10), 3, 6, 4, {"double": "10-11", "double_any_cards": True}),
    ((2, 0, 4, 1, 1, 1, 1, 1, 1, 10), 3, 1, 2, {"double": "9-11", "double_soft": False}),
    ((2, 0, 4, 1, 1, 1, 1, 1, 1, 10), 3, 10, 3, {"blackjack_payout": Fraction(6, 5)}),
]


def split_cases(indices, slow):
    """SPLIT_CASES[i] for i in ``indices``, those in ``slow`` marked slow: the brute force of
    a split to three or four hands costs seconds; the default run keeps every pair rank
    and split limit of the list."""
    assert set(slow) <= set(indices)
    return [pytest.param(*SPLIT_CASES[i], marks=pytest.mark.slow if i in slow else ())
            for i in indices]


# the costliest three with --run-slow: 2-2 v A to 4 hands, 3-3 v 3 without DAS (no DAS stays
# in the published 1D SPL1 figures above) and 3-3 v T at 6:5
@pytest.mark.parametrize("shoe, pair, upcard, hands, rules",
                         split_cases(range(len(SPLIT_CASES)), slow={5, 15, 18}))
def test_split_formula_equals_brute_force_cdz(shoe, pair, upcard, hands, rules):
    """Section 6 (CDZ-) equals the exact EV of a real round in which the pair is always split,
    resplits are forced, every card is really removed and split hands play the unsplit optimal
    choice of their composition; hole card drawn last (the DESIGN model)."""
    solver = ReferenceSolver(shoe, max_split_hands=hands, **rules)
    formula = solver.split_ev(pair, upcard, conditioned=False)
    brute = brute_force_round_ev(without(shoe, pair, pair, upcard), upcard, (pair, pair),
                                 cdz_policy(solver), **rules_of(solver))
    assert formula == brute


# 2-2 v A, 2-2 v 6 and T-T v A (the costliest three) with --run-slow
@pytest.mark.parametrize("shoe, pair, upcard, hands, rules",
                         split_cases((0, 3, 7, 9, 11, 12, 13), slow={0, 3, 12}))
def test_split_formula_equals_brute_force_cdp1_hole_card_first(shoe, pair, upcard, hands, rules):
    """CDP1 is zero-memory too; and drawing the hole card first (real deal order, peek) gives
    the same EV as drawing it last."""
    solver = ReferenceSolver(shoe, max_split_hands=hands, split="CDP1", **rules)
    formula = solver.split_ev(pair, upcard, conditioned=False)
    rest = without(shoe, pair, pair, upcard)
    policy = solver_policy(solver, forced_first="split")
    for hole_card in ("last", "first"):
        brute = brute_force_round_ev(rest, upcard, (pair, pair), policy, hole_card=hole_card,
                                     **rules_of(solver))
        assert formula == brute


def rank_counts(*cards):
    counts = [0] * 10
    for r in cards:
        counts[r - 1] += 1
    return tuple(counts)


@pytest.mark.parametrize("pair, upcard, hands", [(8, 10, 4), (8, 1, 3), (2, 6, 4), (1, 10, 4),
                                                  (10, 1, 2), (9, 9, 4)])
def test_infinite_shoe_split_equals_direct_enumeration(pair, upcard, hands):
    """Infinite shoe: every split hand has the same value function, so E_split is the expected
    sum, over the second-card process (a pair card splits off a new hand while fewer than M
    hands exist), of N (hand completed by a non-pair card) and Y (pair card once the limit is
    reached), plus one unit per dealer natural for each hand beyond the first.  Enumerated
    directly here, independently of the recursions and weights of sections 6.5-6.7."""
    solver = ReferenceSolver(None, max_split_hands=hands, resplit_aces=True)
    prob = {r: Fraction(4 if r == 10 else 1, 13) for r in range(1, 11)}
    p = prob[pair]
    value = {r: solver._split_hand_value(pair, 1, rank_counts(pair, r), upcard)
             for r in range(1, 11)}
    y = value[pair]
    n = sum(prob[r] * value[r] for r in range(1, 11) if r != pair) / (1 - p)

    def expect(waiting, count):
        """(expected sum of hand values, expected number of hands) from this state."""
        if waiting == 0:
            return Fraction(0), Fraction(count)
        v_done, h_done = expect(waiting - 1, count)   # this hand is finished
        if count < hands:                              # a pair card splits off a new hand
            v_split, h_split = expect(waiting + 1, count + 1)
            return p * v_split + (1 - p) * (n + v_done), p * h_split + (1 - p) * h_done
        return p * y + (1 - p) * n + v_done, h_done

    total, expected_hands = expect(2, 2)
    hole = {1: 10, 10: 1}.get(upcard)
    if hole is not None:
        total += (expected_hands - 1) * prob[hole]
    assert solver.split_ev(pair, upcard, conditioned=False) == total


def test_split_conditioning():
    shoe = (2, 1, 1, 1, 1, 1, 1, 1, 1, 10)
    solver = ReferenceSolver(shoe)
    for upcard in (1, 10):
        hole = 10 if upcard == 1 else 1
        rest = without(shoe, 10, 10, upcard)
        beta = Fraction(rest[hole - 1], sum(rest))
        p = 1 - beta
        v = solver.split_ev(10, upcard, conditioned=False)
        assert solver.split_ev(10, upcard) == (v + 1 - p) / p


SMALL_SHOE = (2, 2, 1, 1, 1, 1, 1, 1, 2, 8)


# upcard A (the costliest, with naturals and surrender) runs with --run-slow
@pytest.mark.parametrize("upcard", [pytest.param(1, marks=pytest.mark.slow), 5])
def test_option_values_equal_brute_force(upcard):
    """ST/HT/DD (and surrender) of every two-card hand equal the real round's EV when that
    option is taken first and the solver's strategy is followed afterwards."""
    solver = ReferenceSolver(SMALL_SHOE, late_surrender=True)
    n = without(SMALL_SHOE, upcard)
    for c1 in range(1, 11):
        for c2 in range(c1, 11):
            if n[c1 - 1] < 1 or n[c2 - 1] < 1 + (c1 == c2):
                continue
            rest = without(n, c1, c2)
            values = solver.hand_values_unconditioned((c1, c2), upcard)
            options = ["stand"] if {c1, c2} == {1, 10} else ["stand", "hit", "double", "surrender"]
            for option in options:
                brute = brute_force_round_ev(rest, upcard, (c1, c2),
                                             solver_policy(solver, forced_first=option),
                                             **rules_of(solver))
                assert values[option] == brute, (c1, c2, option)


# upcard 10 (the peek's conditioning) in the default run, upcard 6 with --run-slow
@pytest.mark.parametrize("upcard", [10, pytest.param(6, marks=pytest.mark.slow)])
def test_ev_by_upcard_equals_brute_force(upcard):
    """Section 7: E(u) equals the probability-weighted brute-force EV of the real round over
    every starting hand, the player following the solver's strategy (splits included)."""
    solver = ReferenceSolver(SMALL_SHOE, late_surrender=True)
    n = without(SMALL_SHOE, upcard)
    size = sum(n)
    total = Fraction(0)
    for c1 in range(1, 11):
        for c2 in range(1, 11):
            weight = Fraction(n[c1 - 1], size) * Fraction(n[c2 - 1] - (c1 == c2), size - 1)
            if weight <= 0:
                continue
            if {c1, c2} == {1, 10}:
                assert solver.best_action((c1, c2), upcard) == "stand"
            brute = brute_force_round_ev(without(n, c1, c2), upcard, (c1, c2),
                                         solver_policy(solver), **rules_of(solver))
            total += weight * brute
    assert solver.ev_by_upcard()[upcard] == total


def test_brute_force_refuses_shoes_that_can_run_out():
    shoe = (0, 4, 4, 0, 0, 0, 0, 0, 0, 0)
    solver = ReferenceSolver(shoe)
    with pytest.raises(ShoeExhausted):
        brute_force_round_ev(without(shoe, 2, 2, 3), 3, (2, 2), cdz_policy(solver))


# ---------------------------------------------------------------------------------------------
# Exact identities
# ---------------------------------------------------------------------------------------------

def fundamental_theorem_gap(shoe, **rules):
    """sum_r P(r) E_fixed(S - [r]) - E(S): zero for a fixed strategy (section 8)."""
    s0 = ReferenceSolver(shoe, **rules)
    size = sum(shoe)
    mean = Fraction(0)
    for r in range(1, 11):
        if shoe[r - 1]:
            mean += Fraction(shoe[r - 1], size) * s0.fixed_strategy(without(shoe, r)).round_ev()
    return mean - s0.round_ev()


def test_fundamental_theorem_exact_small_shoe():
    """Exact for a zero-memory strategy as long as no path can run out of cards.  (In 12- and
    14-card shoes where some paths do run out, the identity fails, as it should: the model
    then no longer describes a real game.)"""
    assert fundamental_theorem_gap((2, 3, 1, 0, 1, 0, 1, 0, 1, 7), resplit_aces=True,
                                   double_any_cards=True, hit_soft_17=True,
                                   late_surrender=True) == 0


@pytest.mark.slow
def test_fundamental_theorem_exact_one_deck():
    assert fundamental_theorem_gap(ONE_DECK, max_split_hands=2, double_after_split=False) == 0


def test_hand_values_conditioning_and_consistency(one_deck_spl3_das):
    solver = one_deck_spl3_das
    for upcard in range(1, 11):
        d = solver.dealer(upcard)
        assert sum(d.values()) == 1
        for cards in [(10, 6), (1, 7), (8, 8), (1, 10), (5, 5)]:
            raw = solver.hand_values_unconditioned(cards, upcard)
            cond = solver.hand_values(cards, upcard)
            assert set(raw) == set(cond) >= {"stand", "hit", "double"}
            if upcard not in (1, 10):
                assert raw == cond  # p = 1: conditioning changes nothing
            else:
                p = (raw["stand"] + 1) / (cond["stand"] + 1) if cards != (1, 10) else None
                if p is not None:
                    for option in raw:
                        assert raw[option] == p * cond[option] - (1 - p)
        # Hit of a hard 21 is exactly -1; HT exists for every hand with t <= 21.
        assert solver.hand_values_unconditioned((10, 5, 6), upcard)["hit"] == -1
    assert solver.hand_values((1, 10), 1)["stand"] == Fraction(3, 2)
    assert solver.hand_values((1, 10), 6)["stand"] == Fraction(3, 2)
    assert solver.best_action((1, 10), 10) == "stand"


def test_surrender_values():
    solver = ReferenceSolver(ONE_DECK, late_surrender=True)
    hand = (10, 6)
    rest = without(ONE_DECK, 10, 6, 10)
    beta = Fraction(rest[0], sum(rest))
    assert solver.hand_values(hand, 10)["surrender"] == Fraction(-1, 2)
    assert solver.hand_values_unconditioned(hand, 10)["surrender"] == Fraction(-1, 2) - beta / 2
    assert "surrender" not in solver.hand_values((10, 3, 3), 10)
