"""Card counting for Blackjack Switch: the effects of removal on the switch analysis
(``bjsolve.exact.switch``; docs/games.md, "Blackjack Switch"; here beside the analysis,
whose per-hand tables it rebuilds with frozen decisions).

An effect of removal here is the change in the switch game's EV when one card of rank r
leaves the shoe, **per hand** (a fraction of one hand's bet, the convention of the
published switch house edge; ``per_round`` doubles it), unconditioned:

- ``strategy="fixed"``: the full shoe's decisions frozen and played on the depleted shoe:
  each deal's keep-or-switch choice, each hand's first action, and every later decision of
  each hand (split hands as the post-split class played them), by the engines of the full
  shoe (``GameEngine.freeze_decisions``, copied into policy engines of the depleted shoe).
  These decisions look only at the dealt cards and each hand's own cards, so a card removed
  at random changes nothing on average: the effects weighted by the shoe's composition sum
  to 0 (an identity the tests check);
- ``strategy="reoptimized"``: the depleted shoe analysed afresh (``solve_switch``).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..model.ranks import label
from ..model.rules import Rules
from ..model.shoe import Shoe
from .engines import make_engine
from .kernel_rules import POLICY_CLASS, SPLIT_CLASSES, check_split_class, kernel_rules
from .scheduler import run_units
from .switch import (ACTION_NAMES, PAIRS, RANKS, REMOVALS, HandTable, SwitchSolution,
                     _ValueUnit, check_switch_shoe, deal_values, game_rules,
                     solve_switch)

STRATEGIES = ("fixed", "reoptimized")


@dataclass(frozen=True)
class SwitchRemovalEffects:
    """rank (1..10) -> the change in EV per hand when one card of that rank is removed
    (``effects``), the base EV per hand, the strategy ("fixed" or "reoptimized"), the
    removal of the analysis, and the shoe.  ``weighted_mean()``: the effects weighted by
    the shoe's composition (0 for a fixed strategy)."""

    effects: dict
    base_ev_per_hand: float
    strategy: str
    removal: str
    shoe: Shoe

    @property
    def per_round(self) -> dict:
        return {r: 2.0 * v for r, v in self.effects.items()}

    def weighted_mean(self) -> float:
        counts = np.array(self.shoe.counts, dtype=float)
        total = sum(counts[r - 1] for r in self.effects)
        return float(sum(counts[r - 1] * v for r, v in self.effects.items()) / total)


def frozen_engine(base: SwitchSolution, shoe1: Shoe, other_index, up: int, source):
    """A policy engine on ``shoe1`` (the other hand's cards out) against ``up`` playing
    the decisions frozen in ``source`` (the full shoe's engine of that context)."""
    other = None if other_index is None else PAIRS[other_index]
    policy = kernel_rules(game_rules(base.rules), POLICY_CLASS)
    on = shoe1 if other is None else shoe1.remove(*other)
    engine = make_engine(policy, on, up)
    source.copy_policy_to(engine)
    return engine


def _frozen_unit(base: SwitchSolution, shoe1: Shoe, other_index, up: int, source,
                 engine=None, first=None):
    """The hand values on ``shoe1`` against ``up`` (other hand out) playing the decisions
    frozen in ``source`` (the full shoe's engine) and the first actions of ``base``
    (``engine``: the ``frozen_engine`` of that context when already made; ``first``:
    a callable (hand, upcard, allowed) giving a first action in place of base's, or
    None to keep it: a counter's play indices)."""
    rules = base.rules
    other = None if other_index is None else PAIRS[other_index]
    policy = kernel_rules(game_rules(rules), POLICY_CLASS)
    if engine is None:
        engine = frozen_engine(base, shoe1, other_index, up, source)
    o = 0 if other_index is None else other_index
    actions = base.table.action[up - 1, o]

    def chart(hand, upcard, allowed):
        departed = first(hand, upcard, allowed) if first is not None else None
        if departed is not None:
            return departed
        code = int(actions[PAIRS.index(tuple(sorted(hand)))])
        name = ACTION_NAMES[code]
        if name not in allowed:
            raise RuntimeError(f"switch EOR: frozen action {name} not allowed for "
                               f"{hand} against {upcard} (a bug)")
        return name

    values = _ValueUnit(rules, policy, shoe1, other, up, chart, engine)()
    if engine.policy_misses:
        raise RuntimeError(f"switch EOR: {engine.policy_misses} decisions had no frozen "
                           f"action (a bug)")
    return values


def _frozen_tables(base: SwitchSolution, shoes: dict, threads) -> dict:
    """{rank: HandTable on shoes[rank]} of base's frozen decisions."""
    rules, shoe = base.rules, base.shoe
    params = kernel_rules(game_rules(rules), SPLIT_CLASSES[base.split])
    full = base.removal == "full"
    keys = []
    counts = np.array(shoe.counts)
    for up in RANKS:
        for o, pair in (enumerate(PAIRS) if full else [(None, None)]):
            need = np.zeros(10, dtype=int)
            need[up - 1] += 1
            if pair is not None:
                for c in pair:
                    need[c - 1] += 1
            if (need <= counts).all():
                keys.append((o, up))
    n = len(PAIRS)
    tables = {r: tuple(np.full((10, n, n), np.nan) for _ in range(3)) +
              (np.full((10, n, n), -1, dtype=np.int8),) for r in shoes}

    def unit(key):
        o, up = key
        source = make_engine(params, shoe if o is None else shoe.remove(*PAIRS[o]), up)
        source.freeze_decisions()
        out = {}
        for r, shoe1 in shoes.items():
            need = np.zeros(10, dtype=int)
            need[up - 1] += 1
            if o is not None:
                for c in PAIRS[o]:
                    need[c - 1] += 1
            if (need <= np.array(shoe1.counts)).all():
                out[r] = _frozen_unit(base, shoe1, o, up, source)
        return out

    results = run_units(keys, unit, threads)
    for (o, up), per_rank in results.items():
        for r, (d, s, b, act) in per_rank.items():
            dealt, switched, beta, action = tables[r]
            rows = slice(None) if o is None else o
            dealt[up - 1, rows], switched[up - 1, rows] = d, s
            beta[up - 1, rows], action[up - 1, rows] = b, act
    return {r: HandTable(*t) for r, t in tables.items()}


def frozen_switch_ev(base: SwitchSolution, shoe1: Shoe, table1: HandTable,
                     switches=None) -> float:
    """E[round] on ``shoe1`` with base's keep-or-switch choice for every deal (or
    ``switches``: which of base's deals are switched) and the hand values ``table1``
    (base's frozen play on ``shoe1``)."""
    rules = base.rules
    base_switches = base.switched if switches is None else switches
    _, prob, beta, keep, switch, loss = deal_values(rules, shoe1, table1)
    live = prob > 0
    decided = live & (beta < 1.0)
    played = np.where(base_switches, switch, keep)
    if np.isnan(played[decided]).any():
        raise RuntimeError("switch EOR: a dealable hand has no frozen value (a bug)")
    value = np.where(live, beta * loss + (1.0 - beta) * np.where(decided, played, 0.0), 0.0)
    return float(np.dot(prob, value))


def switch_effects_of_removal(rules: Rules, shoe: Shoe | None = None, *,
                              strategy: str = "fixed", removal: str = "full",
                              split: str = "CDZ-", threads: int | None = None,
                              base: SwitchSolution | None = None) -> SwitchRemovalEffects:
    """The effects of removal on Blackjack Switch (module doc), per hand.  ``base``: the
    full shoe's analysis when already made (same rules, shoe, removal and split)."""
    from .dealer import resolve_shoe
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a bjsolve.Rules, got {type(rules).__name__}")
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy must be one of {', '.join(STRATEGIES)}, got {strategy!r}")
    if removal not in REMOVALS:
        raise ValueError(f"removal must be one of {', '.join(REMOVALS)}, got {removal!r}")
    split = check_split_class(split)
    shoe = resolve_shoe(rules, shoe)
    if shoe.is_infinite:
        raise ValueError("an infinite shoe has no effects of removal (removing a card "
                         "changes nothing)")
    present = [r for r in RANKS if shoe.counts[r - 1] >= 1]
    shoes = {r: shoe.remove(r) for r in present}
    for less in shoes.values():
        check_switch_shoe(less)
    if base is None:
        base = solve_switch(rules, shoe, split=split, removal=removal, threads=threads)
    if strategy == "reoptimized":
        evs = {r: solve_switch(rules, s, split=split, removal=removal,
                               threads=threads).expected_value for r, s in shoes.items()}
    else:
        tables = _frozen_tables(base, shoes, threads)
        evs = {r: frozen_switch_ev(base, shoes[r], tables[r]) for r in present}
    effects = {r: (evs[r] - base.expected_value) / 2.0 for r in present}
    return SwitchRemovalEffects(effects, base.expected_value / 2.0, strategy, removal, shoe)


def switch_eor_table(rules: Rules, shoe: Shoe, split: str = "CDZ-",
                     threads: int | None = None):
    """``bjsolve eor`` for Blackjack Switch: the fixed and re-optimised effects per hand."""
    from ..output.table import Table
    from ..output.table import table_notes as _notes
    base = solve_switch(rules, shoe, split=split, threads=threads)
    fixed = switch_effects_of_removal(rules, shoe, strategy="fixed", split=split,
                                      threads=threads, base=base)
    reopt = switch_effects_of_removal(rules, shoe, strategy="reoptimized", split=split,
                                      threads=threads, base=base)
    ranks = list(fixed.effects)
    rows = tuple(label(r) for r in ranks) + ("mean",)
    values = np.array([[fixed.effects[r], reopt.effects[r]] for r in ranks]
                      + [[fixed.weighted_mean(), reopt.weighted_mean()]])
    return Table("eor", "Blackjack Switch effects of removal", rows, ("fixed", "reoptimized"),
                 values,
                 _notes(rules, base.shoe,
                        f"change in the EV per hand (fraction of one hand's bet, a round bets "
                        f"two; unconditioned) when one card of the rank leaves the shoe; base "
                        f"EV per hand {base.expected_value / 2:+.10f}",
                        "fixed: the full shoe's switch choices and hand decisions frozen; "
                        "reoptimized: each depleted shoe analysed afresh",
                        f"analysis: {base.method}",
                        f"split {split}; mean = composition-weighted mean (0 for the fixed "
                        f"decisions)"), style="ev")


__all__ = ["frozen_engine", "switch_effects_of_removal", "SwitchRemovalEffects", "frozen_switch_ev",
           "switch_eor_table"]
