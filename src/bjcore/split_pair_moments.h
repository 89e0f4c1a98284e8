/* The exact second moment of a split that may make 3 or 4 hands, from pairs of hands:
 * the part that does not depend on the game (docs/risk.md, "The exact variance of
 * resplits").  Shared by the classic outcome kernel (_split_moments.pyx) and the games'
 * (game_split_moments.h), which each compute the pair tables their own way.
 *
 *     E[(X_1 + ... + X_H)^2 ; t] = sum_i E[X_i^2 ; t] + sum_{i != k} E[X_i X_k ; t]
 *
 * The pair tables.  J[combo][a][b][mom][t]: the moments (mom: P(t), E[X1 ; t],
 * E[X1^2 ; t], E[X2 ; t], E[X2^2 ; t], E[X1 X2 ; t]) of a pair of split hands with a extra
 * pair cards gone and b other hands' second cards gone unseen, each known to be no pair
 * card; combo: which of the two hands' own second cards are known non-pair (NN, NF: the
 * first, FF: neither, "free": drawn after the hand limit, any card).  The caller fills
 * b = 0 (one exact two-hand pass per a, normalised by the chance of the constraint);
 * pm_removals takes the unseen cards out by the removal identity, entry by entry:
 *
 *     law(shoe less an unknown non-pair card) = (law(shoe) - g law(shoe less a pair card)) / (1 - g)
 *
 * g the chance that the unknown card is a pair card (the caller's table: it depends on
 * the shoe, or the infinite shoe's pair chance).
 *
 * The patterns of hands (as the solver weighs them): exactly h < M hands, every second
 * card non-pair; or the limit M reached with k hands completed (a non-pair second card)
 * before it, the other M - k hands' second cards free.  w_below[h], w_limit[k]: their
 * weights (the caller's draw ratios).  Where every hand has the same stake (first_apart
 * false) the hands are exchangeable and one table serves every pair.  In a free split
 * (first_apart) the first hand holds the player's stake and the others are free: J0 holds
 * the pairs (first hand, another), J1 the pairs of two others.  The first hand is the
 * first to draw its second card, so it is one of the k completed hands when k >= 1, and
 * a free one (no pair card seen) when k = 0.
 */
#ifndef BJSOLVE_SPLIT_PAIR_MOMENTS_H
#define BJSOLVE_SPLIT_PAIR_MOMENTS_H

#include <stddef.h>

enum { PM_P = 0, PM_E1 = 1, PM_S1 = 2, PM_E2 = 3, PM_S2 = 4, PM_C = 5, PM_N_MOM = 6 };
enum { PM_NN = 0, PM_NF = 1, PM_FF = 2, PM_N_COMBO = 3 };
enum { PM_MAX_A = 5 };   // extra pair cards gone: 0 .. 2M - 4 <= 4

/* the offset of J[combo][a][b] (rows: dealer outcomes per moment) */
static inline size_t pm_at(int rows, int combo, int a, int b) {
    return (((size_t)combo * PM_MAX_A + a) * PM_MAX_A + b) * PM_N_MOM * rows;
}

/* solve whole = g pair_part + (1 - g) rest for rest (one removal step) */
static inline double pm_remove_unknown(double whole, double pair_part, double g) {
    if (g >= 1.0) return 0.0;
    if (g == 0.0) return whole;
    return (whole - g * pair_part) / (1.0 - g);
}

/* J[combo][a][b] for b >= 1 from b - 1: g[(combo * PM_MAX_A + a) * PM_MAX_A + b] */
static inline void pm_removals(double* J, int rows, int amax, const double* g) {
    int n = PM_N_MOM * rows;
    for (int combo = 0; combo < PM_N_COMBO; ++combo)
        for (int b = 1; b <= amax; ++b)
            for (int a = 0; a <= amax - b; ++a) {
                double gab = g[(combo * PM_MAX_A + a) * PM_MAX_A + b];
                double* out = J + pm_at(rows, combo, a, b);
                const double* whole = J + pm_at(rows, combo, a, b - 1);
                const double* pair_part = J + pm_at(rows, combo, a + 1, b - 1);
                for (int i = 0; i < n; ++i) out[i] = pm_remove_unknown(whole[i], pair_part[i], gab);
            }
}

/* p[t], m1[t] = E[S ; t], m2[t] = E[S^2 ; t] of the split's hands' total S (added to
 * what the arrays hold), from the pair tables J0 (and J1 when first_apart) */
static inline void pm_patterns(const double* J0, const double* J1, int first_apart, int rows,
                               int M, const double* w_below, const double* w_limit,
                               double* p, double* m1, double* m2) {
    int a = M - 2;
    for (int h = 2; h < M; ++h) {
        double w = w_below[h];
        if (w == 0.0) continue;
        const double* nn = J0 + pm_at(rows, PM_NN, h - 2, h - 2);
        if (!first_apart) {
            for (int t = 0; t < rows; ++t) {
                p[t] += w * nn[PM_P * rows + t];
                m1[t] += w * h * nn[PM_E1 * rows + t];
                m2[t] += w * (h * nn[PM_S1 * rows + t] + h * (h - 1) * nn[PM_C * rows + t]);
            }
            continue;
        }
        // the first hand and h - 1 others, every one completed
        const double* nn1 = J1 + pm_at(rows, PM_NN, h - 2, h - 2);
        int o = h - 1;
        for (int t = 0; t < rows; ++t) {
            p[t] += w * nn[PM_P * rows + t];
            m1[t] += w * (nn[PM_E1 * rows + t] + o * nn[PM_E2 * rows + t]);
            m2[t] += w * (nn[PM_S1 * rows + t] + o * nn[PM_S2 * rows + t]
                          + 2 * o * nn[PM_C * rows + t] + o * (o - 1) * nn1[PM_C * rows + t]);
        }
    }
    for (int k = 0; k < M - 1; ++k) {
        double w = w_limit[k];
        if (w == 0.0) continue;
        if (!first_apart) {
            const double* ff = J0 + pm_at(rows, PM_FF, a, k);
            for (int t = 0; t < rows; ++t) {
                p[t] += w * ff[PM_P * rows + t];
                m1[t] += w * (M - k) * ff[PM_E1 * rows + t];
                m2[t] += w * ((M - k) * ff[PM_S1 * rows + t]
                              + (M - k) * (M - k - 1) * ff[PM_C * rows + t]);
            }
            if (k >= 1) {
                const double* nf = J0 + pm_at(rows, PM_NF, a, k - 1);
                for (int t = 0; t < rows; ++t) {
                    m1[t] += w * k * nf[PM_E1 * rows + t];
                    m2[t] += w * (k * nf[PM_S1 * rows + t] + 2 * k * (M - k) * nf[PM_C * rows + t]);
                }
            }
            if (k >= 2) {
                const double* nn = J0 + pm_at(rows, PM_NN, a, k - 2);
                for (int t = 0; t < rows; ++t) m2[t] += w * k * (k - 1) * nn[PM_C * rows + t];
            }
            continue;
        }
        const double* ff1 = J1 + pm_at(rows, PM_FF, a, k);
        if (k == 0) {
            // every hand free, the first among them
            const double* ff0 = J0 + pm_at(rows, PM_FF, a, 0);
            int o = M - 1;
            for (int t = 0; t < rows; ++t) {
                p[t] += w * ff1[PM_P * rows + t];
                m1[t] += w * (ff0[PM_E1 * rows + t] + o * ff0[PM_E2 * rows + t]);
                m2[t] += w * (ff0[PM_S1 * rows + t] + o * ff0[PM_S2 * rows + t]
                              + 2 * o * ff0[PM_C * rows + t] + o * (o - 1) * ff1[PM_C * rows + t]);
            }
            continue;
        }
        // the first hand completed, k - 1 others completed, x = M - k others free
        int c = k - 1, x = M - k;
        const double* nf0 = J0 + pm_at(rows, PM_NF, a, k - 1);
        const double* nf1 = J1 + pm_at(rows, PM_NF, a, k - 1);
        const double* nn0 = k >= 2 ? J0 + pm_at(rows, PM_NN, a, k - 2) : nullptr;
        const double* nn1 = k >= 2 ? J1 + pm_at(rows, PM_NN, a, k - 2) : nullptr;
        for (int t = 0; t < rows; ++t) {
            p[t] += w * ff1[PM_P * rows + t];
            m1[t] += w * (nf0[PM_E1 * rows + t] + c * nf1[PM_E1 * rows + t]
                          + x * ff1[PM_E1 * rows + t]);
            double s = nf0[PM_S1 * rows + t] + c * nf1[PM_S1 * rows + t]
                       + x * ff1[PM_S1 * rows + t] + 2 * x * nf0[PM_C * rows + t]
                       + 2 * c * x * nf1[PM_C * rows + t] + x * (x - 1) * ff1[PM_C * rows + t];
            if (k >= 2)
                s += 2 * c * nn0[PM_C * rows + t] + c * (c - 1) * nn1[PM_C * rows + t];
            m2[t] += w * s;
        }
    }
}

#endif
