# cython: language_level=3
# distutils: language = c++
"""Splitting a pair (sections 6.1-6.7 of the conventions): the building blocks X_a, Y_a
(split hands valued with ``a`` extra pair cards known to be gone), the removal
recursions that take out pair cards of unknown position, and the assembly over the
number of hands.  The split hands themselves are valued by ``_hands`` in the
split contexts; which choices they make is the post-split class (CDZ-, CDP1, CDP).
Where a split has two or more contexts, the optimising classes value a split hand in all
of them in one recursion (the "lane" methods below) with dealer distributions grouped
across the contexts (``_pair_dealer``); see docs/algorithms.md.
"""
from libc.math cimport NAN, isnan

from bjcore._defs cimport *
from bjcore._engine cimport Engine, blank_values, LaneValues, MAX_LANES
from bjcore._hands cimport (split_group_key, next_card_weights, natural_refund,
                            queue_split_group, stand_value, best_option, policy_key,
                            optimal_unsplit_choice, continuation, get, value_at,
                            best_option_at, hand_add, hand_remove, stand_from_outcomes)
from bjcore._memo cimport HashIndex, prefetch_address
from bjcore._alloc cimport vector
from libcpp.unordered_map cimport unordered_map
from libc.stdint cimport int8_t, int16_t, int64_t, uint32_t, uint64_t

cdef size_t LANE_ROWS = 4096   # lane_store's first capacity (see lane_row)
cdef int MAX_CHANCE_COLS = 1024   # card_chances: counts up to 1,023 a rank (64 decks)


# ---- every composition of at most 21 (for value_bottom_up) ----------------------------
# The hands of one card or more whose hard sum is at most 21 (3,082), each with its
# counts and the hand one card larger for each rank; and for each rank, those of two cards
# or more that hold it, largest first (every hand after the hands one card larger).  The
# same for every shoe and rule set: built once, when the module is imported.
cdef enum:
    MAX_COMPOSITIONS = 3200
    PREFETCH_AHEAD = 4      # value_bottom_up: dealer rows loaded this many hands ahead,
    INDEX_AHEAD = 8         # ... and index entries this many
    AHEAD_RING = 8          # (a power of two > PREFETCH_AHEAD: the rows found ahead)

cdef int n_compositions = 0
cdef uint64_t comp_key[MAX_COMPOSITIONS]
cdef int8_t comp_cnt[MAX_COMPOSITIONS][N_RANKS]
cdef int comp_hard[MAX_COMPOSITIONS]
cdef int comp_cards[MAX_COMPOSITIONS]
cdef int16_t comp_child[MAX_COMPOSITIONS][N_RANKS]   # -1: over 21
cdef int16_t comps_holding[N_RANKS][MAX_COMPOSITIONS]
cdef int n_holding[N_RANKS]
cdef int16_t comps_all[MAX_COMPOSITIONS]   # every one of two cards or more, largest first
cdef int n_all


cdef void enumerate_compositions(int lowest, int* cnt, int hard, int cards, uint64_t key):
    global n_compositions
    cdef int r, i
    if cards >= 1:
        i = n_compositions
        n_compositions += 1
        comp_key[i] = key
        for r in range(N_RANKS):
            comp_cnt[i][r] = cnt[r]
        comp_hard[i] = hard
        comp_cards[i] = cards
    for r in range(lowest, N_RANKS):
        if hard + r + 1 > 21:
            break
        cnt[r] += 1
        enumerate_compositions(r, cnt, hard + r + 1, cards + 1, key + rank_unit(r))
        cnt[r] -= 1


cdef void build_compositions():
    global n_all
    cdef int cnt[N_RANKS]
    cdef int i, r, n, k
    # (a map of its own, not a HashIndex: those take their blocks from the recycling pool,
    # which importing the module must not start, docs/algorithms.md "Side effects")
    cdef unordered_map[uint64_t, int] where
    for r in range(N_RANKS):
        cnt[r] = 0
    enumerate_compositions(0, cnt, 0, 0, 0)
    for i in range(n_compositions):
        where[comp_key[i]] = i
    for i in range(n_compositions):
        for r in range(N_RANKS):
            # (a child of at most 21 is itself a composition of at most 21: always found)
            comp_child[i][r] = (where[comp_key[i] + rank_unit(r)]
                                if comp_hard[i] + r + 1 <= 21 else -1)
    for r in range(N_RANKS):
        k = 0
        for n in range(21, 1, -1):   # most cards first
            for i in range(n_compositions):
                if comp_cards[i] == n and comp_cnt[i][r] > 0:
                    comps_holding[r][k] = i
                    k += 1
        n_holding[r] = k
    k = 0
    for n in range(21, 1, -1):
        for i in range(n_compositions):
            if comp_cards[i] == n:
                comps_all[k] = i
                k += 1
    n_all = k


build_compositions()

cdef extern from "portable.h":
    int lanes_end "bj_bit_width"(uint32_t mask) noexcept nogil   # highest lane + 1


cdef inline void lane_shoe(int p, const double* base, int e, double* n) noexcept nogil:
    """The counts a split context with e extra cards of pair rank index p gone leaves,
    clamped at 0 (as Engine.remaining with extra = e, then clamped): ``base`` holds
    the counts after the hand and the dealer's cards."""
    cdef int r
    for r in range(N_RANKS):
        n[r] = base[r]
    n[p] -= e
    for r in range(N_RANKS):
        if n[r] < 0.0:
            n[r] = 0.0


cdef int hands_limit(Engine self, int pair) noexcept nogil:
    return split_hands_limit(&self.rules, self.shoe, self.infinite, pair)


cdef double pair_hand_value(Engine self, int pair, int extra, int second) noexcept nogil:
    """V_extra(P + second): a split hand's value at its first decision."""
    cdef double v
    self.clear_hand()
    self.hand.pair_rank = pair
    self.hand.extra = extra
    hand_add(self, pair - 1)
    hand_add(self, second)
    v = continuation(self)
    self.clear_hand()
    return v

# ---- every split context at once --------------------------------------------------
#
# A split hand of pair rank P is valued in contexts e = 1 .. amax + 1 (extra pair
# cards gone).  Valuing one context at a time walks every composition once per
# context, with a memo look-up per composition and context.  Here one walk carries
# all contexts as lanes: each composition is looked up once and holds its values in
# every context (LaneValues), and the recursion follows a card wherever any context
# can draw it.  Each lane does exactly the arithmetic the context-at-a-time recursion
# (_hands.hit_value, double_value, continuation) does, in the same order, so the
# values are the same to the bit.  A lane mask says which contexts are wanted; a
# context is only ever reached through cards it can draw, as before.
# Used for the optimising classes on finite shoes; frozen policies and the infinite
# shoe keep the context-at-a-time recursion.


cdef bint lanes_enabled(Engine self, int p) noexcept nogil:
    """Whether pair index p's split hands are valued with lanes: where its split
    has two or more contexts (set by split_value; the infinite shoe never), for the
    optimising classes."""
    return self.pair_groups[p] and self.rules.split_class != SPLIT_POLICY


cdef void lane_blocks(Engine self, int pair, int amax, double* X, double* Y) noexcept nogil:
    """X_a and Y_a of split_value (6.4) for a = 0 .. amax, all contexts at once."""
    cdef double rho[MAX_A][N_RANKS]
    cdef double out[MAX_LANES]
    cdef bint valid[MAX_A]
    cdef double left
    cdef unsigned int mask
    cdef int a, r, p = pair - 1
    for a in range(amax + 1):
        left = 0.0
        for r in range(N_RANKS):
            rho[a][r] = self.shoe[r] - self.dealer_cnt[r]
        rho[a][p] -= a + 2
        valid[a] = rho[a][p] >= 0
        for r in range(N_RANKS):
            left += rho[a][r]
        valid[a] = valid[a] and left > 0
        if valid[a]:
            for r in range(N_RANKS):
                rho[a][r] /= left
    for r in range(N_RANKS):
        mask = 0
        for a in range(amax + 1):
            if valid[a] and rho[a][r] > 0.0:
                mask |= 1u << a
        if mask == 0:
            continue
        self.clear_hand()
        self.hand.pair_rank = pair
        hand_add(self, p)
        hand_add(self, r)
        lane_continuation(self, mask, out)
        self.clear_hand()
        for a in range(amax + 1):
            if mask & (1u << a):
                X[a] += rho[a][r] * out[a]
                if r == p:
                    Y[a] = out[a]


cdef int lane_row(Engine self) noexcept nogil:
    """Row of the current split hand in ``lane_store``, added (empty) if new."""
    cdef uint64_t key = self.hand_key | (<uint64_t>self.hand.pair_rank << PAIR_SHIFT)
    cdef int row = self.lane_index.find(key)
    cdef LaneValues blank
    if row >= 0:
        return row
    blank.have[0] = 0
    blank.have[1] = 0
    blank.have[2] = 0
    if self.lane_store.capacity() == 0:
        # an engine with lanes holds ~900-7,400 rows (1 to 8 decks, CDZ- to CDP): start
        # at LANE_ROWS instead of doubling up from one (each doubling copies every row
        # of 208 bytes: ~2.4% of a one-deck solve)
        self.lane_store.reserve(LANE_ROWS)
    row = <int>self.lane_store.size()
    self.lane_store.push_back(blank)
    self.lane_index.insert(key, row)
    return row


cdef void lane_values(Engine self, int action, unsigned int mask, double* out) noexcept nogil:
    """The current split hand's value of ``action`` in the contexts of ``mask``
    (bit e - 1 for e extra pair cards gone) into out[e - 1]."""
    cdef int row = lane_row(self), l
    lane_compute(self, row, action, mask)
    for l in range(lanes_end(mask)):
        if mask & (1u << l):
            out[l] = self.lane_store[row].v[action][l]


cdef void lane_compute(Engine self, int row, int action, unsigned int mask) noexcept nogil:
    """Compute what ``mask`` wants of ``action`` and ``row`` does not hold yet."""
    cdef unsigned int need = mask & ~self.lane_store[row].have[action], cm
    cdef double pi[MAX_LANES][N_RANKS]
    cdef double ev[MAX_LANES]
    cdef double sub[MAX_LANES]
    cdef int l, r, saved_extra = self.hand.extra
    if need == 0:
        return
    if action == ACT_STAND:
        lane_stand(self, need, ev)
    else:
        lane_card_weights(self, need, &pi[0][0])
        for l in range(lanes_end(need)):
            if need & (1u << l):
                # double: a dealer natural takes only the original bet (as double_value)
                ev[l] = natural_refund(self, pi[l]) if action == ACT_DOUBLE else 0.0
        for r in range(N_RANKS):
            cm = 0
            for l in range(lanes_end(need)):
                if (need & (1u << l)) and pi[l][r] > 0.0:
                    cm |= 1u << l
            if cm == 0:
                continue
            if self.hand.hard_sum + r + 1 > 21:
                # a bust: no hand to build
                for l in range(lanes_end(cm)):
                    if cm & (1u << l):
                        if action == ACT_DOUBLE:
                            ev[l] -= 2.0 * pi[l][r]
                        else:
                            ev[l] -= pi[l][r]
                continue
            hand_add(self, r)
            if action == ACT_DOUBLE:
                lane_values(self, ACT_STAND, cm, sub)
                for l in range(lanes_end(cm)):
                    if cm & (1u << l):
                        ev[l] += 2.0 * pi[l][r] * sub[l]
            else:
                lane_continuation(self, cm, sub)
                for l in range(lanes_end(cm)):
                    if cm & (1u << l):
                        ev[l] += pi[l][r] * sub[l]
            hand_remove(self, r)
    self.hand.extra = saved_extra
    for l in range(lanes_end(need)):
        if need & (1u << l):
            self.lane_store[row].v[action][l] = ev[l]
    self.lane_store[row].have[action] |= need


cdef void lane_base(Engine self, double* base) noexcept nogil:
    """The counts left after the current split hand and the dealer's cards (before
    any extra pair card), in Engine.remaining's arithmetic."""
    cdef int r
    for r in range(N_RANKS):
        base[r] = self.shoe[r] - self.hand.cnt[r] - self.dealer_cnt[r]


cdef void lane_card_weights(Engine self, unsigned int need, double* pi) noexcept nogil:
    """_hands.next_card_weights of the current split hand in every context of
    ``need``, into pi[(e - 1) * N_RANKS + r], bit for bit (finite shoe)."""
    cdef double base[N_RANKS]
    cdef double* row
    cdef double left
    cdef int l, r
    lane_base(self, base)
    for l in range(lanes_end(need)):
        if not need & (1u << l):
            continue
        row = pi + l * N_RANKS
        lane_shoe(self.hand.pair_rank - 1, base, l + 1, row)
        left = 0.0
        for r in range(N_RANKS):
            left += row[r]
        for r in range(N_RANKS):
            row[r] = row[r] / left if left > 0.0 else 0.0


cdef void lane_stand(Engine self, unsigned int need, double* ev) noexcept nogil:
    """_hands.stand_value of the current split hand in every context of ``need``
    into ev[e - 1], from the dealer outcomes split_dealer_for_current would give each
    context, bit for bit, found more cheaply: the hand's group is looked up once for
    all its contexts, and a context's distribution is kept by the group under the
    number of pair cards gone (PairDealer.context_outcomes), where the hands that come
    to the same shoe share it, instead of in the engine's store of distributions."""
    cdef double base[N_RANKS]
    cdef double n[N_RANKS]
    cdef const double* d
    cdef uint64_t key
    cdef double left
    cdef bint have_base = False
    cdef int l, r, e, g = -1, t = self.total(), p = self.hand.pair_rank - 1
    for l in range(lanes_end(need)):
        if not need & (1u << l):
            continue
        e = l + 1
        if self.hand.hard_sum + e * self.hand.pair_rank > 21:
            # a shoe of the hand's group: kept with the group once computed
            if g < 0:
                key = split_group_key(self)
                g = self.pair_dealer.group_number(key)
            if g >= 0:
                d = self.pair_dealer.memo_lookup(p, g, self.hand.cnt[p] + e)
                if d != NULL:
                    ev[l] = stand_from_outcomes(d, t, self.rules.tie_value)
                    continue
        if not have_base:
            lane_base(self, base)
            have_base = True
        lane_shoe(self.hand.pair_rank - 1, base, e, n)
        left = 0.0
        for r in range(N_RANKS):
            left += n[r]
        if self.hand.hard_sum + e * self.hand.pair_rank <= 21:
            # the cards gone could be an unsplit hand: share its distribution
            key = self.hand_key + <uint64_t>e * rank_unit(p)
            d = self.dealer.find(key)
            if d == NULL:
                d = self.dealer.compute(key, n, left, False)
        else:
            if g < 0:   # (not queued: computed now, alone)
                self.pair_dealer.queue(p, n, key)
                self.pair_dealer.flush()
                g = self.pair_dealer.group_number(key)
            d = self.pair_dealer.context_outcomes(p, g, self.hand.cnt[p] + e, n, left)
        ev[l] = stand_from_outcomes(d, t, self.rules.tie_value)


cdef int lane_choice(Engine self, int e, int double_ok) noexcept nogil:
    """best_option for the current split hand in context e (ties: earlier option)."""
    cdef unsigned int bit = 1u << (e - 1)
    cdef double st[MAX_LANES]
    cdef double ht[MAX_LANES]
    cdef double dd[MAX_LANES]
    cdef int best = ACT_STAND
    cdef double v
    lane_values(self, ACT_STAND, bit, st)
    lane_values(self, ACT_HIT, bit, ht)
    v = st[e - 1]
    if improves(ht[e - 1], v):
        best = ACT_HIT
        v = ht[e - 1]
    if double_ok:
        lane_values(self, ACT_DOUBLE, bit, dd)
        if improves(dd[e - 1], v):
            best = ACT_DOUBLE
    return best


cdef void lane_continuation(Engine self, unsigned int mask, double* out) noexcept nogil:
    """_hands.continuation for the current split hand in every context of
    ``mask``: the value of the option its post-split class picks."""
    cdef double st[MAX_LANES]
    cdef double ht[MAX_LANES]
    cdef double dd[MAX_LANES]
    cdef int a, l, double_ok
    cdef double v
    if self.hand.pair_rank == 1 and not self.rules.hit_split_aces:
        lane_values(self, ACT_STAND, mask, out)   # split aces take one card and stand
        return
    double_ok = self.rules.double_after_split and self.may_double()
    if self.rules.split_class == SPLIT_CDZ:
        a = optimal_unsplit_choice(self)
        lane_values(self, a, mask, out)
    elif self.rules.split_class == SPLIT_CDP1:
        a = lane_choice(self, 1, double_ok)   # the pick with one extra pair card gone
        lane_values(self, a, mask, out)
    else:   # CDP: each context picks from its own values
        lane_values(self, ACT_STAND, mask, st)
        lane_values(self, ACT_HIT, mask, ht)
        if double_ok:
            lane_values(self, ACT_DOUBLE, mask, dd)
        for l in range(lanes_end(mask)):
            if mask & (1u << l):
                v = st[l]
                if improves(ht[l], v):
                    v = ht[l]
                if double_ok and improves(dd[l], v):
                    v = dd[l]
                out[l] = v


cdef double split_value(Engine self, int pair) noexcept nogil:
    """Unconditioned expectation of splitting the pair (all hands, all bets)."""
    cdef int M = hands_limit(self, pair)
    cdef int p = pair - 1, a, b, r, k, h, amax, hole
    cdef double X[MAX_A]
    cdef double Y[MAX_A]
    cdef double XT[MAX_A][MAX_A]
    cdef double NT[MAX_A][MAX_A]
    cdef double rho[N_RANKS]
    cdef double m, n, q, g, left, ev, w, beta_s, P2, P3
    cdef double pp = 0.0
    if M < 2:
        return NAN
    if not isnan(self.split_cache[p]):
        return self.split_cache[p]
    amax = 2 * M - 4
    if not self.infinite and self.shoe[p] - 2 < amax:
        amax = <int>self.shoe[p] - 2
    # building blocks X_a, Y_a (6.4); an undefined block stays 0 and is only ever
    # multiplied by a zero weight
    for a in range(MAX_A):
        X[a] = 0.0
        Y[a] = 0.0
    self.extra_max = amax + 1   # contexts e = 1 .. amax + 1 are about to be valued
    # with two or more contexts, one grouped pass per split hand serves them all
    self.pair_groups[p] = not self.infinite and amax >= 1
    if not self.infinite:
        queue_split_needs(self, p)
    if lanes_enabled(self, p):
        lane_blocks(self, pair, amax, X, Y)
    if (self.split_fold >> p) & 1 and self.unsplit_prefetched:
        value_bottom_up(self, p)   # (the loop below then reads the memo)
    for a in range(amax + 1):
        if lanes_enabled(self, p):
            break   # (valued above, every context at once)
        if self.infinite and a > 0:
            X[a] = X[0]
            Y[a] = Y[0]
            continue
        if not split_context_weights(self.shoe, self.dealer_cnt, p, a, self.infinite, rho):
            continue
        for r in range(N_RANKS):
            if rho[r] > 0.0:
                X[a] += rho[r] * pair_hand_value(self, pair, a + 1, r)
        if rho[p] > 0.0:
            Y[a] = pair_hand_value(self, pair, a + 1, p)
    self.extra_max = 0
    self.split_needs_queued = False
    self.pair_dealer.clear()   # every context's outcomes are stored by now
    # removal recursions (6.5)
    split_removal_counts(self.shoe, self.dealer_cnt, self.shoe_size, p, self.infinite,
                         &pp, &m, &n)
    q = n - m
    for a in range(MAX_A):
        for b in range(MAX_A):
            XT[a][b] = 0.0
            NT[a][b] = 0.0
    for a in range(2 * M - 3):
        XT[a][0] = X[a]
        g = unknown_pair_chance(self.infinite, m, n, a, 0, pp)
        NT[a][0] = remove_unknown(X[a], Y[a], g)
    for b in range(1, 2 * M - 3):
        for a in range(2 * M - 3 - b):
            g = unknown_pair_chance(self.infinite, m, n + 1, a, b, pp)
            XT[a][b] = remove_unknown(XT[a][b - 1], XT[a + 1][b - 1], g)
            g = unknown_pair_chance(self.infinite, m, n, a, b, pp)
            NT[a][b] = remove_unknown(NT[a][b - 1], NT[a + 1][b - 1], g)
    # assembly over the number of hands (6.6)
    ev = 0.0
    for h in range(2, M):
        w = (1.0 if h == 2 else 2.0) * pair_draw_ratio(self.infinite, m, q, n, h - 2, h, pp)
        if w != 0.0:
            ev += h * w * NT[h - 2][h - 1]
    for k in range(M - 1):
        w = (2.0 if (M == 4 and k >= 1) else 1.0) * pair_draw_ratio(self.infinite, m, q, n,
                                                                      M - 2, k, pp)
        if w != 0.0:
            ev += w * ((k * NT[M - 2][k - 1] if k > 0 else 0.0) + (M - k) * XT[M - 2][k])
    # one unit in total, not one per hand, is lost to a dealer natural (kappa);
    # under ENHC every split bet is lost, as the hand values already charge.  A split
    # with no block at all (a fractional shoe whose pair rank the pair and the dealer's
    # cards more than use up: 2.5 aces, an ace up) has no hand charged: nothing to give
    # back, its value is 0 (on whole cards such a pair is never dealt)
    hole = self.hole_rank
    if (hole >= 0 and not self.rules.natural_takes_all
            and (self.infinite or self.shoe[p] - 2 - self.dealer_cnt[p] >= 0)):
        if self.infinite:
            beta_s = self.shoe[hole]
            P2 = (1.0 - pp) * (1.0 - pp)
            P3 = 2.0 * pp * (1.0 - pp) ** 3
            if beta_s > 0.0:
                ev += (expected_split_hands(M, P2, P3) - 1.0) * beta_s
        else:
            for r in range(N_RANKS):
                rho[r] = self.shoe[r] - self.dealer_cnt[r]
            rho[p] -= 2
            ev += natural_refund_finite(rho, p, hole, M)
    self.split_cache[p] = ev
    return ev


cdef void value_bottom_up(Engine self, int p) noexcept nogil:
    """Value every hand of one context bottom-up, once the context's dealer shoes are
    stored (optimal classes, whole counts):

    - p = -1: every unsplit hand (stand, hit and double values and the pick, kept in
      the memo), where the recursion from the two-card hands would reach every
      composition of the shoe;
    - p >= 0: every split hand of pair index ``p`` in its one context (one extra pair
      card gone), for a pair of ``split_fold`` (one split allowed, CDP or CDP1), whose
      options CDP and CDP1 compare in every composition that holds the pair's rank.
      Only the two-card hands go into the memo, where the split value's sum over the
      second card reads them; a larger one's values serve only the hands one card
      smaller here, so they stay in ``fold_best`` and ``fold_stand`` (a later
      look-up of such a hand, by ``freeze_decisions``, values it by the recursion,
      to the same bits).

    The recursion (``continuation``) would take one look-up per hand one card smaller
    and a call per card.  Here the compositions are taken from the table above,
    largest first, so that every hand one card larger is done when a hand is: its
    hit and double values read them by index.  Each value is the same IEEE
    expression, in the same order, as _hands.hit_value, double_value and
    best_option_at compute, on the same dealer outcomes: the same to the bit.  The
    next card's chances n_r / left are quotients of whole numbers, read from a table
    of those quotients (``card_chances``) instead of divided again for every hand.
    (Split aces that may not hit are never folded, ``_round.folded_splits``:
    every hand here may hit.)"""
    cdef double pi[N_RANKS]
    cdef double avail
    cdef double ev, v, st, ht, dd
    cdef int64_t fits[N_RANKS]
    cdef int64_t fits_total = 0, chance_cols
    cdef int k, i, j, r, row, a, double_ok, n = n_holding[p] if p >= 0 else n_all
    cdef uint64_t pair_bits, extra_cards
    cdef const int16_t* order = &comps_holding[p][0] if p >= 0 else &comps_all[0]
    cdef const double* chances
    cdef const double* d
    cdef int dealer_row[AHEAD_RING]
    cdef bint have_pi, in_memo
    if self.fold_best.size() < <size_t>n_compositions:
        self.fold_best.resize(n_compositions)
        self.fold_stand.resize(n_compositions)
    for r in range(N_RANKS):
        # the cards of each rank a hand may hold: the shoe's (whole counts) less the
        # dealer's and, for a split hand, the other split hand's pair card
        avail = self.shoe[r] - self.dealer_cnt[r] - (1.0 if r == p else 0.0)
        fits[r] = <int64_t>avail if avail > 0.0 else 0
        fits_total += fits[r]
    chances = card_chances(self, fits, fits_total)
    chance_cols = self.chance_cols
    self.hand.pair_rank = p + 1
    self.hand.extra = 1 if p >= 0 else 0
    pair_bits = ((<uint64_t>self.hand.pair_rank << PAIR_SHIFT)
                 | (<uint64_t>self.hand.extra << EXTRA_SHIFT))   # (context_key's)
    extra_cards = <uint64_t>self.hand.extra * rank_unit(p) if p >= 0 else 0   # (removed_key's)
    for k in range(min(PREFETCH_AHEAD, n)):
        dealer_row[k] = self.dealer.find_row(comp_key[order[k]] + extra_cards)
    for k in range(n):
        i = order[k]
        # The memo and dealer look-ups of the hands a few steps on: random places in
        # tables larger than the cache, loaded while this hand is valued.  The dealer
        # index entry of the hand INDEX_AHEAD on; the dealer row of the hand
        # PREFETCH_AHEAD on, looked up in that index (its entry loaded by now) and
        # kept for when that hand is valued.
        if k + INDEX_AHEAD < n:
            self.dealer.index.prefetch(comp_key[order[k + INDEX_AHEAD]] + extra_cards)
        if k + PREFETCH_AHEAD < n:
            j = order[k + PREFETCH_AHEAD]
            if p < 0 or comp_cards[j] == 2:
                self.value_index.prefetch(comp_key[j] | pair_bits)
            row = self.dealer.find_row(comp_key[j] + extra_cards)
            dealer_row[(k + PREFETCH_AHEAD) & (AHEAD_RING - 1)] = row
            if row >= 0:
                prefetch_address(self.dealer.row_outcomes(row))
        for r in range(N_RANKS):
            if comp_cnt[i][r] > fits[r]:
                break
        else:
            r = N_RANKS
        if r < N_RANKS:
            continue   # not dealt from this shoe: no such hand
        for r in range(N_RANKS):
            self.hand.cnt[r] = comp_cnt[i][r]
        self.hand.hard_sum = comp_hard[i]
        self.hand.n_cards = comp_cards[i]
        self.hand_key = comp_key[i]
        double_ok = ((self.rules.double_after_split or p < 0) and self.may_double())
        have_pi = False
        if chances != NULL:
            # _hands.next_card_weights: the cards of each rank left, n_r = fits
            # less the hand's (never below 0 here), over their sum, fits_total less
            # the hand's cards (row n_cards of the table)
            for r in range(N_RANKS):
                pi[r] = chances[self.hand.n_cards * chance_cols + fits[r] - comp_cnt[i][r]]
            have_pi = True
        in_memo = p < 0 or self.hand.n_cards == 2
        # _hands.stand_value from the dealer row found ahead, where that is the
        # row it would read (dealer_for_current: the outcomes stored under the cards
        # gone; not a natural, whose stand value needs none)
        d = NULL
        row = dealer_row[k & (AHEAD_RING - 1)]
        if row >= 0 and not self.is_natural():
            d = self.dealer.row_outcomes(row)
            if isnan(d[0]):
                d = NULL   # (queued, not evaluated: dealer_for_current does that)
        if not in_memo:
            # a split hand of three cards or more: values kept here only
            if d != NULL:
                st = stand_from_outcomes(d, self.total(), self.rules.tie_value)
            else:
                st = stand_value(self)
            self.fold_stand[i] = st
            if not have_pi:
                next_card_weights(self, pi)
            ht = 0.0   # _hands.hit_value
            for r in range(N_RANKS):
                if pi[r] <= 0.0:
                    continue
                if self.hand.hard_sum + r + 1 > 21:
                    ht -= pi[r]
                    continue
                ht += pi[r] * self.fold_best[comp_child[i][r]]
            # best_option_at: the first strictly best of stand, hit, double
            v = st
            if improves(ht, v):
                v = ht
            if double_ok:
                dd = natural_refund(self, pi)   # _hands.double_value
                for r in range(N_RANKS):
                    if pi[r] <= 0.0:
                        continue
                    if self.hand.hard_sum + r + 1 > 21:
                        dd -= 2.0 * pi[r]
                        continue
                    dd += 2.0 * pi[r] * self.fold_stand[comp_child[i][r]]
                if improves(dd, v):
                    v = dd
            self.fold_best[i] = v
            continue
        # (_hands.lookup, one probe: a solve meets each of these hands here first.
        # Room for a new row is made before its key is indexed, so that running out of
        # memory never leaves a key pointing at a row that is not there.)
        if self.value_store.size() == self.value_store.capacity():
            self.value_store.reserve(2 * self.value_store.size() + 1)
        row = self.value_index.find_or_insert(self.context_key(),
                                              <int>self.value_store.size())
        if row < 0:
            row = <int>self.value_store.size()
            self.value_store.push_back(blank_values())   # (within capacity: no throw)
        if isnan(self.value_store[row].stand):
            if d != NULL:
                v = stand_from_outcomes(d, self.total(), self.rules.tie_value)
            else:
                v = stand_value(self)
            self.value_store[row].stand = v
        self.fold_stand[i] = self.value_store[row].stand
        if isnan(self.value_store[row].hit):
            # _hands.hit_value, each larger hand's value read by index
            if not have_pi:
                next_card_weights(self, pi)
                have_pi = True
            ev = 0.0
            for r in range(N_RANKS):
                if pi[r] <= 0.0:
                    continue
                if self.hand.hard_sum + r + 1 > 21:
                    ev -= pi[r]
                    continue
                ev += pi[r] * self.fold_best[comp_child[i][r]]
            self.value_store[row].hit = ev
        if double_ok and isnan(self.value_store[row].double_):
            # _hands.double_value
            if not have_pi:
                next_card_weights(self, pi)
            ev = natural_refund(self, pi)
            for r in range(N_RANKS):
                if pi[r] <= 0.0:
                    continue
                if self.hand.hard_sum + r + 1 > 21:
                    ev -= 2.0 * pi[r]
                    continue
                ev += 2.0 * pi[r] * self.fold_stand[comp_child[i][r]]
            self.value_store[row].double_ = ev
        a = self.value_store[row].choice
        if a < 0:
            a = best_option_at(self, row, double_ok)
            self.value_store[row].choice = a
        self.fold_best[i] = value_at(self, row, a)
    self.clear_hand()


cdef const double* card_chances(Engine self, const int64_t* fits, int64_t fits_total) noexcept nogil:
    """A table of the next card's chances for ``value_bottom_up``: entry
    [c * chance_cols + a] = a / (fits_total - c), the chance of a rank with a cards
    left after a hand of c cards, for c = 0 .. 21 and a up to the largest count of
    ``fits`` (0 where no card is left), or NULL for a shoe too large to tabulate.
    The same quotient of the same two whole numbers as _hands.next_card_weights
    divides, so the same bits.  Two are kept, by ``fits_total``: a solve's unsplit
    hands need one, and the split hands of every pair (one pair card fewer) the other."""
    cdef int64_t most = 0, c, a, left
    cdef int r, slot
    cdef double* t
    for r in range(N_RANKS):
        if fits[r] > most:
            most = fits[r]
    if most + 1 > MAX_CHANCE_COLS:
        return NULL
    if most + 1 > self.chance_cols:
        # (the first table, or a larger shoe: lay both slots out anew)
        self.chance_cols = <int>most + 1
        self.chance_totals[0] = -1
        self.chance_totals[1] = -1
        self.chance_table.resize(2 * 22 * self.chance_cols)
    for slot in range(2):
        if self.chance_totals[slot] == fits_total:
            return self.chance_table.data() + slot * 22 * self.chance_cols
    slot = 0 if self.chance_totals[0] < 0 else 1
    if self.chance_totals[slot] >= 0:
        slot = self.chance_next
    self.chance_next = 1 - slot
    t = self.chance_table.data() + slot * 22 * self.chance_cols
    for c in range(22):
        left = fits_total - c
        for a in range(self.chance_cols):
            t[c * self.chance_cols + a] = (<double>a / <double>left) if left > 0 else 0.0
    self.chance_totals[slot] = fits_total
    return t


cdef void queue_split_needs(Engine self, int p) noexcept nogil:
    """Compute, in full trie passes, the dealer groups (see _pair_dealer) of every
    split hand of pair index ``p`` that contexts e = 1 .. extra_max will need.

    A split hand needs the dealer's outcomes where it stands, or after its double
    card.  Where its choice is made from other values (CDZ-: the unsplit hand's;
    CDP1 with e > 1: those with one extra pair card gone; a frozen policy) the walk
    follows that choice; where the choice compares the context's own values (CDP, and
    CDP1 with e = 1) every composition is needed.  Queuing them all first fills each
    trie pass, where asking hand by hand would leave most lanes empty.

    Where the pair uses groups, a group serves every number of extra pair cards
    gone, so one walk per stage suffices where the choices do not depend on e (all
    but a frozen CDP policy, which has one per context): the one with the fewest
    pair cards gone, which reaches every composition the others reach.
    """
    cdef double avail[N_RANKS]
    cdef int e, r, stage
    cdef bint everything, walked_one
    cdef bint per_context = (not self.pair_groups[p]
                             or (self.rules.split_class == SPLIT_POLICY
                                 and self.policy.split_context == 2))
    if (self.split_fold >> p) & 1 and self.unsplit_prefetched:
        # every shoe this split's hands need was queued with the unsplit hands'
        # (_hands.queue_folded_split_shoes) and is stored by now
        self.split_needs_queued = True
        return
    self.walked.clear()
    # contexts whose choices compare their own values first: the others' choices may
    # read them
    for stage in range(2):
        walked_one = False
        for e in range(1, self.extra_max + 1):
            if walked_one and not per_context:
                break
            everything = (self.rules.split_class == SPLIT_CDP
                          or (self.rules.split_class == SPLIT_CDP1 and e == 1))
            if everything != (stage == 0):
                continue
            for r in range(N_RANKS):
                avail[r] = self.shoe[r] - self.dealer_cnt[r]
            avail[p] -= e
            if avail[p] < 1.0:
                continue   # (the split_value loop skips this context too)
            walked_one = True
            # the contexts this walk queues for: CDP1's first stage values e = 1 only
            self.queue_e_hi = (1 if (self.rules.split_class == SPLIT_CDP1 and stage == 0)
                               else self.extra_max)
            self.clear_hand()
            self.hand.pair_rank = p + 1
            self.hand.extra = e
            hand_add(self, p)
            for r in range(N_RANKS):
                if avail[r] - self.hand.cnt[r] >= 1.0:
                    hand_add(self, r)
                    queue_needs_walk(self, avail, everything, r)
                    hand_remove(self, r)
        self.pair_dealer.flush()
        self.dealer.flush()
        # the walks that follow read values of the contexts just queued: they need
        # no more prefetching
        self.split_needs_queued = True
    self.clear_hand()


cdef void queue_current(Engine self, const double* avail) noexcept nogil:
    """Queue the dealer's outcomes for the current split hand in its context, or its
    group (``avail``: the cards the context leaves for the hand)."""
    cdef double left[N_RANKS]
    cdef int r, e, p = self.hand.pair_rank - 1
    for r in range(N_RANKS):
        left[r] = avail[r] - self.hand.cnt[r]
    if not self.pair_groups[p]:
        self.dealer.queue(left, -1, self.removed_key())
        return
    # the group serves the contexts whose cards gone exceed 21; the others share an
    # unsplit hand's shoe (see split_dealer_for_current)
    if self.hand.hard_sum + self.queue_e_hi * self.hand.pair_rank > 21:
        queue_split_group(self, left)
    for e in range(self.hand.extra, self.queue_e_hi + 1):
        if e > self.hand.extra:
            left[p] -= 1.0   # one more pair card gone
        if left[p] < 0.0 or self.hand.hard_sum + e * self.hand.pair_rank > 21:
            break
        self.dealer.queue(left, -1, self.hand_key + <uint64_t>e * rank_unit(p))


cdef void queue_needs_walk(Engine self, const double* avail, bint everything, int lowest) noexcept nogil:
    """The walk of ``queue_split_needs`` from the current split hand (see there).

    ``everything``: visit every composition once, adding cards of rank index >=
    ``lowest`` after the first two; otherwise follow the hand's choices (hits), each
    composition once."""
    cdef int a, r, double_ok, saved_extra
    if self.hand.pair_rank == 1 and not self.rules.hit_split_aces:
        a = ACT_STAND
    elif everything:
        a = ACT_NONE
    else:
        if self.walked.find_or_insert(self.context_key(), 0) != -1:
            return   # reached before by another order of the same cards
        double_ok = self.rules.double_after_split and self.may_double()
        if self.rules.split_class == SPLIT_POLICY:
            a = self.policy.get(policy_key(self, KIND_SPLIT))
            if a < 0:
                a = ACT_STAND   # (continuation counts the miss)
        elif self.rules.split_class == SPLIT_CDZ:
            a = optimal_unsplit_choice(self)
        elif lanes_enabled(self, self.hand.pair_rank - 1):   # CDP1 with e > 1: the pick with one extra pair card gone
            a = lane_choice(self, 1, double_ok)
        else:
            saved_extra = self.hand.extra
            self.hand.extra = 1
            a = best_option(self, double_ok)
            self.hand.extra = saved_extra
    if a == ACT_STAND or a == ACT_NONE:
        queue_current(self, avail)
    if a == ACT_STAND:
        return
    for r in range(lowest if a == ACT_NONE else 0, N_RANKS):
        if self.hand.hard_sum + r + 1 > 21:
            break
        if avail[r] - self.hand.cnt[r] < 1.0:
            continue
        hand_add(self, r)
        if a == ACT_DOUBLE:
            queue_current(self, avail)
        else:
            queue_needs_walk(self, avail, everything, r)
        hand_remove(self, r)
