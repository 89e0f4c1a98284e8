"""The compiled simulation of the real Blackjack Switch round (``bjcore._switch_sim``).

The round is that of ``bjsolve.simulation.switch`` (its module doc), card for card; here
the Python side turns the analysis into tables the C loop reads:

- the switch decision of each of the 10^5 ordered deals (the analysis' ``switch > keep``);
- the first action of every hand with every other hand against every upcard
  (``HandTable.action``);
- every later decision (stand, hit, double) of every hand of two or more cards whose hard
  total is at most 20, by the engine the analysis values the hand with (the upcard and the
  other hand's first two cards out, removal "full"; the upcard only, removal "own"), with
  and without the right to double; and the split limits of those engines.

Building the tables takes a few seconds (550 engines of about 2 400 hands each for removal
"full"); the rounds then run in C, ``threads`` streams of one seed in parallel.
"""
from __future__ import annotations

import copy
import math
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple

import numpy as np

from ..exact.engines import make_engine
from ..exact.kernel_rules import SPLIT_CLASSES, check_threads, kernel_rules
from ..exact.switch import ACTION_NAMES, PAIRS, RANKS, SwitchSolution, game_rules
from ..model.shoe import Shoe

NO_OTHER = 55          # the tables' "other hand" when its cards are not out
HISTOGRAM_BINS = 81    # round results -20 .. +20 in half units
_CHUNK = 1 << 20       # rounds per call into C: Ctrl-C is seen between calls (a fraction of a second)


def _compositions():
    """Every hand of two or more cards with a hard total of at most 20, as rank counts."""
    out = []

    def grow(low: int, total: int, counts: list):
        if sum(counts) >= 2:
            out.append(tuple(counts))
        for r in range(low, 11):
            if total + r <= 20:
                counts[r - 1] += 1
                grow(r, total + r, counts)
                counts[r - 1] -= 1

    grow(1, 0, [0] * 10)
    return out


def _better(x: float, y: float) -> bool:
    return x > y + 1e-12 * max(abs(x), abs(y))


def _key(other: int, up: int, may_double: bool, counts) -> int:
    comp = 0
    for r, n in enumerate(counts):
        comp += n << (5 * r)
    return (other << 55) | (up << 51) | (int(may_double) << 50) | comp


class SwitchTables:
    """The decision tables of one analysis (module doc), as the C loop reads them."""

    def __init__(self, switch: SwitchSolution):
        rules = switch.rules
        full = switch.removal == "full" and not switch.shoe.is_infinite
        a, b, c, e, u, prob, keep, swap, decided = switch._deals
        self.full = full
        self.switches = np.ascontiguousarray(switch.switched.astype(np.uint8))
        self.first = np.ascontiguousarray(switch.table.action.reshape(-1).astype(np.int8))
        self.limits = np.zeros(10 * 56 * 10, dtype=np.int8)
        params = kernel_rules(game_rules(rules), SPLIT_CLASSES[switch.split])
        shoe_counts = np.array(switch.shoe.counts, dtype=float)
        comps = _compositions()
        keys: list = []
        actions: list = []
        engine_keys = ([(o, up) for up in RANKS for o in range(len(PAIRS))] if full
                       else [(NO_OTHER, up) for up in RANKS])
        for o, up in engine_keys:
            out = np.zeros(10)
            if o != NO_OTHER:
                for x in PAIRS[o]:
                    out[x - 1] += 1
            out[up - 1] += 1
            room = shoe_counts - out
            if room.min() < 0:
                continue
            base = switch.shoe.remove(*PAIRS[o]) if o != NO_OTHER else switch.shoe
            engine = make_engine(params, base, up)
            for pair in RANKS:
                if room[pair - 1] >= 2:
                    self.limits[((up - 1) * 56 + o) * 10 + pair - 1] = engine.split_limit(pair)
            for counts in comps:
                if any(n > room[r] for r, n in enumerate(counts)):
                    continue
                hand = list(counts)
                st, ht, dd, _ = engine.hand_values(hand)
                plain = "hit" if _better(ht, st) else "stand"
                best = max(st, ht) if plain == "hit" else st
                with_double = ("double" if engine.may_double_hand(hand) and _better(dd, best)
                               else plain)
                for may_double, action in ((False, plain), (True, with_double)):
                    keys.append(_key(o, up, may_double, counts))
                    actions.append(("stand", "hit", "double").index(action))
        order = np.argsort(np.array(keys, dtype=np.uint64), kind="stable")
        self.keys = np.ascontiguousarray(np.array(keys, dtype=np.uint64)[order])
        self.actions = np.ascontiguousarray(np.array(actions, dtype=np.uint8)[order])
        self.shoe = np.array(switch.shoe.counts, dtype=np.int32)
        self.flags = dict(full=full, h17=rules.hit_soft_17, push22=rules.dealer_22 == "push",
                          das=rules.double_after_split, hit_aces=rules.hit_split_aces,
                          double_any=rules.double_any_cards,
                          switch_blackjack=rules.switch_blackjack)
        self.payout = float(rules.blackjack_payout)
        self._rules, self._params = rules, params

    def with_plays(self, departures) -> SwitchTables:
        """A copy whose hands play ``departures(cards, upcard, allowed)`` (a play, or None
        to keep the table's decision; a counter's play indices at one true count,
        ``bjsolve.risk.switch_plays.PlayDepartures``) in place of the tables' decisions:
        the first actions (allowed: stand, hit, double where the rules allow it, split
        where the context's split limit gives two hands, surrender where offered) and the
        later and split hands' decisions (stand, hit and double where the table's entry
        may double and the rules allow it)."""
        out = copy.copy(self)
        engines = {up: make_engine(self._params, Shoe(list(map(int, self.shoe))), up)
                   for up in RANKS}
        surrender = self._rules.surrender != "none"
        first = self.first.reshape(10, len(PAIRS), len(PAIRS)).copy()
        for up in RANKS:
            for h, (a, b) in enumerate(PAIRS):
                counts = [0] * 10
                counts[a - 1] += 1
                counts[b - 1] += 1
                may_double = engines[up].may_double_hand(counts)
                for o in range(len(PAIRS)):
                    if not 0 <= first[up - 1, o, h] <= 4:     # none, or a natural
                        continue
                    split = (a == b and self.limits[((up - 1) * 56 + o) * 10 + a - 1] >= 2)
                    allowed = (("stand", "hit") + (("double",) if may_double else ())
                               + (("split",) if split else ())
                               + (("surrender",) if surrender else ()))
                    play = departures((a, b), up, allowed)
                    if play is not None:
                        first[up - 1, o, h] = ACTION_NAMES.index(play)
        out.first = np.ascontiguousarray(first.reshape(-1))
        # the later decisions: one question per (composition, upcard, may double), the
        # other hand's bits left out
        keys = self.keys.astype(np.uint64)
        plain = keys & np.uint64((1 << 55) - 1)
        questions, back = np.unique(plain, return_inverse=True)
        answers = np.full(len(questions), -1, dtype=np.int16)
        for n, q in enumerate(questions.tolist()):
            up, may_double = (q >> 51) & 0xF, (q >> 50) & 1
            counts = [(q >> (5 * r)) & 31 for r in range(10)]
            cards = tuple(r + 1 for r in range(10) for _ in range(counts[r]))
            allowed = ("stand", "hit") + (("double",) if may_double and
                                          engines[up].may_double_hand(counts) else ())
            play = departures(cards, up, allowed)
            if play is not None:
                answers[n] = ("stand", "hit", "double").index(play)
        changed = answers[back.ravel()]
        out.actions = np.ascontiguousarray(np.where(changed >= 0, changed,
                                                    self.actions).astype(np.uint8))
        return out


class CompiledRun(NamedTuple):
    """What a compiled run measured (``simulate_switch`` makes its ``SwitchSimulation``)."""
    rounds: int
    mean: float
    standard_error: float
    switch_rate: float
    sd: float
    outcomes: dict | None


def simulate_switch_compiled(switch: SwitchSolution, rounds: int, seed: int = 1,
                             threads: int | None = None,
                             tables: SwitchTables | None = None,
                             insurance: bool = False) -> CompiledRun:
    """``simulate_switch`` in C (module doc); ``insurance``: both hands insured against
    every ace."""
    from bjcore import run_switch_chunk
    if switch.shoe.is_fractional:
        raise ValueError("simulate_switch deals whole cards: the shoe is fractional")
    workers = max(1, min(check_threads(threads), 64))
    tables = SwitchTables(switch) if tables is None else tables
    # the rounds in chunks, chunk k from stream k of the seed: the result depends on the
    # seed and the rounds only, not on the number of threads
    sizes = [_CHUNK] * (rounds // _CHUNK) + ([rounds % _CHUNK] if rounds % _CHUNK else [])

    def one(k: int):
        hist = np.zeros(HISTOGRAM_BINS)
        f = tables.flags
        got = run_switch_chunk(tables.shoe, tables.switches, tables.first, tables.limits,
                               tables.keys, tables.actions, f["full"], f["h17"],
                               f["push22"], f["das"], f["hit_aces"], f["double_any"],
                               f["switch_blackjack"], tables.payout, seed, k, sizes[k],
                               hist, insurance)
        return got, hist

    if workers > 1 and len(sizes) > 1:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            parts = list(pool.map(one, range(len(sizes))))
    else:
        parts = [one(k) for k in range(len(sizes))]
    total = sum(p[0][0] for p in parts)
    total_sq = sum(p[0][1] for p in parts)
    switched = sum(p[0][2] for p in parts)
    misses = sum(p[0][3] for p in parts)
    if misses:
        raise RuntimeError(f"simulate_switch: {misses} decisions had no table entry or the "
                           f"shoe ran out (a shoe too small for the round, or a bug)")
    hist = sum(p[1] for p in parts)
    mean = total / rounds
    var = max(total_sq / rounds - mean * mean, 0.0)
    outcomes = None
    if float(2 * switch.rules.blackjack_payout).is_integer():
        outcomes = {(k - 40) / 2.0: float(n) / rounds for k, n in enumerate(hist) if n}
    return CompiledRun(rounds, mean, math.sqrt(var / rounds), switched / rounds,
                       math.sqrt(var), outcomes)


__all__ = ["simulate_switch_compiled", "SwitchTables", "CompiledRun"]
