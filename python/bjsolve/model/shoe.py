"""Shoes: how many cards of each rank are left (or an infinite shoe)."""
from __future__ import annotations

import math
import numbers
from fractions import Fraction

from .ranks import RANK_LABELS, counts_of, ranks
from .ranks import show as _show  # (rules.py imports it from here too)

STANDARD_DECK = (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)
# A Spanish deck (Spanish 21, Pontoon): the four tens taken out, J Q K kept: 48 cards.
# (SuitedShoe.decks(n, spanish=True) is the same deck with its suits.)
SPANISH_DECK = (4, 4, 4, 4, 4, 4, 4, 4, 4, 12)
# Kernels work in doubles: beyond this many cards of one rank, falling factorials and
# shoe totals lose exactness (and overflow long before 1e308), so larger counts are refused.
MAX_COUNT = 10**9
MAX_DECKS = 10**6


def _check_decks(n, field: str) -> int:
    """A whole number of decks 1..MAX_DECKS, or raise naming ``field``."""
    if isinstance(n, bool) or not isinstance(n, numbers.Real):
        raise TypeError(f"{field} must be a whole number of decks 1..{MAX_DECKS} or math.inf, "
                        f"got {_show(n)}")
    n = _plain_number(n)
    if isinstance(n, numbers.Integral):
        ok = 1 <= int(n) <= MAX_DECKS    # (int(): exact for an Integral)
    else:
        ok = math.isfinite(n) and n == int(n) and 1 <= n <= MAX_DECKS
    if not ok:
        raise ValueError(f"{field} must be a whole number of decks 1..{MAX_DECKS} or math.inf, "
                         f"got {_show(n)}")
    return int(n)


def _cards_given(cards: tuple, field: str) -> tuple:
    """The ranks of ``remove``/``add`` arguments: ``remove("A", 10)``, ``remove("AT")``
    (a run, as ``hand_ev`` takes), ``remove(["A", "T"])`` or ``remove((1, 10))``."""
    if len(cards) == 1:
        return ranks(cards[0], field=field)
    return ranks(cards, field=field)


def _plain_number(c):
    """A numpy (or other) scalar as a Python int or float, so that narrow types such as
    int8 or float16 cannot overflow in sums; Fractions and Python numbers stay as given."""
    # exact types: numpy's float64 is a float subclass, and kept as such it would print
    # as np.float64(0.0769...) in every repr of the shoe
    if type(c) in (int, float, bool) or isinstance(c, Fraction):
        return c
    if isinstance(c, numbers.Integral):
        return int(c)
    if isinstance(c, numbers.Real):
        return float(c)
    return c


def _show_count(c) -> str:
    """A count in a shoe's repr: a Fraction as it is written (it has no 'g' format before
    Python 3.12), a float short."""
    return repr(c) if isinstance(c, Fraction) else f"{c:g}"


_FULL_SHOES: dict = {}   # (decks, spanish) -> Shoe.decks(decks, spanish=spanish)


class Shoe:
    """Counts per rank, ordered A, 2, ..., 9, T (ten-valued cards pooled).

    ``Shoe.decks(n)`` is n standard decks, ``Shoe(counts)`` any composition,
    ``Shoe.infinite()`` an infinite shoe (every draw independent; rank probabilities
    4/52 each and 16/52 for tens unless given).  Shoes are immutable: ``remove`` and
    ``add`` return new shoes.  Counts are whole numbers 0..MAX_COUNT (any non-negative
    reals for ``Shoe.fractional`` and the proportions of ``Shoe.infinite``), and a shoe
    holds at least one card.

    A shoe knows the whole shoe it was dealt from (``dealt_from``): ``remove`` keeps it,
    and ``Shoe(counts, dealt_from=Shoe.decks(6))`` states it.  Only the suits need it:
    the cards gone are known by rank, not by suit, so three sevens dealt from a depleted
    shoe are three of the whole shoe's sevens alike, and the chance that they share a suit
    (a suited 7-7-7 bonus) is the whole shoe's (docs/games.md, "Suits").  A shoe made
    from its counts alone is its own whole shoe.
    """

    __slots__ = ("_counts", "_infinite", "_fractional", "_whole")

    def __init__(self, counts, *, dealt_from: "Shoe | None" = None, _infinite: bool = False,
                 _fractional: bool = False):
        if isinstance(counts, (str, bytes, dict)) or not hasattr(counts, "__iter__"):
            raise TypeError(f"Shoe counts must be a sequence of 10 numbers (A, 2..9, T), "
                            f"got {_show(counts)}")
        counts = tuple(counts)
        if len(counts) != 10:
            raise ValueError(f"Shoe needs 10 counts (A, 2..9, T), got {len(counts)}")
        real = _infinite or _fractional
        clean = []
        for label, c in zip(RANK_LABELS, counts):
            if isinstance(c, bool) or not isinstance(c, numbers.Real):
                raise TypeError(f"Shoe count for {label} must be a number, got {_show(c)}")
            c = _plain_number(c)
            if not isinstance(c, numbers.Integral) and not math.isfinite(c):
                raise ValueError(f"Shoe count for {label} must be finite, got {c!r}")
            if c < 0:
                raise ValueError(f"Shoe count for {label} must be >= 0, got {_show(c)}")
            if c > MAX_COUNT:
                raise ValueError(f"Shoe count for {label} must be at most {MAX_COUNT}, got {_show(c)}")
            if not real and c != int(c):
                raise ValueError(f"Shoe count for {label} must be a whole number, got {_show(c)}")
            clean.append(c if real else int(c))
        if sum(clean) <= 0:
            raise ValueError("Shoe holds no cards: at least one count must be positive")
        self._counts = tuple(clean)
        self._infinite = _infinite
        self._fractional = _fractional
        self._whole = None if dealt_from is None else self._check_whole(dealt_from)

    def _check_whole(self, whole) -> "Shoe | None":
        """``dealt_from`` checked: a whole shoe (its own ``dealt_from`` if it has one)
        holding at least this shoe's cards of every rank; None when it is this shoe."""
        if not isinstance(whole, Shoe):
            raise TypeError(f"dealt_from must be a Shoe, got {_show(whole)}")
        whole = whole.dealt_from
        if self._infinite or whole._infinite:
            raise ValueError("dealt_from: an infinite shoe neither is dealt from a shoe nor "
                             "is one to deal from: give finite shoes")
        for label, c, w in zip(RANK_LABELS, self._counts, whole._counts):
            if c > w:
                raise ValueError(f"dealt_from: the shoe holds {_show_count(c)} x {label}, "
                                 f"more than the {_show_count(w)} of the shoe it was dealt from")
        return None if whole._counts == self._counts else whole

    @classmethod
    def fractional(cls, counts, *, dealt_from: "Shoe | None" = None) -> "Shoe":
        """A shoe with non-integer counts: every exact formula is a polynomial in the
        counts, so this interpolates smoothly between real shoes (used to place a shoe
        exactly at a true count; ``dealt_from`` as for ``Shoe``)."""
        return cls(counts, dealt_from=dealt_from, _fractional=True)

    @property
    def dealt_from(self) -> "Shoe":
        """The whole shoe this one was dealt from (itself when it is whole, or when it was
        made from its counts alone): its suits are those of the cards still unseen."""
        return self if self._whole is None else self._whole

    @property
    def is_fractional(self) -> bool:
        """The counts need not be whole (``Shoe.fractional``): no real shoe."""
        return self._fractional

    @classmethod
    def decks(cls, n, *, spanish: bool = False) -> "Shoe":
        """n standard 52-card decks (1..MAX_DECKS); ``math.inf`` gives the infinite shoe.
        ``spanish``: 48-card Spanish decks (the four tens of each deck taken out, J Q K
        kept), as Spanish 21 and Pontoon deal (``Rules.spanish_deck``)."""
        if not isinstance(spanish, bool):
            raise TypeError(f"spanish must be True or False, got {_show(spanish)}")
        deck = SPANISH_DECK if spanish else STANDARD_DECK
        if isinstance(n, numbers.Real) and not isinstance(n, bool) and n == math.inf:
            return cls.infinite(deck)
        n = _check_decks(n, "decks")
        if cls is not Shoe:
            return cls([c * n for c in deck])
        shoe = _FULL_SHOES.get((n, spanish))
        if shoe is None:   # (shoes are immutable: every solve of n decks shares one)
            shoe = _FULL_SHOES[(n, spanish)] = cls([c * n for c in deck])
        return shoe

    @classmethod
    def infinite(cls, proportions=STANDARD_DECK) -> "Shoe":
        """An infinite shoe whose rank probabilities are proportional to ``proportions``."""
        return cls(proportions, _infinite=True)

    @property
    def is_infinite(self) -> bool:
        """Every draw is independent (``Shoe.infinite``): no card removal."""
        return self._infinite

    @property
    def counts(self) -> tuple:
        """Counts A..T (for an infinite shoe: the proportions)."""
        return self._counts

    def count(self, card) -> int:
        """How many cards of one rank the shoe holds (the proportion, infinite)."""
        got = ranks(card, field="card")
        if len(got) != 1:
            raise ValueError(f"card: give one card, got {_show(card)}")
        return self._counts[got[0] - 1]

    def __len__(self) -> int:
        if self._infinite or self._fractional:
            raise TypeError("an infinite or fractional shoe has no length; use Shoe.size")
        return sum(self._counts)

    @property
    def size(self) -> float:
        """Cards in the shoe (``math.inf`` for an infinite shoe; a real for a fractional one)."""
        return math.inf if self._infinite else sum(self._counts)

    def probabilities(self) -> tuple[float, ...]:
        """Chance that the next card is each rank A..T."""
        total = sum(self._counts)
        return tuple(c / total for c in self._counts)

    def exact_probabilities(self) -> tuple[Fraction, ...]:
        """``probabilities()`` as exact Fractions (of the counts or proportions given)."""
        total = sum(Fraction(c) for c in self._counts)
        return tuple(Fraction(c) / total for c in self._counts)

    def remove(self, *cards) -> "Shoe":
        """The shoe without these cards (no change for an infinite shoe)."""
        removed = _cards_given(cards, "removed")
        if self._infinite:
            return self
        have = list(self._counts)
        for r, k in enumerate(counts_of(removed)):
            if k > have[r]:
                raise ValueError(f"cannot remove {k} x {RANK_LABELS[r]}: the shoe holds {have[r]}")
            have[r] -= k
        if sum(have) <= 0:
            raise ValueError(f"cannot remove all {sum(counts_of(removed))} cards: a shoe must "
                             "keep at least one card")
        return Shoe(have, dealt_from=self.dealt_from, _fractional=self._fractional)

    def add(self, *cards) -> "Shoe":
        """The shoe with these cards put back (no change for an infinite shoe)."""
        added = _cards_given(cards, "added")
        if self._infinite:
            return self
        have = list(self._counts)
        for r, k in enumerate(counts_of(added)):
            have[r] += k
        # cards put back into the shoe they came from; a card the whole shoe never held
        # makes a composition of its own
        whole: Shoe | None = self.dealt_from
        if any(h > w for h, w in zip(have, self.dealt_from._counts)):
            whole = None
        return Shoe(have, dealt_from=whole, _fractional=self._fractional)

    def kernel_weights(self) -> list[float]:
        """What the kernels take: counts, or probabilities for an infinite shoe."""
        return list(self.probabilities()) if self._infinite else [float(c) for c in self._counts]

    def __eq__(self, other):
        # the whole shoe counts: it sets the suits of what is left (a suited 7-7-7)
        return (isinstance(other, Shoe) and self._infinite == other._infinite
                and self._counts == other._counts and self._whole == other._whole)

    def __hash__(self):
        return hash((self._counts, self._infinite, self._whole))

    def __repr__(self):
        if self._whole is not None:
            made = "Shoe.fractional" if self._fractional else "Shoe"
            counts = ", ".join(map(_show_count, self._counts))
            return f"{made}([{counts}], dealt_from={self._whole!r})"
        if self._fractional:
            return f"Shoe.fractional([{', '.join(map(_show_count, self._counts))}])"
        if self._infinite:
            if self._counts == STANDARD_DECK:
                return "Shoe.infinite()"
            if self._counts == SPANISH_DECK:
                return "Shoe.decks(math.inf, spanish=True)"
            return f"Shoe.infinite({list(self._counts)})"
        for n in range(1, 100):
            if self._counts == tuple(c * n for c in STANDARD_DECK):
                return f"Shoe.decks({n})"
            if self._counts == tuple(c * n for c in SPANISH_DECK):
                return f"Shoe.decks({n}, spanish=True)"
        return f"Shoe({list(self._counts)})"
