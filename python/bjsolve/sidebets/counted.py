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

The dealer bets fit the same form (a final dealer hand's chance is a falling-factorial
product over its ranks; the suited chances over the kinds of one suit), as do Lucky
Ladies' dealer-natural award and Buster's natural awards.  Insurance and Bust Bonus are
made after the up card is seen: the chance that the bet is offered (an ace up; each up card
without a dealer natural) has the same form, and the counter bets where the value given
the count and the up card is positive.  The tags may differ by suit (52 tags, one per
card), and the counter may keep the four suit counts instead of one running count
(``system="suits"``: the classes are the suits and the value is taken for each vector of
suit totals, not averaged over a running count); see ``suits``.  The side bet beside the
main game's ramp (``bjsolve.risk.CountedGame(..., sidebet=...)``) builds on this model
(``CountModel.chances_by_running_count``); the numpy side-bet simulator
(``sidebets.simulate``) and the compiled ``bjsolve.simulate`` check both.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..model import show
from .analysis import bet as _bet
from .analysis import resolve_shoe
from .card_bets import CardBet
from .draws import falling
from .paytables import paytable as _resolve_paytable

__all__ = ["CountedSideBet", "counted_sidebet"]

MAX_STATES = 3_000_000      # class-total vectors at one depth


@dataclass(frozen=True)
class CountedSideBet:
    """The counted side bet over a shoe.

    rounds: rounds per shoe in the model; bet_fraction: the share of rounds with a positive
    value given the count (and the up card, for insurance and Bust Bonus): the rounds
    bet; edge_when_bet: the mean value of those bets per unit; gain_per_100_rounds:
    units won per 100 rounds dealt (betting one unit when the count says so, nothing
    otherwise); base_ev: the value off the top; by_true_count: {true count (floored):
    (share of rounds, mean value per bet when offered)}.  count: "tags" (a tag system: the
    running count is the information; ``tags`` by rank, or 52 by card where suits differ)
    or "suits" (the four suit counts: the cards seen of each suit are the information,
    ``tags`` empty; the true count is the richest unseen suit's excess over a quarter of
    the cards unseen, per deck unseen)."""
    bet: str
    paytable: str
    tags: tuple
    rounds: int
    bet_fraction: float
    edge_when_bet: float
    gain_per_100_rounds: float
    base_ev: float
    by_true_count: dict
    count: str = "tags"


def _tags_by_kind(tags) -> np.ndarray:
    """Tags of the 52 kinds from 10 tags (A..9, T), 13 (A..K) or 52 (the (rank, suit) cells:
    ``suits.cell_tags``), or a system's name (a rank system, or a suit system of
    ``suits.SUIT_SYSTEMS``)."""
    from ..counting import count_tags
    from ..counting.removal import finite_number
    from .suit_tags import SUIT_SYSTEMS, cell_tags
    if isinstance(tags, str) and tags.strip().lower() in SUIT_SYSTEMS or isinstance(tags, dict):
        return cell_tags(tags)
    if isinstance(tags, str):
        tags = count_tags(tags)
    try:
        tags = tuple(tags)
    except TypeError:
        raise TypeError(f"tags: give 10 tags (A..9, T), 13 (A..K) or 52 (cards), or a "
                        f"system's name, got {show(tags)}") from None
    if len(tags) == 52:
        return cell_tags(tags)
    if len(tags) == 10:
        tags = count_tags(tags)          # checks them: 10 finite numbers
        tags = tags + (tags[9],) * 3
    if len(tags) != 13:
        raise ValueError(f"tags: give 10 tags (A..9, T), 13 (A..K) or 52 (cards), or a "
                         f"system's name, got {show(tags)}")
    tags = tuple(finite_number(t, "tags") for t in tags)
    return np.repeat(np.array(tags, dtype=float), 4)


def counted_sidebet(name, paytable=None, *, system="hilo", decks: int = 6, shoe=None,
                    penetration: float = 0.75, cards_per_round: float = 5.5,
                    spanish: bool = False, hit_soft_17: bool = False) -> CountedSideBet:
    """The counted side bet ``name`` with count ``tags`` (a system name such as "hilo", or 10
    or 13 tags; ``best_count(name).tags`` fits), on ``decks`` decks dealt to
    ``penetration`` (share of the shoe) at ``cards_per_round`` cards a round."""
    the_bet = _bet(name)
    table = _resolve_paytable(the_bet, paytable)
    if not (isinstance(penetration, (int, float)) and 0 < penetration < 1):
        raise ValueError(f"penetration must be a share of the shoe in (0, 1), got "
                         f"{show(penetration)}")
    if not (isinstance(cards_per_round, (int, float)) and 1 <= cards_per_round <= 30):
        raise ValueError(f"cards_per_round must be a number 1..30, got {show(cards_per_round)}")
    shoe = resolve_shoe(shoe, decks=None if shoe is not None else decks, spanish=spanish)
    if any(not isinstance(c, int) for c in shoe.counts):
        raise ValueError("counted_sidebet: the shoe needs whole counts")
    if not isinstance(hit_soft_17, bool):
        raise TypeError(f"hit_soft_17 must be True or False, got {show(hit_soft_17)}")
    model = CountModel(the_bet, table, shoe, system, hit_soft_17)
    # (the true count of a suit count is the richest suit's excess per deck, as for a tag
    # system's running count: see CountModel.chances_by_running_count)
    total = model.total
    m = int(model.sig_cards.max())
    last = int(penetration * total)
    depths = sorted({int(round(i * cards_per_round))
                     for i in range(int(last / cards_per_round) + 1)})
    depths = [d for d in depths if d <= last and total - d >= m]
    by_tc: dict = {}
    gain = bet_share = 0.0
    base_ev = None
    for n in depths:
        running, mass, offered, net = model.value_by_running_count(n)
        if base_ev is None:
            base_ev = float(net.sum() / offered.sum())
        # bet where the value given the count (and the up card, for a bet made after it)
        # is positive: net = P(offered) x value
        play = net > 0
        gain += float(net[play].sum())
        bet_share += float(offered[play].sum())
        true = np.floor(running / ((total - n) / 52)).astype(np.int64)
        # sums by true count (one pass: the four suit counts have many rows a depth)
        tcs, where = np.unique(true, return_inverse=True)
        sums = [np.bincount(where.ravel(), weights=w, minlength=len(tcs))
                for w in (mass, offered.sum(axis=1), net.sum(axis=1))]
        for tc, mass_tc, offered_tc, net_tc in zip(tcs.tolist(), *sums):
            share, offers, value = by_tc.get(tc, (0.0, 0.0, 0.0))
            by_tc[tc] = (share + mass_tc, offers + offered_tc, value + net_tc)
    rounds = len(depths)
    summary = {tc: (share / rounds, value / offers if offers else math.nan)
               for tc, (share, offers, value) in sorted(by_tc.items())}
    tag_values = tuple(float(t) for t in model.kind_tags[::4])
    if model.by_suit:
        tag_values = ()
    elif any(len(set(model.kind_tags[4 * r:4 * r + 4])) > 1 for r in range(13)):
        tag_values = tuple(float(t) for t in model.kind_tags)      # a count over cards
    elif len(set(tag_values[9:])) == 1:
        tag_values = tag_values[:10]
    return CountedSideBet(
        the_bet.name, table.name, tag_values, rounds, bet_share / rounds,
        gain / bet_share if bet_share else math.nan, 100 * gain / rounds,
        float(base_ev if base_ev is not None else math.nan), summary,
        "suits" if model.by_suit else "tags")


class CountModel:
    """A bet's value given the unseen class totals of a tag system.

    The bet's outcome chances are written as terms: each term is a chance at the full shoe
    of the product form  w prod_k ff(n_k, m_k) / ff(N, k)  with its class signature (the
    term's cards per class); given the unseen class totals M, a term's expectation is its
    full-shoe value x ff(N, k) / prod_c ff(K_c, m_c) x prod_c ff(M_c, m_c) / ff(N_u, k)."""

    def __init__(self, the_bet, table, shoe, tags, hit_soft_17=False):
        from .suit_tags import is_four_suit_count
        full = np.array(shoe.counts, dtype=np.int64)
        # the four suit counts: the classes are the suits and the counter knows each one's
        # cards seen (not one running count)
        self.by_suit = is_four_suit_count(tags)
        if self.by_suit and not (isinstance(the_bet, CardBet) or the_bet.name == "insurance"):
            raise ValueError(f"system 'suits': the exact suit count covers the bets read "
                             f"from the cards dealt, not {the_bet.name} (its dealer hands "
                             "are by rank); simulate it instead")
        kind_tags = np.tile(np.arange(4.0), 13) if self.by_suit else _tags_by_kind(tags)
        values = sorted(set(kind_tags[full > 0].tolist()))
        cls = np.array([values.index(t) if full[k] else 0 for k, t in enumerate(kind_tags)])
        n_classes = len(values)
        class_total = np.array([full[cls == c].sum() for c in range(n_classes)],
                               dtype=np.int64)
        self.total = total = int(full.sum())
        outcome, term_value, term_sig = _terms(the_bet, shoe, full, cls, n_classes,
                                               hit_soft_17)
        # the events the bet is offered on (one group per up card it is made against; one
        # group "always" for a bet made before the cards), as extra outcomes after the bet's
        group, cond_group, cond_value, cond_sig = _conditions(the_bet, full, cls, n_classes)
        outcomes = len(the_bet.outcomes)
        outcome = np.concatenate([outcome, outcomes + cond_group])
        term_value = np.concatenate([term_value, cond_value])
        term_sig = np.vstack([term_sig, cond_sig])
        self.group, self.groups = group, int(cond_group.max()) + 1
        # group the terms by signature; weight[outcome, signature]
        sigs, sig_index = np.unique(term_sig, axis=0, return_inverse=True)
        sig_index = sig_index.ravel()
        cards = sigs.sum(axis=1)
        scale = np.array([falling(total, int(k)) for k in cards])
        for c in range(n_classes):
            # a signature the full shoe cannot hold has terms of value 0
            below = falling(class_total[c], sigs[:, c])
            scale = np.divide(scale, below, out=np.zeros_like(scale), where=below > 0)
        weight = np.zeros((outcomes + self.groups, len(sigs)))
        np.add.at(weight, (outcome, sig_index), term_value)
        self.weight = weight * scale[None, :]
        self.kind_tags, self.values, self.class_total = kind_tags, values, class_total
        self.sig_m, self.sig_cards = sigs, cards
        self.pays = np.array([table.pay(o) for o in the_bet.outcomes])
        self.log_fact = np.concatenate([[0.0], np.cumsum(np.log(np.arange(1, total + 1)))])
        # the reorderings of the suits that change nothing (all 24 for 21+3 on a full shoe;
        # those keeping the colours for Perfect Pairs; the other suits than hearts' for Lucky
        # Ladies): rows that differ by one of them have the same values
        self.symmetries = (_symmetries(class_total, sigs, self.weight) if self.by_suit
                           else [tuple(range(n_classes))])

    def seen_vectors(self, n: int):
        """(the vectors of cards seen by class after n cards, the number of vectors each row
        stands for).  Each vector is one row, except where reordering the suits changes
        nothing (``symmetries``): there one row (the largest of its reorderings, read as a
        number) stands for its distinct reorderings, up to 24 times fewer rows."""
        seen = _class_vectors(self.class_total, n)
        if len(self.symmetries) == 1:
            return seen, np.ones(len(seen))
        digits = (int(self.class_total.max()) + 1) ** np.arange(seen.shape[1])[::-1]
        if len(self.symmetries) == math.factorial(seen.shape[1]):
            # every reordering: the largest is the one in non-increasing order
            seen = seen[np.all(np.diff(seen, axis=1) <= 0, axis=1)]
            keys = np.stack([seen[:, list(order)] @ digits for order in self.symmetries],
                            axis=1)
            keep = np.ones(len(seen), dtype=bool)
        else:
            keys = np.stack([seen[:, list(order)] @ digits for order in self.symmetries],
                            axis=1)
            keep = keys.max(axis=1) == seen @ digits
        keys = np.sort(keys[keep], axis=1)
        times = 1 + (np.diff(keys, axis=1) != 0).sum(axis=1)
        return seen[keep], times.astype(float)

    def _log_choose(self, n, k):
        return self.log_fact[n] - self.log_fact[k] - self.log_fact[n - k]

    def value_by_running_count(self, n: int):
        """(running counts, their chances, P(count and the bet offered) by group, P(count and
        offered) x the value given both, by group) after n cards.  For the four suit counts
        one row per vector of cards seen by suit (see ``chances_by_running_count``)."""
        keys, mass, joint = self.chances_by_running_count(n)
        outcomes = len(self.pays)
        offered = joint[:, outcomes:]
        net = -offered.copy()
        for o in range(outcomes):
            net[:, self.group[o]] += (self.pays[o] + 1) * joint[:, o]
        return keys, mass, offered, net

    def chances_by_running_count(self, n: int):
        """(running counts, their chances, [running count, event] P(count and event)) after
        n cards: the events are the bet's outcomes, then the offer groups.  For the four suit
        counts one row per vector of cards seen by suit (a row standing for its reorderings
        that change nothing carries their chance: ``seen_vectors``), its "running count" the
        richest unseen suit's excess over a quarter of the cards unseen; the rows' counts
        repeat, so they are not keys to a grid of running counts."""
        seen, times = self.seen_vectors(n)
        unseen = self.class_total[None, :] - seen
        classes = len(self.class_total)
        p = times * np.exp(sum(self._log_choose(self.class_total[c], seen[:, c])
                               for c in range(classes)) - self._log_choose(self.total, n))
        # ff(unseen_c, m) for every class c and m up to the largest signature's
        unseen_ff = [[np.ones(len(seen))] for _ in range(classes)]
        for c in range(classes):
            for m in range(1, int(self.sig_m[:, c].max()) + 1 if len(self.sig_m) else 1):
                unseen_ff[c].append(unseen_ff[c][-1] * (unseen[:, c] - (m - 1)))
        moments = np.zeros((len(seen), self.sig_m.shape[0]))
        for j in range(self.sig_m.shape[0]):
            left = falling(self.total - n, int(self.sig_cards[j]))
            if left <= 0:
                continue               # more cards than the shoe has left: never dealt
            moment = unseen_ff[0][self.sig_m[j, 0]]
            for c in range(1, classes):
                moment = moment * unseen_ff[c][self.sig_m[j, c]]
            moments[:, j] = moment / left
        chance = moments @ self.weight.T
        if self.by_suit:
            # every suit's count is known: no sum; the "running count" reported is the
            # richest unseen suit's excess over a quarter of the cards unseen
            count = unseen.max(axis=1) - unseen.sum(axis=1) / 4
            return count, p, p[:, None] * chance
        running = seen @ np.array(self.values)
        # sums over the class totals giving each running count
        keys, inverse = np.unique(np.round(running * 12).astype(np.int64), return_inverse=True)
        mass = np.bincount(inverse, weights=p)
        joint = np.stack([np.bincount(inverse, weights=p * chance[:, j], minlength=len(keys))
                          for j in range(chance.shape[1])], axis=1)
        return keys / 12, mass, joint


def _terms(the_bet, shoe, full, cls, n_classes, hit_soft_17):
    """(outcome index, full-shoe value, class signature) of every term of the bet."""
    if the_bet.name == "insurance":
        # the ace up and a ten-valued hole card
        a, t = [x.ravel() for x in np.meshgrid(np.arange(4), np.arange(36, 52))]
        value = full[a] * full[t] / falling(full.sum(), 2)
        return (np.zeros(len(a), dtype=np.intp), value,
                _signature([a, t], cls, n_classes))
    if isinstance(the_bet, CardBet):
        return _card_terms(the_bet, shoe, full, cls, n_classes)
    return _dealer_terms(the_bet, shoe, full, cls, n_classes, hit_soft_17)


def _conditions(the_bet, full, cls, n_classes):
    """(group of each outcome, and the terms of P(the bet is offered) by group: group,
    full-shoe value, class signature)."""
    n = full.sum()
    if the_bet.name == "insurance":
        aces = np.arange(4)
        return (np.zeros(1, dtype=np.intp), np.zeros(4, dtype=np.intp), full[aces] / n,
                _signature([aces], cls, n_classes))
    if the_bet.name == "bust-bonus":
        rank_class = _rank_classes(the_bet, full, cls)
        group = np.array([7, 7] + [i // 2 for i in range(20)], dtype=np.intp)
        ranks = np.append(full[:36].reshape(9, 4).sum(axis=1), full[36:].sum()).astype(float)
        sig = np.zeros((12, n_classes), dtype=np.int64)
        for u in range(10):
            sig[u, rank_class[u]] += 1
        for row in (10, 11):                       # an ace and a ten: the dealer's natural
            sig[row, rank_class[0]] += 1
            sig[row, rank_class[9]] += 1
        natural = ranks[0] * ranks[9] / (n * (n - 1))
        value = np.append(ranks / n, [-natural, -natural])
        return group, np.array(list(range(10)) + [0, 9]), value, sig
    return (np.zeros(len(the_bet.outcomes), dtype=np.intp), np.zeros(1, dtype=np.intp),
            np.ones(1), np.zeros((1, n_classes), dtype=np.int64))


def _rank_classes(the_bet, full, cls):
    """The tag class of each rank A..T (ten-valued pooled); one tag for all ten-valued."""
    rank_class = []
    for r in range(10):
        kinds = range(4 * r, 4 * r + 4) if r < 9 else range(36, 52)
        classes = {int(cls[k]) for k in kinds if full[k]}
        if len(classes) > 1:
            raise ValueError(f"tags: {the_bet.name} reads ranks only: give the cards of a "
                             "rank one tag, and every ten-valued card one tag")
        rank_class.append(classes.pop() if classes else 0)
    return np.array(rank_class)


def _signature(card_kinds, cls, n_classes):
    """Cards per class of each term: ``card_kinds`` is a list of kind arrays, one per card."""
    sig = np.zeros((len(card_kinds[0]), n_classes), dtype=np.int64)
    rows = np.arange(len(card_kinds[0]))
    for kinds in card_kinds:
        np.add.at(sig, (rows, cls[kinds]), 1)
    return sig


def _card_terms(the_bet, shoe, full, cls, n_classes):
    kinds, ends = the_bet._paying_draws
    m = the_bet.n_cards
    ways = full[kinds[0]].astype(float)
    for position in range(1, m):
        left = full[kinds[position]].astype(float)
        for earlier in range(position):
            left -= kinds[earlier] == kinds[position]
        ways *= left
    value = ways / falling(full.sum(), m)
    outcome = np.searchsorted(ends, np.arange(len(ways)), side="right")
    sig = _signature(list(kinds), cls, n_classes)
    if the_bet.name == "lucky-ladies":
        # the queen-of-hearts pair with a dealer natural: the two queens, then an ace and
        # a ten-valued card in either order (moved out of the plain pair's terms)
        queen = 4 * 11 + 1
        aces, tens = np.arange(4), np.arange(36, 52)
        a, t = [x.ravel() for x in np.meshgrid(aces, tens)]
        pair = full[queen] * (full[queen] - 1)
        natural = 2 * pair * full[a] * (full[t] - 2 * (t == queen)) / falling(full.sum(), 4)
        q = np.full(len(a), queen)
        top = _signature([q, q, a, t], cls, n_classes)
        outcome = np.concatenate([outcome, np.zeros(len(a), dtype=outcome.dtype),
                                  np.ones(len(a), dtype=outcome.dtype)])
        value = np.concatenate([value, natural, -natural])
        sig = np.vstack([sig, top, top])
    return outcome, value, sig


def _dealer_terms(the_bet, shoe, full, cls, n_classes, hit_soft_17):
    from .dealer_bets import _dealer_laws
    # the dealer's hands are by rank (ten-valued cards pooled): each rank needs one class
    rank_class = _rank_classes(the_bet, full, cls)

    def signature(mult, extra=()):
        sig = np.zeros((len(mult), n_classes), dtype=np.int64)
        for r in range(10):
            sig[:, rank_class[r]] += mult[:, r]
        for r in extra:
            sig[:, rank_class[r]] += 1
        return sig

    if the_bet.name == "push-22":
        hands, p, suited, coloured = _dealer_laws(shoe, hit_soft_17, "22")
        sig = signature(hands.mult)
        outcome = np.repeat(np.arange(3), len(p) * np.array([1, 2, 2]))
        value = np.concatenate([suited, coloured, -suited, p, -coloured])
        return outcome, value, np.vstack([sig] * 5)
    if the_bet.name == "bust-bonus":
        # the dealer's busts by up card, suited or not, 8-8-8 apart (as _BustBonus orders
        # its outcomes: suited 8-8-8, 8-8-8, then each up card's suited bust and bust)
        hands, p, suited, _ = _dealer_laws(shoe, hit_soft_17, "bust")
        eights = (hands.up == 8) & (hands.mult[:, 7] == 3) & (hands.cards == 3)
        index = 2 + 2 * (hands.up - 1)
        outcome = np.concatenate([np.where(eights, 0, index), np.where(eights, 1, index + 1)])
        sig = signature(hands.mult)
        return outcome, np.concatenate([suited, p - suited]), np.vstack([sig, sig])
    if the_bet.name == "buster":
        hands, p, _, _ = _dealer_laws(shoe, hit_soft_17, "bust", suits=False)
        # outcomes: 0 8+ & natural, 1 7 & natural, 2 8+, 3 7, 4 6, 5 5, 6 4, 7 3 cards
        plain = np.where(hands.cards >= 8, 2, 10 - np.minimum(hands.cards, 7))
        outcome, value, sig = [plain], [p], [signature(hands.mult)]
        ranks = full[:36].reshape(9, 4).sum(axis=1).tolist() + [full[36:].sum()]
        n = full.sum()
        natural = 2 * ranks[0] * ranks[9] / (n * (n - 1))
        if natural > 0:
            minus = np.zeros(10)
            minus[0] = minus[9] = 1
            hands2, p2, _, _ = _dealer_laws(shoe, hit_soft_17, "bust", minus=minus,
                                            suits=False)
            long = hands2.cards >= 7
            both = natural * p2[long]
            sig2 = signature(hands2.mult[long], extra=(0, 9))
            top = np.where(hands2.cards[long] >= 8, 0, 1)
            outcome += [top, top + 2]
            value += [both, -both]
            sig += [sig2, sig2]
        return np.concatenate(outcome), np.concatenate(value), np.vstack(sig)
    raise ValueError(f"counted_sidebet: {the_bet.name} is not supported yet")


def _symmetries(class_total, sigs, weight) -> list:
    """The reorderings of the classes that leave the class totals and the weights of the
    signatures unchanged.  They form a group (the identity among them), which the orbits
    of ``seen_vectors`` need: a set that rounding left short of one gives the identity
    alone."""
    import itertools
    index = {tuple(sig): j for j, sig in enumerate(sigs.tolist())}
    found = []
    for order in itertools.permutations(range(sigs.shape[1])):
        moved = [index.get(tuple(sig[i] for i in order)) for sig in sigs.tolist()]
        if (None not in moved and np.array_equal(class_total[list(order)], class_total)
                and np.allclose(weight[:, moved], weight, rtol=1e-12, atol=0)):
            found.append(order)
    closed = set(found)
    if any(tuple(a[i] for i in b) not in closed for a in found for b in found):
        return [tuple(range(sigs.shape[1]))]
    return found


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
