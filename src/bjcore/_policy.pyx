# cython: language_level=3
# distutils: language = c++
"""Frozen decisions: recording an optimal solve's choices as a policy, and giving a
policy (recorded, or a user's strategy set decision by decision) to an engine that then
plays it instead of optimising (split class SPLIT_POLICY).  Fixed-strategy effects of
removal and strategy evaluation use it.
"""
from libc.stdint cimport uint64_t, int8_t

from bjcore._defs cimport *
from bjcore._round cimport RoundEngine


cdef class PolicyEngine(RoundEngine):
    """Adds recording, copying and setting frozen decisions to ``RoundEngine``."""

    cdef void freeze_walk(self, int lowest, const double* left) noexcept nogil:
        """Record this engine's optimal decisions for every composition (section 8 of the conventions)."""
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

    def copy_policy_to(self, PolicyEngine other not None):
        """Give ``other`` (a policy-mode engine) this engine's recorded decisions."""
        other.policy = self.policy


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

