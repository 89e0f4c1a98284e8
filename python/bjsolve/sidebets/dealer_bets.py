"""Side bets on how the dealer's hand ends: Buster Blackjack (by the number of cards in the
dealer's bust), Bust Bonus (by the up card, suited busts, 8-8-8) and Free Bet's Push 22.

Convention: the dealer's cards come from the shoe given.  The player's cards are unseen
when these bets are made, and removing unseen cards changes no probability on average, so
this is both the published convention (only the player's first two cards out) and the
player's hands played out (``played_out`` explains why, and checks the round fits the
shoe).  Buster's player-blackjack awards remove the player's ace and ten first.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..model.suited_shoe import SuitedShoe
from .dealer_hands import final_hands, hand_probabilities_from, rank_suit_counts

__all__ = ["BUST_BONUS_UPCARDS", "DEALER_BETS", "DealerBet"]

BUST_BONUS_UPCARDS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")


@lru_cache(maxsize=16)
def _hands(hit_soft_17: bool, which: str):
    """The final hands a bet reads: "all", "bust", "22"."""
    hands = final_hands(hit_soft_17)
    if which == "bust":
        return hands.subset(hands.total > 21)
    if which == "22":
        return hands.subset(hands.total == 22)
    return hands


def _dealer_laws(shoe: SuitedShoe, hit_soft_17: bool, which: str = "all", *, minus=None,
                 suits: bool = True):
    """(hands, P(each hand), P(each hand with every card of one suit), P(each hand with
    every card of one colour)) over the final hands ``which`` names, the shoe less
    ``minus`` (rank counts).  Checks that the shoe cannot run out under the dealer."""
    every = _hands(bool(hit_soft_17), "all")
    hands = _hands(bool(hit_soft_17), which)
    by_suit = rank_suit_counts(shoe.array())
    ranks = by_suit.sum(axis=1)
    if minus is not None:
        ranks = ranks - minus
    total = ranks.sum()
    with np.errstate(invalid="ignore", divide="ignore"):
        if total < 1 or ranks.min() < 0:
            raise ValueError("shoe too small for the dealer's hand")
        if total < int(every.cards.max()):
            # a small shoe: check that the dealer can always finish
            p_all = np.nan_to_num(hand_probabilities_from(every, ranks, total))
            if abs(p_all.sum() - 1) > 1e-9:
                raise ValueError(f"shoe too small: the dealer could run out of cards (the "
                                 f"final hands' chances sum to {p_all.sum():.6g})")
        p = np.nan_to_num(hand_probabilities_from(hands, ranks, total))
        if not suits:
            return hands, p, None, None
        suited = sum(np.nan_to_num(hand_probabilities_from(hands, by_suit[:, s], total))
                     for s in range(4))
        coloured = sum(np.nan_to_num(hand_probabilities_from(hands, by_suit[:, pair].sum(axis=1),
                                                              total))
                       for pair in ((0, 3), (1, 2)))
    return hands, p, suited, coloured


@dataclass(frozen=True)
class DealerBet:
    """A side bet settled by the dealer's final hand (fields as ``CardBet``'s)."""
    name: str
    title: str
    cards: str
    outcomes: tuple
    suits_matter: bool = True
    # (which of the player's cards are out is added by played_out.convention_of)
    convention: str = ""

    def probabilities(self, shoe: SuitedShoe, hit_soft_17: bool = False) -> np.ndarray:
        raise NotImplementedError


class _Buster(DealerBet):
    def probabilities(self, shoe, hit_soft_17=False):
        hands, p, _, _ = _dealer_laws(shoe, hit_soft_17, "bust", suits=False)
        bust = hands.total > 21
        by_cards = [p[bust & (hands.cards == k)].sum() for k in range(3, 8)]
        by_cards.append(p[bust & (hands.cards >= 8)].sum())            # 3, 4, 5, 6, 7, 8+
        # the player's natural and the dealer's 7- or 8+-card bust together: the player's
        # ace and ten out first (suits do not matter)
        ranks = rank_suit_counts(shoe.array()).sum(axis=1)
        n = ranks.sum()
        natural = 2 * ranks[0] * ranks[9] / (n * (n - 1))
        with_bj = [0.0, 0.0]
        if natural > 0:
            minus = np.zeros(10)
            minus[0] = minus[9] = 1
            hands2, p2, _, _ = _dealer_laws(shoe, hit_soft_17, "bust", minus=minus, suits=False)
            bust2 = hands2.total > 21
            with_bj = [natural * p2[bust2 & (hands2.cards >= 8)].sum(),
                       natural * p2[bust2 & (hands2.cards == 7)].sum()]
        winning = [with_bj[0], with_bj[1], by_cards[5] - with_bj[0], by_cards[4] - with_bj[1],
                   by_cards[3], by_cards[2], by_cards[1], by_cards[0]]
        return np.array([1 - sum(winning)] + winning)


BUSTER = _Buster(
    "buster", "Buster Blackjack", "the dealer's final hand (and the player's first two cards "
    "for the blackjack awards)",
    ("bust 8+ cards, player blackjack", "bust 7 cards, player blackjack", "bust 8+ cards",
     "bust 7 cards", "bust 6 cards", "bust 5 cards", "bust 4 cards", "bust 3 cards"),
    suits_matter=False,
    convention="the dealer plays out the hand even against a player natural; a player "
    "blackjack award is paid on the bettor's own spot's natural")


class _BustBonus(DealerBet):
    """Made after the up card is seen, and (ten or ace up) after the dealer has checked
    for a natural: every probability is given that the bet is offered."""

    def probabilities(self, shoe, hit_soft_17=False, dealer=None):
        # offered: no dealer natural (the chance of one is exact from the two cards)
        ranks = rank_suit_counts(shoe.array()).sum(axis=1)
        n = ranks.sum()
        up_chance = ranks / n
        natural = np.zeros(10)
        natural[0] = ranks[0] * ranks[9] / (n * (n - 1))
        natural[9] = natural[0]
        offered_by_up = up_chance - natural
        weight = offered_by_up.sum() if dealer is None else offered_by_up[dealer - 1]
        if weight <= 0:
            raise ValueError("bust-bonus: the bet is never offered on this shoe")
        hands, p, suited, _ = _dealer_laws(shoe, hit_soft_17, "bust")
        bust = np.ones(len(p), dtype=bool)
        if dealer is not None:
            bust = bust & (hands.up == dealer)
        eights = bust & (hands.up == 8) & (hands.mult[:, 7] == 3) & (hands.cards == 3)
        out = [suited[eights].sum(), (p - suited)[eights].sum()]
        for up in range(1, 11):
            here = bust & ~eights & (hands.up == up)
            out += [suited[here].sum(), (p - suited)[here].sum()]
        out = [x / weight for x in out]
        return np.array([1 - sum(out)] + out)


BUST_BONUS = _BustBonus(
    "bust-bonus", "Bust Bonus", "the dealer's final hand, the bet made after the up card "
    "(and the peek) is seen",
    ("suited 8-8-8", "8-8-8") + tuple(f"{u} up: {kind}" for u in BUST_BONUS_UPCARDS
                                      for kind in ("suited bust", "bust")),
    convention="the bet is made after the up card, and with a ten or "
    "ace up only once the dealer has no natural: probabilities are given that the bet is "
    "made; suited = every dealer card of one suit")


class _Push22(DealerBet):
    def probabilities(self, shoe, hit_soft_17=False):
        hands, p, suited, coloured = _dealer_laws(shoe, hit_soft_17, "22")
        twenty_two = hands.total == 22
        s = suited[twenty_two].sum()
        c = coloured[twenty_two].sum() - s
        any_ = p[twenty_two].sum() - s - c
        return np.array([1 - s - c - any_, s, c, any_])


PUSH_22 = _Push22(
    "push-22", "Push 22 (Free Bet Blackjack)", "the dealer's final hand",
    ("suited 22", "same-colour 22", "22"),
    convention="wins when the dealer's final total is exactly 22 "
    "(a dealer natural does not draw)")


DEALER_BETS = {bet.name: bet for bet in (BUSTER, BUST_BONUS, PUSH_22)}
