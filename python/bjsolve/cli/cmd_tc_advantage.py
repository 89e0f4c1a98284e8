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
    if rules.switch:
        common.emit(_switch_table(rules, args), args)
        return 0
    with common.progress(args, label="true counts") as update:
        table = tc_advantage_table(rules, args.system_value, dealt_decks=args.dealt_decks,
                                   split=args.split, progress=update)
    common.emit(table, args)
    return 0


def _switch_table(rules, args):
    """Blackjack Switch: the EV per hand at each true count (bjsolve.counting.switch_counting)."""
    import numpy as np

    from ..counting.switch_counting import switch_advantage_by_true_count
    from ..output.table import Table
    from ..output.table import table_notes as _notes
    true_counts = range(-5, 11)
    res = switch_advantage_by_true_count(rules, args.system_value, true_counts=true_counts,
                                         dealt_decks=args.dealt_decks, split=args.split)
    depth = rules.decks / 2 if args.dealt_decks is None else args.dealt_decks
    missing = [tc for tc in true_counts if tc not in res]
    reach = ("; out of reach at this depth (a rank would run out): TC "
             + ", ".join(f"{tc:+d}" for tc in missing)) if missing else ""
    return Table("tc-advantage", f"Blackjack Switch advantage by true count "
                 f"({args.system_value})", tuple(f"{tc:+d}" for tc in res),
                 ("exact", "linear"), np.array([list(v) for v in res.values()]),
                 _notes(rules, rules.shoe(),
                        f"EV per hand (fraction of one hand's bet, a round bets two; "
                        f"unconditioned; text in percent) with the shoe at each true count, "
                        f"{depth:g} deck{'' if depth == 1 else 's'} dealt, removals "
                        f"proportional within tag classes, whole cards (the count met as "
                        f"closely as whole cards allow)",
                        "exact: the switch analysis of that shoe (full removal); linear: the "
                        "full shoe's EV plus its fixed effects of removal, rescaled to the "
                        "cards left" + reach,
                        f"split {args.split}"), style="percent")
