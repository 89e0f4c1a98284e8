"""Blackjack Switch at each true count: the switch analysis (``bjsolve.exact.switch``)
solved on shoes built at each true count, next to the linear estimate from its effects of
removal (``bjsolve.exact.switch_removal``); docs/games.md, "Blackjack Switch".

Per hand (a fraction of one hand's bet, the convention of the published switch house
edge), unconditioned.  The shoes are those of ``advantage_by_true_count`` (removals
proportional within tag classes, ``dealt_decks`` dealt, default half the shoe) in whole
cards, so each meets its true count as closely as whole cards allow (the switch analysis
deals whole cards).
"""
from __future__ import annotations

import numbers

from ..exact.switch import REMOVALS, solve_switch
from ..exact.switch_removal import SwitchRemovalEffects, switch_effects_of_removal
from ..model.rules import Rules
from .removal import TrueCountAdvantage, count_tags, finite_number, shoe_at_true_count


def switch_advantage_by_true_count(rules: Rules, system="hilo", *,
                                   true_counts=range(-5, 11),
                                   dealt_decks: float | None = None, removal: str = "full",
                                   split: str = "CDZ-", threads: int | None = None,
                                   effects: SwitchRemovalEffects | None = None
                                   ) -> dict[int | float, TrueCountAdvantage]:
    """{TC: TrueCountAdvantage(exact, linear)}, EV per hand (module doc); true counts out
    of reach at this depth are left out.  ``effects``: the full shoe's fixed effects of
    removal when already computed."""
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a bjsolve.Rules, got {type(rules).__name__}")
    if not rules.switch:
        raise ValueError("switch_advantage_by_true_count needs Rules.switch=True; the one-hand "
                         "games: bjsolve.counting.advantage_by_true_count")
    if rules.infinite:
        raise ValueError("true counts need a finite shoe (Rules.decks)")
    if removal not in REMOVALS:
        raise ValueError(f"removal must be one of {', '.join(REMOVALS)}, got {removal!r}")
    count_tags(system)   # a clear error before any solve
    counts = []
    for tc in true_counts:
        finite_number(tc, "true_counts")
        counts.append(int(tc) if isinstance(tc, numbers.Integral) else float(tc))
    if not counts:
        raise ValueError("true_counts is empty")
    full = rules.shoe()
    if effects is None:
        effects = switch_effects_of_removal(rules, full, strategy="fixed", removal=removal,
                                            split=split, threads=threads)
    n = full.size
    out: dict[int | float, TrueCountAdvantage] = {}
    for tc in counts:
        try:
            shoe = shoe_at_true_count(system, tc, int(rules.decks), dealt_decks=dealt_decks)
        except ValueError as exc:
            if "cannot be reached" not in str(exc):
                raise
            continue
        removed = [f - c for f, c in zip(full.counts, shoe.counts)]
        k = sum(removed)
        linear = effects.base_ev_per_hand + (n - 1) / (n - k) * sum(
            removed[r - 1] * v for r, v in effects.effects.items())
        exact = solve_switch(rules, shoe, split=split, removal=removal,
                             threads=threads).expected_value / 2.0
        out[tc] = TrueCountAdvantage(exact, linear)
    return out


__all__ = ["switch_advantage_by_true_count"]
