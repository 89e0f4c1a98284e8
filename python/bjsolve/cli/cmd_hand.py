"""bjsolve hand: every action's EV for one hand against the dealer's upcard.

Values are per initial bet, conditioned on no dealer blackjack when the dealer peeks (the
output says which); --unconditioned gives the values before the peek.  Examples:

    bjsolve hand T 6 --dealer T --decks 6
    bjsolve hand A7 --dealer 9 --surrender late
    bjsolve hand 8 8 --dealer T,6 --hole-card exposed
"""
from __future__ import annotations

# The library (numpy, the kernels) is imported inside the functions that use it, so
# that ``bjsolve --help`` and a bad command line answer at once.
import json
import sys
import textwrap

from . import common

NAME = "hand"
HELP = "every action's EV for one hand against a dealer upcard"


def add_arguments(parser) -> None:
    parser.add_argument("cards", nargs="+", metavar="CARD",
                        help="the player's cards: A, 2..9, T (or 10, J, Q, K), e.g. 'T 6' or 'A7'")
    parser.add_argument("--dealer", metavar="CARD", required=True,
                        help="the dealer's upcard (both cards, e.g. T,6, in the exposed game), "
                             "as Solution.hand_ev(cards, dealer) takes it")
    parser.add_argument("--unconditioned", action="store_true",
                        help="values before the dealer checks for a natural (default: given "
                             "no dealer blackjack where the dealer peeks)")
    common.add_rule_arguments(parser)
    common.add_split_argument(parser)
    common.add_output_arguments(parser)


def parse_dealer(text: str):
    """--dealer: one upcard ('T'), or both exposed dealer cards ('T,6', 'T 6' or 'T6')."""
    tokens = text.replace(",", " ").split()
    if not tokens:
        raise common.UsageError("--dealer: give the dealer's upcard (or both cards in the "
                                "exposed game)")
    return tokens[0] if len(tokens) == 1 else tokens


def run(args) -> int:
    from ..exact.solver import solve
    from ..model.deal import dealer_label, is_natural, round_may_run_out
    from ..model.ranks import hand_total, label, ranks
    rules = common.rules_from_args(args)
    shoe = common.shoe_from_args(args, rules)
    cards = [c for token in args.cards for c in token.replace(",", " ").split()]
    if len(cards) == 1 and len(ranks(cards[0], field="cards")) > 1:
        cards = list(ranks(cards[0], field="cards"))          # a run such as 'A7'
    if len(cards) < 2:
        raise common.UsageError("hand: give at least two player cards, e.g. "
                                "'hand 10 6 --dealer T'")
    dealer = parse_dealer(args.dealer)
    ranks(cards, field="cards")     # bad cards fail before the solve, not after it
    ranks(dealer, field="dealer")
    sol = solve(rules, shoe=shoe, split=args.split)
    kwargs = {"given_no_blackjack": False} if args.unconditioned else {}
    ev = sol.hand_ev(cards, dealer, **kwargs)
    if rules.hole_card == "exposed":
        measure = "both dealer cards known"
    else:
        measure = "given no dealer blackjack" if ev.given_no_blackjack else "unconditioned"
    hand = " ".join(label(c) for c in ev.cards)
    total, soft = hand_total(ev.cards)
    natural = len(ev.cards) == 2 and is_natural(ev.cards)
    shown = f"{hand} ({'natural' if natural else ('soft ' if soft else 'hard ') + str(total)})"
    up = (label(ev.dealer) if isinstance(ev.dealer, int)
          else " ".join(label(c) for c in ev.dealer) + f" ({dealer_label(ev.dealer)})")
    from ..output.table import shoe_words
    notes = [f"rules: {rules.describe()}", f"shoe: {shoe_words(sol.shoe, rules.decks)}"]
    if round_may_run_out(rules, sol.shoe):
        notes.append("warning: the shoe is so small that a round could run out of cards; values "
                     "follow the degenerate convention and describe no real game")
    notes.append(f"{shown} v {up}: EV per initial bet, {measure}"
                 + (f"; split {args.split} (post-split strategy)" if "split" in ev else ""))
    if natural:
        # paid at once: hit and double (which the solver values as if it were a soft 21)
        # are not offered
        notes.append("a natural is paid at once: there is no decision to make (shown as "
                     "'stand')")
        values, best = {"stand": ev["stand"]}, "stand"
    else:
        values, best = dict(ev), ev.best
    if args.format == "json":
        common.write_output(json.dumps({
            "rules": rules.describe(), "shoe": repr(sol.shoe), "cards": [label(c) for c in ev.cards],
            "dealer": (label(ev.dealer) if isinstance(ev.dealer, int)
                       else [label(c) for c in ev.dealer]),
            "measure": measure, "given_no_blackjack": ev.given_no_blackjack,
            "split": args.split, "units": "fraction of the initial bet",
            "natural": natural,
            "ev": {a: float(v) for a, v in values.items()}, "best": best}, indent=1) + "\n", args)
        return 0
    if args.format == "csv":
        for n in notes:
            print(f"# {n}", file=sys.stderr)
        common.write_output("action,ev,best\n" + "".join(
            f"{action},{float(v)!r},{'best' if action == best else ''}\n"
            for action, v in values.items()), args)
        return 0
    if args.format == "html":
        from ..output.table import Grid, Table
        common.emit(Table("hand", f"{shown} v {up}", tuple(values), ("EV", "best"),
                          Grid([[float(v), "best" if a == best else ""]
                                for a, v in values.items()], 2),
                          tuple(notes), units="fraction of the initial bet"), args)
        return 0
    if args.format == "markdown":
        common.write_output(
            f"**{shown} v {up}**\n\n" + "".join(f"- {n}\n" for n in notes)
            + "\n| action | EV | |\n|---|---|---|\n"
            + "".join(f"| {action} | {v:+.6f} | {'best' if action == best else ''} |\n"
                      for action, v in values.items()), args)
        return 0
    width = common.terminal_width()
    text = "".join(textwrap.fill(n, width, initial_indent="# ", subsequent_indent="#   ") + "\n"
                   for n in notes)
    text += "".join(f"{action:>10} {v:+.6f}{'  <- best' if action == best else ''}\n"
                    for action, v in values.items())
    common.write_output(text, args)
    return 0
