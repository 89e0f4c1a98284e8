"""Strategies: the total-dependent basic-strategy chart, and evaluating any strategy.

A strategy is a callable ``f(cards, upcard, allowed) -> action`` (cards a sorted tuple of
ranks, upcard a rank, allowed the legal actions).  ``evaluate_policy`` asks it once for
every hand composition, upcard and kind of decision, freezes the answers in the compiled
engine and computes the round's exact EV with them.
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass

from .hands import PAIR_CODES, compositions, hand_code, total_code, two_card_hands
from .deal import dealer_key_weight, dealer_label, player_hand_weights, remaining_after
from .ranks import counts_of, label
from .rules import Rules
from .shoe import Shoe
from .solve import first_best, improves

# chart codes -> (preferred action, fallback when it is not allowed)
CODE_ACTIONS = {
    "S": ("stand", None), "H": ("hit", None),
    "Dh": ("double", "hit"), "Ds": ("double", "stand"),
    "Rh": ("surrender", "hit"), "Rs": ("surrender", "stand"), "Rp": ("surrender", "split"),
    "P": ("split", None),
    # split here; without double-after-split the pair would be played as Ph: hit, Ps: stand,
    # Pd: double (else hit)
    "Ph": ("split", "hit"), "Ps": ("split", "stand"), "Pd": ("split", "double"),
}
KIND_START, KIND_LATER, KIND_SPLIT = 0, 1, 2


def _code_for(values: dict, split_fallback: bool = True) -> str:
    """Chart code from (aggregated) unconditioned values of the allowed actions.

    ``split_fallback=False`` gives surrender a hit/stand fallback even where splitting is
    second best (the assignment seed's codes)."""
    best = first_best(values)
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
    upcard: object  # the dealer key: upcard, or both dealer cards in the exposed game
    chart_action: str
    optimal_action: str
    gain: float  # EV gained by playing the composition-dependent action (initial bets)

    def __str__(self):
        cards = "".join(label(c) for c in self.cards)
        return (f"{total_code(self.cards)} ({cards}) v {dealer_label(self.upcard)}: "
                f"{self.optimal_action} instead of {self.chart_action} (+{self.gain:.6f})")


class StrategyChart:
    """Total-dependent basic strategy: ``rows[code][column] -> chart code``.

    Rows "4".."20" hard, "A2".."A9" soft, "22".."TT","AA" pairs; columns the upcard labels
    "2".."T","A" (or, when both dealer cards are exposed, the dealer's hand codes).  Codes:
    H, S, Dh, Ds (double, else hit/stand), P (split), Ph/Ps/Pd (split, which is right only
    with double after split; without it hit/stand/double), Rh, Rs, Rp (surrender, else
    hit/stand/split).  A chart is itself a strategy: ``chart(cards, dealer, allowed)``
    gives the action it prescribes.  ``exceptions`` lists composition-dependent
    departures (hands of 2 to 4 cards).
    """

    def __init__(self, rows: dict, *, rules: Rules | None = None, split: str = "CDZ-",
                 exceptions=()):
        if not isinstance(rows, dict) or not all(isinstance(c, dict) for c in rows.values()):
            raise TypeError("chart rows must be a dict {row code: {column: chart code}}, got "
                            f"{type(rows).__name__}")
        self.rows = {code: {str(c): v for c, v in cols.items()} for code, cols in rows.items()}
        for code, cols in self.rows.items():
            for col, c in cols.items():
                if c not in CODE_ACTIONS:
                    raise ValueError(f"chart row {code!r} v {col}: unknown code {c!r}; "
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
        # a callable chart -> list is run on first access (basic_strategy's search is slow)
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
            key = dealer
        else:
            from .mappings import card_key
            row = self._row(cards, can_split)
            key = card_key(dealer, field="dealer")
        column = dealer_label(key)
        if row in ("BJ", "21"):
            return "S"
        if row == "AA" and not can_split:
            return "H"  # soft 12 that may not split: no chart row; hitting is right
        try:
            return self.rows[row][column]
        except KeyError:
            raise ValueError(f"the chart has no entry for row {row!r} v {column}") from None

    @staticmethod
    def _row(cards, can_split: bool) -> str:
        """The chart row of a hand given in any card spelling."""
        from .ranks import ranks
        return hand_code(tuple(sorted(ranks(cards, field="cards"))), can_split=can_split)

    def __call__(self, cards, dealer, allowed) -> str:
        code = self.code(cards, dealer, can_split="split" in allowed)
        first, fallback = CODE_ACTIONS[code]
        if first in allowed:
            return first
        if fallback in allowed:
            return fallback
        if fallback == "split" or first == "split":
            return self(cards, dealer, tuple(a for a in allowed if a != "split"))
        return "hit" if "hit" in allowed else allowed[0]

    def __repr__(self):
        return f"StrategyChart({len(self.rows)} rows, {len(self.exceptions)} exceptions)"

    # ---- presentation: print(chart) draws it; notebooks show it coloured ----------------

    def to_table(self):
        """The chart as a ``bjsolve.tables.Table`` (rows: hand codes, columns: upcards)."""
        from .tables import chart_table
        return chart_table(self)

    def __str__(self):
        from .render import to_text
        return to_text(self.to_table()).rstrip("\n")

    def _repr_html_(self):
        from .render_html import chart_fragment
        return chart_fragment(self.to_table())

    def to_pandas(self):
        """A pandas DataFrame of the codes (needs pandas, which bjsolve does not require)."""
        return self.to_table().to_pandas()


def basic_strategy(solution) -> StrategyChart:
    """The total-dependent chart of a solve, with composition-dependent exceptions.

    Each hard/soft row compares, per column, the probability-weighted sum of the
    unconditioned values of the two-card non-pair hands with that total (pairs only where
    a total has no other two-card hand): the choice that maximises the round's EV among
    total-dependent plays of the original two cards.  Pair rows weigh one composition
    (over the dealer hands of a column in the exposed game).
    """
    shoe = solution.shoe
    rows: dict = {}
    for column, keys in solution.dealer_columns():
        groups: dict = {}
        for key in keys:
            if key not in solution._engines:
                continue  # an exposed dealer natural: nothing to decide
            wk = dealer_key_weight(shoe, key)
            for cards, w in player_hand_weights(shoe, key).items():
                ev = solution.hand_ev(cards, key, given_no_blackjack=False)
                if cards[0] == cards[1] and "split" in ev:
                    groups.setdefault(label(cards[0]) * 2, {}).setdefault(True, []).append(
                        (wk * w, dict(ev)))
                code = total_code(cards)
                if code in ("BJ", "AA"):
                    continue  # naturals stand; soft 12 is only ever A,A (its pair row)
                groups.setdefault(code, {}).setdefault(cards[0] == cards[1], []).append(
                    (wk * w, {k: v for k, v in ev.items() if k != "split"}))
        for code, by_pair in groups.items():
            members = by_pair.get(False) or by_pair.get(True)
            total_w = sum(w for w, _ in members)
            keys_ = members[0][1].keys()
            agg = {k: sum(w * vals[k] for w, vals in members) / total_w for k in keys_}
            rows.setdefault(code, {})[column] = _code_for(
                agg, split_fallback=solution.rules.hole_card != "exposed")
    if solution.rules.hole_card != "exposed" and solution.rules.double_after_split and solution.rules.max_split_hands > 1:
        _mark_das_splits(solution, rows)
    order = [str(t) for t in range(4, 21)] + [f"A{k}" for k in range(2, 10)] + list(PAIR_CODES)
    columns = [c for c, _ in solution.dealer_columns()]
    rows = {code: {c: rows[code][c] for c in columns if c in rows[code]}
            for code in order if code in rows}
    chart = StrategyChart(rows, rules=solution.rules, split=solution.split)
    # found on first use: the search asks for every hand of up to 4 cards
    chart.exceptions = lambda c: _exceptions(solution, c)
    return chart


def _mark_das_splits(solution, rows) -> None:
    """P -> Ph/Ps/Pd where the split is right only because doubling after it is allowed.

    Only the pairs' values without double after split are needed, so the no-DAS engines
    are asked for those alone (engines compute on demand) instead of solving the whole
    no-DAS game."""
    from .solve import SPLIT_CLASSES, make_engines
    no_das = make_engines(solution.rules.replace(double_after_split=False), solution.shoe,
                          SPLIT_CLASSES[solution.split])
    surrender = solution.rules.surrender != "none"
    for column, keys in solution.dealer_columns():
        for r in range(1, 11):
            code = label(r) * 2
            if rows.get(code, {}).get(column) != "P":
                continue
            agg: dict = {}
            total = 0.0
            for key in keys:
                if key not in no_das:
                    continue
                weights = player_hand_weights(solution.shoe, key)
                w = dealer_key_weight(solution.shoe, key) * weights.get((r, r), 0.0)
                if w <= 0:
                    continue
                total += w
                for a, v in _unconditioned_pair_values(no_das[key], r, surrender).items():
                    agg[a] = agg.get(a, 0.0) + w * v
            if total and _code_for(agg) != "P":
                rest = _code_for({a: v for a, v in agg.items() if a != "split"})
                rows[code][column] = {"H": "Ph", "S": "Ps", "Dh": "Pd", "Ds": "Pd"}.get(rest, "P")


def _unconditioned_pair_values(engine, r, surrender) -> dict:
    """Unconditioned values of the allowed actions of the pair r,r (as ``hand_ev`` with
    ``given_no_blackjack=False`` gives them)."""
    counts = counts_of((r, r))
    st, ht, dd, _ = engine.hand_values(counts)
    values = {"stand": st, "hit": ht}
    if engine.may_double_hand(counts):
        values["double"] = dd
    if engine.split_limit(r) >= 2:
        values["split"] = engine.split_ev(r)[0]
    if surrender:
        values["surrender"] = engine.surrender_ev(counts)
    return values


def _exceptions(solution, chart, max_cards: int = 4):
    shoe = solution.shoe
    found = []
    for key in solution._engines:
        limit = None if shoe.is_infinite else remaining_after(
            shoe, (key,) if isinstance(key, int) else key)
        for cards in compositions(limit, max_hard=20, min_cards=2):
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
    found.sort(key=lambda e: (len(e.cards), order[e.upcard], e.cards))
    return found


# ---- evaluating a strategy -------------------------------------------------------------

def _checked(strategy, cards, u, allowed, kind_name):
    action = strategy(cards, u, allowed)
    if not isinstance(action, str) or action not in allowed:
        cards_s = "".join(label(c) for c in cards)
        raise ValueError(f"strategy returned {action!r} for {cards_s} v {dealer_label(u)} "
                         f"({kind_name}); allowed: {', '.join(allowed)}")
    return action


def policy_engines(rules: Rules, shoe: Shoe, strategy) -> dict:
    """Compiled engines (one per upcard) with ``strategy``'s decisions frozen in."""
    from .solve import ACTION_CODE, POLICY_CLASS, make_engines
    if not callable(strategy):
        raise TypeError("strategy must be a StrategyChart or a callable "
                        f"f(cards, dealer, allowed) -> action, got {type(strategy).__name__}")
    try:
        inspect.signature(strategy).bind(None, None, None)
    except TypeError:
        raise TypeError(f"strategy must accept three arguments (cards, dealer, allowed); "
                        f"{strategy!r} has the signature {inspect.signature(strategy)}") from None
    except ValueError:
        pass  # no signature to inspect (some builtins): let the call decide
    engines = make_engines(rules, shoe, POLICY_CLASS)
    surrender = rules.surrender != "none"
    for u, engine in engines.items():
        limit = None if shoe.is_infinite else remaining_after(
            shoe, (u,) if isinstance(u, int) else u)
        for cards in compositions(limit, max_hard=21, min_cards=2):
            counts = counts_of(cards)
            can_double = engine.may_double_hand(counts)
            base = ("stand", "hit") + (("double",) if can_double else ())
            if len(cards) == 2:
                start = base
                if cards[0] == cards[1] and engine.split_limit(cards[0]) >= 2:
                    start += ("split",)
                if surrender:
                    start += ("surrender",)
                act = _checked(strategy, cards, u, start, "original two cards")
                engine.set_policy(KIND_START, counts, ACTION_CODE[act])
            else:
                act = _checked(strategy, cards, u, base, "later decision")
                engine.set_policy(KIND_LATER, counts, ACTION_CODE[act])
            split_allowed = ("stand", "hit") + (
                ("double",) if engine.may_double_hand(counts, after_split=True) else ())
            act = _checked(strategy, cards, u, split_allowed, "split hand")
            engine.set_policy(KIND_SPLIT, counts, ACTION_CODE[act])
    return engines


def evaluate_policy(rules: Rules, shoe: Shoe, strategy) -> float:
    """The round's exact EV (unconditioned) when the player follows ``strategy``."""
    from .solve import round_values
    engines = policy_engines(rules, shoe, strategy)
    values = round_values(rules, shoe, engines)
    return sum(dealer_key_weight(shoe, k) * v for k, v in values.items())


def __getattr__(name):
    if name == "Exception_":      # the old name of Deviation
        import warnings
        warnings.warn("bjsolve.strategy.Exception_ is now Deviation", DeprecationWarning,
                      stacklevel=2)
        return Deviation
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
