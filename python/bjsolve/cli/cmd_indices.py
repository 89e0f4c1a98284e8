"""bjsolve indices: index numbers of a count system, the true counts at which a play
changes, found exactly on shoes built at each true count."""
from __future__ import annotations

# The library (numpy, the kernels) is imported inside the functions that use it, so
# that ``bjsolve --help`` and a bad command line answer at once.
from . import common
from .counting_args import (
    add_depth_argument,
    add_system_argument,
    add_tc_rounding_argument,
    counting_rules,
)

NAME = "indices"
HELP = "index numbers (true counts where the best play changes) for a count system"


def add_arguments(parser) -> None:
    add_system_argument(parser)
    add_depth_argument(parser)
    add_tc_rounding_argument(parser, exact=True,
                             help="the true count the index is read against, as the counter "
                                  "makes it whole: floor, truncate (toward zero), round "
                                  "(nearest), or exact (the crossing itself, made whole by "
                                  "--index-rounding)")
    parser.add_argument("--index-rounding", type=str.lower, choices=("rounded", "ceiled"),
                        default=None,
                        help="with --tc-rounding exact: how an exact crossing becomes a whole "
                             "index, to the nearest or up (default: rounded)")
    parser.add_argument("--hands", type=str.lower, default="two-card",
                        choices=("two-card", "all"),
                        help="hands counted for a total: the two-card hands only, or every "
                             "composition of the total weighted by how often it occurs "
                             "(default: two-card)")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--top", type=common.positive_int, metavar="N",
                       help="only the N plays of largest gain per round (default: every play)")
    which.add_argument("--set", action="append", dest="play_set", metavar="SET",
                       help="only a named list of plays: i18 (Illustrious 18) or fab4 "
                            "(Fab 4 surrenders); several together as a comma list (i18,fab4) "
                            "or the flag repeated, a hand in two sets shown once (default: "
                            "every play)")
    parser.add_argument("--risk-averse", action="store_true",
                        help="risk-averse indices: the play of largest certainty equivalent "
                             "for a Kelly bettor (the Illustrious 18 and Fab 4 rows, or --set), "
                             "beside the EV crossing of the same shoes (default: off, the "
                             "EV indices)")
    parser.add_argument("--round-variance", type=common.positive_number, metavar="V",
                        help="with --risk-averse: a round's variance per unit bet, which sets "
                             "the Kelly bet (default: 1.3)")
    common.add_rule_arguments(parser, shoe=False)
    common.add_output_arguments(parser, formats=common.TABLE_FORMATS + ("index",))
    parser.set_defaults()


def _play_sets(values):
    """--set, repeated or a comma list: the named sets, each once, in the order given."""
    from ..counting.indices import NAMED_SETS
    if not values:
        return None
    sets = []
    for value in values:
        for part in value.split(","):
            key = part.strip().lower().replace("-", "").replace("_", "")
            if key not in NAMED_SETS:
                raise common.UsageError(f"--set: {part.strip()[:40]!r} is not a named set; "
                                        f"choose from {', '.join(NAMED_SETS)} (several: "
                                        f"i18,fab4 or --set repeated)")
            if key not in sets:
                sets.append(key)
    return sets[0] if len(sets) == 1 else sets


def run(args) -> int:
    from ..counting.tables import index_file, indices_table
    args.play_set = _play_sets(args.play_set)
    rules, _ = counting_rules(args)
    if args.index_rounding is not None and (args.tc_rounding != "exact"
                                            or args.risk_averse):
        raise common.UsageError(f"--index-rounding goes with --tc-rounding exact (a "
                                f"{args.tc_rounding} true count has its own whole index), "
                                f"without --risk-averse")
    if rules.switch:
        return _run_switch(args, rules)
    if args.risk_averse:
        return _run_risk_averse(args, rules)
    if args.round_variance is not None:
        raise common.UsageError("--round-variance goes with --risk-averse (it sets the Kelly "
                                "bet of the risk-averse indices)")
    with common.progress(args, label="indices") as update:
        table = indices_table(rules, args.system_value, dealt_decks=args.dealt_decks,
                              tc_rounding=args.tc_rounding,
                              index_rounding=args.index_rounding or "rounded",
                              hands=args.hands, select=args.top or args.play_set,
                              progress=update)
    if args.format == "index":
        common.write_output(index_file(table), args)
    else:
        common.emit(table, args)
    return 0


def _run_risk_averse(args, rules) -> int:
    from ..counting.risk_indices import risk_indices_table
    if args.top:
        raise common.UsageError("--risk-averse: choose rows with --set i18 or --set fab4 "
                                "(--top ranks the EV lines only)")
    if args.hands != "two-card":
        raise common.UsageError("--risk-averse counts the two-card hands only (--hands two-card)")
    if args.format == "index":
        raise common.UsageError("--risk-averse prints a table (--format text, csv, json, ...)")
    table = risk_indices_table(rules, args.system_value, select=args.play_set,
                               dealt_decks=args.dealt_decks, tc_rounding=args.tc_rounding,
                               **({} if args.round_variance is None
                                  else {"round_variance": args.round_variance}))
    common.emit(table, args)
    return 0


def _run_switch(args, rules) -> int:
    """Blackjack Switch: the play indices (the game's rules without the swap) and the
    keep-or-switch indices (bjsolve.counting.switch_indices)."""
    from ..counting.switch_indices import switch_indices_tables
    from ..counting.tables import index_file
    for given, flag in ((args.risk_averse, "--risk-averse"), (args.play_set, "--set"),
                        (args.hands != "two-card", "--hands all"),
                        (args.round_variance is not None, "--round-variance"),
                        (args.tc_rounding == "exact" and args.index_rounding == "ceiled",
                         "--index-rounding ceiled")):
        if given:
            raise common.UsageError(f"{flag}: not for Blackjack Switch, whose indices are "
                                    f"the two-card play indices and the keep-or-switch "
                                    f"indices (--top N: the N switch lines of largest gain)")
    with common.progress(args, label="indices") as update:
        tables = switch_indices_tables(rules, args.system_value, dealt_decks=args.dealt_decks,
                                       tc_rounding=args.tc_rounding, progress=update,
                                       top=args.top)
    if args.format == "index":
        # the play indices' index file (the hands' plays; the switch lines have no such
        # format)
        common.write_output(index_file(tables[0]), args)
    else:
        common.emit(tables, args)
    return 0
