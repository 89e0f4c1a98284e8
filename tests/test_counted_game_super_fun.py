"""The counted game's round model under Super Fun 21's rules (docs/counted-game.md, "Super
Fun 21"): a charlie and a 21 of five or more cards stop at once and need no dealer draw, a
hand may surrender after hitting and a split hand on its first two cards.  Checked against
a brute force of the round written here from the rules (docs/games.md), on the infinite
deck of one deck's probabilities: the law of the number of cards a round uses."""
from dataclasses import replace

import numpy as np
import pytest

from bjsolve import Rules
from bjsolve.counting.removal import SYSTEMS
from bjsolve.risk.round_model import round_cards_law

HILO = SYSTEMS["hilo"][1]
# one split at most (the brute force does not resplit); every other rule the preset's
SUPER_FUN = replace(Rules.preset("super-fun-21"), max_split_hands=2)
WITHOUT_THEM = replace(SUPER_FUN, charlie=0, bonus_21_at_once=False, surrender_any_time=False)


def _total(cards):
    hard = sum(cards)
    return hard + 10 if 1 in cards and hard <= 11 else hard


def _play(cards, up, allowed):
    """Split 8s; surrender a hard 16 against a ten whenever it may; hit below 17; never
    double (the round's cards then follow from the rules alone)."""
    if "split" in allowed and tuple(cards) == (8, 8):
        return "split"
    hard = sum(cards)
    soft = 1 in cards and hard <= 11
    if "surrender" in allowed and hard == 16 and not soft and up == 10:
        return "surrender"
    return "hit" if _total(cards) < 17 else "stand"


def _brute_force(rules, p):
    """{cards used: probability} of a round, dealt card by card from the rules: the dealer
    peeks (a natural ends the round after the four cards of the deal); a player natural, a
    bust, a surrender, a charlie (``rules.charlie`` cards) and a 21 of five or more cards
    (``bonus_21_at_once``) end a hand with no need of the dealer; the dealer draws (hits
    soft 17) when any hand still stands."""
    ranks = range(1, 11)

    def hand(hard, ace, n, split, first):
        """{(extra cards, dead): probability} of a hand from here."""
        total = hard + 10 if ace and hard <= 11 else hard
        if hard > 21:
            return {(0, True): 1.0}
        if not first and ((rules.charlie and n >= rules.charlie)
                          or (rules.bonus_21_at_once and n >= 5 and total == 21)):
            return {(0, True): 1.0}
        if total == 21:
            return {(0, False): 1.0}
        may_surrender = (rules.surrender == "late" if first and not split
                         else rules.surrender_any_time)
        if may_surrender and hard == 16 and total == 16 and up_card[0] == 10:
            return {(0, True): 1.0}
        if total >= 17:
            return {(0, False): 1.0}
        out: dict = {}
        for c in ranks:
            for (k, dead), q in hand(hard + c, ace or c == 1, n + 1, split, False).items():
                out[(k + 1, dead)] = out.get((k + 1, dead), 0.0) + p[c - 1] * q
        return out

    def dealer(hard, ace):
        """{cards drawn after the hole card: probability}."""
        total = hard + 10 if ace and hard <= 11 else hard
        if hard > 21 or total > 17 or (total == 17 and not (ace and hard <= 11)):
            return {0: 1.0}
        out: dict = {}
        for c in ranks:
            for k, q in dealer(hard + c, ace or c == 1).items():
                out[k + 1] = out.get(k + 1, 0.0) + p[c - 1] * q
        return out

    law: dict = {}
    up_card = [0]
    for up in ranks:
        up_card[0] = up
        player: dict = {}          # (extra cards, all hands dead) of the deal
        for a in ranks:
            for b in ranks:
                w = p[a - 1] * p[b - 1]
                if {a, b} == {1, 10}:
                    parts = {(0, True): 1.0}
                elif (a, b) == (8, 8):
                    one: dict = {}          # a split hand: its second card, then played on
                    for c in ranks:
                        for (k, dead), q in hand(8 + c, c == 1, 2, True, False).items():
                            one[(k + 1, dead)] = one.get((k + 1, dead), 0.0) + p[c - 1] * q
                    parts = {}
                    for (k1, d1), q1 in one.items():
                        for (k2, d2), q2 in one.items():
                            key = (k1 + k2, d1 and d2)
                            parts[key] = parts.get(key, 0.0) + q1 * q2
                else:
                    parts = hand(a + b, a == 1 or b == 1, 2, False, True)
                for key, q in parts.items():
                    player[key] = player.get(key, 0.0) + w * q
        for hole in ranks:
            w = p[up - 1] * p[hole - 1]
            if {up, hole} == {1, 10}:
                law[4] = law.get(4, 0.0) + w
                continue
            draws = dealer(up + hole, up == 1 or hole == 1)
            for (k, dead), q in player.items():
                for j, r in ({0: 1.0} if dead else draws).items():
                    law[4 + k + j] = law.get(4 + k + j, 0.0) + w * q * r
    return law


@pytest.mark.parametrize("rules", [SUPER_FUN, WITHOUT_THEM], ids=["super-fun-21", "without"])
def test_the_round_takes_the_cards_of_super_fun_21s_rules(rules):
    # the model's law of the cards a round uses is the brute force's to 1e-13; Super
    # Fun 21's rules take cards off the round (fewer hits, fewer dealer draws)
    p = np.array(rules.shoe().probabilities())
    model = round_cards_law(rules, p, _play, HILO).law.sum(axis=1)
    want = _brute_force(rules, p)
    expected = np.zeros(max(len(model), max(want) + 1))
    for k, q in want.items():
        expected[k] = q
    got = np.zeros_like(expected)
    got[:len(model)] = model
    assert sum(want.values()) == pytest.approx(1.0, abs=1e-13)
    assert np.abs(got - expected).max() < 1e-13


def test_super_fun_21s_rules_shorten_the_round():
    # the same play without the charlie, the 21 paid at once and the later surrender
    # uses more cards a round (a hand that stops needs no more cards, nor the dealer's)
    p = np.array(SUPER_FUN.shoe().probabilities())
    with_them = round_cards_law(SUPER_FUN, p, _play, HILO).mean_cards
    without = round_cards_law(WITHOUT_THEM, p, _play, HILO).mean_cards
    assert without - with_them > 0.01
