# cython: language_level=3
# distutils: language = c++
"""Splitting a pair (sections 6.1-6.7 of the conventions): the building blocks X_a, Y_a
(split hands valued with ``a`` extra pair cards known to be gone), the removal
recursions that take out pair cards of unknown position, and the assembly over the
number of hands.  The split hands themselves are valued by ``_hands.HandEngine`` in the
split contexts; which choices they make is the post-split class (CDZ-, CDP1, CDP).
"""
from libc.math cimport NAN, isnan

from bjcore._defs cimport *
from bjcore._hands cimport HandEngine


cdef class SplitEngine(HandEngine):
    """Adds the split expectation of each pair to ``HandEngine`` (cached per pair)."""

    def __cinit__(self, *args, **kwargs):
        cdef int r
        for r in range(N_RANKS):
            self.split_cache[r] = NAN

    cdef int hands_limit(self, int pair) noexcept nogil:
        cdef int limit = self.rules.max_split_hands
        if pair == 1 and not self.rules.resplit_aces and limit > 2:
            limit = 2
        if not self.infinite and self.shoe[pair - 1] < limit:
            limit = <int>self.shoe[pair - 1]
        return limit

    cdef double pair_hand_value(self, int pair, int extra, int second) noexcept nogil:
        """V_extra(P + second): a split hand's value at its first decision."""
        cdef double v
        self.clear_hand()
        self.pair_rank = pair
        self.extra = extra
        self.add(pair - 1)
        self.add(second)
        v = self.continuation()
        self.clear_hand()
        return v

    cdef double split_value(self, int pair) noexcept nogil:
        """Unconditioned expectation of splitting the pair (all hands, all bets)."""
        cdef int M = self.hands_limit(pair)
        cdef int p = pair - 1, a, b, r, k, h, amax, hole
        cdef double X[MAX_A]
        cdef double Y[MAX_A]
        cdef double XT[MAX_A][MAX_A]
        cdef double NT[MAX_A][MAX_A]
        cdef double rho[N_RANKS]
        cdef double m, n, q, g, left, ev, w, beta_s, n2, m2, P2, P3, hands
        cdef double pp = 0.0
        if M < 2:
            return NAN
        if not isnan(self.split_cache[p]):
            return self.split_cache[p]
        amax = 2 * M - 4
        if not self.infinite and self.shoe[p] - 2 < amax:
            amax = <int>self.shoe[p] - 2
        # building blocks X_a, Y_a (6.4); an undefined block stays 0 and is only ever
        # multiplied by a zero weight
        for a in range(MAX_A):
            X[a] = 0.0
            Y[a] = 0.0
        self.extra_max = amax + 1   # contexts e = 1 .. amax + 1 are about to be valued
        self.clear_hand()
        self.pair_rank = pair
        self.add(p)
        self.prefetch_dealer(True)   # every two-card split hand P + r, every e
        self.clear_hand()
        for a in range(amax + 1):
            if self.infinite and a > 0:
                X[a] = X[0]
                Y[a] = Y[0]
                continue
            left = 0.0
            for r in range(N_RANKS):
                rho[r] = self.shoe[r]
            if not self.infinite:
                rho[p] -= a + 2
                for r in range(N_RANKS):
                    rho[r] -= self.dealer_cnt[r]
                if rho[p] < 0:
                    continue
                for r in range(N_RANKS):
                    left += rho[r]
                if left <= 0:
                    continue
                for r in range(N_RANKS):
                    rho[r] /= left
            for r in range(N_RANKS):
                if rho[r] > 0.0:
                    X[a] += rho[r] * self.pair_hand_value(pair, a + 1, r)
            if rho[p] > 0.0:
                Y[a] = self.pair_hand_value(pair, a + 1, p)
        self.extra_max = 0
        # removal recursions (6.5)
        if self.infinite:
            pp = self.shoe[p]
            m = 0.0
            n = 0.0
        else:
            m = self.shoe[p] - 2 - self.dealer_cnt[p]
            n = self.shoe_size - 2 - self.dealer_n
        q = n - m
        for a in range(MAX_A):
            for b in range(MAX_A):
                XT[a][b] = 0.0
                NT[a][b] = 0.0
        for a in range(2 * M - 3):
            XT[a][0] = X[a]
            g = self.gamma(m, n, a, 0, pp if self.infinite else 0.0)
            NT[a][0] = self.remove_unknown(X[a], Y[a], g)
        for b in range(1, 2 * M - 3):
            for a in range(2 * M - 3 - b):
                g = self.gamma(m, n + 1, a, b, pp if self.infinite else 0.0)
                XT[a][b] = self.remove_unknown(XT[a][b - 1], XT[a + 1][b - 1], g)
                g = self.gamma(m, n, a, b, pp if self.infinite else 0.0)
                NT[a][b] = self.remove_unknown(NT[a][b - 1], NT[a + 1][b - 1], g)
        # assembly over the number of hands (6.6)
        ev = 0.0
        for h in range(2, M):
            w = (1.0 if h == 2 else 2.0) * self.draw_ratio(m, q, n, h - 2, h, pp)
            if w != 0.0:
                ev += h * w * NT[h - 2][h - 1]
        for k in range(M - 1):
            w = (2.0 if (M == 4 and k >= 1) else 1.0) * self.draw_ratio(m, q, n, M - 2, k, pp)
            if w != 0.0:
                ev += w * ((k * NT[M - 2][k - 1] if k > 0 else 0.0) + (M - k) * XT[M - 2][k])
        # one unit in total, not one per hand, is lost to a dealer natural (kappa);
        # under ENHC every split bet is lost, as the hand values already charge
        hole = self.hole_rank
        if hole >= 0 and not self.rules.natural_takes_all:
            if self.infinite:
                beta_s = self.shoe[hole]
                P2 = (1.0 - pp) * (1.0 - pp)
                P3 = 2.0 * pp * (1.0 - pp) ** 3
            else:
                for r in range(N_RANKS):
                    rho[r] = self.shoe[r] - self.dealer_cnt[r]
                rho[p] -= 2
                left = 0.0
                for r in range(N_RANKS):
                    left += rho[r]
                beta_s = rho[hole] / left if (left > 0 and rho[hole] > 0) else 0.0
                n2 = left - 1
                m2 = rho[p] - (1 if hole == p else 0)
                P2 = falling(n2 - m2, 2) / falling(n2, 2) if n2 >= 2 else 1.0
                P3 = 2.0 * m2 * falling(n2 - m2, 3) / falling(n2, 4) if n2 >= 4 else 0.0
            if beta_s > 0.0:
                if M == 2:
                    hands = 2.0
                elif M == 3:
                    hands = 2.0 * P2 + 3.0 * (1.0 - P2)
                else:
                    hands = 2.0 * P2 + 3.0 * P3 + 4.0 * (1.0 - P2 - P3)
                ev += (hands - 1.0) * beta_s
        self.split_cache[p] = ev
        return ev

    cdef double gamma(self, double m, double n, int a, int b, double pp) noexcept nogil:
        """Chance that one more unknown gone card is a pair card (6.5)."""
        cdef double denom
        if self.infinite:
            return pp
        if m - a <= 0.0:
            return 0.0
        denom = n - a - b
        if denom <= 0.0:
            return 1.0
        return (m - a) / denom

    cdef double remove_unknown(self, double whole, double pair_part, double g) noexcept nogil:
        """Solve whole = g * pair_part + (1 - g) * rest for rest."""
        if g >= 1.0:
            return 0.0
        if g == 0.0:
            return whole
        return (whole - g * pair_part) / (1.0 - g)

    cdef double draw_ratio(self, double m, double q, double n, int j, int k,
                                  double pp) noexcept nogil:
        """m^(j) q^(k) / n^(j+k): j pair cards then k others, in a given order."""
        cdef double num
        if self.infinite:
            return pp ** j * (1.0 - pp) ** k
        num = falling(m, j) * falling(q, k)
        if num == 0.0:
            return 0.0
        return num / falling(n, j + k)
