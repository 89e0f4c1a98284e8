"""Super Fun 21's two rules (docs/games.md): the diamond natural (``diamond_blackjack_payout``)
and the charlie (``charlie``), computed by the game engine.

- the solver against the exact pure-Python reference ``GameReferenceSolver`` on small shoes
  to 1e-12: each rule alone, then with the other rules of Super Fun 21;
- the reference's charlie against a card-by-card brute force of single rounds;
- identities: a diamond payout equal to the blackjack payout is no diamond rule; the
  diamond rule moves the round's value by (d - b) / 16 x the chance of a player natural,
  nothing else; a charlie no hand can reach changes nothing;
- the classic kernels refuse both keys by name; the summary codes read back;
- the compiled simulator within 4 standard errors of ``evaluate(chart)`` on a short run
  (shuffled every round, so both are the full shoe's value).
"""
import warnings
from fractions import Fraction

import pytest

import bjsolve
from bjcore import GameEngine, UpcardEngine
from bjsolve import Rules, Shoe, solve
from game_reference_checks import compare_with_reference as _compare
from game_reference_checks import solve_small as _solve
from bjsolve._reference_games import (GameReferenceSolver, brute_force_game_round,
                                      game_policy, reference_kwargs)
from bjsolve.exact.kernel_rules import _natural_tie_by_rank, kernel_rules

EXACT = 1e-12
SHOE_A = (2, 1, 1, 2, 1, 2, 3, 2, 1, 3)          # 18 cards, many small ones: charlies happen
SHOE_SMALL = (2, 2, 2, 1, 1, 1, 1, 1, 1, 3)      # 15 cards: five-card hands are common
SHOE_TINY = (2, 2, 2, 1, 1, 1, 0, 0, 1, 3)       # 13 cards: the default runs' shoe


@pytest.fixture(scope="module")
def super_fun():
    """The 1D Super Fun 21 preset, solved once for the tests that read it."""
    return solve(Rules.preset("super-fun-21"))






# the rules of Super Fun 21 together (splits held to 2 hands to keep the reference fast)
SUPER_FUN_RULES = dict(hit_soft_17=True, blackjack_payout=1.0, diamond_blackjack_payout=2.0,
                       natural_always_wins=True, double_any_cards=True, max_split_hands=2,
                       hit_split_aces=True, double_split_aces=True, surrender="late",
                       double_rescue=True, charlie=5, bonus_21=(2.0, 2.0, 2.0))
CASES = {
    "charlie-5": (dict(charlie=5, max_split_hands=2), SHOE_TINY, "CDZ-"),
    "diamond": (dict(diamond_blackjack_payout=2.0, blackjack_payout=1.0,
                     natural_always_wins=True, max_split_hands=2), SHOE_TINY, "CDZ-"),
    "super-fun-rules": (SUPER_FUN_RULES, SHOE_TINY, "CDP"),
}
SLOW_CASES = {   # (4-30 s each)
    "charlie-5-small-shoe": (dict(charlie=5, max_split_hands=2), SHOE_SMALL, "CDZ-"),
    "charlie-5-cdp-splits": (dict(charlie=5, max_split_hands=3, double_any_cards=True),
                             SHOE_SMALL, "CDP"),
    "charlie-6-bonus-after-split": (dict(charlie=6, bonus_21=(1.5, 2.0, 3.0),
                                         bonus_after_split=True, max_split_hands=3,
                                         hit_split_aces=True), SHOE_A, "CDP"),
    "diamond-ties-push": (dict(diamond_blackjack_payout=3.0, max_split_hands=2), SHOE_A,
                          "CDZ-"),
    "charlie-enhc": (dict(charlie=5, hole_card="enhc", double_rescue=True,
                          max_split_hands=2), SHOE_SMALL, "CDZ-"),
    "super-fun-rules-small-shoe": (SUPER_FUN_RULES, SHOE_SMALL, "CDP"),
}


@pytest.mark.parametrize("name", list(CASES) + [
    pytest.param(name, marks=pytest.mark.slow) for name in SLOW_CASES])
def test_engine_against_the_reference(name):
    fields, counts, split = {**CASES, **SLOW_CASES}[name]
    _compare(Rules(decks=1, **fields), counts, split)


@pytest.mark.slow
@pytest.mark.parametrize("split", ["CDP", "CDP1"])
def test_the_preset_against_the_reference(split):
    _compare(Rules.preset("super-fun-21"), SHOE_SMALL, split)


def test_the_reference_charlie_against_the_brute_force():
    """Single rounds dealt card by card (no formula of the solvers) with the reference's
    own play: hands that hit to five cards, and a split."""
    kw = dict(hit_soft_17=True, double_any_cards=True, max_split_hands=2, charlie=5,
              bonus_21=(2, 2, 2), double_rescue=True)
    counts = SHOE_TINY
    ref = GameReferenceSolver(counts, split="CDZ-", **kw)
    policy = game_policy(ref)
    for cards, up in (((2, 3), 6), ((2, 2), 10)):
        rest = list(counts)
        for c in (*cards, up):
            rest[c - 1] -= 1
        brute = brute_force_game_round(tuple(rest), up, cards, policy, **kw)
        assert brute == max(ref.hand_values_unconditioned(cards, up).values()), (cards, up)
        # (and the charlie matters to these hands)
        plain = GameReferenceSolver(counts, split="CDZ-", **{**kw, "charlie": 0})
        assert brute != max(plain.hand_values_unconditioned(cards, up).values())


def test_a_diamond_payout_equal_to_the_blackjack_payout_is_no_rule():
    plain = Rules(decks=1, hit_soft_17=True)
    same = plain.replace(diamond_blackjack_payout=1.5)
    a, b = solve(plain, threads=1), solve(same, threads=1)
    assert b.expected_value == pytest.approx(a.expected_value, abs=EXACT)
    for u in range(1, 11):
        assert b.ev_by_upcard[u] == pytest.approx(a.ev_by_upcard[u], abs=EXACT)


@pytest.mark.parametrize("always_wins", [False, True])
def test_the_diamond_natural_moves_only_the_naturals_pay(always_wins):
    """E(d) - E(none) = (d - b) / 16 x P(player natural), P = 2 n_A n_T / (N (N - 1)) off
    the top; without natural_always_wins a natural tied by the dealer's pushes, so only
    the naturals the dealer does not tie count."""
    base = Rules(decks=1, hit_soft_17=True, blackjack_payout=1.0,
                 natural_always_wins=always_wins)
    d = 2.0
    gap = (solve(base.replace(diamond_blackjack_payout=d), threads=1).expected_value
           - solve(base, threads=1).expected_value)
    n_a, n_t, n = 4, 16, 52
    natural = Fraction(2 * n_a * n_t, n * (n - 1))
    if not always_wins:
        # the dealer's natural from the 50 cards left after the player's ace and ten
        tied = Fraction(2 * (n_a - 1) * (n_t - 1), (n - 2) * (n - 3))
        natural *= 1 - tied
    assert gap == pytest.approx(float(Fraction(d - 1) / 16 * natural), abs=EXACT)


def test_a_charlie_no_hand_reaches_changes_nothing():
    # no ace, no two, no three: five cards make at least 4 + 4 + 4 + 4 + 5 = 21 and a
    # charlie of 6 cards needs 25 or more, so CH6 never happens
    counts = (0, 0, 0, 4, 4, 4, 4, 4, 4, 16)
    plain = Rules(decks=1)
    a = _solve(plain, counts, "CDZ-")
    b = _solve(plain.replace(charlie=6), counts, "CDZ-")
    assert b.expected_value == pytest.approx(a.expected_value, abs=EXACT)


def test_charlie_zero_is_no_charlie():
    keys = kernel_rules(Rules(), 0)
    shoe = Shoe.decks(1).kernel_weights()
    a = GameEngine(shoe, 6, {**keys, "charlie": 0})
    b = UpcardEngine(shoe, 6, keys)
    assert a.round_ev() == pytest.approx(b.round_ev(), abs=EXACT)


@pytest.mark.parametrize("key, value", [("charlie", 6), ("diamond_blackjack_payout", 2.0)])
def test_the_classic_kernels_refuse_the_keys_by_name(key, value):
    keys = {**kernel_rules(Rules(), 0), key: value}
    with pytest.raises(ValueError, match=key):
        UpcardEngine(Shoe.decks(1).kernel_weights(), 6, keys)


@pytest.mark.parametrize("value", [1, 2, 11, -1, 2.5])
def test_the_kernel_refuses_a_bad_charlie(value):
    keys = {**kernel_rules(Rules(), 0), "charlie": value}
    with pytest.raises((ValueError, TypeError), match="charlie"):
        GameEngine(Shoe.decks(1).kernel_weights(), 6, keys)


def test_the_summary_codes_read_back():
    rules = Rules.preset("super-fun-21")
    assert "BJD=2:1" in rules.describe() and "CH6" in rules.describe()
    assert Rules.parse(rules.describe()) == rules
    keys = kernel_rules(rules, 0)
    assert keys["charlie"] == 6 and keys["diamond_blackjack_payout"] == 2.0


def test_the_simulator_plays_the_charlie_and_the_diamond_natural(super_fun):
    """The basic chart of 1D Super Fun 21 (its after-double choice frozen on both sides),
    shuffled before every round: the simulator's mean within 4 SE of the exact value."""
    from bjsolve.exact.policy import after_double_chart
    rules = Rules.preset("super-fun-21")
    sol = super_fun
    chart = sol.strategy
    after = after_double_chart(sol)
    exact = float(sol.evaluate(chart, after_double=after))
    res = bjsolve.simulate(rules, rounds=200_000, seed=21, strategy=chart,
                           after_double=after, penetration="every-round", threads=1)
    assert abs(res.mean - exact) < 4 * res.se, (exact, res.mean, res.se)


@pytest.mark.slow
def test_the_infinite_shoe_against_the_reference():
    """The charlie and the diamond natural on the infinite shoe (about 10 s of fractions)."""
    import math
    rules = Rules(decks=math.inf, hit_soft_17=True, blackjack_payout=1.0,
                  diamond_blackjack_payout=2.0, natural_always_wins=True, charlie=5,
                  bonus_21=(2.0, 2.0, 2.0), max_split_hands=2)
    ref = GameReferenceSolver(None, split="CDP", **reference_kwargs(rules))
    sol = solve(rules, split="CDP", threads=1)
    assert sol.expected_value == pytest.approx(float(ref.round_ev()), abs=EXACT)
    for u, v in ref.ev_by_upcard().items():
        assert sol.ev_by_upcard[u] == pytest.approx(float(v), abs=EXACT), u


# ---- the round's law (game_law.h) with the two rules ---------------------------------------

LAW_LABEL = {17: 0, 18: 1, 19: 2, 20: 3, 21: 4, "natural": 5, 22: 6, "bust": 7}
LAW_RULES = Rules(decks=1, **{**SUPER_FUN_RULES, "max_split_hands": 2})


def _brute_law(rules, counts, upcard, cards):
    kw = reference_kwargs(rules)
    ref = GameReferenceSolver(counts, split="CDZ-", **kw)
    rest = list(counts)
    for c in (upcard,) + cards:
        rest[c - 1] -= 1
    brute_kw = {k: v for k, v in kw.items() if k not in ("natural_always_wins", "natural_tie")}
    # the tie of a natural not in diamonds (the brute force pays the diamond one itself)
    brute_kw["natural_tie_value"] = Fraction(_natural_tie_by_rank(rules)).limit_denominator(1000)
    law = brute_force_game_round(rest, upcard, cards, game_policy(ref), law=True,
                                 sevens=counts[6], **brute_kw)
    out: dict = {}
    for (t, v), p in law.chances.items():
        key = (LAW_LABEL[t], float(v))
        out[key] = out.get(key, 0.0) + float(p)
    return out


def _engine_law(rules, counts, upcard, cards):
    from bjsolve.exact.game_law import law_arrays
    engine = GameEngine([float(c) for c in counts], upcard, kernel_rules(rules, 0))
    values, law = law_arrays(engine.round_law_entries(*cards))
    return {(t, float(v)): float(law[t, i]) for t in range(law.shape[0])
            for i, v in enumerate(values) if law[t, i] != 0.0}


@pytest.mark.parametrize("upcard, cards", [(10, (1, 10)), (1, (1, 10)), (6, (2, 3)),
                                           (10, (2, 3))])
def test_the_round_law_is_the_brute_force(upcard, cards):
    """The engine's joint law of (dealer outcome, net result) after two given cards: the
    natural's two payouts (1/16 in diamonds, against a dealer natural too) and the
    charlie, against the card-by-card brute force in exact fractions."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        brute = _brute_law(LAW_RULES, SHOE_TINY, upcard, cards)
    engine = _engine_law(LAW_RULES, SHOE_TINY, upcard, cards)
    gap = max(abs(brute.get(k, 0.0) - engine.get(k, 0.0)) for k in set(brute) | set(engine))
    assert gap < EXACT, (brute, engine)


def test_the_outcome_distribution_mean_is_the_solve_ev(super_fun):
    sol = super_fun
    dist = sol.outcome_distribution(threads=1)
    assert dist.mean == pytest.approx(float(sol.expected_value), abs=EXACT)
    assert float(dist.probabilities.sum()) == pytest.approx(1.0, abs=EXACT)


def test_a_charlie_hand_only_stands(super_fun):
    """A six-card hand of Super Fun 21 has stopped: its one value is the charlie's win."""
    sol = super_fun
    values = sol.hand_ev((2, 2, 3, 2, 4, 3), 10)
    assert dict(values) == {"stand": 1.0}
    # (a five-card hand plays on, surrender included: the preset surrenders at any time)
    assert set(sol.hand_ev((2, 2, 3, 2, 4), 10)) == {"stand", "hit", "double", "surrender"}
