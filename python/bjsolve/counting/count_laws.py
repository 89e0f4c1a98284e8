"""Exact distributions of the running and true count as a shoe is dealt.

A tag system splits the ranks into *tag classes* (Hi-Lo: the 2..6 tagged +1, the 7..9 tagged
0, the tens and aces tagged -1).  After n cards of a well-shuffled shoe are seen, the numbers
of cards seen from each class follow the multivariate hypergeometric law

    P(k_1, ..., k_C | n) = prod_c C(s_c, k_c) / C(N, n),        sum_c k_c = n,

(s_c cards of class c in the shoe, N in all), and the running count is sum_c t_c k_c.  This
module computes that law for every n at once, by multiplying the classes' generating
polynomials ``sum_k C(s_c, k) x^k y^(t_c k)`` (x counts cards, y the running count), in
binary64: every term is positive, so the result is exact to rounding (about 1e-14 relative).

True count = running count / decks remaining, with these conventions:

* ``decks_estimation`` (how the decks remaining are judged): ``"exact"`` (cards left / 52),
  ``"half"`` (to the nearest half deck, at least 0.5), ``"full"`` (to the nearest whole
  deck, at least 1).  A deck is 52 cards, or ``deck_cards`` (48 for the Spanish decks of
  Spanish 21: the counter judges the 48-card decks left).  Cards left are the cards not yet seen (``burn``: unseen cards to count
  as gone too; the counted game, like the simulator, leaves the burn card among the unseen).
* ``tc_rounding``: ``"floor"`` (toward minus infinity: +1.9 -> +1, -0.5 -> -1),
  ``"truncate"`` (toward zero: -0.5 -> 0), ``"round"`` (to the nearest, halves up: +1.5 ->
  +2, -1.5 -> -1), ``"exact"`` (the ratio itself, not made whole).
* Unbalanced systems (KO, Red 7): the true count is the running count in excess of its
  expected value at that depth, per deck remaining (the convention of ``counting.py``;
  a balanced system's expected running count is 0 at every depth).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..model.shoe import Shoe
from .removal import count_tags

DECKS_ESTIMATIONS = ("exact", "half", "full")
TC_ROUNDINGS = ("floor", "truncate", "round", "exact")
WHOLE_TC_ROUNDINGS = TC_ROUNDINGS[:3]   # the roundings that give whole true counts
_MAX_SCALE = 12  # tags must be multiples of 1/_MAX_SCALE or less fine (Halves: 1/2)


def check_convention(decks_estimation: str, tc_rounding: str) -> None:
    if decks_estimation not in DECKS_ESTIMATIONS:
        raise ValueError(f"decks_estimation must be one of {', '.join(DECKS_ESTIMATIONS)}, "
                         f"got {str(decks_estimation)[:40]!r}")
    if tc_rounding not in TC_ROUNDINGS:
        raise ValueError(f"tc_rounding must be one of {', '.join(TC_ROUNDINGS)}, got "
                         f"{str(tc_rounding)[:40]!r}")


def decks_remaining(cards_left, decks_estimation: str = "exact", deck_cards: int = 52):
    """Decks remaining as the counter judges them from ``cards_left`` (scalar or array),
    decks of ``deck_cards`` cards (52; 48 for Spanish decks)."""
    cards_left = np.asarray(cards_left, dtype=float)
    deck = float(deck_cards)
    if decks_estimation == "exact":
        out = cards_left / deck
    elif decks_estimation == "half":
        out = np.maximum(np.floor(cards_left / (deck / 2.0) + 0.5) / 2.0, 0.5)
    elif decks_estimation == "full":
        out = np.maximum(np.floor(cards_left / deck + 0.5), 1.0)
    else:
        check_convention(decks_estimation, "exact")
    return out


def round_true_count(tc, tc_rounding: str):
    """Apply a true-count rounding to exact true counts (scalar or array)."""
    tc = np.asarray(tc, dtype=float)
    # a tiny nudge so that ratios meant to be whole (3/1.5 computed as 1.9999999999999998)
    # fall on the right side of the integer
    eps = 1e-9
    if tc_rounding == "floor":
        return np.floor(tc + eps)
    if tc_rounding == "truncate":
        return np.trunc(tc + np.where(tc >= 0, eps, -eps))
    if tc_rounding == "round":
        return np.floor(tc + 0.5 + eps)
    if tc_rounding == "exact":
        return tc
    check_convention("exact", tc_rounding)


@dataclass(frozen=True)
class TagClasses:
    """The ranks grouped by tag: ``tags[c]`` the tag of class c, ``sizes[c]`` its cards in
    the shoe, ``members[c]`` its ranks (1 = ace ... 10 = ten) and ``scale`` the smallest
    integer making every tag x scale whole (2 for Wong Halves)."""
    tags: tuple
    sizes: tuple
    members: tuple
    scale: int

    @property
    def total(self) -> int:
        return sum(self.sizes)


def tag_classes(system, shoe: Shoe) -> TagClasses:
    """The tag classes of ``system`` (a name in ``counting.SYSTEMS`` or 10 tags A..T)."""
    tags = count_tags(system)
    if not isinstance(shoe, Shoe):
        raise TypeError(f"shoe must be a bjsolve.Shoe, got {type(shoe).__name__}")
    if shoe.is_infinite or shoe.is_fractional:
        raise ValueError("count distributions need a finite shoe of whole cards")
    scale = 1
    for t in tags:
        f = Fraction(t).limit_denominator(_MAX_SCALE)
        if abs(float(f) - t) > 1e-12:
            raise ValueError(f"tags must be multiples of 1/{_MAX_SCALE}, got {t!r}")
        scale = scale * f.denominator // math.gcd(scale, f.denominator)
    classes: dict = {}
    for r, t in enumerate(tags, start=1):
        if shoe.counts[r - 1] > 0:
            classes.setdefault(t, []).append(r)
    order = sorted(classes)
    return TagClasses(tuple(order), tuple(sum(shoe.counts[r - 1] for r in classes[t]) for t in order),
                      tuple(tuple(classes[t]) for t in order), scale)


def _binomial_row(n: int) -> np.ndarray:
    """C(n, k) for k = 0..n as floats (exact while below 2^53, then correctly rounded)."""
    return np.array([float(math.comb(n, k)) for k in range(n + 1)])


def _times_class(poly: np.ndarray, used: int, step: int, size: int, weights) -> np.ndarray:
    """poly x sum_k weights[k] x^k y^(step k): add one tag class to a generating polynomial
    (rows: cards, columns: scaled running count; ``used`` cards in poly so far)."""
    new = np.zeros_like(poly)
    src = poly[:used + 1]
    for k in range(size + 1):
        if weights[k] == 0.0:
            continue
        shift = step * k
        if shift >= 0:
            new[k:k + used + 1, shift:] += weights[k] * src[:, :src.shape[1] - shift]
        else:
            new[k:k + used + 1, :shift] += weights[k] * src[:, -shift:]
    return new


class CountDistribution:
    """The exact law of the running count after n cards are seen, for every n = 0..N.

    ``probabilities[n, j]``: P(running count = ``running_counts[j]`` | n cards seen);
    rows sum to 1.  ``true_counts(n, ...)`` gives each entry's true count,
    ``true_count_law(n, ...)`` the law of the true count, and ``class_means()`` the
    expected number of cards seen per tag class given (n, running count), exactly.
    """

    def __init__(self, system, shoe: Shoe, *, deck_cards: int = 52):
        if deck_cards not in (48, 52):
            raise ValueError(f"deck_cards must be 52 (standard decks) or 48 (Spanish decks), "
                             f"got {deck_cards!r}")
        self.system = system
        self.shoe = shoe
        self.deck_cards = deck_cards      # a deck, for the decks remaining of the true count
        self.classes = cl = tag_classes(system, shoe)
        n_total = cl.total
        self._steps = [int(round(t * cl.scale)) for t in cl.tags]
        lo = sum(min(0, s) * size for s, size in zip(self._steps, cl.sizes))
        hi = sum(max(0, s) * size for s, size in zip(self._steps, cl.sizes))
        self._lo, self._width = lo, hi - lo + 1
        self._binomials = [_binomial_row(size) for size in cl.sizes]
        # _counts[n, j]: number of n-card subsets with scaled running count lo + j
        self._counts = self._product(skip=None)
        self._totals = np.array([float(math.comb(n_total, n)) for n in range(n_total + 1)])
        self.probabilities = self._counts / self._totals[:, None]
        self.running_counts = (lo + np.arange(self._width)) / cl.scale
        self.cards = n_total
        # expected running count per card seen (0 for a balanced system)
        self.mean_tag = sum(t * s for t, s in zip(cl.tags, cl.sizes)) / n_total
        self._class_means: np.ndarray | None = None     # (computed on first request)
        self._class_second: np.ndarray | None = None

    def _product(self, skip, weighted=()):
        """The generating polynomial of every class but ``skip`` (None: all classes), the
        classes in ``weighted`` with their terms weighted by k (cards of the class seen)."""
        poly = np.zeros((self.classes.total + 1, self._width))
        poly[0, -self._lo] = 1.0
        used = 0
        for c, (step, size) in enumerate(zip(self._steps, self.classes.sizes)):
            if c != skip:
                weights = self._binomials[c]
                if c in weighted:
                    weights = weights * np.arange(size + 1)
                poly = _times_class(poly, used, step, size, weights)
                used += size
        return poly

    def class_means(self) -> np.ndarray:
        """means[c, n, j] = E[cards of tag class c seen | n seen, running count j] (NaN
        where that running count cannot occur): the generating polynomial with class c's
        terms weighted by k, over the plain one."""
        if self._class_means is None:
            self._class_means = self._class_moment(1)
        return self._class_means

    def class_second_moments(self) -> np.ndarray:
        """E[k_c^2 | n seen, running count j] for k_c the cards of tag class c seen (NaN
        where the count cannot occur): class c's terms weighted by k^2.  With the means it
        gives how widely the cards seen of a class spread around their mean at (n, j)."""
        if self._class_second is None:
            self._class_second = self._class_moment(2)
        return self._class_second

    def unseen_rank_moments(self, a: int, b: int) -> tuple:
        """(E[u_a], E[u_a u_b]) given (n seen, running count j), arrays [n, j] (NaN where the
        count cannot occur): u_r the cards of rank r NOT yet seen, a != b two ranks (1 =
        ace .. 10 = ten).  Given the k cards seen of a class, which of its ranks they are is
        hypergeometric, so both follow from the classes' moments exactly: for a and b of
        one class (S cards, k seen) E[s_a s_b | k] = k (k - 1) c_a c_b / (S (S - 1)) (s the
        cards seen of a rank, c its cards in the shoe); of two classes E[s_a s_b] =
        E[k_A k_B] c_a c_b / (S_A S_B), the cross moment from the generating polynomial
        with both classes' terms weighted by k.  (Insurance: P(ace up, ten in the hole) is
        E[u_A u_T] / (R (R - 1)) with R the cards unseen.)"""
        if a == b or not (1 <= a <= 10 and 1 <= b <= 10):
            raise ValueError(f"ranks must be two different ranks 1..10, got {a!r} and {b!r}")
        cl = self.classes
        counts = self.shoe.counts
        ca, cb = float(counts[a - 1]), float(counts[b - 1])
        where = {r: c for c, members in enumerate(cl.members) for r in members}
        means = self.class_means()
        if a not in where or b not in where:         # a rank the shoe does not hold
            zero = np.where(np.isnan(means[0]), np.nan, 0.0)
            return (zero if a not in where else ca - ca * means[where[a]] / cl.sizes[where[a]],
                    zero)
        ka, kb = where[a], where[b]
        sa, sb = float(cl.sizes[ka]), float(cl.sizes[kb])
        seen_a = ca * means[ka] / sa
        seen_b = cb * means[kb] / sb
        if ka == kb:
            k2 = self.class_second_moments()[ka]
            both = ca * cb * (k2 - means[ka]) / (sa * (sa - 1.0)) if sa > 1 else 0.0 * k2
        else:
            cross = np.full(self._counts.shape, np.nan)
            nonzero = self._counts > 0
            cross[nonzero] = (self._product(None, weighted=(ka, kb))[nonzero]
                              / self._counts[nonzero])
            both = ca * cb * cross / (sa * sb)
        return ca - seen_a, ca * cb - ca * seen_b - cb * seen_a + both

    def _class_moment(self, power: int) -> np.ndarray:
        cl = self.classes
        out = np.full((len(cl.sizes),) + self._counts.shape, np.nan)
        nonzero = self._counts > 0
        for c, (step, size) in enumerate(zip(self._steps, cl.sizes)):
            others = self._product(skip=c)
            weighted = _times_class(others, cl.total - size, step, size,
                                    self._binomials[c] * np.arange(size + 1) ** power)
            out[c][nonzero] = weighted[nonzero] / self._counts[nonzero]
        return out

    def running_count_law(self, n: int) -> dict:
        """{running count: probability} after n cards seen (zero entries dropped)."""
        self._check_depth(n)
        row = self.probabilities[n]
        return {float(rc): float(p) for rc, p in zip(self.running_counts, row) if p > 0}

    def _check_depth(self, n):
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 0 <= n <= self.cards:
            raise ValueError(f"n (cards seen) must be a whole number 0..{self.cards}, got {n!r}")

    def true_counts(self, n: int, *, burn: int = 0, decks_estimation: str = "exact",
                    tc_rounding: str = "floor") -> np.ndarray:
        """The true count of every running count in ``running_counts`` after n cards seen
        (``burn`` unseen cards also dealt)."""
        check_convention(decks_estimation, tc_rounding)
        left = self.cards - n - burn
        if left <= 0:
            raise ValueError(f"no cards left after {n} seen and {burn} burnt")
        excess = self.running_counts - self.mean_tag * n
        return round_true_count(excess / decks_remaining(left, decks_estimation,
                                                         self.deck_cards), tc_rounding)

    def true_count_law(self, n: int, *, burn: int = 0, decks_estimation: str = "exact",
                       tc_rounding: str = "floor") -> dict:
        """{true count: probability} after n cards seen under the convention given."""
        self._check_depth(n)
        tcs = self.true_counts(n, burn=burn, decks_estimation=decks_estimation,
                               tc_rounding=tc_rounding)
        out: dict = {}
        for tc, p in zip(tcs, self.probabilities[n]):
            if p > 0:
                key = float(round(tc, 9))
                out[key] = out.get(key, 0.0) + float(p)
        return dict(sorted(out.items()))
