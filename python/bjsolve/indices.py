"""Exact index numbers for a count system: the true count at which a play changes.

Method (stated with every table): for each true count TC on a grid, build the shoe at that
true count (``counting.shoe_at_true_count``: half the shoe dealt unless told otherwise),
and compute exactly, with that shoe, the values of every two-card hand against every
upcard (hard and soft rows: probability-weighted over the non-pair compositions of the
total, as in the basic-strategy chart; pairs: the pair itself).  The index of a change of
play is the smallest TC on the grid from which the new play is at least as good.
Insurance is taken when 3 x P(ten) >= 1 with the dealer's ace out.
"""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from bjcore import UpcardEngine, dealer_trie

from .counting import count_tags, shoe_at_true_count
from .hands import PAIR_CODES, total_code
from .ranks import UPCARD_ORDER, counts_of, label
from .rules import Rules
from .solve import first_best

ACTION_NUMBER = {"stand": 1, "hit": 2, "double": 3, "split": 4, "surrender": 5}
ROW_ORDER = ([str(t) for t in range(4, 21)] + [f"A{k}" for k in range(2, 10)] + list(PAIR_CODES))


def _row_values(rules: Rules, counts, upcard: int) -> dict:
    """{row code: {action: unconditioned value}} for the two-card hands against upcard,
    from a shoe given as 10 (possibly fractional) counts."""
    from .solve import SPLIT_CLASSES, kernel_rules
    engine = UpcardEngine([float(c) for c in counts], upcard,
                          kernel_rules(rules, SPLIT_CLASSES["CDZ-"]), False, True)
    sums: dict = {}
    for cards, w in _two_card_weights(counts, upcard).items():
        counts = counts_of(cards)
        st, ht, dd, beta = engine.hand_values(counts)
        vals = {"stand": st, "hit": ht}
        if engine.may_double_hand(counts):
            vals["double"] = dd
        if rules.surrender != "none":
            vals["surrender"] = engine.surrender_ev(counts)
        rows = []
        if cards[0] == cards[1] and engine.split_limit(cards[0]) >= 2:
            pair_vals = dict(vals, split=engine.split_ev(cards[0])[0])
            rows.append((label(cards[0]) * 2, pair_vals, True))
        code = total_code(cards)
        if code not in ("BJ", "AA"):
            rows.append((code, vals, cards[0] == cards[1]))
        for row, v, is_pair in rows:
            slot = sums.setdefault(row, {}).setdefault(is_pair and row not in PAIR_CODES, [0.0, {}])
            slot[0] += w
            for a, x in v.items():
                slot[1][a] = slot[1].get(a, 0.0) + w * x
    out = {}
    for row, by_kind in sums.items():
        total_w, acc = by_kind.get(False) or by_kind.get(True)
        out[row] = {a: x / total_w for a, x in acc.items()}
    return out


def _two_card_weights(counts, upcard) -> dict:
    left = list(counts)
    left[upcard - 1] -= 1
    n = sum(left)
    out = {}
    for a in range(1, 11):
        for b in range(a, 11):
            if left[a - 1] < 1 or left[b - 1] < 1 + (a == b):
                continue  # a (fractional) shoe too short of these cards to deal them
            w = left[a - 1] * (left[b - 1] - (a == b)) / (n * (n - 1))
            if w > 0:
                out[(a, b)] = w if a == b else 2 * w
    return out


@dataclass
class IndexLine:
    """Play by true count for one row against one upcard: ``plays[0]`` below
    ``thresholds[0]``, ``plays[i]`` from ``thresholds[i - 1]`` (inclusive) up to
    ``thresholds[i]``.  ``crossings`` are the exact true counts where the two plays are
    worth the same (linear interpolation between grid points); ``thresholds`` are the
    integer indices (the crossings rounded to the nearest integer, or ceiled).
    ``options`` are the plays the line chooses among (all of a two-card hand's options, or
    only stand and hit: a hand that may no longer double, split or surrender)."""
    row: str
    upcard: int
    plays: list
    crossings: list
    thresholds: list
    options: tuple = ("stand", "hit", "double", "split", "surrender")

    def play_at(self, tc: float) -> str:
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
        if self.row in PAIR_CODES:
            r = self.row[0]
            total = -12 if r == "A" else 2 * (10 if r == "T" else int(r))
        else:
            total = -(11 + int(self.row[1:])) if soft else int(self.row)
        flags = [int(a in self.options) for a in ("double", "split", "surrender")]
        parts = [str(total), str(self.upcard), *map(str, flags)]
        for play, t in zip(self.plays, self.thresholds):
            parts += [str(ACTION_NUMBER[play]), f"{t:+d}"]
        parts += [str(ACTION_NUMBER[self.plays[-1]]), "+1000"]
        return " ".join(parts)


@dataclass
class IndexTable:
    system: str
    rules: Rules
    dealt_decks: float
    grid: tuple
    rounding: str
    lines: dict            # (row, upcard) -> IndexLine, only rows whose play changes
    insurance: int | None  # insure at TC >= this (None: never on the grid)
    insurance_crossing: float | None
    all_lines: list = None  # every row and upcard, two-card options and stand/hit only

    def index_file(self) -> str:
        """Every line (``IndexLine.index_file_line``), upcard by upcard: the two-card
        hands with all their options, then stand-or-hit lines for hands that can no longer
        double, split or surrender."""
        return "".join(line.index_file_line() + "\n" for line in self.all_lines or ())

    def index(self, row: str, upcard: int, play: str) -> int | None:
        """The integer TC from which ``play`` is the play (None if it never becomes it)."""
        line = self.lines.get((row, upcard))
        if line is None:
            return None
        for i, p in enumerate(line.plays):
            if p == play and i > 0:
                return line.thresholds[i - 1]
        return None

    def method(self) -> str:
        return (f"{self.system}: true count = running count / decks remaining, counted before "
                f"the round; shoes built at {self.dealt_decks:g} of {self.rules.decks} decks "
                f"dealt, removals proportional within tag classes (fractional counts, so the "
                f"count is met exactly); exact values of the two-card hands (split CDZ-); "
                f"index = the "
                f"true count where the plays are worth the same, {self.rounding} to an integer "
                f"(grid {self.grid[0]:+d}..{self.grid[-1]:+d}); act at TC >= index")


def _crossing(tc0, d0, tc1, d1) -> float:
    """Where the linear interpolation of the value difference between two grid points is 0."""
    if d1 == d0:
        return float(tc1)
    return tc0 + (tc1 - tc0) * (0.0 - d0) / (d1 - d0)


def _to_int(x: float, rounding: str) -> int:
    import math
    return int(math.ceil(x - 1e-9)) if rounding == "ceiled" else int(math.floor(x + 0.5))


def generate_indices(rules: Rules, system="hilo", *, grid=range(-10, 16),
                     dealt_decks: float | None = None, rounding: str = "rounded",
                     progress=None) -> IndexTable:
    """Exact index numbers for every row and upcard whose best play changes on the grid.

    rounding: "rounded" (nearest integer) or "ceiled" (smallest integer TC at which the
    new play is at least as good).
    """
    if rules.infinite:
        raise ValueError("index numbers need a finite shoe (Rules.decks)")
    if rules.hole_card == "exposed":
        raise ValueError("index numbers are for games with one dealer upcard")
    if rounding not in ("rounded", "ceiled"):
        raise ValueError(f"rounding must be 'rounded' or 'ceiled', got {rounding!r}")
    count_tags(system)  # validates
    grid = tuple(int(t) for t in grid)
    dealt = rules.decks / 2 if dealt_decks is None else dealt_decks
    shoes = {tc: shoe_at_true_count(system, tc, rules.decks, dealt_decks=dealt, whole_cards=False)
             for tc in grid}
    for u in UPCARD_ORDER:
        dealer_trie((u,), rules.hit_soft_17)
    tasks = [(tc, u) for tc in grid for u in UPCARD_ORDER]
    done = [0]

    def work(task):
        tc, u = task
        values = _row_values(rules, shoes[tc], u)
        done[0] += 1
        if progress is not None:
            progress(done[0], len(tasks))
        return values

    with ThreadPoolExecutor(max_workers=max(1, min(4, os.cpu_count() or 1))) as pool:
        results = dict(zip(tasks, pool.map(work, tasks)))
    lines, all_lines = {}, []
    for u in UPCARD_ORDER:
        for stand_hit_only in (False, True):
            for row in ROW_ORDER:
                if stand_hit_only and row in PAIR_CODES:
                    continue  # an unsplit pair plays on as its total's row
                pts = [(tc, results[(tc, u)][row]) for tc in grid if row in results[(tc, u)]]
                if not pts:
                    continue
                if stand_hit_only:
                    if set(pts[0][1]) <= {"stand", "hit"}:
                        continue  # the two-card line already is the stand-or-hit line
                    pts = [(tc, {a: v[a] for a in ("stand", "hit")}) for tc, v in pts]
                line = _index_line(row, u, pts, rounding)
                all_lines.append(line)
                if not stand_hit_only and len(line.plays) > 1:
                    lines[(row, u)] = line
    insurance = crossing = None
    prev = None
    for tc in grid:
        left = list(shoes[tc])
        left[0] -= 1
        ev = 3 * left[9] / sum(left) - 1
        if ev >= 0:
            crossing = float(tc) if prev is None else _crossing(prev[0], prev[1], tc, ev)
            insurance = _to_int(crossing, rounding)
            break
        prev = (tc, ev)
    return IndexTable(str(system), rules, dealt, grid, rounding, lines, insurance, crossing,
                      all_lines)


def _index_line(row, u, pts, rounding) -> IndexLine:
    """The line of one row from its values on the grid [(tc, {action: value})]."""
    plays = [first_best(v) for _, v in pts]
    seq, crossings = [plays[0]], []
    for i in range(1, len(pts)):
        if plays[i] != seq[-1]:
            old, new = seq[-1], plays[i]
            (t0, v0), (t1, v1) = pts[i - 1], pts[i]
            d0 = v0[new] - v0[old] if old in v0 and new in v0 else -1.0
            d1 = v1[new] - v1[old]
            crossings.append(_crossing(t0, d0, t1, d1))
            seq.append(new)
    return IndexLine(row, u, seq, crossings, [_to_int(c, rounding) for c in crossings],
                     tuple(pts[0][1]))
