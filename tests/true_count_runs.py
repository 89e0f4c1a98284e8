"""What the counted-game tests share: the compiled simulator's figures per true count, with
standard errors from the spread of independent runs (the model's figures are checked
against them)."""
import contextlib
import math

import numpy as np

import bjsolve


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


@contextlib.contextmanager
def one_plan_for_every_run():
    """Within: ``bjsolve.simulate`` builds its plan (the library's ``build_plan``: the chart
    and, in the games, the after-double table, over a second for Spanish 21 and nearly all of
    a short run's time) once for the same settings.  The runs differ only in their seed, which
    the plan does not hold; a plan is read-only to the kernel (run_local plays every chunk
    of a run on one plan, Dask ships one plan to all its workers), so each run plays exactly
    what it would with a plan of its own."""
    from bjsolve.simulation import simulator
    build = simulator.build_plan
    built = {}

    def build_once(*args, **kwargs):
        key = repr((args, sorted(kwargs.items())))
        if key not in built:
            built[key] = build(*args, **kwargs)
        plan, settings = built[key]
        return plan, dict(settings)

    simulator.build_plan = build_once
    try:
        yield
    finally:
        simulator.build_plan = build
