"""Super Fun 21's surrender at any time (``surrender_any_time``, LSA) and its 21 of five or
more cards paid at once (``bonus_21_at_once``, B21NOW), computed by the game engine
(docs/games.md, "Super Fun 21").

- the solver against the exact pure-Python reference ``GameReferenceSolver`` on small shoes
  to 1e-12: each rule alone, with a no-hole-card dealer, with the other Super Fun 21 rules;
- the reference against a card-by-card brute force of single rounds (hits and splits);
- identities: surrendering later keeps every stand and double value and costs exactly half
  the bet given no dealer natural, hitting can only gain, and where the next decision cannot
  surrender again the best value is max(the best without the rule, -0.5); a five-card 21
  paid at once gains exactly its payout times the chance that the dealer makes 21;
- the Rules fields (validation, summary codes, kernel keys) and the kernels' refusals;
- the compiled simulator within 4 SE of ``evaluate(chart)`` on a short run (a long one is
  ``benchmarks/bench_games_sim.py``).
"""
import warnings
from fractions import Fraction

import pytest

import bjsolve
from bjcore import GameEngine, UpcardEngine
from bjsolve import Rules, Shoe, solve
from bjsolve._reference_games import (GameReferenceSolver, brute_force_game_round,
                                      game_dealer_probabilities, game_policy,
                                      reference_kwargs)
from bjsolve.exact.kernel_rules import kernel_rules
from game_reference_checks import compare_with_reference

EXACT = 1e-12
SHOE_TINY = (2, 2, 2, 1, 1, 1, 0, 0, 1, 3)       # 13 cards: five-card hands are common
SHOE_SMALL = (2, 2, 2, 1, 1, 1, 1, 1, 1, 3)      # 15 cards

# the rules of Super Fun 21 together with a five-card charlie (so that charlies happen on
# a small shoe), splits held to 2 hands to keep the reference fast
SUPER_FUN_RULES = dict(hit_soft_17=True, blackjack_payout=1.0, diamond_blackjack_payout=2.0,
                       natural_always_wins=True, double_any_cards=True, max_split_hands=2,
                       hit_split_aces=True, double_split_aces=True, surrender="late",
                       double_rescue=True, charlie=6, bonus_21=(2.0, 2.0, 2.0),
                       bonus_after_split=True, surrender_any_time=True,
                       bonus_21_at_once=True)
# CDZ- and CDP: a split hand's play under CDZ- (the rescue included) is its own cards'
# (tests/test_cdz_split_play.py)
CASES = {
    "surrender-any-time": (dict(surrender="late", surrender_any_time=True,
                                max_split_hands=2), SHOE_TINY, "CDZ-"),
    "21-at-once": (dict(bonus_21_at_once=True, hit_soft_17=True, max_split_hands=2),
                   SHOE_TINY, "CDZ-"),
    "both-enhc": (dict(surrender="late", surrender_any_time=True, max_split_hands=2,
                       hole_card="enhc", double_rescue=True, bonus_21_at_once=True,
                       bonus_21=(2.0, 2.0, 2.0)), SHOE_TINY, "CDP"),
    "super-fun-rules": (SUPER_FUN_RULES, SHOE_TINY, "CDP"),
    "super-fun-rules-cdz": (SUPER_FUN_RULES, SHOE_TINY, "CDZ-"),
    # a bonus not paid after a split, CDZ-: the split hands decide without it
    "21-at-once-bonus-cdz": (dict(bonus_21_at_once=True, bonus_21=(2.0, 2.0, 2.0),
                                  max_split_hands=2), SHOE_TINY, "CDZ-"),
}
SLOW_CASES = {   # (2-15 s each)
    "surrender-any-time-cdp": (dict(surrender="late", surrender_any_time=True,
                                    max_split_hands=3), SHOE_TINY, "CDP"),
    "21-at-once-bonus": (dict(bonus_21_at_once=True, bonus_21=(2.0, 2.0, 2.0),
                              max_split_hands=2), SHOE_TINY, "CDP"),
    "surrender-any-time-rescue-cdp1": (dict(surrender="late", surrender_any_time=True,
                                            max_split_hands=3, double_any_cards=True,
                                            double_rescue=True, hit_split_aces=True),
                                       SHOE_SMALL, "CDP1"),
    "super-fun-rules-small-shoe": (SUPER_FUN_RULES, SHOE_SMALL, "CDP"),
}


@pytest.mark.parametrize("name", list(CASES) + [
    pytest.param(name, marks=pytest.mark.slow) for name in SLOW_CASES])
def test_engine_against_the_reference(name):
    fields, counts, split = {**CASES, **SLOW_CASES}[name]
    compare_with_reference(Rules(decks=1, **fields), counts, split)


@pytest.mark.slow
def test_the_preset_against_the_reference():
    compare_with_reference(Rules.preset("super-fun-21"), SHOE_SMALL, "CDP")


def test_both_rules_change_the_value():
    """(so that the comparisons above compare the rules, not only the game without them)"""
    for name in ("surrender-any-time", "21-at-once", "both-enhc"):
        fields, counts, split = CASES[name]
        rules = Rules(decks=1, **fields)
        plain = rules.replace(surrender_any_time=False, bonus_21_at_once=False)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            a = solve(rules, shoe=Shoe(counts), split=split, threads=1).expected_value
            b = solve(plain, shoe=Shoe(counts), split=split, threads=1).expected_value
        assert abs(a - b) > 1e-4, name


# ---- the reference against the brute force ------------------------------------------------

@pytest.mark.parametrize("hole_card", ["peek", "enhc"])
def test_the_reference_against_the_brute_force(hole_card):
    """Single rounds dealt card by card (no formula of the solvers) with the reference's
    own play: hands that hit to five cards and surrender on the way, and splits (a split
    hand may surrender on its first two cards)."""
    kw = dict(hit_soft_17=True, double_any_cards=True, max_split_hands=2, surrender="late",
              surrender_any_time=True, bonus_21_at_once=True, bonus_21=(2, 2, 2),
              double_rescue=True, hole_card=hole_card)
    counts = SHOE_TINY
    ref = GameReferenceSolver(counts, split="CDZ-", **kw)
    plain = GameReferenceSolver(counts, split="CDZ-", **{**kw, "surrender_any_time": False,
                                                         "bonus_21_at_once": False})
    brute_kw = {k: v for k, v in kw.items()}
    changed = 0
    for cards, up in (((2, 3), 10), ((2, 2), 10), ((3, 3), 1), ((2, 3), 6), ((1, 2), 10)):
        rest = list(counts)
        for c in (*cards, up):
            rest[c - 1] -= 1
        brute = brute_force_game_round(tuple(rest), up, cards, game_policy(ref), **brute_kw)
        assert brute == max(ref.hand_values_unconditioned(cards, up).values()), (cards, up)
        changed += brute != max(plain.hand_values_unconditioned(cards, up).values())
    assert changed >= 3     # (the rules matter to these rounds)


# ---- identities ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def preset_pair():
    """The 1D preset solved with and without surrender at any time."""
    rules = Rules.preset("super-fun-21")
    return solve(rules, threads=1), solve(rules.replace(surrender_any_time=False), threads=1)


def _three_card_hands():
    for a in range(1, 11):
        for b in range(a, 11):
            for c in range(b, 11):
                hard = a + b + c
                if hard <= 21 and not (1 in (a, b, c) and hard + 10 == 21):
                    yield (a, b, c)


def test_surrendering_later_is_half_the_bet(preset_pair):
    """At every three-card decision of the 1D preset, given no dealer natural: surrender is
    -0.5; stand and double are what they were without the rule (nothing after them
    changes); hit can only gain (a later surrender is one more option).  Where every hit
    card ends the hand or reaches a hand that would never surrender (hard 20: only an ace
    keeps it alive, a 21), the best value is exactly max(the best without the rule, -0.5)."""
    with_rule, without = preset_pair
    checked = 0
    for cards in _three_card_hands():
        for up in range(1, 11):
            if sorted((*cards, up)).count(1) > 4:
                continue
            try:
                a = with_rule.hand_ev(cards, up)
                b = without.hand_ev(cards, up)
            except ValueError:
                continue   # (a hand the one deck cannot deal with this upcard)
            assert a["surrender"] == pytest.approx(-0.5, abs=EXACT)
            assert "surrender" not in b
            for action in ("stand", "double"):
                assert a[action] == pytest.approx(b[action], abs=EXACT), (cards, up, action)
            assert a["hit"] >= b["hit"] - EXACT, (cards, up)
            if sum(cards) == 20:
                assert max(a.values()) == pytest.approx(max(max(b.values()), -0.5),
                                                        abs=EXACT), (cards, up)
            checked += 1
    assert checked > 1000


def test_a_rule_of_choice_never_costs(preset_pair):
    with_rule, without = preset_pair
    assert with_rule.expected_value > without.expected_value + 1e-4
    for u in range(1, 11):
        assert with_rule.ev_by_upcard[u] >= without.ev_by_upcard[u] - EXACT


@pytest.mark.parametrize("cards", [(2, 3, 4, 2, 10), (1, 2, 3, 4, 1), (2, 2, 2, 5, 10)])
@pytest.mark.parametrize("up", [10, 7, 1])
def test_a_five_card_21_paid_at_once_gains_its_payout_on_a_dealer_21(cards, up):
    """Unconditioned, a five-card 21 standing wins its payout m against every dealer total
    but a 21 (a push) and a natural (-1); paid at once it wins m against the 21 too.  The
    gap is m x P(the dealer ends on 21, not a natural), from the reference's dealer alone."""
    base = Rules(decks=1, hit_soft_17=True, bonus_21=(2.0, 2.0, 2.0))
    at_once = solve(base.replace(bonus_21_at_once=True), threads=1)
    plain = solve(base, threads=1)
    a = at_once.hand_ev(cards, up, given_no_blackjack=False)
    b = plain.hand_ev(cards, up, given_no_blackjack=False)
    assert set(a) == {"stand"}          # it stops: no decision
    rest = [4] * 9 + [16]
    for c in (*cards, up):
        rest[c - 1] -= 1
    dealer = game_dealer_probabilities(rest, (up,), hit_soft_17=True)
    assert a["stand"] - b["stand"] == pytest.approx(2.0 * float(dealer[21]), abs=EXACT)


# ---- the rules' fields ----------------------------------------------------------------------

def test_the_preset_states_the_casino_rules():
    rules = Rules.preset("super-fun-21")
    assert rules.surrender_any_time and rules.bonus_21_at_once and rules.bonus_after_split
    text = rules.describe()
    assert "LSA" in text and "B21NOW" in text
    assert Rules.parse(text) == rules
    keys = kernel_rules(rules, 0)
    assert keys["surrender_any_time"] == 1 and keys["bonus_21_at_once"] == 1
    assert "surrender_any_time" not in kernel_rules(Rules(), 0)


@pytest.mark.parametrize("fields, error, message", [
    (dict(surrender_any_time=1), TypeError, "Rules.surrender_any_time must be True or False"),
    (dict(bonus_21_at_once="yes"), TypeError, "Rules.bonus_21_at_once must be True or False"),
    (dict(surrender_any_time=True), ValueError, "needs surrender='late', got 'none'"),
    (dict(surrender_any_time=True, surrender="early"), ValueError, "got 'early'"),
    (dict(surrender_any_time=True, surrender="late", free_splits=(8,)), ValueError,
     "free_splits"),
])
def test_bad_rules_are_named(fields, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        Rules(**fields)


@pytest.mark.parametrize("key", ["surrender_any_time", "bonus_21_at_once"])
def test_the_classic_kernels_refuse_the_keys_by_name(key):
    keys = {**kernel_rules(Rules(surrender="late"), 0), key: 1}
    with pytest.raises(ValueError, match=key):
        UpcardEngine(Shoe.decks(1).kernel_weights(), 6, keys)


def test_the_kernel_checks_the_surrender_rule():
    shoe = Shoe.decks(1).kernel_weights()
    with pytest.raises(ValueError, match="surrender_any_time .* needs surrender = 1"):
        GameEngine(shoe, 6, {**kernel_rules(Rules(), 0), "surrender_any_time": 1})
    with pytest.raises(ValueError, match="free splits"):
        GameEngine(shoe, 6, {**kernel_rules(Rules.preset("free-bet", surrender="late"), 0),
                             "surrender_any_time": 1})
    with pytest.raises((ValueError, TypeError), match="bonus_21_at_once"):
        GameEngine(shoe, 6, {**kernel_rules(Rules(), 0), "bonus_21_at_once": 2})


# ---- the simulator -------------------------------------------------------------------------

def test_the_simulator_plays_both_rules():
    """The 1D preset's basic chart, read at every decision (so a chart's Rh surrenders a
    three-card 16 too, and a split hand's two cards), its after-double choice frozen on
    both sides, shuffled before every round: within 4 SE of the exact value."""
    from bjsolve.exact.policy import after_double_chart
    rules = Rules.preset("super-fun-21")
    sol = solve(rules, threads=1)
    chart = sol.strategy
    after = after_double_chart(sol)
    exact = float(sol.evaluate(chart, after_double=after))
    # (the chart surrenders later as it reads: that is worth something here)
    no_later = float(solve(rules.replace(surrender_any_time=False), threads=1).evaluate(
        chart, after_double=after))
    assert abs(exact - no_later) > 1e-4
    res = bjsolve.simulate(rules, rounds=200_000, seed=2121, strategy=chart,
                           after_double=after, penetration="every-round", threads=1)
    assert abs(res.mean - exact) < 4 * res.se, (exact, res.mean, res.se)


# ---- the round's law (game_law.h) ------------------------------------------------------------

@pytest.mark.parametrize("upcard, cards", [(9, (2, 3)), (9, (3, 3)), (1, (2, 2))])
def test_the_round_law_is_the_brute_force(upcard, cards):
    """The engine's joint law of (dealer outcome, net result) after two given cards, with
    later surrenders (half a bet, on a split hand too) and five-card 21s paid at once,
    against the card-by-card brute force in exact fractions."""
    from test_super_fun import _brute_law, _engine_law
    rules = Rules(decks=1, **{**SUPER_FUN_RULES, "charlie": 0})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        brute = _brute_law(rules, SHOE_TINY, upcard, cards)
    engine = _engine_law(rules, SHOE_TINY, upcard, cards)
    gap = max(abs(brute.get(k, 0.0) - engine.get(k, 0.0)) for k in set(brute) | set(engine))
    assert gap < EXACT, (brute, engine)
    assert any(v == -0.5 for _, v in brute)     # (a surrender happens in these rounds)
