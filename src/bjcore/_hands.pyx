# cython: language_level=3
# distutils: language = c++
"""Hand values against one dealer upcard: the stand, hit and double values of a player
hand in every context (unsplit, or a split hand with ``e`` extra pair cards gone), and
the choice the strategy makes on it (sections 3-5 of the conventions).

Functions of the engine's state (``_engine.Engine``: one shoe, rule set and dealer key, the
hand being valued, mutated in place by the recursion, and the memo tables: the dealer
distributions by the cards out of the shoe, see ``_dealer.DealerStore``, and the hand
values by the hand and its split context).  ``_splits``, ``_round`` and ``_policy`` build
on these, one concern each; ``_core.UpcardEngine`` is the Python edge.

Everything inside the recursions is ``noexcept nogil``; Python objects appear only at the
``def`` edge, where arguments are checked once.
"""
from libc.math cimport NAN, isnan
from libc.stdint cimport uint64_t, int8_t, int64_t

from bjcore._defs cimport *
from bjcore._engine cimport Engine, HandValues, blank_values, hand_add, hand_remove


cdef uint64_t split_group_key(Engine self) noexcept nogil:
    """A split hand's group in ``pair_dealer``: its cards other than the pair's rank,
    with the pair rank in the pair field (see _pair_dealer)."""
    cdef int p = self.hand.pair_rank - 1
    return ((self.hand_key & ~((<uint64_t>31) << (COUNT_BITS * p)))
            | (<uint64_t>self.hand.pair_rank << PAIR_SHIFT))

# ---- shoe after the current hand -------------------------------------------


cdef void next_card_weights(Engine self, double* pi) noexcept nogil:
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


cdef double hole_natural_chance(Engine self, const double* pi) noexcept nogil:
    """Chance that the unseen hole card completes a dealer natural."""
    if self.hole_rank < 0:
        return 0.0
    return pi[self.hole_rank]


cdef double natural_refund(Engine self, const double* pi) noexcept nogil:
    """What the one-unit rule gives back on a doubled hand: +beta (peek, OBO), or 0
    when a dealer natural takes every bet (ENHC)."""
    if self.rules.natural_takes_all:
        return 0.0
    return hole_natural_chance(self, pi)


cdef const double* dealer_for_current(Engine self) noexcept nogil:
    """The dealer's outcomes for the shoe left after the current hand (in its
    context): stored, or computed now with those of the hands prefetched with it."""
    cdef uint64_t key = self.removed_key()
    cdef const double* d = self.dealer.find(key)
    cdef double n[N_RANKS]
    cdef double left = 0.0
    cdef int r
    if self.hand.pair_rank and not self.infinite and self.pair_groups[self.hand.pair_rank - 1]:
        return split_dealer_for_current(self)
    if d != NULL:
        return d
    prefetch_dealer(self, False)
    d = self.dealer.find(key)
    if d != NULL:
        return d
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
    return self.dealer.compute(key, n, left, self.infinite)


cdef const double* split_dealer_for_current(Engine self) noexcept nogil:
    """``dealer_for_current`` for a split hand (finite shoe): finished from the hand's
    group in ``pair_dealer`` (computed now if it was not queued) and stored under the
    removed cards with the pair rank, apart from the unsplit hands' distributions.

    Where the cards gone (the hand's and the extra pair cards) could be an unsplit
    hand (at most 21), the split hand shares that hand's distribution instead, from
    a trie pass like every unsplit hand's: a solve has computed them all before it
    values splits.  Which way a shoe is computed depends only on its cards, never on
    the order of the calls, so every value is reproducible to the bit."""
    cdef uint64_t key = self.removed_key()
    cdef uint64_t group_key
    cdef const double* d
    cdef const double* table
    cdef double n[N_RANKS]
    cdef double out[N_DEALER]
    cdef double left = 0.0
    cdef int r, p = self.hand.pair_rank - 1
    cdef bint unsplit_too = self.hand.hard_sum + self.hand.extra * self.hand.pair_rank <= 21
    if not unsplit_too:
        key |= <uint64_t>self.hand.pair_rank << PAIR_SHIFT
    d = self.dealer.find(key)
    if d != NULL:
        return d
    self.remaining(n)
    for r in range(N_RANKS):
        if n[r] < 0.0:
            n[r] = 0.0
        left += n[r]
    if unsplit_too:
        return self.dealer.compute(key, n, left, False)
    group_key = split_group_key(self)
    table = self.pair_dealer.group(group_key)
    if table == NULL:
        self.pair_dealer.queue(p, n, group_key)
        self.pair_dealer.flush()
        table = self.pair_dealer.group(group_key)
    self.pair_dealer.distribution(p, table, n[p], left, out)
    return self.dealer.store(key, out)


cdef void queue_split_shoe(Engine self, const double* left) noexcept nogil:
    """Queue what ``split_dealer_for_current`` will need for the current split hand
    in its context: its group, or the shoe it shares with an unsplit hand."""
    if self.hand.hard_sum + self.hand.extra * self.hand.pair_rank <= 21:
        self.dealer.queue(left, -1, self.removed_key())
    else:
        queue_split_group(self, left)


cdef void queue_split_group(Engine self, const double* left) noexcept nogil:
    """Queue the current split hand's group (``left``: the counts after the hand;
    only ranks other than the pair's are read)."""
    self.pair_dealer.queue(self.hand.pair_rank - 1, left, split_group_key(self))


cdef void prefetch_dealer(Engine self, bint children) noexcept nogil:
    """Compute in shared trie passes the dealer outcomes the recursion is about to
    need and does not have yet: those of the current hand (``children`` false) or of
    every one-card-more hand (true), in the current context and, for a split hand,
    in every other extra-pair-card context of the split being valued (CDZ- plays the
    same hands whatever the number of extra pair cards gone, so they are needed too).
    Where the pair's split hands take their distributions from ``pair_dealer``, the
    hand's groups are queued instead: each serves every context.

    A trie pass costs a fixed amount per node plus a little per shoe, so batching
    many shoes into each pass is what makes the dealer enumeration cheap.
    """
    cdef double left[N_RANKS]
    cdef uint64_t hand_part
    cdef int e, e_lo, e_hi, r, j, p = self.hand.pair_rank - 1
    cdef bint short
    if self.infinite:
        return   # one dealer distribution serves every hand
    if p >= 0 and self.pair_groups[p]:
        self.remaining(left)
        for j in range(N_RANKS):
            if left[j] < 0.0:
                left[j] = 0.0
        if not children:
            queue_split_shoe(self, left)
        for r in range(N_RANKS):
            if not children or left[r] <= 0.0 or self.hand.hard_sum + r + 1 > 21:
                continue
            hand_add(self, r)
            left[r] -= 1.0
            queue_split_shoe(self, left)
            left[r] += 1.0
            hand_remove(self, r)
        self.pair_dealer.flush()
        self.dealer.flush()
        return
    e_lo = e_hi = self.hand.extra
    if p >= 0 and self.extra_max > 0:
        e_lo, e_hi = 1, self.extra_max
    for e in range(e_lo, e_hi + 1):
        short = False
        self.remaining(left)   # with the current context's extra pair cards out
        hand_part = self.hand_key
        if p >= 0:
            left[p] += self.hand.extra - e
            hand_part += <uint64_t>e * rank_unit(p)
        for j in range(N_RANKS):
            short = short or left[j] < 0.0
        if short:
            continue   # this context cannot occur with these cards
        if not children:
            self.dealer.queue(left, -1, hand_part)
            continue
        for r in range(N_RANKS):
            if left[r] > 0.0 and self.hand.hard_sum + r + 1 <= 21:
                self.dealer.queue(left, r, hand_part + rank_unit(r))
    self.dealer.flush()


cdef bint children_need_prefetch(Engine self) noexcept nogil:
    """Whether the hands one card larger than the current one may lack their dealer
    distributions: not when a split hand's were all queued beforehand, nor for an
    unsplit hand once ``prefetch_unsplit`` has stored every unsplit hand's (then
    ``prefetch_dealer`` would only find each of them stored)."""
    if self.hand.pair_rank:
        return not self.split_needs_queued
    return not self.unsplit_prefetched


cdef void prefetch_unsplit(Engine self, int lowest, double* left) noexcept nogil:
    """Queue the dealer outcomes of the current unsplit hand and of every hand that
    grows from it by cards of rank index >= ``lowest`` (each composition once).

    An optimal solve compares the stand and hit values of every unsplit hand it
    meets, so it needs all of these; computing them up front fills every trie pass.
    ``left``: the shoe after the hand and the dealer's cards (restored on return).
    """
    cdef int r
    cdef bint whole_shoe = self.hand.n_cards == 0 and self.hand.pair_rank == 0 and lowest == 0
    if self.hand.n_cards >= 2 and not self.is_natural():
        self.dealer.queue(left, -1, self.hand_key)
    if self.split_fold and self.hand.n_cards >= 2:
        queue_folded_split_shoes(self, left)
    for r in range(lowest, N_RANKS):
        if self.hand.hard_sum + r + 1 > 21:
            break
        if left[r] <= 0.0:
            continue
        hand_add(self, r)
        left[r] -= 1.0
        prefetch_unsplit(self, r, left)
        left[r] += 1.0
        hand_remove(self, r)
    if whole_shoe and not self.infinite:
        # from the empty hand: every unsplit hand of the shoe is queued; once the
        # last batch is evaluated, the hit and double recursions need not prefetch
        self.dealer.flush()
        self.unsplit_prefetched = True


cdef void queue_folded_split_shoes(Engine self, double* left) noexcept nogil:
    """Queue the shoes that split hands of the current composition stand on, for the
    pairs of ``split_fold`` (one split allowed, CDP or CDP1, whole counts; set by
    ``_round.round_value``).

    Such a split hand, of pair rank P, is valued with one extra P gone: on the shoe
    left after its cards and one more P.  Where those cards could be an unsplit hand
    (hard sum at most 21) it shares that hand's distribution, queued anyway; the
    others are queued here, each under the key the split recursion looks it up by
    (``removed_key``) and with the very counts ``_splits.queue_current`` would give
    it, so its outcomes are the same to the bit.  CDP and CDP1 value every composition
    of a split hand, so every such shoe is needed, and queuing them in the unsplit
    pass fills its batches instead of walking every split hand again
    (``queue_split_needs``).  ``left``: the counts after the hand (restored)."""
    cdef int p
    # (a pair rank index p with hard sum + p + 1 <= 21 shares the unsplit hand's shoe)
    for p in range(21 - self.hand.hard_sum if self.hand.hard_sum < 21 else 0, N_RANKS):
        if not (self.split_fold >> p) & 1 or self.hand.cnt[p] == 0 or left[p] < 1.0:
            continue   # (no such split hand)
        left[p] -= 1.0
        self.dealer.queue(left, -1, self.hand_key + rank_unit(p))
        left[p] += 1.0

# ---- values of the current hand ---------------------------------------------


cdef int add_row(Engine self, uint64_t key) noexcept nogil:
    """A new row of ``value_store`` for the context ``key`` (see ``lookup``)."""
    cdef int row = <int>self.value_store.size()
    self.value_store.push_back(blank_values())   # (may throw: nothing indexed yet)
    self.value_index.insert(key, row)
    return row


cdef double stand_value(Engine self) noexcept nogil:
    cdef double pi[N_RANKS]
    cdef double beta
    cdef int t = self.total()
    if self.is_natural():
        # a natural pays the bonus unless the dealer has one too (natural_tie_value)
        if self.hole_rank >= 0:
            next_card_weights(self, pi)
            beta = hole_natural_chance(self, pi)
            return (self.rules.blackjack_payout * (1.0 - beta)
                    + self.rules.natural_tie_value * beta)
        return self.rules.blackjack_payout
    return stand_from_outcomes(dealer_for_current(self), t, self.rules.tie_value)


cdef double hit_value(Engine self) noexcept nogil:
    cdef double pi[N_RANKS]
    cdef double ev = 0.0
    cdef int r
    next_card_weights(self, pi)
    if children_need_prefetch(self):
        prefetch_dealer(self, True)
    for r in range(N_RANKS):
        if pi[r] <= 0.0:
            continue
        if self.hand.hard_sum + r + 1 > 21:
            ev -= pi[r]   # a bust: no hand to build
            continue
        hand_add(self, r)
        ev += pi[r] * continuation(self)
        hand_remove(self, r)
    return ev


cdef double double_value(Engine self) noexcept nogil:
    cdef double pi[N_RANKS]
    cdef double ev
    cdef int r
    next_card_weights(self, pi)
    if children_need_prefetch(self):
        prefetch_dealer(self, True)
    # a dealer natural takes only the original bet: +beta undoes half of -2*beta
    ev = natural_refund(self, pi)
    for r in range(N_RANKS):
        if pi[r] <= 0.0:
            continue
        if self.hand.hard_sum + r + 1 > 21:
            ev -= 2.0 * pi[r]
            continue
        hand_add(self, r)
        ev += 2.0 * pi[r] * get(self, ACT_STAND)
        hand_remove(self, r)
    return ev


cdef int best_option(Engine self, int double_ok) noexcept nogil:
    """The first strictly best of stand, hit and (if allowed) double for the current
    hand in its context (section 4: ties go to the earlier option)."""
    return best_option_at(self, lookup(self), double_ok)


cdef uint64_t policy_key(Engine self, int kind) noexcept nogil:
    """The current hand's key in the table of frozen decisions (see DecisionTable)."""
    return decision_key(&self.hand, self.hand_key, kind, self.policy.split_context)


cdef int policy_action(Engine self, int kind) noexcept nogil:
    cdef int a = self.policy.get(policy_key(self, kind))
    if a < 0:
        self.policy_missing += 1
        return ACT_STAND
    return a


cdef int optimal_unsplit_choice(Engine self) noexcept nogil:
    """The choice on the current composition as an unsplit hand, doubling as after a
    split (CDZ-'s pick for a split hand).  Kept in the unsplit hand's memo row: every
    split context with these cards, and the walk that queues their dealer shoes,
    asks for it."""
    cdef int saved_pair = self.hand.pair_rank, saved_extra = self.hand.extra, a, row
    cdef int double_ok = self.rules.double_after_split and self.may_double()
    self.hand.pair_rank = 0
    self.hand.extra = 0
    row = lookup(self)
    a = self.value_store[row].split_choice
    if a < 0:
        a = best_option_at(self, row, double_ok)
        self.value_store[row].split_choice = a
    self.hand.pair_rank = saved_pair
    self.hand.extra = saved_extra
    return a


cdef int strategy_choice(Engine self, int row) noexcept nogil:
    """The option an optimal strategy's post-split class picks for the current hand
    in its context, whose memo row is ``row`` (not for user policies)."""
    cdef int a, double_ok, saved_extra
    if self.hand.pair_rank == 0:
        return best_option_at(self, row, self.may_double())
    double_ok = self.rules.double_after_split and self.may_double()
    if self.rules.split_class == SPLIT_CDZ:
        return optimal_unsplit_choice(self)
    if self.rules.split_class == SPLIT_CDP1 and self.hand.extra > 1:
        saved_extra = self.hand.extra
        self.hand.extra = 1   # the pick recorded with one extra pair card gone
        a = best_option(self, double_ok)
        self.hand.extra = saved_extra
        return a
    return best_option_at(self, row, double_ok)


cdef double continuation(Engine self) noexcept nogil:
    """Value of the option the strategy picks for the current hand (B of section 3).

    A hand is reached once per parent composition; its pick is kept in its memo row,
    so only the first visit compares options (for CDZ- a split hand's pick is that of
    the same cards unsplit: one look-up fewer on every later visit)."""
    cdef int a, row
    if self.hand.pair_rank == 1 and not self.rules.hit_split_aces:
        return get(self, ACT_STAND)   # split aces take one card and stand
    row = lookup(self)   # one look-up serves the choice and its value
    if self.rules.split_class == SPLIT_POLICY:
        a = policy_action(self, KIND_LATER if self.hand.pair_rank == 0 else KIND_SPLIT)
        return value_at(self, row, a)
    a = self.value_store[row].choice
    if a < 0:
        a = strategy_choice(self, row)
        self.value_store[row].choice = a
    return value_at(self, row, a)
