# Constants, structs and small inline helpers shared by every kernel module.
# (A declarations-only module: nothing to compile, cimport it.)
from libc.math cimport fabs, fmax
from libc.stdint cimport uint64_t


cdef enum:
    N_RANKS = 10          # ranks 1..10 stored at index 0..9 (ten-valued cards pooled)
    N_DEALER = 6          # stored dealer outcomes: 17, 18, 19, 20, 21, blackjack
    MAX_A = 8             # split recursion tables (a, b < MAX_A)
    # packed hand keys: 5 bits per rank count (ranks 0..9), then the split context
    COUNT_BITS = 5
    PAIR_SHIFT = 50
    EXTRA_SHIFT = 54
    KIND_SHIFT = 58

# Actions, in the fixed order used to break ties (earlier wins).
cdef enum:
    ACT_STAND = 0
    ACT_HIT = 1
    ACT_DOUBLE = 2
    ACT_SPLIT = 3
    ACT_SURRENDER = 4
    ACT_NONE = 7

# Post-split strategy classes.
cdef enum:
    SPLIT_CDZ = 0
    SPLIT_CDP1 = 1
    SPLIT_CDP = 2
    SPLIT_POLICY = 3      # a user strategy (frozen decisions) drives every choice

# Kinds of decision a user policy is consulted for.
cdef enum:
    KIND_START = 0        # the original two cards (split and surrender may be allowed)
    KIND_LATER = 1        # any later decision of an unsplit hand
    KIND_SPLIT = 2        # any decision of a split hand


# The rules as every kernel reads them; filled only by bjcore._rules.decode_rules (from the
# kernel rule dict, checked there), so no two kernels can read a rule differently.
cdef struct RuleParams:
    int hit_soft_17
    int double_min_total     # 0 for any total; 9 or 10 for D9 / D10
    int double_soft
    int double_any_cards
    int double_after_split
    int max_split_hands
    int resplit_aces
    int hit_split_aces
    int surrender            # 0 none, 1 late (after the peek), 2 early (before it)
    double blackjack_payout
    int split_class
    int natural_takes_all    # ENHC: a dealer natural takes doubled and split bets too
    double tie_value         # what a push pays: 0, or -1 when the dealer wins ties
    double natural_tie_value # what a player natural gets against a dealer natural
    # The games dealt beside the classic one (docs/games.md).  Optional keys of the rule
    # dict; their defaults are the classic game, where ``game`` is 0.
    int dealer_22_push       # a dealer 22 pushes every standing hand but a natural
    int free_double_totals   # bit t set: a two-card hard total t doubles free
    int free_split_ranks     # bit r set (r = 1..10): a pair of rank r splits free
    int player_21_wins       # a player 21 (not a natural) beats every dealer total
    double bonus_21[3]       # payout of a winning 21 of 5, 6, 7+ cards (1: no bonus)
    double bonus_678[3]      # of a three-card 21 of 6-7-8: mixed, suited, spades
    double bonus_777[3]      # of a three-card 21 of 7-7-7: mixed, suited, spades
    int bonus_after_split    # the bonuses are paid on split hands too
    double super_bonus       # suited 7-7-7 against a dealer 7, per unit bet (0: none)
    double full_sevens       # the sevens of the whole shoe the analysed one was dealt
                             # from, for the suits of 7-7-7 (0: the analysed shoe's own)
    int redoubles            # times a doubled hand may double again (0..3)
    int double_rescue        # a doubled hand may surrender, losing the original bet
    int double_split_aces    # a split ace may double (with hit_split_aces, or alone)
    int rescue_after_redouble  # the rescue stays offered after a redouble (else: once doubled only)
    int player_21_beats_natural  # no hole card: a player 21 (player_21_wins) is paid at
                                 # once, before the dealer's natural could take it
    int natural_loss         # no hole card (natural_takes_all): 0 the dealer natural takes
                             # every own stake; 1 OBBO; 2 BB+1 (docs/games.md)
    double diamond_blackjack_payout  # a natural of two diamonds pays this (0: no such rule)
    int charlie              # a hand of this many cards that has not busted wins (0: none)
    int surrender_any_time   # late surrender after hitting and on split hands too
    int bonus_21_at_once     # a 21 of 5+ cards (undoubled) wins at once, paid bonus_21
    int game                 # 1 when any of these differs from the classic game


# Two option values closer than TIE_TOLERANCE_VALUE (relative) are a tie, which the
# earlier option wins; the Python layer reads it as bjcore.TIE_TOLERANCE.
# MAX_COUNT_VALUE is the largest count the kernels accept for one rank: far beyond any
# real shoe, and small enough that every product in the dealer enumeration stays finite.
cdef extern from *:
    """
    static const double BJ_TIE_TOLERANCE = 1e-12;
    static const double BJ_MAX_COUNT = 1e9;
    """
    const double TIE_TOLERANCE_VALUE "BJ_TIE_TOLERANCE"
    const double MAX_COUNT_VALUE "BJ_MAX_COUNT"


cdef inline uint64_t rank_unit(int r) noexcept nogil:
    """One card of rank index r in a packed composition key."""
    return (<uint64_t>1) << (COUNT_BITS * r)


cdef inline bint double_allowed(const RuleParams* rules, int total, bint soft,
                               int n_cards) noexcept nogil:
    """Dbl(h) of section 4: whether the rules let a hand of this total, softness and
    number of cards double, by its own cards (whether a split hand may double at all,
    double_after_split, is the caller's).  The one copy: the solver's engines and the
    round-distribution kernel both ask it."""
    if rules.double_min_total > 0 and not (rules.double_min_total <= total <= 11):
        return False
    if soft and not rules.double_soft:
        return False
    if n_cards != 2 and not rules.double_any_cards:
        return False
    return True


cdef inline bint improves(double challenger, double incumbent) noexcept nogil:
    """Section 4 of the conventions: a later option replaces the current choice only if
    strictly better.  Values equal in exact arithmetic can differ by rounding (~1e-16) in
    binary64, so "better" means by more than a relative TIE_TOLERANCE_VALUE: exact ties
    then go to the earlier option as the rules say, and no real difference comes near
    that size."""
    cdef double scale = fabs(incumbent)
    if not scale > 1.0:
        scale = 1.0   # fmax(1.0, |incumbent|) without the libm call (NaN -> 1.0, as fmax)
    return challenger - incumbent > TIE_TOLERANCE_VALUE * scale


cdef inline int soft_total(int hard, int aces) noexcept nogil:
    """Best total of a hand: an ace counts 11 when that does not bust."""
    if aces > 0 and hard + 10 <= 21:
        return hard + 10
    return hard


# ---- the round's first cards and a split's removal recursions -------------------------
# The value engine and the round-law kernel deal and split alike.

cdef inline double first_two_chance(const double* n, double left, int c1, int c2,
                                    bint infinite) noexcept nogil:
    """The chance that the player's first two cards are c1 then c2 (rank indices), from
    the counts ``n`` (``left`` cards; probabilities when ``infinite``); 0 when the shoe
    cannot deal them."""
    cdef double w
    if infinite:
        return n[c1] * n[c2]
    w = n[c1] * (n[c2] - (1 if c1 == c2 else 0))
    if w <= 0.0:
        return 0.0
    return w / (left * (left - 1))


cdef inline void split_removal_counts(const double* shoe, const int* dealer_cnt,
                                      double shoe_size, int p, bint infinite, double* pp,
                                      double* m, double* n) noexcept nogil:
    """What the split construction's removal recursions (X_{a,b}, N_{a,b}) of pair index
    ``p`` draw from: on a finite shoe the ``m`` pair cards and ``n`` cards left beside the
    two pair cards and the dealer's; on an infinite one, the pair rank's chance ``pp``
    (``m`` and ``n`` 0; ``pp`` is left alone on a finite shoe)."""
    cdef int r, dealer_n = 0
    if infinite:
        pp[0] = shoe[p]
        m[0] = 0.0
        n[0] = 0.0
        return
    for r in range(N_RANKS):
        dealer_n += dealer_cnt[r]
    m[0] = shoe[p] - 2 - dealer_cnt[p]
    n[0] = shoe_size - 2 - dealer_n


# ---- surrendering ----------------------------------------------------------------------
# The value engine (_round) and the round-law kernel (RoundLaws) value it alike.

cdef inline double surrender_worth(const RuleParams* rules, double hole_natural) noexcept nogil:
    """Surrendering, unconditioned: early surrender (``surrender`` 2) keeps half the bet
    even against a natural; late surrender only when the dealer has none (``hole_natural``:
    the chance the hole card makes one)."""
    if rules.surrender == 2:
        return -0.5
    return -0.5 - 0.5 * hole_natural


# ---- a player hand as the recursions hold it ------------------------------------------
# The value engine (_engine.Engine) and the round-law kernel (RoundLaws) walk the same hands:
# this is their one hand state and its operations.

cdef struct HandCards:
    int cnt[N_RANKS]      # the hand's cards by rank index
    int hard_sum          # their sum, aces as 1
    int n_cards
    int pair_rank         # 0 for an unsplit hand, else the split pair's rank 1..10
    int extra             # extra pair cards known to be gone (the split context e)


cdef inline void cards_clear(HandCards* h) noexcept nogil:
    cdef int r
    for r in range(N_RANKS):
        h.cnt[r] = 0
    h.hard_sum = 0
    h.n_cards = 0
    h.pair_rank = 0
    h.extra = 0


cdef inline void cards_add(HandCards* h, int r) noexcept nogil:
    h.cnt[r] += 1
    h.hard_sum += r + 1
    h.n_cards += 1


cdef inline void cards_remove(HandCards* h, int r) noexcept nogil:
    h.cnt[r] -= 1
    h.hard_sum -= r + 1
    h.n_cards -= 1


cdef inline int cards_total(const HandCards* h) noexcept nogil:
    return soft_total(h.hard_sum, h.cnt[0])


cdef inline bint cards_soft(const HandCards* h) noexcept nogil:
    return h.cnt[0] > 0 and h.hard_sum + 10 <= 21


cdef inline bint cards_natural(const HandCards* h) noexcept nogil:
    """An ace and a ten as the two cards of an unsplit hand."""
    return h.pair_rank == 0 and h.n_cards == 2 and h.cnt[0] == 1 and h.cnt[9] == 1


cdef inline uint64_t cards_key(const HandCards* h) noexcept nogil:
    """The hand's composition, packed COUNT_BITS per rank (``rank_unit``)."""
    cdef uint64_t key = 0
    cdef int r
    for r in range(N_RANKS):
        key += <uint64_t>h.cnt[r] * rank_unit(r)
    return key


cdef inline uint64_t cards_removed_key(const HandCards* h, uint64_t hand_key) noexcept nogil:
    """The cards out of the shoe for a hand whose composition key is ``hand_key``: its own
    and, split, its extra pair cards (the key of its dealer outcome laws)."""
    if h.pair_rank == 0:
        return hand_key
    return hand_key + <uint64_t>h.extra * rank_unit(h.pair_rank - 1)


cdef inline uint64_t cards_context_key(const HandCards* h, uint64_t hand_key,
                                       bint by_total) noexcept nogil:
    """A hand's memo key in its context: its composition ``hand_key`` (or, ``by_total``,
    only its hard sum, whether it holds an ace and whether it still has two cards: on an
    infinite shoe an optimal play's values depend on nothing else, removal being
    irrelevant) with its pair rank and extra pair cards (by_total: whether any)."""
    cdef uint64_t hand = hand_key
    cdef int extra = h.extra
    if by_total:
        hand = (<uint64_t>h.hard_sum | (<uint64_t>(h.cnt[0] > 0) << 5)
                | (<uint64_t>(h.n_cards if h.n_cards < 3 else 3) << 6))
        extra = 1 if extra > 0 else 0
    return hand | (<uint64_t>h.pair_rank << PAIR_SHIFT) | (<uint64_t>extra << EXTRA_SHIFT)


cdef inline uint64_t decision_key(const HandCards* h, uint64_t hand_key, int kind,
                                  int split_context) noexcept nogil:
    """A decision's key in a table of frozen decisions (``_memo.DecisionTable``): the hand's
    composition ``hand_key`` and the kind of decision; a split hand's also its split
    context where the table keeps contexts apart (``split_context`` 1, CDP1: the pair rank,
    as with one extra pair card gone; 2, CDP: the pair rank and the extra pair cards)."""
    cdef uint64_t key = hand_key | (<uint64_t>kind << KIND_SHIFT)
    if kind == KIND_SPLIT and split_context > 0:
        key |= ((<uint64_t>h.pair_rank << PAIR_SHIFT)
                | (<uint64_t>(1 if split_context == 1 else h.extra) << EXTRA_SHIFT))
    return key


cdef inline int split_hands_limit(const RuleParams* rules, const double* shoe, bint infinite,
                                  int pair) noexcept nogil:
    """The most hands a pair of rank ``pair`` may be split into: the rules' limit, two for
    aces that may not be resplit, and no more than the shoe's cards of the rank."""
    cdef int limit = rules.max_split_hands
    if pair == 1 and not rules.resplit_aces and limit > 2:
        limit = 2
    if not infinite and shoe[pair - 1] < limit:
        limit = <int>shoe[pair - 1]
    return limit


cdef inline bint split_context_weights(const double* shoe, const int* dealer_cnt, int p,
                                       int a, bint infinite, double* rho) noexcept nogil:
    """The next-card probabilities ``rho`` of a split hand of pair index ``p`` holding its
    pair card, with ``a`` more pair cards gone (the other hand's and resplit ones) and the
    dealer's cards out; False when the shoe cannot hold that context.  The one copy: the
    solver's split values and the round laws' split laws start from it."""
    cdef double left = 0.0
    cdef int r
    for r in range(10):
        rho[r] = shoe[r]
    if infinite:
        return True
    rho[p] -= a + 2
    for r in range(10):
        rho[r] -= dealer_cnt[r]
    if rho[p] < 0:
        return False
    for r in range(10):
        left += rho[r]
    if left <= 0:
        return False
    for r in range(10):
        rho[r] /= left
    return True


cdef inline double falling(double x, int k) noexcept nogil:
    """x (x - 1) ... (x - k + 1)."""
    cdef double v = 1.0
    cdef int j
    for j in range(k):
        v *= x - j
    return v


# ---- the split recursion's removal steps (docs/algorithms.md, "Splitting"), shared by the
# value engine (_splits.pyx) and the outcome laws (_distribution.pyx, _split_moments.pyx)

cdef inline double unknown_pair_chance(bint infinite, double m, double n, int a, int b,
                                       double pp) noexcept nogil:
    """Chance that one more unknown gone card is a pair card (6.5): m pair cards among n,
    a pair cards and b others known gone (``pp`` the pair rank's chance, infinite shoe)."""
    cdef double denom
    if infinite:
        return pp
    if m - a <= 0.0:
        return 0.0
    denom = n - a - b
    if denom <= 0.0:
        return 1.0
    return (m - a) / denom


cdef inline double remove_unknown(double whole, double pair_part, double g) noexcept nogil:
    """Solve whole = g * pair_part + (1 - g) * rest for rest (one removal step)."""
    if g >= 1.0:
        return 0.0
    if g == 0.0:
        return whole
    return (whole - g * pair_part) / (1.0 - g)


cdef inline double pair_draw_ratio(bint infinite, double m, double q, double n, int j, int k,
                                   double pp) noexcept nogil:
    """m^(j) q^(k) / n^(j+k): j pair cards then k others, in a given order (infinite
    shoe: pp^j (1 - pp)^k)."""
    cdef double num
    if infinite:
        return pp ** j * (1.0 - pp) ** k
    num = falling(m, j) * falling(q, k)
    if num == 0.0:
        return 0.0
    return num / falling(n, j + k)


cdef inline double expected_split_hands(int M, double P2, double P3) noexcept nogil:
    """Expected number of hands a split makes, resplitting up to ``M`` hands, where P2 is
    the chance it ends with two hands and P3 with three (with four: the rest)."""
    if M == 2:
        return 2.0
    if M == 3:
        return 2.0 * P2 + 3.0 * (1.0 - P2)
    return 2.0 * P2 + 3.0 * P3 + 4.0 * (1.0 - P2 - P3)


cdef inline double natural_refund_finite(const double* rho, int p, int hole,
                                         int M) noexcept nogil:
    """What a split's value adds back because a dealer natural takes one unit, not one
    per hand: (expected hands - 1) x the natural's chance, on a finite shoe.  ``rho``: the
    10 counts less the dealer's cards and the pair's two cards; ``p``: the pair's rank
    index; ``hole``: the rank index that makes a natural with the upcard."""
    cdef double left = 0.0, beta_s, n2, m2, P2, P3
    cdef int r
    for r in range(10):
        left += rho[r]
    beta_s = rho[hole] / left if (left > 0 and rho[hole] > 0) else 0.0
    if beta_s <= 0.0:
        return 0.0
    n2 = left - 1
    m2 = rho[p] - (1 if hole == p else 0)
    P2 = falling(n2 - m2, 2) / falling(n2, 2) if n2 >= 2 else 1.0
    P3 = 2.0 * m2 * falling(n2 - m2, 3) / falling(n2, 4) if n2 >= 4 else 0.0
    return (expected_split_hands(M, P2, P3) - 1.0) * beta_s
