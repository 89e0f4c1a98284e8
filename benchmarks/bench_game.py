"""Counted game: time of the whole analysis, re-evaluation time, and the comparison with a
simulation of the real shoe game.

    python benchmarks/bench_game.py [--rounds N] [--yardstick SECONDS] [--skip-sim]
        [--hole-card peek|enhc|enhc-obo] [--ramp TC:BET,...] [--scenario 6D|2D]

Scenarios: 6 decks S17 DAS and 2 decks H17 DAS, 75% penetration, Hi-Lo (floor, exact decks
remaining), the basic chart, the ramp 1:1,2:2,3:4,4:8,5:12 (a 1-12 spread).  The simulation
is the compiled ``bjsolve.simulate`` when it exists (with ``per_true_count``), else the
pure-Python shoe-game simulator of the test suite (far fewer rounds; the output says which).
Every true-count bin's frequency and mean are compared with the simulation (z = difference
/ standard error; standard errors from batches of whole shoes), and the ramp's win rate and
SD.  Also printed: what the average-composition shortcut costs (1 depth band against 2, 3
and 4), the flat-betting identity (the win rate is the frequency-weighted edge), and the
second moment's curvature by count (with the ramp SD one offset per band would give).
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))

from bjsolve import Rules  # noqa: E402
from bjsolve.counting.removal import SYSTEMS  # noqa: E402
from bjsolve.risk.game import CountedGame  # noqa: E402
from bjsolve.risk.ramp import parse_ramp  # noqa: E402

RAMP = "1:1,2:2,3:4,4:8,5:12"
NEW_RAMPS = ("1:1,2:2,3:4", RAMP, "1:1,2:4,3:8,4:16", "1:1,2:6,4:24")
SCENARIOS = {
    "6D S17 DAS": Rules(decks=6, hit_soft_17=False, double_after_split=True),
    "2D H17 DAS": Rules(decks=2, hit_soft_17=True, double_after_split=True),
}


def simulate(rules, game, rounds, seed, runs=40):
    """(per-TC summary {tc: (f, se_f, mean, se_mean, sd, n)}, ramp (W, se, var), label)."""
    import bjsolve
    ramp = parse_ramp(RAMP)
    lo, hi = int(game.tc_values[0]), int(game.tc_values[-1])
    if hasattr(bjsolve, "simulate"):
        try:
            return _compiled(bjsolve, rules, game, rounds, seed, ramp, lo, hi, runs)
        except (TypeError, AttributeError) as exc:   # an interface other than expected
            print(f"(compiled simulator not usable here: {exc}; using the Python one)")
    from shoe_game_sim import ramp_totals, simulate_shoe_game, summarize
    res = simulate_shoe_game(rules, SYSTEMS["hilo"][1], lambda tc: game.chart,
                             rounds=rounds, seed=seed, penetration=game.penetration)
    pooled = {}
    for tc, cells in res["bins"].items():
        key = min(max(tc, lo), hi)
        slot = pooled.setdefault(key, [[0, 0.0, 0.0] for _ in cells])
        for a, b in zip(slot, cells):
            for k in range(3):
                a[k] += b[k]
    res = {"bins": pooled, "rounds": res["rounds"], "cards": res["cards"]}
    return (summarize(res), ramp_totals(res, lambda tc: float(ramp.bets([tc])[0])) + (math.nan,),
            f"pure-Python shoe simulation, {rounds:,} rounds")


def _compiled(bjsolve, rules, game, rounds, seed, ramp, lo, hi, runs):
    """``runs`` independent simulations (seeds seed..seed+runs-1) of rounds/runs rounds each:
    standard errors from their spread (rounds of one shoe are correlated, so the per-round
    errors a single run reports understate the frequencies' errors).  An error estimated
    from k runs is itself uncertain by about 1/sqrt(2(k-1)) (24% with 10 runs, 11% with
    40): use many runs before reading a z of 3 as a miss."""
    ramp_map = {float(k): float(v) for k, v in ramp.points}
    per_run = []
    for k in range(runs):
        result = bjsolve.simulate(rules, rounds=rounds // runs, seed=seed + k,
                                  penetration=game.penetration, system="hilo",
                                  tc_rounding="floor", ramp=ramp_map)
        acc = {}
        for row in result.per_true_count:
            key = min(max(int(row.true_count), lo), hi)
            a = acc.setdefault(key, [0, 0.0, 0.0])
            if row.rounds:
                a[0] += row.rounds
                a[1] += row.mean * row.rounds
                a[2] += (row.sd ** 2 + row.mean ** 2) * row.rounds if row.rounds > 1 else \
                    row.mean ** 2
        per_run.append((result.rounds, acc, result.mean, result.sd))
    out = {}
    total = sum(r for r, *_ in per_run)
    for key in sorted({k for _, acc, *_ in per_run for k in acc}):
        fr = np.array([acc.get(key, [0, 0, 0])[0] / r for r, acc, *_ in per_run])
        means = np.array([acc[key][1] / acc[key][0] if acc.get(key, [0])[0] else np.nan
                          for _, acc, *_ in per_run])
        n = sum(acc.get(key, [0])[0] for _, acc, *_ in per_run)
        s1 = sum(acc.get(key, [0, 0.0])[1] for _, acc, *_ in per_run)
        s2 = sum(acc.get(key, [0, 0.0, 0.0])[2] for _, acc, *_ in per_run)
        mean = s1 / n if n else np.nan
        sd = math.sqrt(max(s2 / n - mean * mean, 0.0)) if n else np.nan
        ok = ~np.isnan(means)
        se_m = float(np.std(means[ok], ddof=1) / math.sqrt(ok.sum())) if ok.sum() > 2 else np.nan
        out[key] = (n / total, float(np.std(fr, ddof=1) / math.sqrt(runs)), mean, se_m, sd, n)
    wins = np.array([m for *_, m, _ in per_run])
    sds = np.array([s for *_, s in per_run])
    return (out, (float(wins.mean()), float(wins.std(ddof=1) / math.sqrt(runs)),
                  float((sds ** 2).mean()), float(sds.std(ddof=1) / math.sqrt(runs))),
            f"compiled simulator, {total:,} rounds in {runs} independent runs (errors from "
            f"their spread)")


def compare(name, rules, rounds, seed, skip_sim, runs=40):
    t0 = time.perf_counter()
    game = CountedGame(rules, "hilo", penetration=0.75)
    whole = time.perf_counter() - t0
    ramp = parse_ramp(RAMP)
    new_ramp = {}
    for text in NEW_RAMPS:
        spent = []                              # (not `runs`: that is the simulation's)
        for _ in range(7):
            game._ruin_cache.clear()            # a NEW ramp: its ruin factorization not cached
            t = time.perf_counter()
            game.evaluate(text, 1_000)
            spent.append(time.perf_counter() - t)
        new_ramp[text] = float(np.median(spent))
    times, plain = [], []
    game.evaluate(ramp, 1_000)
    for bankroll in (5_000, 10_000, 20_000, 40_000, 80_000):
        t = time.perf_counter()
        res = game.evaluate(ramp, bankroll)    # a bankroll change: the cached factorization
        times.append(time.perf_counter() - t)
        t = time.perf_counter()
        game.evaluate(ramp, bankroll, exact_ruin=False)
        plain.append(time.perf_counter() - t)
    print(f"\n=== {name}: whole analysis {whole:.1f} s "
          f"({', '.join(f'{k} {v:.1f} s' for k, v in game.timings.items())}; "
          f"{game.solves} exact evaluations); calibration offsets by depth band: mean "
          f"{np.array2string(game.band_offset, precision=6)}, second moment "
          f"{np.array2string(game.band_offset_second, precision=5)}")
    print("re-evaluation, medians of 7 (one thread; target 50 ms): new ramp with the exact "
          "ruin: " + "; ".join(f"{k} {1e3 * v:.1f} ms" for k, v in new_ramp.items()) +
          f"; bankroll change {1e3 * float(np.median(times)):.2f} ms; without the exact ruin "
          f"{1e3 * float(np.median(plain)):.2f} ms")
    flat = game.evaluate({0: 1})
    print(f"flat betting: win rate {flat.win_rate:+.6f} = sum f x edge "
          f"{float(game.frequency @ game.edge):+.6f}; full-shoe chart EV "
          f"{game.full_shoe_chart_ev:+.6f} (the difference is the round-start effect)")
    res = game.evaluate(ramp, 10_000)
    print(f"ramp {RAMP}: W/100 {res.win_per_100:.4f}  SD/100 {res.sd_per_100:.3f}  "
          f"DI {res.di:.3f}  SCORE {res.score:.2f}  N0 {res.n0:,.0f}  "
          f"RoR(10k) exact {res.ror:.4g}, diffusion {res.ror_diffusion:.4g}")
    print(_variance_note(game, ramp))
    if skip_sim:
        return game
    t0 = time.perf_counter()
    per_tc, (w, w_se, var, sd_se), label = simulate(rules, game, rounds, seed, runs)
    print(f"simulation: {label} ({time.perf_counter() - t0:.0f} s)")
    print(f"{'TC':>6} {'f exact':>9} {'f sim':>9} {'z':>6} | {'edge':>8} {'sim':>8} {'z':>6}"
          f" | {'SD':>7} {'sim':>7}")
    worst_f = worst_m = 0.0
    for i, tc in enumerate(game.tc_values):
        if int(tc) not in per_tc:
            print(f"{game.labels[i]:>6} {game.frequency[i]:9.5f}   (not seen)")
            continue
        f, se_f, m, se_m, sd, n = per_tc[int(tc)]
        zf = (game.frequency[i] - f) / se_f if se_f > 0 else 0.0
        zm = (game.edge[i] - m) / se_m if se_m > 0 and n > 1 else 0.0
        worst_f, worst_m = max(worst_f, abs(zf)), max(worst_m, abs(zm))
        print(f"{game.labels[i]:>6} {game.frequency[i]:9.5f} {f:9.5f} {zf:+6.2f} | "
              f"{game.edge[i]:+8.4f} {m:+8.4f} {zm:+6.2f} | {math.sqrt(game.variance[i]):7.4f} "
              f"{sd:7.4f}")
    print(f"largest |z|: frequency {worst_f:.2f}, edge {worst_m:.2f} (3 = the acceptance bound)")
    print(f"ramp win rate per round: exact {res.win_rate:+.5f}, simulated {w:+.5f} +- {w_se:.5f} "
          f"(z {(res.win_rate - w) / w_se:+.2f}); SD per round exact {res.sd:.4f}, simulated "
          f"{math.sqrt(var):.4f} +- {sd_se:.4f} (z {(res.sd - math.sqrt(var)) / sd_se:+.2f})")
    return game


def _variance_note(game, ramp):
    """How the second moment's calibration was shared out, and the ramp's SD per round
    with one offset per depth band instead (the previous method: for both moments), for
    comparison."""
    if game.curvature_used != "count":
        return "variance: one second-moment offset per depth band"
    tcs, curv = game.curvature_anchors
    shape = game.curvature_shape
    sd = game.evaluate(ramp).sd
    game._calibrate(np.ones_like(shape))
    sd_band = game.evaluate(ramp).sd
    game._calibrate(shape, game.edge_curvature_shape)   # back to the default
    per_class = "; ".join(f"TC {t:+.0f}: " + ", ".join(f"{c:.3f}" for c in row)
                          for t, row in zip(tcs, curv))
    return (f"variance: second-moment offsets shared out per count by the curvature per tag "
            f"class x cards left^2 ({per_class}; {game.curvature_laws} more laws); ramp SD "
            f"per round {sd:.4f} (one offset per band: {sd_band:.4f})")


def shortcut_cost(name, rules):
    print(f"\n--- {name}: what the average-composition shortcut costs (ramp {RAMP}) ---")
    print(f"{'bands':>5} {'calibrated':>10} {'W/100':>9} {'SCORE':>8} {'edge TC+3':>10} "
          f"{'offsets (deepest band)':>24} {'time':>6}")
    for bands in (1, 2, 3, 4):
        for calibrate in (False, True):
            t0 = time.perf_counter()
            g = CountedGame(rules, "hilo", penetration=0.75, depth_bands=bands,
                            calibrate=calibrate)
            dt = time.perf_counter() - t0
            r = g.evaluate(RAMP)
            i3 = list(g.tc_values).index(3)
            print(f"{bands:5d} {str(calibrate):>10} {r.win_per_100:9.4f} {r.score:8.3f} "
                  f"{g.edge[i3]:+10.5f} {g.band_offset[-1]:+24.6f} {dt:6.1f}")


def main(argv=None):
    global RAMP
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=100_000_000,
                   help="simulated rounds per scenario (default 1e8 with the compiled "
                        "simulator, about 500k rounds a second on the shared machine; the "
                        "pure-Python one deals about 20k a second: give fewer)")
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--yardstick", type=float, default=0.0151,
                   help="seconds per yardstick on this machine (default 0.0151)")
    p.add_argument("--runs", type=int, default=40,
                   help="independent simulation runs the standard errors come from (40)")
    p.add_argument("--skip-sim", action="store_true")
    p.add_argument("--hole-card", choices=("peek", "enhc", "enhc-obo"), default="peek",
                   help="deal the scenarios with the peek (default) or with no hole card")
    p.add_argument("--ramp", default=RAMP, help=f"the ramp compared (default {RAMP})")
    p.add_argument("--scenario", choices=("6D", "2D"),
                   help="only the scenario of these decks (default: both)")
    p.add_argument("--shortcut", action="store_true",
                   help="also measure the average-composition shortcut (slow)")
    args = p.parse_args(argv)
    RAMP = parse_ramp(args.ramp).describe()      # (the functions read the ramp from here)
    scenarios = {(name if args.hole_card == "peek" else f"{name} {args.hole_card.upper()}"):
                 rules.replace(hole_card=args.hole_card)
                 for name, rules in SCENARIOS.items()
                 if args.scenario is None or name.startswith(args.scenario)}
    print("(timings on a shared 2-core machine: medians where repeated)")
    for name, rules in scenarios.items():
        compare(name, rules, args.rounds, args.seed, args.skip_sim, args.runs)
    if args.shortcut:
        for name, rules in scenarios.items():
            shortcut_cost(name, rules)


if __name__ == "__main__":
    main()
