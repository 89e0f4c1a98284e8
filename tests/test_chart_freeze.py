"""A StrategyChart is frozen into the policy engines by hand signature (bjcore._chart):
the chart is asked once per kind of hand instead of once per composition.  The frozen
decisions must be exactly those of asking the chart about every hand, which is what any
other callable gets: the same chart behind a plain function is the independent check."""
from __future__ import annotations

import math
import random

import pytest

from bjsolve import Rules, Shoe, solve
from bjsolve.model.deal import Deal
from bjsolve.exact.policy import policy_engines
from bjsolve.exact.engines import round_values
from bjsolve.exact.strategy import CODE_ACTIONS, StrategyChart


def per_hand(chart):
    """The chart behind a plain function: asked about every composition."""
    return lambda cards, dealer, allowed: chart(cards, dealer, allowed)


def by_dealer(rules, shoe, strategy) -> dict:
    """{dealer key: (E[round | key], decisions the round met that had no frozen action)}"""
    deal = Deal(rules, shoe)
    engines = policy_engines(rules, shoe, strategy, deal)
    values = round_values(rules, shoe, engines, deal, threads=1)
    return {k: (v, engines[k].policy_misses if k in engines else 0) for k, v in values.items()}


def random_rules(rng, decks, hole_cards=("peek", "peek", "enhc", "enhc-obo")) -> Rules:
    max_split_hands = rng.choice((1, 2, 3, 4))
    return Rules(
        decks=decks,
        hit_soft_17=rng.random() < 0.5,
        double=rng.choice(("any", "9-11", "10-11")),
        double_soft=rng.random() < 0.7,
        double_any_cards=rng.random() < 0.2,
        double_after_split=rng.random() < 0.6,
        max_split_hands=max_split_hands,
        resplit_aces=rng.random() < 0.3,
        hit_split_aces=max_split_hands > 1 and rng.random() < 0.3,
        surrender=rng.choice(("none", "late", "early")),
        blackjack_payout=rng.choice((1.5, 1.2, 1.0)),
        hole_card=rng.choice(hole_cards),
        dealer_wins_ties=rng.random() < 0.15)


def random_shoe(rng, rules) -> Shoe:
    kind = rng.choice(("full", "depleted", "depleted", "infinite", "fractional"))
    if kind == "infinite":
        weights = [rng.choice((0, 1, 2, 4)) for _ in range(9)] + [rng.choice((4, 8, 16))]
        return Shoe.infinite([w / sum(weights) for w in weights])
    full = list(Shoe.decks(rules.decks).counts)
    if kind == "full":
        return Shoe(full)
    counts = [max(0, c - rng.randint(0, c)) if rng.random() < 0.4 else c for c in full]
    counts[9] = max(counts[9], 8)
    if kind == "fractional":
        return Shoe.fractional([c * rng.uniform(0.6, 1.0) for c in counts])
    return Shoe(counts)


def test_every_decision_a_fractional_shoe_reaches_is_frozen():
    # a rank is dealt while its count left is positive: 0.8 sevens deal one seven, 2.7
    # fours three fours; the frozen hands must include those (no decision met unfrozen)
    shoe = Shoe.fractional([3.2, 3.9, 3.2, 2.7, 3.1, 3.3, 0.8, 2.8, 0.9, 11.9])
    rules = Rules(decks=1)
    values = by_dealer(rules, shoe, solve(rules, shoe=shoe, threads=1).strategy)
    assert all(misses == 0 for _, misses in values.values())


@pytest.mark.parametrize("seed", range(10))
def test_solved_chart_freezes_as_when_asked_per_hand(seed):
    rng = random.Random(seed)
    rules = random_rules(rng, rng.choice((1, 2)))
    shoe = random_shoe(rng, rules)
    sol = solve(rules, shoe=shoe, split=rng.choice(("CDZ-", "CDP1", "CDP")), threads=1)
    chart = sol.strategy
    assert by_dealer(rules, shoe, chart) == by_dealer(rules, shoe, per_hand(chart))


def random_chart(rng, columns) -> StrategyChart:
    """Any code anywhere (splits on total rows, surrender-else-split, ...); one chart in
    four misses a row."""
    codes = list(CODE_ACTIONS)
    rows = [str(t) for t in range(4, 21)] + [f"A{k}" for k in range(2, 10)] + [
        r * 2 for r in "23456789TA"]
    if rng.random() < 0.25:
        rows.remove(rng.choice(rows))
    return StrategyChart({row: {c: rng.choice(codes) for c in columns} for row in rows})


@pytest.mark.parametrize("seed", range(12))
def test_any_chart_freezes_as_when_asked_per_hand(seed):
    rng = random.Random(100 + seed)
    rules = random_rules(rng, rng.choice((1, 2, math.inf)))
    shoe = random_shoe(rng, rules) if rules.decks != math.inf else Shoe.infinite()
    deal = Deal(rules, shoe)
    from bjsolve.model.deal import dealer_columns
    chart = random_chart(rng, [c for c, _ in dealer_columns(deal.keys)])
    try:
        expected = by_dealer(rules, shoe, per_hand(chart))
    except ValueError as error:   # a row the shoe reaches is missing: the same error
        with pytest.raises(ValueError) as raised:
            by_dealer(rules, shoe, chart)
        assert str(raised.value) == str(error)
        return
    assert by_dealer(rules, shoe, chart) == expected


@pytest.mark.parametrize("seed", range(2))
def test_exposed_game_chart_freezes_as_when_asked_per_hand(seed):
    # both dealer cards face up: 55 dealer keys, so a short shoe keeps the per-hand way quick
    rng = random.Random(200 + seed)
    rules = random_rules(rng, 1, hole_cards=("exposed",))
    shoe = Shoe([rng.randint(1, 2) for _ in range(9)] + [rng.randint(6, 8)])
    sol = solve(rules, shoe=shoe, split=rng.choice(("CDZ-", "CDP1", "CDP")), threads=1)
    chart = sol.strategy
    assert by_dealer(rules, shoe, chart) == by_dealer(rules, shoe, per_hand(chart))


def test_a_chart_subclass_that_reads_hands_itself_is_asked_per_hand():
    sol = solve(Rules(decks=1), threads=1)
    asked = []

    class Counting(StrategyChart):
        def __call__(self, cards, dealer, allowed):
            asked.append(cards)
            # a composition-dependent departure: 16 of three or more cards stands
            if len(cards) > 2 and sum(cards) == 16:
                return "stand"
            return super().__call__(cards, dealer, allowed)

    chart = Counting(sol.strategy.rows)
    value = sol.evaluate(chart)
    assert len(asked) > 10_000
    assert value == sol.evaluate(per_hand(chart))
    assert value != sol.evaluate(sol.strategy)


def test_a_total_only_three_cards_reach_still_gets_a_row():
    # no 2 and no 3 left: soft 13 (A,A,A) and soft 14 (A,A,A,A) come only from hands of
    # three or more cards; the chart needs their rows to be playable on its own shoe
    shoe = Shoe([4, 0, 0, 4, 4, 4, 4, 4, 4, 16])
    sol = solve(Rules(decks=1), shoe=shoe, threads=1)
    chart = sol.strategy
    assert "A2" in chart.rows and "A3" in chart.rows
    assert sol.evaluate(chart) == sol.evaluate(per_hand(chart))


def test_a_strategy_class_may_declare_itself_total_dependent():
    # a chart with one override, the way an index play changes a chart at a true count
    sol = solve(Rules(decks=2), threads=1)
    chart = sol.strategy
    asked = []

    class WithIndex:
        total_dependent = True

        def __call__(self, cards, dealer, allowed):
            asked.append(cards)
            if dealer == 10 and sum(cards) == 16 and 1 not in cards and "stand" in allowed:
                return "stand"
            return chart(cards, dealer, allowed)

    class Undeclared(WithIndex):
        pass

    declared = sol.evaluate(WithIndex())
    assert 0 < len(asked) < 3000
    asked.clear()
    assert sol.evaluate(Undeclared()) == declared and len(asked) > 10_000
    assert declared != sol.evaluate(chart)
