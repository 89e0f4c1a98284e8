"""The compiled simulator plays the games' rules (docs/games.md: the kernel rule dict's
optional keys): checked against an independent exact computation, and by identities.

The exact side is written here, in pure Python, for an infinite shoe (every card drawn
independently with the shoe's proportions) and one fixed, simple chart (``Chart``): stand
on 17+ and on hard 12+ against 2-6, hit otherwise; double two-card hard 9, 10, 11 (free
where the rules make it free); split the chart's pairs (aces and eights, and every pair
that splits free); redouble a hard 11 or less after a double, rescue 12-16 against 7-A.
With an infinite shoe the dealer's draws do not depend on the player's cards, so a hand's
value is its outcome law against the dealer's final-total law (given no dealer natural in a
peek game; in ENHC the natural is one of the dealer's outcomes, taking the hand's own
stake), and a split's value follows the forced resplits hand by hand (``_split``).  An
enhc-obo game has the peek game's value on an infinite shoe (a dealer natural takes the
original bet from every played spot, and the hole card does not depend on the player's
cards), which the simulator's obo rounds must then show.
Nothing here comes from the simulator or the exact engine: the test's numbers are this
recursion's.

The simulated mean (1e6 rounds a case by default) must lie within 4 SE of the exact EV;
``slow`` runs the same cases at 1e8 rounds (issue 25's check; BJSOLVE_GAMES_ROUNDS sets
another number).  Identities: the games' code path gives the classic game's results bit
for bit when its rules change nothing (same seed); the suits of a finite shoe follow the
exchangeable law (a shoe of sevens, exact by counting).
"""
from __future__ import annotations

import functools
import math
import os

import numpy as np
import pytest

import bjsolve
from bjcore import check_rules
from bjsolve import Rules, Shoe
from bjsolve.exact.kernel_rules import kernel_rules

Z_LIMIT = 4.0
ROUNDS = 1_000_000
SLOW_ROUNDS = int(float(os.environ.get("BJSOLVE_GAMES_ROUNDS", "1e8")))
STANDARD = (4,) * 9 + (16,)
SPANISH = (4,) * 9 + (12,)           # a 48-card deck: the four tens gone, J Q K kept
FREE_BET = {"dealer_22_push": 1, "free_double_totals": (1 << 9) | (1 << 10) | (1 << 11),
            "free_split_ranks": 0b1111111110}
SPANISH_21 = {"player_21_wins": 1, "bonus_21": (1.5, 2, 3), "bonus_678": (1.5, 2, 3),
              "bonus_777": (1.5, 2, 3), "super_bonus": 50, "redoubles": 3,
              "double_rescue": 1, "double_split_aces": 1,
              "natural_tie_value": 1.5}     # a player natural always wins


# ---- the fixed chart (rank-only) ----------------------------------------------------------

class Chart:
    """The simple chart, as the simulator asks it (``strategy``, ``after_double``) and as
    the exact recursion plays it."""

    def __init__(self, split_ranks):
        self.split_ranks = frozenset(split_ranks)

    @staticmethod
    def total(cards):
        hard = sum(cards)
        soft = 1 in cards and hard + 10 <= 21
        return (hard + 10 if soft else hard), soft

    def stands(self, cards, up) -> bool:
        total, soft = self.total(cards)
        return total >= 17 or (not soft and total >= 12 and 2 <= up <= 6)

    @staticmethod
    def doubles(cards) -> bool:
        return len(cards) == 2 and 1 not in cards and sum(cards) in (9, 10, 11)

    @staticmethod
    def split_ace_doubles(cards) -> bool:
        """A split ace that may double but not hit doubles soft 13-17."""
        return 13 <= Chart.total(cards)[0] <= 17

    def __call__(self, cards, dealer, allowed):
        if "split" in allowed and cards[0] in self.split_ranks:
            return "split"
        if "hit" not in allowed:                     # a split ace: stand or double
            return "double" if "double" in allowed and self.split_ace_doubles(cards) \
                else "stand"
        if "double" in allowed and self.doubles(cards):
            return "double"
        return "stand" if self.stands(cards, dealer) else "hit"

    @staticmethod
    def after_double(cards, dealer, allowed, split, doubles):
        total, soft = Chart.total(cards)
        if "redouble" in allowed and not soft and total <= 11:
            return "redouble"
        if "rescue" in allowed and 12 <= total <= 16 and dealer in (1, 7, 8, 9, 10):
            return "rescue"
        return "stand"


# ---- the exact EV on an infinite shoe -------------------------------------------------------

NATURAL = 24      # the dealer's natural among its outcomes (ENHC)


class Exact:
    """The chart's exact EV per round (unconditioned, per initial unit) in a peek (or
    obo) or ENHC game on an infinite shoe of ``proportions``, under the decoded kernel
    rules ``k``."""

    def __init__(self, k: dict, proportions, chart: Chart):
        total = sum(proportions)
        self.p = [c / total for c in proportions]     # p[r - 1]
        self.k = k
        self.enhc = bool(k["natural_takes_all"])
        self.chart = chart
        self.dealer = {up: self._dealer(up) for up in range(1, 11)}

    # the dealer's final total given the upcard: 17..21, 22, 23 (other bust), NATURAL;
    # in a peek game given no natural
    def _dealer(self, up):
        p, h17 = self.p, self.k["hit_soft_17"]

        @functools.lru_cache(maxsize=None)
        def law(hard, ace):
            soft = ace and hard + 10 <= 21
            total = hard + 10 if soft else hard
            if total > 21:
                return {min(total, 23): 1.0}
            if total >= 17 and not (h17 and soft and total == 17):
                return {total: 1.0}
            out: dict = {}
            for r in range(1, 11):
                for d, q in law(hard + r, ace or r == 1).items():
                    out[d] = out.get(d, 0.0) + p[r - 1] * q
            return out

        natural_hole = {1: 10, 10: 1}.get(up)
        norm = 1.0 - (p[natural_hole - 1] if natural_hole and not self.enhc else 0.0)
        out: dict = {}
        for r in range(1, 11):
            if r == natural_hole:
                if self.enhc:
                    out[NATURAL] = p[r - 1]
                continue
            for d, q in law(up + r, up == 1 or r == 1).items():
                out[d] = out.get(d, 0.0) + p[r - 1] / norm * q
        return out

    # a standing hand against the dealer: (win weight incl. bonus, loss prob, tie prob)
    def _multiplier(self, cards, up, split, doubled) -> float:
        k = self.k
        total, _ = Chart.total(cards)
        if total != 21 or doubled or (split and not k["bonus_after_split"]):
            return 1.0
        n = len(cards)
        if n >= 5:
            return k["bonus_21"][min(n, 7) - 5]
        if n == 3 and tuple(sorted(cards)) == (6, 7, 8):
            b = k["bonus_678"]
            return (60 * b[0] + 3 * b[1] + b[2]) / 64
        if n == 3 and tuple(cards) == (7, 7, 7):
            b = k["bonus_777"]
            if k["super_bonus"] > 0 and up == 7 and not split:
                return (60 * b[0] + 4 * k["super_bonus"]) / 64
            return (60 * b[0] + 3 * b[1] + b[2]) / 64
        return 1.0

    def _stand(self, cards, up, own, free, split, doubled) -> float:
        k = self.k
        total, _ = Chart.total(cards)
        if total > 21:
            return -own
        win = lose = tie = 0.0
        for d, q in self.dealer[up].items():
            if d == NATURAL:            # (ENHC) takes the own stake, whatever the hand
                lose += q
            elif k["player_21_wins"] and total == 21:
                win += q
            elif d == 22 and k["dealer_22_push"]:
                pass
            elif d >= 22 or total > d:
                win += q
            elif total < d:
                lose += q
            else:
                tie += q
        mult = self._multiplier(cards, up, split, doubled)
        return (own + free) * mult * win - own * lose + k["tie_value"] * own * tie

    def _draw(self, f) -> float:
        return sum(self.p[r - 1] * f(r) for r in range(1, 11) if self.p[r - 1] > 0)

    @functools.lru_cache(maxsize=None)
    def _play(self, cards, up, own, free, base, split) -> float:
        """A hand at a hit/stand decision (or its first decision: double allowed when the
        hand holds two cards)."""
        total, _ = Chart.total(cards)
        if total > 21:
            return -own
        k = self.k
        may_double = len(cards) == 2 and (not split or k["double_after_split"])
        if may_double and Chart.doubles(cards):
            return self._double(cards, up, own, free, base, split)
        if self.chart.stands(cards, up):
            return self._stand(cards, up, own, free, split, False)
        return self._draw(lambda r: self._play(tuple(sorted(cards + (r,))), up, own, free,
                                               base, split))

    def _double(self, cards, up, own, free, base, split) -> float:
        stake = own + free
        if 1 not in cards and self.k["free_double_totals"] >> sum(cards) & 1:
            free += stake
        else:
            own += stake
        return self._draw(lambda r: self._after(tuple(sorted(cards + (r,))), up, own, free,
                                                base, split, 1))

    @functools.lru_cache(maxsize=None)
    def _after(self, cards, up, own, free, base, split, doubles) -> float:
        k = self.k
        total, _ = Chart.total(cards)
        if total > 21:
            return -own
        if total < 21 and (k["redoubles"] or k["double_rescue"]):
            allowed = ("stand",) + (("redouble",) if doubles <= k["redoubles"] else ()) + (
                ("rescue",) if k["double_rescue"] and (
                    doubles == 1 or k["rescue_after_redouble"]) else ())
            act = Chart.after_double(cards, up, allowed, split, doubles)
            if act == "redouble":
                return self._draw(lambda r: self._after(tuple(sorted(cards + (r,))), up,
                                                        2 * own, free, base, split,
                                                        doubles + 1))
            if act == "rescue":
                # (ENHC: a dealer natural takes the doubled hand's own stake)
                p_nat = self.dealer[up].get(NATURAL, 0.0)
                return -base * (1 - p_nat) - own * p_nat
        return self._stand(cards, up, own, free, split, True)

    def _split_hand(self, pair, c, up, own, free) -> float:
        cards = tuple(sorted((pair, c)))
        k = self.k
        if pair == 1 and not k["hit_split_aces"]:
            if (k["double_split_aces"] and k["double_after_split"]
                    and Chart.split_ace_doubles(cards)):
                return self._double(cards, up, own, free, own, True)
            return self._stand(cards, up, own, free, True, False)
        return self._play(cards, up, own, free, own, True)

    def _split(self, pair, up) -> float:
        """The forced resplits: hand h draws its second card; a pair card while fewer than
        the limit hands exist starts a new hand and the same hand draws again.  Hand 0
        holds the player's stake, the others his (or the house's, free) stake."""
        k = self.k
        limit = k["max_split_hands"] if (pair != 1 or k["resplit_aces"]) else \
            min(k["max_split_hands"], 2)
        is_free = k["free_split_ranks"] >> pair & 1
        q = self.p[pair - 1]

        def stakes(h):
            return (0.0, 1.0) if (is_free and h > 0) else (1.0, 0.0)

        def value(h, exclude_pair):
            own, free = stakes(h)
            norm = 1.0 - q if exclude_pair else 1.0
            return sum(self.p[c - 1] / norm * self._split_hand(pair, c, up, own, free)
                       for c in range(1, 11)
                       if self.p[c - 1] > 0 and not (exclude_pair and c == pair))

        @functools.lru_cache(maxsize=None)
        def f(h, nh):
            if h == nh:
                return 0.0
            if nh == limit:
                return value(h, False) + f(h + 1, nh)
            return (1 - q) * (value(h, True) + f(h + 1, nh)) + q * f(h, nh + 1)
        return f(0, 2)

    def _start(self, a, b, up) -> float:
        cards = tuple(sorted((a, b)))
        if a == b and a in self.chart.split_ranks and self.k["max_split_hands"] >= 2:
            return self._split(a, up)
        return self._play(cards, up, 1.0, 0.0, 1.0, False)

    def ev(self) -> float:
        p, k = self.p, self.k
        total = 0.0
        for up in range(1, 11):
            natural_hole = {1: 10, 10: 1}.get(up)
            p_nat = p[natural_hole - 1] if natural_hole else 0.0
            p_player_nat = 2 * p[0] * p[9]
            value_nat = p_player_nat * k["natural_tie_value"] - (1 - p_player_nat)
            value_play = 0.0
            for a in range(1, 11):
                for b in range(1, 11):
                    w = p[a - 1] * p[b - 1]
                    if w == 0:
                        continue
                    if {a, b} == {1, 10}:
                        value_play += w * (p_nat * k["natural_tie_value"]
                                           + (1 - p_nat) * k["blackjack_payout"]
                                           if self.enhc else k["blackjack_payout"])
                    else:
                        value_play += w * self._start(a, b, up)
            if self.enhc:               # the dealer's natural is inside the hands' values
                total += p[up - 1] * value_play
            else:
                total += p[up - 1] * (p_nat * value_nat + (1 - p_nat) * value_play)
        return total


# ---- the cases -------------------------------------------------------------------------------

SMALL = (8, 8, 8, 8, 8, 4, 4, 4, 4, 8)          # many small cards: 5-card hands and more
SEVENS = (2, 2, 2, 2, 2, 8, 12, 8, 2, 8)         # many 6s, 7s and 8s: 6-7-8 and 7-7-7

# name: (Rules, game keys, shoe proportions, split ranks of the chart)
CASES = {
    "classic": (Rules(decks=math.inf), {}, STANDARD, (1, 8)),
    "dealer 22 push": (Rules(decks=math.inf, hit_soft_17=True), {"dealer_22_push": 1},
                       STANDARD, (1, 8)),
    "free doubles": (Rules(decks=math.inf), {"free_double_totals": FREE_BET["free_double_totals"]},
                     STANDARD, (1, 8)),
    "free splits": (Rules(decks=math.inf), {"free_split_ranks": FREE_BET["free_split_ranks"]},
                    STANDARD, range(1, 10)),
    "free splits noDAS RSA": (Rules(decks=math.inf, double_after_split=False, resplit_aces=True),
                              {"free_split_ranks": 0b0111110110}, STANDARD, range(1, 10)),
    "player 21 wins": (Rules(decks=math.inf), {"player_21_wins": 1}, STANDARD, (1, 8)),
    "21 bonuses": (Rules(decks=math.inf), {"bonus_21": (1.5, 2, 3)}, SMALL, (1, 8)),
    "6-7-8 and 7-7-7 bonuses": (Rules(decks=math.inf),
                                {"bonus_678": (1.5, 2, 3), "bonus_777": (2, 3, 5)},
                                SEVENS, (1,)),
    "bonuses after split": (Rules(decks=math.inf),
                            {"bonus_678": (1.5, 2, 3), "bonus_777": (2, 3, 5),
                             "bonus_21": (1.5, 2, 3), "bonus_after_split": 1},
                            SEVENS, (1, 6, 7, 8)),
    "super bonus": (Rules(decks=math.inf), {"bonus_777": (1.5, 2, 3), "super_bonus": 25},
                    SEVENS, (1,)),
    "redoubles": (Rules(decks=math.inf), {"redoubles": 3}, SMALL, (1, 8)),
    "double rescue": (Rules(decks=math.inf), {"double_rescue": 1}, STANDARD, (1, 8)),
    "redoubles and rescue": (Rules(decks=math.inf), {"redoubles": 2, "double_rescue": 1},
                             SMALL, (1, 8)),
    "rescue after redoubles": (Rules(decks=math.inf), {"redoubles": 2, "double_rescue": 1,
                                                       "rescue_after_redouble": 1},
                               SMALL, (1, 8)),
    "double split aces": (Rules(decks=math.inf), {"double_split_aces": 1}, STANDARD, (1, 8)),
    "Free Bet": (Rules(decks=math.inf, hit_soft_17=True), FREE_BET, STANDARD, range(1, 10)),
    "Spanish 21": (Rules(decks=math.inf, hit_soft_17=True, resplit_aces=True,
                         double_any_cards=False), SPANISH_21, SPANISH, (1, 8)),
    "Free Bet ENHC": (Rules(decks=math.inf, hit_soft_17=True, hole_card="enhc"), FREE_BET,
                      STANDARD, range(1, 10)),
    "Free Bet enhc-obo": (Rules(decks=math.inf, hit_soft_17=True, hole_card="enhc-obo"),
                          FREE_BET, STANDARD, range(1, 10)),
    "redoubles and rescue ENHC": (Rules(decks=math.inf, hole_card="enhc"),
                                  {"redoubles": 2, "double_rescue": 1}, SMALL, (1, 8)),
    "Spanish 21 ENHC": (Rules(decks=math.inf, resplit_aces=True, double_any_cards=False,
                              hole_card="enhc"), SPANISH_21, SPANISH, (1, 8)),
}


def _simulate(rules, game, proportions, split_ranks, rounds, seed):
    chart = Chart(split_ranks)
    return bjsolve.simulate(rules, rounds=rounds, seed=seed, shoe=Shoe.infinite(proportions),
                            strategy=chart, game_rules=game, after_double=Chart.after_double)


def _exact(rules, game, proportions, split_ranks):
    # memoised: each case's recursion is read by two tests here and by
    # test_game_engine.py's fixed-chart check in the same session
    return _exact_memo(rules, tuple(sorted(game.items())), tuple(proportions),
                       tuple(split_ranks))


@functools.lru_cache(maxsize=None)
def _exact_memo(rules, game_items, proportions, split_ranks):
    k = check_rules(dict(kernel_rules(rules, 0), **dict(game_items)))
    return Exact(k, proportions, Chart(split_ranks)).ev()


def _check(name, rounds, seed):
    rules, game, proportions, split_ranks = CASES[name]
    exact = _exact(rules, game, proportions, split_ranks)
    result = _simulate(rules, game, proportions, split_ranks, rounds, seed)
    z = (result.mean - exact) / result.se
    print(f"{name}: exact {exact:+.6f} simulated {result.mean:+.6f} +- {result.se:.6f} "
          f"z {z:+.2f}")
    assert abs(z) <= Z_LIMIT


@pytest.mark.parametrize("name", list(CASES))
def test_simulated_mean_agrees_with_the_exact_ev(name):
    _check(name, ROUNDS, 25)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CASES))
def test_simulated_mean_agrees_with_the_exact_ev_long_run(name):
    _check(name, SLOW_ROUNDS, 2025)


def test_the_exact_recursion_gives_the_known_rule_effects():
    """Sanity of the test's own recursion, by signs it must show: a dealer 22 that pushes
    helps the dealer; a free double or split, player 21 wins and a bonus help the player;
    a rescue and a redouble are options the chart takes only where they help."""
    base = _exact(*CASES["classic"][0:1], {}, STANDARD, (1, 8))
    assert _exact(Rules(decks=math.inf), {"dealer_22_push": 1}, STANDARD, (1, 8)) < base
    for game, ranks in [({"free_double_totals": 3584}, (1, 8)),
                        ({"free_split_ranks": 1 << 8 | 2}, (1, 8)),
                        ({"player_21_wins": 1}, (1, 8)), ({"bonus_21": (2, 2, 2)}, (1, 8))]:
        assert _exact(Rules(decks=math.inf), game, STANDARD, ranks) > base


# ---- identities ------------------------------------------------------------------------------

def _sums(result):
    return (result.mean, result.sd, result.rounds, result.hands, result.shuffles)


@pytest.mark.parametrize("rules", [
    Rules(decks=6), Rules(decks=2, hole_card="enhc", surrender="late"),
    Rules(decks=1, hole_card="enhc-obo", double_any_cards=True, resplit_aces=True),
    Rules(decks=2, hole_card="exposed", dealer_wins_ties=True, hit_split_aces=True),
    Rules(decks=6, surrender="early", max_split_hands=3),
], ids=lambda r: r.describe())
def test_the_games_path_is_the_classic_game_when_its_rules_change_nothing(rules):
    """Redoubles and rescue with a player who always stands after a double, bonuses of 1:
    the games' code path (stakes, settlement) plays the classic game's rounds, with the
    same seed the same results bit for bit (cut card, count, splits, every hole-card
    procedure)."""
    chart = bjsolve.solve(rules).strategy
    kwargs = dict(rounds=200_000, seed=7, penetration=0.75, strategy=chart, ramp="1:1,2:2,3:4")
    classic = bjsolve.simulate(rules, **kwargs)
    same = bjsolve.simulate(rules, game_rules={"redoubles": 2, "double_rescue": 1,
                                               "bonus_21": (1, 1, 1), "bonus_678": (1, 1, 1),
                                               "bonus_after_split": 1}, **kwargs)
    assert check_rules(dict(kernel_rules(rules, 0), redoubles=2))["game"] == 1
    assert _sums(same) == _sums(classic)


def test_dealer_22_push_on_a_shoe_that_cannot_make_22_changes_nothing():
    """Ranks 1..5 only: the dealer never passes 21 (hard 16 + 5), so a 22 push changes no
    round: the same results as without it, bit for bit."""
    shoe = (8, 8, 8, 8, 8, 0, 0, 0, 0, 0)
    kwargs = dict(rounds=200_000, seed=3, shoe=shoe, penetration=30,
                  strategy=Chart((1, 3)))
    classic = bjsolve.simulate(Rules(decks=1), **kwargs)
    pushed = bjsolve.simulate(Rules(decks=1), game_rules={"dealer_22_push": 1}, **kwargs)
    assert _sums(pushed) == _sums(classic)


def test_suit_dependent_bonuses_leave_the_ranks_dealt_alone():
    """Suits come from their own generator: a super bonus of 1 (suits are drawn for every
    winning 7-7-7 against a 7, then paid 1 as any win) gives the classic results, the same
    seed bit for bit, on a shoe rich in 7s."""
    rules = Rules(decks=math.inf)
    kwargs = dict(rounds=300_000, seed=9, shoe=Shoe.infinite(SEVENS), strategy=Chart((1, 8)))
    classic = bjsolve.simulate(rules, **kwargs)
    suited = bjsolve.simulate(rules, game_rules={"super_bonus": 1.0}, **kwargs)
    assert _sums(suited) == _sums(classic)


# ---- the suits of a finite shoe ----------------------------------------------------------

def _sevens_mean(n, m, b, super_bonus=0.0):
    """A shoe of n sevens (m a suit): the player's 7,7 takes a 7 (21), the dealer's 7,7
    makes 21 too, and player 21 wins: every round pays the 7-7-7 bonus.  The player's
    three 7s are a uniform 3-subset of the sevens (exchangeable suits): one given suit
    with probability m(m-1)(m-2) / (n(n-1)(n-2))."""
    one = m * (m - 1) * (m - 2) / (n * (n - 1) * (n - 2))
    suited = b[1] if not super_bonus else super_bonus
    spades = b[2] if not super_bonus else super_bonus
    return (1 - 4 * one) * b[0] + 3 * one * suited + one * spades


@pytest.mark.parametrize("n, penetration, super_bonus", [(12, "every-round", 0.0),
                                                          (24, 12, 0.0), (16, 6, 40.0)])
def test_suits_of_a_finite_shoe_follow_the_exchangeable_law(n, penetration, super_bonus):
    shoe = (0,) * 6 + (n,) + (0,) * 3
    b = (1.5, 20.0, 60.0)

    def hit_to_21(cards, dealer, allowed):
        return "hit" if sum(cards) < 21 else "stand"
    result = bjsolve.simulate(Rules(decks=1), rounds=1_000_000, seed=4, shoe=shoe,
                              penetration=penetration, strategy=hit_to_21,
                              game_rules={"player_21_wins": 1, "bonus_777": b,
                                          "super_bonus": super_bonus})
    exact = _sevens_mean(n, n // 4, b, super_bonus)
    assert abs(result.mean - exact) <= Z_LIMIT * result.se


def test_a_suited_bonus_needs_a_shoe_whose_ranks_split_evenly_over_the_suits():
    with pytest.raises(ValueError, match="shoe: the suited bonuses .* 13 cards of rank 7"):
        bjsolve.simulate(Rules(decks=1), rounds=10, seed=1, shoe=(4,) * 6 + (13,) + (4, 4, 16),
                         game_rules={"bonus_777": (1, 2, 3)}, strategy=Chart(()))


# ---- the plan's decisions and bad input ----------------------------------------------------

def test_after_double_must_answer_among_the_allowed_choices():
    def bad(cards, dealer, allowed, split, doubles):
        return "hit"
    with pytest.raises(ValueError, match="after_double returned 'hit' for .* allowed: stand, "
                                         "redouble, rescue"):
        bjsolve.simulate(Rules(decks=math.inf), rounds=10, seed=1, strategy=Chart(()),
                         game_rules={"redoubles": 1, "double_rescue": 1}, after_double=bad)


@pytest.mark.parametrize("game_rules, error, match", [
    ({"redoubles": 1, "free_double_totals": 3584}, ValueError,
     "redoubles .* cannot go with free doubles or free splits"),
    ({"surrender": 1}, ValueError, "game_rules: unknown surrender"),
    ({"bonus_21": (1, 2)}, ValueError, "rules: bonus_21 must be three payouts"),
    ([("dealer_22_push", 1)], TypeError, "game_rules must be a mapping"),
])
def test_bad_game_rules_are_named(game_rules, error, match):
    with pytest.raises(error, match=match):
        bjsolve.simulate(Rules(decks=math.inf), rounds=10, seed=1, strategy=Chart(()),
                         game_rules=game_rules)


@pytest.mark.parametrize("game, want", [
    ({}, -8.0),                                   # four hands, each doubled: 2 each
    ({"free_double_totals": 1 << 10}, -4.0),      # each hand's double free: 1 each
    ({"free_split_ranks": 1 << 5}, -5.0),         # 2 + three free hands' paid doubles
    ({"free_split_ranks": 1 << 5, "free_double_totals": 1 << 10}, -1.0),
])
def test_free_splits_and_doubles_on_a_shoe_of_fives(game, want):
    """Fives only: 5,5 splits to four hands (forced resplits), each 5,5 = 10 doubles to 15
    against the dealer's 5,5,5,5 = 20, and every hand loses its own stake only: a paid
    double's 2, a free double's 1, a free hand's 0 (its paid double: 1)."""
    shoe = (0,) * 4 + (60,) + (0,) * 5
    result = bjsolve.simulate(Rules(decks=1), rounds=1000, seed=2, shoe=shoe, penetration=30,
                              strategy=Chart((5,)), game_rules=game)
    assert result.mean == want and result.sd == 0.0 and result.hands == 4000


def test_kernel_decision_kinds():
    """The table's kinds: 3 classic; a split ace's stand-or-double adds one; the
    after-double choices two per double a hand can make."""
    from bjcore import game_kinds
    assert game_kinds(0, False, False, False) == 3
    assert game_kinds(0, False, True, False) == 4
    assert game_kinds(0, False, True, True) == 3
    assert game_kinds(0, True, False, False) == 6
    assert game_kinds(3, False, False, False) == 12
    np.testing.assert_equal(game_kinds(3, True, True, False), 12)
