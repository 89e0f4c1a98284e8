"""Time every side bet (bjsolve.sidebets) on a full 8-deck shoe, a depleted 8-deck shoe
(cards of known and unknown suit out: the float path), and one table of effects of removal
per bet; then the dealer-drawn bets under both conventions (two cards; the hands played
out by the basic chart, one spot, and by optimal play, three spots) on 6 and 8 decks; then,
for the bets that read suits, the best count over cards (``suit_count``) and the counted
bet under the four suit counts (``counted_sidebet(..., system="suits")``, 6 and 8 decks
dealt to 3/4).

Each figure is the median over ``--repeat`` runs after one warm-up run (the warm-up builds
what is computed once per process: a card bet's paying draws, the dealer's final hands per
soft-17 rule; the cold time, warm-up included, is printed too).  Targets (issue): any side
bet on a full 8-deck shoe within 10 ms; a table of effects of removal within 1 s; a counted
side bet within 10 s (wall and process CPU seconds both printed: the machine is shared).

Run: ``PYTHONPATH=python:src python benchmarks/bench_sidebets.py``
"""
from __future__ import annotations

import argparse
import os
import platform
import time

from _timing import median_cpu, median_time
from bjsolve import sidebets

TARGET_EDGE_MS = 10.0
TARGET_EOR_S = 1.0
TARGET_COUNTED_S = 10.0
SUIT_BETS = ("21+3", "perfect-pairs", "royal-match", "lucky-ladies", "lucky-lucky")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15, help="timed runs per figure")
    args = parser.parse_args()
    print(f"python {platform.python_version()}, {os.cpu_count()} cpus; medians of "
          f"{args.repeat} runs")
    full = sidebets.resolve_shoe(decks=8)
    depleted = sidebets.resolve_shoe(decks=8, remove=("QH", "QH", "5", "T", "7S"))
    print(f"{'bet':18} {'cold ms':>8} {'8D ms':>8} {'depleted ms':>12} {'EOR table s':>12}")
    worst_edge = worst_eor = 0.0
    for name in sidebets.BETS:
        soft = name in ("buster", "bust-bonus", "push-22")
        t0 = time.perf_counter()
        sidebets.edge(name, shoe=full, hit_soft_17=soft)
        cold = time.perf_counter() - t0
        edge_full, _ = median_time(
            lambda name=name, soft=soft: sidebets.edge(name, shoe=full, hit_soft_17=soft),
            args.repeat)
        edge_depleted, _ = median_time(
            lambda name=name, soft=soft: sidebets.edge(name, shoe=depleted, hit_soft_17=soft),
            args.repeat)
        eor, _ = median_time(
            lambda name=name, soft=soft: sidebets.effects_of_removal(name, shoe=full,
                                                                     hit_soft_17=soft),
            max(3, args.repeat // 5))
        worst_edge = max(worst_edge, edge_full, edge_depleted)
        worst_eor = max(worst_eor, eor)
        print(f"{name:18} {cold * 1e3:8.2f} {edge_full * 1e3:8.3f} {edge_depleted * 1e3:12.3f} "
              f"{eor:12.4f}")
    print(f"slowest side bet: {worst_edge * 1e3:.3f} ms (target {TARGET_EDGE_MS:g} ms); slowest "
          f"EOR table: {worst_eor:.3f} s (target {TARGET_EOR_S:g} s)")
    played_out(args.repeat)
    suit_counts(max(1, args.repeat // 5))


def played_out(repeat: int) -> None:
    """The dealer-drawn bets with only the first two cards out and with the hands played
    out: the same law (sidebets.played_out), so the cost added is the checks."""
    from bjsolve.sidebets.played_out import DEALER_DRAWN_BETS
    plays = {"two-cards": {}, "basic, 1 spot": {"strategy": "basic"},
             "optimal, 3 spots": {"strategy": "optimal", "spots": 3}}
    print(f"\n{'bet (ms)':18} {'decks':>5} " + " ".join(f"{p:>17}" for p in plays))
    worst = 0.0
    for decks in (6, 8):
        shoe = sidebets.resolve_shoe(decks=decks)
        for name in DEALER_DRAWN_BETS:
            times = []
            for kw in plays.values():
                t, _ = median_time(lambda name=name, kw=kw, shoe=shoe: sidebets.edge(
                    name, shoe=shoe, **kw), repeat)
                times.append(t)
            worst = max(worst, *times)
            print(f"{name:18} {decks:5d} " + " ".join(f"{t * 1e3:17.3f}" for t in times))
    print(f"slowest played-out side bet: {worst * 1e3:.3f} ms (target {TARGET_EDGE_MS:g} ms)")


def suit_counts(repeat: int) -> None:
    """The count over cards (one EOR table and the suit-pair effect) and the counted bet
    under the four suit counts."""
    print(f"\nsuit counts (medians of {repeat} runs)")
    print(f"{'bet':14} {'suit_count s':>12} {'6D suits s':>11} {'6D cpu s':>9} "
          f"{'8D suits s':>11} {'8D cpu s':>9}")
    worst = 0.0
    for name in SUIT_BETS:
        count, _ = median_time(lambda name=name: sidebets.suit_count(name, decks=8), repeat)
        row = [count]
        for decks in (6, 8):
            def run(name=name, decks=decks):
                return sidebets.counted_sidebet(name, system="suits", decks=decks)
            wall, _ = median_time(run, repeat)
            row += [wall, median_cpu(run, repeat)]
            worst = max(worst, wall)
        print(f"{name:14} {row[0]:12.3f} {row[1]:11.2f} {row[2]:9.2f} {row[3]:11.2f} "
              f"{row[4]:9.2f}")
    print(f"slowest counted side bet under the suit counts: {worst:.2f} s wall (target "
          f"{TARGET_COUNTED_S:g} s)")


if __name__ == "__main__":
    main()
