# cython: language_level=3
"""Exact second moments of a split that may make 3 or 4 hands, on a finite shoe.

The round law of such a split (``RoundLaws.split_dist``) combines its hands as independent
given the dealer's outcome: every hand's joint law with the dealer is exact (so is the
mean), but the hands also take cards from each other.  The second moment needs only pairs
of hands:

    E[(X_1 + ... + X_H)^2 ; t] = sum_i E[X_i^2 ; t] + sum_{i != k} E[X_i X_k ; t],

and every term is exact here (``t`` the dealer's outcome; a dealer natural in a game where
it takes one unit costs the round -1 whatever the hands).

Why two hands suffice.  The probability of a sequence of draws without replacement
depends only on the multiset drawn, so two consecutive blocks of draws that each stop by
a rule on their own cards (and on what was fixed before both) may be swapped without
changing their joint law.  A split hand's *second-card stage* (it draws until a card that
is not a pair card, or any card once the hands reached the limit; pair cards start new
hands) stops by a rule on its own cards and on the hand count; its *body* (the play after
two cards) by a rule on its own cards when the post-split play looks only at the hand's
cards (CDZ-, CDP1 -- one extra pair card gone, always --, a chart or callable; not CDP,
whose decisions depend on how many pair cards are gone).  So the round has the law of:
every second-card stage first, then the bodies in any order, then the dealer, and any
body may move after the dealer.  For one pair of hands (i, k) the other hands' bodies
drop out, and their second cards are unseen cards removed from the shoe: a free one
(drawn after the limit) changes no law; one known to be no pair card is removed by the
solver's recursion (``pm_removals`` of split_pair_moments.h, as X_{a,b}, N_{a,b} in
docs/algorithms.md "Splitting"):

    law(shoe less an unknown non-pair card) = (law(shoe) - g law(shoe less a pair card)) / (1 - g)

with g the chance that the unknown card is a pair card.  So the moments of a pair of hands
are needed only for a pair cards gone (a = 0 .. 2M - 4) and each hand's second card known
non-pair (N) or free (F): one exact two-hand pass per a (the tree of a split hand's play
and the dealer memo of ``RoundLaws``), each hand's reach with and without the pair card as
its second card.  The patterns of hands and their weights are the solver's (the removals
and the patterns: split_pair_moments.h, shared with the games' game_split_moments.h).

Threads: each split (dealer key, pair) is a ``SplitMomentJob`` with its own dealer memo
and a copy of the split tree, so jobs run on any thread in any order with the same
results; ``second_moments`` adds them in pair order (``distribution._kernel_laws`` runs
them longest first).
"""
from libc.stdint cimport uint64_t
from libc.string cimport memset, memcpy
from libcpp.unordered_map cimport unordered_map
from bjcore._alloc cimport vector, guard, guard_int
from cython.operator cimport dereference as deref

from bjcore._defs cimport (rank_unit, ACT_SPLIT, SPLIT_CDP, pair_draw_ratio,
                           unknown_pair_chance)
from bjcore._memo cimport HashIndex
from bjcore._distribution cimport (RoundLaws, D_RANKS, D_OUT, D_LAW, D_STATES, D_LATTICE,
                                   D_NATURAL_COL, D_CHUNK, ZERO_COL, NATURAL_T, T_STAND)

import numpy as np

cdef extern from "split_pair_moments.h" nogil:
    # the removal of the unseen non-pair cards and the patterns of hands, shared with the
    # games' construction (game_split_moments.h); its J has the layout of ``J`` below
    void pm_removals(double* J, int rows, int amax, const double* g)
    void pm_patterns(const double* J0, const double* J1, int first_apart, int rows, int M,
                     const double* w_below, const double* w_limit, double* p, double* m1,
                     double* m2)

# moments of a pair of hands (X1, X2) joint with the dealer's outcome t: D_OUT each
cdef enum:
    M_P = 0       # P(t)
    M_E1 = 1      # E[X1 ; t]
    M_S1 = 2      # E[X1^2 ; t]
    M_E2 = 3      # E[X2 ; t]
    M_S2 = 4      # E[X2^2 ; t]
    M_C = 5       # E[X1 X2 ; t]
    N_MOM = 6
    MOM = 42      # N_MOM * D_OUT
    # which hands' second cards are known non-pair (N) or free (F)
    C_NN = 0
    C_NF = 1      # the first hand N, the second F
    C_FF = 2
    N_COMBO = 3
    MAX_A = 5     # pair cards gone beyond the first two: 0 .. 2M - 4 <= 4
    # one second hand's results for its two kinds (F, N), each (P, E, S) x D_OUT
    H2 = 42


cdef void reach_without_pair_root(RoundLaws laws, int p, vector[double]& out) noexcept nogil:
    """The chance of reaching every node of the split tree when the hand's second card is
    not a pair card (unnormalised: the root's pair-card child is cut), from the next-card
    chances of the last ``tree_pass``."""
    cdef size_t n = laws.t_key.size()
    cdef size_t i
    cdef int r, c
    cdef double x, pr
    out.assign(n, 0.0)
    out[0] = 1.0
    for i in range(n):
        x = out[i]
        if x == 0.0 or laws.t_kind[i] >= T_STAND:
            continue
        for r in range(D_RANKS):
            if i == 0 and r == p:
                continue
            c = laws.t_child[i * D_RANKS + r]
            pr = laws.t_pi[i * D_RANKS + r]
            if c >= 0 and pr > 0.0:
                out[c] += x * pr


cdef class _PairPass:
    """One exact two-hand pass per number of extra pair cards gone (see the module doc).

    As ``RoundLaws.tree_split``: the dealer's law is needed only at the root of a hand's
    tree, its leaves and the double nodes some card busts (``t_need``); the busts of hit
    nodes are the root's law less every listed ending (every ending of a hand together
    has the root's law: taking unseen cards out changes no law).  With the second card
    known non-pair, the endings together have the root's law less the share of the pair
    card as second card: D(root) - pi_P D(root + P).  Dealer laws are queued
    (``queue_dealer``) for D_CHUNK second hands at a time and enumerated D_TRIE_BATCH
    shoes to a trie pass."""
    cdef RoundLaws laws
    cdef int pair, p
    cdef unordered_map[uint64_t, int] second_index   # cards gone -> row of second_store
    cdef vector[double] second_store                  # H2 per row
    cdef bint ran_out
    cdef bint need_n          # the second hand with a non-pair second card is needed (NN)
    # the second hands being evaluated (one chunk): their slots and what each needs
    cdef vector[int] s_row, s_state     # sized ahead for D_CHUNK second hands
    cdef vector[double] s_wf, s_wn
    cdef size_t n_slots                 # slots listed in this chunk
    cdef vector[size_t] e_first, e_last
    cdef vector[int] e_store, e_root, e_pp
    cdef vector[double] e_pi_pp
    # the tree's paths (``count_paths``): a second hand's chances in closed form
    cdef vector[double] paths, paths_n  # per node: draw orders reaching it (all; second
                                        # card not a pair card)
    cdef vector[int] drawn              # per node: cards drawn after the pair card
    cdef vector[double] chance          # per node: the chance of one draw order (one pass)
    cdef vector[int] parent, via, prior # per node: one parent, the rank drawn from it and
                                        # the parent's cards of that rank (root's excluded)
    cdef int root_cnt[D_RANKS]
    cdef int most_drawn, most_drawn_draw   # most cards drawn at any node / any draw node

    def __cinit__(self, RoundLaws laws):
        self.laws = laws
        self.pair = 0
        self.p = -1
        self.ran_out = False
        self.need_n = True

    cdef void count_paths(self) noexcept nogil:
        """Per node of the split tree: the draw orders that reach it from the root (all of
        them, and those whose first card -- the hand's second -- is not the pair card),
        the number of cards it drew and one parent to build one order's chance along.  A
        sequence of draws without replacement has a chance that depends only on the
        multiset drawn, so from any shoe the chance of reaching a node is its draw orders
        times that one chance (``queue_second``): no pass over the tree per second hand."""
        cdef size_t n = self.laws.t_key.size()
        cdef size_t i
        cdef int r, c, k
        self.paths.assign(n, 0.0)
        self.paths_n.assign(n, 0.0)
        self.chance.assign(n, 0.0)
        self.parent.assign(n, -1)
        self.via.assign(n, 0)
        self.prior.assign(n, 0)
        self.drawn.assign(n, 0)
        self.most_drawn = 0
        self.most_drawn_draw = 0
        for r in range(D_RANKS):
            self.root_cnt[r] = <int>self.laws.t_cnt[r]
        self.paths[0] = 1.0
        for i in range(n):                    # parents come before their children
            for r in range(D_RANKS):
                k = <int>self.laws.t_cnt[i * D_RANKS + r] - self.root_cnt[r]
                if k > 0:
                    self.drawn[i] += k
            if self.drawn[i] > self.most_drawn:
                self.most_drawn = self.drawn[i]
            if self.laws.t_kind[i] >= T_STAND:
                continue
            if self.drawn[i] > self.most_drawn_draw:
                self.most_drawn_draw = self.drawn[i]
            for r in range(D_RANKS):
                c = self.laws.t_child[i * D_RANKS + r]
                if c < 0:
                    continue
                if self.parent[c] < 0:
                    self.parent[c] = <int>i
                    self.via[c] = r
                    self.prior[c] = <int>self.laws.t_cnt[i * D_RANKS + r] - self.root_cnt[r]
                self.paths[c] += self.paths[i]
                if i > 0:
                    self.paths_n[c] += self.paths_n[i]
                elif r != self.p:
                    self.paths_n[c] += 1.0
        # room for a chunk's slots (a hand pass lists at most t_slot_max)
        n = D_CHUNK * self.laws.t_slot_max
        self.s_row.resize(n)
        self.s_state.resize(n)
        self.s_wf.resize(n)
        self.s_wn.resize(n)
        self.n_slots = 0

    cdef void queue_second(self, uint64_t gone) noexcept nogil:
        """Play the second hand from the shoe less ``gone`` (the first hand's cards, its
        pair card and the extra pair cards), queue the dealer laws its endings need and
        list its slots; the results are formed by ``finish_chunk``.

        The chance of reaching node c is paths[c] times the chance of one draw order
        (the tree pass's sum over the draw orders in closed form, ``count_paths``); the
        one order's chance is built along one parent per node."""
        cdef double base[D_RANKS]
        cdef double avail[D_RANKS]
        cdef double inv_left[32]               # 1 / (cards left after j drawn)
        cdef size_t i, n = self.laws.t_key.size()
        cdef size_t k, m = self.laws.t_need.size()
        cdef int r, c, ch, j, row, pp_row = -1, root_row
        cdef double rf, wn, pr, chance, left = 0.0, left_c, pi_pp = 0.0
        cdef const double* cnt
        cdef int store = <int>(self.second_store.size() // H2)
        cdef size_t at = self.n_slots
        cdef int* s_row = self.s_row.data()
        cdef int* s_state = self.s_state.data()
        cdef double* s_wf = self.s_wf.data()
        cdef double* s_wn = self.s_wn.data()
        for r in range(H2):
            self.second_store.push_back(0.0)
        self.second_index[gone] = store
        for r in range(D_RANKS):
            base[r] = (self.laws.shoe[r] - self.laws.dealer_cnt[r]
                       - <int>((gone >> (5 * r)) & 31))
            avail[r] = base[r] - self.root_cnt[r]
            if avail[r] < 0.0:
                avail[r] = 0.0
            left += avail[r]
        for j in range(self.most_drawn + 1):
            inv_left[j] = 1.0 / (left - j) if left - j > 0.0 else 0.0
        if left <= self.most_drawn_draw:
            # a draw node may meet an empty shoe (no real game): the tree pass tells
            self.laws.tree_ran_out = False
            self.laws.tree_pass(self.pair, base, 0, False)
            if self.laws.tree_ran_out:
                self.ran_out = True
        # the chance of one draw order reaching each node (parents come first)
        self.chance[0] = 1.0
        for i in range(1, n):
            c = self.parent[i]
            chance = avail[self.via[i]] - self.prior[i]
            self.chance[i] = (self.chance[c] * chance * inv_left[self.drawn[c]]
                              if chance > 0.0 else 0.0)
        # every ending the results need: its chance, its dealer law queued
        for k in range(m):
            c = self.laws.t_need[k]
            chance = self.chance[c]
            self.laws.t_reach[c] = chance * self.paths[c]
            if chance != 0.0:
                # most of these laws are stored already (the same cards out from another
                # pair of endings): look first, queue only the new ones
                row = self.laws.dealer_index.find(self.laws.t_key[c] + gone)
                if row < 0:
                    row = self.laws.queue_dealer(self.laws.t_key[c] + gone, base,
                                                 self.laws.t_key[c])
                self.laws.t_drow[c] = row
        root_row = self.laws.t_drow[0]
        ch = self.laws.t_child[self.p]                 # the root's pair-card child
        if self.need_n and self.laws.t_hit_busts and ch >= 0 and avail[self.p] > 0.0:
            pi_pp = avail[self.p] / left
            pp_row = self.laws.queue_dealer(self.laws.t_key[ch] + gone, base,
                                            self.laws.t_key[ch])
        self.e_first.push_back(at)
        for k in range(1, m):
            c = self.laws.t_need[k]
            rf = self.laws.t_reach[c]
            if rf == 0.0:
                continue
            # the same chance times the draw orders whose first card is no pair card
            wn = self.chance[c] * self.paths_n[c] if self.need_n else 0.0
            s_row[at] = self.laws.t_drow[c]
            s_wf[at] = rf
            s_wn[at] = wn
            if self.laws.t_kind[c] >= T_STAND:
                s_state[at] = self.laws.t_state[c]
                at += 1
                continue
            s_state[at] = 7                            # a double node some card busts
            at += 1
            cnt = &self.laws.t_cnt[c * D_RANKS]
            left_c = left - self.drawn[c]
            for r in range(D_RANKS):
                ch = self.laws.t_child[c * D_RANKS + r]
                if ch < 0:
                    continue
                pr = avail[r] - (cnt[r] - self.root_cnt[r])
                if pr > 0.0:
                    pr /= left_c
                    s_row[at] = self.laws.t_drow[ch]
                    s_wf[at] = -rf * pr
                    s_wn[at] = -wn * pr
                    s_state[at] = 7
                    at += 1
        self.n_slots = at
        self.e_last.push_back(at)
        self.e_store.push_back(store)
        self.e_root.push_back(root_row)
        self.e_pp.push_back(pp_row)
        self.e_pi_pp.push_back(pi_pp)

    cdef void finish_chunk(self) noexcept nogil:
        """Enumerate the queued dealer laws and form every listed second hand's results:
        [0:21] second card free, [21:42] known non-pair: P(t), E[X ; t], E[X^2 ; t].
        The slots are summed per final state first (the payoff is a function of the
        state and t), then weighted by the payoffs."""
        cdef double acc[2 * D_LAW]                 # per (F or N, state j, t)
        cdef size_t e, s
        cdef int t, j, i
        cdef double x, a, rest, wf, wn
        cdef double* out
        cdef double* accf
        cdef double* accn
        cdef const double* d
        cdef const double* droot
        cdef const double* dpp
        self.laws.flush_dealer()
        for e in range(self.e_store.size()):
            out = &self.second_store[self.e_store[e] * H2]
            memset(acc, 0, sizeof(acc))
            for s in range(self.e_first[e], self.e_last[e]):
                d = &self.laws.dealer_store[self.s_row[s] * D_OUT]
                accf = &acc[self.s_state[s] * D_OUT]
                wf = self.s_wf[s]
                for t in range(D_OUT):
                    accf[t] += wf * d[t]
                if self.need_n:
                    accn = &acc[D_LAW + self.s_state[s] * D_OUT]
                    wn = self.s_wn[s]
                    for t in range(D_OUT):
                        accn[t] += wn * d[t]
            for i in range(2 if self.need_n else 1):
                for j in range(D_STATES):
                    accf = &acc[i * D_LAW + j * D_OUT]
                    for t in range(D_OUT):
                        a = accf[t]
                        if a == 0.0:
                            continue
                        x = self.laws.payoff[j * D_OUT + t]
                        out[i * 21 + t] += a
                        out[i * 21 + D_OUT + t] += a * x
                        out[i * 21 + 2 * D_OUT + t] += a * x * x
            if self.laws.t_hit_busts:
                # hit busts (one bet lost): the endings' total law less the listed ones
                droot = &self.laws.dealer_store[self.e_root[e] * D_OUT]
                for t in range(D_OUT):
                    rest = droot[t] - out[t]
                    out[t] += rest
                    out[D_OUT + t] -= rest
                    out[2 * D_OUT + t] += rest
                    if not self.need_n:
                        continue
                    rest = droot[t] - out[21 + t]
                    if self.e_pp[e] >= 0:
                        dpp = &self.laws.dealer_store[self.e_pp[e] * D_OUT]
                        rest -= self.e_pi_pp[e] * dpp[t]
                    out[21 + t] += rest
                    out[21 + D_OUT + t] -= rest
                    out[21 + 2 * D_OUT + t] += rest
        self.n_slots = 0
        self.e_first.clear()
        self.e_last.clear()
        self.e_store.clear()
        self.e_root.clear()
        self.e_pp.clear()
        self.e_pi_pp.clear()

    cdef const double* results(self, uint64_t gone) noexcept nogil:
        return &self.second_store[deref(self.second_index.find(gone)).second * H2]

    cdef void level(self, int a, double* J) noexcept nogil:
        """J[combo * MOM + mom * D_OUT + t]: the unnormalised moments of a pair of split
        hands with ``a`` extra pair cards gone, for the combos NN, NF, FF."""
        cdef double base[D_RANKS]
        cdef double rest_f[H2]
        cdef double rest_n[H2]
        cdef vector[double] reach_f, reach_n1, pi1
        cdef vector[uint64_t] evals
        cdef uint64_t extra = <uint64_t>a * rank_unit(self.p)
        cdef size_t i, k, m = self.laws.t_need.size()
        cdef int r, c, ch, j1, queued
        cdef double pr, wf, wn
        cdef const double* q
        memset(J, 0, N_COMBO * MOM * sizeof(double))
        for r in range(D_RANKS):
            base[r] = self.laws.shoe[r] - self.laws.dealer_cnt[r]
        base[self.p] -= 1 + a                          # the other hand's and the extra pair cards
        self.laws.tree_ran_out = False
        self.laws.tree_pass(self.pair, base, 0, False)
        if self.laws.tree_ran_out:
            self.ran_out = True
        reach_f = self.laws.t_reach
        pi1 = self.laws.t_pi
        reach_without_pair_root(self.laws, self.p, reach_n1)
        # the first hand's endings the second hand is needed at (and its root, and the
        # root's pair-card child for the busts with a non-pair second card)
        for k in range(m):
            c = self.laws.t_need[k]
            if reach_f[c] != 0.0:
                evals.push_back(self.laws.t_key[c] + extra)
        ch = self.laws.t_child[self.p]
        if self.laws.t_hit_busts and ch >= 0 and pi1[self.p] > 0.0:
            evals.push_back(self.laws.t_key[ch] + extra)
        self.laws.flush_dealer()
        queued = 0
        for i in range(evals.size()):
            if self.second_index.find(evals[i]) != self.second_index.end():
                continue
            self.queue_second(evals[i])
            queued += 1
            if queued == D_CHUNK:
                self.finish_chunk()
                queued = 0
        self.finish_chunk()
        # the first hand's endings against the second hand's results
        memset(rest_f, 0, sizeof(rest_f))
        memset(rest_n, 0, sizeof(rest_n))
        for k in range(1, m):
            c = self.laws.t_need[k]
            wf = reach_f[c]
            if wf == 0.0:
                continue
            wn = reach_n1[c]
            q = self.results(self.laws.t_key[c] + extra)
            j1 = self.laws.t_state[c] if self.laws.t_kind[c] >= T_STAND else 7
            self.add_ending(J, wf, wn, j1, q, rest_f, rest_n)
            if self.laws.t_kind[c] >= T_STAND:
                continue
            for r in range(D_RANKS):                   # a double node's busts
                ch = self.laws.t_child[c * D_RANKS + r]
                pr = pi1[c * D_RANKS + r]
                if ch >= 0 and pr > 0.0:
                    q = self.results(self.laws.t_key[ch] + extra)
                    self.add_ending(J, -wf * pr, -wn * pr, 7, q, rest_f, rest_n)
        if self.laws.t_hit_busts:
            # the first hand's hit busts: the second hand's results with the first hand
            # unknown (its root) less every listed ending; with a non-pair second card,
            # less the pair card's share too
            q = self.results(self.laws.t_key[0] + extra)
            for k in range(H2):
                rest_f[k] = q[k] - rest_f[k]
                rest_n[k] = q[k] - rest_n[k]
            ch = self.laws.t_child[self.p]
            if ch >= 0 and pi1[self.p] > 0.0:
                q = self.results(self.laws.t_key[ch] + extra)
                for k in range(H2):
                    rest_n[k] -= pi1[self.p] * q[k]
            self.accumulate(J + C_NN * MOM, 1.0, 0, rest_n + 21)
            self.accumulate(J + C_NF * MOM, 1.0, 0, rest_n)
            self.accumulate(J + C_FF * MOM, 1.0, 0, rest_f)

    cdef void add_ending(self, double* J, double wf, double wn, int j1, const double* q,
                         double* sum_f, double* sum_n) noexcept nogil:
        cdef int k
        self.accumulate(J + C_NN * MOM, wn, j1, q + 21)
        self.accumulate(J + C_NF * MOM, wn, j1, q)
        self.accumulate(J + C_FF * MOM, wf, j1, q)
        for k in range(H2):
            sum_f[k] += wf * q[k]
            sum_n[k] += wn * q[k]

    cdef void accumulate(self, double* J, double w1, int j1, const double* h2) noexcept nogil:
        cdef int t
        cdef double x1, p2, e2
        if w1 == 0.0:
            return
        for t in range(D_OUT):
            x1 = self.laws.payoff[j1 * D_OUT + t]
            p2 = w1 * h2[t]
            e2 = w1 * h2[D_OUT + t]
            J[M_P * D_OUT + t] += p2
            J[M_E1 * D_OUT + t] += x1 * p2
            J[M_S1 * D_OUT + t] += x1 * x1 * p2
            J[M_E2 * D_OUT + t] += e2
            J[M_S2 * D_OUT + t] += w1 * h2[2 * D_OUT + t]
            J[M_C * D_OUT + t] += x1 * e2


cdef bint split_moments(RoundLaws laws, _PairPass pp, int pair, double* p_t, double* m1,
                        double* m2) noexcept nogil:
    """p_t[t], m1[t] = E[S ; t], m2[t] = E[S^2 ; t] of the round's net S when ``pair`` is
    split (finite shoe, any limit M >= 2), exactly, with ``laws``' split tree already
    built for ``pair``; False if a pass drew from an empty shoe (no real game: the numbers
    are then not exact)."""
    cdef int M = laws.hands_limit(pair)
    cdef int p = pair - 1
    cdef int amax = 2 * M - 4
    cdef int a, b, c, h, k, t, i, combo
    cdef int n_known[3]
    cdef double J[N_COMBO * MAX_A * MAX_A * MOM]   # [combo][a][b][MOM], normalised
    cdef double raw[N_COMBO * MOM]
    cdef double gtab[N_COMBO * MAX_A * MAX_A]
    cdef double w_below[4]
    cdef double w_limit[4]
    cdef double m, n, q, mass, dealt = 0.0
    n_known[0] = 2
    n_known[1] = 1
    n_known[2] = 0
    for i in range(D_RANKS):
        dealt += laws.dealer_cnt[i]
    m = laws.shoe[p] - 2 - laws.dealer_cnt[p]
    n = laws.shoe_size - 2 - dealt
    q = n - m
    memset(J, 0, sizeof(J))
    pp.pair = pair
    pp.p = p
    pp.ran_out = False
    pp.second_index.clear()
    pp.second_store.clear()
    pp.count_paths()
    for a in range(amax + 1):
        if m - a < 0:
            continue
        # the NN pairs are needed at a <= 2M - 6 only; levels run upwards, so results
        # memoised without the non-pair second card are never asked for it
        pp.need_n = a <= 2 * M - 6
        pp.level(a, raw)
        # normalise by P(the constraints on the two hands' second cards)
        for combo in range(N_COMBO):
            if combo == C_NN:
                mass = q * (q - 1) / ((n - a) * (n - a - 1)) if n - a > 1 else 0.0
            elif combo == C_NF:
                mass = q / (n - a) if n - a > 0 else 0.0
            else:
                mass = 1.0
            for i in range(MOM):
                J[((combo * MAX_A + a) * MAX_A + 0) * MOM + i] = (
                    raw[combo * MOM + i] / mass if mass > 0.0 else 0.0)
    # other hands' second cards known non-pair: the removal recursion, entry by entry
    for combo in range(N_COMBO):
        for b in range(1, amax + 1):
            for a in range(amax + 1 - b):
                gtab[(combo * MAX_A + a) * MAX_A + b] = unknown_pair_chance(
                    laws.infinite, m, n + 1 - n_known[combo], a, b, 0.0)
    pm_removals(J, D_OUT, amax, gtab)
    for t in range(D_OUT):
        p_t[t] = 0.0
        m1[t] = 0.0
        m2[t] = 0.0
    # the patterns of hands (the solver's): exactly h < M hands, all second cards
    # non-pair; or the limit M, k hands completed (non-pair second card) before it was
    # reached, the other M - k hands' second cards free
    for h in range(4):
        w_below[h] = 0.0
        w_limit[h] = 0.0
    for h in range(2, M):
        w_below[h] = (1.0 if h == 2 else 2.0) * pair_draw_ratio(laws.infinite, m, q, n,
                                                                h - 2, h, 0.0)
    for k in range(M - 1):
        w_limit[k] = (2.0 if (M == 4 and k >= 1) else 1.0) * pair_draw_ratio(
            laws.infinite, m, q, n, M - 2, k, 0.0)
    pm_patterns(J, J, 0, D_OUT, M, w_below, w_limit, p_t, m1, m2)
    if not laws.rules.natural_takes_all:
        # a dealer natural takes one unit from the round, whatever the hands
        m1[NATURAL_T] = -p_t[NATURAL_T]
        m2[NATURAL_T] = p_t[NATURAL_T]
    laws.tree_ran_out = False
    return not pp.ran_out


cdef inline double column_value(int k, double payout) noexcept nogil:
    return payout if k == D_NATURAL_COL else 0.5 * (k - ZERO_COL)


# ---- one split's moments as a job any thread may run --------------------------------------

cdef RoundLaws tree_worker(RoundLaws src):
    """A ``RoundLaws`` that can compute one split's moments on its own thread: ``src``'s
    shoe, rules, payoffs and dealer trie (read only; a trie pass keeps its scratch on the
    stack, so threads may share it) and the split tree ``src.split_tree`` just built;
    its own dealer memo and tree scratch, so that its results are the same whatever ran
    before or beside it."""
    cdef RoundLaws w = RoundLaws.__new__(RoundLaws)
    w.trie = src.trie
    w.rules = src.rules
    memcpy(w.shoe, src.shoe, sizeof(w.shoe))
    memcpy(w.dealer_cnt, src.dealer_cnt, sizeof(w.dealer_cnt))
    memcpy(w.payoff, src.payoff, sizeof(w.payoff))
    w.shoe_size = src.shoe_size
    w.infinite = src.infinite
    w.fractional = src.fractional
    w.hole_rank = src.hole_rank
    w.dealer_key = src.dealer_key
    w.dealer_index = HashIndex()
    w.law_index = HashIndex()        # (unused, but ``forget`` clears it: a MemoryError in
                                     # ``SplitMomentJob.run`` forgets the worker)
    w.policy = src.policy            # the decisions, shared read-only
    w.policy_shared = True
    w.pend_count = 0
    w.tree_ran_out = False
    guard(copy_tree(w, src))
    w.clear_hand()
    return w


cdef void copy_tree(RoundLaws w, RoundLaws src) noexcept nogil:
    """``tree_worker``'s copy of the split tree, and its own scratch (the copies
    allocate: called under a guard)."""
    w.t_key = src.t_key
    w.t_kind = src.t_kind
    w.t_state = src.t_state
    w.t_busts = src.t_busts
    w.t_child = src.t_child
    w.t_need = src.t_need
    w.t_need_pos = src.t_need_pos
    w.t_hit_busts = src.t_hit_busts
    w.t_cnt = src.t_cnt
    w.t_slot_max = src.t_slot_max
    w.t_reach.assign(src.t_key.size(), 0.0)
    w.t_pi.assign(src.t_key.size() * D_RANKS, 0.0)
    w.t_drow.assign(src.t_key.size(), -1)


cdef class SplitMomentJob:
    """The exact moments of one split (one dealer key, one pair): built on the thread
    that owns the key's ``RoundLaws`` (the split tree takes the strategy's decisions from
    it), then ``run`` on any thread (the GIL released), in any order: the results do not
    depend on the thread or on the other jobs."""
    cdef RoundLaws worker
    cdef readonly int pair
    cdef readonly double cost          # a work estimate (longest jobs are started first)
    cdef readonly bint done
    cdef bint ok
    cdef double p_t[D_OUT]
    cdef double m1[D_OUT]
    cdef double m2[D_OUT]

    def __cinit__(self, RoundLaws laws not None, int pair):
        cdef size_t ends
        laws.need_decisions()
        try:
            guard(laws.split_tree(pair))
        except MemoryError:
            laws.forget()
            raise
        self.worker = tree_worker(laws)
        self.pair = pair
        ends = laws.t_need.size()
        # every level of extra pair cards plays a second hand per ending of the first
        self.cost = <double>ends * ends * (2 * laws.hands_limit(pair) - 3)
        self.done = False
        self.ok = False

    def run(self):
        """Compute the moments (once; later calls do nothing)."""
        cdef _PairPass pp
        if self.done:
            return
        pp = _PairPass(self.worker)
        try:
            with nogil:
                self.ok = guard_int(split_moments(self.worker, pp, self.pair, self.p_t,
                                                  self.m1, self.m2))
        except MemoryError:
            self.worker.forget()   # (not done: run may be called again)
            raise
        self.worker = None              # its dealer memo is no longer needed
        self.done = True

    def result(self):
        """(p[t], E[S ; t], E[S^2 ; t], ok) after ``run``."""
        if not self.done:
            raise RuntimeError("SplitMomentJob.result: run() first")
        return (np.array([self.p_t[t] for t in range(D_OUT)]),
                np.array([self.m1[t] for t in range(D_OUT)]),
                np.array([self.m2[t] for t in range(D_OUT)]), bool(self.ok))


def split_moment_law(RoundLaws laws, int pair):
    """(p[t], E[S ; t], E[S^2 ; t], ok) of the round's net S when ``pair`` is split, by
    the exact pair-of-hands construction (for testing; finite shoe).  ok is False when
    a pass met a draw from an empty shoe."""
    if laws.infinite:
        raise ValueError("split_moment_law: finite shoes only (the infinite shoe's law is exact)")
    if not 1 <= pair <= 10 or laws.hands_limit(pair) < 2:
        raise ValueError(f"pair cannot be split here: {pair!r}")
    job = SplitMomentJob(laws, pair)
    job.run()
    return job.result()


def split_moment_jobs(RoundLaws laws):
    """(jobs, exact): one ``SplitMomentJob`` per split that may make 3-4 hands and that
    the strategy plays against this dealer key, in pair order, after
    ``laws.outcome_law()``; exact is False when a split's second moment cannot be made
    exact (CDP with resplits, a fractional shoe).  Run every job, then
    ``second_moments``."""
    cdef double n[D_RANKS]
    cdef int c, action
    cdef bint exact = True
    jobs = []
    if laws.infinite:
        return jobs, exact
    laws.need_decisions()
    for c in range(D_RANKS):
        n[c] = laws.shoe[c] - laws.dealer_cnt[c]
    for c in range(D_RANKS):
        if n[c] < 2.0 or laws.hands_limit(c + 1) < 2 or laws.exact_done[c]:
            continue
        laws.clear_hand()
        laws.add(c)
        laws.add(c)
        try:
            action = guard_int(laws.start_action(c, c))
        except MemoryError:
            laws.forget()
            raise
        laws.clear_hand()
        if action != ACT_SPLIT:
            continue
        if laws.fractional or (laws.policy.split_context == 2 and laws.hands_limit(c + 1) > 2):
            exact = False
            continue
        jobs.append(SplitMomentJob(laws, c + 1))
    return jobs, exact


def second_moments(RoundLaws laws, jobs, bint exact):
    """(m2[t], exact): E[S^2 ; dealer outcome t] of one round's net S against this dealer
    key: the round law's own second moment, with every split of ``jobs`` (run, from
    ``split_moment_jobs``) replaced by its exact second moment; exact also False when a
    job's pass met a draw from an empty shoe.  The jobs are added in pair order, so the
    sum is the same whatever threads ran them."""
    cdef double m2[D_OUT]
    cdef double n[D_RANKS]
    cdef double left = 0.0, w, v, payout = laws.rules.blackjack_payout
    cdef const double* sp
    cdef SplitMomentJob job
    cdef int t, k, c
    for t in range(D_OUT):
        m2[t] = 0.0
        for k in range(D_LATTICE):
            v = column_value(k, payout)
            m2[t] += laws.round_out[t * D_LATTICE + k] * v * v
    for c in range(D_RANKS):
        n[c] = laws.shoe[c] - laws.dealer_cnt[c]
        left += n[c]
    for job in sorted(jobs, key=lambda j: j.pair):
        if not job.done:
            raise RuntimeError("second_moments: every job must have run")
        if not job.ok:
            exact = False
            continue
        c = job.pair - 1
        w = n[c] * (n[c] - 1) / (left * (left - 1))
        sp = &laws.split_out[c * D_OUT * D_LATTICE]
        for t in range(D_OUT):
            v = 0.0
            for k in range(D_LATTICE):
                v += sp[t * D_LATTICE + k] * column_value(k, payout) ** 2
            m2[t] += w * (job.m2[t] - v)
    return np.array([m2[t] for t in range(D_OUT)]), bool(exact)


def round_second_moments(RoundLaws laws):
    """(m2[t], exact): E[S^2 ; dealer outcome t] of one round's net S against this dealer
    key, after ``laws.outcome_law()``.  The round law's own second moment, with every
    split that may make 3-4 hands (combined as independent given t) replaced by its exact
    second moment.  exact is False when a split's second moment could not be made exact
    (CDP with resplits, a fractional shoe, a shoe that can run out).  One thread; to
    share the work between threads, run the jobs of ``split_moment_jobs`` (any thread,
    any order) and add them with ``second_moments``."""
    jobs, exact = split_moment_jobs(laws)
    for job in jobs:
        job.run()
    return second_moments(laws, jobs, exact)
