# Declarations of the round-start choice and E(u) (see _round.pyx).
from bjcore._engine cimport Engine

cdef double start_choice_value(Engine self, int c1, int c2) noexcept nogil
cdef double surrender_value(Engine self) noexcept nogil
cdef int start_choice(Engine self) noexcept nogil
cdef bint has_fractional_counts(Engine self) noexcept nogil
cdef unsigned int folded_splits(Engine self) noexcept nogil
cdef double round_value(Engine self) noexcept nogil
