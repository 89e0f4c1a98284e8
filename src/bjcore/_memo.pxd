# Declarations of the flat hash index the memo tables use (see _memo.pyx).
from libc.stdint cimport uint64_t, int32_t
from libcpp.vector cimport vector


cdef class HashIndex:
    """Open-addressing map from a packed 64-bit key to a slot number (linear probing)."""
    cdef vector[uint64_t] keys
    cdef vector[int32_t] slots
    cdef int shift            # 64 - log2(capacity)
    cdef int count
    cdef int find(self, uint64_t key) noexcept nogil
    cdef void insert(self, uint64_t key, int slot) noexcept nogil
    cdef void grow(self) noexcept nogil
    cdef void clear(self) noexcept nogil
