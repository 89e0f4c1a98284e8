"""Slow, exact, pure-Python reference for the games' rules (docs/games.md), a twin of the
game engine in the spirit of ``bjsolve._reference``.

``GameReferenceSolver`` is ``_reference.ReferenceSolver`` (the classic exact model: hand
values in contexts, the post-split classes, the split construction, the round assembly)
with every rule of the kernel rule dict's games' keys added, written from the rules'
statement in docs/games.md alone.  Exact Fractions, card removal on finite shoes, and the
infinite shoe.  ``brute_force_game_round`` plays one real round card by card (hole card
dealt first in the peek game) with a given policy, independently of the solver's formulas.

Keyword arguments (the games' keys of the kernel rule dict, in the same words; the
defaults are the classic game and give ``ReferenceSolver``'s values exactly):
``dealer_22_push``, ``free_double_totals`` and ``free_split_ranks`` (sets of totals /
ranks, not bit masks), ``player_21_wins``, ``bonus_21``, ``bonus_678``, ``bonus_777``,
``bonus_after_split``, ``super_bonus``, ``redoubles``, ``double_rescue``,
``double_split_aces``, ``diamond_blackjack_payout`` (None: none), ``charlie`` (0: none),
``rescue_after_redouble`` (the rescue still offered after a redouble; without it only a
hand doubled once may be rescued), ``surrender_any_time`` (late surrender after hitting
and on split hands too), ``bonus_21_at_once`` (a 21 of five or more cards wins at once),
and ``natural_always_wins`` (a player natural gets the blackjack payout against a dealer
natural: the kernels' ``natural_tie_value = blackjack_payout``).

The model
---------
A hand carries an own stake o (the player's money) and a free stake f (the house's): an
unsplit hand and a paid split hand start at (1, 0), a free split hand at (0, 1).  Standing,
it wins (o + f) x the payout multiplier (1, or a bonus), pushes 0, loses -o; a busted hand
loses -o.  A paid double turns (o, f) into (2o + f, f), a free double into (o, o + 2f); a
redouble doubles both; a rescue (surrender after doubling, before 21) gets -o0, o0 being
the own stake before the first double (against a no-hole-card dealer natural the hand is
settled as the doubled hand it was).

Dealer naturals follow the classic model's bookkeeping ("hole card last": the dealer's
second card is drawn after the player's cards, which gives the real game's unconditioned
values because the player's play never sees it): at every leaf of a hand (stand, bust,
rescue) the chance beta that the hole card completes a natural is settled as the natural's
payoff: in the peek and enhc-obo games -1 per hand (the split construction's kappa brings
a split round back to exactly -1 in total), in the enhc game -o (the natural takes every
own stake: free stakes cost nothing).  A dealer final total is 17..21, 22, or more than 22;
a dealer who must draw from an empty shoe busts with more than 22 (the classic degenerate
convention).

Split hands: the split construction of ``ReferenceSolver`` (forced resplits, the X and N
blocks) with one own hand and the others of the pair's kind.  The own hand is hand 1, the
first dealt and played: it is one of the hands that took a non-pair card before the limit
(an N hand) whenever some hand did (k >= 1), else an X hand; every other hand is of the new
kind.  Play: the post-split class's basis context (``ReferenceSolver._pick``) with the
hand's own stake kind, so a CDZ- free split hand plays as an unsplit hand of the same
cards whose stake were the house's would.  After a double, the decision among stand,
redouble and rescue is made the same way (first strictly best, in that order).

Bonus multiplier of a standing 21 (undoubled; on split hands only with bonus_after_split):
5, 6, 7+ cards: ``bonus_21``; 6-7-8: (60 b0 + 3 b1 + b2) / 64; 7-7-7: mixed 1 - 4q, suited
(not spades) 3q, spades q, q = m(m-1)(m-2) / (n(n-1)(n-2)), n the sevens of the whole shoe
the analysis shoe was dealt from (``full_sevens``; the analysis shoe's own if it holds
more), m = n/4 (infinite shoe: q = 1/64): the suits of the cards gone are unknown, so three
sevens dealt are three of the whole shoe's alike; the super bonus replaces the suited and spades
payouts (4q) on an unsplit hand against an upcard 7.

Super Fun 21: a natural pays (15 b + d) / 16 (both its cards diamonds with chance 1/16:
an ace and a ten, suits independent), and so does a tie paid as a natural.  A hand that
reaches ``charlie`` cards undoubled stops and wins (o + f) x its multiplier whatever the
dealer's total; the hole card's natural settles it as every leaf.  With
``bonus_21_at_once`` a 21 of five or more cards (undoubled) stops and wins at once in the
same way.  With ``surrender_any_time`` a hand after a hit, and a split hand at any of its
decisions (not split aces that stand on their card), may surrender: -o/2, the hole card's
natural settling it as every leaf (the surrender is void against it).
"""
from __future__ import annotations

import functools
import math
from fractions import Fraction

from ._reference import (
    _add,
    _check_shoe,
    _hand,
    _is_natural_cards,
    _is_natural_pair,
    _natural_tie_value,
    _ncards,
    _next_card,
    _remove,
    _remove_cards,
    _remove_hand,
    _total,
    brute_force_dealer,
    brute_force_peek,
    cards_total,
    next_card_draws,
    ACE,
    ONE,
    RANKS,
    ReferenceSolver,
    ShoeExhausted,
    TEN,
    U,
    ZERO,
)

__all__ = ["GameReferenceSolver", "brute_force_game_round", "game_policy", "ShoeExhausted",
           "DEALER_FINALS", "game_dealer_probabilities"]

OWN, FREE = "own", "free"
NO_BONUS = (1, 1, 1)
DEALER_FINALS = (17, 18, 19, 20, 21, 22, "bust", "blackjack")   # "bust": more than 22


# --------------------------------------------------------------------------------------------
# The dealer, with 22 kept apart from the other busts
# --------------------------------------------------------------------------------------------

def _dealer_final(hard, has_ace, h17):
    """The dealer's final total (17..21, 22, "bust") if the dealer stops, else None."""
    soft = has_ace and hard + 10 <= 21
    total = hard + 10 if soft else hard
    if total > 22:
        return "bust"
    if total == 22:
        return 22
    if total >= 18 or (total == 17 and not (soft and h17)):
        return total
    return None


_FINAL_INDEX = {17: 0, 18: 1, 19: 2, 20: 3, 21: 4, 22: 5, "bust": 6}


@functools.lru_cache(maxsize=400_000)
def _dealer_rest_scaled(shoe, hard, has_ace, h17):
    """|shoe|! times the final-total law (17..21, 22, bust) of a dealer holding hard sum
    ``hard`` and drawing from the finite ``shoe``: integers, one division at the end (as
    ``_reference`` does)."""
    out = [0] * 7
    final = _dealer_final(hard, has_ace, h17)
    size = sum(shoe)
    if final is not None:
        out[_FINAL_INDEX[final]] = math.factorial(size)
        return tuple(out)
    if size == 0:
        out[6] = 1          # must draw from an empty shoe: a bust (the convention), 0! = 1
        return tuple(out)
    for r in RANKS:
        n_r = shoe[r - 1]
        if n_r:
            sub = _dealer_rest_scaled(_remove(shoe, r), hard + r, has_ace or r == ACE, h17)
            for i in range(7):
                out[i] += n_r * sub[i]
    return tuple(out)


@functools.lru_cache(maxsize=None)
def _dealer_rest_infinite(hard, has_ace, h17):
    final = _dealer_final(hard, has_ace, h17)
    if final is not None:
        return {final: ONE}
    out: dict = {}
    for r, p in _next_card(None):
        for k, q in _dealer_rest_infinite(hard + r, has_ace or r == ACE, h17).items():
            out[k] = out.get(k, ZERO) + p * q
    return out


def _dealer_rest(shoe, hard, has_ace, h17):
    """{final: Fraction} of a dealer holding hard sum ``hard`` drawing from ``shoe`` (None:
    the infinite shoe)."""
    if shoe is None:
        return _dealer_rest_infinite(hard, has_ace, h17)
    scaled = _dealer_rest_scaled(shoe, hard, has_ace, h17)
    scale = math.factorial(sum(shoe))
    return {k: Fraction(scaled[i], scale) for k, i in _FINAL_INDEX.items() if scaled[i]}


@functools.lru_cache(maxsize=100_000)
def _dealer_law(shoe, cards, h17):
    return game_dealer_probabilities(shoe, cards, h17)


def game_dealer_probabilities(counts, dealer_cards, hit_soft_17=False):
    """{17..21, 22, "bust" (more than 22), "blackjack": Fraction} of a dealer holding
    ``dealer_cards`` (one upcard: the next card may make a natural) drawing from ``counts``
    (the dealer's cards already out; None: infinite shoe)."""
    shoe = _check_shoe(counts)
    cards = tuple(dealer_cards)
    out = dict.fromkeys(DEALER_FINALS, ZERO)
    if len(cards) == 2 and _is_natural_cards(cards):
        out["blackjack"] = ONE
        return out
    if len(cards) == 1 and cards[0] in (ACE, TEN):
        hole = TEN if cards[0] == ACE else ACE
        draws = _next_card(shoe)
        if not draws:
            out["bust"] = ONE
        for r, p in draws:
            if r == hole:
                out["blackjack"] += p
                continue
            rest = _dealer_rest(_remove(shoe, r), sum(cards) + r, True, bool(hit_soft_17))
            for k, q in rest.items():
                out[k] += p * q
        return out
    for k, q in _dealer_rest(shoe, sum(cards), ACE in cards, bool(hit_soft_17)).items():
        out[k] += q
    return out


# --------------------------------------------------------------------------------------------
# The solver
# --------------------------------------------------------------------------------------------

class GameReferenceSolver(ReferenceSolver):
    """``ReferenceSolver`` with the games' rules (module docstring).  Public methods are
    those of ``ReferenceSolver`` (values include the games' rules) plus
    ``game_action(cards, dealer, split_pair=None, extra=1, free=False, doubled=None)``,
    the action the solver's play takes in any state (for ``brute_force_game_round``)."""

    def __init__(self, counts, *, dealer_22_push=False, free_double_totals=(),
                 free_split_ranks=(), player_21_wins=False, bonus_21=NO_BONUS,
                 bonus_678=NO_BONUS, bonus_777=NO_BONUS, bonus_after_split=False,
                 super_bonus=0, redoubles=0, double_rescue=False, double_split_aces=False,
                 natural_always_wins=False, natural_loss="hole-card",
                 player_21_beats_natural=False, diamond_blackjack_payout=None, charlie=0,
                 rescue_after_redouble=False, surrender_any_time=False,
                 bonus_21_at_once=False, full_sevens=0, **classic):
        super().__init__(counts, **classic)
        if player_21_beats_natural and not (player_21_wins and self.hole_card == "enhc"):
            raise ValueError("player_21_beats_natural needs player_21_wins and hole_card "
                             "'enhc'")
        self.player_21_beats_natural = bool(player_21_beats_natural)
        if natural_loss not in ("hole-card", "obbo", "bb+1"):
            raise ValueError("natural_loss: 'hole-card', 'obbo' or 'bb+1'")
        if natural_loss != "hole-card" and self.hole_card != "enhc":
            raise ValueError("natural_loss: a rule of the no-hole-card game (hole_card='enhc')")
        if natural_loss == "bb+1" and self.max_split_hands > 1:
            raise ValueError("natural_loss='bb+1' is a sum over the hands only without "
                             "splitting (max_split_hands=1); brute_force_game_round plays it")
        self.natural_loss = natural_loss
        self.dealer_22_push = bool(dealer_22_push)
        self.free_double_totals = frozenset(free_double_totals)
        self.free_split_ranks = frozenset(free_split_ranks)
        if not self.free_double_totals <= set(range(4, 21)):
            raise ValueError("free_double_totals: hard totals 4..20")
        if not self.free_split_ranks <= set(RANKS):
            raise ValueError("free_split_ranks: ranks 1..10")
        self.player_21_wins = bool(player_21_wins)
        self.bonus_21 = tuple(Fraction(x) for x in bonus_21)
        self.bonus_678 = tuple(Fraction(x) for x in bonus_678)
        self.bonus_777 = tuple(Fraction(x) for x in bonus_777)
        self.bonus_after_split = bool(bonus_after_split)
        self.super_bonus = Fraction(super_bonus)
        if redoubles not in (0, 1, 2, 3):
            raise ValueError("redoubles: 0..3")
        if redoubles and (self.free_double_totals or self.free_split_ranks):
            raise ValueError("redoubles do not go with free_double_totals or free_split_ranks")
        if self.exposed and self.super_bonus:
            raise ValueError("the super bonus needs an upcard: not in the exposed game")
        self.redoubles = redoubles
        self.double_rescue = bool(double_rescue)
        # the rescue after a redouble: offered only with rescue_after_redouble
        self.rescue_after_redouble = bool(rescue_after_redouble)
        self.double_split_aces = bool(double_split_aces)
        if natural_always_wins:
            self._t = self.b
        elif self._t != _natural_tie_value(self.dealer_wins_ties, self.natural_tie, self.b):
            raise AssertionError
        if diamond_blackjack_payout is not None:
            # the natural's payout over its suits: both cards diamonds with chance 1/16; a
            # tie paid as a natural is paid the same way
            mixed = (15 * self.b + Fraction(diamond_blackjack_payout)) / 16
            if self._t == self.b:
                self._t = mixed
            self.b = mixed
        if charlie not in (0, 3, 4, 5, 6, 7, 8, 9, 10):
            raise ValueError("charlie: 0 or 3..10 cards")
        self.charlie = charlie
        if surrender_any_time and self.surrender != "late":
            raise ValueError("surrender_any_time extends late surrender: surrender='late'")
        if surrender_any_time and self.free_split_ranks:
            raise ValueError("surrender_any_time does not go with free_split_ranks")
        self.surrender_any_time = bool(surrender_any_time)
        self.bonus_21_at_once = bool(bonus_21_at_once)
        self.full_sevens = full_sevens
        self._q777 = self._suited_777_share()
        self._g = {}              # memo of the games' values

    # ---- the payouts ----------------------------------------------------------------------

    def _suited_777_share(self):
        """q: the chance that three 7s are all of one given suit (module docstring)."""
        if self.shoe is None:
            return Fraction(1, 64)
        return _suited_share(max(self.shoe[6], self.full_sevens))

    def _multiplier(self, ctx, hand, key):
        """What a winning undoubled 21 pays per unit of its stake (1 without a bonus)."""
        if ctx != U and not self.bonus_after_split:
            return ONE
        if _total(hand)[0] != 21:
            return ONE   # the bonuses pay 21s only: a winning 5-card 19 pays even money
        n = _ncards(hand)
        if n >= 5:
            return self.bonus_21[min(n, 7) - 5]
        if n == 3 and hand[5] == hand[6] == hand[7] == 1:
            b = self.bonus_678
            return (60 * b[0] + 3 * b[1] + b[2]) / 64
        if n == 3 and hand[6] == 3:
            q, b = self._q777, self.bonus_777
            if ctx == U and key == (7,) and self.super_bonus:
                return (1 - 4 * q) * b[0] + 4 * q * self.super_bonus
            return (1 - 4 * q) * b[0] + 3 * q * b[1] + q * b[2]
        return ONE

    def _charlie_leaf(self, ctx, hand, key, own, free):
        """A charlie (``charlie`` cards, not busted, not doubled): it wins at once whatever
        the dealer's total, paid (o + f) x the 21 bonus where one applies; a dealer natural
        (the hole card) settles it as every other leaf."""
        shoe = _remove_hand(self.shoe, self._removed(ctx, hand))
        d = _dealer_law(_remove_cards(shoe, key), tuple(key), self.hit_soft_17)
        win = (own + free) * self._multiplier(ctx, hand, key)
        return (1 - d["blackjack"]) * win + d["blackjack"] * self._natural_pay(own)

    def _natural_pay(self, own):
        """What a hand's leaf gets when the dealer's hole card makes a natural."""
        return -own if self.hole_card == "enhc" else -ONE

    def _leaf_beta(self, ctx, hand, key):
        return self._beta(self._context_shoe(ctx, hand, key), key)

    def _lost(self, ctx, hand, key, own):
        """A busted hand: it loses its own stake, unless (peek, enhc-obo) the dealer's
        natural makes the round cost one unit."""
        beta = self._leaf_beta(ctx, hand, key)
        return (1 - beta) * -own + beta * self._natural_pay(own)

    def _rescued(self, ctx, hand, key, own, own0):
        """A rescue: the original own stake ``own0`` is lost, unless the dealer has a
        natural: then the hand is settled as the doubled hand it was (peek, enhc-obo: the
        round costs one unit; enhc: the natural takes the doubled own stake ``own``).
        Under OBBO / BB+1 the rescue is settled at once: ``own0``, natural or not."""
        if self.natural_loss != "hole-card":
            return -own0
        beta = self._leaf_beta(ctx, hand, key)
        return (1 - beta) * -own0 + beta * self._natural_pay(own)

    def _stand_leaf(self, ctx, hand, key, own, free, bonus, natural_own=None):
        """A standing hand's value; ``natural_own``: the own stake a dealer natural takes
        (default ``own``; OBBO / BB+1: the stake before doubling)."""
        if natural_own is None:
            natural_own = own
        total, _ = _total(hand)
        shoe = _remove_hand(self.shoe, self._removed(ctx, hand))
        d = _dealer_law(_remove_cards(shoe, key), tuple(key), self.hit_soft_17)
        win = (own + free) * (self._multiplier(ctx, hand, key) if bonus else ONE)
        always = total == 21 and self.player_21_wins
        # (a 21 paid at once: a dealer natural turned later does not take it)
        natural_pay = (win if always and self.player_21_beats_natural
                       else self._natural_pay(natural_own))
        v = d["bust"] * win + d["blackjack"] * natural_pay
        v += d[22] * ((win if always else ZERO) if self.dealer_22_push else win)
        for k in (17, 18, 19, 20, 21):
            if always or total > k:
                v += d[k] * win
            elif total < k or self.dealer_wins_ties:
                v -= d[k] * own
        return v

    # ---- undoubled hands: stand, hit, double ----------------------------------------------

    def _value(self, ctx, hand, key, option):       # (ReferenceSolver's entry: own stakes)
        return self._gvalue(ctx, OWN, hand, key, option)

    def _gvalue(self, ctx, kind, hand, key, option):
        mkey = ("v", ctx, kind, hand, key, option)
        found = self._g.get(mkey)
        if found is not None:
            return found
        own, free = (ONE, ZERO) if kind == OWN else (ZERO, ONE)
        if option == "stand":
            if _total(hand)[0] > 21:
                raise ValueError("stand value of a busted hand")
            if ctx == U and _is_natural_pair(hand):
                beta = self._leaf_beta(ctx, hand, key)
                v = self.b * (1 - beta) + self._t * beta
            else:
                v = self._stand_leaf(ctx, hand, key, own, free, bonus=True)
        elif option == "hit":
            v = ZERO
            for r, p in _next_card(self._context_shoe(ctx, hand, key)):
                new = _add(hand, r)
                if _total(new)[0] > 21:
                    v += p * self._lost(ctx, new, key, own)
                else:
                    v += p * self._continuation_kind(ctx, kind, new, key)
        elif option == "surrender":
            # a later surrender (surrender_any_time): half the own stake, the hole card's
            # natural settling it as every leaf
            beta = self._leaf_beta(ctx, hand, key)
            v = (1 - beta) * -own / 2 + beta * self._natural_pay(own)
        elif option == "double":
            if self._double_kind(ctx, hand, check_das=False) == "free":
                stakes = (own, own + 2 * free)
            else:
                stakes = (2 * own + free, free)
            v = self._doubled_card(ctx, kind, hand, key, stakes, own, 1)
        else:
            raise ValueError(option)
        self._g[mkey] = v
        return v

    def _double_kind(self, ctx, hand, check_das=True):
        """"free", "paid" or None: how ``hand`` may double in context ``ctx``."""
        if check_das and ctx != U and not self.double_after_split:
            return None
        total, soft = _total(hand)
        if _ncards(hand) == 2 and not soft and total in self.free_double_totals:
            return "free"
        return "paid" if self._dbl(hand) else None

    # ---- doubled hands: the card, then stand, redouble or rescue ----------------------------

    def _doubled_card(self, ctx, kind, hand, key, stakes, own0, doubles):
        """The doubled hand (stakes ``(o, f)``, ``doubles`` doubles so far) takes its card."""
        mkey = ("d", ctx, kind, hand, key, stakes, own0, doubles)
        found = self._g.get(mkey)
        if found is not None:
            return found
        v = ZERO
        for r, p in _next_card(self._context_shoe(ctx, hand, key)):
            new = _add(hand, r)
            if _total(new)[0] > 21:
                v += p * self._lost(ctx, new, key, stakes[0])
            else:
                options = self._doubled_options(new, stakes, doubles)
                basis = self._basis(ctx)
                values = {o: self._doubled_value(basis, kind, new, key, stakes, own0, doubles, o)
                          for o in options}
                choice = self._first_best_of(options, values)
                v += p * self._doubled_value(ctx, kind, new, key, stakes, own0, doubles, choice)
        self._g[mkey] = v
        return v

    def _doubled_options(self, hand, stakes, doubles):
        options = ["stand"]
        if (doubles - 1 < self.redoubles and stakes[1] == 0 and _total(hand)[0] != 21):
            options.append("redouble")
        if (self.double_rescue and _total(hand)[0] != 21
                and (doubles == 1 or self.rescue_after_redouble)):
            options.append("rescue")
        return tuple(options)

    def _doubled_value(self, ctx, kind, hand, key, stakes, own0, doubles, option):
        own, free = stakes
        if option == "stand":
            natural_own = own if self.natural_loss == "hole-card" else own0
            return self._stand_leaf(ctx, hand, key, own, free, bonus=False,
                                    natural_own=natural_own)
        if option == "rescue":
            return self._rescued(ctx, hand, key, own, own0)
        return self._doubled_card(ctx, kind, hand, key, (2 * own, 2 * free), own0, doubles + 1)

    @staticmethod
    def _first_best_of(options, values):
        choice = options[0]
        for opt in options[1:]:
            if values[opt] > values[choice]:
                choice = opt
        return choice

    # ---- the play of later decisions ----------------------------------------------------------

    def _basis(self, ctx):
        """The context whose values decide in ``ctx``.  CDZ-: a split hand's own best on the
        shoe with only its own cards gone, valued as the split hand it is (the split hands'
        rules, a two-card ace-ten an ordinary 21), the games' convention (docs/games.md);
        the classic ReferenceSolver decides by the unsplit hand's values instead, where a
        split ace-ten is compared as a natural."""
        if ctx == U:
            return U
        if self.split_class == "CDZ-":
            return (ctx[0], 0)
        if self.split_class == "CDP" or ctx[1] == 1:
            return ctx
        return (ctx[0], 1)

    def _later_options(self, ctx, hand):
        if self._one_card_aces(ctx):
            dsa = self.double_split_aces and self._double_kind(ctx, hand) is not None
            return ("stand", "double") if dsa else ("stand",)
        later = ("surrender",) if self.surrender_any_time else ()
        if self._double_kind(ctx, hand) is not None:
            return ("stand", "hit", "double") + later
        return ("stand", "hit") + later

    def _wins_at_once(self, hand):
        """A charlie, or a 21 of five or more cards under bonus_21_at_once."""
        n = _ncards(hand)
        return bool((self.charlie and n >= self.charlie)
                    or (self.bonus_21_at_once and n >= 5 and _total(hand)[0] == 21))

    def _pick_kind(self, ctx, kind, hand, key):
        options = self._later_options(ctx, hand)
        if len(options) == 1:
            return options[0]
        basis = self._basis(ctx)
        values = {o: self._gvalue(basis, kind, hand, key, o) for o in options}
        return self._first_best_of(options, values)

    def _continuation_kind(self, ctx, kind, hand, key):
        if self._wins_at_once(hand):
            own, free = (ONE, ZERO) if kind == OWN else (ZERO, ONE)
            return self._charlie_leaf(ctx, hand, key, own, free)
        return self._gvalue(ctx, kind, hand, key, self._pick_kind(ctx, kind, hand, key))

    def _pick(self, ctx, hand, key):           # (ReferenceSolver's entry: own stakes)
        return self._pick_kind(ctx, OWN, hand, key)

    def _continuation(self, ctx, hand, key):
        return self._continuation_kind(ctx, OWN, hand, key)

    def _start_options(self, hand):
        opts = ["stand", "hit"]
        if self._double_kind(U, hand) is not None:
            opts.append("double")
        if self._is_splittable(hand):
            opts.append("split")
        if self.surrender != "none":
            opts.append("surrender")
        return tuple(opts)

    def fixed_strategy(self, counts):
        raise NotImplementedError("fixed strategies of the games are not in the reference")

    # ---- splitting ------------------------------------------------------------------------------

    def _split_hand_values(self, pair, key):
        """Hand 1 keeps the player's stake; the other hands of a free split rank play with
        the house's (ReferenceSolver's split construction does the rest)."""
        own_value, _ = super()._split_hand_values(pair, key)
        if pair not in self.free_split_ranks:
            return own_value, own_value

        def free_value(e, hand):
            return self._continuation_kind((pair, e), FREE, hand, key)
        return own_value, free_value

    # ---- the play, for the brute force ---------------------------------------------------------

    def game_action(self, cards, dealer, split_pair=None, extra=1, free=False, doubled=None):
        """The action this solver's play takes: ``cards`` the hand's ranks; ``split_pair``
        the pair rank of a split hand (None: the unsplit hand); ``free`` a free split hand;
        ``doubled``: None, or (own stake, free stake, original own stake, doubles so far)
        of a doubled hand that has taken its card."""
        hand = _hand(cards)
        key = self._key(dealer)
        ctx = U if split_pair is None else (split_pair, extra)
        kind = FREE if free else OWN
        if doubled is not None:
            own, fr, own0, doubles = (Fraction(x) for x in doubled)
            options = self._doubled_options(hand, (own, fr), doubles)
            basis = self._basis(ctx)
            values = {o: self._doubled_value(basis, kind, hand, key, (own, fr), own0,
                                             int(doubles), o) for o in options}
            return self._first_best_of(options, values)
        if ctx == U and len(cards) == 2:
            return self.best_action(cards, dealer)
        return self._pick_kind(ctx, kind, hand, key)


# --------------------------------------------------------------------------------------------
# Independent brute force: one real round of the games, card by card
# --------------------------------------------------------------------------------------------

def game_policy(solver):
    """A ``brute_force_game_round`` policy playing ``solver``'s (a GameReferenceSolver)
    own decisions (CDZ- or CDP1 split hands: ``extra`` does not matter)."""
    def policy(cards, dealer, allowed, state):
        action = solver.game_action(cards, dealer, split_pair=state["split_pair"],
                                    free=state["free"], doubled=state["doubled"])
        return action
    return policy


def brute_force_game_round(counts, upcard, player_cards, policy, *, hit_soft_17=False,
                           double="any", double_soft=True, double_any_cards=False,
                           double_after_split=True, max_split_hands=4, resplit_aces=False,
                           hit_split_aces=False, surrender="none", blackjack_payout=Fraction(3, 2),
                           hole_card="peek", dealer_wins_ties=False, natural_tie_value=ZERO,
                           dealer_22_push=False, free_double_totals=(), free_split_ranks=(),
                           player_21_wins=False, bonus_21=NO_BONUS, bonus_678=NO_BONUS,
                           bonus_777=NO_BONUS, bonus_after_split=False, super_bonus=0,
                           sevens=None, redoubles=0, double_rescue=False,
                           double_split_aces=False, natural_loss="hole-card",
                           player_21_beats_natural=False, diamond_blackjack_payout=None,
                           charlie=0, rescue_after_redouble=False, law=False,
                           infinite=False, surrender_any_time=False, bonus_21_at_once=False,
                           full_sevens=0):
    """Exact unconditioned EV of ONE real round of the games, every card sequence enumerated.

    ``counts``: the finite shoe with the player's two cards and the dealer's upcard removed.
    ``policy(cards, upcard, allowed, state)`` is asked at every decision; ``state`` holds
    ``split_pair`` (None or the pair rank), ``free`` (a free split hand) and ``doubled``
    (None, or (own, free, original own, doubles) of a doubled hand).  ``hole_card``: "peek"
    (the hole card is dealt at once and checked; a natural ends the round: a player natural
    gets ``natural_tie_value``, anything else -1) or "enhc" (the dealer's second card comes
    after the player; a natural takes every own stake still standing, a rescued hand's
    doubled own stake too, and voids a late surrender; ``natural_loss`` "obbo": it takes
    every busted hand's own stake, every other hand's own stake before doubling (a rescue
    was settled at once); "bb+1": the busted and rescued hands' as OBBO, and of the
    hands still standing one unit in all; ``player_21_beats_natural``: a 21 that always
    wins is paid at once, before the natural).  ``sevens``: the sevens of the analysis shoe, for the
    suits of 7-7-7 (None: the infinite shoe's 1/64), or ``full_sevens`` (those of the whole
    shoe it was dealt from) if more.  No formula of the solvers is used.
    ``law=True``: the round's law instead of its EV, a ``RoundLaw`` (exact chances of
    (dealer outcome, net result): the dealer outcome 17..21, 22, "bust" (over 22) or
    "natural"), every card dealt as in the real round, split hands included.
    ``infinite=True``: every card an independent draw with the chances ``counts`` are
    proportional to (the infinite shoe; no card leaves it).
    """
    shoe0 = _check_shoe(counts)
    b = Fraction(blackjack_payout)
    t_nat = Fraction(natural_tie_value)
    natural_amount, tie_options = b, None
    if diamond_blackjack_payout is not None:
        # an ace and a ten each a diamond with chance 1/4, independently (suits exchangeable)
        d = Fraction(diamond_blackjack_payout)
        t_d = d if t_nat == b else t_nat
        if law:      # the natural's two payouts apart
            if hole_card != "peek":
                raise ValueError("law=True with diamond naturals: the peek game only")
            natural_amount = ((Fraction(15, 16), b), (Fraction(1, 16), d))
            tie_options = ((Fraction(15, 16), t_nat), (Fraction(1, 16), t_d))
        else:
            b = natural_amount = (15 * b + d) / 16
            t_nat = (15 * t_nat + t_d) / 16
    first = tuple(player_cards)
    pair = first[0] if first[0] == first[1] else None
    limit = max_split_hands
    if pair == ACE and not resplit_aces:
        limit = min(limit, 2)
    new_free = pair in set(free_split_ranks)
    b21, b678, b777 = ([Fraction(x) for x in t] for t in (bonus_21, bonus_678, bonus_777))
    q = Fraction(1, 64) if sevens is None else _suited_share(max(sevens, full_sevens))

    total = cards_total

    def outcome(dealer_outcome, value):
        return RoundLaw({(dealer_outcome, value): ONE}) if law else value

    draws = next_card_draws
    if infinite:
        chances = [Fraction(c, sum(shoe0)) for c in shoe0]

        def draws(shoe):
            for r in RANKS:
                if chances[r - 1]:
                    yield r, chances[r - 1], shoe

    def double_kind(cards, split_hand):
        if split_hand and not double_after_split:
            return None
        t, soft = total(cards)
        if len(cards) == 2 and not soft and t in free_double_totals:
            return "free"
        if double == "9-11" and t not in (9, 10, 11) or double == "10-11" and t not in (10, 11):
            return None
        if soft and not double_soft:
            return None
        return "paid" if len(cards) == 2 or double_any_cards else None

    def multiplier(cards, split_hand):
        """A winning undoubled 21's payout per unit of stake."""
        if split_hand and not bonus_after_split:
            return ONE
        if total(cards)[0] != 21:
            return ONE   # the bonuses pay 21s only
        n = len(cards)
        if n >= 5:
            return b21[min(n, 7) - 5]
        if sorted(cards) == [6, 7, 8]:
            return (60 * b678[0] + 3 * b678[1] + b678[2]) / 64
        if sorted(cards) == [7, 7, 7]:
            if not split_hand and upcard == 7 and super_bonus:
                return (1 - 4 * q) * b777[0] + 4 * q * Fraction(super_bonus)
            return (1 - 4 * q) * b777[0] + 3 * q * b777[1] + q * b777[2]
        return ONE

    def multiplier_options(cards, split_hand):
        """``multiplier`` with the suits apart: ((chance, payout), ...)."""
        if split_hand and not bonus_after_split or total(cards)[0] != 21 or len(cards) != 3:
            return ((ONE, multiplier(cards, split_hand)),)
        if sorted(cards) == [6, 7, 8]:
            return tuple(zip((Fraction(60, 64), Fraction(3, 64), Fraction(1, 64)), b678))
        if sorted(cards) == [7, 7, 7]:
            if not split_hand and upcard == 7 and super_bonus:
                return ((1 - 4 * q, b777[0]), (4 * q, Fraction(super_bonus)))
            return ((1 - 4 * q, b777[0]), (3 * q, b777[1]), (q, b777[2]))
        return ((ONE, multiplier(cards, split_hand)),)

    def settled(hands, dealer_total):
        """The hands settled against the dealer's total; in law mode a hand whose win
        depends on its suits ((chance, amount) pairs) is settled for each suit."""
        if not law:
            return settle(hands, dealer_total)
        out = ZERO
        for i, (kind, t, own, amount, lost) in enumerate(hands):
            if isinstance(amount, tuple):
                for chance, one in amount:
                    rest = hands[:i] + ((kind, t, own, one, lost),) + hands[i + 1:]
                    out += chance * settled(rest, dealer_total)
                return out
        return outcome(dealer_total, settle(hands, dealer_total))

    # a finished hand: (kind, total, own stake, win amount, lost on a dealer natural)
    def settle(hands, dealer_total):
        win = ZERO
        for kind, t, own, amount, _ in hands:
            if kind in ("natural", "fixed", "rescued", "paid21", "charlie"):
                win += amount
            elif kind == "bust":
                win -= own
            elif t == 21 and player_21_wins:
                win += amount
            elif dealer_total == 22:
                win += ZERO if dealer_22_push else amount
            elif dealer_total == "bust" or t > dealer_total:
                win += amount
            elif t < dealer_total or dealer_wins_ties:
                win -= own
        return win

    def natural_settled(hands):
        """``natural_payoff`` as the round's result; in law mode a hand whose win depends
        on its suits (a 21 paid at once) is settled for each suit."""
        if law:
            for i, (kind, t, own, amount, lost) in enumerate(hands):
                if isinstance(amount, tuple):
                    out = ZERO
                    for chance, one in amount:
                        rest = hands[:i] + ((kind, t, own, one, lost),) + hands[i + 1:]
                        out += chance * natural_settled(rest)
                    return out
        return outcome("natural", natural_payoff(hands))

    def natural_payoff(hands):
        if hole_card == "peek":
            return t_nat if any(k == "natural" for k, *_ in hands) else -ONE
        paid = sum((amount for k, _, _, amount, _ in hands if k == "paid21"), ZERO)
        hands = [h for h in hands if h[0] != "paid21"]
        if natural_loss != "bb+1":
            return paid + sum((t_nat if k == "natural" else -lost
                               for k, _, _, _, lost in hands), ZERO)
        # BB+1: the busted (and rescued) bets, then one unit of what still stands
        pay, standing = ZERO, ZERO
        for k, _, own, _, lost in hands:
            if k == "natural":
                pay += t_nat
            elif k in ("bust", "rescued"):
                pay -= lost
            else:
                standing += own if k == "stand" else lost
        return paid + pay - min(ONE, standing)

    def dealer_stop(shoe, cards):
        """Where a dealer holding ``cards`` stops: 17..21, 22, or "bust" over 22 (None:
        draws); one who must draw from an empty shoe busts (the solvers' convention)."""
        t, soft = total(cards)
        if t > 22:
            return "bust"
        if t == 22:
            return 22
        if t >= 18 or (t == 17 and not (soft and hit_soft_17)):
            return t
        return "bust" if sum(shoe) == 0 else None

    dealer_final = brute_force_dealer(dealer_stop, draws)

    def dealer_phase(shoe, hands, hole):
        ev = ZERO
        if hole is None:   # enhc: the second card now
            if sum(shoe) == 0:
                return settled(hands, "bust")
            for r, p, rest in draws(shoe):
                if _is_natural_cards((upcard, r)):
                    ev += p * natural_settled(hands)
                else:
                    for k, w in dealer_final(rest, (upcard, r)).items():
                        ev += p * w * settled(hands, k)
            return ev
        for k, w in dealer_final(shoe, (upcard, hole)).items():
            ev += w * settled(hands, k)
        return ev

    memo = {}

    def finish(shoe, done, waiting, nhands, hole):
        done = tuple(sorted(done, key=repr))
        if waiting == 0:
            return dealer_phase(shoe, done, hole)
        return deal_second(shoe, done, waiting - 1, nhands, hole, new_free)

    def deal_second(shoe, done, waiting, nhands, hole, free):
        key = ("second", shoe, done, waiting, nhands, hole, free)
        if key in memo:
            return memo[key]
        ev = ZERO
        for r, p, rest in draws(shoe):
            if r == pair and nhands < limit:
                ev += p * deal_second(rest, done, waiting + 1, nhands + 1, hole, free)
            else:
                ev += p * decide(rest, (pair, r), free, True, done, waiting, nhands, hole)
        memo[key] = ev
        return ev

    def stand(shoe, cards, own, fr, bonus, split_hand, done, waiting, nhands, hole,
              lost=None):
        t, _ = total(cards)
        amount = (own + fr) * (multiplier(cards, split_hand) if bonus else ONE)
        if law and bonus:
            options = multiplier_options(cards, split_hand)
            if len(options) > 1:
                amount = tuple((chance, (own + fr) * m) for chance, m in options)
        lost = own if lost is None else lost
        kind = "paid21" if t == 21 and player_21_wins and player_21_beats_natural else "stand"
        return finish(shoe, done + ((kind, t, own, amount, lost),), waiting, nhands, hole)

    def decide(shoe, cards, free, split_hand, done, waiting, nhands, hole):
        key = ("decide", shoe, cards, free, split_hand, done, waiting, nhands, hole)
        if key in memo:
            return memo[key]
        own, fr = (ZERO, ONE) if free else (ONE, ZERO)
        if ((charlie and len(cards) >= charlie)
                or (bonus_21_at_once and len(cards) >= 5 and total(cards)[0] == 21)):
            # a charlie (or a 21 of five or more cards paid at once): it wins at once (a later no-hole-card natural takes its own stake)
            amount = (own + fr) * multiplier(cards, split_hand)
            if law and len(multiplier_options(cards, split_hand)) > 1:
                amount = tuple((chance, (own + fr) * m)
                               for chance, m in multiplier_options(cards, split_hand))
            ev = finish(shoe, done + (("charlie", 0, own, amount, own),), waiting, nhands, hole)
            memo[key] = ev
            return ev
        start = not split_hand and len(cards) == 2
        one_card_aces = split_hand and pair == ACE and not hit_split_aces
        kind = double_kind(cards, split_hand)
        if one_card_aces:
            allowed = ("stand", "double") if double_split_aces and kind else ("stand",)
        else:
            allowed = ("stand", "hit") + (("double",) if kind else ())
        if start:
            if pair is not None and limit >= 2:
                allowed += ("split",)
            if surrender != "none":
                allowed += ("surrender",)
        elif surrender_any_time and not one_card_aces:
            allowed += ("surrender",)     # after hitting, and on split hands
        state = {"split_pair": pair if split_hand else None, "free": free, "doubled": None}
        action = policy(cards, upcard, allowed, state) if len(allowed) > 1 else "stand"
        if action not in allowed:
            raise ValueError(f"policy chose {action!r}, allowed {allowed}")
        if action == "stand":
            ev = stand(shoe, cards, own, fr, True, split_hand, done, waiting, nhands, hole)
        elif action == "surrender" and not start:
            # half the hand's own stake; a later no-hole-card natural voids it
            ev = finish(shoe, done + (("fixed", 0, own, -own / 2, own),), waiting, nhands,
                        hole)
        elif action == "surrender":
            lost = Fraction(1, 2) if surrender == "early" else ONE
            ev = finish(shoe, done + (("fixed", 0, ONE, Fraction(-1, 2), lost),), waiting,
                        nhands, hole)
        elif action == "split":
            ev = deal_second(shoe, done, 1, 2, hole, False)
        elif action == "double":
            stakes = (own, own + 2 * fr) if kind == "free" else (2 * own + fr, fr)
            ev = doubled(shoe, cards, stakes, own, 1, free, split_hand, done, waiting, nhands,
                         hole)
        else:
            ev = ZERO
            for r, p, rest in draws(shoe):
                new = cards + (r,)
                if total(new)[0] > 21:
                    ev += p * finish(rest, done + (("bust", 0, own, ZERO, own),), waiting,
                                     nhands, hole)
                else:
                    ev += p * decide(rest, new, free, split_hand, done, waiting, nhands, hole)
        memo[key] = ev
        return ev

    def doubled(shoe, cards, stakes, own0, doubles, free, split_hand, done, waiting, nhands,
                hole):
        own, fr = stakes
        ev = ZERO
        for r, p, rest in draws(shoe):
            new = cards + (r,)
            t, _ = total(new)
            if t > 21:
                ev += p * finish(rest, done + (("bust", 0, own, ZERO, own),), waiting, nhands,
                                 hole)
                continue
            allowed = ("stand",)
            if doubles - 1 < redoubles and fr == 0 and t != 21:
                allowed += ("redouble",)
            if double_rescue and t != 21 and (doubles == 1 or rescue_after_redouble):
                allowed += ("rescue",)
            state = {"split_pair": pair if split_hand else None, "free": free,
                     "doubled": (own, fr, own0, doubles)}
            action = policy(new, upcard, allowed, state) if len(allowed) > 1 else "stand"
            if action not in allowed:
                raise ValueError(f"policy chose {action!r}, allowed {allowed}")
            # (OBBO / BB+1: a natural takes a standing hand's stake before doubling; a
            # rescue is settled at once)
            natural_own = own if natural_loss == "hole-card" else own0
            if action == "stand":
                ev += p * stand(rest, new, own, fr, False, split_hand, done, waiting, nhands,
                                hole, lost=natural_own)
            elif action == "rescue":
                # a later dealer natural (enhc) settles it as the doubled hand it was
                ev += p * finish(rest, done + (("rescued", 0, own0, -own0, natural_own),),
                                 waiting, nhands, hole)
            else:
                ev += p * doubled(rest, new, (2 * own, 2 * fr), own0, doubles + 1, free,
                                  split_hand, done, waiting, nhands, hole)
        return ev

    def play(shoe, hole):
        if _is_natural_cards(first):
            return finish(shoe, (("natural", 21, ONE, natural_amount, ZERO),), 0, 1, hole)
        return decide(shoe, first, False, False, (), 0, 1, hole)

    if hole_card == "enhc":
        return play(shoe0, None)
    if hole_card != "peek":
        raise ValueError("hole_card: 'peek' or 'enhc'")
    if surrender == "early":
        raise ValueError("the brute force plays late surrender or none")

    def dealer_natural(natural):
        """The round against a dealer natural; ``natural``: the player has one."""
        if tie_options is not None and natural:
            return sum((chance * outcome("natural", tie) for chance, tie in tie_options), ZERO)
        return outcome("natural", t_nat if natural else -ONE)

    return brute_force_peek(shoe0, upcard, first, dealer_natural, play, draws)


class RoundLaw:
    """An exact law {(dealer outcome, net result): chance} that adds and scales like a
    number, so that ``brute_force_game_round`` sums laws where it sums values."""

    def __init__(self, chances):
        self.chances = dict(chances)

    def __add__(self, other):
        if isinstance(other, RoundLaw):
            out = dict(self.chances)
            for k, p in other.chances.items():
                out[k] = out.get(k, ZERO) + p
            return RoundLaw(out)
        if other == 0:
            return self
        return NotImplemented

    __radd__ = __add__

    def __mul__(self, w):
        return RoundLaw({k: w * p for k, p in self.chances.items()})

    __rmul__ = __mul__

    def mean(self):
        return sum((p * v for (_, v), p in self.chances.items()), ZERO)


def _suited_share(n):
    """q of ``n`` sevens, four suits alike (the module docstring)."""
    if n < 3:
        return ZERO
    m = Fraction(n) / 4
    return m * (m - 1) * (m - 2) / (n * (n - 1) * (n - 2))


def reference_kwargs(rules) -> dict:
    """``GameReferenceSolver`` keyword arguments of a ``bjsolve.Rules`` (exact Fractions of
    its payouts), for tests that compare the engine with this reference."""
    def exact(x):
        return Fraction(x).limit_denominator(10**6) if float(Fraction(x).limit_denominator(
            10**6)) == x else Fraction(x)

    return dict(
        hit_soft_17=rules.hit_soft_17, double=rules.double, double_soft=rules.double_soft,
        double_any_cards=rules.double_any_cards, double_after_split=rules.double_after_split,
        max_split_hands=rules.max_split_hands, resplit_aces=rules.resplit_aces,
        hit_split_aces=rules.hit_split_aces, surrender=rules.surrender,
        blackjack_payout=exact(rules.blackjack_payout), hole_card=rules.hole_card,
        dealer_wins_ties=rules.dealer_wins_ties, natural_tie=rules.natural_tie,
        natural_always_wins=rules.natural_always_wins,
        dealer_22_push=rules.dealer_22 == "push",
        free_double_totals=frozenset(rules.free_doubles),
        free_split_ranks=frozenset(rules.free_splits),
        player_21_wins=rules.player_21_wins,
        bonus_21=tuple(exact(x) for x in rules.bonus_21),
        bonus_678=tuple(exact(x) for x in rules.bonus_678),
        bonus_777=tuple(exact(x) for x in rules.bonus_777),
        bonus_after_split=rules.bonus_after_split, super_bonus=exact(rules.super_bonus),
        redoubles=rules.redoubles, double_rescue=rules.double_rescue,
        double_split_aces=rules.double_split_aces, natural_loss=rules.natural_loss,
        player_21_beats_natural=rules.player_21_beats_natural,
        diamond_blackjack_payout=(None if rules.diamond_blackjack_payout is None
                                  else exact(rules.diamond_blackjack_payout)),
        charlie=rules.charlie,
        rescue_after_redouble=rules.rescue_after_redouble,
        surrender_any_time=rules.surrender_any_time,
        bonus_21_at_once=rules.bonus_21_at_once)
