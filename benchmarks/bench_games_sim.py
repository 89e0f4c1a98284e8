"""The games' simulator against the exact value of the same strategy (issue: every game within
4 standard errors over >= 10^8 rounds).

    python benchmarks/bench_games_sim.py [--rounds N] [--games free-bet,spanish-21,super-fun-21]
                                         [--penetration every-round] [--threads T] [--seed S]

For each game (Free Bet: the preset, 6 decks H17; Spanish 21: the preset; Super Fun 21: the
preset, one deck, its charlie, diamond naturals, surrender at any time and five-card 21
paid at once) the basic chart of
its solve is played twice:

- exactly: ``solve(rules).evaluate(chart, after_double=...)``, a full shoe off the top;
- by the compiled simulator: ``bjsolve.simulate(rules, strategy=chart, after_double=...)``.

``after_double="basic"`` (games with redoubles or double rescue) names on both sides the same
full-shoe chart for the choice after a double (``bjsolve.exact.policy.after_double_chart``),
so the two play the same game.  With ``--penetration every-round`` (the default) every round
is dealt from a freshly shuffled shoe: the exact value's full shoe, and independent rounds, so
the simulator's standard error is exact.  A cut card (``--penetration 0.75``) adds the
cut-card effect, which the exact value does not hold: z then measures that effect too.

Printed per game: rounds, the simulated mean and its SE, the exact value, z = (mean - exact)
/ SE, and the rate (rounds a second, this run's wall time including the solve).
"""
from __future__ import annotations

import argparse
import time

import bjsolve
from bjsolve import Rules

GAMES = ("free-bet", "spanish-21", "super-fun-21")


def after_double_for(rules: Rules):
    """'basic' where the rules give a choice after a double, else None (no choice)."""
    return "basic" if (rules.redoubles or rules.double_rescue) else None


def compare(name: str, rounds: int, seed: int, penetration, threads: int) -> dict:
    rules = Rules.preset(name)
    after = after_double_for(rules)
    t0 = time.perf_counter()
    solution = bjsolve.solve(rules, threads=threads)
    chart = solution.strategy
    exact = float(solution.evaluate(chart, after_double=after))
    t1 = time.perf_counter()
    res = bjsolve.simulate(rules, rounds=rounds, seed=seed, strategy=chart,
                           after_double=after, penetration=penetration, threads=threads)
    t2 = time.perf_counter()
    return dict(game=name, rules=rules.describe(), rounds=rounds, mean=res.mean, se=res.se,
                exact=exact, z=(res.mean - exact) / res.se, solve_s=t1 - t0, sim_s=t2 - t1,
                rate=rounds / (t2 - t1))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=float, default=1e8, help="rounds per game (1e8)")
    ap.add_argument("--games", default=",".join(GAMES), help="presets, comma-separated")
    ap.add_argument("--penetration", default="every-round",
                    help="'every-round' (default) or a fraction such as 0.75")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=20261128)
    args = ap.parse_args(argv)
    penetration = (args.penetration if args.penetration == "every-round"
                   else float(args.penetration))
    rounds = int(args.rounds)
    print(f"# {rounds:,} rounds a game, penetration {penetration}, threads {args.threads}, "
          f"seed {args.seed}; the basic chart, after_double='basic' where the game has one")
    print(f"{'game':<11} {'rounds':>13} {'sim mean':>11} {'SE':>10} {'exact':>11} "
          f"{'z':>6} {'rounds/s':>10}")
    worst = 0.0
    for name in args.games.split(","):
        r = compare(name.strip(), rounds, args.seed, penetration, args.threads)
        worst = max(worst, abs(r["z"]))
        print(f"{r['game']:<11} {r['rounds']:>13,} {r['mean']:>+11.7f} {r['se']:>10.7f} "
              f"{r['exact']:>+11.7f} {r['z']:>+6.2f} {r['rate']:>10,.0f}", flush=True)
        print(f"#   {r['rules']}; solve+evaluate {r['solve_s']:.1f} s, simulation "
              f"{r['sim_s']:.1f} s")
    print(f"# largest |z| {worst:.2f} ({'within' if worst < 4 else 'OUTSIDE'} 4 SE)")
    return 0 if worst < 4 else 1


if __name__ == "__main__":
    raise SystemExit(main())
