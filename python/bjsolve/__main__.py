"""Command line: ``python -m bjsolve [TABLE ...] [rule flags]`` and ``python -m bjsolve hand``.

Examples::

    python -m bjsolve                          # strategy chart and advantage, default rules
    python -m bjsolve dealer --decks 2 --format csv
    python -m bjsolve stand hit --decks 1 --h17
    python -m bjsolve hand 10 6 --vs T --decks 6
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import warnings

from .deal import dealer_label, round_may_run_out
from .ranks import label, ranks
from .render import FORMATS, render
from .rules import DOUBLE_CHOICES, HOLE_CARD_CHOICES, SURRENDER_CHOICES, Rules
from .shoe import Shoe
from .solve import SPLIT_CLASSES, solve
from .tables import TABLE_NAMES, build_table

DEFAULT_TABLES = ("strategy", "advantage")
COUNT_COMMANDS = ("eor", "counts", "indices", "tc-advantage")


class UsageError(Exception):
    """A bad command line: reported in one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(message)


def parse_payout(text: str) -> float:
    """'3:2' -> 1.5, '6:5' -> 1.2, '1.5' -> 1.5."""
    try:
        if ":" in text:
            a, b = text.split(":")
            return float(a) / float(b)
        return float(text)
    except (ValueError, ZeroDivisionError):
        raise UsageError(f"--payout: {text!r} is not a payout such as 3:2, 6:5 or 1.5") from None


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="bjsolve", description="Exact blackjack analysis tables.",
                epilog=f"tables: {', '.join(TABLE_NAMES)}; or: hand CARD CARD [...] --vs UPCARD")
    p.add_argument("items", nargs="*", metavar="TABLE",
                   help=f"tables to print (default: {' '.join(DEFAULT_TABLES)}), "
                        "or 'hand' followed by the player's cards")
    p.add_argument("--vs", metavar="UPCARD", help="dealer upcard for 'hand'")
    p.add_argument("--preset", help=f"named rule set ({', '.join(Rules.presets())})")
    p.add_argument("--decks", type=int, help="number of decks (default 6)")
    p.add_argument("--infinite", action="store_true", help="infinite shoe")
    p.add_argument("--remove", metavar="CARDS", help="cards removed from the shoe, e.g. A,5,T")
    p.add_argument("--h17", dest="hit_soft_17", action="store_true", default=None,
                   help="dealer hits soft 17")
    p.add_argument("--s17", dest="hit_soft_17", action="store_false", help="dealer stands on soft 17")
    p.add_argument("--double", choices=DOUBLE_CHOICES, help="two-card totals that may double")
    p.add_argument("--no-double-soft", dest="double_soft", action="store_false", default=None)
    p.add_argument("--dan", dest="double_any_cards", action="store_true", default=None,
                   help="double on any number of cards")
    p.add_argument("--das", dest="double_after_split", action="store_true", default=None)
    p.add_argument("--no-das", dest="double_after_split", action="store_false")
    p.add_argument("--max-split-hands", type=int, choices=(1, 2, 3, 4))
    p.add_argument("--rsa", dest="resplit_aces", action="store_true", default=None)
    p.add_argument("--hit-split-aces", action="store_true", default=None)
    p.add_argument("--surrender", choices=SURRENDER_CHOICES)
    p.add_argument("--payout", help="blackjack payout: 3:2, 6:5, 1:1 or a number")
    p.add_argument("--hole-card", choices=HOLE_CARD_CHOICES)
    p.add_argument("--dealer-wins-ties", action="store_true", default=None)
    p.add_argument("--split", default="CDZ-", choices=tuple(SPLIT_CLASSES),
                   help="post-split strategy class (default CDZ-)")
    p.add_argument("--given-no-blackjack", action="store_true",
                   help="dealer table conditioned on no dealer blackjack")
    p.add_argument("--format", default="text", choices=FORMATS + ("index",),
                   help="output format ('index': index-file lines, for 'indices')")
    p.add_argument("--system", default=None,
                   help="count system name or 10 tags A..T, e.g. --system=-1,1,1,1,1,1,0,0,0,-1 "
                        "(counting commands; 'counts' shows all built-in systems by default)")
    p.add_argument("--dealt-decks", type=float,
                   help="depth at which true-count shoes are built (default: half the shoe)")
    p.add_argument("--rounding", default="rounded", choices=("rounded", "ceiled"),
                   help="how exact index crossings become integers")
    p.add_argument("--eor", metavar="V1,...,V10",
                   help="'counts': a user EOR vector A..T (any unit) for the betting correlation, "
                        "e.g. --eor=-0.61,0.38,0.44,0.55,0.69,0.46,0.28,0,-0.18,-0.51")
    return p


def rules_from(args) -> Rules:
    fields = dict(Rules.preset(args.preset).__dict__) if args.preset else {}
    if args.infinite and args.decks is not None:
        raise UsageError("--infinite and --decks exclude each other")
    if args.infinite:
        fields["decks"] = math.inf
    elif args.decks is not None:
        fields["decks"] = args.decks
    for name in ("hit_soft_17", "double", "double_soft", "double_any_cards", "double_after_split",
                 "max_split_hands", "resplit_aces", "hit_split_aces", "surrender", "hole_card",
                 "dealer_wins_ties"):
        value = getattr(args, name)
        if value is not None:
            fields[name] = value
    if args.payout is not None:
        fields["blackjack_payout"] = parse_payout(args.payout)
    return Rules(**fields)


def shoe_from(args, rules: Rules) -> Shoe:
    shoe = Shoe.decks(rules.decks)
    if args.remove is not None and rules.infinite:
        raise UsageError("--remove: removing cards from an infinite shoe changes nothing; "
                         "give --decks N")
    if args.remove is not None:
        if not args.remove.replace(",", " ").split():
            raise UsageError("--remove: give the cards to remove, e.g. --remove A,5,T")
        shoe = shoe.remove(*ranks(args.remove.replace(",", " ").split(), field="--remove"))
    return shoe


def parse_dealer(text: str):
    """--vs: one upcard ('T'), or both exposed dealer cards ('T,6', 'T 6' or 'T6')."""
    tokens = text.replace(",", " ").split()
    if not tokens:
        raise UsageError("--vs: give the dealer's upcard (or both cards in the exposed game)")
    return tokens[0] if len(tokens) == 1 else tokens


def hand_report(args, rules, shoe, out) -> None:
    cards = args.items[1:]
    if len(cards) < 2:
        raise UsageError("hand: give the player's cards, e.g. 'hand 10 6 --vs T'")
    if args.vs is None:
        raise UsageError("hand: give the dealer's upcard with --vs")
    dealer = parse_dealer(args.vs)
    ranks(cards, field="cards")     # bad cards fail before the solve, not after it
    ranks(dealer, field="dealer")
    sol = solve(rules, shoe, split=args.split)
    ev = sol.hand_ev(cards, dealer)
    measure = "given no dealer blackjack" if ev.given_no_blackjack else "unconditioned"
    hand = " ".join(label(c) for c in ev.cards)
    up = (label(ev.dealer) if isinstance(ev.dealer, int)
          else " ".join(label(c) for c in ev.dealer) + f" ({dealer_label(ev.dealer)})")
    notes = [f"rules: {rules.describe()}", f"shoe: {sol.shoe!r}"]
    if round_may_run_out(rules, sol.shoe):
        notes.append("warning: the shoe is so small that a round could run out of cards; values "
                     "follow the degenerate convention and describe no real game")
    notes.append(f"{hand} v {up}: EV per initial bet, {measure}"
                 + (f"; split {args.split} (post-split strategy)" if "split" in ev else ""))
    if args.format == "json":
        out.write(json.dumps({"rules": rules.describe(), "shoe": repr(sol.shoe),
                              "cards": list(ev.cards),
                              "dealer": ev.dealer if isinstance(ev.dealer, int) else list(ev.dealer),
                              "measure": measure, "split_strategy": args.split,
                              "ev": dict(ev), "best": ev.best}, indent=1) + "\n")
        return
    if args.format == "csv":
        out.write("".join(f"# {n}\n" for n in notes) + "action,ev,best\n")
        for action, v in ev.items():
            out.write(f"{action},{v!r},{'best' if action == ev.best else ''}\n")
        return
    if args.format == "markdown":
        out.write(f"**{hand} v {up}**\n\n" + "".join(f"- {n}\n" for n in notes)
                  + "\n| action | EV | |\n|---|---|---|\n")
        for action, v in ev.items():
            out.write(f"| {action} | {v:+.6f} | {'best' if action == ev.best else ''} |\n")
        return
    out.write("".join(f"# {n}\n" for n in notes))
    for action, v in ev.items():
        mark = "  <- best" if action == ev.best else ""
        out.write(f"{action:>10} {v:+.6f}{mark}\n")


def parse_system(text):
    if "," in text:
        try:
            return tuple(float(t) for t in text.split(","))
        except ValueError:
            raise UsageError(f"--system: {text!r} is not 10 comma-separated numbers") from None
    return text


def parse_eor(text):
    try:
        values = tuple(float(t) for t in text.replace(" ", "").split(","))
    except ValueError:
        raise UsageError(f"--eor: {text!r} is not 10 comma-separated numbers (A, 2..9, T)") from None
    if len(values) != 10 or not all(math.isfinite(v) for v in values):
        raise UsageError(f"--eor: give 10 finite numbers A, 2..9, T, got {len(values)}")
    return values


class Progress:
    """A progress bar on stderr when it is a terminal; silent when piped."""

    def __init__(self, label, stream=None):
        self.label = label
        self.stream = sys.stderr if stream is None else stream
        try:
            self.live = self.stream.isatty()
        except (AttributeError, ValueError):
            self.live = False

    def __call__(self, done, total):
        if self.live:
            width = 30
            fill = int(width * done / total)
            self.stream.write(f"\r{self.label} [{'#' * fill}{'.' * (width - fill)}] {done}/{total}")
            if done >= total:
                self.stream.write("\r" + " " * (len(self.label) + width + 16) + "\r")
            self.stream.flush()


def count_report(args, rules, shoe, out) -> None:
    from .count_tables import (counts_table, eor_table, index_file, indices_table,
                               tc_advantage_table)
    from .counting import SYSTEMS, count_tags
    command = args.items[0]
    if len(args.items) > 1:
        raise UsageError(f"{command}: unexpected arguments {' '.join(args.items[1:])}")
    if rules.infinite:
        raise UsageError(f"{command}: card counting needs a finite shoe (not --infinite)")
    if args.format == "index" and command != "indices":
        raise UsageError("--format index goes with the 'indices' command")
    system = parse_system(args.system if args.system is not None else "hilo")
    count_tags(system)  # a clear error for unknown names or bad tag vectors
    eor = parse_eor(args.eor) if args.eor is not None else None
    if eor is not None and command != "counts":
        raise UsageError("--eor goes with the 'counts' command")
    if command in ("indices", "tc-advantage") and args.remove:
        raise UsageError(f"{command}: --remove does not apply (shoes are built at each true count)")
    if command == "eor":
        table = eor_table(rules, shoe, args.split, progress=Progress("eor"))
    elif command == "counts":
        systems = [system] if args.system is not None else list(SYSTEMS)
        table = counts_table(rules, shoe, systems, eor=eor, progress=Progress("counts"))
    elif command == "indices":
        table = indices_table(rules, system, dealt_decks=args.dealt_decks,
                              rounding=args.rounding, progress=Progress("indices"))
        if args.format == "index":
            out.write(index_file(table))
            return
    else:
        table = tc_advantage_table(rules, system, dealt_decks=args.dealt_decks, split=args.split,
                                   progress=Progress("tc-advantage"))
    out.write(render(table, args.format))


def main(argv=None, out=None) -> int:
    out = sys.stdout if out is None else out
    with warnings.catch_warnings():
        # a shoe too small for a round is flagged in every table's notes instead
        warnings.simplefilter("ignore", RuntimeWarning)
        return _main(argv, out)


def _main(argv, out) -> int:
    try:
        args = build_parser().parse_args(argv)
        rules = rules_from(args)
        shoe = shoe_from(args, rules)
        if args.vs is not None and not (args.items and args.items[0] == "hand"):
            raise UsageError("--vs goes with the 'hand' command")
        if args.items and args.items[0] == "hand":
            if args.given_no_blackjack:
                raise UsageError("--given-no-blackjack goes with the 'dealer' table; 'hand' "
                                 "states the measure of its values")
            hand_report(args, rules, shoe, out)
            return 0
        if args.items and args.items[0] in COUNT_COMMANDS:
            count_report(args, rules, shoe, out)
            return 0
        if args.format == "index":
            raise UsageError("--format index goes with the 'indices' command")
        names = args.items or list(DEFAULT_TABLES)
        for name in names:
            if name not in TABLE_NAMES:
                raise UsageError(f"unknown table {name!r}; known: {', '.join(TABLE_NAMES)}; "
                                 f"commands: hand, {', '.join(COUNT_COMMANDS)}")
        if args.given_no_blackjack and "dealer" not in names:
            raise UsageError("--given-no-blackjack goes with the 'dealer' table")
        if rules.hole_card == "exposed" and args.given_no_blackjack:
            raise UsageError("--given-no-blackjack: both dealer cards are known in the exposed game")
        if rules.hole_card == "exposed" and "insurance" in names:
            raise UsageError("insurance: not offered in the exposed game (both dealer cards "
                             "are known)")
        cache = {}

        def solution():
            if "sol" not in cache:
                cache["sol"] = solve(rules, shoe, split=args.split)
            return cache["sol"]

        for i, name in enumerate(names):
            table = build_table(name, rules, shoe, solution, args.given_no_blackjack)
            if i and args.format in ("text", "markdown"):
                out.write("\n")
            out.write(render(table, args.format))
        return 0
    except (UsageError, ValueError, TypeError) as exc:
        print(f"bjsolve: error: {one_line(exc)}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print("bjsolve: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug, not a bad argument: still one line unless debugging
        if os.environ.get("BJSOLVE_DEBUG"):
            raise
        print(f"bjsolve: internal error: {type(exc).__name__}: {one_line(exc)} "
              "(set BJSOLVE_DEBUG=1 for the traceback)", file=sys.stderr)
        return 1


def one_line(exc) -> str:
    """An exception's message on one line."""
    return " ".join(str(exc).split()) or type(exc).__name__


def console_main() -> None:
    sys.exit(main())


if __name__ == "__main__":
    console_main()
