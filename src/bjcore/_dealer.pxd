# Declarations of the dealer-distribution kernels (see _dealer.pyx).
# DealerTrie's evaluate / evaluate_many signatures are a stable interface: other kernel
# modules cimport them (``from bjcore._dealer cimport DealerTrie``).
from libc.stdint cimport uint64_t, int8_t, int16_t, int32_t
from libc.math cimport isnan
from bjcore._alloc cimport vector

from bjcore._defs cimport N_RANKS, N_DEALER
from bjcore._memo cimport HashIndex, block_take, block_give


cdef enum:
    MAX_DEPTH = 32        # longest dealer draw sequence the trie can hold
    MAX_BATCH = 32        # shoes evaluated together in one pair-group pass (_pair_dealer)
    TRIE_BATCH = 64       # shoes evaluated together in one trie pass (64: the per-node
                          # overhead is shared by twice the lanes of 32, as 32 did for 16)
    MAX_FACTORS = 128     # distinct (rank, prior) pairs a dealer trie may use


cdef extern from "trie_pass.h":
    ctypedef struct TrieNode "bj_trie_node":
        double mult         # draw orders of this composition that end here (0: not counted)
        int32_t skip        # index just past this node's subtree
        int16_t factor      # row of the card-factor table: (rank, cards of it already drawn)
        int8_t depth        # number of cards drawn
        int8_t outcome      # 0..4 for 17..21, 5 natural, 6 not counted (bust is the complement)
    ctypedef struct NodeOffsets "bj_node_offsets":
        double mult         # the node's (see TrieNode)
        int32_t factor      # offsets in doubles into the pass's tables (see trie_pass.h)
        int32_t outcome
        int32_t parent
        int32_t depth
        int32_t kind        # what the pass does at the node (BJ_LEAF ... in trie_pass.h)
        int32_t skip        # the node's (see TrieNode)
    enum:
        NODE_LEAF "BJ_LEAF"
        NODE_DRAW_ON "BJ_DRAW_ON"
        NODE_DRAW_AND_END "BJ_DRAW_AND_END"
    void trie_pass "bj_trie_pass"(const TrieNode* nd, const NodeOffsets* off, int n,
                                  const double* factor,
                                  const unsigned char* any_left, const double* inv,
                                  double* prod, double* acc, int lanes,
                                  int check_left) noexcept nogil
    void trie_tables "bj_trie_tables"(const double* weights, const double* totals, int count,
                                      int infinite, const int8_t* factor_rank,
                                      const int8_t* factor_prior, int n_factors,
                                      int max_depth, double* factor,
                                      unsigned char* any_left, double* inv,
                                      int lanes, int rank_major,
                                      const double* recip) noexcept nogil


cdef class DealerTrie:
    """Every dealer draw composition from one starting hand, as a pre-order trie."""
    cdef readonly int n_nodes
    cdef readonly int max_depth
    cdef vector[TrieNode] nodes
    cdef vector[NodeOffsets] offsets       # per node: what its pass does, where it reads
                                           # and writes
    cdef int n_factors                     # rows of the card-factor table
    cdef int8_t factor_rank[MAX_FACTORS]   # row -> rank index
    cdef int8_t factor_prior[MAX_FACTORS]  # row -> cards of that rank drawn before

    cdef void evaluate(self, const double* weights, double total, bint infinite,
                       double* out) noexcept nogil
    cdef void evaluate_many(self, const double* weights, const double* totals, int count,
                            bint infinite, double* out) noexcept nogil
    cdef void evaluate_lanes(self, const double* weights, const double* totals, int count,
                             bint infinite, bint rank_major, double* out) noexcept nogil


cdef class DealerStore:
    """One engine's dealer distributions, keyed by the cards out of the shoe, and the
    batch of shoes waiting for a shared trie pass."""
    cdef DealerTrie trie
    cdef HashIndex index               # removed-cards key -> row of ``rows``
    cdef double* rows                  # N_DEALER outcomes per row (a recycled block)
    cdef int n_rows, row_capacity
    # the batch: shoes waiting for one shared trie pass
    cdef double batch_weights[TRIE_BATCH * N_RANKS]   # rank-major: [r * TRIE_BATCH + k]
    cdef double batch_totals[TRIE_BATCH]
    cdef int batch_rows[TRIE_BATCH]    # the row each queued shoe will fill
    cdef int batch_count

    cdef int new_row(self) noexcept nogil
    cdef const double* store(self, uint64_t key, const double* dist) noexcept nogil
    cdef void queue(self, const double* left, int drawn, uint64_t key) noexcept nogil
    cdef void flush(self) noexcept nogil
    cdef const double* compute(self, uint64_t key, const double* weights, double total,
                               bint infinite) noexcept nogil

    # Defined here so that the look-ups compile inline where the hand recursions call them.
    cdef inline int find_row(self, uint64_t key) noexcept nogil:
        """The row stored under ``key`` (its outcomes, once evaluated, at
        ``row_outcomes(row)``: NaN first while queued), or -1."""
        return self.index.find(key)

    cdef inline const double* row_outcomes(self, int row) noexcept nogil:
        """The outcomes of ``row`` (valid until the next store or queue)."""
        return &self.rows[row * N_DEALER]

    cdef inline const double* find(self, uint64_t key) noexcept nogil:
        """The outcomes stored under ``key`` (valid until the next store or queue), or
        NULL (unknown, or queued and not evaluated yet: its row still starts with NaN)."""
        cdef int row = self.index.find(key)
        cdef const double* d
        if row < 0:
            return NULL
        d = &self.rows[row * N_DEALER]
        if isnan(d[0]):
            return NULL
        return d
