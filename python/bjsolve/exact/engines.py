"""The compiled engines of a rule set and shoe (one per dealer key), and the round's value
under each dealer key computed with them in parallel threads."""
from __future__ import annotations

from bjcore import GAME_RULE_DEFAULTS, GameEngine, UpcardEngine, check_rules, tune_allocator

from ..model.deal import Deal, is_natural
from ..model.rules import Rules
from ..model.shoe import Shoe
from .kernel_rules import kernel_rules, natural_tie_value, with_shoe
from .scheduler import run_units


def natural_dealer_value(rules: Rules, deal: Deal, key) -> float:
    """E[round] when the exposed dealer cards are a natural: every hand loses 1 but a player
    natural, which gets ``natural_tie_value``."""
    weights = deal.hand_weights(key)
    total = sum(weights.values())
    tie = natural_tie_value(rules)
    return sum(w * (tie if is_natural(h) else -1.0) for h, w in weights.items()) / total


def engine_class(params: dict):
    """The compiled engine for a kernel rule dict (``kernel_rules``, with any of the games'
    keys): the classic solver, or the game engine when a game rule is set (the two share
    one interface; the classic one is the faster for the classic game).  A dict without
    any game key is the classic game without decoding it (the solver asks per engine)."""
    if GAME_RULE_DEFAULTS.keys().isdisjoint(params):
        return UpcardEngine
    return GameEngine if check_rules(params)["game"] else UpcardEngine


def make_engine(params: dict, shoe: Shoe, key):
    """The compiled engine of one dealer key (``params``: see ``engine_class``)."""
    params = with_shoe(params, shoe)
    return engine_class(params)(shoe.kernel_weights(), key, params, shoe.is_infinite,
                                shoe.is_fractional)


def make_engines(rules: Rules, shoe: Shoe, split_code: int, deal: Deal | None = None) -> dict:
    """One compiled engine per dealer key the player decides against (``deal``: the
    deal of ``rules`` and ``shoe`` if already worked out)."""
    params = kernel_rules(rules, split_code)
    keys = (Deal(rules, shoe) if deal is None else deal).playable_keys
    return {k: make_engine(params, shoe, k) for k in keys}


def solve_engines(rules: Rules, shoe: Shoe, split_code: int, deal: Deal,
                  threads: int | None = None, kind: str | None = None) -> tuple[dict, dict]:
    """(engines, {dealer key: E[round | key]}) of a solve: each thread builds the engines
    of the keys it takes, so that building them (clearing their memo tables) is part of
    the parallel work, not a serial prologue.  ``kind``: see ``round_values``."""
    params = kernel_rules(rules, split_code)
    built: dict = {}

    def round_value(key):
        engine = built[key] = make_engine(params, shoe, key)
        return engine.round_ev()

    values = _round_values(rules, shoe, deal, deal.playable_keys, round_value, threads, kind)
    return {k: built[k] for k in deal.playable_keys}, values


def round_values(rules: Rules, shoe: Shoe, engines: dict, deal: Deal | None = None,
                 threads: int | None = None, kind: str | None = None) -> dict:
    """{dealer key: E[round | key]} for every key, exposed naturals included.  ``kind``
    names what the engines compute (the split class, "policy"): solves of the same rules,
    kind and shoe size reuse each other's measured costs to balance the threads."""
    deal = Deal(rules, shoe) if deal is None else deal
    return _round_values(rules, shoe, deal, engines, lambda u: engines[u].round_ev(),
                         threads, kind)


def _round_values(rules, shoe, deal, keys, round_value, threads, kind) -> dict:
    """``round_values`` with ``round_value(key)`` computing each playable key's E."""
    # malloc keeps freed memory for the next solve from here on (glibc; once per process,
    # not on import: docs/algorithms.md, "Side effects")
    tune_allocator()
    if shoe.is_infinite:
        threads = 1   # one dealer distribution per upcard: a second thread costs more
    cost_key = (rules, kind, shoe.size) if kind is not None else None
    values = run_units(keys, round_value, threads, cost_key)
    for k in deal.keys:
        if k not in values:
            values[k] = natural_dealer_value(rules, deal, k)
    return values
