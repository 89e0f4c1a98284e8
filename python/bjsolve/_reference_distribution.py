"""Slow, exact reference for the distribution of a round's outcome: a card-by-card brute force.

Every card of one real round is enumerated, in the casino's order, with exact fractions:
the dealer's upcard (the exposed game: both dealer cards), the player's two cards, the hole
card (checked at once for a natural when the dealer peeks; with no hole card the dealer's
second card comes after the player has played), the player's hands one after the other (a
split hand gets its second card when its turn comes; a pair card dealt then starts a new
hand while fewer than the limit exist), then the dealer's draws from what is left.  Every
card is really removed from the shoe, so the hands of a split (and several spots) are as
dependent as in the real game.  Nothing of the fast engine or of ``_reference``'s formulas
is used; only ``Rules`` fields are read.

``round_distribution(rules, counts, policy, *, insurance=False, spots=1)`` returns
``{net outcome: probability}`` (Fractions; a finite shoe of 10 counts, or None for the
infinite shoe, 1/13 per rank and 4/13 for tens).  ``policy(cards, dealer, allowed)`` is the
callable protocol of ``Solution.evaluate`` (cards: the sorted ranks of the hand; dealer: the
upcard, or both dealer cards when they are dealt face up; allowed: the legal actions).
``split_policy(cards, dealer, allowed, pair)``, if given, decides the hands of a split of
``pair`` instead (a post-split class such as CDP1 plays them differently from an unsplit
hand of the same cards).
With ``spots`` > 1 the spots are played one after the other from the same shoe.
Small shoes only: the enumeration is exponential in the number of cards.
"""
from __future__ import annotations

from fractions import Fraction

RANKS = range(1, 11)
ACE, TEN = 1, 10
ONE, ZERO, HALF = Fraction(1), Fraction(0), Fraction(1, 2)
INFINITE_P = tuple(Fraction(4 if r == TEN else 1, 13) for r in RANKS)


class ShoeEmpty(RuntimeError):
    """A path of the round needs a card from an empty shoe."""


def _total(cards):
    hard = sum(cards)
    if ACE in cards and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def _natural(cards):
    return len(cards) == 2 and sorted(cards) == [ACE, TEN]


def round_distribution(rules, counts, policy, *, insurance=False, spots=1, split_policy=None,
                       strict=False):
    """{net outcome: probability} of one round (see the module docstring).  ``strict``:
    raise ``ShoeEmpty`` also when the dealer would draw from an empty shoe (instead of the
    analyzers' convention that the dealer busts), so a result describes a real game."""
    infinite = counts is None
    shoe0 = None if infinite else tuple(int(c) for c in counts)
    b = Fraction(rules.blackjack_payout)
    tie_value = -ONE if rules.dealer_wins_ties else ZERO
    # a player natural against a dealer natural: a push, unless the dealer wins ties
    natural_tie = {"push": ZERO, "lose": -ONE, "win": b}[
        getattr(rules, "natural_tie", "lose")] if rules.dealer_wins_ties else ZERO
    game = rules.hole_card
    exposed = game == "exposed"
    takes_all = game == "enhc"
    peek = game == "peek"
    h17 = rules.hit_soft_17

    def draws(shoe):
        if infinite:
            for r in RANKS:
                yield r, INFINITE_P[r - 1], None
            return
        size = sum(shoe)
        if size == 0:
            raise ShoeEmpty("a path needs a card from an empty shoe")
        for r in RANKS:
            if shoe[r - 1]:
                rest = list(shoe)
                rest[r - 1] -= 1
                yield r, Fraction(shoe[r - 1], size), tuple(rest)

    def limit_for(pair):
        limit = rules.max_split_hands
        if pair == ACE and not rules.resplit_aces:
            limit = min(limit, 2)
        if not infinite:
            limit = min(limit, shoe0[pair - 1])   # the analysis shoe's pair cards
        return limit

    def can_double(cards, split_hand):
        t, soft = _total(cards)
        if split_hand and not rules.double_after_split:
            return False
        if rules.double == "9-11" and t not in (9, 10, 11):
            return False
        if rules.double == "10-11" and t not in (10, 11):
            return False
        if soft and not rules.double_soft:
            return False
        return len(cards) == 2 or rules.double_any_cards

    def allowed_for(cards, split_hand, start):
        out = ["stand", "hit"]
        if can_double(cards, split_hand):
            out.append("double")
        if start:
            if cards[0] == cards[1] and limit_for(cards[0]) >= 2:
                out.append("split")
            if rules.surrender != "none":
                out.append("surrender")
        return tuple(out)

    asked = {}

    def ask(cards, dealer, split_hand, start, pair=0):
        allowed = allowed_for(cards, split_hand, start)
        if split_hand and split_policy is not None:
            key = (tuple(sorted(cards)), dealer, allowed, pair)
        else:
            key = (tuple(sorted(cards)), dealer, allowed)
        if key not in asked:   # the policy is a deterministic function of its arguments
            if len(key) == 4:
                action = split_policy(key[0], dealer, allowed, pair)
            else:
                action = policy(key[0], dealer, allowed)
            if action not in allowed:
                raise ValueError(f"policy chose {action!r} for {cards}, allowed {allowed}")
            asked[key] = action
        return asked[key]

    def add(acc, dist, p):
        for v, q in dist.items():
            acc[v] = acc.get(v, ZERO) + p * q

    dealer_memo = {}

    def dealer_final(shoe, cards):
        """{final total or 22 (bust): probability} for a dealer holding ``cards``."""
        key = (shoe, tuple(sorted(cards)))
        if key not in dealer_memo:
            t, soft = _total(cards)
            if t > 21:
                out = {22: ONE}
            elif t >= 18 or (t == 17 and not (soft and h17)):
                out = {t: ONE}
            else:
                out = {}
                try:
                    for r, p, rest in draws(shoe):
                        add(out, dealer_final(rest, cards + (r,)), p)
                except ShoeEmpty:
                    if strict:
                        raise
                    out = {22: ONE}   # the analyzers' convention: an empty shoe busts the dealer
            dealer_memo[key] = out
        return dealer_memo[key]

    def settle(hands, d):
        """Net of the finished hands (kind, total, bet) against a dealer total d (22 bust)."""
        win = ZERO
        for kind, t, bet in hands:
            if kind == "natural":
                win += b
            elif kind == "surrender":
                win -= HALF
            elif kind == "bust":
                win -= bet
            elif d == 22 or t > d:
                win += bet
            elif t < d:
                win -= bet
            else:
                win += tie_value * bet
        return win

    def against_natural(hands):
        """Net of the finished hands when the dealer's hand turns out to be a natural."""
        if takes_all:
            win = ZERO
            for kind, _, bet in hands:
                if kind == "natural":
                    win += natural_tie
                elif kind == "surrender":
                    win -= HALF if rules.surrender == "early" else ONE
                else:
                    win -= bet
            return win
        raise AssertionError("only the game where a natural takes every bet gets here")

    # A round is a sequence of spots; each spot's hands are recorded in ``done`` as
    # (spot, kind, total, bet).  Dealer-natural accounting is per spot: a spot with a
    # natural pushes, an early-surrendered spot keeps its half, any other spot loses one unit
    # (or, under enhc, every bet at stake).
    def spot_vs_natural(spot_hands):
        kinds = [k for k, _, _ in spot_hands]
        if takes_all:
            return against_natural(spot_hands)
        if "natural" in kinds:
            return natural_tie
        if rules.surrender == "early" and "surrender" in kinds:
            return -HALF
        return -ONE

    def by_spot(done):
        out = {}
        for s, kind, t, bet in done:
            out.setdefault(s, []).append((kind, t, bet))
        return out

    def insurance_net(dealer_natural):
        if not insurance or exposed or up != ACE:
            return ZERO
        return spots * (ONE if dealer_natural else -HALF)

    phase_memo = {}

    def dealer_phase(shoe, done, hole):
        """{net: p} once every hand of every spot is finished."""
        key = (shoe, done, hole, up, dealer_start)
        if key not in phase_memo:
            phase_memo[key] = _dealer_phase(shoe, done, hole)
        return phase_memo[key]

    def _dealer_phase(shoe, done, hole):
        groups = by_spot(done)
        out = {}
        if exposed:
            for d, q in dealer_final(shoe, dealer_start).items():
                add(out, {sum(settle(h, d) for h in groups.values()): ONE}, q)
            return out
        if hole is None:   # no hole card: the dealer's second card comes now
            for r, p, rest in draws(shoe):
                if _natural((up, r)):
                    net = sum(spot_vs_natural(h) for h in groups.values())
                    add(out, {net + insurance_net(True): ONE}, p)
                else:
                    for d, q in dealer_final(rest, (up, r)).items():
                        net = sum(settle(h, d) for h in groups.values())
                        add(out, {net + insurance_net(False): ONE}, p * q)
            return out
        for d, q in dealer_final(shoe, (up, hole)).items():
            net = sum(settle(h, d) for h in groups.values())
            add(out, {net + insurance_net(False): ONE}, q)
        return out

    memo = {}

    def next_spot(shoe, done, spot, hole):
        """Play spot ``spot`` (its first two cards are ``firsts[spot]``), or the dealer."""
        if spot == spots:
            return dealer_phase(shoe, tuple(sorted(done)), hole)
        return play_spot(shoe, done, spot, firsts[spot], hole)

    def play_spot(shoe, done, spot, first, hole):
        if _natural(first):
            return next_spot(shoe, done + ((spot, "natural", 21, 1),), spot + 1, hole)
        action = ask(first, dealer_key, False, True)
        if action == "surrender":
            return next_spot(shoe, done + ((spot, "surrender", 0, 1),), spot + 1, hole)
        if action == "split":
            return deal_second(shoe, done, spot, first[0], 1, 2, hole)
        return act(shoe, done, spot, first, 1, False, action, 0, 0, 0, hole)

    def finish_hand(shoe, done, spot, pair, waiting, nhands, hole):
        if waiting:
            return deal_second(shoe, done, spot, pair, waiting - 1, nhands, hole)
        return next_spot(shoe, done, spot + 1, hole)

    def deal_second(shoe, done, spot, pair, waiting, nhands, hole):
        """A split hand (one pair card) gets its second card; pair cards split off."""
        key = ("second", shoe, tuple(sorted(done)), spot, pair, waiting, nhands, hole)
        if key in memo:
            return memo[key]
        out = {}
        for r, p, rest in draws(shoe):
            if r == pair and nhands < limit_for(pair):
                add(out, deal_second(rest, done, spot, pair, waiting + 1, nhands + 1, hole), p)
            elif pair == ACE and not rules.hit_split_aces:
                t, _ = _total((pair, r))
                add(out, finish_hand(rest, done + ((spot, "stand", t, 1),), spot, pair,
                                     waiting, nhands, hole), p)
            else:
                cards = (pair, r)
                action = ask(cards, dealer_key, True, False, pair)
                add(out, act(rest, done, spot, cards, 1, True, action, pair, waiting, nhands,
                             hole), p)
        memo[key] = out
        return out

    def act(shoe, done, spot, cards, bet, split_hand, action, pair, waiting, nhands, hole):
        if action == "stand":
            t, _ = _total(cards)
            return finish_hand(shoe, done + ((spot, "stand", t, bet),), spot, pair, waiting,
                               nhands, hole)
        out = {}
        for r, p, rest in draws(shoe):
            new = cards + (r,)
            t, _ = _total(new)
            stake = 2 * bet if action == "double" else bet
            if t > 21:
                add(out, finish_hand(rest, done + ((spot, "bust", 0, stake),), spot, pair,
                                     waiting, nhands, hole), p)
            elif action == "double":
                add(out, finish_hand(rest, done + ((spot, "stand", t, stake),), spot, pair,
                                     waiting, nhands, hole), p)
            else:
                nxt = ask(new, dealer_key, split_hand, False, pair)
                add(out, act(rest, done, spot, new, bet, split_hand, nxt, pair, waiting,
                             nhands, hole), p)
        return out

    def with_firsts(shoe, dealt):
        """Deal every spot's first two cards, then (peek) the hole card, then play."""
        nonlocal firsts
        if len(dealt) < spots:
            out = {}
            for c1, p1, s1 in draws(shoe):
                for c2, p2, s2 in draws(s1):
                    add(out, with_firsts(s2, dealt + ((c1, c2),)), p1 * p2)
            return out
        firsts = dealt
        memo.clear()
        if exposed and _natural(dealer_start):
            # the round ends at once: every spot loses one unit, a natural pushes
            return {sum((natural_tie if _natural(f) else -ONE) for f in dealt): ONE}
        if not peek or up not in (ACE, TEN):
            # no natural to check now: the dealer's second card may as well come last
            return next_spot(shoe, (), 0, None)
        return hole_then_play(shoe, dealt)

    def hole_then_play(shoe, dealt):
        """Peek game: the hole card is dealt and checked for a natural before any play; an
        early surrender is decided before the check."""
        early = [not _natural(f) and rules.surrender == "early"
                 and ask(f, dealer_key, False, True) == "surrender" for f in dealt]
        out = {}
        for r, p, rest in draws(shoe):
            if _natural((up, r)):
                net = sum((natural_tie if _natural(f) else (-HALF if e else -ONE))
                          for f, e in zip(dealt, early))
                add(out, {net + insurance_net(True): ONE}, p)
            else:
                memo.clear()
                add(out, next_spot(rest, (), 0, r), p)
        return out

    result = {}
    firsts = ()
    # the dealer's face-up cards first (exchangeable with the player's first cards)
    if exposed:
        starts = [((a, c), pa * pc, s2) for a, pa, s1 in draws(shoe0)
                  for c, pc, s2 in draws(s1)]
    else:
        starts = [((a,), pa, s1) for a, pa, s1 in draws(shoe0)]
    for cards, pd, shoe in starts:
        dealer_start = cards
        up = cards[0]
        dealer_key = tuple(sorted(cards)) if exposed else up
        add(result, with_firsts(shoe, ()), pd)
    return result
