# cython: language_level=3
# distutils: language = c++
"""The Python edge of the compiled engine: ``UpcardEngine`` and the names bjsolve imports.

The kernel is split by concern, one module (with its ``.pxd``) each:

* ``_defs.pxd``: constants, structs and small inline helpers shared by all;
* ``_rules``: the rule model: the kernel rule dict and the shoe decoded and checked once
  (``RuleParams``, ``ShoeParams``), for this engine, the round laws and the simulator;
* ``_memo``: the flat hash index behind every memo table;
* ``_dealer``: dealer draw tries (built in C), one-pass distributions, the per-engine
  store of distributions (``DealerTrie``, ``DealerStore``, ``dealer_trie``);
* ``_pair_dealer``: split hands' dealer distributions, one grouped trie pass serving every
  number of extra pair cards gone (``PairDealer``);
* ``_hands``: hand state and the stand / hit / double values in every context
  (``HandEngine``);
* ``_splits``: the split expectation (``SplitEngine``);
* ``_round``: the round-start choice and E(u) (``RoundEngine``);
* ``_policy``: frozen decisions (``PolicyEngine``);
* ``_core`` (here): ``UpcardEngine``, whose ``def`` methods check their arguments and
  release the GIL around whole computations.
"""
from libc.math cimport NAN

from bjcore._defs cimport *
from bjcore._alloc cimport guard, guard_double, guard_int
from bjcore._hands cimport hand_add, hand_remove
from bjcore._rules cimport decode_hand
from bjcore._policy cimport PolicyEngine

from bjcore import _dealer
from bjcore._dealer import dealer_trie

# (the Python name; _core.pxd cimports the type under the same name for other kernels)
globals()["DealerTrie"] = _dealer.DealerTrie

TIE_TOLERANCE = TIE_TOLERANCE_VALUE
MAX_COUNT = MAX_COUNT_VALUE


# Memory between solves (docs/algorithms.md): the hash tables and distribution rows are
# recycled by the kernels themselves (recycle.h), but the growing vectors (hand values,
# split lanes, pair buckets) come from malloc.  By default glibc gives freed memory back
# to the system (``madvise``/``munmap`` of the free top of each thread's heap, and large
# blocks mapped and unmapped one by one), and the next solve takes a page fault for every
# page it touches again: with two threads, whose heaps are separate, 1,500-7,000 faults a
# solve (6 decks CDP: ~30 ms of system time against ~200 ms of work).  Keeping up to 64 MB
# free at the top of each heap, and serving blocks up to 32 MB from the heaps (fixed
# thresholds: glibc's adaptive ones move with every large free), makes a warm solve fault
# almost never.  ``release_memory()`` gives the memory back.
#
# The thresholds are the whole process's, so importing bjcore does not set them: the solver
# calls ``tune_allocator()`` before its first solve (docs/algorithms.md, "Side effects").
cdef extern from *:
    """
    #if defined(__GLIBC__)
    #include <malloc.h>
    static int bj_keep_freed_memory(void) {
        return mallopt(M_MMAP_THRESHOLD, 32 << 20) && mallopt(M_TRIM_THRESHOLD, 64 << 20);
    }
    static int bj_release_memory(void) { return malloc_trim(0); }
    #else
    static int bj_keep_freed_memory(void) { return 0; }
    static int bj_release_memory(void) { return 0; }
    #endif
    """
    int bj_keep_freed_memory() nogil
    int bj_release_memory() nogil

cdef bint allocator_tuned = False


def tune_allocator():
    """Make malloc keep freed memory between solves (glibc: fixed ``mallopt`` thresholds,
    see above; elsewhere nothing).  Process-wide, so called by the solver, not on import;
    once is enough (later calls do nothing).  Returns whether the thresholds are set."""
    global allocator_tuned
    if not allocator_tuned:
        allocator_tuned = bool(bj_keep_freed_memory())
    return allocator_tuned


def keeps_freed_memory():
    """Whether ``tune_allocator`` has set malloc's thresholds in this process."""
    return allocator_tuned


def release_memory():
    """Give the memory that malloc keeps between solves back to the system (glibc's
    ``malloc_trim``); the kernels' recycled tables and rows are released by
    ``bjcore._memo.release_recycled()`` and ``bjcore._dealer.release_recycled()``.
    Returns whether any memory was released."""
    return bool(bj_release_memory())


cdef class UpcardEngine(PolicyEngine):
    """Exact player values against one upcard for one shoe and rule set.

    ``UpcardEngine(shoe, dealer, rules, infinite=False, fractional=False)``: see
    ``HandEngine.__init__``.  Values are unconditioned fractions of the initial bet; the
    Python layer conditions them on no dealer blackjack.  One engine per upcard, so
    several can run in parallel threads without sharing memo tables.
    """

    # Every kernel call below runs under a guard (alloc.h): out of memory raises
    # MemoryError here, and the engine, marked spoiled, drops its half-updated memo
    # tables (``recover``) before the exception leaves or, failing that, before its next
    # kernel call.

    def round_ev(self):
        """E(u), unconditioned."""
        cdef double v
        self.recover()
        try:
            with nogil:
                v = guard_double(self.round_value())
        except MemoryError:
            self.out_of_memory()
            raise
        return v

    def _check_hand(self, counts, bint in_shoe=True):
        """The hand's 10 counts as ints, checked (``_rules.decode_hand``)."""
        return decode_hand(counts, self.shoe, self.dealer_cnt, self.infinite, in_shoe)

    cdef void set_hand(self, list counts):
        self.clear_hand()
        for r in range(N_RANKS):
            for _ in range(<int>counts[r]):
                hand_add(self, r)

    def surrender_ev(self, counts):
        """Unconditioned surrender value of the original two cards."""
        cdef double v
        self.recover()
        self.set_hand(self._check_hand(counts))
        v = self.surrender_value()   # (allocates nothing)
        self.clear_hand()
        return v

    def hand_values(self, counts):
        """(stand, hit, double, natural chance) unconditioned, for an unsplit hand."""
        cdef double pi[N_RANKS]
        cdef double st, ht, dd, beta
        self.recover()
        self.set_hand(self._check_hand(counts))
        try:
            with nogil:
                st = guard_double(self.get(ACT_STAND))
                ht = guard_double(self.get(ACT_HIT))
                dd = guard_double(self.get(ACT_DOUBLE))
                self.next_card_weights(pi)
                beta = self.hole_natural_chance(pi)
                self.clear_hand()
        except MemoryError:
            self.out_of_memory()
            raise
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
        self.recover()
        try:
            with nogil:
                v = guard_double(self.split_value(pair))
        except MemoryError:
            self.out_of_memory()
            raise
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
        return self.dealer.index.count, self.value_index.count
