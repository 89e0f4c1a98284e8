"""Slow, exact, pure-Python reference ("twin") of the bjsolve analyzer.

This module evaluates the formulas of ``/work/shared/DESIGN-exact.md`` (sections 1-8) literally,
with :class:`fractions.Fraction` everywhere and no numerical shortcuts.  It exists so that the
fast engine can be tested against an implementation that is easy to read and check by eye.
Clarity beats speed; memoisation (dicts keyed by card compositions) is the only optimisation.

Conventions
-----------
* Ranks are ints 1..10 (1 = ace, 10 = any ten-valued card).
* A shoe is a tuple of 10 non-negative ints ``counts`` (index 0 = aces ... index 9 = tens), or
  ``None`` for an infinite shoe (rank probabilities 1/13 each, 4/13 for the ten; removing cards
  never changes them).
* A hand is also a 10-tuple of counts (a multiset of ranks); public methods take tuples of ranks.
* "Unconditioned" values include the rounds in which the dealer has a natural; "conditioned"
  values are given that the dealer has no natural (what the player sees after the peek).

Public API
----------
``dealer_probabilities(counts, dealer_cards, hit_soft_17=False) -> dict``   (section 2)
``class ReferenceSolver`` (sections 3-7; ``fixed_strategy`` is section 8; see its docstring)
``brute_force_round_ev(counts, upcard, player_cards, policy, ...) -> Fraction``: an independent
    card-by-card enumeration of one real round (used to check the split construction).
``ShoeExhausted``: raised by the brute force when a path would need a card from an empty shoe.
``clear_caches()``: drop the module-level dealer memo.

Degenerate tiny-shoe conventions (not specified by DESIGN section 3): when the shoe left after a
hand and the upcard is empty, the next-card distribution is empty (every sum over it is 0) and
beta = 0.  A dealer who must draw from an empty shoe busts (DESIGN section 2).  In such shoes
the model no longer describes a real game (the brute force refuses them).
"""

import functools
import math
from fractions import Fraction

__all__ = [
    "RANKS",
    "DEALER_OUTCOMES",
    "dealer_probabilities",
    "ReferenceSolver",
    "brute_force_round_ev",
    "ShoeExhausted",
    "clear_caches",
    "hand_total",
]

RANKS = tuple(range(1, 11))
ACE, TEN = 1, 10
DEALER_OUTCOMES = (17, 18, 19, 20, 21, "bust", "blackjack")
OPTION_ORDER = ("stand", "hit", "double", "split", "surrender")  # section 4 (ties: earlier)

# Infinite shoe: 1/13 for each rank, 4/13 for the ten.
_INFINITE_PROBS = tuple(Fraction(4 if r == TEN else 1, 13) for r in RANKS)

ONE = Fraction(1)
ZERO = Fraction(0)


# --------------------------------------------------------------------------------------------
# Small helpers on shoes and hands
# --------------------------------------------------------------------------------------------

def _check_shoe(counts):
    if counts is None:
        return None
    counts = tuple(int(c) for c in counts)
    if len(counts) != 10 or any(c < 0 for c in counts):
        raise ValueError("a shoe is a tuple of 10 non-negative counts (aces first, tens last)")
    return counts


def _size(shoe):
    return sum(shoe)


def _remove(shoe, rank, k=1):
    """Shoe minus k cards of ``rank`` (an infinite shoe is unchanged). Raises if unavailable."""
    if shoe is None:
        return None
    if shoe[rank - 1] < k:
        raise ValueError(f"cannot remove {k} card(s) of rank {rank} from {shoe}")
    lst = list(shoe)
    lst[rank - 1] -= k
    return tuple(lst)


def _remove_hand(shoe, hand):
    """Shoe minus every card of the count vector ``hand``. Raises if unavailable."""
    if shoe is None:
        return None
    lst = [s - h for s, h in zip(shoe, hand)]
    if any(c < 0 for c in lst):
        raise ValueError(f"hand {hand} is not contained in shoe {shoe}")
    return tuple(lst)


def _contains(shoe, hand):
    return shoe is None or all(s >= h for s, h in zip(shoe, hand))


def _next_card(shoe):
    """The next card's distribution: list of (rank, probability) over ranks with probability > 0.

    Empty for an exhausted finite shoe.
    """
    if shoe is None:
        return [(r, _INFINITE_PROBS[r - 1]) for r in RANKS]
    total = _size(shoe)
    if total == 0:
        return []
    return [(r, Fraction(shoe[r - 1], total)) for r in RANKS if shoe[r - 1] > 0]


def _share(shoe, rank):
    """Probability that the next card is ``rank`` (0 for an exhausted finite shoe)."""
    if shoe is None:
        return _INFINITE_PROBS[rank - 1]
    total = _size(shoe)
    if total == 0:
        return ZERO
    return Fraction(shoe[rank - 1], total)


def _hand(cards):
    """Count vector of a tuple of ranks."""
    counts = [0] * 10
    for r in cards:
        if r not in RANKS:
            raise ValueError(f"bad rank {r!r}; ranks are ints 1..10")
        counts[r - 1] += 1
    return tuple(counts)


def _add(hand, rank):
    lst = list(hand)
    lst[rank - 1] += 1
    return tuple(lst)


def _ncards(hand):
    return sum(hand)


def _total(hand):
    """(total, soft) of a count vector: soft iff it holds an ace and hard sum + 10 <= 21."""
    hard = sum(r * c for r, c in zip(RANKS, hand))
    if hand[ACE - 1] >= 1 and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def hand_total(cards):
    """(total, soft) of a tuple of ranks."""
    return _total(_hand(cards))


def _is_natural_pair(hand):
    """Exactly the two cards A + T."""
    return _ncards(hand) == 2 and hand[ACE - 1] == 1 and hand[TEN - 1] == 1


def _hole_rank(upcard):
    """The hole-card rank completing a dealer natural, or None."""
    return {ACE: TEN, TEN: ACE}.get(upcard)


def _falling(x, k):
    """Falling factorial x^(k) = x (x-1) ... (x-k+1), x^(0) = 1."""
    out = 1
    for i in range(k):
        out *= x - i
    return out


def _sgn(x):
    return (x > 0) - (x < 0)


# --------------------------------------------------------------------------------------------
# Section 2: dealer outcome distribution (recursion over ordered draws without replacement)
# --------------------------------------------------------------------------------------------

def _dealer_stands(hard, has_ace, h17):
    """The dealer's rule for a (non-natural) hand of hard sum ``hard``: its final outcome
    (17..21 or "bust") if the dealer stops, None if the dealer must take a card."""
    soft = has_ace and hard + 10 <= 21
    total = hard + 10 if soft else hard
    if total > 21:
        return "bust"
    if total >= 18 or (total == 17 and not (soft and h17)):
        return total
    return None  # must take a card


def _dealer_probabilities_naive(counts, dealer_cards, hit_soft_17=False):
    """The literal definition of section 2, without any memo (slow; for cross-checks).

    Enumerates every ordered draw sequence r_1..r_k and adds its probability
    prod_j (n'_{r_j} - #{i < j: r_i = r_j}) / (|n'| - j + 1) to the outcome it ends in.
    """
    shoe = _check_shoe(counts)
    dealer_cards = tuple(dealer_cards)
    dist = dict.fromkeys(DEALER_OUTCOMES, ZERO)

    def walk(shoe, cards, prob):
        if len(cards) == 2 and len(dealer_cards) <= 2 and sorted(cards) == [ACE, TEN]:
            dist["blackjack"] += prob
            return
        outcome = _dealer_stands(sum(cards), ACE in cards, hit_soft_17)
        if outcome is not None:
            dist[outcome] += prob
            return
        draws = _next_card(shoe)
        if not draws:
            dist["bust"] += prob  # must draw from an exhausted shoe: counts as a bust
        for r, p in draws:
            walk(_remove(shoe, r), cards + (r,), prob * p)

    walk(shoe, dealer_cards, ONE)
    return dist


# The fast (but still exact and literal) form of the same recursion, for a finite shoe.
# For a dealer state holding hard sum ``hard`` (ace held iff ``has_ace``) and drawing from a shoe
# of s cards, let D(state) be the final-total distribution (17, 18, 19, 20, 21, bust).  Section 2
# says D(state) = sum_r (n_r / s) D(state + r).  Multiplying by s! gives the integer recursion
#     s! D(state) = sum_r n_r * ((s - 1)! D(state + r)),
# with s! D = s! * (unit vector) at a standing state.  So we recurse on the integer vectors
# s! D (no Fraction arithmetic inside the recursion) and divide by s! once at the top.
# The dealer's future depends only on (cards left, hard sum, ace held), hence the memo key.
_DEALER_MEMO = {}
_DEALER_MEMO_LIMIT = 1_500_000  # forget everything beyond this many entries (bounds memory)
_OUTCOME_INDEX = {17: 0, 18: 1, 19: 2, 20: 3, 21: 4, "bust": 5}


def clear_caches():
    """Forget the module-level dealer memo (it can grow large after a full-shoe solve)."""
    _DEALER_MEMO.clear()


def _dealer_rest_scaled(shoe, hard, has_ace, h17):
    """|shoe|! times the final-total distribution (17..21, bust) of a dealer holding a
    non-natural hand (hard sum ``hard``, ace held iff ``has_ace``) and drawing from ``shoe``."""
    size = _size(shoe)
    out = [0] * 6
    outcome = _dealer_stands(hard, has_ace, h17)
    if outcome is not None:
        out[_OUTCOME_INDEX[outcome]] = math.factorial(size)
        return tuple(out)
    if size == 0:
        out[5] = 1  # must draw from an exhausted shoe: the missing mass counts as bust (0! = 1)
        return tuple(out)
    key = (shoe, hard, has_ace, h17)
    found = _DEALER_MEMO.get(key)
    if found is not None:
        return found
    child_scale = math.factorial(size - 1)
    for r in RANKS:
        n_r = shoe[r - 1]
        if not n_r:
            continue
        child_hard, child_ace = hard + r, has_ace or r == ACE
        child_outcome = _dealer_stands(child_hard, child_ace, h17)
        if child_outcome is not None:
            # The dealer stops after this card: (s-1)! times a unit vector.
            out[_OUTCOME_INDEX[child_outcome]] += n_r * child_scale
        else:
            sub = _dealer_rest_scaled(_remove(shoe, r), child_hard, child_ace, h17)
            for i in range(6):
                out[i] += n_r * sub[i]
    result = tuple(out)
    if len(_DEALER_MEMO) >= _DEALER_MEMO_LIMIT:
        _DEALER_MEMO.clear()
    _DEALER_MEMO[key] = result
    return result


@functools.lru_cache(maxsize=None)
def _dealer_rest_infinite(hard, has_ace, h17):
    """Final-total distribution (17..21, bust) drawing from the infinite shoe."""
    outcome = _dealer_stands(hard, has_ace, h17)
    out = [ZERO] * 6
    if outcome is not None:
        out[_OUTCOME_INDEX[outcome]] = ONE
    else:
        for r, p in _next_card(None):
            sub = _dealer_rest_infinite(hard + r, has_ace or r == ACE, h17)
            for i in range(6):
                out[i] += p * sub[i]
    return tuple(out)


def dealer_probabilities(counts, dealer_cards, hit_soft_17=False):
    """Dealer outcome distribution, DESIGN section 2.

    ``counts``: the shoe the dealer draws from, with ``dealer_cards`` ALREADY removed (or None
    for an infinite shoe).  ``dealer_cards``: tuple of ranks the dealer already holds (the upcard
    alone, or several cards).  Returns {17, 18, 19, 20, 21, "bust", "blackjack": Fraction},
    summing to exactly 1.  "blackjack" is the natural: the upcard and the first drawn card are
    A + T (or ``dealer_cards`` is exactly those two cards); it is kept apart from 21.
    """
    shoe = _check_shoe(counts)
    dealer_cards = tuple(dealer_cards)
    if not dealer_cards:
        raise ValueError("dealer_cards must hold at least the upcard")
    for r in dealer_cards:
        if r not in RANKS:
            raise ValueError(f"bad rank {r!r}")
    h17 = bool(hit_soft_17)
    hard = sum(dealer_cards)
    has_ace = ACE in dealer_cards

    dist = dict.fromkeys(DEALER_OUTCOMES, ZERO)
    if len(dealer_cards) == 2 and sorted(dealer_cards) == [ACE, TEN]:
        dist["blackjack"] = ONE
        return dist
    natural_possible = len(dealer_cards) == 1
    hole = _hole_rank(dealer_cards[0]) if natural_possible else None

    if shoe is None:
        # Infinite shoe: the same recursion with constant probabilities (Fractions).
        if natural_possible:
            rest = [ZERO] * 6
            for r, p in _next_card(None):
                if r == hole:
                    dist["blackjack"] += p
                    continue
                sub = _dealer_rest_infinite(hard + r, has_ace or r == ACE, h17)
                for i in range(6):
                    rest[i] += p * sub[i]
        else:
            rest = _dealer_rest_infinite(hard, has_ace, h17)
        for k, i in _OUTCOME_INDEX.items():
            dist[k] += rest[i]
    else:
        # Finite shoe of s cards: work with s! times the distribution (integers), divide once.
        size = _size(shoe)
        scale = math.factorial(size)
        if natural_possible:
            # The first draw decides the natural; otherwise the dealer goes on drawing.
            rest = [0] * 6
            natural = 0
            if size == 0:
                rest[5] = 1  # not even a hole card: the missing mass counts as a bust
            for r in RANKS:
                n_r = shoe[r - 1]
                if not n_r:
                    continue
                if r == hole:
                    natural += n_r * math.factorial(size - 1)
                    continue
                sub = _dealer_rest_scaled(_remove(shoe, r), hard + r, has_ace or r == ACE, h17)
                for i in range(6):
                    rest[i] += n_r * sub[i]
            dist["blackjack"] = Fraction(natural, scale)
        else:
            rest = _dealer_rest_scaled(shoe, hard, has_ace, h17)
        for k, i in _OUTCOME_INDEX.items():
            dist[k] = Fraction(rest[i], scale)
    assert sum(dist.values()) == 1
    return dist


# --------------------------------------------------------------------------------------------
# Sections 3-7: the solver
# --------------------------------------------------------------------------------------------

U = "U"  # the context of an unsplit hand; a split hand's context is the pair (P, e)


class ReferenceSolver:
    """Exact solver following DESIGN-exact.md sections 3-8 literally.

    ``ReferenceSolver(counts, *, hit_soft_17=False, double="any", double_soft=True,
    double_any_cards=False, double_after_split=True, max_split_hands=4, resplit_aces=False,
    late_surrender=False, blackjack_payout=Fraction(3, 2), split="CDZ-")``

    ``counts`` is the analysis shoe S (nothing removed) or None (infinite shoe).
    ``double``: "any" (DOA), "9-11" (D9) or "10-11" (D10).  ``split``: "CDZ-", "CDP1" or "CDP"
    (the post-split strategy class, section 6.3).  All values are exact Fractions.

    Public methods (cards are tuples of ranks, upcards are ranks):
    ``dealer(upcard)``, ``hand_values(cards, upcard)`` (conditioned on no dealer natural),
    ``hand_values_unconditioned(cards, upcard)``, ``split_ev(pair_rank, upcard,
    conditioned=True)``, ``ev_by_upcard()``, ``round_ev()``, ``best_action(cards, upcard)``,
    ``post_split_action(pair_rank, cards, upcard, extra=1)`` (sigma on a split hand) and
    ``fixed_strategy(counts)`` (section 8: a solver for a depleted shoe playing these frozen
    decisions; ``.round_ev()`` of it is E_fixed).
    """

    def __init__(self, counts, *, hit_soft_17=False, double="any", double_soft=True,
                 double_any_cards=False, double_after_split=True, max_split_hands=4,
                 resplit_aces=False, late_surrender=False, blackjack_payout=Fraction(3, 2),
                 split="CDZ-"):
        self.shoe = _check_shoe(counts)
        if double not in ("any", "9-11", "10-11"):
            raise ValueError("double must be 'any', '9-11' or '10-11'")
        if split not in ("CDZ-", "CDP1", "CDP"):
            raise ValueError("split must be 'CDZ-', 'CDP1' or 'CDP'")
        if max_split_hands not in (1, 2, 3, 4):
            raise ValueError("max_split_hands must be 1, 2, 3 or 4")
        self.hit_soft_17 = bool(hit_soft_17)
        self.double = double
        self.double_soft = bool(double_soft)
        self.double_any_cards = bool(double_any_cards)
        self.double_after_split = bool(double_after_split)
        self.max_split_hands = max_split_hands
        self.resplit_aces = bool(resplit_aces)
        self.late_surrender = bool(late_surrender)
        self.b = Fraction(blackjack_payout)
        self.split_class = split
        self._rules = dict(hit_soft_17=hit_soft_17, double=double, double_soft=double_soft,
                           double_any_cards=double_any_cards,
                           double_after_split=double_after_split,
                           max_split_hands=max_split_hands, resplit_aces=resplit_aces,
                           late_surrender=late_surrender, blackjack_payout=blackjack_payout,
                           split=split)
        self._frozen = None       # section 8: the S0 solver whose decisions are frozen, if any
        self._dealer_cache = {}   # (shoe containing the upcard, upcard) -> dealer dict
        self._values = {}         # (context, hand, upcard, option) -> Fraction
        self._splits = {}         # (P, upcard) -> unconditioned split EV

    # ---- shoes ------------------------------------------------------------------------------

    def _count(self, rank):
        """S_r, the number of cards of ``rank`` in the analysis shoe (None if infinite)."""
        return None if self.shoe is None else self.shoe[rank - 1]

    def _removed(self, ctx, hand):
        """R_c(h): the hand plus the e extra pair cards of a split context."""
        if ctx == U:
            return hand
        pair, e = ctx
        lst = list(hand)
        lst[pair - 1] += e
        return tuple(lst)

    def _context_shoe(self, ctx, hand, upcard):
        """n' = S - R_c(h) - [u]: the shoe the hand and the dealer draw from."""
        return _remove(_remove_hand(self.shoe, self._removed(ctx, hand)), upcard)

    # ---- section 2 in a context --------------------------------------------------------------

    def _dealer_from(self, shoe_with_upcard, upcard):
        """Dealer distribution for a shoe n that still holds the upcard."""
        key = (shoe_with_upcard, upcard)
        if key not in self._dealer_cache:
            self._dealer_cache[key] = dealer_probabilities(
                _remove(shoe_with_upcard, upcard), (upcard,), self.hit_soft_17)
        return self._dealer_cache[key]

    def dealer(self, upcard):
        """Unconditioned dealer distribution for the shoe S - [upcard]."""
        return dict(self._dealer_from(self.shoe, upcard))

    @staticmethod
    def _beta(shoe_after_upcard, upcard):
        """Chance that the dealer's hole card completes a natural (0 unless u is A or T)."""
        hole = _hole_rank(upcard)
        return ZERO if hole is None else _share(shoe_after_upcard, hole)

    # ---- section 4: admissibility ------------------------------------------------------------

    def _dbl(self, hand):
        """Dbl(h): the total rule, the soft rule and the card-count rule."""
        total, soft = _total(hand)
        if self.double == "9-11" and total not in (9, 10, 11):
            return False
        if self.double == "10-11" and total not in (10, 11):
            return False
        if soft and not self.double_soft:
            return False
        if _ncards(hand) != 2 and not self.double_any_cards:
            return False
        return True

    def _limit(self, pair):
        """M(P) = min(L(P), S_P) (section 6.1)."""
        limit = self.max_split_hands
        if pair == ACE and not self.resplit_aces:
            limit = min(limit, 2)
        count = self._count(pair)
        return limit if count is None else min(limit, count)

    @staticmethod
    def _first_best(options, values):
        """Section 4 tie rule: start at the first option; a later one replaces it only if its
        value is strictly greater.  ``options`` must be in the fixed order."""
        assert list(options) == sorted(options, key=OPTION_ORDER.index)
        choice = options[0]
        for opt in options[1:]:
            if values[opt] > values[choice]:
                choice = opt
        return choice

    # ---- section 3: hand values in a context -------------------------------------------------

    def _value(self, ctx, hand, upcard, option):
        """Unconditioned ST/HT/DD ("stand"/"hit"/"double") of ``hand`` in context ``ctx``."""
        key = (ctx, hand, upcard, option)
        found = self._values.get(key)
        if found is not None:
            return found
        if option == "stand":
            v = self._stand(ctx, hand, upcard)
        elif option == "hit":
            v = self._hit(ctx, hand, upcard)
        elif option == "double":
            v = self._double(ctx, hand, upcard)
        else:
            raise ValueError(option)
        self._values[key] = v
        return v

    def _stand(self, ctx, hand, upcard):
        total, _ = _total(hand)
        if total > 21:
            raise ValueError("stand value of a busted hand")
        shoe = _remove_hand(self.shoe, self._removed(ctx, hand))  # still holds the upcard
        _remove(shoe, upcard)  # the upcard must be available
        if ctx == U and _is_natural_pair(hand):
            # Natural override: a dealer natural pushes, anything else pays b.
            if upcard in (ACE, TEN):
                return self.b * (1 - self._beta(_remove(shoe, upcard), upcard))
            return self.b
        d = self._dealer_from(shoe, upcard)
        v = d["bust"] - d["blackjack"]
        for k in (17, 18, 19, 20, 21):
            v += _sgn(total - k) * d[k]
        return v

    def _double(self, ctx, hand, upcard):
        rest = self._context_shoe(ctx, hand, upcard)
        v = self._beta(rest, upcard)
        for r, p in _next_card(rest):
            new = _add(hand, r)
            if _total(new)[0] <= 21:
                v += p * 2 * self._value(ctx, new, upcard, "stand")
            else:
                v += p * -2
        return v

    def _hit(self, ctx, hand, upcard):
        rest = self._context_shoe(ctx, hand, upcard)
        v = ZERO
        for r, p in _next_card(rest):
            new = _add(hand, r)
            if _total(new)[0] <= 21:
                v += p * self._continuation(ctx, new, upcard)
            else:
                v += p * -1
        return v

    # ---- sections 4 and 6.3: the option picked at a later decision ---------------------------

    def _later_options(self, ctx, hand):
        """Admissible options at a decision other than the round start."""
        if ctx == U:
            dbl = self._dbl(hand)
        else:
            dbl = self.double_after_split and self._dbl(hand)
        return ("stand", "hit", "double") if dbl else ("stand", "hit")

    def _pick(self, ctx, hand, upcard):
        """The option the strategy picks for ``hand`` in ``ctx`` (not for split aces)."""
        options = self._later_options(ctx, hand)
        if self._frozen is not None:
            return self._frozen._frozen_choice(hand, upcard, options)
        if ctx == U or self.split_class == "CDZ-":
            # Unsplit hands, and CDZ- split hands: compare the unsplit values of the composition.
            basis = U
        elif self.split_class == "CDP" or ctx[1] == 1:
            basis = ctx  # CDP; and CDP1 at e = 1
        else:
            basis = (ctx[0], 1)  # CDP1 at e >= 2: the pick recorded at e = 1
        values = {opt: self._value(basis, hand, upcard, opt) for opt in options}
        return self._first_best(options, values)

    def _continuation(self, ctx, hand, upcard):
        """B_c(h, u): context-c value of the option the strategy picks for hand h."""
        if ctx != U and ctx[0] == ACE:
            return self._value(ctx, hand, upcard, "stand")  # split aces: one card, stand
        return self._value(ctx, hand, upcard, self._pick(ctx, hand, upcard))

    def post_split_action(self, pair_rank, cards, upcard, extra=1):
        """The option sigma picks on split hand ``cards`` (ranks) in context (pair_rank, extra).

        Split aces always "stand".  Under CDZ- and CDP1 the answer does not depend on ``extra``.
        """
        hand = _hand(cards)
        if pair_rank == ACE:
            return "stand"
        return self._pick((pair_rank, extra), hand, upcard)

    # ---- section 6: splitting ----------------------------------------------------------------

    def _split_hand_value(self, pair, e, hand, upcard):
        """V_e(h, u): the split hand's value under sigma in context (P, e)."""
        return self._continuation((pair, e), hand, upcard)

    def split_ev(self, pair_rank, upcard, conditioned=True):
        """E_split (section 6.6), conditioned on no dealer natural unless ``conditioned=False``."""
        pair = pair_rank
        if self._limit(pair) < 2:
            raise ValueError(f"splitting {pair}-{pair} is not allowed (M < 2)")
        key = (pair, upcard)
        if key not in self._splits:
            self._splits[key] = self._split_unconditioned(pair, upcard)
        v = self._splits[key]
        if not conditioned:
            return v
        base = _remove(_remove(self.shoe, pair, 2), upcard)
        p = 1 - self._beta(base, upcard)
        return (v + 1 - p) / p

    def _split_unconditioned(self, pair, upcard):
        S = self.shoe
        M = self._limit(pair)
        base = _remove(_remove(S, pair, 2), upcard)  # S - 2[P] - [u]; raises if impossible
        infinite = S is None
        if infinite:
            p_pair = _INFINITE_PROBS[pair - 1]
        else:
            m = S[pair - 1] - 2 - (1 if upcard == pair else 0)
            n = _size(S) - 3
            q = n - m

        # -- building blocks X_a, Y_a (6.4) --
        blocks = {}

        def X_block(a):
            if ("X", a) not in blocks:
                if not infinite and a > S[pair - 1] - 2:
                    raise ValueError(f"X_{a} undefined for pair {pair} (needed with weight > 0)")
                shoe_a = _remove(S, pair, a + 2)
                if not _contains(shoe_a, _hand((upcard,))):
                    raise ValueError(f"X_{a} undefined: upcard {upcard} absent")
                rho_shoe = _remove(shoe_a, upcard)
                v = ZERO
                for r, rho in _next_card(rho_shoe):
                    hand = _hand((pair, r))
                    v += rho * self._split_hand_value(pair, a + 1, hand, upcard)
                blocks[("X", a)] = v
            return blocks[("X", a)]

        def Y_block(a):
            if ("Y", a) not in blocks:
                rho_shoe = _remove(_remove(S, pair, a + 2), upcard)
                if _share(rho_shoe, pair) == 0:
                    blocks[("Y", a)] = ZERO
                else:
                    hand = _hand((pair, pair))
                    blocks[("Y", a)] = self._split_hand_value(pair, a + 1, hand, upcard)
            return blocks[("Y", a)]

        # -- removal recursions (6.5) --
        def gamma_X(a, b):
            return p_pair if infinite else _ratio(m - a, n + 1 - a - b)

        def gamma_N(a, b):
            return p_pair if infinite else _ratio(m - a, n - a - b)

        memo = {}

        def step(prev, gamma, inner):
            """[prev - gamma * inner] / [1 - gamma]; 0 if gamma >= 1; inner dropped if gamma = 0."""
            if gamma is None or gamma >= 1:
                return ZERO
            if gamma == 0:
                return prev()
            if gamma < 0:
                raise ValueError("negative removal probability (shoe too small)")
            return (prev() - gamma * inner()) / (1 - gamma)

        def X(a, b):
            if ("X", a, b) not in memo:
                if b == 0:
                    memo[("X", a, b)] = X_block(a)
                else:
                    memo[("X", a, b)] = step(lambda: X(a, b - 1), gamma_X(a, b),
                                             lambda: X(a + 1, b - 1))
            return memo[("X", a, b)]

        def N(a, b):
            if ("N", a, b) not in memo:
                if b == 0:
                    memo[("N", a, b)] = step(lambda: X_block(a), gamma_N(a, 0),
                                             lambda: Y_block(a))
                else:
                    memo[("N", a, b)] = step(lambda: N(a, b - 1), gamma_N(a, b),
                                             lambda: N(a + 1, b - 1))
            return memo[("N", a, b)]

        # -- weights and assembly (6.6) --
        def seq(npair, nnon):
            """Probability of one given ordered sequence of npair pair / nnon non-pair cards."""
            if infinite:
                return p_pair ** npair * (1 - p_pair) ** nnon
            den = _falling(n, npair + nnon)
            if den == 0:
                return ZERO
            return Fraction(_falling(m, npair) * _falling(q, nnon), den)

        catalan = {1: 1, 2: 2}
        total = ZERO
        weight_sum = ZERO
        for h in range(2, M):  # exactly h hands, 2 <= h <= M - 1
            w = catalan[h - 1] * seq(h - 2, h)
            weight_sum += w
            if w:
                total += h * w * N(h - 2, h - 1)
        for k in range(0, M - 1):  # limit reached with k hands completed before the last resplit
            c = 2 if (M == 4 and k >= 1) else 1
            z = c * seq(M - 2, k)
            weight_sum += z
            if z:
                term = (M - k) * X(M - 2, k)
                if k >= 1:
                    term += k * N(M - 2, k - 1)
                total += z * term
        if weight_sum != 1:
            raise ValueError(f"split weights sum to {weight_sum}, not 1 (shoe too small?)")
        return total + self._kappa(pair, upcard, M)

    def _kappa(self, pair, upcard, M):
        """Dealer-natural correction kappa(u) (end of 6.6)."""
        hole = _hole_rank(upcard)
        if hole is None:
            return ZERO
        base = _remove(_remove(self.shoe, pair, 2), upcard)
        beta_s = _share(base, hole)
        if beta_s == 0:
            return ZERO
        if M == 2:
            hands = Fraction(2)
        else:
            # Expected number of hands given the natural: the second-card process on the shoe
            # S - 2[P] - [u] - [H] (n'' cards, m'' of them pair cards).
            if self.shoe is None:
                p = _INFINITE_PROBS[pair - 1]
                p2 = (1 - p) ** 2
                p3 = 2 * p * (1 - p) ** 3
            else:
                rest = _remove(base, hole)
                n2 = _size(rest)
                m2 = rest[pair - 1]
                p2 = Fraction(_falling(n2 - m2, 2), _falling(n2, 2))
                p3 = Fraction(2 * m2 * _falling(n2 - m2, 3), _falling(n2, 4)) if M == 4 else None
            if M == 3:
                hands = 2 * p2 + 3 * (1 - p2)
            else:
                hands = 2 * p2 + 3 * p3 + 4 * (1 - p2 - p3)
        return (hands - 1) * beta_s

    # ---- per-hand values (sections 4, 5) -----------------------------------------------------

    def hand_values_unconditioned(self, cards, upcard):
        """Unconditioned values of the options on a hand of >= 2 cards (context U)."""
        hand = _hand(cards)
        if _ncards(hand) < 2:
            raise ValueError("a hand has at least two cards")
        if _total(hand)[0] > 21:
            raise ValueError("busted hand")
        _remove(_remove_hand(self.shoe, hand), upcard)  # availability check
        out = {opt: self._value(U, hand, upcard, opt) for opt in ("stand", "hit", "double")}
        if self._is_splittable(hand):
            out["split"] = self.split_ev(cards[0], upcard, conditioned=False)
        if self.late_surrender and _ncards(hand) == 2:
            out["surrender"] = Fraction(-1, 2) - self._beta_U(hand, upcard) / 2
        return out

    def hand_values(self, cards, upcard):
        """Values conditioned on no dealer natural (section 5)."""
        hand = _hand(cards)
        raw = self.hand_values_unconditioned(cards, upcard)
        p = 1 - self._beta_U(hand, upcard)
        out = {}
        for opt, v in raw.items():
            if opt == "surrender":
                out[opt] = Fraction(-1, 2)
            elif opt == "stand" and _is_natural_pair(hand):
                out[opt] = v / p
            else:
                out[opt] = (v + 1 - p) / p
        return out

    def _beta_U(self, hand, upcard):
        return self._beta(self._context_shoe(U, hand, upcard), upcard)

    def _is_splittable(self, hand):
        if _ncards(hand) != 2:
            return False
        pairs = [r for r in RANKS if hand[r - 1] == 2]
        return bool(pairs) and self._limit(pairs[0]) >= 2

    def _start_options(self, hand):
        """Admissible options on the original two cards (section 4)."""
        opts = ["stand", "hit"]
        if self._dbl(hand):
            opts.append("double")
        if self._is_splittable(hand):
            opts.append("split")
        if self.late_surrender:
            opts.append("surrender")
        return tuple(opts)

    def best_action(self, cards, upcard):
        """Round-start choice (two cards; section 4 ties), on unconditioned values.

        For a hand of three or more cards: the later-decision choice of an unsplit hand.
        """
        hand = _hand(cards)
        if _ncards(hand) != 2:
            return self._pick(U, hand, upcard)
        return self._start_choice(hand, upcard, self.hand_values_unconditioned(cards, upcard))

    def _start_choice(self, hand, upcard, values):
        """The round-start choice for the two-card ``hand`` given its unconditioned values."""
        options = self._start_options(hand)
        if self._frozen is not None:
            return self._frozen._frozen_choice(hand, upcard, options)
        return self._first_best(options, values)

    # ---- section 7: the round ----------------------------------------------------------------

    def ev_by_upcard(self):
        """E(u) for every upcard present in S (unconditioned, dealer naturals included)."""
        out = {}
        for u in RANKS:
            if self.shoe is not None and self.shoe[u - 1] == 0:
                continue
            n = _remove(self.shoe, u)
            e_u = ZERO
            for c1, p1 in _next_card(n):
                for c2, p2 in _next_card(_remove(n, c1)):
                    cards = (c1, c2)
                    values = self.hand_values_unconditioned(cards, u)
                    e_u += p1 * p2 * values[self._start_choice(_hand(cards), u, values)]
            out[u] = e_u
        return out

    def round_ev(self):
        """E = sum_u P(upcard u) E(u)."""
        return sum((_share(self.shoe, u) * e for u, e in self.ev_by_upcard().items()), ZERO)


    # ---- section 8: a fixed (frozen) strategy on a depleted shoe -----------------------------

    def fixed_strategy(self, counts):
        """A solver for the shoe S1 = ``counts`` that plays THIS solver's frozen decisions.

        Section 8: every decision on S1 is Phi(h, u, admissible set), the first strictly best
        option by this (S0) solver's conditioned values of the composition h (split: S0's
        conditioned split EV; surrender: -1/2).  Split hands use Phi with the split-hand
        admissible set (a frozen CDZ-), split aces stand, resplitting stays forced with M from
        S1, and all values are S1's.  ``fixed_strategy(S1).round_ev()`` is E_fixed(S1).
        """
        other = ReferenceSolver(counts, **self._rules)
        if other.shoe is not None and not _contains(self.shoe, other.shoe):
            raise ValueError("the depleted shoe S1 must be contained in S0")
        other._frozen = self
        return other

    def _conditioned_value(self, hand, upcard, option):
        """This solver's conditioned value of an option on composition ``hand`` (context U)."""
        if option == "surrender":
            return Fraction(-1, 2)
        p = 1 - self._beta_U(hand, upcard)
        if option == "split":
            pair = next(r for r in RANKS if hand[r - 1] == 2)
            return self.split_ev(pair, upcard, conditioned=True)
        v = self._value(U, hand, upcard, option)
        if option == "stand" and _is_natural_pair(hand):
            return v / p
        return (v + 1 - p) / p

    def _frozen_choice(self, hand, upcard, options):
        """Phi(h, u, options): first strictly best option by this solver's conditioned values."""
        values = {opt: self._conditioned_value(hand, upcard, opt) for opt in options}
        return self._first_best(options, values)


def _ratio(num, den):
    """num/den as a removal probability; None (meaning "treat as >= 1") if den <= 0 < num."""
    if num == 0:
        return ZERO
    if den <= 0:
        return None
    return Fraction(num, den)


# --------------------------------------------------------------------------------------------
# Independent brute force: one real round, card by card
# --------------------------------------------------------------------------------------------

class ShoeExhausted(RuntimeError):
    """Raised by the brute force when some path would need a card from an empty shoe."""


def brute_force_round_ev(counts, upcard, player_cards, policy, *,
                         blackjack_payout=Fraction(3, 2), max_split_hands=4,
                         resplit_aces=False, hit_soft_17=False, double="any", double_soft=True,
                         double_any_cards=False, double_after_split=True, late_surrender=False,
                         hole_card="last"):
    """Exact unconditioned EV of ONE real round, by enumerating every card sequence.

    ``counts``: the finite shoe with the player's two cards and the dealer's upcard already
    removed.  ``player_cards``: the player's two ranks.  ``policy(hand_cards, upcard, allowed,
    is_split_hand) -> action`` is called at every player decision; ``hand_cards`` is the tuple of
    the hand's ranks in the order received, ``allowed`` a tuple drawn from ("stand", "hit",
    "double", "split", "surrender").

    Rules played: split hands are dealt and played one at a time (hand 1 gets its second card,
    a pair card is split off into a new hand while fewer than the limit exist, hand 1 is played
    to the end, then hand 2 ...); the limit is ``max_split_hands`` (2 for aces without RSA);
    split aces get one card; a player A+T is a natural only on the unsplit original hand (it is
    paid, never offered a decision); every card is really removed from the shoe.  Peek game: a
    dealer natural costs exactly one unit in total (a player natural pushes).
    ``hole_card="last"``: the dealer's hole card is drawn after all the player's cards (the
    DESIGN model); ``"first"``: it is drawn before them (the real deal order; the player does
    not see it).  Raises ShoeExhausted if any path would need a card
    from an empty shoe.  No formula of ReferenceSolver is used.
    """
    shoe0 = _check_shoe(counts)
    if shoe0 is None:
        raise ValueError("the brute force needs a finite shoe")
    b = Fraction(blackjack_payout)
    first = tuple(player_cards)
    if len(first) != 2:
        raise ValueError("player_cards must be two ranks")
    if hole_card not in ("last", "first"):
        raise ValueError("hole_card must be 'last' or 'first'")
    pair = first[0] if first[0] == first[1] else None
    limit = max_split_hands
    if pair == ACE and not resplit_aces:
        limit = min(limit, 2)

    def total(cards):
        hard = sum(cards)
        if ACE in cards and hard + 10 <= 21:
            return hard + 10, True
        return hard, False

    def can_double(cards, split_hand):
        t, soft = total(cards)
        if split_hand and not double_after_split:
            return False
        if double == "9-11" and t not in (9, 10, 11):
            return False
        if double == "10-11" and t not in (10, 11):
            return False
        if soft and not double_soft:
            return False
        return len(cards) == 2 or double_any_cards

    def draws(shoe):
        size = sum(shoe)
        if size == 0:
            raise ShoeExhausted("a path needs a card from an empty shoe")
        for r in RANKS:
            if shoe[r - 1]:
                lst = list(shoe)
                lst[r - 1] -= 1
                yield r, Fraction(shoe[r - 1], size), tuple(lst)

    def is_natural(c1, c2):
        return sorted((c1, c2)) == [ACE, TEN]

    # ---- dealer: ordered draws until a standing total -----------------------------------------
    dealer_memo = {}

    def dealer_final(shoe, cards):
        """{final total or 'bust': probability} for a dealer holding ``cards`` (no natural)."""
        key = (shoe, tuple(sorted(cards)))
        if key in dealer_memo:
            return dealer_memo[key]
        t, soft = total(cards)
        if t > 21:
            out = {"bust": ONE}
        elif t >= 18 or (t == 17 and not (soft and hit_soft_17)):
            out = {t: ONE}
        else:
            out = {}
            for r, p, rest in draws(shoe):
                for k, q in dealer_final(rest, cards + (r,)).items():
                    out[k] = out.get(k, ZERO) + p * q
        dealer_memo[key] = out
        return out

    def settle(hands, dealer_total):
        """Payoff of the finished hands against a dealer without a natural."""
        win = ZERO
        for kind, t, bet in hands:
            if kind == "natural":
                win += b
            elif kind == "surrender":
                win -= Fraction(1, 2)
            elif kind == "bust":
                win -= bet
            elif dealer_total == "bust" or t > dealer_total:
                win += bet
            elif t < dealer_total:
                win -= bet
        return win

    def natural_payoff(hands):
        """Peek game: one unit lost in total, a player natural pushes."""
        return ZERO if any(kind == "natural" for kind, _, _ in hands) else -ONE

    phase_memo = {}

    def dealer_phase(shoe, hands, hole):
        """EV once every player hand is finished. ``hole`` is the known hole card or None."""
        key = (shoe, hands, hole)
        if key in phase_memo:
            return phase_memo[key]
        ev = ZERO
        if hole is None:
            for r, p, rest in draws(shoe):
                if is_natural(upcard, r):
                    ev += p * natural_payoff(hands)
                else:
                    for k, q in dealer_final(rest, (upcard, r)).items():
                        ev += p * q * settle(hands, k)
        else:
            for k, q in dealer_final(shoe, (upcard, hole)).items():
                ev += q * settle(hands, k)
        phase_memo[key] = ev
        return ev

    # ---- player: hands dealt and played one at a time -----------------------------------------
    # ``done`` is the sorted tuple of finished hands (kind, total, bet); ``waiting`` counts split
    # hands still waiting for their second card; ``nhands`` counts the hands so far.  The policy
    # is a deterministic function of its arguments, so equal states have equal values (memo).
    player_memo = {}

    def finish(shoe, done, waiting, nhands, hole):
        """Move on to the next waiting split hand, or to the dealer."""
        done = tuple(sorted(done, key=repr))
        if waiting == 0:
            return dealer_phase(shoe, done, hole)
        return deal_second(shoe, done, waiting - 1, nhands, hole)

    def deal_second(shoe, done, waiting, nhands, hole):
        """A split hand (one pair card) receives its second card; pair cards split off."""
        key = ("second", shoe, done, waiting, nhands, hole)
        if key in player_memo:
            return player_memo[key]
        ev = ZERO
        for r, p, rest in draws(shoe):
            if r == pair and nhands < limit:
                ev += p * deal_second(rest, done, waiting + 1, nhands + 1, hole)
            elif pair == ACE:
                t, _ = total((pair, r))
                ev += p * finish(rest, done + (("stand", t, 1),), waiting, nhands, hole)
            else:
                ev += p * decide(rest, (pair, r), 1, True, False, done, waiting, nhands, hole)
        player_memo[key] = ev
        return ev

    def decide(shoe, cards, bet, split_hand, round_start, done, waiting, nhands, hole):
        key = ("decide", shoe, cards, bet, split_hand, round_start, done, waiting, nhands, hole)
        if key not in player_memo:
            player_memo[key] = _decide(shoe, cards, bet, split_hand, round_start, done, waiting,
                                       nhands, hole)
        return player_memo[key]

    def _decide(shoe, cards, bet, split_hand, round_start, done, waiting, nhands, hole):
        allowed = ["stand", "hit"]
        if can_double(cards, split_hand):
            allowed.append("double")
        if round_start and pair is not None and limit >= 2:
            allowed.append("split")
        if round_start and late_surrender:
            allowed.append("surrender")
        allowed = tuple(allowed)
        action = policy(cards, upcard, allowed, split_hand)
        if action not in allowed:
            raise ValueError(f"policy chose {action!r}, allowed {allowed}")
        if action == "stand":
            t, _ = total(cards)
            return finish(shoe, done + (("stand", t, bet),), waiting, nhands, hole)
        if action == "surrender":
            return finish(shoe, done + (("surrender", 0, 1),), waiting, nhands, hole)
        if action == "split":
            return deal_second(shoe, done, 1, 2, hole)  # this hand now, one more waiting
        ev = ZERO
        for r, p, rest in draws(shoe):
            new = cards + (r,)
            t, _ = total(new)
            if t > 21:
                bet_now = 2 * bet if action == "double" else bet
                ev += p * finish(rest, done + (("bust", 0, bet_now),), waiting, nhands, hole)
            elif action == "double":
                ev += p * finish(rest, done + (("stand", t, 2 * bet),), waiting, nhands, hole)
            else:
                ev += p * decide(rest, new, bet, split_hand, False, done, waiting, nhands, hole)
        return ev

    def play(shoe, hole):
        if is_natural(*first):
            return finish(shoe, (("natural", 21, 1),), 0, 1, hole)
        return decide(shoe, first, 1, False, True, (), 0, 1, hole)

    if hole_card == "last":
        return play(shoe0, None)
    ev = ZERO
    for r, p, rest in draws(shoe0):
        if is_natural(upcard, r):
            ev += p * (ZERO if is_natural(*first) else -ONE)
        else:
            ev += p * play(rest, r)
    return ev
