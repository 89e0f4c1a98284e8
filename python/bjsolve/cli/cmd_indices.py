"""bjsolve indices: index numbers of a count system, the true counts at which a play
changes, found exactly on shoes built at each true count."""
from __future__ import annotations

from . import common
from .counting_args import add_depth_argument, add_system_argument, counting_rules

NAME = "indices"
HELP = "index numbers (true counts where the best play changes) for a count system"


def add_arguments(parser) -> None:
    add_system_argument(parser)
    add_depth_argument(parser)
    parser.add_argument("--rounding", type=str.lower, choices=("rounded", "ceiled"),
                        default="rounded",
                        help="how exact crossings become whole indices (default: rounded)")
    common.add_rule_arguments(parser, shoe=False)
    common.add_output_arguments(parser, formats=common.TABLE_FORMATS + ("index",))
    parser.set_defaults()


def run(args) -> int:
    from ..count_tables import index_file, indices_table
    rules, _ = counting_rules(args)
    with common.progress(args, label="indices") as update:
        table = indices_table(rules, args.system_value, dealt_decks=args.dealt_decks,
                              rounding=args.rounding, progress=update)
    if args.format == "index":
        common.write_output(index_file(table), args)
    else:
        common.emit(table, args)
    return 0
