"""The 52 card kinds (index = 4 * rank index + suit) and what a side bet reads off them.

A side bet on the player's two cards (and the dealer's up card) is settled by the kinds of
those cards alone, so its outcome probabilities are sums of ordered-draw probabilities
    P(k1, k2, k3) = c1 (c2 - [k2 = k1]) (c3 - [k3 = k1] - [k3 = k2]) / (N (N - 1) (N - 2))
over the 52^2 or 52^3 ordered kinds, grouped by an outcome label that depends on the kinds
only (``card_bets.CardBet`` labels them once per bet).
"""
from __future__ import annotations

import numpy as np

from ..model.suited_shoe import KINDS

__all__ = ["RANK_OF", "RED", "SUIT_OF", "VALUE_OF", "falling"]

KIND = np.arange(KINDS)
RANK_OF = KIND // 4               # 0..12: A, 2..9, T, J, Q, K
SUIT_OF = KIND % 4                # 0..3: S, H, D, C
VALUE_OF = np.minimum(RANK_OF + 1, 10)   # blackjack value, ace = 1
RED = (SUIT_OF == 1) | (SUIT_OF == 2)


def falling(n, m) -> np.ndarray:
    """The falling factorial n (n - 1) ... (n - m + 1), elementwise (n and m broadcast;
    m whole, >= 0): the number of ordered ways to draw m cards from n.  The one copy the
    side bets share (the dealer's final hands, the counted model)."""
    n = np.asarray(n, dtype=float)
    m = np.asarray(m)
    out = np.ones(np.broadcast(n, m).shape)
    for i in range(int(m.max()) if m.size else 0):
        out = out * np.where(i < m, n - i, 1.0)
    return out
