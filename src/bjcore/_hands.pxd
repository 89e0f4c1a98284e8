# Declarations of the hand-value engine (see _hands.pyx).
from libc.stdint cimport uint64_t, int8_t
from libcpp.vector cimport vector

from bjcore._defs cimport N_RANKS, RuleParams, rank_unit
from bjcore._dealer cimport DealerStore
from bjcore._pair_dealer cimport PairDealer
from bjcore._memo cimport DecisionTable, HashIndex


cdef struct HandValues:
    # Unconditioned values of one hand in one context; NaN until computed.
    double stand
    double hit
    double double_


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
    cdef int cnt[N_RANKS]
    cdef int hard_sum
    cdef int n_cards
    cdef int pair_rank                # 0 for an unsplit hand, else the split pair's rank
    cdef int extra                    # e: extra pair cards known to be gone
    cdef int extra_max                # while a split is valued: the largest e it needs
    cdef bint split_needs_queued      # ... and its dealer distributions are all queued
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

    cdef void clear_hand(self) noexcept nogil
    cdef int total(self) noexcept nogil
    cdef bint is_soft(self) noexcept nogil
    cdef bint is_natural(self) noexcept nogil
    cdef uint64_t removed_key(self) noexcept nogil
    cdef uint64_t split_group_key(self) noexcept nogil
    cdef uint64_t context_key(self) noexcept nogil
    cdef void remaining(self, double* n) noexcept nogil
    cdef void next_card_weights(self, double* pi) noexcept nogil
    cdef double hole_natural_chance(self, const double* pi) noexcept nogil
    cdef double natural_refund(self, const double* pi) noexcept nogil
    cdef const double* dealer_for_current(self) noexcept nogil
    cdef const double* split_dealer_for_current(self) noexcept nogil
    cdef void queue_split_group(self, const double* left) noexcept nogil
    cdef void queue_split_shoe(self, const double* left) noexcept nogil
    cdef void prefetch_dealer(self, bint children) noexcept nogil
    cdef void prefetch_unsplit(self, int lowest, double* left) noexcept nogil
    cdef int lookup(self) noexcept nogil
    cdef double stand_value(self) noexcept nogil
    cdef double hit_value(self) noexcept nogil
    cdef double double_value(self) noexcept nogil
    cdef double value_at(self, int row, int action) noexcept nogil
    cdef double get(self, int action) noexcept nogil
    cdef int may_double(self) noexcept nogil
    cdef int best_option(self, int double_ok) noexcept nogil
    cdef uint64_t policy_key(self, int kind) noexcept nogil
    cdef int policy_action(self, int kind) noexcept nogil
    cdef int optimal_unsplit_choice(self, int double_ok) noexcept nogil
    cdef double continuation(self) noexcept nogil


# Adding and removing a card are the innermost steps of every recursion: inline, not
# virtual-method calls.
cdef inline void hand_add(HandEngine h, int r) noexcept nogil:
    h.cnt[r] += 1
    h.hard_sum += r + 1
    h.n_cards += 1
    h.hand_key += rank_unit(r)


cdef inline void hand_remove(HandEngine h, int r) noexcept nogil:
    h.cnt[r] -= 1
    h.hard_sum -= r + 1
    h.n_cards -= 1
    h.hand_key -= rank_unit(r)
