"""Labelled tables (numpy values, row and column labels) for the CLI and the API.

Rows use the assignment seed's hand codes: "4".."20" hard totals, "A2".."A9" soft,
"22".."TT", "AA" pairs, "BJ"; columns the dealer's upcard 2..T, A.  A hard or soft row is
the probability-weighted mean over the two-card hands with that code (non-pairs; the pair
itself for 4 and 20, which no other two cards make), so it is exact for the shoe given.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .dealer import dealer_table
from .hands import PAIR_CODES, hand_code, total_code, two_card_hands
from .ranks import UPCARD_ORDER, label
from .rules import Rules
from .shoe import Shoe

TABLE_NAMES = ("initial", "dealer", "stand", "hit", "double", "split", "surrender",
               "optimal", "strategy", "advantage", "exceptions")
EV_ROWS = tuple(str(t) for t in range(4, 21)) + tuple(f"A{k}" for k in range(2, 10)) + PAIR_CODES


@dataclass
class Table:
    """A labelled 2-D table; ``values`` is a float array (NaN = no entry) or strings."""
    name: str
    title: str
    rows: tuple
    columns: tuple
    values: np.ndarray
    notes: tuple = field(default_factory=tuple)
    style: str = "ev"   # text output: "ev" signed, "prob" plain fractions, "percent"

    def __getitem__(self, key):
        row, col = key
        return self.values[self.rows.index(str(row)), self.columns.index(str(col))]

    def to_dict(self) -> dict:
        def plain(v):
            if isinstance(v, (float, np.floating)):
                return None if np.isnan(v) else float(v)
            return v
        return {r: {c: plain(self.values[i, j]) for j, c in enumerate(self.columns)}
                for i, r in enumerate(self.rows)}

    def to_pandas(self):
        """A pandas DataFrame (needs pandas, which bjsolve does not require)."""
        import pandas as pd
        return pd.DataFrame(self.values, index=list(self.rows), columns=list(self.columns))


def _columns(upcards):
    return tuple(label(u) for u in UPCARD_ORDER if u in upcards)


def _notes(rules: Rules, shoe: Shoe, *extra) -> tuple:
    return (f"rules: {rules.describe()}", f"shoe: {shoe!r}") + tuple(extra)


def _deal_weights(shoe: Shoe, u: int):
    """{two-card hand: probability of being dealt it given the upcard}."""
    left = list(shoe.counts)
    if not shoe.is_infinite:
        left[u - 1] -= 1
    n = sum(left)
    out = {}
    for a, b in two_card_hands():
        if shoe.is_infinite:
            w = left[a - 1] * left[b - 1] / (n * n)
        else:
            w = left[a - 1] * (left[b - 1] - (a == b)) / (n * (n - 1))
        if a != b:
            w *= 2
        if w > 0:
            out[(a, b)] = w
    return out


def _row_members(shoe, u):
    """{row code: [(weight, cards)]} with the pair fallback for hard 4 and 20."""
    by_row: dict = {}
    for cards, w in _deal_weights(shoe, u).items():
        if cards[0] == cards[1]:
            by_row.setdefault(label(cards[0]) * 2, []).append((w, cards))
        code = total_code(cards)
        if code not in ("BJ", "AA"):
            by_row.setdefault(code, {}).setdefault(cards[0] == cards[1], []).append((w, cards))
    return {code: (m if isinstance(m, list) else (m.get(False) or m.get(True)))
            for code, m in by_row.items()}


def ev_table(solution, action: str) -> Table:
    """Per-row EV of one action (or "optimal": the best allowed action per hand)."""
    shoe, rules = solution.shoe, solution.rules
    ups = sorted(solution._engines)
    cols = _columns(ups)
    rows = PAIR_CODES if action == "split" else EV_ROWS
    values = np.full((len(rows), len(cols)), np.nan)
    for u in ups:
        members = _row_members(shoe, u)
        j = cols.index(label(u))
        for i, code in enumerate(rows):
            pair_row = code in PAIR_CODES
            total_w, acc = 0.0, 0.0
            for w, cards in members.get(code, ()):
                ev = solution.hand_ev(cards, u)
                if not pair_row:
                    ev = {k: v for k, v in ev.items() if k != "split"}
                if action == "optimal":
                    v = max(ev.values())
                elif action in ev:
                    v = ev[action]
                else:
                    continue
                total_w += w
                acc += w * v
            if total_w > 0:
                values[i, j] = acc / total_w
    measure = ("given no dealer blackjack" if solution.conditioned else "unconditioned")
    notes = [f"EV per initial bet, {measure}",
             "hard/soft rows: probability-weighted mean over the two-card hands with that code"]
    if action in ("split", "optimal"):
        notes.append(f"split EVs: post-split strategy {solution.split}, resplits forced up to "
                     f"{rules.max_split_hands} hands")
    if action == "optimal":
        notes.append("composition-dependent optimal play of each two-card hand")
    return Table(action, f"{action} EV", rows, cols, values, _notes(rules, shoe, *notes))


def strategy_table(solution) -> Table:
    chart = solution.strategy
    cols = _columns(solution._engines)
    rows = tuple(chart.rows)
    values = np.array([[chart.rows[r].get(u, "") for u in UPCARD_ORDER if u in solution._engines]
                       for r in rows], dtype=object)
    notes = _notes(solution.rules, solution.shoe,
                   "total-dependent basic strategy for the original two cards",
                   "H hit, S stand, Dh/Ds double else hit/stand, P split, Rh/Rs/Rp surrender "
                   "else hit/stand/split",
                   f"split decisions use post-split strategy {solution.split}",
                   f"{len(chart.exceptions)} composition-dependent exceptions (table 'exceptions')")
    return Table("strategy", "basic strategy", rows, cols, values, notes)


def exceptions_table(solution) -> Table:
    chart = solution.strategy
    rows = tuple(f"{''.join(label(c) for c in e.cards)} v {label(e.upcard)}"
                 for e in chart.exceptions)
    cols = ("total", "chart", "optimal", "gain")
    values = np.array([[total_code(e.cards), e.chart_action, e.optimal_action, f"{e.gain:.6f}"]
                       for e in chart.exceptions], dtype=object).reshape(len(rows), 4)
    measure = "given no dealer blackjack" if solution.conditioned else "unconditioned"
    return Table("exceptions", "composition-dependent exceptions to the chart", rows, cols,
                 values, _notes(solution.rules, solution.shoe,
                                f"gain: EV per initial bet, {measure}", "hands of 2 to 4 cards"))


def initial_table(solution) -> Table:
    """Probability of each starting hand code together with each upcard (sums to 1)."""
    shoe = solution.shoe
    ups = sorted(solution._engines)
    cols = _columns(ups)
    # hard 4 and 20 are only ever a pair, which has its own row
    rows = tuple(str(t) for t in range(5, 20)) + EV_ROWS[EV_ROWS.index("A2"):EV_ROWS.index("A9") + 1] + ("BJ",) + PAIR_CODES
    values = np.zeros((len(rows), len(cols)))
    probs = shoe.probabilities()
    for u in ups:
        j = cols.index(label(u))
        for cards, w in _deal_weights(shoe, u).items():
            code = hand_code(cards, can_split=True)
            values[rows.index(code), j] += probs[u - 1] * w
    return Table("initial", "probability of each starting hand and upcard", rows, cols, values,
                 _notes(solution.rules, shoe, "joint probability of the deal (all cells sum to 1)"),
                 style="prob")


def dealer_outcome_table(rules: Rules, shoe: Shoe | None = None, *,
                         given_no_blackjack: bool = False) -> Table:
    table = dealer_table(rules, shoe=shoe, given_no_blackjack=given_no_blackjack)
    cols = ("17", "18", "19", "20", "21", "bust", "blackjack")
    rows = tuple(label(u) for u in table)
    values = np.array([[d[k] for k in (17, 18, 19, 20, 21, "bust", "blackjack")]
                       for d in table.values()])
    measure = ("given no dealer blackjack" if given_no_blackjack
               else "unconditioned (dealer naturals in 'blackjack')")
    source = shoe if shoe is not None else Shoe.decks(rules.decks)
    return Table("dealer", "dealer final outcome by upcard", rows, cols, values,
                 _notes(rules, source, f"probabilities, {measure}; 21 excludes the natural",
                        "only the upcard is removed from the shoe"), style="percent")


def advantage_table(solution) -> Table:
    cols = _columns(solution._engines) + ("overall",)
    vals = [solution.ev_by_upcard[u] for u in UPCARD_ORDER if u in solution.ev_by_upcard]
    values = np.array([vals + [solution.expected_value]])
    return Table("advantage", "player advantage", ("EV",), cols, values,
                 _notes(solution.rules, solution.shoe,
                        "EV per initial bet of a whole round, unconditioned (dealer naturals "
                        "included); by upcard: given the upcard",
                        f"composition-dependent optimal play, split {solution.split}"))


def surrender_table(solution) -> Table:
    cols = _columns(solution._engines)
    values = np.full((len(EV_ROWS), len(cols)), np.nan)
    note = "late surrender: -0.5 given no dealer blackjack"
    if solution.rules.surrender == "late":
        values[:] = -0.5 if solution.conditioned else np.nan
    else:
        note = "surrender is not offered under these rules"
    return Table("surrender", "surrender EV", EV_ROWS, cols, values,
                 _notes(solution.rules, solution.shoe, note))


def build_table(name: str, rules: Rules, shoe: Shoe | None, solution_factory,
                given_no_blackjack: bool = False) -> Table:
    """Build a named table; ``solution_factory()`` gives the (cached) solve when needed."""
    if name not in TABLE_NAMES:
        raise ValueError(f"unknown table {name!r}; known: {', '.join(TABLE_NAMES)}")
    if name == "dealer":
        return dealer_outcome_table(rules, shoe, given_no_blackjack=given_no_blackjack)
    sol = solution_factory()
    if name in ("stand", "hit", "double", "split", "optimal"):
        return ev_table(sol, name)
    return {"initial": initial_table, "strategy": strategy_table, "advantage": advantage_table,
            "surrender": surrender_table, "exceptions": exceptions_table}[name](sol)
