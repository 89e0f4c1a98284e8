"""The computations behind the pages, cached by rules and run off the server's event loop.

Every figure comes from the public API (``bjsolve.solve``, ``Solution.hand_ev``,
``bjsolve.dealer_probabilities``); this module only keeps results so that a second request
for the same rules answers at once, and runs the work in a small pool of threads so that
one long solve (a single deck with CDP splits, say) never holds up another page.
"""
from __future__ import annotations

import asyncio
import contextlib
import itertools
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import bjsolve

from ..model.ranks import label
from .forms import COUNT_OPTIONAL, index_argument, parse_hand


class Memo:
    """A bounded, thread-safe memo: ``get(key, make)`` computes ``make()`` once per key,
    even when several threads ask at the same time (the others wait for the first), and
    forgets the least recently used keys beyond ``size``.  A failure is not kept."""

    def __init__(self, size: int):
        self.size = size
        self._values: OrderedDict = OrderedDict()
        self._lock = threading.Lock()
        self._key_locks: dict = {}

    def __len__(self) -> int:
        with self._lock:
            return len(self._values)

    def peek(self, key, default=None):
        """The value kept for ``key`` (``default`` if none): never computes."""
        with self._lock:
            return self._values.get(key, default)

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


class Superseded(Exception):
    """A counted game abandoned: every request that wanted it was replaced by a newer one
    from the same page."""


class Tickets:
    """Which request of each page is the newest.  A page (a browser tab) names itself with a
    random ``client`` id in its requests; each request gets a ticket, and a ticket is
    superseded once a newer request from the same page arrives.  A request without a
    client (a link opened, a download, a test) is never superseded."""

    def __init__(self, size: int = 1024):
        self._latest: OrderedDict = OrderedDict()
        self._numbers = itertools.count(1)
        self._lock = threading.Lock()
        self.size = size

    def issue(self, client: str | None):
        if not client:
            return None
        with self._lock:
            number = next(self._numbers)
            self._latest[client] = number
            self._latest.move_to_end(client)
            while len(self._latest) > self.size:      # pages long closed are forgotten
                self._latest.popitem(last=False)
            return client, number

    def latest(self, client: str) -> int | None:
        """The number of the newest ticket issued to ``client`` (None: none yet)."""
        with self._lock:
            return self._latest.get(client)

    def superseded(self, ticket) -> bool:
        if ticket is None:
            return False
        client, number = ticket
        with self._lock:
            return self._latest.get(client, number) != number


class Engine:
    """The solves the pages need, cached by (rules, split class), and the pool they run in."""

    # a six-deck solve with its chart holds about 30 MB (its engines' memo tables): a few
    # are kept; the small views made from them (edge, chart, exceptions) many more
    def __init__(self, workers: int = 4, cached_solves: int = 8, cached_views: int = 64):
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="bjsolve-web")
        # counted games (tens of seconds each) get threads of their own, so that a queue of
        # them never holds up a chart or a hand
        self.slow_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="bjsolve-game")
        self._solutions = Memo(cached_solves)
        self._views = Memo(cached_views)
        # a counted game takes tens of seconds and holds its per-count figures: a few kept
        self.games = Memo(4)
        # the Counting page's requests: a game no page waits for any more is abandoned
        self.tickets = Tickets()
        self._wanted: dict = {}         # game key -> the tickets of the requests waiting
        self._wanted_lock = threading.Lock()
        self.abandoned_games = 0        # how many were stopped (for the tests)

    @contextlib.contextmanager
    def wanting(self, key, ticket):
        """While the block runs, ``ticket``'s request waits for the game ``key``."""
        with self._wanted_lock:
            self._wanted.setdefault(key, []).append(ticket)
        try:
            yield
        finally:
            with self._wanted_lock:
                self._wanted[key].remove(ticket)
                if not self._wanted[key]:
                    del self._wanted[key]

    def waiting(self, key) -> int:
        """How many requests wait for the game ``key`` now."""
        with self._wanted_lock:
            return len(self._wanted.get(key, ()))

    def abandoned(self, key) -> bool:
        """True when every request waiting for the game ``key`` has been superseded."""
        with self._wanted_lock:
            tickets = list(self._wanted.get(key, ()))
        return bool(tickets) and all(self.tickets.superseded(t) for t in tickets)

    async def run(self, function: Callable, *args, slow: bool = False):
        """``function(*args)`` in the pool (``slow``: the counted games' pool), awaited
        without blocking the event loop."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.slow_pool if slow else self.pool, function,
                                          *args)

    def warm_up(self) -> None:
        """Solve the default rules in the pool (the first page a user opens asks for them):
        loads the kernels and fills the cache while the browser starts."""
        self.pool.submit(self.edge, bjsolve.Rules())

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.slow_pool.shutdown(wait=False, cancel_futures=True)

    def solution(self, rules: bjsolve.Rules, split: str = "CDZ-"):
        if rules.switch:   # two hands and a swap: the pages show one-hand solutions
            from ..exact.switch import PAGES_REFUSAL
            raise NotImplementedError(PAGES_REFUSAL)
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
            "upcards": [[label(u), float(v)] for u, v in _upcard_order(sol.ev_by_upcard)],
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
            rows.append({"cards": "".join(label(c) for c in d.cards),
                         "upcard": _dealer_label(d.dealer), "chart": d.chart_action,
                         "optimal": d.optimal_action, "gain": float(d.gain)})
        return rows

    # ---- page 2: one hand ---------------------------------------------------------------

    def hand(self, rules: bjsolve.Rules, text: str, split: str = "CDZ-") -> dict:
        """Every action's EV for the hand typed (``'T6 v 9'``; in the exposed game both
        dealer cards, ``'T6 v 9 7'``) and the dealer's outcomes, with the player's and the
        dealer's cards out of the shoe.  The dealer's cards go to ``Solution.hand_ev`` as
        typed (one upcard, or a tuple of both in the exposed game): it checks how many the
        game takes."""
        cards, dealer = parse_hand(text)
        sol = self.solution(rules, split)
        values = sol.hand_ev(cards, dealer)
        dealer_cards = values.dealer if isinstance(values.dealer, tuple) else (values.dealer,)
        exposed = rules.hole_card == "exposed"
        # in the exposed game the dealer's total is known: nothing to condition on
        measure = "both dealer cards known" if exposed else "unconditioned"
        outcomes = {measure: dict(bjsolve.dealer_probabilities(
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
            "hand": "".join(label(c) for c in sorted(values.cards, key=_hand_order))
                    + " v " + "".join(label(c) for c in dealer_cards),
            "given_no_blackjack": bool(values.given_no_blackjack),
            "exposed": exposed,
            "actions": {a: float(v) for a, v in values.items()},
            "best": values.best,
            "dealer": {name: {str(k): float(p) for k, p in table.items()}
                       for name, table in outcomes.items()},
        }


def _dealer_label(dealer) -> str:
    """The upcard ('T'), or both dealer cards in the exposed game ('T6')."""
    cards = dealer if isinstance(dealer, tuple) else (dealer,)
    return "".join(label(c) for c in cards)


def _hand_order(card: int) -> tuple:
    """Cards as players write a hand: the ace first, then high to low (A7, T6, 852)."""
    return (card != 1, -card)


def _upcard_order(ev_by_upcard) -> list:
    """Upcards 2..T then A, as the chart's columns run."""
    items = list(ev_by_upcard.items())
    return sorted(items, key=lambda kv: kv[0] if kv[0] != 1 else 11)


# ---- page 3: the counted game -----------------------------------------------------------

# the figures that are amounts (units; times the unit, money)
MONEY_FIGURES = ("win_rate", "win_per_100", "sd", "sd_per_100", "average_bet",
                 "bankroll_for_target")


def counted_game_class():
    """``CountedGame`` (imported when the counting page first needs it)."""
    from ..risk.game import CountedGame
    return CountedGame


# ValueError text -> the field it is about (CountedGame's messages open with the field)
GAME_FIELDS = (("target_ror", "target_ror"), ("trip_rounds", "trip_rounds"),
               ("wong_in", "wong_in"), ("system", "system"), ("tags", "system"), ("indices", "indices"),
               ("index", "indices"), ("penetration", "penetration"), ("ramp", "ramp"),
               ("wong", "ramp"), ("bankroll", "bankroll"), ("unit", "unit"), ("spots", "spots"))


def game_field(message: str, default: str) -> str:
    """The counting field a CountedGame or ramp error names (``default`` if none)."""
    head = message.lower()
    for word, field in GAME_FIELDS:
        if head.startswith(word) or f" {word} " in head[:40]:
            return field
    return default


def game_key(rules, count: dict) -> tuple:
    """What a counted game depends on (the ramp, bankroll and unit are applied to it)."""
    return (rules, count["system"], count["penetration"], count["indices"], count["spots"])


def counted_game(engine: Engine, rules: bjsolve.Rules, count: dict, ticket=None):
    """The counted game (the slow part), kept by (rules, system, penetration, indices).

    ``ticket`` (``engine.tickets.issue``): the request asking.  A game takes seconds to a
    minute and holds one of the counted games' two threads; while the user types a ramp or
    tries penetrations, the page sends a new request for each pause, and the older ones'
    games would queue up and hold the threads for minutes.  So a game being made is
    *cancelled* (not merely its result dropped, which would leave the thread busy) once no
    request waits for it any more: at the start, and after each true count it evaluates,
    it checks that some request still wants it (another tab, a download, a request
    without a page id all keep it going) and otherwise raises ``Superseded``; nothing of
    it is kept."""
    key = game_key(rules, count)
    if rules.switch:
        # computed by the library in minutes, not interactively
        from ..risk.switch_game import PAGES_COUNTING_REFUSAL
        raise NotImplementedError(PAGES_COUNTING_REFUSAL)

    def progress(done: int, total: int) -> None:
        if engine.abandoned(key):
            engine.abandoned_games += 1
            raise Superseded(f"a newer request replaced this one (stopped after {done} of "
                             f"{total} true counts)")

    def make():
        progress(0, 0)
        try:
            return counted_game_class()(rules, count["system"],
                                        penetration=count["penetration"],
                                        indices=index_argument(count),
                                        spots=count["spots"], progress=progress)
        except (TypeError, ValueError) as exc:
            field = game_field(str(exc), "rules")
            raise FieldError(field, str(exc)) from None

    with engine.wanting(key, ticket):
        return engine.games.get(key, make)


def ramp_result(game, count: dict):
    """``game.evaluate`` for the page's ramp, bankroll, unit and optional fields (a
    ``RampResult``), a mistake put beside its field."""
    try:
        if not 1e-9 <= count["unit"] <= 1e9:
            raise ValueError(f"unit must be from 1e-09 to 1e+09 (what one unit of the ramp "
                             f"is worth in money), got {count['unit']:g}")
        return game.evaluate(count["ramp"], count["bankroll"], unit=count["unit"],
                             **{k: count[k] for k in COUNT_OPTIONAL
                                if count.get(k) is not None})
    except (TypeError, ValueError) as exc:
        field = game_field(str(exc), "ramp")
        if field == "ramp" and count.get("wong_in") is not None and "wong_in" in str(exc):
            field = "wong_in"         # a wong-in above every count the game reaches
        raise FieldError(field, str(exc)) from None


def counting(engine: Engine, rules: bjsolve.Rules, count: dict, ticket=None) -> dict:
    """The counted game's figures for a ramp, bankroll and unit; the game is kept, so a new
    ramp answers at once.  Figures in units (the bankroll too); the money figures are
    units x unit.  ``ticket``: see ``counted_game``."""
    game = counted_game(engine, rules, count, ticket)
    result = ramp_result(game, count)
    bets = [float(b) for b in result.ramp.bets(game.tc_values)]
    optimal = optimal_ramp(engine, game_key(rules, count), game, bets)
    optimal_result = game.evaluate(optimal["ramp"], count["bankroll"])
    optimal_bets = [float(b) for b in optimal["ramp"].bets(game.tc_values)]
    figures = {
        "win_rate": result.win_rate, "win_per_100": result.win_per_100, "sd": result.sd,
        "sd_per_100": result.sd_per_100, "average_bet": result.average_bet,
        "advantage": result.advantage, "di": result.di, "score": result.score,
        "n0": result.n0, "ror": result.ror, "ror_diffusion": result.ror_diffusion,
        # the optional figures (None where not asked, or the trip ruin too dear to compute)
        "bankroll_for_target": result.bankroll_for_target, "trip_ruin": result.trip_ruin,
    }
    return {
        "summary": rules.describe(),
        "figures": {k: (None if v is None else float(v)) for k, v in figures.items()},
        "unit": count["unit"],
        "money": {k: float(figures[k]) * count["unit"] for k in MONEY_FIGURES
                  if figures[k] is not None},
        "caveat": result.caveat,
        "ramp": result.ramp.describe(),
        "target_ror": result.target_ror, "trip_rounds": result.trip_rounds,
        "trip_ruin_note": result.trip_ruin_note,
        "rounds_per_shoe": float(game.rounds_per_shoe),
        "spots": game.spots,
        "counts": [{"tc": label, "frequency": float(f), "edge": float(e),
                    "sd": float(v) ** 0.5, "bet": b, "optimal_bet": o}
                   for label, f, e, v, b, o in zip(game.labels, game.frequency, game.edge,
                                                   game.variance, bets, optimal_bets)],
        "optimal": {"ramp": optimal["ramp"].describe(), "max_spread": optimal["max_spread"],
                    "min_bet": optimal["min_bet"], "wong": optimal["wong"],
                    "figures": {k: float(getattr(optimal_result, k))
                                for k in RAMP_COMPARED},
                    "yours": {k: float(getattr(result, k)) for k in RAMP_COMPARED}},
    }


# the figures the page compares between the user's ramp and the optimal one
RAMP_COMPARED = ("win_rate", "sd", "average_bet", "di", "score", "n0", "ror")


def optimal_ramp(engine: Engine, key: tuple, game, bets: list) -> dict:
    """``CountedGame.optimal_ramp`` (the SCORE-best ramp, bets proportional to edge /
    variance: the Kelly bet at each count) for the user's ramp's reach: its smallest bet
    above 0 (``min_bet``, also the chip), the spread its bets span at the game's true
    counts (``max_spread``), sitting out where the edge is negative (``wong``) when the
    user's ramp sits out some count.  Kept per game and reach: a ramp or bankroll change
    that keeps them costs nothing."""
    positive = [b for b in bets if b > 0]
    min_bet = min(positive)
    max_spread = max(positive) / min_bet
    wong = len(positive) < len(bets)
    ramp = engine._views.get(("optimal ramp", key, min_bet, max_spread, wong),
                             lambda: game.optimal_ramp(max_spread, min_bet=min_bet,
                                                       wong=wong))
    return {"ramp": ramp, "min_bet": min_bet, "max_spread": max_spread, "wong": wong}


class FieldError(ValueError):
    """A mistake in one field of the page (``field``), with the API's message."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field
