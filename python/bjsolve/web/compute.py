"""The computations behind the pages, cached by rules and run off the server's event loop.

Every figure comes from the public API (``bjsolve.solve``, ``Solution.hand_ev``,
``bjsolve.dealer_probabilities``); this module only keeps results so that a second request
for the same rules answers at once, and runs the work in a small pool of threads so that
one long solve (a single deck with CDP splits, say) never holds up another page.
"""
from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import bjsolve

from .forms import parse_hand


class Memo:
    """A bounded, thread-safe memo: ``get(key, make)`` computes ``make()`` once per key,
    even when several threads ask at the same time (the others wait for the first), and
    forgets the least recently used keys beyond ``size``.  A failure is not kept."""

    def __init__(self, size: int):
        self.size = size
        self._values: OrderedDict = OrderedDict()
        self._lock = threading.Lock()
        self._key_locks: dict = {}

    def get(self, key, make: Callable[[], Any]):
        with self._lock:
            if key in self._values:
                self._values.move_to_end(key)
                return self._values[key]
            key_lock = self._key_locks.setdefault(key, threading.Lock())
        with key_lock:
            with self._lock:
                if key in self._values:
                    return self._values[key]
            value = make()
            with self._lock:
                self._values[key] = value
                self._key_locks.pop(key, None)
                while len(self._values) > self.size:
                    self._values.popitem(last=False)
            return value


class Engine:
    """The solves the pages need, cached by (rules, split class), and the pool they run in."""

    def __init__(self, workers: int = 4, cached_solves: int = 24):
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="bjsolve-web")
        self._solutions = Memo(cached_solves)
        self._views = Memo(4 * cached_solves)

    async def run(self, function: Callable, *args):
        """``function(*args)`` in the pool, awaited without blocking the event loop."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool, function, *args)

    def warm_up(self) -> None:
        """Solve the default rules in the pool (the first page a user opens asks for them):
        loads the kernels and fills the cache while the browser starts."""
        self.pool.submit(self.edge, bjsolve.Rules())

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)

    def solution(self, rules: bjsolve.Rules, split: str = "CDZ-"):
        return self._solutions.get((rules, split), lambda: bjsolve.solve(rules, split=split))

    # ---- page 1: edge and chart ---------------------------------------------------------

    def edge(self, rules: bjsolve.Rules, split: str = "CDZ-") -> dict:
        """The house edge (chart and optimal play), the chart and the EV by upcard."""
        return self._views.get(("edge", rules, split), lambda: self._edge(rules, split))

    def _edge(self, rules, split) -> dict:
        sol = self.solution(rules, split)
        chart = sol.strategy
        chart_ev = sol.evaluate(chart)
        return {
            "summary": rules.describe(),
            "split": split,
            "edge": {"chart": -float(chart_ev), "optimal": -float(sol.expected_value)},
            "upcards": [[_label(u), float(v)] for u, v in _upcard_order(sol.ev_by_upcard)],
            "chart": {str(row): {str(c): code for c, code in cols.items()}
                      for row, cols in chart.rows.items()},
            "chart_html": chart._repr_html_(),
        }

    def exceptions(self, rules: bjsolve.Rules, split: str = "CDZ-") -> list:
        """The chart's composition-dependent exceptions, as rows (slower than the chart: the
        page asks for them after the chart is shown)."""
        return self._views.get(("exceptions", rules, split),
                               lambda: self._exceptions(rules, split))

    def _exceptions(self, rules, split) -> list:
        rows = []
        for d in self.solution(rules, split).strategy.exceptions:
            rows.append({"cards": "".join(_label(c) for c in d.cards),
                         "upcard": _label(d.upcard), "chart": d.chart_action,
                         "optimal": d.optimal_action, "gain": float(d.gain)})
        return rows

    # ---- page 2: one hand ---------------------------------------------------------------

    def hand(self, rules: bjsolve.Rules, text: str, split: str = "CDZ-") -> dict:
        """Every action's EV for the hand typed (``'T6 v 9'``) and the dealer's outcomes,
        with the player's and the dealer's cards out of the shoe."""
        cards, dealer = parse_hand(text)
        sol = self.solution(rules, split)
        values = sol.hand_ev(cards, dealer)
        dealer_cards = values.dealer if isinstance(values.dealer, tuple) else (values.dealer,)
        outcomes = {"unconditioned": dict(bjsolve.dealer_probabilities(
            rules, dealer_cards, removed=values.cards))}
        if rules.hole_card == "peek" and len(dealer_cards) == 1:
            try:
                outcomes["given no dealer blackjack"] = dict(bjsolve.dealer_probabilities(
                    rules, dealer_cards, removed=values.cards, given_no_blackjack=True))
            except ValueError:
                pass        # the hole card surely makes a natural: no such condition
        return {
            "summary": rules.describe(),
            "split": split,
            "hand": "".join(_label(c) for c in sorted(values.cards, key=_hand_order))
                    + " v " + "".join(_label(c) for c in dealer_cards),
            "given_no_blackjack": bool(values.given_no_blackjack),
            "actions": {a: float(v) for a, v in values.items()},
            "best": values.best,
            "dealer": {name: {str(k): float(p) for k, p in table.items()}
                       for name, table in outcomes.items()},
        }


def _label(card: int) -> str:
    return "A" if card == 1 else "T" if card == 10 else str(card)


def _hand_order(card: int) -> tuple:
    """Cards as players write a hand: the ace first, then high to low (A7, T6, 852)."""
    return (card != 1, -card)


def _upcard_order(ev_by_upcard) -> list:
    """Upcards 2..T then A, as the chart's columns run."""
    items = list(ev_by_upcard.items())
    return sorted(items, key=lambda kv: kv[0] if kv[0] != 1 else 11)
