# cython: language_level=3
# distutils: language = c++
"""Flat hash tables: the index behind every memo table of the kernels, and the table of
frozen decisions a policy engine plays."""
from libc.stdint cimport uint64_t, int32_t
from libc.string cimport memcpy

from bjcore._alloc cimport guard_ptr


cdef extern from "recycle.h":
    void* recycle_take "bj_block_take"(size_t nbytes) noexcept nogil
    void recycle_give "bj_block_give"(void* block, size_t nbytes) noexcept nogil
    size_t recycle_release_all "bj_block_release_all"() noexcept nogil
    size_t recycle_kept "bj_block_kept"() noexcept nogil


cdef void* block_take(size_t nbytes) noexcept nogil:
    return recycle_take(nbytes)


cdef void block_give(void* block, size_t nbytes) noexcept nogil:
    recycle_give(block, nbytes)


cdef size_t block_release_all() noexcept nogil:
    return recycle_release_all()


cdef size_t block_kept() noexcept nogil:
    return recycle_kept()


cdef int INITIAL_BITS = 12
cdef int RELEASE_GIL_BITS = 13


cdef inline void mark_free(IndexEntry* table, size_t capacity) noexcept nogil:
    """Every entry free for any generation >= 1 (a free entry's key and slot are never
    read)."""
    cdef size_t i
    for i in range(capacity):
        table[i].gen = 0


cdef IndexEntry* empty_table(size_t capacity) noexcept nogil:
    """A (recycled) block of ``capacity`` free entries."""
    cdef IndexEntry* table = <IndexEntry*>block_take(capacity * sizeof(IndexEntry))
    mark_free(table, capacity)
    return table


cdef class HashIndex:
    """Open-addressing map from a packed 64-bit key to a slot number.

    The memo tables hold ~10^4-10^5 entries per upcard; a flat table with linear probing
    costs one multiply and (mostly) one cache line per look-up, and is freed in one
    block, where a node-based ``unordered_map`` allocates and frees every entry.  Blocks
    are recycled between solves (recycle.h) instead of being faulted in afresh.
    """

    def __cinit__(self, int bits=INITIAL_BITS):
        """``bits``: log2 of the initial capacity (a table that will surely grow large
        starts large: every doubling re-inserts every key)."""
        if not 4 <= bits <= 30:
            raise ValueError(f"bits must be 4..30, got {bits}")
        self.shift = 64 - bits
        self.count = 0
        self.gen = 1
        self.capacity = (<size_t>1) << bits
        if bits >= RELEASE_GIL_BITS:
            # marking a large table free takes 10-40 us on cold caches: let the other
            # solver threads take the GIL meanwhile (engines are built inside them)
            with nogil:
                self.table = <IndexEntry*>guard_ptr(empty_table(self.capacity))
        else:
            self.table = <IndexEntry*>guard_ptr(empty_table(self.capacity))

    def __dealloc__(self):
        block_give(self.table, self.capacity * sizeof(IndexEntry))
        self.table = NULL

    cdef void insert(self, uint64_t key, int slot) noexcept nogil:
        """Store ``slot`` for a key that is not in the map yet."""
        cdef size_t i
        if 2 * (<size_t>self.count + 1) > self.capacity:
            self.grow()
        i = self.probe(key)
        self.table[i].key = key
        self.table[i].slot = slot
        self.table[i].gen = self.gen
        self.count += 1

    cdef int find_or_insert(self, uint64_t key, int slot) noexcept nogil:
        """The slot stored for ``key``; or, if there is none, store ``slot`` for it and
        return -1 (one probe sequence where ``find`` then ``insert`` take two)."""
        cdef size_t i
        if 2 * (<size_t>self.count + 1) > self.capacity:
            self.grow()
        i = self.probe(key)
        if self.table[i].gen == self.gen:   # (probe stops at a live entry only on the key)
            return self.table[i].slot
        self.table[i].key = key
        self.table[i].slot = slot
        self.table[i].gen = self.gen
        self.count += 1
        return -1

    cdef void grow(self) noexcept nogil:
        cdef IndexEntry* old = self.table
        cdef size_t old_capacity = self.capacity, i
        # the new block first: out of memory (std::bad_alloc, alloc.h) leaves the table
        # as it was
        self.table = empty_table(2 * old_capacity)
        self.capacity = 2 * old_capacity
        self.shift -= 1
        self.count = 0
        for i in range(old_capacity):   # (the new table's entries are all free: gen 0)
            if old[i].gen == self.gen:
                self.insert(old[i].key, old[i].slot)
        block_give(old, old_capacity * sizeof(IndexEntry))

    cdef void clear(self) noexcept nogil:
        """Forget every key, keeping the capacity: the next generation's entries are live,
        so the old ones are free without a pass over the table (the split tables are
        cleared once per pair: a full pass each time was ~1.5% of a one-deck solve)."""
        if self.count > 0:   # (an empty table is already all free)
            self.gen += 1
            if self.gen == 0:   # 2^32 clears: the counter wrapped, mark every entry free
                mark_free(self.table, self.capacity)
                self.gen = 1
        self.count = 0

    cdef void set(self, uint64_t key, int slot) noexcept nogil:
        """Store ``slot`` for ``key``, replacing what was stored."""
        cdef size_t i = self.probe(key)
        if self.table[i].gen == self.gen:
            self.table[i].slot = slot
        else:
            self.insert(key, slot)

    def __len__(self):
        return self.count


def recycled_bytes():
    """Bytes of freed memo tables and distribution rows kept for reuse by later solves
    (see recycle.h: one pool for every kernel)."""
    return block_kept()


def release_recycled():
    """Free the blocks kept for reuse (tables and rows); returns the bytes released."""
    return block_release_all()


cdef class DecisionTable:
    """Frozen decisions (see _memo.pxd): a flat hash map from packed keys to actions.
    Engines share one table read-only (copy before changing a shared one)."""

    def __cinit__(self):
        self.actions = HashIndex()
        self.split_context = 0

    cdef int get(self, uint64_t key) noexcept nogil:
        """The action stored for ``key``, or -1."""
        return self.actions.find(key)

    cdef void set(self, uint64_t key, int action) noexcept nogil:
        self.actions.set(key, action)

    cdef DecisionTable copy(self):
        cdef DecisionTable other = DecisionTable()
        cdef size_t nbytes = self.actions.capacity * sizeof(IndexEntry)
        cdef IndexEntry* table = <IndexEntry*>guard_ptr(block_take(nbytes))
        block_give(other.actions.table, other.actions.capacity * sizeof(IndexEntry))
        other.actions.table = table
        memcpy(other.actions.table, self.actions.table, nbytes)
        other.actions.capacity = self.actions.capacity
        other.actions.shift = self.actions.shift
        other.actions.count = self.actions.count
        other.actions.gen = self.actions.gen
        other.split_context = self.split_context
        return other

    def __len__(self):
        return self.actions.count
