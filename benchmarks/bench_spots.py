"""Time the exact covariance between two spots (``outcome_distribution(spots=2,
exact_spots=True)``, bjcore._spot_moments) against the default combination.

No issue target: the exact covariance is opt-in because it costs (shoes spot 1's pass
visits) x (one spot's pass).  Each case prints the median process CPU seconds of one
thread (judge by these: the machine may be shared), the wall time with every core, and
the covariance both ways.  The solve itself is not timed.  6 decks take ~2 minutes: only
with ``--six-decks``.

Run: ``PYTHONPATH=python:src python3 benchmarks/bench_spots.py [--repeat 1] [--six-decks]``
"""
from __future__ import annotations

import argparse
import os
import platform

import statistics
import time

from bjsolve import Rules, solve

CASES = (
    ("1D no splits", dict(decks=1, max_split_hands=1)),
    ("1D one split (2 hands)", dict(decks=1, max_split_hands=2)),
    ("1D resplit to 4", dict(decks=1, max_split_hands=4)),
    ("2D resplit to 4", dict(decks=2, max_split_hands=4)),
)
SIX_DECKS = (("6D resplit to 4", dict(decks=6, max_split_hands=4)),)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--yardstick", type=float, default=None, metavar="SECONDS",
                        help="also print times in yardsticks of this many seconds")
    parser.add_argument("--six-decks", action="store_true", help="add 6 decks (minutes)")
    args = parser.parse_args(argv)
    cores = os.cpu_count() or 1
    print(f"# {platform.python_implementation()} {platform.python_version()}, {cores} cores; "
          f"medians of {args.repeat} runs (seconds)")
    for label, kw in CASES + (SIX_DECKS if args.six_decks else ()):
        sol = solve(Rules(**kw))

        sol.outcome_distribution(spots=2, threads=cores)   # warm-up: the dealer tries
        cpus, walls = [], []
        for _ in range(args.repeat):   # no warm-up run of the exact case: it is long
            t0 = time.process_time()
            sol.outcome_distribution(spots=2, exact_spots=True, threads=1)
            cpus.append(time.process_time() - t0)
            t0 = time.perf_counter()
            e = sol.outcome_distribution(spots=2, exact_spots=True, threads=cores)
            walls.append(time.perf_counter() - t0)
        cpu, wall = statistics.median(cpus), statistics.median(walls)
        c = sol.outcome_distribution(spots=2, threads=cores)
        extra = f"  ({cpu / args.yardstick:.0f} yardsticks)" if args.yardstick else ""
        print(f"{label:<24} 1 thread cpu {cpu:8.2f}{extra}  {cores} threads wall {wall:8.2f}  "
              f"covariance exact {e.covariance:.6f} combined {c.covariance:.6f}  "
              f"SD {e.sd:.6f} / {c.sd:.6f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
