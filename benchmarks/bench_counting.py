"""Time the card-counting calculator: the effects-of-removal table (fixed and
re-optimised, as ``python -m bjsolve eor`` computes it: one full-shoe solve shared) for
6 decks, and the full Hi-Lo index table for 6 decks S17 DAS (``python -m bjsolve indices``:
grid -10..+15, every row and upcard).

Each figure is the median over ``--repeat`` runs after one warm-up (which builds the cached
dealer draw tries).  Targets (issue 5): EOR table <= 1.5 s; index table <= 60 s on the
2-core machine.

Run: ``cd /work/main && python benchmarks/bench_counting.py [--repeat N]``
"""
from __future__ import annotations

import argparse
import os
import platform

from _timing import median_time
from bjsolve import Rules
from bjsolve.counting import _removal_effects
from bjsolve.indices import generate_indices

TARGET_EOR_S = 1.5
TARGET_INDICES_S = 60.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
          f"Python {platform.python_version()}; medians over {args.repeat} runs")
    rules = Rules(decks=6)
    for label, strategies in (("EOR fixed, 6D", ("fixed",)),
                              ("EOR reoptimized, 6D", ("reoptimized",)),
                              ("EOR table (both), 6D", ("fixed", "reoptimized"))):
        med, best = median_time(lambda: _removal_effects(rules, None, strategies, "CDZ-"),
                                args.repeat)
        target = f"  (target <= {TARGET_EOR_S} s)" if len(strategies) == 2 else ""
        print(f"{label:<28} median {med:7.3f} s   min {best:7.3f} s{target}")
    med, best = median_time(lambda: generate_indices(rules, "hilo"), max(1, args.repeat))
    print(f"{'index table Hi-Lo, 6D':<28} median {med:7.3f} s   min {best:7.3f} s"
          f"  (target <= {TARGET_INDICES_S:g} s)")


if __name__ == "__main__":
    main()
