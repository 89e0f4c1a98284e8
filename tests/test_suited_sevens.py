"""The suits of a 7-7-7 on a depleted shoe (docs/games.md, "Suits").

The analysis knows the ranks of the cards gone, not their suits.  Three sevens dealt from
what is left are then three of the whole shoe's sevens alike, so the chance that they are
all of one suit is the whole shoe's, however many sevens are gone.  Checked against a
count over every labelled card (which sevens are gone, which three are dealt).  (The
fixed-strategy removal effects of Spanish 21 with its suited bonuses, whose mean over the
shoe is 0 only if a depleted shoe's payouts are the average of the whole shoe's, are
checked in tests/test_game_engine.py.)
"""
from fractions import Fraction
from itertools import combinations

import pytest

import bjsolve
from bjsolve import Rules, Shoe
from bjsolve._reference_games import GameReferenceSolver, reference_kwargs

def suited_share_by_count(decks, gone):
    """The chance that three sevens dealt are all of one given suit, ``gone`` sevens of
    unknown suits having left a shoe of ``decks`` decks: every set of sevens gone and every
    three of the rest, counted."""
    sevens = [suit for suit in range(4) for _ in range(decks)]
    suited = total = 0
    for out in combinations(range(len(sevens)), gone):
        left = [sevens[i] for i in range(len(sevens)) if i not in out]
        for three in combinations(left, 3):
            total += 1
            suited += three[0] == three[1] == three[2]
    return Fraction(suited, total) / 4


@pytest.mark.parametrize("gone", [0, 1, 2, 5])
def test_a_depleted_shoes_suited_sevens_are_the_whole_shoes(gone):
    decks = 3
    rules = Rules.preset("spanish-21", decks=decks)
    b0, b1, b2 = (Fraction(x) for x in rules.bonus_777)
    q = suited_share_by_count(decks, gone)
    # a 21 always wins (player_21_wins) and a 5 has no natural behind it: standing on
    # 7-7-7 is worth its multiplier, mixed (1 - 4q) b0 + suited 3q b1 + spades q b2
    expected = (1 - 4 * q) * b0 + 3 * q * b1 + q * b2
    whole = Shoe.decks(decks, spanish=True)
    shoe = whole.remove(*["7"] * gone) if gone else whole
    assert shoe.dealt_from == whole
    value = bjsolve.solve(rules, shoe=shoe).hand_ev("777", 5)["stand"]
    assert value == pytest.approx(float(expected), abs=1e-12)
    reference = GameReferenceSolver(shoe.counts, full_sevens=4 * decks,
                                    **reference_kwargs(rules))
    assert reference.hand_values_unconditioned((7, 7, 7), 5)["stand"] == expected


def test_a_shoe_given_by_its_counts_is_its_own_whole_shoe():
    # the same counts with no shoe they were dealt from: the sevens left are the whole
    # shoe's, spread over the four suits (3 of 11 sevens in 3 decks: 11/4 a suit)
    rules = Rules.preset("spanish-21", decks=3)
    counts = list(Shoe.decks(3, spanish=True).counts)
    counts[6] -= 1
    b0, b1, b2 = (Fraction(x) for x in rules.bonus_777)
    m, n = Fraction(11, 4), 11
    q = m * (m - 1) * (m - 2) / (n * (n - 1) * (n - 2))
    expected = (1 - 4 * q) * b0 + 3 * q * b1 + q * b2
    value = bjsolve.solve(rules, shoe=Shoe(counts)).hand_ev("777", 5)["stand"]
    assert value == pytest.approx(float(expected), abs=1e-12)


def test_the_counting_codes_shoes_know_their_whole_shoe():
    # the shoes placed at a true count are depletions of the rules' shoe: their 7-7-7s
    # are paid with its suits, as a real depleted shoe's
    from bjsolve.counting.removal import shoe_at_true_count, true_count_shoes
    rules = Rules.preset("spanish-21", decks=2)
    shoes, _ = true_count_shoes(rules, "hilo", [-3, 0, 4])
    assert all(s.dealt_from == rules.shoe() for s in shoes.values())
    placed = shoe_at_true_count("hilo", 4, 2, spanish=True)
    assert placed.dealt_from == rules.shoe() and placed != rules.shoe()
