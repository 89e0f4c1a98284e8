"""Rules and shoes: validation, presets, card spellings."""
import math

import pytest

from bjsolve import Rules, Shoe
from bjsolve.model.ranks import rank, ranks


def test_defaults():
    r = Rules()
    assert (r.decks, r.hit_soft_17, r.double, r.double_soft, r.double_any_cards,
            r.double_after_split, r.max_split_hands, r.resplit_aces, r.hit_split_aces,
            r.surrender, r.blackjack_payout, r.hole_card, r.dealer_wins_ties) == (
        6, False, "any", True, False, True, 4, False, False, "none", 1.5, "peek", False)


@pytest.mark.parametrize("field, value", [
    ("decks", 0), ("decks", -1), ("decks", 2.5), ("double", "8-11"), ("surrender", "always"),
    ("hole_card", "none"), ("max_split_hands", 5), ("max_split_hands", 0),
    ("blackjack_payout", 0), ("blackjack_payout", -1.5), ("blackjack_payout", math.nan),
])
def test_bad_values_name_the_field(field, value):
    with pytest.raises(ValueError, match=field):
        Rules(**{field: value})


@pytest.mark.parametrize("field", ["hit_soft_17", "double_after_split", "resplit_aces"])
def test_flags_must_be_bool(field):
    with pytest.raises(TypeError, match=field):
        Rules(**{field: "yes"})


def test_hit_split_aces_needs_splitting():
    with pytest.raises(ValueError, match="hit_split_aces"):
        Rules(hit_split_aces=True, max_split_hands=1)


def test_presets():
    easy = Rules.preset("easy")
    assert easy.decks == math.inf and easy.hole_card == "exposed" and easy.hit_soft_17
    assert easy.surrender == "late" and easy.max_split_hands == 4 and not easy.resplit_aces
    for name in Rules.presets():
        assert isinstance(Rules.preset(name), Rules)
    with pytest.raises(ValueError, match="known"):
        Rules.preset("nowhere")


def test_rank_spellings():
    assert [rank(c) for c in ("A", "a", 1, "2", 9, "T", "10", 10, "J", "Q", "K")] == \
        [1, 1, 1, 2, 9, 10, 10, 10, 10, 10, 10]
    assert ranks("A7") == (1, 7) and ranks(("K", "5")) == (10, 5) and ranks("10") == (10,)
    for bad in ("X", 0, 11, "1 0"):
        with pytest.raises(ValueError):
            rank(bad)
    with pytest.raises(TypeError):
        rank(True)


def test_shoe_basics():
    s = Shoe.decks(2)
    assert len(s) == 104 and s.counts[9] == 32 and s.count("K") == 32
    assert sum(s.probabilities()) == pytest.approx(1.0)
    t = s.remove("A", "A", 5)
    assert t.counts[0] == 6 and t.counts[4] == 7 and len(t) == 101
    assert t.add(1, 1, 5) == s
    inf = Shoe.infinite()
    assert inf.is_infinite and inf.size == math.inf and inf.remove("A") == inf
    assert inf.probabilities()[9] == pytest.approx(4 / 13)
    with pytest.raises(TypeError):
        len(inf)


@pytest.mark.parametrize("counts", [[1] * 9, [-1] + [4] * 9, [1.5] + [4] * 9, [0] * 10,
                                    ["x"] + [4] * 9])
def test_bad_shoes(counts):
    with pytest.raises((ValueError, TypeError)):
        Shoe(counts)


def test_removal_beyond_the_shoe():
    with pytest.raises(ValueError, match="cannot remove 5 x A"):
        Shoe.decks(1).remove(*["A"] * 5)


def test_a_shoe_remembers_the_whole_shoe_it_was_dealt_from():
    whole = Shoe.decks(2)
    assert whole.dealt_from is whole
    left = whole.remove("7", "A")
    assert left.dealt_from == whole
    assert left.remove("7").dealt_from == whole           # dealt from it, not from `left`
    assert left.add("7", "A") == whole                     # put back: whole again
    assert left.add("7", "A").dealt_from == whole
    # the same counts made from their counts alone are their own whole shoe: another shoe
    # (a suited 7-7-7 pays otherwise on it), and so is a card the whole shoe never held
    assert Shoe(left.counts) != left and Shoe(left.counts).dealt_from == Shoe(left.counts)
    assert whole.add("7").dealt_from == whole.add("7")
    stated = Shoe(left.counts, dealt_from=whole)
    assert stated == left and hash(stated) == hash(left)
    assert eval(repr(left), {"Shoe": Shoe}) == left
    tc = Shoe.fractional([7.5] * 9 + [30.0], dealt_from=whole)
    assert tc.dealt_from == whole and eval(repr(tc), {"Shoe": Shoe}) == tc


@pytest.mark.parametrize("whole, message", [
    ((8,) * 10, "dealt_from must be a Shoe"),
    (Shoe.infinite(), "dealt_from: an infinite shoe neither"),
    (Shoe.fractional([9.5] * 10), "the shoe holds 16 x T, more than the 9.5"),
    (Shoe([4] * 9 + [15]), "the shoe holds 16 x T, more than the 15"),
])
def test_a_whole_shoe_that_cannot_hold_the_shoe_is_refused(whole, message):
    with pytest.raises((TypeError, ValueError), match=message):
        Shoe([4] * 9 + [16], dealt_from=whole)
