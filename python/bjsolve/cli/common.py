"""What the sub-commands share: rule and shoe flags, output flags, writing tables, progress.

Only the standard library and ``bjsolve.model`` (rules, quantities) are imported at module
level, so that ``bjsolve --help`` stays fast; numpy, rich and the solver load inside the
functions that use them.
"""
from __future__ import annotations

# The library (numpy, the kernels) is imported inside the functions that use it, so
# that ``bjsolve --help`` and a bad command line answer at once.
import argparse
import contextlib
import math
import os
import shutil
import sys

from ..model.quantities import parse_rounds
from ..model.rules import (
    DOUBLE_CHOICES,
    HOLE_CARD_CHOICES,
    NATURAL_TIE_CHOICES,
    SURRENDER_CHOICES,
    Rules,
    parse_payout,
)

# the solver's post-split strategy classes (bjsolve.solve.SPLIT_CLASSES; checked by a test)
SPLIT_CLASSES = ("CDZ-", "CDP1", "CDP")
# the commands that compute Blackjack Switch (the others give one-hand tables)
SWITCH_COMMANDS = (None, "edge", "dealer", "risk", "simulate", "eor", "tc-advantage",
                   "indices", "game")
TABLE_FORMATS = ("text", "csv", "json", "markdown", "html")
PICTURE_FORMATS = ("png", "svg")      # need the optional [plot] extra (matplotlib)


class UsageError(Exception):
    """A bad command line: reported in one line, exit code 2."""


class EnvironmentFailure(Exception):
    """The command was fine but its surroundings failed it (output that cannot be
    written, a scheduler that does not answer): reported in one line, exit code 1.
    ``on_stdout``: standard output itself failed (its last flush at exit would too)."""
    on_stdout = False


def one_line(exc, limit: int = 400) -> str:
    """An exception's message on one line, capped."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= limit else text[:limit - 3] + "..."


# ---- small argument types (argparse turns their ValueError into a usage error) ----------

def payout(text: str) -> float:
    """--payout: '3:2' or '3/2' -> 1.5, '6:5' or '6/5' -> 1.2, '1.5' -> 1.5 (the reader
    ``Rules.parse`` and the web use: ``bjsolve.model.rules.parse_payout``)."""
    try:
        return parse_payout(text, "payout")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def whole_decks(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text[:40]!r} is not a whole number of decks (use --infinite for an "
            "infinite shoe)") from None
    return value


def _float_or_nan(text: str) -> float:
    """``float(text)``, or NaN where the text is no number (the checks below refuse NaN)."""
    try:
        return float(text)
    except ValueError:
        return math.nan


def positive_number(text: str) -> float:
    value = _float_or_nan(text)
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a positive finite number")
    return value


def finite_number(text: str) -> float:
    value = _float_or_nan(text)
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a finite number")
    return value


def probability_value(text: str) -> float:
    """A probability strictly between 0 and 1 (--target-ror 0.05)."""
    value = _float_or_nan(text)
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a probability strictly "
                                         "between 0 and 1 (0.05 for 5%)")
    return value


def rounds_count(maximum: int | None = None):
    """An argument type: a whole number of rounds 1..``maximum`` (None: the library's own
    limit applies), read as everywhere ('1e6', '2M', '1_000_000', '1,000,000'):
    ``bjsolve.model.parse_rounds``."""
    def convert(text: str) -> int:
        try:
            return parse_rounds(text, "rounds", maximum)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    convert.__name__ = "number of rounds"
    return convert


def rounds_value(text: str) -> int:
    """--trip-rounds: a whole number of rounds 1..risk.MAX_ROUNDS."""
    from ..risk.ruin import MAX_ROUNDS
    return rounds_count(MAX_ROUNDS)(text)


def add_money_arguments(group, *, unit: bool = True) -> None:
    """The bankroll flags of the commands with ruin figures (game, risk): one spelling and
    one meaning each, as the library's keywords (bankroll=, unit=, trip_rounds=,
    target_ror=).  ``unit=False``: --unit comes from elsewhere (game: the counted-game
    flags, which simulate shares)."""
    group.add_argument("--bankroll", type=positive_number, default=None, metavar="UNITS",
                       help="bankroll in units (the flat bet, or the ramp's unit): lifetime "
                            "risk of ruin, certainty equivalent (default: none, those "
                            "figures are left out)")
    if unit:
        add_unit_argument(group)
    group.add_argument("--target-ror", type=probability_value, default=None, metavar="P",
                       help="also the smallest bankroll whose lifetime risk of ruin is at "
                            "most P, e.g. 0.05 (default: not shown)")
    group.add_argument("--trip-rounds", type=rounds_value, default=None, metavar="N",
                       help="with --bankroll: also the trip ruin, P(losing the bankroll "
                            "within N rounds) (default: not shown)")


def add_unit_argument(group) -> None:
    """--unit (game, risk, simulate): money beside the units, in the range check_unit
    takes."""
    group.add_argument("--unit", type=positive_number, default=None, metavar="MONEY",
                       help="what one unit is worth, e.g. 25: amounts are shown in money "
                            "beside their units (default: units only)")


def check_money_arguments(args) -> None:
    if args.trip_rounds is not None and args.bankroll is None:
        raise UsageError("--trip-rounds needs --bankroll (the trip ruin is the chance of "
                         "losing the bankroll within N rounds)")
    check_unit(args)


def check_unit(args) -> None:
    """--unit within the range the ramps take (game, risk, simulate)."""
    from ..risk.ramp import MAX_UNIT, MIN_UNIT
    if args.unit is not None and not MIN_UNIT <= args.unit <= MAX_UNIT:
        raise UsageError(f"--unit must be from {MIN_UNIT:g} to {MAX_UNIT:g} (money per "
                         f"unit), got {args.unit:g}")


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number >= 1")
    return value


def whole_number(low: int, high: int):
    """An argument type: a whole number low..high (say '1..7' when it is not)."""
    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number "
                                             f"{low}..{high}")
        return value
    convert.__name__ = "whole number"
    return convert


def split_class(text: str) -> str:
    """Post-split class, case-insensitive: 'cdz-' -> 'CDZ-'."""
    name = text.strip().upper()
    if name not in SPLIT_CLASSES:
        raise argparse.ArgumentTypeError(
            f"{text[:40]!r} is not a split class; choose from {', '.join(SPLIT_CLASSES)}")
    return name


def preset_name(text: str) -> str:
    name = text.strip().lower()
    if name not in Rules.presets():
        raise argparse.ArgumentTypeError(
            f"{text[:40]!r} is not a preset; known: {', '.join(Rules.presets())}")
    return name


def lower_choice(choices):
    """A case-insensitive choice among ``choices`` (shown in --help as usual)."""
    def convert(text: str) -> str:
        return text.strip().lower()
    convert.__name__ = "choice"
    return convert


# ---- rules and shoe ---------------------------------------------------------------------

# the flags add_rule_arguments adds, as Rules field names (None: flag not given)
_RULE_FIELDS = ("hit_soft_17", "double", "double_soft", "double_any_cards",
                "double_after_split", "max_split_hands", "resplit_aces", "hit_split_aces",
                "surrender", "hole_card", "dealer_wins_ties", "natural_tie")


def add_rule_arguments(parser, *, shoe: bool = True) -> None:
    """The casino-rule flags (and, with ``shoe``, ``--remove``).  Flags override what
    ``--preset`` or ``--rules`` set, which override the defaults of ``bjsolve.Rules``."""
    d = Rules()
    g = parser.add_argument_group("rules (each flag overrides --preset/--rules)")
    base = g.add_mutually_exclusive_group()
    base.add_argument("--preset", type=preset_name, metavar="NAME",
                      help=f"named rule set: {', '.join(Rules.presets())} (default: none)")
    base.add_argument("--rules", dest="rules_text", metavar="SUMMARY",
                      help="the rule summary every table prints, e.g. \"6D H17 DAS LS 6:5\"; "
                           "fields left out keep their defaults")
    size = g.add_mutually_exclusive_group()
    size.add_argument("--decks", type=whole_decks, metavar="N",
                      help=f"number of 52-card decks (default: {d.decks})")
    size.add_argument("--infinite", action="store_true", help="infinite shoe (default: off)")
    s17 = g.add_mutually_exclusive_group()
    s17.add_argument("--h17", dest="hit_soft_17", action="store_true", default=None,
                     help="dealer hits soft 17")
    s17.add_argument("--s17", dest="hit_soft_17", action="store_false",
                     help="dealer stands on soft 17 (default)")
    g.add_argument("--double", type=lower_choice(DOUBLE_CHOICES), choices=DOUBLE_CHOICES,
                   help=f"two-card totals that may double (default: {d.double})")
    g.add_argument("--no-double-soft", dest="double_soft", action="store_false", default=None,
                   help="soft hands may not double (default: they may)")
    g.add_argument("--dan", dest="double_any_cards", action="store_true", default=None,
                   help="double on any number of cards (default: first two only)")
    das = g.add_mutually_exclusive_group()
    das.add_argument("--das", dest="double_after_split", action="store_true", default=None,
                     help="double after split allowed (default)")
    das.add_argument("--no-das", dest="double_after_split", action="store_false",
                     help="no double after split")
    g.add_argument("--max-split-hands", type=int, choices=(1, 2, 3, 4), metavar="{1,2,3,4}",
                   help=f"hands a player may split to, 1 = no splitting "
                        f"(default: {d.max_split_hands})")
    g.add_argument("--rsa", dest="resplit_aces", action="store_true", default=None,
                   help="aces may be resplit (default: no)")
    g.add_argument("--hit-split-aces", action="store_true", default=None,
                   help="split aces may draw more than one card (default: no)")
    g.add_argument("--surrender", type=lower_choice(SURRENDER_CHOICES), choices=SURRENDER_CHOICES,
                   help=f"late: after the dealer checks for a natural; early: before "
                        f"(default: {d.surrender})")
    g.add_argument("--payout", type=payout, metavar="P",
                   help="blackjack payout: 3:2, 6:5 (or 6/5), 1:1 or a number such as 1.2 "
                        "(default: 3:2)")
    g.add_argument("--hole-card", type=lower_choice(HOLE_CARD_CHOICES), choices=HOLE_CARD_CHOICES,
                   help="peek: the dealer checks for a natural (US); enhc / enhc-obo: no hole "
                        "card, a dealer natural takes all bets / the original bet only; "
                        f"exposed: both dealer cards dealt face up (default: {d.hole_card})")
    g.add_argument("--dealer-wins-ties", action="store_true", default=None,
                   help="ties lose instead of pushing (default: ties push); a player "
                        "natural still beats a dealer 21 of three or more cards")
    g.add_argument("--natural-tie", type=lower_choice(NATURAL_TIE_CHOICES),
                   choices=NATURAL_TIE_CHOICES,
                   help="with --dealer-wins-ties: what a player natural does against a "
                        f"dealer natural; win: paid as a natural (default: {d.natural_tie})")
    if shoe:
        parser.add_argument_group("shoe").add_argument(
            "--remove", metavar="CARDS",
            help="cards already out of the shoe, e.g. A,5,T (default: a full shoe)")


def rules_from_args(args) -> Rules:
    """The ``Rules`` the flags describe (``ValueError``/``TypeError`` name a bad field)."""
    text = getattr(args, "rules_text", None)
    if text is not None and not text.strip():
        raise UsageError("--rules: give the rules as every table prints them, e.g. "
                         "--rules \"6D H17 DAS LS 6:5\" (or leave the flag out for the "
                         "defaults)")
    if getattr(args, "preset", None):
        fields = dict(Rules.preset(args.preset).__dict__)
    elif getattr(args, "rules_text", None):
        fields = dict(Rules.parse(args.rules_text).__dict__)
    else:
        fields = {}
    if getattr(args, "infinite", False):
        fields["decks"] = math.inf
    elif getattr(args, "decks", None) is not None:
        fields["decks"] = args.decks
    for name in _RULE_FIELDS:
        value = getattr(args, name, None)
        if value is not None:
            fields[name] = value
    if getattr(args, "payout", None) is not None:
        fields["blackjack_payout"] = args.payout
    rules = Rules(**fields)
    if getattr(args, "natural_tie", None) is not None and not rules.dealer_wins_ties:
        raise UsageError(f"--natural-tie {args.natural_tie}: tied naturals push unless the "
                         "dealer wins ties; add --dealer-wins-ties")
    if rules.switch and getattr(args, "command", "edge") not in SWITCH_COMMANDS:
        # the switch analysis gives the house edge (bjsolve edge) and the figures of the
        # commands in SWITCH_COMMANDS, and the dealer's chances are the same in every
        # game; the other commands' tables are those of one hand: refuse at once rather
        # than after the analysis
        raise NotImplementedError(f"Rules.switch=True (Blackjack Switch): bjsolve "
                                  f"{args.command} "
                                  f"is not computed for the switch game; 'bjsolve edge' "
                                  f"(the default command) gives its house edge; "
                                  f"{', '.join(c for c in SWITCH_COMMANDS if c and c != 'edge')} its "
                                  f"other figures")
    return rules


def shoe_from_args(args, rules: Rules):
    """The shoe: the full shoe of ``rules.decks`` less ``--remove``."""
    from ..model.ranks import ranks
    shoe = rules.shoe()
    removed = getattr(args, "remove", None)
    if removed is None:
        return shoe
    if rules.infinite:
        raise UsageError("--remove: removing cards from an infinite shoe changes nothing; "
                         "give --decks N")
    cards = removed.replace(",", " ").split()
    if not cards:
        raise UsageError("--remove: give the cards to remove, e.g. --remove A,5,T")
    return shoe.remove(*ranks(cards, field="--remove"))


def add_split_argument(parser) -> None:
    parser.add_argument("--split", type=split_class, default="CDZ-", metavar="CLASS",
                        help="post-split strategy class: CDZ- (a split hand played like an "
                             "unsplit hand of the same cards), CDP1 (optimised once, with one "
                             "extra pair card out), CDP (optimised for each number of extra "
                             "pair cards out); docs/split-classes.md; case-insensitive "
                             "(default: CDZ-)")


# ---- output -------------------------------------------------------------------------------

def add_output_arguments(parser, *, formats=TABLE_FORMATS, pictures: bool = False,
                         color: bool = False) -> None:
    """``--format`` and ``--output``; with ``pictures`` also png/svg (matplotlib); with
    ``color`` the ``--color`` flag (commands that print a strategy chart)."""
    choices = tuple(formats) + (PICTURE_FORMATS if pictures else ())
    g = parser.add_argument_group("output")
    g.add_argument("--format", type=lower_choice(choices), choices=choices, default="text",
                   help="; ".join(_FORMAT_HELP[f] for f in choices if f in _FORMAT_HELP)
                        .replace("(fits the terminal)", "(fits the terminal, colour on a "
                                 "terminal)" if color else "(fits the terminal)")
                        + " (default: text)")
    g.add_argument("-o", "--output", metavar="FILE",
                   help="write to FILE instead of standard output (default: stdout)")
    if not color:
        return
    g.add_argument("--color", type=lower_choice(("auto", "always", "never")),
                   choices=("auto", "always", "never"), default="auto",
                   help="colour strategy charts: auto = only on a terminal, and not when "
                        "NO_COLOR is set (default: auto)")


# what each --format gives (the --help of a command lists only the formats it has)
_FORMAT_HELP = {
    "text": "text: for people (fits the terminal)",
    "csv": "csv: pure CSV, notes on stderr",
    "json": "json: one document",
    "markdown": "markdown",
    "html": "html: a self-contained page",
    "index": "index: the index file 'simulate --indices FILE' reads",
    "png": "png/svg: a picture, the chart or an EV heat map, with --output FILE (needs the "
           "[plot] extra: matplotlib)",
}


def out_stream(args):
    """Where a command writes: ``args.out`` (set by ``main``) or stdout."""
    return getattr(args, "out", None) or sys.stdout


def use_color(args, stream) -> bool:
    mode = getattr(args, "color", "never")
    if mode == "always":
        return True
    if mode == "never" or os.environ.get("NO_COLOR") or getattr(args, "output", None):
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def emit(tables, args) -> None:
    """Write one or more ``bjsolve.output.table.Table`` in ``args.format``.

    text/markdown/html: one after the other; csv: one table as a plain grid, several as one
    long grid (table,row,column,value), notes on stderr; json: one document (a single table's
    object, or {"tables": [...]} for several).
    """
    from ..output.render import render_many
    if not isinstance(tables, (list, tuple)):
        tables = [tables]
    fmt = getattr(args, "format", "text")
    stream = out_stream(args)
    if fmt == "csv":
        for note in _csv_notes(tables):
            print(f"# {note}", file=sys.stderr)
    path = getattr(args, "output", None)
    if fmt in PICTURE_FORMATS and not path:
        try:
            to_terminal = stream.isatty()
        except (AttributeError, ValueError):
            to_terminal = False
        if to_terminal:
            raise UsageError(f"--format {fmt}: give --output FILE (a picture is not for a "
                             "terminal)")
    data = render_many(tables, fmt, color=use_color(args, stream) and fmt == "text",
                       width=None if path else terminal_width())
    write_output(data, args)


def write_output(data, args) -> None:
    """Write text or bytes to ``--output`` or the command's stream."""
    path = getattr(args, "output", None)
    if path:
        mode = "wb" if isinstance(data, bytes) else "w"
        try:
            with open(path, mode, encoding=None if isinstance(data, bytes) else "utf-8") as f:
                f.write(data)
        except OSError as exc:
            raise EnvironmentFailure(f"--output {path}: cannot write it: "
                                     f"{exc.strerror or one_line(exc)}") from None
        return
    stream = out_stream(args)
    if isinstance(data, bytes):
        buffer = getattr(stream, "buffer", None)
        if buffer is None:
            raise UsageError("a picture needs --output FILE here")
        stream = buffer
    try:
        stream.write(data)
        stream.flush()       # a full device fails here, not at the interpreter's exit
    except BrokenPipeError:
        raise
    except OSError as exc:
        failure = EnvironmentFailure(f"cannot write the output: "
                                     f"{exc.strerror or one_line(exc)}")
        failure.on_stdout = stream in (sys.stdout, getattr(sys.stdout, "buffer", None))
        raise failure from None


def _csv_notes(tables):
    from ..output.render import units
    notes = []
    for t in tables:
        for n in (t.title, f"{t.name}: values are {units(t)}") + tuple(t.notes):
            if n not in notes:
                notes.append(n)
    return notes


def terminal_width() -> int:
    """Columns for text output: $COLUMNS, else the terminal's, else 80."""
    return max(40, shutil.get_terminal_size((80, 24)).columns)


# ---- progress -----------------------------------------------------------------------------

@contextlib.contextmanager
def progress(args, total=None, label="working"):
    """A progress bar with an ETA on stderr while the body runs, only when stderr is a
    terminal and only once the work has taken a second.  Yields ``update(done, total)``,
    the callback the long computations take."""
    from ..output.progress import ProgressBar
    bar = ProgressBar(label)
    try:
        yield bar
    finally:
        try:
            bar.close()
        except Exception:        # noqa: BLE001 -- a Ctrl-C that came while rich started
            pass                 # the bar leaves it half started; the results matter more


def add_after_double_argument(parser) -> None:
    """--no-after-double: leave out the after-double chart (games with redoubles or double
    rescue print it after the basic-strategy chart)."""
    parser.add_argument("--no-after-double", dest="after_double", action="store_false",
                        help="games with redoubles or double rescue: leave out the chart "
                             "for the choice after a double (default: printed after the "
                             "basic-strategy chart)")


def wants_after_double(rules, args) -> bool:
    """True where the rules give a choice after a double and the command line keeps it,
    for a game with one dealer upcard (the exposed game has no such chart)."""
    from ..exact.after_double_table import has_choice
    return (getattr(args, "after_double", False) and has_choice(rules)
            and rules.hole_card != "exposed")


def after_double_chart_for(solution, args):
    """The total-dependent after-double chart of ``solution`` when ``wants_after_double``,
    else None."""
    if not wants_after_double(solution.rules, args):
        return None
    from ..exact.after_double_table import AfterDoubleTotals
    return AfterDoubleTotals(solution)
