"""bjsolve tc-advantage: the round's EV at each true count, solved exactly on shoes built at
that count, next to the linear estimate from the effects of removal."""
from __future__ import annotations

# The library (numpy, the kernels) is imported inside the functions that use it, so
# that ``bjsolve --help`` and a bad command line answer at once.
from . import common
from .counting_args import add_depth_argument, add_system_argument, counting_rules

NAME = "tc-advantage"
HELP = "player advantage at each true count (exact and linear estimate)"


def add_arguments(parser) -> None:
    add_system_argument(parser)
    add_depth_argument(parser)
    common.add_rule_arguments(parser, shoe=False)
    common.add_split_argument(parser)
    common.add_output_arguments(parser)


def run(args) -> int:
    from ..counting.tables import tc_advantage_table
    rules, _ = counting_rules(args)
    with common.progress(args, label="true counts") as update:
        table = tc_advantage_table(rules, args.system_value, dealt_decks=args.dealt_decks,
                                   split=args.split, progress=update)
    common.emit(table, args)
    return 0
