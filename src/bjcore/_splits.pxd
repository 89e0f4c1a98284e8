# Declarations of the split expectation (see _splits.pyx).
from bjcore._defs cimport N_RANKS
from bjcore._hands cimport HandEngine
from bjcore._memo cimport HashIndex
from bjcore._alloc cimport vector
from libc.stdint cimport int64_t


cdef enum:
    MAX_LANES = 8          # split contexts valued together (e = 1 .. 2 * 4 - 3)


cdef struct LaneValues:
    # one split hand's unconditioned stand, hit and double values in every context at
    # once: v[action][e - 1]; bit e - 1 of have[action] says whether it is computed
    double v[3][MAX_LANES]
    unsigned int have[3]


cdef class SplitEngine(HandEngine):
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

    cdef void forget(self) except *
    cdef int hands_limit(self, int pair) noexcept nogil
    cdef double pair_hand_value(self, int pair, int extra, int second) noexcept nogil
    cdef double split_value(self, int pair) noexcept nogil
    cdef void value_bottom_up(self, int p) noexcept nogil
    cdef const double* card_chances(self, const int64_t* fits, int64_t fits_total) noexcept nogil
    cdef bint lanes_enabled(self, int p) noexcept nogil
    cdef void lane_blocks(self, int pair, int amax, double* X, double* Y) noexcept nogil
    cdef int lane_row(self) noexcept nogil
    cdef void lane_base(self, double* base) noexcept nogil
    cdef void lane_card_weights(self, unsigned int need, double* pi) noexcept nogil
    cdef void lane_stand(self, unsigned int need, double* ev) noexcept nogil
    cdef void lane_compute(self, int row, int action, unsigned int mask) noexcept nogil
    cdef void lane_values(self, int action, unsigned int mask, double* out) noexcept nogil
    cdef int lane_choice(self, int e, int double_ok) noexcept nogil
    cdef void lane_continuation(self, unsigned int mask, double* out) noexcept nogil
    cdef void queue_split_needs(self, int p) noexcept nogil
    cdef void queue_needs_walk(self, const double* avail, bint everything, int lowest) noexcept nogil
    cdef void queue_current(self, const double* avail) noexcept nogil
