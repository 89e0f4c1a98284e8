# cython: language_level=3
# distutils: language = c++
"""Flat hash tables: the index behind every memo table of the kernels, and the table of
frozen decisions a policy engine plays."""
from libc.stdint cimport uint64_t, int32_t, uint32_t
from libc.string cimport memcpy

from bjcore._alloc cimport guard_ptr


cdef extern from "recycle.h":
    void* recycle_take "bj_block_take"(size_t nbytes) noexcept nogil
    void recycle_give "bj_block_give"(void* block, size_t nbytes) noexcept nogil
    void* recycle_take_kind "bj_block_take_kind"(size_t nbytes, int kind,
                                                 int* reused) noexcept nogil
    void recycle_give_kind "bj_block_give_kind"(void* block, size_t nbytes,
                                                int kind) noexcept nogil
    int BLOCK_INDEX "BJ_BLOCK_INDEX"
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


# Generations: an entry is live when it holds its table's generation.  Every table takes
# a new one from this process-wide counter when it is made, grows or is cleared, so a
# generation is never used twice (a copy shares its original's, DecisionTable.copy), and
# an index block given back to the pool holds only generations handed out before it was
# given back.  The table that takes it next takes a later one: every old entry is free
# without a pass over the block, which marking it took (10-40 us for the tables of an
# engine, ten engines a solve).  The pool hands index blocks out only as indexes
# (BJ_BLOCK_INDEX, recycle.h); a block fresh from malloc is marked free.  After 2^32 - 2
# generations the counter is spent, and every table marks its blocks free as before.
cdef extern from *:
    """
    #include <atomic>
    static std::atomic<uint64_t> bj_index_generations{1};
    /* A generation never handed out before, or 0 once they are spent. */
    static inline uint32_t bj_new_generation(void) {
        uint64_t g = bj_index_generations.fetch_add(1, std::memory_order_relaxed);
        return g < 0xFFFFFFFFull ? (uint32_t)g : 0;
    }
    """
    uint32_t new_generation "bj_new_generation"() noexcept nogil


cdef inline void mark_free(IndexEntry* table, size_t capacity) noexcept nogil:
    """Every entry free for any generation >= 1 (a free entry's key and slot are never
    read)."""
    cdef size_t i
    for i in range(capacity):
        table[i].gen = 0


cdef IndexEntry* index_block(size_t capacity, uint32_t* gen) noexcept nogil:
    """A (recycled) block of ``capacity`` entries, all free for the generation put in
    ``gen``: a new one (a recycled index block's entries then hold only older ones), or,
    once they are spent or for a block fresh from malloc, ``gen`` as it was (at least 1)
    with every entry marked free."""
    cdef int reused = 0
    cdef IndexEntry* table = <IndexEntry*>recycle_take_kind(capacity * sizeof(IndexEntry),
                                                           BLOCK_INDEX, &reused)
    cdef uint32_t g = new_generation()
    if g == 0 or not reused:
        mark_free(table, capacity)
    if g != 0:
        gen[0] = g
    return table


cdef inline void give_index_block(IndexEntry* table, size_t capacity) noexcept nogil:
    recycle_give_kind(table, capacity * sizeof(IndexEntry), BLOCK_INDEX)


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
            # marking a large table free (a fresh block) takes 10-40 us on cold caches:
            # let the other solver threads take the GIL meanwhile (engines are built
            # inside them)
            with nogil:
                self.table = <IndexEntry*>guard_ptr(index_block(self.capacity, &self.gen))
        else:
            self.table = <IndexEntry*>guard_ptr(index_block(self.capacity, &self.gen))

    def __dealloc__(self):
        give_index_block(self.table, self.capacity)
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
        cdef uint32_t old_gen = self.gen
        # the new block first: out of memory (std::bad_alloc, alloc.h) leaves the table
        # as it was
        self.table = index_block(2 * old_capacity, &self.gen)
        self.capacity = 2 * old_capacity
        self.shift -= 1
        self.count = 0
        for i in range(old_capacity):   # (the new table's entries are all free)
            if old[i].gen == old_gen:
                self.insert(old[i].key, old[i].slot)
        give_index_block(old, old_capacity)

    cdef void clear(self) noexcept nogil:
        """Forget every key, keeping the capacity: the next generation's entries are live,
        so the old ones are free without a pass over the table (the split tables are
        cleared once per pair: a full pass each time was ~1.5% of a one-deck solve)."""
        cdef uint32_t g
        if self.count > 0:   # (an empty table is already all free)
            g = new_generation()
            if g != 0:
                self.gen = g
            else:
                # (the generations are spent: the next of this table's own, every entry
                # of its block holding an earlier one, or, when that wraps, all marked)
                self.gen += 1
                if self.gen == 0:
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
        cdef IndexEntry* table = <IndexEntry*>guard_ptr(
            recycle_take_kind(nbytes, BLOCK_INDEX, NULL))
        give_index_block(other.actions.table, other.actions.capacity)
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
