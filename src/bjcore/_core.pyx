# cython: language_level=3
# distutils: language = c++
"""Compiled kernels of bjsolve.

The maths follows ../shared/DESIGN-exact.md (section numbers below refer to it):

* ``DealerTrie`` holds every composition of cards a dealer can draw from one starting hand,
  with the number of draw orders that end exactly there.  The dealer's outcome
  distribution for a shoe is then a single pass over the trie (products of falling
  factorials), with no recursion and no allocation: ``DealerTrie.evaluate``.
* ``UpcardEngine`` computes, for one upcard, the unconditioned values of stand / hit /
  double for player hands in every context (unsplit, or split with ``e`` extra pair cards
  gone), the split expectation (sections 6.4-6.7) and the round's expectation given the
  upcard (section 7).  Hands are memoised on a packed integer key in a C++ hash map.

Everything inside the recursions is ``noexcept nogil``; Python objects appear only at the
``def`` edge, where arguments are checked once.
"""
from libc.math cimport NAN, fabs, fmax, isnan
from libc.stdint cimport uint64_t, int8_t, int32_t
from libcpp.unordered_map cimport unordered_map
from libcpp.vector cimport vector
from cython.operator cimport dereference as deref

import numpy as np

from ._trie import build_dealer_nodes



cdef inline uint64_t rank_unit(int r) noexcept nogil:
    return (<uint64_t>1) << (COUNT_BITS * r)


# Two option values closer than this (relative) are a tie, which the earlier option wins;
# the Python layer reads it from here (bjcore.TIE_TOLERANCE).
cdef double _TIE_TOLERANCE = 1e-12
TIE_TOLERANCE = _TIE_TOLERANCE


cdef inline bint improves(double challenger, double incumbent) noexcept nogil:
    """Section 4: a later option replaces the current choice only if strictly better.
    Values equal in exact arithmetic can differ by rounding (~1e-16) in binary64, so
    "better" means by more than a relative TIE_TOLERANCE: exact ties then go to the
    earlier option as the rules say, and no real difference comes near that size."""
    return challenger - incumbent > _TIE_TOLERANCE * fmax(1.0, fabs(incumbent))


cdef inline int soft_total(int hard, int aces) noexcept nogil:
    """Best total of a hand: an ace counts 11 when that does not bust."""
    if aces > 0 and hard + 10 <= 21:
        return hard + 10
    return hard


# --------------------------------------------------------------------------------------
# Dealer
# --------------------------------------------------------------------------------------

cdef class DealerTrie:
    """All dealer draw compositions from a starting hand, in pre-order.

    A composition ``D`` (multiset of drawn cards) is *final* when the dealer stands or
    busts after its last card.  ``mult`` counts the draw orders of ``D`` whose every proper
    prefix is a hitting hand: the probability of ending on ``D`` from a shoe ``n`` with
    ``N`` cards is ``mult * prod_r n_r^(D_r) / N^(|D|)`` (falling factorials).  Children
    are added in non-decreasing rank order so that each multiset appears once.
    """

    def __init__(self, start, bint hit_soft_17):
        nodes = build_dealer_nodes(start, hit_soft_17)
        cdef TrieNode node
        factor_row = {}
        self.n_nodes = len(nodes)
        self.max_depth = 0
        self.n_factors = 0
        for rank, prior, depth, outcome, orders, skip in nodes:
            if depth >= MAX_DEPTH:
                raise ValueError("dealer trie deeper than the kernel supports")
            if (rank, prior) not in factor_row:
                if self.n_factors == MAX_FACTORS:
                    raise ValueError("dealer trie uses more card factors than the kernel supports")
                factor_row[rank, prior] = self.n_factors
                self.factor_rank[self.n_factors] = max(rank, 0)
                self.factor_prior[self.n_factors] = prior
                self.n_factors += 1
            node.factor = factor_row[rank, prior]
            node.depth = depth
            node.outcome = outcome if (outcome >= 0 and orders > 0) else N_DEALER
            node.mult = float(orders) if node.outcome < N_DEALER else 0.0
            node.skip = skip
            self.max_depth = max(self.max_depth, depth)
            self.nodes.push_back(node)

    cdef void evaluate(self, const double* weights, double total, bint infinite,
                       double* out) noexcept nogil:
        """Dealer outcome probabilities into ``out[0..5]`` (17..21, natural).

        ``weights`` are the counts of the shoe the dealer draws from (``total`` cards) or,
        for an infinite shoe, the rank probabilities.  Bust is 1 minus the sum.
        """
        self.evaluate_many(weights, &total, 1, infinite, out)

    cdef void evaluate_many(self, const double* weights, const double* totals, int count,
                            bint infinite, double* out) noexcept nogil:
        """Dealer outcomes of ``count`` <= MAX_BATCH shoes in one pass over the trie.

        ``weights[k * 10 + r]``, ``totals[k]``; results in ``out[k * 6 + outcome]``.
        Each node multiplies its parent's probability by a card factor (cards of its rank
        left, 0 when none) and 1 / (cards left).  The factors are tabulated per lane before
        the pass, so the per-node work is a few multiplies over contiguous lanes; lanes
        are padded to an even count (zero factors) so the loop vectorises in pairs, and
        every table has the fixed stride MAX_BATCH so that node offsets are shifts.
        """
        cdef double prod[(MAX_DEPTH + 1) * MAX_BATCH]
        cdef double inv[(MAX_DEPTH + 1) * MAX_BATCH]
        cdef double acc[(N_DEALER + 1) * MAX_BATCH]
        cdef double factor[MAX_FACTORS * MAX_BATCH]
        cdef bint any_left[MAX_FACTORS]
        cdef const TrieNode* nd = self.nodes.data()
        cdef int i, d, k, o, n = self.n_nodes, skip
        cdef int lanes = count + (count & 1)
        cdef double m, f
        cdef double* pd
        cdef const double* pp
        cdef const double* pinv
        cdef const double* pf
        cdef double* pa
        for k in range((N_DEALER + 1) * MAX_BATCH):
            acc[k] = 0.0
        for i in range(self.n_factors):
            any_left[i] = False
            for k in range(lanes):
                f = 0.0
                if k < count:
                    f = weights[k * N_RANKS + self.factor_rank[i]]
                    if not infinite:
                        f -= self.factor_prior[i]
                    if not (f > 0.0):
                        f = 0.0
                factor[i * MAX_BATCH + k] = f
                any_left[i] = any_left[i] or f > 0.0
        for d in range(1, self.max_depth + 1):
            for k in range(lanes):
                inv[d * MAX_BATCH + k] = 0.0
                if k < count:
                    if infinite:
                        inv[d * MAX_BATCH + k] = 1.0
                    elif totals[k] - d + 1 > 0:
                        inv[d * MAX_BATCH + k] = 1.0 / (totals[k] - d + 1)
        for k in range(lanes):
            prod[k] = 1.0 if k < count else 0.0
            acc[nd[0].outcome * MAX_BATCH + k] += nd[0].mult * prod[k]
        i = 1
        while i < n:
            skip = nd[i].skip
            if not any_left[nd[i].factor]:
                i = skip   # no such card left in any shoe: the subtree is impossible
                continue
            d = nd[i].depth
            m = nd[i].mult
            pf = &factor[nd[i].factor * MAX_BATCH]
            pp = &prod[(d - 1) * MAX_BATCH]
            pinv = &inv[d * MAX_BATCH]
            pa = &acc[nd[i].outcome * MAX_BATCH]
            if skip == i + 1:
                # a leaf: always a final composition, nothing below needs its probability
                for k in range(lanes):
                    pa[k] += m * (pp[k] * pf[k] * pinv[k])
            else:
                pd = &prod[d * MAX_BATCH]
                for k in range(lanes):
                    pd[k] = pp[k] * pf[k] * pinv[k]
                    pa[k] += m * pd[k]
            i += 1
        for k in range(count):
            for o in range(N_DEALER):
                out[k * N_DEALER + o] = acc[o * MAX_BATCH + k]

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
            if not (0.0 <= w[r] <= MAX_COUNT):
                raise ValueError(f"weights must be finite, non-negative counts (at most "
                                 f"{MAX_COUNT:g}), got {weights[r]!r}")
            total += w[r]
        if infinite and abs(total - 1.0) > 1e-9:
            raise ValueError(f"infinite-shoe weights are rank probabilities summing to 1, "
                             f"got a sum of {total!r}")
        with nogil:
            self.evaluate(w, total, infinite, out)
        result = np.empty(N_DEALER + 1)
        for r in range(N_DEALER):
            result[r] = out[r]
        result[N_DEALER] = max(0.0, 1.0 - sum(result[:N_DEALER]))
        return result


_trie_cache = {}


def dealer_trie(start, bint hit_soft_17):
    """The (cached) ``DealerTrie`` for a dealer starting hand."""
    key = (tuple(sorted(int(c) for c in start)), bool(hit_soft_17))
    trie = _trie_cache.get(key)
    if trie is None:
        trie = DealerTrie(key[0], hit_soft_17)
        _trie_cache[key] = trie
    return trie


# --------------------------------------------------------------------------------------
# Player
# --------------------------------------------------------------------------------------

cdef inline double falling(double x, int k) noexcept nogil:
    cdef double v = 1.0
    cdef int j
    for j in range(k):
        v *= x - j
    return v


# Largest count the kernels accept for one rank: far beyond any real shoe, and small
# enough that every product in the dealer enumeration stays finite.
MAX_COUNT = 1e9
RULE_KEYS = ("hit_soft_17", "double_min_total", "double_soft", "double_any_cards",
             "double_after_split", "max_split_hands", "resplit_aces", "hit_split_aces",
             "surrender", "blackjack_payout", "split_class", "natural_takes_all",
             "dealer_wins_ties")


cdef uint64_t EMPTY_KEY = 0xFFFFFFFFFFFFFFFFULL   # no packed key has every bit set
cdef uint64_t FIBONACCI = 11400714819323198485ULL   # 2^64 / golden ratio, odd


cdef class HashIndex:
    """Open-addressing map from a packed 64-bit key to a slot number.

    The memo tables hold ~10^4-10^5 entries per upcard; a flat table with linear probing
    costs one multiply and (mostly) one cache line per look-up, and is freed in two
    blocks, where a node-based ``unordered_map`` allocates and frees every entry.
    """

    def __cinit__(self):
        self.shift = 64 - 12
        self.count = 0
        self.keys.assign(1 << 12, EMPTY_KEY)
        self.slots.assign(1 << 12, -1)

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

    def __len__(self):
        return self.count


cdef class UpcardEngine:
    """Exact player values against one upcard for one shoe and rule set.

    Values are unconditioned fractions of the initial bet (DESIGN sections 3, 6, 7); the
    Python layer conditions them on no dealer blackjack.  One engine per upcard, so
    several can run in parallel threads without sharing memo tables.
    """

    def __init__(self, shoe, dealer, dict rules, bint infinite=False, bint fractional=False):
        """shoe: 10 counts (or probabilities, infinite); dealer: the upcard, or a tuple of
        both dealer cards when they are dealt face up (no hole card to guess).
        fractional=True accepts non-integer counts: every formula is a polynomial in the
        counts, so this is the smooth interpolation between shoes that index generation
        uses to place a shoe exactly at a true count."""
        cdef int r
        if len(shoe) != N_RANKS:
            raise ValueError(f"shoe must have {N_RANKS} counts, got {len(shoe)}")
        cards = (dealer,) if not isinstance(dealer, (tuple, list)) else tuple(dealer)
        if any(type(c) is not int for c in cards):
            raise TypeError(f"dealer must be a rank 1..10 (int) or a tuple of two, got {dealer!r}")
        if not 1 <= len(cards) <= 2 or any(c < 1 or c > 10 for c in cards):
            raise ValueError(f"dealer must be an upcard or two cards, ranks 1..10, got {dealer!r}")
        if sorted(cards) == [1, 10]:
            raise ValueError("the dealer's two cards are a natural: there is nothing to play")
        self.upcard = cards[0] if len(cards) == 1 else 0
        for r in range(N_RANKS):
            self.dealer_cnt[r] = 0
        for c in cards:
            self.dealer_cnt[c - 1] += 1
        self.dealer_n = len(cards)
        self.hole_rank = -1
        if len(cards) == 1 and cards[0] == 1:
            self.hole_rank = 9
        elif len(cards) == 1 and cards[0] == 10:
            self.hole_rank = 0
        self.infinite = infinite
        self.shoe_size = 0.0
        for r in range(N_RANKS):
            v = float(shoe[r])
            if not (0.0 <= v <= MAX_COUNT):
                raise ValueError(f"shoe counts must be finite and non-negative (at most "
                                 f"{MAX_COUNT:g}), got {shoe[r]!r}")
            if not infinite and not fractional and v != int(v):
                raise ValueError(f"shoe counts must be whole numbers, got {shoe[r]!r}")
            self.shoe[r] = v
            self.shoe_size += v
        if not infinite:
            for r in range(N_RANKS):
                if self.shoe[r] < self.dealer_cnt[r]:
                    raise ValueError(f"the shoe does not hold the dealer's cards {cards}")
        missing = sorted(set(RULE_KEYS) - set(rules))
        if missing:
            raise ValueError(f"rules is missing {', '.join(missing)}")
        if rules["double_min_total"] not in (0, 9, 10) or rules["surrender"] not in (0, 1, 2):
            raise ValueError("rules: double_min_total must be 0, 9 or 10 and surrender 0, 1 or 2")
        if not (0.0 < float(rules["blackjack_payout"]) <= 1000.0):
            raise ValueError(f"rules: blackjack_payout must be in (0, 1000], "
                             f"got {rules['blackjack_payout']!r}")
        self.rules.hit_soft_17 = int(rules["hit_soft_17"])
        self.rules.double_min_total = int(rules["double_min_total"])
        self.rules.double_soft = int(rules["double_soft"])
        self.rules.double_any_cards = int(rules["double_any_cards"])
        self.rules.double_after_split = int(rules["double_after_split"])
        self.rules.max_split_hands = int(rules["max_split_hands"])
        self.rules.resplit_aces = int(rules["resplit_aces"])
        self.rules.hit_split_aces = int(rules["hit_split_aces"])
        self.rules.surrender = int(rules["surrender"])
        self.rules.blackjack_payout = float(rules["blackjack_payout"])
        self.rules.split_class = int(rules["split_class"])
        self.rules.natural_takes_all = int(rules["natural_takes_all"])
        self.rules.tie_value = -1.0 if rules["dealer_wins_ties"] else 0.0
        # optional key (default: tied naturals follow the other ties)
        self.rules.natural_tie_value = float(rules.get("natural_tie_value", self.rules.tie_value))
        if not -1.0 <= self.rules.natural_tie_value <= 1000.0:
            raise ValueError(f"rules: natural_tie_value must be in [-1, 1000], "
                             f"got {rules['natural_tie_value']!r}")
        if not 1 <= self.rules.max_split_hands <= 4:
            raise ValueError("max_split_hands must be 1..4")
        if not 0 <= self.rules.split_class <= 3:
            raise ValueError("split_class must be 0..3")
        self.trie = dealer_trie(cards, self.rules.hit_soft_17)
        self.dealer_index = HashIndex()
        self.value_index = HashIndex()
        self.extra_max = 0
        for r in range(N_RANKS):
            self.split_cache[r] = NAN
        self.clear_hand()
        self.policy_missing = 0

    # ---- hand state --------------------------------------------------------------

    cdef void clear_hand(self) noexcept nogil:
        cdef int r
        for r in range(N_RANKS):
            self.cnt[r] = 0
        self.hard_sum = 0
        self.n_cards = 0
        self.pair_rank = 0
        self.extra = 0
        self.hand_key = 0

    cdef void add(self, int r) noexcept nogil:
        self.cnt[r] += 1
        self.hard_sum += r + 1
        self.n_cards += 1
        self.hand_key += rank_unit(r)

    cdef void remove(self, int r) noexcept nogil:
        self.cnt[r] -= 1
        self.hard_sum -= r + 1
        self.n_cards -= 1
        self.hand_key -= rank_unit(r)

    cdef int total(self) noexcept nogil:
        return soft_total(self.hard_sum, self.cnt[0])

    cdef bint is_soft(self) noexcept nogil:
        return self.cnt[0] > 0 and self.hard_sum + 10 <= 21

    cdef uint64_t removed_key(self) noexcept nogil:
        # the cards out of the shoe for this hand: its own plus e extra pair cards
        if self.infinite:
            return 0   # removing cards changes nothing: one dealer distribution
        if self.pair_rank == 0:
            return self.hand_key
        return self.hand_key + <uint64_t>self.extra * rank_unit(self.pair_rank - 1)

    cdef uint64_t context_key(self) noexcept nogil:
        cdef uint64_t hand = self.hand_key
        cdef int extra = self.extra
        if self.infinite and self.rules.split_class != SPLIT_POLICY:
            # In an infinite shoe a hand's values depend only on its total, softness and
            # whether it still has two cards (doubling, naturals); removal is irrelevant,
            # so every composition with those shares one memo entry.  (A user policy may
            # tell compositions apart, so policy solves keep the full key.)
            hand = (<uint64_t>self.hard_sum | (<uint64_t>(self.cnt[0] > 0) << 5)
                    | (<uint64_t>(self.n_cards if self.n_cards < 3 else 3) << 6))
            extra = 1 if extra > 0 else 0
        return (hand | (<uint64_t>self.pair_rank << PAIR_SHIFT)
                | (<uint64_t>extra << EXTRA_SHIFT))

    # ---- shoe after the current hand -------------------------------------------

    cdef void remaining(self, double* n) noexcept nogil:
        """Counts left after the hand, its extra pair cards and the dealer's cards."""
        cdef int r
        for r in range(N_RANKS):
            n[r] = self.shoe[r] - self.cnt[r] - self.dealer_cnt[r]
        if self.pair_rank:
            n[self.pair_rank - 1] -= self.extra

    cdef void next_card_weights(self, double* pi) noexcept nogil:
        cdef int r
        cdef double left = 0.0
        if self.infinite:
            for r in range(N_RANKS):
                pi[r] = self.shoe[r]
            return
        self.remaining(pi)
        for r in range(N_RANKS):
            if pi[r] < 0.0:
                pi[r] = 0.0
            left += pi[r]
        for r in range(N_RANKS):
            pi[r] = pi[r] / left if left > 0.0 else 0.0

    cdef double hole_natural_chance(self, const double* pi) noexcept nogil:
        """Chance that the unseen hole card completes a dealer natural."""
        if self.hole_rank < 0:
            return 0.0
        return pi[self.hole_rank]

    cdef double natural_refund(self, const double* pi) noexcept nogil:
        """What the one-unit rule gives back on a doubled hand: +beta (peek, OBO), or 0
        when a dealer natural takes every bet (ENHC)."""
        if self.rules.natural_takes_all:
            return 0.0
        return self.hole_natural_chance(pi)

    cdef const double* dealer_for_current(self) noexcept nogil:
        cdef uint64_t key = self.removed_key()
        cdef int row = self.dealer_index.find(key)
        cdef double n[N_RANKS]
        cdef double out[N_DEALER]
        cdef double left = 0.0
        cdef int r
        if row >= 0:
            return &self.dealer_store[row * N_DEALER]
        self.prefetch_dealer(False)
        row = self.dealer_index.find(key)
        if row >= 0:
            return &self.dealer_store[row * N_DEALER]
        # (infinite shoe, or a degenerate shoe short of the hand's own cards)
        if self.infinite:
            for r in range(N_RANKS):
                n[r] = self.shoe[r]
        else:
            self.remaining(n)
            for r in range(N_RANKS):
                if n[r] < 0.0:
                    n[r] = 0.0
                left += n[r]
        self.trie.evaluate(n, left, self.infinite, out)
        row = self.store_dealer(key, out)
        return &self.dealer_store[row * N_DEALER]

    cdef int store_dealer(self, uint64_t key, const double* dist) noexcept nogil:
        cdef int r, row = <int>(self.dealer_store.size() // N_DEALER)
        for r in range(N_DEALER):
            self.dealer_store.push_back(dist[r])
        self.dealer_index.insert(key, row)
        return row

    cdef void prefetch_dealer(self, bint children) noexcept nogil:
        """Compute in shared trie passes the dealer outcomes the recursion is about to
        need and does not have yet: those of the current hand (``children`` false) or of
        every one-card-more hand (true), in the current context and, for a split hand,
        in every other extra-pair-card context of the split being valued (CDZ- plays the
        same hands whatever the number of extra pair cards gone, so they are needed too).

        A trie pass costs a fixed amount per node plus a little per shoe, so batching
        many shoes into each pass is what makes the dealer enumeration cheap.
        """
        cdef DealerBatch batch
        cdef double left[N_RANKS]
        cdef uint64_t key, hand_part
        cdef int e, e_lo, e_hi, r, j, p = self.pair_rank - 1
        cdef bint short
        if self.infinite:
            return   # one dealer distribution serves every hand
        batch.count = 0
        e_lo = e_hi = self.extra
        if p >= 0 and self.extra_max > 0:
            e_lo, e_hi = 1, self.extra_max
        for e in range(e_lo, e_hi + 1):
            short = False
            self.remaining(left)   # with the current context's extra pair cards out
            hand_part = self.hand_key
            if p >= 0:
                left[p] += self.extra - e
                hand_part += <uint64_t>e * rank_unit(p)
            for j in range(N_RANKS):
                short = short or left[j] < 0.0
            if short:
                continue   # this context cannot occur with these cards
            if not children:
                self.batch_add(&batch, left, -1, hand_part)
                continue
            for r in range(N_RANKS):
                if left[r] > 0.0 and self.hard_sum + r + 1 <= 21:
                    self.batch_add(&batch, left, r, hand_part + rank_unit(r))
        self.batch_flush(&batch)

    cdef void prefetch_unsplit(self, int lowest, double* left, DealerBatch* batch) noexcept nogil:
        """Queue the dealer outcomes of the current unsplit hand and of every hand that
        grows from it by cards of rank index >= ``lowest`` (each composition once).

        An optimal solve compares the stand and hit values of every unsplit hand it
        meets, so it needs all of these; computing them up front fills every trie pass.
        ``left``: the shoe after the hand and the dealer's cards (restored on return).
        """
        cdef int r
        if self.n_cards >= 2 and not self.is_natural():
            self.batch_add(batch, left, -1, self.hand_key)
        for r in range(lowest, N_RANKS):
            if self.hard_sum + r + 1 > 21:
                break
            if left[r] <= 0.0:
                continue
            self.add(r)
            left[r] -= 1.0
            self.prefetch_unsplit(r, left, batch)
            left[r] += 1.0
            self.remove(r)

    cdef void batch_add(self, DealerBatch* batch, const double* left, int drawn,
                        uint64_t key) noexcept nogil:
        """Queue the shoe ``left`` (less one card of rank index ``drawn`` if >= 0) under
        ``key`` unless its outcomes are known; a full batch is evaluated at once."""
        cdef int j, k = batch.count
        cdef double total = 0.0
        if self.dealer_index.find(key) >= 0:
            return
        for j in range(N_RANKS):
            batch.weights[k * N_RANKS + j] = left[j]
            total += left[j]
        if drawn >= 0:
            batch.weights[k * N_RANKS + drawn] -= 1.0
            total -= 1.0
        batch.totals[k] = total
        batch.keys[k] = key
        batch.count = k + 1
        if batch.count == MAX_BATCH:
            self.batch_flush(batch)

    cdef void batch_flush(self, DealerBatch* batch) noexcept nogil:
        cdef double out[MAX_BATCH * N_DEALER]
        cdef int k
        if batch.count == 0:
            return
        self.trie.evaluate_many(batch.weights, batch.totals, batch.count, False, out)
        for k in range(batch.count):
            self.store_dealer(batch.keys[k], &out[k * N_DEALER])
        batch.count = 0

    # ---- values of the current hand ---------------------------------------------

    cdef int lookup(self) noexcept nogil:
        """Row of the current hand (in its context) in ``value_store``, added if new."""
        cdef uint64_t key = self.context_key()
        cdef int row = self.value_index.find(key)
        cdef HandValues blank
        if row >= 0:
            return row
        blank.stand = NAN
        blank.hit = NAN
        blank.double_ = NAN
        row = <int>self.value_store.size()
        self.value_store.push_back(blank)
        self.value_index.insert(key, row)
        return row

    cdef bint is_natural(self) noexcept nogil:
        return (self.pair_rank == 0 and self.n_cards == 2
                and self.cnt[0] == 1 and self.cnt[9] == 1)

    cdef double stand_value(self) noexcept nogil:
        cdef double pi[N_RANKS]
        cdef const double* d
        cdef double ev, beta, listed = 0.0
        cdef int k, t = self.total()
        if self.is_natural():
            # a natural pays the bonus unless the dealer has one too (natural_tie_value)
            if self.hole_rank >= 0:
                self.next_card_weights(pi)
                beta = self.hole_natural_chance(pi)
                return (self.rules.blackjack_payout * (1.0 - beta)
                        + self.rules.natural_tie_value * beta)
            return self.rules.blackjack_payout
        d = self.dealer_for_current()
        for k in range(N_DEALER):
            listed += d[k]
        ev = (1.0 - listed) - d[5]
        for k in range(5):
            if t > 17 + k:
                ev += d[k]
            elif t < 17 + k:
                ev -= d[k]
            else:
                ev += self.rules.tie_value * d[k]
        return ev

    cdef double hit_value(self) noexcept nogil:
        cdef double pi[N_RANKS]
        cdef double ev = 0.0
        cdef int r
        self.next_card_weights(pi)
        self.prefetch_dealer(True)
        for r in range(N_RANKS):
            if pi[r] <= 0.0:
                continue
            self.add(r)
            if self.hard_sum > 21:
                ev -= pi[r]
            else:
                ev += pi[r] * self.continuation()
            self.remove(r)
        return ev

    cdef double double_value(self) noexcept nogil:
        cdef double pi[N_RANKS]
        cdef double ev
        cdef int r
        self.next_card_weights(pi)
        self.prefetch_dealer(True)
        # a dealer natural takes only the original bet: +beta undoes half of -2*beta
        ev = self.natural_refund(pi)
        for r in range(N_RANKS):
            if pi[r] <= 0.0:
                continue
            self.add(r)
            if self.hard_sum > 21:
                ev -= 2.0 * pi[r]
            else:
                ev += 2.0 * pi[r] * self.get(ACT_STAND)
            self.remove(r)
        return ev

    cdef double value_at(self, int row, int action) noexcept nogil:
        """Memoised unconditioned value of stand, hit or double for the current hand,
        whose memo row is ``row`` (the store may grow while a value is computed, so it
        is indexed again afterwards)."""
        cdef double v
        if action == ACT_STAND:
            v = self.value_store[row].stand
            if isnan(v):
                v = self.stand_value()
                self.value_store[row].stand = v
        elif action == ACT_HIT:
            v = self.value_store[row].hit
            if isnan(v):
                v = self.hit_value()
                self.value_store[row].hit = v
        else:
            v = self.value_store[row].double_
            if isnan(v):
                v = self.double_value()
                self.value_store[row].double_ = v
        return v

    cdef double get(self, int action) noexcept nogil:
        return self.value_at(self.lookup(), action)

    cdef int may_double(self) noexcept nogil:
        """Dbl(h) of section 4 for the current hand's own cards."""
        cdef int t = self.total()
        if self.rules.double_min_total > 0 and not (self.rules.double_min_total <= t <= 11):
            return 0
        if self.is_soft() and not self.rules.double_soft:
            return 0
        if self.n_cards != 2 and not self.rules.double_any_cards:
            return 0
        return 1

    cdef int best_option(self, int double_ok) noexcept nogil:
        """The first strictly best of stand, hit and (if allowed) double for the current
        hand in its context (section 4: ties go to the earlier option)."""
        cdef int row = self.lookup()
        cdef int best = ACT_STAND
        cdef double v = self.value_at(row, ACT_STAND), w
        w = self.value_at(row, ACT_HIT)
        if improves(w, v):
            best = ACT_HIT
            v = w
        if double_ok and improves(self.value_at(row, ACT_DOUBLE), v):
            best = ACT_DOUBLE
        return best

    cdef int policy_action(self, int kind) noexcept nogil:
        cdef uint64_t key = self.hand_key | (<uint64_t>kind << KIND_SHIFT)
        cdef unordered_map[uint64_t, int8_t].iterator it = self.policy.find(key)
        if it == self.policy.end():
            self.policy_missing += 1
            return ACT_STAND
        return deref(it).second

    cdef int optimal_unsplit_choice(self, int double_ok) noexcept nogil:
        """The choice on the current composition as an unsplit hand (CDZ-)."""
        cdef int saved_pair = self.pair_rank, saved_extra = self.extra, a
        self.pair_rank = 0
        self.extra = 0
        a = self.best_option(double_ok)
        self.pair_rank = saved_pair
        self.extra = saved_extra
        return a

    cdef double continuation(self) noexcept nogil:
        """Value of the option the strategy picks for the current hand (B of section 3)."""
        cdef int a, double_ok, saved_extra
        if self.pair_rank == 0:
            double_ok = self.may_double()
            if self.rules.split_class == SPLIT_POLICY:
                a = self.policy_action(KIND_LATER)
            else:
                a = self.best_option(double_ok)
            return self.get(a)
        if self.pair_rank == 1 and not self.rules.hit_split_aces:
            return self.get(ACT_STAND)   # split aces take one card and stand
        double_ok = self.rules.double_after_split and self.may_double()
        if self.rules.split_class == SPLIT_POLICY:
            a = self.policy_action(KIND_SPLIT)
        elif self.rules.split_class == SPLIT_CDZ:
            a = self.optimal_unsplit_choice(double_ok)
        elif self.rules.split_class == SPLIT_CDP1 and self.extra > 1:
            saved_extra = self.extra
            self.extra = 1   # the pick recorded with one extra pair card gone
            a = self.best_option(double_ok)
            self.extra = saved_extra
        else:
            a = self.best_option(double_ok)
        return self.get(a)

    # ---- splitting (sections 6.1-6.7) -------------------------------------------

    cdef int hands_limit(self, int pair) noexcept nogil:
        cdef int limit = self.rules.max_split_hands
        if pair == 1 and not self.rules.resplit_aces and limit > 2:
            limit = 2
        if not self.infinite and self.shoe[pair - 1] < limit:
            limit = <int>self.shoe[pair - 1]
        return limit

    cdef double pair_hand_value(self, int pair, int extra, int second) noexcept nogil:
        """V_extra(P + second): a split hand's value at its first decision."""
        cdef double v
        self.clear_hand()
        self.pair_rank = pair
        self.extra = extra
        self.add(pair - 1)
        self.add(second)
        v = self.continuation()
        self.clear_hand()
        return v

    cdef double split_value(self, int pair) noexcept nogil:
        """Unconditioned expectation of splitting the pair (all hands, all bets)."""
        cdef int M = self.hands_limit(pair)
        cdef int p = pair - 1, a, b, r, k, h, amax, hole
        cdef double X[MAX_A]
        cdef double Y[MAX_A]
        cdef double XT[MAX_A][MAX_A]
        cdef double NT[MAX_A][MAX_A]
        cdef double rho[N_RANKS]
        cdef double m, n, q, g, left, ev, w, beta_s, n2, m2, P2, P3, hands
        cdef double pp = 0.0
        if M < 2:
            return NAN
        if not isnan(self.split_cache[p]):
            return self.split_cache[p]
        amax = 2 * M - 4
        if not self.infinite and self.shoe[p] - 2 < amax:
            amax = <int>self.shoe[p] - 2
        # building blocks X_a, Y_a (6.4); an undefined block stays 0 and is only ever
        # multiplied by a zero weight
        for a in range(MAX_A):
            X[a] = 0.0
            Y[a] = 0.0
        self.extra_max = amax + 1   # contexts e = 1 .. amax + 1 are about to be valued
        self.clear_hand()
        self.pair_rank = pair
        self.add(p)
        self.prefetch_dealer(True)   # every two-card split hand P + r, every e
        self.clear_hand()
        for a in range(amax + 1):
            if self.infinite and a > 0:
                X[a] = X[0]
                Y[a] = Y[0]
                continue
            left = 0.0
            for r in range(N_RANKS):
                rho[r] = self.shoe[r]
            if not self.infinite:
                rho[p] -= a + 2
                for r in range(N_RANKS):
                    rho[r] -= self.dealer_cnt[r]
                if rho[p] < 0:
                    continue
                for r in range(N_RANKS):
                    left += rho[r]
                if left <= 0:
                    continue
                for r in range(N_RANKS):
                    rho[r] /= left
            for r in range(N_RANKS):
                if rho[r] > 0.0:
                    X[a] += rho[r] * self.pair_hand_value(pair, a + 1, r)
            if rho[p] > 0.0:
                Y[a] = self.pair_hand_value(pair, a + 1, p)
        self.extra_max = 0
        # removal recursions (6.5)
        if self.infinite:
            pp = self.shoe[p]
            m = 0.0
            n = 0.0
        else:
            m = self.shoe[p] - 2 - self.dealer_cnt[p]
            n = self.shoe_size - 2 - self.dealer_n
        q = n - m
        for a in range(MAX_A):
            for b in range(MAX_A):
                XT[a][b] = 0.0
                NT[a][b] = 0.0
        for a in range(2 * M - 3):
            XT[a][0] = X[a]
            g = self.gamma(m, n, a, 0, pp if self.infinite else 0.0)
            NT[a][0] = self.remove_unknown(X[a], Y[a], g)
        for b in range(1, 2 * M - 3):
            for a in range(2 * M - 3 - b):
                g = self.gamma(m, n + 1, a, b, pp if self.infinite else 0.0)
                XT[a][b] = self.remove_unknown(XT[a][b - 1], XT[a + 1][b - 1], g)
                g = self.gamma(m, n, a, b, pp if self.infinite else 0.0)
                NT[a][b] = self.remove_unknown(NT[a][b - 1], NT[a + 1][b - 1], g)
        # assembly over the number of hands (6.6)
        ev = 0.0
        for h in range(2, M):
            w = (1.0 if h == 2 else 2.0) * self.draw_ratio(m, q, n, h - 2, h, pp)
            if w != 0.0:
                ev += h * w * NT[h - 2][h - 1]
        for k in range(M - 1):
            w = (2.0 if (M == 4 and k >= 1) else 1.0) * self.draw_ratio(m, q, n, M - 2, k, pp)
            if w != 0.0:
                ev += w * ((k * NT[M - 2][k - 1] if k > 0 else 0.0) + (M - k) * XT[M - 2][k])
        # one unit in total, not one per hand, is lost to a dealer natural (kappa);
        # under ENHC every split bet is lost, as the hand values already charge
        hole = self.hole_rank
        if hole >= 0 and not self.rules.natural_takes_all:
            if self.infinite:
                beta_s = self.shoe[hole]
                P2 = (1.0 - pp) * (1.0 - pp)
                P3 = 2.0 * pp * (1.0 - pp) ** 3
            else:
                for r in range(N_RANKS):
                    rho[r] = self.shoe[r] - self.dealer_cnt[r]
                rho[p] -= 2
                left = 0.0
                for r in range(N_RANKS):
                    left += rho[r]
                beta_s = rho[hole] / left if (left > 0 and rho[hole] > 0) else 0.0
                n2 = left - 1
                m2 = rho[p] - (1 if hole == p else 0)
                P2 = falling(n2 - m2, 2) / falling(n2, 2) if n2 >= 2 else 1.0
                P3 = 2.0 * m2 * falling(n2 - m2, 3) / falling(n2, 4) if n2 >= 4 else 0.0
            if beta_s > 0.0:
                if M == 2:
                    hands = 2.0
                elif M == 3:
                    hands = 2.0 * P2 + 3.0 * (1.0 - P2)
                else:
                    hands = 2.0 * P2 + 3.0 * P3 + 4.0 * (1.0 - P2 - P3)
                ev += (hands - 1.0) * beta_s
        self.split_cache[p] = ev
        return ev

    cdef double gamma(self, double m, double n, int a, int b, double pp) noexcept nogil:
        """Chance that one more unknown gone card is a pair card (6.5)."""
        cdef double denom
        if self.infinite:
            return pp
        if m - a <= 0.0:
            return 0.0
        denom = n - a - b
        if denom <= 0.0:
            return 1.0
        return (m - a) / denom

    cdef double remove_unknown(self, double whole, double pair_part, double g) noexcept nogil:
        """Solve whole = g * pair_part + (1 - g) * rest for rest."""
        if g >= 1.0:
            return 0.0
        if g == 0.0:
            return whole
        return (whole - g * pair_part) / (1.0 - g)

    cdef double draw_ratio(self, double m, double q, double n, int j, int k,
                                  double pp) noexcept nogil:
        """m^(j) q^(k) / n^(j+k): j pair cards then k others, in a given order."""
        cdef double num
        if self.infinite:
            return pp ** j * (1.0 - pp) ** k
        num = falling(m, j) * falling(q, k)
        if num == 0.0:
            return 0.0
        return num / falling(n, j + k)

    # ---- the round ----------------------------------------------------------------

    cdef double start_choice_value(self, int c1, int c2) noexcept nogil:
        """W of section 7 for the original two cards c1, c2 (rank indices): the value of
        the option chosen (optimal, or the frozen policy's)."""
        cdef int a
        cdef bint split_ok = c1 == c2 and self.hands_limit(c1 + 1) >= 2
        cdef double v
        if split_ok and self.rules.split_class != SPLIT_POLICY:
            self.split_value(c1 + 1)   # start_choice compares it
        self.clear_hand()
        self.add(c1)
        self.add(c2)
        if self.rules.split_class == SPLIT_POLICY:
            a = self.policy_action(KIND_START)
            if a == ACT_SPLIT and not split_ok:
                a = ACT_STAND
        else:
            a = self.start_choice()
        if a == ACT_SPLIT:
            v = self.split_value(c1 + 1)
        elif a == ACT_SURRENDER:
            v = self.surrender_value()
        else:
            v = self.get(a)
        self.clear_hand()
        return v

    cdef double surrender_value(self) noexcept nogil:
        """Unconditioned: early surrender keeps half the bet even against a natural;
        late surrender is only possible when the dealer has none."""
        cdef double pi[N_RANKS]
        if self.rules.surrender == 2:
            return -0.5
        self.next_card_weights(pi)
        return -0.5 - 0.5 * self.hole_natural_chance(pi)

    cdef int start_choice(self) noexcept nogil:
        """The optimal round-start action for the current two-card hand (section 4);
        split values must already be in ``split_cache``."""
        cdef int a = ACT_STAND, p
        cdef double best = self.get(ACT_STAND), v
        v = self.get(ACT_HIT)
        if improves(v, best):
            a, best = ACT_HIT, v
        if self.may_double():
            v = self.get(ACT_DOUBLE)
            if improves(v, best):
                a, best = ACT_DOUBLE, v
        for p in range(N_RANKS):
            if self.cnt[p] == 2 and self.hands_limit(p + 1) >= 2:
                v = self.split_cache[p]
                if improves(v, best):
                    a, best = ACT_SPLIT, v
        if self.rules.surrender:
            v = self.surrender_value()
            if improves(v, best):
                a, best = ACT_SURRENDER, v
        return a

    cdef void freeze_walk(self, int lowest, const double* left) noexcept nogil:
        """Record this engine's optimal decisions for every composition (DESIGN 8)."""
        cdef int r, double_ok
        cdef uint64_t key
        if self.n_cards >= 2:
            key = self.hand_key
            if self.n_cards == 2:
                self.policy[key | (<uint64_t>KIND_START << KIND_SHIFT)] = <int8_t>self.start_choice()
            else:
                double_ok = self.may_double()
                self.policy[key | (<uint64_t>KIND_LATER << KIND_SHIFT)] = <int8_t>self.best_option(double_ok)
            # a split hand is played like the unsplit hand of the same composition
            double_ok = self.rules.double_after_split and self.may_double()
            self.policy[key | (<uint64_t>KIND_SPLIT << KIND_SHIFT)] = <int8_t>self.best_option(double_ok)
        for r in range(lowest, N_RANKS):
            if self.hard_sum + r + 1 > 21:
                break
            if not self.infinite and self.cnt[r] + 1 > left[r]:
                continue
            self.add(r)
            self.freeze_walk(r, left)
            self.remove(r)

    def freeze_decisions(self):
        """Record the optimal decision for every hand composition (original two cards,
        later decisions, split hands played as the unsplit hand) as this engine's policy,
        to be copied to engines of depleted shoes (fixed-strategy effects of removal)."""
        cdef double left[N_RANKS]
        cdef int p
        for p in range(N_RANKS):
            left[p] = self.shoe[p] - self.dealer_cnt[p]
        with nogil:
            for p in range(N_RANKS):
                if self.hands_limit(p + 1) >= 2:
                    self.split_value(p + 1)
            self.clear_hand()
            self.freeze_walk(0, left)
            self.clear_hand()
        return int(self.policy.size())

    def copy_policy_to(self, UpcardEngine other not None):
        """Give ``other`` (a policy-mode engine) this engine's recorded decisions."""
        other.policy = self.policy

    cdef double round_value(self) noexcept nogil:
        """E(u): the round's unconditioned expectation given the upcard (section 7), or
        given both dealer cards when they are dealt face up."""
        cdef double n[N_RANKS]
        cdef double left = 0.0, ev = 0.0, w
        cdef int c1, c2
        cdef DealerBatch batch
        for c1 in range(N_RANKS):
            n[c1] = self.shoe[c1]
        if not self.infinite:
            for c1 in range(N_RANKS):
                n[c1] -= self.dealer_cnt[c1]
            for c1 in range(N_RANKS):
                left += n[c1]
        if not self.infinite and self.rules.split_class != SPLIT_POLICY:
            batch.count = 0
            self.clear_hand()
            self.prefetch_unsplit(0, n, &batch)
            self.batch_flush(&batch)
        for c1 in range(N_RANKS):
            for c2 in range(N_RANKS):
                if self.infinite:
                    w = n[c1] * n[c2]
                else:
                    w = n[c1] * (n[c2] - (1 if c1 == c2 else 0))
                    if w <= 0.0:
                        continue
                    w /= left * (left - 1)
                if w > 0.0:
                    ev += w * self.start_choice_value(c1, c2)
        return ev

    # ---- Python edge ---------------------------------------------------------------

    def round_ev(self):
        """E(u), unconditioned."""
        cdef double v
        with nogil:
            v = self.round_value()
        return v

    def set_policy(self, int kind, counts, int action):
        """Freeze the action for a composition: kind 0 start, 1 later, 2 split hand."""
        cdef uint64_t key = 0
        cdef int r
        if not 0 <= kind <= 2 or not 0 <= action <= 4 or len(counts) != N_RANKS:
            raise ValueError("bad policy entry")
        for r in range(N_RANKS):
            if not 0 <= counts[r] < 32:
                raise ValueError("bad policy composition")
            key += <uint64_t>counts[r] * rank_unit(r)
        self.policy[key | (<uint64_t>kind << KIND_SHIFT)] = <int8_t>action

    @property
    def policy_misses(self):
        """Decisions a policy solve met that had no frozen action (should be 0)."""
        return self.policy_missing

    def _check_hand(self, counts, bint in_shoe=True):
        """The hand's 10 counts as ints, checked: 2+ cards, hard total <= 21 and (with
        ``in_shoe``) cards the shoe holds beside the dealer's."""
        cdef int r, hard = 0, n = 0
        if len(counts) != N_RANKS:
            raise ValueError(f"hand must have {N_RANKS} counts, got {len(counts)}")
        out = []
        for r in range(N_RANKS):
            c = counts[r]
            if c != int(c):
                raise ValueError(f"hand counts must be whole numbers, got {c!r}")
            c = int(c)
            if c < 0 or c > 21:
                raise ValueError(f"bad count {c} for rank {r + 1}")
            # the last card of the rank must come from a positive remainder (for whole
            # counts: c + dealer <= shoe; a fractional shoe deals while its count is > 0)
            if (in_shoe and not self.infinite and c > 0
                    and c + self.dealer_cnt[r] - 1 >= self.shoe[r]):
                raise ValueError(f"the shoe does not hold the hand's rank-{r + 1} cards")
            hard += c * (r + 1)
            n += c
            out.append(c)
        if n < 2 or hard > 21:
            raise ValueError("a hand needs two or more cards and at most 21")
        return out

    cdef void set_hand(self, list counts):
        self.clear_hand()
        for r in range(N_RANKS):
            for _ in range(<int>counts[r]):
                self.add(r)

    def surrender_ev(self, counts):
        """Unconditioned surrender value of the original two cards."""
        cdef double v
        self.set_hand(self._check_hand(counts))
        v = self.surrender_value()
        self.clear_hand()
        return v

    def hand_values(self, counts):
        """(stand, hit, double, natural chance) unconditioned, for an unsplit hand."""
        cdef double pi[N_RANKS]
        cdef double st, ht, dd, beta
        self.set_hand(self._check_hand(counts))
        with nogil:
            st = self.get(ACT_STAND)
            ht = self.get(ACT_HIT)
            dd = self.get(ACT_DOUBLE)
            self.next_card_weights(pi)
            beta = self.hole_natural_chance(pi)
            self.clear_hand()
        return st, ht, dd, beta

    def may_double_hand(self, counts, bint after_split=False):
        """Whether the rules allow doubling this hand (after a split: DAS gate too)."""
        cdef int ok
        self.set_hand(self._check_hand(counts, in_shoe=False))
        ok = self.may_double()
        if after_split and not self.rules.double_after_split:
            ok = 0
        self.clear_hand()
        return bool(ok)

    def split_limit(self, int pair):
        """M(P): hands the pair may become (0 or 1: no split)."""
        if pair < 1 or pair > 10:
            raise ValueError("pair rank must be 1..10")
        return self.hands_limit(pair)

    def split_ev(self, int pair):
        """(unconditioned split expectation, natural chance over S - 2P - u), or NaN."""
        cdef double v, left = 0.0
        cdef double rho[N_RANKS]
        cdef int r, hole
        if pair < 1 or pair > 10:
            raise ValueError("pair rank must be 1..10")
        with nogil:
            v = self.split_value(pair)
        beta = 0.0
        hole = self.hole_rank
        if hole >= 0:
            if self.infinite:
                beta = self.shoe[hole]
            else:
                for r in range(N_RANKS):
                    rho[r] = self.shoe[r] - self.dealer_cnt[r]
                rho[pair - 1] -= 2
                for r in range(N_RANKS):
                    left += rho[r]
                beta = rho[hole] / left if left > 0 and rho[hole] > 0 else 0.0
        return v, beta

    @property
    def memo_sizes(self):
        """(dealer distributions, hand contexts) held in the memo tables."""
        return self.dealer_index.count, self.value_index.count
