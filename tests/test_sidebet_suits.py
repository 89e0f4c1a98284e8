"""Suit counts for the side bets (bjsolve.sidebets.suits, counted_sidebet with counts over
cards and the four suit counts, the simulator keeping them).

Every expected figure is independent of the exact module: an identity (removal effects of a
fixed bet sum to zero over the shoe), a brute force over the cards of small suited shoes
(each hand classified here, values as Fractions), a symmetry argument, a published bound, or
the simulator (within 4 standard errors)."""
from __future__ import annotations

import itertools
import json
import math
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from bjsolve import sidebets
from bjsolve.sidebets import SuitedShoe, simulate_sidebet, suit_count
from bjsolve.sidebets.suits import cell_tags

Z = 4          # standard errors allowed for the simulator

# a shoe with every suit alike (9, T, J of each suit) and one with the suits uneven
EVEN = SuitedShoe([[0] * 4] * 8 + [[1, 1, 1, 1]] * 3 + [[0] * 4] * 2)          # 12 cards
UNEVEN = SuitedShoe([[0] * 4] * 8 + [[2, 1, 0, 1], [1, 1, 1, 0], [0, 2, 1, 1],
                                     [1, 0, 1, 1], [0] * 4])                    # 14 cards
# pairs and a king-queen for Perfect Pairs and Royal Match
PAIRS = SuitedShoe([[1, 0, 0, 1]] + [[0] * 4] * 10 + [[1, 1, 1, 0], [1, 1, 1, 1]])  # 9 cards
SUITED_BETS = ("21+3", "perfect-pairs", "royal-match", "lucky-ladies", "lucky-lucky",
               "push-22")


# ---- the hands, classified here ------------------------------------------------------------

def _rank(kind):
    return kind // 4


def _suit(kind):
    return kind % 4


def _21_plus_3(a, b, c):
    ranks = sorted(_rank(k) for k in (a, b, c))
    flush = _suit(a) == _suit(b) == _suit(c)
    trips = ranks[0] == ranks[2]
    straight = (ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1) or ranks == [0, 11, 12]
    if trips and flush:
        return "suited trips"
    if straight and flush:
        return "straight flush"
    if trips:
        return "trips"
    if straight:
        return "straight"
    return "flush" if flush else None


def _perfect_pairs(a, b):
    if _rank(a) != _rank(b):
        return None
    if _suit(a) == _suit(b):
        return "perfect pair"
    red = (1, 2)
    return "coloured pair" if (_suit(a) in red) == (_suit(b) in red) else "mixed pair"


def _royal_match(a, b):
    if _suit(a) != _suit(b):
        return None
    return "royal match" if {_rank(a), _rank(b)} == {11, 12} else "easy match"


HANDS = {"21+3": (3, _21_plus_3), "perfect-pairs": (2, _perfect_pairs),
         "royal-match": (2, _royal_match)}


def _pay_array(name, kinds):
    """pay + 1 of every ordered draw of kinds (0 where the hand loses), as integers."""
    size, classify = HANDS[name]
    table = sidebets.paytable(sidebets.bet(name))
    out = np.zeros((len(kinds),) * size, dtype=object)
    for index in itertools.product(range(len(kinds)), repeat=size):
        outcome = classify(*(kinds[i] for i in index))
        if outcome is not None:
            pay = Fraction(table.pay(outcome))
            out[index] = pay + 1
    return out


def _brute_ev(name, counts, kinds, pays) -> Fraction:
    """The bet's exact value on a shoe of ``counts`` (one per kind in ``kinds``): every
    ordered draw of distinct cards, weighted by the ways to draw it."""
    size = HANDS[name][0]
    total = sum(counts)
    if total < size:
        return Fraction(0)
    ways_total = math.perm(total, size)
    paid = Fraction(0)
    for index in itertools.product(range(len(kinds)), repeat=size):
        if pays[index] == 0:
            continue
        ways = 1
        for position, i in enumerate(index):
            ways *= counts[i] - sum(1 for earlier in index[:position] if earlier == i)
        if ways > 0:
            paid += pays[index] * ways
    return paid / ways_total - 1


def _kinds(shoe):
    return [k for k, c in enumerate(shoe.counts) if c]


# ---- the best count over cards --------------------------------------------------------------

@pytest.mark.parametrize("name", SUITED_BETS)
@pytest.mark.parametrize("remove", [(), ("QH", "QH", "5S", "7D", "KC", "2H")])
def test_removal_effects_by_card_sum_to_zero(name, remove):
    """A fixed bet: removing a random card changes nothing on average (sum of count x effect
    over the shoe's cards is 0)."""
    count = suit_count(name, decks=2, remove=remove, hit_soft_17=name == "push-22")
    shoe = sidebets.resolve_shoe(decks=2, remove=remove)
    by_card = dict(zip(count.cards, count.eor))
    weighted = sum(float(c) * by_card[f"{'A23456789TJQK'[k // 4]}{'SHDC'[k % 4]}"]
                   for k, c in enumerate(shoe.counts) if c)
    assert abs(weighted) <= 1e-14 * shoe.size


def _weighted_correlation(tags, effects, weights) -> float:
    """Pearson correlation weighted by cards, in Fractions."""
    w = [Fraction(x) for x in weights]
    total = sum(w)
    t_mean = sum(wi * t for wi, t in zip(w, tags)) / total
    e_mean = sum(wi * e for wi, e in zip(w, effects)) / total
    cov = sum(wi * (t - t_mean) * (e - e_mean) for wi, t, e in zip(w, tags, effects))
    var_t = sum(wi * (t - t_mean) ** 2 for wi, t in zip(w, tags))
    var_e = sum(wi * (e - e_mean) ** 2 for wi, e in zip(w, effects))
    return float(cov) / math.sqrt(float(var_t) * float(var_e))


@pytest.mark.parametrize("name, shoe", [("21+3", UNEVEN), ("perfect-pairs", PAIRS),
                                        ("royal-match", PAIRS)])
def test_count_over_cards_matches_brute_force(name, shoe):
    """Each card's effect of removal from Fractions over every draw; the tags the effects
    rounded at the level chosen; the correlation recomputed in Fractions."""
    kinds = _kinds(shoe)
    counts = [shoe.counts[k] for k in kinds]
    pays = _pay_array(name, kinds)
    base = _brute_ev(name, counts, kinds, pays)
    assert sidebets.edge(name, shoe=shoe).expected_value == pytest.approx(float(base),
                                                                          abs=1e-15)
    effects = []
    for i in range(len(kinds)):
        less = list(counts)
        less[i] -= 1
        effects.append(_brute_ev(name, less, kinds, pays) - base)
    # the identity, exactly
    assert sum(c * e for c, e in zip(counts, effects)) == 0
    got = suit_count(name, shoe=shoe)
    names = [f"{'A23456789TJQK'[k // 4]}{'SHDC'[k % 4]}" for k in kinds]
    assert got.cards == tuple(names)
    for mine, theirs in zip(effects, got.eor):
        assert theirs == pytest.approx(float(mine), abs=1e-15)
    biggest = max(abs(e) for e in effects)
    want_tags = [round(e / biggest * got.level) for e in effects]
    assert list(got.tags) == want_tags
    assert got.correlation == pytest.approx(_weighted_correlation(want_tags, effects, counts),
                                            abs=1e-12)


def test_a_suit_symmetric_count_cannot_follow_a_suit_symmetric_bet():
    """On a full shoe the four suits are alike: each suit's effect is the same, so the
    red-black count (published for 21+3 on the blackjackinfo.com forum, in a thread on a
    21+3 side-bet strategy: hearts and diamonds +1, spades and clubs -1) is uncorrelated
    with the effects by card, and the best count over cards is the best count by rank.
    Off a shoe short of hearts, counting suits pays: the count over cards beats the one by
    rank and the red-black count correlates."""
    full = suit_count("21+3", decks=6)
    assert abs(full.published["Red-black (hearts, diamonds +1; spades, clubs -1)"]) < 1e-9
    assert max(full.by_suit.values()) - min(full.by_suit.values()) < 1e-15
    assert full.correlation == pytest.approx(full.rank_correlation, abs=1e-12)
    # the rank systems over cards: the same correlation as over ranks (their tags and the
    # effects are the same for every suit of a rank)
    by_rank = sidebets.best_count("21+3", decks=6)
    for title, corr in by_rank.published.items():
        assert full.published[title] == pytest.approx(corr, abs=1e-12)
    hearts_out = ("AH", "2H", "3H", "4H", "5H", "6H", "KH", "QH")
    short = suit_count("21+3", decks=6, remove=hearts_out)
    assert short.correlation > short.rank_correlation + 0.2
    assert short.published["Red-black (hearts, diamonds +1; spades, clubs -1)"] > 0.2
    # the queen of hearts is Lucky Ladies' own card: its tag stands apart from the queens'
    ladies = suit_count("lucky-ladies", decks=6)
    assert ladies.tag("QH") < ladies.tag("QS") <= 0 and ladies.correlation > \
        ladies.rank_correlation
    # two cards of one suit seen make a flush likelier than two of two suits
    assert full.suit_pair_effect > 0


# ---- the counted side bet under a count over cards or the four suit counts ---------------

def _brute_counted(name, shoe, system, penetration, cards_per_round):
    """The counted bet by brute force: at each round's depth every set of cards seen (all
    equally likely), its information (the four suit counts, or a running count), the exact
    value of the cards left; bet where the mean value given the information is positive."""
    kinds = _kinds(shoe)
    size = HANDS[name][0]
    pays = _pay_array(name, kinds)
    cards = [i for i, k in enumerate(kinds) for _ in range(shoe.counts[k])]
    total = len(cards)
    last = int(penetration * total)
    depths = sorted({round(i * cards_per_round)
                     for i in range(int(last / cards_per_round) + 1)})
    depths = [d for d in depths if d <= last and total - d >= size]
    tags = None if system == "suits" else cell_tags(system)
    gain = share = Fraction(0)
    by_tc: dict = {}
    cache: dict = {}
    for n in depths:
        groups: dict = {}
        for seen in itertools.combinations(range(total), n):
            left = [shoe.counts[k] for k in kinds]
            for position in seen:
                left[cards[position]] -= 1
            key = tuple(left)
            if key not in cache:
                cache[key] = _brute_ev(name, left, kinds, pays)
            if system == "suits":
                info = tuple(sum(c for c, k in zip(left, kinds) if k % 4 == s)
                             for s in range(4))
                scalar = Fraction(max(info)) - Fraction(total - n, 4)
            else:
                info = sum(Fraction(tags[kinds[cards[p]]]).limit_denominator(1000)
                           for p in seen)
                scalar = info
            m, v, _ = groups.get(info, (0, Fraction(0), scalar))
            groups[info] = (m + 1, v + cache[key], scalar)
        ways = math.comb(total, n)
        for m, v, scalar in groups.values():
            mass, net = Fraction(m, ways), v / ways          # net = mass x mean value
            if net > 0:
                gain += net
                share += mass
            tc = math.floor(scalar / Fraction(total - n, 52))
            a, b = by_tc.get(tc, (0, 0))
            by_tc[tc] = (a + mass, b + net)
    rounds = len(depths)
    return (share / rounds, 100 * gain / rounds,
            {tc: (a / rounds, b / a if a else math.nan) for tc, (a, b) in by_tc.items()})


@pytest.mark.parametrize("name, shoe, system", [
    ("21+3", EVEN, "suits"), ("21+3", UNEVEN, "suits"), ("21+3", EVEN, "red-black"),
    ("21+3", UNEVEN, {"9": 1, "JH": -2, "TD": 1}), ("perfect-pairs", PAIRS, "suits"),
    ("royal-match", PAIRS, "suits"), ("royal-match", PAIRS, {"Q": -1, "KS": 1})])
def test_counted_suit_counts_match_brute_force(name, shoe, system):
    share, gain, by_tc = _brute_counted(name, shoe, system, penetration=0.4,
                                        cards_per_round=2)
    got = sidebets.counted_sidebet(name, system=system, shoe=shoe, penetration=0.4,
                                   cards_per_round=2)
    assert got.count == ("suits" if system == "suits" else "tags")
    assert got.bet_fraction == pytest.approx(float(share), abs=1e-13)
    assert got.gain_per_100_rounds == pytest.approx(float(gain), abs=1e-11)
    assert set(got.by_true_count) == set(by_tc)
    for tc, (mass, value) in by_tc.items():
        assert got.by_true_count[tc][0] == pytest.approx(float(mass), abs=1e-13)
        if mass:
            assert got.by_true_count[tc][1] == pytest.approx(float(value), abs=1e-12)


def test_the_four_suit_counts_on_a_full_shoe():
    """21+3 (flat 9 to 1), six decks: betting on the four suit counts alone cannot beat
    betting on the whole shoe's composition.  Eliot Jacobson's "perfect play" analysis of
    21+3 (flat 9 to 1, six decks; 10,000 simulated shoes; published on the 888casino blog)
    found, after 156 cards, an edge in 5.241% of hands at 1.292% each, and with 39 cards
    left (273 seen) 31.899% at 9.997%: gains per round of 0.0677% and 3.19%, upper bounds
    for any count.  The suit counts come near them."""
    from bjsolve.sidebets.counted import CountModel
    the_bet = sidebets.bet("21+3")
    model = CountModel(the_bet, sidebets.paytable(the_bet, "classic"),
                        sidebets.resolve_shoe(decks=6), "suits")
    for seen, perfect in ((156, 0.05241 * 0.01292), (273, 0.31899 * 0.09997)):
        _, mass, _, net = model.value_by_running_count(seen)
        gain = net[net > 0].sum()
        assert 0.5 * perfect < gain < perfect
        assert mass.sum() == pytest.approx(1, abs=1e-10)
    counted = sidebets.counted_sidebet("21+3", "classic", system="suits", decks=6)
    # (the model's sums run over thousands of terms: agreement to 1e-12, not 1e-15)
    assert counted.base_ev == pytest.approx(sidebets.edge("21+3", decks=6).expected_value,
                                            abs=1e-12)
    assert 0 < counted.bet_fraction < 0.1 and counted.edge_when_bet > 0
    assert sum(s for s, _ in counted.by_true_count.values()) == pytest.approx(1, abs=1e-10)


# ---- the simulator keeps the suit counts -------------------------------------------------

@pytest.mark.parametrize("name, system, threshold, seed", [
    ("21+3", "suits", 3, 11), ("21+3", "red-black", 2, 12), ("royal-match", "suits", 2, 13),
    ("perfect-pairs", {"Q": -1, "K": -1, "QH": -3}, -10, 14),
    ("lucky-ladies", {"9": -1, "T": -1, "J": -1, "Q": -1, "K": -1, "A": -1, "QH": -4}, -10, 15)])
def test_simulator_agrees_with_the_exact_suit_counts(name, system, threshold, seed):
    exact = sidebets.counted_sidebet(name, system=system, decks=2)
    bet = [(s, v) for tc, (s, v) in exact.by_true_count.items() if tc >= threshold]
    share = sum(s for s, _ in bet)
    gain = 100 * sum(s * v for s, v in bet)
    sim = simulate_sidebet(name, system=system, threshold=threshold, decks=2,
                           rounds=300_000, seed=seed)
    assert 0.01 < share < 0.99
    assert abs(sim.bet_fraction - share) <= Z * sim.se_bet_fraction
    assert abs(sim.gain_per_100_rounds - gain) <= Z * sim.se_gain_per_100_rounds


# ---- interfaces and bad input --------------------------------------------------------------

def _cli(*args):
    return subprocess.run([sys.executable, "-m", "bjsolve", "sidebet", *args],
                          capture_output=True, text=True)


def test_cli_count_shows_the_count_over_cards():
    done = _cli("lucky-ladies", "--count", "--format", "json")
    assert done.returncode == 0, done.stderr
    tables = {t["table"]: t for t in json.loads(done.stdout)["tables"]}
    cards = tables["cards"]
    by_card = {r["card"]: r for r in cards["records"] if "card" in r}
    assert len(by_card) == 52
    api = suit_count("lucky-ladies")
    assert by_card["QH"]["tag"] == api.tag("QH")
    for fmt in ("text", "csv", "markdown", "html"):
        done = _cli("21+3", "--count", "--decks", "2", "--format", fmt)
        assert done.returncode == 0, (fmt, done.stderr)
        # (CSV writes the tables' titles and notes to stderr, the values to stdout)
        assert "over cards" in done.stdout + done.stderr and "tag H" in done.stdout
    # a bet blind to suits has no table by card
    done = _cli("over-13", "--count", "--format", "json")
    assert "cards" not in {t["table"] for t in json.loads(done.stdout)["tables"]}


@pytest.mark.parametrize("system", ["suits", "red-black", "cards"])
def test_cli_counted_and_simulated_with_suit_counts(system):
    done = _cli("21+3", "--decks", "1", "--counted", "--system", system, "--format", "json")
    assert done.returncode == 0, done.stderr
    counted = {t["table"]: t for t in json.loads(done.stdout)["tables"]}["counted"]
    shares = [r["share"] for r in counted["records"]]
    assert sum(shares) == pytest.approx(1, abs=1e-12)
    done = _cli("21+3", "--decks", "1", "--simulate", "20000", "--system", system,
                "--threshold", "2", "--format", "csv")
    assert done.returncode == 0, done.stderr


def test_bad_suit_counts_are_named():
    with pytest.raises(ValueError, match="52 tags"):
        cell_tags([1] * 51)
    with pytest.raises(ValueError, match="not a suit count"):
        cell_tags("purple")
    with pytest.raises(ValueError, match="four suit counts"):
        cell_tags("suits")
    with pytest.raises(ValueError, match="tags"):
        cell_tags({"QH": float("nan")})
    with pytest.raises(ValueError, match="push-22"):
        sidebets.counted_sidebet("push-22", system="suits", decks=1)
    with pytest.raises(ValueError, match="card"):
        suit_count("21+3", decks=1).tag("Q")
    bad = _cli("push-22", "--counted", "--system", "suits")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
    bad = _cli("21+3", "--counted", "--system", "1,2,3")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


def test_docs_quote_the_computed_suit_figures():
    from pathlib import Path
    text = " ".join((Path(__file__).parent.parent / "docs" / "side-bets.md").read_text()
                    .split())
    for system in ("suits", "red-black"):
        r = sidebets.counted_sidebet("21+3", "classic", system=system, decks=6)
        assert (f"{r.bet_fraction:.2%} of rounds, {r.edge_when_bet:+.2%} per bet, "
                f"{r.gain_per_100_rounds:+.3f} units per 100 rounds") in text
    short = suit_count("21+3", decks=6, remove=("AH", "2H", "3H", "4H", "5H", "6H", "QH", "KH"))
    assert (f"21+3's count over cards correlates {short.correlation:.3f} with the effects, "
            f"its best count by rank {short.rank_correlation:.3f}") in text
    ladies = suit_count("lucky-ladies", decks=6)
    assert (f"(level {ladies.level}: QH {ladies.tag('QH')}, the other queens "
            f"{ladies.tag('QS')}; correlation {ladies.correlation:.3f} against "
            f"{ladies.rank_correlation:.3f} by rank)") in text
    assert f"(21+3, 6 decks: {suit_count('21+3', decks=6).suit_pair_effect:+.5f} per unit)" \
        in text
    from bjsolve.sidebets.counted import CountModel
    the_bet = sidebets.bet("21+3")
    model = CountModel(the_bet, sidebets.paytable(the_bet, "classic"),
                        sidebets.resolve_shoe(decks=6), "suits")
    quoted = []
    for seen, digits in ((156, 2), (273, 1)):
        _, _, offered, net = model.value_by_running_count(seen)
        play = net > 0
        share, edge = offered[play].sum(), net[play].sum() / offered[play].sum()
        quoted.append(f"{share:.{digits}%} at {edge:.2%}")
    assert f"the suit counts find {quoted[0]}." in text
    assert f"the suit counts {quoted[1]}:" in text
