"""The side-bet simulator as an independent check of the exact figures: its flat-bet mean
against ``sidebets.edge``, and its counted play (bet at a true-count threshold) against
``counted_sidebet``'s distribution of the true count, each within 4 standard errors.  The
simulator classifies the hands itself (no code shared with the exact module but the pay
tables); every run has a fixed seed."""
from __future__ import annotations

import math

import numpy as np
import pytest
from bjsolve import sidebets
from bjsolve.sidebets.simulate import (
    FIRST_DRAW,
    HOLE,
    PLAYER_1,
    PLAYER_2,
    UP,
    _bust_bonus,
    _lucky_lucky,
    _play_dealer,
    _push_22,
    settle,
    _twenty_one_plus_three,
    simulate_sidebet,
)

Z = 4       # standard errors allowed


def kind(card: str) -> int:
    """'QH' -> the kind index 4 * rank + suit (ranks A..K, suits S, H, D, C)."""
    return 4 * "A23456789TJQK".index(card[0]) + "SHDC".index(card[1])


def agree(simulated, exact, se):
    assert se > 0
    assert abs(simulated - exact) <= Z * se, (simulated, exact, se)


# ---- the simulator's own classification, on hands chosen by hand ---------------------------

@pytest.mark.parametrize("hand, outcome", [
    (("QS", "KS", "AS"), "straight flush"), (("AS", "2H", "3D"), "straight"),
    (("KS", "AH", "2D"), None), (("TS", "JS", "QS"), "straight flush"),
    (("7H", "7H", "7H"), "suited trips"), (("7H", "7S", "7H"), "trips"),
    (("2C", "9C", "KC"), "flush"), (("TS", "KS", "QD"), None)])
def test_21_plus_3_hands(hand, outcome):
    p1, p2, up = (np.array([kind(c)]) for c in hand)
    cards = {PLAYER_1: p1, PLAYER_2: p2, UP: up}
    pays = {name: i + 1.0 for i, name in enumerate(
        ("suited trips", "straight flush", "trips", "straight", "flush"))}
    win = settle(_twenty_one_plus_three(cards, None), pays)[0]
    assert win == (-1.0 if outcome is None else pays[outcome])


def first_event(events):
    """The name of the first event that holds for the one hand given, None if none does."""
    return next((name for mask, name in events if mask[0]), None)


@pytest.mark.parametrize("hand, outcome", [
    (("7D", "7D", "7D"), "suited 7-7-7"), (("8C", "6C", "7C"), "suited 6-7-8"),
    (("7S", "7H", "7D"), "7-7-7"), (("6S", "8H", "7D"), "6-7-8"),
    (("AS", "KS", "QS"), "suited 21"), (("AS", "9H", "AD"), "21"), (("5S", "6H", "TD"), "21"),
    (("AS", "9H", "KD"), "20"), (("AS", "8H", "QD"), "19"), (("AS", "AH", "9D"), "21"),
    (("AS", "AH", "AD"), None), (("TS", "JS", "2S"), None), (("6S", "7H", "4D"), None),
    (("6S", "7H", "7D"), "20")])
def test_lucky_lucky_hands(hand, outcome):
    p1, p2, up = (np.array([kind(c)]) for c in hand)
    assert first_event(_lucky_lucky({PLAYER_1: p1, PLAYER_2: p2, UP: up}, None)) == outcome


def dealt(up, hole, *draws, hit_soft_17=False):
    """The dealer's hand from the up card, the hole card and the draws after them."""
    window = np.full((1, FIRST_DRAW + 12), -1)
    window[0, UP], window[0, HOLE] = kind(up), kind(hole)
    for i, card in enumerate(draws):
        window[0, FIRST_DRAW + i] = kind(card)
    return _play_dealer(window[:, UP], window[:, HOLE], lambda offset: window[0, offset],
                        np.full(1, FIRST_DRAW), hit_soft_17)


@pytest.mark.parametrize("cards, hit_soft_17, bust_bonus, push_22", [
    (("8H", "8H", "8H"), False, "suited 8-8-8", None),
    (("8H", "8D", "8S"), False, "8-8-8", None),
    (("6H", "TH", "9H"), False, "6 up: suited bust", None),
    (("6H", "TD", "9H"), False, "6 up: bust", None),
    (("TC", "2C", "QC"), False, "T up: suited bust", "suited 22"),
    (("TC", "2S", "QC"), False, "T up: bust", "same-colour 22"),
    (("TC", "2D", "QC"), False, "T up: bust", "22"),
    (("AS", "5S", "6S", "TS"), False, "A up: suited bust", "suited 22"),   # A5, 12, then 22
    (("AS", "6S", "5H", "TD"), True, "A up: bust", "22"),      # soft 17 hit, 12, then 22
    (("AS", "6S", "5H", "TD"), False, None, None),             # soft 17 stands
    (("TS", "7S", "KS"), False, None, None), (("AS", "KS", "KS"), False, None, None)])
def test_dealer_hands_bust_bonus_and_push_22(cards, hit_soft_17, bust_bonus, push_22):
    dealer = dealt(*cards, hit_soft_17=hit_soft_17)
    assert first_event(_bust_bonus(None, dealer)) == bust_bonus
    assert first_event(_push_22(None, dealer)) == push_22


# ---- flat bets: the simulated mean against the exact edge ---------------------------------

@pytest.mark.parametrize("name, table, decks, seed", [
    ("21+3", "classic", 6, 11), ("21+3", "five-tier", 8, 12), ("perfect-pairs", None, 6, 13),
    ("lucky-ladies", None, 6, 14), ("match-the-dealer", None, 6, 15),
    ("royal-match", None, 2, 16), ("over-13", None, 6, 17)])
def test_flat_card_bets_agree_with_the_exact_edge(name, table, decks, seed):
    r = simulate_sidebet(name, table, decks=decks, rounds=2_000_000, seed=seed)
    exact = sidebets.edge(name, table, decks=decks)
    agree(r.mean, exact.expected_value, r.se_mean)
    assert r.bet_fraction == 1 and r.rounds_bet == r.rounds >= 2_000_000
    # rounds of a shoe are nearly independent for these bets: the shoe-batched se is close
    # to the exact sd over the square root of the rounds
    assert 0.8 < r.se_mean / (exact.sd / math.sqrt(r.rounds)) < 1.25


@pytest.mark.parametrize("name, hit_soft_17, seed", [
    ("bust-it", False, 21), ("bust-it", True, 22), ("buster", False, 23), ("buster", True, 24)])
def test_dealer_bets_agree_with_the_exact_edge(name, hit_soft_17, seed):
    r = simulate_sidebet(name, decks=6, rounds=1_000_000, seed=seed, hit_soft_17=hit_soft_17)
    exact = sidebets.edge(name, decks=6, hit_soft_17=hit_soft_17)
    agree(r.mean, exact.expected_value, r.se_mean)


@pytest.mark.parametrize("name, table, decks, hit_soft_17, seed", [
    ("lucky-lucky", "pt1", 6, False, 25), ("lucky-lucky", "pt3", 2, False, 26),
    ("push-22", None, 6, False, 27), ("push-22", None, 8, True, 28)])
def test_lucky_lucky_and_push_22_agree_with_the_exact_edge(name, table, decks, hit_soft_17,
                                                            seed):
    r = simulate_sidebet(name, table, decks=decks, rounds=1_500_000, seed=seed,
                         hit_soft_17=hit_soft_17)
    exact = sidebets.edge(name, table, decks=decks, hit_soft_17=hit_soft_17)
    agree(r.mean, exact.expected_value, r.se_mean)
    assert r.bet_fraction == 1


@pytest.mark.parametrize("decks, seed", [(6, 51), (1, 52)])
def test_insurance_bet_with_an_ace_up(decks, seed):
    # the exact edge is given an ace up; the simulator bets only in those rounds, whose
    # share is the aces' share of the shoe (1/13)
    r = simulate_sidebet("insurance", decks=decks, rounds=2_000_000, seed=seed)
    agree(r.mean, sidebets.edge("insurance", decks=decks).expected_value, r.se_mean)
    agree(r.bet_fraction, 1 / 13, r.se_bet_fraction)
    tens, cards = 16 * decks, 52 * decks
    assert sidebets.edge("insurance", decks=decks).expected_value == pytest.approx(
        3 * tens / (cards - 1) - 1)


@pytest.mark.parametrize("decks, hit_soft_17, seed", [(6, False, 53), (8, True, 54)])
def test_bust_bonus_bet_after_the_peek(decks, hit_soft_17, seed):
    # the exact edge is given the bet is made (no dealer natural), and so is the mean here
    r = simulate_sidebet("bust-bonus", decks=decks, rounds=1_500_000, seed=seed,
                         hit_soft_17=hit_soft_17)
    exact = sidebets.edge("bust-bonus", decks=decks, hit_soft_17=hit_soft_17)
    agree(r.mean, exact.expected_value, r.se_mean)
    aces, tens, cards = 4 * decks, 16 * decks, 52 * decks
    agree(r.bet_fraction, 1 - 2 * aces * tens / (cards * (cards - 1)), r.se_bet_fraction)


# ---- counted: betting at a true-count threshold --------------------------------------------

def counted_at(result, threshold):
    """(share of rounds bet, units won per 100 rounds) betting when the true count is at or
    above ``threshold``, from counted_sidebet's distribution of the true count (the value
    per bet at each count; a card bet is offered every round)."""
    rows = [(share, value) for tc, (share, value) in result.by_true_count.items()
            if tc >= threshold]
    return sum(s for s, _ in rows), 100 * sum(s * v for s, v in rows)


@pytest.mark.parametrize("name, table, system, decks, threshold, seed", [
    ("over-13", None, (2, 2, 1, 0, 0, 0, 0, 0, -1, -1), 2, 2, 31),
    ("21+3", "classic", "hilo", 2, 1, 32), ("perfect-pairs", None, "hilo", 2, -1, 33),
    ("lucky-ladies", None, "hilo", 2, 3, 34), ("buster", None, "hilo", 2, 2, 35),
    ("push-22", None, "hilo", 2, 1, 36)])
def test_counted_play_agrees_with_counted_sidebet(name, table, system, decks, threshold, seed):
    exact = sidebets.counted_sidebet(name, table, system=system, decks=decks, penetration=0.75)
    share, gain = counted_at(exact, threshold)
    r = simulate_sidebet(name, table, decks=decks, rounds=1_000_000, seed=seed, system=system,
                         threshold=threshold, penetration=0.75)
    assert 0 < r.bet_fraction < 1
    agree(r.bet_fraction, share, r.se_bet_fraction)
    agree(r.gain_per_100_rounds, gain, r.se_gain_per_100_rounds)
    assert r.rounds % exact.rounds == 0           # the same rounds per shoe as the model


def test_counted_over_13_wins_at_a_positive_count():
    # counted_sidebet bets where the value given the depth and the running count is
    # positive, which is no true-count threshold; its distribution by true count is what the
    # simulator checks.  Here: the counts where that value is positive on average
    system = (2, 2, 1, 0, 0, 0, 0, 0, -1, -1)
    exact = sidebets.counted_sidebet("over-13", system=system, decks=2, penetration=0.75)
    threshold = min(tc for tc, (_, value) in exact.by_true_count.items() if value > 0)
    share, gain = counted_at(exact, threshold)
    r = simulate_sidebet("over-13", decks=2, rounds=1_000_000, seed=41, system=system,
                         threshold=threshold)
    agree(r.bet_fraction, share, r.se_bet_fraction)
    agree(r.gain_per_100_rounds, gain, r.se_gain_per_100_rounds)
    assert gain > 0 and r.gain_per_100_rounds > 0 and r.mean > 0


# ---- bad input -------------------------------------------------------------------------------

def test_bad_input_names_the_field():
    with pytest.raises(ValueError, match="not a side bet"):
        simulate_sidebet("lucky-seven", rounds=10)
    with pytest.raises(ValueError, match="rounds"):
        simulate_sidebet("21+3", rounds=0)
    with pytest.raises(ValueError, match="penetration"):
        simulate_sidebet("21+3", rounds=10, penetration=1.5)
    with pytest.raises(ValueError, match="system and threshold"):
        simulate_sidebet("21+3", rounds=10, system="hilo")
    with pytest.raises(TypeError, match="threshold"):
        simulate_sidebet("21+3", rounds=10, system="hilo", threshold="high")


# ---- the larger campaign ---------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("name, table, decks, hit_soft_17", [
    ("21+3", "classic", 6, False), ("21+3", "five-tier", 8, False),
    ("perfect-pairs", "25-12-6", 6, False), ("lucky-ladies", "1000-125", 8, False),
    ("match-the-dealer", "4-11", 6, False), ("bust-it", None, 6, True),
    ("buster", "v2", 6, False), ("buster", "v1", 8, True), ("lucky-lucky", "pt1", 6, False),
    ("insurance", None, 6, False), ("bust-bonus", None, 8, True), ("push-22", None, 6, True)])
def test_campaign_flat_bets(name, table, decks, hit_soft_17):
    r = simulate_sidebet(name, table, decks=decks, rounds=20_000_000, seed=101,
                         hit_soft_17=hit_soft_17)
    exact = sidebets.edge(name, table, decks=decks, hit_soft_17=hit_soft_17)
    agree(r.mean, exact.expected_value, r.se_mean)


@pytest.mark.slow
@pytest.mark.parametrize("name, system, threshold", [
    ("21+3", "hilo", 2), ("perfect-pairs", "hilo", 0), ("match-the-dealer", "hilo", 1),
    ("bust-it", "hilo", -1)])
def test_campaign_counted_six_decks(name, system, threshold):
    exact = sidebets.counted_sidebet(name, system=system, decks=6, penetration=0.8)
    share, gain = counted_at(exact, threshold)
    r = simulate_sidebet(name, decks=6, rounds=10_000_000, seed=102, system=system,
                         threshold=threshold, penetration=0.8)
    agree(r.bet_fraction, share, r.se_bet_fraction)
    agree(r.gain_per_100_rounds, gain, r.se_gain_per_100_rounds)


# ---- the command line ------------------------------------------------------------------------

def _cli(*args):
    import subprocess
    import sys
    return subprocess.run([sys.executable, "-m", "bjsolve", "sidebet", *args],
                          capture_output=True, text=True, check=False)


def test_cli_simulate():
    import json
    done = _cli("perfect-pairs", "--simulate", "300000", "--seed", "5", "--format", "json")
    assert done.returncode == 0, done.stderr
    records = next(t for t in json.loads(done.stdout)["tables"]
                   if t["table"] == "simulated")["records"]
    (row,) = records
    assert abs(row["simulated"] - row["exact"]) <= Z * row["se"]
    assert row["exact"] == pytest.approx(sidebets.edge("perfect-pairs").expected_value)
    bad = _cli("21+3", "--threshold", "2")
    assert bad.returncode == 2 and "--simulate" in bad.stderr
    bad = _cli("insurance", "--simulate", "10", "--system", "hilo", "--threshold", "2")
    assert bad.returncode == 2 and "made only in some rounds" in bad.stderr
    done = _cli("bust-bonus", "--simulate", "200000", "--seed", "6", "--format", "json")
    assert done.returncode == 0, done.stderr
    (row,) = next(t for t in json.loads(done.stdout)["tables"]
                  if t["table"] == "simulated")["records"]
    assert abs(row["simulated"] - row["exact"]) <= Z * row["se"]


def test_non_finite_counts_thresholds_and_bad_cards_are_refused_naming_the_field():
    import math

    from bjsolve import Shoe
    from bjsolve.sidebets import SuitedShoe, counted_sidebet, simulate_sidebet
    with pytest.raises(ValueError, match="tags"):
        counted_sidebet("21+3", system=(math.nan,) * 10)
    with pytest.raises(ValueError, match="threshold"):
        simulate_sidebet("21+3", rounds=10, system="hilo", threshold=math.inf)
    with pytest.raises(ValueError, match="seed"):
        simulate_sidebet("21+3", rounds=10, seed="x")
    shoe = SuitedShoe.from_shoe(Shoe.decks(1))
    with pytest.raises(ValueError, match="kind"):
        shoe.remove_kind(99)
    with pytest.raises(TypeError, match="kind"):
        shoe.remove_kind("QH")
