"""A seeded Monte Carlo simulation of a counted shoe game, independent of the engine.

Real cards from a shuffled shoe: a burn card, then rounds (player, upcard, player, hole
card, the player's hand played out, split hands taking their second card in turn, then the
dealer if a player hand stands) while fewer than ``cut`` cards are dealt; then a new
shuffle.  Peek game only (a dealer natural ends the round before any decision; a player
natural pays ``blackjack_payout``), late or no surrender, resplits forced up to the limit.

The running count covers every card seen (the burn card is not); at the start of each
round the true count is running count / (cards not yet seen / 52; the burn card is unseen),
floored, truncated or rounded.  ``policy_at(tc)`` returns the policy for a round at that true count:
``policy(cards, upcard, allowed) -> action`` (cards a sorted tuple of ranks 1..10).

Returns per-true-count sums in batches of shoes (consecutive shoes grouped), so that
standard errors come from independent batches (rounds of one shoe are correlated).
"""
from __future__ import annotations

import math
import random

from simulator import settle

STANDARD_DECK = (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)


def _rounded(x, rounding):
    if rounding == "floor":
        return math.floor(x + 1e-9)
    if rounding == "truncate":
        return math.trunc(x + (1e-9 if x >= 0 else -1e-9))
    return math.floor(x + 0.5 + 1e-9)


def simulate_shoe_game(rules, tags, policy_at, *, rounds, seed, penetration, burn=1,
                       rounding="floor", batches=100):
    """Returns {"bins": {tc: [[n, sum, sum_sq] per batch]}, "rounds": [rounds per batch],
    "cards": {k: rounds that used k cards}}."""
    deck0 = [r for r in range(1, 11) for _ in range(STANDARD_DECK[r - 1] * int(rules.decks))]
    n_cards = len(deck0)
    cut = int(round(penetration * n_cards))
    rng = random.Random(seed)
    tag = [0.0] + [float(t) for t in tags]
    h17 = rules.hit_soft_17
    dbl_min = {"any": 0, "9-11": 9, "10-11": 10}[rules.double]
    limit = rules.max_split_hands
    limit_aces = limit if rules.resplit_aces else min(limit, 2)
    payout = rules.blackjack_payout
    tie = -1.0 if rules.dealer_wins_ties else 0.0
    late = rules.surrender == "late"
    per_batch = max(1, rounds // batches)
    bins: dict = {}
    batch_rounds = [0] * batches
    cards_used: dict = {}
    caches: dict = {}

    def may_double(hand, is_split):
        if len(hand) != 2 and not rules.double_any_cards:
            return False
        if is_split and not rules.double_after_split:
            return False
        s = sum(hand)
        if 1 in hand and s + 10 <= 21:
            return rules.double_soft and dbl_min == 0
        return dbl_min == 0 or dbl_min <= s <= 11

    def decide(policy, cache, hand, up, kind):
        key = (tuple(hand), up, kind)
        a = cache.get(key)
        if a is None:
            allowed = ["stand", "hit"]
            if may_double(hand, kind == 2):
                allowed.append("double")
            if kind == 0:
                if hand[0] == hand[1] and (limit_aces if hand[0] == 1 else limit) >= 2:
                    allowed.append("split")
                if late:
                    allowed.append("surrender")
            a = policy(tuple(hand), up, tuple(allowed))
            cache[key] = a
        return a

    done = 0
    batch = 0
    while done < rounds:
        deck = deck0[:]
        rng.shuffle(deck)
        pos = burn
        rc = 0.0
        while pos < cut and done < rounds:
            left = n_cards - (pos - burn)       # cards not yet seen (the burn card is unseen)
            tc = _rounded(rc * 52.0 / left, rounding)
            cache = caches.get(tc)
            if cache is None:
                cache = caches[tc] = {}
            policy = policy_at(tc)
            start = pos
            p1, up, p2, hole = deck[pos], deck[pos + 1], deck[pos + 2], deck[pos + 3]
            pos += 4
            hand = sorted((p1, p2))
            player_nat = hand == [1, 10]
            dealer_nat = up + hole == 11 and (up == 1 or hole == 1)
            if dealer_nat:
                net = tie if player_nat else -1.0
            elif player_nat:
                net = payout
            else:
                action = decide(policy, cache, hand, up, 0)
                if action == "surrender":
                    net = -0.5
                else:
                    live, lost = [], 0.0
                    if action == "split":
                        pair = hand[0]
                        most = limit_aces if pair == 1 else limit
                        hands = [[pair], [pair]]
                        i = 0
                        while i < len(hands):
                            h = hands[i]
                            c = deck[pos]
                            pos += 1
                            while c == pair and len(hands) < most:
                                hands.append([pair])
                                c = deck[pos]
                                pos += 1
                            h.append(c)
                            h.sort()
                            if pair == 1 and not rules.hit_split_aces:
                                t, bet = (sum(h) + 10 if sum(h) <= 11 else sum(h)), 1
                            else:
                                a = decide(policy, cache, h, up, 2)
                                t, bet, pos = _play(deck, pos, h, a, policy, cache, up, decide, 2)
                            if t:
                                live.append((t, bet))
                            else:
                                lost += bet
                            i += 1
                    else:
                        t, bet, pos = _play(deck, pos, hand, action, policy, cache, up, decide, 1)
                        if t:
                            live.append((t, bet))
                        else:
                            lost += bet
                    net = -lost
                    if live:
                        s, ace = up + hole, up == 1 or hole == 1
                        while True:
                            if ace and s <= 11:
                                d = s + 10
                                if d > 17 or (d == 17 and not h17):
                                    break
                            elif s >= 17:
                                d = s
                                break
                            c = deck[pos]
                            pos += 1
                            s += c
                            ace = ace or c == 1
                            if s > 21:
                                d = 22
                                break
                        net += settle(live, d, tie)
            for k in range(start, pos):
                rc += tag[deck[k]]
            used = pos - start
            cards_used[used] = cards_used.get(used, 0) + 1
            slot = bins.get(tc)
            if slot is None:
                slot = bins[tc] = [[0, 0.0, 0.0] for _ in range(batches)]
            cell = slot[batch]
            cell[0] += 1
            cell[1] += net
            cell[2] += net * net
            batch_rounds[batch] += 1
            done += 1
        # a batch holds whole shoes
        if batch_rounds[batch] >= per_batch and batch < batches - 1:
            batch += 1
    used_batches = batch + 1
    return {"bins": {tc: v[:used_batches] for tc, v in bins.items()},
            "rounds": batch_rounds[:used_batches], "cards": cards_used}


def _play(deck, pos, hand, action, policy, cache, up, decide, kind):
    """Play a hand from ``action`` on: (final total or 0 if bust, bet, new position);
    kind 1: an unsplit hand's later decisions, 2: a split hand's."""
    while True:
        if action == "stand":
            s = sum(hand)
            return (s + 10 if 1 in hand and s <= 11 else s), (1), pos
        c = deck[pos]
        pos += 1
        hand = sorted(hand + [c])
        s = sum(hand)
        if s > 21:
            return 0, (2 if action == "double" else 1), pos
        if action == "double":
            return (s + 10 if 1 in hand and s <= 11 else s), 2, pos
        if s == 21 or (1 in hand and s + 10 == 21):
            return 21, 1, pos
        action = decide(policy, cache, hand, up, kind)


def summarize(result):
    """{tc: (frequency, se, mean, se)} with standard errors from the batches, and the
    totals (rounds)."""
    rounds_b = result["rounds"]
    nb = len(rounds_b)
    total = sum(rounds_b)
    mean_r = total / nb
    out = {}
    for tc, cells in result["bins"].items():
        n = [c[0] for c in cells]
        s = [c[1] for c in cells]
        f = sum(n) / total
        se_f = math.sqrt(sum((a - f * r) ** 2 for a, r in zip(n, rounds_b)) / (nb * (nb - 1))) / mean_r
        if sum(n) > 1:
            m = sum(s) / sum(n)
            se_m = math.sqrt(sum((b - m * a) ** 2 for a, b in zip(n, s)) / (nb * (nb - 1))) / (sum(n) / nb)
            sq = sum(c[2] for c in cells) / sum(n)
            sd = math.sqrt(max(sq - m * m, 0.0))
        else:
            m = se_m = sd = float("nan")
        out[tc] = (f, se_f, m, se_m, sd, sum(n))
    return out


def ramp_totals(result, bet_of):
    """(win rate per round, its SE, variance per round) with bet ``bet_of(tc)`` (batches)."""
    rounds_b = result["rounds"]
    nb = len(rounds_b)
    win_b = [0.0] * nb
    sq = 0.0
    for tc, cells in result["bins"].items():
        b = bet_of(tc)
        for i, c in enumerate(cells):
            win_b[i] += b * c[1]
            sq += b * b * c[2]
    total = sum(rounds_b)
    w = sum(win_b) / total
    se = math.sqrt(sum((x - w * r) ** 2 for x, r in zip(win_b, rounds_b)) / (nb * (nb - 1))) / (total / nb)
    return w, se, sq / total - w * w
