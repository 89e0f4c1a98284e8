# Declarations of the round given the upcard (see _round.pyx).
from bjcore._splits cimport SplitEngine


cdef class RoundEngine(SplitEngine):
    cdef double start_choice_value(self, int c1, int c2) noexcept nogil
    cdef double surrender_value(self) noexcept nogil
    cdef int start_choice(self) noexcept nogil
    cdef bint has_fractional_counts(self) noexcept nogil
    cdef unsigned int folded_splits(self) noexcept nogil
    cdef double round_value(self) noexcept nogil
