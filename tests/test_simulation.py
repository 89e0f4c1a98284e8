"""Monte Carlo checks of the exact engine.

``simulator.py`` deals real cards from a freshly shuffled shoe every round and plays the
engine's own decisions (``engine_policy``: CDZ- after splits).  The engine's exact EV of
that play must then lie within 4 standard errors of the simulated mean.  Whole-round
checks catch gross errors; fixed-hand checks (the player's two cards and the dealer's
cards taken out of the shoe first) look at one action's value with less noise.  Seeds are
fixed, so every run gives the same numbers.

Rule variants the engine does not support (``solve`` raising ValueError("not supported
...")) are skipped through ``solve_or_skip``.
"""
import functools
import math
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bjsolve  # noqa: E402
from bjsolve import Rules, Shoe  # noqa: E402
from simulator import engine_policy, first_action_policy, simulate  # noqa: E402

Z_LIMIT = 4.0
ROUND_CHECK = 300_000   # rounds per whole-round check (SE about 0.0021)
HAND_CHECK = 100_000    # rounds per fixed-hand check (SE 0.003 to 0.008)


@functools.lru_cache(maxsize=None)
def _solve(rules, shoe=None):
    return bjsolve.solve(rules, shoe=shoe)


def solve_or_skip(rules, shoe=None):
    """The exact solve, or skip the test while the engine does not support the rules."""
    try:
        return _solve(rules, shoe)
    except ValueError as e:
        if "not supported" in str(e):
            pytest.skip(f"engine: {e}")
        raise


def check(mean, se, exact, what):
    z = (mean - exact) / se
    print(f"{what}: exact {exact:+.6f}, simulated {mean:+.6f} +- {se:.6f}, z = {z:+.2f}")
    assert abs(z) <= Z_LIMIT, (f"{what}: simulated {mean:+.6f} +- {se:.6f}, exact {exact:+.6f}, "
                               f"z = {z:+.2f}")
    return z


def unconditioned(sol):
    return {"given_no_blackjack": False} if sol.rules.hole_card == "peek" else {}


# ---- the simulator on its own: shoes whose outcome is certain ------------------------------


def _always(action):
    def policy(cards, dealer, allowed, is_split):
        return action if action in allowed else "stand"
    return policy


ONLY_TENS = (0, 0, 0, 0, 0, 0, 0, 0, 0, 60)


@pytest.mark.parametrize("rules, action, want", [
    (Rules(), "stand", 0.0),                               # 20 v 20 pushes
    (Rules(dealer_wins_ties=True), "stand", -1.0),         # ... and loses to the dealer
    (Rules(), "hit", -1.0),                                # 30 busts
    (Rules(), "double", -2.0),
    (Rules(surrender="late"), "surrender", -0.5),
    (Rules(), "split", 0.0),                               # four hands of 20, all push
    (Rules(dealer_wins_ties=True), "split", -4.0),         # forced resplits to 4 hands
    (Rules(dealer_wins_ties=True, max_split_hands=3), "split", -3.0),
])
def test_simulator_on_a_shoe_of_tens(rules, action, want):
    mean, se = simulate(rules, _always(action), rounds=200, seed=1, shoe=ONLY_TENS)
    assert mean == want and se == 0.0


def test_simulator_naturals_and_no_hole_card():
    # aces and tens only: every hand is AA, AT or TT and so is the dealer's
    shoe = (40, 0, 0, 0, 0, 0, 0, 0, 0, 40)
    for hole in ("peek", "enhc", "enhc-obo", "exposed"):
        rules = Rules(hole_card=hole)
        # dealer and player both natural: push; the dealer natural otherwise takes 1 (peek)
        m, _ = simulate(rules, _always("stand"), rounds=50, seed=3, shoe=shoe,
                        fixed_player=(1, 10), fixed_dealer=(10, 1))
        assert m == 0.0
        m, _ = simulate(rules.replace(dealer_wins_ties=True), _always("stand"), rounds=50,
                        seed=3, shoe=shoe, fixed_player=(1, 10), fixed_dealer=(10, 1))
        assert m == -1.0
        # doubling T,T against A,T: the peek and the exposed game end the round first;
        # without a hole card the double is made, and the natural takes 2 (enhc) or 1 (obo)
        m, _ = simulate(rules, _always("double"), rounds=50, seed=3, shoe=shoe,
                        fixed_player=(10, 10), fixed_dealer=(1, 10))
        assert m == {"peek": -1.0, "enhc": -2.0, "enhc-obo": -1.0, "exposed": -1.0}[hole]


def test_simulator_early_surrender_keeps_half_against_a_natural():
    shoe = (40, 0, 0, 0, 0, 0, 0, 0, 0, 40)
    m, _ = simulate(Rules(surrender="early"), _always("surrender"), rounds=50, seed=3,
                    shoe=shoe, fixed_player=(10, 10), fixed_dealer=(1, 10))
    assert m == -0.5
    m, _ = simulate(Rules(surrender="late"), _always("surrender"), rounds=50, seed=3,
                    shoe=shoe, fixed_player=(10, 10), fixed_dealer=(1, 10))
    assert m == -1.0  # the peek ends the round before a late surrender
    for hole in ("enhc", "enhc-obo"):
        # no hole card: a late surrender is voided by the dealer's natural, an early one not
        m, _ = simulate(Rules(surrender="late", hole_card=hole), _always("surrender"),
                        rounds=50, seed=3, shoe=shoe, fixed_player=(10, 10), fixed_dealer=(1, 10))
        assert m == -1.0
        m, _ = simulate(Rules(surrender="early", hole_card=hole), _always("surrender"),
                        rounds=50, seed=3, shoe=shoe, fixed_player=(10, 10), fixed_dealer=(1, 10))
        assert m == -0.5


def test_simulator_is_deterministic():
    rules = Rules(decks=2)
    pol = _always("stand")
    assert simulate(rules, pol, rounds=5000, seed=9) == simulate(rules, pol, rounds=5000, seed=9)
    assert simulate(rules, pol, rounds=5000, seed=9) != simulate(rules, pol, rounds=5000, seed=10)


# ---- whole rounds under the engine's strategy: rules supported today -----------------------

TODAY = {
    "6D S17 DAS SPL3": Rules(decks=6),
    "6D H17 DAS SPL3 LS": Rules(decks=6, hit_soft_17=True, surrender="late"),
    "1D H17 noDAS SPL1": Rules(decks=1, hit_soft_17=True, double_after_split=False,
                               max_split_hands=2),
    "1D S17 DAS SPL3 RSA LS": Rules(decks=1, resplit_aces=True, surrender="late"),
    "2D S17 6:5 D10": Rules(decks=2, blackjack_payout=1.2, double="10-11"),
    "infinite S17 noDAS SPL1": Rules(decks=math.inf, double_after_split=False,
                                     max_split_hands=2),
}


def sampled(names, slow):
    """``names`` as parameters, those in ``slow`` marked slow: each check costs a second or
    more (300,000 rounds a whole round, 100,000 a fixed hand); the default run keeps a
    sample of distinct games and hands, every one runs with --run-slow."""
    assert set(slow) <= set(names)
    return [pytest.param(n, marks=pytest.mark.slow) if n in slow else n for n in names]


# default: 6D H17 with surrender, 2D 6:5 with D10 (resplit aces: the A-A v A hand below)
TODAY_SLOW = {"6D S17 DAS SPL3", "1D H17 noDAS SPL1", "1D S17 DAS SPL3 RSA LS",
              "infinite S17 noDAS SPL1"}


@pytest.mark.parametrize("name", sampled(list(TODAY), TODAY_SLOW))
def test_round_ev_matches_simulation(name):
    rules = TODAY[name]
    sol = solve_or_skip(rules)
    mean, se = simulate(rules, engine_policy(sol), rounds=ROUND_CHECK, seed=101)
    check(mean, se, sol.expected_value, name)


def test_upcard_ace_one_deck_late_surrender():
    # the peek, late surrender after it, and the unconditioned per-upcard EV
    rules = Rules(decks=1, surrender="late")
    sol = solve_or_skip(rules)
    mean, se = simulate(rules, engine_policy(sol), rounds=200_000, seed=7, fixed_dealer=1)
    check(mean, se, sol.ev_by_upcard[1], "1D LS, upcard A")


def test_custom_shoe_with_three_eights():
    # one deck less an eight: splitting 8s can make at most 3 hands (M = min(L, S_P))
    shoe = Shoe((4, 4, 4, 4, 4, 4, 4, 3, 4, 16))
    rules = Rules(decks=1)
    sol = solve_or_skip(rules, shoe)
    want = sol.hand_ev((8, 8), 6)["split"]
    pol = first_action_policy((8, 8), "split", engine_policy(sol))
    mean, se = simulate(rules, pol, rounds=HAND_CHECK, seed=8, shoe=shoe,
                        fixed_player=(8, 8), fixed_dealer=6)
    check(mean, se, want, "8-8 v 6 split, 1D less one 8")


# ---- one hand, one action (unconditioned: the round includes dealer naturals) --------------

HANDS_TODAY = [
    ("11 v T double, 6D", Rules(decks=6), (5, 6), 10, "double"),
    ("11 v A double, 1D H17", Rules(decks=1, hit_soft_17=True), (5, 6), 1, "double"),
    ("8-8 v T split, 1D SPL3", Rules(decks=1), (8, 8), 10, "split"),
    ("8-8 v T split, 6D no DAS SPL1", Rules(decks=6, double_after_split=False,
                                             max_split_hands=2), (8, 8), 10, "split"),
    ("A-A v 6 split, 2D", Rules(decks=2), (1, 1), 6, "split"),
    ("A-A v A split, 1D RSA", Rules(decks=1, resplit_aces=True), (1, 1), 1, "split"),
    ("16 v T hit, 6D", Rules(decks=6), (10, 6), 10, "hit"),
    ("A-7 v 9 hit, 1D DAN", Rules(decks=1, double_any_cards=True), (1, 7), 9, "hit"),
    ("3-3 v 5 split, 1D H17 DAN DAS", Rules(decks=1, hit_soft_17=True, double_any_cards=True),
     (3, 3), 5, "split"),
    ("2-2 v 6 split, 1D D9 DAS SPL1", Rules(decks=1, double="9-11", max_split_hands=2),
     (2, 2), 6, "split"),
    ("T-T v 5 split, 2D SPL3", Rules(decks=2), (10, 10), 5, "split"),
]


def _hand_check(what, rules, cards, dealer, action, rounds=HAND_CHECK, seed=None):
    sol = solve_or_skip(rules)
    key = dealer if isinstance(dealer, int) else tuple(dealer)
    want = sol.hand_ev(cards, key, **unconditioned(sol))[action]
    pol = first_action_policy(cards, action, engine_policy(sol))
    mean, se = simulate(rules, pol, rounds=rounds, seed=seed if seed is not None else len(what),
                        fixed_player=cards, fixed_dealer=dealer)
    return check(mean, se, want, what)


def sampled_hands(hands, slow):
    assert set(slow) <= {h[0] for h in hands}
    return [pytest.param(*h, id=h[0], marks=pytest.mark.slow if h[0] in slow else ())
            for h in hands]


# default: a double v A (H17), splits of 8s, aces (RSA), 2s (D9 SPL1) and tens, a soft hit
HANDS_TODAY_SLOW = {"11 v T double, 6D", "8-8 v T split, 6D no DAS SPL1",
                    "A-A v 6 split, 2D", "16 v T hit, 6D", "3-3 v 5 split, 1D H17 DAN DAS"}


@pytest.mark.parametrize("what, rules, cards, dealer, action",
                         sampled_hands(HANDS_TODAY, HANDS_TODAY_SLOW))
def test_hand_value_matches_simulation(what, rules, cards, dealer, action):
    _hand_check(what, rules, cards, dealer, action)


# ---- rule variants (skipped while the engine raises "not supported") -----------------------

VARIANTS = {
    "enhc 6D": Rules(decks=6, hole_card="enhc"),
    "enhc-obo 2D LS": Rules(decks=2, hole_card="enhc-obo", surrender="late"),
    "early surrender 6D H17": Rules(decks=6, hit_soft_17=True, surrender="early"),
    "early surrender 1D": Rules(decks=1, surrender="early"),
    "hit split aces 2D RSA": Rules(decks=2, hit_split_aces=True, resplit_aces=True),
    "dealer wins ties 6D": Rules(decks=6, dealer_wins_ties=True),
    "easy (exposed, infinite)": Rules.preset("easy"),
    "double exposure 6D": Rules(decks=6, hole_card="exposed", dealer_wins_ties=True,
                                blackjack_payout=1.0),
}


# default: ENHC, hitting split aces; the games here with --run-slow also have fixed-hand
# checks below (OBO, early surrender, ties, the exposed games)
VARIANTS_SLOW = {"enhc-obo 2D LS", "early surrender 6D H17", "early surrender 1D",
                 "dealer wins ties 6D", "easy (exposed, infinite)", "double exposure 6D"}


@pytest.mark.parametrize("name", sampled(list(VARIANTS), VARIANTS_SLOW))
def test_variant_round_ev_matches_simulation(name):
    rules = VARIANTS[name]
    sol = solve_or_skip(rules)
    mean, se = simulate(rules, engine_policy(sol), rounds=ROUND_CHECK, seed=202)
    check(mean, se, sol.expected_value, name)


HANDS_VARIANTS = [
    # a dealer natural takes the double too
    ("enhc 11 v T double, 2D", Rules(decks=2, hole_card="enhc"), (5, 6), 10, "double"),
    ("enhc 8-8 v A split, 1D", Rules(decks=1, hole_card="enhc"), (8, 8), 1, "split"),
    # ... or only the original bet
    ("enhc-obo 8-8 v A split, 1D", Rules(decks=1, hole_card="enhc-obo"), (8, 8), 1, "split"),
    # a late surrender without a hole card is voided by a dealer natural
    ("enhc late surrender 16 v T, 6D", Rules(decks=6, hole_card="enhc", surrender="late"),
     (10, 6), 10, "surrender"),
    ("early surrender 16 v A hit, 1D", Rules(decks=1, surrender="early"), (10, 6), 1, "hit"),
    ("hit split aces A-A v 6, 1D", Rules(decks=1, hit_split_aces=True), (1, 1), 6, "split"),
    ("hit split aces A-A v T, 2D RSA noDAS",
     Rules(decks=2, hit_split_aces=True, resplit_aces=True, double_after_split=False),
     (1, 1), 10, "split"),
    ("dealer wins ties 17 v 7 stand, 2D", Rules(decks=2, dealer_wins_ties=True), (10, 7), 7,
     "stand"),
    ("dealer wins ties 9-9 v 9 split, 1D", Rules(decks=1, dealer_wins_ties=True), (9, 9), 9,
     "split"),
    ("easy 16 v 10-7 hit", Rules.preset("easy"), (10, 6), (10, 7), "hit"),
    ("easy 8-8 v 10-6 split", Rules.preset("easy"), (8, 8), (10, 6), "split"),
    ("double exposure 11 v 9-9 double, 6D",
     Rules(decks=6, hole_card="exposed", dealer_wins_ties=True, blackjack_payout=1.0),
     (5, 6), (9, 9), "double"),
    ("exposed A-7 v A-6 hit, 1D", Rules(decks=1, hole_card="exposed"), (1, 7), (1, 6), "hit"),
]


# default: every variant once (ENHC's double, OBO's split, surrender without a hole card,
# early surrender, hitting split aces, ties, the exposed games)
HANDS_VARIANTS_SLOW = {"enhc 8-8 v A split, 1D", "hit split aces A-A v T, 2D RSA noDAS",
                       "dealer wins ties 17 v 7 stand, 2D", "easy 16 v 10-7 hit",
                       "exposed A-7 v A-6 hit, 1D"}


@pytest.mark.parametrize("what, rules, cards, dealer, action",
                         sampled_hands(HANDS_VARIANTS, HANDS_VARIANTS_SLOW))
def test_variant_hand_value_matches_simulation(what, rules, cards, dealer, action):
    _hand_check(what, rules, cards, dealer, action)


def test_enhc_obo_simulated_with_the_peek_strategy_gives_the_peek_ev():
    # a check of the simulator's two no-hole-card settlements against the peek game's
    # exact value: with no surrender, OBO loses exactly one unit to a dealer natural
    peek = Rules(decks=2)
    sol = solve_or_skip(peek)
    mean, se = simulate(peek.replace(hole_card="enhc-obo"), engine_policy(sol),
                        rounds=ROUND_CHECK, seed=303)
    check(mean, se, sol.expected_value, "enhc-obo simulated with the peek strategy")
