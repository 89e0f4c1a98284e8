"""The total-dependent basic-strategy chart of a solve, and charts as strategies.

A strategy is a callable ``f(cards, dealer, allowed) -> action`` (cards a sorted tuple of
ranks, dealer the upcard or both exposed dealer cards, allowed the legal actions); a
``StrategyChart`` is one.  Evaluating a strategy is a solve with frozen decisions
(``Solution.evaluate`` in ``solve.py``); this module only builds and reads charts, and does
not depend on the solver.
"""
from __future__ import annotations

import numbers
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import cast

from ..model.actions import first_best, improves
from ..model.deal import DEALER_CODES, dealer_label
from ..model.hands import HARD_CODES, PAIR_CODES, SOFT_CODES, compositions, hand_code, total_code
from ..model.mappings import card_key
from ..model.ranks import RANK_LABELS, label, ranks, show
from ..model.rules import Rules
from ..output.notebook import chart_html
from ..output.render import to_text
from ..output.table import chart_table

# the codes of hands of three or more cards with a hard total up to 20 (soft 12 and
# hard 3 take two cards: A,A)
_LATER_CODES = frozenset(HARD_CODES + SOFT_CODES)

# chart codes -> (preferred action, fallback when it is not allowed)
CODE_ACTIONS = {
    "S": ("stand", None), "H": ("hit", None),
    "Dh": ("double", "hit"), "Ds": ("double", "stand"),
    "Rh": ("surrender", "hit"), "Rs": ("surrender", "stand"), "Rp": ("surrender", "split"),
    "P": ("split", None),
    # split here; without double-after-split the pair would be played as Ph: hit, Ps: stand,
    # Pd: double (else hit)
    "Ph": ("split", "hit"), "Ps": ("split", "stand"), "Pd": ("split", "double"),
    # the games' free plays (Rules.free_doubles, Rules.free_splits): the same plays as
    # Dh/Ds and P/Ph/Ps/Pd, marked where the rules make the double or the split free
    "Fh": ("double", "hit"), "Fs": ("double", "stand"),
    "FP": ("split", None),
    "FPh": ("split", "hit"), "FPs": ("split", "stand"), "FPd": ("split", "double"),
}

# a paid play's code -> the code of the same play made free
_FREE_DOUBLE_CODES = {"Dh": "Fh", "Ds": "Fs"}
_FREE_SPLIT_CODES = {"P": "FP", "Ph": "FPh", "Ps": "FPs", "Pd": "FPd"}


def _code_for(values: dict, split_fallback: bool = True) -> str:
    """Chart code from (aggregated) unconditioned values of the allowed actions.

    ``split_fallback=False`` gives surrender a hit/stand fallback even where splitting is
    second best (the codes of the published hand-code charts)."""
    best = first_best(values)
    assert best is not None    # (values holds stand and hit)
    hit_or_stand = "h" if improves(values["hit"], values["stand"]) else "s"
    if best == "double":
        return "D" + hit_or_stand
    if best == "surrender":
        rest = {k: v for k, v in values.items()
                if k != "surrender" and (split_fallback or k != "split")}
        nxt = _code_for(rest)
        return "Rp" if nxt == "P" else "R" + ("h" if nxt in ("H", "Dh") else "s")
    return {"stand": "S", "hit": "H", "split": "P"}[best]


@dataclass(frozen=True)
class Deviation:
    """A hand whose composition-dependent best play differs from the chart's (an
    "exception" to the chart; listed in ``StrategyChart.exceptions``)."""
    cards: tuple
    dealer: object  # the upcard, or both dealer cards in the exposed game
    chart_action: str
    optimal_action: str
    # EV gained by playing the composition-dependent action, in initial bets, measured as
    # Solution.hand_ev gives it: given no dealer blackjack when the dealer peeks (else
    # unconditioned), split values of the solve's post-split class
    gain: float

    def __str__(self):
        cards = "".join(label(c) for c in self.cards)
        return (f"{total_code(self.cards)} ({cards}) v {dealer_label(self.dealer)}: "
                f"{self.optimal_action} instead of {self.chart_action} (+{self.gain:.6f})")


_CODES_ANY_CASE = {code.upper(): code for code in CODE_ACTIONS}   # "dh" -> "Dh"
_ROW_CODES = frozenset(HARD_CODES + SOFT_CODES + PAIR_CODES)
_UPCARD_COLUMNS = frozenset(RANK_LABELS)


def _row_code(code) -> str:
    """A chart row code as the chart keys it: "16", "A7", "TT" (a hard total may be an int,
    letters any case)."""
    if isinstance(code, numbers.Integral) and not isinstance(code, bool):
        code = str(int(code))
    if not isinstance(code, str):
        raise TypeError(f"chart row codes must be strings such as '16', 'A7', 'TT', "
                        f"got {show(code)}")
    key = code.strip().upper()
    if key not in _ROW_CODES:
        raise ValueError(f"chart row {show(code)} is not a row; allowed hard '4'..'20', soft "
                         "'A2'..'A9', pairs '22'..'TT', 'AA'")
    return key


def _chart_columns(cols: dict, rules) -> dict:
    """A row's columns keyed by the chart's labels.  Upcard columns may be given in any card
    spelling (2..10 and 1 as ints, "10", "J", "a"), as a user copying a chart types them;
    when both dealer cards are exposed the columns are the dealer's hand codes ("12",
    "A6", ...), where "10" means hard 10 and nothing is respelled."""
    exposed_game = rules is not None and rules.hole_card == "exposed"
    if not exposed_game and all(_single_card(c) is not None for c in cols):
        return {RANK_LABELS[cast(int, _single_card(c)) - 1]: v for c, v in cols.items()}
    allowed = set(DEALER_CODES) if exposed_game else _UPCARD_COLUMNS | set(DEALER_CODES)
    out = {}
    for c, v in cols.items():
        key = str(c).strip().upper()
        if key not in allowed:
            raise ValueError(f"chart column {show(c)} is not a dealer column; allowed upcards "
                             "2..9, T, A" + ("" if not exposed_game else ", or with both dealer "
                             "cards exposed the dealer's hand codes 4..20, AA, A2..A6"))
        out[key] = v
    return out


def _single_card(c) -> int | None:
    """The rank of a column key that spells one card, else None."""
    if isinstance(c, bool):
        return None
    try:
        got = ranks(c, field="column")
    except (TypeError, ValueError):
        return None
    return got[0] if len(got) == 1 else None


class StrategyChart:
    """Total-dependent basic strategy: ``rows[code][column] -> chart code``.

    Rows "4".."20" hard, "A2".."A9" soft, "22".."TT","AA" pairs; columns the upcard labels
    "2".."T","A" (or, when both dealer cards are exposed, the dealer's hand codes).  Codes:
    H, S, Dh, Ds (double, else hit/stand), P (split), Ph/Ps/Pd (split, which is right only
    with double after split; without it hit/stand/double), Rh, Rs, Rp (surrender, else
    hit/stand/split); in the games, Fh/Fs and FP/FPh/FPs/FPd are the same plays where the
    rules make the double or the split free (``Rules.free_doubles``, ``free_splits``).  A chart is itself a strategy: ``chart(cards, dealer, allowed)``
    gives the action it prescribes.  ``exceptions`` lists composition-dependent
    departures (hands of 2 to 4 cards).

    Your own chart: ``StrategyChart({"16": {"2": "S", ..., "T": "Rh", "A": "Rh"}, ...})``
    (``bjsolve.StrategyChart``), then ``solution.evaluate(chart)`` gives its exact EV.
    Upcard columns may be spelled as cards (2..10 and 1 for the ace as ints, "10", "J",
    "a"), codes in any case ("dh"); unknown rows, columns or codes are refused here, and a
    row or column the chart lacks is an error when the play needs it.
    """

    _exceptions: list[Deviation]
    # the search that makes _exceptions, until the first read of ``exceptions``
    _find_exceptions: Callable[[StrategyChart], Iterable[Deviation]] | None

    def __init__(self, rows: dict, *, rules: Rules | None = None, split: str = "CDZ-",
                 exceptions=()):
        if not isinstance(rows, dict) or not all(isinstance(c, dict) for c in rows.values()):
            raise TypeError("chart rows must be a dict {row code: {column: chart code}}, got "
                            f"{type(rows).__name__}")
        self.rows = {_row_code(code): _chart_columns(cols, rules) for code, cols in rows.items()}
        for code, cols in self.rows.items():
            for col, c in cols.items():
                c = cols[col] = _CODES_ANY_CASE.get(c.strip().upper(), c) if isinstance(c, str) else c
                if c not in CODE_ACTIONS:
                    raise ValueError(f"chart row {show(code)} v {show(col)}: unknown code {show(c)}; "
                                     f"allowed {', '.join(CODE_ACTIONS)}")
        self.rules = rules
        self.split = split
        self.exceptions = exceptions
        self._row_memo: dict = {}

    @property
    def exceptions(self) -> list:
        """The composition-dependent departures from the chart (``Deviation`` items)."""
        if self._find_exceptions is not None:
            self._exceptions, self._find_exceptions = list(self._find_exceptions(self)), None
        return self._exceptions

    @exceptions.setter
    def exceptions(self, value) -> None:
        # a callable chart -> list runs on first access (basic_strategy's search is slow,
        # and printing the chart or evaluating it does not need it)
        self._find_exceptions = value if callable(value) else None
        self._exceptions = [] if callable(value) else list(value)

    def code(self, cards, dealer, *, can_split: bool) -> str:
        """The chart code for ``cards`` (any card spelling) against ``dealer`` (the upcard,
        or both exposed dealer cards); ``can_split``: whether a pair may still split."""
        if not isinstance(can_split, bool):
            raise TypeError(f"can_split must be True or False, got {can_split!r}")
        if type(cards) is tuple and type(dealer) is int and 0 < dealer < 11:
            # the evaluator asks for every composition against every upcard: the row of a
            # composition is looked up once (labels go the slow way below)
            row = self._row_memo.get((cards, can_split))
            if row is None:
                row = self._row_memo[(cards, can_split)] = self._row(cards, can_split)
            column = RANK_LABELS[dealer - 1]
        else:
            row = self._row(cards, can_split)
            column = dealer_label(card_key(dealer, field="dealer"))
        if row in ("BJ", "21"):
            return "S"
        if row == "AA" and not can_split:
            return "H"  # soft 12 that may not split: no chart row; hitting is right
        try:
            return self.rows[row][column]
        except KeyError:
            if row not in self.rows:
                raise ValueError(f"the chart has no row {row!r} (needed against {column})") from None
            # a chart made for another game: upcard columns against both dealer cards
            # face up, or the reverse
            columns = ", ".join(list(self.rows[row])[:12])
            raise ValueError(f"the chart has no entry for row {row!r} v {column}: its "
                             f"columns are {columns}") from None

    def __getstate__(self):
        # pickling finds the exceptions first (a pending search is a closure over the solve)
        state = dict(self.__dict__, _exceptions=self.exceptions, _find_exceptions=None)
        state["_row_memo"] = {}
        return state

    @staticmethod
    def _row(cards, can_split: bool) -> str:
        """The chart row of a hand given in any card spelling."""
        return hand_code(tuple(sorted(ranks(cards, field="cards"))), can_split=can_split)

    def __call__(self, cards, dealer, allowed) -> str:
        allowed = tuple(allowed)
        code = self.code(cards, dealer, can_split="split" in allowed)
        first, fallback = CODE_ACTIONS[code]
        if first in allowed:
            return first
        if fallback is not None and fallback in allowed:
            return fallback
        if "split" in (first, fallback) and "split" in allowed:
            # a pair row's split is not allowed here: read the hand's hard/soft row instead
            return self(cards, dealer, tuple(a for a in allowed if a != "split"))
        # a row that asks to split a hand that cannot split (or a user chart with "P"
        # on a total row): hit, the play such a chart falls back to
        return "hit" if "hit" in allowed else allowed[0]

    def __repr__(self):
        return f"StrategyChart({len(self.rows)} rows, {len(self.exceptions)} exceptions)"

    # ---- presentation: print(chart) draws it; notebooks show it coloured ----------------

    def to_table(self):
        """The chart as a ``bjsolve.output.table.Table`` (rows: hand codes, columns: upcards)."""
        return chart_table(self)

    def __str__(self):
        return to_text(self.to_table()).rstrip("\n")

    def _repr_html_(self):
        return chart_html(self.to_table())

    def to_pandas(self):
        """A pandas DataFrame of the codes (needs pandas, which bjsolve does not require)."""
        return self.to_table().to_pandas()


def basic_strategy(solution, no_das=None) -> StrategyChart:
    """The total-dependent chart of a solve, with composition-dependent exceptions.

    Each hard/soft row compares, per column, the probability-weighted sum of the
    unconditioned values of the two-card non-pair hands with that total (pairs only where
    a total has no other two-card hand): the choice that maximises the round's EV among
    total-dependent plays of the original two cards.  A total the shoe can reach only with
    more cards (a depleted shoe: soft 13 with no 2 left is A,A,A) gets its row from the
    hands of that total with the fewest cards, so the chart is playable on its own shoe.
    Pair rows weigh one composition (over the dealer hands of a column in the exposed
    game).  ``no_das``: the same solve without double after split, to mark the splits
    that are right only because of it (Ph, Ps, Pd); None leaves every split a plain P.
    """
    deal = solution.deal
    rows: dict = {}
    later_only: set = set()   # (row, column) read from hands of three or more cards
    for column, keys in solution.dealer_columns():
        groups: dict = {}
        for key in keys:
            if key not in solution.playable_keys:
                continue  # an exposed dealer natural: nothing to decide
            wk = deal.weights[key]
            for cards, w in deal.hand_weights(key).items():
                ev = solution.hand_ev(cards, key, given_no_blackjack=False)
                if cards[0] == cards[1] and "split" in ev:
                    groups.setdefault(label(cards[0]) * 2, {}).setdefault(True, []).append(
                        (wk * w, dict(ev)))
                code = total_code(cards)
                if code in ("BJ", "AA"):
                    continue  # naturals stand; soft 12 is only ever A,A (its pair row)
                groups.setdefault(code, {}).setdefault(cards[0] == cards[1], []).append(
                    (wk * w, {k: v for k, v in ev.items() if k != "split"}))
        for code, members in _later_only_rows(solution, keys, groups).items():
            groups[code] = {False: members}
            later_only.add((code, column))
        for code, by_pair in groups.items():
            members = by_pair.get(False) or by_pair.get(True)
            rows.setdefault(code, {})[column] = _code_for(
                _weighted_mean(members), split_fallback=solution.rules.hole_card != "exposed")
    if no_das is not None:
        _mark_das_splits(solution, no_das, rows)
    _mark_free_plays(solution.rules, rows, later_only)
    order = [str(t) for t in range(4, 21)] + [f"A{k}" for k in range(2, 10)] + list(PAIR_CODES)
    columns = [c for c, _ in solution.dealer_columns()]
    rows = {code: {c: rows[code][c] for c in columns if c in rows[code]}
            for code in order if code in rows}
    chart = StrategyChart(rows, rules=solution.rules, split=solution.split)
    # found on first use: the search asks for every hand of up to 4 cards
    chart.exceptions = lambda c: _exceptions(solution, c)
    return chart


def _weighted_mean(members) -> dict:
    """{action: weighted mean value} over [(weight, {action: value})], for the actions
    every member has (all weights zero: the plain mean)."""
    common = set(members[0][1])
    for _, vals in members[1:]:
        common &= set(vals)
    total_w = sum(w for w, _ in members)
    if total_w <= 0:
        members = [(1.0, vals) for _, vals in members]
        total_w = float(len(members))
    return {k: sum(w * vals[k] for w, vals in members) / total_w
            for k in members[0][1] if k in common}


def _later_only_rows(solution, keys, groups) -> dict:
    """{row code: [(weight, values)]} for the hard/soft totals below 21 that some hand of
    three or more cards reaches against these dealer keys but no two-card hand does: the
    hands of the fewest cards, weighted by their chance of being the player's first cards."""
    if groups.keys() >= _LATER_CODES:
        # a hand of three or more cards below 21 has one of these codes: nothing to find
        # (the usual case, a shoe that deals every two-card total)
        return {}
    deal = solution.deal
    found: dict = {}
    for key in keys:
        if key not in solution.playable_keys:
            continue
        limit = deal.hand_limit(key)
        for cards in compositions(limit, max_hard=20, min_cards=3):
            code = total_code(cards)
            if code in groups or code in ("21", "BJ"):
                continue
            size = found.get(code, [99])[0]
            if len(cards) > size:
                continue
            if len(cards) < size:
                found[code] = [len(cards), []]
            ev = solution.hand_ev(cards, key, given_no_blackjack=False)
            w = deal.weights[key] * deal.composition_weight(key, cards)
            found[code][1].append((w, dict(ev)))
    return {code: members for code, (_, members) in found.items()}


def _mark_das_splits(solution, no_das, rows) -> None:
    """P -> Ph/Ps/Pd where the split is right only because doubling after it is allowed."""
    deal = solution.deal
    if hasattr(no_das, "prepare"):   # value the splits it will be asked about in parallel
        no_das.prepare([(key, r) for column, keys in solution.dealer_columns()
                        for r in range(1, 11) if rows.get(label(r) * 2, {}).get(column) == "P"
                        for key in keys if key in no_das.playable_keys
                        and deal.hand_weights(key).get((r, r), 0.0) > 0])
    for column, keys in solution.dealer_columns():
        for r in range(1, 11):
            code = label(r) * 2
            if rows.get(code, {}).get(column) != "P":
                continue
            agg: dict = {}
            total = 0.0
            for key in keys:
                if key not in no_das.playable_keys:
                    continue
                w = deal.weights[key] * deal.hand_weights(key).get((r, r), 0.0)
                if w <= 0:
                    continue
                total += w
                for a, v in no_das.hand_ev((r, r), key, given_no_blackjack=False).items():
                    agg[a] = agg.get(a, 0.0) + w * v
            if total and _code_for(agg) != "P":
                rest = _code_for({a: v for a, v in agg.items() if a != "split"})
                rows[code][column] = {"H": "Ph", "S": "Ps", "Dh": "Pd", "Ds": "Pd"}.get(rest, "P")


def _two_card_hard_total(row: str) -> int | None:
    """The hard total of a chart row's two-card hands ("9" -> 9, "55" -> 10), None for the
    soft rows and AA (soft 12)."""
    if row in PAIR_CODES:
        return None if row == "AA" else 2 * (RANK_LABELS.index(row[0]) + 1)
    return int(row) if row.isdigit() else None


def _mark_free_plays(rules: Rules, rows: dict, later_only=frozenset()) -> None:
    """Dh/Ds -> Fh/Fs where the double is free (a two-card hard total in
    ``rules.free_doubles``), P/Ph/Ps/Pd -> FP/FPh/FPs/FPd on a pair rank in
    ``rules.free_splits``.  ``later_only``: the (row, column) cells read from hands of three
    or more cards (a depleted shoe), whose double is never free."""
    free_totals = set(rules.free_doubles)
    free_pairs = {label(r) * 2 for r in rules.free_splits}
    if not free_totals and not free_pairs:
        return
    for row, cols in rows.items():
        free_double = _two_card_hard_total(row) in free_totals
        for column, code in cols.items():
            if code in _FREE_DOUBLE_CODES and free_double and (row, column) not in later_only:
                cols[column] = _FREE_DOUBLE_CODES[code]
            elif code in _FREE_SPLIT_CODES and row in free_pairs:
                cols[column] = _FREE_SPLIT_CODES[code]


def _exceptions(solution, chart, max_cards: int = 4):
    found = []
    for key in solution.playable_keys:
        for cards in compositions(solution.deal.hand_limit(key), max_hard=20, min_cards=2):
            if len(cards) > max_cards:
                continue
            ev = solution.hand_ev(cards, key)
            allowed = tuple(ev)
            try:
                planned = chart(cards, key, allowed)
            except ValueError:
                continue
            best = ev.best
            if best != planned and improves(ev[best], ev[planned]):
                found.append(Deviation(cards, key, planned, best, ev[best] - ev[planned]))
    order = {k: i for i, k in enumerate(solution.dealer_keys)}
    found.sort(key=lambda e: (len(e.cards), order[e.dealer], e.cards))
    return found


def __getattr__(name):
    if name == "Exception_":      # the old name of Deviation
        warnings.warn("bjsolve.exact.strategy.Exception_ is now Deviation", DeprecationWarning,
                      stacklevel=2)
        return Deviation
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
