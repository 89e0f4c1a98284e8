"""CDZ- (and CDP1) in the games is a play: each split hand decides by its own cards alone (its own
values as the split hand it is, only its own cards gone: docs/games.md, "How the model
plays the games"), so the split value is the EV of that play, dealt card by card.

- the engine's CDZ- split value with forced resplits (OBBO, no hole card; Pontoon without
  its rescue) against the card-by-card brute force of ``_reference_games`` playing the reference's decisions, in
  exact Fractions;
- the reference's CDZ- split value where a split hand chooses after a double (the rescue)
  or doubles a split ace: the brute force replays it exactly;
- the engine there: it makes those two choices as the split hand's other choices, in the
  generic split context (its own cards gone only), in the one-context walk and in the
  lanes alike.  (Before, it made them by the exact values in the hand's split context, the
  extra pair cards gone: a play the cards alone do not tell, 0.029 above the brute force
  for 6-6 against a ten with the rescue, 1.2e-4 for Pontoon's 8-8 with a resplit.)
"""
import functools
import warnings
from fractions import Fraction

import pytest

from bjcore import GameEngine
from bjsolve import Rules
from bjsolve._reference_games import (GameReferenceSolver, brute_force_game_round,
                                      game_policy, reference_kwargs)
from bjsolve.exact.kernel_rules import SPLIT_CLASSES, kernel_rules

EXACT = 1e-12
SHOE_RESPLIT = (1, 0, 1, 1, 1, 1, 1, 3, 1, 3)    # 13 cards, three 8s: a resplit of 8-8
SHOE_RESCUE = (1, 1, 1, 1, 2, 2, 2, 1, 1, 1)     # tests/test_rescue_after_redouble.py
SHOE_A = (2, 1, 1, 2, 1, 2, 3, 2, 1, 3)          # tests/test_games_vs_reference.py
SHOE_PONTOON = (1, 1, 1, 1, 1, 1, 1, 3, 1, 4)    # 15 cards, three 8s


@functools.lru_cache(maxsize=None)
def _split_values(rules, counts, upcard, pair, split="CDZ-"):
    """(engine, reference, brute force) of splitting ``pair`` against ``upcard`` under the
    class ``split`` (CDZ- or CDP1, whose plays a brute force can deal: a split hand's
    decisions do not depend on which hand it is): the brute force splits, then plays every
    split hand by the reference's decisions."""
    kw = reference_kwargs(rules)
    ref = GameReferenceSolver(counts, split=split, **kw)
    rest = list(counts)
    for c in (upcard, pair, pair):
        rest[c - 1] -= 1
    play = game_policy(ref)

    def split_first(cards, dealer, allowed, state):
        return "split" if "split" in allowed else play(cards, dealer, allowed, state)

    brute_kw = {k: v for k, v in kw.items() if k not in ("natural_always_wins", "natural_tie")}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)     # a tiny shoe may run out
        brute = brute_force_game_round(tuple(rest), upcard, (pair, pair), split_first,
                                       natural_tie_value=Fraction(ref._t), sevens=counts[6],
                                       **brute_kw)
        engine = GameEngine([float(c) for c in counts], upcard,
                            kernel_rules(rules, SPLIT_CLASSES[split]), False)
        value = engine.split_ev(pair)[0]
    return value, ref.hand_values_unconditioned((pair, pair), upcard)["split"], brute


def test_a_resplit_round_under_obbo_is_the_play_dealt_card_by_card():
    rules = Rules(decks=1, hole_card="enhc", natural_loss="obbo", max_split_hands=3,
                  double_any_cards=True)
    engine, reference, brute = _split_values(rules, SHOE_RESPLIT, 10, 8)
    assert reference == brute
    assert engine == pytest.approx(float(brute), abs=EXACT)


def test_pontoon_with_a_resplit_but_no_rescue_is_the_play():
    rules = Rules.preset("pontoon", decks=1, max_split_hands=3, double_rescue=False)
    engine, reference, brute = _split_values(rules, SHOE_PONTOON, 10, 8)
    assert reference == brute
    assert engine == pytest.approx(float(brute), abs=EXACT)


# (rules, shoe, upcard, pair): a split hand that may be rescued after its double; split
# aces that may double on their card
CHOICES = {
    "rescue-6s-v10": (Rules(decks=1, redoubles=2, double_rescue=True, double_any_cards=True,
                            surrender="late"), SHOE_RESCUE, 10, 6),
    "split-aces-double-v2": (Rules(decks=1, double_split_aces=True, max_split_hands=2),
                             SHOE_A, 2, 1),
    # Pontoon (OBBO, the rescue) with a resplit: without the rescue the engine is exact
    "pontoon-resplit-8s-v10": (Rules.preset("pontoon", decks=1, max_split_hands=3),
                               SHOE_PONTOON, 10, 8),
}


@pytest.mark.parametrize("split", ["CDZ-", "CDP1"])
@pytest.mark.parametrize("name", list(CHOICES))
def test_the_references_choices_after_a_split_are_a_play(name, split):
    rules, counts, upcard, pair = CHOICES[name]
    _, reference, brute = _split_values(rules, counts, upcard, pair, split)
    assert reference == brute


# (under CDP1 the engine made these choices by the exact values of each split hand's
# context, not the first split hand's as its other choices: Pontoon's 8-8 with a resplit
# 1.2e-4 above the play)
@pytest.mark.parametrize("split", ["CDZ-", "CDP1"])
@pytest.mark.parametrize("name", list(CHOICES))
def test_the_engines_choices_after_a_split_are_that_play(name, split):
    rules, counts, upcard, pair = CHOICES[name]
    engine, reference, brute = _split_values(rules, counts, upcard, pair, split)
    assert reference == brute
    assert engine == pytest.approx(float(brute), abs=EXACT)


@pytest.mark.parametrize("split", ["CDZ-", "CDP1"])
@pytest.mark.parametrize("name", list(CHOICES))
def test_the_recorded_play_replays_the_split_and_the_round(name, split):
    # before the after-double picks and split aces' double were recorded, the policy
    # engine made them by the exact values of its split context (0.029 above the play
    # for the rescue case)
    rules, counts, upcard, pair = CHOICES[name]
    _, _, brute = _split_values(rules, counts, upcard, pair, split)
    params = kernel_rules(rules, SPLIT_CLASSES[split])
    shoe = [float(c) for c in counts]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        source = GameEngine(shoe, upcard, params, False)
        optimal = source.round_ev()
        assert source.freeze_decisions() > 0
        player = GameEngine(shoe, upcard, dict(params, split_class=3), False)
        source.copy_policy_to(player)
        assert player.split_ev(pair)[0] == pytest.approx(float(brute), abs=EXACT)
        assert player.round_ev() == pytest.approx(optimal, abs=EXACT)
    assert player.policy_misses == 0
