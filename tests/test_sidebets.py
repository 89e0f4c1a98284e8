"""Side bets: exact values against an independent card-by-card enumeration with Fractions,
against published figures (their rules stated beside each), and the identities of the
effects of removal."""
from __future__ import annotations

import itertools
import json
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from bjsolve import Shoe, sidebets
from bjsolve.sidebets import SuitedShoe

# ---- an independent enumeration: cards as (rank 1..13, suit 0..3) ------------------------

RED = {1, 2}        # hearts, diamonds


def deck_cards(shoe: SuitedShoe):
    """[(card, count)] of the shoe, card = (rank 1..13, suit 0..3)."""
    return [((k // 4 + 1, k % 4), c) for k, c in enumerate(shoe.counts) if c]


def ordered_draws(cards, n):
    """Every ordered draw of n cards with its exact chance (no replacement)."""
    total = sum(c for _, c in cards)
    for combo in itertools.product(range(len(cards)), repeat=n):
        ways, left = 1, [c for _, c in cards]
        for i in combo:
            ways *= left[i]
            left[i] -= 1
        if ways:
            denominator = 1
            for i in range(n):
                denominator *= total - i
            yield [cards[i][0] for i in combo], Fraction(ways, denominator)


def value(card):
    return min(card[0], 10)


def blackjack_total(cards):
    hard = sum(value(c) for c in cards)
    return hard + 10 if any(c[0] == 1 for c in cards) and hard + 10 <= 21 else hard


def poker3(cards):
    ranks = sorted(c[0] for c in cards)
    flush = len({c[1] for c in cards}) == 1
    trips = len(set(ranks)) == 1
    straight = len(set(ranks)) == 3 and (ranks[2] - ranks[0] == 2 or ranks == [1, 12, 13])
    if trips and flush:
        return "suited trips"
    if straight and flush:
        return "straight flush"
    if trips:
        return "trips"
    if straight:
        return "straight"
    if flush:
        return "flush"
    return None


def pairs(cards):
    a, b = cards
    if a[0] != b[0]:
        return None
    if a[1] == b[1]:
        return "perfect pair"
    return "coloured pair" if (a[1] in RED) == (b[1] in RED) else "mixed pair"


def lucky_lucky(cards):
    suited = len({c[1] for c in cards}) == 1
    ranks = sorted(c[0] for c in cards)
    total = blackjack_total(cards)
    if ranks == [7, 7, 7]:
        return "suited 7-7-7" if suited else "7-7-7"
    if ranks == [6, 7, 8]:
        return "suited 6-7-8" if suited else "6-7-8"
    if total == 21:
        return "suited 21" if suited else "21"
    return {20: "20", 19: "19"}.get(total)


def royal(cards):
    a, b = cards
    if a[1] != b[1]:
        return None
    return "royal match" if {a[0], b[0]} == {12, 13} else "easy match"


def match_dealer(cards):
    a, b, up = cards
    suited = (a == up) + (b == up)
    plain = (a[0] == up[0]) + (b[0] == up[0]) - suited
    return {(2, 0): "two suited matches", (1, 1): "suited and unsuited match",
            (1, 0): "suited match", (0, 2): "two unsuited matches",
            (0, 1): "unsuited match"}.get((suited, plain))


def thirteen(cards):
    total = sum(value(c) for c in cards)
    return "over 13" if total > 13 else "exactly 13" if total == 13 else "under 13"


def bust_it(cards):
    a, b, c = cards
    first = value(a) + value(b)
    if a[0] == 1 or b[0] == 1 or not 12 <= first <= 16 or first + value(c) <= 21:
        return None
    if a[0] == b[0] == c[0] == 8:
        if a[1] == b[1] == c[1]:
            return "suited 8-8-8"
        if (a[1] in RED) == (b[1] in RED) == (c[1] in RED):
            return "same-colour 8-8-8"
    return {6: "bust on a 6", 7: "bust on a 7", 8: "bust on an 8", 9: "bust on a 9",
            10: "bust on a ten"}[value(c)]


def brute(shoe, n, judge):
    out: dict = {}
    for cards, p in ordered_draws(deck_cards(shoe), n):
        key = judge(cards)
        out[key] = out.get(key, 0) + p
    return out


def dealer_hands(shoe, hit_soft_17):
    """{(tuple of the dealer's cards): exact chance}: the dealer drawing by the rules."""
    out: dict = {}

    def walk(hand, left, p):
        total = blackjack_total(hand)
        soft = any(c[0] == 1 for c in hand) and sum(value(c) for c in hand) + 10 == total
        if len(hand) >= 2 and (total > 17 or (total == 17 and not (soft and hit_soft_17))):
            out[tuple(hand)] = out.get(tuple(hand), 0) + p
            return
        n = sum(left.values())
        assert n > 0, "test shoe too small"
        for card, c in left.items():
            if c:
                left[card] -= 1
                walk(hand + [card], left, p * Fraction(c, n))
                left[card] += 1

    walk([], {card: c for card, c in deck_cards(shoe)}, Fraction(1))
    return out


SMALL = SuitedShoe([[1, 0, 1, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [1, 1, 0, 0],
                    [1, 1, 0, 0], [2, 1, 0, 1], [1, 2, 1, 0], [0, 0, 0, 0], [1, 0, 0, 1],
                    [1, 0, 1, 0], [2, 1, 0, 1], [1, 1, 1, 0]])     # 29 cards


def _check(name, judge, n, shoe=SMALL, paytable=None):
    want = brute(shoe, n, judge)
    got = sidebets.edge(name, paytable, shoe=shoe).probabilities
    for outcome, p in got.items():
        key = None if outcome == "no win" else outcome
        assert abs(p - float(want.get(key, 0))) <= 1e-15, (name, outcome)
    assert set(k for k in want if k is not None) <= set(got)


@pytest.mark.parametrize("name, judge, n", [
    ("21+3", poker3, 3), ("perfect-pairs", pairs, 2), ("lucky-lucky", lucky_lucky, 3),
    ("royal-match", royal, 2), ("match-the-dealer", match_dealer, 3),
    ("bust-it", bust_it, 3)])
def test_card_bets_match_enumeration(name, judge, n):
    _check(name, judge, n)


def test_over_under_match_enumeration():
    want = brute(SMALL, 2, thirteen)
    for name in ("over-13", "under-13", "exactly-13"):
        got = sidebets.edge(name, shoe=SMALL).probabilities
        for outcome in ("over 13", "exactly 13", "under 13"):
            assert abs(got[outcome] - float(want[outcome])) <= 1e-15


# 17 cards with two queens of hearts, aces and tens for the dealer's natural
LADIES_SHOE = SuitedShoe([[1, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0],
                          [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0],
                          [0, 1, 0, 0], [1, 2, 1, 0], [1, 1, 0, 1]])


def test_lucky_ladies_matches_enumeration():
    shoe = LADIES_SHOE
    want: dict = {}
    for cards, p in ordered_draws(deck_cards(shoe), 4):
        player, dealer = cards[:2], cards[2:]
        total = blackjack_total(player)
        key = None
        if player == [(12, 1), (12, 1)]:
            natural = blackjack_total(dealer) == 21
            key = ("queen of hearts pair with dealer blackjack" if natural
                   else "queen of hearts pair")
        elif total == 20:
            key = ("matched 20" if player[0] == player[1] else
                   "suited 20" if player[0][1] == player[1][1] else "any 20")
        want[key] = want.get(key, 0) + p
    got = sidebets.edge("lucky-ladies", shoe=shoe).probabilities
    for outcome, p in got.items():
        assert abs(p - float(want.get(None if outcome == "no win" else outcome, 0))) <= 1e-15


DEALER_SHOE = SuitedShoe([[1, 1, 0, 0], [1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 0], [1, 0, 0, 0],
                          [1, 1, 0, 0], [0, 0, 1, 0], [2, 1, 0, 0], [0, 0, 0, 0], [2, 1, 1, 1],
                          [1, 0, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0]])   # 25 cards


@pytest.mark.parametrize("hit_soft_17", [False, True])
def test_dealer_bets_match_enumeration(hit_soft_17):
    hands = dealer_hands(DEALER_SHOE, hit_soft_17)
    assert sum(hands.values()) == 1
    suited = lambda h: len({c[1] for c in h}) == 1
    coloured = lambda h: len({c[1] in RED for c in h}) == 1
    # Push 22
    want = {"suited 22": 0, "same-colour 22": 0, "22": 0}
    for h, p in hands.items():
        if blackjack_total(h) == 22:
            want["suited 22" if suited(h) else "same-colour 22" if coloured(h) else "22"] += p
    got = sidebets.edge("push-22", shoe=DEALER_SHOE, hit_soft_17=hit_soft_17).probabilities
    for k, v in want.items():
        assert abs(got[k] - float(v)) <= 1e-15
    # Buster, without the blackjack split (its blackjack awards: below)
    got = sidebets.edge("buster", shoe=DEALER_SHOE, hit_soft_17=hit_soft_17).probabilities
    for k in range(3, 7):
        want_k = sum(p for h, p in hands.items() if blackjack_total(h) > 21 and len(h) == k)
        assert abs(got[f"bust {k} cards"] - float(want_k)) <= 1e-15
    # Bust Bonus against each up card: given no dealer natural
    for up in range(1, 11):
        offered = {h: p for h, p in hands.items() if value(h[0]) == up
                   and not (len(h) == 2 and blackjack_total(h) == 21)}
        weight = sum(offered.values())
        if not weight:
            continue
        label = "A" if up == 1 else "T" if up == 10 else str(up)
        got = sidebets.edge("bust-bonus", shoe=DEALER_SHOE, hit_soft_17=hit_soft_17,
                            dealer=up).probabilities
        busts = {h: p / weight for h, p in offered.items() if blackjack_total(h) > 21}
        eights = {h: p for h, p in busts.items() if [c[0] for c in h] == [8, 8, 8]}
        s = sum(p for h, p in busts.items() if suited(h) and h not in eights)
        plain = sum(p for h, p in busts.items() if not suited(h) and h not in eights)
        assert abs(got[f"{label} up: suited bust"] - float(s)) <= 1e-15
        assert abs(got[f"{label} up: bust"] - float(plain)) <= 1e-15
        if up == 8:
            assert abs(got["suited 8-8-8"] - float(sum(p for h, p in eights.items()
                                                       if suited(h)))) <= 1e-15


def test_buster_blackjack_awards_match_enumeration():
    shoe = DEALER_SHOE
    want = {7: Fraction(0), 8: Fraction(0)}
    cards = deck_cards(shoe)
    n = sum(c for _, c in cards)
    for (a, ca), (b, cb) in itertools.product(cards, repeat=2):
        if sorted([value(a), value(b)]) != [1, 10]:
            continue
        ways = ca * (cb - (a == b))
        rest = SuitedShoe([c - (k == _kind(a)) - (k == _kind(b)) for k, c in
                           enumerate(shoe.counts)])
        hands = dealer_hands(rest, False)
        for h, p in hands.items():
            if blackjack_total(h) > 21 and len(h) >= 7:
                want[min(len(h), 8)] += Fraction(ways, n * (n - 1)) * p
    got = sidebets.edge("buster", shoe=shoe).probabilities
    assert abs(got["bust 7 cards, player blackjack"] - float(want[7])) <= 1e-15
    assert abs(got["bust 8+ cards, player blackjack"] - float(want[8])) <= 1e-15


def _kind(card):
    return 4 * (card[0] - 1) + card[1]


def test_insurance_is_tens_over_the_cards_left():
    shoe = SuitedShoe.decks(2).remove("AS", "KH", "5")
    tens = sum(shoe.counts[36:])
    got = sidebets.edge("insurance", shoe=shoe)
    assert abs(got.probabilities["dealer blackjack"] - float(tens / (shoe.size - 1))) < 1e-15


def test_exact_probabilities_of_a_card_bet_are_fractions():
    # Wizard of Odds, 21+3 version 6, 8 decks: combinations of 11,912,160 three-card hands
    want = {"suited trips": 2912, "straight flush": 24576, "trips": 61568,
            "straight": 368640, "flush": 700928}
    got = sidebets.bet("21+3").exact_probabilities(SuitedShoe.decks(8))
    for outcome, ways in want.items():
        assert got[1 + sidebets.bet("21+3").outcomes.index(outcome)] == Fraction(ways, 11912160)


# ---- published figures ------------------------------------------------------------------

def test_published_figures():
    e = sidebets.edge
    # E. Jacobson: the original 21+3 (every win 9 to 1), 6 decks: house edge 3.2386%
    assert round(e("21+3", "classic", decks=6).house_edge, 6) == 0.032386
    # Wizard of Odds, Perfect Pairs, 8 decks, combinations 1456, 1664, 3328 of 86320 (pairs
    # of unordered cards); returns -0.040964 (table A 25/12/6) and -0.033735 (B 30/10/5)
    pp = e("perfect-pairs", "25-12-6", decks=8)
    assert abs(pp.probabilities["perfect pair"] - 1456 / 86320) < 1e-15
    assert abs(pp.probabilities["coloured pair"] - 1664 / 86320) < 1e-15
    assert abs(pp.probabilities["mixed pair"] - 3328 / 86320) < 1e-15
    assert round(pp.expected_value, 6) == -0.040964
    assert round(e("perfect-pairs", "30-10-5", decks=8).expected_value, 6) == -0.033735
    # live-dealers-casino.com, Perfect Pairs on a 6-deck shoe: 25/12/5 house edge 9.97%,
    # 30/10/5 5.79%
    assert round(e("perfect-pairs", "25-12-5", decks=6).house_edge, 4) == 0.0997
    assert round(e("perfect-pairs", "30-10-5", decks=6).house_edge, 4) == 0.0579
    # Wizard of Odds, Lucky Ladies table A, 6 decks: 135,360 of 9,294,695,280 permutations
    # for the queen-of-hearts pair with a dealer natural; return -0.247089
    ll = e("lucky-ladies", "1000-125", decks=6)
    assert abs(ll.probabilities["queen of hearts pair with dealer blackjack"]
               - 135360 / 9294695280) < 1e-15
    assert round(ll.expected_value, 6) == -0.247089
    # Wizard of Odds, Lucky Lucky pay table 1, 6 decks: suited 7-7-7 80 of C(312, 3)
    # combinations, house edge 2.66%
    lucky = e("lucky-lucky", "pt1", decks=6)
    assert abs(lucky.probabilities["suited 7-7-7"] - 80 / 5013320) < 1e-15
    assert round(lucky.house_edge, 4) == 0.0266
    # Wizard of Odds, Royal Match: version 1 (25, 2.5) 6 decks -0.066658; version 2 (10, 3)
    # one deck -0.037707
    assert round(e("royal-match", "25-2.5", decks=6).expected_value, 6) == -0.066658
    assert round(e("royal-match", "10-3", decks=1).expected_value, 6) == -0.037707
    # Wizard of Odds, Match the Dealer, 2-deck blackjack paying 4 and 19: -0.033124;
    # E. Jacobson, 6-deck Spanish 21 (48-card decks) paying 4 and 9: house edge 3.055%
    assert round(e("match-the-dealer", "4-19", decks=2).expected_value, 6) == -0.033124
    assert round(e("match-the-dealer", "spanish-4-9", decks=6, spanish=True).house_edge,
                 5) == 0.03055
    # E. Jacobson, Over/Under 13, 6 decks: Over 6.555%, Under 10.067%
    assert round(e("over-13", decks=6).house_edge, 5) == 0.06555
    assert round(e("under-13", decks=6).house_edge, 5) == 0.10067
    # E. Jacobson, Bust It: house edge 7.568% (2 decks), 6.912% (6 decks)
    assert round(e("bust-it", decks=2).house_edge, 5) == 0.07568
    assert round(e("bust-it", decks=6).house_edge, 5) == 0.06912
    # Wizard of Odds, Buster Blackjack, 6 decks, H17: bust with 3..8+ cards
    buster = e("buster", decks=6, hit_soft_17=True).probabilities
    with_bj = {7: buster["bust 7 cards, player blackjack"],
               8: buster["bust 8+ cards, player blackjack"]}
    assert round(buster["bust 3 cards"], 6) == 0.173032
    assert round(buster["bust 4 cards"], 6) == 0.089392
    assert round(buster["bust 5 cards"], 6) == 0.020473
    assert round(buster["bust 6 cards"], 6) == 0.002638
    assert round(buster["bust 7 cards"] + with_bj[7], 6) == 0.000214
    assert round(buster["bust 8+ cards"] + with_bj[8], 6) == 0.000012
    # Wizard of Odds, Bust Bonus, 8 decks, H17, the dealer peeks before the bet: 2, 3, 4 up
    for up, suited, plain in (("2", 0.008834, 0.347843), ("3", 0.011606, 0.365285),
                              ("4", 0.014647, 0.383472)):
        bb = e("bust-bonus", decks=8, hit_soft_17=True, dealer=up).probabilities
        assert round(bb[f"{up} up: suited bust"], 6) == suited
        assert round(bb[f"{up} up: bust"], 6) == plain


def test_published_bust_it_removal_effects():
    # S. How (discountgambling.net), Bust It, 6 decks: effects of removal of one card
    want = {"2": 0.006589, "3": 0.005042, "4": 0.002963, "5": 0.000256, "6": -0.006910,
            "7": -0.001608, "8": -0.003443, "9": -0.003001, "T": -0.002231, "A": 0.009038}
    got = sidebets.effects_of_removal("bust-it", decks=6).by_rank10
    for rank, value in want.items():
        assert round(got[rank], 6) == value


# ---- identities of the effects of removal ----------------------------------------------

@pytest.mark.parametrize("name", ["21+3", "perfect-pairs", "lucky-ladies", "lucky-lucky",
                                  "match-the-dealer", "over-13", "bust-it", "buster",
                                  "push-22"])
def test_removal_effects_average_to_zero(name):
    effects = sidebets.effects_of_removal(name, decks=1)
    shoe = effects.shoe
    from bjsolve.model.suited_shoe import card_name
    total = sum(shoe.counts[k] * effects.by_kind[card_name(k)] for k in range(52)
                if shoe.counts[k])
    assert abs(total) < 1e-12
    ranks = sum(sum(shoe.counts[4 * r:4 * r + 4]) * v
                for r, v in enumerate(effects.by_rank.values()))
    assert abs(ranks) < 1e-12


def test_removal_effect_is_a_difference_of_edges():
    shoe = SuitedShoe.decks(2)
    effects = sidebets.effects_of_removal("21+3", "five-tier", shoe=shoe)
    for card in ("QH", "7S", "AD"):
        diff = (sidebets.edge("21+3", "five-tier", shoe=shoe.remove(card)).expected_value
                - sidebets.edge("21+3", "five-tier", shoe=shoe).expected_value)
        assert effects.by_kind[card] == pytest.approx(diff, abs=1e-15)


def test_best_count_of_over_13_is_a_high_low_count():
    count = sidebets.best_count("over-13", decks=6)
    assert count.ranks == ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
    tags = dict(zip(count.ranks, count.tags))
    # removing small cards helps Over 13: they get positive tags, tens negative
    assert tags["A"] > 0 and tags["2"] > 0 and tags["T"] < 0
    assert count.correlation > 0.9
    assert -1 <= count.published["Hi-Lo"] <= 1


# ---- shoes ------------------------------------------------------------------------------

def test_suited_shoe_from_a_rank_shoe():
    shoe = SuitedShoe.from_shoe(Shoe.decks(2).remove("A", "T"))
    assert shoe.rank_counts() == Shoe.decks(2).remove("A", "T").counts
    assert shoe.counts[0] == Fraction(7, 4)
    assert sidebets.edge("21+3", shoe=Shoe.decks(6)).expected_value == pytest.approx(
        sidebets.edge("21+3", decks=6).expected_value, abs=1e-15)


def test_bad_input_names_the_field():
    with pytest.raises(ValueError, match="not a side bet"):
        sidebets.edge("22+3")
    with pytest.raises(ValueError, match="not an outcome"):
        sidebets.edge("21+3", {"royal flush": 100})
    with pytest.raises(ValueError, match="paytable"):
        sidebets.edge("21+3", {"flush": -3})
    with pytest.raises(ValueError, match="not a preset"):
        sidebets.edge("21+3", "five-star")
    with pytest.raises(ValueError, match="removed"):
        sidebets.edge("21+3", remove="ZZ")
    with pytest.raises(ValueError, match="dealer"):
        sidebets.edge("21+3", dealer="A")
    with pytest.raises(ValueError, match="decks"):
        SuitedShoe.decks(0)


# ---- command line -----------------------------------------------------------------------

def _cli(*args):
    return subprocess.run([sys.executable, "-m", "bjsolve", "sidebet", *args],
                          capture_output=True, text=True)


def test_cli_sidebet_json_and_bad_input():
    done = _cli("21+3", "--paytable", "five-tier-25", "--decks", "8", "--format", "json")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    text = json.dumps(doc)
    assert "suited trips" in text
    bad = _cli("22+3")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
    bad = _cli("21+3", "--remove", "ZZ")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


def test_cli_sidebet_count_and_list():
    done = _cli("over-13", "--decks", "6", "--count", "--format", "csv")
    assert done.returncode == 0, done.stderr
    done = _cli("--list", "--decks", "8")
    assert done.returncode == 0, done.stderr
    assert "perfect-pairs" in done.stdout


# ---- the counted side bet ---------------------------------------------------------------

@pytest.mark.parametrize("name, tags, shoe", [
    ("21+3", "hilo", "SMALL"), ("over-13", (2, 2, 1, 0, 0, 0, 0, 0, -1, -1), "SMALL"),
    ("lucky-ladies", "hilo", "LADIES_SHOE"), ("push-22", "hilo", "DEALER_SHOE"),
    ("buster", (1, 0, 0, 0, 0, 0, 0, 0, 0, -1), "BUSTER_SHOE"),
    ("insurance", "hilo", "SMALL"), ("bust-bonus", "hilo", "DEALER_SHOE")])
def test_value_given_the_count_matches_enumerating_the_cards_seen(name, tags, shoe):
    """For every running count after n cards: P(count and the bet offered) and that times
    the value given both, by the group of offers (the up card the bet is made against)."""
    from bjsolve.sidebets.counted import CountModel, _tags_by_kind
    shoe = globals()[shoe]
    the_bet = sidebets.bet(name)
    table = sidebets.paytable(the_bet)
    model = CountModel(the_bet, table, shoe, tags)
    kind_tags = _tags_by_kind(tags)
    for n in ((1,) if name == "bust-bonus" else (1, 2)):
        want: dict = {}
        kinds = [k for k, c in enumerate(shoe.counts) for _ in range(c)]
        for seen in itertools.permutations(range(len(kinds)), n):
            rest = shoe
            for i in seen:
                rest = rest.remove_kind(kinds[i])
            running = sum(kind_tags[kinds[i]] for i in seen)
            offers = _offers(name, table, rest)
            mass, total = want.get(running, (0, [(0, 0.0)] * len(offers)))
            want[running] = (mass + 1, [(a + o, b + o * v) for (a, b), (o, v) in
                                        zip(total, offers)])
        ways = sum(m for m, _ in want.values())
        running, mass, offered, net = model.value_by_running_count(n)
        assert len(running) == len(want)
        for rc, p, off, gain in zip(running, mass, offered, net):
            m, groups = want[rc]
            assert p == pytest.approx(m / ways, abs=1e-14)
            for g, (o, v) in enumerate(groups):
                assert off[g] == pytest.approx(o / ways, abs=1e-14)
                assert gain[g] == pytest.approx(v / ways, abs=1e-13)


def _offers(name, table, rest):
    """[(P(the bet is offered), its value then)] by group, from the exact values."""
    if name == "insurance":
        aces = sum(rest.counts[:4])
        if not aces:
            return [(0, 0.0)]
        return [(Fraction(aces, rest.size), sidebets.edge(name, table, shoe=rest)
                 .expected_value)]
    if name == "bust-bonus":
        ranks = rest.rank_counts()
        size = rest.size
        out = []
        for up in range(1, 11):
            natural = (Fraction(ranks[0] * ranks[9], size * (size - 1))
                       if up in (1, 10) else 0)
            chance = Fraction(ranks[up - 1], size) - natural
            out.append((chance, sidebets.edge(name, table, shoe=rest, dealer=up)
                        .expected_value if chance else 0.0))
        return out
    return [(1, sidebets.edge(name, table, shoe=rest).expected_value)]


# a shoe in which the dealer can bust with 7 cards beside a player's natural
BUSTER_SHOE = SuitedShoe([[2, 2, 1, 0], [2, 1, 1, 0], [1, 1, 1, 0], [1, 0, 0, 0], [0, 0, 0, 0],
                          [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [2, 1, 0, 0],
                          [1, 0, 0, 0], [1, 0, 0, 0], [1, 0, 1, 0]])


def test_counted_over_13_bets_only_with_an_edge():
    r = sidebets.counted_sidebet("over-13", system=(2, 2, 1, 0, 0, 0, 0, 0, -1, -1), decks=2,
                                 penetration=0.75)
    assert 0 < r.bet_fraction < 1 and r.edge_when_bet > 0 and r.gain_per_100_rounds > 0
    assert r.base_ev == pytest.approx(sidebets.edge("over-13", decks=2).expected_value,
                                      abs=1e-14)
    assert sum(share for share, _ in r.by_true_count.values()) == pytest.approx(1, abs=1e-12)


def test_cli_sidebet_paytable_file_and_counted(tmp_path):
    table = tmp_path / "pays.json"
    table.write_text(json.dumps({"perfect pair": 30, "coloured pair": "10:1", "mixed pair": 5}))
    done = _cli("perfect-pairs", "--paytable-file", str(table), "--decks", "8", "--format",
                "json")
    assert done.returncode == 0, done.stderr
    total = [r for r in json.loads(done.stdout)["records"] if r["outcome"] == "total"][0]
    # Wizard of Odds, Perfect Pairs table B (30/10/5), 8 decks: return -0.033735
    assert round(total["expected_value"], 6) == -0.033735
    table.write_text(json.dumps({"royal flush": 30}))
    bad = _cli("perfect-pairs", "--paytable-file", str(table))
    assert bad.returncode == 2 and "not an outcome" in bad.stderr
    done = _cli("over-13", "--decks", "2", "--counted", "--system", "hilo", "--format", "csv")
    assert done.returncode == 0, done.stderr


def test_docs_quote_the_computed_figures():
    from pathlib import Path
    text = " ".join((Path(__file__).parent.parent / "docs" / "side-bets.md").read_text().split())
    e = sidebets.edge
    assert f"(8 decks: {e('21+3', 'five-tier', decks=8).house_edge:.4%})" in text
    assert f"(8 decks: {e('21+3', 'five-tier-25', decks=8).house_edge:.4%}," in text
    counted = sidebets.counted_sidebet("over-13", system=(1, 1, 1, 0, 0, 0, 0, 0, 0, -1),
                                       decks=6, penetration=5 / 6)
    assert (f"edge in {counted.bet_fraction:.1%} of rounds, {counted.edge_when_bet:+.1%} per "
            f"bet, {counted.gain_per_100_rounds:+.2f} units per 100 rounds") in text


def test_suited_shoe_cards_and_removal():
    shoe = SuitedShoe.decks(2, spanish=True)
    assert shoe.size == 96 and shoe.rank_counts()[9] == 24     # J, Q, K only
    assert repr(shoe) == "SuitedShoe.decks(2, spanish=True)"
    assert sidebets.parse_card("10S") == (9, 0) and sidebets.parse_card("q♥") == (11, 1)
    assert sidebets.parse_card("T") == (None, None) and sidebets.parse_card(7) == (6, None)
    one = SuitedShoe.decks(1).remove("QH")
    with pytest.raises(ValueError, match="cannot remove"):
        one.remove("QH")
    spread = SuitedShoe.decks(1).remove("T")          # a ten-valued card of unknown kind
    assert spread.size == 51 and spread.counts[36] == Fraction(15, 16)
    with pytest.raises(TypeError, match="count for AS"):
        SuitedShoe([[1.5, 1, 1, 1]] + [[1] * 4] * 12)


def test_user_tables_and_registered_presets():
    pays = {"royal match": 30, "easy match": "5:2"}
    user = sidebets.edge("royal-match", pays, decks=6)
    preset = sidebets.edge("royal-match", "25-2.5", decks=6)
    p = preset.probabilities
    assert user.expected_value == pytest.approx(
        preset.expected_value + 5 * p["royal match"], abs=1e-15)
    named = sidebets.register_paytable(sidebets.bet("royal-match"), "thirty", pays,
                                       "a test table")
    try:
        assert sidebets.edge("royal-match", "thirty", decks=6).expected_value == \
            user.expected_value
    finally:
        del sidebets.PRESETS["royal-match"][named.name]


def test_exact_probabilities_sum_to_one_and_match_floats():
    the_bet = sidebets.bet("lucky-lucky")
    exact = the_bet.exact_probabilities(SuitedShoe.decks(2))
    assert sum(exact) == 1
    floats = the_bet.probabilities(SuitedShoe.decks(2))
    assert all(abs(float(e) - f) < 1e-16 for e, f in zip(exact, floats))


@pytest.mark.parametrize("hit_soft_17", [False, True])
def test_dealer_hands_agree_with_the_package_dealer_probabilities(hit_soft_17):
    # bjsolve.dealer_probabilities (the compiled dealer enumeration) against the final hands
    # the dealer bets use, on a full and a depleted 2-deck shoe
    from bjsolve import Rules, dealer_probabilities
    from bjsolve.sidebets.dealer_hands import final_hands, hand_probabilities
    rules = Rules(decks=2, hit_soft_17=hit_soft_17)
    hands = final_hands(hit_soft_17)
    for shoe in (Shoe.decks(2), Shoe.decks(2).remove("T", "T", "5", "A", "9")):
        counts = np.array(shoe.counts, dtype=float)
        p = hand_probabilities(hands, counts)
        for up in range(1, 11):
            mine = p[hands.up == up]
            up_chance = counts[up - 1] / counts.sum()
            theirs = dealer_probabilities(rules, up, shoe=shoe)
            assert mine[hands.total[hands.up == up] > 21].sum() / up_chance == pytest.approx(
                theirs["bust"], abs=1e-14)
            for total in (17, 18, 19, 20):
                here = hands.total[hands.up == up] == total
                assert mine[here].sum() / up_chance == pytest.approx(theirs[total], abs=1e-14)


def test_cli_bust_bonus_against_one_dealer_card():
    # Wizard of Odds, Bust Bonus, 8 decks, H17: with a 4 up, suited bust 10, bust 1 to 1
    done = _cli("bust-bonus", "--decks", "8", "--h17", "--dealer", "4", "--format", "json")
    assert done.returncode == 0, done.stderr
    records = {r["outcome"]: r for r in json.loads(done.stdout)["records"]}
    assert round(records["4 up: suited bust"]["probability"], 6) == 0.014647
    # the printed return, -0.071939, sums returns of probabilities rounded to 6 places (the
    # suited one times 10): it agrees within that rounding
    assert abs(records["total"]["expected_value"] - -0.071939) < 1e-5
    bad = _cli("21+3", "--dealer", "4")
    assert bad.returncode == 2 and "--dealer" in bad.stderr
