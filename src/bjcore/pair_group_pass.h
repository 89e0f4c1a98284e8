/* The trie pass behind _pair_dealer.PairDealer: one pass over a dealer trie that leaves
 * the cards of one rank P (the split pair's rank) and the shoe size out of the products,
 * and instead sorts each counted composition's probability into a bucket by (outcome,
 * cards of rank P drawn, cards drawn).  A split hand's shoes that differ only in how many
 * pair cards are gone then share one pass; each is finished by a short weighted sum over
 * the buckets (see _pair_dealer.pyx).
 *
 * Same layout and lane conventions as trie_pass.h: tables of stride BJ_STRIDE (the
 * largest batch), lanes padded to 4, 8, 16 or BJ_STRIDE.  No FMA, so each lane's
 * arithmetic is the same IEEE operations whatever the instruction set.
 */
#ifndef BJSOLVE_PAIR_GROUP_PASS_H
#define BJSOLVE_PAIR_GROUP_PASS_H

#include <stdint.h>
#include "trie_pass.h"

template <int LANES>
static BJ_ALWAYS_INLINE void bj_pair_group_walk(
        const bj_trie_node* nd, const int16_t* bucket, int n, const double* factor,
        const unsigned char* any_left, double* prod, double* acc) {
    int i = 1;
    while (i < n) {
        const int skip = nd[i].skip;
        if (!any_left[nd[i].factor]) {
            i = skip;   /* no such card left in any shoe: the subtree is impossible */
            continue;
        }
        const int d = nd[i].depth;
        const double m = nd[i].mult;
        const double* pf = factor + nd[i].factor * BJ_STRIDE;
        const double* pp = prod + (d - 1) * BJ_STRIDE;
        if (skip == i + 1) {
            if (m != 0.0) {
                double* pa = acc + bucket[i] * BJ_STRIDE;
                for (int k = 0; k < LANES; k += 4) {
                    bj_v4 p = bj_load4(pp + k) * bj_load4(pf + k);
                    bj_store4(pa + k, bj_load4(pa + k) + m * p);
                }
            }
        } else {
            double* pd = prod + d * BJ_STRIDE;
            if (m != 0.0) {
                double* pa = acc + bucket[i] * BJ_STRIDE;
                for (int k = 0; k < LANES; k += 4) {
                    bj_v4 p = bj_load4(pp + k) * bj_load4(pf + k);
                    bj_store4(pd + k, p);
                    bj_store4(pa + k, bj_load4(pa + k) + m * p);
                }
            } else {
                for (int k = 0; k < LANES; k += 4)
                    bj_store4(pd + k, bj_load4(pp + k) * bj_load4(pf + k));
            }
        }
        ++i;
    }
}

/* Nodes 1..n-1 of a trie over `lanes` (up to BJ_STRIDE) shoes; acc[bucket * BJ_STRIDE + lane]. */
BJ_MULTIVERSION
static inline void bj_pair_group_pass(
        const bj_trie_node* nd, const int16_t* bucket, int n, const double* factor,
        const unsigned char* any_left, double* prod, double* acc, int lanes) {
    if (lanes <= 4)
        bj_pair_group_walk<4>(nd, bucket, n, factor, any_left, prod, acc);
    else if (lanes <= 8)
        bj_pair_group_walk<8>(nd, bucket, n, factor, any_left, prod, acc);
    else if (lanes <= 16)
        bj_pair_group_walk<16>(nd, bucket, n, factor, any_left, prod, acc);
    else
        bj_pair_group_walk<BJ_STRIDE>(nd, bucket, n, factor, any_left, prod, acc);
}

/* Move each lane's buckets out of the pass accumulators into its group's table and clear
 * the accumulators: out[k * stride + b] = acc[b * BJ_STRIDE + k] for lanes k < count and
 * buckets b < n_buckets, then acc[b * BJ_STRIDE + k] = 0 for k < count rounded up to 4.
 * Four buckets of four lanes are moved at a time, as a 4 x 4 transpose in registers.
 * Only copies: the values are unchanged, bit for bit. */
BJ_MULTIVERSION
static inline void bj_pair_group_unload(
        double* acc, int n_buckets, int count, double* out, size_t stride) {
    const bj_v4 zero = {0.0, 0.0, 0.0, 0.0};
    int b = 0;
    for (; b + 4 <= n_buckets; b += 4) {
        double* r = acc + (size_t)b * BJ_STRIDE;
        int k = 0;
        for (; k + 4 <= count; k += 4) {
            const bj_v4 r0 = bj_load4(r + k);
            const bj_v4 r1 = bj_load4(r + BJ_STRIDE + k);
            const bj_v4 r2 = bj_load4(r + 2 * BJ_STRIDE + k);
            const bj_v4 r3 = bj_load4(r + 3 * BJ_STRIDE + k);
            const bj_v4 t0 = BJ_SHUFFLE4(r0, r1, 0, 4, 2, 6);
            const bj_v4 t1 = BJ_SHUFFLE4(r0, r1, 1, 5, 3, 7);
            const bj_v4 t2 = BJ_SHUFFLE4(r2, r3, 0, 4, 2, 6);
            const bj_v4 t3 = BJ_SHUFFLE4(r2, r3, 1, 5, 3, 7);
            bj_store4(out + (size_t)k * stride + b, BJ_SHUFFLE4(t0, t2, 0, 1, 4, 5));
            bj_store4(out + (size_t)(k + 1) * stride + b, BJ_SHUFFLE4(t1, t3, 0, 1, 4, 5));
            bj_store4(out + (size_t)(k + 2) * stride + b, BJ_SHUFFLE4(t0, t2, 2, 3, 6, 7));
            bj_store4(out + (size_t)(k + 3) * stride + b, BJ_SHUFFLE4(t1, t3, 2, 3, 6, 7));
        }
        for (; k < count; ++k)
            for (int i = 0; i < 4; ++i)
                out[(size_t)k * stride + b + i] = r[i * BJ_STRIDE + k];
        for (int i = 0; i < 4; ++i)
            for (k = 0; k < count; k += 4)
                bj_store4(r + i * BJ_STRIDE + k, zero);
    }
    for (; b < n_buckets; ++b) {
        double* r = acc + (size_t)b * BJ_STRIDE;
        for (int k = 0; k < count; ++k)
            out[(size_t)k * stride + b] = r[k];
        for (int k = 0; k < count; k += 4)
            bj_store4(r + k, zero);
    }
}

/* One shoe's dealer outcomes (17..21, natural) from a group's table (the buckets of each
 * (pair cards drawn, cards drawn) pair q side by side, six outcomes each):
 * out[o] = sum over q, in order, of table[q * 6 + o] * (pair_part[pair_j[q]] *
 * size_part[pair_m[q]]).  The six sums run side by side in vector lanes; each is the
 * same IEEE operations in the same order as a scalar loop. */
BJ_MULTIVERSION
static inline void bj_pair_group_outcome(
        const double* table, int n_pairs, const int8_t* pair_j, const int8_t* pair_m,
        const double* pair_part, const double* size_part, double* out) {
    bj_v4 s03 = {0.0, 0.0, 0.0, 0.0};
    bj_v2 s45 = {0.0, 0.0};
    for (int q = 0; q < n_pairs; ++q) {
        const double w = pair_part[pair_j[q]] * size_part[pair_m[q]];
        const double* t = table + q * 6;
        s03 += bj_load4(t) * w;
        s45 += bj_load2(t + 4) * w;
    }
    bj_store4(out, s03);
    bj_store2(out + 4, s45);
}

#endif
