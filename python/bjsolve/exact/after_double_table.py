"""A chart a player can read for the choice after a double (Spanish 21's redouble and rescue).

The basic-strategy chart is for the first two cards.  With ``redoubles`` or
``double_rescue`` a doubled hand decides again after its card: stand, redouble or rescue.
``after_double_chart`` (policy.py) makes that choice per exact composition; a player
remembers totals.  This module folds it into a total-dependent chart: for each number of
doubles made, each total after the double's card (hard 5-20, soft 13-20) and each upcard,
the choice whose value, summed over the three-card hands of that total weighted by their
chance with that upcard, is largest.  The values are the ones ``after_double_chart`` uses,
priced as the engine prices them (``after_double_values``: after the d-th double the stake
is 2^d; stand 2^d x the stand value, a rescue the original bet where the rules offer it, a
redouble walked card by card to the choices after it).

``AfterDoubleTotals`` is both the printed chart and the callable
``Solution.evaluate(chart, after_double=...)`` and ``simulate(after_double=...)`` take, so
the house edge printed beside the chart is exactly the value of playing it.
"""
from __future__ import annotations

import itertools

from ..model.ranks import hand_total, label
from .after_double_values import AfterDoubleValues

ACTIONS = ("stand", "redouble", "rescue")
CODES = {"stand": "S", "redouble": "RD", "rescue": "RS"}
HARD_ROWS = tuple(range(5, 21))
SOFT_ROWS = tuple(range(13, 21))


def row_label(total: int, soft: bool) -> str:
    """The chart's row name: '12' for hard 12, 'A7' for soft 18."""
    return f"A{total - 11}" if soft else str(total)


def has_choice(rules) -> bool:
    """True where a doubled hand decides again after its card."""
    return bool(rules.redoubles or rules.double_rescue)


class AfterDoubleTotals:
    """The total-dependent after-double chart of a solution: ``cells[d][row][upcard]`` is
    {action: weighted value} over the three-card hands of that row (d doubles made), and
    calling it answers the choice as ``after_double`` callables do."""

    def __init__(self, solution):
        rules = solution.rules
        if not has_choice(rules):
            raise ValueError("after-double chart: the rules have no choice after a double "
                             "(neither redoubles nor double_rescue)")
        if not all(isinstance(k, int) for k in solution.dealer_keys):
            raise ValueError("after-double chart: only for games with one dealer upcard")
        self.rules = rules
        # the chart's column order: 2..T, then A
        self.upcards = tuple(sorted(solution.dealer_keys, key=lambda u: (u == 1, u)))
        self.doubles = tuple(range(1, rules.redoubles + 2))   # doubles made: 1 .. redoubles+1
        self.cells = {d: {} for d in self.doubles}
        priced = AfterDoubleValues(solution)
        for up in self.upcards:
            for cards, weight in _three_card_hands(solution.shoe, up):
                total, soft = hand_total(cards)
                if total >= 21:                       # bust or 21: no choice
                    continue
                row = row_label(total, soft)
                for d in self.doubles:
                    options = priced.options(cards, up, d)
                    cell = self.cells[d].setdefault(row, {}).setdefault(up, {})
                    for action, v in options.items():
                        cell[action] = cell.get(action, 0.0) + weight * v

    def choice(self, row: str, upcard: int, doubles: int, allowed=ACTIONS) -> str:
        """The chart's choice; among ``allowed`` only (ties: stand, then redouble)."""
        d = min(max(doubles, self.doubles[0]), self.doubles[-1])
        cell = self.cells[d].get(row, {}).get(upcard)
        if not cell:
            return "stand"
        best = "stand"
        for action in ("redouble", "rescue"):
            if action in cell and action in allowed and cell[action] - cell[best] > 1e-12 * max(
                    1.0, abs(cell[best])):
                best = action
        return best

    def __call__(self, cards, dealer, allowed, split, doubles):
        total, soft = hand_total(cards)
        return self.choice(row_label(total, soft), dealer, doubles, allowed)

    def rows(self) -> tuple[str, ...]:
        present = set().union(*(set(c) for c in self.cells.values()))
        order = [str(t) for t in HARD_ROWS] + [row_label(t, True) for t in SOFT_ROWS]
        return tuple(r for r in order if r in present)

    def codes(self, doubles: int) -> list[list[str]]:
        """The chart for ``doubles`` doubles made, as code strings (rows x upcards)."""
        return [[CODES[self.choice(r, up, doubles)] for up in self.upcards]
                for r in self.rows()]

    def groups(self) -> list[tuple[tuple[int, ...], list[list[str]]]]:
        """[(doubles made, codes)], consecutive numbers of doubles with the same chart merged."""
        out: list = []
        for d in self.doubles:
            codes = self.codes(d)
            if out and out[-1][1] == codes:
                out[-1] = (out[-1][0] + (d,), codes)
            else:
                out.append(((d,), codes))
        return out


def _three_card_hands(shoe, upcard):
    """[(sorted three cards, chance with this upcard)]: the hands a two-card double leaves,
    drawn from the shoe without the upcard (an infinite shoe: with replacement)."""
    counts = [float(c) for c in shoe.counts]
    infinite = shoe.is_infinite
    if not infinite:
        counts[upcard - 1] -= 1
    weights: dict = {}
    for seq in itertools.product(range(1, 11), repeat=3):
        left = list(counts)
        p = 1.0
        for c in seq:
            total = sum(left)
            if left[c - 1] <= 0 or total <= 0:
                p = 0.0
                break
            p *= left[c - 1] / total
            if not infinite:
                left[c - 1] -= 1
        if p > 0:
            key = tuple(sorted(seq))
            weights[key] = weights.get(key, 0.0) + p
    return sorted(weights.items())


def describe_group(doubles: tuple[int, ...], rules) -> str:
    """'after the first double' / 'after 2-3 doubles (redoubles)'."""
    if doubles == (1,):
        return "after the double's card (first double)"
    lo, hi = doubles[0], doubles[-1]
    n = f"{lo}" if lo == hi else f"{lo}-{hi}"
    return f"after {n} doubles (a redoubled hand's card)"


LEGEND = ("S stand, RD redouble (the hand's whole stake doubles again, one more card), "
          "RS rescue (give the doubled hand up: the original bet is lost, the rest comes back)")


def after_double_tables(solution, chart: AfterDoubleTotals | None = None) -> list:
    """The after-double chart as Tables, one per run of numbers of doubles with the same
    choices (every output format prints them like the basic-strategy chart)."""
    from ..output.table import Grid, Table, table_notes
    chart = AfterDoubleTotals(solution) if chart is None else chart
    cols = tuple(label(u) for u in chart.upcards)
    rows = chart.rows()
    tables = []
    for i, (doubles, codes) in enumerate(chart.groups()):
        what = describe_group(doubles, chart.rules)
        notes: tuple = ()
        if i == 0:
            notes = table_notes(
                solution.rules, solution.shoe,
                "the choice after a double, by the hand's total (rows) and the upcard: the "
                "best on average over the three-card hands of that total",
                LEGEND,
                "a redoubled hand reads the chart for its number of doubles; a hand of 21 "
                "or more has no choice")
        tables.append(Table("after-double", what, rows, cols, Grid(codes, len(cols)), notes,
                            units="action codes"))
    return tables
