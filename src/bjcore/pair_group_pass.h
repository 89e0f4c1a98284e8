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

typedef double bj_pg_v4 __attribute__((vector_size(32), aligned(8), may_alias));

template <int LANES>
static inline __attribute__((always_inline)) void bj_pair_group_walk(
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
                    bj_pg_v4 p = *(const bj_pg_v4*)(pp + k) * *(const bj_pg_v4*)(pf + k);
                    *(bj_pg_v4*)(pa + k) += m * p;
                }
            }
        } else {
            double* pd = prod + d * BJ_STRIDE;
            if (m != 0.0) {
                double* pa = acc + bucket[i] * BJ_STRIDE;
                for (int k = 0; k < LANES; k += 4) {
                    bj_pg_v4 p = *(const bj_pg_v4*)(pp + k) * *(const bj_pg_v4*)(pf + k);
                    *(bj_pg_v4*)(pd + k) = p;
                    *(bj_pg_v4*)(pa + k) += m * p;
                }
            } else {
                for (int k = 0; k < LANES; k += 4)
                    *(bj_pg_v4*)(pd + k) = *(const bj_pg_v4*)(pp + k) * *(const bj_pg_v4*)(pf + k);
            }
        }
        ++i;
    }
}

/* Nodes 1..n-1 of a trie over `lanes` (up to BJ_STRIDE) shoes; acc[bucket * BJ_STRIDE + lane]. */
BJ_MULTIVERSION
static __attribute__((unused)) void bj_pair_group_pass(
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

#endif
