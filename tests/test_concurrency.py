"""A Solution shared between threads gives the same results, bit for bit, as sequential
calls; separate solves in threads agree with solving one after another.

The compiled engines keep per-hand state and memo tables and release the GIL, so before
``Solution`` took a lock per engine, threads sharing one solution crashed the interpreter
(segfault, "double free"), hung, or got another hand's values.  The hammering runs in a
child process so that a crash fails this test instead of killing pytest.
"""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

HAMMER = textwrap.dedent(r'''
    import random, sys, threading, warnings
    warnings.simplefilter("ignore")
    from bjsolve import Rules, Shoe, solve
    from bjsolve.counting.removal import fixed_strategy_ev
    from bjsolve.model.hands import compositions

    ROUNDS, THREADS, GAMES = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "games"
    RULES = [Rules(decks=1), Rules(decks=1, surrender="late", hit_soft_17=True),
             Rules(decks=2, hole_card="enhc", double_after_split=False)]
    SHOES = [None, Shoe.decks(1).remove(2, 5, 10), None]
    if GAMES:   # the game engine's solutions: its value walk and its law walk shared
        RULES = [Rules.preset("free-bet", decks=1),
                 Rules.preset("spanish-21", decks=1, redoubles=1),
                 Rules.preset("free-bet", decks=2, hole_card="enhc")]

    def hands_of(rules, shoe):
        limit = (shoe or Shoe.decks(rules.decks)).counts
        return [c for c in compositions([k - 1 for k in limit], max_hard=20, min_cards=2)
                if len(c) <= 4]

    def work(sol, jobs):
        """Run the jobs on one solution; return {job: plain comparable result}."""
        out = {}
        for job in jobs:
            kind = job[0]
            if kind == "ev":
                v = sol.hand_ev(job[1], job[2])
                out[job] = (tuple(v.items()), v.given_no_blackjack)
            elif kind == "best":
                out[job] = sol.best_action(job[1], job[2])
            elif kind == "strategy":
                chart = sol.strategy
                out[job] = (repr(sorted(chart.rows.items())),
                            tuple(str(e) for e in chart.exceptions))
            elif kind == "law":   # the round's law walks the engines' hands too
                law = sol.outcome_distribution()
                out[job] = (float(law.mean), float(law.variance))
            elif kind == "evaluate":
                out[job] = float(sol.evaluate(sol.strategy))
            elif kind == "fixed":  # records the solve's decisions in its engines, once
                removed = (shoe or Shoe.decks(sol.rules.decks)).remove(job[1])
                out[job] = float(fixed_strategy_ev(sol, removed))
            elif kind == "solve":  # a different solve in this thread
                other = solve(RULES[job[1]], shoe=SHOES[job[1]], split=job[2])
                out[job] = (float(other.expected_value), tuple(other.ev_by_upcard.items()),
                            tuple(other.hand_ev((5, 6, 2), 10).items()))
        return out

    rng = random.Random(20261122)
    failures = []
    for rnd in range(ROUNDS):
        which = rnd % len(RULES)
        rules, shoe = RULES[which], SHOES[which]
        hands = hands_of(rules, shoe)
        jobs = [("strategy",), ("fixed", 5)]
        for _ in range(240):
            jobs.append((rng.choice(("ev", "ev", "ev", "best")), rng.choice(hands),
                         rng.choice((2, 5, 7, 10, 1))))
        extra = [("evaluate",), ("solve", (which + 1) % len(RULES), "CDP1")]
        if GAMES:
            jobs += [("law",)] * 3
        jobs += extra
        # the sequential answers: a fresh solve, every job once, in order
        expected = work(solve(rules, shoe=shoe), jobs)
        shared = solve(rules, shoe=shoe)
        results = [None] * THREADS
        start = threading.Barrier(THREADS)

        def run(i):
            # every thread reads the shared solution; two also evaluate its chart and two
            # run a solve of their own (fewer would not race, more only cost time)
            mine = [j for j in jobs if j not in extra] + ([extra[i % 4]] if i % 4 < 2 else [])
            random.Random(rnd * 100 + i).shuffle(mine)
            mine.insert(0, ("strategy",))  # every thread asks for the chart at once
            start.wait()
            try:
                results[i] = work(shared, mine)
            except Exception as e:  # noqa: BLE001  (reported, then the test fails)
                results[i] = e

        threads = [threading.Thread(target=run, args=(i,)) for i in range(THREADS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for i, got in enumerate(results):
            if isinstance(got, Exception):
                failures.append(f"round {rnd} thread {i}: {type(got).__name__}: {got}")
                continue
            for job, value in got.items():
                if value != expected[job]:
                    failures.append(f"round {rnd} thread {i} {job}: {value!r} != "
                                    f"{expected[job]!r}")
    print(f"{len(failures)} mismatches or errors" if failures else "")
    print("\n".join(failures[:20]) if failures else "OK")
    sys.exit(1 if failures else 0)
''')


def run_hammer(rounds: int, threads: int, env=None, timeout=240, games=False):
    env = dict(os.environ if env is None else env)
    return subprocess.run([sys.executable, "-c", HAMMER, str(rounds), str(threads),
                           "games" if games else "classic"],
                          capture_output=True, text=True, timeout=timeout, env=env)


def test_eight_threads_sharing_one_solution_match_sequential_results():
    try:
        proc = run_hammer(rounds=2, threads=8)
    except subprocess.TimeoutExpired:
        pytest.fail("threads sharing one Solution hung")
    detail = (proc.stdout[-3000:] + proc.stderr[-3000:]).strip()
    assert proc.returncode == 0, f"exit code {proc.returncode} (negative: killed by a signal)\n{detail}"
    assert proc.stdout.strip().endswith("OK"), detail


def test_threads_sharing_one_game_solution_match_sequential_results():
    """The same for the games' engine: hand values, charts, and the round's law (the law
    walk sets and clears the engine's hand, so it takes the engine's lock too)."""
    try:
        proc = run_hammer(rounds=3, threads=4, games=True)
    except subprocess.TimeoutExpired:
        pytest.fail("threads sharing one game Solution hung")
    detail = (proc.stdout[-3000:] + proc.stderr[-3000:]).strip()
    assert proc.returncode == 0, f"exit code {proc.returncode} (negative: killed by a signal)\n{detail}"
    assert proc.stdout.strip().endswith("OK"), detail
