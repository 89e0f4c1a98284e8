"""Edges, effects of removal and the best linear count of every side bet.

``edge`` gives the exact probability of each outcome and the expected value per unit bet
under a pay table; ``effects_of_removal`` how that value moves when one card leaves the
shoe (by card kind, rank and suit); ``best_count`` the linear count that follows it best.
"""
from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field

import numpy as np

from ..model import Shoe, rank, show
from ..model.suited_shoe import RANK_NAMES, SUIT_NAMES, SuitedShoe, card_name
from .card_bets import CARD_BETS
from .dealer_bets import DEALER_BETS
from .paytables import PRESETS, PayTable
from .paytables import paytable as _resolve_paytable
from .played_out import DEALER_DRAWN_BETS, check_round_fits, convention_of, resolve_play

__all__ = ["BETS", "BestCount", "RemovalEffects", "SideBetResult", "best_count", "bet", "edge",
           "edges_table", "effects_of_removal", "resolve_shoe"]

BETS = {**CARD_BETS, **DEALER_BETS}
DEFAULT_DECKS = 6
# bets whose value is conditioned on what is seen (an ace up; the up card and the peek):
# for them the removal effects need not sum to zero over the shoe
CONDITIONED = ("insurance", "bust-bonus")


def bet(name):
    """The bet called ``name`` (see ``BETS``)."""
    if not isinstance(name, str):
        raise TypeError(f"bet must be a side bet's name, got {show(name)}")
    key = name.strip().lower()
    if key not in BETS:
        raise ValueError(f"bet: {show(name)} is not a side bet; known: {', '.join(BETS)}")
    return BETS[key]


def resolve_shoe(shoe=None, *, decks=None, remove=(), spanish: bool = False) -> SuitedShoe:
    """The shoe analysed: a ``SuitedShoe``, a ``bjsolve.Shoe`` (suits spread evenly), or
    ``decks`` full decks (default 6; ``spanish``: 48-card decks); less ``remove``."""
    if shoe is not None and decks is not None:
        raise ValueError("give shoe or decks, not both")
    if shoe is None:
        shoe = SuitedShoe.decks(DEFAULT_DECKS if decks is None else decks, spanish=spanish)
    elif isinstance(shoe, Shoe):
        shoe = SuitedShoe.from_shoe(shoe)
    elif isinstance(shoe, numbers.Integral) and not isinstance(shoe, bool):
        shoe = SuitedShoe.decks(int(shoe), spanish=spanish)
    elif not isinstance(shoe, SuitedShoe):
        raise TypeError(f"shoe must be a SuitedShoe, a bjsolve.Shoe or a number of decks, "
                        f"got {show(shoe)}")
    if isinstance(remove, (str, numbers.Integral)):
        remove = (remove,)
    if remove:
        shoe = shoe.remove(*remove)
    return shoe


def _dealer_card(the_bet, dealer):
    if dealer is None:
        return None
    if the_bet.name != "bust-bonus":
        raise ValueError(f"dealer: only bust-bonus is made after the up card is seen, not "
                         f"{the_bet.name}")
    return rank(dealer, field="dealer")


def _check_soft17(value):
    if not isinstance(value, bool):
        raise TypeError(f"hit_soft_17 must be True or False, got {show(value)}")
    return value


@dataclass(frozen=True)
class SideBetResult:
    """One side bet on one shoe: ``probabilities`` {outcome: P} (the outcomes best first, then "no
    win" unless the outcomes cover every hand, as Over/Under 13's do), ``pays`` {outcome:
    pay to one}, ``expected_value`` per unit bet (the player's; the house edge is its
    negative), ``sd`` per unit bet, ``convention``: what is removed and assumed;
    ``strategy`` and ``spots``: how the player's cards leave the shoe before the dealer
    draws ("two-cards", or the hands played out: sidebets.played_out)."""
    bet: str
    title: str
    paytable: PayTable
    probabilities: dict
    expected_value: float
    sd: float
    shoe: SuitedShoe
    hit_soft_17: bool
    convention: str
    dealer: int | None = None
    strategy: str = "two-cards"
    spots: int = 1

    @property
    def house_edge(self) -> float:
        """-expected_value: the house's share of each unit bet."""
        return -self.expected_value

    @property
    def pays(self) -> dict:
        return {o: self.paytable.pay(o) for o in self.probabilities}

    def __repr__(self):
        return (f"SideBetResult({self.bet!r}, paytable={self.paytable.name!r}, "
                f"house_edge={self.house_edge:.6%}, shoe={self.shoe.describe()})")


def _ev(the_bet, table: PayTable, probs: np.ndarray):
    pays = np.array([-1.0] + [table.pay(o) for o in the_bet.outcomes])
    mean = float(probs @ pays)
    second = float(probs @ pays ** 2)
    return mean, math.sqrt(max(second - mean * mean, 0.0))


def _probabilities(the_bet, shoe, hit_soft_17, up):
    if up is not None:
        return the_bet.probabilities(shoe, hit_soft_17, dealer=up)
    return the_bet.probabilities(shoe, hit_soft_17)


def _play(the_bet, suited, hit_soft_17, strategy, spots, rules, spare=0):
    """The checked play keywords; a played-out round must fit in the shoe."""
    play = resolve_play(strategy, spots, rules, hit_soft_17)
    if the_bet.name in DEALER_DRAWN_BETS:
        check_round_fits(suited, play, spare)
    return play


def edge(name, paytable=None, *, shoe=None, decks=None, remove=(),
         hit_soft_17: bool = False, dealer=None, spanish: bool = False,
         strategy="two-cards", spots: int = 1, rules=None) -> SideBetResult:
    """The exact outcome probabilities and value of side bet ``name``.

    paytable: a preset name (``PRESETS[name]``), a mapping {outcome: pay to one} or None
    (the bet's default); shoe: a ``SuitedShoe``, a ``bjsolve.Shoe`` or a number of decks;
    decks: full decks (default 6; ``spanish``: without tens); remove: cards out of the
    shoe ('QH', '7', 'T', ...); hit_soft_17: the dealer's rule (dealer bets only);
    dealer: for bust-bonus, the dealer's up card the bet is made against (default: every
    up card); strategy: which of the player's cards are out when the dealer draws:
    "two-cards" (only the first two, the published convention), or the hands played out
    by "basic" (the chart of ``rules``), "optimal" or a ``StrategyChart``, over ``spots``
    spots (``rules``: the game played, default ``Rules(hit_soft_17=hit_soft_17)``).  The
    dealer's law is the same either way (sidebets.played_out says why); the result's
    ``convention`` states which was asked.

    Returns a ``SideBetResult``; ``house_edge`` = -expected value per unit bet.
    """
    the_bet = bet(name)
    table = _resolve_paytable(the_bet, paytable)
    hit_soft_17 = _check_soft17(hit_soft_17)
    up = _dealer_card(the_bet, dealer)
    suited = resolve_shoe(shoe, decks=decks, remove=remove, spanish=spanish)
    play = _play(the_bet, suited, hit_soft_17, strategy, spots, rules)
    # played out or not, the dealer's final-hand law is the same (played_out's docstring)
    probs = _probabilities(the_bet, suited, hit_soft_17, up)
    mean, sd = _ev(the_bet, table, probs)
    names = the_bet.outcomes + ("no win",)
    values = dict(zip(names, [float(p) for p in probs[1:]] + [float(probs[0])]))
    if getattr(the_bet, "exhaustive", False):
        del values["no win"]          # (exactly 0: the outcomes cover every hand)
    return SideBetResult(the_bet.name, the_bet.title, table, values, mean, sd, suited,
                         hit_soft_17, convention_of(the_bet, play), up,
                         play.strategy, play.spots)


def _value(the_bet, table, shoe, hit_soft_17, up) -> float:
    return _ev(the_bet, table, _probabilities(the_bet, shoe, hit_soft_17, up))[0]


@dataclass(frozen=True)
class RemovalEffects:
    """How a side bet's expected value (per unit bet) moves when one card leaves the shoe.

    by_kind: {card such as 'QH': change}, for every kind the shoe holds; by_rank: {rank
    A..K: change}, one card of that rank of a suit drawn in proportion to the shoe; by_rank10:
    the same with T, J, Q, K pooled (ranks A..9, T as bjsolve counts them); by_suit: {suit
    S, H, D, C: change}, one card of that suit of a rank in proportion.  base: the value
    on the shoe itself.  For an unconditioned bet, sum over the shoe's cards of count x
    change is zero (removing a random card changes nothing on average)."""
    bet: str
    paytable: str
    base: float
    by_kind: dict
    by_rank: dict
    by_rank10: dict
    by_suit: dict
    shoe: SuitedShoe = field(repr=False)


def effects_of_removal(name, paytable=None, *, shoe=None, decks=None,
                       remove=(), hit_soft_17: bool = False, dealer=None,
                       spanish: bool = False, strategy="two-cards", spots: int = 1,
                       rules=None) -> RemovalEffects:
    """The effect of removing each card (kind, rank, suit) on the bet's expected value:
    each is the difference of two exact values (shoe less the card, minus shoe).
    ``strategy``, ``spots``, ``rules``: as ``edge`` (the same values either way)."""
    the_bet = bet(name)
    table = _resolve_paytable(the_bet, paytable)
    hit_soft_17 = _check_soft17(hit_soft_17)
    up = _dealer_card(the_bet, dealer)
    suited = resolve_shoe(shoe, decks=decks, remove=remove, spanish=spanish)
    # (the shoe one card short must fit a played-out round too)
    _play(the_bet, suited, hit_soft_17, strategy, spots, rules, spare=10)
    base = _value(the_bet, table, suited, hit_soft_17, up)
    counts = suited.array()
    by_kind = np.full(52, np.nan)
    cache: dict = {}
    for kind in range(52):
        if counts[kind] < 1:
            continue
        smaller = suited.remove_kind(kind)
        # kinds that differ only in a way the bet ignores give the same value
        key = _equivalence_key(the_bet, smaller)
        if key not in cache:
            cache[key] = _value(the_bet, table, smaller, hit_soft_17, up) - base
        by_kind[kind] = cache[key]
    weights = np.where(np.isnan(by_kind), 0.0, counts)
    changes = np.nan_to_num(by_kind)
    by_rank, by_suit = {}, {}
    for r, label in enumerate(RANK_NAMES):
        w = weights[4 * r:4 * r + 4]
        by_rank[label] = float(w @ changes[4 * r:4 * r + 4] / w.sum()) if w.sum() else math.nan
    tens = slice(36, 52)
    by_rank10 = {label: by_rank[label] for label in RANK_NAMES[:9]}
    wt = weights[tens]
    by_rank10["T"] = float(wt @ changes[tens] / wt.sum()) if wt.sum() else math.nan
    for s, label in enumerate(SUIT_NAMES):
        w = weights[s::4]
        by_suit[label] = float(w @ changes[s::4] / w.sum()) if w.sum() else math.nan
    return RemovalEffects(the_bet.name, table.name, base,
                          {card_name(k): float(by_kind[k]) for k in range(52)
                           if not np.isnan(by_kind[k])},
                          by_rank, by_rank10, by_suit, suited)


def _equivalence_key(the_bet, shoe: SuitedShoe):
    """A key equal for shoes the bet cannot tell apart: suits and court ranks pooled where
    the bet reads neither (dealer bets and Over/Under pool the ten-valued ranks)."""
    counts = shoe.counts
    if the_bet.name in DEALER_BETS or the_bet.name in ("over-13", "under-13", "exactly-13",
                                                       "insurance"):
        rows = [tuple(counts[4 * r:4 * r + 4]) for r in range(9)]
        rows.append(tuple(sum(counts[4 * r + s] for r in range(9, 13)) for s in range(4)))
        if not the_bet.suits_matter:
            rows = [sum(row) for row in rows]
        return tuple(rows)
    return counts


@dataclass(frozen=True)
class BestCount:
    """The linear count that best follows a side bet's value.

    ranks: the ranks tagged (A..K, or A..9, T where the bet treats ten-valued cards alike);
    eor: their removal effects; tags: small integers proportional to them (the least-
    squares count: regressing the value on the cards removed gives tags proportional to
    the effects of removal); correlation: of those tags with the effects (1 = the ideal
    count), weighted by the shoe's cards; published: {count name: correlation}."""
    bet: str
    ranks: tuple
    eor: tuple
    tags: tuple
    level: int
    correlation: float
    published: dict


def _correlation(tags, effects, weights) -> float:
    t = np.asarray(tags, dtype=float)
    e = np.asarray(effects, dtype=float)
    w = np.asarray(weights, dtype=float)
    t = t - (w @ t) / w.sum()
    e = e - (w @ e) / w.sum()
    denom = math.sqrt((w @ (t * t)) * (w @ (e * e)))
    return float((w @ (t * e)) / denom) if denom > 0 else math.nan


def best_count(name, paytable=None, *, shoe=None, decks=None, remove=(),
               hit_soft_17: bool = False, dealer=None, spanish: bool = False,
               max_level: int = 3, effects: RemovalEffects | None = None,
               strategy="two-cards", spots: int = 1, rules=None) -> BestCount:
    """The best linear count for a side bet (from ``effects_of_removal``): tags scaled to
    integers of at most ``max_level`` in size, the level with the highest correlation."""
    if isinstance(max_level, bool) or not isinstance(max_level, int) or not 1 <= max_level <= 10:
        raise ValueError(f"max_level must be a whole number 1..10, got {show(max_level)}")
    if effects is None:
        effects = effects_of_removal(name, paytable, shoe=shoe, decks=decks,
                                     remove=remove, hit_soft_17=hit_soft_17, dealer=dealer,
                                     spanish=spanish, strategy=strategy, spots=spots,
                                     rules=rules)
    counts = np.array(effects.shoe.counts, dtype=float).reshape(13, 4).sum(axis=1)
    court = [effects.by_rank[r] for r in RANK_NAMES[9:] if not math.isnan(effects.by_rank[r])]
    pooled = not court or max(court) - min(court) <= 1e-12 * max(1.0, max(map(abs, court)))
    ranks: tuple[str, ...]
    if pooled:
        ranks = RANK_NAMES[:10]
        eor = np.array([effects.by_rank10[r] for r in ranks])
        weights = np.append(counts[:9], counts[9:].sum())
    else:
        ranks = RANK_NAMES
        eor = np.array([effects.by_rank[r] for r in ranks])
        weights = counts
    present = weights > 0
    eor = np.where(present, eor, 0.0)
    biggest = np.abs(eor).max()
    best = (None, math.nan, 0)
    # all effects zero (Match the Dealer on a full shoe: by symmetry every rank is alike)
    # leaves no linear count: tags 0, level 0, correlation NaN
    if biggest > 1e-15:
        best = (None, -2.0, 0)
        for level in range(1, max_level + 1):
            tags = np.round(eor / biggest * level).astype(int)
            corr = _correlation(tags, eor, weights)
            if corr > best[1] + 1e-12:
                best = (tags, corr, level)
    tags = best[0] if best[0] is not None else np.zeros(len(ranks), dtype=int)
    # (the count systems' table lives with the solver's removal effects, which load the
    # kernels: imported here, where it is used)
    from ..counting import SYSTEMS
    published = {}
    for title, system in SYSTEMS.values():
        system_tags = list(system) if pooled else list(system) + [system[9]] * 3
        published[title] = _correlation(system_tags, eor, weights)
    return BestCount(effects.bet, tuple(ranks), tuple(float(e) for e in eor),
                     tuple(int(t) for t in tags), best[2], float(best[1]), published)


def edges_table(*, shoe=None, decks=None, remove=(), hit_soft_17: bool = False,
                spanish: bool = False, strategy="two-cards", spots: int = 1,
                rules=None) -> list:
    """Every side bet under every preset pay table on one shoe: a list of
    ``SideBetResult`` (bust-bonus over every up card it is offered against);
    ``strategy``, ``spots``, ``rules`` as ``edge``."""
    resolve_play(strategy, spots, rules, _check_soft17(hit_soft_17))   # bad keywords: here
    suited = resolve_shoe(shoe, decks=decks, remove=remove, spanish=spanish)
    out = []
    for name, tables in PRESETS.items():
        for table_name in tables:
            try:
                out.append(edge(name, table_name, shoe=suited, hit_soft_17=hit_soft_17,
                                strategy=strategy, spots=spots, rules=rules))
            except ValueError:
                continue         # e.g. insurance on a shoe without aces
    return out

