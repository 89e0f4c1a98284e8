# Declarations of the chart freezer (see _chart.pyx).
from libc.stdint cimport int32_t, uint64_t
from bjcore._alloc cimport vector

from bjcore._defs cimport N_RANKS
from bjcore._engine cimport Engine


cdef class DecisionSignatures:
    cdef Engine engine                # the policy engine's state
    cdef double limit[N_RANKS]
    cdef vector[int32_t] slot_of      # signature -> index into the signatures met, or -1
    cdef vector[int32_t] met          # signatures met, in order
    cdef vector[uint64_t] example     # a composition key of each signature met
    cdef vector[uint64_t] keys        # every decision's policy key ...
    cdef vector[int32_t] slots        # ... and its signature's index


    cdef void add(self, int kind, int sig) noexcept nogil
    cdef void record(self) noexcept nogil
    cdef void walk(self, int lowest) noexcept nogil
