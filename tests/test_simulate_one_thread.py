"""simulate() with one worker runs in the calling thread: under a tight memory limit it no
longer fails starting a thread, and one Ctrl-C still stops it at once.

Before, run_local started a worker thread also for threads=1.  Under RLIMIT_AS a few MB
above the mapped size that gave ``RuntimeError: can't start new thread``, a thread that
died while starting (and a wait for it that never ended), or glibc's "cannot allocate
memory for thread-local data: ABORT" (exit 127).  Each case runs in a child process with
a generous timeout: a hang fails the test instead of hanging it.
"""
import json
import os
import resource
import signal
import subprocess
import sys

import pytest

from children import VM_SIZE_SOURCE, child_env, sigint_as_in_a_terminal

pytestmark = pytest.mark.skipif(
    not (sys.platform.startswith("linux") and os.path.exists("/proc/self/status")),
    reason="needs RLIMIT_AS and /proc/self/status (Linux)")

MEMORY_CHILD = VM_SIZE_SOURCE + r"""
import json, resource, sys
import numpy
from bjsolve import Rules, simulate
from bjsolve.simulation.simulator import build_plan

def run():
    r = simulate(Rules(decks=2), rounds=20_000, seed=11, threads=THREADS, chunk_rounds=5_000,
                 indices=INDICES)
    return [r.rounds, r.mean, r.sd, r.partial]

THREADS = int(sys.argv[1])
INDICES = sys.argv[4] if sys.argv[4] != "none" else None
# warm: the strategy's solve is cached, so that the limit is on the run (cold: the solve
# runs under the limit too, on the simulation's threads); no run before the limited ones:
# a thread that ran and ended leaves its stack to the next one
if sys.argv[3] == "warm":
    build_plan(Rules(decks=2), threads=THREADS)
# cold or warm, the compiled modules are loaded before any limit: loading one under a tight
# RLIMIT_AS can make glibc's loader abort (exit 127) for want of memory for its
# thread-local data, a failure of dlopen that no library can turn into a MemoryError
# (bjcore loads each module on first use: every name of its interface loads them all)
import bjcore
for name in bjcore.__all__:
    getattr(bjcore, name)
soft, hard = resource.getrlimit(resource.RLIMIT_AS)
results = []
for mb in json.loads(sys.argv[2]):
    resource.setrlimit(resource.RLIMIT_AS, (vm_size() + int(mb * 2**20), hard))
    try:
        got, error = run(), None
    except MemoryError:
        got, error = None, "MemoryError"
    resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    results.append({"mb": mb, "error": error, "got": got})
want = run()
for r in results:
    print(json.dumps({"mb": r["mb"], "error": r["error"], "exact": r["got"] == want}),
          flush=True)
"""


@pytest.mark.parametrize("threads, solved, indices", [(1, "warm", "none"), (2, "warm", "none"),
                                                      (1, "cold", "none"),
                                                      (1, "cold", "i18")])
def test_a_tight_memory_limit_gives_the_result_or_a_memory_error(threads, solved, indices):
    """threads=1 starts no thread (nor does the strategy's solve, nor the index table's
    solves: i18 made on the spot); threads=2 falls back
    to fewer workers (or the calling thread) when a thread cannot be started.  Never a
    RuntimeError, a crash or a hang.  (1, cold, i18) ended one run in five with glibc's
    "cannot allocate memory for thread-local data: ABORT" (exit 127) before the kernels
    made each thread ready to throw on the way in (alloc.h, bj_prepare_thread)."""
    if resource.getrlimit(resource.RLIMIT_AS)[1] != resource.RLIM_INFINITY:
        pytest.skip("the address space is already capped")
    limits = [0, 1, 2, 4] if indices == "none" else [0, 2, 4, 8, 12, 16, 24, 32]
    proc = subprocess.run([sys.executable, "-c", MEMORY_CHILD, str(threads), json.dumps(limits),
                           solved, indices],
                          capture_output=True, text=True, timeout=120, env=child_env())
    assert proc.returncode == 0, f"child ended with {proc.returncode}\n{proc.stderr[-2000:]}"
    assert "Exception ignored" not in proc.stderr, proc.stderr[-2000:]
    results = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [r["mb"] for r in results] == limits
    for r in results:
        assert r["exact"] or r["error"] == "MemoryError", r


INTERRUPT_CHILD = r"""
import signal, sys
from bjsolve import Rules, simulate
from bjsolve.simulation.game_plan import GamePlan
kernel = GamePlan.run
def run(*args):                   # says when the first chunk goes into the kernel
    if not said:
        said.append(print("ready", flush=True))
    return kernel(*args)
GamePlan.run, said = run, []
heard = []
def on_sigint(signum, frame):     # the program's own handler must run, once
    heard.append(signum)
    raise KeyboardInterrupt
signal.signal(signal.SIGINT, on_sigint)
kwargs = dict(rounds=10**12, seed=3, threads=1, chunk_rounds=10**9)
if sys.argv[1] == "bankroll":     # the bankroll paths after the rounds
    kwargs = dict(rounds=1000, seed=3, threads=1, bankroll_trials=(2, 10**12, 10**9))
r = simulate(Rules(decks=2), **kwargs)
print(r.partial, r.rounds, len(heard), r.ruin is None, flush=True)
"""


@pytest.mark.parametrize("what", ["rounds", "bankroll"])
def test_one_ctrl_c_stops_a_run_in_the_calling_thread(what):
    """threads=1 and a chunk of 10**9 rounds: one SIGINT ends the chunk (the kernel looks
    for it every 65,536 rounds), the program's SIGINT handler runs once, and simulate()
    returns the rounds dealt so far marked partial (bankroll paths: dropped).  Before the
    kernel looked, nothing but the end of the chunk could stop it.  Bounded waits only."""
    child = subprocess.Popen([sys.executable, "-c", INTERRUPT_CHILD, what], text=True,
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=child_env(),
                             preexec_fn=sigint_as_in_a_terminal)
    try:
        assert child.stdout.readline() == "ready\n"
        try:
            child.wait(1.0)           # into the chunk (not a timing assertion)
        except subprocess.TimeoutExpired:
            pass
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 0, err[-2000:]
    partial, rounds, heard, no_ruin = out.split()
    assert partial == "True" and heard == "1"
    if what == "rounds":
        assert 0 < int(rounds) < 10**12
    else:
        assert rounds == "1000" and no_ruin == "True"
