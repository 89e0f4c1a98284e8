"""What the tests that simulate several independent runs of one game share: the plan built
once for all the runs."""
import contextlib


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
