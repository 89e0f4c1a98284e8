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
    add_counted_game_arguments,
    add_sidebet_arguments,
    counting_rules,
    game_keywords,
    index_items,
    sidebet_values,
)

NAME = "game"
HELP = "counted game: true-count frequencies, edge and SD by count, bet-ramp figures and risk"


def add_arguments(parser) -> None:
    game, betting = add_counted_game_arguments(parser, command="game")
    game.add_argument("--depth-bands", type=int, default=3, metavar="N",
                      help="depth bands evaluated per true count (default: 3)")
    # Blackjack Switch's --indices are its keep-or-switch lines; the hands' play indices
    # are the switch index table's "plays" (bjsolve indices --preset blackjack-switch)
    game.add_argument("--plays", nargs="?", const="all", default=None, action="append",
                      metavar="SET|FILE",
                      help="Blackjack Switch: play the hands' play indices too (the play "
                           "index table 'bjsolve indices --preset blackjack-switch' prints): "
                           f"{INDEX_SETS_HELP} (alone: all); or FILE, its index file "
                           "(default: the full shoe's hand plays)")
    common.add_money_arguments(betting, unit=False)   # --bankroll, --target-ror, --trip-rounds
    betting.add_argument("--optimal-spread", type=float, metavar="S",
                         help="also show the SCORE-optimal (Kelly-proportional) ramp with "
                              "bets 1..S, rounded to whole units (default: not shown)")
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
    keywords = game_keywords(args, rules)
    if args.plays is not None:
        if not rules.switch:
            raise common.UsageError("--plays: the hands' play indices of Blackjack Switch "
                                    "(--preset blackjack-switch); a one-hand game plays its "
                                    "index plays with --indices")
        keywords["plays"] = index_items(args.plays)
    side = sidebet_values(args)      # the bet for the game, when and how much for evaluate
    played = {k: side.pop(k) for k in ("sidebet_threshold", "sidebet_units") if k in side}
    with common.progress(args, label="true counts") as update:
        game = CountedGame(rules, **keywords, **side, depth_bands=args.depth_bands,
                           progress=update)
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

