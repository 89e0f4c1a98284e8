"""A shoe that knows suits: counts by rank (A, 2..9, T, J, Q, K) and suit.

Side bets (21+3, Perfect Pairs, Lucky Ladies, ...) and some games (Spanish 21 bonuses) pay
on suits and on the exact court card, which ``bjsolve.Shoe`` (ten-valued cards pooled, no
suits) cannot tell apart.  A ``SuitedShoe`` holds one count per (rank, suit): 13 x 4 = 52
card kinds.

Counts are whole numbers, or exact Fractions where a shoe known only by rank is spread over
suits (``SuitedShoe.from_shoe``): every probability a side bet needs is a polynomial in the
counts, so a fractional count is the suit-symmetric interpolation, exact for whole shoes.
"""
from __future__ import annotations

import numbers
from fractions import Fraction

from .ranks import show
from .shoe import Shoe

__all__ = ["RANK_NAMES", "SUIT_NAMES", "SUIT_SYMBOLS", "SuitedShoe", "card_name", "parse_card"]

RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
SUIT_NAMES = ("S", "H", "D", "C")            # spades, hearts, diamonds, clubs
SUIT_SYMBOLS = ("\u2660", "\u2665", "\u2666", "\u2663")
RED_SUITS = (1, 2)                            # hearts, diamonds (spades, clubs are black)
KINDS = 52                                    # card kinds: index = 4 * rank index + suit
MAX_COUNT = 10**6

_RANK_INDEX = {name: i for i, name in enumerate(RANK_NAMES)}
_RANK_INDEX.update({"10": 9, "1": 0, "ACE": 0})
_SUIT_INDEX = {name: i for i, name in enumerate(SUIT_NAMES)}
_SUIT_INDEX.update({sym: i for i, sym in enumerate(SUIT_SYMBOLS)})


def card_name(kind: int) -> str:
    """'QH' for the queen of hearts (kind = 4 * rank index + suit)."""
    return RANK_NAMES[kind // 4] + SUIT_NAMES[kind % 4]


def parse_card(card, *, field: str = "card") -> tuple:
    """A card as (rank index 0..12 or None, suit index 0..3 or None).

    Accepted: 'QH', 'Q♥', '10S', 'TS' (rank and suit); 'Q', '7', 'A' (rank only); an int
    1..10 (rank only; 10 = any ten-valued card, as ``bjsolve.ranks`` reads it).  A rank
    index None means "any ten-valued card" (T, J, Q or K)."""
    if isinstance(card, bool):
        raise TypeError(f"{field}: {show(card)} is not a card")
    if isinstance(card, numbers.Integral):
        value = int(card)
        if not 1 <= value <= 10:
            raise ValueError(f"{field}: {show(card)} is not a rank; allowed 1..10 or a card "
                             "such as 'QH'")
        return (None if value == 10 else value - 1, None)
    if not isinstance(card, str):
        raise TypeError(f"{field}: {show(card)} ({type(card).__name__}) is not a card; use "
                        "e.g. 'QH', '10S', '7' or 1..10")
    text = card.strip().upper()
    suit = None
    if text and text[-1] in _SUIT_INDEX and text not in _RANK_INDEX:
        suit = _SUIT_INDEX[text[-1]]
        text = text[:-1]
    if text not in _RANK_INDEX:
        raise ValueError(f"{field}: {show(card)} is not a card; use a rank A, 2..10, T, J, Q, "
                         "K and optionally a suit S, H, D, C (e.g. 'QH', '10S', '7')")
    rank_index = _RANK_INDEX[text]
    if suit is None and rank_index == 9 and card.strip().upper() in ("T", "10"):
        return (None, None)          # 'T' alone: any ten-valued card, as elsewhere in bjsolve
    return (rank_index, suit)


def _plain(c):
    """An exact count: an int where whole, else a Fraction."""
    c = Fraction(c)
    return int(c) if c.denominator == 1 else c


class SuitedShoe:
    """Counts of the 52 card kinds (13 ranks x 4 suits).

    ``SuitedShoe.decks(n)`` is n standard decks (``spanish=True``: the four tens of each deck
    taken out, 48 cards, as Spanish 21 deals); ``SuitedShoe.from_shoe(shoe)`` spreads a
    ``bjsolve.Shoe`` evenly over suits (and its ten-valued cards over T, J, Q, K);
    ``SuitedShoe(counts)`` takes 13 rows of 4 counts (suits S, H, D, C).  Immutable:
    ``remove`` returns a new shoe.
    """

    __slots__ = ("_array", "_counts")

    def __init__(self, counts):
        if isinstance(counts, (str, bytes, dict)) or not hasattr(counts, "__iter__"):
            raise TypeError(f"SuitedShoe counts must be 13 rows (A..K) of 4 counts (S, H, D, "
                            f"C), got {show(counts)}")
        rows = [tuple(r) if hasattr(r, "__iter__") and not isinstance(r, (str, bytes))
                else None for r in counts]
        if len(rows) == KINDS and all(r is None for r in rows):   # a flat list of 52 counts
            flat = list(counts)
        else:
            if len(rows) != 13 or any(r is None or len(r) != 4 for r in rows):
                raise ValueError("SuitedShoe counts must be 13 rows (A, 2..9, T, J, Q, K) of "
                                 "4 counts (S, H, D, C), or 52 counts")
            flat = [c for r in rows for c in r]
        clean = []
        for kind, c in enumerate(flat):
            name = card_name(kind)
            if isinstance(c, bool) or not isinstance(c, numbers.Rational):
                raise TypeError(f"SuitedShoe count for {name} must be a whole number or a "
                                f"Fraction, got {show(c)}")
            if c < 0 or c > MAX_COUNT:
                raise ValueError(f"SuitedShoe count for {name} must be 0..{MAX_COUNT}, got "
                                 f"{show(c)}")
            clean.append(_plain(c))
        if sum(clean) <= 0:
            raise ValueError("SuitedShoe holds no cards: at least one count must be positive")
        self._counts = tuple(clean)
        self._array = None

    # ---- constructors ----------------------------------------------------------------------
    @classmethod
    def decks(cls, n: int, *, spanish: bool = False) -> SuitedShoe:
        """n standard decks (1..10000); ``spanish``: without the rank T (48-card decks)."""
        if isinstance(n, bool) or not isinstance(n, numbers.Integral) or not 1 <= n <= 10000:
            raise ValueError(f"decks must be a whole number 1..10000, got {show(n)}")
        if not isinstance(spanish, bool):
            raise TypeError(f"spanish must be True or False, got {show(spanish)}")
        return cls([[0 if spanish and r == 9 else int(n)] * 4 for r in range(13)])

    @classmethod
    def from_shoe(cls, shoe: Shoe) -> SuitedShoe:
        """A rank composition (A..9, T pooled) with suits assumed symmetric: each rank's
        count split evenly over the four suits, the ten-valued count evenly over T, J, Q,
        K.  Exact Fractions where the split is not whole."""
        if not isinstance(shoe, Shoe):
            raise TypeError(f"shoe must be a bjsolve.Shoe, got {type(shoe).__name__}")
        if shoe.is_infinite or shoe.is_fractional:
            raise ValueError("shoe: a SuitedShoe needs a finite shoe of whole counts")
        counts = shoe.counts
        rows = [[Fraction(counts[r], 4)] * 4 for r in range(9)]
        rows += [[Fraction(counts[9], 16)] * 4 for _ in range(4)]
        return cls(rows)

    # ---- reading -----------------------------------------------------------------------------
    @property
    def counts(self) -> tuple:
        """The 52 counts, kind = 4 * rank index + suit (ranks A..K, suits S, H, D, C)."""
        return self._counts

    def array(self):
        """The counts as a float64 numpy array of 52 (read-only)."""
        if self._array is None:
            import numpy as np
            a = np.array([float(c) for c in self._counts])
            a.setflags(write=False)
            self._array = a
        return self._array

    @property
    def size(self):
        """Cards in the shoe."""
        return sum(self._counts)

    def rank_counts(self) -> tuple:
        """Counts by blackjack rank A, 2..9, T (ten-valued pooled), as ``bjsolve.Shoe``."""
        by_rank = [sum(self._counts[4 * r:4 * r + 4]) for r in range(13)]
        return tuple(by_rank[:9]) + (sum(by_rank[9:]),)

    def to_shoe(self) -> Shoe:
        """The rank composition as a ``bjsolve.Shoe`` (needs whole counts by rank)."""
        counts = self.rank_counts()
        if any(Fraction(c).denominator != 1 for c in counts):
            return Shoe.fractional([float(c) for c in counts])
        return Shoe([int(c) for c in counts])

    # ---- changing --------------------------------------------------------------------------
    def remove(self, *cards) -> SuitedShoe:
        """The shoe without these cards.  A card with a suit ('QH') removes that card; a
        rank alone ('Q', 7; 'T' or 10: any ten-valued card) removes one card of that rank
        spread over its suits in proportion to their counts (the suit-symmetric reading of
        a card whose suit is unknown)."""
        if len(cards) == 1 and not isinstance(cards[0], (str, numbers.Integral)):
            cards = tuple(cards[0])
        have = [Fraction(c) for c in self._counts]
        for card in cards:
            rank_index, suit = parse_card(card, field="removed")
            ranks = range(9, 13) if rank_index is None else (rank_index,)
            suits = range(4) if suit is None else (suit,)
            kinds = [4 * r + s for r in ranks for s in suits]
            total = sum(have[k] for k in kinds)
            if total < 1:
                raise ValueError(f"cannot remove {show(card)}: the shoe holds {total} of it")
            for k in kinds:
                have[k] -= have[k] / total
        if sum(have) <= 0:
            raise ValueError("cannot remove every card: a shoe must keep at least one card")
        return SuitedShoe(have)

    def remove_kind(self, kind: int) -> SuitedShoe:
        """The shoe without one card of kind ``kind`` (0..51)."""
        if isinstance(kind, bool) or not isinstance(kind, numbers.Integral):
            raise TypeError(f"kind must be a whole number 0..51 (a card), got {kind!r}")
        if not 0 <= kind < len(self._counts):
            raise ValueError(f"kind must be 0..51 (a card), got {kind}")
        kind = int(kind)
        if self._counts[kind] < 1:
            raise ValueError(f"cannot remove {card_name(kind)}: the shoe holds "
                             f"{self._counts[kind]}")
        have = list(self._counts)
        have[kind] -= 1
        return SuitedShoe(have)

    def __eq__(self, other):
        return isinstance(other, SuitedShoe) and self._counts == other._counts

    def __hash__(self):
        return hash(self._counts)

    def __repr__(self):
        first = self._counts[0]
        if all(c == first for c in self._counts) and isinstance(first, int):
            return f"SuitedShoe.decks({first})"
        if (all(c == first for i, c in enumerate(self._counts) if i // 4 != 9)
                and all(c == 0 for c in self._counts[36:40]) and isinstance(first, int)):
            return f"SuitedShoe.decks({first}, spanish=True)"
        return f"SuitedShoe({[list(self._counts[4 * r:4 * r + 4]) for r in range(13)]})"

    def describe(self) -> str:
        """A few words for a table's notes."""
        text = repr(self)
        if text.startswith("SuitedShoe.decks"):
            n = self._counts[0]
            spanish = "spanish" in text
            return f"{n} {'Spanish ' if spanish else ''}deck{'s' if n != 1 else ''}, full"
        counts = ", ".join(str(c) for c in self.rank_counts())
        return f"{float(self.size):g} cards, by rank A..T: {counts}"
