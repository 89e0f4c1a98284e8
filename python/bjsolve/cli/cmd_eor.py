"""bjsolve eor: effects of removal, the change in the round's EV when one card of each rank
leaves the shoe, with the full shoe's play frozen (fixed) and re-optimised."""
from __future__ import annotations

# The library (numpy, the kernels) is imported inside the functions that use it, so
# that ``bjsolve --help`` and a bad command line answer at once.
from . import common
from .counting_args import counting_rules

NAME = "eor"
HELP = "effects of removal of each rank (fixed and re-optimised strategy)"


def add_arguments(parser) -> None:
    common.add_rule_arguments(parser)
    common.add_split_argument(parser)
    common.add_output_arguments(parser)


def run(args) -> int:
    from ..counting.tables import eor_table
    rules, shoe = counting_rules(args)
    if rules.switch:
        from ..exact.switch_removal import switch_eor_table
        common.emit(switch_eor_table(rules, shoe, args.split), args)
        return 0
    with common.progress(args, label="effects of removal") as update:
        table = eor_table(rules, shoe, args.split, progress=update)
    common.emit(table, args)
    return 0
