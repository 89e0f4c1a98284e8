"""bjsolve risk: the distribution of a round's net outcome, its mean and SD, and the risk of
ruin that follows (flat betting, one unit per spot).

Example: bjsolve risk --decks 1 --bankroll 400 --trip-rounds 10000
         bjsolve risk --decks 6 --spots 2 --format json
"""
from __future__ import annotations

# The library (numpy, the kernels) is imported inside the functions that use it, so
# that ``bjsolve --help`` and a bad command line answer at once.
import argparse
import math

from . import common

NAME = "risk"
HELP = "distribution of a round's outcome, SD, N0, DI and the risk of ruin (exact)"


def _spots(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= 3:
        raise argparse.ArgumentTypeError(f"{text[:40]!r}: spots must be 1, 2 or 3")
    return value


def add_arguments(parser) -> None:
    common.add_rule_arguments(parser)
    common.add_split_argument(parser)
    g = parser.add_argument_group("risk")
    g.add_argument("--spots", type=_spots, default=1, metavar="N",
                   help="hands the player plays against one dealer hand, 1..3 (default: 1)")
    g.add_argument("--exact-spots", action="store_true",
                   help="with --spots 2 or 3 on a finite shoe, the exact covariance between "
                        "spots (slow: about a minute for 1 deck; default: combined)")
    g.add_argument("--insurance", action="store_true",
                   help="insure every hand against an ace (default: never)")
    common.add_money_arguments(g)     # --bankroll, --unit, --target-ror, --trip-rounds
    common.add_output_arguments(parser)


def run(args) -> int:
    import numpy as np

    from ..exact.solver import solve
    from ..output.table import Table
    from ..output.table import table_notes as _notes
    from ..risk.ruin import risk_summary
    common.check_money_arguments(args)
    rules = common.rules_from_args(args)
    shoe = common.shoe_from_args(args, rules)
    if rules.switch:
        _check_switch_arguments(args)
    sol = solve(rules, shoe=shoe, split=args.split)
    if rules.switch:
        # Blackjack Switch: a round is two hands, one unit each (bjsolve.exact.switch_law)
        dist = sol.outcome_distribution(insurance=args.insurance)
        units = "units of one hand's bet, total over the round's two hands"
        if args.insurance:
            units += "; both hands insured against an ace (half a unit each)"
    else:
        dist = sol.outcome_distribution(insurance=args.insurance, spots=args.spots,
                                        exact_spots=args.exact_spots)
        units = (f"units of the initial bet"
                 f"{' per spot, total over ' + str(args.spots) + ' spots' if args.spots > 1 else ''}")
    cum = np.cumsum(dist.probabilities)
    rows = tuple(f"{v:+g}" for v in dist.values)
    outcome = Table(
        "outcomes", "net outcome of one round", rows, ("probability", "cumulative"),
        np.column_stack([dist.probabilities, cum]),
        _notes(rules, sol.shoe,
               f"{units}; unconditioned (dealer naturals included); split {sol.split}",
               ("exact" if dist.exact else f"probabilities approximate: {dist.method}")),
        style="prob", units="probability",
        records=[{"outcome": float(v), "probability": float(p), "cumulative": float(c)}
                 for v, p, c in zip(dist.values, dist.probabilities, cum)])
    summary = risk_summary(dist, bankroll=args.bankroll, trip_rounds=args.trip_rounds,
                           target_ror=args.target_ror, unit=args.unit)
    figures = [("mean", dist.mean), ("variance", dist.variance)] + summary.rows()
    if rules.switch:
        figures.insert(2, ("covariance between the two hands", dist.covariance))
        figures.insert(3, ("SD of one hand", dist.per_spot.sd))
    elif args.spots > 1:
        figures.insert(2, ("covariance between two spots", dist.covariance))
        figures.insert(3, ("SD of one spot", dist.per_spot.sd))
    labels = tuple(k for k, _ in figures)
    notes: tuple[str, ...] = ("flat betting, one unit per "
             + ("hand, two hands a round" if rules.switch else "spot per round")
             + "; ruin = the bankroll falls to 0 or below",
             "N0 = (SD/EV)^2, DI = 1000 EV/SD, SCORE = DI^2 (0 without an edge); lifetime "
             "ruin: exact (ladder heights, equal to the root method), "
             "dominant root and normal approximation (docs/risk.md)")
    money = summary.money()
    columns: tuple[str, ...]
    if args.unit is None:
        columns, values = ("value",), np.array([[float(v)] for _, v in figures])
        records = [{"figure": k, "value": float(v)} for k, v in figures]
    else:
        # the money beside the units, for the figures that are amounts
        columns = ("units", "money")
        values = np.array([[float(v), money.get(k, math.nan)] for k, v in figures])
        records = [{"figure": k, "value": float(v), "money": money.get(k)}
                   for k, v in figures]
        notes += (f"money: 1 unit = {args.unit:,.6g}",)
    risk = Table(
        "risk", "mean, SD and risk of ruin", labels, columns, values, notes,
        style="prob", units="units of the initial bet, probabilities, rounds"
                            + ("; 'money': units x --unit" if args.unit is not None else ""),
        records=records)
    common.emit([outcome, risk], args)
    return 0


def _check_switch_arguments(args) -> None:
    """Blackjack Switch plays its two hands as one round: the spot options of the
    one-hand game do not apply (--insurance insures both hands against an ace)."""
    if args.spots != 1:
        raise common.UsageError(f"--spots {args.spots}: a Blackjack Switch round is its two "
                                f"hands already (give no --spots)")
    if args.exact_spots:
        raise common.UsageError("--exact-spots: not for Blackjack Switch (its two hands are "
                                "combined given the dealer's outcome; docs/games.md)")
