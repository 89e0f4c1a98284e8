# Declarations of the hand-value engine (see _hands.pyx).
from libc.stdint cimport uint64_t, int8_t
from libcpp.unordered_map cimport unordered_map
from libcpp.vector cimport vector

from bjcore._defs cimport N_RANKS, RuleParams
from bjcore._dealer cimport DealerStore
from bjcore._memo cimport HashIndex


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
    cdef uint64_t hand_key

    cdef DealerStore dealer           # dealer distributions by the cards out of the shoe
    cdef HashIndex value_index        # context key -> row of value_store
    cdef vector[HandValues] value_store
    # frozen decisions (split class SPLIT_POLICY): composition | kind -> action
    cdef unordered_map[uint64_t, int8_t] policy
    cdef int policy_missing

    cdef void clear_hand(self) noexcept nogil
    cdef void add(self, int r) noexcept nogil
    cdef void remove(self, int r) noexcept nogil
    cdef int total(self) noexcept nogil
    cdef bint is_soft(self) noexcept nogil
    cdef bint is_natural(self) noexcept nogil
    cdef uint64_t removed_key(self) noexcept nogil
    cdef uint64_t context_key(self) noexcept nogil
    cdef void remaining(self, double* n) noexcept nogil
    cdef void next_card_weights(self, double* pi) noexcept nogil
    cdef double hole_natural_chance(self, const double* pi) noexcept nogil
    cdef double natural_refund(self, const double* pi) noexcept nogil
    cdef const double* dealer_for_current(self) noexcept nogil
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
    cdef int policy_action(self, int kind) noexcept nogil
    cdef int optimal_unsplit_choice(self, int double_ok) noexcept nogil
    cdef double continuation(self) noexcept nogil
