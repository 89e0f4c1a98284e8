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

from ..model.quantities import parse_rounds
from . import common
from .counting_args import (
    add_counted_game_arguments,
    add_sidebet_arguments,
    sidebet_values,
    simulate_keywords,
)

NAME = "simulate"
HELP = "simulate the real game: cut card, count, indices, bet ramp (fast, reproducible)"

# seconds to reach a Dask scheduler before giving up (distributed's default is 30)
SCHEDULER_TIMEOUT = 5


def _bankroll_trials(text: str):
    parts = text.replace(" ", "").split(",")
    try:
        paths, rounds, bankroll = parts
        return (parse_rounds(paths), parse_rounds(rounds), float(bankroll))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r}: give PATHS,ROUNDS,BANKROLL, e.g. "
                                         "1000,100000,200") from None


def add_arguments(parser) -> None:
    g = parser.add_argument_group("simulation")
    g.add_argument("--rounds", type=common.rounds_count(), default=10**7, metavar="N",
                   help="rounds to deal, e.g. 1e8 or 100M (default: 1e7)")
    g.add_argument("--seed", type=int, default=1, help="generator seed, 0..2**64-1 (default: 1)")
    game, betting = add_counted_game_arguments(parser, command="simulate")
    game.add_argument("--other-spots", type=int, default=0, metavar="N",
                      help="other players' spots, eating cards (default: 0)")
    betting.add_argument("--wong-out", type=int, metavar="TC",
                         help="leave the shoe when the true count falls below TC, until the "
                              "shuffle; at most --wong-in (default: the --wong-in count, else "
                              "never leave)")
    betting.add_argument("--table-min", type=common.positive_number, default=1.0,
                         metavar="BET", help="table minimum (default: 1)")
    betting.add_argument("--table-max", type=common.positive_number, default=None,
                         metavar="BET", help="table maximum (default: none)")
    g.add_argument("--bankroll-trials", type=_bankroll_trials, metavar="PATHS,ROUNDS,BANKROLL",
                   help="also estimate the risk of ruin from that many paths (default: off)")
    g.add_argument("--chunk-rounds", type=common.rounds_count(), default=None, metavar="N",
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
    if rules.switch:
        return _run_switch(args, rules)
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
                rules, rounds=args.rounds, seed=args.seed, **simulate_keywords(args),
                other_spots=args.other_spots, wong_out=args.wong_out,
                table_min=args.table_min, table_max=args.table_max,
                chunk_rounds=args.chunk_rounds or DEFAULT_CHUNK_ROUNDS, progress=update,
                client=client, bankroll_trials=args.bankroll_trials, **sidebet_values(args))
    finally:
        if client is not None:
            client.close()
    tables = result.tables(unit=args.unit)
    if args.format in ("csv", "json"):
        tables = result.tables_for_files(args.unit)
    else:
        _small_frequencies_in_digits(tables[1])
    common.emit(tables, args)
    return 130 if result.partial else 0


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


# the options of the counted shoe game that a Blackjack Switch simulation does not take,
# as (attribute, its default, the flag)
_SWITCH_REFUSED = (("other_spots", 0, "--other-spots"), ("spots", 1, "--spots"),
                   ("scheduler", None, "--scheduler"), ("strategy", "basic", "--strategy"))
# the options that ask for the counted shoe (simulate_switch_shoe) rather than each round
# from a fresh shoe (simulate_switch): any one of them given
_SWITCH_COUNTED = (("indices", None, "--indices"), ("insurance", None, "--insurance"),
                   ("ramp", None, "--ramp"), ("wong_in", None, "--wong-in"),
                   ("wong_out", None, "--wong-out"), ("table_max", None, "--table-max"),
                   ("table_min", 1.0, "--table-min"), ("burn", 1, "--burn"),
                   ("penetration_given", False, "--penetration"),
                   ("system", None, "--system"),
                   ("tc_rounding", "floor", "--tc-rounding"),
                   ("decks_estimation", "exact", "--decks-estimation"),
                   ("chunk_rounds", None, "--chunk-rounds"),
                   ("bankroll_trials", None, "--bankroll-trials"))


def _run_switch(args, rules) -> int:
    """Blackjack Switch: with a counted option (_SWITCH_COUNTED), the counted shoe
    (bjsolve.simulation.switch_shoe); else each round from a fresh shoe against the
    analysis' EV (bjsolve.simulation.switch)."""
    for name, default, flag in _SWITCH_REFUSED:
        if getattr(args, name, default) != default:
            raise common.UsageError(f"{flag}: not for Blackjack Switch, whose round is its "
                                    f"two hands, played by the analysis' decisions")
    if sidebet_values(args):
        raise common.UsageError("side bets: not for Blackjack Switch")
    if any(getattr(args, name, default) != default for name, default, _ in _SWITCH_COUNTED):
        return _run_switch_shoe(args, rules)
    return _run_switch_fresh(args, rules)


def _run_switch_shoe(args, rules) -> int:
    """Blackjack Switch dealt from a counted shoe, reported as the classic simulation."""
    import dataclasses

    from ..exact.switch import solve_switch
    from ..simulation.simulator import DEFAULT_CHUNK_ROUNDS, bets_by_true_count, wonging
    from ..simulation.switch_shoe import simulate_switch_shoe
    if rules.infinite:
        raise common.UsageError("--infinite: a counted shoe needs a finite shoe (--decks)")
    keywords = simulate_keywords(args)
    for name in ("spots", "strategy"):
        keywords.pop(name)
    # the betting checked before the analysis is solved (seconds)
    bets_by_true_count(args.ramp, args.table_min, args.table_max)
    wonging(args.wong_in, args.wong_out)
    switch = solve_switch(rules, threads=args.threads)
    with common.progress(args, total=args.rounds, label="simulate") as update:
        result = simulate_switch_shoe(
            switch, args.rounds, seed=args.seed, **keywords, wong_out=args.wong_out,
            table_min=args.table_min, table_max=args.table_max,
            chunk_rounds=args.chunk_rounds or DEFAULT_CHUNK_ROUNDS, progress=update,
            bankroll_trials=args.bankroll_trials)
    tables = result.tables(unit=args.unit)
    if args.format in ("csv", "json"):
        tables = result.tables_for_files(args.unit)
    else:
        _small_frequencies_in_digits(tables[1])
    tables[1] = dataclasses.replace(
        tables[1], title="Result by true count (per unit bet, played rounds)")
    common.emit(tables, args)
    return 130 if result.partial else 0


def _run_switch_fresh(args, rules) -> int:
    """Blackjack Switch: the real round played by the analysis' decisions in the compiled
    simulator (bjsolve.simulation.switch), each round from a fresh shoe, against the
    analysis' EV."""
    import numpy as np

    from ..exact.switch import solve_switch
    from ..output.table import Table
    from ..output.table import table_notes as _notes
    from ..simulation.switch import simulate_switch
    switch = solve_switch(rules, threads=args.threads)
    sim = simulate_switch(switch, int(args.rounds), seed=args.seed, threads=args.threads)
    z = (sim.mean - switch.expected_value) / sim.standard_error if sim.standard_error else 0.0
    rows = ("EV per round, simulated", "standard error", "EV per round, analysis",
            "difference / SE", "house edge per hand, simulated", "house edge per hand, "
            "analysis", "SD per round, simulated", "rounds switched, simulated",
            "rounds switched, analysis", "rounds")
    figures = [sim.mean, sim.standard_error, switch.expected_value, z, -sim.per_hand,
               switch.house_edge_per_hand, sim.sd, sim.switch_rate, switch.switch_rate,
               float(sim.rounds)]
    notes = _notes(rules, switch.shoe,
                   "units of one hand's bet, both hands of a round; unconditioned (dealer "
                   "naturals included); each round off the top of a fresh shoe",
                   "the real round: hand 1, hand 2 from what hand 1 left, then the dealer; "
                   "the switch and every play by the analysis' decisions",
                   f"analysis: {switch.method}",
                   f"seed {args.seed}")
    summary = Table("simulate", "Blackjack Switch simulated", rows, ("value",),
                    np.array([[float(v)] for v in figures]), notes, style="prob",
                    units="units of one hand's bet, shares of rounds",
                    records=[{"figure": r, "value": float(v)} for r, v in zip(rows, figures)])
    tables = [summary]
    if sim.outcomes:
        values = sorted(sim.outcomes)
        freq = [sim.outcomes[v] for v in values]
        tables.append(Table(
            "outcomes", "net outcome of one round, simulated", tuple(f"{v:+g}" for v in values),
            ("frequency",), np.array([[f] for f in freq]),
            ("units of one hand's bet, both hands of a round",
             f"{sim.rounds:,} rounds; the exact law: bjsolve risk with the same rules"),
            style="prob", units="share of rounds",
            records=[{"outcome": v, "frequency": f} for v, f in zip(values, freq)]))
    common.emit(tables, args)
    return 0
