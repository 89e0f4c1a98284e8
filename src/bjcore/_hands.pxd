# Declarations of the hand values (see _hands.pyx): functions of the engine's state.
from libc.math cimport isnan
from libc.stdint cimport uint64_t

from bjcore._defs cimport N_RANKS, N_DEALER, improves, ACT_STAND, ACT_HIT, ACT_DOUBLE
from bjcore._engine cimport Engine, HandValues, blank_values, hand_add, hand_remove

cdef uint64_t split_group_key(Engine self) noexcept nogil
cdef void next_card_weights(Engine self, double* pi) noexcept nogil
cdef double hole_natural_chance(Engine self, const double* pi) noexcept nogil
cdef double natural_refund(Engine self, const double* pi) noexcept nogil
cdef const double* dealer_for_current(Engine self) noexcept nogil
cdef const double* split_dealer_for_current(Engine self) noexcept nogil
cdef void queue_split_shoe(Engine self, const double* left) noexcept nogil
cdef void queue_split_group(Engine self, const double* left) noexcept nogil
cdef void prefetch_dealer(Engine self, bint children) noexcept nogil
cdef bint children_need_prefetch(Engine self) noexcept nogil
cdef void prefetch_unsplit(Engine self, int lowest, double* left) noexcept nogil
cdef void queue_folded_split_shoes(Engine self, double* left) noexcept nogil
cdef int add_row(Engine self, uint64_t key) noexcept nogil
cdef double stand_value(Engine self) noexcept nogil
cdef double hit_value(Engine self) noexcept nogil
cdef double double_value(Engine self) noexcept nogil
cdef int best_option(Engine self, int double_ok) noexcept nogil
cdef uint64_t policy_key(Engine self, int kind) noexcept nogil
cdef int policy_action(Engine self, int kind) noexcept nogil
cdef int optimal_unsplit_choice(Engine self) noexcept nogil
cdef int strategy_choice(Engine self, int row) noexcept nogil
cdef double continuation(Engine self) noexcept nogil


# Small steps every recursion takes, inline wherever they are called.

cdef inline int lookup(Engine self) noexcept nogil:
    """Row of the current hand (in its context) in ``value_store``, added if new."""
    cdef int row = self.value_index.find(self.context_key())
    if row >= 0:
        return row
    return add_row(self, self.context_key())

cdef inline double get(Engine self, int action) noexcept nogil:
    return value_at(self, lookup(self), action)

cdef inline double value_at(Engine self, int row, int action) noexcept nogil:
    """Memoised unconditioned value of stand, hit or double for the current hand,
    whose memo row is ``row`` (the store may grow while a value is computed, so it
    is indexed again afterwards)."""
    cdef double v
    if action == ACT_STAND:
        v = self.value_store[row].stand
        if isnan(v):
            v = stand_value(self)
            self.value_store[row].stand = v
    elif action == ACT_HIT:
        v = self.value_store[row].hit
        if isnan(v):
            v = hit_value(self)
            self.value_store[row].hit = v
    else:
        v = self.value_store[row].double_
        if isnan(v):
            v = double_value(self)
            self.value_store[row].double_ = v
    return v

cdef inline int best_option_at(Engine self, int row, int double_ok) noexcept nogil:
    """``best_option`` for the current hand, whose memo row is ``row``."""
    cdef int best = ACT_STAND
    cdef double v = value_at(self, row, ACT_STAND), w
    w = value_at(self, row, ACT_HIT)
    if improves(w, v):
        best = ACT_HIT
        v = w
    if double_ok and improves(value_at(self, row, ACT_DOUBLE), v):
        best = ACT_DOUBLE
    return best


# Adding and removing a card are the innermost steps of every recursion: inline, not
# virtual-method calls.


cdef inline double stand_from_outcomes(const double* d, int t, double tie_value) noexcept nogil:
    """A hand of total ``t`` standing against the dealer's outcomes ``d`` (17..21,
    natural; the rest busts).  ``stand_value`` and the split lanes both use it, so
    their values are the same to the bit."""
    cdef double ev, listed = 0.0
    cdef int k
    for k in range(N_DEALER):
        listed += d[k]
    ev = (1.0 - listed) - d[5]
    for k in range(5):
        if t > 17 + k:
            ev += d[k]
        elif t < 17 + k:
            ev -= d[k]
        else:
            ev += tie_value * d[k]
    return ev
