"""The games' rules in the model (docs/games.md): Rules fields, their checks, the rule
summary, the presets, the Spanish deck and the kernel rule dict's games' keys."""
import math

import pytest

from bjcore import check_rules
from bjsolve import Rules, Shoe, solve
from bjsolve.exact.kernel_rules import kernel_rules
from bjsolve.model.suited_shoe import SuitedShoe

CLASSIC_KEYS = set(kernel_rules(Rules(), 0))
GAME_PRESETS = ("free-bet", "spanish-21", "super-fun-21", "blackjack-switch", "pontoon")
NOT_SOLVED = {"blackjack-switch": "switch"}


@pytest.mark.parametrize("name", Rules.presets())
def test_every_preset_summary_reads_back(name):
    rules = Rules.preset(name)
    assert Rules.parse(rules.describe()) == rules


@pytest.mark.parametrize("name", sorted(set(Rules.presets()) - set(GAME_PRESETS)))
def test_classic_presets_keep_their_summary_and_kernel_dict(name):
    rules = Rules.preset(name)
    assert rules.is_classic
    assert set(kernel_rules(rules, 0)) == CLASSIC_KEYS
    assert not any(code in rules.describe() for code in ("P22", "FD", "FS", "RDx", "RSC"))


def test_the_default_summary_is_unchanged():
    assert Rules().describe() == "6D S17 DOA DAS SPL3 no RSA no surrender peek 3:2"


def test_free_bet_maps_to_the_contracts_masks():
    keys = kernel_rules(Rules.preset("free-bet"), 0)
    assert keys["dealer_22_push"] == 1
    assert keys["free_double_totals"] == (1 << 9) | (1 << 10) | (1 << 11) == 3584
    assert keys["free_split_ranks"] == 0b1111111110 == 1022
    assert set(keys) - CLASSIC_KEYS == {"dealer_22_push", "free_double_totals",
                                        "free_split_ranks"}
    check_rules(keys)     # the kernels' decoder takes it


def test_spanish_21_maps_to_the_contracts_keys():
    rules = Rules.preset("spanish-21")
    keys = kernel_rules(rules, 0)
    assert keys["natural_tie_value"] == rules.blackjack_payout == 1.5  # natural always wins
    assert keys["player_21_wins"] == 1 and keys["redoubles"] == 3
    assert keys["bonus_21"] == keys["bonus_678"] == keys["bonus_777"] == (1.5, 2.0, 3.0)
    assert keys["double_rescue"] == keys["double_split_aces"] == 1
    assert keys["super_bonus"] == 200.0
    assert "bonus_after_split" not in keys and "dealer_22_push" not in keys
    decoded = check_rules(keys)
    assert decoded["game"] == 1
    assert rules.shoe() == Shoe.decks(6, spanish=True)


@pytest.mark.parametrize("name, rule", sorted(NOT_SOLVED.items()))
def test_rules_not_computed_yet_are_refused_by_name(name, rule):
    rules = Rules.preset(name)
    with pytest.raises(NotImplementedError, match=rule):
        kernel_rules(rules, 0)
    if rules.switch:
        return   # the kernels refuse the swap; solve computes it (tests/test_switch.py)
    with pytest.raises(NotImplementedError, match=rule):
        solve(rules, shoe=Shoe.decks(1), threads=1)


def test_the_spanish_deck_is_one_notion():
    shoe = Shoe.decks(6, spanish=True)
    assert shoe.counts == (24,) * 9 + (72,) and len(shoe) == 6 * 48
    assert SuitedShoe.decks(6, spanish=True).to_shoe() == shoe
    assert Rules(decks=2, spanish_deck=True).shoe() == Shoe.decks(2, spanish=True)
    assert Rules(decks=2).shoe() == Shoe.decks(2)
    assert repr(shoe) == "Shoe.decks(6, spanish=True)"
    infinite = Rules(decks=math.inf, spanish_deck=True).shoe()
    assert infinite.is_infinite and infinite.probabilities()[9] == pytest.approx(12 / 48)
    with pytest.raises(TypeError, match="spanish must be True or False"):
        Shoe.decks(6, spanish=1)


def test_game_fields_are_normalised():
    rules = Rules(free_doubles=[11, 9, 10, 10], free_splits=("A", "9", 2, "T"),
                  bonus_21=[3 / 2, 2, 3], super_bonus=40)
    assert rules.free_doubles == (9, 10, 11)
    assert rules.free_splits == (1, 2, 9, 10)
    assert rules.bonus_21 == (1.5, 2.0, 3.0) and rules.super_bonus == 40.0
    assert Rules.parse(rules.describe()) == rules
    assert "FD9-11" in rules.describe() and "FSA-2+9-T" in rules.describe()


BAD = [
    (dict(dealer_22="maybe"), ValueError, "Rules.dealer_22 must be one of 'bust', 'push'"),
    (dict(free_doubles=(9, 21)), ValueError, "Rules.free_doubles must be hard totals 4..20"),
    (dict(free_doubles="9-11"), TypeError, "Rules.free_doubles must be a tuple"),
    (dict(free_doubles=(9.0,)), TypeError, "Rules.free_doubles must be hard totals"),
    (dict(free_splits=(0,)), ValueError, "Rules.free_splits"),
    (dict(free_splits=(1,), max_split_hands=1), ValueError, "needs splitting"),
    (dict(player_21_wins=1), TypeError, "Rules.player_21_wins must be True or False"),
    (dict(bonus_21=(1.5, 2.0)), ValueError, "Rules.bonus_21 must be three payouts"),
    (dict(bonus_678=(0.5, 2.0, 3.0)), ValueError, "Rules.bonus_678 must be three payouts"),
    (dict(bonus_777=(1.5, float("nan"), 3.0)), ValueError, "Rules.bonus_777"),
    (dict(super_bonus=-1), ValueError, "Rules.super_bonus must be units per unit bet"),
    (dict(redoubles=4), ValueError, "Rules.redoubles must be a whole number 0..3"),
    (dict(redoubles=1.0), TypeError, "Rules.redoubles must be a whole number 0..3"),
    (dict(free_doubles=(9, 10, 11), double="10-11"), ValueError,
     "which Rules.double='10-11' does not let double"),
    (dict(redoubles=1, free_doubles=(10,)), ValueError,
     "Rules.redoubles=1 and Rules.free_doubles=(10,) do not go together"),
    (dict(redoubles=2, free_splits=(8,)), ValueError,
     "Rules.redoubles=2 and Rules.free_splits=(8,) do not go together"),
    (dict(double_split_aces=True, max_split_hands=1), ValueError, "needs splitting"),
    (dict(natural_always_wins=True, dealer_wins_ties=True), ValueError,
     "Rules.natural_always_wins=True contradicts Rules.natural_tie='lose'"),
    (dict(charlie=4), ValueError, "Rules.charlie must be 0 (none), 5, 6 or 7"),
    (dict(diamond_blackjack_payout=0), ValueError, "Rules.diamond_blackjack_payout"),
    (dict(natural_loss="obbo"), ValueError, "it needs hole_card='enhc'"),
    (dict(natural_loss="all"), ValueError, "Rules.natural_loss must be one of"),
]


@pytest.mark.parametrize("fields, error, message", BAD, ids=lambda x: str(x)[:40])
def test_bad_game_rules_are_named(fields, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        Rules(**fields)


@pytest.mark.parametrize("text, message", [
    ("6D B21=3:2/2:1", "give three payouts"),
    ("6D FD11-9", "goes down"),
    ("6D FSX", "not a card"),
    ("6D RDx9", "Rules.redoubles must be a whole number 0..3"),
])
def test_bad_game_codes_in_a_summary(text, message):
    with pytest.raises(ValueError, match=message):
        Rules.parse(text)
