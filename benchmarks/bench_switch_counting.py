"""Blackjack Switch's counted game against the compiled simulation, true count by true count,
at more rounds than the tests (tests/test_switch_counting.py):

    PYTHONPATH=python:src python benchmarks/bench_switch_counting.py [ROUNDS] [DECKS] [SPLIT]

ROUNDS per true count (default 2^22), DECKS (default 1), SPLIT the most hands a split makes
(default 1: no splitting; 4 is the preset's).  The game: Hi-Lo, floored true counts,
penetration 0.6, one depth band, round starts as random depletions, strategy basic (the
full shoe's decisions frozen).  The simulator has no dealt-down Switch shoe, so each true
count's cell composition (whole cards) is dealt afresh every round and played by the
full shoe's decisions; its mean and SD per round are set against the cell's exact EV and
SD (before the calibration), with z-scores (the SD's standard error from the law's fourth
moment).  Also printed: the flat bettor's win rate and second moment against the uncounted
analysis (an identity), and the CPU time of the game.
"""
from __future__ import annotations

import math
import sys
import time

import numpy as np
from bjsolve import CountedGame, Rules
from bjsolve.simulation.switch_compiled import SwitchTables, simulate_switch_compiled


def main() -> None:
    rounds = int(float(sys.argv[1])) if len(sys.argv) > 1 else 1 << 22
    decks = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    split = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    rules = Rules.preset("blackjack-switch").replace(decks=decks, max_split_hands=split)
    start = time.process_time()
    game = CountedGame(rules, "hilo", penetration=0.6, depth_bands=1, tc_min=-3, tc_max=4,
                       round_length_correction=False)
    print(f"{rules.describe()}: game {time.process_time() - start:.1f} s CPU, "
          f"{len(game.cell_laws)} cells")
    flat = game.evaluate({0: 1})
    sol = game.switch_solution
    dist = sol.outcome_distribution()
    print(f"flat win rate {flat.win_rate:+.12f} against the analysis' {sol.expected_value / 2:+.12f}; "
          f"second moment {flat.variance + flat.win_rate ** 2:.12f} against "
          f"{float(dist.probabilities @ dist.values ** 2) / 4:.12f}")
    tables = SwitchTables(sol)
    for n, ((i, j), (joint, values)) in enumerate(sorted(game.cell_laws.items())):
        shoe = game.cell_shoe(game._band_seen[:, i, j])
        tables.shoe = np.array(shoe.counts, dtype=np.int32)
        run = simulate_switch_compiled(sol, rounds, seed=101 + n, tables=tables)
        totals = values[:, None] + values[None, :]
        mean = float((joint * totals).sum())
        var = float((joint * (totals - mean) ** 2).sum())
        mu4 = float((joint * (totals - mean) ** 4).sum())
        se_sd = math.sqrt((mu4 - var ** 2) / rounds) / (2 * math.sqrt(var))
        print(f"TC {game.labels[i]:>5}: EV/round {mean:+.5f} simulated {run.mean:+.5f} "
              f"(z = {(run.mean - mean) / run.standard_error:+.2f}); SD {math.sqrt(var):.5f} "
              f"simulated {run.sd:.5f} (z = {(run.sd - math.sqrt(var)) / se_sd:+.2f})")


if __name__ == "__main__":
    main()
