"""Memory recycled between solves, and the thread dispatch.

The expected values come from the same solve computed another way: on freshly allocated
memo tables (after the recycled blocks are released) against tables recycled from other
solves, and with one thread against two.
"""
import gc
import importlib

import pytest

import bjcore
from bjsolve import Rules, Shoe, solve
from bjsolve.exact.scheduler import WORK_ORDER as _WORK_ORDER


def _values(sol):
    out = [float(sol.expected_value)] + [float(v) for v in sol.ev_by_dealer.values()]
    for dealer in sol.dealer_keys[:4]:
        out += [float(v) for v in sol.hand_ev((3, 5), dealer, given_no_blackjack=False).values()]
        out += [float(v) for v in sol.hand_ev((8, 8), dealer, given_no_blackjack=False).values()]
    return out


def test_recycled_tables_give_the_values_of_fresh_ones():
    """Recycled blocks still hold another solve's keys and values: every table must be
    cleared before reuse, or the values below would differ."""
    rules, shoe = Rules(decks=1), Shoe.decks(1).remove(5, 5, 10)
    gc.collect()
    bjcore.release_memory()
    fresh = _values(solve(rules, shoe=shoe, split="CDP", threads=1))
    gc.collect()
    # other solves of the same size leave their blocks behind, then the solve again
    for other in (Rules(decks=1, hit_soft_17=True), Rules(decks=1, double="10-11")):
        solve(other, shoe=shoe, split="CDP", threads=2)
    gc.collect()
    assert bjcore.recycled_bytes() > 0
    assert _values(solve(rules, shoe=shoe, split="CDP", threads=2)) == fresh   # bit for bit
    assert _values(solve(rules, shoe=shoe, split="CDP", threads=1)) == fresh


def test_recycled_memory_is_bounded_and_can_be_released():
    for _ in range(3):
        solve(Rules(decks=2), split="CDP1", threads=2)
    gc.collect()
    kept = bjcore.recycled_bytes()
    assert 0 < kept <= 256 << 20
    # the tables' and the rows' blocks, all of them, released by the one call
    assert bjcore.release_memory() == kept
    assert bjcore.recycled_bytes() == 0


def test_importing_changes_nothing_in_the_process():
    """Importing bjsolve and the kernels leaves malloc's settings alone and uses no pool:
    the first solve tunes the allocator (docs/algorithms.md, "Side effects")."""
    import subprocess
    import sys
    import textwrap
    script = textwrap.dedent('''
        import platform, signal
        sigint = signal.getsignal(signal.SIGINT)   # (ignored when the tests run in background)
        import bjsolve, bjcore
        for name in bjcore.__all__:   # (each loads its compiled module: all of them)
            getattr(bjcore, name)
        assert not bjcore.keeps_freed_memory(), "tuned on import"
        assert signal.getsignal(signal.SIGINT) == sigint
        assert bjcore.recycled_bytes() == 0
        bjsolve.solve(bjsolve.Rules(decks=1), threads=1)
        assert bjcore.keeps_freed_memory() == (platform.libc_ver()[0] == "glibc")
    ''')
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]


def test_work_order_names_every_upcard_once():
    assert sorted(_WORK_ORDER) == list(range(1, 11))


def test_two_threads_on_a_shoe_without_some_upcards():
    """Upcards the shoe cannot deal are skipped by the dispatch, whatever the order."""
    shoe = Shoe([4, 0, 4, 0, 4, 4, 0, 4, 4, 16])
    one = solve(Rules(decks=1), shoe=shoe, threads=1)
    two = solve(Rules(decks=1), shoe=shoe, threads=2)
    assert sorted(one.ev_by_dealer) == [1, 3, 5, 6, 8, 9, 10]
    assert _values(two) == _values(one)


def test_recorded_costs_order_the_next_solve_longest_first():
    scheduler = importlib.import_module("bjsolve.exact.scheduler")
    rules = Rules(decks=1, max_split_hands=2)
    sol = solve(rules, split="CDP1", threads=2)
    key = (rules, "CDP1", 52)
    costs = scheduler.PLANNER.recorded_costs(*key)
    assert sorted(costs) == sorted(sol.ev_by_dealer)      # every upcard timed
    assert all(c >= 0.0 for c in costs.values())
    # pretend the costs were reversed: the next order follows them, largest first
    fake = {k: float(i) for i, k in enumerate(_WORK_ORDER)}
    scheduler.PLANNER.unit_costs[key] = fake
    order = scheduler.PLANNER.work_order(sol._engines, key)
    assert order == sorted(fake, key=lambda k: -fake[k])
    again = solve(rules, split="CDP1", threads=2)
    assert list(again.ev_by_dealer.items()) == list(sol.ev_by_dealer.items())


def test_two_threads_get_the_best_split_of_the_known_costs():
    """plan_shares against every split of the keys, listed with itertools: the calling
    thread's share and the helper's finish first, the helper starting ``head_start`` late."""
    import itertools
    import random
    scheduler = importlib.import_module("bjsolve.exact.scheduler")
    rng = random.Random(7)
    for n in (2, 3, 7, 10):
        for head_start in (0.0, 0.3):
            for _ in range(10):
                keys = list(range(1, n + 1))
                costs = {k: rng.choice([rng.random(), 1.0, 2.0]) for k in keys}
                order = sorted(keys, key=lambda k: -costs[k])
                caller, helper = scheduler.plan_shares(order, costs, 2, head_start)
                assert sorted(caller + helper) == keys          # every key once
                assert all(share == [k for k in order if k in share] for share in (caller, helper))
                total = sum(costs.values())
                best = min(max(sum(costs[k] for k in part),
                               total - sum(costs[k] for k in part) + head_start)
                           for size in range(n + 1) for part in itertools.combinations(keys, size))
                finish = max(sum(costs[k] for k in caller), sum(costs[k] for k in helper) + head_start)
                assert finish == pytest.approx(best, rel=1e-12, abs=1e-12)
    # unknown costs: one queue; more threads: largest first to the least loaded
    assert scheduler.plan_shares([3, 1, 2], None, 2) == [[3, 1, 2]]
    assert scheduler.plan_shares([3, 1, 2], {3: 5.0, 1: 3.0, 2: 2.0}, 3) == [[3], [1], [2]]
    four = {3: 5.0, 1: 3.0, 2: 2.0, 4: 1.0}
    assert scheduler.plan_shares([3, 1, 2, 4], four, 3) == [[3], [1], [2, 4]]
    assert scheduler.plan_shares([3, 1, 2, 4], four, 3, 4.0) == [[3, 4], [1], [2]]


def test_a_plan_is_reused_until_it_is_old_or_the_costs_move_far():
    """The plan of a cost key serves up to _PLAN_REUSES more solves; a plan is made anew
    after that, for other keys or thread counts, and when the costs have moved so far that
    the old plan would finish more than _PLAN_SLACK later against a perfect split."""
    scheduler = importlib.import_module("bjsolve.exact.scheduler")
    made = []

    def counting_plan(*args, **kwargs):
        made.append(True)
        return plan_shares(*args, **kwargs)

    plan_shares = scheduler.plan_shares
    cost_key = ("test", "plan reuse")
    costs = {1: 4.0, 2: 3.0, 3: 3.0, 4: 2.0}
    order = [1, 2, 3, 4]
    try:
        scheduler.plan_shares = counting_plan
        first = scheduler.PLANNER.reused_or_new_plan(cost_key, order, costs, 2)
        assert sorted(map(sum, first)) == [5, 5] and len(made) == 1   # {1, 4} and {2, 3}
        for _ in range(scheduler.ThreadPlanner.REUSES):
            first[0].pop()   # the threads pop keys off their shares: the kept plan is a copy
            first = scheduler.PLANNER.reused_or_new_plan(cost_key, order, costs, 2)
        assert len(made) == 1 and sorted(map(sum, first)) == [5, 5]
        scheduler.PLANNER.reused_or_new_plan(cost_key, order, costs, 2)         # too old
        assert len(made) == 2
        scheduler.PLANNER.reused_or_new_plan(cost_key, order, costs, 3)         # other threads
        scheduler.PLANNER.reused_or_new_plan(cost_key, order[:3], costs, 3)     # other keys
        assert len(made) == 4
        scheduler.PLANNER.reused_or_new_plan(cost_key, order, costs, 2)         # {1, 4}, {2, 3}
        assert len(made) == 5
        slightly = {**costs, 1: 4.2}   # {1, 4} finishes at 6.2 of 12.2: 1.6% late
        scheduler.PLANNER.reused_or_new_plan(cost_key, order, slightly, 2)
        assert len(made) == 5
        far = {**costs, 1: 6.0}        # {1, 4} at 8 of 14: 14% late
        scheduler.PLANNER.reused_or_new_plan(cost_key, order, far, 2)
        assert len(made) == 6
    finally:
        scheduler.plan_shares = plan_shares
        scheduler.PLANNER.plans.pop(cost_key, None)


def test_a_share_whose_thread_never_starts_is_done_by_the_caller():
    """With the costs known each thread has its share; when the pool's helper is busy
    elsewhere, the calling thread takes the helper's share too."""
    import threading
    scheduler = importlib.import_module("bjsolve.exact.scheduler")
    cost_key = ("test", "shares")
    scheduler.PLANNER.unit_costs[cost_key] = {k: float(k) for k in range(1, 11)}
    release = threading.Event()
    busy = scheduler._helper_pool(1).submit(release.wait, 60)
    try:
        caller = threading.get_ident()
        ran_by = {}

        def compute(k):
            ran_by[k] = threading.get_ident()
            return -k

        got = scheduler.run_units(range(1, 11), compute, threads=2, cost_key=cost_key)
        assert got == {k: -k for k in scheduler.PLANNER.work_order(range(1, 11))}
        assert set(ran_by.values()) == {caller}
    finally:
        release.set()
        busy.result()
        scheduler.PLANNER.unit_costs.pop(cost_key, None)
        scheduler.PLANNER.thread_loads.pop(cost_key, None)


def _malloc_in_use():
    """Bytes malloc has handed out and not had back (glibc's mallinfo2), or None."""
    import ctypes
    import ctypes.util
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallinfo2 = libc.mallinfo2
    except (OSError, AttributeError):
        return None

    class MallInfo2(ctypes.Structure):
        _fields_ = [(name, ctypes.c_size_t) for name in (
            "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks",
            "uordblks", "fordblks", "keepcost")]
    mallinfo2.restype = MallInfo2
    info = mallinfo2()
    return info.uordblks + info.hblkhd


def test_repeated_resplit_solves_do_not_leak():
    """The split kernels' per-pair buffers are freed with their engine: C memory in use
    stays flat across many solves (a C++ array member once leaked ~0.1 MB per 6-deck
    solve, 4 MB over these 40)."""
    if _malloc_in_use() is None:
        pytest.skip("needs glibc's mallinfo2")
    rules = Rules(decks=6)
    for _ in range(5):
        solve(rules, threads=1)
    gc.collect()
    before = _malloc_in_use()
    for _ in range(40):
        solve(rules, threads=1)
    gc.collect()
    grown = _malloc_in_use() - before
    assert grown < 1_000_000, f"{grown / 2**20:.2f} MB more in use after 40 solves"


def test_units_run_in_any_number_of_threads_with_the_same_result():
    """run_units hands every key to exactly one thread and returns the values in one fixed
    order, whatever the number of threads; a shared pool serves several calls."""
    scheduler = importlib.import_module("bjsolve.exact.scheduler")
    keys = list(range(1, 11))
    expected = {k: k * k for k in scheduler.PLANNER.work_order(keys)}
    for threads in (1, 2, 3, 8):
        got = scheduler.run_units(keys, lambda k: k * k, threads)
        assert list(got.items()) == list(expected.items())


def test_an_error_in_a_helper_thread_is_raised_and_the_pool_recovers():
    import threading
    scheduler = importlib.import_module("bjsolve.exact.scheduler")
    caller = threading.get_ident()

    for _ in range(3):
        helper_started = threading.Event()

        def compute(k):
            if threading.get_ident() != caller:
                helper_started.set()
                raise ValueError(f"unit {k} failed in a helper")
            helper_started.wait(timeout=60)   # the caller holds its key until then
            return k

        with pytest.raises(ValueError, match="failed in a helper"):
            scheduler.run_units(range(1, 11), compute, threads=2)
    assert scheduler.run_units(range(1, 11), lambda k: -k, threads=2)[6] == -6


def test_an_interrupted_caller_stops_the_helpers_walks():
    """A KeyboardInterrupt in the calling thread sets the run's stop token, bound to every
    thread of the run (the helpers' game walks poll it in their long loops), before the
    caller waits for the keys the helpers hold; a later run has a token of its own."""
    import threading
    from bjcore import bind_stop
    scheduler = importlib.import_module("bjsolve.exact.scheduler")
    caller = threading.get_ident()
    seen = []

    def compute(k):
        token = bind_stop(None)   # (the run's token, put back below)
        bind_stop(token)
        if threading.get_ident() != caller:
            seen.append(token.is_set)
            for _ in range(6000):   # a helper's long key: until the token says stop
                if token.is_set:
                    break
                threading.Event().wait(0.01)
            seen.append(token.is_set)
            return k
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        scheduler.run_units(range(1, 11), compute, threads=2)
    assert seen == [] or seen[-1] is True
    assert bind_stop(None) is None   # (the caller's binding put back)
    assert scheduler.run_units(range(1, 11), lambda k: -k, threads=2)[6] == -6


def test_a_stopped_game_walk_raises_and_its_engine_recovers():
    """A walk whose stop token is set gives up its long loops (BB+1's split sums) with
    KeyboardInterrupt and drops its tables; the engine then values as a fresh one."""
    from bjcore import StopToken, bind_stop
    from bjsolve.exact.engines import make_engine
    from bjsolve.exact.kernel_rules import SPLIT_CLASSES, kernel_rules
    rules = Rules(decks=1, hole_card="enhc", natural_loss="bb+1", max_split_hands=4)
    params = kernel_rules(rules, SPLIT_CLASSES["CDZ-"])
    engine = make_engine(params, Shoe.decks(1), 1)
    token = StopToken()
    token.set()
    outer = bind_stop(token)
    try:
        with pytest.raises(KeyboardInterrupt):
            engine.split_ev(2)   # (seconds of sums: stopped at the first look)
    finally:
        bind_stop(outer)
    fresh = make_engine(params, Shoe.decks(1), 1)
    assert engine.split_ev(8) == fresh.split_ev(8)
    assert engine.hand_values((0, 0, 0, 0, 0, 1, 0, 0, 0, 1)) == fresh.hand_values(
        (0, 0, 0, 0, 0, 1, 0, 0, 0, 1))


def test_a_forked_child_solves_with_threads():
    """The helper threads do not survive fork(): a child starts a pool of its own instead
    of queueing work for threads it does not have (which would hang)."""
    import subprocess
    import sys
    import textwrap
    script = textwrap.dedent('''
        import os, sys
        from bjsolve import Rules, solve
        rules = Rules(decks=1, max_split_hands=2)
        parent = float(solve(rules, threads=2).expected_value)
        pid = os.fork()
        if pid == 0:
            child = float(solve(rules, threads=2).expected_value)
            os._exit(0 if child == parent else 3)
        _, status = os.waitpid(pid, 0)
        sys.exit(os.waitstatus_to_exitcode(status))
    ''')
    if not hasattr(__import__("os"), "fork"):
        pytest.skip("needs os.fork")
    done = subprocess.run([sys.executable, "-c", script], timeout=300)
    assert done.returncode == 0


def test_memory_given_back_to_the_system_changes_no_value():
    """Freed memory kept by malloc between solves (see src/bjcore/_core.pyx) and memory
    given back and faulted in afresh give the same values, bit for bit."""
    rules = Rules(decks=2)
    kept = _values(solve(rules, split="CDP1", threads=2))
    gc.collect()
    bjcore.release_memory()
    assert _values(solve(rules, split="CDP1", threads=2)) == kept
