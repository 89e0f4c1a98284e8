"""What a table is: labelled values (numpy values, row and column labels) with notes, as
the library returns them and the renderers print them; and the chart of a strategy as a table.

Nothing here computes a value: the tables of a solve are built in ``bjsolve.exact.tables``,
those of the counting tools in ``bjsolve.counting.tables``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..model.deal import round_may_run_out
from ..model.ranks import label
from ..model.rules import Rules, join_runs
from ..model.shoe import Shoe
from .cells import AFTER_DOUBLE_NOTE
from .notebook import pandas_module, table_html
from .render import to_text

if TYPE_CHECKING:
    import numpy as np

class Grid:
    """Table values given as rows of plain Python values, made a numpy array only when
    ``Table.values`` is read: the quick commands (the house edge, the chart) then print
    without importing numpy at all."""

    def __init__(self, rows, columns: int, dtype=object):
        self.rows = [list(row) for row in rows]
        self.columns = columns
        self.dtype = dtype

    def array(self):
        # (lazy: a table of plain rows, the CLI's default, needs no numpy)
        import numpy as np
        return np.array(self.rows, dtype=self.dtype).reshape(len(self.rows), self.columns)


if TYPE_CHECKING:
    class _ValuesField:
        """How type checkers see ``Table.values`` (at run time a property, below)."""
        def __get__(self, table: Table, owner: type | None = None) -> np.ndarray: ...
        def __set__(self, table: Table, values: np.ndarray | Grid) -> None: ...


@dataclass
class Table:
    """A labelled 2-D table; ``values`` is a float array (NaN = no entry) or strings
    (given as a numpy array, or as a ``Grid`` turned into one when first read)."""
    name: str
    title: str
    rows: tuple
    columns: tuple
    if TYPE_CHECKING:
        # an array or a Grid in, an array out (a descriptor field needs an instance as
        # its default here; at run time values has none: it is required)
        values: _ValuesField = _ValuesField()
    else:
        values: np.ndarray
    notes: tuple = field(default_factory=tuple)
    style: str = "ev"   # text output: "ev" signed, "prob" plain fractions, "percent"
    layout: str = "grid"  # text output: "grid", "summary" (one labelled line per row) or
                          # "figures" (the same under a heading line with the title)
    units: str = ""       # what the numbers measure (default: from the style)
    kind: str = ""        # "strategy" for action-code charts (coloured, drawn as a chart)
    records: list | None = None  # optional structured rows for JSON (e.g. cards, upcard)
    column_styles: dict | None = None  # text output: {column: style} where a column differs from
                                # ``style`` ("ev" signed, "prob", "units": a plain 1, 4, 1.5)

    def __repr__(self):
        # a table can hold hundreds of rows: the repr says what it is, print() shows it
        return (f"<Table {self.name!r}: {self.title}, {len(self.rows)} rows x "
                f"{len(self.columns)} columns>")

    def __str__(self):
        return to_text(self)

    def cells(self):
        """The values row by row (lists, or the array's rows) without making an array."""
        values = self.__dict__["_values"]
        return values.rows if isinstance(values, Grid) else values

    def __getitem__(self, key):
        row, col = key
        return self.values[self.rows.index(str(row)), self.columns.index(str(col))]

    def to_dict(self) -> dict:
        # (lazy: a table of plain rows, the CLI's default, needs no numpy)
        import numpy as np

        def plain(v):
            if isinstance(v, (float, np.floating)):
                return None if np.isnan(v) else float(v)
            return v
        return {r: {c: plain(self.values[i, j]) for j, c in enumerate(self.columns)}
                for i, r in enumerate(self.rows)}

    def to_pandas(self):
        """A pandas DataFrame (needs pandas, which bjsolve does not require)."""
        return pandas_module().DataFrame(self.values, index=list(self.rows),
                                         columns=list(self.columns))

    def _repr_html_(self):
        return table_html(self)


def _values(table):
    values = table.__dict__["_values"]
    if isinstance(values, Grid):
        values = table.__dict__["_values"] = values.array()
    return values


def _set_values(table, values) -> None:
    table.__dict__["_values"] = values


# ``values`` is a dataclass field read through a property: a Grid becomes an array on first
# read (set after the class is made, so the dataclass keeps ``values`` a plain field)
# (type checkers see the _ValuesField above instead: the property is not theirs to check)
Table.values = property(_values, _set_values)    # type: ignore[assignment]


def shoe_words(shoe: Shoe, decks=None) -> str:
    """The shoe as a person says it: '6 decks (312 cards)', 'infinite', '6 decks less A A 5
    (309 cards)', else the counts by rank (fractional shoes too)."""
    if shoe.is_infinite:
        return "infinite" + ("" if repr(shoe) == "Shoe.infinite()" else
                             f", rank weights {_by_rank(shoe.counts)}")
    counts = shoe.counts
    cards = f"{sum(counts):g} cards"
    if shoe.is_fractional:
        return f"fractional, {cards}: {_by_rank(counts)}"
    def deck_words(n):
        return f"{n} deck{'s' if n != 1 else ''}"
    full = round(counts[0] / 4)
    if counts == tuple(full * (16 if r == 9 else 4) for r in range(10)) and full >= 1:
        return f"{deck_words(full)} ({cards})"
    if decks and decks != float("inf") and decks == int(decks):
        missing = [int(decks) * (16 if r == 9 else 4) - c for r, c in enumerate(counts)]
        if all(m >= 0 for m in missing) and sum(missing) <= 20:
            out = [label(r + 1) for r, m in enumerate(missing) for _ in range(m)]
            return f"{deck_words(int(decks))} less {' '.join(out)} ({cards})"
    return f"{cards}: {_by_rank(counts)}"


def _by_rank(counts) -> str:
    return ", ".join(f"{label(r + 1)} {c:g}" for r, c in enumerate(counts))


def table_notes(rules: Rules, shoe: Shoe, *extra) -> tuple:
    """The notes every table of a solve starts with: the rules, the shoe, and a warning when
    a round could run out of cards."""
    notes: tuple[str, ...] = (f"rules: {rules.describe()}",
                              f"shoe: {shoe_words(shoe, rules.decks)}")
    if round_may_run_out(rules, shoe):
        notes += ("warning: the shoe is so small that a round could run out of cards; values "
                  "follow the degenerate convention (a dealer who must draw from an empty shoe "
                  "busts) and describe no real game",)
    return notes + tuple(extra)


CHART_LEGEND = ("H hit, S stand, Dh/Ds double else hit/stand, P split, Ph/Ps/Pd split "
                "(without double after split: hit/stand/double), Rh/Rs/Rp surrender else "
                "hit/stand/split")


def chart_legend(rules) -> tuple[str, ...]:
    """The legend notes of a chart for these rules: the classic codes' line, and a line for
    each game feature that has codes (free doubles, free splits) or changes what a double
    means (redoubles, double rescue); the classic game gets the classic line alone."""
    lines = [CHART_LEGEND]
    if rules is None:
        return tuple(lines)
    if rules.free_doubles:
        totals = join_runs(sorted(rules.free_doubles), str, ", ")
        lines.append(f"Fh/Fs free double else hit/stand (two-card hard {totals}: the house "
                     "puts up the extra bet, paid on a win, nothing lost on a loss)")
    if rules.free_splits:
        pairs = join_runs(sorted(rules.free_splits), lambda r: label(r) * 2, ", ")
        lines.append(f"FP free split (pairs {pairs}: the house puts up the new hand's bet), "
                     "FPh/FPs/FPd the same as Ph/Ps/Pd with the split free")
    if rules.redoubles or rules.double_rescue:
        choices = ["stand"]
        if rules.redoubles:
            choices.append(f"redouble (up to {rules.redoubles} time"
                           f"{'s' if rules.redoubles != 1 else ''})")
        if rules.double_rescue:
            after = ("" if not rules.redoubles or rules.rescue_after_redouble
                     else "; not after a redouble")
            choices.append(f"rescue (surrender for the original bet{after})")
        lines.append(f"{AFTER_DOUBLE_NOTE}{', '.join(choices[:-1])} or {choices[-1]}, "
                     "chosen optimally for the hand's exact cards and the upcard (no code: "
                     "the chart is for the first two cards)")
    return tuple(lines)


def chart_table(chart, columns=None, notes=None) -> Table:
    """A ``StrategyChart`` as a Table of action codes (columns: dealer upcards)."""
    rows = tuple(chart.rows)
    if columns is None:
        columns = []
        for r in rows:
            columns += [c for c in chart.rows[r] if c not in columns]
    cols = tuple(columns)
    values = Grid([[chart.rows[r].get(c, "") for c in cols] for r in rows], len(cols))
    if notes is None:
        notes = ((f"rules: {chart.rules.describe()}",) if chart.rules is not None else ()) + (
            "total-dependent basic strategy for the original two cards",
            *chart_legend(chart.rules))
    return Table("strategy", "basic strategy", rows, cols, values, tuple(notes),
                 units="action codes", kind="strategy")


