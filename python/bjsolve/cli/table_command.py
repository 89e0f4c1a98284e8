"""The table sub-commands (``bjsolve stand``, ``bjsolve dealer`` ...): one data table,
``TABLE_COMMANDS``, names each table command and says what it shows; one factory makes its
flags and its ``run``.

A table command may name more tables after it (``bjsolve stand hit double``): they share
one solve and are written together (one JSON document, one CSV grid).
"""
from __future__ import annotations

# The library (numpy, the kernels) is imported inside the functions that use it, so
# that ``bjsolve --help`` and a bad command line answer at once.
import difflib

from . import common
from .counting_args import add_strategy_argument

# every table bjsolve.exact.tables.build_table makes (kept here so --help needs no numpy)
TABLE_NAMES = ("initial", "dealer", "stand", "hit", "double", "split", "surrender",
               "optimal", "strategy", "advantage", "exceptions", "insurance")


# table command -> (one line of help, whether it offers --given-no-blackjack), in the order
# ``bjsolve --help`` lists them (``COMMANDS`` in bjsolve.cli places them among the others)
TABLE_COMMANDS = {
    "strategy": ("basic-strategy chart (total-dependent, for the first two cards)", False),
    "advantage": ("EV of a round by dealer upcard and overall", False),
    "dealer": ("dealer final-outcome probabilities by upcard", True),
    "stand": ("EV of standing, per starting hand and upcard", False),
    "hit": ("EV of hitting (then playing on optimally), per starting hand and upcard", False),
    "double": ("EV of doubling, per starting hand and upcard", False),
    "split": ("EV of splitting each pair, per upcard", False),
    "surrender": ("EV of surrendering, per starting hand and upcard", False),
    "optimal": ("EV of the best action, per starting hand and upcard", False),
    "initial": ("probability of each starting hand with each dealer upcard", False),
    "exceptions": ("composition-dependent exceptions to the basic-strategy chart", False),
    "insurance": ("EV of the insurance bet, with one more card known", False),
}


class TableCommand:
    """A table command with the attributes of a command module (``NAME``, ``HELP``, a
    docstring for its ``--help``, ``add_arguments``, ``run``)."""

    def __init__(self, name: str, help: str, given_no_blackjack: bool):
        self.NAME = name
        self.HELP = help
        self.__doc__ = f"bjsolve {name}: {help}."
        self.add_arguments, self.run = table_command(name, given_no_blackjack=given_no_blackjack)

    def __repr__(self):
        return f"<table command {self.NAME!r}>"


def table_commands() -> dict:
    """{name: TableCommand}, made once (a test may replace a command's ``run``)."""
    if not _MADE:
        _MADE.update((name, TableCommand(name, *spec)) for name, spec in TABLE_COMMANDS.items())
    return _MADE


_MADE: dict = {}


def table_command(name: str, *, given_no_blackjack: bool = False):
    """(add_arguments, run) for the command that prints table ``name``."""

    def add_arguments(parser) -> None:
        parser.add_argument("more", nargs="*", metavar="TABLE",
                            help=f"more tables to print with it, from: {', '.join(TABLE_NAMES)}")
        common.add_rule_arguments(parser)
        if name != "dealer":
            common.add_split_argument(parser)
        if name == "advantage":
            add_strategy_argument(parser, default="optimal",
                                  help="optimal: composition-dependent optimal play; basic: "
                                       "the basic-strategy chart for every decision")
        if given_no_blackjack:
            parser.add_argument("--given-no-blackjack", action="store_true",
                                help="condition on the dealer not holding a natural (default: "
                                     "unconditioned, naturals in their own column)")
        if name == "strategy":
            common.add_after_double_argument(parser)
        common.add_output_arguments(parser, color=name == "strategy",
                                    pictures=name not in ("exceptions",))

    def run(args) -> int:
        names = [name] + list(args.more)
        for extra in args.more:
            if extra not in TABLE_NAMES:
                raise common.UsageError(_unknown_table(extra))
        rules = common.rules_from_args(args)
        shoe = common.shoe_from_args(args, rules)
        conditioned = getattr(args, "given_no_blackjack", False)
        if conditioned and rules.hole_card == "exposed":
            raise common.UsageError("--given-no-blackjack: both dealer cards are known in the "
                                    "exposed game")
        if rules.hole_card == "exposed" and "insurance" in names:
            raise common.UsageError("insurance: not offered in the exposed game (both dealer "
                                    "cards are known)")
        picture = args.format in ("html",) + common.PICTURE_FORMATS
        tables = build_tables(names, rules, shoe, getattr(args, "split", "CDZ-"),
                              conditioned,
                              getattr(args, "strategy", "optimal"),
                              edge_in_caption=picture and "strategy" in names)
        if name == "strategy" and common.wants_after_double(rules, args):
            # the choice after a double belongs with the chart a player reads
            from ..exact.after_double_table import after_double_tables
            from ..exact.solver import solve
            tables += after_double_tables(solve(rules, shoe=shoe,
                                                split=getattr(args, "split", "CDZ-")))
        common.emit(tables, args)
        return 0

    return add_arguments, run


def build_tables(names, rules, shoe, split, given_no_blackjack=False,
                 advantage_strategy="optimal", edge_in_caption=False):
    """The named tables, sharing one solve.  ``edge_in_caption``: the house-edge table
    first, which an HTML page or a picture puts in the strategy chart's caption."""
    # (the solver, numpy and the kernels load only when a table is built: --help is quick)
    from ..exact.solver import solve
    from ..exact.tables import build_table, house_edge_table
    cache = {}

    def solution():
        if "sol" not in cache:
            cache["sol"] = solve(rules, shoe=shoe, split=split)
        return cache["sol"]
    tables = [build_table(n, rules, shoe, solution, given_no_blackjack, advantage_strategy)
              for n in names]
    return ([house_edge_table(solution())] if edge_in_caption else []) + tables


def _unknown_table(word: str) -> str:
    close = difflib.get_close_matches(word, TABLE_NAMES, n=1)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    return f"unknown table '{word[:40]}'{hint} (tables: {', '.join(TABLE_NAMES)})"
