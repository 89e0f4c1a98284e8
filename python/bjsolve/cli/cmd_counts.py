"""bjsolve counts: betting correlation, insurance correlation and playing efficiency of count
systems for this game (all built-in systems unless --system names one)."""
from __future__ import annotations

# The library (numpy, the kernels) is imported inside the functions that use it, so
# that ``bjsolve --help`` and a bad command line answer at once.
from . import common
from .counting_args import add_system_argument, counting_rules, parse_eor

NAME = "counts"
HELP = "betting correlation, insurance correlation and playing efficiency of count systems"


def add_arguments(parser) -> None:
    add_system_argument(parser, default_help="every built-in system")
    parser.add_argument("--eor", metavar="V1,...,V10",
                        help="an EOR vector A..T (any unit) for the betting correlation, e.g. "
                             "--eor=-0.61,0.38,0.44,0.55,0.69,0.46,0.28,0,-0.18,-0.51 "
                             "(default: this game's re-optimised effects of removal)")
    common.add_rule_arguments(parser)
    common.add_output_arguments(parser)


def run(args) -> int:
    from ..counting.removal import SYSTEMS
    from ..counting.tables import counts_table
    rules, shoe = counting_rules(args)
    eor = parse_eor(args.eor) if args.eor is not None else None
    systems = [args.system_value] if args.system is not None else list(SYSTEMS)
    with common.progress(args, label="count systems") as update:
        table = counts_table(rules, shoe, systems, eor=eor, progress=update)
    common.emit(table, args)
    return 0
