"""Simulate the real game: a shoe dealt to a cut card, counted, bet by a ramp, played by a
strategy with index plays.  The rounds run in the compiled core (``bjcore._simulate``).

``simulate(rules, rounds=..., seed=...)`` validates everything, builds the strategy, index
and bet tables once as flat arrays (a ``GamePlan``), splits the run into seeded chunks,
plays them on threads (or on Dask workers, ``client=``) and merges the chunks in chunk
order, so the same seed and ``chunk_rounds`` give the same result whatever runs them.
See docs/simulation.md for the game model and the conventions.
"""
from __future__ import annotations

import functools
import math
import numbers
import os
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor, wait, FIRST_COMPLETED
from dataclasses import dataclass, field

import numpy as np

from .counting import count_tags
from .deal import is_natural
from .hands import PAIR_CODES, hand_code, total_code
from .ranks import label
from .rules import Rules
from .shoe import Shoe, _show

ACTIONS = ("stand", "hit", "double", "split", "surrender")
ACTION_CODE = {a: i for i, a in enumerate(ACTIONS)}
TC_METHODS = ("exact", "half-deck", "full-deck")
ROUNDINGS = ("floor", "truncate", "round")
STRATEGY_NAMES = ("basic", "composition")
TC_LOW, TC_HIGH = -20, 20          # the per-true-count table (the ends collect the rest)
MAX_SEGMENTS = 8
MAX_SPOTS = 7
DEFAULT_CHUNK_ROUNDS = 1_000_000
SEED_LIMIT = 2 ** 64
BANKROLL_CHUNK_BASE = 2 ** 40      # bankroll paths use chunk numbers from here on
KIND_START, KIND_LATER, KIND_SPLIT = 0, 1, 2
# positions in the kernel's parameter arrays (bjcore/_simulate.pxd)
IP_FIELDS = ("cut", "spots", "others", "h17", "double_min", "double_soft", "double_any_cards",
             "das", "split_limit", "split_limit_aces", "hit_split_aces", "surrender", "hole",
             "dealer_wins_ties", "tc_method", "rounding", "wong_in_set", "wong_in",
             "wong_out_set", "wong_out", "insurance_set", "insurance", "n_comps", "n_keys",
             "infinite")


# ---- input checks ----------------------------------------------------------------------------

def _whole(value, name: str, *, low: int = 1, high: int | None = None) -> int:
    """A whole number (an int, or a float such as 1e8 with no fraction) in [low, high]."""
    ok = not isinstance(value, bool) and (
        isinstance(value, numbers.Integral)
        or (isinstance(value, float) and math.isfinite(value) and value.is_integer()))
    if ok:
        value = int(value)
        ok = value >= low and (high is None or value <= high)
    if not ok:
        span = f"{low}..{high}" if high is not None else f">= {low}"
        raise ValueError(f"{name} must be a whole number {span}, got {_show(value)}")
    return value


def _seed(seed) -> int:
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"seed must be an integer 0..2**64-1, got {_show(seed)}")
    if not 0 <= seed < SEED_LIMIT:
        raise ValueError(f"seed must be an integer 0..2**64-1, got {_show(seed)}")
    return int(seed)


def _choice(value, name: str, choices) -> str:
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}, "
                         f"got {_show(value)}")
    return value


def _int_or_none(value, name: str):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or value != int(value):
        raise ValueError(f"{name} must be a whole true count or None, got {_show(value)}")
    return int(value)


def parse_ramp(ramp) -> list:
    """[(true count, bet)] from "1:1,2:2,3:4", a mapping {tc: bet} or pairs; counts strictly
    increasing whole numbers, bets finite and >= 0 (0: sit the round out)."""
    if ramp is None:
        return []
    if isinstance(ramp, str):
        pairs = []
        for part in ramp.replace(" ", "").split(","):
            if not part:
                continue
            bits = part.split(":")
            if len(bits) != 2:
                raise ValueError(f"ramp: {part!r} is not 'count:bet' (e.g. '1:1,2:2,3:4')")
            try:
                pairs.append((float(bits[0]), float(bits[1])))
            except ValueError:
                raise ValueError(f"ramp: {part!r} is not 'count:bet' with numbers") from None
    elif isinstance(ramp, dict):
        pairs = list(ramp.items())
    else:
        try:
            pairs = [tuple(p) for p in ramp]
        except TypeError:
            raise TypeError(f"ramp must be 'count:bet,...', a dict or (count, bet) pairs, "
                            f"got {_show(ramp)}") from None
    if not pairs:
        raise ValueError("ramp: give at least one 'count:bet' step")
    out = []
    for p in pairs:
        if len(p) != 2:
            raise ValueError(f"ramp: each step is (count, bet), got {_show(p)}")
        tc, bet = p
        if (isinstance(tc, bool) or not isinstance(tc, numbers.Real) or not math.isfinite(tc)
                or tc != int(tc)):
            raise ValueError(f"ramp: counts must be whole true counts, got {_show(tc)}")
        if isinstance(bet, bool) or not isinstance(bet, numbers.Real) or not math.isfinite(bet):
            raise ValueError(f"ramp: bets must be finite numbers, got {_show(bet)}")
        if bet < 0:
            raise ValueError(f"ramp: bets must be >= 0 (0 sits the round out), got {bet:g} "
                             f"at count {int(tc):+d}")
        out.append((int(tc), float(bet)))
    for (a, _), (b, _) in zip(out, out[1:]):
        if b <= a:
            raise ValueError(f"ramp: counts must be strictly increasing, got {a:+d} then {b:+d}")
    return out


# ---- hand compositions -----------------------------------------------------------------------

@dataclass
class Compositions:
    """Every hand (multiset of ranks) with hard total <= 21, id 0 the empty hand."""
    hands: list            # id -> sorted tuple of ranks
    ids: dict              # sorted tuple -> id
    child: np.ndarray      # [id * 10 + r - 1] -> id with one more r, -1 when bust
    total: np.ndarray      # id -> best total (soft as soft)


_COMPOSITIONS = None


def compositions() -> Compositions:
    global _COMPOSITIONS
    if _COMPOSITIONS is None:
        hands, ids = [()], {(): 0}
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
    """The flat arrays one simulation runs on (picklable: Dask ships it to workers)."""
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

    def run(self, seed: int, chunk: int, rounds: int, stop=None, bankroll: float = 0.0):
        """Play one chunk: (sums, counts, tc_counts, tc_sums) arrays (see run_chunk)."""
        from bjcore._simulate import run_chunk
        dparams = self.dparams
        if bankroll:
            dparams = dparams.copy()
            dparams[1] = bankroll
        if stop is None:
            stop = np.zeros(1, dtype=np.int8)
        return run_chunk(self.iparams, dparams, self.shoe, self.tags, self.child, self.total,
                         self.decision, self.allowed, self.line_nseg,
                         self.line_thr, self.line_play, self.key_of, self.bet_by_tc,
                         seed, chunk, rounds, stop)


def _shoe_counts(rules: Rules, shoe):
    """(10 counts, infinite?) of the shoe to deal."""
    if shoe is None:
        if rules.infinite:
            return [4] * 9 + [16], True
        return [4 * int(rules.decks)] * 9 + [16 * int(rules.decks)], False
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
        keys = list(range(1, 11))
        for up in range(1, 11):
            key_of[(up - 1) * 10: up * 10] = up - 1
        return keys, key_of
    keys = [(a, b) for a in range(1, 11) for b in range(a, 11)]
    index = {k: i for i, k in enumerate(keys)}
    for up in range(1, 11):
        for hole in range(1, 11):
            key_of[(up - 1) * 10 + hole - 1] = index[tuple(sorted((up, hole)))]
    return keys, key_of


def _may_double(rules: Rules, hand) -> bool:
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


def _allowed(rules: Rules, hand, kind: int, counts) -> tuple:
    out = ["stand", "hit"]
    if _may_double(rules, hand) and (kind != KIND_SPLIT or rules.double_after_split):
        out.append("double")
    if kind == KIND_START:
        if hand[0] == hand[1] and _split_limit(rules, hand[0], counts) >= 2:
            out.append("split")
        if rules.surrender != "none":
            out.append("surrender")
    return tuple(out)


def _fits(hand, key, counts) -> bool:
    if counts is None:
        return True
    need = [0] * 10
    for c in hand + ((key,) if isinstance(key, int) else key):
        need[c - 1] += 1
    return all(n <= c for n, c in zip(need, counts))


@functools.lru_cache(maxsize=8)
def _solution(rules, shoe):
    """The exact solve behind 'basic' and 'composition' (kept: runs often repeat a game)."""
    from .solve import solve
    return solve(rules, shoe)


def _chart_policy(chart):
    """A StrategyChart as f(cards, dealer, allowed, kind), asked once per chart cell: the
    chart's play depends only on the hand's row, the dealer column and what is allowed."""
    from .deal import dealer_label
    cache: dict = {}

    def policy(cards, dealer, allowed, kind):
        key = (hand_code(cards, can_split="split" in allowed), len(cards) == 2,
               dealer_label(dealer), allowed)
        act = cache.get(key)
        if act is None:
            act = cache[key] = chart(cards, dealer, allowed)
        return act
    return policy


def _resolve_strategy(rules, shoe_obj, strategy):
    """A callable f(cards, dealer, allowed, kind) -> action."""
    from .solve import first_best
    from .strategy import StrategyChart
    if isinstance(strategy, str):
        _choice(strategy, "strategy", STRATEGY_NAMES)
        sol = _solution(rules, shoe_obj)
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
    raise TypeError(f"strategy must be 'basic', 'composition', a StrategyChart or a callable "
                    f"f(cards, dealer, allowed) -> action, got {type(strategy).__name__}")


def _decision_table(rules, counts, keys, comps, policy):
    """decision[kind, key, comp] and allowed masks[kind, comp]."""
    n = len(comps.hands)
    decision = np.zeros((3, len(keys), n), dtype=np.int8)
    allowed_mask = np.zeros((3, n), dtype=np.int8)
    for k, hand in enumerate(comps.hands):
        # kinds met: the original two cards, later decisions (3+ cards), split hands (2+)
        kinds = (KIND_START, KIND_SPLIT) if len(hand) == 2 else (KIND_LATER, KIND_SPLIT)
        for kind in kinds if len(hand) >= 2 else ():
            allowed = _allowed(rules, hand, kind, counts)
            allowed_mask[kind, k] = sum(1 << ACTION_CODE[a] for a in allowed)
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
                act = policy(hand, key, allowed, kind)
                if act not in allowed:
                    cards = "".join(label(c) for c in hand)
                    raise ValueError(f"strategy returned {act!r} for {cards} v {key} "
                                     f"({kind_names[kind]}); allowed: {', '.join(allowed)}")
                decision[kind, ki, k] = ACTION_CODE[act]
    return decision, allowed_mask


# ---- index plays -----------------------------------------------------------------------------

@dataclass
class IndexPlay:
    """One index line: ``plays[i]`` below ``thresholds[i]``, the last play above them all."""
    count: int          # the hand's total; negative for soft hands; pairs: pair total, AA -12
    upcard: int
    flags: tuple        # (may double, may split, may surrender) of the hands it is for
    plays: tuple        # action names
    thresholds: tuple   # whole true counts, increasing


def parse_index_file(text: str, *, source: str = "index file") -> list:
    """IndexPlays from the text of an index file (``IndexTable.index_file()``'s format:
    ``count up dbl spl sur p1 tc1 p2 tc2 ... pk +1000``, plays 1 stand .. 5 surrender).
    Blank lines and lines starting with '#' are skipped; a bad line is named."""
    out = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        where = f"{source} line {number}: {line[:60]!r}"
        try:
            fields = [int(float(x)) if x.lstrip("+-").replace(".", "", 1).isdigit() else None
                      for x in line.split()]
        except ValueError:
            fields = [None]
        if None in fields or len(fields) < 7 or (len(fields) - 5) % 2 != 0:
            raise ValueError(f"{where} does not parse: expected 'count up dbl spl sur p1 tc1 "
                             f"... pk +1000' with whole numbers")
        count, up, dbl, spl, sur = fields[:5]
        pairs = fields[5:]
        plays = pairs[0::2]
        thresholds = pairs[1::2]
        if not 1 <= up <= 10 or any(f not in (0, 1) for f in (dbl, spl, sur)):
            raise ValueError(f"{where}: upcard must be 1..10 and the flags 0 or 1")
        if not -21 <= count <= 21 or count in (0, 1, -1):
            raise ValueError(f"{where}: the hand total {count} is not a hand")
        if any(not 1 <= p <= 5 for p in plays):
            raise ValueError(f"{where}: plays are numbered 1 stand .. 5 surrender")
        if thresholds[-1] != 1000 or any(b <= a for a, b in zip(thresholds, thresholds[1:])):
            raise ValueError(f"{where}: true counts must increase and end with +1000")
        out.append(IndexPlay(count, up, (dbl, spl, sur), tuple(ACTIONS[p - 1] for p in plays),
                             tuple(thresholds[:-1])))
    return out


def _index_plays(indices, rules, system):
    """(list of IndexPlay, insurance index or None) from what the user gave."""
    from .indices import IndexTable, generate_indices
    if indices is None or indices is False:
        return [], None
    if indices is True:
        indices = _cached_indices(rules, system)
    if isinstance(indices, IndexTable):
        text = indices.index_file()
        return parse_index_file(text, source="index table"), indices.insurance
    if isinstance(indices, os.PathLike) or (isinstance(indices, str) and "\n" not in indices
                                            and os.path.exists(indices)):
        with open(indices) as f:
            return parse_index_file(f.read(), source=str(indices)), None
    if isinstance(indices, str):
        return parse_index_file(indices), None
    raise TypeError(f"indices must be True, an IndexTable, an index file path or its text, "
                    f"got {type(indices).__name__}")


_INDEX_CACHE: dict = {}


def _cached_indices(rules, system):
    from .indices import generate_indices
    key = (rules, system if isinstance(system, str) else tuple(system))
    if key not in _INDEX_CACHE:
        _INDEX_CACHE[key] = generate_indices(rules, system)
    return _INDEX_CACHE[key]


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
    include the hand's.  Only lines whose play changes with the count are used (index
    plays); elsewhere the strategy decides."""
    plays = [p for p in plays if len(p.plays) > 1]
    n_keys, n = len(keys), len(comps.hands)
    line_of = np.full((3, n_keys, n), -1, dtype=np.int32)
    if not plays or exposed:
        return line_of, np.ones(1, np.int32), np.zeros(MAX_SEGMENTS, np.int32), \
            np.zeros(MAX_SEGMENTS, np.int8)
    by_hand: dict = {}
    for i, p in enumerate(plays):
        if len(p.plays) > MAX_SEGMENTS:
            raise ValueError(f"index line for {p.count} v {p.upcard}: at most {MAX_SEGMENTS} plays")
        by_hand.setdefault((p.count, p.upcard), []).append(i)
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
                wider = sorted((sum(plays[i].flags), i) for i in cands
                               if all(a >= b for a, b in zip(plays[i].flags, flags)))
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


# ---- the result ------------------------------------------------------------------------------

@dataclass
class TrueCountRow:
    true_count: int          # TC_LOW / TC_HIGH rows also hold every count beyond them
    rounds: int              # rounds dealt at this count (played or sat out)
    frequency: float         # rounds / all rounds
    played: int              # rounds the player bet
    mean: float              # mean result per initial unit bet (per spot) when played
    sd: float                # SD of that result per round
    se: float                # standard error of mean


@dataclass
class RuinResult:
    paths: int
    rounds_per_path: int
    bankroll: float
    ruined: int
    risk_of_ruin: float
    se: float


@dataclass
class SimulationResult:
    """Totals of a simulation.  Money is in bet units (the flat bet or the ramp's units).

    rounds: rounds dealt; played: rounds with a bet (wonging and 0-unit steps sit out);
    hands: the player's hands (splits count each hand); mean: result per round dealt and
    its standard error ``se`` (rounds treated as independent); sd: SD per round;
    total_won, total_bet (initial bets); win_rate: total_won / total_bet;
    per_true_count: a TrueCountRow per integer true count (the count the bet was made on);
    partial: True when the run was interrupted and holds only the rounds simulated so far.
    """
    rounds: int
    played: int
    hands: int
    mean: float
    se: float
    sd: float
    total_won: float
    total_bet: float
    win_rate: float
    shuffles: int
    exhausted: int
    per_true_count: list
    chunks: int
    seed: int
    partial: bool = False
    ruin: RuinResult | None = None
    settings: dict = field(default_factory=dict)

    def true_count_row(self, tc: int) -> TrueCountRow:
        for row in self.per_true_count:
            if row.true_count == tc:
                return row
        raise KeyError(tc)

    def to_pandas(self):
        """The per-true-count table as a pandas DataFrame (index: true count); the totals
        are in ``DataFrame.attrs``.  Needs pandas (not a bjsolve requirement)."""
        import pandas as pd
        df = pd.DataFrame([vars(r) for r in self.per_true_count]).set_index("true_count")
        df.attrs.update(self.summary())
        return df

    def summary(self) -> dict:
        out = {k: getattr(self, k) for k in ("rounds", "played", "hands", "mean", "se", "sd",
                                             "total_won", "total_bet", "win_rate", "shuffles",
                                             "exhausted", "chunks", "seed", "partial")}
        if self.ruin is not None:
            out["risk_of_ruin"] = self.ruin.risk_of_ruin
            out["risk_of_ruin_se"] = self.ruin.se
        return out

    def tables(self):
        """The summary and the per-true-count table as ``bjsolve.tables.Table`` objects
        (text cells formatted for reading; JSON carries the numbers as records)."""
        from .tables import Table
        s = self.summary()
        shown = {
            "rounds": f"{self.rounds:,}", "played": f"{self.played:,}",
            "hands": f"{self.hands:,}",
            "mean": f"{self.mean:+.6f} +- {self.se:.6f} (1 SE) bet units per round",
            "sd": f"{self.sd:.4f} per round", "total_won": f"{self.total_won:+,.1f}",
            "total_bet": f"{self.total_bet:,.1f}",
            "win_rate": f"{self.win_rate:+.6f} per unit bet ({100 * self.win_rate:+.3f}%)",
            "shuffles": f"{self.shuffles:,}", "exhausted": f"{self.exhausted:,}",
            "chunks": f"{self.chunks:,}"}
        if self.ruin is not None:
            shown["risk_of_ruin"] = (f"{self.ruin.risk_of_ruin:.4f} +- {self.ruin.se:.4f} "
                                     f"({self.ruin.paths} paths of {self.ruin.rounds_per_path} "
                                     f"rounds from {self.ruin.bankroll:g} units)")
        names = tuple(shown)
        title = "Simulation" + (" (PARTIAL: interrupted, the rounds simulated so far)"
                                if self.partial else "")
        notes = tuple(f"{k}: {v}" for k, v in self.settings.items()) + (
            f"seed: {self.seed}", "SE treats rounds as independent (rounds of one shoe are "
            "correlated through the count)")
        summary = Table("simulation", title, names, ("value",),
                        np.array([[shown[k]] for k in names], dtype=object), notes=notes,
                        layout="summary", units="bet units unless stated",
                        records=[{"name": k, "value": s.get(k)} for k in names if k in s]
                        + ([{"name": "risk_of_ruin", "value": self.ruin.risk_of_ruin,
                             "se": self.ruin.se}] if self.ruin is not None else []))
        rows = [r for r in self.per_true_count if r.rounds]
        cols = ("rounds", "frequency", "played", "mean", "sd", "se")
        cells = np.array([[f"{r.rounds:,}", f"{r.frequency:.5f}", f"{r.played:,}",
                           f"{r.mean:+.5f}", f"{r.sd:.4f}", f"{r.se:.5f}"] for r in rows],
                         dtype=object).reshape(len(rows), len(cols))
        by_tc = Table("per-true-count",
                      "Result by true count (per initial unit bet per spot, played rounds)",
                      tuple(f"{r.true_count:+d}" for r in rows), cols, cells,
                      notes=(f"true count: the whole number the bet was made on; rows "
                             f"{TC_LOW:+d} and {TC_HIGH:+d} include every count beyond",),
                      units="mean, sd, se: initial bets; frequency: share of rounds dealt",
                      records=[vars(r) for r in rows])
        return [summary, by_tc]

    def __str__(self):
        tail = " PARTIAL" if self.partial else ""
        return (f"SimulationResult({self.rounds} rounds, mean {self.mean:+.6f} +- {self.se:.6f} "
                f"per round, SD {self.sd:.4f}, win rate {self.win_rate:+.6f}{tail})")


def merge(chunks) -> dict:
    """Sum chunk results (sums, counts, tc_counts, tc_sums) in the order given."""
    sums = np.zeros(3)
    counts = np.zeros(6, dtype=np.int64)
    tcc = np.zeros((TC_HIGH - TC_LOW + 1, 2), dtype=np.int64)
    tcs = np.zeros((TC_HIGH - TC_LOW + 1, 2))
    for s, c, a, b in chunks:
        sums += s
        counts += c
        tcc += a
        tcs += b
    return {"sums": sums, "counts": counts, "tc_counts": tcc, "tc_sums": tcs}


def _mean_sd(total, total_sq, n):
    if n <= 0:
        return math.nan, math.nan
    mean = float(total) / n
    if n < 2:
        return mean, math.nan
    var = max(0.0, (float(total_sq) - n * mean * mean) / (n - 1))
    return mean, math.sqrt(var)


def _result(merged, seed, chunks, partial, settings) -> SimulationResult:
    sums, counts = merged["sums"], merged["counts"]
    rounds = int(counts[0])
    mean, sd = _mean_sd(sums[0], sums[1], rounds)
    rows = []
    for i in range(TC_HIGH - TC_LOW + 1):
        n_seen, n_played = (int(x) for x in merged["tc_counts"][i])
        m, s = _mean_sd(merged["tc_sums"][i, 0], merged["tc_sums"][i, 1], n_played)
        rows.append(TrueCountRow(TC_LOW + i, n_seen, n_seen / rounds if rounds else math.nan,
                                 n_played, m, s, s / math.sqrt(n_played) if n_played > 1
                                 else math.nan))
    total_bet = float(sums[2])
    return SimulationResult(
        rounds=rounds, played=int(counts[1]), hands=int(counts[2]), mean=mean,
        se=sd / math.sqrt(rounds) if rounds > 1 else math.nan, sd=sd,
        total_won=float(sums[0]), total_bet=total_bet,
        win_rate=float(sums[0]) / total_bet if total_bet else math.nan,
        shuffles=int(counts[3]), exhausted=int(counts[4]), per_true_count=rows,
        chunks=chunks, seed=seed, partial=partial, settings=settings)


# ---- the public entry point ------------------------------------------------------------------

def build_plan(rules: Rules, *, shoe=None, penetration=0.75, spots=1, other_spots=0,
               strategy="basic", system=None, indices=None, insurance=None,
               true_count="exact", rounding="floor", ramp=None, wong_in=None, wong_out=None,
               table_min=1.0, table_max=None):
    """Validate the settings and build the GamePlan (see ``simulate``); returns
    (plan, settings dict for the record)."""
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a bjsolve.Rules, got {type(rules).__name__}")
    counts, infinite = _shoe_counts(rules, shoe)
    n_cards = sum(counts)
    spots = _whole(spots, "spots", low=1, high=MAX_SPOTS)
    other_spots = _whole(other_spots, "other_spots", low=0, high=MAX_SPOTS - spots)
    n_spots = spots + other_spots
    round_cards = 2 * (n_spots + 1)
    if n_cards < round_cards + 1:
        raise ValueError(f"shoe: {n_cards} cards cannot deal one round to {n_spots} spots")
    if infinite:
        cut = 0
    elif isinstance(penetration, str):
        if penetration != "every-round":
            raise ValueError(f"penetration must be a fraction of the shoe (0, 1), a number of "
                             f"cards, or 'every-round', got {_show(penetration)}")
        cut = 0
    elif isinstance(penetration, bool) or not isinstance(penetration, numbers.Real):
        raise TypeError(f"penetration must be a fraction (0, 1), a number of cards, or "
                        f"'every-round', got {_show(penetration)}")
    else:
        if isinstance(penetration, numbers.Integral) or penetration > 1:
            if penetration != int(penetration):
                raise ValueError(f"penetration in cards must be whole, got {_show(penetration)}")
            cut = int(penetration)
        elif 0 < penetration <= 1:
            cut = int(round(penetration * n_cards))
        else:
            raise ValueError(f"penetration must be a fraction (0, 1], a number of cards, or "
                             f"'every-round', got {_show(penetration)}")
        if cut > n_cards - round_cards:
            raise ValueError(f"penetration {_show(penetration)} ({cut} cards) goes beyond the "
                             f"{n_cards}-card shoe: the cut card must leave at least one round "
                             f"({round_cards} cards for {n_spots} spots) behind it")
        if cut < 1 + round_cards:
            raise ValueError(f"penetration {_show(penetration)} ({cut} cards) is below one "
                             f"round's cards ({round_cards} after the burn card); for a fresh "
                             f"shoe every round say penetration='every-round'")
    tc_method = _choice(true_count, "true_count", TC_METHODS)
    rounding = _choice(rounding, "rounding", ROUNDINGS)
    system = "hilo" if system is None else system
    tags = np.array(count_tags(system), dtype=np.float64)
    steps = parse_ramp(ramp)
    if isinstance(table_min, bool) or not isinstance(table_min, numbers.Real) or not (
            math.isfinite(table_min) and table_min > 0):
        raise ValueError(f"table_min must be a positive number, got {_show(table_min)}")
    if table_max is not None and (isinstance(table_max, bool) or not isinstance(
            table_max, numbers.Real) or not table_max >= table_min):
        raise ValueError(f"table_max must be a number >= table_min ({table_min:g}), got "
                         f"{_show(table_max)}")
    wong_in = _int_or_none(wong_in, "wong_in")
    wong_out = _int_or_none(wong_out, "wong_out")
    if wong_in is not None and wong_out is None:
        wong_out = wong_in   # play exactly while the count is at least wong_in
    if wong_in is not None and wong_out > wong_in:
        raise ValueError(f"wong_out ({wong_out:+d}) must not be above wong_in ({wong_in:+d})")
    bets = np.empty(TC_HIGH - TC_LOW + 1)
    for i, tc in enumerate(range(TC_LOW, TC_HIGH + 1)):
        bet = float(table_min)
        if steps:
            bet = steps[0][1]
            for c, b in steps:
                if c <= tc:
                    bet = b
            if bet > 0:
                bet = max(bet, float(table_min))
        if table_max is not None:
            bet = min(bet, float(table_max))
        bets[i] = bet

    exposed = rules.hole_card == "exposed"
    keys, key_of = _dealer_keys(exposed)
    comps = compositions()
    analysis_shoe = Shoe.infinite(counts) if infinite else Shoe(counts)
    if (indices is not None and indices is not False) and (exposed or infinite):
        raise ValueError("indices: index plays need a finite shoe and a single dealer upcard")
    policy = _resolve_strategy(rules, analysis_shoe, strategy)
    limit_counts = None if infinite else counts
    decision, allowed = _decision_table(rules, limit_counts, keys, comps, policy)
    plays, table_insurance = _index_plays(indices, rules, system)
    line_of, nseg, thr, play = _line_tables(plays, keys, comps, allowed, exposed)
    if insurance is None:
        insurance = table_insurance
    elif insurance is False:
        insurance = None
    else:
        insurance = _int_or_none(insurance, "insurance")
    ip = dict(cut=cut, spots=spots, others=other_spots, h17=int(rules.hit_soft_17),
              double_min={"any": 0, "9-11": 9, "10-11": 10}[rules.double],
              double_soft=int(rules.double_soft), double_any_cards=int(rules.double_any_cards),
              das=int(rules.double_after_split),
              split_limit=rules.max_split_hands,
              split_limit_aces=rules.max_split_hands if rules.resplit_aces
              else min(rules.max_split_hands, 2),
              hit_split_aces=int(rules.hit_split_aces),
              surrender={"none": 0, "late": 1, "early": 2}[rules.surrender],
              hole={"peek": 0, "enhc": 1, "enhc-obo": 2, "exposed": 3}[rules.hole_card],
              dealer_wins_ties=int(rules.dealer_wins_ties),
              tc_method=TC_METHODS.index(tc_method), rounding=ROUNDINGS.index(rounding),
              wong_in_set=int(wong_in is not None), wong_in=wong_in or 0,
              wong_out_set=int(wong_out is not None), wong_out=wong_out or 0,
              insurance_set=int(insurance is not None), insurance=insurance or 0,
              n_comps=len(comps.hands), n_keys=len(keys),
              infinite=int(infinite))
    plan = GamePlan(
        iparams=np.array([ip[f] for f in IP_FIELDS], dtype=np.int64),
        dparams=np.array([rules.blackjack_payout, 0.0]),
        shoe=np.array(counts, dtype=np.int32), tags=tags, child=comps.child,
        total=comps.total,
        decision=(decision.astype(np.int16) | ((line_of + 1) << 3).astype(np.int16)).ravel(),
        allowed=allowed.ravel(), line_nseg=nseg, line_thr=thr, line_play=play,
        key_of=key_of, bet_by_tc=bets)
    strategy_name = strategy if isinstance(strategy, str) else type(strategy).__name__
    settings = dict(rules=rules.describe(), shoe=f"{n_cards} cards" + (" (infinite)" if infinite
                                                                        else ""),
                    penetration=("every round" if cut == 0 else f"{cut} of {n_cards} cards"),
                    spots=spots, other_spots=other_spots, strategy=strategy_name,
                    system=system if isinstance(system, str) else "user tags",
                    index_plays=int((line_of >= 0).any() and len(plays)),
                    insurance=("never" if insurance is None else f"at TC >= {insurance:+d}"),
                    true_count=tc_method, rounding=rounding,
                    ramp=", ".join(f"{c:+d}:{b:g}" for c, b in steps) or "flat",
                    wong=("off" if wong_in is None and wong_out is None else
                          f"in at TC >= {wong_in}, out below {wong_out}"),
                    table=f"{table_min:g}.." + ("no maximum" if table_max is None
                                                else f"{table_max:g}"))
    return plan, settings


def simulate(rules: Rules | None = None, *, rounds, seed, shoe=None, penetration=0.75,
             spots: int = 1, other_spots: int = 0, strategy="basic", system=None,
             indices=None, insurance=None, true_count: str = "exact", rounding: str = "floor",
             ramp=None, wong_in=None, wong_out=None, table_min: float = 1.0, table_max=None,
             threads: int | None = None, chunk_rounds: int = DEFAULT_CHUNK_ROUNDS,
             progress=False, client=None, bankroll_trials=None) -> SimulationResult:
    """Simulate ``rounds`` rounds of the real game; see docs/simulation.md.

    rules: a ``Rules`` (default ``Rules()``); shoe: None (``rules.decks`` full decks), a
        ``Shoe`` or 10 counts A..T to deal from (an infinite shoe draws with replacement).
    penetration: the cut card, as a fraction of the shoe (0.75), a number of cards (234),
        or 'every-round' (a fresh shuffle before every round).  A burn card follows every
        shuffle.
    spots: the player's spots (1..7, same bet each); other_spots: other players at the
        table (they play the same strategy, flat, and only eat cards).
    strategy: 'basic' (the solve's chart), 'composition' (the full-shoe composition-
        dependent strategy, split hands CDZ-), a ``StrategyChart`` or a callable
        f(cards, dealer, allowed) -> action.
    system: a count system name (default 'hilo') or 10 tags A..T.
    indices: None (no index plays), True (``generate_indices(rules, system)``), an
        ``IndexTable``, or an index file (path or text).  Lines whose play changes with the
        count override the strategy at the current true count.
    insurance: None (the index table's insurance index, else never), False (never), or a
        true count from which to insure (even money for a natural).
    true_count: 'exact' (cards not yet seen), 'half-deck' or 'full-deck' (decks remaining
        estimated to the nearest half or whole deck, at least one half / one deck).
    rounding: how the true count becomes a whole number: 'floor', 'truncate' (toward
        zero), 'round' (nearest, halves up).  Bets and indices use that number.
    ramp: true count -> bet: "1:1,2:2,3:4,4:8", a dict or pairs; the bet of the highest
        step at or below the count (below the first step: the first step's bet); 0 sits
        the round out.  Default: flat betting at ``table_min``.
    wong_in / wong_out: sit out while the count is below wong_out until it reaches
        wong_in (wong_in alone: play exactly at counts >= wong_in; wong_out alone: leave
        the shoe below wong_out and come back after the shuffle).
    table_min / table_max: bets are raised to the minimum (except 0) and cut to the maximum.
    threads: worker threads (default: every core); chunk_rounds: rounds per seeded chunk.
        The result depends on (seed, chunk_rounds), not on threads or client.
    progress: True (a bar on stderr) or a callable progress(done_rounds, total_rounds).
    client: a ``dask.distributed.Client``: the chunks run on its workers.
    bankroll_trials: (paths, rounds per path, bankroll): that many independent paths from
        the bankroll, each ended by ruin (bankroll + winnings <= 0); the share ruined is
        ``result.ruin.risk_of_ruin``.
    """
    rules = Rules() if rules is None else rules
    rounds = _whole(rounds, "rounds", low=1)
    seed = _seed(seed)
    chunk_rounds = _whole(chunk_rounds, "chunk_rounds", low=1)
    if threads is not None:
        threads = _whole(threads, "threads", low=1, high=1024)
    trials = None
    if bankroll_trials is not None:
        try:
            paths, per_path, bankroll = bankroll_trials
        except (TypeError, ValueError):
            raise ValueError(f"bankroll_trials must be (paths, rounds per path, bankroll), "
                             f"got {_show(bankroll_trials)}") from None
        paths = _whole(paths, "bankroll_trials paths", low=1)
        per_path = _whole(per_path, "bankroll_trials rounds per path", low=1)
        if isinstance(bankroll, bool) or not isinstance(bankroll, numbers.Real) or not (
                math.isfinite(bankroll) and bankroll > 0):
            raise ValueError(f"bankroll_trials bankroll must be a positive number, got "
                             f"{_show(bankroll)}")
        trials = (paths, per_path, float(bankroll))
    plan, settings = build_plan(
        rules, shoe=shoe, penetration=penetration, spots=spots, other_spots=other_spots,
        strategy=strategy, system=system, indices=indices, insurance=insurance,
        true_count=true_count, rounding=rounding, ramp=ramp, wong_in=wong_in,
        wong_out=wong_out, table_min=table_min, table_max=table_max)
    specs = [(k, min(chunk_rounds, rounds - k * chunk_rounds))
             for k in range((rounds + chunk_rounds - 1) // chunk_rounds)]
    reporter = _progress_reporter(progress, rounds)
    if client is not None:
        from .distributed import run_chunks
        done, partial = run_chunks(client, plan, seed, specs, reporter), False
    else:
        done, partial = run_local(plan, seed, specs, threads, reporter)
    result = _result(merge(done), seed, len(done), partial, settings)
    if trials is not None and not partial:
        result.ruin = _ruin(plan, seed, trials, threads, client)
    return result


def _ruin(plan, seed, trials, threads, client) -> RuinResult:
    paths, per_path, bankroll = trials
    specs = [(BANKROLL_CHUNK_BASE + k, per_path) for k in range(paths)]
    if client is not None:
        from .distributed import run_chunks
        done = run_chunks(client, plan, seed, specs, None, bankroll=bankroll)
    else:
        done, partial = run_local(plan, seed, specs, threads, None, bankroll=bankroll)
        if partial:
            raise KeyboardInterrupt
    ruined = sum(int(c[1][5]) for c in done)
    p = ruined / paths
    return RuinResult(paths, per_path, bankroll, ruined, p, math.sqrt(p * (1 - p) / paths))


def run_local(plan: GamePlan, seed: int, specs, threads, reporter, bankroll: float = 0.0):
    """Run chunks [(chunk number, rounds)] on threads; (results in chunk order, partial?).
    Ctrl-C stops the chunks in flight and keeps what was simulated."""
    threads = threads or os.cpu_count() or 1
    stop = np.zeros(1, dtype=np.int8)
    results: dict = {}
    partial = False
    if threads == 1 or len(specs) == 1:
        try:
            for i, (chunk, n) in enumerate(specs):
                results[i] = plan.run(seed, chunk, n, stop, bankroll)
                if reporter:
                    reporter(n)
        except KeyboardInterrupt:
            partial = True
        return [results[i] for i in sorted(results)], partial
    pool = ThreadPoolExecutor(max_workers=threads)
    futures = {pool.submit(plan.run, seed, chunk, n, stop, bankroll): i
               for i, (chunk, n) in enumerate(specs)}
    pending = set(futures)
    try:
        while pending:
            finished, pending = wait(pending, timeout=0.25, return_when=FIRST_COMPLETED)
            for f in finished:
                results[futures[f]] = f.result()
                if reporter:
                    reporter(specs[futures[f]][1])
    except KeyboardInterrupt:
        partial = True
        stop[0] = 1
        for f in pending:
            f.cancel()
        for f in pending:
            if not f.cancelled():
                try:
                    results[futures[f]] = f.result()
                except Exception:
                    pass
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return [results[i] for i in sorted(results)], partial


def _progress_reporter(progress, total):
    if not progress:
        return None
    if callable(progress):
        done = [0]

        def report(n):
            done[0] += n
            progress(done[0], total)
        return report
    start = time.perf_counter()
    done = [0]
    lock = threading.Lock()

    def bar(n):
        with lock:
            done[0] += n
            frac = done[0] / total
            spent = time.perf_counter() - start
            eta = spent / frac - spent if frac > 0 else 0.0
            filled = int(30 * frac)
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {frac:6.1%} "
                             f"{done[0]:,}/{total:,} rounds  ETA {eta:6.1f} s")
            if done[0] >= total:
                sys.stderr.write("\n")
            sys.stderr.flush()
    return bar
