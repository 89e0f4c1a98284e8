# Declarations of the split contexts' dealer distributions (see _pair_dealer.pyx).
from libc.stddef cimport size_t
from libc.stdint cimport uint64_t, int8_t, int16_t, int32_t, int64_t
from bjcore._alloc cimport vector

from bjcore._defs cimport N_RANKS, N_DEALER
from bjcore._dealer cimport DealerTrie, TrieNode, MAX_BATCH, MAX_DEPTH, MAX_FACTORS
from bjcore._memo cimport HashIndex


cdef extern from "pair_group_pass.h":
    void pair_group_pass "bj_pair_group_pass"(const TrieNode* nd, const int16_t* bucket,
                                              int n, const double* factor,
                                              const unsigned char* any_left, double* prod,
                                              double* acc, int lanes) noexcept nogil
    void pair_group_unload "bj_pair_group_unload"(double* acc, int n_buckets, int count,
                                                  double* out, size_t stride) noexcept nogil
    void pair_group_outcome "bj_pair_group_outcome"(const double* table, int n_pairs,
                                                    const int8_t* pair_j,
                                                    const int8_t* pair_m,
                                                    const double* pair_part,
                                                    const double* size_part,
                                                    double* out) noexcept nogil


cdef enum:
    MEMO_SLOTS = 16     # pair cards gone that a group memoises distributions for
    PARTS_ROWS = 64     # kept rows of weight factors per kind (a power of two)


cdef struct PartsRow:
    # the factors of the bucket weights that depend on one count only (see distribution):
    # n_P^(j) for the count of the pair's rank, or 1 / N^(m) for the shoe size
    int p                # pair rank index the row was made for (-1: empty)
    double count         # the count it was made for
    double v[MAX_DEPTH + 1]


cdef struct PairLayout:
    # how one pair rank's pass sorts the trie's counted compositions into buckets
    int ready
    int n_pairs                        # distinct (pair cards drawn, cards drawn) in use
    int8_t pair_j[(MAX_DEPTH + 1) * (MAX_DEPTH + 1)]
    int8_t pair_m[(MAX_DEPTH + 1) * (MAX_DEPTH + 1)]
    int max_j
    int max_m


cdef class PairDealer:
    """One engine's dealer distributions for split hands, grouped by the cards gone other
    than the pair's rank: one trie pass per group serves every number of pair cards gone."""
    cdef DealerTrie trie
    cdef PairLayout layouts[N_RANKS]
    cdef vector[int16_t] buckets[N_RANKS]   # per pair rank: node -> bucket
    cdef HashIndex index                    # group key -> group number
    # per group: its buckets (n_buckets of its pair), then its kept distributions (memo),
    # in chunks that never move (a full chunk is followed by one twice as large: growing
    # one block would copy every live table)
    cdef vector[double*] chunks             # the last is the one being filled
    cdef size_t chunk_size, chunk_capacity  # of the last chunk, in doubles
    cdef vector[double*] group_tables       # group number -> its table
    # a group's kept distributions follow its buckets: N_DEALER outcomes for each number
    # of pair cards gone (the hand's and the context's) below MEMO_SLOTS; whether each
    # is filled: memo_have[group number * MEMO_SLOTS + pair cards gone]
    cdef vector[unsigned char] memo_have
    cdef vector[double] acc                 # pass accumulators: bucket * MAX_BATCH + lane
    cdef double spare[N_DEALER]
    cdef PartsRow pair_rows[PARTS_ROWS]     # by the count of the pair's rank
    cdef PartsRow size_rows[PARTS_ROWS]     # by the shoe size
    # the batch: groups of one pair rank waiting for a shared pass
    cdef int batch_pair
    cdef int batch_count
    cdef double batch_weights[MAX_BATCH * N_RANKS]
    cdef uint64_t batch_keys[MAX_BATCH]
    cdef int64_t n_passes, n_lanes

    cdef void prepare(self, int p) noexcept nogil
    cdef const double* group(self, uint64_t key) noexcept nogil
    cdef void queue(self, int p, const double* left, uint64_t key) noexcept nogil
    cdef void flush(self) noexcept nogil
    cdef double* room_for(self, size_t size) noexcept nogil
    cdef void clear(self) noexcept nogil
    cdef void distribution(self, int p, const double* table, double pair_left,
                           double total, double* out) noexcept nogil
    cdef int group_number(self, uint64_t key) noexcept nogil
    cdef const double* memo_lookup(self, int p, int g, int gone) noexcept nogil
    cdef const double* context_outcomes(self, int p, int g, int gone, const double* left,
                                        double total) noexcept nogil
