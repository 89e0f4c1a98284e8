# Declarations of the flat hash index the memo tables use (see _memo.pyx).
from libc.stdint cimport uint64_t, int32_t


cdef extern from "recycle.h":
    void* block_take "bj_block_take"(size_t nbytes) noexcept nogil
    void block_give "bj_block_give"(void* block, size_t nbytes) noexcept nogil
    size_t block_release_all "bj_block_release_all"() noexcept nogil
    size_t block_kept "bj_block_kept"() noexcept nogil


cdef struct IndexEntry:
    uint64_t key              # EMPTY_KEY (every bit set) for a free entry
    int32_t slot


cdef class HashIndex:
    """Open-addressing map from a packed 64-bit key to a slot number (linear probing);
    key and slot side by side, so a look-up reads one cache line."""
    cdef IndexEntry* table    # ``capacity`` entries, a recycled block (recycle.h)
    cdef size_t capacity      # a power of two
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
