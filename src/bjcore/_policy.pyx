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
from bjcore._engine cimport Engine
from bjcore._hands cimport (best_option, policy_key, hand_add, hand_remove)
from bjcore._splits cimport (hands_limit, lanes_enabled, lane_choice, split_value)
from bjcore._round cimport (start_choice)
from bjcore._memo cimport DecisionTable
from bjcore._alloc cimport guard
from bjcore._rules cimport decode_policy_entry


cdef void record_decisions(Engine self) noexcept nogil:
    """Record this engine's decisions for the current hand: an unsplit hand's (its start
    or later decision, and under CDZ- the same cards' as a split hand), or a split hand's
    in its split context (pair_rank, extra)."""
    cdef int double_ok = self.rules.double_after_split and self.may_double()
    if self.hand.pair_rank:
        if lanes_enabled(self, self.hand.pair_rank - 1):   # the split values are held for every context at once
            self.policy.set(policy_key(self, KIND_SPLIT), lane_choice(self, self.hand.extra, double_ok))
        else:
            self.policy.set(policy_key(self, KIND_SPLIT), best_option(self, double_ok))
        return
    if self.hand.n_cards == 2:
        self.policy.set(policy_key(self, KIND_START), start_choice(self))
    else:
        self.policy.set(policy_key(self, KIND_LATER), best_option(self, self.may_double()))
    if self.policy.split_context == 0:
        # CDZ-: a split hand is played like the unsplit hand of the same composition
        self.policy.set(policy_key(self, KIND_SPLIT), best_option(self, double_ok))


cdef void freeze_walk(Engine self, int lowest, const double* left) noexcept nogil:
    """Record this engine's decisions (``record_decisions``) for the current hand of two
    cards or more and every one grown from it by cards of rank index >= ``lowest``, each
    composition once (``left``: the cards available to the hand).  A split hand keeps
    its split context and the pair card it started with."""
    cdef int r
    if self.hand.n_cards >= 2:
        record_decisions(self)
    for r in range(lowest, N_RANKS):
        if self.hand.hard_sum + r + 1 > 21:
            break
        if not self.infinite and self.hand.cnt[r] >= left[r]:
            continue   # none of the rank left (a fractional shoe deals while some is)
        hand_add(self, r)
        freeze_walk(self, r, left)
        hand_remove(self, r)


cdef void freeze_split_contexts(Engine self) noexcept nogil:
    """CDP1 / CDP: record each split context's decisions on split hands."""
    cdef double left[N_RANKS]
    cdef int p, e, e_max, amax, M, r
    for p in range(N_RANKS):
        M = hands_limit(self, p + 1)
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
            if not self.infinite and left[p] <= 0.0:
                continue   # no pair card left for the hand (whole shoes: fewer than one)
            self.clear_hand()
            self.hand.pair_rank = p + 1
            self.hand.extra = e
            hand_add(self, p)
            freeze_walk(self, 0, left)
    self.clear_hand()


cdef void freeze_all(Engine self, const double* left) noexcept nogil:
    """``freeze_decisions``'s kernel: every split value, then every decision."""
    cdef int p
    for p in range(N_RANKS):
        if hands_limit(self, p + 1) >= 2:
            split_value(self, p + 1)
    self.clear_hand()
    freeze_walk(self, 0, left)
    self.clear_hand()
    if self.policy.split_context > 0:
        freeze_split_contexts(self)
