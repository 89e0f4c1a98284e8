"""Engine tests: published figures, exact identities, and bad input.

Every asserted number comes from a source independent of this engine:

* published exact-analyzer figures (docs/validation.md);
* Solowiej (2024): Table 2 (stand/hit/double v 6,
  2 decks S17 DAS; its split column uses an approximate method and is NOT used) and the
  infinite-deck row of Table 3;
* identities that any exact analyzer must satisfy (optimality, policy evaluation,
  rule monotonicity, the burn-card / fundamental-theorem identity).

No number printed by this engine is pasted in here.
"""
import math
from fractions import Fraction

import pytest

import bjsolve
from bjsolve import Rules, Shoe, dealer_probabilities, solve
from bjsolve.model.actions import first_best

EXACT = 1e-12      # exact analyzer figures (binary64, different summation orders)
IDENTITY = 1e-13   # identities computed by this engine in two different ways


# ---- shared solves ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def solved():
    """solved(split="CDZ-", shoe=None, **rule_fields) -> cached Solution."""
    cache = {}

    def get(split="CDZ-", shoe=None, **fields):
        rules = Rules(**fields)
        key = (rules, shoe, split)
        if key not in cache:
            cache[key] = solve(rules, shoe=shoe, split=split)
        return cache[key]

    return get


def cdz_policy(sol):
    """A strategy callable that reproduces ``sol``'s CDZ- decisions from its hand values.

    Every decision takes the first strictly best allowed action by the solve's
    unconditioned values of the hand's own composition: at the start all options (split,
    surrender included), later decisions stand/hit/double, and split hands the *unsplit*
    values of the same composition (the CDZ- definition).  Depends on ``sol`` only.
    """
    cache = {}

    def policy(cards, upcard, allowed):
        key = (cards, upcard)
        values = cache.get(key)
        if values is None:
            values = cache[key] = dict(sol.hand_ev(cards, upcard, given_no_blackjack=False))
        return first_best({a: values[a] for a in allowed})

    return policy


def mimic_dealer(cards, upcard, allowed):
    """Hit below 17, otherwise stand (never double, split or surrender)."""
    hard = sum(cards)
    total = hard + 10 if (1 in cards and hard + 10 <= 21) else hard
    return "hit" if total < 17 else "stand"


# ---- published exact-analyzer figures: whole-round EVs ------------------------------------------

LS_6D = Fraction(-636491186124390779995774550739146028101753,
                 192719583540554771243108474049609438884038125)

OVERALL = [
    # id, rule fields, split class, EV (unconditioned)
    ("1D", dict(decks=1), "CDZ-", 0.0018193430614842354),
    ("2D", dict(decks=2), "CDZ-", -0.0017885990553269115),
    ("6D", dict(decks=6), "CDZ-", -0.0040287023611541364),
    ("6D-CDP1", dict(decks=6), "CDP1", -0.004028643427670363),
    ("6D-CDP", dict(decks=6), "CDP", -0.004028615234221981),
    ("6D-H17", dict(decks=6, hit_soft_17=True), "CDZ-", -0.006153891229248358),
    ("8D", dict(decks=8), "CDZ-", -0.004305806289703673),
    ("1D-noDAS-SPL1", dict(decks=1, double_after_split=False, max_split_hands=2), "CDZ-",
     0.00024273905049485706),
    ("6D-LS", dict(decks=6, surrender="late"), "CDZ-", -0.0033026803733750346),
]


@pytest.mark.parametrize("fields,split,expected", [o[1:] for o in OVERALL],
                         ids=[o[0] for o in OVERALL])
def test_overall_ev_matches_reference(solved, fields, split, expected):
    # the defaults are S17 DOA DAS SPL3 (4 hands) no RSA, no surrender, peek, 3:2
    sol = solved(split=split, **fields)
    assert sol.expected_value == pytest.approx(expected, abs=EXACT)


def test_late_surrender_ev_matches_exact_fraction(solved):
    # transcription check: the decimal is a binary64 result, the fraction exact
    assert float(LS_6D) == pytest.approx(-0.0033026803733750346, abs=1e-15)
    sol = solved(decks=6, surrender="late")
    assert sol.expected_value == pytest.approx(float(LS_6D), abs=EXACT)


# ---- published exact-analyzer figures: split EVs ---------------------------------------------------

D9_BOUND = 0.26791291957582325  # truly optimal post-split play: bounds every split class


@pytest.mark.parametrize("given_no_blackjack", [True, False])
def test_split_2_2_v6_no_das(solved, given_no_blackjack):
    # upcard 6: no dealer natural, so conditioned == unconditioned
    sol = solved(decks=1, double_after_split=False, max_split_hands=2)
    ev = sol.hand_ev((2, 2), 6, given_no_blackjack=given_no_blackjack)
    assert ev["split"] == pytest.approx(0.1189818683947885, abs=EXACT)


@pytest.mark.parametrize("split,expected", [("CDZ-", 0.25865047428631513),
                                            ("CDP1", 0.26559380008320427),
                                            ("CDP", 0.26559380008320427)])
def test_split_2_2_v6_d9_das(solved, split, expected):
    sol = solved(split=split, decks=1, double="9-11", max_split_hands=2)
    value = sol.hand_ev((2, 2), 6)["split"]
    assert value == pytest.approx(expected, abs=EXACT)
    assert value <= D9_BOUND


# The published 9-9 v7/v8 figures lie 1.8e-6 and 5.1e-5 ABOVE the engine, while v5/v6 agree to
# 1e-15.  Under these rules CDZ-, CDP1 and CDP give the same value for every doubling rule,
# and the reference solver's card-by-card brute force of the real round confirms it, so no
# post-split strategy that sees only the split hand's own cards reaches the published
# figures: they most likely come from play that also knows the other hand's cards.
# Strict: if the engine ever starts matching them, this must be looked at again.
_NINES_XFAIL = pytest.mark.xfail(
    strict=True,
    reason="published 9-9 v7/v8 exceed every zero-memory post-split strategy")


@pytest.mark.parametrize("upcard,expected", [
    (5, 0.339219595561846),
    (6, 0.359377292533821),
    pytest.param(7, 0.34057565610755, marks=_NINES_XFAIL),
    pytest.param(8, 0.179418224640052, marks=_NINES_XFAIL),
])
def test_split_9_9_no_das_spl1(solved, upcard, expected):
    sol = solved(decks=1, double_after_split=False, max_split_hands=2)
    value = sol.hand_ev((9, 9), upcard, given_no_blackjack=False)["split"]
    assert value == pytest.approx(expected, abs=EXACT)


# ---- published exact-analyzer figures: per-hand values v A (1D, given no BJ, 6 decimals) ---------

@pytest.mark.parametrize("cards,expected", [
    ((1, 2), {"stand": -0.661732, "hit": -0.067808, "double": -0.593281}),
    ((6, 5), {"stand": -0.634013, "hit": 0.172946, "double": 0.240259}),
])
def test_per_hand_values_v_ace(solved, cards, expected):
    sol = solved(decks=1)
    ev = sol.hand_ev(cards, 1)
    assert ev.given_no_blackjack
    for action, printed in expected.items():
        # printed to 6 decimals: within half a unit of the last digit
        assert abs(ev[action] - printed) <= 5e-7 + EXACT, action


# ---- Solowiej (2024), Table 2: 2 decks S17 DAS, dealer 6 ------------------------------------

# hand: (stand, hit, double).  The split column is not used (approximate split method).
TABLE2 = {
    (2, 10): (-0.156818, -0.165123, -0.330246),
    (3, 10): (-0.155641, -0.232503, -0.465006),
    (4, 10): (-0.154544, -0.304424, -0.608848),
    (5, 10): (-0.153729, -0.376364, -0.752728),
    (6, 10): (-0.165609, -0.414113, -0.828226),
    (7, 10): (0.001024, -0.496273, -0.992546),
    (8, 10): (0.276027, -0.597068, -1.194140),
    (9, 10): (0.490271, -0.714945, -1.429890),
    (10, 10): (0.700605, -0.849453, -1.698910),
    (1, 1): (-0.129268, 0.192311, 0.213109),
    (1, 2): (-0.134355, 0.164810, 0.204564),
    (1, 3): (-0.133179, 0.142659, 0.200079),
    (1, 4): (-0.132096, 0.118918, 0.189631),
    (1, 5): (-0.131183, 0.107088, 0.197579),
    (1, 6): (0.012003, 0.131284, 0.262569),
    (1, 7): (0.273910, 0.192289, 0.384579),
    (1, 8): (0.489571, 0.240709, 0.481418),
    (1, 9): (0.699584, 0.284227, 0.568454),
    (1, 10): (1.500000, 0.337395, 0.674791),
}


def _table2_tolerance(printed):
    """Half a unit of the last printed digit.

    The caption says "cut after six digits", but the printed figures are *rounded*, not
    truncated: the deviations of exact values have both signs (e.g. 5+10 stand and 2+10
    stand sit on opposite sides), so no truncation direction fits.  And "six digits" means
    six significant digits: entries of magnitude >= 1 carry only five decimals (the sixth
    printed decimal is always 0: -1.194140 is -1.19414, the exact 2 x hit of 8+10 rounded).
    """
    return (5e-7 if abs(printed) < 1 else 5e-6) + EXACT


@pytest.mark.parametrize("cards", list(TABLE2), ids=lambda c: f"{c[0]}+{c[1]}")
def test_solowiej_table2_v6(solved, cards):
    # rules: 2 decks S17 DAS (resplits allowed: irrelevant for stand/hit/double)
    sol = solved(decks=2, double_after_split=True)
    ev = sol.hand_ev(cards, 6)
    for action, printed in zip(("stand", "hit", "double"), TABLE2[cards]):
        assert abs(ev[action] - printed) <= _table2_tolerance(printed), (action, ev[action])


# ---- Solowiej (2024), Table 3: infinite-deck row -------------------------------------------

@pytest.mark.parametrize("das,percent", [(False, -0.6901), (True, -0.5702)])
def test_solowiej_table3_infinite(solved, das, percent):
    # S17 DOA peek 3:2, no resplits (2 hands), no RSA.  Printed to 4 decimals of a percent
    # (5e-7 as a fraction) and the paper's recursion depth is truncated, which can shift
    # the figure a little further: assert within 2.5e-6 as a fraction.
    sol = solved(decks=math.inf, double_after_split=das, max_split_hands=2)
    assert abs(sol.expected_value - percent / 100) <= 2.5e-6


# ---- identities -----------------------------------------------------------------------

@pytest.mark.parametrize("decks", [1, 6])
def test_optimal_beats_chart_and_mimic_dealer(solved, decks):
    sol = solved(decks=decks)
    optimal = sol.expected_value
    chart = sol.evaluate(sol.strategy)
    mimic = sol.evaluate(mimic_dealer)
    assert chart <= optimal + IDENTITY
    assert mimic < chart
    assert mimic < optimal


POLICY_RULES = [
    dict(decks=1),
    dict(decks=6, hit_soft_17=True, double_after_split=False, surrender="late"),
    dict(decks=2, double="10-11", resplit_aces=True, max_split_hands=3, blackjack_payout=1.2),
]


# the 6-deck game (a few seconds: the policy is asked hand by hand) with --run-slow
@pytest.mark.parametrize("fields", [pytest.param(f, marks=pytest.mark.slow if f["decks"] == 6
                                                 else ()) for f in POLICY_RULES],
                         ids=lambda f: Rules(**f).describe())
def test_cdz_policy_reproduces_optimal_ev(solved, fields):
    sol = solved(**fields)
    assert sol.evaluate(cdz_policy(sol)) == pytest.approx(sol.expected_value, abs=IDENTITY)


@pytest.mark.parametrize("decks", [1, 6])
def test_split_class_order(solved, decks):
    cdz = solved(split="CDZ-", decks=decks).expected_value
    cdp1 = solved(split="CDP1", decks=decks).expected_value
    cdp = solved(split="CDP", decks=decks).expected_value
    assert cdz <= cdp1 + 1e-15
    assert cdp1 <= cdp + 1e-15


# (better rules, worse rules): the better rule set can never have a lower optimal EV
MONOTONE = [
    ("DAS>=noDAS", dict(), dict(double_after_split=False)),
    ("S17>=H17", dict(), dict(hit_soft_17=True)),
    ("RSA>=noRSA", dict(resplit_aces=True), dict()),
    ("4>=3 hands", dict(max_split_hands=4), dict(max_split_hands=3)),
    ("3>=2 hands", dict(max_split_hands=3), dict(max_split_hands=2)),
    ("2>=1 hands", dict(max_split_hands=2), dict(max_split_hands=1)),
    ("3:2>=6:5", dict(), dict(blackjack_payout=1.2)),
    ("LS>=none", dict(surrender="late"), dict()),
]


@pytest.mark.parametrize("decks", [1, 6])
@pytest.mark.parametrize("better,worse", [m[1:] for m in MONOTONE], ids=[m[0] for m in MONOTONE])
def test_rule_monotonicity(solved, decks, better, worse):
    assert solved(decks=decks, **better).expected_value >= \
        solved(decks=decks, **worse).expected_value


@pytest.mark.parametrize("decks", [1, 6, math.inf])
@pytest.mark.parametrize("payout", [1.5, 1.2])
def test_natural_stand_value(solved, decks, payout):
    sol = solved(decks=decks, blackjack_payout=payout)
    # upcard 6: no dealer natural possible, the natural is paid in full
    assert sol.hand_ev((1, 10), 6)["stand"] == payout
    assert sol.hand_ev((1, 10), 6, given_no_blackjack=False)["stand"] == payout
    # v A and v T: given no dealer natural, the player's natural is paid in full
    for upcard in (1, 10):
        assert sol.hand_ev((1, 10), upcard)["stand"] == pytest.approx(payout, abs=EXACT)


@pytest.mark.parametrize("decks", [1, 2, 6, 8, math.inf])
@pytest.mark.parametrize("h17", [False, True])
@pytest.mark.parametrize("given_no_blackjack", [False, True])
def test_dealer_probabilities_sum_to_one(decks, h17, given_no_blackjack):
    rules = Rules(decks=decks, hit_soft_17=h17)
    for upcard in range(1, 11):
        probs = dealer_probabilities(rules, upcard, given_no_blackjack=given_no_blackjack)
        assert set(probs) == {17, 18, 19, 20, 21, "bust", "blackjack"}
        assert all(p >= 0 for p in probs.values())
        assert sum(probs.values()) == pytest.approx(1.0, abs=EXACT)
        if given_no_blackjack:
            assert probs["blackjack"] == 0
    # with a player's hand removed as well
    probs = dealer_probabilities(rules, 10, removed=(1, 5, 10))
    assert sum(probs.values()) == pytest.approx(1.0, abs=EXACT)


def test_burn_card_identity_with_frozen_strategy(solved):
    """Fundamental theorem of card counting: with a strategy frozen from the full shoe S0,
    sum_r p_r E_fixed(S0 - r) = E(S0) exactly."""
    rules = Rules(decks=1)
    sol0 = solved(decks=1)
    policy = cdz_policy(sol0)  # depends on sol0 only
    full = Shoe.decks(1)
    probabilities = full.probabilities()
    total = 0.0
    for r in range(1, 11):
        depleted = solve(rules, shoe=full.remove(r))
        total += probabilities[r - 1] * depleted.evaluate(policy)
    assert total == pytest.approx(sol0.expected_value, abs=IDENTITY)


def test_ev_by_upcard_weights_to_expected_value(solved):
    sol = solved(decks=1)
    probabilities = Shoe.decks(1).probabilities()
    assert set(sol.ev_by_upcard) == set(range(1, 11))
    total = sum(probabilities[u - 1] * e for u, e in sol.ev_by_upcard.items())
    assert total == pytest.approx(sol.expected_value, abs=IDENTITY)


# ---- bad input ----------------------------------------------------------------------------

def test_bad_split_class():
    with pytest.raises(ValueError):
        solve(Rules(decks=1), split="XYZ")


@pytest.mark.parametrize("cards,upcard", [
    ((10, 10, 5), 6),        # busted
    ((5,), 6),               # one card
    ((10, 6), "Z"),          # not a rank
    ((10, 6), 11),
    ((10, 6), 0),
    ((2, 2, 2, 2, 2), 6),    # five deuces from one deck
    ((2, 2, 2, 2), 2),       # four deuces in the hand plus a deuce upcard: five of four
])
def test_bad_hand_ev_input(solved, cards, upcard):
    sol = solved(decks=1)
    with pytest.raises(ValueError):
        sol.hand_ev(cards, upcard)


@pytest.mark.parametrize("fields", [dict(decks=0), dict(decks=-1), dict(double="x"),
                                    dict(max_split_hands=5), dict(blackjack_payout=0)],
                         ids=lambda f: ",".join(f"{k}={v}" for k, v in f.items()))
def test_bad_rules(fields):
    with pytest.raises(ValueError):
        Rules(**fields)


@pytest.mark.parametrize("action", ["split", "fly", None])
def test_strategy_with_illegal_action(solved, action):
    sol = solved(decks=1)
    with pytest.raises(ValueError):
        sol.evaluate(lambda cards, upcard, allowed: action)


def test_package_exports():
    assert bjsolve.solve is solve and bjsolve.Rules is Rules


# ---- several rule sets solved from several Python threads --------------------------------

def test_concurrent_solves_match_sequential_solves():
    """The kernels release the GIL and keep their memo tables per engine: solving several
    rule sets at once from Python threads must give bit-identical results."""
    from concurrent.futures import ThreadPoolExecutor

    cases = [(Rules(decks=1), "CDZ-"), (Rules(decks=2, hit_soft_17=True), "CDP1"),
             (Rules(decks=1, surrender="late", double="10-11"), "CDP"),
             (Rules(decks=4, hole_card="enhc"), "CDZ-"),
             (Rules(decks=math.inf), "CDZ-"), (Rules.preset("easy"), "CDZ-")]

    def run(case):
        sol = solve(case[0], split=case[1])
        return (float(sol.expected_value), dict(sol.ev_by_upcard),
                dict(sol.hand_ev((8, 8), 10)) if not case[0].hole_card == "exposed" else None)

    sequential = [run(c) for c in cases]
    with ThreadPoolExecutor(max_workers=4) as pool:
        concurrent = list(pool.map(run, cases * 2))
    assert concurrent == sequential * 2
