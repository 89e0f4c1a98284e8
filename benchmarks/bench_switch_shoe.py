"""Blackjack Switch dealt from a counted shoe (``simulate_switch_shoe``) against the Switch
counted game (``CountedGame`` of Switch rules), at more rounds than the tests
(tests/test_switch_shoe.py):

    PYTHONPATH=python:src python benchmarks/bench_switch_shoe.py [ROUNDS] [DECKS] [SPLIT] [INSURANCE]

ROUNDS in all (default 4e7, in 40 runs of their own seeds: the errors come from the spread
of the runs, as rounds of one shoe are correlated through the count), DECKS (default 1),
SPLIT the most hands a split makes (default 1: no splitting), INSURANCE a true count at
which both hands are insured (default: never).  Both: Hi-Lo, floored true counts, exact
decks, penetration 0.6, flat betting, the full shoe's decisions.  The game: three depth
bands, true counts -3..+4 (the ends collect the rest), round-length correction (its
default).  Printed: the flat win rate per unit bet and the edge in each of the game's
true-count bins, the game's against the simulation's with z-scores, and the time of each.
"""
from __future__ import annotations

import math
import sys
import time

import numpy as np
from bjsolve import CountedGame, Rules
from bjsolve.exact.switch import solve_switch
from bjsolve.simulation.switch_shoe import simulate_switch_shoe

RUNS = 40
PENETRATION = 0.6
TC_MIN, TC_MAX = -3, 4


def _bins(result) -> dict:
    """{game label bin (TC_MIN .. TC_MAX, the ends collecting the rest): (won, played)}."""
    out = {}
    for row in result.per_true_count:
        if not row.played:
            continue
        tc = min(max(row.true_count, TC_MIN), TC_MAX)
        won, played = out.get(tc, (0.0, 0))
        out[tc] = (won + row.mean * row.played, played + row.played)
    return out


def main() -> None:
    rounds = int(float(sys.argv[1])) if len(sys.argv) > 1 else 40_000_000
    decks = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    split = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    insurance = int(sys.argv[4]) if len(sys.argv) > 4 else False
    rules = Rules.preset("blackjack-switch").replace(decks=decks, max_split_hands=split)
    start = time.perf_counter()
    game = CountedGame(rules, "hilo", penetration=PENETRATION, tc_min=TC_MIN, tc_max=TC_MAX,
                       insurance=insurance)
    print(f"{rules.describe()}, insurance {insurance}: game {time.perf_counter() - start:.1f} s")
    flat = float(game.frequency @ game.edge)
    switch = solve_switch(rules)
    start = time.perf_counter()
    runs = [simulate_switch_shoe(switch, rounds // RUNS, seed=1000 + k,
                                 penetration=PENETRATION, insurance=insurance)
            for k in range(RUNS)]
    print(f"simulation: {rounds:,} rounds in {time.perf_counter() - start:.1f} s")
    means = np.array([r.win_rate for r in runs])
    mean, se = float(means.mean()), float(means.std(ddof=1) / math.sqrt(RUNS))
    print(f"flat win rate per unit bet: game {flat:+.6f}, simulated {mean:+.6f} +- {se:.6f} "
          f"(z = {(mean - flat) / se:+.2f})")
    per_run = [_bins(r) for r in runs]
    for i, label in enumerate(game.labels):
        # (the game's labels: the counts it met, TC_MIN .. TC_MAX)
        tc = int(label.replace("<=", "").replace(">=", ""))
        edges = np.array([b[tc][0] / b[tc][1] for b in per_run if tc in b and b[tc][1]])
        freq = sum(b.get(tc, (0, 0))[1] for b in per_run) / sum(r.played for r in runs)
        if len(edges) < 2:
            continue
        m, s = float(edges.mean()), float(edges.std(ddof=1) / math.sqrt(len(edges)))
        print(f"TC {label:>5}: frequency game {game.frequency[i]:.4f} simulated {freq:.4f}; "
              f"edge game {game.edge[i]:+.5f} simulated {m:+.5f} +- {s:.5f} "
              f"(z = {(m - game.edge[i]) / s:+.2f})")


if __name__ == "__main__":
    main()
