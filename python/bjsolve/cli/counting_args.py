"""Flags and checks shared by the card-counting commands (eor, counts, indices,
tc-advantage)."""
from __future__ import annotations

# The library (numpy, the kernels) is imported inside the functions that use it, so
# that ``bjsolve --help`` and a bad command line answer at once.
import argparse
import math
import os

from . import common


def add_system_argument(parser, default_help="hilo") -> None:
    parser.add_argument("--system", metavar="NAME|TAGS",
                        help="count system: a built-in name (hilo, ko, hiopt1, ...) or 10 tags "
                             "A,2..9,T, e.g. --system=-1,1,1,1,1,1,0,0,0,-1 "
                             f"(default: {default_help})")


def add_depth_argument(parser) -> None:
    parser.add_argument("--dealt-decks", type=common.positive_number, metavar="D",
                        help="decks dealt when the true-count shoes are built "
                             "(default: half the shoe)")


# The counted commands (indices, game, simulate) spell a shared idea with one flag, one set
# of words and one default, the same as the library's keywords (tc_rounding=,
# decks_estimation=).
TC_ROUNDINGS = ("floor", "truncate", "round")
DECKS_ESTIMATIONS = ("exact", "half", "full")
STRATEGIES = ("basic", "optimal")


def add_tc_rounding_argument(group, *, exact: bool = False, help: str = "") -> None:
    """``--tc-rounding``: how the true count becomes a whole number (indices also has
    'exact', the crossing itself)."""
    choices = TC_ROUNDINGS + (("exact",) if exact else ())
    group.add_argument(
        "--tc-rounding", type=common.lower_choice(choices), choices=choices, default="floor",
        help=(help or "how the true count becomes a whole number: floor, truncate (toward "
                      "zero) or round (nearest, halves up)") + " (default: floor)")


def add_decks_estimation_argument(group) -> None:
    """``--decks-estimation``: the decks remaining a true count divides by."""
    group.add_argument(
        "--decks-estimation", type=common.lower_choice(DECKS_ESTIMATIONS),
        choices=DECKS_ESTIMATIONS,
        default="exact",
        help="decks remaining for the true count: exact (the cards unseen), or estimated to "
             "the nearest half deck or whole deck (default: exact)")


def penetration_value(text: str, *, every_round: bool = False):
    """--penetration: a fraction of the shoe (0.75), a whole number of cards (234), or with
    ``every_round`` the word every-round.  Cards stay an int (a value above 1)."""
    if every_round and text.strip().lower() == "every-round":
        return "every-round"
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text[:40]!r}: give a fraction (0.75)"
            + (", a number of cards (234) or every-round" if every_round
               else " or a number of cards (234)")) from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text[:40]!r}: give a fraction above 0 (0.75) or "
                                         "a number of cards (234)")
    return int(value) if value > 1 and value == int(value) else value


def add_strategy_argument(group, *, help: str, default: str = "basic") -> None:
    """``--strategy basic|optimal``, the words of ``CountedGame`` and ``simulate``."""
    group.add_argument("--strategy", type=common.lower_choice(STRATEGIES), choices=STRATEGIES,
                       default=default,
                       help=f"{help} (default: {default})")


RAMP_HELP = ("bets by true count, e.g. 1:1,2:2,3:4,4:8,5:12: the bet of the highest count "
             "at or below the true count (below the first count: its bet); 0 sits the round "
             "out")


INSURANCE_HELP = ("insure at true counts >= TC, or never (default: the index plays' "
                  "insurance index: a named set's, or an index file's 'insurance:' line as "
                  "'bjsolve indices --format index' writes it; else never)")


def insurance_value(text: str):
    """--insurance: a whole true count, or never (False)."""
    if text.strip().lower() == "never":
        return False
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r}: give a whole true count or "
                                         "'never'") from None


INDEX_SETS_HELP = ("i18 (Illustrious 18 and insurance), fab4, all, or a number N (the N "
                   "lines of largest gain), computed for this --tc-rounding; several "
                   "together as a comma list (i18,fab4) or the flag repeated: a hand in two "
                   "sets plays its one exact line, and a hand given two different lines "
                   "(two files) is refused")


def index_items(values):
    """The values of a repeated flag naming index plays (--indices, --set), each a set's
    name, a comma list of them or an index file, as one list (None: not given); the
    library (``bjsolve.counting.indices.as_index_table``) reads each item."""
    if not values:
        return None
    items = []
    for value in values:
        if os.path.exists(value):
            items.append(value)          # a file (its name may hold a comma)
        else:
            items += [part.strip() for part in value.split(",") if part.strip()]
    if not items:
        raise common.UsageError(f"--indices: {values[-1][:40]!r} names no index plays; give "
                                f"{INDEX_SETS_HELP.split(';')[0]}")
    return items


def parse_system(text):
    if text is None:
        return "hilo"
    if "," in text:
        try:
            return tuple(float(t) for t in text.split(","))
        except ValueError:
            raise common.UsageError(f"--system: {text[:60]!r} is not 10 comma-separated "
                                    "numbers") from None
    return text.strip().lower()


def parse_eor(text):
    try:
        values = tuple(float(t) for t in text.replace(" ", "").split(","))
    except ValueError:
        raise common.UsageError(f"--eor: {text[:60]!r} is not 10 comma-separated numbers "
                                "(A, 2..9, T)") from None
    if len(values) != 10:
        raise common.UsageError(f"--eor: give 10 finite numbers A, 2..9, T, got {len(values)} "
                                "numbers")
    ranks = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
    bad = [f"{r}={v:g}" for r, v in zip(ranks, values) if not math.isfinite(v)]
    if bad:
        raise common.UsageError(f"--eor: give 10 finite numbers A, 2..9, T, got "
                                f"{', '.join(bad)}")
    return values


def counting_rules(args):
    """Rules and shoe of a counting command (a finite shoe), with the system checked."""
    rules = common.rules_from_args(args)
    if rules.infinite:
        raise common.UsageError(f"{args.command}: card counting needs a finite shoe "
                                "(not --infinite)")
    shoe = common.shoe_from_args(args, rules)
    if hasattr(args, "system"):
        from ..counting.removal import count_tags
        args.system_value = parse_system(args.system)
        count_tags(args.system_value)   # a clear error for unknown names or bad tag vectors
    return rules, shoe


# ---- a side bet beside the counted game (game and simulate) --------------------------------

SIDEBET_BETS = ("21+3", "perfect-pairs", "lucky-ladies", "match-the-dealer", "royal-match",
                "over-13", "under-13", "exactly-13", "lucky-lucky")   # risk.side_bet's


def add_sidebet_arguments(parser) -> None:
    """``--sidebet NAME`` with ``--sidebet-paytable``, ``--sidebet-threshold`` and
    ``--sidebet-units``: a side bet played beside the ramp (game and simulate alike)."""
    g = parser.add_argument_group("side bet beside the ramp")
    g.add_argument("--sidebet", metavar="NAME", type=common.lower_choice(SIDEBET_BETS),
                   choices=SIDEBET_BETS,
                   help="also bet this side bet on the first spot of the rounds the ramp "
                        f"bets: {', '.join(SIDEBET_BETS)} (default: none)")
    g.add_argument("--sidebet-paytable", metavar="PRESET",
                   help="its pay table, a preset as 'bjsolve sidebet NAME' lists them "
                        "(default: the bet's first preset)")
    g.add_argument("--sidebet-threshold", type=int, metavar="TC",
                   help="bet it only at true counts of the main count >= TC (default: every "
                        "round the ramp bets)")
    g.add_argument("--sidebet-units", type=sidebet_units_value, default=1.0,
                   metavar="U|TC:U,...",
                   help="its bet in units, or a ramp of its own (TC:U,...) (default: 1)")


def sidebet_units_value(text: str):
    """--sidebet-units: a number of units, or ramp text (checked by the library)."""
    try:
        return float(text)
    except ValueError:
        if ":" in text:
            return text
        raise argparse.ArgumentTypeError(f"{text[:40]!r}: give a number of units or a ramp "
                                         "TC:U,...") from None


def sidebet_values(args) -> dict:
    """The side-bet flags as the library's keywords (``CountedGame``'s and
    ``simulate``'s ``sidebet``...); the flags without --sidebet are refused."""
    if args.sidebet is None:
        given = [flag for flag, value in (("--sidebet-paytable", args.sidebet_paytable),
                                          ("--sidebet-threshold", args.sidebet_threshold))
                 if value is not None]
        if args.sidebet_units != 1.0:
            given.append("--sidebet-units")
        if given:
            raise common.UsageError(f"{', '.join(given)}: give the side bet (--sidebet NAME)")
        return {}
    return {"sidebet": args.sidebet, "sidebet_paytable": args.sidebet_paytable,
            "sidebet_threshold": args.sidebet_threshold, "sidebet_units": args.sidebet_units}
