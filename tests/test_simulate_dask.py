"""Simulation and exact-solve grids on Dask (the test extra installs dask[distributed]; skipped
only where it is missing, and CI fails if it is).

A LocalCluster with two worker processes runs the seeded chunks: the merged result must be
identical to the local run with the same seed and chunking; a worker that dies must fail
the run with the chunk named.
"""
import os
import sys

import pytest

distributed = pytest.importorskip("dask.distributed")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bjsolve  # noqa: E402
from bjsolve import Rules  # noqa: E402
from bjsolve.simulation.distributed import DistributedRunError, run_chunks, solve_grid  # noqa: E402
from bjsolve.simulation.simulator import GamePlan, build_plan  # noqa: E402


@pytest.fixture(scope="module")
def client():
    import dask
    here = os.path.dirname(os.path.abspath(__file__))
    # the worker processes import bjsolve (and this file's DyingPlan) from the same paths
    paths = [p for p in sys.path if p] + [here]
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(paths)
    try:
        with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
            cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1,
                                               processes=True, dashboard_address=None)
            c = distributed.Client(cluster)
            yield c
            c.close()
            cluster.close()
    finally:
        if old is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = old


def test_dask_run_equals_the_local_run(client):
    kw = dict(rounds=90_000, seed=42, chunk_rounds=10_000, system="hilo",
              ramp="1:1,2:2,3:4,4:8", bankroll_trials=(20, 200, 6.0))
    local = bjsolve.simulate(Rules(decks=6), threads=2, **kw)
    remote = bjsolve.simulate(Rules(decks=6), client=client, **kw)
    assert remote.rounds == local.rounds == 90_000
    assert remote.total_won == local.total_won and remote.sd == local.sd
    assert [(r.rounds, r.mean) for r in remote.per_true_count] == \
        [(r.rounds, r.mean) for r in local.per_true_count]
    assert not remote.partial
    assert remote.ruin == local.ruin and remote.ruin.paths == 20     # the paths' batches too


class DyingPlan(GamePlan):
    """A plan whose chunk 1 kills the worker process running it."""

    def run(self, seed, chunk, rounds, stop=None, bankroll=0.0):
        if chunk == 1:
            os._exit(3)
        return super().run(seed, chunk, rounds, stop, bankroll)


def test_a_dead_worker_fails_the_run_naming_the_chunk(client):
    plan, _ = build_plan(Rules(decks=6))
    dying = DyingPlan(**vars(plan))
    with pytest.raises(DistributedRunError, match="chunk 1 "):
        run_chunks(client, dying, 5, [(0, 1000), (1, 1000), (2, 1000)])
    # the cluster still works afterwards
    done, partial = run_chunks(client, plan, 5, [(0, 1000), (2, 1000)])
    assert len(done) == 2 and not partial


def test_solve_grid_matches_local_solves(client):
    games = [Rules(decks=1), Rules(decks=2, hit_soft_17=True), (Rules(decks=6), None)]
    out = solve_grid(client, games)
    for g, o in zip(games, out):
        rules = g if isinstance(g, Rules) else g[0]
        assert abs(o["expected_value"] - bjsolve.solve(rules).expected_value) < 1e-15


def test_cli_scheduler_flag_runs_on_the_cluster(client):
    import io
    import json
    from bjsolve.cli import main
    args = ["simulate", "--rounds", "30000", "--seed", "9", "--decks", "2",
            "--chunk-rounds", "10000", "--format", "json"]
    texts = []
    for extra in ([], ["--scheduler", client.scheduler.address]):
        out = io.StringIO()
        assert main(args + extra, out=out) == 0
        texts.append({r["name"]: r["value"] for r in json.loads(out.getvalue())["tables"][0]
                      ["records"]})
    assert texts[0]["total_won"] == texts[1]["total_won"] and texts[0]["rounds"] == 30_000
