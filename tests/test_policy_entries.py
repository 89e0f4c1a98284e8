"""A frozen decision given one by one (``set_policy``) is read by one decoder of the rule
model for every engine that takes it: the classic policy engine, the round laws and the
games' engine refuse the same bad entry with the same message, naming what was wrong and
what is allowed, and key a good one alike."""
import pytest

from bjcore import GameEngine, RoundLaws, UpcardEngine
from bjsolve import Rules, Shoe
from bjsolve.exact.kernel_rules import POLICY_CLASS, kernel_rules

ONE_DECK = Shoe.decks(1).kernel_weights()
PARAMS = kernel_rules(Rules(decks=1), POLICY_CLASS)
FREE_BET = kernel_rules(Rules.preset("free-bet"), POLICY_CLASS)

ENGINES = {
    "UpcardEngine": lambda: UpcardEngine(ONE_DECK, 6, PARAMS, False, False),
    "RoundLaws": lambda: RoundLaws(ONE_DECK, 6, PARAMS, False, True),
    "GameEngine": lambda: GameEngine(Shoe.decks(6).kernel_weights(), 6, FREE_BET, False, False),
}
HAND = [0, 0, 0, 0, 0, 0, 0, 1, 1, 0]      # 8-9

BAD = [
    ((16, HAND, 0), "set_policy: kind 16 is not a kind of decision"),
    ((-1, HAND, 0), "set_policy: kind -1 is not a kind of decision"),
    ((1, HAND, 5), "set_policy: action 5 is not an action (0 stand, 1 hit, 2 double, "
                   "3 split, 4 surrender)"),
    ((1, HAND[:9], 0), "set_policy: counts must be 10 counts (ranks 1..10), got 9"),
    ((1, HAND[:9] + [32], 0), "set_policy: count 32 of rank 10 is not a hand's (0..31)"),
    ((1, HAND[:9] + [-1], 0), "set_policy: count -1 of rank 10 is not a hand's (0..31)"),
]


@pytest.mark.parametrize("name", ENGINES)
@pytest.mark.parametrize("entry, message", BAD)
def test_a_bad_entry_is_refused_by_name(name, entry, message):
    engine = ENGINES[name]()
    with pytest.raises(ValueError) as err:
        engine.set_policy(*entry)
    assert str(err.value).startswith(message)


@pytest.mark.parametrize("name", ["UpcardEngine", "RoundLaws"])
def test_the_classic_engines_take_the_three_classic_kinds(name):
    engine = ENGINES[name]()
    for kind in (0, 1, 2):
        engine.set_policy(kind, HAND, 0)
    for kind in (3, 4):
        with pytest.raises(ValueError, match=r"kind \d is not a kind of decision \(0 start, "
                                             r"1 later, 2 split hand\)$"):
            engine.set_policy(kind, HAND, 0)


def test_the_games_take_the_choices_after_a_double():
    engine = ENGINES["GameEngine"]()
    for kind in (0, 1, 2, 4, 15):
        engine.set_policy(kind, HAND, 0)
    with pytest.raises(ValueError, match=r"kind 3 is not a kind of decision \(0 start, 1 "
                                         r"later, 2 split hand, 4\.\.15 a choice after a "
                                         r"double\)$"):
        engine.set_policy(3, HAND, 0)


def test_frozen_entries_play_as_given():
    """Standing on every hand, frozen entry by entry, is worth what standing on the two
    cards is worth: the entries are keyed where the engine looks them up (an identity: a
    policy miss would stand as well, so the miss count is asserted too)."""
    engine = ENGINES["UpcardEngine"]()
    for a in range(10):
        for b in range(a, 10):
            counts = [0] * 10
            counts[a] += 1
            counts[b] += 1
            engine.set_policy(0, counts, 0)
    engine.round_ev()
    assert engine.policy_misses == 0
