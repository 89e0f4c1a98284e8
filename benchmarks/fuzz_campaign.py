"""The long fuzzing campaign: random and hostile inputs, as a hostile user would give them.

    python benchmarks/fuzz_campaign.py --minutes 30             # every area, 30 minutes
    python benchmarks/fuzz_campaign.py --minutes 5 --areas risk,game
    python benchmarks/fuzz_campaign.py --areas api,cli --api 20000 --cli 300   # by counts
    python benchmarks/fuzz_campaign.py --cli-mode inprocess     # CLI through main(argv)

Areas (``--areas``, comma separated; default: all):
  api           odd rule values, every card spelling, random rules x random shoes, hostile
                strategy callables, counting inputs
  cli           ``python -m bjsolve`` with random flags (tables, hand, counting, and the
                risk/simulate/game/indices commands with hostile values)
  risk          bjsolve.risk (lifetime_ruin, trip_ruin, bankroll_for_risk, risk_summary,
                RuinCurve, ...) on hostile laws: tiny, zero and negative edges, outcomes of
                1e6, NaN/inf, 10**400, empty laws, probabilities not summing to 1
  simulate      bjsolve.simulate with hostile rounds, shoes (beyond 2**31 cards),
                penetration, wong_in/out, insurance, bankroll_trials, tags of 1e308, ramps
  game          CountedGame(...).evaluate with hostile ramps, wong_in, unit, bankroll and
                rounds; Ramp objects built by hand; ramp_distribution; optimal_ramp
  index-files   index files (simulate's ``indices=``): random and hostile text (huge
                numbers, 400 digits, duplicates, 10**5 lines), directories, odd paths
  interrupts    ``bjsolve simulate|game|indices`` started as a process and sent one SIGINT
                after a random delay: it must end within ``--interrupt-grace`` seconds
                without a traceback
  memory        solve / outcome_distribution / simulate in a child whose address space
                (RLIMIT_AS) is a few MB above what it has mapped: the result must be the
                unlimited run's, bit for bit, or a MemoryError (and the run repeated
                without the limit in the same process must then be exact)

The inputs of the api, risk, simulate, game and index-files areas run in child processes
(chunks of inputs), so that an interpreter crash is counted instead of ending the
campaign; a child announces each input before running it, so a crash or a hang is
pinned on the input that caused it.  CLI runs, interrupts and memory runs are one process
each.  With ``--minutes`` the areas share the time (the area that has had the least time
runs next; each runs at least once, so a short budget may be overrun by one unit per area);
without it each area runs its count of inputs.

Outcomes:
  ok               an answer that keeps every property checked (API: finite, probabilities
                   in [0, 1], closed forms and identities; CLI: exit 0)
  clean rejection  ValueError/TypeError with a short message of its own (CLI: exit 2, one
                   line)
  wrong-type       any other exception (OverflowError, MemoryError outside the memory area,
                   OSError ...), a rejection with an overlong message or a bare Python
                   message that names no field ('math domain error'), a traceback on the
                   command line, or a rejection of several lines
  internal error   an answer that breaks a property (NaN, a probability out of range, a
                   ruin off its closed form, a chart beating optimal play, a memory-limited
                   result different from the unlimited one); CLI: exit 1 "internal error"
  crash            the process died (signal, abort)
  hang             an input past its time limit; a process still running ``--interrupt-
                   grace`` seconds after SIGINT
Prints the counts per area and outcome, then the distinct failures (grouped by area, kind
and message, numbers folded) with the first input of each.  Exit status 1 if anything
other than ok / clean rejection was seen.
"""
from __future__ import annotations

import argparse
import collections
import contextlib
import json
import math
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from fractions import Fraction

# "lost by Python": a SIGINT that CPython itself swallowed ("Exception ignored in: <function
# _get_module_lock.<locals>.cb>  KeyboardInterrupt": raised in an import lock's weakref
# callback, where an exception can only be printed); the program never learns of it, and a
# second Ctrl-C, as a user would press, must then stop it as the first should have
OUTCOMES = ("ok", "clean rejection", "lost by Python", "wrong-type", "internal error", "crash",
            "hang")
BAD = OUTCOMES[3:]
AREAS = ("api", "cli", "risk", "simulate", "game", "index-files", "interrupts", "memory")
MAX_MESSAGE = 500
HERE = os.path.dirname(os.path.abspath(__file__))

# messages Python or numpy write themselves: a rejection in these words names no field
BARE_MESSAGES = [re.compile(p) for p in (
    r"^math domain error", r"could not convert", r"invalid literal for", r"unsupported operand",
    r"not supported between instances", r"object is not iterable", r"is not subscriptable",
    r"has no len\(\)", r"must be real number, not", r"cannot convert float", r"codec can't",
    r"cannot be interpreted as an integer", r"only integer scalar arrays",
    r"setting an array element with a sequence", r"takes \d+ positional argument",
    r"argument must be a string or a (real )?number", r"^embedded null",
    r"^too many values to unpack", r"^not enough values to unpack", r"^could not broadcast",
    r"^operands could not be broadcast", r"truth value of an array",
    r"arg is an empty sequence", r"^list index out of range", r"^tuple index out of range")]


class InputHang(BaseException):
    """Raised by the alarm in a worker: the input ran past its time limit."""


class UsersOwnError(ZeroDivisionError):
    """What the hostile callables raise: passing it on is right (a clean rejection)."""


class Verdict(Exception):
    """Raised by an input that judged itself (e.g. from a command's exit): its outcome."""

    def __init__(self, outcome: str, detail: str = ""):
        super().__init__(detail)
        self.outcome, self.detail = outcome, detail


# ---- describing inputs -------------------------------------------------------------------------

def short(value, limit: int = 60, depth: int = 0) -> str:
    """A short one-line description of a (hostile) value: long texts, big ints and long
    sequences are summarised, so an input can be named in one line."""
    try:
        import numpy as np
    except ImportError:            # pragma: no cover
        np = None
    if isinstance(value, bool) or value is None:
        return repr(value)
    if type(value).__name__ == "Rules" and hasattr(value, "describe"):
        return f"Rules({value.describe()})"
    if isinstance(value, int):
        if value.bit_length() > 100:
            return f"<{'-' if value < 0 else ''}int of {len(str(abs(value)))} digits>"
        return repr(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (str, bytes)):
        if len(value) > limit:
            return f"{value[:24]!r}...<{len(value)} chars>"
        return repr(value)
    if np is not None and isinstance(value, np.ndarray):
        flat = value.ravel()
        items = ", ".join(short(x.item() if hasattr(x, "item") else x, 20, depth + 1)
                          for x in flat[:4])
        more = ", ..." if flat.size > 4 else ""
        return f"array([{items}{more}], shape={value.shape}, dtype={value.dtype})"
    if np is not None and isinstance(value, np.generic):
        return f"np.{type(value).__name__}({value.item()!r})"
    if depth > 2:
        return f"<{type(value).__name__}>"
    if isinstance(value, dict):
        items = list(value.items())
        text = ", ".join(f"{short(k, 24, depth + 1)}: {short(v, 24, depth + 1)}"
                         for k, v in items[:6])
        return "{" + text + (f", ...<{len(items)} items>" if len(items) > 6 else "") + "}"
    if isinstance(value, (list, tuple)):
        text = ", ".join(short(v, 24, depth + 1) for v in value[:8])
        more = f", ...<{len(value)} items>" if len(value) > 8 else ""
        return ("[" + text + more + "]") if isinstance(value, list) else \
            ("(" + text + more + (",)" if len(value) == 1 else ")"))
    if callable(value):
        return f"<{getattr(value, '__name__', type(value).__name__)}>"
    text = repr(value)
    return text if len(text) <= limit else f"<{type(value).__name__}: {text[:limit]}...>"


def raised_in_library(exc) -> bool:
    """Whether ``exc`` came out of bjsolve or bjcore code (else: out of the campaign's)."""
    import bjcore
    import bjsolve
    roots = tuple(os.path.dirname(m.__file__) for m in (bjsolve, bjcore))
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.startswith(roots):
            return True
        tb = tb.tb_next
    return False


def safe_short(value) -> str:
    try:
        return short(value)
    except Exception:  # noqa: BLE001  (a value whose repr raises)
        return f"<unprintable {type(value).__name__}>"


def judge_rejection(exc) -> tuple:
    """(outcome, detail) of a ValueError/TypeError: a clean rejection, unless its message
    is overlong or a bare Python/numpy message that names no field."""
    message = str(exc)
    name = type(exc).__name__
    if len(message) > MAX_MESSAGE:
        return "wrong-type", f"{name} with a message of {len(message)} characters"
    if any(p.search(message) for p in BARE_MESSAGES):
        return "wrong-type", f"{name} in Python's words: {message[:150]}"
    return "clean rejection", ""


# ---- hostile values --------------------------------------------------------------------------

GARBAGE = [None, -1, 0, 10**400, -10**30, 1e308, float("nan"), float("inf"), -0.0, "", "x" * 5000,
           "A", "1.5", b"x", [], [1, 2], {}, {"a": 1}, object(), True, False, 3.7, -2.5, 1j,
           range(3)]

# numbers a hostile user types: edges of every range, the non-finite, the huge
NUMBERS = [0, -0.0, 1, -1, 0.5, 2, 1e-300, 5e-324, 1e-9, 1e6, 1e15, 1e308, -1e308, 2**31,
           2**31 - 1, 2**32, 2**53 + 1, 2**63, 2**64, 10**30, -10**30, 10**400, -10**400,
           float("nan"), float("inf"), float("-inf"), 1.5, -2.5, 1e30]


def garbage(rng):
    g = rng.choice(GARBAGE)
    if rng.random() < 0.1:
        import numpy as np
        return rng.choice([np.int8(rng.randint(-128, 127)), np.float16(rng.uniform(-6e4, 6e4)),
                           np.uint8(rng.randint(0, 255)), np.float64("nan"), np.int64(2**62)])
    return g


def hostile_number(rng):
    """A number from the edges (70%), else garbage of any type."""
    if rng.random() < 0.7:
        x = rng.choice(NUMBERS)
        return -x if isinstance(x, (int, float)) and rng.random() < 0.1 else x
    return garbage(rng)


# ---- the worker's frame: one area's inputs in a child process ----------------------------------

class Inputs:
    """One area's random inputs.  ``kinds``: (name, weight) pairs; ``do_<name>(rng)`` runs
    one input, calls ``note`` to name it before the library is called, and asserts the
    properties of the answer (an AssertionError is an internal error)."""

    kinds: tuple = ()
    input_timeout = 30.0   # seconds; past it, the input is a hang

    def __init__(self, seed: int, emit):
        self.rng = random.Random(seed)
        self.emit = emit
        self.kind = "setup"

    def note(self, **fields) -> None:
        """Name the input (the last note before a crash or a hang names its input)."""
        self.emit(f"@ {self.kind} " + ", ".join(f"{k}={safe_short(v)}" for k, v in fields.items()))

    @contextlib.contextmanager
    def checking(self):
        """Around the checks of an answer: a check that cannot even run on the answer (the
        library accepted a value the check cannot read, or returned an odd object) is an
        internal error, not a rejection.  What the library raises in a second call made by
        a check (a larger bankroll, more rounds) is judged as the library's own."""
        try:
            yield
        except AssertionError:
            raise
        except Exception as e:  # noqa: BLE001
            if raised_in_library(e):
                raise
            raise AssertionError(f"the answer cannot be checked: {type(e).__name__}: "
                                 f"{str(e)[:150]}") from None

    def one(self):
        """Run one random input: (kind, outcome, detail)."""
        rng = self.rng
        self.kind = rng.choices([k for k, _ in self.kinds], weights=[w for _, w in self.kinds])[0]
        self.emit(f"@ {self.kind}")
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                getattr(self, "do_" + self.kind)(rng)
        except InputHang:
            return self.kind, "hang", f"over the {self.input_timeout:g} s input limit"
        except Verdict as v:
            return self.kind, v.outcome, v.detail
        except AssertionError as e:
            return self.kind, "internal error", str(e)[:240]
        except UsersOwnError:
            return self.kind, "clean rejection", ""     # the user's callable raised: passed on
        except (ValueError, TypeError) as e:
            return (self.kind, *judge_rejection(e))
        except Exception as e:  # noqa: BLE001
            return self.kind, "wrong-type", f"{type(e).__name__}: {str(e)[:150]}"
        return self.kind, "ok", ""


def area_worker(area: str, seed: int, count: int, seconds: float, input_timeout: float) -> None:
    """Child process: run up to ``count`` inputs of ``area`` for up to ``seconds``.  Writes
    to stdout, unbuffered, ``@ kind input`` before each input (and before each step a
    crash could follow) and ``= outcome<TAB>kind<TAB>detail`` after it; a hang ends the
    chunk (the library may be left mid-way)."""
    def emit(line: str) -> None:
        line = line.replace("\r", "\\r").replace("\n", "\\n")
        os.write(1, (line + "\n").encode("utf-8", "backslashreplace"))

    def alarm(signum, frame):
        raise InputHang()

    emit("@ setup")
    inputs = INPUT_AREAS[area](seed, emit)
    inputs.input_timeout = input_timeout or inputs.input_timeout
    signal.signal(signal.SIGALRM, alarm)
    deadline = time.monotonic() + seconds
    for i in range(count):
        if i and time.monotonic() > deadline:      # one input at least, whatever the time
            break
        try:
            signal.setitimer(signal.ITIMER_REAL, inputs.input_timeout)
            try:
                kind, outcome, detail = inputs.one()
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
        except InputHang:
            kind, outcome, detail = inputs.kind, "hang", \
                f"over the {inputs.input_timeout:g} s input limit"
        emit(f"= {outcome}\t{kind}\t{detail}")
        if outcome == "hang":
            break


# ---- checking answers ------------------------------------------------------------------------

def finite(x) -> bool:
    try:
        return math.isfinite(float(x))
    except (TypeError, ValueError, OverflowError):
        return False


def probability(x, what: str) -> float:
    """Assert x is a probability; return it as a float."""
    assert finite(x) and -1e-12 <= float(x) <= 1 + 1e-12, f"{what} is not a probability: {x!r}"
    return float(x)


def check_solution(sol, rng):
    w = sol.deal.weights
    assert all(0.0 <= v <= 1.0 for v in w.values()), "key weight out of range"
    assert abs(sum(w.values()) - 1.0) < 1e-9, "key weights do not sum to 1"
    assert finite(sol.expected_value), "expected value not finite"
    assert all(finite(v) for v in sol.ev_by_dealer.values()), "EV by dealer not finite"
    if rng.random() < 0.3:
        whole = not sol.shoe.is_fractional or all(c == int(c) for c in sol.shoe.counts)
        ev = sol.evaluate(sol.strategy)
        assert finite(ev), "chart EV not finite"
        assert ev <= sol.expected_value + 1e-9 or not whole, "chart beats optimal play"


# ==================================================================================================
# area: api (rules, shoes, cards, hands, dealer, counting, strategies, solves)
# ==================================================================================================

VALID = {
    "decks": lambda r: r.choice([1, 2, 4, 6, 8, math.inf, 10**6, 3.0]),
    "hit_soft_17": lambda r: r.random() < 0.5,
    "double": lambda r: r.choice(["any", "9-11", "10-11"]),
    "double_soft": lambda r: r.random() < 0.5,
    "double_any_cards": lambda r: r.random() < 0.3,
    "double_after_split": lambda r: r.random() < 0.6,
    "max_split_hands": lambda r: r.randint(1, 4),
    "resplit_aces": lambda r: r.random() < 0.3,
    "hit_split_aces": lambda r: r.random() < 0.2,
    "surrender": lambda r: r.choice(["none", "late", "early"]),
    "blackjack_payout": lambda r: r.choice([1.5, 1.2, 1.0, 2.0, r.uniform(1e-9, 1000)]),
    "hole_card": lambda r: r.choice(["peek", "enhc", "enhc-obo", "exposed"]),
    "dealer_wins_ties": lambda r: r.random() < 0.3,
    "natural_tie": lambda r: r.choice(["lose", "push", "win"]),
}


def rule_fields(rng, hostile=0.15):
    out = {}
    for name, make in VALID.items():
        if rng.random() < 0.5:
            out[name] = garbage(rng) if rng.random() < hostile else make(rng)
    if rng.random() < 0.03:
        out[rng.choice(["deck", "h17", "split", ""])] = 1  # unknown keyword
    return out


def random_shoe(rng):
    from bjsolve import Shoe
    kind = rng.choice(["full", "depleted", "tiny", "huge", "infinite", "fractional", "hostile"])
    if kind == "full":
        return Shoe.decks(rng.randint(1, 8))
    if kind == "huge":
        return Shoe.decks(rng.choice([1000, 10**6]))
    if kind == "depleted":
        shoe = Shoe.decks(rng.randint(1, 2))
        for _ in range(rng.randint(0, 30)):
            r = rng.randint(1, 10)
            if shoe.counts[r - 1] and shoe.size > 20:
                shoe = shoe.remove(r)
        return shoe
    if kind == "tiny":
        counts = [rng.randint(0, 3) for _ in range(10)]
        counts[9] += rng.randint(6, 14)
        return Shoe(counts)
    if kind == "infinite":
        return Shoe.infinite([rng.choice([0, 0.5, 1, 4, 16, rng.uniform(0, 30)]) for _ in range(10)]
                             if rng.random() < 0.7 else [4] * 9 + [16])
    if kind == "fractional":
        return Shoe.fractional([rng.uniform(0, 20) for _ in range(10)])
    return Shoe([garbage(rng) if rng.random() < 0.2 else rng.randint(0, 20) for _ in range(10)])


def random_cards(rng):
    spellings = list(range(1, 11)) + list("A23456789TJQKatjqk") + ["10", "ace", " a "]
    pick = rng.random()
    if pick < 0.5:
        return tuple(rng.choice(spellings) for _ in range(rng.randint(2, 4)))
    if pick < 0.75:
        return "".join(rng.choice("A23456789TJQK") for _ in range(rng.randint(2, 4)))
    if pick < 0.9:
        return [rng.choice(spellings + [0, 11, -1, "X", None, 2.5])
                for _ in range(rng.randint(0, 5))]
    return garbage(rng)


def random_dealer(rng, exposed=False):
    if rng.random() < 0.1:
        return garbage(rng)
    one = lambda: rng.choice(list(range(1, 11)) + list("A23456789TJQK"))  # noqa: E731
    return (one(), one()) if exposed or rng.random() < 0.05 else one()


def hostile_strategy(rng):
    choice = rng.random()
    fixed = rng.choice(["stand", "hit", "double", "split", "surrender", "STAND", "", None, 1,
                        "x" * 10_000, b"stand"])
    if choice < 0.3:
        return lambda cards, dealer, allowed: fixed
    if choice < 0.6:
        local = random.Random(rng.random())
        return lambda cards, dealer, allowed: (local.choice(allowed) if local.random() < 0.98
                                               else fixed)
    if choice < 0.7:
        def raises(cards, dealer, allowed):
            raise UsersOwnError("the user's own error")
        return raises
    if choice < 0.8:
        return rng.choice([None, 42, "stand", lambda: "stand", lambda a, b: "hit", print, {}])
    return lambda cards, dealer, allowed: allowed[0]


class ApiInputs(Inputs):
    kinds = (("rules", 20), ("shoe", 15), ("cards", 15), ("hand_ev", 30), ("dealer", 8),
             ("insurance", 4), ("counting", 6), ("evaluate", 0.15), ("solve", 0.35))

    def __init__(self, seed, emit):
        super().__init__(seed, emit)
        import bjsolve
        from bjsolve import Rules, solve
        self.bjsolve = bjsolve
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self.solutions = [solve(Rules(decks=1, surrender="late")),
                              solve(Rules(decks=6, hole_card="enhc", max_split_hands=2)),
                              solve(Rules(decks=math.inf, hole_card="exposed", max_split_hands=2)),
                              solve(Rules(decks=2, dealer_wins_ties=True, natural_tie="win"))]

    def do_rules(self, rng):
        fields = rule_fields(rng, hostile=0.3)
        self.note(rules=fields)
        rules = self.bjsolve.Rules(**fields)
        assert ":" in rules.describe()

    def do_shoe(self, rng):
        shoe = random_shoe(rng)
        cards = random_cards(rng) if rng.random() < 0.5 else None
        self.note(shoe=getattr(shoe, "counts", shoe), remove=cards)
        p = shoe.probabilities()
        assert all(0.0 <= x <= 1.0 for x in p) and abs(sum(p) - 1) < 1e-9, "shoe probabilities"
        if cards is not None:
            shoe.remove(cards)

    def do_cards(self, rng):
        from bjsolve.model.ranks import ranks
        cards = random_cards(rng)
        self.note(cards=cards)
        got = ranks(cards, field="cards")
        assert all(1 <= r <= 10 for r in got), "rank out of range"

    def do_hand_ev(self, rng):
        sol = rng.choice(self.solutions)
        exposed = sol.rules.hole_card == "exposed"
        cards, dealer = random_cards(rng), random_dealer(rng, exposed)
        what = rng.random()
        self.note(rules=sol.rules.describe(), cards=cards, dealer=dealer)
        if what < 0.7:
            cond = rng.choice([None, None, True, False, "yes", 1])
            ev = sol.hand_ev(cards, dealer, given_no_blackjack=cond)
            assert all(finite(v) for v in ev.values()), "hand value not finite"
        elif what < 0.85:
            assert sol.best_action(cards, dealer) in ("stand", "hit", "double", "split",
                                                      "surrender")
        else:
            sol.allowed_actions(cards, dealer)

    def do_dealer(self, rng):
        from bjsolve import dealer_probabilities
        fields = rule_fields(rng, hostile=0.05)
        shoe = random_shoe(rng) if rng.random() < 0.5 else None
        removed = random_cards(rng) if rng.random() < 0.3 else ()
        up, cond = random_dealer(rng), rng.random() < 0.3
        self.note(rules=fields, shoe=getattr(shoe, "counts", shoe), removed=removed, up=up)
        d = dealer_probabilities(self.bjsolve.Rules(**fields), up, shoe=shoe, removed=removed,
                                 given_no_blackjack=cond)
        assert all(-1e-12 <= v <= 1 + 1e-12 for v in d.values()) or (shoe and shoe.is_fractional), \
            "dealer probability out of range"
        assert abs(sum(d.values()) - 1) < 1e-9, "dealer probabilities do not sum to 1"

    def do_insurance(self, rng):
        sol = rng.choice(self.solutions)
        cards = random_cards(rng) if rng.random() < 0.8 else rng.randint(-2, 12)
        self.note(rules=sol.rules.describe(), cards=cards)
        assert finite(sol.insurance_ev(cards))

    def do_counting(self, rng):
        from bjsolve import counting
        system = rng.choice(["hilo", "halves", "ko", "uston-apc", "zen", "omega2", "nope",
                             [rng.randint(-2, 2) for _ in range(10)],
                             [rng.uniform(-1e300, 1e300) for _ in range(10)], garbage(rng)])
        what = rng.random()
        self.note(system=system)
        if what < 0.5:
            got = counting.betting_correlation(system)
            assert math.isnan(got) or -1 - 1e-9 <= got <= 1 + 1e-9, "correlation out of range"
        elif what < 0.8:
            counting.count_tags(system)
        else:
            eff = [rng.uniform(-0.01, 0.01) for _ in range(10)] if rng.random() < 0.8 \
                else garbage(rng)
            cards, base = random_cards(rng), rng.choice([-0.005, float("nan"), 0])
            self.note(effects=eff, cards=cards, base=base)
            got = self.bjsolve.estimate_ev(self.bjsolve.Rules(decks=1), cards, effects=eff,
                                           base=base, exact=False)
            assert finite(got.linear), "linear estimate not finite"

    def do_evaluate(self, rng):
        sol = rng.choice(self.solutions[:2])
        self.note(rules=sol.rules.describe(), strategy="hostile callable")
        ev = sol.evaluate(hostile_strategy(rng))
        assert finite(ev) and ev <= sol.expected_value + 1e-9, "policy beats optimal play"

    def do_solve(self, rng):
        from bjsolve import Rules, solve
        fields = rule_fields(rng, hostile=0.02)
        fields["max_split_hands"] = min(fields.get("max_split_hands", 2), 2) \
            if isinstance(fields.get("max_split_hands", 2), int) else fields["max_split_hands"]
        shoe, split = random_shoe(rng), rng.choice(["CDZ-", "CDZ-", "CDP1", "CDP", "x"])
        self.note(rules=fields, shoe=getattr(shoe, "counts", shoe), split=split)
        sol = solve(Rules(**fields), shoe=shoe, split=split)
        check_solution(sol, rng)


# ==================================================================================================
# area: risk (bjsolve.risk on hostile laws)
# ==================================================================================================

class Law:
    """A law to give the risk functions: ``dist`` as given; ``pairs`` [(value, probability)]
    when it is a proper small law (for the brute-force checks); ``walk`` (step a, p up,
    q down) for a simple random walk with a closed-form ruin."""

    def __init__(self, dist, pairs=None, walk=None, label=""):
        self.dist, self.pairs, self.walk, self.label = dist, pairs, walk, label

    @property
    def mean(self):
        return math.fsum(v * p for v, p in self.pairs) if self.pairs else None


def _normalised(values, weights):
    total = math.fsum(weights)
    return [(v, w / total) for v, w in zip(values, weights)]


def _as_dist(rng, pairs):
    """The pairs as a mapping, an object with .values/.probabilities (lists or arrays)."""
    from types import SimpleNamespace
    import numpy as np
    form = rng.random()
    if form < 0.5:
        merged = collections.defaultdict(float)
        for v, p in pairs:
            merged[v] += p
        return dict(merged)
    values, probs = [v for v, _ in pairs], [p for _, p in pairs]
    if form < 0.8:
        return SimpleNamespace(values=np.array(values), probabilities=np.array(probs))
    return SimpleNamespace(values=values, probabilities=probs)


EDGES = [0.1, 0.02, 1e-3, 1e-6, 1e-9, 1e-12, 1e-15, 0.0, -1e-12, -1e-3, -0.1, 0.8, 0.999998]


def random_law(rng, real_laws) -> Law:
    pick = rng.random()
    if pick < 0.3:                                    # simple walk: closed-form ruin
        a = rng.choice([1, 1, 0.5, 2, 0.1, 3, 0.25, 10, 100])
        edge = rng.choice(EDGES)
        p = min(max(0.5 + edge / 2, 0.0), 1.0)
        zero = rng.choice([0.0, 0.0, 0.3, 0.9])
        pairs = [(-a, (1 - p) * (1 - zero)), (a, p * (1 - zero))] + ([(0.0, zero)] if zero else [])
        pairs = [(v, w) for v, w in pairs if w > 0]
        return Law(_as_dist(rng, pairs), pairs, (a, p, 1 - p), f"walk a={a} edge={edge}")
    if pick < 0.6:                                    # a small law on a lattice
        q = rng.choice([1, 2, 2, 10, 3, 100])
        n = rng.randint(1, 8)
        values = sorted({rng.randint(-8 * q, 8 * q) / q for _ in range(n)})
        pairs = _normalised(values, [rng.random() + 1e-3 for _ in values])
        return Law(_as_dist(rng, pairs), pairs, None, f"lattice 1/{q}")
    if pick < 0.7 and real_laws:                      # a blackjack round, maybe scaled
        dist = rng.choice(real_laws)
        scale = rng.choice([1, 1, 2, 5, 100, 0.5])
        pairs = [(float(v) * scale, float(p)) for v, p in zip(dist.values, dist.probabilities)]
        if scale == 1 and rng.random() < 0.5:
            return Law(dist, pairs, None, "outcome distribution")
        return Law(_as_dist(rng, pairs), pairs, None, f"blackjack x {scale}")
    if pick < 0.82:                                   # tiny / zero / negative edge, blackjack-like
        e = rng.choice(EDGES)
        pairs = [(-2.0, 0.05), (-1.0, 0.4 - e / 2), (0.0, 0.09), (1.0, 0.38 + e / 2),
                 (1.5, 0.045), (2.0, 0.035)]
        return Law(_as_dist(rng, pairs), pairs, None, f"edge {e}")
    if pick < 0.86:                                   # huge outcomes
        pairs = rng.choice([[(-1.0, 0.5), (1e6, 0.5)], [(-1e6, 1e-7), (1.0, 1 - 1e-7)],
                            [(-1e5, 1e-3), (1.0, 1 - 1e-3)], [(-1000.0, 0.01), (10.0, 0.99)],
                            [(-0.5, 0.5), (1e6 + 0.5, 0.5)], [(-1.0, 0.4), (1e4, 0.6)],
                            [(-1.0, 0.6), (1e6, 0.4)], [(-3e4, 0.3), (2e4, 0.7)]])
        return Law(_as_dist(rng, pairs), pairs, None, "huge outcomes")
    return Law(hostile_law(rng), None, None, "hostile")


class _LyingLaw:
    """A law whose stated moments are not its pmf's."""
    def __init__(self, values, probabilities, mean, variance):
        self.values, self.probabilities = values, probabilities
        self.mean, self.variance = mean, variance


def hostile_law(rng):
    from types import SimpleNamespace
    import numpy as np
    nan, inf = float("nan"), float("inf")
    pick = rng.randrange(22)
    cases = {
        0: {}, 1: {-1: nan, 1: 0.5}, 2: {nan: 0.5, 1: 0.5}, 3: {-inf: 0.5, 1: 0.5},
        4: {-1: 0.5, 10**400: 0.5}, 5: {-1: 10**400, 1: 0.5}, 6: {-1: 0.4, 1: 0.5},
        7: {-1: 0.5, 1: 0.6}, 8: {-1: 0.5, 1: 0.5 + 1e-10}, 9: {-1: -0.1, 1: 1.1},
        10: {-1: -1e-16, 1: 1.0 + 1e-16}, 11: {-1: 0.3, 0.123456789: 0.7},
        12: {-1: 0.3, math.pi: 0.7}, 13: {"-1": 0.5, "1": 0.5}, 14: {None: 1.0},
        15: {0: 1.0}, 16: {1: 1.0}, 17: {-1: 1.0}, 18: {True: 0.4, False: 0.6},
        19: {1j: 0.5, -1: 0.5}, 20: {-1: 0.0, 1: 0.0}, 21: {-1e-300: 0.5, 1e-300: 0.5},
    }
    if rng.random() < 0.6:
        return cases[pick]
    pick = rng.randrange(10)
    if pick == 0:
        return SimpleNamespace(values=np.array([[-1, 1]]), probabilities=np.array([[0.5, 0.5]]))
    if pick == 1:
        return SimpleNamespace(values=[-1, 1, 2], probabilities=[0.5, 0.5])
    if pick == 2:
        return SimpleNamespace(values=[], probabilities=[])
    if pick == 3:
        return _LyingLaw([-1, 1], [0.45, 0.55], rng.choice([nan, inf, -1.0, 1e308, "x", None]),
                         rng.choice([-1.0, 0.0, nan, inf, 1e-300, "x"]))
    if pick == 4:                      # many outcomes on the lattice
        n = rng.choice([1000, 10**4, 10**5])
        values = np.arange(-n // 2, n // 2) * 0.5
        probs = np.full(n, 1.0 / n)
        probs[-1] += 1e-3 / n
        return SimpleNamespace(values=values, probabilities=probs / probs.sum())
    if pick == 5:
        return [(-1, 0.5), (1, 0.5)]   # pairs, not a mapping
    if pick == 6:
        return SimpleNamespace(values="abc", probabilities=[0.5, 0.5, 0.0])
    if pick == 7:
        return SimpleNamespace(values=np.array([-1, 1], dtype=object),
                               probabilities=np.array([0.5, 0.5], dtype=object))
    if pick == 8:
        return SimpleNamespace(values=(x for x in (-1, 1)), probabilities=[0.5, 0.5])
    return garbage(rng)


def walk_chances(law) -> tuple:
    """(a, p, q) of a simple walk's law: the chances of +a and -a as given to the library
    (the floats in its pairs, not the edge meant: (1 - p) (1 - zero) rounds, and at an edge
    of 1e-12 that rounding is ~1e-4 of the edge, so of log(q / p))."""
    a = law.walk[0]
    chances = dict(law.pairs)
    return a, chances.get(a, 0.0), chances.get(-a, 0.0)


def log_q_over_p(p: float, q: float) -> float:
    """log(q / p) to the last digits of the floats given (q - p exact by Sterbenz's lemma
    when they are within a factor 2; q / p rounded would lose the digits of a tiny edge)."""
    return math.log1p((q - p) / p)


def ruin_bankroll(rng):
    if rng.random() < 0.75:
        return rng.choice([1, 1, 2, 3.5, 10, 10.25, 50, 100, 400, 1000, 1e4, 1e6,
                           rng.uniform(0.01, 300), rng.randint(1, 2000)])
    return rng.choice([1e-300, 5e-324, 1e-9, 1e15, 1e308, 10**400, 2**63, 0, -1, float("nan"),
                       float("inf"), True, "100", None]) if rng.random() < 0.8 else garbage(rng)


def ruin_rounds(rng):
    if rng.random() < 0.8:
        return rng.choice([1, 1, 2, 3, 3, 10, 100, 1000, rng.randint(1, 500)]) \
            if rng.random() < 0.95 else rng.choice([10**4, 10**5])
    return rng.choice([10**7, 10**7 + 1, 0, -1, 10**400, 1.0, 2.5, float("nan"), True, "10"]) \
        if rng.random() < 0.8 else garbage(rng)


def brute_trip(pairs, bankroll: float, rounds: int):
    """P(ruined within ``rounds`` rounds), every path enumerated (small laws, rounds <= 3);
    None where a path ends within rounding of the barrier (ambiguous)."""
    steps = [(Fraction(v).limit_denominator(1000), p) for v, p in pairs]
    b = Fraction(bankroll)
    ruined = 0.0
    frontier = [(Fraction(0), 1.0)]
    for _ in range(rounds):
        nxt = []
        for s, w in frontier:
            for v, p in steps:
                t = s + v
                gap = b + t
                if gap != 0 and abs(gap) < Fraction(1, 10**6):
                    return None
                if gap <= 0:
                    ruined += w * p
                else:
                    nxt.append((t, w * p))
        frontier = nxt
    return ruined


class RiskInputs(Inputs):
    kinds = (("lifetime", 30), ("trip", 25), ("bankroll_for_risk", 15), ("summary", 12),
             ("curve", 6), ("extras", 6), ("diffusion", 4))

    def __init__(self, seed, emit):
        super().__init__(seed, emit)
        from bjsolve import Rules, solve
        from bjsolve.risk import ruin as risk
        self.risk = risk
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sol = solve(Rules(decks=math.inf), threads=1)
            self.real = [sol.outcome_distribution(threads=1),
                         sol.outcome_distribution(insurance=True, threads=1),
                         solve(Rules(decks=math.inf, blackjack_payout=1.2),
                               threads=1).outcome_distribution(threads=1)]

    def law(self, rng) -> Law:
        law = random_law(rng, self.real)
        return law

    def lifetime(self, law, bankroll) -> float:
        got = self.risk.lifetime_ruin(law.dist, bankroll)
        p = probability(got.probability, "lifetime ruin")
        probability(got.dominant_root_estimate, "lifetime ruin (dominant root)")
        probability(got.normal, "lifetime ruin (normal)")
        return p

    def do_lifetime(self, rng):
        law, bankroll = self.law(rng), ruin_bankroll(rng)
        self.note(law=law.label, dist=law.dist, bankroll=bankroll)
        p = self.lifetime(law, bankroll)
        with self.checking():
            if law.walk:                          # simple walk: psi = (q/p)^ceil(B/a)
                a, up, down = walk_chances(law)
                exact = 1.0 if up <= down else \
                    math.exp(log_q_over_p(up, down) * math.ceil(float(bankroll) / a - 1e-9))
                assert abs(p - exact) <= 1e-9 + 1e-9 * exact, \
                    f"lifetime ruin {p!r}, closed form (q/p)^ceil(B/a) = {exact!r} " \
                    f"(off by {p - exact:.3g})"
            if law.pairs:
                if law.mean <= -1e-9:
                    assert p == 1.0, f"lifetime ruin {p!r} with a negative edge (must be 1)"
                if min(v for v, _ in law.pairs) >= 0:
                    assert p == 0.0, f"lifetime ruin {p!r} with no loss possible (must be 0)"
            if finite(bankroll) and 0 < float(bankroll) < 1e6 and rng.random() < 0.5:
                more = self.lifetime(law, float(bankroll) * 2 + 1)
                assert more <= p + 1e-12, \
                    f"lifetime ruin grows with the bankroll: {p!r} -> {more!r}"

    def do_trip(self, rng):
        law, bankroll, rounds = self.law(rng), ruin_bankroll(rng), ruin_rounds(rng)
        self.note(law=law.label, dist=law.dist, bankroll=bankroll, rounds=rounds)
        got = self.risk.trip_ruin(law.dist, bankroll, rounds)
        with self.checking():
            p = probability(got.probability, "trip ruin")
            err = got.error_bound
            assert finite(err) and 0 <= err <= 1e-12, f"trip ruin error bound {err!r}"
            small = law.pairs and isinstance(rounds, int) and len(law.pairs) <= 12
            if small and rounds <= 3:
                exact = brute_trip(law.pairs, float(bankroll), rounds)
                if exact is not None:
                    assert abs(p - exact) <= 1e-12 + err, \
                        f"trip ruin {p!r}, every path enumerated {exact!r} (off by {p - exact:.3g})"
            if small and rounds <= 10**4 and rng.random() < 0.4:
                longer = self.risk.trip_ruin(law.dist, bankroll, rounds * 2)
                assert longer.probability >= p - 1e-12 - err - longer.error_bound, \
                    f"trip ruin falls with more rounds: {p!r} -> {longer.probability!r}"
            if law.walk and rng.random() < 0.5:
                life = self.lifetime(law, bankroll)
                assert p <= life + 1e-9 + err, f"trip ruin {p!r} above the lifetime ruin {life!r}"

    def do_bankroll_for_risk(self, rng):
        law = self.law(rng)
        target = rng.choice([0.01, 0.05, 0.135, 0.5, rng.random()]) if rng.random() < 0.7 else \
            rng.choice([0, 1, 1e-300, 1e-17, 0.999999999999, float("nan"), 1 + 1e-16, -0.1,
                        10**400, "0.01", None, True])
        self.note(law=law.label, dist=law.dist, risk=target)
        got = self.risk.bankroll_for_risk(law.dist, target)
        with self.checking():
            if law.pairs and law.mean <= -1e-9:
                assert got == math.inf, \
                    f"bankroll for risk {got!r} with a negative edge (must be inf)"
            if law.pairs and law.mean >= 1e-9:
                assert finite(got), f"bankroll for risk {got!r} with a positive edge"
            if got == math.inf:
                return
            assert finite(got) and got > 0, f"bankroll for risk {got!r}"
            at = self.lifetime(law, got)
            assert at <= float(target) * (1 + 1e-9) + 1e-15, \
                f"bankroll {got!r} for risk {target!r} has lifetime ruin {at!r}"
            if law.walk:      # the smallest a k with (q/p)^k <= risk: k = ceil(log risk / log(q/p))
                a, up, down = walk_chances(law)
                k = math.log(float(target)) / log_q_over_p(up, down)
                if abs(k - round(k)) > 1e-6:                   # not at a rounding edge
                    # on the law's lattice (step h): the smallest B with ceil(B / a) >= K
                    h = next(Fraction(1, q) for q in range(1, 101)
                             if (Fraction(a) * q).limit_denominator(1000).denominator == 1)
                    exact = float(Fraction(a) * (max(math.ceil(k), 1) - 1) + h)
                    assert abs(got - exact) <= 1e-9 * exact, \
                        f"bankroll {got!r} for risk {target!r}, closed form " \
                        f"a ceil(log risk / log(q/p)) = {exact!r}"

    def do_summary(self, rng):
        law = self.law(rng)
        bankroll = ruin_bankroll(rng) if rng.random() < 0.6 else None
        rounds = ruin_rounds(rng) if rng.random() < 0.4 else None
        self.note(law=law.label, dist=law.dist, bankroll=bankroll, rounds=rounds)
        s = self.risk.risk_summary(law.dist, bankroll=bankroll, trip_rounds=rounds)
        with self.checking():
            assert finite(s.ev) and finite(s.sd) and s.sd >= 0, f"EV {s.ev!r} or SD {s.sd!r}"
            if law.pairs and isinstance(law.dist, dict):
                mean = law.mean
                assert abs(s.ev - mean) <= 1e-12 * max(1.0, max(abs(v) for v, _ in law.pairs)), \
                    f"EV {s.ev!r}, the pmf's mean {mean!r}"
            for name in ("lifetime_ruin", "lifetime_ruin_dominant_root", "lifetime_ruin_normal",
                         "trip_ruin"):
                value = getattr(s, name, None)
                if value is not None:
                    probability(value, name)
            if s.lifetime_ruin is not None and s.trip_ruin is not None:
                assert s.trip_ruin <= s.lifetime_ruin + 1e-9, \
                    f"trip ruin {s.trip_ruin!r} above the lifetime ruin {s.lifetime_ruin!r}"
            for name in ("bankroll_for_1pct", "bankroll_for_5pct", "bankroll_for_13_5pct"):
                value = getattr(s, name, None)
                assert value is None or (value > 0 and not math.isnan(value)), f"{name} {value!r}"

    def do_curve(self, rng):
        law = self.law(rng)
        bankrolls = [ruin_bankroll(rng) for _ in range(3)]
        self.note(law=law.label, dist=law.dist, bankrolls=bankrolls)
        curve = self.risk.RuinCurve(law.dist)
        with self.checking():
            last = 1.0
            for b in sorted(float(x) for x in bankrolls if finite(x) and float(x) > 0):
                p = probability(curve(b), "RuinCurve")
                assert p <= last + 1e-12, f"RuinCurve grows with the bankroll: {last!r} -> {p!r}"
                last = p

    def do_extras(self, rng):
        """Other public functions of bjsolve.risk taking (dist, bankroll) (e.g. a separate
        normal approximation), and the lattice."""
        law, bankroll = self.law(rng), ruin_bankroll(rng)
        self.note(law=law.label, dist=law.dist, bankroll=bankroll)
        for name in ("lifetime_ruin_normal", "lifetime_ruin_dominant_root"):
            func = getattr(self.risk, name, None)
            if func is not None:
                got = func(law.dist, bankroll)
                probability(getattr(got, "probability", got), name)
        h, steps, probs = self.risk.lattice(law.dist)
        with self.checking():
            assert finite(h) and h > 0 and abs(float(probs.sum()) - 1) < 1e-9, "lattice"

    def do_diffusion(self, rng):
        from bjsolve.risk.ramp import diffusion_ruin
        win, var, bankroll = hostile_number(rng), hostile_number(rng), hostile_number(rng)
        if rng.random() < 0.5:
            win = rng.choice([0.01, 1e-9, -0.01, 0.0])
            var, bankroll = rng.choice([1.3, 0.0, 1e-300]), rng.choice([100, 1e-300, 1e308])
        self.note(win=win, variance=var, bankroll=bankroll)
        probability(diffusion_ruin(win, var, bankroll), "diffusion ruin")


# ==================================================================================================
# area: simulate
# ==================================================================================================

def sim_shoe(rng):
    from bjsolve import Shoe
    pick = rng.randrange(16)
    if pick < 4:
        return None
    if pick == 4:
        return Shoe.decks(rng.randint(1, 8))
    if pick == 5:
        return [4] * 9 + [16]
    if pick == 6:
        return [4] * 9 + [0]                         # no tens
    if pick == 7:
        return [1] * 10                              # ten cards
    if pick == 8:             # beyond 2**31 cards, or counts beyond what a shoe takes
        return rng.choice([[10**9] * 10, [2**31 - 1] + [1] * 9, [2**31] * 10, [2**32] + [4] * 9,
                           [2**63] * 10, [10**30] * 10, [4 * 10**8] * 9 + [10**9]])
    if pick == 9:
        return Shoe.infinite([rng.uniform(0, 30) for _ in range(10)])
    if pick == 10:
        return Shoe.fractional([rng.uniform(0, 20) for _ in range(10)])
    if pick == 11:
        return [rng.randint(0, 3) for _ in range(9)] + [rng.randint(6, 20)]
    if pick == 12:
        return [4.5] * 10
    if pick == 13:
        return [-1] + [4] * 9
    return [hostile_number(rng) if rng.random() < 0.3 else 4 for _ in range(10)]


def hand_built_ramp(points, wong_in=None):
    """A Ramp built by hand, past parse_ramp's checks (its points when the class itself
    refuses them)."""
    from bjsolve.risk.ramp import Ramp
    try:
        return Ramp(points, wong_in)
    except Exception:  # noqa: BLE001
        return points


def sim_ramp(rng):
    if rng.random() < 0.6:
        return rng.choice([None, "1:1,2:2,3:4,4:8", {0: 1, 2: 4}, [(-1, 0), (1, 2)], "0:1"])
    if rng.random() < 0.5:
        return rng.choice(["", "1:nan", "1:1e400", "1e400:1", "1:-1", "1:0", "1:1,1:2", "x",
                           {1: 10**400}, 42, b"1:1"])
    points, wong = rng.choice([(((0, float("nan")),), None), (((0, -5.0),), None), ((), None),
                               (((0, 1e308),), None), (((3, 1.0), (1, 2.0)), None),
                               (((0.5, 1.0),), None), (((10**400, 1.0),), None),
                               (((0, 1.0),), float("nan")), (((0, 1.0),), 10**400)])
    return hand_built_ramp(points, wong)


def sim_system(rng):
    if rng.random() < 0.6:
        return rng.choice([None, "hilo", "ko", "zen", [-1, 1, 1, 1, 1, 1, 0, 0, 0, -1]])
    return rng.choice([[1e308] * 10, [1e308, -1e308] * 5, [-1e308] + [1e308] * 9,
                       [float("nan")] * 10, [10**400] * 10, [1e-300] * 10, [0] * 10,
                       [2**62] * 10, [1e15] * 10, "nope", [1] * 9, garbage(rng)])


SIM_FIELDS = {
    "rounds": lambda r: r.choice([0, -1, 1, 1.0, 1e3, 2.5, 10**400, 10**30, 10**15 + 1,
                                  float("nan"), float("inf"), "1000", True, None]),
    "seed": lambda r: r.choice([-1, 2**64, 2**64 - 1, 10**400, 1.0, "1", None, True]),
    "chunk_rounds": lambda r: r.choice([0, 1, 7, 10**400, 10**30, 1.5, float("nan"), None]),
    "threads": lambda r: r.choice([0, 1, 2, 1024, 1025, 10**30, -1, 1.0, "2"]),
    "shoe": sim_shoe,
    "penetration": lambda r: r.choice([0, 1, 1.0, 0.999999, 1e-300, -0.5, 1.5, 52, 10**30,
                                       10**400, float("inf"), float("nan"), "every-round",
                                       "x", 0.5, 2**31, True, None]),
    "spots": lambda r: r.choice([0, 1, 7, 8, 10**30, 2.0, 1.5, -1, "1"]),
    "other_spots": lambda r: r.choice([0, 6, 7, -1, 10**30, 2.5]),
    "strategy": lambda r: r.choice(["basic", "composition", "optimal", "x", None, 42,
                                    hostile_strategy(r)]),
    "system": sim_system,
    "indices": lambda r: r.choice([None, True, False, "i18", "fab4", "nope", 42, "1 2 3",
                                   "2 3 4 5 6 7 8\n", b"x"]),
    "insurance": lambda r: r.choice([None, False, True, 3, -1000, 10**400, 10**30, 1e308,
                                     float("nan"), float("inf"), 2.5, 2**63, "3"]),
    "decks_estimation": lambda r: r.choice(["exact", "half", "full", "x", None]),
    "tc_rounding": lambda r: r.choice(["floor", "truncate", "round", "x", None]),
    "ramp": sim_ramp,
    "wong_in": lambda r: r.choice([None, 1, -3, 10**30, 10**400, 1e308, float("inf"),
                                   float("nan"), 2.5, -10**30, 2**63, "1"]),
    "wong_out": lambda r: r.choice([None, 0, -3, 10**30, float("nan"), -1e308, 2**63]),
    "table_min": lambda r: r.choice([1.0, 0, 1e-300, 1e308, float("nan"), float("inf"), -1]),
    "table_max": lambda r: r.choice([None, 10, 0.5, 1e308, float("inf"), float("nan")]),
    "bankroll_trials": lambda r: r.choice([
        None, (10, 100, 50), (1, 1, 1e308), (1, 10, float("inf")), (1, 10, float("nan")),
        (10**30, 1, 100), (1, 10**30, 100), (10**400, 1, 1), (1, 1, 10**400), (0, 0, 0),
        (5, 10, -1), (1.5, 10, 10), "10,100,50", (1, 2), 42, (float("inf"), 1, 1),
        (3, 100, 5e-324)]),
    "progress": lambda r: r.choice([False, True, lambda done, total: None,
                                    lambda: None, 42]),
    "rules": lambda r: r.choice([None, "6D S17", 42, {"decks": 6}]),
}


def check_simulation(res, rounds: int, trials) -> None:
    assert res.rounds == rounds, f"{res.rounds} rounds dealt, {rounds} asked"
    assert 0 <= res.played <= res.rounds, f"{res.played} rounds played of {res.rounds}"
    assert res.hands >= res.played, f"{res.hands} hands for {res.played} rounds played"
    for name in ("mean", "se", "sd", "total_won", "total_bet", "win_rate"):
        value = getattr(res, name)
        # a sample SD (and so an SE) needs two rounds: NaN after one, as documented
        assert finite(value) or (name == "win_rate" and res.total_bet == 0) or \
            (name in ("se", "sd") and res.rounds < 2 and math.isnan(value)), \
            f"{name} is {value!r}"
    assert res.total_bet >= 0 and not res.sd < 0, f"total bet {res.total_bet!r}, SD {res.sd!r}"
    assert not res.partial, "a partial result without an interrupt"
    rows = res.per_true_count
    assert sum(r.rounds for r in rows) == res.rounds, "true-count rows do not add up to the rounds"
    freq = math.fsum(r.frequency for r in rows)
    assert abs(freq - 1) < 1e-9, f"true-count frequencies sum to {freq!r}"
    if trials is not None:
        ruin = res.ruin
        assert ruin is not None, "bankroll_trials asked, no ruin result"
        assert 0 <= ruin.ruined <= ruin.paths, f"{ruin.ruined} ruined of {ruin.paths} paths"
        probability(ruin.risk_of_ruin, "simulated risk of ruin")


class SimulateInputs(Inputs):
    kinds = (("hostile_field", 70), ("valid", 20), ("repeat", 10))
    input_timeout = 60.0

    def __init__(self, seed, emit):
        super().__init__(seed, emit)
        from bjsolve import Rules, simulate
        self.simulate = simulate
        self.rules = [Rules(decks=1), Rules(decks=2, hit_soft_17=True),
                      Rules(decks=6, surrender="late"), Rules(decks=math.inf),
                      Rules(decks=6, blackjack_payout=1.2)]

    def base(self, rng) -> dict:
        return dict(rules=rng.choice(self.rules), rounds=rng.choice([50, 200, 1000, 3000]),
                    seed=rng.randrange(2**64), threads=1)

    def run(self, kwargs):
        res = self.simulate(**kwargs)
        with self.checking():
            check_simulation(res, int(kwargs["rounds"]), kwargs.get("bankroll_trials"))
        return res

    def do_hostile_field(self, rng):
        kwargs = self.base(rng)
        for name in rng.sample(list(SIM_FIELDS), rng.choice([1, 1, 1, 2, 3])):
            kwargs[name] = SIM_FIELDS[name](rng)
        self.note(**kwargs)
        self.run(kwargs)

    def do_valid(self, rng):
        kwargs = self.base(rng)
        kwargs.update(penetration=rng.choice([0.5, 0.75, 0.9, "every-round"]),
                      ramp=rng.choice([None, "1:1,2:2,3:4,4:8", "-1:0,1:1,3:8"]),
                      wong_in=rng.choice([None, None, 1, 2]),
                      insurance=rng.choice([None, 3, False]),
                      spots=rng.randint(1, 3), other_spots=rng.randint(0, 3),
                      bankroll_trials=rng.choice([None, (20, 200, 30)]),
                      system=rng.choice(["hilo", "halves", [1, 1, 1, 1, 1, 1, 0, 0, 0, -1]]))
        if kwargs["rules"].infinite:
            kwargs["penetration"] = 0.75
        self.note(**kwargs)
        self.run(kwargs)

    def do_repeat(self, rng):
        """The same seed and chunk size twice (different thread counts): the same result."""
        kwargs = self.base(rng)
        kwargs.update(chunk_rounds=rng.choice([100, 1000]), ramp="1:1,3:4")
        self.note(**kwargs)
        one = self.run(kwargs)
        two = self.run(dict(kwargs, threads=2))
        assert one.summary() == two.summary(), "the same seed gave a different result on 2 threads"


# ==================================================================================================
# area: game (CountedGame.evaluate, ramps)
# ==================================================================================================

def valid_ramp_points(rng):
    tcs = sorted(rng.sample(range(-6, 10), rng.randint(1, 6)))
    bets = [rng.choice([0, 1, 1, 2, 4, 8, 0.5, 12.5, 100]) for _ in tcs]
    if not any(bets):
        bets[-1] = 1
    return list(zip(tcs, bets))


def game_ramp(rng):
    """A ramp as text, a mapping, pairs or a Ramp; valid half the time."""
    from bjsolve.risk.ramp import Ramp
    pick = rng.random()
    if pick < 0.5:
        points = valid_ramp_points(rng)
        form = rng.randrange(4)
        if form == 0:
            return ",".join(f"{t}:{b}" for t, b in points)
        if form == 1:
            return dict(points)
        if form == 2:
            return points
        return Ramp(tuple((t, float(b)) for t, b in points))
    if pick < 0.75:
        return rng.choice(["", ",", "1:", ":1", "1:1:1", "a:b", "nan:1", "1:nan", "1:inf", "1:-1",
                           "1:1e400", "1e400:1", "1001:1", "-1001:1", "1.5:1", "1:1,1:2", "0:0",
                           "0:0,1:0", "1:1e6", "1:1000000.0001", "1:1e-300", "0:1e-9,1:1e6",
                           "1:" * 10**5, "1:1," * 10**5, " 1 : 1 ", "+1:+1", "0x1:1", "1_0:1",
                           "\u0661:1", "1:1\x00", {True: 1}, {1: True}, {1: "2"}, {10**400: 1},
                           {1: 10**400}, {float("nan"): 1}, [(1,)], [(1, 2, 3)], [[1, 2]],
                           (x for x in [(1, 1)]), b"1:1", 42, None, 1.5, [], {},
                           {tc: 1 for tc in range(-1000, 1001)},
                           {tc: tc % 7 for tc in range(-200, 200)}])
    points = rng.choice([((0, float("nan")),), ((0, -1.0),), ((0, 1e308),), ((0, float("inf")),),
                         (), ((5, 1.0), (1, 2.0)), ((1, 1.0), (1, 2.0)), ((0.5, 1.0),),
                         ((10**400, 1.0),), (("a", 1.0),), ((0, 0.0),), ((0, 1e-300),),
                         ((0, 1.0), (1, 1e6)), ((0, 1.0), (1, 1e300)), ((float("nan"), 1.0),),
                         ((0, 1),), ((0, "1"),), ((0, 1.0, 2.0),), ((-10**30, 1.0),),
                         ((0, 2**63),), ((0, True),), None, "0:1"])
    wong = rng.choice([None, None, float("nan"), float("inf"), 10**400, 0.5, -1000, 1000, "x",
                       1e308, 3])
    return hand_built_ramp(points, wong)


def game_number(rng, valid):
    return rng.choice(valid) if rng.random() < 0.6 else hostile_number(rng)


class GameInputs(Inputs):
    kinds = (("evaluate", 50), ("hand_ramp", 15), ("parse_ramp", 10), ("ramp_distribution", 10),
             ("optimal_ramp", 6), ("table", 4), ("construct", 1.5))
    input_timeout = 120.0

    def __init__(self, seed, emit):
        super().__init__(seed, emit)
        from bjsolve import Rules
        from bjsolve.risk.game import CountedGame
        self.CountedGame = CountedGame
        config = self.rng.choice([dict(rules=Rules(decks=1), depth_bands=1),
                                  dict(rules=Rules(decks=1, hit_soft_17=True), depth_bands=1,
                                       penetration=0.65),
                                  dict(rules=Rules(decks=2), depth_bands=1)])
        emit(f"@ setup CountedGame({short(config)})")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self.game = CountedGame(threads=1, **config)
        self.config = config

    def figures(self, result) -> None:
        for name in ("win_rate", "sd", "average_bet", "rounds_played"):
            assert finite(getattr(result, name)), f"{name} is {getattr(result, name)!r}"
        assert result.sd >= 0 and result.average_bet >= 0, "negative SD or average bet"
        probability(result.rounds_played, "share of rounds played")
        for name in ("ror", "ror_diffusion", "ror_dominant_root", "trip_ruin"):
            value = getattr(result, name)
            if value is not None:
                probability(value, name)
        if result.trip_ruin is not None and result.ror is not None and \
                "exact" in (result.ror_method or ""):
            assert result.trip_ruin <= result.ror + 1e-9, \
                f"trip ruin {result.trip_ruin!r} above the lifetime ruin {result.ror!r}"

    def do_evaluate(self, rng):
        ramp = game_ramp(rng)
        bankroll = game_number(rng, [None, 100, 1000, 5000, 1e4, 37.5]) \
            if rng.random() < 0.8 else None
        kwargs = {}
        if rng.random() < 0.3:
            kwargs["wong_in"] = game_number(rng, [None, 0, 1, 2, -1])
        if rng.random() < 0.3:
            kwargs["unit"] = game_number(rng, [1.0, 5, 25, 0.5, 2.0])
        if rng.random() < 0.3:
            kwargs["trip_rounds"] = game_number(rng, [None, 100, 1000, 10**4])
        if rng.random() < 0.2:
            kwargs["exact_ruin"] = rng.choice([True, False, 0, "no"])
        self.note(ramp=ramp, bankroll=bankroll, **kwargs)
        result = self.game.evaluate(ramp, bankroll, **kwargs)
        with self.checking():
            self.figures(result)
            self.unit_scaling(rng, ramp, bankroll, kwargs, result)

    def unit_scaling(self, rng, ramp, bankroll, kwargs, result):
        unit = kwargs.get("unit", 1.0)
        small = bankroll is None or (finite(bankroll) and 0 < float(bankroll) < 1e300)
        again = isinstance(ramp, (str, dict, list, tuple)) or type(ramp).__name__ == "Ramp"
        if rng.random() < 0.3 and unit in (1.0, 5, 25, 0.5, 2.0) and small and again:
            # a unit worth twice the money: the same figures in units, twice the money
            twice = self.game.evaluate(ramp, bankroll, **dict(kwargs, unit=2 * float(unit)))
            assert twice.win_rate == result.win_rate and twice.ror == result.ror, \
                f"figures in units change with the unit ({result!r} -> {twice!r})"
            money, money2 = result.money(), twice.money()
            assert all(abs(money2[k] - 2 * v) <= 1e-12 * max(1, abs(v))
                       for k, v in money.items()), \
                f"money {money!r} does not double with the unit ({money2!r})"

    def do_hand_ramp(self, rng):
        from bjsolve.risk.ramp import Ramp
        points = rng.choice([((0, float("nan")),), ((0, -1.0),), ((0, 1e308),),
                             ((0, float("inf")),), (), ((5, 1.0), (1, 2.0)),
                             ((1, 1.0), (1, 2.0)), ((0.5, 1.0),),
                             ((10**400, 1.0),), ((0, 0.0),), ((0, 1e-300), (3, 1.0)),
                             ((0, 1.0), (1, 1e300)), ((float("nan"), 1.0),), ((0, 1),),
                             ((-10**30, 1.0),), ((0, 2**63),), tuple(valid_ramp_points(rng))])
        wong = rng.choice([None, None, float("nan"), float("inf"), 10**400, 0.5, -1000, 1e308, 3])
        self.note(points=points, wong_in=wong)
        ramp = Ramp(points, wong)
        what = rng.random()
        if what < 0.6:
            result = self.game.evaluate(ramp, rng.choice([None, 1000]))
            with self.checking():
                self.figures(result)
        elif what < 0.8:
            bets = ramp.bets([-3, 0, 2.5, 10])
            spread = ramp.spread
            with self.checking():
                assert all(finite(b) and b >= 0 for b in bets), f"ramp bets {list(bets)!r}"
                assert finite(spread) and spread >= 1, f"spread {spread!r}"
        else:
            ramp.describe()
            bet = ramp.bet_at(rng.choice([0, 1e308, float("nan"), -5]))
            with self.checking():
                assert finite(bet) and bet >= 0, f"bet_at gives {bet!r}"

    def do_parse_ramp(self, rng):
        from bjsolve.risk.ramp import parse_ramp
        ramp = game_ramp(rng)
        wong = rng.choice([None, None, 2, float("nan"), 10**400, 1.5])
        self.note(ramp=ramp, wong_in=wong)
        got = parse_ramp(ramp, wong_in=wong)
        with self.checking():
            points = got.points
            assert points, "a ramp without points"
            assert all(isinstance(t, int) and -1000 <= t <= 1000 for t, _ in points), \
                f"ramp counts {short(points)}"
            assert all(finite(b) and 0 <= b <= 1e6 for _, b in points), \
                f"ramp bets {short(points)}"
            assert any(b > 0 for _, b in points), "a ramp of zero bets"
            assert all(a[0] < b[0] for a, b in zip(points, points[1:])), \
                "ramp counts not increasing"
            assert got.wong_in is None or (isinstance(got.wong_in, int)
                                           and abs(got.wong_in) <= 1000), \
                f"wong_in {short(got.wong_in)}"

    def do_ramp_distribution(self, rng):
        import numpy as np
        n = len(self.game.tc_values)
        pick = rng.randrange(8)
        if pick < 3:
            bets = np.array([rng.choice([0, 1, 2, 4, 0.5, 3.7, 100]) for _ in range(n)], float)
            if not bets.any():
                bets[-1] = 1
        else:
            bets = rng.choice([np.full(n, np.nan), np.full(n, -1.0), np.full(n, np.inf),
                               np.zeros(n), np.full(n, 1e308), np.ones(n + 3), np.ones(1), [],
                               np.array([10**400] * n, dtype=object), ["1"] * n,
                               np.full(n, 1e-300), np.linspace(1, 1e6, n)])
        self.note(bets=bets)
        dist, chip, note = self.game.ramp_distribution(bets)
        with self.checking():
            probs = np.asarray(dist.probabilities, dtype=float)
            assert finite(chip) and chip > 0, f"chip {chip!r}"
            assert np.all(np.isfinite(np.asarray(dist.values, dtype=float))) and \
                np.all(probs >= 0), "law not finite"
            assert abs(float(probs.sum()) - 1) < 1e-9, f"law sums to {float(probs.sum())!r}"

    def do_optimal_ramp(self, rng):
        spread = game_number(rng, [1, 4, 8, 16, 1e6])
        min_bet = game_number(rng, [1.0, 5, 0.5]) if rng.random() < 0.3 else 1.0
        chip = game_number(rng, [None, 1, 0.25]) if rng.random() < 0.3 else None
        wong = rng.random() < 0.3
        self.note(max_spread=spread, min_bet=min_bet, chip=chip, wong=wong)
        ramp = self.game.optimal_ramp(spread, min_bet=min_bet, chip=chip, wong=wong)
        with self.checking():
            assert ramp.points and all(finite(b) and b >= 0 for _, b in ramp.points), \
                f"optimal ramp {short(ramp.points)}"

    def do_table(self, rng):
        ramp = game_ramp(rng) if rng.random() < 0.8 else None
        self.note(ramp=ramp)
        table = self.game.table(ramp)
        import numpy as np
        with self.checking():
            values = np.asarray(table.values, dtype=float)
            assert np.all(np.isfinite(values)), "game table not finite"

    def do_construct(self, rng):
        """CountedGame itself with one or two hostile settings (most are rejected before
        the expensive part; an accepted one costs a full construction)."""
        kwargs = dict(self.config)
        choices = {
            "penetration": [0, 1, 0.999, 1e-9, float("nan"), float("inf"), 10**400, "0.7", -0.5],
            "burn": [0, 10**6, 10**400, -1, 1.5, 51],
            "spots": [0, 8, 10**30, 2**63, 1.5],
            "depth_bands": [0, 10**9, 10**400, -1, 2.5],
            "tc_min": [10**400, -10**30, 5, 1.5, float("nan")],
            "tc_max": [-10**400, 10**30, -5, float("inf")],
            "system": [[1e308] * 10, [float("nan")] * 10, [10**400] * 10, "nope", [0] * 10, 42],
            "tc_rounding": ["exact", "x", None],
            "decks_estimation": ["x", None, 42],
            "strategy": ["x", None, "indices"],
            "curvature": ["x", None],
            "threads": [0, 10**30, "1"],
        }
        for name in rng.sample(list(choices), rng.choice([1, 1, 2])):
            kwargs[name] = rng.choice(choices[name])
        self.note(**kwargs)
        game = self.CountedGame(**kwargs)
        result = game.evaluate("1:1,3:4", 1000)
        with self.checking():
            self.figures(result)


# ==================================================================================================
# area: index files
# ==================================================================================================

HUGE_FIELDS = ["1" + "0" * 400, "-" + "9" * 400, "1e400", "nan", "inf", "-inf", "0x10", "1_000",
               "\u0663", "+-3", "3.7", "1000.0000001", "+1e3", "9" * 30, "--3", "3-", ".",
               "\u00b2", "+", "-0", "00000000000000000003"]


def valid_index_line(rng) -> str:
    count = rng.choice([c for c in range(-21, 22) if c not in (0, 1, -1)])
    up = rng.randint(1, 10)
    flags = [rng.randint(0, 1) for _ in range(3)]
    k = rng.choice([1, 2, 2, 2, 3, 4])
    thresholds = sorted(rng.sample(range(-15, 16), k - 1))
    plays = [rng.randint(1, 5) for _ in range(k)]
    parts = [str(count), str(up), *map(str, flags)]
    for p, t in zip(plays, thresholds):
        parts += [str(p), f"{t:+d}"]
    return " ".join(parts + [str(plays[-1]), "+1000"])


def index_text(rng) -> tuple:
    """(text, label): an index file, valid or hostile."""
    lines = [valid_index_line(rng) for _ in range(rng.randint(1, 60))]
    pick = rng.randrange(16)
    if pick == 0:
        return "\n".join(lines) + "\n", "valid"
    if pick == 1:                                   # a huge field
        i = rng.randrange(len(lines))
        fields = lines[i].split()
        fields[rng.randrange(len(fields))] = rng.choice(HUGE_FIELDS)
        lines[i] = " ".join(fields)
        return "\n".join(lines), "huge field"
    if pick == 2:
        return "\n".join(lines * rng.choice([2, 50])), "duplicates"
    if pick == 3:
        n = rng.choice([10**4, 10**5])
        return "\n".join(valid_index_line(rng) for _ in range(n)), f"{n} lines"
    if pick == 4:
        plays = " ".join(f"{rng.randint(1, 5)} {t:+d}" for t in range(-20, 20))
        return f"16 10 1 0 1 {plays} 2 +1000", "40 plays"
    if pick == 5:
        return " ".join(["16 10 1 0 1"] + ["2 +1"] * 50_000 + ["2 +1000"]), "a line of 10**5 fields"
    if pick == 6:
        return rng.choice(["", "\n\n", "# nothing\n", "   ", "\x00",
                           "\ufeff16 10 1 0 1 2 +1000"]), "empty"
    if pick == 7:
        return "\r\n".join(lines) + "\r\n", "CRLF"
    if pick == 8:
        return "\n".join(line.replace(" ", "\t") for line in lines), "tabs"
    if pick == 9:
        ins = rng.choice(["+3", "-5", "+" + "9" * 400, "-" + "9" * 30, "+99999999999999999999"])
        return f"# insurance: take at TC >= {ins}\n" + "\n".join(lines), f"insurance {ins[:8]}"
    if pick == 10:                                  # thresholds out of order / no +1000
        return "16 10 1 0 1 2 +3 1 +1 2 +1000\n" if rng.random() < 0.5 else "16 10 1 0 1 2 +999", \
            "bad thresholds"
    if pick == 11:                                  # plays not allowed for the hand
        return "\n".join(f"{c} {u} 0 0 0 4 +{rng.randint(-3, 3)} 5 +1000"
                         for c in (12, 16, -18, 20) for u in range(1, 11)), "impossible plays"
    if pick == 12:                                  # every line one play: no index plays
        return "\n".join(f"{rng.choice([12, 13, 16, -18])} {u} 1 0 1 {rng.randint(1, 2)} +1000"
                         for u in range(1, 11)), "one play per line"
    if pick == 13:
        return "\n".join(" ".join(rng.choice(HUGE_FIELDS + ["16", "10", "1", "0", "+1000"])
                                  for _ in range(rng.randint(1, 12)))
                         for _ in range(rng.randint(1, 5))), "random fields"
    if pick == 14:
        return "".join(chr(rng.randint(0, 0x2FF)) for _ in range(rng.randint(1, 400))), "noise"
    return "\n".join(lines) + "\n" + "16 10 1 0 1 2 +1 5 +1000 extra", "trailing field"


class IndexFileInputs(Inputs):
    kinds = (("parse", 45), ("simulate_text", 15), ("simulate_file", 20), ("odd_path", 10),
             ("no_index_plays", 5), ("cli", 5))
    input_timeout = 60.0

    def __init__(self, seed, emit):
        super().__init__(seed, emit)
        import shutil
        import atexit
        from bjsolve import Rules, simulate
        from bjsolve.simulation.simulator import parse_index_file
        self.simulate, self.parse = simulate, parse_index_file
        self.rules = Rules(decks=2)
        self.dir = tempfile.mkdtemp(prefix="bjsolve-fuzz-")
        atexit.register(shutil.rmtree, self.dir, True)

    def write(self, text, binary=False) -> str:
        path = os.path.join(self.dir, f"indices-{self.rng.randrange(10**9)}.txt")
        with open(path, "wb" if binary else "w", encoding=None if binary else "utf-8",
                  errors=None if binary else "surrogatepass") as f:
            f.write(text)
        return path

    def sim(self, indices, **extra):
        res = self.simulate(self.rules, rounds=300, seed=7, threads=1, indices=indices, **extra)
        with self.checking():
            check_simulation(res, 300, None)
        return res

    def do_parse(self, rng):
        text, label = index_text(rng)
        self.note(file=label, text=text)
        plays = self.parse(text)
        with self.checking():
            lines = [ln for ln in text.splitlines()
                     if ln.strip() and not ln.strip().startswith("#")]
            # a line repeated word for word is one play (the parser skips the copies)
            distinct = {" ".join(ln.split()) for ln in lines}
            assert len(plays) == len(distinct), \
                f"{len(plays)} index plays from {len(distinct)} distinct lines"
            for p in plays:
                assert 1 <= p.dealer <= 10 and -21 <= p.count <= 21, f"index play {short(p)}"
                assert len(p.plays) == len(p.thresholds) + 1, f"index play {short(p)}"
                assert all(isinstance(t, int) and abs(t) < 1000 for t in p.thresholds), \
                    f"index thresholds {short(p.thresholds)}"

    def do_simulate_text(self, rng):
        text, label = index_text(rng)
        self.note(file=label, text=text)
        self.sim(text)

    def do_simulate_file(self, rng):
        text, label = index_text(rng)
        binary = rng.random() < 0.15
        data = bytes(rng.randrange(256) for _ in range(rng.randint(1, 300))) if binary else text
        path = self.write(data, binary)
        import pathlib
        given = pathlib.Path(path) if rng.random() < 0.3 else path
        self.note(file="random bytes" if binary else label, path=given)
        self.sim(given)

    def do_odd_path(self, rng):
        import pathlib
        sub = os.path.join(self.dir, "a directory")
        os.makedirs(sub, exist_ok=True)
        given = rng.choice([self.dir, sub, pathlib.Path(sub), os.path.join(self.dir, "missing.txt"),
                            pathlib.Path(self.dir, "missing.txt"), "/dev/null", "/", "x\x00y",
                            pathlib.Path("."), b"/tmp", os.path.join(self.dir, "")])
        self.note(path=given)
        self.sim(given)

    def do_no_index_plays(self, rng):
        """A file whose lines hold one play each changes nothing: the same simulation."""
        text = "\n".join(f"{c} {u} {d} 0 {s} {rng.randint(1, 3)} +1000"
                         for c in (12, 13, 16, -18) for u in range(1, 11)
                         for d in (0, 1) for s in (0, 1))
        self.note(file="one play per line", text=text)
        with_file = self.sim(text, insurance=False)
        without = self.sim(None, insurance=False)
        assert with_file.summary() == without.summary(), \
            "an index file without index plays changed the simulation"

    def do_cli(self, rng):
        text, label = index_text(rng)
        path = self.write(text)
        argv = ["simulate", "--decks", "2", "--rounds", "500", "--threads", "1", "--indices", path]
        self.note(file=label, argv=" ".join(argv))
        code, out, err = run_cli_subprocess(argv, self.input_timeout - 5, dict(os.environ))
        outcome, detail = classify_cli(code, out, err)
        if outcome != "ok":
            raise Verdict(outcome, f"CLI: {detail}" if detail else "")


INPUT_AREAS = {"api": ApiInputs, "risk": RiskInputs, "simulate": SimulateInputs,
               "game": GameInputs, "index-files": IndexFileInputs}


# ==================================================================================================
# area: the command line
# ==================================================================================================

TABLES = ["initial", "dealer", "stand", "hit", "double", "split", "surrender", "optimal",
          "strategy", "advantage", "exceptions", "insurance", "nope"]


def hostile_text(rng, valid):
    """A flag's value: valid, else the text of a hostile number."""
    if rng.random() < 0.5:
        return rng.choice(valid)
    return rng.choice(["0", "-1", "nan", "inf", "-inf", "1e308", "1e400", "1" + "0" * 400,
                       "1e-300", "x", "", "2.5", "1e30", str(2**63), "0x10", "1_000", " 5 "])


def command_argv(rng):
    """risk / simulate / game / indices with hostile values, each kept small."""
    cmd = rng.choice(["risk", "risk", "simulate", "simulate", "simulate", "game", "indices"])
    if cmd == "risk":
        argv = ["risk", "--decks", rng.choice(["1", "2", "6", "0", "inf"])]
        if rng.random() < 0.8:
            argv += ["--bankroll", hostile_text(rng, ["100", "1000", "1e6", "0.5"])]
        if rng.random() < 0.5:
            argv += ["--trip-rounds", hostile_text(rng, ["1", "100", "1e4", "1e7"])]
        if rng.random() < 0.3:
            argv += ["--unit", hostile_text(rng, ["25", "0.5", "1e9", "1e12"])]
        if rng.random() < 0.3:
            argv += ["--target-ror", hostile_text(rng, ["0.05", "0.5", "1", "0"])]
        if rng.random() < 0.3:
            argv += ["--spots", hostile_text(rng, ["1", "2", "3", "4"])]
        if rng.random() < 0.2:
            argv += ["--payout", rng.choice(["1000", "1e-9", "6:5"])]
        return argv
    if cmd == "simulate":
        argv = ["simulate", "--rounds", hostile_text(rng, ["1000", "1e3", "5000"]),
                "--threads", "1"]
        flags = {
            "--penetration": ["0.75", "0.5", "every-round", "52", "1", "1.5", "1e30"],
            "--wong-in": ["1", "-2", "1e30", str(10**30)], "--wong-out": ["0", "-5"],
            "--insurance": ["never", "3", "9" * 400, str(2**63)],
            "--bankroll-trials": ["10,100,50", "1e30,1,1", "1,1e30,1", "1,1,inf", "1,1,nan",
                                  "1,1,1e308", "0,0,0", "x"],
            "--ramp": ["1:1,2:2,3:4,4:8", "1:nan", "1:1e400", "1e400:1", "0:0", "1:1,1:2"],
            "--table-min": ["1", "1e-300", "1e308"], "--table-max": ["10", "0.5", "inf"],
            "--spots": ["1", "7", "8"], "--other-spots": ["0", "6", "7", "-1", "1e30"],
            "--system": ["hilo", "1e308,1e308,1e308,1e308,1e308,1e308,1e308,1e308,1e308,1e308",
                         "nan,1,1,1,1,1,0,0,0,-1", "1,2"],
            "--seed": ["0", "-1", str(2**64), "1" * 400],
            "--chunk-rounds": ["1", "7", "1e30"],
            "--decks": ["1", "2", "6", "inf", "1000000"],
            "--indices": ["i18", "fab4", "nope"],
            "--format": ["json", "csv", "text"],
        }
        for flag in rng.sample(list(flags), rng.randint(1, 4)):
            argv += [flag, hostile_text(rng, flags[flag])]
        return argv
    if cmd == "game":
        argv = ["game", "--decks", "1", "--depth-bands", "1"]
        flags = {"--ramp": ["1:1,2:2,3:4,4:8", "1:nan", "1:1e400", "0:0", "1e400:1"],
                 "--wong-in": ["1", "1000", str(10**30)], "--bankroll": ["1000", "1e308", "0.001"],
                 "--trip-rounds": ["100", "1e4", "10000001"],
                 "--unit": ["25", "0.001", "1e12"], "--target-ror": ["0.05", "0.999", "2"],
                 "--penetration": ["0.75", "0.99", "51"], "--insurance": ["3", "never", "x"],
                 "--burn": ["0", "51", "-1"], "--optimal-spread": ["8", "1e6", "nan"]}
        for flag in rng.sample(list(flags), rng.randint(1, 3)):
            argv += [flag, hostile_text(rng, flags[flag])]
        if "--trip-rounds" in argv and "--bankroll" not in argv:
            argv += ["--bankroll", "1000"]
        return argv
    argv = ["indices", "--decks", rng.choice(["1", "2", "6"])]
    flags = {"--top": ["1", "5", "0"], "--dealt-decks": ["0.5", "1", "10"],
             "--tc-rounding": ["floor", "x"], "--format": ["index", "json", "text"]}
    for flag in rng.sample(list(flags), rng.randint(0, 2)):
        argv += [flag, hostile_text(rng, flags[flag])]
    return argv


def random_argv(rng):
    if rng.random() < 0.2:
        return command_argv(rng)
    argv = []
    pick = rng.random()
    if pick < 0.55:
        argv += rng.sample(TABLES, rng.randint(0, 3))
    elif pick < 0.8:
        argv += ["hand"] + [str(rng.choice(list("A23456789TJQK") + ["10", "X", "0"]))
                            for _ in range(rng.randint(0, 4))]
        if rng.random() < 0.9:
            argv += ["--dealer", rng.choice(list("A23456789T") + ["Z", "", "AT"])]
    elif pick < 0.9:
        argv += [rng.choice(["counts", "eor", "indices", "tc-advantage", "nonsense"])]
        if rng.random() < 0.5:
            argv += ["--system", rng.choice(["hilo", "halves", "ko", "uston-apc", "x",
                                             "-1,1,1,1,1,1,0,0,0,-1", "1,2"])]
    flags = [
        lambda: ["--decks", rng.choice(["1", "2", "6", "8", "0", "-1", "inf", "x", "1e9", "2.5",
                                        "1000000"])],
        lambda: ["--infinite"], lambda: ["--h17"], lambda: ["--s17"],
        lambda: ["--double", rng.choice(["any", "9-11", "10-11", "x"])],
        lambda: ["--no-double-soft"], lambda: ["--dan"], lambda: ["--das"], lambda: ["--no-das"],
        lambda: ["--max-split-hands", rng.choice(["1", "2", "3", "4", "5", "0"])],
        lambda: ["--rsa"], lambda: ["--hit-split-aces"],
        lambda: ["--surrender", rng.choice(["none", "late", "early", "x"])],
        lambda: ["--payout", rng.choice(["3:2", "6:5", "1:1", "2", "0", "-1", "x:y", "1e-9",
                                         "1:0", "1001", "nan"])],
        lambda: ["--hole-card", rng.choice(["peek", "enhc", "enhc-obo", "exposed", "x"])],
        lambda: ["--dealer-wins-ties"],
        lambda: ["--split", rng.choice(["CDZ-", "CDP1", "CDP", "x"])],
        lambda: ["--given-no-blackjack"],
        lambda: ["--format", rng.choice(["text", "csv", "json", "markdown", "index", "x"])],
        lambda: ["--preset", rng.choice(["classic", "easy", "double-exposure", "single-deck",
                                         "european", "x"])],
        lambda: ["--remove", ",".join(rng.choice(list("A23456789T") + ["X", "AA", ""])
                                      for _ in range(rng.randint(1, 40)))],
        lambda: ["--dealt-decks", rng.choice(["1", "0.5", "inf", "-1", "x", "100"])],
        lambda: [rng.choice(["--bogus", "-x", "--decks"])],
    ]
    for _ in range(rng.randint(0, 5)):
        argv += rng.choice(flags)()
    rng.shuffle(argv) if rng.random() < 0.05 else None
    return argv


def classify_cli(code, out, err) -> tuple[str, str]:
    if code is None:
        return "hang", "timeout"
    if code < 0 or code > 2:
        return "crash", f"exit {code}" + (f" ({signal.Signals(-code).name})" if code < 0 and
                                           -code in signal.valid_signals() else "")
    if "Traceback" in err:
        return "wrong-type", err.strip().splitlines()[-1][:150]
    if code == 0:
        return "ok", ""
    if "internal error" in err:
        return "internal error", err.strip()[:150]
    if code == 2:
        lines = [line for line in err.strip().splitlines() if line.strip()]
        usage = lines and lines[0].startswith("usage:")  # argparse: usage line + one message
        if len(lines) <= 1 or (usage and len(lines) <= 3 and len(err) < 2000):
            return "clean rejection", ""
        return "wrong-type", f"{len(lines)}-line rejection: {lines[-1][:100]}"
    return "wrong-type", f"exit {code}: {err.strip()[:150]}"


def bjsolve_command(argv):
    return [sys.executable, "-m", "bjsolve", *argv]


def run_cli_subprocess(argv, timeout, env):
    try:
        proc = subprocess.run(bjsolve_command(argv), capture_output=True, text=True,
                              timeout=timeout, env=env, errors="backslashreplace")
    except subprocess.TimeoutExpired:
        return None, "", ""
    return proc.returncode, proc.stdout, proc.stderr


def run_cli_inprocess(argv):
    import contextlib
    import io
    try:
        from bjsolve.cli import main
    except ImportError:
        from bjsolve.__main__ import main
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 2
        except BaseException:  # noqa: BLE001
            import traceback
            traceback.print_exc(file=err)
            code = 1
    return code, out.getvalue(), err.getvalue()


# ==================================================================================================
# area: interrupts (one SIGINT to a running command)
# ==================================================================================================

def interrupt_argv(rng):
    cmd = rng.choice(["simulate", "game", "indices"])
    decks = rng.choice(["1", "2", "6", "8"])
    if cmd == "simulate":
        argv = ["simulate", "--rounds", rng.choice(["1e9", "1e12"]), "--decks", decks,
                "--threads", rng.choice(["1", "2", "4"])]
        extras = [["--indices"], ["--ramp", "1:1,2:2,3:4,4:8"],
                  ["--bankroll-trials", "1000000,100000,100"], ["--strategy", "optimal"],
                  ["--format", "json"], ["--chunk-rounds", rng.choice(["1e4", "1e7"])],
                  ["--wong-in", "1"], ["--spots", "3"]]
    elif cmd == "game":
        argv = ["game", "--decks", decks]
        extras = [["--strategy", "optimal"], ["--indices", "i18"],
                  ["--bankroll", "1000", "--trip-rounds", "1000000"], ["--depth-bands", "5"],
                  ["--optimal-spread", "16"], ["--format", "json"]]
    else:
        argv = ["indices", "--decks", decks]
        extras = [["--hands", "all"], ["--risk-averse", "--set", "i18"], ["--format", "index"],
                  ["--tc-rounding", "floor"], ["--dealt-decks", "3"]]
    for extra in rng.sample(extras, rng.randint(0, 2)):
        argv += extra
    return argv


def _sigint_default() -> None:
    # a campaign started in the background (``&``, nohup, CI) hands its children SIGINT
    # ignored, and Python then keeps ignoring it: give the command the handling a terminal's
    # Ctrl-C meets
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _before_bjsolve(err: str) -> bool:
    """Whether a SIGINT's traceback came before bjsolve's start-up guard was up (the
    interpreter's own start-up, which a loaded machine can stretch past 0.1 s, or the few
    statements that put the guard up): Python's default handling, which no program can
    change."""
    from bjsolve.startup import interrupted_before_the_guard
    return interrupted_before_the_guard(err)


def _swallowed_by_python(err: str) -> bool:
    """Whether ``err`` holds CPython's report of a KeyboardInterrupt it had to ignore in an
    import lock's callback."""
    marker = "Exception ignored in: <function _get_module_lock"
    return marker in err and "KeyboardInterrupt" in err.split(marker, 1)[1]


def run_interrupt(argv, delay: float, grace: float, env) -> tuple:
    """Start ``bjsolve argv``, send SIGINT after ``delay`` seconds: (outcome, detail)."""
    proc = subprocess.Popen(bjsolve_command(argv), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env, text=True, errors="backslashreplace",
                            preexec_fn=_sigint_default)
    try:
        out, err = proc.communicate(timeout=delay)
        outcome, detail = classify_cli(proc.returncode, out, err)
        return outcome, (detail + " (finished before the signal)") if detail else ""
    except subprocess.TimeoutExpired:
        pass
    proc.send_signal(signal.SIGINT)
    sent = time.monotonic()
    try:
        out, err = proc.communicate(timeout=grace)
    except subprocess.TimeoutExpired:
        try:
            out, err = proc.communicate(timeout=10.0)
            return "hang", f"no exit within {grace:g} s of SIGINT (exited after " \
                           f"{time.monotonic() - sent:.1f} s, code {proc.returncode})"
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGINT)      # the second Ctrl-C of a user who waited
            try:
                out, err = proc.communicate(timeout=grace)
            except subprocess.TimeoutExpired:
                proc.kill()
                out, err = proc.communicate()
                return "hang", f"no exit within {grace:g} s of SIGINT (still running after " \
                               f"10 s and a second SIGINT: killed)"
            if _swallowed_by_python(err) and proc.returncode in (130, -signal.SIGINT):
                return "lost by Python", ""
            return "hang", f"no exit within {grace:g} s of SIGINT (still running after 10 s; " \
                           f"a second SIGINT: code {proc.returncode})"
    code = proc.returncode
    if "Traceback" in err and not _before_bjsolve(err):
        return "wrong-type", "traceback after SIGINT: " + err.strip().splitlines()[-1][:150]
    if code in (0, 130, -signal.SIGINT) or _before_bjsolve(err):
        return "ok", ""
    if code == 1 and "internal error" in err:
        return "internal error", err.strip()[:150]
    if code < 0:
        return "crash", f"exit {code} ({signal.Signals(-code).name}) after SIGINT"
    return "wrong-type", f"exit {code} after SIGINT: {err.strip()[-150:]}"


# ==================================================================================================
# area: memory (RLIMIT_AS a few MB above the mapped size)
# ==================================================================================================

MEMORY_TASKS = ("solve-1d", "solve-6d-enhc-cdp1", "solve-2d-h17-rsa", "outcomes-1d",
                "outcomes-inf-2spots", "outcomes-2d-insured", "simulate-2d", "simulate-6d-ramp")


def memory_task(name: str) -> list:
    """Run one task; its figures as a list of floats (compared bit for bit)."""
    from bjsolve import Rules, simulate, solve
    if name.startswith("solve"):
        rules, split = {"solve-1d": (Rules(decks=1), "CDZ-"),
                        "solve-6d-enhc-cdp1": (Rules(decks=6, hole_card="enhc"), "CDP1"),
                        "solve-2d-h17-rsa": (Rules(decks=2, hit_soft_17=True, resplit_aces=True,
                                                   max_split_hands=4), "CDZ-")}[name]
        sol = solve(rules, split=split, threads=1)
        return [sol.expected_value] + [sol.ev_by_dealer[k] for k in sorted(sol.ev_by_dealer)]
    if name.startswith("outcomes"):
        rules, kwargs = {"outcomes-1d": (Rules(decks=1), {}),
                         "outcomes-inf-2spots": (Rules(decks=math.inf), {"spots": 2}),
                         "outcomes-2d-insured": (Rules(decks=2), {"insurance": True})}[name]
        dist = solve(rules, threads=1).outcome_distribution(threads=1, **kwargs)
        return [float(x) for x in dist.values] + [float(x) for x in dist.probabilities] + \
            [float(dist.mean), float(dist.variance)]
    kwargs = {"simulate-2d": dict(rules=Rules(decks=2)),
              "simulate-6d-ramp": dict(rules=Rules(decks=6), ramp="1:1,2:2,3:4,4:8",
                                       indices="i18", bankroll_trials=(20, 300, 40))}[name]
    res = simulate(rounds=20_000, seed=11, threads=1, **kwargs)
    figures = [float(v) for v in res.summary().values() if isinstance(v, (int, float))]
    return figures + [float(r.mean) for r in res.per_true_count]


def first_difference(figures, reference):
    """The position of the first figure that differs bit for bit (a NaN where the reference
    has a NaN is the same: ``!=`` called every run with one different), or None."""
    def bits(xs):
        return [float(x).hex() for x in xs] + [None]
    return next((i for i, (x, y) in enumerate(zip(bits(figures), bits(reference))) if x != y),
                None)


def _mapped_bytes() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmSize in /proc/self/status")


def memory_worker(task: str, extra_mb: float) -> None:
    """Child: import everything, set RLIMIT_AS to the mapped size + ``extra_mb`` (< 0: no
    limit), run the task; print RESULT, or MEMORYERROR and then the task's result without
    the limit (AFTER), or ERROR."""
    import importlib
    import pkgutil
    import resource
    import bjcore
    import bjsolve
    import numpy  # noqa: F401
    import numpy.fft  # noqa: F401
    import numpy.linalg  # noqa: F401
    for name in bjcore.__all__:  # (each name loads its compiled module: all of them)
        getattr(bjcore, name)
    names = [f"bjsolve.{m.name}" for m in pkgutil.iter_modules(bjsolve.__path__)
             if m.name not in ("cli", "render_plot", "distributed", "__main__")]
    for name in names:           # imported before the limit: the limit is on the work
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001
            pass

    def say(text: str) -> None:
        os.write(1, (text + "\n").encode())

    hard = resource.getrlimit(resource.RLIMIT_AS)[1]
    if extra_mb >= 0:
        limit = _mapped_bytes() + int(extra_mb * 2**20)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        figures = memory_task(task)
    except MemoryError:
        say("MEMORYERROR")
        resource.setrlimit(resource.RLIMIT_AS, (hard, hard))
        try:
            say("AFTER " + json.dumps([x.hex() for x in memory_task(task)]))
        except BaseException as e:  # noqa: BLE001
            say(f"ERROR after the MemoryError, without the limit: {type(e).__name__}: {e}"[:300])
        return
    except Exception as e:  # noqa: BLE001
        say(f"ERROR {type(e).__name__}: {e}"[:300])
        return
    say("RESULT " + json.dumps([x.hex() for x in figures]))


def run_memory(task: str, extra_mb: float, timeout: float, env) -> tuple:
    """(outcome, detail, figures or None, stderr reader) of one memory child."""
    cmd = [sys.executable, os.path.join(HERE, "fuzz_campaign.py"), "--_memory", task, str(extra_mb)]
    code, lines, err = run_process(cmd, timeout, env)
    if code is None:
        return "hang", f"over {timeout:g} s", None, err
    err_last = (list(err.lines) or [""])[-1]
    if code < 0:
        return "crash", f"killed by {signal.Signals(-code).name}" + \
            (f" after {lines[-1][:40]}" if lines else "") + \
            (f": {err_last[:120]}" if err_last else ""), None, err
    said = lines[0] if lines else ""
    if said.startswith("ERROR"):
        return "wrong-type", said[6:160], None, err
    if said.startswith("RESULT"):
        return "ok", "", [float.fromhex(x) for x in json.loads(said[7:])], err
    if said == "MEMORYERROR" and len(lines) > 1:
        if lines[1].startswith("ERROR"):
            return "wrong-type", lines[1][6:200], None, err
        return "ok", "after", [float.fromhex(x) for x in json.loads(lines[1][6:])], err
    # the child could not say (more): a MemoryError on the way out is still a MemoryError
    if err.seen_traceback:
        if "MemoryError" in err_last:
            return "ok", "", None, err
        return "wrong-type", f"exit {code}: {err_last[:150]}", None, err
    if code == 0 and said == "MEMORYERROR":
        return "ok", "", None, err
    return "crash", f"exit {code} without a Python error: {err_last[:150]}", None, err


# ==================================================================================================
# the parent: running areas, counting, reporting
# ==================================================================================================

class Tally:
    """Outcome counts per area, and the distinct failures (area, outcome, kind, message with
    numbers folded) with their first input and how often each was seen."""

    def __init__(self):
        self.counts = collections.defaultdict(collections.Counter)
        self.failures: dict = {}
        self.units = collections.Counter()
        self.seconds = collections.Counter()

    def add(self, area, outcome, kind="", detail="", example=""):
        self.counts[area][outcome] += 1
        if outcome in BAD:
            folded = re.sub(r"'/[^']*'|\"/[^\"]*\"", "<path>", detail)       # temporary files
            folded = re.sub(r"'[^'/]{0,40}'", "'.'", folded)          # quoted values, type names
            folded = re.sub(r"0x[0-9a-fA-F]+|\d+(\.\d+)?(e[+-]?\d+)?", "N", folded)[:160]
            key = (area, outcome, kind, folded)
            entry = self.failures.setdefault(key, {"count": 0, "detail": detail,
                                                   "input": example})
            entry["count"] += 1

    def report(self, examples: int, out=sys.stdout):
        areas = [a for a in AREAS if a in self.counts]
        width = max([len(a) for a in areas] + [6])
        print(f"{'area':{width}s} " + " ".join(f"{o:>15s}" for o in OUTCOMES)
              + f" {'units':>7s} {'seconds':>8s}", file=out)
        for area in areas:
            print(f"{area:{width}s} " + " ".join(f"{self.counts[area].get(o, 0):15d}"
                                                 for o in OUTCOMES)
                  + f" {self.units[area]:7d} {self.seconds[area]:8.0f}", file=out)
        total = collections.Counter()
        for area in areas:
            total.update(self.counts[area])
        print(f"{'total':{width}s} " + " ".join(f"{total.get(o, 0):15d}" for o in OUTCOMES),
              file=out)
        for area in areas:
            groups = [(k, v) for k, v in self.failures.items() if k[0] == area]
            if not groups:
                continue
            print(f"\n{area}: {len(groups)} distinct failures", file=out)
            for outcome in BAD:
                chosen = [(k, v) for k, v in groups if k[1] == outcome]
                for (_, _, kind, _), v in chosen[:examples]:
                    print(f"  {outcome} [{kind}] x{v['count']}: {v['detail'][:200]}", file=out)
                    if v["input"]:
                        print(f"      input: {v['input'][:400]}", file=out)
                if len(chosen) > examples:
                    print(f"  ... {len(chosen) - examples} more {outcome} groups", file=out)

    def bad(self) -> int:
        return sum(c.get(o, 0) for c in self.counts.values() for o in BAD)

    def as_json(self) -> dict:
        return {"counts": {a: dict(c) for a, c in self.counts.items()},
                "failures": [dict(area=k[0], outcome=k[1], kind=k[2], **v)
                             for k, v in self.failures.items()]}


class LineReader(threading.Thread):
    """Collects a child's output lines (the last ``keep`` of them), noting when the last
    one came, whether a traceback was printed and the exceptions Python had to ignore
    (raised where they cannot propagate: "Exception ignored in ...")."""

    def __init__(self, stream, keep=None):
        super().__init__(daemon=True)
        self.stream, self.last = stream, time.monotonic()
        self.lines = collections.deque(maxlen=keep) if keep else []
        self.seen_traceback, self.ignored, self.ignored_count = False, "", 0

    def run(self):
        for raw in iter(self.stream.readline, b""):
            line = raw.decode("utf-8", "backslashreplace").rstrip("\n")
            if line.startswith("Traceback"):
                self.seen_traceback = True
            if line.startswith("Exception ignored in"):
                self.ignored_count += 1
                self.ignored = self.ignored or line[:150]
            self.lines.append(line)
            self.last = time.monotonic()


def run_process(cmd, timeout, env):
    """Run ``cmd``: (exit code or None on timeout, stdout lines, stderr LineReader)."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    out, err = LineReader(proc.stdout), LineReader(proc.stderr, keep=200)
    out.start()
    err.start()
    try:
        code = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        code = None
    out.join(5)
    err.join(5)
    return code, list(out.lines), err


def run_chunk(area, seed, count, seconds, input_timeout, setup_timeout, env, tally):
    """One worker child: its inputs' outcomes into the tally; a child that dies is a crash
    (and one that stops talking a hang) of the input it last announced."""
    cmd = [sys.executable, os.path.join(HERE, "fuzz_campaign.py"), "--_worker", area, str(seed),
           str(count), str(seconds), str(input_timeout or 0)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    out, err = LineReader(proc.stdout), LineReader(proc.stderr, keep=200)
    out.start()
    err.start()
    limit = input_timeout or INPUT_AREAS[area].input_timeout
    hung = False
    while proc.poll() is None:
        time.sleep(0.1)
        last = out.lines[-1] if out.lines else "@ setup"
        allowed = setup_timeout if last.startswith("@ setup") else limit + 15.0
        if time.monotonic() - out.last > allowed:
            hung = True
            proc.kill()
            proc.wait()
    out.join(5)
    err.join(5)
    ending = f"no output for over {allowed:g} s (killed)" if hung else None
    return tally_worker(area, list(out.lines), proc.returncode, ending, err, tally)


def tally_worker(area, lines, code, hang_detail, err, tally) -> int:
    """Count a worker's reported outcomes; if it was killed (``hang_detail``) or died, one
    more hang or crash for the input it announced last.  Returns the inputs reported."""
    current, kind, done = "", "setup", 0
    for line in lines:
        if line.startswith("@ "):
            kind, _, text = line[2:].partition(" ")
            if text:
                current = text
            elif kind != "setup":
                current = ""                  # a new input, not named yet
        elif line.startswith("= "):
            outcome, _, rest = line[2:].partition("\t")
            kind2, _, detail = rest.partition("\t")
            tally.add(area, outcome, kind2, detail, current)
            done += 1
            current = ""
    unfinished = bool(lines) and lines[-1].startswith("@ ")
    last_err = (list(err.lines) or [""])[-1]
    if hang_detail:
        tally.add(area, "hang", kind, hang_detail, current)
    elif code < 0:
        tally.add(area, "crash", kind, f"killed by {signal.Signals(-code).name}"
                  + ("" if unfinished else " between inputs")
                  + (f": {last_err[:120]}" if last_err else ""), current)
    elif code != 0:
        tally.add(area, "wrong-type" if err.seen_traceback else "crash", kind,
                  f"worker exit {code}: {last_err[:150]}", current)
    return done


class Runner:
    """Runs the areas one unit at a time (a chunk of inputs, or one process), by counts or
    sharing a time budget."""

    def __init__(self, args):
        self.args = args
        self.tally = Tally()
        # the children's temporary files (index files) under one directory, removed at the
        # end even when a child was killed
        self.tmp = tempfile.mkdtemp(prefix="bjsolve-fuzz-")
        self.env = dict(os.environ, TMPDIR=self.tmp)
        self.rng = random.Random(args.seed)
        self.references: dict = {}
        self.start = time.monotonic()
        self.last_progress = 0.0

    # ---- one unit of each area ----
    def unit(self, area, remaining_count, seconds):
        """Run one unit of ``area``; returns the inputs it covered."""
        a = self.args
        if area in INPUT_AREAS:
            chunk = min(a.chunk.get(area, 100), remaining_count)
            seed = a.seed * 1_000_003 + AREAS.index(area) * 7919 + self.tally.units[area]
            return run_chunk(area, seed, chunk, seconds, a.input_timeout, a.setup_timeout,
                             self.env, self.tally)
        if area == "cli":
            argv = random_argv(self.rng)
            if a.cli_mode == "subprocess":
                code, out, err = run_cli_subprocess(argv, a.timeout, self.env)
            else:
                code, out, err = run_cli_inprocess(argv)
            outcome, detail = classify_cli(code, out, err)
            self.tally.add(area, outcome, argv[0] if argv else "", detail,
                           "bjsolve " + " ".join(short(x, 40).strip("'") for x in argv))
            return 1
        if area == "interrupts":
            argv = interrupt_argv(self.rng)
            delay = self.rng.choice([self.rng.uniform(0.02, 0.6), self.rng.uniform(0.6, 3.0),
                                     self.rng.uniform(3.0, 8.0)])
            outcome, detail = run_interrupt(argv, delay, a.interrupt_grace, self.env)
            self.tally.add(area, outcome, argv[0], detail,
                           f"bjsolve {' '.join(argv)}; SIGINT after {delay:.2f} s")
            return 1
        if area == "memory":
            return self.memory_unit()
        raise ValueError(area)

    def memory_unit(self):
        task = self.rng.choice(MEMORY_TASKS)
        env = dict(self.env, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
        if task not in self.references:
            outcome, detail, figures, _ = run_memory(task, -1, self.args.memory_timeout, env)
            self.references[task] = figures
            if figures is None:
                self.tally.add("memory", outcome, task, f"the unlimited reference run: {detail}",
                               f"{task}, no limit")
                return 1
        reference = self.references[task]
        if reference is None:
            return 0
        extra = self.rng.choice([0, 0.25, 0.5, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 64, 128])
        outcome, detail, figures, err = run_memory(task, extra, self.args.memory_timeout, env)
        where = f"{task}, RLIMIT_AS = mapped + {extra:g} MB"
        swallowed = (f"{err.ignored_count} exception(s) ignored, the first: {err.ignored}"
                     if err.ignored_count else "")
        diff = first_difference(figures, reference) if figures is not None else None
        if outcome == "ok" and diff is not None:
            got = figures[diff] if diff < len(figures) else "nothing"
            want = reference[diff] if diff < len(reference) else "nothing"
            outcome, detail = "internal error", (
                f"{'after a MemoryError, unlimited: ' if detail == 'after' else ''}figure {diff} "
                f"is {got!r}, the unlimited run's {want!r}"
                + (f"; {swallowed}" if swallowed else ""))
        elif outcome == "ok" and swallowed:
            outcome, detail = "wrong-type", f"{swallowed} (the result was still exact)"
        self.tally.add("memory", outcome, task, detail if outcome != "ok" else "", where)
        return 1

    # ---- driving ----
    def progress(self, force=False):
        now = time.monotonic()
        if self.args.quiet or (not force and now - self.last_progress < 10):
            return
        self.last_progress = now
        parts = []
        for area in self.areas:
            c = self.tally.counts[area]
            bad = sum(c.get(o, 0) for o in BAD)
            parts.append(f"{area} {sum(c.values())}" + (f" ({bad} bad)" if bad else ""))
        print(f"  {now - self.start:5.0f} s  " + ", ".join(parts), file=sys.stderr, flush=True)

    def run(self, areas, counts):
        """By counts, or (``--minutes``) until the time is up, the area that has had the
        least time running next; every area runs at least one unit either way."""
        self.areas = areas
        budget = self.args.minutes * 60 if self.args.minutes else None
        deadline = None if budget is None else self.start + budget
        remaining = {a: counts[a] for a in areas}
        share = (budget or 600) / len(areas)
        while True:
            if deadline is not None:
                left = deadline - time.monotonic()
                open_areas = list(areas) if left > 1 else \
                    [a for a in areas if not self.tally.units[a]]
            else:
                open_areas = [a for a in areas if remaining[a] > 0]
            if not open_areas:
                break
            area = min(open_areas, key=lambda x: self.tally.seconds[x])
            # a chunk: half an area's share (at most 5 minutes), at least what its setup
            # needs when the share allows it, and not past the deadline
            chunk_s = min(max(share / 2, MIN_SLICE.get(area, 5.0)), share, 300.0)
            seconds = 1e9 if deadline is None else max(1.0, min(chunk_s, left))
            t0 = time.monotonic()
            done = self.unit(area, remaining[area] if deadline is None else 10**9, seconds)
            self.tally.seconds[area] += time.monotonic() - t0
            self.tally.units[area] += 1
            remaining[area] -= max(done, 1)
            self.progress()
        self.progress(force=True)


# a chunk's least time with --minutes: the game's worker first builds a CountedGame
MIN_SLICE = {"game": 90.0, "simulate": 40.0}
DEFAULT_COUNTS = {"api": 100_000, "cli": 5_000, "risk": 20_000, "simulate": 1_000,
                  "game": 2_000, "index-files": 1_000, "interrupts": 100, "memory": 100}
DEFAULT_CHUNKS = {"api": 2_000, "risk": 500, "simulate": 50, "game": 300, "index-files": 100}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--areas", default=",".join(AREAS),
                    help=f"comma-separated areas (default: all of {', '.join(AREAS)})")
    ap.add_argument("--minutes", type=float, default=None,
                    help="run until the time is up, the areas sharing it (default: by counts)")
    for area in AREAS:
        ap.add_argument(f"--{area}", type=int, default=None, metavar="N",
                        help=f"{area}: inputs or runs without --minutes "
                             f"(default {DEFAULT_COUNTS[area]})")
    ap.add_argument("--chunk", type=int, default=None,
                    help="inputs per child process (default: per area, " +
                         ", ".join(f"{a} {n}" for a, n in DEFAULT_CHUNKS.items()) + ")")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--cli-mode", choices=("subprocess", "inprocess"), default="subprocess")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per CLI run (default 60)")
    ap.add_argument("--input-timeout", type=float, default=None,
                    help="seconds per input in a worker (default: per area, 30 to 120)")
    ap.add_argument("--setup-timeout", type=float, default=600.0,
                    help="seconds for a worker's setup (default 600)")
    ap.add_argument("--memory-timeout", type=float, default=300.0,
                    help="seconds per memory-limited run (default 300)")
    ap.add_argument("--interrupt-grace", type=float, default=1.0,
                    help="seconds a command may take to end after SIGINT (default 1)")
    ap.add_argument("--examples", type=int, default=8,
                    help="distinct failures shown per area and outcome (default 8)")
    ap.add_argument("--json", metavar="FILE", help="also write the counts and every distinct "
                                                   "failure to FILE as JSON")
    ap.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    ap.add_argument("--_worker", nargs=5, help=argparse.SUPPRESS)
    ap.add_argument("--_memory", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args._worker:
        area, seed, count, seconds, timeout = args._worker
        area_worker(area, int(seed), int(count), float(seconds), float(timeout))
        return 0
    if args._memory:
        memory_worker(args._memory[0], float(args._memory[1]))
        return 0

    areas = [a.strip() for a in args.areas.split(",") if a.strip()]
    unknown = [a for a in areas if a not in AREAS]
    if unknown:
        ap.error(f"unknown areas {', '.join(unknown)}; known: {', '.join(AREAS)}")
    counts = {a: getattr(args, a.replace("-", "_")) for a in AREAS}
    counts = {a: DEFAULT_COUNTS[a] if n is None else n for a, n in counts.items()}
    args.chunk = {a: args.chunk or n for a, n in DEFAULT_CHUNKS.items()}
    runner = Runner(args)
    try:
        runner.run(areas, counts)
    finally:
        import shutil
        shutil.rmtree(runner.tmp, ignore_errors=True)

    elapsed = time.monotonic() - runner.start
    print(f"fuzz campaign: seed {args.seed}, areas {', '.join(areas)}, {elapsed:.0f} s"
          + (f" (budget {args.minutes:g} min)" if args.minutes else "")
          + f"; CLI {args.cli_mode}")
    runner.tally.report(args.examples)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(runner.tally.as_json(), f, indent=1)
    return 1 if runner.tally.bad() else 0


if __name__ == "__main__":
    sys.exit(main())
