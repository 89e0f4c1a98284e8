"""bjsolve simulate: play the real game in the compiled simulator: a shoe dealt to a cut
card, counted, bet by a ramp, played by basic strategy with index plays.

Same seed, same --chunk-rounds: same result, on any number of threads or on a Dask cluster
(--scheduler).  Ctrl-C prints what was simulated so far, marked PARTIAL (exit 130).

Example: bjsolve simulate --rounds 1e8 --seed 1 --penetration 0.75
         --system hilo --indices --ramp "1:1,2:2,3:4,4:8"
"""
from __future__ import annotations

# The library (numpy, the kernels) is imported inside the functions that use it, so
# that ``bjsolve --help`` and a bad command line answer at once.
import argparse
import dataclasses
import math

from . import common
from .counting_args import (
    INDEX_SETS_HELP,
    INSURANCE_HELP,
    RAMP_HELP,
    add_decks_estimation_argument,
    add_sidebet_arguments,
    add_strategy_argument,
    add_system_argument,
    add_tc_rounding_argument,
    index_items,
    insurance_value,
    parse_system,
    penetration_value,
    sidebet_values,
)

NAME = "simulate"
HELP = "simulate the real game: cut card, count, indices, bet ramp (fast, reproducible)"

# seconds to reach a Dask scheduler before giving up (distributed's default is 30)
SCHEDULER_TIMEOUT = 5


def _rounds(text: str) -> int:
    """'1e8', '100000000' or '100_000_000' -> a whole number >= 1."""
    try:
        value = float(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a number of rounds") from None
    if not (math.isfinite(value) and value >= 1 and value == int(value)):
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number of rounds >= 1")
    return int(value)


def _penetration(text: str):
    return penetration_value(text, every_round=True)


def _bankroll_trials(text: str):
    parts = text.replace(" ", "").split(",")
    try:
        paths, rounds, bankroll = parts
        return (_rounds(paths), _rounds(rounds), float(bankroll))
    except (ValueError, argparse.ArgumentTypeError):
        raise argparse.ArgumentTypeError(f"{text[:40]!r}: give PATHS,ROUNDS,BANKROLL, e.g. "
                                         "1000,100000,200") from None


def add_arguments(parser) -> None:
    g = parser.add_argument_group("simulation")
    g.add_argument("--rounds", type=_rounds, default=10**7, metavar="N",
                   help="rounds to deal, e.g. 1e8 (default: 1e7)")
    g.add_argument("--seed", type=int, default=1, help="generator seed, 0..2**64-1 (default: 1)")
    g.add_argument("--penetration", type=_penetration, default=0.75, metavar="P",
                   help="cut card: a fraction of the shoe, a number of cards, or every-round "
                        "(a fresh shuffle before every round) (default: 0.75)")
    g.add_argument("--burn", type=int, default=1, metavar="N",
                   help="cards burnt (unseen) after each shuffle; the simulator burns one "
                        "(default: 1)")
    g.add_argument("--spots", type=common.whole_number(1, 7), default=1, metavar="N",
                   help="spots the player plays, 1..7 (default: 1)")
    g.add_argument("--other-spots", type=int, default=0, metavar="N",
                   help="other players' spots, eating cards (default: 0)")
    add_strategy_argument(g, help="basic: the solve's chart; optimal: the full shoe's "
                                  "composition-dependent strategy")
    add_system_argument(parser)
    g.add_argument("--indices", nargs="?", const="all", default=None, metavar="SET|FILE",
                   action="append",
                   help="play the chart with index numbers, the exact indices of the count "
                        f"system as 'bjsolve indices' computes them: {INDEX_SETS_HELP} "
                        "(alone: all); or FILE, an index file as 'bjsolve indices --format "
                        "index' writes it (write it with the --tc-rounding played) (default: "
                        "none, the chart alone)")
    g.add_argument("--insurance", type=insurance_value, default=None, metavar="TC|never",
                   help=INSURANCE_HELP)
    add_decks_estimation_argument(g)
    add_tc_rounding_argument(g)
    g.add_argument("--ramp", metavar="TC:BET,...",
                   help=RAMP_HELP + " (default: flat, the table minimum)")
    g.add_argument("--wong-in", type=int, metavar="TC",
                   help="sit out until the true count reaches TC, then play; alone: play "
                        "exactly the rounds at true counts >= TC, as 'game --wong-in' "
                        "(default: play every round)")
    g.add_argument("--wong-out", type=int, metavar="TC",
                   help="leave the shoe when the true count falls below TC, until the "
                        "shuffle; at most --wong-in (default: the --wong-in count, else never "
                        "leave)")
    g.add_argument("--table-min", type=common.positive_number, default=1.0, metavar="BET",
                   help="table minimum (default: 1)")
    g.add_argument("--table-max", type=common.positive_number, default=None, metavar="BET",
                   help="table maximum (default: none)")
    g.add_argument("--unit", type=common.positive_number, default=None, metavar="MONEY",
                   help="what one unit is worth, e.g. 25: the mean, SD, total won and total "
                        "bet are shown in money beside their units, as in game and risk "
                        "(default: units only)")
    g.add_argument("--bankroll-trials", type=_bankroll_trials, metavar="PATHS,ROUNDS,BANKROLL",
                   help="also estimate the risk of ruin from that many paths (default: off)")
    g.add_argument("--threads", type=common.whole_number(1, 1024), default=None, metavar="N",
                   help="threads (default: every core)")
    g.add_argument("--chunk-rounds", type=_rounds, default=None, metavar="N",
                   help="rounds per seeded chunk (default: 1e6); part of what the seed means")
    g.add_argument("--scheduler", metavar="ADDRESS",
                   help="run the chunks on a Dask cluster (needs the [dask] extra; default: "
                        "local threads)")
    add_sidebet_arguments(parser)
    common.add_rule_arguments(parser, shoe=False)
    common.add_output_arguments(parser)


def run(args) -> int:
    from ..simulation.simulator import DEFAULT_CHUNK_ROUNDS, simulate
    common.check_unit(args)
    rules = common.rules_from_args(args)
    client = None
    if args.scheduler:
        try:
            from dask.distributed import Client
        except ImportError:
            raise common.UsageError("--scheduler needs Dask: pip install 'bjsolve[dask]'") \
                from None
        try:
            client = Client(args.scheduler, timeout=SCHEDULER_TIMEOUT)
        except OSError as exc:           # nothing answers there (distributed retries until then)
            raise common.EnvironmentFailure(
                f"--scheduler {args.scheduler}: no Dask scheduler answered within "
                f"{SCHEDULER_TIMEOUT} s ({common.one_line(exc)})") from None
    try:
        with common.progress(args, total=args.rounds, label="simulate") as update:
            result = simulate(
                rules, rounds=args.rounds, seed=args.seed, penetration=args.penetration,
                burn=args.burn,
                spots=args.spots, other_spots=args.other_spots,
                strategy=args.strategy,
                system=parse_system(args.system), indices=index_items(args.indices),
                insurance=args.insurance, decks_estimation=args.decks_estimation,
                tc_rounding=args.tc_rounding,
                ramp=args.ramp, wong_in=args.wong_in, wong_out=args.wong_out,
                table_min=args.table_min, table_max=args.table_max, threads=args.threads,
                chunk_rounds=args.chunk_rounds or DEFAULT_CHUNK_ROUNDS, progress=update,
                client=client, bankroll_trials=args.bankroll_trials, **sidebet_values(args))
    finally:
        if client is not None:
            client.close()
    tables = result.tables(unit=args.unit)
    if args.format in ("csv", "json"):
        tables = _numbers_for_machines(result, tables, args.unit)
    else:
        _small_frequencies_in_digits(tables[1])
    common.emit(tables, args)
    return 130 if result.partial else 0


def _numbers_for_machines(result, tables, unit=None):
    """CSV and JSON with a number in every cell: the text tables' cells are written for
    reading ('5,339,073', '+0.012124 +- 0.000268 per round (1 SE)', frequencies to five
    decimals), which a spreadsheet takes as text or rounds.  The same rows, full precision,
    the mean's SE (and the ruin's) in a row of its own, and with a unit the money of
    each amount in a row of its own; JSON records as before."""
    import numpy as np

    from ..simulation.result import SUMMARY_LABELS
    summary, by_tc = tables
    figures = result.summary()
    extra = {"se": "SE of the mean", "risk_of_ruin_se": "SE of the risk of ruin",
             "sidebet_se": "SE of the side bet mean", "combined_se": "SE of the combined mean",
             "seed": "seed", "partial": "partial (1: interrupted)"}
    names = [k for k in figures if k in SUMMARY_LABELS or k in extra]
    rows = [SUMMARY_LABELS.get(k) or extra[k] for k in names]
    values = [_plain(figures[k]) for k in names]
    if unit is not None:
        for k, v in result.money(unit).items():
            rows.append(f"{SUMMARY_LABELS[k]} (money)")
            values.append(_plain(v))
    summary = dataclasses.replace(
        summary, rows=tuple(rows), values=np.array([[v] for v in values], dtype=object),
        style="prob")
    columns = by_tc.columns
    by_tc = dataclasses.replace(
        by_tc, values=np.array([[_plain(r[c]) for c in columns] for r in by_tc.records],
                               dtype=object).reshape(len(by_tc.rows), len(columns)))
    return [summary, by_tc]


def _small_frequencies_in_digits(by_tc) -> None:
    """A true count seen in 12 rounds of 2e7 read '0.00000', as if never: frequencies
    under 1e-3 keep three significant digits (6.000e-07), as in 'game'."""
    if "frequency" not in by_tc.columns or not by_tc.records:
        return
    col = by_tc.columns.index("frequency")
    values = by_tc.values.copy()
    for i, record in enumerate(by_tc.records):
        frequency = record["frequency"]
        if frequency is not None and 0 < frequency < 1e-3:
            values[i, col] = f"{frequency:.3e}"
    by_tc.values = values


def _plain(value):
    """A count stays a whole number, a flag 0/1, a figure a float (NaN: no entry)."""
    if value is None:
        return math.nan
    if isinstance(value, bool):
        return int(value)
    return value if isinstance(value, int) else float(value)
