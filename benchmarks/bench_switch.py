"""Blackjack Switch: the analysis' time and figures, removal "full" against "own", and a
long simulation of the real round (both hands from one shoe) against the analysis.

    PYTHONPATH=python:src python benchmarks/bench_switch.py [ROUNDS]

Published (Wizard of Odds, Blackjack Switch page: 6 decks, H17, DAS, split to 4 hands,
peek, naturals 1:1, dealer 22 pushes): house edge 0.58% with a switched ace-ten counted as
21; 0.40% less when it counts as a blackjack; 8 decks +0.02%.

Measured (2026-11-28, 2 shared cores): 6D full removal 0.5408% per hand in 44-90 s, own
removal 0.5405% in 2 s (after the game walk's speed-up: 3.0 s and 0.1 s; after the contexts
share their dealer laws, 2026-11-29: 2.2 s one-thread CPU under load, bit-identical values);
simulation 1D 4M rounds z = -0.73, 6D 2M rounds z = -1.05 (docs/games.md has the table).
"""
from __future__ import annotations

import sys
import time

from bjsolve import Rules
from bjsolve.exact.switch import solve_switch
from bjsolve.simulation.switch import simulate_switch


def main(rounds: int) -> None:
    for decks in (1, 2, 6, 8):
        for sbj in (False, True):
            rules = Rules.preset("blackjack-switch", decks=decks, switch_blackjack=sbj)
            line = [f"{decks}D {'SWBJ' if sbj else 'switched AT = 21'}:"]
            for removal in ("own", "full"):
                sol = solve_switch(rules, removal=removal)
                line.append(f"{removal} {100 * sol.house_edge_per_hand:.4f}% "
                            f"({sol.seconds:.1f} s)")
            print("  ".join(line), flush=True)
    for decks in (1, 6):
        sol = solve_switch(Rules.preset("blackjack-switch", decks=decks))
        start = time.perf_counter()
        sim = simulate_switch(sol, rounds, seed=2026 + decks)
        z = (sim.mean - sol.expected_value) / sim.standard_error
        print(f"{decks}D simulation, {rounds} rounds ({time.perf_counter() - start:.0f} s): "
              f"{sim.mean:+.5f} +- {sim.standard_error:.5f} per round against the analysis "
              f"{sol.expected_value:+.5f} (z = {z:+.2f}); switched {sim.switch_rate:.4f} "
              f"against {sol.switch_rate:.4f}", flush=True)


if __name__ == "__main__":
    main(int(float(sys.argv[1])) if len(sys.argv) > 1 else 2_000_000)
