"""Exact index numbers for a count system: the true count at which a play changes.

Method (stated with every table; docs/counting.md explains it): for each true count TC on
a grid, build the shoe at that true count (``counting.shoe_at_true_count``: half the shoe
dealt unless told otherwise, fractional counts so the count is met exactly), solve it
exactly and read the values of every two-card hand against every upcard (hard and soft
rows: probability-weighted over the non-pair compositions of the total, as in the
basic-strategy chart; pairs: the pair itself; ``shoe_values.two_card_rows``).  Where the
best play of a row changes between two grid points, the crossing is where the linear
interpolation of the two plays' value difference is 0, and the index is that crossing made
an integer by the counter's true-count convention (``TC_ROUNDINGS``).
Insurance is taken when 3 x P(ten) >= 1 with the dealer's ace out.
"""
from __future__ import annotations

import math
import numbers
import os
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace

from ..exact.kernel_rules import check_threads
from ..model.actions import first_best
from ..model.hands import PAIR_CODES, hand_code
from ..model.ranks import UPCARD_ORDER, ranks, show
from ..model.rules import Rules
from ..output.notebook import index_table_frame, index_table_html
from ..output.progress import progress_callback
from .index_file import MAX_INDEX_TC, parse_index_file
from .index_file import read_index_file as _read_index_file
from .removal import check_rules, count_tags, integer_grid, true_count_shoes
from .shoe_values import HANDS, shoe_values, two_card_weights

ACTION_NUMBER = {"stand": 1, "hit": 2, "double": 3, "split": 4, "surrender": 5}
ROW_ORDER = ([str(t) for t in range(4, 21)] + [f"A{k}" for k in range(2, 10)] + list(PAIR_CODES))

# How a counter turns the exact true count x into the integer T compared with an index
# (act at T >= index):
#   "exact"    no integer step: the index is the crossing rounded ("rounded") or ceiled
#              ("ceiled") to an integer, as chosen by ``index_rounding``;
#   "floor"    T = floor(x): bins [k, k + 1);
#   "truncate" T = x with its fraction dropped towards 0: bins (k - 1, k] below 0,
#              (-1, 1) for 0, [k, k + 1) above;
#   "round"    T = x rounded to the nearest integer: bins [k - 1/2, k + 1/2).
# With an integer convention the counter acts on a whole bin; under values linear in the
# true count (and true counts spread evenly within a bin) the new play pays on a bin exactly
# when the bin's midpoint lies at or beyond the crossing, so the index is the smallest k
# whose bin midpoint is >= the crossing.
TC_ROUNDINGS = ("floor", "truncate", "round", "exact")   # as count_distribution.TC_ROUNDINGS
INDEX_ROUNDINGS = ("rounded", "ceiled")

# The published Hi-Lo lists (multi-deck, S17, DAS, peek): (row, upcard, play, index).
# Illustrious 18 (insurance, the 18th, is IndexTable.insurance) and Fab 4 (late surrender).
ILLUSTRIOUS_18 = (("16", 10, "stand", 0), ("15", 10, "stand", 4), ("TT", 5, "split", 5),
                  ("TT", 6, "split", 4), ("10", 10, "double", 4), ("12", 3, "stand", 2),
                  ("12", 2, "stand", 3), ("11", 1, "double", 1), ("9", 2, "double", 1),
                  ("10", 1, "double", 4), ("9", 7, "double", 3), ("16", 9, "stand", 5),
                  ("13", 2, "stand", -1), ("12", 4, "stand", 0), ("12", 5, "stand", -2),
                  ("12", 6, "stand", -1), ("13", 3, "stand", -2))
ILLUSTRIOUS_18_INSURANCE = 3
FAB_4 = (("14", 10, "surrender", 3), ("15", 10, "surrender", 0), ("15", 9, "surrender", 2),
         ("15", 1, "surrender", 1))
NAMED_SETS = {"i18": ILLUSTRIOUS_18, "fab4": FAB_4}


def bin_midpoint(k: int, convention: str) -> float:
    """The middle of the exact true counts that ``convention`` maps to the integer k."""
    if convention == "floor":
        return k + 0.5
    if convention == "round":
        return float(k)
    if convention == "truncate":
        return 0.0 if k == 0 else (k + 0.5 if k > 0 else k - 0.5)
    raise ValueError(f"no bins for convention {convention!r}")


def integer_index(crossing: float, tc_rounding: str, index_rounding: str = "rounded") -> int:
    """The integer index of a play that becomes better at the exact true count
    ``crossing`` (see ``TC_ROUNDINGS``)."""
    if tc_rounding == "exact":
        if index_rounding == "ceiled":
            return int(math.ceil(crossing - 1e-9))
        return int(math.floor(crossing + 0.5))
    k = int(math.floor(crossing)) - 2
    while bin_midpoint(k, tc_rounding) < crossing - 1e-9:
        k += 1
    return k


@dataclass(frozen=True)
class IndexLine:
    """Play by true count for one row against one upcard: ``plays[0]`` below
    ``thresholds[0]``, ``plays[i]`` from ``thresholds[i - 1]`` (inclusive) up to
    ``thresholds[i]``.  ``crossings`` are the exact true counts where the two plays are
    worth the same (linear interpolation between grid points); ``thresholds`` are the
    integer indices (the crossings rounded to the nearest integer, or ceiled).
    ``options`` are the plays the line chooses among (all of a two-card hand's options, or
    only stand and hit: a hand that may no longer double, split or surrender)."""
    row: str
    dealer: int     # the dealer's upcard, 1 (ace) .. 10
    plays: list
    crossings: list
    thresholds: list
    options: tuple = ("stand", "hit", "double", "split", "surrender")
    file_count: int | None = None   # the hand number of a line read from an index file

    def play_at(self, tc: float) -> str:
        """The play at true count ``tc`` (the last play whose threshold ``tc`` reaches)."""
        for play, t in zip(self.plays, self.thresholds):
            if tc < t:
                return play
        return self.plays[-1]

    def index_file_line(self) -> str:
        """``count up dbl spl sur p1 tc1 p2 tc2 ... pk +1000``: count is the hand's total
        (negative for soft: A,6 is -17; a pair gives its total, A,A -12); up the upcard
        (1 ace ... 10); dbl, spl, sur are 1 when the line is for a hand that may double,
        split, surrender (0 0 0: stand or hit only, e.g. after a hit); plays are numbered 1
        stand, 2 hit, 3 double, 4 split, 5 surrender; play p_i holds below tc_i (act at
        TC >= tc_i on the next play), the last one up to +1000."""
        soft = self.row.startswith("A") and self.row not in PAIR_CODES
        if self.file_count is not None:
            total = self.file_count      # as read (written back unchanged)
        elif self.row in PAIR_CODES:
            r = self.row[0]
            total = -12 if r == "A" else 2 * (10 if r == "T" else int(r))
        else:
            total = -(11 + int(self.row[1:])) if soft else int(self.row)
        flags = [int(a in self.options) for a in ("double", "split", "surrender")]
        parts = [str(total), str(self.dealer), *map(str, flags)]
        for play, t in zip(self.plays, self.thresholds):
            parts += [str(ACTION_NUMBER[play]), f"{t:+d}"]
        parts += [str(ACTION_NUMBER[self.plays[-1]]), "+1000"]
        return " ".join(parts)


@dataclass(frozen=True)
class IndexTable:
    """Index numbers of one count system: ``lines`` maps (row, upcard) to the
    ``IndexLine`` of every two-card row whose best play changes on the grid;
    ``all_lines`` holds every row and upcard (two-card options, and stand-or-hit only);
    ``gains`` maps (row, upcard) to the value of playing that line instead of the
    play at true count 0 (see ``index_gain``)."""
    system: str
    rules: Rules
    dealt_decks: float | None   # None: lines read from an index file
    true_counts: tuple     # the whole true counts the shoes were built at
    index_rounding: str    # with tc_rounding "exact": how a crossing becomes a whole index
    lines: dict            # (row, upcard) -> IndexLine, only rows whose play changes
    insurance: int | None  # insure at TC >= this (None: never on the grid)
    insurance_crossing: float | None
    all_lines: list | None = None  # every row and upcard, two-card options and stand/hit only
    tc_rounding: str = "floor"
    unreachable: tuple = ()   # grid TCs out of reach at this depth (left out)
    gains: dict = field(default_factory=dict)
    selection: str = "all"
    hands: str = "two-card"

    def index_file(self) -> str:
        """Every line (``IndexLine.index_file_line``), upcard by upcard: the two-card
        hands with all their options, then stand-or-hit lines for hands that can no longer
        double, split or surrender."""
        return "".join(line.index_file_line() + "\n" for line in self.all_lines or ())

    def __repr__(self):
        # the dataclass repr would print every line of the table (about 100 KB)
        insurance = "never" if self.insurance is None else f"at TC >= {self.insurance:+d}"
        tcs = self.true_counts
        grid = f"{tcs[0]:+d}..{tcs[-1]:+d}" if tcs else "empty"
        return (f"IndexTable(system={self.system!r}, rules={self.rules.describe()!r}, "
                f"{len(self.lines)} index lines, insurance {insurance}, true counts {grid}, "
                f"tc_rounding={self.tc_rounding!r}, hands={self.hands!r}, "
                f"selection={self.selection!r})")

    def index(self, row, dealer, play: str) -> int | None:
        """The integer TC from which ``play`` is the play: None if it never becomes it on
        the grid, and also for a row whose play does not change on the grid at all (20 v 6
        stand: always the play, no index; ``all_lines`` holds those rows' plays).
        ``row``: a chart row ("16", "A7", "88"), a hard total (16) or the cards ("T6");
        ``dealer``: the upcard, any card spelling (10, "T", "K", 1, "A"); ``play``: stand,
        hit, double, split or surrender.  A row, upcard or play that does not exist is an error
        (not None, which would read as "never")."""
        line = self.lines.get((_index_row(row), _index_upcard(dealer)))
        play = _index_play(play)
        if line is None:
            return None
        for i, p in enumerate(line.plays):
            if p == play and i > 0:
                return line.thresholds[i - 1]
        return None

    def select(self, which: int | str | list | tuple) -> "IndexTable":
        """The same table keeping only the lines that matter most: ``which`` an int N (the
        N lines of largest gain, ``index_gain``), the name of a published list ("i18": the
        Illustrious 18, "fab4": the Fab 4 surrenders; "all": every line), or a list of
        those: their lines together.  A hand in two lists (15 v T is in both i18 and fab4)
        keeps its one line of this table, with every play of the hand.  Insurance stays."""
        items = list(which) if isinstance(which, (list, tuple)) else [which]
        if not items:
            raise ValueError("select: give a number of lines >= 1 or one of "
                             f"{', '.join(NAMED_SETS)}, got an empty list")
        keep, labels = [], []
        for item in items:
            rows, label_ = self._selected(item)
            keep += rows
            labels.append(label_)
        lines = {k: self.lines[k] for k in dict.fromkeys(keep) if k in self.lines}
        # the index file lists the kept rows only (their two-card and stand-or-hit lines):
        # every other decision stays the chart's, as in the counted game
        all_lines = [line for line in self.all_lines or () if (line.row, line.dealer) in lines]
        return replace(self, lines=lines, all_lines=all_lines,
                       selection=" + ".join(dict.fromkeys(labels)))

    def _selected(self, which) -> tuple:
        """(the (row, upcard) keys ``which`` names, its label) for ``select``."""
        if isinstance(which, str):
            key = _set_key(which)
            if key == "all":
                return list(self.lines), "all"
            if key not in NAMED_SETS:
                raise ValueError(f"unknown index set {which!r}; known: {', '.join(NAMED_SETS)} "
                                 f"(or a number of lines)")
            return [(row, up) for row, up, _, _ in NAMED_SETS[key]], key
        if isinstance(which, numbers.Integral) and not isinstance(which, bool) and int(which) >= 1:
            which = int(which)
            return (sorted(self.lines, key=lambda k: -self.gains.get(k, 0.0))[:which],
                    f"top {which} by gain")
        raise ValueError(f"select: give a number of lines >= 1 or one of "
                         f"{', '.join(NAMED_SETS)}, got {str(which)[:40]!r}")

    def method(self) -> str:
        if not self.true_counts:       # lines read from an index file, not computed here
            return f"{self.system}: index lines as read from {self.selection}"
        if self.tc_rounding == "exact":
            making = (f"the true count where the plays are worth the same, "
                      f"{self.index_rounding} to an integer")
        else:
            made = {"floor": "floored", "truncate": "truncated", "round": "rounded"}
            making = (f"the smallest integer whose "
                      f"{made.get(self.tc_rounding, self.tc_rounding)} true-count bin has "
                      f"its middle at or beyond the true count where the plays are worth the "
                      f"same")
        out = (f"{self.system}: true count = running count / decks remaining, counted before "
               f"the round; shoes built at {self.dealt_decks:g} of {self.rules.decks} decks "
               f"dealt, removals proportional within tag classes (fractional counts, so the "
               f"count is met exactly); exact values of "
               + ("the two-card hands" if self.hands == "two-card" else
                  "every hand of each total the player meets, weighted by how often (pairs: "
                  "two cards)")
               + f" (split CDZ-); "
               f"index = {making} (true counts {self.true_counts[0]:+d}.."
               f"{self.true_counts[-1]:+d}); act at "
               f"TC >= index")
        if self.unreachable:
            out += ("; out of reach at this depth (a rank would run out): TC "
                    + ", ".join(f"{t:+d}" for t in self.unreachable))
        if self.selection != "all":
            out += f"; lines shown: {self.selection}"
        return out

    def to_pandas(self):
        """One row per index number: hand, dealer (the upcard), play_below, index (a whole
        true count), play_from (the play at and above it), crossing (the exact true count
        where the two plays are worth the same), gain (``gains``).  Needs pandas."""
        return index_table_frame(self)

    def _repr_html_(self):
        return index_table_html(self)


# ---- what a caller may give as index plays ----------------------------------------------
# CountedGame, simulate and the command line's --indices all take index plays through
# ``as_index_table``: one conversion, so each accepts the same things with the same meaning.

INDICES_FORMS = ("a named set ('i18', 'fab4', 'all'), a whole number N (the N lines of "
                 "largest gain), a list of those or a comma list 'i18,fab4', an index file "
                 "(path or text), an IndexTable, or a list mixing them")

_EXACT_TABLES: dict = {}    # (rules, system, tc_rounding) -> the exact IndexTable


def exact_index_table(rules: Rules, system, tc_rounding: str, threads=None) -> IndexTable:
    """``generate_indices(rules, system, tc_rounding=...)``, made once per rules, system
    and convention (``threads``: for its solves; the table does not depend on them)."""
    key = (rules, system if isinstance(system, str) else tuple(system), tc_rounding)
    if key not in _EXACT_TABLES:
        _EXACT_TABLES[key] = generate_indices(rules, system, tc_rounding=tc_rounding,
                                              threads=threads)
    return _EXACT_TABLES[key]


def _set_key(text: str) -> str:
    """"I18", "fab-4", " All " -> "i18", "fab4", "all"."""
    return text.strip().lower().replace("-", "").replace("_", "")


def _set_word(item):
    """A selection ``IndexTable.select`` takes ("all", a named set's key, or a number of
    lines >= 1) from ``item``, or None when ``item`` is not one."""
    if isinstance(item, numbers.Integral) and not isinstance(item, bool):
        return int(item) if item >= 1 else None
    if isinstance(item, str) and "\n" not in item:
        key = _set_key(item)
        if key == "all" or key in NAMED_SETS:
            return key
        if key.isdigit() and int(key) >= 1:
            return int(key)
    return None


def index_set_word(item):
    """The selection ``IndexTable.select`` takes ("all", a named set's key, or a number
    of lines >= 1) that ``item`` names, or None when it names none (a file, a table)."""
    return _set_word(item)


def as_index_table(indices, rules: Rules, system="hilo", *, tc_rounding: str = "floor",
                   threads=None):
    """The index plays of a counted game as an ``IndexTable`` (None: no index plays).

    indices:
      None or False: no index plays;
      True or "all": every line of the exact table (``generate_indices(rules, system,
          tc_rounding=tc_rounding)``, made once per rules, system and convention);
      "i18", "fab4" (any case, "I-18"): the exact table's lines of that published list;
      a whole number N (or its digits): the N lines of largest gain (``IndexTable.select``);
      an index file: a path (str or os.PathLike) or its text (``IndexTable.index_file``'s
          format), its "# insurance:" line as ``bjsolve indices --format index`` writes it;
          a set's name is read as the set (give a file named "i18" as "./i18");
      an ``IndexTable`` (or anything with ``.lines`` and ``.insurance``): itself;
      a list or tuple of any of these, or a comma list "i18,fab4": their lines together.
    Together: named sets are cut from the one exact table, so a hand in two of them (15 v T
    is in both i18 and fab4) plays its one exact line, with every play of the hand.  A hand
    (row, upcard and options) given two DIFFERENT lines (two files, a file and a set) is
    refused with a ValueError naming the hand, as two lines for one hand within an index
    file are; so are two different insurance indices.
    """
    if indices is None or indices is False:
        return None
    if indices is True:
        indices = "all"
    if isinstance(indices, (list, tuple)):
        items = list(indices)
    elif isinstance(indices, str) and "," in indices and "\n" not in indices \
            and not os.path.exists(indices):
        items = [part for part in indices.split(",") if part.strip()]
    else:
        items = [indices]
    if not items:
        raise ValueError(f"indices: an empty list; give {INDICES_FORMS}")
    words = [w for w in map(_set_word, items) if w is not None]
    tables = []
    if words:
        exact = exact_index_table(rules, system, tc_rounding, threads)
        tables.append(exact if words == ["all"] else exact.select(words))
    for item in items:
        if _set_word(item) is None:
            tables.append(_one_table(item, rules, system))
    return tables[0] if len(tables) == 1 else _together(tables, rules)


def _one_table(item, rules, system):
    """An index table from one item that is not a set's name (see ``as_index_table``)."""
    if isinstance(item, IndexTable) or (hasattr(item, "lines") and hasattr(item, "insurance")):
        return item
    if isinstance(item, os.PathLike) or (isinstance(item, str) and "\n" not in item
                                         and os.path.exists(item)):
        text = _read_index_file(item)
        return index_table_from_file(text, rules, system, source=f"index file {os.fspath(item)}")
    if isinstance(item, numbers.Integral) and not isinstance(item, bool):
        raise ValueError(f"indices: a number of lines must be >= 1, got {item}")
    if isinstance(item, str):
        if "\n" not in item and len(item.split()) < 7:
            raise ValueError(f"indices: {show(item)} is neither an index file that exists, "
                             f"the text of one, nor an index set (i18, fab4, all, a number "
                             f"of lines)")
        return index_table_from_file(item, rules, system, source="index file")
    raise TypeError(f"indices must be {INDICES_FORMS}, got {type(item).__name__}")


def index_table_from_file(text: str, rules: Rules, system="hilo", *,
                          source: str = "index file") -> IndexTable:
    """The lines of an index file (``bjsolve.simulation.game_plan.parse_index_file``: a bad line is
    named) as an ``IndexTable`` whose ``index_file()`` writes them back unchanged; its
    insurance index from the "# insurance:" line, if any."""
    all_lines = []
    for play in parse_index_file(text, source=source):
        may = dict(zip(("double", "split", "surrender"), play.flags))
        options = ("stand", "hit") + tuple(a for a in ("double", "split", "surrender") if may[a])
        all_lines.append(IndexLine(_row_of_count(play.count, bool(may["split"])), play.dealer,
                                   list(play.plays), [float(t) for t in play.thresholds],
                                   list(play.thresholds), options, file_count=play.count))
    # (row, upcard) -> the line of most options whose play changes
    lines: dict[tuple, IndexLine] = {}
    for line in all_lines:
        key = (line.row, line.dealer)
        if len(line.plays) > 1 and len(line.options) > len(getattr(lines.get(key), "options", ())):
            lines[key] = line
    return IndexTable(str(system), rules, None, (), "as written", lines, file_insurance(text),
                      None, all_lines, "as written", selection=source)


def _row_of_count(count: int, may_split: bool) -> str:
    """The chart row (``hands.hand_code``) of an index file's hand number: a pair when the
    line may split (A,A -12, else half the total), a soft total "A2".."A9" (soft 12 "AA"),
    else the hard total.  A number no hand has keeps a row no hand meets ("A-5", "3")."""
    if may_split and (count == -12 or (count > 0 and count % 2 == 0 and 4 <= count <= 20)):
        return "AA" if count == -12 else ("T" if count == 20 else str(count // 2)) * 2
    if count < 0:
        return "AA" if count == -12 else f"A{-count - 11}"
    return str(count)


def file_insurance(text: str):
    """The insurance index of an index file, from the comment line ``bjsolve indices
    --format index`` writes ('# insurance: take at TC >= +3'): an int, else None (never,
    or nothing said)."""

    for number, line in enumerate(text.splitlines(), 1):
        m = re.match(r"#\s*insurance:\s*take at TC >= ([+-]?\d+)", line.strip())
        if m:
            digits = m.group(1).lstrip("+-")
            if len(digits) > 7 or not -MAX_INDEX_TC <= int(m.group(1)) <= MAX_INDEX_TC:
                shown = m.group(1) if len(digits) <= 20 else f"a number of {len(digits)} digits"
                raise ValueError(f"index file line {number}: the insurance index {shown} is "
                                 f"out of range; allowed: whole true counts -{MAX_INDEX_TC}.."
                                 f"+{MAX_INDEX_TC}")
            return int(m.group(1))
    return None


def _hand_words(line) -> str:
    may = [a for a in ("double", "split", "surrender") if a in line.options]
    return (f"{line.row} v {show(line.dealer)} ("
            + (f"may {', '.join(may)}" if may else "stand or hit only") + ")")


def _together(tables, rules: Rules) -> IndexTable:
    """The lines of several index tables as one (``as_index_table``): a hand given two
    different lines, or two different insurance indices, is refused."""
    by_hand: dict = {}
    for table in tables:
        for line in getattr(table, "all_lines", None) or list(table.lines.values()):
            hand = (line.row, line.dealer, tuple(a in line.options for a in
                                                 ("double", "split", "surrender")))
            seen = by_hand.setdefault(hand, line)
            if (seen.plays, seen.thresholds) != (line.plays, line.thresholds):
                raise ValueError(
                    f"indices: two different lines for {_hand_words(line)}: "
                    f"{seen.index_file_line()!r} and {line.index_file_line()!r}; give one "
                    f"line per hand")
    insurance = {t.insurance for t in tables if t.insurance is not None}
    if len(insurance) > 1:
        raise ValueError(f"indices: two different insurance indices, "
                         f"{', '.join(f'{i:+d}' for i in sorted(insurance))}; give one")
    lines: dict[tuple, IndexLine] = {}
    for line in by_hand.values():
        key = (line.row, line.dealer)
        if len(line.plays) > 1 and len(line.options) > len(getattr(lines.get(key), "options", ())):
            lines[key] = line
    first = next((t for t in tables if isinstance(t, IndexTable)), None)
    base = first if first is not None else IndexTable(
        "index plays", getattr(tables[0], "rules", rules), None, (),
        "as written", {}, None, None, tc_rounding="as written")
    return replace(base, lines=lines, all_lines=list(by_hand.values()),
                   insurance=next(iter(insurance), None), insurance_crossing=None,
                   selection=" + ".join(str(getattr(t, "selection", "index plays"))
                                        for t in tables))


def _crossing(tc0, d0, tc1, d1) -> float:
    """Where the linear interpolation of the value difference between two grid points is 0."""
    if d1 == d0:
        return float(tc1)
    return tc0 + (tc1 - tc0) * (0.0 - d0) / (d1 - d0)


def _on_two_threads(work, shoes) -> dict:
    """{shoe: work(shoe)}, two shoes at a time (each solve runs its upcards in parallel too;
    two at a time keep both cores busy through each solve's slow last upcard)."""
    pool = ThreadPoolExecutor(max_workers=max(1, min(2, os.cpu_count() or 1)))
    try:
        rows_at = dict(zip(shoes, pool.map(work, shoes)))
    except BaseException:
        # Ctrl-C (or an error): drop the queued shoes and return at once; a solve
        # already running cannot be stopped midway and ends on its own
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    return rows_at


def generate_indices(rules: Rules, system="hilo", *, true_counts=range(-10, 16),
                     dealt_decks: float | None = None, tc_rounding: str = "floor",
                     index_rounding: str = "rounded", hands: str = "two-card",
                     progress=None, threads: int | None = None) -> IndexTable:
    """Exact index numbers for every row and upcard whose best play changes on the grid.

    true_counts: the grid of whole true counts, strictly increasing (at least two
        reachable ones), as ``counting.advantage_by_true_count`` takes them.
    tc_rounding: how the counter makes the true count an integer (``TC_ROUNDINGS``):
        "floor" (the default, as ``CountedGame`` and ``simulate``), "truncate", "round",
        or "exact" (no integer step: the crossing is then made an integer by
        ``index_rounding``: "rounded", the nearest integer, or "ceiled", the smallest
        integer TC at which the new play is at least as good).
    hands: which hands a hard or soft row stands for: "two-card" (the dealt hands of the
        total) or "all" (every hand of the total the player meets, however many cards,
        weighted by how often it is met; ``shoe_values.all_hand_rows``).
    Grid points out of reach at this depth (a tag class would run out of a rank: a very
    high or low count in a small shoe) are left out and named in ``method()``.
    Every solve is shared with other calls on the same rules and shoes (``shoe_values``).
    threads: threads for the solves (default: every core); 1 starts no thread (the table
        does not depend on it).
    """
    progress = progress_callback(progress, "indices")   # True: a bar with an ETA
    check_rules(rules)
    if rules.infinite:
        raise ValueError("index numbers need a finite shoe (Rules.decks)")
    if rules.hole_card == "exposed":
        raise ValueError("index numbers are for games with one dealer upcard")
    if index_rounding not in INDEX_ROUNDINGS:
        raise ValueError(f"index_rounding must be 'rounded' or 'ceiled', got "
                         f"{str(index_rounding)[:40]!r}")
    if tc_rounding not in TC_ROUNDINGS:
        raise ValueError(f"tc_rounding must be one of {', '.join(TC_ROUNDINGS)}, got "
                         f"{str(tc_rounding)[:40]!r}")
    if index_rounding == "ceiled" and tc_rounding != "exact":
        raise ValueError(f"index_rounding='ceiled' goes with tc_rounding='exact' (a whole "
                         f"true count, {tc_rounding}, has its own index), got "
                         f"tc_rounding={tc_rounding!r}")
    if hands not in HANDS:
        raise ValueError(f"hands must be one of {', '.join(HANDS)}, got {str(hands)[:40]!r}")
    count_tags(system)  # validates
    if threads is not None:
        threads = check_threads(threads)
    grid = integer_grid(true_counts, "true_counts")
    dealt = rules.decks / 2 if dealt_decks is None else dealt_decks
    shoes, unreachable = true_count_shoes(rules, system, grid, dealt)
    if len(shoes) < 2:
        raise ValueError(f"index numbers need at least two reachable true counts on the grid; "
                         f"reachable at this depth: {', '.join(map(str, shoes)) or 'none'}")
    done = [0]
    done_lock = threading.Lock()

    def work(tc):
        values = shoe_values(rules, shoes[tc], "CDZ-", hands=hands, threads=threads)
        if progress is not None:
            with done_lock:      # (each count reported once, in order)
                done[0] += 1
                progress(done[0], len(shoes))
        # (a two-card request may be served by an entry that has all_rows too)
        return values.rows, values.all_rows if hands == "all" else None

    if threads == 1:
        rows_at = {tc: work(tc) for tc in shoes}
    else:
        rows_at = _on_two_threads(work, shoes)
    reach = tuple(shoes)

    lines, all_lines, gains = {}, [], {}
    for u in UPCARD_ORDER:
        for stand_hit_only in (False, True):
            for row in ROW_ORDER:
                if stand_hit_only and row in PAIR_CODES:
                    continue  # an unsplit pair plays on as its total's row
                pts = []
                for tc in reach:
                    two, every = rows_at[tc]
                    if u in two and row in two[u]:
                        sh = every[u].get(row) if every is not None and u in every else None
                        pts.append(Point(tc, two[u][row], sh))
                if not pts:
                    continue
                if stand_hit_only:
                    if set(pts[0].two_card) <= {"stand", "hit"}:
                        continue  # the two-card line already is the stand-or-hit line
                    pts = [Point(p.tc, {a: p.value(a) for a in ("stand", "hit")}, None)
                           for p in pts]
                line = _index_line(row, u, pts, tc_rounding, index_rounding)
                all_lines.append(line)
                if not stand_hit_only and len(line.plays) > 1:
                    lines[(row, u)] = line
                    gains[(row, u)] = index_gain(line, pts, rules, system, shoes)
    insurance, crossing = insurance_index(shoes, tc_rounding, index_rounding)
    return IndexTable(str(system), rules, dealt, grid, index_rounding, lines, insurance,
                      crossing, all_lines, tc_rounding, tuple(unreachable), gains, "all", hands)


def insurance_ev_at(shoe, player_cards: int = 0) -> float:
    """EV per unit of insurance (pays 2:1) on ``shoe`` (the cards unseen at a true
    count), the dealer's ace out and ``player_cards`` cards of the player's hands out
    unread (an index is read from the count alone): 3 P(ten in the hole) - 1.  The
    player's cards are a random draw from the shoe, so they take a share player_cards /
    (N - 1) of each rank on average and leave the ten's chance T / (N - 1) as it was
    (every order of the unseen cards is equally likely: the hole card is as likely a
    ten as any of them); they are taken out all the same, in that expectation, to say
    so (Blackjack Switch: four cards)."""
    left = list(shoe.counts)
    left[0] -= 1
    if player_cards:
        size = sum(left)
        left = [c - player_cards * c / size for c in left]
    return 3 * left[9] / sum(left) - 1


def insurance_index(shoes: dict, tc_rounding: str, index_rounding: str = "rounded",
                    player_cards: int = 0) -> tuple:
    """(index, crossing) of insurance on ``shoes`` {whole true count: the shoe at it},
    in increasing order: the first count whose insurance EV (``insurance_ev_at``) is >= 0,
    the crossing linear between it and the count before, made whole by the true-count
    convention (``integer_index``); (None, None) when insurance never pays on the grid."""
    prev = None
    for tc in shoes:
        ev = insurance_ev_at(shoes[tc], player_cards)
        if ev >= 0:
            crossing = float(tc) if prev is None else _crossing(prev[0], prev[1], tc, ev)
            return integer_index(crossing, tc_rounding, index_rounding), crossing
        prev = (tc, ev)
    return None, None


@dataclass(frozen=True)
class Point:
    """A row's values at one grid true count: ``two_card`` {action: value} of the two-card
    hands, and with hands="all" ``stand_hit`` {stand, hit} over every hand of the total."""
    tc: int
    two_card: dict
    stand_hit: dict | None = None

    def value(self, action: str) -> float:
        if self.stand_hit is not None and action in self.stand_hit:
            return self.stand_hit[action]
        return self.two_card[action]

    def play(self) -> str:
        """The best play: a two-card-only play (double, split, surrender) when it beats
        stand and hit on the two-card hands; otherwise stand or hit, chosen on every hand
        of the total when those values are given."""
        best = first_best(self.two_card)
        if self.stand_hit is not None and best in ("stand", "hit"):
            best = first_best(self.stand_hit)
        assert best is not None    # (both hold stand and hit)
        return best

    def gap(self, new: str, old: str) -> float:
        """value(new) - value(old), both from the same hands (every hand of the total for
        stand against hit when given, else the two-card hands)."""
        if {new, old} == {"stand", "hit"} and self.stand_hit is not None:
            return self.stand_hit[new] - self.stand_hit[old]
        return self.two_card[new] - self.two_card[old]


def _index_line(row, u, pts, tc_rounding, index_rounding) -> IndexLine:
    """The line of one row from its values on the grid (a list of ``Point``)."""
    plays = [p.play() for p in pts]
    seq, crossings = [plays[0]], []
    for i in range(1, len(pts)):
        if plays[i] != seq[-1]:
            old, new = seq[-1], plays[i]
            p0, p1 = pts[i - 1], pts[i]
            d0 = p0.gap(new, old) if old in p0.two_card and new in p0.two_card else -1.0
            d1 = p1.gap(new, old)
            crossings.append(_crossing(p0.tc, d0, p1.tc, d1))
            seq.append(new)
    return IndexLine(row, u, seq, crossings,
                     [integer_index(c, tc_rounding, index_rounding) for c in crossings],
                     tuple(pts[0].two_card))


def true_count_weights(rules: Rules, system, shoes: dict) -> dict:
    """{TC: approximate share of rounds at that true count} for the grid's shoes, by the
    normal approximation to the running count after the shoes' depth (a sample without
    replacement: variance k (N - k) / (N - 1) x the tags' variance) divided by the decks
    left; each TC takes the probability of its unit-wide bin around it.  Only used to
    rank index lines by how much they are worth."""
    tags = count_tags(system)
    full = list(rules.shoe().counts)
    n = sum(full)
    mean = sum(t * c for t, c in zip(tags, full)) / n
    var = sum(c * (t - mean) ** 2 for t, c in zip(tags, full)) / n
    any_shoe = next(iter(shoes.values()))
    left = any_shoe.size
    k = n - left
    sd = math.sqrt(max(var * k * (n - k) / (n - 1), 0.0)) / (
        left / (48 if rules.spanish_deck else 52))
    if sd == 0.0:
        return {tc: float(tc == 0) for tc in shoes}

    def cdf(x):
        return 0.5 * math.erfc(-x / (sd * math.sqrt(2.0)))
    return {tc: cdf(tc + 0.5) - cdf(tc - 0.5) for tc in shoes}


def index_gain(line: IndexLine, pts, rules: Rules, system, shoes: dict) -> float:
    """What a line is worth per round (fraction of a bet, approximate): the chance of the
    deal (two-card hand and upcard, in the full shoe) times the true-count-weighted
    (``true_count_weights``) gain of playing the line's integer indices over always
    making the play at true count 0 (or the grid point nearest it)."""
    weights = true_count_weights(rules, system, shoes)
    base_tc = min((p.tc for p in pts), key=abs)
    basic = line.play_at(base_tc)
    gain = sum(weights[p.tc] * p.gap(line.play_at(p.tc), basic) for p in pts
               if line.play_at(p.tc) in p.two_card and basic in p.two_card)
    return _deal_chance(rules, line.row, line.dealer) * gain


def _deal_chance(rules: Rules, row: str, upcard: int) -> float:
    """Chance of being dealt a hand of this row (pairs: the pair; totals: the non-pair
    hands of the total) and the upcard, from the full shoe."""
    counts = [4 * rules.decks] * 9 + [16 * rules.decks]
    p_up = counts[upcard - 1] / sum(counts)
    return p_up * sum(w for cards, w in two_card_weights(counts, upcard).items()
                      if hand_code(cards) == row)


def _index_upcard(dealer) -> int:
    """The upcard of an index look-up as a rank 1..10, from any card spelling."""
    got = ranks(dealer, field="dealer")
    if len(got) != 1:
        raise ValueError(f"dealer: give one dealer card (the upcard), got {show(dealer)}")
    return got[0]


def _index_row(row) -> str:
    """A chart row code from a code ("16", "A7", "88"), a hard total (16) or two cards."""
    allowed = "a chart row such as '16', 'A7', '88' (hard 4..20, soft A2..A9, pairs 22..TT, AA)"
    if isinstance(row, bool):
        raise TypeError(f"row: {show(row)} is not {allowed}")
    if isinstance(row, numbers.Integral):
        row = str(int(row))
    code = row.strip().upper() if isinstance(row, str) else None
    if code in ROW_ORDER:
        return code
    try:  # the two cards of the row, as a string ("T6") or a sequence ((10, 6))
        cards = tuple(sorted(ranks(row, field="row")))
    except (TypeError, ValueError):
        cards = ()
    if len(cards) == 2:
        code = hand_code(cards, can_split=True)
        if code in ROW_ORDER:
            return code
    raise ValueError(f"row: {show(row)} is not {allowed}")


def _index_play(play) -> str:
    if isinstance(play, str) and play.strip().lower() in ACTION_NUMBER:
        return play.strip().lower()
    raise ValueError(f"play: {show(play)} is not one of {', '.join(ACTION_NUMBER)}")
