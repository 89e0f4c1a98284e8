"""bjsolve edge (the default command): the house edge of the basic-strategy chart and of
composition-dependent optimal play, then the chart itself.

Both figures are for one player at a full shoe (the first round after a shuffle), in percent
of the initial bet; a negative house edge is a player advantage.  Example:

    bjsolve --decks 1 --h17 --no-das
    bjsolve --rules "6D H17 DAS LS 6:5"
"""
from __future__ import annotations

# The library (numpy, the kernels) is imported inside the functions that use it, so
# that ``bjsolve --help`` and a bad command line answer at once.
from . import common

NAME = "edge"
HELP = "house edge (chart and optimal play), then the basic-strategy chart (default command)"


def add_arguments(parser) -> None:
    common.add_rule_arguments(parser)
    common.add_split_argument(parser)
    parser.add_argument("--no-chart", dest="chart", action="store_false",
                        help="print the house edge only (default: the chart follows)")
    common.add_after_double_argument(parser)
    common.add_output_arguments(parser, color=True, pictures=True)


def run(args) -> int:
    from ..exact.solver import solve
    from ..exact.tables import house_edge_table, strategy_table
    rules = common.rules_from_args(args)
    shoe = common.shoe_from_args(args, rules)
    if rules.switch:
        return _run_switch(args, rules, shoe)
    sol = solve(rules, shoe=shoe, split=args.split)
    after = common.after_double_chart_for(sol, args) if args.chart else None
    after_ev = None if after is None else sol.evaluate(sol.strategy, after_double=after)
    tables = [house_edge_table(sol, after_double_ev=after_ev)]
    if args.chart:
        tables.append(strategy_table(sol, count_exceptions=False))
    if after is not None:
        from ..exact.after_double_table import after_double_tables
        tables += after_double_tables(sol, after)
    common.emit(tables, args)
    return 0


def _run_switch(args, rules, shoe) -> int:
    """Blackjack Switch: its house edge and method, then the hand values that decide the
    switch and the chart each hand plays."""
    from ..exact.solver import solve
    from ..exact.switch import solve_switch
    from ..exact.tables import strategy_table, switch_edge_table, switch_values_table
    switch = solve_switch(rules, shoe, split=args.split)
    tables = [switch_edge_table(switch)]
    if args.chart:
        tables.append(switch_values_table(switch))
        game = solve(switch.game_rules, shoe=shoe, split=args.split)
        tables.append(strategy_table(game, count_exceptions=False))
    common.emit(tables, args)
    return 0
