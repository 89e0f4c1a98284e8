"""The law of a round's result under the no-hole-card rules of Pontoon (docs/games.md, "No
hole card: what a dealer natural takes"): OBBO, BB+1 (without splitting; with splits:
tests/test_bb1_law.py) and the player 21 paid before the dealer's natural
(``player_21_beats_natural``), in the games' round law (``game_law.h``;
``Solution.outcome_distribution``; ``bjsolve risk``).

* one round after two given cards, no split: the engine's joint law of (dealer outcome,
  net result) against the card-by-card brute force of ``_reference_games`` in exact
  Fractions (every card dealt, the hole card after the player), to 1e-12;
* a split round on the infinite shoe: exact against the brute force; on a finite shoe the
  mean and the dealer's outcomes exact (the hands combined given the dealer's outcome);
* the identity: the law's mean is the solve's EV (and a chart's evaluated EV), to 1e-12;
* the compiled simulator's mean and SD of Pontoon agree with the law's within 4 SE.
"""
import math
import warnings

import pytest

import bjsolve
from bjsolve import Rules, Shoe, solve
from bjsolve.__main__ import main
from test_game_law import _brute_law, _engine_law, _gap, _moments

EXACT = 1e-12
SHOE_S = (2, 1, 1, 2, 1, 2, 2, 2, 1, 3)   # 17 cards
STANDARD = (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)
ENHC = dict(decks=1, hole_card="enhc", max_split_hands=1)

NO_SPLIT_RULES = {
    # OBBO with doubles on any cards, redoubles, the rescue and late surrender
    "obbo": Rules(**ENHC, natural_loss="obbo", double_any_cards=True, redoubles=2,
                  double_rescue=True, surrender="late"),
    # BB+1 without splitting (what the engine computes): the same as OBBO
    "bb+1": Rules(**ENHC, natural_loss="bb+1", redoubles=1, double_rescue=True),
    # a 21 paid at once, the natural's full loss otherwise (ENHC)
    "p21bj": Rules(**ENHC, player_21_wins=True, player_21_beats_natural=True),
    "pontoon": Rules.preset("pontoon", decks=1, max_split_hands=1),
}
# (upcard, the player's two cards): the natural matters against an ace or a ten; 5-6
# against an ace doubles on this shoe (Pontoon too), 4-6 against a ten under OBBO, BB+1
HANDS = [(1, (5, 6)), (10, (4, 6)), (10, (2, 9)), (1, (10, 6))]


@pytest.mark.parametrize("name", list(NO_SPLIT_RULES))
def test_one_round_without_a_split_is_the_brute_force(name):
    rules = NO_SPLIT_RULES[name]
    actions = set()
    for upcard, cards in HANDS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            brute, action = _brute_law(rules, SHOE_S, upcard, cards)
        actions.add(action)
        engine = _engine_law(rules, SHOE_S, upcard, cards)
        assert _gap(brute, engine) < EXACT, (upcard, cards, action)
        assert sum(engine.values()) == pytest.approx(1.0, abs=EXACT)
    if name != "p21bj":
        assert "double" in actions   # (a doubled hand met the natural: OBBO's refund)


@pytest.mark.parametrize("rules, upcard, cards", [
    (Rules.preset("pontoon", max_split_hands=2), 6, (8, 8)),
    # split aces against a ten: their 21s paid at once, the other hands' natural OBBO's
    (Rules.preset("pontoon", max_split_hands=2), 10, (1, 1)),
    (Rules(hole_card="enhc", natural_loss="obbo", max_split_hands=2), 10, (1, 1)),
], ids=["pontoon-8s-6", "pontoon-aces-10", "obbo-aces-10"])
def test_a_split_on_the_infinite_shoe_is_exact(rules, upcard, cards):
    brute, action = _brute_law(rules, STANDARD, upcard, cards, split="CDP1", infinite=True)
    assert action == "split"
    engine = _engine_law(rules, STANDARD, upcard, cards, split="CDP1", infinite=True)
    assert _gap(brute, engine) < EXACT


@pytest.mark.slow
def test_a_split_on_a_finite_shoe_keeps_its_mean_and_the_dealers_outcomes():
    rules = Rules.preset("pontoon", decks=1, max_split_hands=2)
    counts = (1, 1, 1, 1, 1, 1, 2, 3, 1, 3)   # 15 cards
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        brute, action = _brute_law(rules, counts, 10, (8, 8), split="CDP1")
    assert action == "split"
    engine = _engine_law(rules, counts, 10, (8, 8), split="CDP1")
    assert _moments(engine)[0] == pytest.approx(_moments(brute)[0], abs=EXACT)
    for t in range(8):
        assert (sum(p for (s, _), p in engine.items() if s == t)
                == pytest.approx(sum(p for (s, _), p in brute.items() if s == t), abs=EXACT))


@pytest.mark.parametrize("rules, shoe", [
    (Rules.preset("pontoon"), None),
    (Rules.preset("pontoon", decks=1), None),
    (Rules(decks=6, hole_card="enhc", natural_loss="obbo"), None),
    (Rules(decks=2, hole_card="enhc", player_21_wins=True, player_21_beats_natural=True,
           max_split_hands=3), None),
    (Rules.preset("pontoon"), "infinite"),
], ids=["pontoon", "pontoon-1d", "enhc-obbo", "enhc-p21bj", "pontoon-infinite"])
def test_the_mean_is_the_solve_ev(rules, shoe):
    check_mean_is_the_solve_ev(rules, shoe)


def check_mean_is_the_solve_ev(rules, shoe):
    """The outcome distribution of ``rules`` (on the rules' shoe, or infinite): its mean
    is the solve's EV, its chances sum to 1, and it is exact on the infinite shoe, and on
    a finite shoe where no split makes more than two hands.  Returns it."""
    sol = solve(rules, shoe=Shoe.infinite() if shoe else None, threads=1)
    dist = sol.outcome_distribution(threads=1)
    assert dist.mean == pytest.approx(float(sol.expected_value), abs=EXACT)
    assert float(dist.probabilities.sum()) == pytest.approx(1.0, abs=EXACT)
    assert dist.exact == (shoe == "infinite" or rules.max_split_hands == 2)
    return dist


def test_the_mean_of_pontoons_chart_is_its_evaluated_ev():
    sol = solve(Rules.preset("pontoon", decks=1), threads=1)
    chart = sol.strategy
    for after in (None, "basic"):
        dist = sol.outcome_distribution(chart, after_double=after, threads=1)
        assert dist.mean == pytest.approx(float(sol.evaluate(chart, after_double=after)),
                                          abs=EXACT)


def test_the_simulated_mean_and_sd_of_pontoon():
    # the super bonus (200 units at 1 in ~10^6) left out: its kurtosis would make the SD's
    # standard error forty times larger
    rules = Rules.preset("pontoon", super_bonus=0)
    sol = solve(rules)
    chart = sol.strategy
    dist = sol.outcome_distribution(chart, after_double="basic")
    rounds = 300_000
    res = bjsolve.simulate(rules, rounds=rounds, seed=5, strategy=chart, after_double="basic",
                           penetration="every-round", threads=1)
    # the standard error of a sample SD: sd * sqrt((kurtosis - 1) / (4 n))
    x = dist.values - dist.mean
    kurtosis = float(dist.probabilities @ x ** 4) / dist.variance ** 2
    se_sd = dist.sd * math.sqrt((kurtosis - 1.0) / (4.0 * rounds))
    assert abs(res.sd - dist.sd) < 4 * se_sd, (res.sd, dist.sd, se_sd)
    assert abs(res.mean - dist.mean) < 4 * res.se, (res.mean, dist.mean, res.se)


def test_bjsolve_risk_for_pontoon(capsys):
    assert main(["risk", "--preset", "pontoon"]) == 0
    text = capsys.readouterr().out
    assert "SD per round" in text and "+200" in text   # (the super bonus's outcome)


# ---- BB+1 with two split hands (src/bjcore/game_bb1.h) --------------------------------

def split_round_play(rules, counts, upcard, pair, infinite=False):
    """What the card-by-card brute force of a split round needs, the split hands playing
    the reference's decisions under OBBO (the engine values each hand with OBBO's charge,
    so it plays them too): (the reference, the shoe left after the upcard and the pair,
    the brute force's keywords, the policy: split while allowed, else the reference's)."""
    from bjsolve._reference_games import GameReferenceSolver, reference_kwargs
    kw = reference_kwargs(rules.replace(natural_loss="obbo"))
    ref = GameReferenceSolver(None if infinite else counts, split="CDP1", **kw)
    rest = list(counts)
    if not infinite:
        for c in (upcard, pair, pair):
            rest[c - 1] -= 1
    brute_kw = {k: v for k, v in kw.items() if k not in ("natural_always_wins", "natural_tie")}

    def policy(cards, dealer, allowed, state):
        if "split" in allowed:
            return "split"
        return ref.game_action(cards, dealer, split_pair=state["split_pair"],
                               free=state["free"], doubled=state["doubled"])
    return ref, rest, brute_kw, policy


def _split_values(rules, counts, upcard, pair, infinite=False):
    """(OBBO, BB+1) of splitting ``pair``: the engine's split_ev, and the card-by-card
    brute force of the whole split round with both natural rules (``split_round_play``)."""
    from fractions import Fraction
    from bjcore import GameEngine
    from bjsolve._reference_games import brute_force_game_round
    from bjsolve.exact.kernel_rules import SPLIT_CLASSES, kernel_rules
    ref, rest, brute_kw, policy = split_round_play(rules, counts, upcard, pair, infinite)
    weights = [c / sum(counts) for c in counts] if infinite else [float(c) for c in counts]
    out = {}
    for loss in ("obbo", "bb+1"):
        brute_kw["natural_loss"] = loss
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            brute = brute_force_game_round(rest, upcard, (pair, pair), policy,
                                           natural_tie_value=Fraction(ref._t),
                                           sevens=None if infinite else counts[6],
                                           infinite=infinite, **brute_kw)
        engine = GameEngine(weights, upcard,
                            kernel_rules(rules.replace(natural_loss=loss),
                                         SPLIT_CLASSES["CDP1"]), infinite)
        out[loss] = (float(brute), engine.split_ev(pair)[0])
    return out


@pytest.mark.parametrize("rules, counts, upcard, pair, infinite", [
    pytest.param(Rules(decks=1, hole_card="enhc", natural_loss="bb+1", max_split_hands=2),
                 STANDARD, 10, 8, True, marks=pytest.mark.slow),
    (Rules(decks=1, hole_card="enhc", natural_loss="bb+1", max_split_hands=2), SHOE_S, 10,
     8, False),
    pytest.param(Rules(decks=1, hole_card="enhc", natural_loss="bb+1", max_split_hands=2,
                       redoubles=1, double_rescue=True), (2, 2, 2, 2, 2, 3, 3, 3, 2, 4), 1, 7,
                 False, marks=pytest.mark.slow),
    pytest.param(Rules.preset("pontoon", decks=1, natural_loss="bb+1", max_split_hands=2),
                 (2, 2, 2, 2, 2, 3, 3, 3, 2, 4), 10, 8, False, marks=pytest.mark.slow),
], ids=["infinite-8s-10", "8s-10", "redouble-rescue-7s-A", "pontoon-8s-10"])
def test_bb1_split_against_the_brute_force(rules, counts, upcard, pair, infinite):
    out = _split_values(rules, counts, upcard, pair, infinite)
    (brute_obbo, engine_obbo), (brute_bb1, engine_bb1) = out["obbo"], out["bb+1"]
    assert engine_obbo == pytest.approx(brute_obbo, abs=EXACT)
    assert engine_bb1 == pytest.approx(brute_bb1, abs=EXACT)
    assert brute_bb1 > brute_obbo + 1e-3     # (the standing hands' second unit back)


def test_bb1_with_splits_is_solved_and_free_splits_refused():
    # (its round law with splits: tests/test_bb1_law.py)
    rules = Rules.preset("pontoon", decks=2, natural_loss="bb+1", max_split_hands=2)
    sol = solve(rules, threads=1)
    obbo = solve(rules.replace(natural_loss="obbo"), threads=1)
    assert sol.expected_value > obbo.expected_value
    with pytest.raises(NotImplementedError, match="free_splits"):
        solve(rules.replace(max_split_hands=3, free_splits=(8,)))
