# cython: language_level=3
# distutils: language = c++
"""Freezing a total-dependent chart into a policy engine without asking it about every
hand composition.

Evaluating a strategy freezes one action per (hand composition, kind of decision) in a
policy engine (see _policy.pyx).  A general callable must be asked for each of them,
some 6,000 per dealer key.  A chart's answer depends on far less: the hand's hard total,
whether it holds an ace, whether it has two cards and which pair it is, and which actions
are allowed.  ``DecisionSignatures`` walks the compositions in C once, files each
(composition, kind) under that *signature*, keeps one representative composition per
signature for the caller to ask the chart about, and then writes the answers into the
engine's decision table.  The compositions walked are exactly those of
``bjsolve.hands.compositions(limit, max_hard=21, min_cards=2)`` in the same order, and
the allowed actions those ``bjsolve.solve.policy_engines`` offers.
"""
from libc.stdint cimport int32_t, uint64_t
from bjcore._alloc cimport vector, guard

from bjcore._defs cimport *
from bjcore._hands cimport hand_add, hand_remove
from bjcore._memo cimport DecisionTable
from bjcore._engine cimport Engine
from bjcore._splits cimport hands_limit
from bjcore._core cimport UpcardEngine

# signature bits: kind (2) | may double | may split | may surrender | two cards |
# holds an ace | hard total (5 bits) | pair rank (4 bits, 0: not a two-card pair)
cdef enum:
    SIG_DOUBLE = 1 << 2
    SIG_SPLIT = 1 << 3
    SIG_SURRENDER = 1 << 4
    SIG_TWO = 1 << 5
    SIG_ACE = 1 << 6
    SIG_HARD_SHIFT = 7
    SIG_PAIR_SHIFT = 12
    N_SIGNATURES = 1 << 16


cdef class DecisionSignatures:
    """The (composition, kind) decisions of one policy engine grouped by signature.

    ``DecisionSignatures(engine, limit)``: ``limit`` the most cards of each rank a hand
    may hold (``Deal.hand_limit``; None: unlimited).  ``questions()`` lists one
    (kind, cards, allowed) per signature, in the order the compositions are met;
    ``freeze(actions)`` stores the answers (action codes, same order) as the engine's
    frozen decisions."""
    # attributes declared in _chart.pxd

    def __init__(self, UpcardEngine upcard_engine not None, limit):
        cdef int r
        cdef Engine engine = upcard_engine.e
        if engine.rules.split_class != SPLIT_POLICY:
            raise ValueError("DecisionSignatures needs a policy engine (split class 3)")
        for r in range(N_RANKS):
            self.limit[r] = 1e9 if limit is None else float(limit[r])
        self.engine = engine
        guard(self.slot_of.assign(N_SIGNATURES, -1))
        try:
            with nogil:
                engine.clear_hand()
                guard(self.walk(1))
                engine.clear_hand()
        except MemoryError:
            engine.clear_hand()
            raise

    cdef void add(self, int kind, int sig) noexcept nogil:
        cdef int32_t slot
        sig |= kind
        slot = self.slot_of[sig]
        if slot < 0:
            slot = self.slot_of[sig] = <int32_t>self.met.size()
            self.met.push_back(sig)
            self.example.push_back(self.engine.hand_key)
        self.keys.push_back(self.engine.hand_key | (<uint64_t>kind << KIND_SHIFT))
        self.slots.push_back(slot)

    cdef void record(self) noexcept nogil:
        cdef int base, start, split_hand, p, dbl
        base = (self.engine.hand.hard_sum << SIG_HARD_SHIFT) | (SIG_ACE if self.engine.hand.cnt[0] > 0 else 0)
        if self.engine.hand.n_cards == 2:
            base |= SIG_TWO
            for p in range(N_RANKS):
                if self.engine.hand.cnt[p] == 2:
                    base |= (p + 1) << SIG_PAIR_SHIFT
        dbl = self.engine.may_double()
        start = base | (SIG_DOUBLE if dbl else 0)
        split_hand = base | (SIG_DOUBLE if dbl and self.engine.rules.double_after_split else 0)
        if self.engine.hand.n_cards == 2:
            p = (base >> SIG_PAIR_SHIFT) & 15
            if p and hands_limit(self.engine, p) >= 2:
                start |= SIG_SPLIT
            if self.engine.rules.surrender != 0:
                start |= SIG_SURRENDER
            self.add(KIND_START, start)
        else:
            self.add(KIND_LATER, start)
        self.add(KIND_SPLIT, split_hand)

    cdef void walk(self, int lowest) noexcept nogil:
        # hands.compositions: ranks in non-decreasing order, hard total <= 21, counts
        # within the limit; every hand of two or more cards is recorded
        cdef int r
        if self.engine.hand.n_cards >= 2:
            self.record()
        for r in range(lowest, 11):
            if self.engine.hand.hard_sum + r > 21:
                break
            if self.engine.hand.cnt[r - 1] + 1 > self.limit[r - 1]:
                continue
            hand_add(self.engine, r - 1)
            self.walk(r)
            hand_remove(self.engine, r - 1)

    def __len__(self):
        return self.keys.size()

    def questions(self):
        """[(kind, cards, allowed)] for each signature met: kind 0 the original two
        cards, 1 a later decision, 2 a split hand; cards a sorted tuple of ranks of a
        composition with that signature; allowed the legal actions in the usual order."""
        cdef size_t i
        cdef int sig, r
        cdef uint64_t key
        out = []
        for i in range(self.met.size()):
            sig = self.met[i]
            key = self.example[i]
            cards = []
            for r in range(N_RANKS):
                cards.extend([r + 1] * <int>((key >> (COUNT_BITS * r)) & 31))
            allowed = ["stand", "hit"]
            if sig & SIG_DOUBLE:
                allowed.append("double")
            if sig & SIG_SPLIT:
                allowed.append("split")
            if sig & SIG_SURRENDER:
                allowed.append("surrender")
            out.append((sig & 3, tuple(cards), tuple(allowed)))
        return out

    def freeze(self, actions):
        """Store ``actions[i]`` (an action code 0..4) for every decision of signature i.
        Out of memory: MemoryError, and the engine's policy is left empty (not half
        written)."""
        cdef vector[int] codes
        cdef size_t i
        cdef Engine e = self.engine
        if <size_t>len(actions) != self.met.size():
            raise ValueError(f"freeze needs {self.met.size()} actions, got {len(actions)}")
        guard(codes.reserve(len(actions)))   # (the push_backs then never allocate)
        for a in actions:
            if not 0 <= a <= 4:
                raise ValueError(f"bad action code {a!r}")
            codes.push_back(a)
        if e.policy_shared:
            e.policy = e.policy.copy()
            e.policy_shared = False
        if e.policy.split_context != 0:
            raise ValueError("this engine's split-hand decisions are recorded per split context")
        try:
            with nogil:
                for i in range(self.keys.size()):
                    guard(e.policy.set(self.keys[i], codes[self.slots[i]]))
        except MemoryError:
            e.policy = DecisionTable()   # half a chart is no chart: its misses show
            raise
