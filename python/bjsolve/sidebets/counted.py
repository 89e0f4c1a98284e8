"""A counted side bet, the simplest exact way: how often a count says the bet has an edge
and what betting it then earns, over the rounds of a shoe.

Model.  A round starts after ``n`` cards of the shoe have been seen, for n = 0, c, 2c, ...
(c = ``cards_per_round``, rounded to whole cards) up to the penetration; every round is
equally likely to be the one bet on.  The counter knows n and the running count of a tag
system whose tags split the card kinds into classes; the cards seen from each class follow
the multivariate hypergeometric law.  Given the unseen class totals M, the bet's value is
exact: a card bet's outcome chance is a sum over ordered draws of falling-factorial
products of kind counts, and within a class the unseen kinds are hypergeometric, so

    E[prod_k ff(n_k, m_k) | M] = prod_k ff(K_k, m_k) * prod_c ff(M_c, m_c) / ff(K_c, m_c)

(K: the full shoe; m_c: the draw's cards of class c).  The value given the count is the
average over the class totals with that running count.  The counter bets one unit exactly
when that value is positive (the best use of the count's information).

What is missing (later steps): the dealer bets (their draws have the same product form, not
wired up), Lucky Ladies' dealer-natural award and insurance (conditioned values), suit
counts, the bet ramp and rounds of the counted game (``bjsolve.game.CountedGame``) and a
cross-check against ``bjsolve.simulate``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..ranks import show
from .analysis import bet as _bet
from .analysis import resolve_shoe
from .card_bets import CardBet
from .paytables import paytable as _resolve_paytable

__all__ = ["CountedSideBet", "counted_sidebet"]

MAX_STATES = 3_000_000      # class-total vectors at one depth


@dataclass(frozen=True)
class CountedSideBet:
    """The counted side bet over a shoe.

    rounds: rounds per shoe in the model; bet_fraction: the share of rounds with a positive
    value given the count (the rounds bet); edge_when_bet: the mean value of those bets per
    unit; gain_per_100_rounds: units won per 100 rounds dealt (betting one unit when the
    count says so, nothing otherwise); base_ev: the value off the top; by_true_count:
    {true count (floored): (share of rounds, mean value)}."""
    bet: str
    paytable: str
    tags: tuple
    rounds: int
    bet_fraction: float
    edge_when_bet: float
    gain_per_100_rounds: float
    base_ev: float
    by_true_count: dict


def _falling(n, m):
    out = np.ones_like(np.asarray(n, dtype=float))
    for i in range(m):
        out = out * (np.asarray(n, dtype=float) - i)
    return out


def _tags_by_kind(tags) -> np.ndarray:
    """Tags of the 52 kinds from 10 tags (A..9, T) or 13 (A..K)."""
    if isinstance(tags, str):
        from ..counting import count_tags
        tags = count_tags(tags)
    tags = tuple(tags)
    if len(tags) == 10:
        tags = tags + (tags[9],) * 3
    if len(tags) != 13:
        raise ValueError(f"tags: give 10 tags (A..9, T) or 13 (A..K), or a system's name, got "
                         f"{show(tags)}")
    return np.repeat(np.array(tags, dtype=float), 4)


def counted_sidebet(name, paytable=None, *, tags="hilo", decks: int = 6, shoe=None,
                    penetration: float = 0.75, cards_per_round: float = 5.5,
                    spanish: bool = False) -> CountedSideBet:
    """The counted side bet ``name`` (a card bet) with count ``tags`` (a system name such
    as "hilo", or 10 or 13 tags; ``best_count(name).tags`` fits), on ``decks`` decks dealt
    to ``penetration`` (share of the shoe) at ``cards_per_round`` cards a round."""
    the_bet = _bet(name)
    if type(the_bet) is not CardBet:
        raise ValueError(f"counted_sidebet: {the_bet.name} is not supported yet (card bets "
                         "settled by their cards alone are)")
    table = _resolve_paytable(the_bet, paytable)
    if not (isinstance(penetration, (int, float)) and 0 < penetration < 1):
        raise ValueError(f"penetration must be a share of the shoe in (0, 1), got "
                         f"{show(penetration)}")
    if not (isinstance(cards_per_round, (int, float)) and 1 <= cards_per_round <= 30):
        raise ValueError(f"cards_per_round must be a number 1..30, got {show(cards_per_round)}")
    shoe = resolve_shoe(shoe, decks=None if shoe is not None else decks, spanish=spanish)
    if any(not isinstance(c, int) for c in shoe.counts):
        raise ValueError("counted_sidebet: the shoe needs whole counts")
    model = _CountModel(the_bet, table, shoe, tags)
    total = model.total
    m = the_bet.n_cards
    last = int(penetration * total)
    depths = sorted({int(round(i * cards_per_round))
                     for i in range(int(last / cards_per_round) + 1)})
    depths = [d for d in depths if d <= last and total - d >= m]
    by_tc: dict = {}
    gain = bet_share = 0.0
    base_ev = None
    for n in depths:
        running, mass, value = model.value_by_running_count(n)
        if base_ev is None:
            base_ev = float(mass @ value)
        play = value > 0
        gain += float((mass * value)[play].sum())
        bet_share += float(mass[play].sum())
        true = np.floor(running / ((total - n) / 52))
        for tc, mass_tc, value_tc in zip(true, mass, value):
            share, total_value = by_tc.get(int(tc), (0.0, 0.0))
            by_tc[int(tc)] = (share + mass_tc, total_value + mass_tc * value_tc)
    rounds = len(depths)
    summary = {tc: (share / rounds, total_value / share if share else math.nan)
               for tc, (share, total_value) in sorted(by_tc.items())}
    tag_values = tuple(float(t) for t in model.kind_tags[::4])
    return CountedSideBet(
        the_bet.name, table.name, tag_values if len(set(tag_values[9:])) > 1 else
        tag_values[:10], rounds, bet_share / rounds,
        gain / bet_share if bet_share else math.nan, 100 * gain / rounds,
        float(base_ev if base_ev is not None else math.nan), summary)


class _CountModel:
    """A card bet's value given the unseen class totals of a tag system."""

    def __init__(self, the_bet, table, shoe, tags):
        full = np.array(shoe.counts, dtype=np.int64)
        kind_tags = _tags_by_kind(tags)
        values = sorted(set(kind_tags[full > 0].tolist()))
        cls = np.array([values.index(t) if full[k] else 0 for k, t in enumerate(kind_tags)])
        n_classes = len(values)
        class_total = np.array([full[cls == c].sum() for c in range(n_classes)],
                               dtype=np.int64)
        m = the_bet.n_cards
        # weight[outcome, signature]: the draws' ways in the full shoe over
        # prod_c ff(K_c, m_c), the signature being the draw's cards per class
        kinds, ends = the_bet._paying_draws
        ways = full[kinds[0]].astype(float)
        for position in range(1, m):
            left = full[kinds[position]].astype(float)
            for earlier in range(position):
                left -= kinds[earlier] == kinds[position]
            ways *= left
        signature = np.zeros(len(ways), dtype=np.int64)
        for position in range(m):
            signature += (m + 1) ** cls[kinds[position]]
        outcome = np.searchsorted(ends, np.arange(len(ways)), side="right")
        sigs = sorted(set(signature.tolist()))
        weight = np.zeros((len(the_bet.outcomes), len(sigs)))
        np.add.at(weight, (outcome, np.searchsorted(sigs, signature)), ways)
        sig_m = np.array([[(s // (m + 1) ** c) % (m + 1) for c in range(n_classes)]
                          for s in sigs])
        for j in range(len(sigs)):
            weight[:, j] /= np.prod([_falling(class_total[c], sig_m[j, c])
                                     for c in range(n_classes)])
        self.kind_tags, self.values, self.class_total = kind_tags, values, class_total
        self.weight, self.sig_m, self.m = weight, sig_m, m
        self.pays = np.array([table.pay(o) for o in the_bet.outcomes])
        self.total = int(full.sum())
        self.log_fact = np.concatenate([[0.0], np.cumsum(np.log(np.arange(1, self.total + 1)))])

    def _log_choose(self, n, k):
        return self.log_fact[n] - self.log_fact[k] - self.log_fact[n - k]

    def value_by_running_count(self, n: int):
        """(running counts, their chances, the bet's value given each) after n cards."""
        seen = _class_vectors(self.class_total, n)
        unseen = self.class_total[None, :] - seen
        classes = len(self.class_total)
        p = np.exp(sum(self._log_choose(self.class_total[c], seen[:, c])
                       for c in range(classes)) - self._log_choose(self.total, n))
        chance = np.zeros((len(seen), self.weight.shape[0]))
        ff_total = _falling(self.total - n, self.m)
        for j in range(self.sig_m.shape[0]):
            moment = np.prod([_falling(unseen[:, c], self.sig_m[j, c])
                              for c in range(classes)], axis=0) / ff_total
            chance += moment[:, None] * self.weight[None, :, j]
        ev = chance @ (self.pays + 1) - 1
        running = seen @ np.array(self.values)
        # the value given the running count: the average over the class totals giving it
        keys, inverse = np.unique(np.round(running * 12).astype(np.int64), return_inverse=True)
        mass = np.bincount(inverse, weights=p)
        value = np.bincount(inverse, weights=p * ev) / np.where(mass > 0, mass, 1)
        return keys / 12, mass, value


def _class_vectors(class_total: np.ndarray, n: int) -> np.ndarray:
    """Every vector k with 0 <= k_c <= K_c and sum n (one row each)."""
    rows = np.zeros((1, 0), dtype=np.int64)
    used = np.zeros(1, dtype=np.int64)
    left_after = np.concatenate([np.cumsum(class_total[::-1])[::-1][1:], [0]])
    for c, top in enumerate(class_total):
        low = np.maximum(0, n - used - left_after[c])
        high = np.minimum(top, n - used)
        size = np.maximum(high - low + 1, 0)
        if size.sum() > MAX_STATES:
            raise ValueError(f"tags: {len(class_total)} distinct tag values give more than "
                             f"{MAX_STATES:,} class-total vectors at one depth; use a count "
                             "with fewer distinct tags (e.g. best_count(..., max_level=1))")
        parent = np.repeat(np.arange(len(rows)), size)
        offset = np.arange(size.sum()) - np.repeat(np.cumsum(size) - size, size)
        k = low[parent] + offset
        rows = np.column_stack([rows[parent], k])
        used = used[parent] + k
    return rows
