# Declarations of the split expectation (see _splits.pyx).
from bjcore._defs cimport N_RANKS
from bjcore._hands cimport HandEngine


cdef class SplitEngine(HandEngine):
    cdef double split_cache[N_RANKS]   # split expectation per pair rank index; NaN: not yet

    cdef int hands_limit(self, int pair) noexcept nogil
    cdef double pair_hand_value(self, int pair, int extra, int second) noexcept nogil
    cdef double split_value(self, int pair) noexcept nogil
    cdef double gamma(self, double m, double n, int a, int b, double pp) noexcept nogil
    cdef double remove_unknown(self, double whole, double pair_part, double g) noexcept nogil
    cdef double draw_ratio(self, double m, double q, double n, int j, int k,
                           double pp) noexcept nogil
