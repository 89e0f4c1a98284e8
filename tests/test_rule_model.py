"""The rule model (bjcore._rules): every kernel entry point reads the kernel rule dict and
the shoe through one decoder, so each refuses the same bad input with the same message,
and accepts and reads a good rule dict the same way.

The entry points: the solver's engine (``_core.UpcardEngine``), the round laws
(``_distribution.RoundLaws``) and the spots' moments (``_spot_moments.SpotMoments``, which
``_split_moments`` works on), the simulator (``_simulate.run_chunk``, through a
``GamePlan``), and ``_rules.check_rules`` / ``check_shoe`` themselves.  Expected messages
are the rule model's wording, written out here; expected decoded values come from the
``Rules`` object the dict was built from.
"""
import numpy as np
import pytest

from bjcore import (OPTIONAL_RULE_KEYS, RULE_KEYS, RoundLaws, SpotMoments, UpcardEngine,
                    check_rules, check_shoe)
from bjsolve import Rules, Shoe
from bjsolve.exact.kernel_rules import kernel_rules, natural_tie_value
from bjsolve.simulation.simulator import build_plan

ONE_DECK = Shoe.decks(1).kernel_weights()
_PLAN = None


def _simulate_with(rules: dict):
    global _PLAN
    if _PLAN is None:
        _PLAN, _ = build_plan(Rules(decks=1), penetration="every-round")
    plan = type(_PLAN)(**dict(vars(_PLAN), rules=rules))
    return plan.run(1, 0, 10)


ENTRY_POINTS = {
    "check_rules": lambda rules: check_rules(rules),
    "UpcardEngine": lambda rules: UpcardEngine(ONE_DECK, 6, rules, False, False),
    "RoundLaws": lambda rules: RoundLaws(ONE_DECK, 6, rules, False, True),
    "RoundLaws (infinite)": lambda rules: RoundLaws(Shoe.infinite().kernel_weights(), 6,
                                                     rules, True, True),
    "SpotMoments": lambda rules: SpotMoments(ONE_DECK, 6, rules),
    "run_chunk": _simulate_with,
}


def _good() -> dict:
    return kernel_rules(Rules(decks=1), 0)


def _with(**changes) -> dict:
    rules = _good()
    rules.update(changes)
    return rules


def _without(key: str) -> dict:
    rules = _good()
    del rules[key]
    return rules


BAD_RULES = [
    (_with(surrender=7), ValueError, "rules: surrender must be 0, 1 or 2, got 7"),
    (_with(max_split_hands=9), ValueError, "rules: max_split_hands must be 1, 2, 3 or 4, got 9"),
    (_with(max_split_hands=0), ValueError, "rules: max_split_hands must be 1, 2, 3 or 4, got 0"),
    (_with(blackjack_payout=0), ValueError,
     "rules: blackjack_payout must be a number in (0, 1000], got 0"),
    (_with(blackjack_payout=float("nan")), ValueError,
     "rules: blackjack_payout must be a number in (0, 1000], got nan"),
    (_with(blackjack_payout="3:2"), TypeError,
     "rules: blackjack_payout must be a number in (0, 1000], got '3:2'"),
    (_with(double_min_total=8), ValueError,
     "rules: double_min_total must be 0 (any total), 9 or 10, got 8"),
    (_with(double_min_total=9.0), TypeError,
     "rules: double_min_total must be 0 (any total), 9 or 10, got 9.0"),
    (_with(split_class=4), ValueError, "rules: split_class must be 0, 1, 2 or 3, got 4"),
    (_with(hit_soft_17=2), ValueError, "rules: hit_soft_17 must be a bool (0 or 1), got 2"),
    (_with(double_after_split="yes"), TypeError,
     "rules: double_after_split must be a bool (0 or 1), got 'yes'"),
    (_with(natural_tie_value=-2.0), ValueError,
     "rules: natural_tie_value must be a number in [-1, 1000], got -2.0"),
    (_without("surrender"), ValueError, "rules: missing surrender (a kernel rule dict holds"),
    (_without("dealer_wins_ties"), ValueError, "rules: missing dealer_wins_ties"),
    (_with(surender=1), ValueError, "rules: unknown surender (a kernel rule dict holds"),
]


def _outcome(entry, rules):
    """The exception an entry point raises for ``rules``: (type, message)."""
    with pytest.raises((ValueError, TypeError)) as caught:
        entry(rules)
    return type(caught.value), str(caught.value)


@pytest.mark.parametrize("rules, error, message", BAD_RULES,
                         ids=[m.split(",")[0][7:] for _, _, m in BAD_RULES])
def test_every_kernel_refuses_bad_rules_with_the_same_message(rules, error, message):
    outcomes = {name: _outcome(entry, rules) for name, entry in ENTRY_POINTS.items()}
    assert len(set(outcomes.values())) == 1, outcomes
    kind, text = outcomes["check_rules"]
    assert kind is error and text.startswith(message)


def test_a_missing_key_lists_every_key_the_dict_holds():
    _, text = _outcome(check_rules, _without("split_class"))
    assert all(key in text for key in RULE_KEYS + OPTIONAL_RULE_KEYS)


@pytest.mark.parametrize("rules", [
    Rules(decks=1),
    Rules(decks=6, hit_soft_17=True, double="10-11", double_soft=False, surrender="late",
          max_split_hands=3, resplit_aces=True, hit_split_aces=True, blackjack_payout=1.2),
    Rules(decks=2, hole_card="enhc", surrender="early", double_after_split=False,
          double_any_cards=True, dealer_wins_ties=True, natural_tie="win",
          max_split_hands=2),
])
def test_the_decoded_rules_are_the_rules(rules):
    """Each RuleParams field is the Rules object's setting, in the kernels' coding."""
    decoded = check_rules(kernel_rules(rules, 2))
    assert decoded == {
        "hit_soft_17": int(rules.hit_soft_17),
        "double_min_total": {"any": 0, "9-11": 9, "10-11": 10}[rules.double],
        "double_soft": int(rules.double_soft),
        "double_any_cards": int(rules.double_any_cards),
        "double_after_split": int(rules.double_after_split),
        "max_split_hands": rules.max_split_hands,
        "resplit_aces": int(rules.resplit_aces),
        "hit_split_aces": int(rules.hit_split_aces),
        "surrender": {"none": 0, "late": 1, "early": 2}[rules.surrender],
        "blackjack_payout": float(rules.blackjack_payout),
        "split_class": 2,
        "natural_takes_all": int(rules.hole_card == "enhc"),
        "tie_value": -1.0 if rules.dealer_wins_ties else 0.0,
        "natural_tie_value": natural_tie_value(rules),
        # a classic rule set: the games' fields at their classic values
        "dealer_22_push": 0, "free_double_totals": 0, "free_split_ranks": 0,
        "player_21_wins": 0, "bonus_21": [1.0] * 3, "bonus_678": [1.0] * 3,
        "bonus_777": [1.0] * 3, "bonus_after_split": 0, "super_bonus": 0.0,
        "full_sevens": 0.0, "redoubles": 0, "double_rescue": 0, "double_split_aces": 0,
        "rescue_after_redouble": 0,
        "player_21_beats_natural": 0, "natural_loss": 0,
        "diamond_blackjack_payout": 0.0, "charlie": 0, "surrender_any_time": 0,
        "bonus_21_at_once": 0, "game": 0,
    }


GAME_KEYS = [("dealer_22_push", 1), ("free_double_totals", (1 << 9) | (1 << 10) | (1 << 11)),
             ("free_split_ranks", 0b1111111110), ("player_21_wins", 1),
             ("bonus_21", (1.5, 2, 3)), ("bonus_678", (1.5, 2, 3)), ("bonus_777", (1, 1, 2)),
             ("super_bonus", 1000), ("redoubles", 3), ("double_rescue", 1),
             ("double_split_aces", 1), ("diamond_blackjack_payout", 2.0), ("charlie", 6),
             ("bonus_21_at_once", 1)]


@pytest.mark.parametrize("key, value", GAME_KEYS)
def test_a_rule_of_the_games_is_decoded_and_the_classic_kernels_refuse_it(key, value):
    """Each game key is read (and marks the rules as a game's); the classic solver and
    round laws refuse it by name instead of ignoring it.  The simulator plays it, from a
    plan built for it (tests/test_simulate_games.py)."""
    params = dict(kernel_rules(Rules(decks=1), 0), **{key: value})
    decoded = check_rules(params)
    assert decoded["game"] == 1
    assert decoded[key] == (list(map(float, value)) if isinstance(value, tuple) else value)
    name = "bonus" if "bonus" in key else key
    for entry in ("UpcardEngine", "RoundLaws", "RoundLaws (infinite)", "SpotMoments"):
        with pytest.raises(ValueError, match=f"rules: .*{name}.* games"):
            ENTRY_POINTS[entry](params)
    plan, _ = build_plan(Rules(decks=1), penetration="every-round", strategy=_stand,
                         game_rules={key: value})
    plan.run(1, 0, 10)


def _stand(cards, dealer, allowed):
    return "stand"


@pytest.mark.parametrize("key, value", [("redoubles", 2), ("double_rescue", 1),
                                        ("double_split_aces", 1)])
def test_the_simulator_refuses_a_plan_without_the_decisions_its_rules_take(key, value):
    """A classic plan's table has no after-double (or split-ace) decisions to play these
    rules by: refused with the number of kinds wanted, never read past its end."""
    with pytest.raises(ValueError, match=r"decision: these rules take \d+ kinds of decision"):
        _simulate_with(_with(**{key: value}))


@pytest.mark.parametrize("free", [{"free_double_totals": 1 << 10}, {"free_split_ranks": 1 << 8}])
def test_redoubles_with_free_stakes_are_refused(free):
    params = dict(kernel_rules(Rules(decks=1), 0), redoubles=1, **free)
    with pytest.raises(ValueError, match="rules: redoubles .* free doubles or free splits"):
        check_rules(params)


def test_bonus_after_split_alone_is_still_the_classic_game():
    """Paying bonuses on split hands means nothing without a bonus to pay."""
    params = dict(kernel_rules(Rules(decks=1), 0), bonus_after_split=1)
    assert check_rules(params)["game"] == 0


def test_the_whole_shoes_sevens_alone_are_still_the_classic_game():
    """``full_sevens`` (the suits of a 7-7-7) means nothing without a 7-7-7 bonus."""
    params = dict(kernel_rules(Rules(decks=1), 0), full_sevens=24.0)
    assert check_rules(params)["game"] == 0


@pytest.mark.parametrize("key, value, error", [
    ("free_split_ranks", 1, ValueError), ("free_double_totals", 1 << 21, ValueError),
    ("free_double_totals", 2.0, TypeError), ("bonus_21", (1.5, 2), ValueError),
    ("bonus_21", (0.5, 1, 1), ValueError), ("bonus_678", "1.5", TypeError),
    ("redoubles", 4, ValueError), ("super_bonus", -1, ValueError),
    ("double_rescue", 2, ValueError), ("charlie", 4.0, TypeError),
    ("charlie", 11, ValueError), ("diamond_blackjack_payout", -1.0, ValueError),
    ("diamond_blackjack_payout", "2", TypeError),
])
def test_a_bad_game_rule_names_its_key(key, value, error):
    params = dict(kernel_rules(Rules(decks=1), 0), **{key: value})
    with pytest.raises(error, match=f"rules: {key} must be"):
        check_rules(params)


def test_natural_tie_value_defaults_to_the_other_ties():
    rules = kernel_rules(Rules(decks=1, dealer_wins_ties=True), 0)
    del rules["natural_tie_value"]
    assert check_rules(rules)["natural_tie_value"] == -1.0


def test_integer_types_of_numpy_are_whole_numbers():
    rules = _with(max_split_hands=np.int64(3), surrender=np.int8(1), hit_soft_17=np.bool_(True))
    decoded = check_rules(rules)
    assert [decoded[k] for k in ("max_split_hands", "surrender", "hit_soft_17")] == [3, 1, 1]
    for entry in ENTRY_POINTS.values():
        entry(rules)                                   # accepted by every kernel


def test_the_simulator_wants_the_hole_card_procedure_of_the_rules():
    """run_chunk's hole-card procedure (peek here) must agree with natural_takes_all."""
    with pytest.raises(ValueError, match="natural_takes_all .* ENHC hole-card procedure"):
        _simulate_with(_with(natural_takes_all=True))


# ---- the shoe -----------------------------------------------------------------------------

SHOE_ENTRY_POINTS = {
    "check_shoe": lambda shoe, dealer: check_shoe(shoe, dealer),
    "UpcardEngine": lambda shoe, dealer: UpcardEngine(shoe, dealer, _good(), False, False),
    "RoundLaws": lambda shoe, dealer: RoundLaws(shoe, dealer, _good(), False, True),
    "SpotMoments": lambda shoe, dealer: SpotMoments(shoe, dealer, _good()),
}

BAD_SHOES = [
    (ONE_DECK[:9], 6, ValueError, "shoe must have 10 counts (ranks 1..10), got 9"),
    ([-1.0] + ONE_DECK[1:], 6, ValueError, "shoe counts must be finite and non-negative"),
    ([float("inf")] + ONE_DECK[1:], 6, ValueError, "shoe counts must be finite"),
    (["4"] + ONE_DECK[1:], 6, TypeError, "shoe counts must be numbers, got '4'"),
    ([4.0] * 5 + [0.0] + [4.0] * 3 + [16.0], 6, ValueError,
     "the shoe does not hold the dealer's cards (6,)"),
    ([4.0] * 5 + [1.0] + [4.0] * 3 + [16.0], (6, 6), ValueError,
     "the shoe does not hold the dealer's cards (6, 6)"),
    (ONE_DECK, 11, ValueError, "dealer must be an upcard or two cards, ranks 1..10, got 11"),
    (ONE_DECK, (1, 10), ValueError, "the dealer's two cards are a natural"),
    (ONE_DECK, 6.0, TypeError, "dealer must be a rank 1..10 (int) or a tuple of two"),
]


@pytest.mark.parametrize("shoe, dealer, error, message", BAD_SHOES)
def test_every_kernel_refuses_a_bad_shoe_with_the_same_message(shoe, dealer, error, message):
    outcomes = {}
    for name, entry in SHOE_ENTRY_POINTS.items():
        with pytest.raises((ValueError, TypeError)) as caught:
            entry(shoe, dealer)
        outcomes[name] = (type(caught.value), str(caught.value))
    assert len(set(outcomes.values())) == 1, outcomes
    kind, text = outcomes["check_shoe"]
    assert kind is error and text.startswith(message)


def test_fractional_counts_are_the_callers_choice():
    """Whole counts unless asked: the solver's engine refuses a fractional shoe unless
    ``fractional=True``; the round laws take one (and say so: their splits then follow
    the solver's construction)."""
    shoe = [4.5] + ONE_DECK[1:]
    with pytest.raises(ValueError, match=r"shoe counts must be whole numbers, got 4.5"):
        UpcardEngine(shoe, 6, _good(), False, False)
    UpcardEngine(shoe, 6, _good(), False, True)
    RoundLaws(shoe, 6, _good(), False, True)
    decoded = check_shoe(shoe, 6, fractional=True)
    assert decoded["fractional"] == 1 and decoded["size"] == 52.5
    with pytest.raises(ValueError, match="a fractional shoe is no real shoe"):
        SpotMoments(shoe, 6, _good())


def test_the_decoded_shoe():
    shoe = Shoe.decks(2).kernel_weights()
    assert check_shoe(shoe, (10, 6)) == {
        "counts": shoe, "size": 104.0, "infinite": 0, "fractional": 0, "dealer_n": 2,
        "dealer_cards": [10, 6], "dealer_cnt": [0, 0, 0, 0, 0, 1, 0, 0, 0, 1], "upcard": 0,
        "hole_rank": -1}
    decoded = check_shoe(shoe, 1)
    assert (decoded["upcard"], decoded["hole_rank"]) == (1, 9)     # a ten makes the natural
    assert check_shoe(shoe, 10)["hole_rank"] == 0
    assert check_shoe(shoe)["dealer_n"] == 0                       # the simulator's shoe
