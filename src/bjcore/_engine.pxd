# The value engine's state (see _engine.pyx): one object owning every array a solve uses.
from libc.math cimport NAN, isnan
from libc.stdint cimport uint64_t, int8_t, int64_t
from bjcore._alloc cimport vector

from bjcore._defs cimport (N_RANKS, N_DEALER, RuleParams, rank_unit, soft_total, improves,
                           HandCards, cards_add, cards_remove, cards_total, cards_soft,
                           cards_natural, cards_removed_key, cards_clear, cards_context_key, SPLIT_POLICY,
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

cdef enum:
    MAX_LANES = 8          # split contexts valued together (e = 1 .. 2 * 4 - 3)


cdef struct LaneValues:
    # one split hand's unconditioned stand, hit and double values in every context at
    # once: v[action][e - 1]; bit e - 1 of have[action] says whether it is computed
    double v[3][MAX_LANES]
    unsigned int have[3]


cdef class Engine:
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

    # splits (_splits)
    cdef double split_cache[N_RANKS]   # split expectation per pair rank index; NaN: not yet
    cdef HashIndex walked              # split hands a needs walk has visited
    cdef HashIndex lane_index          # split hand (composition, pair) -> lane_store row
    cdef vector[LaneValues] lane_store
    cdef int queue_e_hi                # queue_split_needs: the last context a walk is for
    cdef vector[double] fold_best      # value_bottom_up: per composition, the value of
    cdef vector[double] fold_stand     # its pick and its stand value
    cdef vector[double] chance_table   # card_chances: two tables of n / left, by shoe
    cdef int chance_cols               # ... their row length (largest count + 1)
    cdef long long chance_totals[2]    # ... the shoe total each slot is for (-1: none)
    cdef int chance_next               # ... the slot the next new table takes

    cdef void clear_memo_state(self) noexcept nogil
    cdef void forget(self) except *
    cdef void recover(self) except *
    cdef void out_of_memory(self) except *

    # The small helpers below are defined here, not in a .pyx, so that they compile
    # inline wherever they are called: they run once or more per hand visited.

    cdef inline void clear_hand(self) noexcept nogil:
        cards_clear(&self.hand)
        self.hand_key = 0

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
        # In an infinite shoe every composition of the same total, softness and two-card
        # state shares one memo entry (``cards_context_key``); a user policy may tell
        # compositions apart, so policy solves keep the full key.
        return cards_context_key(&self.hand, self.hand_key,
                                 self.infinite and self.rules.split_class != SPLIT_POLICY)

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


# Adding and removing a card are the innermost steps of every recursion: inline.
cdef inline void hand_add(Engine h, int r) noexcept nogil:
    cards_add(&h.hand, r)
    h.hand_key += rank_unit(r)


cdef inline void hand_remove(Engine h, int r) noexcept nogil:
    cards_remove(&h.hand, r)
    h.hand_key -= rank_unit(r)
