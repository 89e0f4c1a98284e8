"""The games against published figures (docs/validation.md, "published game figures").

Each test states the rules, the figure, its source and the tolerance: half a unit of the
figure's last printed digit.  Where our number and a published one disagree beyond that, the
test is an expected failure (strict) whose reason says what we found; it is not widened.
"""
import pytest

import bjsolve
from bjsolve import Rules

INF = float("inf")


def percent_edge(value):
    """House edge in percent from an EV per initial bet."""
    return -100.0 * float(value)


# ---- Free Bet: 12 against a 4, infinite deck --------------------------------------------

@pytest.fixture(scope="module")
def twelve_v_four():
    classic = bjsolve.solve(Rules(decks=INF, hit_soft_17=True))
    free_bet = bjsolve.solve(Rules.preset("free-bet", decks=INF))
    return {"classic": classic.hand_ev((2, 10), 4), "free bet": free_bet.hand_ev((2, 10), 4)}


@pytest.mark.parametrize("game,action,published", [
    ("classic", "stand", -0.205850), ("classic", "hit", -0.213839),
    ("free bet", "stand", -0.301161), ("free bet", "hit", -0.279823),
])
def test_twelve_against_four_infinite_deck(twelve_v_four, game, action, published):
    """Michael Shackleford, Wizard of Odds weekly newsletter of July 11, 2019 (as archived at
    https://sonofdave.com/newsletter/july-11-2019/): the EV of standing and of hitting a hard
    12 against a dealer 4, infinite deck, in blackjack and in Free Bet Blackjack (a dealer 22
    pushes).  Printed to 6 decimals: tolerance 5e-7.  The newsletter does not name the
    dealer's soft-17 rule; Free Bet is dealt H17 and the figures are the H17 ones (S17 moves
    each of them by 3e-4 or more, far beyond the printed precision).  A dealer 4 has no natural, so no conditioning
    question arises; after the hit the hand plays on (hit or stand) optimally."""
    assert float(twelve_v_four[game][action]) == pytest.approx(published, abs=5e-7)


# ---- Spanish 21: the rule-variation table -----------------------------------------------
#
# Michael Shackleford, Wizard of Odds, "Spanish 21" (https://wizardofodds.com/games/spanish-21/),
# house edge by rules and decks (6 and 8 Spanish decks), as that table is reproduced by the
# Wikipedia article "Spanish 21" (6 decks: H17 0.78 %, S17 0.37 %): H17 0.78 / 0.80,
# S17 0.37 / 0.38, H17 with redoubling 0.42 / 0.45 (percent, two decimals: tolerance
# 0.005).  The rules are the game's standard ones, our preset "spanish-21" without
# redoubling (player 21 and natural always win, the 5/6/7-card and 6-7-8 / 7-7-7 bonuses,
# not after a double, the super bonus, late surrender, double on any number of cards, double
# after splits, resplit to 4 hands including aces, hit and double split aces, double-down
# rescue).  Read with the super bonus (200 units) and optimal play, three of the four
# figures hold to their printed precision; without the super bonus none does (6D H17 0.7999,
# S17 0.3895, 8D H17 0.8221, S17 0.4102), and the basic chart's value lies 0.03-0.04 above every one (a published
# basic strategy reads the number of cards; ours does not).

def spanish(decks, hit_soft_17, redoubles=0, **more):
    return Rules.preset("spanish-21", decks=decks, hit_soft_17=hit_soft_17,
                        redoubles=redoubles, **more)


_solved: dict = {}


def solved(rules):
    if rules not in _solved:
        _solved[rules] = bjsolve.solve(rules)
    return _solved[rules]


@pytest.mark.parametrize("decks,h17,published", [
    (6, True, 0.78),
    (6, False, 0.37),
    pytest.param(8, False, 0.38, marks=pytest.mark.slow),
    pytest.param(8, True, 0.80, marks=[pytest.mark.slow, pytest.mark.xfail(
        strict=True, reason="ours 0.7948 %, printed 0.80 (half a unit: 0.005): 0.0002 "
                            "beyond the rounding; the other three cells agree")]),
])
def test_spanish_21_house_edge_without_redoubling(decks, h17, published):
    edge = percent_edge(solved(spanish(decks, h17)).expected_value)
    assert edge == pytest.approx(published, abs=0.005)


# H17 with redoubling: our preset's rescue is no longer offered once the hand has redoubled
# (Rules.rescue_after_redouble=False, docs/games.md); redoubling is then worth 0.364 % in 6
# decks, the page's rule table's 0.36 %.  The edges themselves stay just outside the
# printed digits (6D 0.4149 against 0.42, 8D 0.4372 against 0.45; without redoubling our 8D
# H17 figure is 0.0002 below the printed 0.80 as well).
@pytest.mark.parametrize("decks,published", [
    pytest.param(6, 0.42, marks=pytest.mark.xfail(strict=True, reason=(
        "ours 0.4149 %, printed 0.42 (half a unit: 0.005): 0.0001 beyond the rounding; "
        "the value of redoubling agrees (0.364 %, test below)"))),
    pytest.param(8, 0.45, marks=[pytest.mark.slow, pytest.mark.xfail(strict=True, reason=(
        "ours 0.4372 %, printed 0.45: 0.008 beyond the rounding (redoubling worth 0.358 % "
        "from our 0.7948 %, the printed figures differ by 0.35)"))]),
])
def test_spanish_21_with_redoubling(decks, published):
    """The table above, H17 with redoubling (up to three times), the preset's rescue
    (not after a redouble)."""
    edge = percent_edge(solved(spanish(decks, True, redoubles=3)).expected_value)
    assert edge == pytest.approx(published, abs=0.005)


def test_spanish_21_value_of_redoubling():
    """The same page's rule table: redoubling up to three times is worth 0.36 % (6 decks,
    H17; also the difference of the printed 0.78 and 0.42), two decimals: tolerance
    0.005.  The preset's rescue, which a redoubled hand no longer has."""
    without = percent_edge(solved(spanish(6, True)).expected_value)
    with_ = percent_edge(solved(spanish(6, True, redoubles=3)).expected_value)
    assert without - with_ == pytest.approx(0.36, abs=0.005)


def test_spanish_21_with_redoubling_lies_between_the_rescue_readings():
    """What the published 0.42 % (6 decks, H17, redoubling) pins about the rescue after a
    redouble: the rescue still offered for the original bet after a redouble
    (rescue_after_redouble=True: 0.117 %) is far too generous, no rescue at all (0.445 %)
    too mean; the preset's reading (0.415 %) lies between."""
    generous = percent_edge(solved(spanish(6, True, redoubles=3,
                                           rescue_after_redouble=True)).expected_value)
    preset = percent_edge(solved(spanish(6, True, redoubles=3)).expected_value)
    no_rescue = percent_edge(solved(spanish(6, True, redoubles=3,
                                            double_rescue=False)).expected_value)
    assert generous < 0.42 - 0.005
    assert 0.42 + 0.005 < no_rescue
    assert generous < preset < no_rescue


# ---- Super Fun 21 -------------------------------------------------------------------------
#
# The casino's rules, as John Grochowski lists them from the game's flyer (Casino City
# Times, "Have Some Fun with Super Fun 21", 27 November 2001) and as the Wizard of Odds'
# page and the guides give them: one deck, the dealer hits soft 17 and peeks; double on
# any number of cards, after splits too; split to four hands, aces included, split aces
# played on; late surrender at any time, after hitting, splitting or doubling (the rescue
# after a double, for half the doubled bet); a six-card hand of 20 or less wins at once and
# a 21 of five or more cards pays 2:1 at once (on split hands too; neither after a double);
# a player natural always wins, pays 1:1, 2:1 in diamonds.  That is the preset
# "super-fun-21" (docs/games.md).

def test_super_fun_21_house_edge():
    """0.94 % (two decimals: tolerance 0.005), the house edge printed by the online guides
    to the game (e.g. 21-blackjack-casino.com, "Super Fun 21"), for the rules above; ours:
    optimal play (CDZ-) 0.9373 % (CDP 0.9365 %)."""
    edge = percent_edge(solved(Rules.preset("super-fun-21")).expected_value)
    assert edge == pytest.approx(0.94, abs=0.005)


@pytest.mark.xfail(strict=True, reason=(
    "ours 0.937 % with optimal play (CDP 0.9365 %), printed 0.77: no play of these rules "
    "reaches it, and the article does not say how it was computed (the same author gives "
    "0.8 % in 2010)"))
def test_super_fun_21_grochowski_2001():
    """John Grochowski (same article): 0.77 % against basic strategy players, the rules
    above.  Two decimals: tolerance 0.005."""
    edge = percent_edge(solved(Rules.preset("super-fun-21")).expected_value)
    assert edge == pytest.approx(0.77, abs=0.005)
