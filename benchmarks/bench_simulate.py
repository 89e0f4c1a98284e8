"""Monte Carlo check of the exact engine: simulate the real game under the engine's own
strategy for several rule sets and print the exact EV, the simulated mean, its standard
error and the z-score (|z| > 4 is a disagreement worth a look).

    PYTHONPATH=python:src python3 benchmarks/bench_simulate.py --rounds 2000000
    PYTHONPATH=python:src python3 benchmarks/bench_simulate.py --only easy,enhc --rounds 10000000
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

import bjsolve  # noqa: E402
from bjsolve import Rules  # noqa: E402
from simulator import engine_policy, simulate  # noqa: E402

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
    "enhc 6D H17 LS": Rules(decks=6, hit_soft_17=True, hole_card="enhc", surrender="late"),
    "early surrender 6D H17": Rules(decks=6, hit_soft_17=True, surrender="early"),
    "early surrender 1D": Rules(decks=1, surrender="early"),
    "HSA RSA 2D": Rules(decks=2, hit_split_aces=True, resplit_aces=True),
    "dealer wins ties 6D": Rules(decks=6, dealer_wins_ties=True),
    "easy (exposed, infinite)": Rules.preset("easy"),
    "double exposure 6D": Rules(decks=6, hole_card="exposed", dealer_wins_ties=True,
                                blackjack_payout=1.0),
    "exposed 1D ES": Rules(decks=1, hole_card="exposed", surrender="early"),
}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=2_000_000, help="rounds per rule set")
    ap.add_argument("--seed", type=int, default=20240601)
    ap.add_argument("--only", default="", help="comma-separated substrings of rule-set names")
    args = ap.parse_args(argv)
    wanted = [w.strip().lower() for w in args.only.split(",") if w.strip()]
    worst = 0.0
    print(f"{'rule set':28s} {'exact EV':>12s} {'simulated':>12s} {'SE':>10s} {'z':>7s}"
          f" {'solve s':>8s} {'sim s':>7s}")
    for name, rules in RULE_SETS.items():
        if wanted and not any(w in name.lower() for w in wanted):
            continue
        t0 = time.perf_counter()
        try:
            sol = bjsolve.solve(rules)
        except ValueError as e:
            print(f"{name:28s} skipped: {e}")
            continue
        t1 = time.perf_counter()
        mean, se = simulate(rules, engine_policy(sol), rounds=args.rounds, seed=args.seed)
        t2 = time.perf_counter()
        z = (mean - sol.expected_value) / se
        worst = max(worst, abs(z))
        print(f"{name:28s} {sol.expected_value:+12.6f} {mean:+12.6f} {se:10.6f} {z:+7.2f}"
              f" {t1 - t0:8.2f} {t2 - t1:7.1f}", flush=True)
    print(f"largest |z| = {worst:.2f}")
    return 0 if worst <= 4 else 1


if __name__ == "__main__":
    sys.exit(main())
