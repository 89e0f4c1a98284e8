# Declarations of the recording of frozen decisions (see _policy.pyx).
from bjcore._engine cimport Engine

cdef void freeze_walk(Engine self, int lowest, const double* left) noexcept nogil
cdef void record_decisions(Engine self) noexcept nogil
cdef void freeze_split_contexts(Engine self) noexcept nogil
cdef void freeze_all(Engine self, const double* left) noexcept nogil
