# cython: language_level=3
# distutils: language = c++
"""The value engine's state: one ``Engine`` object owns everything a solve of one dealer key
uses -- the shoe, rules and dealer cards decoded once, the hand being valued (mutated in
place by the recursion), and the memo tables: the dealer distributions (``DealerStore``,
``PairDealer``), the hand values by context, the split lanes and caches, and the frozen
decisions.  The recursions are functions of it, one module a concern: ``_hands`` (a hand's
stand, hit and double values and the strategy's pick), ``_splits`` (the split expectation),
``_round`` (the round-start choice and E(u)), ``_policy`` (recording decisions); the Python
edge is ``_core.UpcardEngine``, which owns one ``Engine``.

Everything inside the recursions is ``noexcept nogil``; Python objects appear only at the
``def`` edge, where arguments are checked once.
"""
from libc.math cimport NAN
from libc.stdint cimport uint64_t, int64_t

from bjcore._defs cimport *
from bjcore._dealer cimport DealerStore, DealerTrie
from bjcore._pair_dealer cimport PairDealer
from bjcore._memo cimport DecisionTable, HashIndex
from bjcore._alloc cimport vector, guard
from bjcore._rules cimport ShoeParams, decode_classic
from bjcore._dealer import dealer_trie


# A solve's engine holds 2,000-8,500 hand contexts (1-8 decks, every class): start the
# memo with room for them (its blocks are recycled between solves, see _memo) instead of
# growing it, and re-inserting every key, two or three times.
cdef int VALUE_INDEX_BITS = 14   # 16,384 entries, grown at half full
cdef int VALUE_ROWS = 4096
# With one split allowed, CDP and CDP1 value every split hand, and where the recursion does
# it (a shoe of fractional counts; whole counts take the bottom-up pass, which keeps only
# the two-card split hands in the memo) they all go into the same memo (~10,400 contexts an
# engine on 6 decks, 11,000 on 8): twice the room, so that it never grows.
cdef int SPL1_VALUE_INDEX_BITS = 15
cdef int SPL1_VALUE_ROWS = 16384


cdef int value_index_bits(Engine engine) noexcept:
    cdef const RuleParams* rules = &engine.rules
    cdef int r
    if rules.max_split_hands == 2 and (rules.split_class == SPLIT_CDP
                                       or rules.split_class == SPLIT_CDP1):
        if engine.infinite:
            return VALUE_INDEX_BITS
        for r in range(N_RANKS):
            if engine.shoe[r] != <double>(<int64_t>engine.shoe[r]):
                return SPL1_VALUE_INDEX_BITS
    return VALUE_INDEX_BITS


cdef class Engine:
    """The state of one dealer key's solve (see the module docstring)."""

    def __init__(self, shoe, dealer, dict rules, bint infinite=False, bint fractional=False):
        """shoe: 10 counts (or probabilities, infinite); dealer: the upcard, or a tuple of
        both dealer cards when they are dealt face up (no hole card to guess).
        fractional=True accepts non-integer counts: every formula is a polynomial in the
        counts, so this is the smooth interpolation between shoes that index generation
        uses to place a shoe exactly at a true count."""
        cdef int r
        cdef ShoeParams decoded
        # the rule model (_rules): every kernel decodes the rules and the shoe there
        decode_classic(shoe, dealer, rules, infinite, fractional, "the classic solver",
                       &decoded, &self.rules)
        cards = tuple([decoded.dealer_cards[r] for r in range(decoded.dealer_n)])
        self.upcard = decoded.upcard
        self.dealer_n = decoded.dealer_n
        self.hole_rank = decoded.hole_rank
        self.infinite = infinite
        self.shoe_size = decoded.size
        for r in range(N_RANKS):
            self.dealer_cnt[r] = decoded.dealer_cnt[r]
            self.shoe[r] = decoded.counts[r]
        self.dealer = DealerStore(dealer_trie(cards, self.rules.hit_soft_17))
        self.pair_dealer = PairDealer(self.dealer.trie)
        self.value_index = HashIndex(value_index_bits(self))
        guard(self.value_store.reserve(
            SPL1_VALUE_ROWS if value_index_bits(self) == SPL1_VALUE_INDEX_BITS
            else VALUE_ROWS))
        self.clear_memo_state()
        self.policy = DecisionTable()
        self.policy_shared = False
        self.policy_missing = 0
        self.spoiled = False
        # the splits' tables (_splits)
        for r in range(N_RANKS):
            self.split_cache[r] = NAN
        self.walked = HashIndex()
        self.lane_index = HashIndex()
        self.chance_cols = 0
        self.chance_totals[0] = -1
        self.chance_totals[1] = -1
        self.chance_next = 0

    cdef void clear_memo_state(self) noexcept nogil:
        """The flags that say what the memo tables hold: nothing yet."""
        cdef int r
        self.extra_max = 0
        self.split_needs_queued = False
        self.unsplit_prefetched = False
        self.split_fold = 0
        for r in range(N_RANKS):
            self.pair_groups[r] = False
        self.clear_hand()

    cdef void forget(self) except *:
        """Drop every memo table and the hand being valued, as a new engine has them, but
        keep the dealer trie and the frozen decisions (see ``recover``)."""
        cdef vector[HandValues] no_rows
        cdef vector[LaneValues] no_lanes
        cdef int r
        self.value_store.swap(no_rows)   # (freed on return)
        self.lane_store.swap(no_lanes)
        self.dealer = DealerStore(self.dealer.trie)
        self.pair_dealer = PairDealer(self.dealer.trie)
        self.value_index = HashIndex(value_index_bits(self))
        self.clear_memo_state()
        for r in range(N_RANKS):
            self.split_cache[r] = NAN
        self.walked = HashIndex()
        self.lane_index = HashIndex()

    cdef void recover(self) except *:
        """Make the engine whole again if a kernel call ran out of memory: std::bad_alloc
        (alloc.h) unwound it with the memo tables half-updated (a key stored without its
        row, a batch half-queued) and the hand half-built.  The Python edge marks the
        engine ``spoiled`` and calls this, and calls it again before the next kernel call
        (making the new tables can run out of memory too: MemoryError, still spoiled)."""
        if self.spoiled:
            self.forget()
            self.spoiled = False

    cdef void out_of_memory(self) except *:
        """A kernel call ran out of memory (its MemoryError on the way to the caller):
        mark the engine spoiled and recover at once if there is memory for that, else at
        the next call."""
        self.spoiled = True
        try:
            self.recover()
        except MemoryError:
            pass
