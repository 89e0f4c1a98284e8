"""Flags and checks shared by the card-counting commands (eor, counts, indices,
tc-advantage)."""
from __future__ import annotations

import math

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
    if len(values) != 10 or not all(math.isfinite(v) for v in values):
        raise common.UsageError(f"--eor: give 10 finite numbers A, 2..9, T, got {len(values)}")
    return values


def counting_rules(args):
    """Rules and shoe of a counting command (a finite shoe), with the system checked."""
    rules = common.rules_from_args(args)
    if rules.infinite:
        raise common.UsageError(f"{args.command}: card counting needs a finite shoe "
                                "(not --infinite)")
    shoe = common.shoe_from_args(args, rules)
    if hasattr(args, "system"):
        from ..counting import count_tags
        args.system_value = parse_system(args.system)
        count_tags(args.system_value)   # a clear error for unknown names or bad tag vectors
    return rules, shoe
