"""Counting suits: the best linear count over the (rank, suit) cells, the published suit
counts, and the four suit counts a counter of flushes keeps.

A rank count tags the 13 ranks; where a bet pays on suits (21+3's flush, Perfect Pairs'
coloured and perfect pairs, Royal Match, Lucky Ladies' suited 20 and queen of hearts, Lucky
Lucky's suited hands) a counter can tag each card, rank and suit together: 52 tags, one
running count (``cell_tags``; the best such count, from the effects of removal of each card:
``suit_count``).  The red-black count (``SUIT_SYSTEMS``) is the published one of this form.

On a full shoe the four suits are alike, so each suit's effect of removal is the same and a
count that is linear in the suits cannot follow a flush: a flush pays on how uneven the suits
left are (roughly the sum of the squares of their excesses).  What follows it is the four
suit counts, the cards seen of each suit (``system="suits"`` in ``counted_sidebet`` and
``simulate_sidebet``); ``SuitCount.suit_pair_effect`` measures the effect they see: the
value after two cards of one suit are seen, less the value after two cards of two suits.
"""
from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numpy as np

from ..model import show
from ..model.suited_shoe import RANK_NAMES, SUIT_NAMES, card_name, parse_card
from .suit_tags import FOUR_SUITS, SUIT_SYSTEMS, cell_tags, is_four_suit_count

__all__ = ["FOUR_SUITS", "SUIT_SYSTEMS", "SuitCount", "cell_tags", "is_four_suit_count",
           "suit_count"]


@dataclass(frozen=True)
class SuitCount:
    """The best linear count over the (rank, suit) cells of a side bet, and its suit effects.

    cards: the cards the shoe holds ('AS', ..., 'KC'); eor: each one's effect of removal on
    the bet's value per unit; tags: small integers proportional to them (the least-squares
    count over cards); level: their largest size; correlation: of the tags with the
    effects, weighted by the shoe's cards (1 = the ideal linear count); rank_correlation:
    the same for the best rank count of the same level (``best_count``): what tagging
    suits adds; by_suit: the effect of removing one card of each suit (rank in proportion);
    suit_pair_effect: the value after two cards of one suit are seen minus after two cards
    of two suits (ranks unknown; NaN where not computed: a dealer bet, a shoe of fractional
    counts); published: {count: correlation over cards} for the rank systems and the
    published suit counts."""
    bet: str
    cards: tuple
    eor: tuple
    tags: tuple
    level: int
    correlation: float
    rank_correlation: float
    by_suit: dict
    suit_pair_effect: float
    published: dict

    def tag(self, card: str) -> int:
        """The tag of one card, e.g. 'QH'."""
        rank, suit = parse_card(card, field="card")
        if rank is None or suit is None:
            raise ValueError(f"card: give a rank and a suit such as 'QH', got {show(card)}")
        name = RANK_NAMES[rank] + SUIT_NAMES[suit]
        if name not in self.cards:
            raise ValueError(f"card: the shoe holds no {name}")
        return self.tags[self.cards.index(name)]


def suit_count(name, paytable=None, *, shoe=None, decks=None, remove=(),
               hit_soft_17: bool = False, dealer=None, spanish: bool = False,
               max_level: int = 3, effects=None) -> SuitCount:
    """The best linear count over the 52 (rank, suit) cells for side bet ``name`` (from
    ``effects_of_removal``'s effects by card), with the published counts' correlations over
    the cards and the suit effects.  Arguments as ``best_count``."""
    from ..counting import SYSTEMS
    from .analysis import best_count, bet, effects_of_removal
    from .paytables import paytable as resolve
    if isinstance(max_level, bool) or not isinstance(max_level, int) or not 1 <= max_level <= 10:
        raise ValueError(f"max_level must be a whole number 1..10, got {show(max_level)}")
    if effects is None:
        effects = effects_of_removal(name, paytable, shoe=shoe, decks=decks, remove=remove,
                                     hit_soft_17=hit_soft_17, dealer=dealer, spanish=spanish)
    table = resolve(bet(effects.bet), paytable if paytable is not None else effects.paytable)
    counts = np.array([float(c) for c in effects.shoe.counts])
    present = [int(k) for k in np.flatnonzero(counts > 0)]
    weights = counts[present]
    eor = np.array([effects.by_kind[card_name(k)] for k in present])
    biggest = np.abs(eor).max() if len(eor) else 0.0
    tags, corr, level = np.zeros(len(present), dtype=int), math.nan, 0
    if biggest > 1e-15:
        corr = -2.0
        for trial in range(1, max_level + 1):
            trial_tags = np.round(eor / biggest * trial).astype(int)
            trial_corr = _correlation(trial_tags, eor, weights)
            if trial_corr > corr + 1e-12:
                tags, corr, level = trial_tags, trial_corr, trial
    ranks = best_count(name, effects=effects, max_level=max_level)
    rank_tags = list(ranks.tags) + [ranks.tags[9]] * (13 - len(ranks.tags))
    by_rank = np.repeat(np.array(rank_tags, dtype=float), 4)[present]
    published = {}
    for title, system in SYSTEMS.values():
        published[title] = _correlation(
            np.repeat(np.array(list(system) + [system[9]] * 3, dtype=float), 4)[present],
            eor, weights)
    for key, (title, suits) in SUIT_SYSTEMS.items():
        if suits is not None:
            published[title] = _correlation(cell_tags(key)[present], eor, weights)
    return SuitCount(effects.bet, tuple(card_name(k) for k in present),
                     tuple(float(e) for e in eor), tuple(int(t) for t in tags), level,
                     float(corr), _correlation(by_rank, eor, weights) if level else math.nan,
                     dict(effects.by_suit), _suit_pair_effect(effects, table, hit_soft_17),
                     published)


def _correlation(tags, effects, weights) -> float:
    from .analysis import _correlation as weighted
    return weighted(tags, effects, weights)


def _suit_pair_effect(effects, table, hit_soft_17) -> float:
    """E[value | two cards seen, one suit] - E[value | two cards seen, two suits], exact from
    the four-suit count model (card bets on a shoe of whole counts; NaN otherwise)."""
    from .analysis import bet
    from .card_bets import CardBet
    from .counted import CountModel
    the_bet = bet(effects.bet)
    shoe = effects.shoe
    if not isinstance(the_bet, CardBet) or any(not isinstance(c, numbers.Integral)
                                               for c in shoe.counts) or shoe.size < 3:
        return math.nan
    model = CountModel(the_bet, table, shoe, FOUR_SUITS, hit_soft_17)
    seen, _ = model.seen_vectors(2)
    _, mass, _, net = model.value_by_running_count(2)
    same = seen.max(axis=1) == 2
    if not same.any() or same.all():
        return math.nan
    value = net[:, 0]
    return float(value[same].sum() / mass[same].sum() - value[~same].sum() / mass[~same].sum())
