"""Time one full dealer table (all ten upcards) for 1, 2, 6, 8 decks and the infinite shoe.

Two paths are timed:

* kernel: ``bjcore.dealer_trie((u,), h17).distribution(weights, infinite)`` for every
  upcard u, with ``weights`` the shoe minus the upcard (prepared once, outside the timing);
* python: ``bjsolve.dealer_table(rules)`` (validation, shoe handling, result objects).

Each figure is the median over ``--repeat`` runs after one warm-up run (the warm-up also
builds the cached draw tries, in C, which are shared by every shoe size; the very first
table's time, tries included, is printed as "cold").  Target (issue): under 1 ms per table
for 6 decks.

Run: ``PYTHONPATH=python:src python benchmarks/bench_dealer.py``
"""
from __future__ import annotations

import argparse
import math
import os
import platform
import time

import bjcore
import bjsolve
from _timing import median_time
from bjsolve import Rules, Shoe

DECKS = (1, 2, 6, 8, math.inf)
TARGET_6D_MS = 1.0


def kernel_inputs(decks):
    """[(trie start, weights, infinite)] for the ten upcards."""
    shoe = Shoe.decks(decks)
    out = []
    for u in range(1, 11):
        left = shoe if shoe.is_infinite else shoe.remove(u)
        out.append(((u,), left.kernel_weights(), shoe.is_infinite))
    return out


def kernel_table(inputs, h17):
    return [bjcore.dealer_trie(start, h17).distribution(weights, infinite)
            for start, weights, infinite in inputs]


def python_table(rules):
    return bjsolve.dealer_table(rules)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=51, help="timed runs per figure (default 51)")
    parser.add_argument("--h17", action="store_true", help="dealer hits soft 17 (default S17)")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be >= 1")

    print(f"dealer table (10 upcards), {'H17' if args.h17 else 'S17'}; median of {args.repeat} "
          f"runs after 1 warm-up; python {platform.python_version()}, {os.cpu_count()} CPUs")

    t0 = time.perf_counter()
    kernel_table(kernel_inputs(1), args.h17)
    print(f"cold first table (1 deck, builds the draw tries): {1e3 * (time.perf_counter() - t0):.3f} ms")
    print()

    header = f"{'shoe':>8}  {'kernel median':>14}  {'kernel min':>11}  {'python median':>14}  {'python min':>11}  target"
    print(header)
    print("-" * len(header))
    for decks in DECKS:
        inputs = kernel_inputs(decks)
        rules = Rules(decks=decks, hit_soft_17=args.h17)
        k_med, k_min = median_time(lambda: kernel_table(inputs, args.h17), args.repeat)
        p_med, p_min = median_time(lambda: python_table(rules), args.repeat)
        name = "inf" if decks == math.inf else f"{decks}D"
        target = ""
        if decks == 6:
            ok = "ok" if p_med * 1e3 <= TARGET_6D_MS else "MISS"
            target = f"<= {TARGET_6D_MS:g} ms (python path: {ok})"
        print(f"{name:>8}  {k_med * 1e3:>11.4f} ms  {k_min * 1e3:>8.4f} ms  "
              f"{p_med * 1e3:>11.4f} ms  {p_min * 1e3:>8.4f} ms  {target}")


if __name__ == "__main__":
    main()
