"""Evaluating a strategy exactly: a solve with the player's decisions frozen in the engines."""
from __future__ import annotations

import inspect

from bjcore import DecisionSignatures, UpcardEngine

from ..model.actions import ACTION_CODE, KIND_LATER, KIND_SPLIT, KIND_START
from ..model.deal import Deal, dealer_label
from ..model.hands import compositions
from ..model.ranks import counts_of, label
from ..model.ranks import show as _show
from ..model.rules import Rules
from ..model.shoe import Shoe
from .after_double_values import AfterDoubleValues, pick, rescue_offered
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


def policy_engines(rules: Rules, shoe: Shoe, strategy, deal: Deal | None = None,
                   after_double=None) -> dict:
    """Compiled engines (one per dealer key) with ``strategy``'s decisions frozen in
    (and ``after_double``'s choices after a double, when given: ``freeze_after_double``)."""
    engines = _strategy_engines(rules, shoe, strategy, deal)
    if after_double is not None:
        freeze_after_double(rules, shoe, engines, after_double, deal)
    return engines


def _strategy_engines(rules: Rules, shoe: Shoe, strategy, deal: Deal | None = None) -> dict:
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
    # surrender_any_time: after hitting and on split hands too
    later = ("surrender",) if rules.surrender_any_time else ()
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
                act = _checked(strategy, cards, u, base + later, "later decision")
                engine.set_policy(KIND_LATER, counts, ACTION_CODE[act])
            split_allowed = ("stand", "hit") + (
                ("double",) if engine.may_double_hand(counts, after_split=True) else ()) + later
            act = _checked(strategy, cards, u, split_allowed, "split hand")
            engine.set_policy(KIND_SPLIT, counts, ACTION_CODE[act])
    return engines


# ---- the choice after a double (redoubles, double rescue) ---------------------------------
# The simulator's decision table numbers these kinds KIND_AFTER_DOUBLE + 2 (d - 1) (+ 1 on a
# split hand) after the d-th double; the game engine reads its frozen choices under the same
# kinds (game_walk.h, after_double_key).  Without frozen choices the engine plays the
# after-double choice optimally (composition and split context dependent), which a table
# by composition cannot hold: so a strategy compared with a simulation freezes both.
KIND_AFTER_DOUBLE = 4
AFTER_DOUBLE_CODE = {"stand": ACTION_CODE["stand"], "redouble": ACTION_CODE["double"],
                     "rescue": ACTION_CODE["surrender"]}


def after_double_questions(rules: Rules, hand_limit):
    """(cards, allowed, split, doubles, kind) for every choice after a double a hand of
    at most ``hand_limit`` cards can meet: 3 + doubles - 1 cards or more, best total below
    21 (at 21 the hand stands), doubles 1..redoubles + 1; allowed is "stand", "redouble"
    while redoubles remain and "rescue" with double_rescue, after a redouble only with
    rescue_after_redouble (the simulator asks the same)."""
    redoubles = int(rules.redoubles)
    for cards in compositions(hand_limit, max_hard=21, min_cards=3):
        s = sum(cards)
        if (s + 10 if 1 in cards and s <= 11 else s) >= 21:
            continue
        for doubles in range(1, min(redoubles + 1, len(cards) - 2) + 1):
            allowed = ("stand",) + (("redouble",) if doubles <= redoubles else ()) + (
                ("rescue",) if rescue_offered(rules, doubles) else ())
            for split in (False, True):
                yield cards, allowed, split, doubles, KIND_AFTER_DOUBLE + 2 * (doubles - 1) + split


def _checked_after_double(after_double, cards, u, allowed, split, doubles):
    returned = after_double(cards, u, allowed, split, doubles)
    action = returned.strip().lower() if isinstance(returned, str) else returned
    if not isinstance(action, str) or action not in allowed:
        cards_s = "".join(label(c) for c in cards)
        raise ValueError(f"after_double returned {_show(returned)} for {cards_s} v "
                         f"{dealer_label(u)} ({'split hand, ' if split else ''}{doubles} "
                         f"double{'s' if doubles > 1 else ''} made); allowed: {', '.join(allowed)}")
    return action


def freeze_after_double(rules: Rules, shoe: Shoe, engines: dict, after_double,
                        deal: Deal | None = None) -> None:
    """Freeze ``after_double(cards, dealer, allowed, split, doubles)`` -> "stand",
    "redouble" or "rescue" in policy game engines, asked as the simulator asks it."""
    if not callable(after_double):
        raise TypeError(f"after_double must be a callable f(cards, dealer, allowed, split, "
                        f"doubles) -> 'stand', 'redouble' or 'rescue', got "
                        f"{type(after_double).__name__}")
    if not (rules.redoubles or rules.double_rescue):
        return   # no choice after a double in these rules
    deal = Deal(rules, shoe) if deal is None else deal
    for u, engine in engines.items():
        for cards, allowed, split, doubles, kind in after_double_questions(
                rules, deal.hand_limit(u)):
            act = _checked_after_double(after_double, cards, u, allowed, split, doubles)
            engine.set_policy(kind, counts_of(cards), AFTER_DOUBLE_CODE[act])


def after_double_chart(solution):
    """The full-shoe after-double choices as f(cards, dealer, allowed, split, doubles), for
    ``simulate(after_double=)`` and ``evaluate(after_double=)``: each option priced as the
    engine prices it (``after_double_values``: after the d-th double the hand's own stake
    is 2^d original bets; standing is worth 2^d x its stand value, a rescue the original
    bet, a redouble its card and the best choices after it), from ``solution.hand_ev`` of
    the unsplit hand (split hands take the same choice); ties go to stand, then redouble,
    as the engine breaks them."""
    priced = AfterDoubleValues(solution)

    def choose(cards, dealer, allowed, split, doubles):
        options = {a: v for a, v in priced.options(cards, dealer, doubles).items()
                   if a in allowed}
        return pick(options)[0]
    return choose


def evaluate_policy(rules: Rules, shoe: Shoe, strategy, deal: Deal | None = None,
                    after_double=None) -> float:
    """The round's exact EV (unconditioned) when the player follows ``strategy`` (and,
    after a double, ``after_double``; None: the optimal choice)."""
    deal = Deal(rules, shoe) if deal is None else deal
    engines = policy_engines(rules, shoe, strategy, deal, after_double)
    return deal.combine(round_values(rules, shoe, engines, deal, kind="policy"))
