"""Every final dealer hand, by the multiset of its cards, with exact card removal and suits.

The chance that the dealer's cards come out as one particular sequence is
    prod over ranks r of n_r (n_r - 1) ... (n_r - m_r + 1) / (N (N - 1) ... (N - k + 1)),
which depends on the multiset {m_r} of the sequence only.  Whether the dealer stands also
depends on the multiset only (its total and whether an ace counts 11), so a final hand's
chance is (number of valid drawing orders, the up card first) x that product.  The orders
are counted once per rule (S17/H17) by a walk over multisets (``final_hands``); a shoe then
costs one gather-and-product over the few thousand final hands (``hand_probabilities``).

The same product over the cards of one suit gives the chance that every dealer card is of
that suit (ten-valued cards pooled within a suit), which the suited bust bets need.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .draws import falling

__all__ = ["FinalHands", "final_hands", "hand_probabilities", "hand_probabilities_from",
           "rank_suit_counts"]


@dataclass(frozen=True)
class FinalHands:
    """The dealer's final hands under one rule: arrays over hands h.

    up[h]: the up card's rank 1..10; mult[h, r]: cards of rank r + 1 in the hand (the up
    card included); cards[h]; total[h]: the final total (22 and above: bust); natural[h];
    orders[h]: the number of drawing orders after the up card that end in this hand."""
    up: np.ndarray
    mult: np.ndarray
    cards: np.ndarray
    total: np.ndarray
    natural: np.ndarray
    orders: np.ndarray

    def subset(self, mask) -> FinalHands:
        """The hands where ``mask`` holds."""
        return FinalHands(self.up[mask], self.mult[mask], self.cards[mask], self.total[mask],
                          self.natural[mask], self.orders[mask])

    @property
    def _entries(self):
        """(rank, multiplicity, start of each hand): the hands' nonzero rank counts laid
        end to end, so that a product over a hand's ranks is one multiply.reduceat."""
        cached = self.__dict__.get("_entries_cache")
        if cached is None:
            hand, rank = np.nonzero(self.mult)
            starts = np.searchsorted(hand, np.arange(len(self.up)))
            cached = (rank, self.mult[hand, rank], starts)
            object.__setattr__(self, "_entries_cache", cached)
        return cached


def _stands(mult: tuple, hit_soft_17: bool):
    """(stands, total) of a hand given by its rank counts (index 0 = aces)."""
    hard = sum((r + 1) * m for r, m in enumerate(mult))
    soft = mult[0] > 0 and hard + 10 <= 21
    total = hard + 10 if soft else hard
    if total < 17:
        return False, total
    if total == 17 and soft and hit_soft_17:
        return False, total
    return True, total


@lru_cache(maxsize=2)
def final_hands(hit_soft_17: bool) -> FinalHands:
    """All final dealer hands (infinite supply of each rank; a finite shoe gives the
    impossible ones probability 0 through the falling factorials)."""
    rows = []
    for up in range(1, 11):
        start = tuple(1 if r == up - 1 else 0 for r in range(10))
        layer = {start: 1}                   # drawing hands of k cards -> orders
        while layer:
            following: dict = {}
            for hand, orders in layer.items():
                for r in range(10):
                    nxt = hand[:r] + (hand[r] + 1,) + hand[r + 1:]
                    done, total = _stands(nxt, hit_soft_17)
                    if done or total > 21:
                        rows.append((up, nxt, total, orders))
                    else:
                        following[nxt] = following.get(nxt, 0) + orders
            layer = following
    # the same final multiset is reached from different last draws: merge
    merged: dict = {}
    for up, hand, total, orders in rows:
        key = (up, hand)
        merged[key] = (total, merged.get(key, (total, 0))[1] + orders)
    keys = list(merged)
    mult = np.array([hand for _, hand in keys], dtype=np.intp)
    cards = mult.sum(axis=1)
    total = np.array([merged[k][0] for k in keys])
    return FinalHands(
        up=np.array([up for up, _ in keys]), mult=mult, cards=cards, total=total,
        natural=(cards == 2) & (total == 21),
        orders=np.array([float(merged[k][1]) for k in keys]))


def hand_probabilities(hands: FinalHands, rank_counts: np.ndarray) -> np.ndarray:
    """P(the dealer's cards make each final hand, all cards of the given counts):
    ``rank_counts`` is the count of each rank A..T the dealer's cards must come from, and
    the shoe's total is ``rank_counts``' total."""
    return hand_probabilities_from(hands, rank_counts, rank_counts.sum())


def hand_probabilities_from(hands: FinalHands, rank_counts: np.ndarray, total: float
                            ) -> np.ndarray:
    """As ``hand_probabilities``, with the dealer's cards restricted to ``rank_counts`` (a
    suit, a colour) out of a shoe of ``total`` cards."""
    top = int(hands.mult.max())
    # table[r, m] = n_r (n_r - 1) ... (n_r - m + 1), m = 0..top
    table = falling(np.asarray(rank_counts, dtype=float)[:, None], np.arange(top + 1)[None, :])
    rank, mult, starts = hands._entries
    numer = np.multiply.reduceat(table[rank, mult], starts)
    k_top = int(hands.cards.max())
    denominators = np.ones(k_top + 1)
    for k in range(1, k_top + 1):
        denominators[k] = denominators[k - 1] * (total - (k - 1))
    return hands.orders * numer / denominators[hands.cards]


def rank_suit_counts(counts52: np.ndarray) -> np.ndarray:
    """A 52-kind count array as a 10 x 4 array: ranks A..T (ten-valued pooled) by suit."""
    by = counts52.reshape(13, 4)
    return np.vstack([by[:9], by[9:].sum(axis=0, keepdims=True)])
