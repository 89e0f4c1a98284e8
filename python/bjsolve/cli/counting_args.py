"""Flags and checks shared by the card-counting commands (eor, counts, indices,
tc-advantage), and the counted game's flags, which `game` and `simulate` take from one
``add_counted_game_arguments`` and read with ``game_keywords`` / ``simulate_keywords`` into
the keywords of ``CountedGame`` and ``simulate``."""
from __future__ import annotations

# The library (numpy, the kernels) is imported inside the functions that use it, so
# that ``bjsolve --help`` and a bad command line answer at once.
import argparse
import math
import os
from typing import NamedTuple

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
    if text.strip().lower() == "every-round":
        if every_round:
            return "every-round"
        raise argparse.ArgumentTypeError("every-round is simulate's (a shuffle before every "
                                         "round); here give a fraction (0.75) or a number "
                                         "of cards (234)")
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


# ---- the counted game: game and simulate ------------------------------------------------
#
# One definition of each flag the two commands share, with one type, one default and one
# meaning.  What still differs is what the two models are (docs/cli-counting.md, "game and
# simulate side by side"): simulate deals 'every-round' shuffles and plays several spots
# itself; game's --spots are the hands at the table.  A command adds its own flags to the
# groups this returns; a new shared flag goes here, with its reading in shared_keywords.

COUNTED_COMMANDS = ("game", "simulate")

_SPOTS_HELP = {
    "game": "hands dealt per round at the table, 1..7: they set where rounds start; every "
            "figure stays per one hand (simulate --spots 1 --other-spots N-1 deals the same "
            "game) (default: 1)",
    "simulate": "spots the player plays, 1..7 (default: 1)",
}
_STRATEGY_HELP = {
    "game": "basic: the total-dependent chart (--indices adds index plays to it); optimal: "
            "composition-dependent play of each count's composition",
    "simulate": "basic: the solve's chart; optimal: the full shoe's composition-dependent "
                "strategy",
}
_PENETRATION_HELP = {
    "game": "cut card: a fraction of the shoe, or a number of cards, dealt before the "
            "shuffle (default: 0.75)",
    "simulate": "cut card: a fraction of the shoe, a number of cards, or every-round (a "
                "fresh shuffle before every round) (default: 0.75)",
}
_WONG_IN_HELP = {
    "game": "play only at true counts >= TC (bet 0 below) (default: play every round)",
    "simulate": "sit out until the true count reaches TC, then play; alone: play exactly "
                "the rounds at true counts >= TC, as 'game --wong-in' (default: play every "
                "round)",
}


class CountedGroups(NamedTuple):
    """The argument groups the counted flags went into, for a command's own flags."""
    game: argparse._ArgumentGroup
    betting: argparse._ArgumentGroup


class StoreGiven(argparse.Action):
    """Store the flag's value and note that it was given (``<dest>_given``, absent
    otherwise): simulate tells a Blackjack Switch counted shoe asked for by --penetration
    from the fresh-shoe simulation so, whatever penetration is given."""

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, values)
        setattr(namespace, f"{self.dest}_given", True)


def _penetration_every_round(text: str):
    return penetration_value(text, every_round=True)


def add_counted_game_arguments(parser, *, command: str) -> CountedGroups:
    """The flags game and simulate share: --system, --penetration, --burn, --spots,
    --strategy, --indices, --insurance, --tc-rounding, --decks-estimation, --threads (group
    'the counted game'), --ramp, --wong-in, --unit (group 'betting')."""
    if command not in COUNTED_COMMANDS:
        raise ValueError(f"command must be one of {', '.join(COUNTED_COMMANDS)}, got "
                         f"{command!r}")
    add_system_argument(parser)
    g = parser.add_argument_group("the counted game")
    g.add_argument("--penetration", default=0.75, metavar="P", action=StoreGiven,
                   type=_penetration_every_round if command == "simulate"
                   else penetration_value,
                   help=_PENETRATION_HELP[command])
    g.add_argument("--burn", type=int, default=1, metavar="N",
                   help="cards burnt (unseen) after each shuffle; the simulator burns one "
                        "(default: 1)")
    g.add_argument("--spots", type=common.whole_number(1, 7), default=1, metavar="N",
                   help=_SPOTS_HELP[command])
    add_strategy_argument(g, help=_STRATEGY_HELP[command])
    # nargs="?": --indices alone plays every index play (what simulate always did; game
    # refused it) -- no command line that ran before stops running
    g.add_argument("--indices", nargs="?", const="all", default=None, action="append",
                   metavar="SET|FILE",
                   help="play the chart with index numbers, the exact indices of the count "
                        f"system as 'bjsolve indices' computes them: {INDEX_SETS_HELP} "
                        "(alone: all); or FILE, an index file as 'bjsolve indices --format "
                        "index' writes it (write it with the --tc-rounding played) (default: "
                        "none, the chart alone)")
    g.add_argument("--insurance", type=insurance_value, default=None, metavar="TC|never",
                   help=INSURANCE_HELP)
    add_tc_rounding_argument(g)
    add_decks_estimation_argument(g)
    g.add_argument("--threads", type=common.whole_number(1, 1024), default=None, metavar="N",
                   help="threads (default: every core)")
    b = parser.add_argument_group("betting")
    b.add_argument("--ramp", default=None, metavar="TC:BET,...",
                   help=RAMP_HELP + (" (default: flat, 1 unit)" if command == "game"
                                     else " (default: flat, the table minimum)"))
    b.add_argument("--wong-in", type=int, metavar="TC", help=_WONG_IN_HELP[command])
    common.add_unit_argument(b)
    return CountedGroups(g, b)


def shared_keywords(args) -> dict:
    """The keywords CountedGame and simulate both take, read from the shared flags."""
    return dict(system=parse_system(args.system), penetration=args.penetration,
                burn=args.burn, spots=args.spots, strategy=args.strategy,
                indices=index_items(args.indices), insurance=args.insurance,
                decks_estimation=args.decks_estimation, tc_rounding=args.tc_rounding,
                threads=args.threads)


def game_keywords(args, rules) -> dict:
    """``CountedGame(rules, **game_keywords(args, rules))`` (less depth_bands, progress):
    the penetration as a fraction of the shoe, and index plays as strategy 'indices'."""
    keywords = shared_keywords(args)
    penetration = keywords["penetration"]
    if isinstance(penetration, int):      # cards: the game takes a fraction
        if rules.infinite:
            raise common.UsageError("--penetration in cards needs a finite shoe (--decks)")
        cards = rules.decks * 52
        if penetration >= cards:
            raise common.UsageError(f"--penetration {penetration} cards goes beyond the "
                                    f"{cards}-card shoe")
        keywords["penetration"] = penetration / cards
    if keywords["indices"] is not None:
        keywords["strategy"] = "indices"
    return keywords


def simulate_keywords(args) -> dict:
    """The keywords of ``simulate`` the shared flags give (cards of penetration stay cards,
    the ramp stays its text: simulate reads both)."""
    return dict(shared_keywords(args), ramp=args.ramp, wong_in=args.wong_in)


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
