"""Time and memory of the games' round law (``Solution.outcome_distribution`` of a game,
``src/bjcore/game_law.h``): for each preset, the solve's CPU seconds, the law's (median of
``--repeat`` runs on the solved engines, after one warm-up), and the process's peak RSS
after the solve and after the laws.  Run each preset in a process of its own for its own
peak (``--preset``).

Run: ``PYTHONPATH=python:src python3 benchmarks/bench_game_law.py [--preset free-bet]
[--repeat 3] [--decks 6] [--max-split-hands 2] [--fast]`` (two hands: every split by the
exact two-hand law, game_two_hands.h; the presets' own limits resplit, and those splits are
combined in the pmf, their variance exact: game_split_moments.h; ``--fast``:
``exact_splits=False``, every split combined, variance included).
"""
from __future__ import annotations

import argparse
import resource
import time

from _timing import median_cpu
from bjsolve import Rules, solve


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="free-bet")
    parser.add_argument("--decks", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--max-split-hands", type=int, default=None)
    parser.add_argument("--fast", action="store_true",
                        help="exact_splits=False: the fast combination, variance included")
    args = parser.parse_args()
    change = {} if args.decks is None else {"decks": args.decks}
    if args.max_split_hands is not None:
        change["max_split_hands"] = args.max_split_hands
    rules = Rules.preset(args.preset, **change)
    t0 = time.process_time()
    sol = solve(rules, threads=1)
    solve_cpu = time.process_time() - t0
    after_solve = peak_mb()
    exact = not args.fast
    law_cpu = median_cpu(lambda: sol.outcome_distribution(threads=1, exact_splits=exact),
                         args.repeat)
    dist = sol.outcome_distribution(threads=1, exact_splits=exact)
    print(f"{args.preset} ({rules.describe()[:40]}...): solve {solve_cpu:.2f} s CPU, "
          f"law {law_cpu:.2f} s CPU (median of {args.repeat}); peak RSS {after_solve:.0f} MB "
          f"after the solve, {peak_mb():.0f} MB after the laws; "
          f"{len(dist.values)} outcomes, SD {dist.sd:.6f}"
          f"{' (variance exact)' if dist.variance_exact else ''}")


if __name__ == "__main__":
    main()
