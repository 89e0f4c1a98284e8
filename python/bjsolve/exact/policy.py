"""Evaluating a strategy exactly: a solve with the player's decisions frozen in the engines."""
from __future__ import annotations

import inspect

from bjcore import UpcardEngine
from bjcore._chart import DecisionSignatures

from ..model.actions import ACTION_CODE, KIND_LATER, KIND_SPLIT, KIND_START
from ..model.deal import Deal, dealer_label
from ..model.hands import compositions
from ..model.ranks import counts_of, label
from ..model.ranks import show as _show
from ..model.rules import Rules
from ..model.shoe import Shoe
from .engines import make_engines, round_values
from .kernel_rules import POLICY_CLASS
from .strategy import StrategyChart

# ---- evaluating a strategy -------------------------------------------------------------
# Evaluating a strategy is a solve with the player's decisions frozen: the strategy is asked
# once per hand composition, dealer key and kind of decision, its answers are stored in
# fresh engines, and the round is solved with them.

def _checked(strategy, cards, u, allowed, kind_name):
    returned = strategy(cards, u, allowed)
    # "Stand", "HIT" from a user's table are the actions
    action = returned.strip().lower() if isinstance(returned, str) else returned
    if not isinstance(action, str) or action not in allowed:
        cards_s = "".join(label(c) for c in cards)
        raise ValueError(f"strategy returned {_show(returned)} for {cards_s} v {dealer_label(u)} "
                         f"({kind_name}); allowed: {', '.join(allowed)}")
    return action


_KIND_NAMES = {KIND_START: "original two cards", KIND_LATER: "later decision",
               KIND_SPLIT: "split hand"}


def _total_dependent(strategy) -> bool:
    """Whether the strategy may be asked once per kind of hand instead of once per hand:
    its answer depends only on the hand's hard total, whether it holds an ace, whether it
    is the first two cards and which pair, the allowed actions and the dealer.  A
    ``StrategyChart`` is (unless a subclass changes how it reads hands); any strategy
    class may declare it with a class attribute ``total_dependent = True``."""
    kind = type(strategy)
    if "total_dependent" in vars(kind):
        return bool(kind.total_dependent)
    return (isinstance(strategy, StrategyChart) and kind.__call__ is StrategyChart.__call__
            and kind.code is StrategyChart.code and kind._row is StrategyChart._row)


def _freeze_chart(engine, limit, chart, dealer) -> None:
    """Freeze a total-dependent chart in a policy engine: the kernel groups the hands by
    what the chart reads (hard total, ace, two cards, pair, allowed actions), the chart is
    asked once per group about one of its hands, and the kernel stores the answers for
    every hand: the decisions ``policy_engines`` would freeze by asking about each hand."""
    signatures = DecisionSignatures(engine, limit)
    signatures.freeze([ACTION_CODE[_checked(chart, cards, dealer, allowed, _KIND_NAMES[kind])]
                       for kind, cards, allowed in signatures.questions()])


def policy_engines(rules: Rules, shoe: Shoe, strategy, deal: Deal | None = None) -> dict:
    """Compiled engines (one per dealer key) with ``strategy``'s decisions frozen in."""
    if not callable(strategy):
        raise TypeError("strategy must be a StrategyChart or a callable "
                        f"f(cards, dealer, allowed) -> action, got {type(strategy).__name__}")
    try:
        inspect.signature(strategy).bind(None, None, None)
    except TypeError:
        raise TypeError(f"strategy must accept three arguments (cards, dealer, allowed); "
                        f"{_show(strategy)} has the signature {inspect.signature(strategy)}") from None
    except ValueError:
        pass  # no signature to inspect (some builtins): let the call decide
    deal = Deal(rules, shoe) if deal is None else deal
    engines = make_engines(rules, shoe, POLICY_CLASS, deal)
    # (the grouped freeze reads the classic engine's hand state; a game engine is asked
    # hand by hand)
    if _total_dependent(strategy) and all(isinstance(e, UpcardEngine) for e in engines.values()):
        for u, engine in engines.items():
            _freeze_chart(engine, deal.hand_limit(u), strategy, u)
        return engines
    surrender = rules.surrender != "none"
    for u, engine in engines.items():
        for cards in compositions(deal.hand_limit(u), max_hard=21, min_cards=2):
            counts = counts_of(cards)
            can_double = engine.may_double_hand(counts)
            base = ("stand", "hit") + (("double",) if can_double else ())
            if len(cards) == 2:
                start = base
                if cards[0] == cards[1] and engine.split_limit(cards[0]) >= 2:
                    start += ("split",)
                if surrender:
                    start += ("surrender",)
                act = _checked(strategy, cards, u, start, "original two cards")
                engine.set_policy(KIND_START, counts, ACTION_CODE[act])
            else:
                act = _checked(strategy, cards, u, base, "later decision")
                engine.set_policy(KIND_LATER, counts, ACTION_CODE[act])
            split_allowed = ("stand", "hit") + (
                ("double",) if engine.may_double_hand(counts, after_split=True) else ())
            act = _checked(strategy, cards, u, split_allowed, "split hand")
            engine.set_policy(KIND_SPLIT, counts, ACTION_CODE[act])
    return engines


def evaluate_policy(rules: Rules, shoe: Shoe, strategy, deal: Deal | None = None) -> float:
    """The round's exact EV (unconditioned) when the player follows ``strategy``."""
    deal = Deal(rules, shoe) if deal is None else deal
    engines = policy_engines(rules, shoe, strategy, deal)
    return deal.combine(round_values(rules, shoe, engines, deal, kind="policy"))
