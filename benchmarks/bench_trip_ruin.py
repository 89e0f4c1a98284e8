"""Trip ruin (``bjsolve.risk.trip_ruin``): P(losing the bankroll within N rounds), exact to
its error bound, for bankrolls within reach (where the dynamic programme has to run).

    python benchmarks/bench_trip_ruin.py [--repeat 5] [--yardstick SECONDS] [--longest]

Cases: the 6-deck flat-bet law (S17 DAS, resplit to 4; 200 units, 10,000 rounds: target
50 ms) and the mixture law of a 1-12 Hi-Lo bet ramp (6 decks, 75% penetration; 1,000 units,
10,000 rounds: target well under a second).  Prints the median wall time and the median
process CPU time (one thread: the computation is single-threaded; on a shared machine the
CPU time is the steadier figure) and the ruin probability with its error bound.
``--longest``: also the documented maximum, ``risk.MAX_ROUNDS`` (10^6) rounds, of the
6-deck and 1-deck flat laws, timed once (the cost grows linearly with the rounds).
"""
from __future__ import annotations

import argparse
import time

from _timing import median_cpu, median_time
from bjsolve import Rules, solve
from bjsolve.risk.ruin import trip_ruin


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--yardstick", type=float, default=None,
                        help="seconds of one yardstick on this machine (prints yardsticks)")
    parser.add_argument("--longest", action="store_true",
                        help="also time MAX_ROUNDS rounds of the flat laws, once")
    args = parser.parse_args(argv)
    flat = solve(Rules(decks=6)).outcome_distribution()
    from bjsolve.risk.game import CountedGame
    from bjsolve.risk.ramp import parse_ramp
    game = CountedGame(Rules(decks=6), "hilo", penetration=0.75, depth_bands=1)
    ramp, chip, _ = game.ramp_distribution(parse_ramp("1:1,2:2,3:4,4:8,5:12").bets(
        game.tc_values))
    cases = [("6D flat, B = 200, 10,000 rounds", flat, 200, 10_000, 0.05),
             ("6D flat, B = 100, 1,000 rounds", flat, 100, 1_000, None),
             ("1-12 ramp, B = 1,000, 10,000 rounds", ramp, 1000 / chip, 10_000, 1.0),
             ("1-12 ramp, B = 300, 1,000 rounds", ramp, 300 / chip, 1_000, None)]
    if args.longest:
        from bjsolve.risk.ruin import MAX_ROUNDS
        one_deck = solve(Rules(decks=1, max_split_hands=2)).outcome_distribution()
        cases += [(f"6D flat, B = 200, {MAX_ROUNDS:,} rounds", flat, 200, MAX_ROUNDS, None),
                  (f"1D flat, B = 1,000, {MAX_ROUNDS:,} rounds", one_deck, 1000, MAX_ROUNDS,
                   None)]
    once = "; the longest cases once" if args.longest else ""
    print(f"trip ruin, one thread, medians of {args.repeat} runs (seconds{once})")
    for label, dist, bankroll, rounds, target in cases:
        if rounds > 100_000:                   # seconds each: one run, no warm-up
            wall, cpu = time.perf_counter(), time.process_time()
            result = trip_ruin(dist, bankroll, rounds)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        else:
            result = trip_ruin(dist, bankroll, rounds)
            wall, _ = median_time(lambda: trip_ruin(dist, bankroll, rounds), args.repeat)
            cpu = median_cpu(lambda: trip_ruin(dist, bankroll, rounds), args.repeat)
        sticks = f"  ({wall / args.yardstick:.1f} yardsticks)" if args.yardstick else ""
        verdict = "" if target is None else (f"  target {target:g} s (CPU): "
                                             + ("met" if cpu <= target else "MISSED"))
        print(f"{label:<38} wall {wall:8.4f}  cpu {cpu:8.4f}{sticks}{verdict}"
              f"   P = {result.probability:.6g} (bound {result.error_bound:.1e})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
