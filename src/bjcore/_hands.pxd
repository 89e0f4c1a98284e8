# Declarations of the hand-value engine (see _hands.pyx).
from libc.math cimport NAN, isnan
from libc.stdint cimport uint64_t, int8_t
from bjcore._alloc cimport vector

from bjcore._defs cimport (N_RANKS, N_DEALER, RuleParams, rank_unit, soft_total, improves,
                           HandCards, cards_add, cards_remove, cards_total, cards_soft,
                           cards_natural, cards_removed_key, SPLIT_POLICY,
                           double_allowed,
                           PAIR_SHIFT, EXTRA_SHIFT, ACT_STAND, ACT_HIT, ACT_DOUBLE)
from bjcore._dealer cimport DealerStore
from bjcore._pair_dealer cimport PairDealer
from bjcore._memo cimport DecisionTable, HashIndex


cdef struct HandValues:
    # Unconditioned values of one hand in one context; NaN until computed.
    double stand
    double hit
    double double_
    int choice         # the option continuation picks here (ACT_*), or -1 until known
    int split_choice   # an unsplit hand's: CDZ-'s pick for the same cards split, or -1


cdef inline HandValues blank_values() noexcept nogil:
    """A row of ``value_store`` with nothing computed yet."""
    cdef HandValues blank
    blank.stand = NAN
    blank.hit = NAN
    blank.double_ = NAN
    blank.choice = -1
    blank.split_choice = -1
    return blank


cdef class HandEngine:
    cdef readonly int upcard          # rank 1..10 (0 when both dealer cards are known)
    cdef int dealer_cnt[N_RANKS]      # the dealer's known cards, out of the shoe
    cdef int dealer_n
    cdef int hole_rank                # rank index whose hole card makes a natural, or -1
    cdef RuleParams rules
    cdef double shoe[N_RANKS]         # analysis shoe S (counts, or probabilities if infinite)
    cdef double shoe_size
    cdef bint infinite

    # current hand state, mutated in place by the recursion
    cdef HandCards hand
    cdef int extra_max                # while a split is valued: the largest e it needs
    cdef bint split_needs_queued      # ... and its dealer distributions are all queued
    cdef bint unsplit_prefetched      # every unsplit hand's dealer distribution is stored
    cdef unsigned int split_fold      # bit p: the unsplit prefetch also queues the shoes of
                                      # pair index p's split hands (one split allowed, CDP/CDP1)
    cdef uint64_t hand_key

    cdef DealerStore dealer           # dealer distributions by the cards out of the shoe
    cdef PairDealer pair_dealer       # split hands': grouped across the pair cards gone
    cdef bint pair_groups[N_RANKS]    # per pair rank: its split has 2+ contexts, valued
                                      # as lanes (_splits) with pair_dealer's groups
    cdef HashIndex value_index        # context key -> row of value_store
    cdef vector[HandValues] value_store
    # frozen decisions (split class SPLIT_POLICY), possibly shared with other engines
    cdef DecisionTable policy
    cdef bint policy_shared           # the table is another engine's: copy before writing
    cdef int policy_missing
    cdef bint spoiled                 # a kernel call ran out of memory: ``recover`` first

    cdef void clear_hand(self) noexcept nogil
    cdef void clear_memo_state(self) noexcept nogil
    cdef void forget(self) except *
    cdef void recover(self) except *
    cdef void out_of_memory(self) except *
    cdef uint64_t split_group_key(self) noexcept nogil
    cdef void next_card_weights(self, double* pi) noexcept nogil
    cdef double hole_natural_chance(self, const double* pi) noexcept nogil
    cdef double natural_refund(self, const double* pi) noexcept nogil
    cdef const double* dealer_for_current(self) noexcept nogil
    cdef const double* split_dealer_for_current(self) noexcept nogil
    cdef void queue_split_group(self, const double* left) noexcept nogil
    cdef void queue_split_shoe(self, const double* left) noexcept nogil
    cdef void prefetch_dealer(self, bint children) noexcept nogil
    cdef bint children_need_prefetch(self) noexcept nogil
    cdef void prefetch_unsplit(self, int lowest, double* left) noexcept nogil
    cdef void queue_folded_split_shoes(self, double* left) noexcept nogil
    cdef double stand_value(self) noexcept nogil
    cdef double hit_value(self) noexcept nogil
    cdef double double_value(self) noexcept nogil
    cdef int add_row(self, uint64_t key) noexcept nogil
    cdef int best_option(self, int double_ok) noexcept nogil
    cdef uint64_t policy_key(self, int kind) noexcept nogil
    cdef int policy_action(self, int kind) noexcept nogil
    cdef int optimal_unsplit_choice(self) noexcept nogil
    cdef int strategy_choice(self, int row) noexcept nogil
    cdef double continuation(self) noexcept nogil

    # The small helpers below are defined here, not in _hands.pyx, so that they compile
    # inline wherever they are called: a cdef method is otherwise an indirect call
    # through the class's method table, and these run once or more per hand visited.

    cdef inline int total(self) noexcept nogil:
        return cards_total(&self.hand)

    cdef inline bint is_soft(self) noexcept nogil:
        return cards_soft(&self.hand)

    cdef inline bint is_natural(self) noexcept nogil:
        return cards_natural(&self.hand)

    cdef inline uint64_t removed_key(self) noexcept nogil:
        # the cards out of the shoe for this hand: its own plus e extra pair cards
        if self.infinite:
            return 0   # removing cards changes nothing: one dealer distribution
        return cards_removed_key(&self.hand, self.hand_key)

    cdef inline uint64_t context_key(self) noexcept nogil:
        cdef uint64_t hand = self.hand_key
        cdef int extra = self.hand.extra
        if self.infinite and self.rules.split_class != SPLIT_POLICY:
            # In an infinite shoe a hand's values depend only on its total, softness and
            # whether it still has two cards (doubling, naturals); removal is irrelevant,
            # so every composition with those shares one memo entry.  (A user policy may
            # tell compositions apart, so policy solves keep the full key.)
            hand = (<uint64_t>self.hand.hard_sum | (<uint64_t>(self.hand.cnt[0] > 0) << 5)
                    | (<uint64_t>(self.hand.n_cards if self.hand.n_cards < 3 else 3) << 6))
            extra = 1 if extra > 0 else 0
        return (hand | (<uint64_t>self.hand.pair_rank << PAIR_SHIFT)
                | (<uint64_t>extra << EXTRA_SHIFT))

    cdef inline void remaining(self, double* n) noexcept nogil:
        """Counts left after the hand, its extra pair cards and the dealer's cards."""
        cdef int r
        for r in range(N_RANKS):
            n[r] = self.shoe[r] - self.hand.cnt[r] - self.dealer_cnt[r]
        if self.hand.pair_rank:
            n[self.hand.pair_rank - 1] -= self.hand.extra

    cdef inline int may_double(self) noexcept nogil:
        """Dbl(h) of section 4 for the current hand's own cards."""
        return double_allowed(&self.rules, self.total(), self.is_soft(), self.hand.n_cards)

    cdef inline int lookup(self) noexcept nogil:
        """Row of the current hand (in its context) in ``value_store``, added if new."""
        cdef int row = self.value_index.find(self.context_key())
        if row >= 0:
            return row
        return self.add_row(self.context_key())

    cdef inline double get(self, int action) noexcept nogil:
        return self.value_at(self.lookup(), action)

    cdef inline double value_at(self, int row, int action) noexcept nogil:
        """Memoised unconditioned value of stand, hit or double for the current hand,
        whose memo row is ``row`` (the store may grow while a value is computed, so it
        is indexed again afterwards)."""
        cdef double v
        if action == ACT_STAND:
            v = self.value_store[row].stand
            if isnan(v):
                v = self.stand_value()
                self.value_store[row].stand = v
        elif action == ACT_HIT:
            v = self.value_store[row].hit
            if isnan(v):
                v = self.hit_value()
                self.value_store[row].hit = v
        else:
            v = self.value_store[row].double_
            if isnan(v):
                v = self.double_value()
                self.value_store[row].double_ = v
        return v

    cdef inline int best_option_at(self, int row, int double_ok) noexcept nogil:
        """``best_option`` for the current hand, whose memo row is ``row``."""
        cdef int best = ACT_STAND
        cdef double v = self.value_at(row, ACT_STAND), w
        w = self.value_at(row, ACT_HIT)
        if improves(w, v):
            best = ACT_HIT
            v = w
        if double_ok and improves(self.value_at(row, ACT_DOUBLE), v):
            best = ACT_DOUBLE
        return best


# Adding and removing a card are the innermost steps of every recursion: inline, not
# virtual-method calls.
cdef inline void hand_add(HandEngine h, int r) noexcept nogil:
    cards_add(&h.hand, r)
    h.hand_key += rank_unit(r)


cdef inline void hand_remove(HandEngine h, int r) noexcept nogil:
    cards_remove(&h.hand, r)
    h.hand_key -= rank_unit(r)


cdef inline double stand_from_outcomes(const double* d, int t, double tie_value) noexcept nogil:
    """A hand of total ``t`` standing against the dealer's outcomes ``d`` (17..21,
    natural; the rest busts).  HandEngine.stand_value and the split lanes both use it, so
    their values are the same to the bit."""
    cdef double ev, listed = 0.0
    cdef int k
    for k in range(N_DEALER):
        listed += d[k]
    ev = (1.0 - listed) - d[5]
    for k in range(5):
        if t > 17 + k:
            ev += d[k]
        elif t < 17 + k:
            ev -= d[k]
        else:
            ev += tie_value * d[k]
    return ev
