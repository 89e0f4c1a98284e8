"""The counted game of the games against the compiled simulator: 6D Free Bet H17 and 6D
Spanish 21 H17 with redoubling (``Rules.preset``), Hi-Lo (floor, exact decks remaining:
48-card decks in the Spanish shoe), 75% penetration, the chart and the full shoe's
after-double chart (``after_double="basic"`` in the simulator), the ramp 1:1,2:2,3:4,4:8,5:12.

    python benchmarks/bench_game_games.py [--rounds 4e7] [--runs 20] [--seed 3000]
                                          [--preset free-bet] [--preset spanish-21]
                                          [--preset pontoon] [--preset super-fun-21]
                                          [--decks N] [--threads 1]

``--decks``: the preset dealt with that many decks (default: the preset's own; the figures
of docs/counted-game.md for Pontoon and Super Fun 21 name theirs).

Printed per true count: the frequency and the edge against the simulation (z = difference
/ standard error, errors from the spread of independent runs: rounds of one shoe are
correlated through the count) and the SD, the rounds per shoe, the flat win rate, and the ramp's win
rate and SD per round (when the game's variance is computed: it needs the games' outcome
law) with their simulated values.
"""
from __future__ import annotations

import argparse
import math
import time

import numpy as np

import bjsolve
from bjsolve import Rules
from bjsolve.risk.game import CountedGame
from bjsolve.risk.ramp import parse_ramp

RAMP = "1:1,2:2,3:4,4:8,5:12"


def simulated(rules, game, rounds: int, runs: int, seed: int, ramp, threads=None):
    """Per true count of the game (ends pooled): frequency, its SE, edge, its SE, SD, its
    SE; the rounds per shoe; the ramp's win per round and SD per round with their SEs."""
    values = np.asarray(game.tc_values)
    lo, hi = int(values[0]), int(values[-1])
    n = len(values)
    freq, wins, dealt = np.zeros((runs, n)), np.zeros((runs, n)), np.zeros((runs, n))
    squares = np.zeros((runs, n))
    per_shoe, win, sd = np.zeros(runs), np.zeros(runs), np.zeros(runs)
    bets = {float(k): float(v) for k, v in ramp.points}
    for k in range(runs):
        res = bjsolve.simulate(rules, rounds=rounds // runs, seed=seed + k,
                               penetration=game.penetration, system="hilo",
                               tc_rounding="floor", after_double="basic", ramp=bets,
                               threads=threads)
        for row in res.per_true_count:
            if row.rounds:
                # the game's bin (ends pooled; a small shoe skips some counts, and a
                # count the game has no bin for joins the one above, as the game pools)
                tc = min(max(int(row.true_count), lo), hi)
                i = min(int(np.searchsorted(values, tc)), n - 1)
                freq[k, i] += row.rounds / res.rounds
                wins[k, i] += row.mean * row.rounds
                sd_row = row.sd if row.rounds > 1 else 0.0
                squares[k, i] += (sd_row ** 2 + row.mean ** 2) * row.rounds
                dealt[k, i] += row.rounds
        per_shoe[k] = res.rounds / res.shuffles
        win[k], sd[k] = res.mean, res.sd
    root = math.sqrt(runs)
    edge = wins / np.maximum(dealt, 1)
    sd_tc = np.sqrt(np.maximum(squares / np.maximum(dealt, 1) - edge ** 2, 0.0))
    return (freq.mean(0), freq.std(0, ddof=1) / root, edge.mean(0),
            edge.std(0, ddof=1) / root, sd_tc.mean(0), sd_tc.std(0, ddof=1) / root,
            per_shoe.mean(), per_shoe.std(ddof=1) / root,
            win.mean(), win.std(ddof=1) / root, sd.mean(), sd.std(ddof=1) / root)


def compare(preset: str, rounds: int, runs: int, seed: int, decks=None,
            threads=None) -> None:
    rules = Rules.preset(preset) if decks is None else Rules.preset(preset, decks=decks)
    ramp = parse_ramp(RAMP)
    t0 = time.perf_counter()
    game = CountedGame(rules, "hilo", penetration=0.75)
    built = time.perf_counter() - t0
    print(f"== {preset}: {rules.describe()}")
    print(f"   CountedGame built in {built:.1f} s ({', '.join(f'{k} {v:.1f} s' for k, v in game.timings.items())})")
    t0 = time.perf_counter()
    (f, fse, e, ese, s_tc, s_tc_se, shoe, shoe_se, w, w_se, sd, sd_se) = simulated(
        rules, game, rounds, runs, seed, ramp, threads)
    print(f"   simulated {rounds:,} rounds in {runs} runs (seeds {seed}..{seed + runs - 1}) "
          f"in {time.perf_counter() - t0:.0f} s")
    print(f"   {'TC':>6} {'frequency':>9} {'simulated':>18} {'z':>6}   {'edge':>8} "
          f"{'simulated':>18} {'z':>6}   {'SD':>6} {'simulated':>15} {'z':>6}")
    model_sd = np.sqrt(game.variance)
    for i, label in enumerate(game.labels):
        zf = (game.frequency[i] - f[i]) / fse[i] if fse[i] > 0 else math.nan
        ze = (game.edge[i] - e[i]) / ese[i] if ese[i] > 0 else math.nan
        zs = (model_sd[i] - s_tc[i]) / s_tc_se[i] if s_tc_se[i] > 0 else math.nan
        print(f"   {label:>6} {game.frequency[i]:9.5f} {f[i]:9.5f} +- {fse[i]:.5f} {zf:+6.2f}   "
              f"{game.edge[i]:+8.5f} {e[i]:+9.5f} +- {ese[i]:.5f} {ze:+6.2f}   "
              f"{model_sd[i]:6.3f} {s_tc[i]:6.3f} +- {s_tc_se[i]:.3f} {zs:+6.2f}")
    zf = (game.frequency - f) / fse
    ze = (game.edge - e) / np.where(ese > 0, ese, np.nan)
    zs = (model_sd - s_tc) / np.where(s_tc_se > 0, s_tc_se, np.nan)
    print(f"   largest |z|: frequency {np.nanmax(np.abs(zf)):.2f}, edge "
          f"{np.nanmax(np.abs(ze)):.2f}, SD {np.nanmax(np.abs(zs)):.2f}")
    print(f"   rounds per shoe {game.rounds_per_shoe:.3f} against {shoe:.3f} +- {shoe_se:.3f}")
    print(f"   flat win rate {float(game.frequency @ game.edge):+.5f} (full shoe's chart EV "
          f"{game.full_shoe_chart_ev:+.5f})")
    r = game.evaluate(ramp)
    print(f"   ramp {RAMP}: win per round {r.win_rate:+.5f} against {w:+.5f} +- {w_se:.5f} "
          f"(z {(r.win_rate - w) / w_se:+.2f}); SD per round {r.sd:.4f} against {sd:.4f} +- "
          f"{sd_se:.4f} (z {(r.sd - sd) / sd_se:+.2f}); win/100 {100 * r.win_rate:.3f}, "
          f"SD/100 {10 * r.sd:.2f}, SCORE {r.score:.2f}")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=float, default=4e7)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--seed", type=int, default=3000)
    parser.add_argument("--preset", action="append",
                        choices=("free-bet", "spanish-21", "pontoon", "super-fun-21"))
    parser.add_argument("--decks", type=int, default=None)
    parser.add_argument("--threads", type=int, default=None,
                        help="the simulator's threads (default: every core)")
    args = parser.parse_args(argv)
    for preset in args.preset or ("free-bet", "spanish-21"):
        compare(preset, int(args.rounds), args.runs, args.seed, args.decks, args.threads)


if __name__ == "__main__":
    main()
