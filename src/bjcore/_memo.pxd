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
    cdef void set(self, uint64_t key, int slot) noexcept nogil


cdef class DecisionTable:
    """Frozen decisions: a packed (composition, kind of decision[, split context]) key ->
    action.  ``split_context`` says how split hands are keyed: 0 by their composition
    only (CDZ- and user strategies), 1 by composition and pair rank with one extra pair
    card (CDP1's picks), 2 by composition, pair rank and extra pair cards (CDP's)."""
    cdef HashIndex actions
    cdef public int split_context
    cdef int get(self, uint64_t key) noexcept nogil
    cdef void set(self, uint64_t key, int action) noexcept nogil
    cdef DecisionTable copy(self)
