"""Exact solves: every action's EV for any hand, the round's EV, strategy evaluation.

``solve(rules, shoe, split=...)`` builds one compiled ``UpcardEngine`` per upcard and runs
them in parallel threads (the kernels release the GIL).  Conventions follow the exact
analyzers': internal values are unconditioned; per-hand values returned to users are
conditioned on no dealer blackjack when the dealer peeks (and say so).
"""
from __future__ import annotations

import contextlib
import dataclasses
import functools
import inspect
import numbers
import os
import threading
import time
import warnings
from collections.abc import Mapping
from typing import Any
from concurrent.futures import ThreadPoolExecutor, wait

from bjcore import UpcardEngine
from bjcore._core import tune_allocator
from bjcore._chart import DecisionSignatures

from .actions import ACTION_CODE, KIND_LATER, KIND_SPLIT, KIND_START, first_best
from .deal import Deal, dealer_columns, dealer_label, exposed, is_natural
from .dealer import resolve_shoe
from .hands import compositions
from .mappings import CardMapping
from .ranks import counts_of, label, ranks
from .rules import Rules
from .shoe import Shoe, _show
from .strategy import StrategyChart, basic_strategy

SPLIT_CLASSES = {"CDZ-": 0, "CDP1": 1, "CDP": 2}
POLICY_CLASS = 3
# The threads take the dealer keys longest first, so that they finish together (from one
# queue until the keys' costs are known, then from planned shares: ``plan_shares``).
# Before any cost is known, this order: the
# measured CPU time per upcard of a CDZ- solve (1-8 decks) is ace ~19%, each of 7-T
# 12-15%, 2 ~8%, 3 ~7%, 4-6 ~5% each.  CDP costs are flatter (2, 3, A heaviest), so each
# solve records what every key cost (CPU seconds, per thread) and the next solve of the
# same rules, class and shoe size orders its keys by those costs.
_WORK_ORDER = (1, 7, 8, 9, 10, 2, 3, 4, 5, 6)
_UNIT_COSTS: dict = {}        # cost key -> {dealer key: CPU seconds of its round value}
_THREAD_LOADS: dict = {}      # cost key -> [CPU seconds of each thread's keys, caller first]
_UNIT_COSTS_KEPT = 64         # cost keys remembered (the oldest is dropped)
_UNIT_COSTS_LOCK = threading.Lock()   # solves may run in several threads at once


def check_split_class(split) -> str:
    """The post-split class in its canonical spelling ("cdp1" is "CDP1")."""
    key = split.strip().upper() if isinstance(split, str) else None
    if key not in SPLIT_CLASSES:
        raise ValueError(f"split must be one of {', '.join(SPLIT_CLASSES)} "
                         f"(post-split strategy class), got {_show(split)}")
    return key


def kernel_rules(rules: Rules, split_code: int) -> dict:
    return {
        "hit_soft_17": rules.hit_soft_17,
        "double_min_total": {"any": 0, "9-11": 9, "10-11": 10}[rules.double],
        "double_soft": rules.double_soft,
        "double_any_cards": rules.double_any_cards,
        "double_after_split": rules.double_after_split,
        "max_split_hands": rules.max_split_hands,
        "resplit_aces": rules.resplit_aces,
        "hit_split_aces": rules.hit_split_aces,
        "surrender": {"none": 0, "late": 1, "early": 2}[rules.surrender],
        "blackjack_payout": rules.blackjack_payout,
        "split_class": split_code,
        "natural_takes_all": rules.hole_card == "enhc",
        "dealer_wins_ties": rules.dealer_wins_ties,
        "natural_tie_value": natural_tie_value(rules),
    }


def check_threads(threads) -> int:
    """The number of threads to use: ``None`` means every core."""
    if threads is None:
        return os.cpu_count() or 1
    if isinstance(threads, bool) or not isinstance(threads, numbers.Integral):
        raise TypeError(f"threads must be a whole number >= 1 or None (every core), "
                        f"got {threads!r:.60}")
    if threads < 1:
        raise ValueError(f"threads must be >= 1 or None (every core), got {threads!r}")
    return int(threads)


def work_order(keys, cost_key=None) -> list:
    """The dealer keys (``keys``: any iterable of them, e.g. a dict of engines) in the order
    the threads take them: by the costs recorded under ``cost_key`` (largest first), else
    by ``_WORK_ORDER``."""
    keys = list(keys)
    costs = _costs_of(cost_key)
    order = [u for u in _WORK_ORDER if u in keys]
    order += sorted((k for k in keys if k not in order), key=str)
    if costs and all(k in costs for k in order):
        order.sort(key=lambda k: -costs[k])   # stable: ties keep the default order
    return order


def _costs_of(cost_key) -> dict | None:
    with _UNIT_COSTS_LOCK:
        return _UNIT_COSTS.get(cost_key) if cost_key is not None else None


# Largest first from one shared queue ("longest processing time first") leaves the two
# threads of a 10-upcard solve up to ~5 % apart, the ace's 18 % share being hard to pair
# (6 decks, one split: 1.93x of 2 at best).  With the upcards' costs known from an earlier
# solve, two threads get the best split of them found by trying every one (2^9 for ten
# upcards; more threads, or many keys, take them largest first to the least loaded), and a
# thread whose share is done takes the smallest key left of the busiest share, so that a
# thread held up by the machine is still helped.  The plan gives the calling thread the
# time a helper takes to start (a sleeping thread is woken, ~0.1 ms) as extra work.
_EXACT_SPLIT_KEYS = 16
_HELPER_START = [0.0]   # seconds from submitting a helper to its first key (averaged)
# Planning anew costs ~80 us inside a solve (numpy on cold caches), ~1% of a one-deck solve
# on two threads.  The recorded costs are measurements: a key's varies by 4-7% (quartiles)
# from solve to solve on a quiet machine, so a plan made for the last costs is no better for
# the next solve than one made a few solves ago.  A plan is reused for _PLAN_REUSES more
# solves of its cost key, unless the costs have moved so far that it would finish more than
# _PLAN_SLACK later (against a perfect split) than it did when it was made.
_PLANS: dict = {}   # cost key -> _KeptPlan
_PLAN_REUSES = 7
_PLAN_SLACK = 0.10


@dataclasses.dataclass
class _KeptPlan:
    workers: int
    gap: float          # how much later than a perfect split it finished when it was made
    shares: tuple       # the threads' keys, as tuples (each solve takes copies)
    uses: int = 0       # solves it has served since


def _plannable(order: list, costs: dict | None, workers: int) -> bool:
    """Whether there is anything to plan: two or more threads and every key's cost."""
    return workers >= 2 and costs is not None and bool(costs) and all(k in costs for k in order)


def plan_shares(order: list, costs: dict | None, workers: int,
                head_start: float = 0.0) -> list:
    """The keys of each thread (lists, largest first; the calling thread's first), or
    ``[order]``, one queue for all, when the costs are not known.  ``head_start``: how
    much earlier (in the costs' unit) the calling thread starts than the helpers."""
    if not _plannable(order, costs, workers):
        return [list(order)]
    assert costs is not None    # (_plannable)
    if workers == 2 and len(order) <= _EXACT_SPLIT_KEYS:
        return _best_two_way_split(order, costs, head_start)
    shares: list[list] = [[] for _ in range(min(workers, len(order)))]
    loads = [0.0] + [head_start] * (len(shares) - 1)
    for k in order:
        least = loads.index(min(loads))
        shares[least].append(k)
        loads[least] += costs[k]
    return shares


def reused_or_new_plan(cost_key, order: list, costs: dict | None, workers: int,
                       head_start: float = 0.0) -> list:
    """``plan_shares(order, costs, workers, head_start)``, or the plan last made under
    ``cost_key`` while it has served fewer than ``_PLAN_REUSES`` solves, shares out the
    same keys to as many threads and, under ``costs``, finishes within ``_PLAN_SLACK`` of
    the gap to a perfect split it had when made (fresh lists either way)."""
    if cost_key is None or not _plannable(order, costs, workers):
        return plan_shares(order, costs, workers, head_start)
    assert costs is not None    # (_plannable)
    with _UNIT_COSTS_LOCK:
        kept = _PLANS.get(cost_key)
        if (kept is not None and kept.workers == workers and kept.uses < _PLAN_REUSES
                and sorted(k for share in kept.shares for k in share) == sorted(order)
                and _finish_gap(kept.shares, costs, head_start) <= kept.gap + _PLAN_SLACK):
            kept.uses += 1
            return [list(share) for share in kept.shares]
    shares = plan_shares(order, costs, workers, head_start)
    with _UNIT_COSTS_LOCK:
        _PLANS.pop(cost_key, None)
        _PLANS[cost_key] = _KeptPlan(workers, _finish_gap(shares, costs, head_start),
                                     tuple(tuple(share) for share in shares))
        while len(_PLANS) > _UNIT_COSTS_KEPT:
            del _PLANS[next(iter(_PLANS))]
    return shares


def _finish_gap(shares, costs: dict, head_start: float) -> float:
    """How much later than a perfect split (every thread busy to the end) the busiest
    thread of ``shares`` finishes, as a fraction (helpers start ``head_start`` late)."""
    loads = [sum(costs[k] for k in share) + (head_start if i else 0.0)
             for i, share in enumerate(shares)]
    total = sum(loads)
    return max(loads) * len(shares) / total - 1.0 if total > 0 else 0.0


def _best_two_way_split(order: list, costs: dict, head_start: float = 0.0) -> list:
    """The calling thread's share and the helper's, of ``order``, that finish first when
    the helper starts ``head_start`` later (ties: the first found); each keeps
    ``order``'s order (largest first)."""
    import numpy as np
    n = len(order)
    weights = np.array([costs[k] for k in order])
    total = weights.sum()
    # every split once: the first key always in one share, the others by the mask's bits;
    # either share may be the calling thread's
    in_first = _split_masks(n)
    loads = in_first @ weights
    caller_first = np.maximum(loads, total - loads + head_start)
    caller_second = np.maximum(total - loads, loads + head_start)
    row = int(np.argmin(np.minimum(caller_first, caller_second)))
    chosen = in_first[row]
    first = [k for k, inside in zip(order, chosen) if inside]
    second = [k for k, inside in zip(order, chosen) if not inside]
    return [first, second] if caller_first[row] <= caller_second[row] else [second, first]


@functools.lru_cache(maxsize=None)
def _split_masks(n: int):
    """A (2^(n-1), n) 0/1 array: row m puts key 0 and the keys of m's bits in share 0."""
    import numpy as np
    rows = np.arange(1 << (n - 1))[:, None]
    bits = (rows >> np.arange(n - 1)[None, :]) & 1
    return np.hstack([np.ones((len(rows), 1)), bits]).astype(float)


def recorded_costs(rules: Rules, kind: str, shoe_size: float) -> dict | None:
    """{dealer key: CPU seconds} that solves of these rules, kind (split class or "policy")
    and shoe size spent on each key's work (the last solve's times averaged with the
    earlier record, so that one disturbed solve does not reorder the next), or None
    (for benchmarks: the thread balance they allow does not depend on how busy the
    machine is)."""
    with _UNIT_COSTS_LOCK:
        costs = _UNIT_COSTS.get((rules, kind, shoe_size))
        return dict(costs) if costs is not None else None


def recorded_thread_loads(rules: Rules, kind: str, shoe_size: float) -> list | None:
    """CPU seconds that each thread of the last solve of these rules, kind and shoe size
    spent on its keys, the calling thread's first, or None (for benchmarks: with the
    caller's CPU time of the whole solve, the critical path of the solve in CPU time)."""
    with _UNIT_COSTS_LOCK:
        loads = _THREAD_LOADS.get((rules, kind, shoe_size))
        return list(loads) if loads is not None else None


# ---- the threads ------------------------------------------------------------------------
# The calling thread works on the upcards itself, beside up to threads - 1 helpers taken
# from one pool kept for the life of the process (starting threads for every solve added
# thread start-ups to the serial part, and the caller sat idle while the threads worked).
# The caller never waits for a helper that has not started (it drains the queue itself
# and cancels helpers still queued), so solves in several threads at once share the pool
# without waiting on each other, and nothing run in the pool waits on the pool.

_POOL: ThreadPoolExecutor | None = None
_POOL_SIZE = 0
_POOL_LOCK = threading.Lock()


def _helper_pool(helpers: int) -> ThreadPoolExecutor:
    """The process's pool of helper threads, with room for at least ``helpers``."""
    global _POOL, _POOL_SIZE
    with _POOL_LOCK:
        if _POOL is None or _POOL_SIZE < helpers:
            old, _POOL = _POOL, ThreadPoolExecutor(max_workers=helpers,
                                                   thread_name_prefix="bjsolve")
            _POOL_SIZE = helpers
            if old is not None:
                old.shutdown(wait=False)   # its threads finish what they run, then exit
        return _POOL


def _forget_pool_after_fork() -> None:
    """A forked child has none of its parent's threads: start a pool of its own."""
    global _POOL, _POOL_SIZE, _POOL_LOCK
    _POOL, _POOL_SIZE, _POOL_LOCK = None, 0, threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool_after_fork)


def run_units(keys, compute, threads: int | None = None, cost_key=None) -> dict:
    """{key: compute(key)} for every dealer key, in up to ``threads`` threads (None: every
    core): the calling thread and helpers from the pool take the keys from one queue,
    longest first, or, when the keys' costs are known, each from its share of them
    (``plan_shares``) and then from the busiest share.  ``compute`` must not depend on
    which thread runs it or when; then the values do not depend on the number of
    threads, bit for bit.  ``cost_key`` (hashable, e.g. rules, class and shoe size):
    record what each key cost (CPU seconds) under it, and plan the next run with the
    same key by those costs."""
    order = work_order(keys, cost_key)
    workers = max(1, min(len(order), check_threads(threads)))
    costs_known = _costs_of(cost_key)
    shares = reused_or_new_plan(cost_key, order, costs_known, workers, _HELPER_START[0])
    costs: dict = {}
    values: dict = {}
    queue_lock = threading.Lock()
    failed: list = []

    def load_left(share: list) -> float:
        return sum(costs_known[k] for k in share) if costs_known else len(share)

    def next_key(worker: int):
        """The next key of the thread's own share, else the smallest of the busiest."""
        with queue_lock:
            own = shares[min(worker, len(shares) - 1)]
            if own:
                return own.pop(0)
            busiest = max(shares, key=load_left)
            return busiest.pop() if busiest else None

    def drain(worker: int, submitted: float | None = None) -> float:
        """Compute keys until none is left; returns their CPU seconds."""
        load = 0.0
        if submitted is not None:
            with _UNIT_COSTS_LOCK:
                _HELPER_START[0] = (_HELPER_START[0] + time.perf_counter() - submitted) / 2
        start = time.thread_time()   # (each reading is a system call: one per key)
        while not failed:
            u = next_key(worker)
            if u is None:
                break
            try:
                values[u] = compute(u)
            except BaseException:
                failed.append(True)   # the others stop taking keys
                raise
            end = time.thread_time()
            costs[u] = end - start
            load += costs[u]
            start = end
        return load

    helpers = [] if workers == 1 else [
        _helper_pool(workers - 1).submit(drain, worker, time.perf_counter())
        for worker in range(1, workers)]
    try:
        loads = [drain(0)]
    finally:
        # helpers still queued behind another solve's work are not needed any more; the
        # others finish the key they hold
        started = [helper for helper in helpers if not helper.cancel()]
        wait(started)
    loads += [helper.result() for helper in started]   # (a helper's error is raised here)
    if cost_key is not None:
        _record_costs(cost_key, costs, loads)
    return {u: values[u] for u in work_order(keys)}   # in an order that never varies


def _record_costs(cost_key, costs: dict, loads: list) -> None:
    """Keep what each key cost (averaged with the earlier record) and the threads' loads."""
    with _UNIT_COSTS_LOCK:
        earlier = _UNIT_COSTS.pop(cost_key, None) or {}
        _UNIT_COSTS[cost_key] = {k: (c + earlier[k]) / 2 if k in earlier else c
                                 for k, c in costs.items()}
        _THREAD_LOADS.pop(cost_key, None)
        _THREAD_LOADS[cost_key] = loads
        while len(_UNIT_COSTS) > _UNIT_COSTS_KEPT:
            del _UNIT_COSTS[next(iter(_UNIT_COSTS))]
        while len(_THREAD_LOADS) > _UNIT_COSTS_KEPT:
            del _THREAD_LOADS[next(iter(_THREAD_LOADS))]


class EV(float):
    """A float that says what it means: ``given_no_blackjack`` tells whether it is
    conditioned on the dealer not holding a natural (False: unconditioned, dealer
    naturals included); ``split_strategy`` names the post-split class behind it."""

    given_no_blackjack: bool
    split_strategy: str | None

    def __new__(cls, value, given_no_blackjack: bool = False, split_strategy: str | None = None):
        self = super().__new__(cls, value)
        self.given_no_blackjack = bool(given_no_blackjack)
        self.split_strategy = split_strategy
        return self

    def __reduce__(self):
        return (EV, (float(self), self.given_no_blackjack, self.split_strategy))

    def __repr__(self):
        measure = "given no dealer blackjack" if self.given_no_blackjack else "unconditioned"
        split = f", split {self.split_strategy}" if self.split_strategy else ""
        return f"{float(self)!r} ({measure}{split})"


class ActionValues(Mapping):
    """Action -> EV for one hand against one upcard (fractions of the initial bet).

    ``given_no_blackjack`` says whether the values are conditioned on the dealer not
    holding a natural; ``split_strategy`` names the post-split class of the split value.
    """

    def __init__(self, values, *, cards, dealer, given_no_blackjack, split_strategy):
        self._values = dict(values)
        self.cards = cards
        self.dealer = dealer
        self.given_no_blackjack = given_no_blackjack
        self.split_strategy = split_strategy

    def __getitem__(self, key):
        return self._values[key]

    def __iter__(self):
        return iter(self._values)

    def __len__(self):
        return len(self._values)

    @property
    def best(self) -> str:
        """The best action (ties go to the earlier of stand, hit, double, split, surrender)."""
        best = first_best(self._values)
        assert best is not None    # (Solution.hand_ev always values standing)
        return best

    def __repr__(self):
        body = ", ".join(f"{k}: {v:+.6f}" for k, v in self._values.items())
        cards = "".join(label(c) for c in self.cards)
        measure = "given no dealer blackjack" if self.given_no_blackjack else "unconditioned"
        split = f", split {self.split_strategy}" if "split" in self._values else ""
        return (f"ActionValues({cards} v {dealer_label(self.dealer)}, {measure}{split}: "
                f"{{{body}}})")


class Solution:
    """The exact solve of one rule set and shoe; see ``solve``.

    expected_value: the round's EV before any card is dealt (unconditioned, fraction of the
        initial bet; negative = house edge).
    ev_by_upcard: upcard (1..10) -> E[round | upcard], unconditioned (only upcards the shoe
        can deal).
    ev_by_dealer: dealer key -> E[round | dealer key]: the upcard, or in the exposed game
        the sorted tuple of both dealer cards.

    A Solution may be shared between threads: the compiled engines keep per-hand state and
    memo tables, so every call into one engine holds that engine's lock, and the chart is
    built once under its own lock.  Different solves share nothing and run in parallel.
    A Solution pickles (its engines are rebuilt, empty, on loading; values are recomputed
    on demand and come out the same).
    """

    def __init__(self, rules: Rules, shoe: Shoe, split: str, engines: dict, ev_by_dealer: dict,
                 deal: Deal | None = None):
        self.rules = rules
        self.shoe = shoe
        self.split = split
        self.deal = Deal(rules, shoe) if deal is None else deal
        self._engines = engines
        self._engine_locks = {k: threading.RLock() for k in engines}
        self._strategy_lock = threading.Lock()
        self._strategy: StrategyChart | None = None    # (built on first use)
        self.may_run_out = self.deal.may_run_out
        # dicts here, made read-only CardMappings below
        self.ev_by_dealer: Mapping[Any, EV] = {k: self._ev(ev_by_dealer[k])
                                               for k in self.deal.keys}
        self.expected_value = self._ev(self.deal.combine(self.ev_by_dealer))
        if exposed(rules):
            by_up: dict = {}
            for k, v in self.ev_by_dealer.items():
                w = self.deal.weights[k]
                for up in set(k):  # a hand {a, b} has a as its first card half the time
                    share = w if k[0] == k[1] else w / 2
                    tot = by_up.setdefault(up, [0.0, 0.0])
                    tot[0] += share * v
                    tot[1] += share
            self.ev_by_upcard: Mapping[int, EV] = {u: self._ev(t[0] / t[1])
                                                   for u, t in sorted(by_up.items()) if t[1] > 0}
        else:
            self.ev_by_upcard = dict(sorted(self.ev_by_dealer.items()))
        # read-only, and indexable by card labels: sol.ev_by_upcard["A"]
        self.ev_by_upcard = CardMapping(self.ev_by_upcard, "upcard")
        self.ev_by_dealer = CardMapping(self.ev_by_dealer, "dealer")

    def _ev(self, value) -> EV:
        return EV(value, False, self.split)

    def __repr__(self):
        caveat = ", shoe may run out (degenerate values)" if self.may_run_out else ""
        return (f"Solution({self.rules.describe()}, shoe={self.shoe!r}, split={self.split}, "
                f"expected_value={self.expected_value:+.10f} unconditioned{caveat})")

    def __reduce__(self):
        raw = {k: float(v) for k, v in self.ev_by_dealer.items()}
        return (_restore_solution, (self.rules, self.shoe, self.split, raw, self._strategy))

    @contextlib.contextmanager
    def locked_engine(self, key):
        """``with sol.locked_engine(key) as engine:`` the compiled engine of a dealer key,
        held under its lock: the way for other modules (counting) to call engine methods
        that set hand state, freeze decisions or copy a policy on a shared solution."""
        with self._engine_locks[key]:
            yield self._engines[key]

    @property
    def dealer_keys(self) -> list:
        """The dealer keys the shoe can deal: upcards 1..10, or in the exposed game the
        sorted pairs of both dealer cards."""
        return list(self.ev_by_dealer)

    @property
    def playable_keys(self) -> tuple:
        """The dealer keys with decisions (all but an exposed dealer natural)."""
        return self.deal.playable_keys

    def dealer_columns(self) -> list:
        """[(column label, [dealer keys])]: upcards 2..T, A, or the exposed game's codes."""
        return dealer_columns(self.dealer_keys)

    def conditioned_for(self, cards) -> bool:
        """Whether hand values are shown given no dealer blackjack: only when the dealer
        peeks before the decision (not for an early-surrender decision)."""
        if self.rules.hole_card != "peek":
            return False
        return not (self.rules.surrender == "early" and len(cards) == 2)

    @property
    def conditioned(self) -> bool:
        """Per-hand values are given no dealer blackjack (the dealer peeks)."""
        return self.rules.hole_card == "peek"

    # ---- one hand --------------------------------------------------------------

    def _dealer_key(self, dealer):
        cards = ranks(dealer, field="dealer")
        if exposed(self.rules):
            if len(cards) != 2:
                raise ValueError(f"dealer: both dealer cards are dealt face up in this game; "
                                 f"give two cards, got {_show(cards)}")
            key = tuple(sorted(cards))
            if is_natural(key):
                raise ValueError("dealer: the dealer's cards are a natural; the round is over")
        else:
            if len(cards) != 1:
                raise ValueError(f"dealer: give one upcard, got {_show(cards)}")
            key = cards[0]
        if key not in self._engines:
            raise ValueError(f"dealer: the shoe cannot deal the dealer {dealer_label(key)}")
        return key

    def _hand(self, cards, dealer):
        cards = tuple(sorted(ranks(cards, field="cards")))
        if len(cards) < 2:
            raise ValueError(f"cards: a hand needs at least two cards, got {cards}")
        if sum(cards) > 21:
            raise ValueError(f"cards: {_show(cards)} is already bust (hard total {sum(cards)})")
        key = self._dealer_key(dealer)
        need = counts_of(cards)
        for c in ((key,) if isinstance(key, int) else key):
            need[c - 1] += 1
        for r, k in enumerate(need):
            if self.shoe.is_infinite:
                if k and self.shoe.counts[r] <= 0:
                    raise ValueError(f"cards: this infinite shoe never deals a {label(r + 1)} "
                                     f"(its proportion is 0)")
            elif k and k - 1 >= self.shoe.counts[r]:  # k > count for whole counts; a
                # fractional shoe deals a rank while its count left is positive
                raise ValueError(f"cards: the shoe holds {self.shoe.counts[r]:g} x {label(r + 1)}, "
                                 f"the hand and the dealer's cards need {k}")
        return cards, key

    def allowed_actions(self, cards, dealer) -> tuple[str, ...]:
        """Actions allowed for this hand as an unsplit hand (2 cards: round start)."""
        cards, key = self._hand(cards, dealer)
        with self._engine_locks[key]:
            return self._allowed(cards, key)

    def _allowed(self, cards, key):
        # the caller holds the engine's lock (these calls set and clear the engine's hand)
        engine = self._engines[key]
        out = ["stand", "hit"]
        if engine.may_double_hand(counts_of(cards)):
            out.append("double")
        if len(cards) == 2:
            if cards[0] == cards[1] and engine.split_limit(cards[0]) >= 2:
                out.append("split")
            if self.rules.surrender != "none":
                out.append("surrender")
        return tuple(out)

    def hand_ev(self, cards, dealer, *, given_no_blackjack: bool | None = None) -> ActionValues:
        """EV of every allowed action for this exact hand against the dealer.

        cards: two or more cards (ranks or labels); two cards are the original hand
        (split and surrender may be allowed), more cards a later decision.
        dealer: the upcard, or both dealer cards in the exposed game.
        Values are fractions of the initial bet, given no dealer blackjack when the dealer
        peeks before the decision; unconditioned otherwise (no hole card, an early
        surrender decision, or ``given_no_blackjack=False``).  The result says which.
        Where the hole card surely completes a dealer natural (an ace up and only tens
        left, or the reverse), "given no blackjack" is undefined: by default the values
        are then unconditioned (``given_no_blackjack`` False on the result), and asking
        for ``given_no_blackjack=True`` raises ValueError.
        Split values use this solve's post-split class (``self.split``).
        A two-card natural is paid at once: its "stand" is the payout (a tied dealer
        natural per the rules); "hit" and "double" are listed as the published tables list
        them (the values of playing on a soft 21) but are no decision a player meets.
        """
        if given_no_blackjack is not None and not isinstance(given_no_blackjack, bool):
            raise TypeError(f"given_no_blackjack must be True, False or None (the game's "
                            f"default), got {_show(given_no_blackjack)}")
        cards, key = self._hand(cards, dealer)
        asked = given_no_blackjack
        if given_no_blackjack is None:
            given_no_blackjack = self.conditioned_for(cards)
        elif given_no_blackjack and self.rules.hole_card != "peek":
            raise ValueError("given_no_blackjack=True needs a peek game (hole_card='peek')")
        engine = self._engines[key]
        counts = counts_of(cards)
        with self._engine_locks[key]:
            st, ht, dd, beta = engine.hand_values(counts)
            allowed = self._allowed(cards, key)
            split = engine.split_ev(cards[0]) if "split" in allowed else None
            surrender = (engine.surrender_ev(counts) if "surrender" in allowed
                         and not given_no_blackjack else None)
        if given_no_blackjack and (beta >= 1.0 or (split is not None and split[1] >= 1.0)):
            if asked:
                raise ValueError(f"given_no_blackjack: undefined for "
                                 f"{''.join(label(c) for c in cards)} v {dealer_label(key)}: "
                                 f"the hole card surely completes a dealer natural")
            given_no_blackjack = False  # undefined: report the unconditioned values
            if "surrender" in allowed:
                with self._engine_locks[key]:
                    surrender = engine.surrender_ev(counts)
        raw = {"stand": st, "hit": ht, "double": dd}
        natural = is_natural(cards)
        p = 1.0 - beta
        values = {}
        for a in allowed:
            if a in raw:
                v = raw[a]
                if given_no_blackjack:
                    if natural and a == "stand":  # a tied natural is settled, not lost
                        v = (v - natural_tie_value(self.rules) * beta) / p
                    else:
                        v = (v + 1.0 - p) / p
            elif a == "split":
                assert split is not None    # (computed when split is allowed)
                v, beta_s = split
                if given_no_blackjack:
                    v = (v + beta_s) / (1.0 - beta_s)
            else:  # surrender
                v = -0.5 if given_no_blackjack else surrender
            values[a] = v
        return ActionValues(values, cards=cards, dealer=key, given_no_blackjack=given_no_blackjack,
                            split_strategy=self.split)

    def best_action(self, cards, dealer) -> str:
        """The composition-dependent optimal action for this hand against the dealer."""
        return self.hand_ev(cards, dealer, given_no_blackjack=False).best

    def insurance_ev(self, cards=()) -> EV:
        """EV per unit of an insurance bet (pays 2:1) against a dealer ace, with the given
        cards (e.g. the player's hand) and the ace removed from the shoe: unconditioned
        (the bet is settled on the hole card, so it cannot be given no blackjack)."""
        if exposed(self.rules):
            raise ValueError("insurance: both dealer cards are face up in this game, so no "
                             "insurance is offered")
        removed = ranks(cards, field="cards")
        if 1 not in self._engines:
            raise ValueError("insurance: the shoe cannot deal the dealer an ace")
        if not self.shoe.is_infinite:
            need = counts_of(removed + (1,))
            for r, k in enumerate(need):
                if k > self.shoe.counts[r]:
                    raise ValueError(f"cards: the shoe holds {self.shoe.counts[r]:g} x "
                                     f"{label(r + 1)}, the cards and the dealer's ace need {k}")
        elif any(self.shoe.counts[c - 1] <= 0 for c in removed):
            raise ValueError("cards: this infinite shoe never deals some of these cards")
        left = self.shoe.remove(*(removed + (1,))) if not self.shoe.is_infinite else self.shoe
        if left.size <= 0:
            raise ValueError("cards: no card would be left for the dealer's hole card")
        p_ten = left.probabilities()[9]
        return EV(3.0 * p_ten - 1.0, False)

    # ---- strategies --------------------------------------------------------------

    @property
    def strategy(self) -> StrategyChart:
        """The total-dependent basic-strategy chart with composition-dependent exceptions
        (built once, on first use; safe to ask from several threads)."""
        if self._strategy is None:
            with self._strategy_lock:
                if self._strategy is None:
                    self._strategy = basic_strategy(self, no_das=self._no_das_solution())
        return self._strategy

    def _no_das_solution(self):
        """The same solve without double after split, which the chart needs to mark the
        splits that are right only because of it (None where that cannot arise)."""
        rules = self.rules
        if rules.hole_card == "exposed" or not rules.double_after_split or rules.max_split_hands < 2:
            return None
        # only the pairs' values are needed: engines that compute them on demand, not a
        # whole second solve (which would also run every round)
        return PairsWithoutDAS(self)

    def evaluate(self, strategy) -> float:
        """Overall EV (unconditioned) of the round when the player follows ``strategy``.

        strategy: a ``StrategyChart`` or a callable ``f(cards, dealer, allowed) -> action``
        where cards is a sorted tuple of ranks, dealer the upcard (or the tuple of both
        dealer cards in the exposed game) and allowed the tuple of legal actions; it is
        asked once per hand composition, dealer and kind of decision (the original two
        cards, a later decision, a split hand).  Resplits stay forced.  A strategy whose
        answers depend only on the hand's hard total, whether it holds an ace, whether it
        is the first two cards and which pair (a ``StrategyChart``, or a class declaring
        ``total_dependent = True``) is asked once per such kind of hand instead.
        """
        return EV(evaluate_policy(self.rules, self.shoe, strategy, deal=self.deal), False)

    def outcome_distribution(self, strategy="optimal", *, insurance=False, spots=1,
                             threads=None, exact_splits=True, exact_spots=False):
        """The distribution of a round's net outcome in initial bets (an
        ``OutcomeDistribution``): unconditioned (dealer naturals included); its mean equals
        ``expected_value`` (or ``evaluate(strategy)``) to about 1e-15; ``.exact`` says
        whether the probabilities are exact, ``.method`` how they were combined when not,
        ``.variance_exact`` whether the SD is.  strategy: "optimal" (this solve's play,
        split class ``self.split``), a ``StrategyChart`` or a callable as for ``evaluate``;
        spots: 1..3 hands against one dealer.  Details: ``bjsolve.distribution``."""
        from .distribution import outcome_distribution
        return outcome_distribution(self, strategy, insurance=insurance, spots=spots,
                                    threads=threads, exact_splits=exact_splits,
                                    exact_spots=exact_spots)


class PairsWithoutDAS:
    """The unconditioned values of the pairs when doubling after a split is not allowed,
    for ``_mark_das_splits``: the same rules and shoe without DAS, with engines that
    compute a pair's split on demand instead of a whole second solve.  ``hand_ev`` gives
    what ``Solution.hand_ev(pair, key, given_no_blackjack=False)`` would.  Only the split
    depends on DAS: the other actions' values are the solution's own."""

    def __init__(self, solution):
        self.rules = solution.rules.replace(double_after_split=False)
        self.playable_keys = solution.playable_keys
        self._solution = solution
        self._engines = make_engines(self.rules, solution.shoe, SPLIT_CLASSES[solution.split])

    def prepare(self, needed, threads: int | None = None) -> None:
        """Value the splits of ``needed`` [(dealer key, pair rank)] ahead, in parallel
        threads (one per engine at a time; the engines keep the values)."""
        by_key: dict = {}
        for key, pair in needed:
            by_key.setdefault(key, []).append(pair)

        run_units(by_key, lambda key: [self._engines[key].split_ev(pair)
                                       for pair in by_key[key]], threads)

    def hand_ev(self, cards, key, *, given_no_blackjack=False) -> dict:
        if given_no_blackjack or len(cards) != 2 or cards[0] != cards[1]:
            raise ValueError("PairsWithoutDAS gives the unconditioned values of pairs only")
        values = dict(self._solution.hand_ev(cards, key, given_no_blackjack=False))
        if "split" in values:
            values["split"] = self._engines[key].split_ev(cards[0])[0]
        return values


def _restore_solution(rules, shoe, split, ev_by_dealer, strategy):
    """Unpickle a Solution: fresh (empty) engines, the round values as they were."""
    deal = Deal(rules, shoe)
    sol = Solution(rules, shoe, split, make_engines(rules, shoe, SPLIT_CLASSES[split], deal),
                   ev_by_dealer, deal)
    sol._strategy = strategy
    return sol


def natural_tie_value(rules: Rules) -> float:
    """What a player natural wins against a dealer natural: a push (0) unless the dealer
    wins ties, then ``Rules.natural_tie`` says (lose -1, push 0, win the natural's payout)."""
    if not rules.dealer_wins_ties:
        return 0.0
    return {"push": 0.0, "lose": -1.0, "win": rules.blackjack_payout}[rules.natural_tie]


def natural_dealer_value(rules: Rules, deal: Deal, key) -> float:
    """E[round] when the exposed dealer cards are a natural: every hand loses 1 but a player
    natural, which gets ``natural_tie_value``."""
    weights = deal.hand_weights(key)
    total = sum(weights.values())
    tie = natural_tie_value(rules)
    return sum(w * (tie if is_natural(h) else -1.0) for h, w in weights.items()) / total


def make_engine(params: dict, shoe: Shoe, key):
    """The compiled engine of one dealer key (``params``: ``kernel_rules``)."""
    return UpcardEngine(shoe.kernel_weights(), key, params, shoe.is_infinite,
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


def solve(rules: Rules | None = None, shoe: Shoe | None = None, *, split: str = "CDZ-",
          threads: int | None = None) -> Solution:
    """Solve a rule set exactly.

    rules: a ``Rules`` (default ``Rules()``).
    shoe: the analysis shoe (default: the full shoe of ``rules.decks``; any composition, or
        ``Shoe.infinite()``).  A shoe given is the shoe solved: ``rules.decks`` is then not
        used (``solve(Rules(decks=1), Shoe.decks(6))`` is a six-deck solve).
    split: post-split strategy class, "CDZ-", "CDP1" or "CDP".  The classes are heuristics
        for play after a split, not bounds of one another: CDP's round EV is usually the
        highest, but on some depleted shoes it comes out below CDP1's or CDZ-'s (see
        docs/split-classes.md).
    threads: how many threads solve the upcards in parallel (None: every core; 1: the
        calling thread only).  The results do not depend on it, bit for bit.
    """
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a bjsolve.Rules, got {type(rules).__name__}")
    split = check_split_class(split)
    check_threads(threads)
    shoe = resolve_shoe(rules, shoe)
    if shoe.size < 10:
        raise ValueError(f"shoe too small for a round: {shoe.size:g} cards (at least 10 needed)")
    deal = Deal(rules, shoe)
    if deal.may_run_out:
        warnings.warn(f"a round could run out of cards in this {shoe.size:g}-card shoe: the values "
                      f"follow the analyzers' degenerate conventions (a dealer who must draw "
                      f"from an empty shoe busts) and describe no real game",
                      RuntimeWarning, stacklevel=2)
    engines, values = solve_engines(rules, shoe, SPLIT_CLASSES[split], deal, threads, kind=split)
    return Solution(rules, shoe, split, engines, values, deal)


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
    if _total_dependent(strategy):
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
