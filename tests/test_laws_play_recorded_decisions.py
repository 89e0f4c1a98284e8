"""The round laws never decide: they play a table of frozen decisions, the value engine's
(docs/algorithms.md, "One decision table").  Checked here:

* a recorded optimal solve, played back by a policy engine on the same shoe, is the solve
  itself: no decision missing and the same EV (an identity), also on a fractional shoe
  whose ranks hold less than one card, and for the three post-split classes;
* a RoundLaws given no decisions records a solve of its own, and one given a solve's
  (``copy_policy_from``, also CDP1 / CDP tables keyed per split context) plays it: both
  laws are the same, to the bit, and their mean is the solve's EV;
* the table is shared, not copied, and neither side writes to a shared one.
"""
import numpy as np
import pytest

from bjcore import RoundLaws, UpcardEngine
from bjsolve import Rules, Shoe
from bjsolve.exact.kernel_rules import POLICY_CLASS, SPLIT_CLASSES, kernel_rules

NET = np.array([(k - 16) / 2 for k in range(33)])


def law_mean(law, payout):
    law = np.asarray(law)
    return float((law[:, :33] * NET).sum() + law[:, 33].sum() * payout)


def recorded(counts, up, rules, split, fractional=False):
    engine = UpcardEngine(counts, up, kernel_rules(rules, SPLIT_CLASSES[split]), False,
                          fractional)
    ev = engine.round_ev()
    engine.freeze_decisions()
    return engine, ev


# a two-deck shoe short of most of its fours and sixes: 0.5 and 0.25 of a card left
FRACTIONAL = [8.0, 8.0, 8.0, 0.5, 8.0, 0.25, 8.0, 8.0, 8.0, 32.0]


@pytest.mark.parametrize("split", ["CDZ-", "CDP1", "CDP"])
@pytest.mark.parametrize("counts, fractional", [(Shoe.decks(1).kernel_weights(), False),
                                                (FRACTIONAL, True)])
def test_a_recorded_solve_played_back_is_the_solve(split, counts, fractional):
    rules = Rules(decks=2)
    for up in (2, 7, 10):
        engine, ev = recorded(counts, up, rules, split, fractional)
        player = UpcardEngine(counts, up, kernel_rules(rules, POLICY_CLASS), False,
                              fractional)
        engine.copy_policy_to(player)
        assert player.round_ev() == pytest.approx(ev, abs=1e-13)
        # (on the fractional shoe, a rank with half a card left is dealt: the record once
        # skipped the hands holding one, and the player stood on them)
        assert player.policy_misses == 0


@pytest.mark.parametrize("split", ["CDZ-", "CDP1", "CDP"])
def test_laws_record_a_solve_or_play_the_one_given(split):
    rules = Rules(decks=1, double_after_split=True)
    counts = Shoe.decks(1).kernel_weights()
    params = kernel_rules(rules, SPLIT_CLASSES[split])
    for up in (1, 5, 10):
        engine, ev = recorded(counts, up, rules, split)
        own = RoundLaws(counts, up, params, False, False)
        given = RoundLaws(counts, up, params, False, False)
        assert given.copy_policy_from(engine) > 0
        law_own, law_given = own.outcome_law(), given.outcome_law()
        assert (law_own == law_given).all()
        assert law_mean(law_given, rules.blackjack_payout) == pytest.approx(ev, abs=1e-13)
        assert own.policy_misses == given.policy_misses == 0


def test_a_shared_table_is_copied_before_a_change():
    rules = Rules(decks=1)
    counts = Shoe.decks(1).kernel_weights()
    engine, ev = recorded(counts, 6, rules, "CDZ-")
    laws = RoundLaws(counts, 6, kernel_rules(rules, SPLIT_CLASSES["CDZ-"]), False, False)
    laws.copy_policy_from(engine)
    # the laws hit 8-9 against the 6 from now on; the engine's table is not touched
    laws.set_policy(0, [0, 0, 0, 0, 0, 0, 0, 1, 1, 0], 1)
    player = UpcardEngine(counts, 6, kernel_rules(rules, POLICY_CLASS), False, False)
    engine.copy_policy_to(player)
    assert player.round_ev() == pytest.approx(ev, abs=1e-13)
    assert law_mean(laws.outcome_law(), rules.blackjack_payout) < ev - 1e-4
