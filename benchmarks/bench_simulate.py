"""Time the compiled real-game simulator, and (``--check``) compare it with the exact engine.

Timing: 6 decks S17 DAS, 75% penetration, one spot, basic strategy with the exact Hi-Lo
index plays (``generate_indices``) and the ramp 1:1,2:2,3:4,4:8, true count from the exact
cards seen, floored.  The game plan (solve, chart, index table, flat arrays) is built once
and timed apart; then ``--rounds`` rounds (default 10 M) run on one thread and on every
core.  Each figure is the median over ``--repeat`` runs after one warm-up.  The CPU time
(all threads) is printed too: rounds per CPU-second is the per-core speed, and on a machine
shared with other work it stays meaningful when wall-clock times do not.  Target
(issue 13): >= 10 M rounds/s on the 2-core machine, i.e. 10 M rounds in <= 38 yardsticks.

Games (``--games``): the same timing for 6D Free Bet H17 (dealer 22 pushes, free doubles
on hard 9-11, free splits of every pair but tens) and 6 Spanish decks H17 Spanish 21 (player
21 wins, the 21 / 6-7-8 / 7-7-7 bonuses, super bonus, 3 redoubles, rescue, double split
aces), the game rules given as the kernel rule dict's keys (``game_rules``); the chart is
the classic game's basic strategy for the same shoe, played in the game, with a simple
after-double choice (redouble 11 or less, rescue 12-16 against 7-A), so the figures are
the simulator's speed, not a strategy's EV.

Check (``--check``): with a fresh shuffle every round, the simulated mean of each rule
set's basic-strategy chart against the chart's exact EV (``Solution.evaluate``); prints
the z-score (|z| > 4 is a disagreement worth a look).

    PYTHONPATH=python:src python benchmarks/bench_simulate.py [--rounds 1e7] [--yardstick 0.0151]
    PYTHONPATH=python:src python benchmarks/bench_simulate.py --games [--rounds 1e7]
    PYTHONPATH=python:src python benchmarks/bench_simulate.py --check --rounds 2e7
"""
from __future__ import annotations

import argparse
import math
import os
import platform
import sys
import time

from _timing import median_time

import bjsolve
from bjsolve import Rules
from bjsolve.simulation.simulator import build_plan, run_local

TARGET_ROUNDS_PER_S = 10e6
TARGET_YARDSTICKS = 38

RULE_SETS = {
    "6D S17 DAS": Rules(decks=6),
    "6D H17 LS": Rules(decks=6, hit_soft_17=True, surrender="late"),
    "1D H17 noDAS SPL1": Rules(decks=1, hit_soft_17=True, double_after_split=False,
                               max_split_hands=2),
    "1D S17 RSA D10": Rules(decks=1, resplit_aces=True, double="10-11"),
    "2D S17 6:5 DAN": Rules(decks=2, blackjack_payout=1.2, double_any_cards=True),
    "infinite S17": Rules(decks=math.inf),
    "enhc 6D": Rules(decks=6, hole_card="enhc"),
    "enhc-obo 2D LS": Rules(decks=2, hole_card="enhc-obo", surrender="late"),
    "early surrender 6D H17": Rules(decks=6, hit_soft_17=True, surrender="early"),
    "HSA RSA 2D": Rules(decks=2, hit_split_aces=True, resplit_aces=True),
    "dealer wins ties 6D": Rules(decks=6, dealer_wins_ties=True),
    "easy (exposed, infinite)": Rules.preset("easy"),
    "exposed 1D ES": Rules(decks=1, hole_card="exposed", surrender="early"),
}


FREE_BET = {"dealer_22_push": 1, "free_double_totals": (1 << 9) | (1 << 10) | (1 << 11),
            "free_split_ranks": 0b1111111110}
SPANISH_21 = {"player_21_wins": 1, "bonus_21": (1.5, 2, 3), "bonus_678": (1.5, 2, 3),
              "bonus_777": (1.5, 2, 3), "super_bonus": 1000, "redoubles": 3,
              "double_rescue": 1, "double_split_aces": 1, "natural_tie_value": 1.5}
GAMES = {
    "6D Free Bet H17": (Rules(decks=6, hit_soft_17=True), None, FREE_BET),
    "6D Spanish 21 H17": (Rules(decks=6, hit_soft_17=True, resplit_aces=True,
                                surrender="late"), [24] * 9 + [72], SPANISH_21),
}


def _after_double(cards, dealer, allowed, split, doubles):
    hard = sum(cards)
    total = hard + 10 if 1 in cards and hard <= 11 else hard
    if "redouble" in allowed and total == hard and total <= 11:
        return "redouble"
    if "rescue" in allowed and 12 <= total <= 16 and dealer in (1, 7, 8, 9, 10):
        return "rescue"
    return "stand"


def games(args) -> None:
    for name, (rules, shoe, game) in GAMES.items():
        t0 = time.perf_counter()
        plan, settings = build_plan(rules, shoe=shoe, penetration=0.75, system="hilo",
                                    ramp="1:1,2:2,3:4,4:8", game_rules=game,
                                    after_double=_after_double)
        print(f"{name}: game plan {time.perf_counter() - t0:.1f} s (once)")
        _time_plan(args, plan, settings)


def timing(args) -> None:
    rules = Rules(decks=6)
    t0 = time.perf_counter()
    plan, settings = build_plan(rules, penetration=0.75, system="hilo", indices=True,
                                ramp="1:1,2:2,3:4,4:8")
    print(f"game plan (solve, chart, Hi-Lo index table, arrays): {time.perf_counter() - t0:.1f} s"
          f" (once)")
    _time_plan(args, plan, settings)
    print(f"target: >= {TARGET_ROUNDS_PER_S / 1e6:g} M rounds/s with all threads "
          f"(10 M rounds in <= {TARGET_YARDSTICKS} yardsticks)")


def _time_plan(args, plan, settings) -> None:
    chunk = 1_000_000
    specs = [(k, min(chunk, args.rounds - k * chunk))
             for k in range((args.rounds + chunk - 1) // chunk)]
    cores = os.cpu_count() or 1
    for threads in sorted({1, cores}):
        cpu = []

        def once():
            c0 = time.process_time()
            run_local(plan, args.seed, specs, threads, None)
            cpu.append(time.process_time() - c0)
        med, best = median_time(once, args.repeat)
        cpu_med = sorted(cpu)[len(cpu) // 2]
        rate = args.rounds / med
        line = (f"{threads} thread{'s' if threads > 1 else ' '}: {args.rounds:,} rounds median "
                f"{med:7.3f} s  min {best:7.3f} s  {rate / 1e6:6.2f} M rounds/s")
        if args.yardstick:
            line += f"  {med / args.yardstick:6.1f} yardsticks"
        line += (f"  | CPU {cpu_med:6.3f} s = {args.rounds / cpu_med / 1e6:5.2f} M rounds per "
                 f"CPU-second")
        print(line)
    done, _ = run_local(plan, args.seed, specs, cores, None)
    from bjsolve.simulation.simulator import _result, merge
    r = _result(merge(done), args.seed, len(done), False, settings)
    print(f"result: mean {r.mean:+.5f} +- {r.se:.5f} units per round, win rate "
          f"{r.win_rate:+.5f} per unit bet, {r.hands / r.rounds:.4f} hands per round")


def check(args) -> int:
    wanted = [w.strip().lower() for w in args.only.split(",") if w.strip()]
    worst = 0.0
    print(f"{'rule set':28s} {'exact EV':>12s} {'simulated':>12s} {'SE':>10s} {'z':>7s}")
    for name, rules in RULE_SETS.items():
        if wanted and not any(w in name.lower() for w in wanted):
            continue
        sol = bjsolve.solve(rules)
        exact = sol.evaluate(sol.strategy)
        r = bjsolve.simulate(rules, rounds=args.rounds, seed=args.seed,
                             penetration="every-round", strategy=sol.strategy)
        z = (r.mean - exact) / r.se
        worst = max(worst, abs(z))
        print(f"{name:28s} {exact:+12.6f} {r.mean:+12.6f} {r.se:10.6f} {z:+7.2f}", flush=True)
    print(f"largest |z| = {worst:.2f}")
    return 0 if worst <= 4 else 1


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=float, default=1e7)
    ap.add_argument("--seed", type=int, default=20240601)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--yardstick", type=float, default=0.0,
                    help="seconds of one yardstick on this machine (prints yardsticks)")
    ap.add_argument("--check", action="store_true", help="compare with the exact engine")
    ap.add_argument("--games", action="store_true",
                    help="time Free Bet and Spanish 21 (the games' rules) instead")
    ap.add_argument("--only", default="", help="--check: comma-separated rule-set names")
    args = ap.parse_args(argv)
    args.rounds = int(args.rounds)
    print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
          f"Python {platform.python_version()}")
    if args.check:
        return check(args)
    if args.games:
        games(args)
        return 0
    timing(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
