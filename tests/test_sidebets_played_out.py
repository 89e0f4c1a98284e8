"""The dealer bets with the player's own play removing its cards (``strategy=``), against an
independent card-by-card enumeration with Fractions that deals a whole round in the real
order and plays the player's hands out by a small fixed chart of its own.

The round, as dealt at a US table with one or two of the player's spots: a card to each
spot, the up card, a second card to each spot, the hole card; with an ace or ten up the
dealer peeks, and a natural ends the round; otherwise each spot is played out in turn
(splits, doubles, late surrender, naturals), and then the dealer draws to 17, whatever
became of the player's hands.  Nothing here is shared with the package but the shoe's
counts: the play, the dealing and the bets' outcomes are all written again.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import pytest
from bjsolve import Rules, sidebets
from bjsolve.sidebets import SuitedShoe

RED = {1, 2}                     # suits 0..3: spades, hearts, diamonds, clubs


def value(rank):
    return min(rank, 10)


def total_of(ranks):
    """(blackjack total, soft) of a hand given by its ranks 1..13."""
    hard = sum(value(r) for r in ranks)
    if 1 in ranks and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


# ---- the small fixed chart: one split (two hands), split aces one card each, double 10
# and 11 (also after a split), late surrender of hard 16 against a ten; nothing else -----

def chart(ranks, up, *, first_two, after_split):
    """The action for a hand (its ranks) against up card value ``up`` (1..10)."""
    total, soft = total_of(ranks)
    if first_two and not after_split and value(ranks[0]) == value(ranks[1]) \
            and value(ranks[0]) in (1, 8):
        return "split"
    if soft:
        return "hit" if total <= 17 else "stand"
    if first_two and total in (10, 11):
        return "double"
    if first_two and not after_split and total == 16 and up == 10:
        return "surrender"
    if total <= 11:
        return "hit"
    if total <= 16:
        return "stand" if 2 <= up <= 6 else "hit"
    return "stand"


def draws(left):
    """(card index, chance) of the next card from the counts ``left``."""
    n = sum(left)
    assert n > 0, "the test shoe ran out of cards: choose a larger one"
    return [(i, Fraction(c, n)) for i, c in enumerate(left) if c]


def take(left, i):
    return left[:i] + (left[i] - 1,) + left[i + 1:]


class Round:
    """One shoe and the walk of a round.  ``kinds[i]`` = (value 1..10, suit) of the shoe's
    distinct cards (T, J, Q, K of one suit pooled: no dealer bet tells them apart); with
    ``by_rank`` the suits are ignored too, which the bets that read no suit allow."""

    def __init__(self, shoe: SuitedShoe, spots: int, hit_soft_17: bool, by_rank=False):
        # ten-valued cards of one suit are alike for the dealer bets: pooled (rank 10)
        counts = {}
        for k, c in enumerate(shoe.counts):
            if c:
                card = (min(k // 4 + 1, 10), 0 if by_rank else k % 4)
                counts[card] = counts.get(card, 0) + int(c)
        self.kinds = list(counts)
        self.start = tuple(counts.values())
        self.spots, self.hit_soft_17 = spots, hit_soft_17
        self.play = lru_cache(maxsize=None)(self._play)
        self.dealer = lru_cache(maxsize=None)(self._dealer)

    def rank(self, i):
        return self.kinds[i][0]

    # -- the player's hands, then the dealer: each walk returns {dealer key: chance} --
    def _play(self, ranks, after_split, first_two, todo, up, hole, left):
        """Play the hand ``ranks`` (None: take the next hand of ``todo``), then the hands
        of ``todo`` in turn: (first card, after split, is spot 1); then the dealer."""
        if ranks is None:
            if not todo:
                return self.dealer((up, hole), left)
            (first, _), rest = todo[0], todo[1:]
            if len(first) == 2:                     # a spot's two cards, dealt at the start
                if total_of(first)[0] == 21:        # a natural takes no card
                    return self.play(None, False, True, rest, up, hole, left)
                return self.play(first, False, True, rest, up, hole, left)
            out: dict = {}                          # a split hand: its second card first
            for i, p in draws(left):
                add(out, self.play(first + (self.rank(i),), True, True, rest, up, hole,
                                   take(left, i)), p)
            return out
        total, _ = total_of(ranks)
        done = total >= 21 or (after_split and ranks[0] == 1 and len(ranks) == 2)
        act = "stand" if done else chart(list(ranks), value(self.rank(up)),
                                         first_two=first_two, after_split=after_split)
        if act in ("stand", "surrender"):
            return self.play(None, False, True, todo, up, hole, left)
        if act == "split":
            # the first hand gets its second card and is played, then the second hand
            todo = (((ranks[1],), True),) + todo
            out = {}
            for i, p in draws(left):
                add(out, self.play((ranks[0], self.rank(i)), True, True, todo, up, hole,
                                   take(left, i)), p)
            return out
        out = {}
        for i, p in draws(left):
            if act == "double":                     # one card
                add(out, self.play(None, False, True, todo, up, hole, take(left, i)), p)
            else:
                add(out, self.play(ranks + (self.rank(i),), after_split, False, todo, up,
                                   hole, take(left, i)), p)
        return out

    def _dealer(self, hand, left):
        """{(cards, total, one suit, one colour, first three ranks, up value): chance}."""
        ranks = [self.rank(i) for i in hand]
        total, soft = total_of(ranks)
        if total > 17 or (total == 17 and not (soft and self.hit_soft_17)):
            suits = {self.kinds[i][1] for i in hand}
            key = (min(len(hand), 8), min(total, 23), len(suits) == 1,
                   len({s in RED for s in suits}) == 1, tuple(ranks[:3]) if len(hand) == 3
                   else (), value(ranks[0]))
            return {key: Fraction(1)}
        out: dict = {}
        for i, p in draws(left):
            add(out, self.dealer(hand + (i,), take(left, i)), p)
        return out

    def law(self):
        """{(dealer key, spot 1 has a natural): chance} over whole rounds."""
        out: dict = {}
        s = self.spots

        def deal(seq, left, p):
            if len(seq) < 2 * s + 2:
                for i, q in draws(left):
                    deal(seq + (i,), take(left, i), p * q)
                return
            # dealing order: spot 1, ..., up, spot 1, ..., hole
            firsts, up, seconds, hole = seq[:s], seq[s], seq[s + 1:2 * s + 1], seq[-1]
            hands = tuple((self.rank(a), self.rank(b)) for a, b in zip(firsts, seconds))
            natural1 = total_of(hands[0])[0] == 21
            if total_of((self.rank(up), self.rank(hole)))[0] == 21:
                after = self.dealer((up, hole), left)   # the peek: a natural ends the round
            else:
                after = self.play(None, False, True, tuple((h, False) for h in hands), up,
                                  hole, left)
            for key, q in after.items():
                k = (key, natural1)
                out[k] = out.get(k, 0) + p * q

        deal((), self.start, Fraction(1))
        return out


def add(out, law, p):
    for key, q in law.items():
        out[key] = out.get(key, 0) + p * q


def buster_law(law):
    want: dict = {}
    for ((cards, total, *_), natural), p in law.items():
        if total <= 21:
            continue
        k = "8+" if cards >= 8 else str(cards)
        name = (f"bust {k} cards, player blackjack" if natural and cards >= 7
                else f"bust {k} cards")
        want[name] = want.get(name, 0) + p
    return want


def push22_law(law):
    want: dict = {}
    for ((cards, total, suited, colour, *_), _natural), p in law.items():
        if total == 22:
            name = "suited 22" if suited else "same-colour 22" if colour else "22"
            want[name] = want.get(name, 0) + p
    return want


def bust_it_law(law):
    want: dict = {}
    for ((cards, total, suited, colour, first3, _up), _natural), p in law.items():
        if cards != 3 or total <= 21 or 1 in first3[:2]:
            continue
        if first3 == (8, 8, 8) and (suited or colour):
            name = "suited 8-8-8" if suited else "same-colour 8-8-8"
        else:
            name = {6: "bust on a 6", 7: "bust on a 7", 8: "bust on an 8", 9: "bust on a 9",
                    10: "bust on a ten"}[value(first3[2])]
        want[name] = want.get(name, 0) + p
    return want


def bust_bonus_law(law, up):
    """Given the up card value ``up`` and no dealer natural."""
    offered: dict = {}
    for (key, _natural), p in law.items():
        if key[5] == up and not (key[0] == 2 and key[1] == 21):
            offered[key] = offered.get(key, 0) + p
    weight = sum(offered.values())
    label = "A" if up == 1 else "T" if up == 10 else str(up)
    want: dict = {}
    for (cards, total, suited, _colour, first3, _), p in offered.items():
        if total <= 21:
            continue
        if cards == 3 and first3 == (8, 8, 8):
            name = "suited 8-8-8" if suited else "8-8-8"
        else:
            name = f"{label} up: suited bust" if suited else f"{label} up: bust"
        want[name] = want.get(name, 0) + p / weight
    return want


# small shoes, rich in tens so that no round can run out of cards (the walk checks it)
RANKS_SHOE = SuitedShoe([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 0],
                         [1, 1, 0, 0], [0, 0, 1, 0], [1, 1, 0, 0], [0, 0, 0, 0], [1, 1, 1, 0],
                         [1, 1, 0, 1], [0, 1, 1, 1], [1, 1, 1, 0]])     # 20 cards
SUITS_SHOE = SuitedShoe([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0],
                         [1, 1, 0, 0], [0, 0, 1, 0], [2, 1, 0, 0], [0, 0, 0, 0], [3, 2, 0, 0],
                         [0, 0, 1, 0], [0, 1, 0, 0], [1, 0, 0, 1]])     # 17 cards
def _compare(got, want):
    for outcome, p in want.items():
        assert abs(got[outcome] - float(p)) <= 1e-15, outcome
    for outcome, p in got.items():
        if outcome != "no win" and outcome not in want:
            assert p == 0 or abs(p) <= 1e-15, outcome


RULES = {"decks": 1, "max_split_hands": 2, "surrender": "late"}     # what the chart plays


def _played_out(name, shoe, spots, hit_soft_17, **kw):
    return sidebets.edge(name, shoe=shoe, hit_soft_17=hit_soft_17, strategy="basic",
                         spots=spots, rules=Rules(hit_soft_17=hit_soft_17, **RULES),
                         **kw).probabilities


@pytest.mark.parametrize("spots, hit_soft_17", [
    (1, False), pytest.param(2, True, marks=pytest.mark.slow)], ids=["1 spot S17",
                                                                    "2 spots H17"])
def test_buster_played_out_matches_a_whole_round_enumeration(spots, hit_soft_17):
    """20 cards, suits ignored (Buster reads none): the chances of busting with 3, 4, ...
    cards and of doing so with the bettor's natural."""
    law = Round(RANKS_SHOE, spots, hit_soft_17, by_rank=True).law()
    assert sum(law.values()) == 1
    _compare(_played_out("buster", RANKS_SHOE, spots, hit_soft_17), buster_law(law))


@pytest.mark.parametrize("hit_soft_17", [False, pytest.param(True, marks=pytest.mark.slow)],
                         ids=["S17", "H17"])
def test_played_out_dealer_bets_with_suits_match_a_whole_round_enumeration(hit_soft_17):
    """17 cards with suits, one spot: Push 22 (suited, same colour), Bust It (suited and
    same-colour 8-8-8), Buster, and Bust Bonus against each up card (suited busts).  (Two
    spots with suits take the walk over ten minutes: two spots are checked above, on
    ranks.)"""
    law = Round(SUITS_SHOE, 1, hit_soft_17).law()
    assert sum(law.values()) == 1
    for name, want in (("buster", buster_law), ("push-22", push22_law),
                       ("bust-it", bust_it_law)):
        _compare(_played_out(name, SUITS_SHOE, 1, hit_soft_17), want(law))
    for up in range(1, 11):
        if any(key[5] == up and not (key[0] == 2 and key[1] == 21) for key, _ in law):
            _compare(_played_out("bust-bonus", SUITS_SHOE, 1, hit_soft_17, dealer=up),
                     bust_bonus_law(law, up))


def test_hits_leave_the_dealers_law_alone_at_any_point():
    """The identity holds at every point of the round, not only on average over the first
    cards: with the dealer's up and hole cards and the player's 8, 4 known (against a 7
    the chart hits), the dealer's law after the player has hit out is his law had the
    player stood, exactly, although the walk does take the player's cards."""
    walk = Round(RANKS_SHOE, 1, False, by_rank=True)
    two, four, seven, eight = (walk.kinds.index((v, 0)) for v in (2, 4, 7, 8))
    left = take(take(take(take(walk.start, two), four), seven), eight)
    played = walk.play((8, 4), False, True, (), seven, two, left)
    assert walk.play.cache_info().currsize > 3            # it did draw for the player
    assert played == walk.dealer((seven, two), left)


def test_the_result_states_its_convention():
    two = sidebets.edge("buster", decks=6)
    played = sidebets.edge("buster", decks=6, strategy="optimal", spots=3)
    assert "two cards" in two.convention and two.strategy == "two-cards"
    assert "played out" in played.convention and "3 spots" in played.convention
    assert played.strategy == "optimal" and played.spots == 3
    assert played.probabilities == two.probabilities
    card = sidebets.edge("21+3", decks=6, strategy="basic")
    assert "changes nothing" in card.convention


@pytest.mark.parametrize("kwargs, message", [
    ({"strategy": "chart"}, "strategy: 'chart' is not a way to play"),
    ({"strategy": 3}, "strategy must be one of"),
    ({"spots": 2}, "other spots matter only when the hands are played out"),
    ({"strategy": "basic", "spots": 0}, "spots must be a whole number 1..7"),
    ({"strategy": "basic", "spots": True}, "spots must be a whole number 1..7"),
    ({"strategy": "basic", "rules": Rules(hit_soft_17=True)}, "rules.hit_soft_17=True"),
    ({"strategy": "basic", "rules": "6D"}, "rules must be a bjsolve.Rules"),
])
def test_bad_play_keywords_are_named(kwargs, message):
    with pytest.raises((ValueError, TypeError), match=message.replace(".", r"\.")):
        sidebets.edge("push-22", decks=6, **kwargs)


def test_a_shoe_too_small_for_the_played_out_round_is_refused():
    shoe = SuitedShoe.decks(1)
    sidebets.edge("buster", shoe=shoe, strategy="basic", spots=2)     # 340 > 2*4*30+16
    with pytest.raises(ValueError, match="shoe too small for 3 spot"):
        sidebets.edge("buster", shoe=shoe, strategy="basic", spots=3)
    # a card bet is settled before any play: no check
    sidebets.edge("21+3", shoe=shoe, strategy="basic", spots=7)


# ---- the simulator, playing the hands out by a chart on shuffled shoes --------------------

def small_chart(cards, dealer, allowed):
    """The enumeration's chart as the simulator asks it (cards and up card as values)."""
    act = chart(list(cards), dealer, first_two=len(cards) == 2,
                after_split="surrender" not in allowed)
    if act not in allowed:            # a split or double not allowed here: its total's row
        act = chart(list(cards), dealer, first_two=False, after_split=True)
    return act


SMALL_RULES = Rules(max_split_hands=2, surrender="late")


def _within_4_se(name, rounds, seed, *, decks, hit_soft_17=False, **play):
    exact = sidebets.edge(name, decks=decks, hit_soft_17=hit_soft_17).expected_value
    sim = sidebets.simulate_sidebet(name, decks=decks, rounds=rounds, seed=seed,
                                    hit_soft_17=hit_soft_17, **play)
    assert abs(sim.mean - exact) <= 4 * sim.se_mean, (name, sim.mean, sim.se_mean, exact)


@pytest.mark.parametrize("name", ["buster", "push-22", "bust-it", "bust-bonus"])
def test_simulated_played_out_rounds_agree_with_the_exact_values(name):
    """200,000 rounds, 6 decks S17: one spot by the basic chart; 8 decks H17: three spots
    by the small chart (one split, late surrender)."""
    _within_4_se(name, 200_000, 11, decks=6, strategy="basic")
    _within_4_se(name, 200_000, 12, decks=8, hit_soft_17=True, strategy=small_chart,
                 spots=3, rules=Rules(hit_soft_17=True, max_split_hands=2, surrender="late"))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["buster", "push-22", "bust-it", "bust-bonus"])
@pytest.mark.parametrize("hit_soft_17", [False, True], ids=["S17", "H17"])
def test_simulated_played_out_rounds_agree_in_a_long_run(name, hit_soft_17):
    """2,000,000 rounds a case: 6 decks, one spot, the basic chart of the rules; 8 decks,
    two spots, the small chart."""
    _within_4_se(name, 2_000_000, 21, decks=6, hit_soft_17=hit_soft_17, strategy="basic",
                 rules=Rules(hit_soft_17=hit_soft_17))
    _within_4_se(name, 2_000_000, 22, decks=8, hit_soft_17=hit_soft_17, strategy=small_chart,
                 spots=2, rules=Rules(hit_soft_17=hit_soft_17, max_split_hands=2,
                                      surrender="late"))


def test_the_simulators_player_takes_the_cards_the_chart_asks_for():
    """Three rounds laid out by hand (one spot; cards as kinds 4 * rank + suit): 8, 8
    against a 7 splits and each 8 hits its 13 (8, 5) once more; 10, 6 against a ten
    surrenders; a natural takes nothing."""
    import numpy as np
    from bjsolve.sidebets.simulate_play import ChartPlayer, play_out

    def kind(v):                      # a spade of value v (10: the ten)
        return 4 * (v - 1)
    rounds = [[8, 7, 8, 10, 5, 9, 5, 9], [10, 10, 6, 9, 2, 2, 2, 2], [1, 5, 10, 9, 2, 2, 2, 2]]
    shoe = np.array([[kind(v) for v in r] for r in rounds])
    first = [shoe[:, j] for j in range(4)]
    player = ChartPlayer(small_chart, SMALL_RULES)
    cursor = play_out(player, first, 1, lambda off: shoe[np.arange(3), off], np.full(3, 4))
    # round 1: split; hand 1 takes 5 (13 v 7: hit) then 9 (22); hand 2 takes 5, then 9
    assert cursor.tolist() == [8, 4, 4]


# ---- the command line -----------------------------------------------------------------------

def _cli(*args):
    import os
    import subprocess
    import sys
    return subprocess.run([sys.executable, "-m", "bjsolve", "sidebet", *args],
                          capture_output=True, text=True, env=os.environ, check=False)


def test_cli_plays_the_hands_out_and_says_so():
    done = _cli("push-22", "--decks", "8", "--strategy", "basic", "--spots", "2", "--rules",
                "DAS LS", "--format", "json")
    assert done.returncode == 0, done.stderr
    assert "played out" in done.stdout and "2 spots" in done.stdout
    two = _cli("push-22", "--decks", "8", "--format", "json")
    assert "two cards" in two.stdout
    for bad in (["--spots", "2"], ["--strategy", "optimal", "--simulate", "1000"],
                ["--strategy", "basic", "--decks", "1", "--spots", "3"],
                ["--strategy", "two-cards"]):
        done = _cli("push-22", *bad)
        assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, bad


def test_the_play_keywords_speak_the_packages_words():
    """strategy and spots as simulate and CountedGame name them; the default is the
    published convention everywhere."""
    import inspect

    import bjsolve
    for function in (sidebets.edge, sidebets.effects_of_removal, sidebets.best_count,
                     sidebets.edges_table, sidebets.simulate_sidebet):
        params = inspect.signature(function).parameters
        assert params["strategy"].default == "two-cards", function
        assert params["spots"].default == 1 and params["rules"].default is None, function
    assert {"strategy", "spots"} <= set(inspect.signature(bjsolve.simulate).parameters)


def test_published_buster_figures_hold_with_the_hands_played_out():
    """Wizard of Odds, Buster Blackjack, 6 decks H17 (DAS, late surrender assumed for the
    play): the chances of busting with 3..8+ cards at the printed precision, with three
    spots played out by the basic chart.  (No figure in our references says which cards it
    took out; by the identity of sidebets.played_out both conventions give these.)"""
    got = sidebets.edge("buster", decks=6, hit_soft_17=True, strategy="basic", spots=3,
                        rules=Rules(hit_soft_17=True, surrender="late")).probabilities
    with_bj = {7: got["bust 7 cards, player blackjack"],
               8: got["bust 8+ cards, player blackjack"]}
    assert round(got["bust 3 cards"], 6) == 0.173032
    assert round(got["bust 4 cards"], 6) == 0.089392
    assert round(got["bust 5 cards"], 6) == 0.020473
    assert round(got["bust 6 cards"], 6) == 0.002638
    assert round(got["bust 7 cards"] + with_bj[7], 6) == 0.000214
    assert round(got["bust 8+ cards"] + with_bj[8], 6) == 0.000012
