"""The game plan of a simulation: the flat arrays the compiled kernel plays from.

Every hand composition (multiset of ranks, hard total <= 21) gets an id and a row of child
ids; a strategy is asked once per composition, dealer key and kind of decision and frozen
into a decision table; index lines are attached to the table entries they apply to.  Built
once per simulation by ``bjsolve.simulate.build_plan``; a ``GamePlan`` pickles, so Dask
ships it to workers.

The games' rules (docs/games.md) add kinds of decision to the table (``game_kinds``): a
split ace that may double but not hit (stand or double), and, with redoubles or double
rescue, the choice after each double (stand, redouble, rescue), which the ``after_double``
callable makes.
"""
from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass

import numpy as np

from ..counting.index_file import parse_index_file
from ..counting.indices import as_index_table
from ..exact.policy import AFTER_DOUBLE_CODE, KIND_AFTER_DOUBLE
from ..exact.solver import solve
from ..exact.strategy import StrategyChart
from ..model.actions import ACTION_CODE, ACTIONS, KIND_LATER, KIND_SPLIT, KIND_START, first_best
from ..model.deal import dealer_label, is_natural
from ..model.hands import hand_code
from ..model.ranks import label, show
from ..model.ranks import show as _show
from ..model.rules import Rules
from ..model.shoe import Shoe

STRATEGY_NAMES = ("basic", "optimal")   # as CountedGame and the command line say them
MAX_SEGMENTS = 8                   # plays one index line may switch between (kernel limit)
# the games' kinds of decision (bjcore/_simulate.pyx): a split ace's stand-or-double, then
# after the d-th double of an unsplit (split) hand KIND_AFTER_DOUBLE + 2 * (d - 1) (+ 1)
KIND_SPLIT_ACE = 3
# (the engine's policy table numbers them alike: exact.policy); the choices after a double,
# as the after_double callable names them, have their codes in the table (the kernel reads
# a redouble as a double, a rescue as a surrender)


def _choice(value, name: str, choices) -> str:
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}, "
                         f"got {_show(value)}")
    return value


# ---- hand compositions -----------------------------------------------------------------------

@dataclass
class Compositions:
    """Every hand (multiset of ranks) with hard total <= 21, id 0 the empty hand."""
    hands: list            # id -> sorted tuple of ranks
    ids: dict              # sorted tuple -> id
    child: np.ndarray      # [id * 10 + r - 1] -> id with one more r, -1 when bust
    total: np.ndarray      # id -> best total (soft as soft)


_COMPOSITIONS: Compositions | None = None


def compositions() -> Compositions:
    global _COMPOSITIONS
    if _COMPOSITIONS is None:
        hands: list[tuple[int, ...]] = [()]
        ids: dict[tuple[int, ...], int] = {(): 0}
        i = 0
        while i < len(hands):
            h = hands[i]
            for r in range(h[-1] if h else 1, 11):
                g = h + (r,)
                if sum(g) <= 21 and g not in ids:
                    ids[g] = len(hands)
                    hands.append(g)
            i += 1
        child = np.full(len(hands) * 10, -1, dtype=np.int32)
        total = np.zeros(len(hands), dtype=np.int8)
        for h, k in ids.items():
            s = sum(h)
            total[k] = s + 10 if 1 in h and s <= 11 else s
            for r in range(1, 11):
                g = tuple(sorted(h + (r,)))
                if g in ids:
                    child[k * 10 + r - 1] = ids[g]
        _COMPOSITIONS = Compositions(hands, ids, child, total)
    return _COMPOSITIONS


# ---- the plan: everything the kernel needs, built once ---------------------------------------

@dataclass
class GamePlan:
    """The flat arrays one simulation runs on, and the kernel rule dict (picklable: Dask
    ships it to workers)."""
    rules: dict             # exact.kernel_rules: decoded by the kernel (bjcore._rules)
    iparams: np.ndarray
    dparams: np.ndarray
    shoe: np.ndarray
    tags: np.ndarray
    child: np.ndarray
    total: np.ndarray
    decision: np.ndarray    # int16: action | (index line + 1) << 3
    allowed: np.ndarray
    line_nseg: np.ndarray
    line_thr: np.ndarray
    line_play: np.ndarray
    key_of: np.ndarray
    bet_by_tc: np.ndarray
    # the side bet (``bjsolve.simulation.side_bet``): outcome of the first spot's cards
    # (int8, 52 ** cards), win per unit by outcome, units by true count (0: not bet);
    # iparams' side_cards 0: none (the one-element arrays are not read)
    side_outcome: np.ndarray = dataclasses.field(
        default_factory=lambda: np.zeros(1, dtype=np.int8))
    side_pays: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(1))
    side_by_tc: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(1))

    def run(self, seed: int, chunk: int, rounds: int, stop=None, bankroll: float = 0.0,
            watch_sigint: bool = False):
        """Play one chunk: (sums, counts, tc_counts, tc_sums) arrays (see run_chunk);
        ``watch_sigint`` (main thread only): a Ctrl-C ends the chunk early and sets
        ``stop[0] = STOP_SIGINT`` (the caller raises the interrupt again)."""
        # (lazy: the simulator kernel loads when a simulation runs)
        from bjcore import run_chunk
        dparams = self.dparams
        if bankroll:
            dparams = dparams.copy()
            dparams[0] = bankroll
        if stop is None:
            stop = np.zeros(1, dtype=np.int8)
        return run_chunk(self.rules, self.iparams, dparams, self.shoe, self.tags, self.child,
                         self.total, self.decision, self.allowed, self.line_nseg,
                         self.line_thr, self.line_play, self.key_of, self.bet_by_tc,
                         self.side_outcome, self.side_pays, self.side_by_tc, seed, chunk, rounds, stop, watch_sigint)


def _shoe_counts(rules: Rules, shoe):
    """(10 counts, infinite?) of the shoe to deal."""
    if shoe is None:
        # (a Spanish deck holds 12 ten-valued cards, not 16: J Q K)
        tens = 12 if rules.spanish_deck else 16
        if rules.infinite:
            return [4] * 9 + [tens], True
        return [4 * int(rules.decks)] * 9 + [tens * int(rules.decks)], False
    if not isinstance(shoe, Shoe):
        shoe = Shoe(shoe)
    if shoe.is_fractional:
        raise ValueError("shoe: a simulation deals whole cards; a fractional shoe cannot be dealt")
    if shoe.is_infinite:
        counts = shoe.counts
        if not all(float(c).is_integer() for c in counts):
            raise ValueError("shoe: an infinite shoe is simulated from whole-number proportions")
        return [int(c) for c in counts], True
    return list(shoe.counts), False


def _dealer_keys(exposed: bool):
    """(list of keys, key_of array): upcards 1..10, or the 55 sorted dealer pairs."""
    key_of = np.zeros(100, dtype=np.int32)
    if not exposed:
        keys: list = list(range(1, 11))     # upcards, or below dealer pairs
        for up in range(1, 11):
            key_of[(up - 1) * 10: up * 10] = up - 1
        return keys, key_of
    keys = [(a, b) for a in range(1, 11) for b in range(a, 11)]
    index = {k: i for i, k in enumerate(keys)}
    for up in range(1, 11):
        for hole in range(1, 11):
            key_of[(up - 1) * 10 + hole - 1] = index[tuple(sorted((up, hole)))]
    return keys, key_of


def _may_double(rules: Rules, hand, game=None) -> bool:
    """Whether the double rules let these cards double (``game``: the decoded kernel rules,
    whose free_double_totals let a two-card hard total double free whatever the paid
    double allows)."""
    if game and len(hand) == 2 and 1 not in hand and game["free_double_totals"] >> sum(hand) & 1:
        return True
    if len(hand) != 2 and not rules.double_any_cards:
        return False
    s = sum(hand)
    if 1 in hand and s + 10 <= 21:
        return rules.double_soft and rules.double == "any"
    return rules.double == "any" or {"9-11": 9, "10-11": 10}[rules.double] <= s <= 11


def _split_limit(rules: Rules, pair: int, counts) -> int:
    limit = rules.max_split_hands if (pair != 1 or rules.resplit_aces) else min(
        rules.max_split_hands, 2)
    return min(limit, counts[pair - 1]) if counts is not None else limit


def _allowed(rules: Rules, hand, kind: int, counts, game=None) -> tuple:
    out = ["stand", "hit"]
    if _may_double(rules, hand, game) and (kind != KIND_SPLIT or rules.double_after_split):
        out.append("double")
    if kind == KIND_START:
        if hand[0] == hand[1] and _split_limit(rules, hand[0], counts) >= 2:
            out.append("split")
        if rules.surrender != "none":
            out.append("surrender")
    elif rules.surrender_any_time:
        out.append("surrender")   # after hitting, and on split hands (docs/games.md)
    return tuple(out)


def _fits(hand, key, counts) -> bool:
    if counts is None:
        return True
    need = [0] * 10
    for c in hand + ((key,) if isinstance(key, int) else key):
        need[c - 1] += 1
    return all(n <= c for n, c in zip(need, counts))


@functools.lru_cache(maxsize=8)
def _solution(rules, shoe, threads=None):
    """The exact solve behind 'basic' and 'optimal' (kept: runs often repeat a game),
    on the simulation's threads (threads=1: in the calling thread, starting none)."""
    return solve(rules, shoe=shoe, threads=threads)


def _chart_policy(chart):
    """A StrategyChart as f(cards, dealer, allowed, kind), asked once per chart cell: the
    chart's play depends only on the hand's row, the dealer column and what is allowed."""
    cache: dict = {}

    def policy(cards, dealer, allowed, kind):
        key = (hand_code(cards, can_split="split" in allowed), len(cards) == 2,
               dealer_label(dealer), allowed)
        act = cache.get(key)
        if act is None:
            act = cache[key] = chart(cards, dealer, allowed)
        return act
    return policy


def _resolve_strategy(rules, shoe_obj, strategy, threads=None):
    """A callable f(cards, dealer, allowed, kind) -> action."""
    if isinstance(strategy, str):
        _choice(strategy, "strategy", STRATEGY_NAMES)
        sol = _solution(rules, shoe_obj, threads)
        if strategy == "basic":
            return _chart_policy(sol.strategy)
        # the full-shoe composition-dependent strategy (CDZ-: a split hand plays as the
        # unsplit hand of the same cards), compared on unconditioned values
        kwargs = {"given_no_blackjack": False} if rules.hole_card == "peek" else {}

        def optimal(cards, dealer, allowed, kind):
            values = sol.hand_ev(cards, dealer, **kwargs)
            return first_best({a: values[a] for a in allowed if a in values})
        return optimal
    if type(strategy) is StrategyChart:   # (a subclass may look at more than the cell)
        return _chart_policy(strategy)
    if callable(strategy):
        return lambda cards, dealer, allowed, kind: strategy(cards, dealer, allowed)
    raise TypeError(f"strategy must be 'basic', 'optimal', a StrategyChart or a callable "
                    f"f(cards, dealer, allowed) -> action, got {type(strategy).__name__}")


def game_kinds(game) -> int:
    """How many kinds of decision the table holds for the decoded kernel rules ``game``
    (the kernel's own count, which it checks the table against)."""
    from bjcore import game_kinds as kinds
    return kinds(game["redoubles"], game["double_rescue"], game["double_split_aces"],
                 game["hit_split_aces"])


def _split_ace_allowed(rules: Rules, hand) -> tuple:
    """A split ace that may double but not hit (double_split_aces): stand, or double when
    the double rules let its two cards double after a split."""
    if rules.double_after_split and _may_double(rules, hand):
        return ("stand", "double")
    return ("stand",)


def _decision_table(rules, counts, keys, comps, policy, game=None, after_double=None):
    """decision[kind, key, comp] and allowed masks[kind, comp] (``game``: the decoded
    kernel rules; None: the classic game's three kinds)."""
    n = len(comps.hands)
    n_kinds = game_kinds(game) if game else 3
    decision = np.zeros((n_kinds, len(keys), n), dtype=np.int8)
    allowed_mask = np.zeros((n_kinds, n), dtype=np.int8)
    for k, hand in enumerate(comps.hands):
        # kinds met: the original two cards, later decisions (3+ cards), split hands (2+)
        kinds = (KIND_START, KIND_SPLIT) if len(hand) == 2 else (KIND_LATER, KIND_SPLIT)
        for kind in kinds if len(hand) >= 2 else ():
            allowed = _allowed(rules, hand, kind, counts, game)
            allowed_mask[kind, k] = sum(1 << ACTION_CODE[a] for a in allowed)
        if n_kinds > KIND_SPLIT_ACE and len(hand) == 2 and 1 in hand:
            allowed_mask[KIND_SPLIT_ACE, k] = sum(1 << ACTION_CODE[a]
                                                  for a in _split_ace_allowed(rules, hand))
    kind_names = ("original two cards", "later decision", "split hand")
    for ki, key in enumerate(keys):
        if isinstance(key, tuple) and is_natural(key):
            continue  # an exposed dealer natural ends the round before any decision
        if counts is not None and not _fits((), key, counts):
            continue
        for k, hand in enumerate(comps.hands):
            if len(hand) < 2 or hand == (1, 10) or not _fits(hand, key, counts):
                continue
            kinds = (KIND_START, KIND_SPLIT) if len(hand) == 2 else (KIND_LATER, KIND_SPLIT)
            for kind in kinds:
                allowed = tuple(a for a in ACTIONS if allowed_mask[kind, k] >> ACTION_CODE[a] & 1)
                returned = policy(hand, key, allowed, kind)
                # "Stand", "HIT" from a user's table are the actions (as Solution.evaluate)
                act = returned.strip().lower() if isinstance(returned, str) else returned
                if act not in allowed:
                    cards = "".join(label(c) for c in hand)
                    raise ValueError(f"strategy returned {show(returned)} for {cards} v "
                                     f"{dealer_label(key)} ({kind_names[kind]}); allowed: "
                                     f"{', '.join(allowed)}")
                decision[kind, ki, k] = ACTION_CODE[act]
            if n_kinds > KIND_SPLIT_ACE and len(hand) == 2 and 1 in hand:
                decision[KIND_SPLIT_ACE, ki, k] = _split_ace_decision(policy, hand, key, rules)
    if n_kinds > KIND_AFTER_DOUBLE and after_double is not None:
        _after_double_table(decision, game, counts, keys, comps, after_double)
    return decision, allowed_mask


def _split_ace_decision(policy, hand, key, rules) -> int:
    """A split ace's play when it may double but not hit: the strategy's, asked with what
    such a hand may do (a chart's "hit" there, which it cannot, is a stand)."""
    allowed = _split_ace_allowed(rules, hand)
    returned = policy(hand, key, allowed, KIND_SPLIT)
    act = returned.strip().lower() if isinstance(returned, str) else returned
    if act == "hit":
        act = "stand"
    if act not in allowed:
        cards = "".join(label(c) for c in hand)
        raise ValueError(f"strategy returned {show(returned)} for {cards} v {dealer_label(key)} "
                         f"(a split ace, which may not hit); allowed: {', '.join(allowed)}")
    return ACTION_CODE[act]


def _after_double_table(decision, game, counts, keys, comps, after_double) -> None:
    """Fill the after-double kinds: ``after_double(cards, dealer, allowed, split, doubles)``
    is asked for each composition a doubled hand can hold (3 + doubles - 1 cards or more,
    below 21), dealer key, split or not and number of doubles made; allowed is "stand",
    "redouble" (while redoubles remain) and "rescue" (double_rescue; after a redouble only
    with rescue_after_redouble)."""
    redoubles = game["redoubles"]
    for ki, key in enumerate(keys):
        if isinstance(key, tuple) and is_natural(key):
            continue
        if counts is not None and not _fits((), key, counts):
            continue
        for k, hand in enumerate(comps.hands):
            if len(hand) < 3 or comps.total[k] >= 21 or not _fits(hand, key, counts):
                continue
            for doubles in range(1, min(redoubles + 1, len(hand) - 2) + 1):
                allowed = ("stand",) + (("redouble",) if doubles <= redoubles else ()) + (
                    ("rescue",) if game["double_rescue"] and (
                        doubles == 1 or game["rescue_after_redouble"]) else ())
                for split in (False, True):
                    returned = after_double(hand, key, allowed, split, doubles)
                    act = returned.strip().lower() if isinstance(returned, str) else returned
                    if act not in allowed:
                        cards = "".join(label(c) for c in hand)
                        raise ValueError(
                            f"after_double returned {show(returned)} for {cards} v "
                            f"{dealer_label(key)} ({'split hand, ' if split else ''}"
                            f"{doubles} double{'s' if doubles > 1 else ''} made); allowed: "
                            f"{', '.join(allowed)}")
                    kind = KIND_AFTER_DOUBLE + 2 * (doubles - 1) + int(split)
                    decision[kind, ki, k] = AFTER_DOUBLE_CODE[act]


# ---- index plays -----------------------------------------------------------------------------

def _index_plays(indices, rules, system, tc_rounding="floor", threads=None):
    """(list of IndexPlay, insurance index or None) from what the user gave
    (``indices.as_index_table``; ``threads``: for the solves of an index table made here)."""
    table = as_index_table(indices, rules, system, tc_rounding=tc_rounding, threads=threads)
    if table is None:
        return [], None
    lines = getattr(table, "all_lines", None) or list(table.lines.values())
    text = "".join(line.index_file_line() + "\n" for line in lines)
    return parse_index_file(text, source="index table"), table.insurance


def _hand_count(hand, can_split: bool) -> int:
    """The index file's hand number: total (negative soft), a pair's total (AA -12)."""
    if can_split and len(hand) == 2 and hand[0] == hand[1]:
        return -12 if hand[0] == 1 else 2 * hand[0]
    s = sum(hand)
    return -(s + 10) if 1 in hand and s <= 11 else s


def _line_tables(plays, keys, comps, allowed_mask, exposed):
    """line_of[kind, key, comp] -> line, and the lines' segment arrays.

    An entry takes the line of its total and upcard whose options (double, split,
    surrender) are exactly the hand's; failing that, the one with the fewest options that
    include the hand's, a pair's line (may split) only for a pair that may split.  Only lines whose play changes with the count are used (index
    plays); elsewhere the strategy decides."""
    plays = [p for p in plays if len(p.plays) > 1]
    n_keys, n = len(keys), len(comps.hands)
    # (the games' kinds of decision take no index plays)
    line_of = np.full((allowed_mask.shape[0], n_keys, n), -1, dtype=np.int32)
    if not plays or exposed:
        return line_of, np.ones(1, np.int32), np.zeros(MAX_SEGMENTS, np.int32), \
            np.zeros(MAX_SEGMENTS, np.int8)
    by_hand: dict = {}
    for i, p in enumerate(plays):
        if len(p.plays) > MAX_SEGMENTS:
            raise ValueError(f"index line for {p.count} v {p.dealer}: at most {MAX_SEGMENTS} plays")
        by_hand.setdefault((p.count, p.dealer), []).append(i)
    for k, hand in enumerate(comps.hands):
        if len(hand) < 2 or hand == (1, 10):
            continue
        for kind in (KIND_START, KIND_LATER, KIND_SPLIT):
            mask = int(allowed_mask[kind, k])
            if mask == 0:
                continue
            flags = (mask >> 2 & 1, mask >> 3 & 1, mask >> 4 & 1)
            count = _hand_count(hand, bool(flags[1]))
            for ki, up in enumerate(keys):
                cands = by_hand.get((count, up))
                if not cands:
                    continue
                exact = [i for i in cands if plays[i].flags == flags]
                # a pair's line (may split) shares its number with the total (8,8 and
                # hard 16): it is for pairs only, never a wider line of a total
                wider = sorted((sum(plays[i].flags), i) for i in cands
                               if all(a >= b for a, b in zip(plays[i].flags, flags))
                               and plays[i].flags[1] == flags[1])
                pick = exact[0] if exact else (wider[0][1] if wider else None)
                if pick is not None:
                    line_of[kind, ki, k] = pick
    nseg = np.array([len(p.plays) for p in plays], dtype=np.int32)
    thr = np.zeros((len(plays), MAX_SEGMENTS), dtype=np.int32)
    play = np.zeros((len(plays), MAX_SEGMENTS), dtype=np.int8)
    for i, p in enumerate(plays):
        thr[i, :len(p.thresholds)] = p.thresholds
        play[i, :len(p.plays)] = [ACTION_CODE[a] for a in p.plays]
    return line_of, nseg, thr.ravel(), play.ravel()
