"""bjsolve game: the counted shoe game without a simulator.  How often each true count
occurs at the start of a round (exact count distributions over the depths where rounds
start), the edge and SD at each true count (exact evaluations of the compositions
consistent with the count), and a bet ramp's win rate, SD, DI, SCORE, N0, certainty
equivalent and risk of ruin.  Method and measured approximations: docs/counted-game.md."""
from __future__ import annotations

# The library (numpy, the kernels) is imported inside the functions that use it, so
# that ``bjsolve --help`` and a bad command line answer at once.

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
    counting_rules,
    index_items,
    insurance_value,
    penetration_value,
    sidebet_values,
)

NAME = "game"
HELP = "counted game: true-count frequencies, edge and SD by count, bet-ramp figures and risk"


def add_arguments(parser) -> None:
    add_system_argument(parser)
    g = parser.add_argument_group("the game")
    g.add_argument("--penetration", type=penetration_value, default=0.75, metavar="P",
                   help="cut card: a fraction of the shoe, or a number of cards, dealt "
                        "before the shuffle, as for simulate (default: 0.75)")
    g.add_argument("--burn", type=int, default=1, metavar="N",
                   help="cards burnt (unseen) after each shuffle (default: 1)")
    g.add_argument("--spots", type=common.whole_number(1, 7), default=1, metavar="N",
                   help="hands dealt per round at the table, 1..7: they set where rounds "
                        "start; every figure stays per one hand (simulate --spots 1 "
                        "--other-spots N-1 deals the same game) (default: 1)")
    add_strategy_argument(g, help="basic: the total-dependent chart (--indices adds index "
                                  "plays to it); optimal: composition-dependent play of each "
                                  "count's composition")
    g.add_argument("--indices", metavar="SET|FILE", action="append",
                   help=f"play the chart with index numbers: {INDEX_SETS_HELP}; or FILE, an "
                        "index file as 'bjsolve indices --format index' writes it (default: "
                        "none, the chart alone)")
    g.add_argument("--insurance", type=insurance_value, default=None, metavar="TC|never",
                   help=INSURANCE_HELP)
    add_tc_rounding_argument(g)
    add_decks_estimation_argument(g)
    g.add_argument("--depth-bands", type=int, default=3, metavar="N",
                   help="depth bands evaluated per true count (default: 3)")
    g.add_argument("--threads", type=common.whole_number(1, 1024), default=None, metavar="N",
                   help="threads (default: every core)")
    b = parser.add_argument_group("betting")
    b.add_argument("--ramp", default=None, metavar="TC:BET,...",
                   help=RAMP_HELP + " (default: flat, 1 unit)")
    b.add_argument("--wong-in", type=int, metavar="TC",
                   help="play only at true counts >= TC (bet 0 below) (default: play every "
                        "round)")
    common.add_money_arguments(b)
    b.add_argument("--optimal-spread", type=float, metavar="S",
                   help="also show the SCORE-optimal (Kelly-proportional) ramp with bets "
                        "1..S, rounded to whole units (default: not shown)")
    add_sidebet_arguments(parser)
    common.add_rule_arguments(parser, shoe=False)
    common.add_output_arguments(parser)


def run(args) -> int:
    rules, _ = counting_rules(args)
    from ..risk.game import CountedGame
    from ..risk.ramp import MAX_BET, parse_ramp, ramp_table
    common.check_money_arguments(args)
    if args.optimal_spread is not None and not 1 <= args.optimal_spread <= MAX_BET:
        raise common.UsageError(f"--optimal-spread (maximum spread) must be 1..{MAX_BET:,} "
                                f"(the largest bet a ramp takes), got {args.optimal_spread:g}")
    try:
        ramp = parse_ramp(args.ramp or "1:1", wong_in=args.wong_in)
    except ValueError as exc:
        raise common.UsageError(f"--{exc}") from None
    if isinstance(args.penetration, int):      # cards: the game takes a fraction
        if rules.infinite:
            raise common.UsageError("--penetration in cards needs a finite shoe (--decks)")
        cards = rules.decks * 52
        if args.penetration >= cards:
            raise common.UsageError(f"--penetration {args.penetration} cards goes beyond the "
                                    f"{cards}-card shoe")
        args.penetration = args.penetration / cards
    indices = index_items(args.indices)
    side = sidebet_values(args)
    played = {k: side.pop(k) for k in ("sidebet_threshold", "sidebet_units") if k in side}
    with common.progress(args, label="true counts") as update:
        game = CountedGame(rules, args.system_value, penetration=args.penetration,
                           burn=args.burn, spots=args.spots,
                           decks_estimation=args.decks_estimation,
                           tc_rounding=args.tc_rounding,
                           strategy="indices" if indices is not None else args.strategy,
                           indices=indices, insurance=args.insurance,
                           depth_bands=args.depth_bands, threads=args.threads,
                           progress=update, **side)
    money = dict(unit=args.unit, trip_rounds=args.trip_rounds, target_ror=args.target_ror,
                 **played)
    result = game.evaluate(ramp, args.bankroll, **money)
    tables = [game.table(ramp), ramp_table(result, "ramp " + ramp.describe())]
    if args.optimal_spread is not None:
        best = game.optimal_ramp(args.optimal_spread)
        tables.append(ramp_table(game.evaluate(best, args.bankroll, **money),
                                 "SCORE-optimal ramp " + best.describe()))
    if args.spots > 1:
        note = (f"{args.spots} hands dealt per round: they set where rounds start; the edge, "
                f"SD and ramp figures are per one hand (bet on one spot; 'simulate --spots 1 "
                f"--other-spots {args.spots - 1}' deals the same game)")
        for table in tables:
            table.notes = tuple(table.notes) + (note,)
    common.emit(tables, args)
    return 0

