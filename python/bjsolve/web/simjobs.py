"""The Simulate page's runs: ``bjsolve.simulate`` as jobs in a pool of their own, with their
progress, a stop that keeps the rounds played so far, and finished results kept by
settings and seed.

A run is started by one request and watched by others (the page polls every quarter
second), so it cannot be an awaited call like the other pages' solves: each run is a
``Job`` the server keeps, named by a random id.  Stopping uses what ``simulate`` already
offers: its ``progress(done, total)`` callback runs in the thread that waits for the
workers, and a ``KeyboardInterrupt`` raised there ends the run the way Ctrl-C does on the
command line, with the rounds simulated so far (``result.partial``).
"""
from __future__ import annotations

import math
import os
import secrets
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import bjsolve

from ..model import parse_rounds as read_rounds
from .compute import FieldError, game_field
from .forms import index_argument

# Rounds per seeded chunk.  The simulator reports progress (and hears a stop) as chunks
# end: 100,000 rounds take a few hundredths of a second, so the bar moves smoothly and
# Stop answers at once.  The figures depend on (seed, chunk_rounds): the CLI's
# ``--chunk-rounds 1e5`` with the same seed gives the same result.
WEB_CHUNK_ROUNDS = 100_000
# one run of 1e9 rounds takes minutes on a laptop; more belongs on the command line
MAX_WEB_ROUNDS = 10**9
SEED_LIMIT = 2**64
KEPT_JOBS = 32              # finished jobs kept for their downloads (oldest forgotten)
KEPT_RESULTS = 16           # full results kept by settings and seed


@dataclass
class Job:
    """One run: ``state`` is queued, running, done (every round), stopped (a partial
    result, or none if stopped before it began) or error (``errors``: field -> message)."""
    id: str
    key: tuple
    total: int
    unit: float
    state: str = "queued"
    done: int = 0
    result: object = None           # the SimulationResult, once there is one
    errors: dict = field(default_factory=dict)
    stop: threading.Event = field(default_factory=threading.Event)


def parse_rounds(text: str) -> int:
    """The rounds field ('1e7', '10,000,000', '10M') -> a whole number 1..MAX_WEB_ROUNDS,
    read by ``bjsolve.model.parse_rounds`` as the command line reads it."""
    try:
        return read_rounds(text, "rounds", MAX_WEB_ROUNDS)
    except ValueError as exc:
        raise FieldError("rounds", str(exc)) from None


def parse_seed(text: str) -> int:
    try:
        value = int(text.strip())
    except ValueError:
        value = -1
    if not 0 <= value < SEED_LIMIT:
        raise FieldError("seed", f"seed must be a whole number 0..2**64-1, got "
                                 f"{text.strip()[:24]!r}")
    return value


def parse_sim_options(params, errors) -> dict:
    """The Simulate page's table and play options as ``simulate`` keywords: spots and
    other players' spots, insurance (a true count, 'never', or empty: the index set's),
    the table minimum and maximum (the ramp's bets are clamped to them), the true count
    the player leaves the shoe below (wong_out), how the true count is rounded and how
    the decks remaining are estimated.  Each is read here (a whole number, a number, one of
    a few words); ``simulate`` checks the ranges and how they fit together, and its
    message, which opens with the field's name, goes beside the field."""
    from .forms import DECKS_ESTIMATIONS, SIM_DEFAULTS, TC_ROUNDINGS
    text = {k: (params.get(k) or "").strip() or SIM_DEFAULTS[k] for k in SIM_DEFAULTS}
    options: dict = {}

    def whole(name: str, what: str):
        try:
            value = float(text[name].replace("+", ""))
            if value.is_integer():
                return int(value)
        except ValueError:
            pass
        errors[name] = f"{name} must be {what}, got {text[name][:20]!r}"
        return None

    options["spots"] = whole("spots", "a whole number of spots 1..7")
    options["other_spots"] = whole("other_spots", "a whole number of other players' spots "
                                                  "0..6")
    word = text["insurance"].lower()
    options["insurance"] = (None if not word else False if word == "never"
                            else whole("insurance", "a whole true count (insure at it and "
                                                    "above), 'never', or empty (the index "
                                                    "plays' insurance index)"))
    for name, what in (("table_min", "a bet in units such as 1"),
                       ("table_max", "a bet in units such as 12, or empty (no maximum)")):
        if not text[name]:
            options[name] = None
            continue
        try:
            options[name] = float(text[name])
        except ValueError:
            errors[name] = f"{name} must be {what}, got {text[name][:20]!r}"
    options["wong_out"] = (None if not text["wong_out"] else
                           whole("wong_out", "a whole true count, or empty (never leave)"))
    for name, allowed in (("tc_rounding", TC_ROUNDINGS),
                          ("decks_estimation", DECKS_ESTIMATIONS)):
        options[name] = text[name].lower()
        if options[name] not in allowed:
            errors[name] = f"{name} must be one of {', '.join(allowed)}, got {text[name][:20]!r}"
    return options


def sim_key(rules, count: dict, rounds: int, seed: int, options: dict) -> tuple:
    """What a run's figures depend on (the unit only turns units into money)."""
    return (rules, count["system"], count["penetration"], count["indices"], count["ramp"],
            count.get("wong_in"), rounds, seed, tuple(sorted(options.items())))


class SimJobs:
    """The simulation runs: a pool of their own (one run at a time, the others queue), so
    a long run never holds up the other pages' solves; the jobs by id; full results by
    settings and seed."""

    def __init__(self, workers: int = 1, threads: int | None = None):
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="bjsolve-sim")
        # the simulator's threads: every core but one, which the other pages keep
        self.threads = threads or max(1, (os.cpu_count() or 1) - 1)
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._results: OrderedDict[tuple, object] = OrderedDict()
        self._lock = threading.Lock()

    def close(self) -> None:
        with self._lock:
            for job in self._jobs.values():
                job.stop.set()
        self.pool.shutdown(wait=False, cancel_futures=True)

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            return self._jobs.get(job_id)

    def cached(self, key: tuple):
        """The full result kept for these settings and seed, or None."""
        with self._lock:
            return self._results.get(key)

    def start(self, rules, count: dict, rounds: int, seed: int, options: dict) -> Job:
        """A job for these settings: one already running for them, a finished one made
        from the kept result, or a new run queued in the pool."""
        key = sim_key(rules, count, rounds, seed, options)
        with self._lock:
            for job in self._jobs.values():
                if job.key == key and job.state in ("queued", "running"):
                    job.unit = count["unit"]
                    return job
            job = Job(secrets.token_hex(8), key, rounds, count["unit"])
            kept = self._results.get(key)
            if kept is not None:
                job.state, job.done, job.result = "done", rounds, kept
            self._jobs[job.id] = job
            while len(self._jobs) > KEPT_JOBS:
                self._forget_oldest()
        if kept is None:
            self.pool.submit(self._run, job, rules, count, rounds, seed, options)
        return job

    def _forget_oldest(self) -> None:
        for job_id, job in self._jobs.items():
            if job.state not in ("queued", "running"):
                del self._jobs[job_id]
                return
        self._jobs.popitem(last=False)          # (all running: cannot happen with 1 worker)

    def stop(self, job_id: str) -> Job | None:
        job = self.get(job_id)
        if job is not None:
            job.stop.set()
        return job

    def _run(self, job: Job, rules, count: dict, rounds: int, seed: int,
             options: dict) -> None:
        if job.stop.is_set():
            job.state = "stopped"
            return
        job.state = "running"

        def progress(done: int, total: int) -> None:
            job.done = done
            if job.stop.is_set():
                raise KeyboardInterrupt     # simulate's Ctrl-C path: a partial result

        try:
            result = bjsolve.simulate(
                rules, rounds=rounds, seed=seed, penetration=count["penetration"],
                system=count["system"], indices=index_argument(count),
                ramp=count["ramp"], wong_in=count.get("wong_in"),
                threads=self.threads, chunk_rounds=WEB_CHUNK_ROUNDS, progress=progress,
                **{k: v for k, v in options.items() if v is not None})
        except KeyboardInterrupt:           # stopped before the rounds began
            job.state = "stopped"
            return
        except (TypeError, ValueError) as exc:
            job.errors = {sim_field(str(exc)): str(exc)}
            job.state = "error"
            return
        except NotImplementedError as exc:  # a game not simulated yet: its rule is in the summary
            job.errors = {"rules": str(exc)}
            job.state = "error"
            return
        except Exception as exc:            # noqa: BLE001 -- shown on the page, not lost
            job.errors = {"rounds": f"the simulation failed: {exc}"}
            job.state = "error"
            return
        job.result, job.done = result, result.rounds
        if not result.partial:
            with self._lock:
                self._results[job.key] = result
                while len(self._results) > KEPT_RESULTS:
                    self._results.popitem(last=False)
        job.state = "stopped" if result.partial else "done"


# the fields a message of simulate's may open with (the longer names first: "wong_in"
# before "wong", "other_spots" before "spots")
SIM_FIELDS = ("other_spots", "spots", "insurance", "table_min", "table_max", "wong_out",
              "wong_in", "tc_rounding", "decks_estimation")


def sim_field(message: str) -> str:
    """The Simulate page's field a ``simulate`` error is about."""
    head = message.lower()
    for name in SIM_FIELDS:
        if head.startswith(name):
            return name
    return game_field(message, "rules")


def _number(value) -> float | None:
    """A float for JSON (which has no NaN): None where the figure is undefined."""
    value = float(value)
    return value if math.isfinite(value) else None


def sim_view(result, unit: float, total: int) -> dict:
    """A SimulationResult as the page's figures: plain numbers (None: undefined)."""
    figures = {
        "rounds": result.rounds, "played": result.played, "hands": result.hands,
        "mean": _number(result.mean), "se": _number(result.se), "sd": _number(result.sd),
        "win_per_100": _number(100 * result.mean), "se_per_100": _number(100 * result.se),
        "win_rate": _number(result.win_rate),
        "average_bet": _number(result.total_bet / result.rounds) if result.rounds else None,
        "total_won": _number(result.total_won), "total_bet": _number(result.total_bet),
        "shuffles": result.shuffles,
    }
    money = {k: None if figures[k] is None else figures[k] * unit
             for k in ("mean", "sd", "win_per_100", "average_bet", "total_won", "total_bet")}
    return {
        "figures": figures, "money": money, "unit": unit, "total": total,
        "partial": bool(result.partial), "seed": result.seed,
        "chunk_rounds": WEB_CHUNK_ROUNDS,
        "counts": [{"tc": r.true_count, "rounds": r.rounds, "frequency": _number(r.frequency),
                    "played": r.played, "mean": _number(r.mean), "sd": _number(r.sd),
                    "se": _number(r.se)}
                   for r in result.per_true_count if r.rounds],
    }
