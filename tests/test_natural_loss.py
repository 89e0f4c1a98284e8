"""The no-hole-card rules of Pontoon (docs/games.md): the loss rules OBBO and BB+1
(``Rules.natural_loss``, "No hole card: what a dealer natural takes") and the player 21 paid
before the dealer's natural (``Rules.player_21_beats_natural``).  The compiled game engine
against the pure-Python reference on small shoes to 1e-12, the reference's split
construction against the card-by-card brute force of whole rounds, identities with the
classic ENHC game, and the compiled simulator against the exact value of the same chart."""
from fractions import Fraction as F

import pytest

import bjsolve
from bjcore import GameEngine, UpcardEngine, check_rules
from bjsolve import Rules, Shoe, solve
from game_reference_checks import compare_with_reference, solve_small
from bjsolve._reference_games import (
    GameReferenceSolver,
    brute_force_game_round,
    game_policy,
)
from bjsolve.exact.engines import engine_class
from bjsolve.exact.kernel_rules import kernel_rules
from bjsolve.exact.strategy import StrategyChart

EXACT = 1e-12
# small shoes: every rank, few tens, so that reference and brute force stay quick
SHOE = (2, 1, 1, 2, 1, 2, 2, 2, 1, 3)
SHOE_SPLIT = (2, 2, 2, 2, 2, 3, 3, 3, 2, 4)


def _solve(rules, counts, split="CDP"):
    return solve_small(rules, counts, split)


def _compare(rules, counts, upcards, split="CDP"):
    """The engine against the reference (unconditioned: no hole card), to 1e-12."""
    compare_with_reference(rules, counts, split, upcards=upcards, min_hands=20)


ENHC = dict(decks=1, hole_card="enhc")
CASES = {
    # OBBO alone on the classic rules: doubles and splits (the classic ENHC game + OBBO)
    "obbo": dict(ENHC, natural_loss="obbo", max_split_hands=2),
    # OBBO with doubles on any number of cards, redoubles and the rescue
    "obbo_redouble_rescue": dict(ENHC, natural_loss="obbo", max_split_hands=2,
                                 double_any_cards=True, redoubles=2, double_rescue=True,
                                 surrender="late"),
    # BB+1 (no splitting: the only BB+1 the engine computes) with doubles, redoubles, rescue
    "bb+1_redouble_rescue": dict(ENHC, natural_loss="bb+1", max_split_hands=1,
                                 redoubles=1, double_rescue=True),
    # a 21 paid before the natural, on the classic ENHC game and with OBBO
    "p21bj": dict(ENHC, player_21_wins=True, player_21_beats_natural=True,
                  max_split_hands=2),
}


@pytest.mark.parametrize("name", list(CASES))
def test_the_engine_against_the_reference(name):
    _compare(Rules(**CASES[name]), SHOE, upcards=(1, 10))


def test_pontoon_against_the_reference():
    rules = Rules.preset("pontoon", decks=1, max_split_hands=2)
    _compare(rules, SHOE_SPLIT, upcards=(10,))


def _brute(counts, rules, upcard, cards):
    ref = GameReferenceSolver(counts, **rules)
    rest = list(counts)
    for c in (upcard,) + cards:
        rest[c - 1] -= 1
    values = ref.hand_values_unconditioned(cards, upcard)
    action = ref.best_action(cards, upcard)
    brute = brute_force_game_round(rest, upcard, cards, game_policy(ref),
                                   sevens=counts[6], natural_tie_value=ref._t, **rules)
    return values[action], brute, action


SHOE_BRUTE = (1, 1, 1, 1, 1, 2, 2, 3, 2, 4)   # 18 cards: a whole split round stays quick


@pytest.mark.parametrize("counts, rules, upcard, cards", [
    # a split round with doubles after the split: OBBO charges each hand standing one unit
    (SHOE_BRUTE, dict(hole_card="enhc", natural_loss="obbo", max_split_hands=2), 10,
     (8, 8)),
    (SHOE_SPLIT, dict(hole_card="enhc", natural_loss="obbo", max_split_hands=2,
                      redoubles=1, double_rescue=True), 1, (5, 6)),
    (SHOE_SPLIT, dict(hole_card="enhc", natural_loss="obbo", player_21_wins=True,
                      player_21_beats_natural=True, max_split_hands=2, double_rescue=True),
     10, (4, 6)),
], ids=["obbo-split-8s", "obbo-redouble-rescue", "p21bj-obbo"])
def test_the_reference_against_the_brute_force(counts, rules, upcard, cards):
    want, got, action = _brute(counts, rules, upcard, cards)
    assert got == want, action


def test_bb1_charges_a_split_round_one_unit_for_its_standing_hands():
    """The brute force plays BB+1 in split rounds.  8-8 against a ten, split and stood on
    two cards, from a shoe of one ace, two 8s, two 9s and five tens: no hand busts, no
    hand doubles, so OBBO takes what ENHC takes (two units) and BB+1 one unit less, on a
    dealer natural: the hole card, dealt after the hands, is the ace with chance 1/10."""
    rest = (1, 0, 0, 0, 0, 0, 0, 2, 2, 5)

    def split_then_stand(cards, up, allowed, state):
        return "split" if "split" in allowed else "stand"

    def play(**rule):
        return brute_force_game_round(rest, 10, (8, 8), split_then_stand, hole_card="enhc",
                                      max_split_hands=2, **rule)

    enhc, obbo, bb1 = play(), play(natural_loss="obbo"), play(natural_loss="bb+1")
    assert obbo == enhc
    assert bb1 - obbo == F(1, 10)


def test_identities_with_the_classic_enhc_game():
    """Without doubles (hands that do not double) and without splitting, OBBO and BB+1 take
    what ENHC takes: stand and hit values agree; the doubled hand gets back, for each
    card it does not bust on, its doubled unit when the hole card makes a natural."""
    base = Rules(decks=1, hole_card="enhc", max_split_hands=1)
    counts = SHOE
    enhc = _solve(base, counts)
    obbo = _solve(base.replace(natural_loss="obbo"), counts)
    bb1 = _solve(base.replace(natural_loss="bb+1"), counts)
    assert obbo.expected_value == bb1.expected_value       # no split: the same rule
    assert obbo.expected_value > enhc.expected_value
    for up in (1, 10):
        hole = 10 if up == 1 else 1
        for cards in ((2, 3), (4, 6), (5, 6), (2, 7), (3, 8)):
            a = enhc.hand_ev(cards, up, given_no_blackjack=False)
            b = obbo.hand_ev(cards, up, given_no_blackjack=False)
            c = bb1.hand_ev(cards, up, given_no_blackjack=False)
            assert b == c
            # (ENHC alone is the classic engine's: equal to rounding)
            assert b["stand"] == pytest.approx(a["stand"], abs=EXACT)
            assert b["hit"] == pytest.approx(a["hit"], abs=EXACT)
            # the double: one card, then stand; the natural takes 1 instead of 2 when the
            # hand did not bust and the hole card (drawn after) completes the natural
            left = list(counts)
            for x in (up,) + cards:
                left[x - 1] -= 1
            n = sum(left)
            refund = F(0)
            for r in range(1, 11):
                if left[r - 1] == 0:
                    continue
                hard = sum(cards) + r
                if hard > 21:
                    continue
                after = list(left)
                after[r - 1] -= 1
                refund += F(left[r - 1], n) * F(after[hole - 1], n - 1)
            assert b["double"] - a["double"] == pytest.approx(float(refund), abs=EXACT)


def test_the_classic_enhc_game_with_obbo_is_the_game_engines():
    """natural_loss is a game key: the classic engines refuse it by name, engine_class
    picks the game engine, and with the key unset the game engine gives the classic
    engine's values (the contract of every game key)."""
    rules = Rules(decks=2, hole_card="enhc", natural_loss="obbo")
    params = kernel_rules(rules, 0)
    assert params["natural_loss"] == 1 and check_rules(params)["game"] == 1
    assert engine_class(params) is GameEngine
    classic = kernel_rules(rules.replace(natural_loss="hole-card"), 0)
    assert "natural_loss" not in classic
    counts = Shoe.decks(2).kernel_weights()
    with pytest.raises(ValueError, match="natural_loss"):
        UpcardEngine(counts, 6, params)
    for up in (1, 6, 10):
        a = UpcardEngine(counts, up, classic).round_ev()
        b = GameEngine(counts, up, classic).round_ev()
        assert b == pytest.approx(a, abs=EXACT)


def test_a_21_paid_at_once_is_worth_two_units_more_when_the_dealer_turns_a_natural():
    """Against a ten, a two-card 10 doubled: its value gains, over P21W alone, four units
    (the doubled 21 wins its two instead of losing them) times the chance of making 21 on
    the card (an ace) with the dealer's hole card after it an ace too."""
    counts = SHOE
    base = Rules(decks=1, hole_card="enhc", player_21_wins=True, max_split_hands=1)
    plain = _solve(base, counts)
    paid = _solve(base.replace(player_21_beats_natural=True), counts)
    up, cards = 10, (4, 6)
    left = list(counts)
    for x in (up,) + cards:
        left[x - 1] -= 1
    n = sum(left)
    # one card to 21 (an ace), then the hole card: an ace too
    gain = 2 * F(left[0], n) * F(left[0] - 1, n - 1)
    a = plain.hand_ev(cards, up, given_no_blackjack=False)
    b = paid.hand_ev(cards, up, given_no_blackjack=False)
    assert b["double"] - a["double"] == pytest.approx(2 * float(gain), abs=EXACT)
    assert b["stand"] == a["stand"]


def test_bad_keys_are_refused_by_name():
    base = kernel_rules(Rules(hole_card="enhc"), 0)
    with pytest.raises(ValueError, match="natural_loss"):
        check_rules(dict(base, natural_loss=3))
    with pytest.raises(ValueError, match="natural_takes_all"):
        check_rules(dict(kernel_rules(Rules(), 0), natural_loss=1))
    with pytest.raises(ValueError, match="BB\\+1.*free_split_ranks"):
        GameEngine(Shoe.decks(1).counts, 6, dict(base, natural_loss=2, free_split_ranks=1 << 8))
    with pytest.raises(NotImplementedError, match="natural_loss='bb\\+1'.*free_splits"):
        solve(Rules(hole_card="enhc", natural_loss="bb+1", free_splits=(8,)))
    assert solve(Rules(decks=1, hole_card="enhc", natural_loss="bb+1",
                       max_split_hands=1)).expected_value < 0
    with pytest.raises(ValueError, match="player_21_beats_natural"):
        check_rules(dict(base, player_21_beats_natural=1))
    with pytest.raises(ValueError, match="needs player_21_wins=True"):
        Rules(hole_card="enhc", player_21_beats_natural=True)
    with pytest.raises(ValueError, match="hole_card='enhc'"):
        Rules(player_21_wins=True, player_21_beats_natural=True)


def _double_everything(chart):
    """A chart that doubles every two-card hand (hit where it may not double)."""
    return StrategyChart({code: {col: "Dh" for col in row} for code, row in chart.rows.items()},
                         rules=chart.rules)


@pytest.mark.parametrize("natural_loss", ["obbo", "hole-card"])
def test_the_simulator_settles_the_natural_as_the_engine(natural_loss):
    """A chart that doubles every hand: OBBO gives a doubled hand's second unit back on
    every dealer natural, worth about 3 % of a bet a round, far beyond the run's error."""
    rules = Rules(decks=6, hole_card="enhc", max_split_hands=1, natural_loss=natural_loss)
    sol = solve(rules)
    chart = _double_everything(sol.strategy)
    exact = float(sol.evaluate(chart))
    other = float(solve(rules.replace(natural_loss="hole-card" if natural_loss == "obbo"
                                      else "obbo")).evaluate(chart))
    res = bjsolve.simulate(rules, rounds=300_000, seed=11, strategy=chart, threads=1)
    assert abs(res.mean - exact) < 4 * res.se, (exact, res.mean, res.se)
    assert abs(other - exact) > 8 * res.se


def test_the_simulator_plays_pontoon_as_the_engine_values_its_chart():
    rules = Rules.preset("pontoon", decks=6)
    sol = solve(rules)
    chart = sol.strategy
    exact = float(sol.evaluate(chart))
    res = bjsolve.simulate(rules, rounds=400_000, seed=7, strategy=chart, threads=1)
    assert abs(res.mean - exact) < 4 * res.se, (exact, res.mean, res.se)
