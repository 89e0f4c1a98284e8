"""A simulation of the real Blackjack Switch round, to measure what the analysis
(``bjsolve.exact.switch``) leaves out.

Each round is dealt from a fresh shoe (the first round off the top, as the analysis):
hand 1's two cards, hand 2's two cards, the upcard and the hole card.  The dealer peeks:
a natural ends the round (each dealt hand loses its bet, a dealt natural pushes).  Else the
player keeps or switches by the analysis' decision for the deal, then plays hand 1 to the
end, then hand 2 from what hand 1 left, and the dealer draws from what both left.

The decisions are the analysis' own: a hand's first action is the one it valued best
(``HandTable.action``), every later one the best of stand, hit (and double, where the rules
let it) by the game engine's values for the hand's cards on the shoe with the upcard and
the other hand's first two cards out; split hands are played as the unsplit hand of the
same cards (the CDZ- class), pair cards landing on a split hand are resplit up to the
limit, split aces take one card unless the rules let them hit.  Here, unlike in the
analysis, the cards each hand draws are gone for the other hand and the dealer: the mean
must still agree with the analysis (it is exact for these decisions), which the
simulation checks with the splits the brute force of the tests leaves out.

Two implementations of the one round: the compiled one (``bjcore._switch_sim``, its
tables made in ``switch_compiled``; about 1.8 million rounds a second on two cores), the
default, and this module's pure Python (about 30 000 rounds a second on one core), the
reference it is checked against (tests/test_switch_figures.py).  Long runs:
``benchmarks/bench_switch.py`` and ``benchmarks/bench_switch_figures.py``.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass

from ..exact.engines import make_engine
from ..exact.kernel_rules import SPLIT_CLASSES, kernel_rules
from ..exact.switch import ACE_TEN, PAIRS, SwitchSolution, pair_index


@dataclass(frozen=True)
class SwitchSimulation:
    """rounds played, the mean result per round (both hands, units of one hand's bet), its
    standard error, the share of rounds switched, the SD of a round's result and (the
    compiled simulator) the share of rounds of each result."""

    rounds: int
    mean: float
    standard_error: float
    switch_rate: float
    sd: float = math.nan          # of a round's result (both hands)
    outcomes: dict | None = None  # {round result: share of rounds} (compiled runs)

    @property
    def per_hand(self) -> float:
        return self.mean / 2.0


def _total(cards) -> tuple[int, bool]:
    total = sum(cards)
    soft = 1 in cards and total + 10 <= 21
    return (total + 10 if soft else total), soft


class _Player:
    """The analysis' decisions for hands played with one other hand out."""

    def __init__(self, switch: SwitchSolution):
        rules = switch.rules
        self.switch = switch
        self.rules = rules
        self.params = kernel_rules(rules.replace(switch=False, switch_blackjack=False),
                                   SPLIT_CLASSES[switch.split])
        self.full = switch.removal == "full" and not switch.shoe.is_infinite
        self.engines: dict = {}
        self.decisions: dict = {}

    def engine(self, other, up):
        key = (other if self.full else None, up)
        engine = self.engines.get(key)
        if engine is None:
            shoe = self.switch.shoe.remove(*other) if self.full else self.switch.shoe
            engine = self.engines[key] = make_engine(self.params, shoe, up)
        return engine

    def later(self, cards, other, up, may_double: bool) -> str:
        """stand, hit or double for a hand beyond its first decision."""
        counts = [0] * 10
        for c in cards:
            counts[c - 1] += 1
        key = (tuple(counts), other if self.full else None, up, may_double)
        action = self.decisions.get(key)
        if action is None:
            engine = self.engine(other, up)
            st, ht, dd, _ = engine.hand_values(counts)
            action, best = "stand", st
            if _better(ht, best):
                action, best = "hit", ht
            if may_double and engine.may_double_hand(counts) and _better(dd, best):
                action = "double"
            self.decisions[key] = action
        return action


def _better(x: float, y: float) -> bool:
    """x beats y beyond a relative 1e-12 (docs/conventions.md: ties go to the earlier)."""
    return x > y + 1e-12 * max(abs(x), abs(y))


def simulate_switch(switch: SwitchSolution, rounds: int, seed: int = 1, *,
                    compiled: bool = True, threads: int | None = None,
                    insurance: bool = False) -> SwitchSimulation:
    """Play ``rounds`` rounds of the real game with the analysis' decisions (module doc):
    in the compiled simulator (``bjcore._switch_sim``, its tables from the analysis'
    engines, ``threads`` streams in parallel) or, ``compiled=False``, in pure Python (the
    reference it is checked against).  ``insurance`` True: against every ace up, both
    hands insured for half a unit each before the peek, in the round's result (what
    ``switch.outcome_distribution(insurance=True)`` computes)."""
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise ValueError(f"rounds must be a whole number >= 1, got {rounds!r}")
    if not isinstance(insurance, bool):
        raise TypeError(f"insurance must be True (both hands insured against every ace) or "
                        f"False, got {insurance!r}")
    if switch.shoe.is_infinite:
        raise ValueError("simulate_switch deals from a finite shoe")
    if not isinstance(switch, SwitchSolution):
        raise TypeError(f"switch must be a SwitchSolution (solve_switch), got "
                        f"{type(switch).__name__}")
    if switch.play != "optimal":
        raise NotImplementedError("simulate_switch plays the analysis' optimal decisions "
                                  "(play='optimal'), not a chart")
    if compiled:
        from .switch_compiled import simulate_switch_compiled
        return SwitchSimulation(*simulate_switch_compiled(switch, rounds, seed, threads,
                                                          insurance=insurance))
    return _simulate_python(switch, rounds, seed, insurance)


def _simulate_python(switch: SwitchSolution, rounds: int, seed: int,
                     insurance: bool = False) -> SwitchSimulation:
    rules = switch.rules
    player = _Player(switch)
    table = switch.table
    rng = random.Random(seed)
    start_counts = list(switch.shoe.counts)
    payout = rules.blackjack_payout
    h17 = rules.hit_soft_17
    push22 = rules.dealer_22 == "push"
    das = rules.double_after_split
    hit_aces = rules.hit_split_aces
    total = 0.0
    total_sq = 0.0
    switched_rounds = 0

    for _ in range(rounds):
        counts = start_counts[:]
        left = sum(counts)

        def draw() -> int:
            nonlocal left
            x = rng.randrange(left)
            r = 0
            while x >= counts[r]:
                x -= counts[r]
                r += 1
            counts[r] -= 1
            left -= 1
            return r + 1

        a, c, up, b, e = draw(), draw(), draw(), draw(), draw()
        hole = draw()
        # both hands insured (half a unit each): +2 on a ten in the hole, else -1
        insured = (2.0 if hole == 10 else -1.0) if insurance and up == 1 else 0.0
        dealt_nat = [sorted((a, b)) == [1, 10], sorted((c, e)) == [1, 10]]
        if sorted((up, hole)) == [1, 10]:
            result = sum(0.0 if nat else -1.0 for nat in dealt_nat) + insured
            total += result
            total_sq += result * result
            continue
        ui = up - 1
        h1, h2, s1, s2 = pair_index(a, b), pair_index(c, e), pair_index(a, e), pair_index(c, b)
        keep = table.dealt[ui, h2, h1] + table.dealt[ui, h1, h2]
        swap = table.switched[ui, s2, s1] + table.switched[ui, s1, s2]
        if swap > keep:
            switched_rounds += 1
            hands = [(a, e), (c, b)]
            naturals = [rules.switch_blackjack and pair_index(a, e) == ACE_TEN,
                        rules.switch_blackjack and pair_index(c, b) == ACE_TEN]
        else:
            hands = [(a, b), (c, e)]
            naturals = dealt_nat
        # play: each finished hand as (total or None if bust, stake, surrendered)
        finished: list = []
        result = insured
        for k in range(2):
            first = hands[k]
            other = tuple(sorted(hands[1 - k]))
            if naturals[k]:
                result += payout
                continue
            i, o = pair_index(*first), pair_index(*other)
            act = int(table.action[ui, o, i])
            if act == 4:                     # surrender
                result -= 0.5
                continue
            if act == 5:                     # an ace-ten made by switching: a 21
                finished.append((21, 1.0))
                continue
            if act == 3:                     # split, resplits forced up to the limit
                pair = first[0]
                limit = player.engine(other, up).split_limit(pair)
                pending = [[pair], [pair]]
                made = 2
                while pending:
                    cards = pending.pop(0)
                    card = draw()
                    while card == pair and made < limit:
                        pending.append([pair])
                        made += 1
                        card = draw()
                    cards.append(card)
                    if pair == 1 and not hit_aces:
                        finished.append((_total(cards)[0], 1.0))
                        continue
                    finished.append(_play(player, cards, other, up, das, draw))
                continue
            cards = list(first)
            if act == 2:                     # double
                cards.append(draw())
                t = _total(cards)[0]
                finished.append((t if t <= 21 else None, 2.0))
                continue
            if act == 0:
                finished.append((_total(cards)[0], 1.0))
                continue
            cards.append(draw())             # hit, then play on
            finished.append(_play(player, cards, other, up, True, draw))
        if any(t is not None for t, _ in finished):
            dcards = [up, hole]
            while True:
                t, soft = _total(dcards)
                if t > 17 or (t == 17 and not (soft and h17)):
                    break
                if left <= 0:
                    t = 23  # an empty shoe: the dealer busts (the analyzers' convention)
                    break
                dcards.append(draw())
            dealer = t
        else:
            dealer = 0
        for t, stake in finished:
            if t is None:
                result -= stake
            elif dealer > 22 or (dealer == 22 and not push22):
                result += stake
            elif dealer == 22:
                pass
            elif t > dealer:
                result += stake
            elif t < dealer:
                result -= stake
        total += result
        total_sq += result * result
    mean = total / rounds
    var = max(total_sq / rounds - mean * mean, 0.0)
    return SwitchSimulation(rounds, mean, math.sqrt(var / rounds), switched_rounds / rounds,
                            math.sqrt(var))


def _play(player: _Player, cards: list, other, up, may_double: bool, draw):
    """Play a hand on from its cards (two or more): (final total or None if bust, stake)."""
    double_ok = may_double and len(cards) == 2
    while True:
        t, _ = _total(cards)
        if t > 21:
            return (None, 1.0)
        if t == 21:
            return (21, 1.0)
        action = player.later(cards, other, up, double_ok or player.rules.double_any_cards)
        if action == "stand":
            return (t, 1.0)
        cards.append(draw())
        if action == "double":
            t, _ = _total(cards)
            return (t if t <= 21 else None, 2.0)
        double_ok = False


__all__ = ["SwitchSimulation", "simulate_switch", "PAIRS"]
