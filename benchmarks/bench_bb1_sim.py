"""BB+1 with split rounds of up to three or four hands: the compiled simulator against the
exact value of the same chart (docs/games.md, "BB+1 with split hands").

    python benchmarks/bench_bb1_sim.py [--decks 6] [--hands 3] [--rounds 4000000]
                                       [--seed 5] [--threads 2]

The BB+1 solve's chart is played under BB+1 and under OBBO, exactly
(``solve(rules).evaluate(chart)``) and by the simulator with the same seed, each round dealt
from a freshly shuffled shoe (the exact value's full shoe).  The two rules differ only on a
dealer natural after a split (OBBO takes a unit from every standing hand, BB+1 one in all),
so the same seed deals the same rounds and the paired difference of the two simulated means
has a small error: each round's difference is 0..3 units and nonzero only then, so its SE is
at most sqrt(3 d / rounds), d the mean difference.

Printed: the exact BB+1 and OBBO values, the simulated BB+1 mean with its SE and z, and the
simulated difference against the exact one with that bound.
"""
from __future__ import annotations

import argparse
import math
import time

import bjsolve
from bjsolve import Rules, solve


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decks", type=int, default=6)
    ap.add_argument("--hands", type=int, default=3, choices=(2, 3, 4))
    ap.add_argument("--rounds", type=int, default=4_000_000)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    start = time.time()
    base = Rules(decks=args.decks, hole_card="enhc", max_split_hands=args.hands,
                 double_after_split=True)
    bb1_rules, obbo_rules = (base.replace(natural_loss=x) for x in ("bb+1", "obbo"))
    solution = solve(bb1_rules, threads=args.threads)
    chart = solution.strategy
    exact_bb1 = float(solution.evaluate(chart))
    exact_obbo = float(solve(obbo_rules, threads=args.threads).evaluate(chart))
    sims = [bjsolve.simulate(r, rounds=args.rounds, seed=args.seed, strategy=chart,
                             penetration="every-round", threads=args.threads)
            for r in (bb1_rules, obbo_rules)]
    diff = sims[0].mean - sims[1].mean
    exact_diff = exact_bb1 - exact_obbo
    bound = math.sqrt(3 * max(diff, 1e-12) / args.rounds)
    print(f"{args.decks} decks, {args.hands} hands, {args.rounds} rounds")
    print(f"exact BB+1 {exact_bb1:+.6f}  OBBO {exact_obbo:+.6f}  difference {exact_diff:+.7f}")
    print(f"simulated BB+1 {sims[0].mean:+.6f} (SE {sims[0].se:.6f}, "
          f"z {(sims[0].mean - exact_bb1) / sims[0].se:+.2f})")
    print(f"simulated difference {diff:+.7f} (SE at most {bound:.7f}, "
          f"z {(diff - exact_diff) / bound:+.2f})  {time.time() - start:.0f} s")


if __name__ == "__main__":
    main()
