"""Time full exact solves: ``bjsolve.solve(Rules(decks=d))`` (CDZ-, resplit to 4 hands,
S17 DOA DAS no RSA, peek, 3:2) for 1, 2, 6, 8 decks, 6 decks with split="CDP", and the
infinite shoe; then the process's peak memory.

Each figure is the median over ``--repeat`` runs after one warm-up solve (the warm-up
builds the cached dealer draw tries).  Targets (issue): 6 decks <= 0.13 s, 1 deck
<= 0.047 s, infinite shoe <= 5 ms, peak memory <= 300 MB.

Run from the repository root: ``PYTHONPATH=python:src python3 benchmarks/bench_solve.py``
"""
from __future__ import annotations

import argparse
import math
import os
import platform
import resource
import sys

import bjsolve
from _timing import median_time
from bjsolve import Rules

# (label, decks, split class, target seconds or None)
CASES = (
    ("1D", 1, "CDZ-", 0.047),
    ("2D", 2, "CDZ-", None),
    ("6D", 6, "CDZ-", 0.13),
    ("8D", 8, "CDZ-", None),
    ("6D CDP", 6, "CDP", None),
    ("inf", math.inf, "CDZ-", 0.005),
)
TARGET_MEMORY_MB = 300.0


def time_solve(decks, split, repeat):
    rules = Rules(decks=decks)
    return median_time(lambda: bjsolve.solve(rules, split=split), repeat)


def peak_memory_mb():
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # kilobytes on Linux, bytes on macOS
    return rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7, help="timed runs per case (default 7)")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be >= 1")

    print(f"bjsolve.solve, S17 DOA DAS SPL3 no RSA peek 3:2; median of {args.repeat} runs after "
          f"1 warm-up; python {platform.python_version()}, {os.cpu_count()} CPUs")
    print()
    header = f"{'case':<8}  {'median':>10}  {'min':>10}  {'target':>10}  status"
    print(header)
    print("-" * len(header))
    misses = 0
    for label, decks, split, target in CASES:
        med, low = time_solve(decks, split, args.repeat)
        if target is None:
            target_s, status = "-", ""
        else:
            ok = med <= target
            misses += not ok
            target_s = f"<= {target * 1e3:g} ms" if target < 0.01 else f"<= {target:g} s"
            status = "ok" if ok else "MISS"
        print(f"{label:<8}  {med:>8.4f} s  {low:>8.4f} s  {target_s:>10}  {status}")
    mem = peak_memory_mb()
    mem_ok = mem <= TARGET_MEMORY_MB
    misses += not mem_ok
    print()
    print(f"peak memory (maxrss): {mem:.1f} MB   target <= {TARGET_MEMORY_MB:g} MB   "
          f"{'ok' if mem_ok else 'MISS'}")
    print(f"targets missed: {misses}")


if __name__ == "__main__":
    main()
