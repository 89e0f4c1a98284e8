"""A seeded Monte Carlo simulator of the real blackjack game, independent of the engine.

It deals real cards: every round starts from a fresh copy of the full shoe (or draws each
card independently from an infinite shoe), deals player, upcard, player, hole card in the
casino order, plays the player's hands one after the other (a split hand gets its second
card when its turn comes, after the hands before it are played out), and only then plays
the dealer from the cards that are left.  It uses nothing from ``bjsolve`` except the
``Rules`` fields it reads (and ``engine_policy``, which turns a solve into a policy).

Rules simulated (``Rules`` fields):

* peek: with an A or T up the dealer checks the hole card first; a dealer natural ends the
  round at once (the player loses 1, a player natural pushes).
* enhc: no hole card; the dealer's second card is drawn after the player has played.  A
  dealer natural then takes every bet on the table (doubles and splits too); a player
  natural pushes against it.
* enhc-obo: as enhc, but a dealer natural takes only the original bet: the round costs
  exactly 1 (extra double/split bets, busted or not, are returned), a natural pushes and a
  surrender keeps its half.  This makes it the peek game without the peek.
* exposed: both dealer cards are face up before the player acts and the policy sees both; a
  dealer natural ends the round at once (lose 1, a player natural pushes), before any
  surrender decision.
* surrender: "late" is offered on the original two cards after the peek (so never against a
  peeked natural), -0.5; with no hole card it stands only if the dealer's second card
  does not make a natural (a natural takes the whole bet, as if the dealer had peeked).
  "early" is decided before any natural check: -0.5 even when the dealer turns out to
  hold a natural.  A player natural is paid (or pushed) at once and is never asked for a
  decision.
* doubling: "any", "9-11", "10-11" on the hand's total (soft totals are 12+, so soft hands
  never qualify under 9-11/10-11); soft hands only with double_soft; two cards only unless
  double_any_cards; split hands only with double_after_split.  A double takes one card.
* splitting: the original pair may be split if max_split_hands >= 2 (aces: at most 2 hands
  unless resplit_aces).  Resplits are forced: while fewer than the limit of hands exist a
  pair card dealt as a split hand's second card always starts a new hand.  Split aces take
  one card each (no decisions) unless hit_split_aces.  A split A+T is a plain 21.  Split
  hands are never offered split or surrender.
* dealer_wins_ties: every push loses the hand's bet instead (doubled: 2), natural against
  natural included; a player natural against a dealer's non-natural 21 is still a natural.
* A player natural (A+T, two cards, unsplit) against no dealer natural pays
  ``blackjack_payout``.

Policy: ``policy(cards, dealer_cards, allowed, is_split) -> action`` where cards is the
sorted tuple of the hand's ranks (1 = ace, 10 = ten), dealer_cards is ``(upcard,)`` or, in
the exposed game, ``(upcard, hole card)``, allowed the tuple of legal actions in the order
stand, hit, double, split, surrender, and is_split whether the hand came from a split.  The
policy must be deterministic: ``simulate`` asks it once per distinct argument tuple.
"""
from __future__ import annotations

import gc
import math
import random

STAND, HIT, DOUBLE, SPLIT, SURRENDER = "stand", "hit", "double", "split", "surrender"
STANDARD_DECK = (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)


def _shoe_spec(rules, shoe):
    """(counts A..T, infinite?) of the shoe to deal from."""
    if shoe is None:
        if rules.decks == math.inf:
            return STANDARD_DECK, True
        return tuple(c * int(rules.decks) for c in STANDARD_DECK), False
    if hasattr(shoe, "counts"):  # a bjsolve.Shoe
        return tuple(shoe.counts), bool(getattr(shoe, "is_infinite", False))
    counts = tuple(shoe)
    if len(counts) != 10:
        raise ValueError(f"shoe: give 10 counts A..T, got {counts!r}")
    return counts, False


def _as_cards(cards, name):
    if cards is None:
        return ()
    if isinstance(cards, int):
        cards = (cards,)
    cards = tuple(int(c) for c in cards)
    if any(not 1 <= c <= 10 for c in cards):
        raise ValueError(f"{name}: ranks must be 1..10, got {cards}")
    return cards


def _infinite_drawer(counts, rand):
    if all(float(c).is_integer() for c in counts):
        table = [r for r in range(1, 11) for _ in range(int(counts[r - 1]))]
        k = len(table)
        return lambda: table[int(rand() * k)]
    from bisect import bisect_right
    total = float(sum(counts))
    cum, acc = [], 0.0
    for c in counts:
        acc += c / total
        cum.append(acc)
    cum[-1] = 1.0 + 1e-12
    return lambda: bisect_right(cum, rand()) + 1


def exact_floor(rc, unseen):
    """The default true count: floor(running count / (cards unseen / 52))."""
    return math.floor(rc * 52.0 / unseen)


def simulate_shoe(rules, policy, *, rounds, seed, cut, tags, shoe=None, true_count=exact_floor):
    """Deal one shoe to a cut card instead of a fresh shoe per round, counting the cards.

    After a shuffle one card is burnt (never seen); a new shuffle comes before the first
    round that starts with ``cut`` or more cards dealt (burn card included).  Before each
    round the true count is ``true_count(running count, cards not yet seen)`` (default
    floor(running count x 52 / cards not yet seen)), the running count summing ``tags`` (10
    numbers A..T) over every card dealt since the shuffle except the burn card.  Flat betting, one spot.  Returns {true count: [rounds, sum of results,
    sum of squared results]}.
    """
    by_tc = {}
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        _simulate(rules, policy, rounds, seed, shoe, None, None, cut=cut, tags=tags, by_tc=by_tc,
                  true_count=true_count)
    finally:
        if gc_was_enabled:
            gc.enable()
    return by_tc


def simulate(rules, policy, *, rounds, seed, shoe=None, fixed_player=None, fixed_dealer=None):
    """Play ``rounds`` independent rounds; return (mean net win per round, standard error).

    Units: initial bets.  shoe: None (the rules' full shoe), a ``bjsolve.Shoe`` or 10 counts.
    fixed_player: the player's two first cards; fixed_dealer: the upcard, or (upcard, hole
    card).  Fixed cards are taken out of the shoe before the rest is dealt.
    """
    gc_was_enabled = gc.isenabled()
    gc.disable()  # the rounds make no reference cycles; collections would only cost time
    try:
        return _simulate(rules, policy, rounds, seed, shoe, fixed_player, fixed_dealer)
    finally:
        if gc_was_enabled:
            gc.enable()


def _simulate(rules, policy, rounds, seed, shoe, fixed_player, fixed_dealer, *, cut=None,
              tags=None, by_tc=None, true_count=None):
    rounds = int(rounds)
    if rounds < 2:
        raise ValueError("rounds must be at least 2")
    counts, infinite = _shoe_spec(rules, shoe)
    fixed_p = _as_cards(fixed_player, "fixed_player")
    fixed_d = _as_cards(fixed_dealer, "fixed_dealer")
    if fixed_p and len(fixed_p) != 2:
        raise ValueError(f"fixed_player: give two cards, got {fixed_p}")
    if len(fixed_d) > 2:
        raise ValueError(f"fixed_dealer: give one or two cards, got {fixed_d}")
    if not infinite:
        need = [0] * 10
        for c in fixed_p + fixed_d:
            need[c - 1] += 1
        if any(k > counts[r] for r, k in enumerate(need)):
            raise ValueError(f"the shoe {counts} cannot supply the fixed cards {fixed_p + fixed_d}")
        if sum(counts) - len(fixed_p) - len(fixed_d) < 4:
            raise ValueError(f"shoe too small for a round: {counts}")

    rng = random.Random(seed)
    rand = rng.random

    # ---- rules -------------------------------------------------------------------------
    h17 = bool(rules.hit_soft_17)
    dbl_min = {"any": 0, "9-11": 9, "10-11": 10}[rules.double]
    dbl_soft = bool(rules.double_soft)
    dan = bool(rules.double_any_cards)
    das = bool(rules.double_after_split)
    limit = int(rules.max_split_hands)
    limit_aces = limit if rules.resplit_aces else min(limit, 2)
    hsa = bool(rules.hit_split_aces)
    surrender = rules.surrender
    early = surrender == "early"
    payout = float(rules.blackjack_payout)
    hole_rule = rules.hole_card
    peek = hole_rule == "peek"
    exposed = hole_rule == "exposed"
    no_hole = hole_rule in ("enhc", "enhc-obo")
    obo = hole_rule == "enhc-obo"
    dwt = bool(rules.dealer_wins_ties)
    tie = -1.0 if dwt else 0.0
    natural_vs_natural = tie
    hole_first = peek or exposed
    hole_fixed = len(fixed_d) == 2

    # ---- the shoe ------------------------------------------------------------------------
    deck = [r for r in range(1, 11) for _ in range(int(counts[r - 1]))] if not infinite else []
    full = len(deck)
    left = full  # the cards not yet dealt this round are deck[:left]

    if infinite:
        draw = _infinite_drawer(counts, rand)
    else:
        def draw():
            # one step of a Fisher-Yates shuffle: deck stays a permutation of the shoe, so
            # resetting ``left`` is a fresh shuffle for the next round
            nonlocal left
            left -= 1
            if left < 0:
                raise RuntimeError(f"the shoe {counts} ran out of cards in a round")
            i = int(rand() * (left + 1))
            c = deck[i]
            deck[i] = deck[left]
            deck[left] = c
            return c

    def take(r):
        """Take a card of rank r out of the undealt part (for fixed cards)."""
        nonlocal left
        left -= 1
        i = deck.index(r, 0, left + 1)
        deck[i] = deck[left]
        deck[left] = r
        return r

    # ---- decisions -------------------------------------------------------------------------
    def may_double(hand):
        if len(hand) != 2 and not dan:
            return False
        s = sum(hand)
        if 1 in hand and s + 10 <= 21:  # soft: total s + 10 >= 12
            return dbl_soft and dbl_min == 0
        return dbl_min == 0 or dbl_min <= s <= 11

    def allowed_for(cards, kind):
        """kind 0: original two cards, 1: later decision of an unsplit hand, 2: split hand."""
        out = [STAND, HIT]
        if may_double(cards) and (kind != 2 or das):
            out.append(DOUBLE)
        if kind == 0:
            if cards[0] == cards[1] and (limit_aces if cards[0] == 1 else limit) >= 2:
                out.append(SPLIT)
            if surrender != "none":
                out.append(SURRENDER)
        return tuple(out)

    cache = {}

    def decide(cards, dealer_t, kind):
        """The policy's action for a sorted hand; asked once per situation."""
        key = (cards, dealer_t, kind)
        a = cache.get(key)
        if a is None:
            allowed = allowed_for(cards, kind)
            a = policy(cards, dealer_t, allowed, kind == 2)
            if a not in allowed:
                raise ValueError(f"policy chose {a!r} for {cards} v {dealer_t} "
                                 f"(split hand: {kind == 2}); allowed {allowed}")
            cache[key] = a
        return a

    def play_hand(hand, action, dealer_t, is_split):
        """Play one hand from ``action`` on; returns (final total or 0 if bust, bet)."""
        kind = 2 if is_split else 1
        while True:
            if action == STAND:
                s = sum(hand)
                return (s + 10 if 1 in hand and s <= 11 else s), 1
            c = draw()
            hand.append(c)
            s = sum(hand)
            if s > 21:
                return 0, (2 if action == DOUBLE else 1)
            if action == DOUBLE:
                return (s + 10 if 1 in hand and s <= 11 else s), 2
            hand.sort()
            action = decide(tuple(hand), dealer_t, kind)

    total = 0.0
    total_sq = 0.0

    for _ in range(rounds):
        if cut is None:
            left = full
        else:
            if full - left >= cut or _ == 0:
                left = full
                draw()  # the burn card
            seen = deck[left:full - 1]  # dealt since the shuffle, burn card (deck[full-1]) out
            rc = sum(tags[c - 1] for c in seen)
            tc = true_count(rc, full - len(seen))
        if fixed_p or fixed_d:
            if not infinite:
                for c in fixed_p:
                    take(c)
                for c in fixed_d:
                    take(c)
        # the deal: player, upcard, player, hole card (none yet in a no-hole-card game)
        if fixed_p:
            p1, p2 = fixed_p
            up = fixed_d[0] if fixed_d else draw()
        else:
            p1 = draw()
            up = fixed_d[0] if fixed_d else draw()
            p2 = draw()
        if len(fixed_d) == 2:
            hole = fixed_d[1]
        elif hole_first:
            hole = draw()
        else:
            hole = 0
        dealer_t = (up, hole) if exposed else (up,)
        cards = (p1, p2) if p1 <= p2 else (p2, p1)
        player_natural = cards == (1, 10)
        dealer_natural = hole_first and up + hole == 11 and (up == 1 or hole == 1)

        net = None
        action = None
        if early and not player_natural and not exposed:
            action = decide(cards, dealer_t, 0)
            if action == SURRENDER:
                net = -0.5
        if net is None and dealer_natural:
            # peek (A or T up) or exposed: the round ends at once
            net = natural_vs_natural if player_natural else -1.0
        if net is None and player_natural:
            if no_hole and (up == 1 or up == 10):
                if not hole_fixed:
                    hole = draw()
                net = natural_vs_natural if up + hole == 11 else payout
            else:
                net = payout
        if net is None:
            if action is None:
                action = decide(cards, dealer_t, 0)
            if action == SURRENDER:
                net = -0.5
                if no_hole and (up == 1 or up == 10):
                    # a late surrender comes after the (here: delayed) natural check: a
                    # dealer natural voids it and takes the whole bet
                    if not hole_fixed:
                        hole = draw()
                    if up + hole == 11:
                        net = -1.0
            else:
                live = []      # (total, bet) of hands still standing
                lost = 0.0     # bets of busted hands
                bets = 0.0     # every bet on the table
                if action == SPLIT:
                    pair = p1
                    most = limit_aces if pair == 1 else limit
                    hands = [[pair], [pair]]
                    i = 0
                    while i < len(hands):
                        hand = hands[i]
                        c = draw()
                        while c == pair and len(hands) < most:
                            hands.append([pair])  # forced resplit
                            c = draw()
                        hand.append(c)
                        if pair == 1 and not hsa:
                            s = 1 + c
                            t, bet = (s + 10 if s <= 11 else s), 1
                        else:
                            hand.sort()
                            h = tuple(hand)
                            a = decide(h, dealer_t, 2)
                            t, bet = play_hand(hand, a, dealer_t, True)
                        bets += bet
                        if t:
                            live.append((t, bet))
                        else:
                            lost += bet
                        i += 1
                else:
                    t, bet = play_hand([p1, p2], action, dealer_t, False)
                    bets = bet
                    if t:
                        live.append((t, bet))
                    else:
                        lost = bet
                if no_hole:
                    # the dealer's second card comes now, whatever the player did
                    if not hole_fixed:
                        hole = draw()
                    if up + hole == 11 and (up == 1 or hole == 1):
                        net = -1.0 if obo else -bets
                if net is None:
                    net = -lost
                    if live:
                        s = up + hole
                        ace = up == 1 or hole == 1
                        while True:
                            if ace and s <= 11:  # soft total s + 10
                                d = s + 10
                                if d > 17 or (d == 17 and not h17):
                                    break
                            elif s >= 17:
                                d = s
                                break
                            c = draw()
                            s += c
                            if c == 1:
                                ace = True
                            if s > 21:
                                d = 22
                                break
                        net += settle(live, d, tie)
        total += net
        if by_tc is not None:
            slot = by_tc.setdefault(tc, [0, 0.0, 0.0])
            slot[0] += 1
            slot[1] += net
            slot[2] += net * net
        total_sq += net * net
    mean = total / rounds
    var = max(0.0, (total_sq - rounds * mean * mean) / (rounds - 1))
    return mean, math.sqrt(var / rounds)


def settle(live, d, tie):
    """The net of the standing hands ``live`` ((total, bet) each) against a dealer who ends
    on ``d`` (over 21: a bust); a push pays ``tie`` per unit (0, or -1 when the dealer
    wins ties)."""
    out = 0.0
    for t, bet in live:
        if d > 21 or t > d:
            out += bet
        elif t < d:
            out -= bet
        else:
            out += tie * bet
    return out


def engine_policy(solution):
    """A simulator policy that plays a bjsolve ``Solution``'s decisions (CDZ- after splits).

    * original two cards: the best of ``allowed`` by ``solution.hand_ev``;
    * later decisions of an unsplit hand: the best of ``allowed`` among the hand_ev values
      of that composition;
    * split hands: the best of ``allowed`` among the UNSPLIT values of the same composition.
    Ties go to the earlier of stand, hit, double, split, surrender.  Values are compared
    unconditioned (as the engine compares them internally).  For an unsplit hand the set
    of actions hand_ev reports must equal ``allowed`` (a check of the engine's admissibility
    rules against the simulator's); for a split hand ``allowed`` must be a subset.
    """
    from bjsolve.model.actions import (
        first_best,  # the engine's own choice rule (ties to the earlier)
    )
    peek = solution.rules.hole_card == "peek"
    kwargs = {"given_no_blackjack": False} if peek else {}
    values_cache = {}

    def policy(cards, dealer_cards, allowed, is_split):
        dealer = dealer_cards[0] if len(dealer_cards) == 1 else tuple(dealer_cards)
        key = (cards, dealer)
        values = values_cache.get(key)
        if values is None:
            values = values_cache[key] = dict(solution.hand_ev(cards, dealer, **kwargs))
        if is_split:
            ok = set(allowed) <= set(values)
        else:
            ok = set(allowed) == set(values)
        if not ok:
            raise AssertionError(f"admissible actions differ for {cards} v {dealer_cards} "
                                 f"(split hand: {is_split}): simulator {allowed}, "
                                 f"engine {tuple(values)}")
        return first_best({a: values[a] for a in allowed})

    return policy


def first_action_policy(cards, action, fallback):
    """A policy that takes ``action`` on the original two ``cards`` and then follows
    ``fallback`` (for fixed-hand checks of one action's value)."""
    cards = tuple(sorted(cards))

    def policy(c, dealer_cards, allowed, is_split):
        if not is_split and c == cards:
            if action not in allowed:
                raise ValueError(f"{action!r} is not allowed on {cards}: {allowed}")
            return action
        return fallback(c, dealer_cards, allowed, is_split)

    return policy
