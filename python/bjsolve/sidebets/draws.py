"""Exact chances of the first two or three cards dealt, by card kind, as numpy arrays.

A side bet on the player's two cards (and the dealer's up card) is settled by the kinds of
those cards alone, so its outcome probabilities are sums of ordered-draw probabilities
    P(k1, k2, k3) = c1 (c2 - [k2 = k1]) (c3 - [k3 = k1] - [k3 = k2]) / (N (N - 1) (N - 2))
over the 52^2 or 52^3 ordered kinds, grouped by an outcome label that depends on the kinds
only (computed once per bet: ``classify2``/``classify3``).  Which of the three cards is the
dealer's does not matter for the bets here: each label is symmetric in the cards it reads.
"""
from __future__ import annotations

import numpy as np

from .suited_shoe import KINDS

__all__ = ["RANK_OF", "SUIT_OF", "VALUE_OF", "RED", "two_card_probabilities",
           "three_card_probabilities", "grouped"]

KIND = np.arange(KINDS)
RANK_OF = KIND // 4               # 0..12: A, 2..9, T, J, Q, K
SUIT_OF = KIND % 4                # 0..3: S, H, D, C
VALUE_OF = np.minimum(RANK_OF + 1, 10)   # blackjack value, ace = 1
RED = (SUIT_OF == 1) | (SUIT_OF == 2)
_EYE = np.eye(KINDS)


def two_card_probabilities(counts: np.ndarray) -> np.ndarray:
    """P(first card kind i, second kind j), a 52 x 52 array summing to 1."""
    n = counts.sum()
    pairs = counts[:, None] * (counts[None, :] - _EYE)
    return pairs / (n * (n - 1))


def three_card_probabilities(counts: np.ndarray) -> np.ndarray:
    """P(kinds i, j, k in that order), a 52 x 52 x 52 array summing to 1."""
    n = counts.sum()
    pairs = counts[:, None] * (counts[None, :] - _EYE)
    third = counts[None, None, :] - _EYE[:, None, :] - _EYE[None, :, :]
    return pairs[:, :, None] * third / (n * (n - 1) * (n - 2))


def grouped(probabilities: np.ndarray, labels: np.ndarray, n_labels: int) -> np.ndarray:
    """Sum of ``probabilities`` per label 0..n_labels-1 (same shapes)."""
    return np.bincount(labels.ravel(), weights=probabilities.ravel(), minlength=n_labels)
