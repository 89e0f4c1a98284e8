"""Runs that outgrow one machine, on Dask (the optional ``[dask]`` extra).

* ``simulate(..., client=client)`` ships the game plan to every worker once and the seeded
  chunks one task each; the results come back and are merged in chunk order, so the same
  seed and ``chunk_rounds`` give the same result as a local run, bit for bit.
* ``solve_grid(client, games)`` solves many rule sets or shoes exactly, one task each.

A task that fails (a worker that dies and takes the task's retries with it, or an error in
the task) fails the whole run with the chunk or game named: never a silently smaller sample.

    from dask.distributed import Client
    client = Client("tcp://scheduler:8786")          # or Client(LocalCluster(...))
    bjsolve.simulate(rules, rounds=10**10, seed=1, client=client, chunk_rounds=10**7)
"""
from __future__ import annotations

import importlib

from ..exact.kernel_rules import check_split_class
from ..exact.solver import solve
from ..model.rules import Rules


class DistributedRunError(RuntimeError):
    """A chunk or a solve failed on the cluster; the message names which."""


def _need_dask():
    try:
        importlib.import_module("dask.distributed")
    except ImportError:
        raise ImportError("running on Dask needs the optional dependency: "
                          "pip install 'bjsolve[dask]'") from None


def _run_chunk(plan, seed, chunk, rounds, bankroll):
    return plan.run(seed, chunk, rounds, None, bankroll)


def run_chunks(client, plan, seed: int, specs, reporter=None, *, bankroll: float = 0.0):
    """Run [(chunk number, rounds)] on the client's workers; returns (the results of the
    chunks finished, in chunk order; partial?).  Ctrl-C cancels the chunks not yet done and
    returns the others (partial = True); a chunk that fails raises DistributedRunError."""
    _need_dask()
    from dask.distributed import as_completed
    # a key of its own (hash=False): the same plan scattered again (the bankroll paths after
    # the rounds, batch after batch) got the same content-derived key while the scheduler
    # was dropping it with the last run's future ("lost dependencies")
    [plan_future] = client.scatter([plan], broadcast=True, hash=False)
    futures = [client.submit(_run_chunk, plan_future, seed, chunk, n, bankroll,
                             key=f"bjsolve-chunk-{seed}-{chunk}-{n}-{bankroll:g}", pure=False)
               for chunk, n in specs]
    index = {f.key: i for i, f in enumerate(futures)}
    results = [None] * len(futures)
    partial = False
    try:
        for future in as_completed(futures):
            i = index[future.key]
            chunk, n = specs[i]
            try:
                results[i] = future.result()
            except Exception as e:
                raise DistributedRunError(
                    f"chunk {chunk} ({n} rounds, seed {seed}) failed on the cluster: "
                    f"{type(e).__name__}: {e}") from e
            if reporter:
                reporter(n)
    except KeyboardInterrupt:
        partial = True
        client.cancel([f for f in futures if not f.done()])
    finally:
        for f in futures:
            f.release()
    return [r for r in results if r is not None], partial


def _solve_one(rules, shoe, split):
    sol = solve(rules, shoe=shoe, split=split)
    return {"expected_value": float(sol.expected_value),
            "ev_by_upcard": {u: float(v) for u, v in sol.ev_by_upcard.items()}}


def solve_grid(client, games, *, split: str = "CDZ-") -> list:
    """Exact solves of many games on the cluster: ``games`` is a list of ``Rules`` or
    (rules, shoe) pairs; returns, in the same order, dicts with ``expected_value`` (the
    round's unconditioned EV) and ``ev_by_upcard``."""
    _need_dask()
    split = check_split_class(split)
    jobs = []
    for i, g in enumerate(games):
        rules, shoe = (g, None) if isinstance(g, Rules) else tuple(g)
        if not isinstance(rules, Rules):
            raise TypeError(f"games[{i}] must be a Rules or (Rules, shoe), got {type(g).__name__}")
        jobs.append((rules, shoe))
    futures = [client.submit(_solve_one, r, s, split, pure=False) for r, s in jobs]
    out = []
    for i, f in enumerate(futures):
        try:
            out.append(f.result())
        except Exception as e:
            raise DistributedRunError(f"game {i} ({jobs[i][0].describe()}) failed on the "
                                      f"cluster: {type(e).__name__}: {e}") from e
    return out
