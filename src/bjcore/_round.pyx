# cython: language_level=3
# distutils: language = c++
"""The round given the dealer's upcard (section 7 of the conventions): the choice made on
the original two cards (stand, hit, double, split, surrender; optimal or a frozen
policy's) and the round's expectation E(u) over every two-card hand.
"""
from libc.math cimport NAN
from libc.stdint cimport int64_t

from bjcore._defs cimport *
from bjcore._engine cimport Engine
from bjcore._hands cimport (next_card_weights, hole_natural_chance, prefetch_unsplit,
                            policy_action, get, hand_add)
from bjcore._splits cimport (hands_limit, split_value, value_bottom_up)


cdef double start_choice_value(Engine self, int c1, int c2) noexcept nogil:
    """W of section 7 for the original two cards c1, c2 (rank indices): the value of
    the option chosen (optimal, or the frozen policy's)."""
    cdef int a
    cdef bint split_ok = c1 == c2 and hands_limit(self, c1 + 1) >= 2
    cdef double v
    if split_ok and self.rules.split_class != SPLIT_POLICY:
        split_value(self, c1 + 1)   # start_choice compares it
    self.clear_hand()
    hand_add(self, c1)
    hand_add(self, c2)
    if self.rules.split_class == SPLIT_POLICY:
        a = policy_action(self, KIND_START)
        if a == ACT_SPLIT and not split_ok:
            a = ACT_STAND
    else:
        a = start_choice(self)
    if a == ACT_SPLIT:
        v = split_value(self, c1 + 1)
    elif a == ACT_SURRENDER:
        v = surrender_value(self)
    else:
        v = get(self, a)
    self.clear_hand()
    return v


cdef double surrender_value(Engine self) noexcept nogil:
    """Unconditioned (``surrender_worth``)."""
    cdef double pi[N_RANKS]
    next_card_weights(self, pi)
    return surrender_worth(&self.rules, hole_natural_chance(self, pi))


cdef int start_choice(Engine self) noexcept nogil:
    """The optimal round-start action for the current two-card hand (section 4: the
    first strictly best of stand, hit, double, split, surrender); split values must
    already be in ``split_cache``."""
    cdef int a = ACT_STAND, p
    cdef double best = get(self, ACT_STAND), v
    v = get(self, ACT_HIT)
    if improves(v, best):
        a, best = ACT_HIT, v
    if self.may_double():
        v = get(self, ACT_DOUBLE)
        if improves(v, best):
            a, best = ACT_DOUBLE, v
    for p in range(N_RANKS):
        if self.hand.cnt[p] == 2 and hands_limit(self, p + 1) >= 2:
            v = self.split_cache[p]
            if improves(v, best):
                a, best = ACT_SPLIT, v
    if self.rules.surrender:
        v = surrender_value(self)
        if improves(v, best):
            a, best = ACT_SURRENDER, v
    return a


cdef bint has_fractional_counts(Engine self) noexcept nogil:
    cdef int r
    for r in range(N_RANKS):
        if self.shoe[r] != <double>(<int64_t>self.shoe[r]):
            return True
    return False


cdef unsigned int folded_splits(Engine self) noexcept nogil:
    """The pair rank indices whose split hands' own dealer shoes the unsplit prefetch
    queues too (``_hands.queue_folded_split_shoes``): those split with one split
    allowed (one context: one extra pair card gone), whose hands CDP and CDP1 value in
    every composition, on a shoe of whole counts.  (Split aces that take one card and
    stand never need a shoe of their own.)"""
    cdef unsigned int fold = 0
    cdef int p
    if self.infinite or has_fractional_counts(self) or not (
            self.rules.split_class == SPLIT_CDP or self.rules.split_class == SPLIT_CDP1):
        return 0
    for p in range(N_RANKS):
        if p == 0 and not self.rules.hit_split_aces:
            continue
        if hands_limit(self, p + 1) == 2:
            fold |= 1u << p
    return fold


cdef double round_value(Engine self) noexcept nogil:
    """E(u): the round's unconditioned expectation given the upcard (section 7), or
    given both dealer cards when they are dealt face up."""
    cdef double n[N_RANKS]
    cdef double left = 0.0, ev = 0.0, w
    cdef int c1, c2
    for c1 in range(N_RANKS):
        n[c1] = self.shoe[c1]
    if not self.infinite:
        for c1 in range(N_RANKS):
            n[c1] -= self.dealer_cnt[c1]
        for c1 in range(N_RANKS):
            left += n[c1]
    if not self.infinite and (self.rules.split_class != SPLIT_POLICY
                              or has_fractional_counts(self)):
        # (a policy visits only its own hands and fetches their dealer outcomes as it
        # goes; on a fractional shoe it takes the pass too, so that a hand leaving a
        # count below zero (0.9 left, one drawn) gets the outcomes optimal play gets:
        # the negative count kept in the total, whatever order the hands come in)
        self.clear_hand()
        self.split_fold = folded_splits(self)
        prefetch_unsplit(self, 0, n)
        self.dealer.flush()
        if self.rules.split_class != SPLIT_POLICY and not has_fractional_counts(self):
            value_bottom_up(self, -1)   # every unsplit hand
    for c1 in range(N_RANKS):
        for c2 in range(N_RANKS):
            w = first_two_chance(n, left, c1, c2, self.infinite)
            if w > 0.0:
                ev += w * start_choice_value(self, c1, c2)
    return ev
