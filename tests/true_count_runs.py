"""What the counted-game tests share: the compiled simulator's figures per true count, with
standard errors from the spread of independent runs (the model's figures are checked
against them)."""
import math

import numpy as np

import bjsolve
from one_plan import one_plan_for_every_run


def simulated_by_true_count(rules, lo, hi, rounds, runs, seed, **options):
    """Per true count lo..hi (ends pooled), over ``runs`` runs of ``bjsolve.simulate`` (Hi-Lo,
    floor, 75% penetration, flat bet; ``options`` passed on, e.g. ``insurance=3`` or
    ``after_double="basic"``): ([(frequency, its SE), (edge, its SE), (SD, its SE)], rounds
    per shoe)."""
    n = hi - lo + 1
    freq, wins, squares, dealt = (np.zeros((runs, n)) for _ in range(4))
    shoes = 0
    with one_plan_for_every_run():
        results = [bjsolve.simulate(rules, rounds=rounds // runs, seed=seed + k,
                                    penetration=0.75, system="hilo", tc_rounding="floor",
                                    threads=2, **options)
                   for k in range(runs)]
    for k, res in enumerate(results):
        for row in res.per_true_count:
            if not row.rounds:
                continue
            i = min(max(int(row.true_count), lo), hi) - lo
            freq[k, i] += row.rounds / res.rounds
            wins[k, i] += row.mean * row.rounds
            sd = row.sd if row.rounds > 1 else 0.0
            squares[k, i] += (sd * sd + row.mean ** 2) * row.rounds
            dealt[k, i] += row.rounds
        shoes += res.shuffles
    edge = wins / np.maximum(dealt, 1)
    sd = np.sqrt(np.maximum(squares / np.maximum(dealt, 1) - edge ** 2, 0.0))
    root = math.sqrt(runs)
    return ([(a.mean(0), a.std(0, ddof=1) / root) for a in (freq, edge, sd)],
            rounds / shoes)

