"""Whole-process times of the command line: fresh interpreters running ``python -m bjsolve``.

Each command runs ``--process-runs`` times; printed are the median and minimum wall time
and the median CPU time (user + system of the child process: on a busy machine the wall
time waits for other work, the CPU time much less).  Commands and targets (on a quiet
2-core machine): ``python -m bjsolve --help`` <= 0.15 s, ``python -m bjsolve`` (the
default ``edge`` command: a 6-deck solve, its basic-strategy chart, the chart's own house
edge) <= 0.6 s.  ``--all`` adds the other sub-commands (no targets).

The processes may write compiled bytecode (to a temporary ``PYTHONPYCACHEPREFIX``), as an
installed package has it: with ``PYTHONDONTWRITEBYTECODE`` set every run would compile
the package's sources again (~0.1 s), which no installed copy does.

Run: ``PYTHONPATH=python:src python benchmarks/bench_cli.py``
"""
from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time

# (arguments after ``python -m bjsolve``, target seconds or None)
COMMANDS = [
    (["--help"], 0.15),
    ([], 0.6),
]
MORE_COMMANDS = [
    (["strategy"], None),
    (["hand", "T", "6", "--dealer", "T"], None),
    (["dealer"], None),
    (["edge", "--decks", "1", "--h17"], None),
]


def run_once(argv, env) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one fresh interpreter running the command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "bjsolve", *argv], check=True,
                   stdout=subprocess.DEVNULL, env=env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--process-runs", type=int, default=7,
                        help="fresh interpreters per command (default 7)")
    parser.add_argument("--all", action="store_true", help="also time other sub-commands")
    args = parser.parse_args(argv)
    if args.process_runs < 1:
        parser.error("--process-runs must be >= 1")
    commands = COMMANDS + (MORE_COMMANDS if args.all else [])
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory(prefix="bjsolve-pyc-") as cache:
        env["PYTHONPYCACHEPREFIX"] = cache
        return time_commands(commands, env, args.process_runs)


def time_commands(commands, env, process_runs) -> int:
    print(f"python -m bjsolve as a fresh process, {process_runs} runs each; "
          f"python {platform.python_version()}, {os.cpu_count()} CPUs")
    print()
    header = f"{'command':<34} {'median':>8} {'min':>8} {'CPU':>8} {'target':>8}  status"
    print(header)
    print("-" * len(header))
    misses = 0
    for argv_, target in commands:
        run_once(argv_, env)   # warm the file cache and write the bytecode
        runs = [run_once(argv_, env) for _ in range(process_runs)]
        wall = statistics.median(w for w, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        name = " ".join(["bjsolve", *argv_])
        line = (f"{name:<34} {wall:>6.3f} s {min(w for w, _ in runs):>6.3f} s "
                f"{cpu:>6.3f} s")
        if target is not None:
            ok = wall <= target
            misses += not ok
            line += f" {'<= %g' % target:>8}  {'ok' if ok else 'MISS'}"
        print(line)
    print(f"targets missed: {misses}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
