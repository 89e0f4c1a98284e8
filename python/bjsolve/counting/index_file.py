"""Index files: the text format of index plays (``IndexTable.index_file()`` writes it, the
simulator and ``as_index_table`` read it) and its parser."""
from __future__ import annotations

import os
from dataclasses import dataclass

from ..model.actions import ACTIONS
from ..model.ranks import show as _show


@dataclass
class IndexPlay:
    """One index line: ``plays[i]`` below ``thresholds[i]``, the last play above them all."""
    count: int          # the hand's total; negative for soft hands; pairs: pair total, AA -12
    dealer: int         # the dealer's upcard, 1 (ace) .. 10
    flags: tuple        # (may double, may split, may surrender) of the hands it is for
    plays: tuple        # action names
    thresholds: tuple   # whole true counts, increasing


INDEX_FILE_FORMAT = "'count up dbl spl sur p1 tc1 ... pk +1000' with whole numbers"
MAX_INDEX_TC = 1000     # the last threshold of a line: "+1000", above every true count


def _whole_numbers(words):
    """The words as ints ("2.0" is 2), or (None, the first word that is not a whole number)."""
    try:
        return [int(w) for w in words], None
    except ValueError:
        pass
    out = []
    for w in words:
        try:
            out.append(int(w))
            continue
        except ValueError:
            pass
        try:
            value = float(w)
        except ValueError:
            return None, w
        if not value.is_integer():      # "2.7" (was read as 2), "1e400" (inf), "nan"
            return None, w
        out.append(int(value))
    return out, None


PLAY_NUMBERS = "1 stand, 2 hit, 3 double, 4 split, 5 surrender"


def _check_index_line(fields, where) -> None:
    """Every field of a parsed index line in range, or a ValueError naming the line, the
    field (its place on the line, counted from 1), its value and what is allowed."""
    count, up = fields[:2]

    def refuse(place, name, value, allowed):
        raise ValueError(f"{where}: field {place} ({name}) is {_show(value)}; {allowed}")

    if not -21 <= count <= 21 or count in (0, 1, -1):
        refuse(1, "hand total", count, "allowed: -21..21 but not -1, 0 or 1 (hard 2..21, "
                                       "soft -12..-21, A,A -12)")
    if not 1 <= up <= 10:
        refuse(2, "upcard", up, "allowed: 1 (ace) .. 10")
    for place, name in ((3, "may double"), (4, "may split"), (5, "may surrender")):
        if fields[place - 1] not in (0, 1):
            refuse(place, f"{name} flag", fields[place - 1], "allowed: 0 or 1")
    previous = None
    for place in range(6, len(fields) + 1, 2):
        play, tc = fields[place - 1], fields[place]
        if not 1 <= play <= 5:
            refuse(place, "play", play, f"allowed: {PLAY_NUMBERS}")
        if not -MAX_INDEX_TC <= tc <= MAX_INDEX_TC:
            refuse(place + 1, "true count", tc, f"allowed: whole numbers -{MAX_INDEX_TC}.."
                                                f"+{MAX_INDEX_TC}")
        if previous is not None and tc <= previous:
            refuse(place + 1, "true count", tc, f"the true counts must increase (the one "
                                                f"before is {previous:+d})")
        previous = tc
    if previous != MAX_INDEX_TC:
        refuse(len(fields), "last true count", previous,
               f"a line ends with +{MAX_INDEX_TC} (above every true count)")


def parse_index_file(text: str, *, source: str = "index file") -> list:
    """IndexPlays from the text of an index file (``IndexTable.index_file()``'s format:
    ``count up dbl spl sur p1 tc1 p2 tc2 ... pk +1000``, plays 1 stand .. 5 surrender, true
    counts whole numbers -1000..+1000).  Blank lines and lines starting with '#' are
    skipped; a bad line is named.  A line repeated is one line; two different lines for
    the same hand (total, upcard and options) are refused.  Linear in the lines."""
    first_line: dict = {}      # (count, up, dbl, spl, sur) -> (line number, plays/thresholds)
    lines_read = set()         # the text of every line taken: a copy is skipped at once
    out = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#") or line in lines_read:
            continue
        lines_read.add(line)
        words = line.split()
        fields, bad = _whole_numbers(words)
        if fields is None:
            place = words.index(bad) + 1
            raise ValueError(f"{source} line {number}: {line[:60]!r}: field {place} is "
                             f"{_show(bad)}, not a whole number; expected {INDEX_FILE_FORMAT}")
        if len(fields) < 7 or (len(fields) - 5) % 2 != 0:
            raise ValueError(f"{source} line {number}: {line[:60]!r} has {len(fields)} "
                             f"fields; expected 5 (count up dbl spl sur) and then pairs of a "
                             f"play and a true count, at least one ({INDEX_FILE_FORMAT})")
        hand, segments = tuple(fields[:5]), tuple(fields[5:])
        seen = first_line.get(hand)
        if seen is not None:
            if seen[1] == segments:
                continue            # the same line again
            raise ValueError(f"{source} lines {seen[0]} and {number}: two different index "
                             f"lines for {hand[0]} v {hand[1]} (flags {hand[2]} {hand[3]} "
                             f"{hand[4]}); give one line per hand")
        _check_index_line(fields, f"{source} line {number}: {line[:60]!r}")
        first_line[hand] = (number, segments)
        out.append(IndexPlay(hand[0], hand[1], hand[2:], tuple(ACTIONS[p - 1] for p in
                                                                segments[0::2]),
                             segments[1::2][:-1]))
    return out


def read_index_file(path) -> str:
    """The text of an index file, or a ValueError naming the path (a directory, a file
    that cannot be read or is not text)."""
    if os.path.isdir(path):
        raise ValueError(f"indices: {_show(str(path))} is a directory, not an index file")
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or type(exc).__name__
        raise ValueError(f"indices: cannot read the index file {_show(str(path))} "
                         f"({reason})") from None
