# Declarations of the spots' cross-moment kernel (see _spot_moments.pyx for the maths).
from libc.stdint cimport int64_t, uint64_t

from bjcore._distribution cimport RoundLaws, D_RANKS, D_OUT


cdef class SpotMoments(RoundLaws):
    cdef int mode                     # RECORD, CROSS or REPLAY
    cdef SpotMoments other            # evaluates G on depleted shoes (REPLAY)
    cdef readonly int64_t g_evaluations  # distinct shoes G was computed for (a cost measure)
    cdef uint64_t offset              # REPLAY: the other spot's cards (packed), so that
                                      # dealer laws are keyed by both spots' cards and
                                      # shared by every depleted shoe

    cdef void reset_memo(self) noexcept nogil
    cdef void forget(self) except *
    cdef uint64_t shared_key(self) noexcept nogil
    cdef const double* replay_dealer(self) noexcept nogil
    cdef void replay_prefetch(self) noexcept nogil
    cdef const double* dealer(self) noexcept nogil
    cdef void prefetch_children(self) noexcept nogil
    cdef void combine_hands(self, double w, const double* law_n, int count_n,
                            const double* law_x, int count_x, double* out,
                            double* natural) noexcept nogil
    cdef void outcome_means(self, const double* n, double* g) noexcept nogil
