"""Slow, exact, pure-Python reference ("twin") of the bjsolve analyzer.

This module evaluates the exact model's formulas (sections 1-8 of the conventions the exact
analyzers share) literally,
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
``class ReferenceSolver`` (sections 3-7; ``fixed_strategy`` is section 8; see its docstring;
    the rule variants below are keyword arguments; ``ev_by_dealer()``/``ev_given_dealer(key)``
    give the round EV by dealer key, two-card keys in the exposed game)
``brute_force_round_ev(counts, upcard, player_cards, policy, ...) -> Fraction``: an independent
    card-by-card enumeration of one real round (used to check the split construction and the
    variants: ``game=``, ``surrender=``, ``dealer_wins_ties=``, ``hit_split_aces=``).
``ShoeExhausted``: raised by the brute force when a path would need a card from an empty shoe.
``clear_caches()``: drop the module-level dealer memo.

Rule variants (issue 4)
-----------------------
Keyword arguments of ``ReferenceSolver`` (and of ``brute_force_round_ev``); the defaults are the
classic peek game of the exact model and reproduce its values exactly.  Below, beta is the chance that
the dealer's unseen card completes a natural (the exact model section 3), b the blackjack payout, D the
dealer key (the upcard, or the exposed game's two dealer cards).  Everything else (the hand
model, the contexts, section 4's options and ties, the split construction of section 6 and the
round assembly of section 7) is unchanged unless stated.

* ``hole_card="peek"`` (default): the exact model as written.  Per-hand values are reported conditioned
  on no dealer natural (``hand_values``); the unconditioned ones are always available.
* ``hole_card="enhc"`` (no hole card; the dealer's second card is drawn after the player has
  finished, which is exactly the exact model's "hole card last" model, now describing the real deal).
  A dealer natural takes every bet still at stake: a standing hand loses its unit, a doubled
  hand two, each split hand its own bet.  So
  ST is unchanged (it already charges -d_BJ); DD = sum_r pi_r {2 ST(h + r) or -2} without the
  +beta refund; HT unchanged (through its leaves); E_split = the section 6.6 sum without kappa
  (the per-hand values already charge each split hand separately, which is now the game); late
  surrender = -1/2 - beta/2 (a dealer natural voids it), early = -1/2.  A player natural
  against a dealer natural pushes.  All per-hand values are reported unconditioned.
* ``hole_card="enhc-obo"``: no hole card, but a dealer natural takes only the original bet
  (one unit in total): numerically the peek game (DD keeps +beta, E_split keeps kappa), with
  per-hand values reported unconditioned.
* ``hole_card="exposed"``: both dealer cards are dealt face up.  The dealer key is the sorted
  pair D = (d1, d2).  If D is a natural the round ends with no decision: a player natural
  pushes (0), every other hand loses 1.  Otherwise beta = 0 (nothing is hidden), the dealer
  distribution is section 2 started from the two cards D (no natural possible) on the shoe
  S - R_c(h) - D, and ST, HT, DD, the split construction (with m = S_P - 2 - #P in D and
  n = |S| - 4 in 6.5/6.6, the building blocks on S - (a + 2)[P] - D) and the options are those
  of the exact model with beta = 0 (no +beta, kappa = 0, late surrender = early surrender = -1/2,
  natural = b).  M(P) = min(L(P), S_P) as in 6.1.  E(D) = sum over the player's ordered two
  cards from S - D of weight * W (section 7), and the round EV is
  E = sum_D P(D) E(D), with P(D) = n_a (n_b - [a = b]) / (|S| (|S| - 1)), doubled when a != b
  (infinite shoe: p_a p_b, doubled when a != b), naturals included.
* ``surrender="late"`` (``late_surrender=True`` is an alias): offered on the original two
  cards (section 4) after the check for a natural: unconditioned -1/2 - beta/2, conditioned
  -1/2.  ``surrender="early"``: offered on the original two cards against every upcard before
  the check: -1/2 unconditioned (the half bet is kept even against a dealer natural); the
  round-start choice compares it with the other unconditioned values; ``hand_values`` of the
  peek game still reports -1/2 for it (given no natural it also costs exactly 1/2).
* ``dealer_wins_ties=True``: every push loses what is at stake.  ST = d_bust - d_BJ +
  sum_{k=17..21} (+1 if t(h) > k else -1) d_k (a doubled hand: twice that, through DD's leaves);
  natural override: b (1 - beta) + t beta, where t is what a natural against a natural gets:
  ``natural_tie`` "lose" (default, t = -1), "push" (t = 0) or "win" (t = b, paid as a
  natural); in the exposed game a player natural against a dealer natural gets t too.
  Given no natural, a natural is worth (v - t beta)/p = b.  In the peek game the conditioned natural
  is then (v + 1 - p)/p like every other option (= b).  Nothing else changes (a dealer natural
  still costs one unit in peek/enhc-obo: DD keeps +beta, E_split keeps kappa).
* ``hit_split_aces=True``: split aces are split hands like any other pair P != A: V_e(h, u) =
  B_(A,e)(h, u) (section 6.3's strategy sigma, hit, and double under DAS and Dbl(h)), in every
  context (A, e) and for every composition holding an ace; resplitting aces stays governed by
  L(A) (RSA) and is forced (6.2).  An ace-ten after a split is an ordinary 21.
* ``blackjack_payout``: any positive number b (exact Fractions are used as given).

Decisions always compare unconditioned values (section 4).  The frozen strategies of
section 8 use the conditioned values in the classic peek game (late or no surrender), the
unconditioned ones otherwise.

Degenerate tiny-shoe conventions (not specified by the exact model section 3): when the shoe left after a
hand and the upcard is empty, the next-card distribution is empty (every sum over it is 0) and
beta = 0.  A dealer who must draw from an empty shoe busts (the exact model section 2).  In such shoes
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
    "solver_policy",
    "without",
    "ShoeExhausted",
    "clear_caches",
    "hand_total",
    "two_card_deals",
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


def without(shoe, *cards):
    """The count vector ``shoe`` less one card of each rank in ``cards``."""
    for r in cards:
        shoe = _remove(shoe, r)
    return shoe


def two_card_deals(counts):
    """Every (upcard, c1, c2), c1 <= c2, that the finite shoe ``counts`` can deal: the
    starting hands a test compares a solver's values on."""
    for u in RANKS:
        for c1 in RANKS:
            for c2 in RANKS[c1 - 1:]:
                need = _hand((u, c1, c2))
                if all(k <= n for k, n in zip(need, counts)):
                    yield u, c1, c2


def _surrender_rule(surrender, late_surrender):
    """``surrender`` ("none", "late", "early"), with ``late_surrender=True`` as the older
    spelling of "late"."""
    if surrender is None:
        return "late" if late_surrender else "none"
    if surrender not in SURRENDERS:
        raise ValueError(f"surrender must be one of {SURRENDERS}")
    if late_surrender and surrender != "late":
        raise ValueError("late_surrender=True contradicts surrender=" + repr(surrender))
    return surrender


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
_DEALER_MEMO: dict[tuple, tuple[int, ...]] = {}   # (shoe, hard, has_ace, h17) -> scaled law
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
    """Dealer outcome distribution, the exact model section 2.

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

HOLE_CARDS = ("peek", "enhc", "enhc-obo", "exposed")
SURRENDERS = ("none", "late", "early")


def _is_natural_cards(cards):
    return len(cards) == 2 and sorted(cards) == [ACE, TEN]


def _remove_cards(shoe, cards):
    """Shoe minus each rank of the tuple ``cards`` (an infinite shoe is unchanged)."""
    for r in cards:
        shoe = _remove(shoe, r)
    return shoe


def _natural_tie_value(dealer_wins_ties, natural_tie, b):
    """What a player natural gets against a dealer natural: a push, unless the dealer wins
    ties; then ``natural_tie`` says: "lose" -1, "push" 0, "win" b."""
    if natural_tie not in ("lose", "push", "win"):
        raise ValueError("natural_tie must be 'lose', 'push' or 'win'")
    if not dealer_wins_ties:
        return ZERO
    return {"lose": -ONE, "push": ZERO, "win": Fraction(b)}[natural_tie]


class ReferenceSolver:
    """Exact solver following the exact model (sections 3-8) literally (plus the rule variants
    of the module docstring).

    ``ReferenceSolver(counts, *, hit_soft_17=False, double="any", double_soft=True,
    double_any_cards=False, double_after_split=True, max_split_hands=4, resplit_aces=False,
    late_surrender=False, blackjack_payout=Fraction(3, 2), split="CDZ-", hole_card="peek",
    surrender=None, dealer_wins_ties=False, hit_split_aces=False, natural_tie="lose")``

    ``counts`` is the analysis shoe S (nothing removed) or None (infinite shoe).
    ``double``: "any" (DOA), "9-11" (D9) or "10-11" (D10).  ``split``: "CDZ-", "CDP1" or "CDP"
    (the post-split strategy class, section 6.3).  All values are exact Fractions.
    ``hole_card``: "peek" | "enhc" | "enhc-obo" | "exposed"; ``surrender``: "none" | "late" |
    "early" (None: "late" if ``late_surrender`` else "none"; ``late_surrender=True`` is an alias
    of ``surrender="late"``).  The defaults are the classic peek game of the exact model.

    A *dealer key* is what the player's decisions are keyed by: the upcard (an int) in the
    upcard games, or the dealer's two cards (a tuple of two ranks, any order) in the exposed
    game.  Public methods (cards are tuples of ranks; ``upcard`` is a dealer key):
    ``dealer(upcard)``, ``hand_values(cards, upcard)`` (peek: conditioned on no dealer natural;
    the other games report unconditioned values), ``hand_values_unconditioned(cards, upcard)``,
    ``split_ev(pair_rank, upcard, conditioned=True)``, ``ev_by_upcard()`` (upcard games),
    ``ev_by_dealer()`` (every game: upcard or two-card keys, dealer naturals included),
    ``dealer_key_probability(key)``, ``round_ev()``, ``best_action(cards, upcard)``,
    ``post_split_action(pair_rank, cards, upcard, extra=1)`` (sigma on a split hand) and
    ``fixed_strategy(counts)`` (section 8: a solver for a depleted shoe playing these frozen
    decisions; ``.round_ev()`` of it is E_fixed).
    """

    def __init__(self, counts, *, hit_soft_17=False, double="any", double_soft=True,
                 double_any_cards=False, double_after_split=True, max_split_hands=4,
                 resplit_aces=False, late_surrender=False, blackjack_payout=Fraction(3, 2),
                 split="CDZ-", hole_card="peek", surrender=None, dealer_wins_ties=False,
                 hit_split_aces=False, natural_tie="lose"):
        self.shoe = _check_shoe(counts)
        if double not in ("any", "9-11", "10-11"):
            raise ValueError("double must be 'any', '9-11' or '10-11'")
        if split not in ("CDZ-", "CDP1", "CDP"):
            raise ValueError("split must be 'CDZ-', 'CDP1' or 'CDP'")
        if max_split_hands not in (1, 2, 3, 4):
            raise ValueError("max_split_hands must be 1, 2, 3 or 4")
        if hole_card not in HOLE_CARDS:
            raise ValueError(f"hole_card must be one of {HOLE_CARDS}")
        surrender = _surrender_rule(surrender, late_surrender)
        self.hit_soft_17 = bool(hit_soft_17)
        self.double = double
        self.double_soft = bool(double_soft)
        self.double_any_cards = bool(double_any_cards)
        self.double_after_split = bool(double_after_split)
        self.max_split_hands = max_split_hands
        self.resplit_aces = bool(resplit_aces)
        self.surrender = surrender
        self.late_surrender = surrender == "late"
        self.b = Fraction(blackjack_payout)
        self.split_class = split
        self.hole_card = hole_card
        self.exposed = hole_card == "exposed"
        self.dealer_wins_ties = bool(dealer_wins_ties)
        self.natural_tie = natural_tie
        # what a player natural gets against a dealer natural
        self._t = _natural_tie_value(dealer_wins_ties, natural_tie, self.b)
        self.hit_split_aces = bool(hit_split_aces)
        # Does a dealer natural cost exactly one unit in total (peek, enhc-obo), or every bet
        # at stake (enhc)?  (Exposed: beta = 0, so the question never arises.)
        self._one_unit = hole_card in ("peek", "enhc-obo")
        self._rules = dict(hit_soft_17=hit_soft_17, double=double, double_soft=double_soft,
                           double_any_cards=double_any_cards,
                           double_after_split=double_after_split,
                           max_split_hands=max_split_hands, resplit_aces=resplit_aces,
                           blackjack_payout=blackjack_payout, split=split,
                           hole_card=hole_card, surrender=surrender,
                           dealer_wins_ties=dealer_wins_ties, hit_split_aces=hit_split_aces,
                           natural_tie=natural_tie)
        self._frozen = None       # section 8: the S0 solver whose decisions are frozen, if any
        self._dealer_cache = {}   # (shoe containing the dealer cards, dealer key) -> dealer dict
        self._values = {}         # (context, hand, dealer key, option) -> Fraction
        self._splits = {}         # (P, dealer key) -> unconditioned split EV
        # (P, public dealer key) of every split whose value met a tie-decided pick (see _pick)

    # ---- dealer keys -------------------------------------------------------------------------

    def _key(self, dealer, allow_natural=False):
        """Normalise a public dealer argument to the internal key: (u,) or (d1, d2) sorted."""
        cards = (dealer,) if isinstance(dealer, int) else tuple(dealer)
        for r in cards:
            if r not in RANKS:
                raise ValueError(f"bad rank {r!r}; ranks are ints 1..10")
        if self.exposed:
            if len(cards) != 2:
                raise ValueError("the exposed game needs the dealer's two cards")
            if _is_natural_cards(cards) and not allow_natural:
                raise ValueError("no player decision against a dealer natural")
            return tuple(sorted(cards))
        if len(cards) != 1:
            raise ValueError("this game is keyed by the dealer's upcard alone")
        return cards

    def _dealer_keys(self):
        """Every dealer key the analysis shoe can produce (naturals included)."""
        if not self.exposed:
            return [(u,) for u in RANKS if self.shoe is None or self.shoe[u - 1] > 0]
        return [(a, b) for a in RANKS for b in RANKS[a - 1:]
                if self.dealer_key_probability((a, b)) > 0]

    def dealer_key_probability(self, key):
        """Chance that the dealer's (up)card(s) are ``key`` (two-card keys: either order)."""
        key = self._key(key, allow_natural=True)
        if len(key) == 1:
            return _share(self.shoe, key[0])
        a, b = key
        if self.shoe is None:
            w = _INFINITE_PROBS[a - 1] * _INFINITE_PROBS[b - 1]
        else:
            size = _size(self.shoe)
            if size < 2:
                return ZERO
            w = Fraction(self.shoe[a - 1] * (self.shoe[b - 1] - (a == b)), size * (size - 1))
        return w if a == b else 2 * w

    @staticmethod
    def _public(key):
        return key[0] if len(key) == 1 else key

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

    def _context_shoe(self, ctx, hand, key):
        """n' = S - R_c(h) - D: the shoe the hand and the dealer draw from."""
        return _remove_cards(_remove_hand(self.shoe, self._removed(ctx, hand)), key)

    # ---- section 2 in a context --------------------------------------------------------------

    def _dealer_from(self, shoe_with_dealer, key):
        """Dealer distribution for a shoe n that still holds the dealer's card(s)."""
        ckey = (shoe_with_dealer, key)
        if ckey not in self._dealer_cache:
            self._dealer_cache[ckey] = dealer_probabilities(
                _remove_cards(shoe_with_dealer, key), key, self.hit_soft_17)
        return self._dealer_cache[ckey]

    def dealer(self, upcard):
        """Unconditioned dealer distribution for the shoe S - D (D: the dealer key's cards)."""
        key = self._key(upcard, allow_natural=True)
        return dict(self._dealer_from(self.shoe, key))

    @staticmethod
    def _beta(shoe_after_dealer, key):
        """Chance that the dealer's hole card completes a natural (0 unless the key is one
        upcard A or T; 0 in the exposed game)."""
        if isinstance(key, int):
            key = (key,)
        if len(key) != 1:
            return ZERO
        hole = _hole_rank(key[0])
        return ZERO if hole is None else _share(shoe_after_dealer, hole)

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

    def _value(self, ctx, hand, key, option):
        """Unconditioned ST/HT/DD ("stand"/"hit"/"double") of ``hand`` in context ``ctx``."""
        mkey = (ctx, hand, key, option)
        found = self._values.get(mkey)
        if found is not None:
            return found
        if option == "stand":
            v = self._stand(ctx, hand, key)
        elif option == "hit":
            v = self._hit(ctx, hand, key)
        elif option == "double":
            v = self._double(ctx, hand, key)
        else:
            raise ValueError(option)
        self._values[mkey] = v
        return v

    def _stand(self, ctx, hand, key):
        total, _ = _total(hand)
        if total > 21:
            raise ValueError("stand value of a busted hand")
        shoe = _remove_hand(self.shoe, self._removed(ctx, hand))  # still holds the dealer's
        rest = _remove_cards(shoe, key)  # the dealer's card(s) must be available
        if ctx == U and _is_natural_pair(hand):
            # Natural override: a dealer natural gets t (push, or natural_tie when the dealer
            # wins ties), anything else pays b.
            beta = self._beta(rest, key)
            return self.b * (1 - beta) + self._t * beta
        d = self._dealer_from(shoe, key)
        v = d["bust"] - d["blackjack"]
        for k in (17, 18, 19, 20, 21):
            if self.dealer_wins_ties:
                v += (1 if total > k else -1) * d[k]
            else:
                v += _sgn(total - k) * d[k]
        return v

    def _double(self, ctx, hand, key):
        rest = self._context_shoe(ctx, hand, key)
        # peek / enhc-obo: the doubled unit comes back on a dealer natural (+beta);
        # enhc: the dealer natural takes it too (no refund).
        v = self._beta(rest, key) if self._one_unit else ZERO
        for r, p in _next_card(rest):
            new = _add(hand, r)
            if _total(new)[0] <= 21:
                v += p * 2 * self._value(ctx, new, key, "stand")
            else:
                v += p * -2
        return v

    def _hit(self, ctx, hand, key):
        rest = self._context_shoe(ctx, hand, key)
        v = ZERO
        for r, p in _next_card(rest):
            new = _add(hand, r)
            if _total(new)[0] <= 21:
                v += p * self._continuation(ctx, new, key)
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

    def _pick(self, ctx, hand, key):
        """The option the strategy picks for ``hand`` in ``ctx`` (not for one-card split aces)."""
        options = self._later_options(ctx, hand)
        if self._frozen is not None:
            return self._frozen._frozen_choice(hand, key, options)
        if ctx == U or self.split_class == "CDZ-":
            # Unsplit hands, and CDZ- split hands: compare the unsplit values of the composition.
            basis = U
        elif self.split_class == "CDP" or ctx[1] == 1:
            basis = ctx  # CDP; and CDP1 at e = 1
        else:
            basis = (ctx[0], 1)  # CDP1 at e >= 2: the pick recorded at e = 1
        values = {opt: self._value(basis, hand, key, opt) for opt in options}
        return self._first_best(options, values)

    def _one_card_aces(self, ctx):
        return ctx != U and ctx[0] == ACE and not self.hit_split_aces

    def _continuation(self, ctx, hand, key):
        """B_c(h, u): context-c value of the option the strategy picks for hand h."""
        if self._one_card_aces(ctx):
            return self._value(ctx, hand, key, "stand")  # split aces: one card, stand
        return self._value(ctx, hand, key, self._pick(ctx, hand, key))

    def post_split_action(self, pair_rank, cards, upcard, extra=1):
        """The option sigma picks on split hand ``cards`` (ranks) in context (pair_rank, extra).

        Split aces always "stand" (unless hit_split_aces).  Under CDZ- and CDP1 the answer
        does not depend on ``extra``.
        """
        hand = _hand(cards)
        key = self._key(upcard)
        if self._one_card_aces((pair_rank, extra)):
            return "stand"
        return self._pick((pair_rank, extra), hand, key)

    # ---- section 6: splitting ----------------------------------------------------------------

    def _split_hand_value(self, pair, e, hand, upcard):
        """V_e(h, u): the split hand's value under sigma in context (P, e)."""
        key = upcard if isinstance(upcard, tuple) else self._key(upcard)
        return self._continuation((pair, e), hand, key)

    def split_ev(self, pair_rank, upcard, conditioned=True):
        """E_split (section 6.6), conditioned on no dealer natural unless ``conditioned=False``
        (only the peek game conditions)."""
        pair = pair_rank
        key = self._key(upcard)
        if self._limit(pair) < 2:
            raise ValueError(f"splitting {pair}-{pair} is not allowed (M < 2)")
        skey = (pair, key)
        if skey not in self._splits:
            self._splits[skey] = self._split_unconditioned(pair, key)
        v = self._splits[skey]
        if not conditioned or self.hole_card != "peek":
            return v
        base = _remove_cards(_remove(self.shoe, pair, 2), key)
        p = 1 - self._beta(base, key)
        return (v + 1 - p) / p

    def _split_hand_values(self, pair, key):
        """V_e(h, u) of the split hands (section 6.3's sigma in context (P, e)) as functions
        ``value(e, hand)``: (hand 1's, every other hand's).  The same function here; the
        games' reference (free splits) gives the other hands the house's stake."""
        def value(e, hand):
            return self._continuation((pair, e), hand, key)
        return value, value

    def _split_unconditioned(self, pair, key):
        """The section 6.6 sum (plus kappa).  Hand 1, the first dealt and played, is valued
        with the first of ``_split_hand_values`` and the others with the second: hand 1 is
        one of the hands that took a non-pair card before the limit (an N hand) whenever some
        hand did (k >= 1), else an X hand.  When both functions are the same, each term is
        the exact model's: h N(h-2, h-1), (M - k) X(M-2, k) + k N(M-2, k-1)."""
        S = self.shoe
        M = self._limit(pair)
        _remove_cards(_remove(S, pair, 2), key)  # S - 2[P] - D: raises if impossible
        infinite = S is None
        if infinite:
            p_pair = _INFINITE_PROBS[pair - 1]
            m = n = q = 0
        else:
            p_pair = ZERO
            m = S[pair - 1] - 2 - key.count(pair)
            n = _size(S) - 2 - len(key)
            q = n - m
        first_value, other_value = self._split_hand_values(pair, key)
        first = _SplitBlocks(S, pair, key, m, n, p_pair, first_value)
        other = (first if other_value is first_value
                 else _SplitBlocks(S, pair, key, m, n, p_pair, other_value))

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
        for h in range(2, M):  # exactly h hands, 2 <= h <= M - 1, each took a non-pair card
            w = catalan[h - 1] * seq(h - 2, h)
            weight_sum += w
            if w:
                total += w * (first.N(h - 2, h - 1) + (h - 1) * other.N(h - 2, h - 1))
        for k in range(0, M - 1):  # limit reached with k hands completed before the last resplit
            c = 2 if (M == 4 and k >= 1) else 1
            z = c * seq(M - 2, k)
            weight_sum += z
            if not z:
                continue
            if k == 0:   # hand 1 took a pair card at once: every hand is an X hand
                term = first.X(M - 2, 0) + (M - 1) * other.X(M - 2, 0)
            else:        # hand 1 completed first: it is one of the k N hands
                term = (first.N(M - 2, k - 1) + (M - k) * other.X(M - 2, k)
                        + (k - 1) * other.N(M - 2, k - 1))
            total += z * term
        if weight_sum != 1:
            raise ValueError(f"split weights sum to {weight_sum}, not 1 (shoe too small?)")
        return total + self._kappa(pair, key, M)

    def _kappa(self, pair, key, M):
        """Dealer-natural correction kappa(u) (end of 6.6).  Zero under enhc (a dealer natural
        takes every split bet) and in the exposed game (beta = 0)."""
        if not self._one_unit or len(key) != 1:
            return ZERO
        upcard = key[0]
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

    def _surrender_value(self, hand, key):
        """Unconditioned surrender: early -1/2; late -1/2 - beta/2 (a dealer natural voids it)."""
        if self.surrender == "early":
            return Fraction(-1, 2)
        return Fraction(-1, 2) - self._beta_U(hand, key) / 2

    def hand_values_unconditioned(self, cards, upcard):
        """Unconditioned values of the options on a hand of >= 2 cards (context U)."""
        hand = _hand(cards)
        key = self._key(upcard)
        if _ncards(hand) < 2:
            raise ValueError("a hand has at least two cards")
        if _total(hand)[0] > 21:
            raise ValueError("busted hand")
        _remove_cards(_remove_hand(self.shoe, hand), key)  # availability check
        out = {opt: self._value(U, hand, key, opt) for opt in ("stand", "hit", "double")}
        if self._is_splittable(hand):
            out["split"] = self.split_ev(cards[0], key, conditioned=False)
        if self.surrender != "none" and _ncards(hand) == 2:
            out["surrender"] = self._surrender_value(hand, key)
        return out

    def hand_values(self, cards, upcard):
        """Values conditioned on no dealer natural (section 5) in the peek game; the other
        games (enhc, enhc-obo, exposed) report the unconditioned values."""
        raw = self.hand_values_unconditioned(cards, upcard)
        if self.hole_card != "peek":
            return raw
        hand = _hand(cards)
        p = 1 - self._beta_U(hand, self._key(upcard))
        out = {}
        for opt, v in raw.items():
            if opt == "surrender":
                out[opt] = Fraction(-1, 2)  # late or early: given no natural it costs 1/2
            elif opt == "stand" and _is_natural_pair(hand):
                out[opt] = (v - self._t * (1 - p)) / p
            else:
                out[opt] = (v + 1 - p) / p
        return out

    def _beta_U(self, hand, key):
        return self._beta(self._context_shoe(U, hand, key), key)

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
        if self.surrender != "none":
            opts.append("surrender")
        return tuple(opts)

    def best_action(self, cards, upcard):
        """Round-start choice (two cards; section 4 ties), on unconditioned values.

        For a hand of three or more cards: the later-decision choice of an unsplit hand.
        """
        hand = _hand(cards)
        key = self._key(upcard)
        if _ncards(hand) != 2:
            return self._pick(U, hand, key)
        return self._start_choice(hand, key, self.hand_values_unconditioned(cards, key))

    def _start_choice(self, hand, key, values):
        """The round-start choice for the two-card ``hand`` given its unconditioned values."""
        options = self._start_options(hand)
        if self._frozen is not None:
            return self._frozen._frozen_choice(hand, key, options)
        return self._first_best(options, values)

    # ---- section 7: the round ----------------------------------------------------------------

    def _ev_given_key(self, key):
        """E(D): the round's expectation given the dealer key (dealer naturals included)."""
        n = _remove_cards(self.shoe, key)
        e = ZERO
        for c1, p1 in _next_card(n):
            for c2, p2 in _next_card(_remove(n, c1)):
                cards = (c1, c2)
                if _is_natural_cards(key):
                    # Exposed dealer natural: the round ends; a player natural pushes (ties:
                    # loses), everything else loses the bet.
                    w = self._t if _is_natural_cards(cards) else -ONE
                else:
                    values = self.hand_values_unconditioned(cards, key)
                    w = values[self._start_choice(_hand(cards), key, values)]
                e += p1 * p2 * w
        return e

    def ev_given_dealer(self, dealer):
        """E(D) for one dealer key (an upcard, or the exposed game's two dealer cards, a
        dealer natural included): the round's unconditioned expectation given that key."""
        return self._ev_given_key(self._key(dealer, allow_natural=True))

    def ev_by_dealer(self):
        """{dealer key: E(key)}: upcards (ints) in the upcard games, sorted two-card tuples in
        the exposed game (dealer naturals included).  Unconditioned."""
        return {self._public(k): self._ev_given_key(k) for k in self._dealer_keys()}

    def ev_by_upcard(self):
        """E(u) for every upcard present in S (unconditioned, dealer naturals included)."""
        if self.exposed:
            raise ValueError("the exposed game is keyed by two dealer cards: use ev_by_dealer()")
        return self.ev_by_dealer()

    def round_ev(self):
        """E = sum_D P(D) E(D) (D: the upcard, or the dealer's two cards when exposed)."""
        return sum((self.dealer_key_probability(k) * e for k, e in self.ev_by_dealer().items()),
                   ZERO)

    # ---- section 8: a fixed (frozen) strategy on a depleted shoe -----------------------------

    def fixed_strategy(self, counts):
        """A solver for the shoe S1 = ``counts`` that plays THIS solver's frozen decisions.

        Section 8: every decision on S1 is Phi(h, u, admissible set), the first strictly best
        option by this (S0) solver's conditioned values of the composition h (split: S0's
        conditioned split EV; surrender: -1/2).  Split hands use Phi with the split-hand
        admissible set (a frozen CDZ-), split aces stand, resplitting stays forced with M from
        S1, and all values are S1's.  ``fixed_strategy(S1).round_ev()`` is E_fixed(S1).
        (Games other than the classic peek game, or early surrender, freeze the choice by the
        unconditioned values instead.)
        """
        other = ReferenceSolver(counts, **self._rules)
        if other.shoe is not None and not _contains(self.shoe, other.shoe):
            raise ValueError("the depleted shoe S1 must be contained in S0")
        other._frozen = self
        return other

    def _conditioned_value(self, hand, key, option):
        """This solver's conditioned value of an option on composition ``hand`` (context U)."""
        if self.hole_card != "peek" or self.surrender == "early":
            if option == "surrender":
                return self._surrender_value(hand, key)
            if option == "split":
                pair = next(r for r in RANKS if hand[r - 1] == 2)
                return self.split_ev(pair, key, conditioned=False)
            return self._value(U, hand, key, option)
        if option == "surrender":
            return Fraction(-1, 2)
        p = 1 - self._beta_U(hand, key)
        if option == "split":
            pair = next(r for r in RANKS if hand[r - 1] == 2)
            return self.split_ev(pair, key, conditioned=True)
        v = self._value(U, hand, key, option)
        if option == "stand" and _is_natural_pair(hand):
            return (v - self._t * (1 - p)) / p
        return (v + 1 - p) / p

    def _frozen_choice(self, hand, key, options):
        """Phi(h, u, options): first strictly best option by this solver's conditioned values."""
        values = {opt: self._conditioned_value(hand, key, opt) for opt in options}
        return self._first_best(options, values)


def _ratio(num, den):
    """num/den as a removal probability; None (meaning "treat as >= 1") if den <= 0 < num."""
    if num == 0:
        return ZERO
    if den <= 0:
        return None
    return Fraction(num, den)


class _SplitBlocks:
    """The building blocks of the split construction for one pair P and dealer key D:
    X_a, Y_a (section 6.4) and the removal recursions X(a, b), N(a, b) (6.5), made of the
    split hands' values ``hand_value(e, hand)`` (V_e(h, u)).  ``m``, ``n``: the pair cards
    and all cards of S - 2[P] - D (finite shoe); ``p_pair``: the pair's share (infinite)."""

    def __init__(self, shoe, pair, key, m, n, p_pair, hand_value):
        self.shoe, self.pair, self.key = shoe, pair, key
        self.m, self.n, self.p = m, n, p_pair
        self.infinite = shoe is None
        self.hand_value = hand_value
        self.memo: dict = {}

    def X_block(self, a):
        k = ("Xb", a)
        if k not in self.memo:
            S, pair = self.shoe, self.pair
            if not self.infinite and a > S[pair - 1] - 2:
                raise ValueError(f"X_{a} undefined for pair {pair} (needed with weight > 0)")
            shoe_a = _remove(S, pair, a + 2)
            if not _contains(shoe_a, _hand(self.key)):
                raise ValueError(f"X_{a} undefined: dealer card(s) {self.key} absent")
            v = ZERO
            for r, rho in _next_card(_remove_cards(shoe_a, self.key)):
                v += rho * self.hand_value(a + 1, _hand((pair, r)))
            self.memo[k] = v
        return self.memo[k]

    def Y_block(self, a):
        k = ("Yb", a)
        if k not in self.memo:
            rho_shoe = _remove_cards(_remove(self.shoe, self.pair, a + 2), self.key)
            if _share(rho_shoe, self.pair) == 0:
                self.memo[k] = ZERO
            else:
                self.memo[k] = self.hand_value(a + 1, _hand((self.pair, self.pair)))
        return self.memo[k]

    def _gamma(self, a, b, extra):
        """The removal probability of 6.5: gamma_X (extra = 1) or gamma_N (extra = 0)."""
        return self.p if self.infinite else _ratio(self.m - a, self.n + extra - a - b)

    @staticmethod
    def _step(prev, gamma, inner):
        """[prev - gamma * inner] / [1 - gamma]; 0 if gamma >= 1; inner dropped if gamma = 0."""
        if gamma is None or gamma >= 1:
            return ZERO
        if gamma == 0:
            return prev()
        if gamma < 0:
            raise ValueError("negative removal probability (shoe too small)")
        return (prev() - gamma * inner()) / (1 - gamma)

    def X(self, a, b):
        k = ("X", a, b)
        if k not in self.memo:
            if b == 0:
                self.memo[k] = self.X_block(a)
            else:
                self.memo[k] = self._step(lambda: self.X(a, b - 1), self._gamma(a, b, 1),
                                          lambda: self.X(a + 1, b - 1))
        return self.memo[k]

    def N(self, a, b):
        k = ("N", a, b)
        if k not in self.memo:
            if b == 0:
                self.memo[k] = self._step(lambda: self.X_block(a), self._gamma(a, 0, 0),
                                          lambda: self.Y_block(a))
            else:
                self.memo[k] = self._step(lambda: self.N(a, b - 1), self._gamma(a, b, 0),
                                          lambda: self.N(a + 1, b - 1))
        return self.memo[k]


# --------------------------------------------------------------------------------------------
# Independent brute force: one real round, card by card
# --------------------------------------------------------------------------------------------

class ShoeExhausted(RuntimeError):
    """Raised by the brute force when some path would need a card from an empty shoe."""


def solver_policy(solver, forced_first=None):
    """A ``brute_force_round_ev`` policy playing ``solver``'s own strategy (split hands:
    sigma of section 6.3), optionally forcing the first action of the original hand."""
    def policy(cards, dealer, allowed, is_split_hand):
        if forced_first is not None and len(cards) == 2 and not is_split_hand:
            return forced_first
        if is_split_hand:
            return solver.post_split_action(cards[0], cards, dealer)
        return solver.best_action(cards, dealer)
    return policy


def cards_total(cards):
    """(best total, soft) of a list of card ranks (brute forces)."""
    hard = sum(cards)
    if ACE in cards and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def next_card_draws(shoe):
    """(rank, chance, shoe after it) for every rank the shoe (10 counts) holds: the next
    card of a brute-force deal; an empty shoe raises ShoeExhausted."""
    size = sum(shoe)
    if size == 0:
        raise ShoeExhausted("a path needs a card from an empty shoe")
    for r in RANKS:
        if shoe[r - 1]:
            lst = list(shoe)
            lst[r - 1] -= 1
            yield r, Fraction(shoe[r - 1], size), tuple(lst)


def brute_force_dealer(stop, draws=next_card_draws):
    """``dealer_final(shoe, cards)`` for a brute force: {final: chance} of a dealer holding
    ``cards`` (no natural) who takes cards one by one (``draws(shoe)``: rank, chance, shoe
    after it; by default from the finite ``shoe``) until ``stop(shoe, cards)`` names a final
    (None: one more card; a card from an empty shoe raises ShoeExhausted).  Memoised by the
    shoe and the cards held."""
    memo = {}

    def dealer_final(shoe, cards):
        key = (shoe, tuple(sorted(cards)))
        if key not in memo:
            final = stop(shoe, cards)
            if final is not None:
                out = {final: ONE}
            else:
                out = {}
                for r, p, rest in draws(shoe):
                    for k, q in dealer_final(rest, cards + (r,)).items():
                        out[k] = out.get(k, ZERO) + p * q
            memo[key] = out
        return memo[key]
    return dealer_final


def brute_force_peek(shoe, upcard, player_cards, dealer_natural, play, draws=next_card_draws):
    """A brute force's peek deal: the hole card is dealt (``draws``, as in
    ``brute_force_dealer``) from ``shoe`` at once and checked; a dealer natural ends the
    round, worth ``dealer_natural(the player has a natural)``, else ``play(shoe left, hole
    card)`` is the round's value."""
    ev = ZERO
    for r, p, rest in draws(shoe):
        if _is_natural_cards((upcard, r)):
            ev += p * dealer_natural(_is_natural_cards(player_cards))
        else:
            ev += p * play(rest, r)
    return ev


def brute_force_round_ev(counts, upcard, player_cards, policy, *,
                         blackjack_payout=Fraction(3, 2), max_split_hands=4,
                         resplit_aces=False, hit_soft_17=False, double="any", double_soft=True,
                         double_any_cards=False, double_after_split=True, late_surrender=False,
                         hole_card="last", game="peek", surrender=None, dealer_wins_ties=False,
                         hit_split_aces=False, natural_tie="lose"):
    """Exact unconditioned EV of ONE real round, by enumerating every card sequence.

    ``counts``: the finite shoe with the player's two cards and the dealer's upcard (exposed
    game: both dealer cards) already removed.  ``player_cards``: the player's two ranks.
    ``policy(hand_cards, upcard, allowed, is_split_hand) -> action`` is called at every player
    decision; ``hand_cards`` is the tuple of the hand's ranks in the order received, ``allowed``
    a tuple drawn from ("stand", "hit", "double", "split", "surrender"), ``upcard`` the argument
    given here (exposed game: the tuple of the dealer's two cards).

    Rules played: split hands are dealt and played one at a time (hand 1 gets its second card,
    a pair card is split off into a new hand while fewer than the limit exist, hand 1 is played
    to the end, then hand 2 ...); the limit is ``max_split_hands`` (2 for aces without RSA);
    split aces get one card (``hit_split_aces``: they are played like other split hands); a
    player A+T is a natural only on the unsplit original hand (it is paid, never offered a
    decision); every card is really removed from the shoe.

    ``game`` (what a dealer natural does):
    * "peek": the dealer checks for a natural; it costs exactly one unit in total (a player
      natural pushes).  ``hole_card="last"``: the hole card is drawn after all the player's
      cards (the the exact model model); ``"first"``: before them (the real deal order; the player does
      not see it; a natural ends the round at once, except that an early surrender is decided
      before the check).
    * "enhc-obo": no hole card, only the original bet is lost to a natural: the same payoffs as
      "peek".
    * "enhc": no hole card; the dealer's second card is drawn after the player's cards
      (``hole_card="first"``: drawn before them, unseen and unchecked, which must give the same
      EV); a natural takes every bet still at stake: each standing hand (doubled: two units) and
      a late-surrendered hand lose their whole bet, busted hands have already lost theirs, an
      early surrender keeps its half, a player natural pushes.
    * "exposed": ``upcard`` is the dealer's two face-up cards; the dealer draws on from them.
      Against a dealer natural the round ends (a player natural pushes, anything else loses 1).
    ``surrender``: "none" | "late" | "early" (None: ``late_surrender`` decides).  A late
    surrender is voided by a dealer natural (the whole bet is lost); an early one keeps half.
    ``dealer_wins_ties``: every push loses the bet at stake; natural against natural then
    follows ``natural_tie``: "lose" (default), "push", or "win" (paid b).
    Raises ShoeExhausted if any path would need a card from an empty shoe.  No formula of
    ReferenceSolver is used.
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
    if game not in HOLE_CARDS:
        raise ValueError(f"game must be one of {HOLE_CARDS}")
    surrender = _surrender_rule(surrender, late_surrender)
    exposed = game == "exposed"
    if exposed:
        dealer_start = tuple(upcard)
        if len(dealer_start) != 2:
            raise ValueError("the exposed game needs the dealer's two cards")
        up = None
    else:
        up = upcard
        dealer_start = (upcard,)
    pair = first[0] if first[0] == first[1] else None
    limit = max_split_hands
    if pair == ACE and not resplit_aces:
        limit = min(limit, 2)

    total = cards_total

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

    draws = next_card_draws

    def is_natural(c1, c2):
        return sorted((c1, c2)) == [ACE, TEN]

    # ---- dealer: ordered draws until a standing total -----------------------------------------
    def dealer_stop(shoe, cards):
        """Where a dealer holding ``cards`` stops: 17..21, or "bust" over 21 (None: draws)."""
        t, soft = total(cards)
        if t > 21:
            return "bust"
        if t >= 18 or (t == 17 and not (soft and hit_soft_17)):
            return t
        return None

    dealer_final = brute_force_dealer(dealer_stop)

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
            elif t < dealer_total or dealer_wins_ties:
                win -= bet
        return win

    natural_vs_natural = _natural_tie_value(dealer_wins_ties, natural_tie, b)

    def natural_payoff(hands):
        """What the finished hands get against a dealer natural."""
        if game == "enhc":
            win = ZERO
            for kind, _, bet in hands:
                if kind == "natural":
                    win += natural_vs_natural
                elif kind == "surrender":
                    win -= Fraction(1, 2) if surrender == "early" else ONE
                else:
                    win -= bet  # standing hands lose their stake; busted ones already did
            return win
        # peek / enhc-obo / exposed: one unit in total
        if any(kind == "natural" for kind, _, _ in hands):
            return natural_vs_natural
        if surrender == "early" and any(kind == "surrender" for kind, _, _ in hands):
            return Fraction(-1, 2)
        return -ONE

    phase_memo = {}

    def dealer_phase(shoe, hands, hole):
        """EV once every player hand is finished. ``hole`` is the known hole card or None."""
        key = (shoe, hands, hole)
        if key in phase_memo:
            return phase_memo[key]
        ev = ZERO
        if exposed:
            for k, q in dealer_final(shoe, dealer_start).items():
                ev += q * settle(hands, k)
        elif hole is None:
            for r, p, rest in draws(shoe):
                if is_natural(up, r):
                    ev += p * natural_payoff(hands)
                else:
                    for k, q in dealer_final(rest, (up, r)).items():
                        ev += p * q * settle(hands, k)
        elif is_natural(up, hole):  # only reachable in enhc with the second card dealt first
            ev = natural_payoff(hands)
        else:
            for k, q in dealer_final(shoe, (up, hole)).items():
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
            elif pair == ACE and not hit_split_aces:
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

    def start_allowed(cards):
        allowed = ["stand", "hit"]
        if can_double(cards, False):
            allowed.append("double")
        if pair is not None and limit >= 2:
            allowed.append("split")
        if surrender != "none":
            allowed.append("surrender")
        return tuple(allowed)

    def _decide(shoe, cards, bet, split_hand, round_start, done, waiting, nhands, hole):
        if round_start:
            allowed = start_allowed(cards)
        else:
            allowed = ("stand", "hit", "double") if can_double(cards, split_hand) \
                else ("stand", "hit")
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

    if exposed:
        if is_natural(*dealer_start):
            return natural_vs_natural if is_natural(*first) else -ONE
        return play(shoe0, None)
    if hole_card == "last":
        return play(shoe0, None)
    if game == "enhc":
        # The second dealer card lies face down, unchecked, until the player is done.
        return sum((p * play(rest, r) for r, p, rest in draws(shoe0)), ZERO)
    # Peek (and enhc-obo, which pays the same): the dealer checks the hole card at once; an
    # early surrender is decided before that check.
    if surrender == "early" and not is_natural(*first):
        if policy(first, upcard, start_allowed(first), False) == "surrender":
            return Fraction(-1, 2)
    return brute_force_peek(shoe0, up, first,
                            lambda natural: natural_vs_natural if natural else -ONE, play)
