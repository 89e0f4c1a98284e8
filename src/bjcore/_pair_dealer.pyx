# cython: language_level=3
# distutils: language = c++
"""Dealer distributions for split hands, shared across the numbers of pair cards gone.

A split hand of pair rank P is valued in several contexts: ``e`` extra pair cards gone
besides its own cards.  Its dealer distributions in those contexts come from shoes that
differ only in the count of rank P (and so in the shoe size).  The probability of a
dealer composition D from a shoe n with N cards is

    mult(D) * prod_{r != P} n_r^(D_r)  *  n_P^(D_P) / N^(|D|)        (falling factorials)

The first part does not depend on how many pair cards are gone.  One pass over the trie
computes it for every composition and adds it into a bucket by (outcome, D_P, |D|); the
distribution for any count of pair cards is then a sum over the buckets, each weighted by
n_P^(j) / N^(m) for that shoe: a few hundred multiplications instead of a trie pass.

A *group* is the set of cards gone other than rank P (the hand's own non-pair cards); it is
keyed like a hand composition with the pair rank in the pair field.  Groups are queued and
evaluated in batches of up to MAX_BATCH lanes like ``_dealer.DealerStore``'s shoes.

Rounding: the products are formed in another order than in ``DealerTrie.evaluate_many``
(the pair factors and 1/N factors last), so a distribution can differ from that one in the
last bits (~1e-16 relative).  Split hands always take their distributions from here, so a
value does not depend on the order in which the hands were asked for.
"""
from libc.stdint cimport uint64_t, int8_t, int16_t, int32_t
from libc.stdlib cimport free
from libc.string cimport memset
from bjcore._alloc cimport vector, checked_alloc, guard

from bjcore._defs cimport N_RANKS, N_DEALER, MAX_COUNT_VALUE
from bjcore._dealer cimport DealerTrie, TrieNode, MAX_BATCH, MAX_DEPTH, MAX_FACTORS
from bjcore._memo cimport HashIndex


cdef class PairDealer:
    """See the module docstring: one engine's grouped split-hand dealer distributions."""

    def __cinit__(self, DealerTrie trie not None):
        cdef int p
        self.trie = trie
        self.index = HashIndex()
        self.batch_pair = -1
        self.batch_count = 0
        self.chunk_size = 0
        self.chunk_capacity = 0
        for p in range(N_RANKS):
            self.layouts[p].ready = 0
        for p in range(PARTS_ROWS):
            self.pair_rows[p].p = -1
            self.size_rows[p].p = -1

    cdef void prepare(self, int p) noexcept nogil:
        """Bucket every trie node for pair rank index ``p``: bucket = the number of the
        node's (pair cards drawn, cards drawn) pair * N_DEALER + outcome."""
        cdef PairLayout* lay = &self.layouts[p]
        cdef const TrieNode* nd = self.trie.nodes.data()
        cdef int n = self.trie.n_nodes
        cdef int js[MAX_DEPTH + 1]
        cdef int pair_id[(MAX_DEPTH + 1) * (MAX_DEPTH + 1)]
        cdef int i, j, d, o
        if lay.ready:
            return
        for i in range((MAX_DEPTH + 1) * (MAX_DEPTH + 1)):
            pair_id[i] = -1
        lay.n_pairs = 0
        lay.max_j = 0
        lay.max_m = 0
        self.buckets[p].resize(n)
        # first: the (j, m) pairs of counted nodes, numbered in order of first use
        for i in range(n):
            d = nd[i].depth
            if i == 0:
                j = 0
            else:
                j = js[d - 1] + (self.trie.factor_rank[nd[i].factor] == p)
            js[d] = j
            if nd[i].outcome < N_DEALER and nd[i].mult != 0.0:
                if pair_id[j * (MAX_DEPTH + 1) + d] < 0:
                    pair_id[j * (MAX_DEPTH + 1) + d] = lay.n_pairs
                    lay.pair_j[lay.n_pairs] = j
                    lay.pair_m[lay.n_pairs] = d
                    lay.n_pairs += 1
                    lay.max_j = max(lay.max_j, j)
                    lay.max_m = max(lay.max_m, d)
        # then each node's bucket (uncounted nodes add nothing: bucket 0)
        for i in range(n):
            d = nd[i].depth
            if i == 0:
                j = 0
            else:
                j = js[d - 1] + (self.trie.factor_rank[nd[i].factor] == p)
            js[d] = j
            o = nd[i].outcome
            if o < N_DEALER and nd[i].mult != 0.0:
                self.buckets[p][i] = <int16_t>(pair_id[j * (MAX_DEPTH + 1) + d] * N_DEALER + o)
            else:
                self.buckets[p][i] = 0
        if <size_t>(N_DEALER * lay.n_pairs * MAX_BATCH) > self.acc.size():
            self.acc.resize(N_DEALER * lay.n_pairs * MAX_BATCH)
        lay.ready = 1

    cdef const double* group(self, uint64_t key) noexcept nogil:
        """The buckets of a computed group, or NULL."""
        cdef int g = self.index.find(key)
        if g < 0:
            return NULL
        return self.group_tables[g]

    cdef void queue(self, int p, const double* left, uint64_t key) noexcept nogil:
        """Queue the group ``key`` of pair rank index ``p``; ``left``: the counts the dealer
        draws from (only ranks other than ``p`` are read).  Known or waiting groups are
        skipped; a full batch, or one of another pair rank, is evaluated first."""
        cdef int j, k
        if self.index.find(key) >= 0:
            return
        if self.batch_pair != p:
            self.flush()
            self.batch_pair = p
        for j in range(self.batch_count):
            if self.batch_keys[j] == key:
                return
        k = self.batch_count
        for j in range(N_RANKS):
            self.batch_weights[j * MAX_BATCH + k] = left[j]
        self.batch_keys[k] = key
        self.batch_count = k + 1
        if self.batch_count == MAX_BATCH:
            self.flush()

    cdef void flush(self) noexcept nogil:
        """Evaluate the waiting groups in one pass and store their buckets."""
        cdef double prod[(MAX_DEPTH + 1) * MAX_BATCH]
        cdef double factor[MAX_FACTORS * MAX_BATCH]
        cdef unsigned char any_left[MAX_FACTORS]
        cdef int count = self.batch_count, p = self.batch_pair
        cdef int lanes, i, k, n_buckets, rank, prior
        cdef double* row_f
        cdef const double* w
        cdef size_t stride
        cdef double* base
        cdef double f
        cdef double* acc
        cdef const TrieNode* nd = self.trie.nodes.data()
        if count == 0:
            return
        self.n_passes += 1
        self.n_lanes += count
        self.prepare(p)
        n_buckets = N_DEALER * self.layouts[p].n_pairs
        lanes = 4 if count <= 4 else (8 if count <= 8 else (16 if count <= 16 else MAX_BATCH))
        acc = self.acc.data()   # all zero: unloading the groups below clears it again
        # card factors: cards of the row's rank left before the draw; 1 for the pair rank
        # (0 in padded lanes)
        for i in range(self.trie.n_factors):
            rank = self.trie.factor_rank[i]
            prior = self.trie.factor_prior[i]
            row_f = &factor[i * MAX_BATCH]
            any_left[i] = False
            if rank == p:
                for k in range(count):
                    row_f[k] = 1.0
                any_left[i] = True
            else:
                w = &self.batch_weights[rank * MAX_BATCH]
                for k in range(count):
                    f = w[k] - prior
                    row_f[k] = f if f > 0.0 else 0.0
                for k in range(count):
                    if row_f[k] > 0.0:
                        any_left[i] = True
            for k in range(count, lanes):
                row_f[k] = 0.0
        for k in range(lanes):
            prod[k] = 1.0 if k < count else 0.0
        if nd[0].outcome < N_DEALER and nd[0].mult != 0.0:
            for k in range(count):
                acc[self.buckets[p][0] * MAX_BATCH + k] += nd[0].mult
        pair_group_pass(nd, self.buckets[p].data(), self.trie.n_nodes, factor, any_left,
                        prod, acc, lanes)
        # each group's buckets side by side (pair by pair, the outcomes of a pair
        # together), then room for its kept distributions
        stride = <size_t>(n_buckets + MEMO_SLOTS * N_DEALER)
        base = self.room_for(<size_t>count * stride)
        pair_group_unload(acc, n_buckets, count, base, stride)
        for k in range(count):
            self.group_tables.push_back(base + <size_t>k * stride)
            self.index.insert(self.batch_keys[k], <int>self.group_tables.size() - 1)
        self.memo_have.resize(self.group_tables.size() * MEMO_SLOTS, 0)
        self.batch_count = 0

    cdef double* room_for(self, size_t size) noexcept nogil:
        """``size`` doubles of group tables, in the last chunk or in a new one twice its
        size (tables never move: the engines' resplit-to-4 tables reach 0.5-4 MB, and
        growing one block by doubling copied the live tables, ~1.6% of a one-deck solve)."""
        cdef size_t cap
        cdef double* chunk
        if self.chunk_size + size > self.chunk_capacity:
            cap = 2 * self.chunk_capacity if self.chunk_capacity else 1 << 16
            while cap < size:
                cap *= 2
            self.chunks.reserve(self.chunks.size() + 1)   # (may throw: before the block exists)
            chunk = <double*>checked_alloc(cap * sizeof(double))
            self.chunks.push_back(chunk)
            self.chunk_size = 0
            self.chunk_capacity = cap
        chunk = self.chunks.back() + self.chunk_size
        self.chunk_size += size
        return chunk

    def __dealloc__(self):
        # Cython destroys C++ members, but not the elements of a C++ array member: free
        # each pair rank's bucket vector by hand (they leaked ~0.1 MB a solve before)
        cdef int p
        cdef size_t c
        for p in range(N_RANKS):
            self.buckets[p].clear()
            self.buckets[p].shrink_to_fit()
        for c in range(self.chunks.size()):
            free(self.chunks[c])

    def outcomes(self, int pair, weights):
        """Dealer outcome probabilities [17, 18, 19, 20, 21, natural] for the shoe
        ``weights`` (10 counts the dealer draws from), computed the grouped way for pair
        rank ``pair`` (1..10): a check of this module against ``DealerTrie``."""
        cdef double w[N_RANKS]
        cdef double out[N_DEALER]
        cdef double total = 0.0
        cdef const double* table
        cdef int r, p = pair - 1
        cdef uint64_t key = <uint64_t>1 << 62   # a key no engine uses
        if not 1 <= pair <= 10:
            raise ValueError(f"pair must be a rank 1..10, got {pair!r}")
        if len(weights) != N_RANKS:
            raise ValueError(f"weights must have {N_RANKS} counts, got {len(weights)}")
        for r in range(N_RANKS):
            w[r] = float(weights[r])
            if not (0.0 <= w[r] <= MAX_COUNT_VALUE):
                raise ValueError(f"weights must be finite, non-negative counts, got {weights[r]!r}")
            total += w[r]
        with nogil:
            guard(self.flush())
            guard(self.queue(p, w, key))
            guard(self.flush())
            table = self.group(key)
            self.distribution(p, table, w[p], total, out)
            guard(self.clear())
        return [out[r] for r in range(N_DEALER)]

    @property
    def passes(self):
        """(trie passes, groups) computed so far: a measure of the work batched."""
        return self.n_passes, self.n_lanes

    cdef void clear(self) noexcept nogil:
        """Forget every group (keeping the memory): called when a pair's split value is
        known, since its groups serve no other pair."""
        cdef size_t c
        cdef double* largest
        self.flush()
        self.index.clear()
        # keep the largest chunk (the last) for the next pair's groups
        if self.chunks.size() > 1:
            largest = self.chunks.back()
            for c in range(self.chunks.size() - 1):
                free(self.chunks[c])
            self.chunks.clear()
            self.chunks.push_back(largest)
        self.chunk_size = 0
        self.group_tables.clear()
        self.memo_have.clear()   # (resize refills with 0: no kept distribution survives)

    cdef void distribution(self, int p, const double* table, double pair_left,
                           double total, double* out) noexcept nogil:
        """The dealer's outcomes (17..21, natural) from a shoe of the group ``table`` with
        ``pair_left`` cards of rank index ``p`` and ``total`` cards in all."""
        cdef PairLayout* lay = &self.layouts[p]
        cdef PartsRow* pair_row = &self.pair_rows[<int64_t>pair_left & (PARTS_ROWS - 1)]
        cdef PartsRow* size_row = &self.size_rows[<int64_t>total & (PARTS_ROWS - 1)]
        cdef double x
        cdef int j
        # The factors below depend only on the pair rank and one count, and a split's
        # shoes come back to the same few counts: rows are kept by exact count.
        if pair_row.p != p or pair_row.count != pair_left:
            # n_P^(j), with every factor clamped at 0 (no such card left), as the trie
            # pass does
            pair_row.v[0] = 1.0
            for j in range(1, lay.max_j + 1):
                x = pair_left - (j - 1)
                pair_row.v[j] = pair_row.v[j - 1] * (x if x > 0.0 else 0.0)
            pair_row.p = p
            pair_row.count = pair_left
        if size_row.p != p or size_row.count != total:
            # 1 / N^(m): a factor 1 / (cards left) per card drawn, 0 once none are left
            size_row.v[0] = 1.0
            for j in range(1, lay.max_m + 1):
                x = total - (j - 1)
                size_row.v[j] = size_row.v[j - 1] * (1.0 / x if x > 0.0 else 0.0)
            size_row.p = p
            size_row.count = total
        pair_group_outcome(table, lay.n_pairs, lay.pair_j, lay.pair_m, pair_row.v,
                           size_row.v, out)

    cdef int group_number(self, uint64_t key) noexcept nogil:
        """The number of a computed group, or -1."""
        return self.index.find(key)

    cdef const double* memo_lookup(self, int p, int g, int gone) noexcept nogil:
        """The kept distribution of group number ``g`` (of pair rank index ``p``) with
        ``gone`` pair cards out, or NULL (see ``context_outcomes``)."""
        if gone < MEMO_SLOTS and self.memo_have[<size_t>g * MEMO_SLOTS + gone]:
            return self.group_tables[g] + N_DEALER * (self.layouts[p].n_pairs + gone)
        return NULL

    cdef const double* context_outcomes(self, int p, int g, int gone, const double* left,
                                        double total) noexcept nogil:
        """The dealer's outcomes from the shoe of group number ``g`` with ``gone`` cards of
        the pair's rank index ``p`` out (the split hand's and the context's extra ones):
        ``left`` holds the counts of that shoe (clamped at 0) and ``total`` their sum.
        The shoe is fixed by (g, gone), so the distribution is kept with the group for
        every split hand and context that comes to the same shoe (a hand with one more
        pair card, in a context with one fewer extra pair card gone)."""
        cdef const double* table = self.group_tables[g]
        cdef double* d
        cdef size_t slot = <size_t>g * MEMO_SLOTS + gone
        if gone >= MEMO_SLOTS:   # (a freak shoe: compute, keep nothing)
            self.distribution(p, table, left[p], total, self.spare)
            return self.spare
        d = <double*>table + N_DEALER * (self.layouts[p].n_pairs + gone)
        if not self.memo_have[slot]:
            self.distribution(p, table, left[p], total, d)
            self.memo_have[slot] = 1
        return d
