"""Blackjack Switch beyond the house edge: the compiled simulation of the real round against
the analysis' EV, and the round's outcome law (bjsolve.exact.switch_law) against the
simulated outcome frequencies and SD.

    PYTHONPATH=python:src python benchmarks/bench_switch_figures.py [ROUNDS] [DECKS ...]

Default 10^8 rounds on 1 and 6 decks (about a minute each on two shared cores, plus the
analysis and the law: 10-30 s).  For each: the simulated EV per round against the analysis
(z), the switch rate, the SD simulated against the law's (z with the SD's standard error
from the law's fourth moment), and the outcomes whose frequency is more than 3 SE from the
law's probability.

Measured (2026-11-29, 10^8 rounds, two cores at load 12, niced): 6D EV z = +0.86, SD
1.71362 simulated against the law's 1.71344 (z = +1.88), no outcome beyond 3 SE; 1D EV
z = +0.19, SD 1.74347 against 1.74368 (z = -2.17), outcomes +1, +6, +7 at z = -4.1, -4.8,
-3.8 (the combination of the two hands given the dealer's outcome, docs/games.md).
"""
from __future__ import annotations

import math
import sys
import time

import numpy as np

from bjsolve import Rules
from bjsolve.exact.switch import solve_switch
from bjsolve.simulation.switch import simulate_switch


def sd_standard_error(values, probs, rounds: int) -> float:
    """The standard error of a sample SD of ``rounds`` draws from the law (delta method)."""
    mean = float(np.dot(values, probs))
    m2 = float(np.dot(probs, (values - mean) ** 2))
    m4 = float(np.dot(probs, (values - mean) ** 4))
    return math.sqrt(max(m4 - m2 * m2, 0.0) / rounds) / (2.0 * math.sqrt(m2))


def main(rounds: int, decks_list) -> None:
    for decks in decks_list:
        rules = Rules.preset("blackjack-switch", decks=decks)
        start = time.perf_counter()
        sol = solve_switch(rules)
        law = sol.outcome_distribution()
        analysis = time.perf_counter() - start
        start = time.perf_counter()
        sim = simulate_switch(sol, rounds, seed=2026 + int(decks))
        took = time.perf_counter() - start
        z = (sim.mean - sol.expected_value) / sim.standard_error
        se_sd = sd_standard_error(law.values, law.probabilities, rounds)
        print(f"{decks}D: analysis and law {analysis:.0f} s; simulation {rounds:.0e} rounds "
              f"{took:.0f} s ({rounds / took / 1e6:.2f} M rounds/s)", flush=True)
        print(f"  EV per round {sim.mean:+.6f} +- {sim.standard_error:.6f} against "
              f"{sol.expected_value:+.6f} (z = {z:+.2f}); switched {sim.switch_rate:.5f} "
              f"against {sol.switch_rate:.5f}", flush=True)
        print(f"  SD per round {sim.sd:.5f} against the law's {law.sd:.5f} (SE {se_sd:.5f}, "
              f"z = {(sim.sd - law.sd) / se_sd:+.2f}); per hand {law.per_spot.sd:.5f}, "
              f"correlation {law.correlation:.4f}", flush=True)
        for v, p in zip(law.values, law.probabilities):
            q = (sim.outcomes or {}).get(float(v), 0.0)
            se = math.sqrt(p * (1 - p) / rounds)
            if se > 0 and abs(q - p) > 3 * se:
                print(f"  outcome {v:+g}: simulated {q:.7f}, law {p:.7f} "
                      f"(z = {(q - p) / se:+.1f})", flush=True)


if __name__ == "__main__":
    n = int(float(sys.argv[1])) if len(sys.argv) > 1 else 10**8
    decks = [float(d) if "." in d else int(d) for d in sys.argv[2:]] or [1, 6]
    main(n, decks)
