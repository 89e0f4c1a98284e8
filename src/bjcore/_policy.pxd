# Declarations of the frozen-decision machinery (see _policy.pyx).
from bjcore._round cimport RoundEngine


cdef class PolicyEngine(RoundEngine):
    cdef void freeze_walk(self, int lowest, const double* left) noexcept nogil
    cdef void freeze_split_walk(self, int lowest, const double* left) noexcept nogil
    cdef void freeze_split_contexts(self) noexcept nogil
    cdef void freeze_all(self, const double* left) noexcept nogil
