"""Blackjack Switch on fractional shoes (``Shoe.fractional``, docs/games.md, "Blackjack
Switch"): computed when every count is whole or at least 5 (a deal's five cards then come
from positive counts), refused by name otherwise, where a deal could take more cards of a
rank than the shoe holds (before, the analysis stopped with "a dealable hand has no
value").  What pins the figures: identities with the one-hand game and with whole shoes."""
import pytest

from bjsolve import Rules, Shoe, solve
from bjsolve.exact.switch import solve_switch
from bjsolve.exact.switch_removal import switch_effects_of_removal

SIX_DECKS = Shoe.decks(6).counts
NO_SPLIT = Rules.preset("blackjack-switch", max_split_hands=1)
SMALL = (2, 0, 0, 0, 0, 4, 0, 3, 0, 7)          # tests/test_switch.py's 16 cards


@pytest.mark.parametrize("removal", ["full", "own"])
def test_a_count_below_five_that_is_not_whole_is_refused_by_name(removal):
    thin = Shoe.fractional([0.15 * c for c in SIX_DECKS])      # 3.6 of each rank, 14.4 tens
    with pytest.raises(ValueError, match=r"shoe: .*rank A has 3\.6"):
        solve_switch(Rules.preset("blackjack-switch"), thin, removal=removal)
    with pytest.raises(ValueError, match=r"rank A has 3\.6"):
        solve(Rules.preset("blackjack-switch"), shoe=thin)


def test_effects_of_removal_refuse_a_shoe_that_a_removed_card_makes_thin():
    shoe = Shoe.fractional([5.5] * 9 + [22.0])      # a removed ace leaves 4.5
    with pytest.raises(ValueError, match=r"rank A has 4\.5"):
        switch_effects_of_removal(Rules.preset("blackjack-switch"), shoe)


def test_never_switching_with_own_removal_is_two_hands_of_the_game():
    """With removal "own" each hand's value is the one-hand game's; summed over the other
    hand's cards, the deal's chance of a dealer natural is the one-hand game's (the five
    cards' formulas are a whole shoe's with positive counts), so never switching is worth
    two hands of the game exactly, as on whole shoes (test_switch.py).  No splits: on a
    fractional shoe a split's contexts can take the pair rank below zero, where the
    engine's clamped laws leave 1e-12 between the two computations."""
    rules = Rules.preset("blackjack-switch", decks=2, max_split_hands=1)
    shoe = Shoe.fractional([0.77 * c for c in Shoe.decks(2).counts])   # 6.16 .. 24.64
    assert any(c != int(c) for c in shoe.counts)
    sol = solve_switch(rules, shoe, removal="own", threads=1)
    game = solve(rules.replace(switch=False), shoe=shoe, split="CDZ-", threads=1)
    assert sol.no_switch_value == pytest.approx(2 * game.expected_value, abs=1e-12)
    assert sol.expected_value > sol.no_switch_value


def test_a_fractional_shoe_of_whole_counts_is_the_whole_shoe():
    """The fractional path (an engine per other hand and upcard) against the whole shoe's
    (one engine per upcard, the other hands set out in turn), all five cards out."""
    whole = solve_switch(NO_SPLIT, Shoe(list(SMALL)), threads=1)
    fractional = solve_switch(NO_SPLIT, Shoe.fractional([float(c) for c in SMALL]), threads=1)
    assert fractional.expected_value == pytest.approx(whole.expected_value, abs=1e-15)
    assert fractional.switch_rate == pytest.approx(whole.switch_rate, abs=1e-15)
