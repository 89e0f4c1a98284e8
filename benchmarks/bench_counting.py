"""Time the card-counting calculator for 6 decks S17 DAS: the effects-of-removal table (fixed
and re-optimised, as ``python -m bjsolve eor`` computes it), the full Hi-Lo index table
(``indices``: grid -10..+15, every row and upcard) and the count-system table (``counts``:
BC, IC and PE of every built-in system).

Each figure is measured two ways:

* cold: the per-shoe cache (``bjsolve.counting.shoe_values``) is cleared before each run, so every
  solve is done again; this is what one command costs in a fresh process (after the
  dealer draw tries are built, which a warm-up run does once);
* warm: the same call again in the same process, everything reused.

Medians over ``--repeat`` runs, with the solves' threads on all cores (``--threads 1``
restricts the process to one CPU where the platform allows it), and the CPU seconds of
all threads (steadier than wall time on a busy machine).  Targets (issue 10, on
the 2-core machine): EOR table <= 1.0 s; index table <= 3 s; counts <= 3 s.  With
``--yardstick SECONDS`` the figures are also printed in yardsticks.

Run: ``python benchmarks/bench_counting.py [--repeat N] [--threads 1] [--yardstick S]``
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

from bjsolve import Rules
from bjsolve.counting.tables import counts_table, eor_table
from bjsolve.counting.removal import SYSTEMS
from bjsolve.counting.indices import generate_indices
from bjsolve.counting.shoe_values import clear_cache

TARGETS = {"EOR table (fixed + reoptimized)": 1.0, "index table Hi-Lo": 3.0,
           "counts (all systems)": 3.0}


def timed(fn, repeat, cold):
    """(median wall seconds, minimum wall seconds, median CPU seconds of all threads)."""
    times, cpu = [], []
    for _ in range(repeat):
        if cold:
            clear_cache()
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return statistics.median(times), min(times), statistics.median(cpu)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--threads", type=int, default=0, help="1: pin to one CPU (Linux)")
    ap.add_argument("--yardstick", type=float, default=None, metavar="SECONDS")
    args = ap.parse_args()
    if args.threads == 1 and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"# {platform.processor() or platform.machine()}, {cpus} CPUs in use, Python "
          f"{platform.python_version()}; medians over {args.repeat} runs; 6 decks S17 DAS; "
          f"load average {os.getloadavg()[0]:.1f} at start (a shared machine inflates these)")
    rules = Rules(decks=6)
    cases = {
        "EOR table (fixed + reoptimized)": lambda: eor_table(rules, None),
        "index table Hi-Lo": lambda: generate_indices(rules, "hilo"),
        "counts (all systems)": lambda: counts_table(rules, None, list(SYSTEMS)),
    }
    for fn in cases.values():     # warm-up: dealer draw tries, imports
        fn()
    ys = args.yardstick
    for label, fn in cases.items():
        for cold in (True, False):
            med, best, cpu = timed(fn, args.repeat, cold)
            extra = f"  = {med / ys:7.1f} yardsticks" if ys else ""
            target = f"  (target <= {TARGETS[label]:g} s)" if cold else ""
            print(f"{label:<32} {'cold' if cold else 'warm'}  median {med:7.3f} s   "
                  f"min {best:7.3f} s   CPU {cpu:7.3f} s{extra}{target}")


if __name__ == "__main__":
    main()
