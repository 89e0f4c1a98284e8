# cython: language_level=3
# distutils: language = c++
"""The flat hash index behind every memo table of the kernels."""
from libc.stdint cimport uint64_t, int32_t
from libcpp.vector cimport vector


cdef uint64_t EMPTY_KEY = 0xFFFFFFFFFFFFFFFFULL   # no packed key has every bit set
cdef uint64_t FIBONACCI = 11400714819323198485ULL   # 2^64 / golden ratio, odd
cdef int INITIAL_BITS = 12


cdef class HashIndex:
    """Open-addressing map from a packed 64-bit key to a slot number.

    The memo tables hold ~10^4-10^5 entries per upcard; a flat table with linear probing
    costs one multiply and (mostly) one cache line per look-up, and is freed in two
    blocks, where a node-based ``unordered_map`` allocates and frees every entry.
    """

    def __cinit__(self):
        self.shift = 64 - INITIAL_BITS
        self.count = 0
        self.keys.assign(1 << INITIAL_BITS, EMPTY_KEY)
        self.slots.assign(1 << INITIAL_BITS, -1)

    cdef int find(self, uint64_t key) noexcept nogil:
        """The slot stored for ``key``, or -1."""
        cdef size_t mask = self.keys.size() - 1
        cdef size_t i = <size_t>((key * FIBONACCI) >> self.shift)
        cdef uint64_t k
        while True:
            k = self.keys[i]
            if k == key:
                return self.slots[i]
            if k == EMPTY_KEY:
                return -1
            i = (i + 1) & mask

    cdef void insert(self, uint64_t key, int slot) noexcept nogil:
        """Store ``slot`` for a key that is not in the map yet."""
        cdef size_t mask, i
        if 2 * (self.count + 1) > <int>self.keys.size():
            self.grow()
        mask = self.keys.size() - 1
        i = <size_t>((key * FIBONACCI) >> self.shift)
        while self.keys[i] != EMPTY_KEY:
            i = (i + 1) & mask
        self.keys[i] = key
        self.slots[i] = slot
        self.count += 1

    cdef void grow(self) noexcept nogil:
        cdef vector[uint64_t] old_keys
        cdef vector[int32_t] old_slots
        cdef size_t i
        old_keys.swap(self.keys)
        old_slots.swap(self.slots)
        self.keys.assign(2 * old_keys.size(), EMPTY_KEY)
        self.slots.assign(2 * old_keys.size(), -1)
        self.shift -= 1
        self.count = 0
        for i in range(old_keys.size()):
            if old_keys[i] != EMPTY_KEY:
                self.insert(old_keys[i], old_slots[i])

    cdef void clear(self) noexcept nogil:
        """Forget every key, keeping the capacity (memory reused by the next solve)."""
        cdef size_t i
        for i in range(self.keys.size()):
            self.keys[i] = EMPTY_KEY
        self.count = 0

    def __len__(self):
        return self.count
