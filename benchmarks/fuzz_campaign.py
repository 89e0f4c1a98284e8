"""The long fuzzing campaign: random and hostile inputs to the API and the command line.

    python benchmarks/fuzz_campaign.py                    # 100,000 API inputs, 5,000 CLI runs
    python benchmarks/fuzz_campaign.py --api 20000 --cli 300      # a shorter run
    python benchmarks/fuzz_campaign.py --cli-mode inprocess       # CLI through main(argv)

API inputs (odd rule values, every card spelling, random rules x random shoes, hostile
strategy callables, counting inputs) run in child processes of ``--chunk`` inputs each, so
that an interpreter crash is counted instead of ending the campaign.  CLI runs are
``python -m bjsolve`` with random flags (``--cli-mode inprocess`` calls the CLI's ``main``
instead: faster, but a crash would end it).

Outcomes:
  ok               an answer (API: finite, probabilities in [0, 1]; CLI: exit 0)
  clean rejection  ValueError/TypeError with a short message (CLI: exit 2, one line)
  wrong-type       any other exception, or a rejection with an overlong message
                   (CLI: a traceback, or a rejection of several lines)
  internal error   API: an answer that breaks a property (NaN, inf, a probability out of
                   range, a chart beating optimal play); CLI: exit 1 "internal error"
  crash            the process died (signal, abort) or hung past the timeout
Prints the totals and the first examples of every outcome other than ok/clean rejection.
"""
from __future__ import annotations

import argparse
import collections
import json
import math
import os
import random
import subprocess
import sys
import time
import warnings

OUTCOMES = ("ok", "clean rejection", "wrong-type", "internal error", "crash")
MAX_MESSAGE = 500

# ---- random inputs --------------------------------------------------------------------------

GARBAGE = [None, -1, 0, 10**400, -10**30, 1e308, float("nan"), float("inf"), -0.0, "", "x" * 5000,
           "A", "1.5", b"x", [], [1, 2], {}, {"a": 1}, object(), True, False, 3.7, -2.5, 1j,
           range(3)]


def garbage(rng):
    g = rng.choice(GARBAGE)
    if g == "numpy" or rng.random() < 0.1:
        import numpy as np
        return rng.choice([np.int8(rng.randint(-128, 127)), np.float16(rng.uniform(-6e4, 6e4)),
                           np.uint8(rng.randint(0, 255)), np.float64("nan"), np.int64(2**62)])
    return g


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
        return [rng.choice(spellings + [0, 11, -1, "X", None, 2.5]) for _ in range(rng.randint(0, 5))]
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
            raise ZeroDivisionError("the user's own error")
        return raises
    if choice < 0.8:
        return rng.choice([None, 42, "stand", lambda: "stand", lambda a, b: "hit", print, {}])
    return lambda cards, dealer, allowed: allowed[0]


# ---- checking answers ------------------------------------------------------------------------

def finite(x) -> bool:
    try:
        return math.isfinite(float(x))
    except (TypeError, ValueError):
        return False


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


# ---- one API input ------------------------------------------------------------------------------

class Campaign:
    def __init__(self, seed):
        import bjsolve
        from bjsolve import Rules, solve
        self.bjsolve = bjsolve
        self.rng = random.Random(seed)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self.solutions = [solve(Rules(decks=1, surrender="late")),
                              solve(Rules(decks=6, hole_card="enhc", max_split_hands=2)),
                              solve(Rules(decks=math.inf, hole_card="exposed", max_split_hands=2)),
                              solve(Rules(decks=2, dealer_wins_ties=True, natural_tie="win"))]

    def one(self):
        """Run one random input; return (kind, outcome, detail)."""
        rng = self.rng
        kinds = [("rules", 20), ("shoe", 15), ("cards", 15), ("hand_ev", 30), ("dealer", 8),
                 ("insurance", 4), ("counting", 6), ("evaluate", 0.15), ("solve", 0.35)]
        kind = rng.choices([k for k, _ in kinds], weights=[w for _, w in kinds])[0]
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                getattr(self, "do_" + kind)(rng)
        except AssertionError as e:
            return kind, "internal error", str(e)[:200]
        except (ValueError, TypeError) as e:
            if len(str(e)) > MAX_MESSAGE:
                return kind, "wrong-type", f"message of {len(str(e))} characters"
            return kind, "clean rejection", ""
        except RecursionError as e:
            return kind, "wrong-type", f"RecursionError: {str(e)[:150]}"
        except ZeroDivisionError as e:
            if "the user's own error" in str(e):
                return kind, "clean rejection", ""  # the user's strategy raised: passed on
            return kind, "wrong-type", f"ZeroDivisionError: {str(e)[:150]}"
        except Exception as e:  # noqa: BLE001
            return kind, "wrong-type", f"{type(e).__name__}: {str(e)[:150]}"
        return kind, "ok", ""

    def do_rules(self, rng):
        rules = self.bjsolve.Rules(**rule_fields(rng, hostile=0.3))
        assert ":" in rules.describe()

    def do_shoe(self, rng):
        shoe = random_shoe(rng)
        p = shoe.probabilities()
        assert all(0.0 <= x <= 1.0 for x in p) and abs(sum(p) - 1) < 1e-9, "shoe probabilities"
        if rng.random() < 0.5:
            shoe.remove(random_cards(rng))

    def do_cards(self, rng):
        from bjsolve.ranks import ranks
        got = ranks(random_cards(rng), field="cards")
        assert all(1 <= r <= 10 for r in got), "rank out of range"

    def do_hand_ev(self, rng):
        sol = rng.choice(self.solutions)
        exposed = sol.rules.hole_card == "exposed"
        cards, dealer = random_cards(rng), random_dealer(rng, exposed)
        what = rng.random()
        if what < 0.7:
            cond = rng.choice([None, None, True, False, "yes", 1])
            ev = sol.hand_ev(cards, dealer, given_no_blackjack=cond)
            assert all(finite(v) for v in ev.values()), "hand value not finite"
        elif what < 0.85:
            assert sol.best_action(cards, dealer) in ("stand", "hit", "double", "split", "surrender")
        else:
            sol.allowed_actions(cards, dealer)

    def do_dealer(self, rng):
        from bjsolve import dealer_probabilities
        rules = self.bjsolve.Rules(**rule_fields(rng, hostile=0.05))
        shoe = random_shoe(rng) if rng.random() < 0.5 else None
        removed = random_cards(rng) if rng.random() < 0.3 else ()
        d = dealer_probabilities(rules, random_dealer(rng), shoe=shoe, removed=removed,
                                 given_no_blackjack=rng.random() < 0.3)
        assert all(-1e-12 <= v <= 1 + 1e-12 for v in d.values()) or (shoe and shoe.is_fractional), \
            "dealer probability out of range"
        assert abs(sum(d.values()) - 1) < 1e-9, "dealer probabilities do not sum to 1"

    def do_insurance(self, rng):
        sol = rng.choice(self.solutions)
        assert finite(sol.insurance_ev(random_cards(rng) if rng.random() < 0.8 else rng.randint(-2, 12)))

    def do_counting(self, rng):
        from bjsolve import counting
        system = rng.choice(["hilo", "halves", "ko", "uston-apc", "zen", "omega2", "nope",
                             [rng.randint(-2, 2) for _ in range(10)],
                             [rng.uniform(-1e300, 1e300) for _ in range(10)], garbage(rng)])
        what = rng.random()
        if what < 0.5:
            got = counting.betting_correlation(system)
            assert math.isnan(got) or -1 - 1e-9 <= got <= 1 + 1e-9, "correlation out of range"
        elif what < 0.8:
            counting.count_tags(system)
        else:
            eff = [rng.uniform(-0.01, 0.01) for _ in range(10)] if rng.random() < 0.8 else garbage(rng)
            got = self.bjsolve.estimate_ev(self.bjsolve.Rules(decks=1), random_cards(rng),
                                           effects=eff, base=rng.choice([-0.005, float("nan"), 0]),
                                           exact=False)
            assert finite(got["linear"]), "linear estimate not finite"

    def do_evaluate(self, rng):
        sol = rng.choice(self.solutions[:2])
        ev = sol.evaluate(hostile_strategy(rng))
        assert finite(ev) and ev <= sol.expected_value + 1e-9, "policy beats optimal play"

    def do_solve(self, rng):
        from bjsolve import Rules, solve
        fields = rule_fields(rng, hostile=0.02)
        fields["max_split_hands"] = min(fields.get("max_split_hands", 2), 2) \
            if isinstance(fields.get("max_split_hands", 2), int) else fields["max_split_hands"]
        rules = Rules(**fields)
        sol = solve(rules, random_shoe(rng), split=rng.choice(["CDZ-", "CDZ-", "CDP1", "CDP", "x"]))
        check_solution(sol, rng)


def api_worker(seed: int, count: int) -> None:
    """Child process: run ``count`` inputs, print a JSON summary."""
    camp = Campaign(seed)
    totals = collections.Counter()
    examples = {}
    for _ in range(count):
        kind, outcome, detail = camp.one()
        totals[outcome] += 1
        if outcome not in ("ok", "clean rejection"):
            examples.setdefault(f"{outcome} [{kind}] {detail}", seed)
    print(json.dumps({"totals": totals, "examples": list(examples)[:20]}))


# ---- the command line ------------------------------------------------------------------------------

TABLES = ["initial", "dealer", "stand", "hit", "double", "split", "surrender", "optimal",
          "strategy", "advantage", "exceptions", "insurance", "nope"]


def random_argv(rng):
    argv = []
    pick = rng.random()
    if pick < 0.55:
        argv += rng.sample(TABLES, rng.randint(0, 3))
    elif pick < 0.8:
        argv += ["hand"] + [str(rng.choice(list("A23456789TJQK") + ["10", "X", "0"]))
                            for _ in range(rng.randint(0, 4))]
        if rng.random() < 0.9:
            argv += ["--vs", rng.choice(list("A23456789T") + ["Z", "", "AT"])]
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
        return "crash", "timeout"
    if code < 0 or code > 2:
        return "crash", f"exit {code}"
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


def run_cli_subprocess(argv, timeout, env):
    try:
        proc = subprocess.run([sys.executable, "-m", "bjsolve", *argv], capture_output=True,
                              text=True, timeout=timeout, env=env)
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


# ---- driver ------------------------------------------------------------------------------------

def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--api", type=int, default=100_000, help="API inputs (default 100000)")
    ap.add_argument("--cli", type=int, default=5_000, help="CLI invocations (default 5000)")
    ap.add_argument("--chunk", type=int, default=2_000, help="API inputs per child process")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--cli-mode", choices=("subprocess", "inprocess"), default="subprocess")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per CLI run")
    ap.add_argument("--_worker", nargs=2, type=int, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args._worker:
        api_worker(*args._worker)
        return 0

    here = os.path.dirname(os.path.abspath(__file__))
    env = dict(os.environ)
    start = time.perf_counter()
    api = collections.Counter()
    api_examples: list = []
    done = 0
    chunk_seed = args.seed
    while done < args.api:
        n = min(args.chunk, args.api - done)
        try:
            proc = subprocess.run([sys.executable, os.path.join(here, "fuzz_campaign.py"),
                                   "--_worker", str(chunk_seed), str(n)],
                                  capture_output=True, text=True, env=env,
                                  timeout=max(600.0, n * 0.5))
            summary = json.loads(proc.stdout.strip().splitlines()[-1]) if proc.returncode == 0 else None
        except (subprocess.TimeoutExpired, json.JSONDecodeError, IndexError):
            proc, summary = None, None
        if summary is None:
            api["crash"] += 1  # the child died or hung: one crash, the chunk's other inputs lost
            code = None if proc is None else proc.returncode
            api_examples.append(f"crash: chunk seed {chunk_seed}, exit {code}")
        else:
            api.update(summary["totals"])
            api_examples += [e for e in summary["examples"] if e not in api_examples]
        done += n
        chunk_seed += 1
        print(f"  API {done}/{args.api}  {dict(api)}  {time.perf_counter() - start:.0f} s",
              file=sys.stderr, flush=True)

    cli = collections.Counter()
    cli_examples: list = []
    rng = random.Random(args.seed)
    for i in range(args.cli):
        argv_i = random_argv(rng)
        if args.cli_mode == "subprocess":
            code, out, err = run_cli_subprocess(argv_i, args.timeout, env)
        else:
            code, out, err = run_cli_inprocess(argv_i)
        outcome, detail = classify_cli(code, out, err)
        cli[outcome] += 1
        if outcome not in ("ok", "clean rejection") and len(cli_examples) < 20:
            cli_examples.append(f"{outcome}: bjsolve {' '.join(argv_i)[:150]} -> {detail}")
        if (i + 1) % 50 == 0:
            print(f"  CLI {i + 1}/{args.cli}  {dict(cli)}  {time.perf_counter() - start:.0f} s",
                  file=sys.stderr, flush=True)

    elapsed = time.perf_counter() - start
    print(f"fuzz campaign: seed {args.seed}, {elapsed:.0f} s")
    for name, totals, examples, n in (("API inputs", api, api_examples, args.api),
                                      (f"CLI invocations ({args.cli_mode})", cli, cli_examples,
                                       args.cli)):
        print(f"{name}: {n}")
        for outcome in OUTCOMES:
            print(f"  {outcome:16s} {totals.get(outcome, 0)}")
        for e in examples[:20]:
            print(f"    {e}")
    bad = sum(api.get(o, 0) + cli.get(o, 0) for o in ("wrong-type", "internal error", "crash"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
