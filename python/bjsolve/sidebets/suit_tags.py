"""The tags of the counts over cards (rank and suit): the published suit systems, 52 tags
or a mapping {card or rank: tag}, and the name of the four suit counts.  Read by the counted
side bet, the simulator and ``suits`` (kept apart so that they need not import each other).
"""
from __future__ import annotations

import numpy as np

from ..counting.removal import finite_number
from ..model import show
from ..model.suited_shoe import parse_card

__all__ = ["FOUR_SUITS", "SUIT_SYSTEMS", "cell_tags", "is_four_suit_count"]

FOUR_SUITS = "suits"
# name -> (title, tags of the suits S, H, D, C; None: the four suit counts, not one tag sum)
SUIT_SYSTEMS = {
    "red-black": ("Red-black (hearts, diamonds +1; spades, clubs -1)", (-1, 1, 1, -1)),
    FOUR_SUITS: ("Four suit counts (the cards seen of each suit)", None),
}


def is_four_suit_count(system) -> bool:
    """Whether ``system`` names the four suit counts ("suits")."""
    return isinstance(system, str) and system.strip().lower() == FOUR_SUITS


def cell_tags(system) -> np.ndarray:
    """The 52 tags (kind = 4 x rank + suit) of a count over cards: a suit system's name
    (``SUIT_SYSTEMS``), 52 numbers in that order, or a mapping {card or rank: tag} ('QH':
    that card, 'Q': every queen; a card overrides its rank; cards not named: 0)."""
    if isinstance(system, str):
        key = system.strip().lower()
        if key not in SUIT_SYSTEMS:
            raise ValueError(f"system: {show(system)} is not a suit count; known: "
                             f"{', '.join(SUIT_SYSTEMS)}")
        suits = SUIT_SYSTEMS[key][1]
        if suits is None:
            raise ValueError("system: 'suits' is the four suit counts, not one tag per card")
        return np.tile(np.array(suits, dtype=float), 13)
    if isinstance(system, dict):
        tags = np.zeros(52)
        # ranks first, then cards, so that a card's own tag wins
        items = sorted(system.items(), key=lambda item: parse_card(item[0], field="tags")[1]
                       is not None)
        for card, tag in items:
            rank, suit = parse_card(card, field="tags")
            value = finite_number(tag, "tags")
            ranks = range(9, 13) if rank is None else (rank,)
            for r in ranks:
                for s in (range(4) if suit is None else (suit,)):
                    tags[4 * r + s] = value
        return tags
    try:
        values = tuple(system)
    except TypeError:
        raise TypeError(f"tags: give 52 tags (cards AS, AH, AD, AC, 2S, ..., KC), a mapping "
                        f"{{card: tag}} or a suit system's name, got {show(system)}") from None
    if len(values) != 52:
        raise ValueError(f"tags: a count over cards needs 52 tags, got {len(values)}")
    return np.array([finite_number(t, "tags") for t in values], dtype=float)
