# cython: language_level=3
# distutils: language = c++
"""Dealer outcome distributions.

``DealerTrie`` holds every composition of cards a dealer can draw from one starting hand,
with the number of draw orders that end exactly there.  The dealer's outcome distribution
for a shoe is then a single pass over the trie (products of falling factorials), with no
recursion and no allocation: ``DealerTrie.evaluate``.  The trie is built here in C the
first time a starting hand is asked for (a few milliseconds) and cached for the process.

``DealerStore`` is one engine's memo of distributions, keyed by the cards out of the shoe,
with the batch of shoes that wait for one shared trie pass.
"""
from libc.stdint cimport uint64_t, int8_t, int64_t
from libcpp.unordered_map cimport unordered_map
from bjcore._alloc cimport vector, guard, guard_ptr
from cython.operator cimport dereference as deref

from bjcore._defs cimport N_RANKS, N_DEALER, MAX_COUNT_VALUE, soft_total
from bjcore._memo cimport HashIndex, block_take, block_give, block_kept, block_release_all
from libc.string cimport memcpy
from libc.math cimport NAN


# --------------------------------------------------------------------------------------
# Building a trie
# --------------------------------------------------------------------------------------

cdef struct RawNode:
    int rank            # rank index of the last card drawn (-1 at the root)
    int prior           # cards of that rank drawn before it
    int depth           # cards drawn
    int outcome         # 0..4 for a final 17..21, 5 a natural, -1 bust or not final
    int64_t orders      # draw orders of the composition ending exactly here
    int skip            # index just past the node's subtree


cdef class _TrieBuilder:
    """Enumerates the dealer's draw compositions from a starting hand, in pre-order,
    each multiset once (cards added in non-decreasing rank order).

    A composition ``D`` is *final* when the dealer stands or busts after its last card;
    its ``orders`` count the draw orders of ``D`` whose every proper prefix is a hitting
    hand (so the dealer stops exactly there).  Subtrees without a final composition on
    17..21 or a natural are dropped.  Every final composition has a hard total of at most 26 (at most 16 before
    its last card), and so have its canonical ancestors: that bounds the walk.
    """
    cdef int hard0, aces0, hit_soft_17
    cdef bint single_card, starts_natural, single_ace, single_ten
    cdef int drawn[N_RANKS]          # counts of the cards drawn, by rank index
    cdef int n_drawn, hard_drawn
    cdef unordered_map[uint64_t, int64_t] hitting_memo
    cdef vector[RawNode] nodes

    def __init__(self, tuple start, bint hit_soft_17):
        cdef int c
        self.hard0 = 0
        self.aces0 = 0
        for c in start:
            self.hard0 += c
            self.aces0 += c == 1
        self.hit_soft_17 = hit_soft_17
        self.single_card = len(start) == 1
        self.starts_natural = sorted(start) == [1, 10]
        self.single_ace = start == (1,)
        self.single_ten = start == (10,)
        for c in range(N_RANKS):
            self.drawn[c] = 0
        self.n_drawn = 0
        self.hard_drawn = 0

    cdef uint64_t key(self) noexcept:
        cdef uint64_t k = 0
        cdef int r
        for r in range(N_RANKS):
            k |= (<uint64_t>self.drawn[r]) << (5 * r)
        return k

    cdef bint hits(self) noexcept:
        """Whether the dealer draws again after the cards drawn so far."""
        cdef int hard = self.hard0 + self.hard_drawn
        cdef int aces = self.aces0 + self.drawn[0]
        cdef int total
        if self.starts_natural and self.n_drawn == 0:
            return False
        total = soft_total(hard, aces)
        if total <= 16:
            return True
        return self.hit_soft_17 and total == 17 and aces > 0 and hard + 10 == 17

    cdef int outcome(self) noexcept:
        cdef int total
        if self.starts_natural and self.n_drawn == 0:
            return 5
        if self.n_drawn == 1 and ((self.single_ace and self.drawn[9] == 1)
                                  or (self.single_ten and self.drawn[0] == 1)):
            return 5
        total = soft_total(self.hard0 + self.hard_drawn, self.aces0 + self.drawn[0])
        return total - 17 if 17 <= total <= 21 else -1

    cdef void take(self, int r) noexcept:
        self.drawn[r] += 1
        self.n_drawn += 1
        self.hard_drawn += r + 1

    cdef void put_back(self, int r) noexcept:
        self.drawn[r] -= 1
        self.n_drawn -= 1
        self.hard_drawn -= r + 1

    cdef int64_t orders_into(self) noexcept:
        """Draw orders of the current composition whose proper prefixes all hit: a sum
        over the (distinct) rank of its last card."""
        cdef int64_t count = 0
        cdef int r
        for r in range(N_RANKS):
            if self.drawn[r] > 0:
                self.put_back(r)
                count += self.hitting_orders()
                self.take(r)
        return count

    cdef int64_t hitting_orders(self) noexcept:
        """Draw orders reaching the current composition with the dealer still drawing."""
        cdef uint64_t k = self.key()
        cdef unordered_map[uint64_t, int64_t].iterator it = self.hitting_memo.find(k)
        cdef int64_t v
        if it != self.hitting_memo.end():
            return deref(it).second
        if not self.hits():
            v = 0
        elif self.n_drawn == 0:
            v = 1
        else:
            v = self.orders_into()
        self.hitting_memo[k] = v
        return v

    cdef int64_t final_orders(self) noexcept:
        if self.hits():
            return 0
        return 1 if self.n_drawn == 0 else self.orders_into()

    cdef bint visit(self, int last) noexcept:
        """Append the current composition (last card ``last``, -1 at the root) and its
        subtree; False (and nothing appended) when the subtree holds no final one."""
        cdef size_t me = self.nodes.size()
        cdef RawNode node
        cdef bint keep
        cdef int nxt
        node.rank = last
        node.prior = self.drawn[last] - 1 if last >= 0 else 0
        node.depth = self.n_drawn
        node.outcome = self.outcome()
        node.orders = self.final_orders()
        node.skip = 0
        self.nodes.push_back(node)
        # Only compositions where the dealer ends on 17..21 or a natural are counted (a
        # bust is 1 minus the rest), so a subtree without one is dropped: that removes
        # some 40% of the nodes, the bust leaves, and no kept node's value changes.
        keep = node.orders > 0 and node.outcome >= 0
        for nxt in range(last if last >= 0 else 0, N_RANKS):
            if self.hard0 + self.hard_drawn + nxt + 1 <= 26:
                self.take(nxt)
                if self.visit(nxt):
                    keep = True
                self.put_back(nxt)
        if not keep and me > 0:
            self.nodes.resize(me)
            return False
        self.nodes[me].skip = <int>self.nodes.size()
        return True


# --------------------------------------------------------------------------------------
# Evaluating a trie
# --------------------------------------------------------------------------------------

cdef extern from "trie_pass.h":
    # marks the leaves the pass does together with the node before them (in ``kind``)
    void group_leaves "bj_group_leaves"(NodeOffsets* off, int n) noexcept nogil

cdef class DealerTrie:
    """All dealer draw compositions from a starting hand, in pre-order.

    A composition ``D`` (multiset of drawn cards) is *final* when the dealer stands or
    busts after its last card.  ``mult`` counts the draw orders of ``D`` whose every proper
    prefix is a hitting hand: the probability of ending on ``D`` from a shoe ``n`` with
    ``N`` cards is ``mult * prod_r n_r^(D_r) / N^(|D|)`` (falling factorials).  Children
    are added in non-decreasing rank order so that each multiset appears once.
    """

    def __init__(self, start, bint hit_soft_17):
        start = tuple(int(c) for c in start)
        if not start or any(c < 1 or c > 10 for c in start):
            raise ValueError(f"dealer start hand must be ranks 1..10, got {start!r}")
        cdef _TrieBuilder builder = _TrieBuilder(start, hit_soft_17)
        guard(builder.visit(-1))
        cdef TrieNode node
        cdef NodeOffsets where
        cdef RawNode raw
        cdef size_t i
        cdef int f
        cdef int row_rank[MAX_FACTORS]
        self.n_nodes = <int>builder.nodes.size()
        self.max_depth = 0
        self.n_factors = 0
        # room for every node first: the loop's push_backs then never allocate
        guard(self.nodes.reserve(builder.nodes.size()))
        guard(self.offsets.reserve(builder.nodes.size()))
        for i in range(builder.nodes.size()):
            raw = builder.nodes[i]
            if raw.depth >= MAX_DEPTH:
                raise ValueError("dealer trie deeper than the kernel supports")
            # one factor row per (rank, prior) pair, numbered in order of first use; the
            # root (rank -1) has a row of its own that no pass reads
            f = 0
            while f < self.n_factors and not (row_rank[f] == raw.rank
                                              and self.factor_prior[f] == raw.prior):
                f += 1
            if f == self.n_factors:
                if self.n_factors == MAX_FACTORS:
                    raise ValueError("dealer trie uses more card factors than the kernel supports")
                row_rank[f] = raw.rank
                self.factor_rank[f] = max(raw.rank, 0)
                self.factor_prior[f] = raw.prior
                self.n_factors += 1
            node.factor = f
            node.depth = raw.depth
            node.outcome = raw.outcome if (raw.outcome >= 0 and raw.orders > 0) else N_DEALER
            node.mult = <double>raw.orders if node.outcome < N_DEALER else 0.0
            node.skip = raw.skip
            self.max_depth = max(self.max_depth, raw.depth)
            self.nodes.push_back(node)
            where.factor = node.factor * TRIE_BATCH
            where.outcome = node.outcome * TRIE_BATCH
            where.parent = max(node.depth - 1, 0) * TRIE_BATCH
            where.depth = node.depth * TRIE_BATCH
            where.mult = node.mult
            where.skip = node.skip
            if node.skip == <int>i + 1:   # a leaf (kept only if counted)
                where.kind = NODE_LEAF
            elif node.outcome == N_DEALER:
                where.kind = NODE_DRAW_ON
            else:
                where.kind = NODE_DRAW_AND_END
            self.offsets.push_back(where)
        # the leaves a pass does together with the node before them (trie_pass.h)
        group_leaves(self.offsets.data(), self.n_nodes)

    cdef void evaluate(self, const double* weights, double total, bint infinite,
                       double* out) noexcept nogil:
        """Dealer outcome probabilities into ``out[0..5]`` (17..21, natural).

        ``weights`` are the counts of the shoe the dealer draws from (``total`` cards) or,
        for an infinite shoe, the rank probabilities.  Bust is 1 minus the sum.
        """
        self.evaluate_many(weights, &total, 1, infinite, out)

    cdef void evaluate_many(self, const double* weights, const double* totals, int count,
                            bint infinite, double* out) noexcept nogil:
        """Dealer outcomes of ``count`` <= TRIE_BATCH shoes in one pass over the trie:
        ``weights[k * 10 + r]``, ``totals[k]``; results in ``out[k * 6 + outcome]``."""
        self.evaluate_lanes(weights, totals, count, infinite, False, out)

    cdef void evaluate_lanes(self, const double* weights, const double* totals, int count,
                             bint infinite, bint rank_major, double* out) noexcept nogil:
        """``evaluate_many``; with ``rank_major`` the shoes are laid out as the pass reads
        them, ``weights[r * TRIE_BATCH + k]``, lanes ``count`` up to the padded width
        (see ``lanes_for``) zero, and are not transposed first.
        Each node multiplies its parent's probability by a card factor (cards of its rank
        left, 0 when none) and 1 / (cards left).  The factors are tabulated per lane before
        the pass (``bj_trie_tables``), so the per-node work is a few multiplies over
        contiguous lanes (``bj_trie_pass``; both in trie_pass.h, built for AVX2 where the
        CPU has it); lanes
        are padded to 4, 8, 16, 32 or 64 (zero factors) so the loops have fixed lengths, and
        every table has the fixed stride TRIE_BATCH, so each node's offsets into them are fixed
        and worked out once, when the trie is built (``offsets``).
        """
        cdef double prod[(MAX_DEPTH + 1) * TRIE_BATCH]
        cdef double inv[(MAX_DEPTH + 1) * TRIE_BATCH]
        cdef double acc[(N_DEALER + 1) * TRIE_BATCH]
        cdef double factor[MAX_FACTORS * TRIE_BATCH]
        cdef unsigned char any_left[MAX_FACTORS]
        cdef const TrieNode* nd = self.nodes.data()
        cdef int i, d, k, o
        cdef bint check_left
        cdef const double* recip = NULL   # (1 / x from a table: whole totals only)
        cdef int lanes = lanes_for(count)
        for k in range((N_DEALER + 1) * TRIE_BATCH):
            acc[k] = 0.0
        # card factors, which rows any shoe can draw, 1 / (cards left) by depth
        if not infinite and whole_totals(totals, count):
            recip = &reciprocals[0]
        trie_tables(weights, totals, count, infinite, self.factor_rank, self.factor_prior,
                    self.n_factors, self.max_depth, factor, any_left, inv, lanes, rank_major,
                    recip)
        for k in range(lanes):
            prod[k] = 1.0 if k < count else 0.0
            acc[nd[0].outcome * TRIE_BATCH + k] += nd[0].mult * prod[k]
        # the root's row (0) is read by no node; is any other row 0 in every lane?
        check_left = False
        for i in range(1, self.n_factors):
            if not any_left[i]:
                check_left = True
                break
        trie_pass(nd, self.offsets.data(), self.n_nodes, factor, any_left, inv, prod, acc,
                  lanes, check_left)
        for k in range(count):
            for o in range(N_DEALER):
                out[k * N_DEALER + o] = acc[o * TRIE_BATCH + k]

    def distribution(self, weights, bint infinite=False):
        """Outcome probabilities ``[17, 18, 19, 20, 21, natural, bust]`` for a shoe.

        ``weights``: 10 counts of the shoe the dealer draws from (dealer's cards already
        out), or 10 rank probabilities with ``infinite=True``.
        """
        cdef double w[N_RANKS]
        cdef double out[N_DEALER]
        cdef double total = 0.0
        cdef int r
        if len(weights) != N_RANKS:
            raise ValueError(f"weights must have {N_RANKS} entries, got {len(weights)}")
        for r in range(N_RANKS):
            w[r] = float(weights[r])
            if not (0.0 <= w[r] <= MAX_COUNT_VALUE):
                raise ValueError(f"weights must be finite, non-negative counts (at most "
                                 f"{MAX_COUNT_VALUE:g}), got {weights[r]!r}")
            total += w[r]
        if infinite and abs(total - 1.0) > 1e-9:
            raise ValueError(f"infinite-shoe weights are rank probabilities summing to 1, "
                             f"got a sum of {total!r}")
        with nogil:
            self.evaluate(w, total, infinite, out)
        import numpy as np   # here, not at import: bjcore itself does not need numpy
        result = np.empty(N_DEALER + 1)
        for r in range(N_DEALER):
            result[r] = out[r]
        result[N_DEALER] = max(0.0, 1.0 - sum(result[:N_DEALER]))
        return result


_trie_cache = {}


# 1.0 / x for the whole numbers x below RECIPROCALS (reciprocals[0] = 0): a trie pass's
# inverse rows, 1 / (cards left) at each depth for each shoe, read from here when the
# shoes' totals are whole numbers (every shoe of whole counts) instead of divided again in
# every pass: the same quotients, the same bits.  (Dividing took most of the tables'
# time: a 64-lane pass over a 10-deep trie divided 640 times.)
cdef enum:
    RECIPROCALS = 4096
cdef double reciprocals[RECIPROCALS]


cdef void fill_reciprocals() noexcept:
    cdef int x
    reciprocals[0] = 0.0
    for x in range(1, RECIPROCALS):
        reciprocals[x] = 1.0 / <double>x


fill_reciprocals()


cdef inline bint whole_totals(const double* totals, int count) noexcept nogil:
    """Whether every one of ``totals`` is a whole number below RECIPROCALS (then so is every
    number of cards left that a pass divides by)."""
    cdef int k
    for k in range(count):
        if not (0.0 <= totals[k] < RECIPROCALS and totals[k] == <double>(<int>totals[k])):
            return False
    return True


def recycled_bytes():
    """Bytes of freed blocks kept for reuse by later solves: the process's one pool
    (recycle.h), the same as ``bjcore._memo.recycled_bytes``."""
    return block_kept()


def release_recycled():
    """Free the blocks kept for reuse (the one pool, as ``bjcore._memo.release_recycled``);
    returns the bytes released."""
    return block_release_all()

# An engine of a full solve stores 3,000-26,000 distributions (1-8 decks, every class):
# start with room for 8,192 (the blocks are recycled, so a large start costs no page
# faults, and it saves the early doublings and their re-insertions).
cdef int INITIAL_ROWS = 8192   # distributions a store holds before it first grows
cdef int INDEX_BITS = 14       # its index: 16,384 entries, grown at half full


cdef inline int lanes_for(int count) noexcept nogil:
    """Lanes of a trie pass over ``count`` shoes: padded to 4, 8, 16, 32 or 64, so the
    loops have fixed lengths."""
    return (4 if count <= 4 else (8 if count <= 8 else (16 if count <= 16 else
            (32 if count <= 32 else TRIE_BATCH))))


def dealer_trie(start, bint hit_soft_17):
    """The (cached) ``DealerTrie`` for a dealer starting hand."""
    key = (tuple(sorted(int(c) for c in start)), bool(hit_soft_17))
    trie = _trie_cache.get(key)
    if trie is None:
        # setdefault: two threads building the same trie keep one of them
        trie = _trie_cache.setdefault(key, DealerTrie(key[0], hit_soft_17))
    return trie


# --------------------------------------------------------------------------------------
# One engine's distributions
# --------------------------------------------------------------------------------------

cdef class DealerStore:
    """The dealer distributions one engine has computed, keyed by the cards out of the
    shoe (a packed composition), and the batch of shoes waiting for a trie pass.

    A trie pass costs a fixed amount per node plus a little per shoe, so batching many
    shoes into each pass is what makes the dealer enumeration cheap: callers ``queue``
    every shoe they are about to need, then ``flush``.
    """

    # A queued key gets its row at once, marked unfinished by a NaN first outcome until
    # its batch is evaluated: ``find`` treats it as unknown (NULL), ``queue`` as already
    # queued, and ``flush`` writes the row without looking the key up again.

    def __cinit__(self, DealerTrie trie not None):
        self.trie = trie
        self.index = HashIndex(INDEX_BITS)
        self.batch_count = 0
        self.n_rows = 0
        self.row_capacity = INITIAL_ROWS
        self.rows = <double*>guard_ptr(block_take(INITIAL_ROWS * N_DEALER * sizeof(double)))

    def __dealloc__(self):
        block_give(self.rows, self.row_capacity * N_DEALER * sizeof(double))
        self.rows = NULL

    cdef int new_row(self) noexcept nogil:
        """A fresh row at the end of ``rows`` (which may move: earlier pointers into it
        are invalid afterwards)."""
        cdef int row = self.n_rows
        cdef double* bigger
        if row == self.row_capacity:
            # double the (recycled) block: capacities stay powers of two, so that blocks
            # freed by one solve fit the next one's tables
            bigger = <double*>block_take(2 * self.row_capacity * N_DEALER * sizeof(double))
            memcpy(bigger, self.rows, self.row_capacity * N_DEALER * sizeof(double))
            block_give(self.rows, self.row_capacity * N_DEALER * sizeof(double))
            self.rows = bigger
            self.row_capacity *= 2
        self.n_rows = row + 1
        return row

    cdef const double* store(self, uint64_t key, const double* dist) noexcept nogil:
        """Store ``dist`` under ``key`` (in its row if the key is queued: the batch's
        evaluation then writes that row again)."""
        cdef int r, row = self.index.find_or_insert(key, self.n_rows)
        if row < 0:
            row = self.new_row()
        for r in range(N_DEALER):
            self.rows[row * N_DEALER + r] = dist[r]
        return &self.rows[row * N_DEALER]

    cdef void queue(self, const double* left, int drawn, uint64_t key) noexcept nogil:
        """Queue the shoe ``left`` (less one card of rank index ``drawn`` if >= 0) under
        ``key`` unless its outcomes are known or already queued; a full batch is
        evaluated at once."""
        cdef int j, row, k = self.batch_count
        cdef double total = 0.0
        if self.index.find_or_insert(key, self.n_rows) != -1:
            return   # known, or already waiting (the same cards out, reached another way)
        row = self.new_row()
        self.rows[row * N_DEALER] = NAN   # unfinished until the batch is evaluated
        for j in range(N_RANKS):   # rank-major, as the trie pass reads the shoes
            self.batch_weights[j * TRIE_BATCH + k] = left[j]
            total += left[j]
        if drawn >= 0:
            self.batch_weights[drawn * TRIE_BATCH + k] -= 1.0
            total -= 1.0
        self.batch_totals[k] = total
        self.batch_rows[k] = row
        self.batch_count = k + 1
        if self.batch_count == TRIE_BATCH:
            self.flush()

    cdef void flush(self) noexcept nogil:
        """Evaluate the queued shoes in one trie pass and fill their rows."""
        cdef double out[TRIE_BATCH * N_DEALER]
        cdef int k, r, count = self.batch_count
        cdef double* row
        if count == 0:
            return
        for r in range(N_RANKS):   # the padding lanes of a part-filled batch
            for k in range(count, lanes_for(count)):
                self.batch_weights[r * TRIE_BATCH + k] = 0.0
        self.trie.evaluate_lanes(self.batch_weights, self.batch_totals, count, False, True,
                                 out)
        for k in range(self.batch_count):
            row = &self.rows[self.batch_rows[k] * N_DEALER]
            for r in range(N_DEALER):
                row[r] = out[k * N_DEALER + r]
        self.batch_count = 0

    cdef const double* compute(self, uint64_t key, const double* weights, double total,
                               bint infinite) noexcept nogil:
        """Evaluate one shoe at once and store it under ``key``."""
        cdef double out[N_DEALER]
        self.trie.evaluate(weights, total, infinite, out)
        return self.store(key, out)

    def __len__(self):
        return self.index.count
