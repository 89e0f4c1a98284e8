"""Side bets settled by the cards first dealt: the player's two cards, and for some the
dealer's up card (or, for insurance, the dealer's hole card under an ace).

Each bet is a ``CardBet``: its outcome names (best first; whatever is not listed loses)
and a labelling of the ordered card kinds drawn (``draws``).  The paying draws are found
once per bet; a shoe then costs one product per paying draw and a sum per outcome.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ..model.suited_shoe import SuitedShoe
from .draws import RANK_OF, RED, SUIT_OF, VALUE_OF

__all__ = ["CARD_BETS", "CardBet"]

QUEEN_OF_HEARTS = 4 * 11 + 1       # kind index of the queen of hearts


@dataclass(frozen=True)
class CardBet:
    """A side bet settled by the first cards dealt.

    name: the bet's key (``"21+3"``); title: its usual name; cards: which cards settle it
    (words for the notes); outcomes: the paying events, best first, mutually exclusive
    (each hand counts once, as its best event); labeller: the card kinds -> label array
    (0 = no paying event, i = ``outcomes[i - 1]``); n_cards: 2 or 3 (the third card is the
    dealer's up card); suits_matter: whether any outcome reads suits."""
    name: str
    title: str
    cards: str
    outcomes: tuple
    labeller: Callable = field(repr=False)
    n_cards: int = 2
    suits_matter: bool = True
    convention: str = ""
    exhaustive: bool = False      # the outcomes cover every hand (no "no win" row)

    @cached_property
    def _paying_draws(self):
        """(the card kinds of every ordered draw that pays, one array per card, grouped by
        outcome; the end of each outcome's group), computed once per bet."""
        shape = (52,) * self.n_cards
        labels = self.labeller(*np.indices(shape)).astype(np.intp).ravel()
        paying = np.nonzero(labels)[0]
        paying = paying[np.argsort(labels[paying], kind="stable")]
        ends = np.cumsum(np.bincount(labels[paying], minlength=len(self.outcomes) + 1)[1:])
        kinds = tuple(k.astype(np.intp) for k in np.unravel_index(paying, shape))
        return kinds, ends

    def _weights(self, counts):
        """Per outcome: the sum over its ordered draws of c1 (c2 - [k2 = k1]) (c3 - ...),
        the number of ordered ways (exact in int64 for a shoe of whole counts)."""
        kinds, ends = self._paying_draws
        ways = counts[kinds[0]].copy()
        for position in range(1, self.n_cards):
            left = counts[kinds[position]].copy()
            for earlier in range(position):
                left -= kinds[earlier] == kinds[position]
            ways *= left
        running = np.concatenate([np.zeros(1, dtype=ways.dtype), np.cumsum(ways)])
        return np.diff(running[np.concatenate([[0], ends])])

    def exact_probabilities(self, shoe: SuitedShoe) -> list:
        """``probabilities`` as Fractions (a shoe of whole counts, at most 20000 a kind)."""
        from fractions import Fraction
        if any(not isinstance(c, int) for c in shoe.counts) or max(shoe.counts) > 20000:
            raise ValueError("exact probabilities need whole counts of at most 20000 a kind")
        ways = [int(w) for w in self._weights(np.array(shoe.counts, dtype=np.int64))]
        n = sum(shoe.counts)
        denominator = 1
        for i in range(self.n_cards):
            denominator *= n - i
        return [Fraction(denominator - sum(ways), denominator)] + [Fraction(w, denominator)
                                                                   for w in ways]

    def probabilities(self, shoe: SuitedShoe, hit_soft_17: bool = False) -> np.ndarray:
        """P(no paying event), then P(each outcome), as an array of len(outcomes) + 1."""
        n = float(shoe.size)
        denominator = 1.0
        for i in range(self.n_cards):
            denominator *= n - i
        if denominator <= 0:
            raise ValueError(f"{self.name}: the shoe holds fewer than {self.n_cards} cards")
        if all(isinstance(c, int) for c in shoe.counts) and max(shoe.counts) <= 20000:
            # whole counts: the ways are exact integers, each probability rounded once
            ways = self._weights(np.array(shoe.counts, dtype=np.int64))
            exact_n = sum(shoe.counts)
            exact_d = 1
            for i in range(self.n_cards):
                exact_d *= exact_n - i
            paying = [int(w) / exact_d for w in ways]
            return np.array([(exact_d - int(ways.sum())) / exact_d] + paying)
        ways = self._weights(shoe.array())
        return np.concatenate([[1 - ways.sum() / denominator], ways / denominator])


def _first_label(conditions) -> np.ndarray:
    """Label of the first true condition (1-based), 0 where none holds."""
    out = np.zeros(np.shape(conditions[0]), dtype=np.int8)
    for i in range(len(conditions), 0, -1):     # the earlier (better) event wins
        out = np.where(conditions[i - 1], i, out)
    return out


# ---- 21+3: the player's two cards and the dealer's up card as a three-card poker hand ----

def _poker3(a, b, c):
    ra, rb, rc = RANK_OF[a], RANK_OF[b], RANK_OF[c]
    flush = (SUIT_OF[a] == SUIT_OF[b]) & (SUIT_OF[b] == SUIT_OF[c])
    trips = (ra == rb) & (rb == rc)
    low = np.minimum(np.minimum(ra, rb), rc)
    high = np.maximum(np.maximum(ra, rb), rc)
    distinct = (ra != rb) & (rb != rc) & (ra != rc)
    # consecutive ranks, the ace low (A-2-3) or high (Q-K-A)
    straight = distinct & ((high - low == 2) | ((low == 0) & (ra + rb + rc == 23)))
    suited_trips = trips & flush
    return _first_label([suited_trips, straight & flush, trips & ~flush, straight & ~flush,
                         flush & ~straight & ~trips])


TWENTY_ONE_PLUS_THREE = CardBet(
    "21+3", "21+3", "the player's two cards and the dealer's up card",
    ("suited trips", "straight flush", "trips", "straight", "flush"), _poker3, n_cards=3,
    convention="a three-card poker hand; the ace plays high (Q-K-A) or low (A-2-3); "
               "T, J, Q, K are distinct ranks")


# ---- Perfect Pairs: the player's two cards ------------------------------------------------

def _pairs(a, b):
    pair = RANK_OF[a] == RANK_OF[b]
    same_suit = SUIT_OF[a] == SUIT_OF[b]
    same_colour = RED[a] == RED[b]
    return _first_label([pair & same_suit, pair & same_colour & ~same_suit,
                         pair & ~same_colour])


PERFECT_PAIRS = CardBet(
    "perfect-pairs", "Perfect Pairs", "the player's two cards",
    ("perfect pair", "coloured pair", "mixed pair"), _pairs,
    convention="a pair is two cards of one rank (a jack and a queen are no pair)")


# ---- Lucky Ladies: the player's two cards totalling 20 ------------------------------------

def _two_card_total(a, b):
    """Blackjack total of two cards (an ace counts 11 when that does not bust)."""
    hard = VALUE_OF[a] + VALUE_OF[b]
    has_ace = (RANK_OF[a] == 0) | (RANK_OF[b] == 0)
    return np.where(has_ace & (hard + 10 <= 21), hard + 10, hard)


def _lucky_ladies(a, b):
    twenty = _two_card_total(a, b) == 20
    queens_of_hearts = (a == QUEEN_OF_HEARTS) & (b == QUEEN_OF_HEARTS)
    matched = twenty & (a == b)
    suited = twenty & (SUIT_OF[a] == SUIT_OF[b])
    # label 1 ("with dealer blackjack") is split off label 2 in LuckyLadies.probabilities
    return _first_label([np.zeros_like(twenty), queens_of_hearts, matched, suited, twenty])


@dataclass(frozen=True)
class _LuckyLadies(CardBet):
    def probabilities(self, shoe: SuitedShoe, hit_soft_17: bool = False) -> np.ndarray:
        probs = super().probabilities(shoe, hit_soft_17)
        # the top award needs the dealer's two cards to be a natural, drawn after the two
        # queens of hearts are out (the dealer's cards are otherwise unknown)
        counts = shoe.array()
        n = counts.sum()
        aces = counts[RANK_OF == 0].sum()
        tens = counts[VALUE_OF == 10].sum() - 2
        natural = 2 * aces * tens / ((n - 2) * (n - 3)) if n > 3 else 0.0
        pair = probs[2]
        probs[1], probs[2] = pair * natural, pair * (1 - natural)
        return probs


LUCKY_LADIES = _LuckyLadies(
    "lucky-ladies", "Lucky Ladies", "the player's two cards (and the dealer's two for the "
    "top award)",
    ("queen of hearts pair with dealer blackjack", "queen of hearts pair", "matched 20",
     "suited 20", "any 20"), _lucky_ladies,
    convention="a total of 20 counts an ace as 11; matched = same rank and suit; the "
               "dealer-blackjack award: the dealer's two cards from the shoe less the "
               "player's two queens")


# ---- Lucky Lucky: the player's two cards and the dealer's up card totalling 19-21 ---------

def _lucky_lucky(a, b, c):
    hard = VALUE_OF[a] + VALUE_OF[b] + VALUE_OF[c]
    has_ace = (RANK_OF[a] == 0) | (RANK_OF[b] == 0) | (RANK_OF[c] == 0)
    total = np.where(has_ace & (hard + 10 <= 21), hard + 10, hard)
    suited = (SUIT_OF[a] == SUIT_OF[b]) & (SUIT_OF[b] == SUIT_OF[c])
    ra, rb, rc = RANK_OF[a], RANK_OF[b], RANK_OF[c]
    sevens = (ra == 6) & (rb == 6) & (rc == 6)
    six_seven_eight = ((ra != rb) & (rb != rc) & (ra != rc)
                       & (np.minimum(np.minimum(ra, rb), rc) == 5)
                       & (np.maximum(np.maximum(ra, rb), rc) == 7))
    return _first_label([sevens & suited, six_seven_eight & suited, sevens, six_seven_eight,
                         (total == 21) & suited, total == 21, total == 20, total == 19])


LUCKY_LUCKY = CardBet(
    "lucky-lucky", "Lucky Lucky", "the player's two cards and the dealer's up card",
    ("suited 7-7-7", "suited 6-7-8", "7-7-7", "6-7-8", "suited 21", "21", "20", "19"),
    _lucky_lucky, n_cards=3,
    convention="the three cards' blackjack total (one ace may count 11); suited = all three "
               "of one suit")


# ---- Royal Match: the player's two cards suited -------------------------------------------

def _royal_match(a, b):
    suited = SUIT_OF[a] == SUIT_OF[b]
    king_queen = ((RANK_OF[a] == 11) & (RANK_OF[b] == 12)) | ((RANK_OF[a] == 12)
                                                              & (RANK_OF[b] == 11))
    return _first_label([suited & king_queen, suited])


ROYAL_MATCH = CardBet(
    "royal-match", "Royal Match", "the player's two cards",
    ("royal match", "easy match"), _royal_match,
    convention="royal match = a suited king and queen; easy match = any other two suited "
               "cards")


# ---- Match the Dealer: the player's cards matching the up card's rank ---------------------

def _match_dealer(a, b, up):
    match_a, match_b = RANK_OF[a] == RANK_OF[up], RANK_OF[b] == RANK_OF[up]
    suited_a, suited_b = a == up, b == up
    suited = suited_a.astype(np.int8) + suited_b
    matches = match_a.astype(np.int8) + match_b
    return _first_label([suited == 2, (suited == 1) & (matches == 2), suited == 1,
                         matches == 2, matches == 1])


MATCH_THE_DEALER = CardBet(
    "match-the-dealer", "Match the Dealer", "the player's two cards against the dealer's up "
    "card",
    ("two suited matches", "suited and unsuited match", "suited match", "two unsuited matches",
     "unsuited match"), _match_dealer, n_cards=3,
    convention="a match = same rank as the up card (T, J, Q, K distinct); suited = same rank "
               "and suit")


# ---- Over/Under 13: the player's two cards, ace = 1 ---------------------------------------

def _thirteen(a, b):
    total = VALUE_OF[a] + VALUE_OF[b]
    return _first_label([total > 13, total == 13, total < 13])


def _over_under(name, title):
    return CardBet(name, title, "the player's two cards", ("over 13", "exactly 13", "under 13"),
                   _thirteen, suits_matter=False, exhaustive=True,
                   convention="the two cards' total with an ace counted 1")


OVER_13 = _over_under("over-13", "Over 13")
UNDER_13 = _over_under("under-13", "Under 13")
EXACTLY_13 = _over_under("exactly-13", "Exactly 13")


# ---- Insurance: the dealer's hole card under an ace ---------------------------------------

@dataclass(frozen=True)
class _Insurance(CardBet):
    def probabilities(self, shoe: SuitedShoe, hit_soft_17: bool = False) -> np.ndarray:
        counts = shoe.array()
        n = counts.sum()
        if counts[RANK_OF == 0].sum() < 1 or n < 2:
            raise ValueError("insurance: the shoe holds no ace for the dealer's up card")
        natural = counts[VALUE_OF == 10].sum() / (n - 1)
        return np.array([1 - natural, natural])


INSURANCE = _Insurance(
    "insurance", "Insurance", "the dealer's hole card under an ace up", ("dealer blackjack",),
    lambda a, b: np.zeros_like(a), suits_matter=False,
    convention="the dealer's ace is taken out of the shoe given; the player's own cards "
               "count only if removed from the shoe (unknown cards change nothing on average)")


# ---- Bust It: the dealer busts with exactly three cards ------------------------------------

def _bust_it(a, b, c):
    # a, b: the dealer's first two cards, c: the third.  Only a hard 12..16 (no ace) can
    # bust on one card, and the dealer draws to it under either soft-17 rule
    first_two = VALUE_OF[a] + VALUE_OF[b]
    no_ace = (RANK_OF[a] != 0) & (RANK_OF[b] != 0)
    bust = no_ace & (first_two >= 12) & (first_two <= 16) & (first_two + VALUE_OF[c] > 21)
    eights = (RANK_OF[a] == 7) & (RANK_OF[b] == 7) & (RANK_OF[c] == 7)
    suited = (SUIT_OF[a] == SUIT_OF[b]) & (SUIT_OF[b] == SUIT_OF[c])
    colour = (RED[a] == RED[b]) & (RED[b] == RED[c])
    third = VALUE_OF[c]
    return _first_label([bust & eights & suited, bust & eights & colour,
                         bust & (third == 6), bust & (third == 7), bust & (third == 8),
                         bust & (third == 9), bust & (third == 10)])


BUST_IT = CardBet(
    "bust-it", "Bust It", "the dealer's first three cards",
    ("suited 8-8-8", "same-colour 8-8-8", "bust on a 6", "bust on a 7", "bust on an 8",
     "bust on a 9", "bust on a ten"), _bust_it, n_cards=3,
    convention="wins when the dealer busts with exactly three cards (the dealer draws a "
               "third card to any 12..16), paid by the busting card")


CARD_BETS = {bet.name: bet for bet in (
    TWENTY_ONE_PLUS_THREE, PERFECT_PAIRS, LUCKY_LADIES, LUCKY_LUCKY, ROYAL_MATCH,
    MATCH_THE_DEALER, OVER_13, UNDER_13, EXACTLY_13, INSURANCE, BUST_IT)}
