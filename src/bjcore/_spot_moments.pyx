# cython: language_level=3
"""The exact cross moment of two spots (two players' hands, or one player's two boxes)
played against the same dealer hand from a finite shoe.

For the total S = X_1 + ... + X_k of k spots, E[S^2] = k E[X^2] + k (k - 1) E[X_1 X_2]:
every spot plays by its own cards and the dealer's upcard only, so the law of a pair of
spots does not depend on a third one (its cards are unseen to them), and every pair has
the law of spots 1 and 2.  This module gives E[X_1 X_2 ; dealer outcome t] per dealer key.

Why it is a first moment.  The probability of a sequence of draws without replacement
depends only on the multiset drawn, so two consecutive blocks of draws that each stop by a
rule on their own cards can be swapped: the round has the law of spot 1's cards, then spot
2's, then the dealer's (hole card and draws; a dealer natural in the peek game is decided
by the hole card alone, so spots that "play on" virtually change nothing: their result
given a dealer natural does not depend on that play).  Given spot 1's cards C_1 and its
result y_1(t) against each dealer outcome t,

    E[X_1 X_2 ; t] = sum over spot 1's plays of P(play) y_1(t) G_t(shoe - C_1),
    G_t(s) = E[X_2 ; t] for one spot and the dealer played from the shoe s.

That is spot 1's first moment (``RoundLaws.round_dist``) with the dealer's law D_t(s)
replaced by the vector G_t(s) at every leaf.  Every identity the kernel uses about dealer
laws holds for G as well, because both are expectations of a process that draws from s
and stops by a rule on its own cards: removing a card nobody sees changes neither
(sum_r p_r(s) G(s - r) = G(s); the busting cards' share, the removal recursions of the
split construction).  The split construction's hands are combined linearly here (the
mean of a combination is the sum of the hands' means; a dealer natural in the peek game
costs the spot one unit whatever its hands), so the pass is linear in G.  Everything after
RECORD is linear in the hands' laws too, so those passes keep each hand's law compact
(``RoundLaws.compact``: per dealer outcome, its value and its mass; 14 numbers, not 98).

Both spots play the decisions of the original shoe: the kernel's table of frozen
decisions (the value engine's, recorded from a solve of the original shoe or a chart's:
``RoundLaws``), which every pass reads as ``RoundLaws`` does -- the first (RECORD: spot 1
with the real dealer), the CROSS pass and every G evaluation (REPLAY, on a depleted
shoe).  The table is keyed by the hand's cards, not by the shoe, so a depleted shoe finds
the original's decisions; one the table lacks is counted in ``policy_misses`` and makes
the result not exact (it does not happen for whole-card shoes, where a depleted shoe
reaches a subset of the original's hands).

Not for CDP with resplits (its split value is a construction, not one playable strategy),
fractional shoes (no real shoe) or a shoe that may run out.
"""
from libc.stdint cimport uint64_t

from bjcore._distribution cimport (RoundLaws, D_RANKS, D_OUT, D_LATTICE, D_NATURAL_COL,
                                   D_STATES, D_BATCH, D_LAW)

import numpy as np

cdef int RECORD = 0, CROSS = 1, REPLAY = 2
cdef int ZERO_COL = 16        # lattice column of a net result of 0
cdef int ONE_COL = 18         # lattice column of a net result of +1
cdef int MINUS_ONE_COL = 14   # ... of -1


cdef inline double column_value(int k, double payout) noexcept nogil:
    if k == D_NATURAL_COL:
        return payout
    return 0.5 * (k - ZERO_COL)


cdef class SpotMoments(RoundLaws):
    """RoundLaws of one spot that also gives the exact cross moment of two spots
    (``cross_moments``); construct as ``RoundLaws`` (its splits: the solver's
    construction, the mean exact), set a chart's policy if any, then call
    ``cross_moments()`` once."""
    def __init__(self, shoe, dealer, dict rules, bint infinite=False):
        RoundLaws.__init__(self, shoe, dealer, rules, infinite, False)
        if infinite:
            raise ValueError("SpotMoments: the infinite shoe needs no cross moment "
                             "(the spots are independent given the dealer's outcome)")
        if self.fractional:
            raise ValueError("SpotMoments: a fractional shoe is no real shoe")
        self.mode = RECORD
        self.g_evaluations = 0
        self.offset = 0

    # ---- the modes ---------------------------------------------------------------------

    cdef void reset_memo(self) noexcept nogil:
        """Forget everything that depends on the shoe (hand laws, split laws; the dealer
        laws too, except when replaying: they are keyed by both spots' cards there); keep
        the decisions."""
        self.clear_shoe_laws(self.mode == REPLAY)

    cdef void forget(self) except *:
        """``RoundLaws.forget``, and back to where ``cross_moments`` starts (a MemoryError
        may have left it in a later pass): the first pass again, with the decisions
        recorded so far (each the one the original shoe makes)."""
        RoundLaws.forget(self)
        self.mode = RECORD
        self.compact = False
        self.law_len = D_LAW
        self.other = None
        self.g_evaluations = 0

    cdef uint64_t shared_key(self) noexcept nogil:
        return self.offset + self.removed_key()

    cdef const double* replay_dealer(self) noexcept nogil:
        """The dealer's law as ``RoundLaws.dealer``, memoised on both spots' cards."""
        cdef uint64_t key = self.shared_key()
        cdef double n[D_RANKS]
        cdef double out[6]
        cdef double left
        cdef int row = self.dealer_index.find(key)
        if row >= 0:
            return &self.dealer_store[row * D_OUT]
        left = self.cards_left(n, True)
        self.trie.evaluate(n, left, False, out)
        row = self.store_dealer(key, out)
        return &self.dealer_store[row * D_OUT]

    cdef void replay_prefetch(self) noexcept nogil:
        """As ``RoundLaws.prefetch_children``, memoised on both spots' cards."""
        cdef double n[D_RANKS]
        cdef double left
        left = self.cards_left(n, True)
        self.prefetch_from(n, left, self.shared_key())

    cdef const double* dealer(self) noexcept nogil:
        """CROSS: G_t (the other spot's mean joint with the dealer's outcome t) from the
        shoe left after the current hand, memoised on the cards out; otherwise the
        dealer's law."""
        cdef uint64_t key
        cdef double n[D_RANKS]
        cdef double g[D_OUT]
        cdef int r, row
        if self.mode == REPLAY:
            return self.replay_dealer()
        if self.mode != CROSS:
            return RoundLaws.dealer(self)
        key = self.removed_key()
        row = self.dealer_index.find(key)
        if row >= 0:
            return &self.dealer_store[row * D_OUT]
        # the upcard stays in: the other spot's kernel takes it out itself
        for r in range(D_RANKS):
            n[r] = self.shoe[r] - self.hand.cnt[r]
        if self.hand.pair_rank:
            n[self.hand.pair_rank - 1] -= self.hand.extra
        for r in range(D_RANKS):
            if n[r] < 0.0:
                n[r] = 0.0
        self.other.offset = key
        self.other.outcome_means(n, g)
        self.g_evaluations += 1
        row = <int>(self.dealer_store.size() // D_OUT)
        for r in range(D_OUT):
            self.dealer_store.push_back(g[r])
        self.dealer_index.set(key, row)
        return &self.dealer_store[row * D_OUT]

    cdef void prefetch_children(self) noexcept nogil:
        if self.mode == REPLAY:
            self.replay_prefetch()
        elif self.mode == RECORD:   # CROSS: G is computed on demand in dealer()
            RoundLaws.prefetch_children(self)

    cdef void combine_hands(self, double w, const double* law_n, int count_n,
                            const double* law_x, int count_x, double* out,
                            double* natural) noexcept nogil:
        """CROSS and REPLAY: the hands' laws are compact (value and mass per dealer
        outcome t, ``RoundLaws.compact``); only the mean of the combination is needed and
        it is linear: the sum of the hands' values given t, put on the +1 column (a dealer
        natural in the peek game: -1 times the mass, as the round law has it).  ``natural``
        serves fractional shoes only, which SpotMoments refuses."""
        cdef const double* law
        cdef double m
        cdef int t
        if not self.compact:
            RoundLaws.combine_hands(self, w, law_n, count_n, law_x, count_x, out, natural)
            return
        for t in range(D_OUT):
            if t == 5 and not self.rules.natural_takes_all:
                law = law_n if count_n > 0 else law_x
                out[t * D_LATTICE + MINUS_ONE_COL] += w * law[D_OUT + t]
                continue
            m = 0.0
            if count_n > 0:
                m += count_n * law_n[t]
            if count_x > 0:
                m += count_x * law_x[t]
            out[t * D_LATTICE + ONE_COL] += w * m

    cdef void outcome_means(self, const double* n, double* g) noexcept nogil:
        """REPLAY: g[t] = E[X ; t] of one spot played from the shoe n (the dealer's
        cards included), with the recorded decisions."""
        cdef int r, t, k
        cdef double payout = self.rules.blackjack_payout
        self.shoe_size = 0.0
        for r in range(D_RANKS):
            self.shoe[r] = n[r]
            self.shoe_size += n[r]
        self.reset_memo()
        self.round_dist()
        for t in range(D_OUT):
            g[t] = 0.0
            for k in range(D_LATTICE):
                g[t] += self.round_out[t * D_LATTICE + k] * column_value(k, payout)

    # ---- Python edge -----------------------------------------------------------------

    def cross_moments(self):
        """(c, first, exact): c[t] = E[X_1 X_2 ; dealer outcome t] for two spots against
        this dealer key; first = the one-spot law ``out[t, k]`` (as ``outcome_law``);
        exact False when the table lacked a decision a depleted shoe needed."""
        cdef SpotMoments other
        cdef double payout = self.rules.blackjack_payout
        cdef int t, k
        if self.mode != RECORD:
            raise RuntimeError("cross_moments runs once per SpotMoments")
        self.guarded_round_dist()
        first = np.empty((D_OUT, D_LATTICE))
        for t in range(D_OUT):
            for k in range(D_LATTICE):
                first[t, k] = self.round_out[t * D_LATTICE + k]
        other = SpotMoments(self.shoe_arg, self.dealer_key, self.rules_arg)
        other.policy = self.policy     # shared (neither writes to it)
        other.policy_shared = True
        other.mode = REPLAY
        other.compact = True      # the passes after RECORD need means only (see combine_hands)
        other.law_len = 2 * D_OUT
        self.other = other
        self.reset_memo()
        self.mode = CROSS
        self.compact = True
        self.law_len = 2 * D_OUT
        self.guarded_round_dist()     # (out of memory: back to the first pass, see forget)
        cross = np.zeros(D_OUT)
        for t in range(D_OUT):
            for k in range(D_LATTICE):
                cross[t] += self.round_out[t * D_LATTICE + k] * column_value(k, payout)
        misses = self.policy_missing + other.policy_missing
        return cross, first, misses == 0
