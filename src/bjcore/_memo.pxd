# Declarations of the flat hash index the memo tables use (see _memo.pyx).
from libc.stdint cimport uint64_t, int32_t, uint32_t


# The process's one pool of recycled blocks (recycle.h, included by _memo.pyx only): the
# other kernels call these, so that they share it.  block_take throws std::bad_alloc when
# out of memory (alloc.h); block_give never throws.
cdef void* block_take(size_t nbytes) noexcept nogil
cdef void block_give(void* block, size_t nbytes) noexcept nogil
cdef size_t block_release_all() noexcept nogil
cdef size_t block_kept() noexcept nogil


cdef struct IndexEntry:
    uint64_t key
    int32_t slot
    uint32_t gen              # the table's generation when stored; any other: a free entry


cdef extern from *:
    """
    static const uint64_t BJ_FIBONACCI = 11400714819323198485ULL; /* 2^64 / golden ratio, odd */
    #ifndef BJ_PREFETCH   /* (portable.h's, where a module includes both) */
    #if defined(__GNUC__) || defined(__clang__)
    #define BJ_PREFETCH(p) __builtin_prefetch((const void*)(p))
    #else
    #define BJ_PREFETCH(p) ((void)(p))
    #endif
    #endif
    """
    const uint64_t FIBONACCI "BJ_FIBONACCI"
    void prefetch_address "BJ_PREFETCH"(const void* p) noexcept nogil


cdef class HashIndex:
    """Open-addressing map from a packed 64-bit key to a slot number (linear probing);
    key and slot side by side, so a look-up reads one cache line."""
    cdef IndexEntry* table    # ``capacity`` entries, a recycled block (recycle.h)
    cdef size_t capacity      # a power of two
    cdef int shift            # 64 - log2(capacity)
    cdef int count
    cdef uint32_t gen         # entries of this generation are live (>= 1; a new table's are
                              # all 0, and ``clear`` moves to the next generation)

    # Defined here, not in _memo.pyx, so that every module's look-ups compile inline
    # (the memo look-up is the innermost step of the hand recursions).
    cdef inline int find(self, uint64_t key) noexcept nogil:
        """The slot stored for ``key``, or -1."""
        cdef size_t mask = self.capacity - 1
        cdef size_t i = <size_t>((key * FIBONACCI) >> self.shift)
        cdef const IndexEntry* e
        while True:
            e = &self.table[i]
            if e.gen != self.gen:
                return -1
            if e.key == key:
                return e.slot
            i = (i + 1) & mask

    cdef inline void prefetch(self, uint64_t key) noexcept nogil:
        """Start loading the entry where a look-up of ``key`` begins (a hint only: a
        loop that knows the keys it will look up a few steps ahead hides the wait for
        memory)."""
        prefetch_address(&self.table[<size_t>((key * FIBONACCI) >> self.shift)])

    cdef inline size_t probe(self, uint64_t key) noexcept nogil:
        """The entry holding ``key``, or the free entry where it would go (linear
        probing from its hash)."""
        cdef size_t mask = self.capacity - 1
        cdef size_t i = <size_t>((key * FIBONACCI) >> self.shift)
        while self.table[i].gen == self.gen and self.table[i].key != key:
            i = (i + 1) & mask
        return i

    cdef void insert(self, uint64_t key, int slot) noexcept nogil
    cdef int find_or_insert(self, uint64_t key, int slot) noexcept nogil
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
