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
* ``_engine``: the engine's state, one object owning every array of a dealer key's solve
  (``Engine``: the decoded shoe and rules, the hand being valued, the memo tables, the
  frozen decisions);
* ``_hands``: the stand / hit / double values in every context and the strategy's pick,
  functions of that state;
* ``_splits``: the split expectation;
* ``_round``: the round-start choice and E(u);
* ``_policy``: recording frozen decisions;
* ``_core`` (here): ``UpcardEngine``, which owns an ``Engine``; its ``def`` methods check
  their arguments and release the GIL around whole computations.
"""
from libc.math cimport NAN

from bjcore._defs cimport *
from bjcore._alloc cimport guard, guard_double, guard_int
from bjcore._rules cimport decode_hand
from bjcore._engine cimport Engine, hand_add
from bjcore._hands cimport get, next_card_weights, hole_natural_chance
from bjcore._splits cimport hands_limit, split_value
from bjcore._round cimport surrender_value, round_value
from bjcore._policy cimport freeze_all
from bjcore._memo cimport DecisionTable
from bjcore._rules cimport decode_policy_entry

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


cdef void set_hand(Engine self, list counts):
    """The current hand: ``counts`` (checked by the caller)."""
    self.clear_hand()
    for r in range(N_RANKS):
        for _ in range(<int>counts[r]):
            hand_add(self, r)


cdef class UpcardEngine:
    """Exact player values against one upcard for one shoe and rule set.

    ``UpcardEngine(shoe, dealer, rules, infinite=False, fractional=False)``: the engine's
    state (``_engine.Engine``: see its ``__init__`` for the arguments), owned, and the
    Python edge of the recursions that are its functions.  Values are unconditioned
    fractions of the initial bet; the Python layer conditions them on no dealer
    blackjack.  One engine per upcard, so several can run in parallel threads without
    sharing memo tables.
    """

    def __init__(self, shoe, dealer, dict rules, bint infinite=False, bint fractional=False):
        self.e = Engine(shoe, dealer, rules, infinite, fractional)

    @property
    def upcard(self):
        """The upcard's rank 1..10 (0 when both dealer cards are known)."""
        return self.e.upcard

    # Every kernel call below runs under a guard (alloc.h): out of memory raises
    # MemoryError here, and the engine, marked spoiled, drops its half-updated memo
    # tables (``recover``) before the exception leaves or, failing that, before its next
    # kernel call.

    def round_ev(self):
        """E(u), unconditioned."""
        cdef Engine e = self.e
        cdef double v
        e.recover()
        try:
            with nogil:
                v = guard_double(round_value(e))
        except MemoryError:
            e.out_of_memory()
            raise
        return v

    def _check_hand(self, counts, bint in_shoe=True):
        """The hand's 10 counts as ints, checked (``_rules.decode_hand``)."""
        cdef Engine e = self.e
        return decode_hand(counts, e.shoe, e.dealer_cnt, e.infinite, in_shoe)

    def surrender_ev(self, counts):
        """Unconditioned surrender value of the original two cards."""
        cdef Engine e = self.e
        cdef double v
        e.recover()
        set_hand(e, self._check_hand(counts))
        v = surrender_value(e)   # (allocates nothing)
        e.clear_hand()
        return v

    def hand_values(self, counts):
        """(stand, hit, double, natural chance) unconditioned, for an unsplit hand."""
        cdef Engine e = self.e
        cdef double pi[N_RANKS]
        cdef double st, ht, dd, beta
        e.recover()
        set_hand(e, self._check_hand(counts))
        try:
            with nogil:
                st = guard_double(get(e, ACT_STAND))
                ht = guard_double(get(e, ACT_HIT))
                dd = guard_double(get(e, ACT_DOUBLE))
                next_card_weights(e, pi)
                beta = hole_natural_chance(e, pi)
                e.clear_hand()
        except MemoryError:
            e.out_of_memory()
            raise
        return st, ht, dd, beta

    def may_double_hand(self, counts, bint after_split=False):
        """Whether the rules allow doubling this hand (after a split: DAS gate too)."""
        cdef Engine e = self.e
        cdef int ok
        set_hand(e, self._check_hand(counts, in_shoe=False))
        ok = e.may_double()
        if after_split and not e.rules.double_after_split:
            ok = 0
        e.clear_hand()
        return bool(ok)

    def split_limit(self, int pair):
        """M(P): hands the pair may become (0 or 1: no split)."""
        cdef Engine e = self.e
        if pair < 1 or pair > 10:
            raise ValueError("pair rank must be 1..10")
        return hands_limit(e, pair)

    def split_ev(self, int pair):
        """(unconditioned split expectation, natural chance over S - 2P - u), or NaN."""
        cdef Engine e = self.e
        cdef double v, left = 0.0
        cdef double rho[N_RANKS]
        cdef int r, hole
        if pair < 1 or pair > 10:
            raise ValueError("pair rank must be 1..10")
        e.recover()
        try:
            with nogil:
                v = guard_double(split_value(e, pair))
        except MemoryError:
            e.out_of_memory()
            raise
        beta = 0.0
        hole = e.hole_rank
        if hole >= 0:
            if e.infinite:
                beta = e.shoe[hole]
            else:
                for r in range(N_RANKS):
                    rho[r] = e.shoe[r] - e.dealer_cnt[r]
                rho[pair - 1] -= 2
                for r in range(N_RANKS):
                    left += rho[r]
                beta = rho[hole] / left if left > 0 and rho[hole] > 0 else 0.0
        return v, beta

    @property
    def memo_sizes(self):
        """(dealer distributions, hand contexts) held in the memo tables."""
        cdef Engine e = self.e
        return e.dealer.index.count, e.value_index.count

    def freeze_decisions(self):
        """Record this engine's decision for every hand composition (original two cards,
        later decisions, split hands as its post-split class plays them) as its policy,
        to be copied to engines of depleted shoes (fixed-strategy effects of removal).
        Returns the number of decisions recorded."""
        cdef Engine e = self.e
        cdef double left[N_RANKS]
        cdef int p
        if e.rules.split_class == SPLIT_POLICY:
            raise ValueError("a policy engine plays frozen decisions; it has none to record")
        if e.policy_shared:
            e.policy = DecisionTable()
            e.policy_shared = False
        e.policy.split_context = {SPLIT_CDZ: 0, SPLIT_CDP1: 1,
                                     SPLIT_CDP: 2}[e.rules.split_class]
        for p in range(N_RANKS):
            left[p] = e.shoe[p] - e.dealer_cnt[p]
        e.recover()
        try:
            with nogil:
                guard(freeze_all(e, left))
        except MemoryError:
            e.out_of_memory()
            e.policy = DecisionTable()   # half a record is no record
            raise
        return len(e.policy)

    def copy_policy_to(self, UpcardEngine other not None):
        """Give ``other`` (a policy-mode engine) this engine's recorded decisions (shared,
        not copied: ``other`` copies them before any change of its own)."""
        cdef Engine e = self.e
        other.e.policy = e.policy
        other.e.policy_shared = True
        e.policy_shared = True

    def set_policy(self, int kind, counts, int action):
        """Freeze the action for a composition: kind 0 start, 1 later, 2 split hand."""
        cdef Engine e = self.e
        cdef uint64_t key = decode_policy_entry(kind, counts, action, KIND_SPLIT)
        if e.policy_shared:
            e.policy = e.policy.copy()
            e.policy_shared = False
        if kind == KIND_SPLIT and e.policy.split_context != 0:
            raise ValueError("this engine's split-hand decisions are recorded per split "
                             "context; set_policy gives one per composition")
        guard(e.policy.set(key, action))

    @property
    def policy_misses(self):
        """Decisions a policy solve met that had no frozen action (should be 0)."""
        cdef Engine e = self.e
        return e.policy_missing

