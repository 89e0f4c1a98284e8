"""bjcore.GameEngine (src/bjcore/_game.pyx): the game walk (docs/algorithms.md, "The game walk").

Every expected value here is independent of the engine:
(a) with no game key, the classic engine (UpcardEngine) on the same shoe and rules;
(b) the games' rules against brute forces written below in plain Python: the dealer's
    outcome law by every draw order, a hand's values by exhaustive optimal play of its own
    cards, and whole split rounds dealt card by card in the real order under a fixed
    strategy (free splits and resplits, free doubles, dealer 22 pushes);
(c) the infinite shoe against the finite engine on a shoe of 1e9 decks.
"""
from __future__ import annotations

import math
import random
from functools import cache

import pytest
from bjsolve import Rules
from bjsolve.exact.kernel_rules import kernel_rules

from bjcore import GameEngine, UpcardEngine, check_rules

FREE_BET = dict(dealer_22_push=1, free_double_totals=(1 << 9) | (1 << 10) | (1 << 11),
                free_split_ranks=0b1111111110)
TOL = 1e-12


def close(a, b, tol=TOL):
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


def counts_of(*cards):
    c = [0] * 10
    for r in cards:
        c[r - 1] += 1
    return c


# ---- (a) the classic game: GameEngine equals UpcardEngine ------------------------------

def random_classic_rules(rng):
    return Rules(
        decks=rng.choice([1, 2]),
        hit_soft_17=rng.random() < 0.5,
        double=rng.choice(["any", "9-11", "10-11"]),
        double_soft=rng.random() < 0.7,
        double_any_cards=rng.random() < 0.3,
        double_after_split=rng.random() < 0.6,
        max_split_hands=rng.choice([2, 3, 4]),
        resplit_aces=rng.random() < 0.4,
        hit_split_aces=rng.random() < 0.3,
        surrender=rng.choice(["none", "late", "early"]),
        blackjack_payout=rng.choice([1.5, 1.2]),
        hole_card=rng.choice(["peek", "enhc", "enhc-obo"]),
        dealer_wins_ties=rng.random() < 0.15,
    )


def depleted(shoe, rng, k):
    shoe = list(shoe)
    for _ in range(k):
        r = rng.choice([i for i in range(10) if shoe[i] > 4])
        shoe[r] -= 1
    return shoe


def assert_same_engines(classic, game, pairs=True):
    assert close(classic.round_ev(), game.round_ev())
    if pairs:
        for p in range(1, 11):
            assert classic.split_limit(p) == game.split_limit(p)
            if classic.split_limit(p) >= 2:
                a, beta_a = classic.split_ev(p)
                b, beta_b = game.split_ev(p)
                assert close(a, b), (p, a, b)
                assert close(beta_a, beta_b)
    for hand in ([10, 6], [1, 6], [5, 6], [2, 3, 4], [8, 8], [1, 1], [9, 2]):
        counts = counts_of(*hand)
        try:
            expect = classic.hand_values(counts)
        except ValueError:
            continue
        got = game.hand_values(counts)
        for x, y in zip(expect, got):
            assert close(x, y), (hand, expect, got)
        assert classic.may_double_hand(counts) == game.may_double_hand(counts)
        if len(hand) == 2:
            assert close(classic.surrender_ev(counts), game.surrender_ev(counts))


@pytest.mark.parametrize("seed", range(8))
def test_classic_rules_equal_the_classic_engine(seed):
    rng = random.Random(seed)
    rules = random_classic_rules(rng)
    split_code = rng.choice([0, 1, 2])
    params = kernel_rules(rules, split_code)
    assert check_rules(params)["game"] == 0
    full = [4 * int(rules.decks)] * 9 + [16 * int(rules.decks)]
    for shoe in (full, depleted(full, rng, 6)):
        for up in rng.sample(range(1, 11), 3):
            assert_same_engines(UpcardEngine(shoe, up, params), GameEngine(shoe, up, params))


def test_classic_exposed_dealer_and_infinite_shoe_equal_the_classic_engine():
    params = kernel_rules(Rules(decks=1, hit_soft_17=True, surrender="late"), 0)
    shoe = [4] * 9 + [16]
    for dealer in ((6, 10), (2, 2), (1, 6)):
        assert_same_engines(UpcardEngine(shoe, dealer, params), GameEngine(shoe, dealer, params))
    inf = [1 / 13] * 9 + [4 / 13]
    for split_code in (0, 2):
        params = kernel_rules(Rules(max_split_hands=4, resplit_aces=True), split_code)
        for up in (1, 5, 10):
            assert_same_engines(UpcardEngine(inf, up, params, True),
                                GameEngine(inf, up, params, True))


@pytest.mark.parametrize("split_code", [0, 1, 2])
def test_frozen_decisions_play_the_same_strategy_as_the_classic_engine(split_code):
    """Decisions recorded on a full shoe and played on a depleted one (removal effects)."""
    params = kernel_rules(Rules(decks=2, double_after_split=True), split_code)
    policy_params = dict(params, split_class=3)
    full = [8] * 9 + [32]
    shoe = depleted(full, random.Random(split_code), 5)
    for up in (1, 6, 9):
        values = []
        for Engine in (UpcardEngine, GameEngine):
            source = Engine(full, up, params)
            source.round_ev()
            assert source.freeze_decisions() > 0
            player = Engine(shoe, up, policy_params)
            source.copy_policy_to(player)
            values.append(player.round_ev())
            assert player.policy_misses == 0
        assert close(*values)


# ---- (b) the games: brute forces ---------------------------------------------------------

def dealer_law_by_every_order(counts, dealer_cards, h17):
    """{17..21, 'natural', 22, 'over': chance}: the dealer draws card by card from ``counts``
    (the dealer's known cards already out), hole card first when one card is known."""
    out = {k: 0.0 for k in (17, 18, 19, 20, 21, "natural", 22, "over")}

    def walk(shoe, cards, p):
        hard = sum(cards)
        soft = 1 in cards and hard + 10 <= 21
        t = hard + 10 if soft else hard
        if len(cards) == 2 and len(dealer_cards) == 1 and sorted(cards) == [1, 10]:
            out["natural"] += p
            return
        if hard > 21:
            out[22 if hard == 22 else "over"] += p
            return
        if t > 17 or (t == 17 and not (soft and h17)):
            out[t] += p
            return
        left = sum(shoe)
        for r in range(1, 11):
            if shoe[r - 1] > 0:
                rest = list(shoe)
                rest[r - 1] -= 1
                walk(rest, cards + [r], p * shoe[r - 1] / left)

    walk(list(counts), list(dealer_cards), 1.0)
    return out


@cache
def dealer_law_of_cards_left(left, up, h17):
    """``dealer_law_by_every_order`` of one upcard, memoised for the brute forces below."""
    return dealer_law_by_every_order(list(left), (up,), h17)


@pytest.mark.parametrize("dealer", [1, 2, 6, 7, 10, (10, 6), (2, 3)])
@pytest.mark.parametrize("h17", [False, True])
def test_dealer_law_keeps_22_apart(dealer, h17):
    shoe = [2, 1, 3, 2, 2, 1, 3, 2, 1, 6]
    cards = dealer if isinstance(dealer, tuple) else (dealer,)
    params = dict(kernel_rules(Rules(decks=1, hit_soft_17=h17), 0), dealer_22_push=1)
    engine = GameEngine([c + cards.count(r + 1) for r, c in enumerate(shoe)], dealer, params)
    expect = dealer_law_by_every_order(shoe, cards, h17)
    got = engine._dealer_law(shoe)
    for k, key in enumerate((17, 18, 19, 20, 21, "natural", 22, "over")):
        assert got[k] == pytest.approx(expect[key], abs=1e-14)


@pytest.mark.parametrize("dealer", [1, 2, 7, 10, (10, 6)])
@pytest.mark.parametrize("kind", ["6D", "1D depleted", "fractional", "infinite"])
def test_batched_dealer_law_is_the_single_pass_bit_for_bit(dealer, kind):
    """The walk computes its dealer laws in batches (docs/algorithms.md, "The game walk"):
    a shoe's law from a batch is the single pass's bit for bit, whatever shares the batch
    and however many lanes (padded, several passes of 16, the skip test on and off)."""
    cards = dealer if isinstance(dealer, tuple) else (dealer,)
    left = {"6D": [24.0] * 9 + [96.0], "1D depleted": [2, 1, 3, 2, 2, 1, 3, 2, 1, 6],
            "fractional": [23.4, 24, 24, 24, 23.7, 24, 24, 24, 24, 95.2],
            "infinite": [1 / 13] * 9 + [4 / 13]}[kind]
    infinite = kind == "infinite"
    shoe = left if infinite else [c + cards.count(r + 1) for r, c in enumerate(left)]
    params = dict(kernel_rules(Rules(decks=6, hit_soft_17=True), 0), dealer_22_push=1)
    engine = GameEngine(shoe, dealer, params, infinite, kind == "fractional")
    single = engine._dealer_law(left)
    assert abs(sum(single) - 1.0) < 1e-12
    for lanes in (1, 3, 4, 5, 9, 10, 12, 16, 17, 33):
        assert engine._dealer_law(left, lanes=lanes) == single, lanes


class HandBruteForce:
    """Optimal values of an unsplit hand's own cards (unconditioned, the hole card drawn
    after the player's cards; a dealer natural takes the original bet only, or everything
    with ENHC), every game rule written out again."""

    def __init__(self, shoe, upcard, rules, game):
        self.shoe = tuple(shoe)          # the shoe given to the engine
        self.up = upcard
        self.r = rules                   # a Rules
        self.g = dict(dict(dealer_22_push=0, free_double_totals=0, player_21_wins=0,
                           bonus_21=(1, 1, 1), bonus_678=(1, 1, 1), bonus_777=(1, 1, 1),
                           super_bonus=0, redoubles=0, double_rescue=0), **game)
        self.enhc = rules.hole_card == "enhc"

    def left(self, hand):
        n = list(self.shoe)
        n[self.up - 1] -= 1
        for r in hand:
            n[r - 1] -= 1
        return n

    def dealer(self, hand):
        # the dealer's law depends on the cards left, the upcard and H17 only: shared by
        # every game and chart of the same shoe (the tests read it and never change it)
        return dealer_law_of_cards_left(tuple(self.left(hand)), self.up, self.r.hit_soft_17)

    @staticmethod
    def total(hand):
        hard = sum(hand)
        return hard + 10 if 1 in hand and hard + 10 <= 21 else hard

    def bonus(self, hand):
        if self.total(hand) != 21:
            return 1.0
        n = len(hand)
        if n >= 5:
            return self.g["bonus_21"][min(n, 7) - 5]
        if n == 3 and sorted(hand) == [6, 7, 8]:
            b = self.g["bonus_678"]
            return 60 / 64 * b[0] + 3 / 64 * b[1] + 1 / 64 * b[2]
        if n == 3 and sorted(hand) == [7, 7, 7]:
            sevens = self.shoe[6]
            m = sevens / 4
            one = m * (m - 1) * (m - 2) / (sevens * (sevens - 1) * (sevens - 2))
            b = self.g["bonus_777"]
            if self.g["super_bonus"] and self.up == 7:
                return (1 - 4 * one) * b[0] + 4 * one * self.g["super_bonus"]
            return (1 - 4 * one) * b[0] + 3 * one * b[1] + one * b[2]
        return 1.0

    def stand(self, hand, own, free, doubled):
        """E[payoff] of standing: a natural costs the whole own stake here (the double
        nodes give back what they added when only the original bet is lost)."""
        t = self.total(hand)
        d = self.dealer(hand)
        pays = (own + free) * (1.0 if doubled else self.bonus(hand))
        tie = -own if self.r.dealer_wins_ties else 0.0
        v = -own * d["natural"] + pays * d["over"]
        always = self.g["player_21_wins"] and t == 21
        v += pays * d[22] if (always or not self.g["dealer_22_push"]) else 0.0
        for k in range(17, 22):
            v += d[k] * (pays if (always or t > k) else -own if t < k else tie)
        return v

    def draws(self, hand):
        n = self.left(hand)
        size = sum(n)
        return [(r, n[r - 1] / size) for r in range(1, 11) if n[r - 1] > 0]

    def beta(self, hand):
        hole = {1: 10, 10: 1}.get(self.up)
        if hole is None or self.enhc:
            return 0.0
        return dict(self.draws(hand)).get(hole, 0.0)

    def can_double(self, hand):
        t, soft = self.total(hand), 1 in hand and sum(hand) + 10 <= 21
        if self.r.double == "9-11" and t not in (9, 10, 11):
            return False
        if self.r.double == "10-11" and t not in (10, 11):
            return False
        if soft and not self.r.double_soft:
            return False
        return len(hand) == 2 or self.r.double_any_cards

    def hit(self, hand):
        v = 0.0
        for r, p in self.draws(hand):
            h = tuple(sorted(hand + (r,)))
            v += p * (-1.0 if sum(h) > 21 else self.best(h))
        return v

    @cache
    def best(self, hand):
        options = [self.stand(hand, 1.0, 0.0, False), self.hit(hand)]
        if self.can_double(hand):
            options.append(self.double(hand))
        return first_best(options)

    def double(self, hand):
        soft = 1 in hand and sum(hand) + 10 <= 21
        free = (len(hand) == 2 and not soft
                and (self.g["free_double_totals"] >> self.total(hand)) & 1)
        if free:
            return self.after_double(hand, 1.0, 1.0, 0.0, self.g["redoubles"])
        return self.after_double(hand, 2.0, 0.0, 1.0, self.g["redoubles"])

    def after_double(self, hand, own, free, added, redoubles):
        v = added * self.beta(hand)
        for r, p in self.draws(hand):
            h = tuple(sorted(hand + (r,)))
            if sum(h) > 21:
                v -= p * own
                continue
            options = [self.stand(h, own, free, True)]
            if redoubles and self.total(h) < 21:
                options.append(self.after_double(h, 2 * own, 2 * free, own, redoubles - 1))
            # the rescue: after the first double; after a redouble only with
            # rescue_after_redouble
            if self.g["double_rescue"] and (redoubles == self.g["redoubles"]
                                            or self.g.get("rescue_after_redouble")):
                nat = self.dealer(h)["natural"]
                # a late surrender: only against a dealer found without a natural
                options.append(-(1 - nat) - own * nat)
            v += p * first_best(options)
        return v


def first_best(values):
    best = values[0]
    for v in values[1:]:
        if v - best > 1e-12 * max(1.0, abs(best)):
            best = v
    return best


SMALL_SHOE = [3, 2, 2, 3, 2, 3, 4, 3, 3, 9]
GAMES = {
    "dealer 22 pushes": dict(dealer_22_push=1),
    "free doubles": dict(free_double_totals=(1 << 9) | (1 << 10) | (1 << 11)),
    "free doubles and 22": dict(FREE_BET),
    "player 21 wins": dict(player_21_wins=1),
    "21 wins and 22 pushes": dict(player_21_wins=1, dealer_22_push=1),
    "bonuses": dict(bonus_21=(1.5, 2.0, 3.0), bonus_678=(1.5, 2.0, 3.0),
                    bonus_777=(1.5, 2.0, 3.0), super_bonus=25.0),
    "redoubles": dict(redoubles=3),
    "rescue": dict(double_rescue=1),
    "spanish": dict(player_21_wins=1, bonus_21=(1.5, 2.0, 3.0), bonus_678=(1.5, 2.0, 3.0),
                    bonus_777=(1.5, 2.0, 3.0), redoubles=2, double_rescue=1),
    "rescue after redouble": dict(redoubles=2, double_rescue=1, rescue_after_redouble=1),
}


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("upcard", [1, 6, 7, 10])
@pytest.mark.parametrize("any_cards", [False, True])
def test_hand_values_against_brute_force(game, upcard, any_cards):
    rules = Rules(decks=1, hit_soft_17=True, double_any_cards=any_cards,
                  dealer_wins_ties=(game == "rescue"))
    params = dict(kernel_rules(rules, 2), **GAMES[game])
    engine = GameEngine(SMALL_SHOE, upcard, params)
    brute = HandBruteForce(SMALL_SHOE, upcard, rules, GAMES[game])
    for hand in ((10, 6), (6, 7), (7, 7), (5, 4), (2, 8), (1, 5), (3, 4, 2), (7, 7, 7),
                 (6, 7, 8), (2, 3, 4, 5), (1, 2, 3, 4, 1)):
        key = tuple(sorted(hand))
        st, ht, dd, _ = engine.hand_values(counts_of(*hand))
        assert st == pytest.approx(brute.stand(key, 1.0, 0.0, False), abs=1e-12), hand
        assert ht == pytest.approx(brute.hit(key), abs=1e-12), hand
        if brute.can_double(key):
            assert dd == pytest.approx(brute.double(key), abs=1e-12), hand


def test_free_double_value_is_the_stand_weighted_formula():
    """A free double pays 2 on a win and costs the own unit on a loss (a dealer natural
    included: nothing of the free stake to give back): on a hand of 10 its value is
    sum_r p_r (2 P(win | h + r) - P(loss | h + r)), from the dealer's law alone."""
    shoe = [24] * 9 + [96]
    plain = kernel_rules(Rules(decks=6, hit_soft_17=True), 0)
    free = dict(plain, free_double_totals=1 << 10)
    for up in (5, 10):
        paid_engine = GameEngine(shoe, up, plain)
        free_engine = GameEngine(shoe, up, free)
        hand = counts_of(6, 4)
        left = list(shoe)
        left[up - 1] -= 1
        left[5] -= 1
        left[3] -= 1
        size = sum(left)
        expect = 0.0
        for r in range(1, 11):
            p = left[r - 1] / size
            law = dealer_law_by_every_order_cached(tuple(x - (1 if i == r - 1 else 0)
                                                         for i, x in enumerate(left)), up)
            t = 10 + r + (10 if r == 1 else 0)
            win = law["over"] + law[22] + sum(law[k] for k in range(17, 22) if t > k)
            loss = law["natural"] + sum(law[k] for k in range(17, 22) if t < k)
            expect += p * (2 * win - loss)
        assert free_engine.hand_values(hand)[2] == pytest.approx(expect, abs=1e-12)
        # the stand and hit values do not involve the free double's stake
        for x, y in zip(paid_engine.hand_values(hand)[:2], free_engine.hand_values(hand)[:2]):
            assert close(x, y)


@cache
def dealer_law_by_every_order_cached(left, up):
    return dealer_law_by_every_order(list(left), (up,), True)


def test_bonus_payouts_scale_exactly():
    """A 5-card 21 standing wins exactly as often whatever the bonus: its stand value moves
    by (bonus - 1) * P(win)."""
    shoe = [24] * 9 + [96]
    base = kernel_rules(Rules(decks=6), 0)
    hand = counts_of(2, 3, 4, 5, 7)
    for up in (6, 10):
        st1 = GameEngine(shoe, up, dict(base, bonus_21=(1.0, 1.0, 1.0))).hand_values(hand)[0]
        st3 = GameEngine(shoe, up, dict(base, bonus_21=(3.0, 1.0, 1.0))).hand_values(hand)[0]
        left = list(shoe)
        left[up - 1] -= 1
        for r, c in enumerate(hand):
            left[r] -= c
        law = dealer_law_by_every_order(left, (up,), False)
        p_win = 1.0 - law[21] - law["natural"]
        assert st3 - st1 == pytest.approx(2.0 * p_win, abs=1e-12)


def test_dealer_22_push_on_a_shoe_without_22_is_the_classic_game():
    """A shoe of 8s, 9s and tens: the dealer stands on 17..20 after two cards or draws to
    16 + 8 or more, never to 22, so the push rule changes nothing."""
    shoe = [0, 0, 0, 0, 0, 0, 0, 8, 8, 24]
    plain = kernel_rules(Rules(decks=2), 0)
    for up in (8, 9, 10):
        a = UpcardEngine(shoe, up, plain)
        b = GameEngine(shoe, up, dict(plain, dealer_22_push=1))
        assert close(a.round_ev(), b.round_ev())


# ---- whole split rounds, card by card ------------------------------------------------------

def fixed_action(hand, free_total_mask):
    """A fixed strategy of the hand's own cards: double 9-11 on two cards, hit below 12,
    hit soft 17 or less, else stand."""
    hard = sum(hand)
    soft = 1 in hand and hard + 10 <= 21
    t = hard + 10 if soft else hard
    if len(hand) == 2 and not soft and t in (9, 10, 11):
        return "double"
    if t < 12 or (soft and t < 18):
        return "hit"
    return "stand"


def split_round_by_every_card(shoe, up, pair, limit, rules, game):
    """Unconditioned EV of splitting ``pair`` against ``up``: ``shoe`` is what is left after
    the two pair cards and the upcard; hands are dealt and played one after another (hand 1
    takes cards until one is not a pair card, a pair card splits off a new hand while fewer
    than ``limit`` exist; the new hand is free when the pair's rank splits free), then the
    dealer draws (hole card first); a dealer natural takes the original bet only."""
    free_split = (game.get("free_split_ranks", 0) >> pair) & 1
    mask = game.get("free_double_totals", 0)
    push22 = game.get("dealer_22_push", 0)
    h17 = rules.hit_soft_17

    def total(hand):
        hard = sum(hand)
        return hard + 10 if 1 in hand and hard + 10 <= 21 else hard

    def settle(done, dealer):
        if dealer == "natural":
            return -1.0   # the original bet only, whatever else happened
        v = 0.0
        for t, own, free in done:
            if t > 21:
                v -= own
            elif dealer == 22 and push22:
                pass
            elif dealer in (22, "over") or t > dealer:
                v += own + free
            elif t < dealer:
                v -= own
        return v

    @cache
    def play(shoe, done, pending, current, n_hands):
        """``current``: (cards, own, free) of the hand being dealt to (None: take the next
        pending one); ``done``: finished hands (total, own, free), sorted."""
        if current is None:
            if pending:
                return play(shoe, done, pending[1:], pending[0], n_hands)
            law = dealer_law_by_every_order(list(shoe), (up,), h17)
            return sum(p * settle(done, k) for k, p in law.items() if p > 0)
        cards, own, free = current
        size = sum(shoe)
        if len(cards) == 1:
            v = 0.0
            for r in range(1, 11):
                if shoe[r - 1] == 0:
                    continue
                p = shoe[r - 1] / size
                rest = shoe[:r - 1] + (shoe[r - 1] - 1,) + shoe[r:]
                if r == pair and n_hands < limit:
                    new = ((pair,), 0.0 if free_split else 1.0, 1.0 if free_split else 0.0)
                    v += p * play(rest, done, (new,) + pending, current, n_hands + 1)
                else:
                    v += p * play(rest, done, pending, (cards + (r,), own, free), n_hands)
            return v
        action = fixed_action(cards, mask)
        if action == "stand":
            hand = (total(cards), own, free)
            return play(shoe, tuple(sorted(done + (hand,))), pending, None, n_hands)
        v = 0.0
        for r in range(1, 11):
            if shoe[r - 1] == 0:
                continue
            p = shoe[r - 1] / size
            rest = shoe[:r - 1] + (shoe[r - 1] - 1,) + shoe[r:]
            grown = cards + (r,)
            if action == "double":
                soft = 1 in cards and sum(cards) + 10 <= 21
                if (mask >> total(cards)) & 1 and not soft:
                    stake = (own, free + own + free)          # free double
                else:
                    stake = (own + own + free, free)          # paid double
                hand = (sum(grown) if sum(grown) > 21 else total(grown),) + stake
                v += p * play(rest, tuple(sorted(done + (hand,))), pending, None, n_hands)
            elif sum(grown) > 21:
                v += p * play(rest, tuple(sorted(done + ((sum(grown), own, free),))),
                              pending, None, n_hands)
            else:
                v += p * play(rest, done, pending, (grown, own, free), n_hands)
        return v

    second = ((pair,), 0.0 if free_split else 1.0, 1.0 if free_split else 0.0)
    return play(tuple(shoe), (), (second,), ((pair,), 1.0, 0.0), 2)


def policy_engine(shoe, up, rules, game):
    """A GameEngine playing ``fixed_action`` on every composition of the shoe."""
    params = dict(kernel_rules(rules, 3), **game)
    engine = GameEngine(shoe, up, params)

    def walk(hand, lowest):
        if len(hand) >= 2:
            act = {"stand": 0, "hit": 1, "double": 2}[fixed_action(hand, 0)]
            counts = counts_of(*hand)
            for kind in (1, 2):
                engine.set_policy(kind, counts, act)
            if len(hand) == 2:
                engine.set_policy(0, counts, act)
        for r in range(lowest, 11):
            if sum(hand) + r <= 21 and counts_of(*hand, r)[r - 1] <= shoe[r - 1]:
                walk(hand + (r,), r)

    walk((), 1)
    return engine


@pytest.mark.parametrize("game", ["classic", "free bet", "free splits only",
                                  "free doubles only"])
@pytest.mark.parametrize("up", [6, 10])
@pytest.mark.parametrize("limit", [2, 3, 4])
def test_split_rounds_against_card_by_card_play(game, up, limit):
    games = {"classic": {}, "free bet": FREE_BET,
             "free splits only": dict(free_split_ranks=FREE_BET["free_split_ranks"]),
             "free doubles only": dict(free_double_totals=FREE_BET["free_double_totals"])}
    g = games[game]
    pair = 8
    shoe = [1, 1, 1, 2, 1, 1, 1, 4, 1, 7]   # the engine's shoe: pair and upcard included
    rules = Rules(decks=1, hit_soft_17=True, double_after_split=True, max_split_hands=limit)
    engine = policy_engine(shoe, up, rules, g)
    left = list(shoe)
    left[pair - 1] -= 2
    left[up - 1] -= 1
    expect = split_round_by_every_card(left, up, pair, min(limit, shoe[pair - 1]), rules, g)
    got, _ = engine.split_ev(pair)
    assert engine.policy_misses == 0
    assert got == pytest.approx(expect, abs=1e-12)


# ---- (c) the infinite shoe -----------------------------------------------------------------

@pytest.mark.parametrize("game", ["free bet", "spanish"])
def test_infinite_shoe_is_the_limit_of_huge_shoes(game):
    g = dict(FREE_BET) if game == "free bet" else dict(GAMES["spanish"])
    rules = Rules(hit_soft_17=True, double_any_cards=(game == "spanish"), max_split_hands=4)
    params = dict(kernel_rules(rules, 0), **g)
    ten = 3 if game == "spanish" else 4
    probs = [1 / (9 + ten)] * 9 + [ten / (9 + ten)]
    huge = [1e8] * 9 + [ten * 1e8]   # (the kernels take counts up to 1e9)
    for up in (1, 6, 10):
        inf = GameEngine(probs, up, params, True)
        fin = GameEngine(huge, up, params)
        assert inf.round_ev() == pytest.approx(fin.round_ev(), abs=1e-6)
        for p in (2, 8):
            assert inf.split_ev(p)[0] == pytest.approx(fin.split_ev(p)[0], abs=1e-6)


# ---- input --------------------------------------------------------------------------------

def test_redoubles_with_free_rules_are_refused_by_name():
    params = dict(kernel_rules(Rules(), 0), redoubles=1, free_double_totals=1 << 10)
    with pytest.raises(ValueError, match="redoubles.*free"):
        GameEngine([24] * 9 + [96], 6, params)


def test_make_engine_picks_the_game_engine_only_for_games():
    from bjsolve import Shoe
    from bjsolve.exact.engines import make_engine
    shoe = Shoe.decks(1)
    params = kernel_rules(Rules(decks=1), 0)
    assert type(make_engine(params, shoe, 6)) is UpcardEngine
    assert type(make_engine(dict(params, dealer_22_push=1), shoe, 6)) is GameEngine
    # a game key at its classic value is the classic game
    assert type(make_engine(dict(params, dealer_22_push=0), shoe, 6)) is UpcardEngine
    assert math.isfinite(make_engine(dict(params, **FREE_BET), shoe, 6).round_ev())


def test_fractional_shoes_equal_the_classic_engine():
    """Index generation places a shoe at a true count with fractional counts; the game
    engine gives the classic values there (frozen decisions too), and on a shoe that holds
    less than one card of a rank a hand draws (the count goes negative in the total)."""
    rng = random.Random(7)
    for split_code in (0, 2):
        params = kernel_rules(Rules(decks=6), split_code)
        for _ in range(2):
            shoe = [24 + rng.uniform(-3, 3) for _ in range(9)] + [96 + rng.uniform(-8, 8)]
            up = rng.randint(1, 10)
            assert_same_engines(UpcardEngine(shoe, up, params, False, True),
                                GameEngine(shoe, up, params, False, True))
    params = kernel_rules(Rules(decks=1), 0)
    shoe = [0.6, 4, 4, 4, 4, 4, 4, 4, 4, 16.5]
    for up in (2, 6, 10):
        a = UpcardEngine(shoe, up, params, False, True)
        b = GameEngine(shoe, up, params, False, True)
        assert close(a.round_ev(), b.round_ev())


def test_solve_chart_and_evaluate_run_on_the_game_engine(monkeypatch):
    """Everything built on engines works for a game unchanged: until ``Rules`` has the games'
    fields, the game keys are added to the kernel rule dict the solver builds engines from."""
    import bjsolve
    from bjsolve import Shoe
    from bjsolve.exact import engines

    plain = engines.kernel_rules
    monkeypatch.setattr(engines, "kernel_rules",
                        lambda rules, split_code: dict(plain(rules, split_code), **FREE_BET))
    rules = Rules(decks=1, hit_soft_17=True)
    shoe = Shoe.decks(1)
    sol = bjsolve.solve(rules, shoe=shoe, threads=1)
    # the round's EV is the upcard-weighted mean of the game engines' round values
    counts = shoe.kernel_weights()
    params = dict(plain(rules, 0), **FREE_BET)
    expect = sum(GameEngine(counts, up, params).round_ev() * counts[up - 1] / sum(counts)
                 for up in range(1, 11))
    assert float(sol.expected_value) == pytest.approx(expect, abs=1e-12)
    chart = sol.strategy
    # a free split of 4s against a ten (the classic chart hits them)
    assert chart.code((4, 4), 10, can_split=True) == "P"
    value = float(sol.evaluate(chart))
    assert value <= float(sol.expected_value) + 1e-12
    assert value > float(sol.expected_value) - 0.01


@pytest.mark.parametrize("game", ["free doubles", "rescue", "spanish"])
def test_hand_values_without_a_hole_card_against_brute_force(game):
    """ENHC: a dealer natural takes every bet, so a double gives nothing back, and a rescue
    (a late surrender) saves the doubled stake only when the dealer has no natural."""
    rules = Rules(decks=1, hit_soft_17=True, hole_card="enhc")
    params = dict(kernel_rules(rules, 2), **GAMES[game])
    for upcard in (1, 10):
        engine = GameEngine(SMALL_SHOE, upcard, params)
        brute = HandBruteForce(SMALL_SHOE, upcard, rules, GAMES[game])
        for hand in ((10, 6), (5, 4), (6, 7), (2, 8)):
            key = tuple(sorted(hand))
            st, ht, dd, _ = engine.hand_values(counts_of(*hand))
            assert st == pytest.approx(brute.stand(key, 1.0, 0.0, False), abs=1e-12)
            assert ht == pytest.approx(brute.hit(key), abs=1e-12)
            assert dd == pytest.approx(brute.double(key), abs=1e-12)


@pytest.mark.parametrize("up", [5, 9])
def test_split_aces_double_on_their_second_card(up):
    """Two split aces (no resplit, no hit) that may double: each is worth the better of
    standing and doubling on its two cards, with the other ace gone too."""
    rules = Rules(decks=1, resplit_aces=False, hit_split_aces=False, double_after_split=True)
    params = dict(kernel_rules(rules, 2), double_split_aces=1)
    shoe = [4] * 9 + [16]
    engine = GameEngine(shoe, up, params)
    without_ace = list(shoe)
    without_ace[0] -= 1     # the other split ace: each hand is valued with it gone
    brute = HandBruteForce(without_ace, up, rules, {})
    left = list(shoe)
    left[0] -= 2
    left[up - 1] -= 1
    expect = 0.0
    for r in range(1, 11):
        if left[r - 1] > 0:
            hand = tuple(sorted((1, r)))
            best = first_best([brute.stand(hand, 1.0, 0.0, False), brute.double(hand)])
            expect += 2 * left[r - 1] / sum(left) * best
    assert engine.split_ev(1)[0] == pytest.approx(expect, abs=1e-12)
    # without the rule the same aces only stand
    plain = GameEngine(shoe, up, kernel_rules(rules, 2))
    stand_only = sum(2 * left[r - 1] / sum(left) * brute.stand(tuple(sorted((1, r))), 1.0, 0.0,
                                                                False)
                     for r in range(1, 11) if left[r - 1] > 0)
    assert plain.split_ev(1)[0] == pytest.approx(stand_only, abs=1e-12)


@pytest.mark.parametrize("split_code", [0, 1, 2])
@pytest.mark.parametrize("game", ["free bet", "spanish"])
def test_frozen_game_decisions_replay_the_optimal_round(split_code, game):
    """The decisions a game engine records, played by a policy engine on the same shoe, give
    the optimal round's value (free split hands keep their own decisions)."""
    keys = dict(FREE_BET) if game == "free bet" else dict(GAMES["spanish"])
    rules = Rules(decks=2, hit_soft_17=True, double_any_cards=(game == "spanish"))
    params = dict(kernel_rules(rules, split_code), **keys)
    shoe = [8] * 9 + [32]
    for up in (1, 6, 10):
        source = GameEngine(shoe, up, params)
        optimal = source.round_ev()
        assert source.freeze_decisions() > 0
        player = GameEngine(shoe, up, dict(params, split_class=3))
        source.copy_policy_to(player)
        assert close(player.round_ev(), optimal)
        assert player.policy_misses == 0


def test_fixed_strategy_removal_effects_of_a_game_average_to_zero(monkeypatch):
    """Removal effects run on game engines (frozen decisions on depleted shoes); with the
    strategy fixed they average to zero over the shoe (the fundamental theorem of card
    counting), which holds only if the frozen decisions are played exactly."""
    from bjsolve.counting import removal
    from bjsolve.exact import engines

    plain = engines.kernel_rules

    def patched(rules, split_code):
        return dict(plain(rules, split_code), **FREE_BET)

    monkeypatch.setattr(engines, "kernel_rules", patched)
    monkeypatch.setattr(removal, "kernel_rules", patched)
    effects = removal.effects_of_removal(Rules(decks=1, hit_soft_17=True))
    mean = sum(effects.effects[r] * (16 if r == 10 else 4) for r in range(1, 11)) / 52
    assert abs(mean) < 1e-12
    assert effects.effects[5] > 0 > effects.effects[1]


@pytest.mark.parametrize("rules", [
    Rules.preset("super-fun-21"),
    Rules.preset("spanish-21", decks=1, bonus_678=(1.0, 1.0, 1.0), bonus_777=(1.0, 1.0, 1.0),
                 super_bonus=0.0),
    # (with its suited 7-7-7: the depleted shoes pay it with the whole shoe's suits,
    # docs/games.md "Suits"; with their own sevens' the mean was 2.4e-7)
    Rules.preset("spanish-21", decks=1),
], ids=["super-fun-21", "spanish-21-1d-no-suits", "spanish-21-1d"])
def test_fixed_strategy_removal_effects_average_to_zero_with_choices_after_doubles(rules):
    """The same with the rescue and redoubles: the frozen strategy holds every choice after
    a double, unsplit and split, so the depleted shoes play it as the full shoe did (before,
    they re-chose after doubles, and the mean was 3.2e-6 for Super Fun 21)."""
    from bjsolve.counting import removal
    effects = removal.effects_of_removal(rules)
    counts = effects.shoe.counts
    mean = sum(effects.effects[r] * counts[r - 1] for r in range(1, 11)) / sum(counts)
    assert abs(mean) < 1e-13


# ---- against the simulator's exact infinite-shoe recursion (tests/test_simulate_games.py) ---

CHART_CASES = ["classic", "dealer 22 push", "free doubles", "free splits",
               "free splits noDAS RSA", "player 21 wins", "21 bonuses",
               "6-7-8 and 7-7-7 bonuses", "bonuses after split", "super bonus",
               "double split aces", "Free Bet", "Free Bet ENHC", "Free Bet enhc-obo"]


@pytest.mark.parametrize("name", CHART_CASES)
def test_a_fixed_chart_on_an_infinite_shoe_agrees_with_an_independent_recursion(name):
    """The simulator's tests carry their own exact recursion of a simple chart on an
    infinite shoe (hands played to the end, forced resplits hand by hand): the game engine
    playing the same chart (frozen decisions) must give its EV.  (The cases whose chart
    fixes redoubles or rescues are left out: the engine plays those optimally.)"""
    import test_simulate_games as sim

    rules, game, proportions, split_ranks = sim.CASES[name]
    chart = sim.Chart(split_ranks)
    expect = sim._exact(rules, game, proportions, split_ranks)
    total = sum(proportions)
    probs = [c / total for c in proportions]
    params = dict(kernel_rules(rules, 3), **game)
    das = rules.double_after_split
    got = 0.0
    for up in range(1, 11):
        engine = GameEngine(probs, up, params, True)

        def freeze(hand, lowest, engine=engine, up=up):
            if len(hand) >= 2:
                counts = counts_of(*hand)
                two = len(hand) == 2
                allowed = ("stand", "hit") + (("double",) if two else ())
                start = allowed + (("split",) if two and hand[0] == hand[1] else ())
                code = {"stand": 0, "hit": 1, "double": 2, "split": 3}
                engine.set_policy(0 if two else 1, counts,
                                  code[chart(hand, up, start if two else allowed)])
                split_allowed = ("stand", "hit") + (("double",) if two and das else ())
                other = hand[1] if hand[0] == 1 else hand[0]
                if (1 in hand and two and not rules.hit_split_aces
                        and not (other != 1 and other in split_ranks)):
                    # a split ace: stand, or double where the rules let it (a policy keys
                    # split hands by their cards: ace-x of split x's is played as those)
                    split_allowed = ("stand",) + (("double",) if das and game.get(
                        "double_split_aces") else ())
                engine.set_policy(2, counts, code[chart(hand, up, split_allowed)])
            for r in range(lowest, 11):
                if sum(hand) + r <= 21:
                    freeze(hand + (r,), r)

        freeze((), 1)
        got += probs[up - 1] * engine.round_ev()
        assert engine.policy_misses == 0
    assert got == pytest.approx(expect, abs=1e-12)
