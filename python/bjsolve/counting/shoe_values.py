"""Exact values of one shoe that the counting tools share, computed once per process.

The counting tables evaluate the same shoes again and again: the effects-of-removal table
and the count-system table both solve the ten one-card-depleted shoes, the per-decision
effects behind playing efficiency need the two-card hand values of those same shoes, and
index numbers and the advantage by true count use the same shoes at each true count.
``shoe_values(rules, shoe, split)`` solves a shoe once and keeps what those tools read:

* ``expected_value``: the round's EV (unconditioned, fraction of the initial bet), and
  ``ev_by_upcard``;
* ``rows``: upcard -> {row code -> {action -> unconditioned value}} for the two-card hands
  (``two_card_rows``), read from the same solved engines, so they cost little extra;
* with ``hands="all"`` also ``all_rows``: the stand and hit values of every hand of a
  total the player meets, however many cards it holds (``all_hand_rows``).

The compiled engines of a 6-deck solve hold ~20 MB of memo tables, so the cache keeps only
these results (a few kB per shoe) and lets the engines go.  Entries are immutable (floats
in read-only mappings) and computed under a per-key lock, so threads may share them and a
shoe asked for by two threads at once is solved once.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from types import MappingProxyType

from ..exact.solver import solve
from ..model.actions import first_best
from ..model.hands import PAIR_CODES, total_code
from ..model.ranks import counts_of, label
from ..model.rules import Rules
from ..model.shoe import Shoe

CACHE_SIZE = 512            # entries: a few kB each


@dataclass(frozen=True)
class ShoeValues:
    """What one exact solve of ``shoe`` under ``rules`` (post-split class ``split``) tells
    the counting tools; every value is unconditioned (dealer naturals included)."""
    rules: Rules
    shoe: Shoe
    split: str
    expected_value: float
    ev_by_upcard: MappingProxyType
    rows: MappingProxyType | None   # None in the game with both dealer cards face up
    hands: str = "two-card"          # "all": all_rows too
    all_rows: MappingProxyType | None = None


_cache: OrderedDict = OrderedDict()
_cache_lock = threading.Lock()
_key_locks: dict = {}


def cached(key, compute):
    """``compute()`` once per ``key`` in this process (least recently used entries beyond
    ``CACHE_SIZE`` are dropped).  The value must be immutable: every caller shares it."""
    with _cache_lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
        key_lock = _key_locks.setdefault(key, threading.Lock())
    with key_lock:
        with _cache_lock:
            if key in _cache:
                return _cache[key]
        try:
            value = compute()
        except BaseException:
            with _cache_lock:
                _key_locks.pop(key, None)
            raise
        with _cache_lock:
            _cache[key] = value
            while len(_cache) > CACHE_SIZE:
                _cache.popitem(last=False)
            _key_locks.pop(key, None)
    return value


def peek(key):
    """The cached value for ``key``, or None (nothing is computed)."""
    with _cache_lock:
        return _cache.get(key)


def clear_cache() -> None:
    """Forget every cached result (benchmarks time cold computations with this)."""
    with _cache_lock:
        _cache.clear()


HANDS = ("two-card", "all")


def shoe_key(rules: Rules, shoe: Shoe, split: str) -> tuple:
    return (rules, split, shoe.counts, shoe.is_infinite, shoe.is_fractional)


def shoe_values(rules: Rules, shoe: Shoe, split: str = "CDZ-", *,
                hands: str = "two-card", threads: int | None = None) -> ShoeValues:
    """The shared exact values of ``shoe`` (see the module docstring); ``threads``: for
    its solve (the values do not depend on it)."""
    if hands not in HANDS:
        raise ValueError(f"hands must be one of {', '.join(HANDS)}, got {str(hands)[:40]!r}")
    if hands == "two-card":
        richer = peek(("shoe all",) + shoe_key(rules, shoe, split))
        if richer is not None:
            return richer            # it has the two-card rows too
    return cached((f"shoe {hands}",) + shoe_key(rules, shoe, split),
                  lambda: solve_and_keep(rules, shoe, split, hands, threads)[0])


def solve_and_keep(rules: Rules, shoe: Shoe, split: str, hands: str = "two-card",
                   threads: int | None = None):
    """(ShoeValues, the private Solution it came from).  The Solution is the caller's own
    (never shared); the ShoeValues may be cached by the caller."""
    sol = solve(rules, shoe=shoe, split=split, threads=threads)
    rows = all_rows = None
    if rules.hole_card != "exposed":
        # the engines are this call's own: nothing else can use them concurrently
        engines = sol._engines
        rows = MappingProxyType({u: two_card_rows(rules, engines[u], shoe.counts, u)
                                 for u in sol.ev_by_upcard})
        if hands == "all":
            all_rows = MappingProxyType({u: all_hand_rows(rules, engines[u], shoe.counts, u)
                                         for u in sol.ev_by_upcard})
    values = ShoeValues(rules, shoe, split, float(sol.expected_value),
                        MappingProxyType({u: float(v) for u, v in sol.ev_by_upcard.items()}),
                        rows, hands, all_rows)
    return values, sol


def remember(values: ShoeValues) -> ShoeValues:
    """Put values computed by ``solve_and_keep`` into the cache (first one kept)."""
    return cached((f"shoe {values.hands}",) + shoe_key(values.rules, values.shoe, values.split),
                  lambda: values)


# ---- two-card hand values ----------------------------------------------------------------

def two_card_weights(counts, dealer) -> dict:
    """{(a, b): chance of being dealt a and b (either order)} once the dealer's upcard
    (rank 1..10) is out, from 10 (possibly fractional) counts.  Pairs the shoe is too
    short of are left out."""
    left = list(counts)
    left[dealer - 1] -= 1
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


def two_card_rows(rules: Rules, engine, counts, dealer: int) -> MappingProxyType:
    """{row code: {action: unconditioned value}} for the two-card hands against ``dealer``
    from an engine of that dealer: hard and soft rows are probability-weighted over the
    non-pair compositions of the total (as in the basic-strategy chart; a total dealt only
    as a pair uses the pair), pair rows ("22".."AA") are the pair itself with split."""
    sums: dict = {}
    for cards, w in two_card_weights(counts, dealer).items():
        hand = counts_of(cards)
        st, ht, dd, _ = engine.hand_values(hand)
        vals = {"stand": st, "hit": ht}
        if engine.may_double_hand(hand):
            vals["double"] = dd
        if rules.surrender != "none":
            vals["surrender"] = engine.surrender_ev(hand)
        rows = []
        if cards[0] == cards[1] and engine.split_limit(cards[0]) >= 2:
            pair_vals = dict(vals, split=engine.split_ev(cards[0])[0])
            rows.append((label(cards[0]) * 2, pair_vals, True))
        code = total_code(cards)
        if code not in ("BJ", "AA"):
            rows.append((code, vals, cards[0] == cards[1]))
        for row, v, is_pair in rows:
            slot = sums.setdefault(row, {}).setdefault(is_pair and row not in PAIR_CODES,
                                                        [0.0, {}])
            slot[0] += w
            for a, x in v.items():
                slot[1][a] = slot[1].get(a, 0.0) + w * x
    out = {}
    for row, by_kind in sums.items():
        total_w, acc = by_kind.get(False) or by_kind.get(True)
        out[row] = MappingProxyType({a: x / total_w for a, x in acc.items()})
    return MappingProxyType(out)


def all_hand_rows(rules: Rules, engine, counts, dealer: int) -> MappingProxyType:
    """{hard or soft row code: {"stand": value, "hit": value}} (unconditioned) over every
    hand of the total that the player meets at a decision, however many cards it holds,
    each weighted by how often it is met: the chance of drawing its cards in some order in
    which every earlier hand (two cards or more) is one the player hits, the player making
    the best play in this shoe (a two-card hand best split, doubled or surrendered goes no
    further).  Two-card pairs are left out, as in ``two_card_rows`` (their rows are the
    pair rows); hands grown from a pair the player hits are in."""
    left = list(counts)
    left[dealer - 1] -= 1
    n = sum(left)
    reach = dict(two_card_weights(counts, dealer))   # composition -> chance of meeting it
    sums: dict = {}
    layer, size = list(reach), 2
    while layer:
        next_layer: dict = {}
        for cards in layer:
            w = reach[cards]
            hand = counts_of(cards)
            st, ht, dd, _ = engine.hand_values(hand)
            code = total_code(cards)
            if code not in ("BJ", "AA", "21") and not (size == 2 and cards[0] == cards[1]):
                acc = sums.setdefault(code, [0.0, 0.0, 0.0])
                acc[0] += w * st
                acc[1] += w * ht
                acc[2] += w
            vals = {"stand": st, "hit": ht}
            if engine.may_double_hand(hand):
                vals["double"] = dd
            if size == 2:
                if rules.surrender != "none":
                    vals["surrender"] = engine.surrender_ev(hand)
                if cards[0] == cards[1] and engine.split_limit(cards[0]) >= 2:
                    vals["split"] = engine.split_ev(cards[0])[0]
            if first_best(vals) != "hit":
                continue
            for r in range(1, 11):
                have = left[r - 1] - hand[r - 1]
                if have < 1 or sum(cards) + r > 21:
                    continue
                child = tuple(sorted(cards + (r,)))
                next_layer[child] = next_layer.get(child, 0.0) + w * have / (n - size)
        reach.update(next_layer)
        layer, size = list(next_layer), size + 1
    return MappingProxyType({row: MappingProxyType({"stand": acc[0] / acc[2],
                                                    "hit": acc[1] / acc[2]})
                             for row, acc in sums.items()})
