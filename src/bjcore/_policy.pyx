# cython: language_level=3
# distutils: language = c++
"""Frozen decisions: recording an optimal solve's choices as a policy, and giving a
policy (recorded, or a user's strategy set decision by decision) to an engine that then
plays it instead of optimising (split class SPLIT_POLICY).  Fixed-strategy effects of
removal and strategy evaluation use it.

A recorded policy freezes *every* decision of the solve it comes from: the original two
cards, every later decision of an unsplit hand, and the decisions of split hands the
way the solve's post-split class makes them: CDZ- plays a split hand as the unsplit hand
of the same composition; CDP1 by the pick it makes with one extra pair card gone, per
pair rank; CDP in each split context (pair rank, extra pair cards gone).  A policy engine
on another shoe then plays exactly the same strategy, so the fixed-strategy effects of
removal average to zero (the fundamental theorem of card counting) for every class.
"""
from libc.stdint cimport uint64_t

from bjcore._defs cimport *
from bjcore._hands cimport hand_add, hand_remove
from bjcore._memo cimport DecisionTable
from bjcore._round cimport RoundEngine
from bjcore._alloc cimport guard
from bjcore._rules cimport decode_policy_entry


cdef class PolicyEngine(RoundEngine):
    """Adds recording, copying and setting frozen decisions to ``RoundEngine``."""

    cdef void freeze_walk(self, int lowest, const double* left) noexcept nogil:
        """Record this engine's optimal decisions for the current composition and every
        one grown from it by cards of rank index >= ``lowest`` (each composition once;
        ``left``: the cards available to the hand)."""
        cdef int r, double_ok
        if self.hand.n_cards >= 2:
            if self.hand.n_cards == 2:
                self.policy.set(self.policy_key(KIND_START), self.start_choice())
            else:
                self.policy.set(self.policy_key(KIND_LATER), self.best_option(self.may_double()))
            if self.policy.split_context == 0:
                # CDZ-: a split hand is played like the unsplit hand of the same composition
                double_ok = self.rules.double_after_split and self.may_double()
                self.policy.set(self.policy_key(KIND_SPLIT), self.best_option(double_ok))
        for r in range(lowest, N_RANKS):
            if self.hand.hard_sum + r + 1 > 21:
                break
            if not self.infinite and self.hand.cnt[r] + 1 > left[r]:
                continue
            hand_add(self, r)
            self.freeze_walk(r, left)
            hand_remove(self, r)

    cdef void freeze_split_walk(self, int lowest, const double* left) noexcept nogil:
        """Record the split-hand decisions of the current split context (pair_rank,
        extra) for the hand's composition and every one grown from it (the pair card the
        hand started with stays; other cards are added in non-decreasing rank order)."""
        cdef int r, double_ok
        if self.hand.n_cards >= 2:
            double_ok = self.rules.double_after_split and self.may_double()
            if self.lanes_enabled(self.hand.pair_rank - 1):   # the split values are held for every context at once
                self.policy.set(self.policy_key(KIND_SPLIT), self.lane_choice(self.hand.extra, double_ok))
            else:
                self.policy.set(self.policy_key(KIND_SPLIT), self.best_option(double_ok))
        for r in range(lowest, N_RANKS):
            if self.hand.hard_sum + r + 1 > 21:
                break
            if not self.infinite and self.hand.cnt[r] + 1 > left[r]:
                continue
            hand_add(self, r)
            self.freeze_split_walk(r, left)
            hand_remove(self, r)

    cdef void freeze_split_contexts(self) noexcept nogil:
        """CDP1 / CDP: record each split context's decisions on split hands."""
        cdef double left[N_RANKS]
        cdef int p, e, e_max, amax, M, r
        for p in range(N_RANKS):
            M = self.hands_limit(p + 1)
            if M < 2 or (p == 0 and not self.rules.hit_split_aces):
                continue   # no split, or split aces take one card each: nothing to decide
            # the contexts split_value values: e = 1 .. amax + 1 extra pair cards gone
            amax = 2 * M - 4
            if not self.infinite and self.shoe[p] - 2 < amax:
                amax = <int>self.shoe[p] - 2
            e_max = 1 if self.policy.split_context == 1 else amax + 1
            for e in range(1, e_max + 1):
                for r in range(N_RANKS):
                    left[r] = self.shoe[r] - self.dealer_cnt[r]
                left[p] -= e
                if not self.infinite and left[p] < 1:
                    continue
                self.clear_hand()
                self.hand.pair_rank = p + 1
                self.hand.extra = e
                hand_add(self, p)
                self.freeze_split_walk(0, left)
        self.clear_hand()

    def freeze_decisions(self):
        """Record this engine's decision for every hand composition (original two cards,
        later decisions, split hands as its post-split class plays them) as its policy,
        to be copied to engines of depleted shoes (fixed-strategy effects of removal).
        Returns the number of decisions recorded."""
        cdef double left[N_RANKS]
        cdef int p
        if self.rules.split_class == SPLIT_POLICY:
            raise ValueError("a policy engine plays frozen decisions; it has none to record")
        if self.policy_shared:
            self.policy = DecisionTable()
            self.policy_shared = False
        self.policy.split_context = {SPLIT_CDZ: 0, SPLIT_CDP1: 1,
                                     SPLIT_CDP: 2}[self.rules.split_class]
        for p in range(N_RANKS):
            left[p] = self.shoe[p] - self.dealer_cnt[p]
        self.recover()
        try:
            with nogil:
                guard(self.freeze_all(left))
        except MemoryError:
            self.out_of_memory()
            self.policy = DecisionTable()   # half a record is no record
            raise
        return len(self.policy)

    cdef void freeze_all(self, const double* left) noexcept nogil:
        """``freeze_decisions``'s kernel: every split value, then every decision."""
        cdef int p
        for p in range(N_RANKS):
            if self.hands_limit(p + 1) >= 2:
                self.split_value(p + 1)
        self.clear_hand()
        self.freeze_walk(0, left)
        self.clear_hand()
        if self.policy.split_context > 0:
            self.freeze_split_contexts()

    def copy_policy_to(self, PolicyEngine other not None):
        """Give ``other`` (a policy-mode engine) this engine's recorded decisions (shared,
        not copied: ``other`` copies them before any change of its own)."""
        other.policy = self.policy
        other.policy_shared = True
        self.policy_shared = True

    def set_policy(self, int kind, counts, int action):
        """Freeze the action for a composition: kind 0 start, 1 later, 2 split hand."""
        cdef uint64_t key = decode_policy_entry(kind, counts, action, KIND_SPLIT)
        if self.policy_shared:
            self.policy = self.policy.copy()
            self.policy_shared = False
        if kind == KIND_SPLIT and self.policy.split_context != 0:
            raise ValueError("this engine's split-hand decisions are recorded per split "
                             "context; set_policy gives one per composition")
        guard(self.policy.set(key, action))

    @property
    def policy_misses(self):
        """Decisions a policy solve met that had no frozen action (should be 0)."""
        return self.policy_missing
