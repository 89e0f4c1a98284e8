"""The rule summary every table prints reads back as the same rules (Rules.parse, --rules)."""
import contextlib
import io
import json
import math
import random

import pytest

from bjsolve import Rules
from bjsolve.cli import main
from bjsolve.model.rules import payout_label


def many_rule_sets(n=400, seed=11):
    """Random rule sets over every field, plus each preset."""
    rng = random.Random(seed)
    out = [Rules.preset(name) for name in Rules.presets()]
    while len(out) < n:
        fields = dict(
            decks=rng.choice([1, 2, 4, 6, 8, 13, math.inf]),
            hit_soft_17=rng.random() < 0.5,
            double=rng.choice(["any", "9-11", "10-11"]),
            double_soft=rng.random() < 0.7,
            double_any_cards=rng.random() < 0.2,
            double_after_split=rng.random() < 0.6,
            max_split_hands=rng.choice([1, 2, 3, 4]),
            resplit_aces=rng.random() < 0.3,
            surrender=rng.choice(["none", "late", "early"]),
            blackjack_payout=rng.choice([1.5, 1.2, 1.0, 2.0, 1.37, 7 / 5, 1e-13, 999.5]),
            hole_card=rng.choice(["peek", "enhc", "enhc-obo", "exposed"]),
            dealer_wins_ties=rng.random() < 0.3,
        )
        if "natural_tie" in Rules.__dataclass_fields__:
            fields["natural_tie"] = rng.choice(["lose", "push", "win"])
        fields["hit_split_aces"] = fields["max_split_hands"] > 1 and rng.random() < 0.2
        out.append(Rules(**fields))
    return out


def shown(rules):
    """The rules with the fields the summary leaves out (because they change nothing) put
    back to their defaults: soft doubling under D9/D10, resplitting aces with two hands."""
    changes = {}
    if rules.double != "any":
        changes["double_soft"] = True
    if rules.max_split_hands <= 2:
        changes["resplit_aces"] = False
    if not rules.dealer_wins_ties and "natural_tie" in Rules.__dataclass_fields__:
        changes["natural_tie"] = Rules().natural_tie     # matters only when dealers win ties
    return rules.replace(**changes)


@pytest.mark.parametrize("rules", many_rule_sets(), ids=lambda r: r.describe())
def test_summary_round_trip(rules):
    summary = rules.describe()
    parsed = Rules.parse(summary)
    assert parsed.describe() == summary
    assert parsed == shown(rules)


def test_parse_is_forgiving_about_case_commas_and_order():
    a = Rules.parse("6D H17 DAS LS 6:5")
    assert a == Rules(decks=6, hit_soft_17=True, double_after_split=True, surrender="late",
                      blackjack_payout=1.2)
    assert Rules.parse("ls, 6:5, das, h17, 6d") == a
    assert Rules.parse("") == Rules()
    assert Rules.parse("1D") == Rules(decks=1)


@pytest.mark.parametrize("text, message", [
    ("6D H17 S17", "contradict"), ("6D H71", "did you mean 'h17'"), ("3:0", "payout"),
    ("0D", "decks"), ("6D 0:1", "blackjack_payout"),
])
def test_parse_rejects_nonsense_naming_the_word(text, message):
    with pytest.raises(ValueError, match=message):
        Rules.parse(text)
    with pytest.raises(TypeError):
        Rules.parse(6)


def test_tiny_and_odd_payouts_print_exactly():
    for b in (1e-13, 1.37, 0.001, 999.5, 1 / 3):
        label = payout_label(b)
        assert label != "0:1" and Rules.parse(f"6D {label}").blackjack_payout == b
    assert payout_label(1.5) == "3:2" and payout_label(1.2) == "6:5"


def test_cli_rules_flag_reads_what_a_table_prints():
    for rules in many_rule_sets(12, seed=3):
        if rules.infinite or rules.hole_card == "exposed":
            continue
        out = io.StringIO()
        with contextlib.redirect_stderr(io.StringIO()):
            code = main(["dealer", "--rules", rules.describe(), "--format", "json"], out=out)
        assert code == 0
        notes = json.loads(out.getvalue())["notes"]
        assert f"rules: {rules.describe()}" in notes


def test_flags_override_the_summary():
    out = io.StringIO()
    assert main(["dealer", "--rules", "2D H17", "--s17", "--format", "json"], out=out) == 0
    assert "rules: 2D S17" in json.loads(out.getvalue())["notes"][0]
