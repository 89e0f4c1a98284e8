"""The threads of a solve: the dealer keys shared out over the calling thread and a pool of
helpers, longest first, planned by what each key cost the last time (``ThreadPlanner``:
what was learned; ``run_units``: the run)."""
from __future__ import annotations

import dataclasses
import functools
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor, wait

from bjcore import StopToken, bind_stop

from ..model.rules import Rules
from .kernel_rules import check_threads

# The threads take the dealer keys longest first, so that they finish together (from one
# queue until the keys' costs are known, then from planned shares: ``plan_shares``).
# Before any cost is known, this order: the
# measured CPU time per upcard of a CDZ- solve (1-8 decks) is ace ~19%, each of 7-T
# 12-15%, 2 ~8%, 3 ~7%, 4-6 ~5% each.  CDP costs are flatter (2, 3, A heaviest), so each
# solve records what every key cost (CPU seconds, per thread) and the next solve of the
# same rules, class and shoe size orders its keys by those costs.
WORK_ORDER = (1, 7, 8, 9, 10, 2, 3, 4, 5, 6)


@dataclasses.dataclass
class _KeptPlan:
    workers: int
    gap: float          # how much later than a perfect split it finished when it was made
    shares: tuple       # the threads' keys, as tuples (each solve takes copies)
    uses: int = 0       # solves it has served since


class ThreadPlanner:
    """What the solves learned about their dealer keys' costs, and the plans made from
    them: the state behind ``run_units``'s thread balance.  ``cost key`` (hashable, e.g.
    rules, class and shoe size) -> {dealer key: CPU seconds} (``unit_costs``), the threads'
    loads of the last run (``thread_loads``) and the plan last made (``plans``); the
    ``KEPT`` most recent cost keys are remembered.  One per process (``PLANNER``) unless a
    caller passes its own; safe to share between threads (solves may run in several at once).
    """

    KEPT = 64           # cost keys remembered (the oldest is dropped)
    REUSES = 7          # solves a plan serves after the one it was made for
    SLACK = 0.10        # how much later than when made a reused plan may finish

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.unit_costs: dict = {}     # cost key -> {dealer key: CPU seconds of its value}
        self.thread_loads: dict = {}   # cost key -> [CPU seconds of each thread, caller first]
        self.plans: dict = {}          # cost key -> _KeptPlan
        self.helper_start = 0.0        # seconds from submitting a helper to its first key

    def costs_of(self, cost_key) -> dict | None:
        with self.lock:
            return self.unit_costs.get(cost_key) if cost_key is not None else None

    def work_order(self, keys, cost_key=None) -> list:
        """The dealer keys (``keys``: any iterable of them, e.g. a dict of engines) in the
        order the threads take them: by the costs recorded under ``cost_key`` (largest
        first), else by ``WORK_ORDER``."""
        keys = list(keys)
        costs = self.costs_of(cost_key)
        order = [u for u in WORK_ORDER if u in keys]
        order += sorted((k for k in keys if k not in order), key=str)
        if costs and all(k in costs for k in order):
            order.sort(key=lambda k: -costs[k])   # stable: ties keep the default order
        return order

    def reused_or_new_plan(self, cost_key, order: list, costs: dict | None, workers: int,
                           head_start: float = 0.0) -> list:
        """``plan_shares(order, costs, workers, head_start)``, or the plan last made under
        ``cost_key`` while it has served fewer than ``REUSES`` solves, shares out the same
        keys to as many threads and, under ``costs``, finishes within ``SLACK`` of the gap
        to a perfect split it had when made (fresh lists either way)."""
        if cost_key is None or not _plannable(order, costs, workers):
            return plan_shares(order, costs, workers, head_start)
        assert costs is not None    # (_plannable)
        with self.lock:
            kept = self.plans.get(cost_key)
            if (kept is not None and kept.workers == workers and kept.uses < self.REUSES
                    and sorted(k for share in kept.shares for k in share) == sorted(order)
                    and _finish_gap(kept.shares, costs, head_start) <= kept.gap + self.SLACK):
                kept.uses += 1
                return [list(share) for share in kept.shares]
        shares = plan_shares(order, costs, workers, head_start)
        with self.lock:
            self.plans.pop(cost_key, None)
            self.plans[cost_key] = _KeptPlan(workers, _finish_gap(shares, costs, head_start),
                                             tuple(tuple(share) for share in shares))
            while len(self.plans) > self.KEPT:
                del self.plans[next(iter(self.plans))]
        return shares

    def note_helper_start(self, seconds: float) -> None:
        """A helper started ``seconds`` after it was submitted (kept as a running mean)."""
        with self.lock:
            self.helper_start = (self.helper_start + seconds) / 2

    def record(self, cost_key, costs: dict, loads: list) -> None:
        """Keep what each key cost (averaged with the earlier record) and the threads'
        loads."""
        with self.lock:
            earlier = self.unit_costs.pop(cost_key, None) or {}
            self.unit_costs[cost_key] = {k: (c + earlier[k]) / 2 if k in earlier else c
                                         for k, c in costs.items()}
            self.thread_loads.pop(cost_key, None)
            self.thread_loads[cost_key] = loads
            while len(self.unit_costs) > self.KEPT:
                del self.unit_costs[next(iter(self.unit_costs))]
            while len(self.thread_loads) > self.KEPT:
                del self.thread_loads[next(iter(self.thread_loads))]

    def recorded_costs(self, rules: Rules, kind: str, shoe_size: float) -> dict | None:
        """{dealer key: CPU seconds} that solves of these rules, kind (split class or
        "policy") and shoe size spent on each key's work (the last solve's times averaged
        with the earlier record, so that one disturbed solve does not reorder the next), or
        None (for benchmarks: the thread balance they allow does not depend on how busy the
        machine is)."""
        with self.lock:
            costs = self.unit_costs.get((rules, kind, shoe_size))
            return dict(costs) if costs is not None else None

    def recorded_thread_loads(self, rules: Rules, kind: str, shoe_size: float) -> list | None:
        """CPU seconds that each thread of the last solve of these rules, kind and shoe size
        spent on its keys, the calling thread's first, or None (for benchmarks: with the
        caller's CPU time of the whole solve, the critical path of the solve in CPU time)."""
        with self.lock:
            loads = self.thread_loads.get((rules, kind, shoe_size))
            return list(loads) if loads is not None else None


PLANNER = ThreadPlanner()    # the process's: every solve's costs, unless given another


# Largest first from one shared queue ("longest processing time first") leaves the two
# threads of a 10-upcard solve up to ~5 % apart, the ace's 18 % share being hard to pair
# (6 decks, one split: 1.93x of 2 at best).  With the upcards' costs known from an earlier
# solve, two threads get the best split of them found by trying every one (2^9 for ten
# upcards; more threads, or many keys, take them largest first to the least loaded), and a
# thread whose share is done takes the smallest key left of the busiest share, so that a
# thread held up by the machine is still helped.  The plan gives the calling thread the
# time a helper takes to start (a sleeping thread is woken, ~0.1 ms) as extra work.
_EXACT_SPLIT_KEYS = 16
# Planning anew costs ~80 us inside a solve (numpy on cold caches), ~1% of a one-deck solve
# on two threads.  The recorded costs are measurements: a key's varies by 4-7% (quartiles)
# from solve to solve on a quiet machine, so a plan made for the last costs is no better for
# the next solve than one made a few solves ago.  A plan is reused for
# ``ThreadPlanner.REUSES`` more solves of its cost key, unless the costs have moved so far
# that it would finish more than ``ThreadPlanner.SLACK`` later (against a perfect split)
# than it did when it was made.


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
    # (lazy: a solve without recorded costs needs no numpy)
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
    # (lazy: a solve without recorded costs needs no numpy)
    import numpy as np
    rows = np.arange(1 << (n - 1))[:, None]
    bits = (rows >> np.arange(n - 1)[None, :]) & 1
    return np.hstack([np.ones((len(rows), 1)), bits]).astype(float)


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


def run_units(keys, compute, threads: int | None = None, cost_key=None,
              planner: ThreadPlanner | None = None) -> dict:
    """{key: compute(key)} for every dealer key, in up to ``threads`` threads (None: every
    core): the calling thread and helpers from the pool take the keys from one queue,
    longest first, or, when the keys' costs are known, each from its share of them
    (``plan_shares``) and then from the busiest share.  ``compute`` must not depend on
    which thread runs it or when; then the values do not depend on the number of
    threads, bit for bit.  ``cost_key`` (hashable, e.g. rules, class and shoe size):
    record what each key cost (CPU seconds) under it, and plan the next run with the
    same key by those costs, in ``planner`` (default: the process's, ``PLANNER``).

    Ctrl-C: a game walk in the calling (main) thread looks for it in its long loops and
    raises KeyboardInterrupt; when the calling thread stops so (or any key fails), the run's
    ``StopToken`` tells the helpers' walks to give up theirs, so that the run ends in
    milliseconds rather than when the keys they hold are done (a six-deck BB+1 key takes
    minutes)."""
    planner = PLANNER if planner is None else planner
    order = planner.work_order(keys, cost_key)
    workers = max(1, min(len(order), check_threads(threads)))
    costs_known = planner.costs_of(cost_key)
    shares = planner.reused_or_new_plan(cost_key, order, costs_known, workers,
                                        planner.helper_start)
    costs: dict = {}
    values: dict = {}
    queue_lock = threading.Lock()
    failed: list = []
    stop = StopToken()   # (bound to every thread of the run: bjcore.bind_stop)

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
            planner.note_helper_start(time.perf_counter() - submitted)
        outer = bind_stop(stop)
        try:
            start = time.thread_time()   # (each reading is a system call: one per key)
            while not failed:
                u = next_key(worker)
                if u is None:
                    break
                try:
                    values[u] = compute(u)
                except BaseException:
                    failed.append(True)   # the others stop taking keys
                    stop.set()            # and give up the ones they hold
                    raise
                end = time.thread_time()
                costs[u] = end - start
                load += costs[u]
                start = end
            return load
        finally:
            bind_stop(outer)

    helpers = [] if workers == 1 else [
        _helper_pool(workers - 1).submit(drain, worker, time.perf_counter())
        for worker in range(1, workers)]
    try:
        loads = [drain(0)]
    except BaseException:
        failed.append(True)
        stop.set()   # (a Ctrl-C between keys, too)
        raise
    finally:
        # helpers still queued behind another solve's work are not needed any more; the
        # others finish the key they hold
        started = [helper for helper in helpers if not helper.cancel()]
        wait(started)
    loads += [helper.result() for helper in started]   # (a helper's error is raised here)
    if cost_key is not None:
        planner.record(cost_key, costs, loads)
    return {u: values[u] for u in planner.work_order(keys)}   # in an order that never varies
