# Declarations of the split expectation (see _splits.pyx): functions of the engine's state.
from libc.stdint cimport int64_t

from bjcore._engine cimport Engine

cdef int hands_limit(Engine self, int pair) noexcept nogil
cdef double pair_hand_value(Engine self, int pair, int extra, int second) noexcept nogil
cdef bint lanes_enabled(Engine self, int p) noexcept nogil
cdef void lane_blocks(Engine self, int pair, int amax, double* X, double* Y) noexcept nogil
cdef int lane_row(Engine self) noexcept nogil
cdef void lane_values(Engine self, int action, unsigned int mask, double* out) noexcept nogil
cdef void lane_compute(Engine self, int row, int action, unsigned int mask) noexcept nogil
cdef void lane_base(Engine self, double* base) noexcept nogil
cdef void lane_card_weights(Engine self, unsigned int need, double* pi) noexcept nogil
cdef void lane_stand(Engine self, unsigned int need, double* ev) noexcept nogil
cdef int lane_choice(Engine self, int e, int double_ok) noexcept nogil
cdef void lane_continuation(Engine self, unsigned int mask, double* out) noexcept nogil
cdef double split_value(Engine self, int pair) noexcept nogil
cdef void value_bottom_up(Engine self, int p) noexcept nogil
cdef const double* card_chances(Engine self, const int64_t* fits, int64_t fits_total) noexcept nogil
cdef void queue_split_needs(Engine self, int p) noexcept nogil
cdef void queue_current(Engine self, const double* avail) noexcept nogil
cdef void queue_needs_walk(Engine self, const double* avail, bint everything, int lowest) noexcept nogil
