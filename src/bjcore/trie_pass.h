/* The inner loop of a dealer-trie pass (see DealerTrie.evaluate_many in _dealer.pyx).
 *
 * Written in C++ rather than Cython for one reason: on x86-64 with GCC and glibc the
 * function is compiled twice, for AVX2 and for the baseline instruction set, and the
 * loader picks the one the CPU supports (target_clones).  AVX2 handles four lanes per
 * instruction instead of two.  FMA is not enabled, so every lane's arithmetic is the
 * same IEEE operations in the same order either way: results are bit-identical.
 */
#ifndef BJSOLVE_TRIE_PASS_H
#define BJSOLVE_TRIE_PASS_H

#include <stdint.h>

/* One trie node; _dealer.pxd declares the same layout. */
typedef struct {
    double mult;      /* draw orders of this composition that end here (0: not counted) */
    int32_t skip;     /* index just past this node's subtree */
    int16_t factor;   /* row of the card-factor table: (rank, cards of it already drawn) */
    int8_t depth;     /* number of cards drawn */
    int8_t outcome;   /* 0..4 for 17..21, 5 natural, 6 not counted */
} bj_trie_node;

#define BJ_STRIDE 16  /* = MAX_BATCH: every per-lane table has this stride */

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__GLIBC__)
#define BJ_MULTIVERSION __attribute__((target_clones("avx2", "default")))
#else
#define BJ_MULTIVERSION
#endif

/* Four lanes as one value: GCC lowers each operation to one AVX2 instruction or to two
 * SSE2 ones, lane by lane, so the arithmetic per lane is fixed.  Unaligned, may alias
 * the double tables it is read from. */
typedef double bj_v4 __attribute__((vector_size(32), aligned(8), may_alias));

template <int LANES>
static inline __attribute__((always_inline)) void bj_trie_walk(
        const bj_trie_node* nd, int n, const double* factor, const unsigned char* any_left,
        const double* inv, double* prod, double* acc) {
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
        const double* pinv = inv + d * BJ_STRIDE;
        double* pa = acc + nd[i].outcome * BJ_STRIDE;
        if (skip == i + 1) {
            /* a leaf: always counted, nothing below needs its probability */
            for (int k = 0; k < LANES; k += 4) {
                bj_v4 p = *(const bj_v4*)(pp + k) * *(const bj_v4*)(pf + k)
                          * *(const bj_v4*)(pinv + k);
                *(bj_v4*)(pa + k) += m * p;
            }
        } else {
            double* pd = prod + d * BJ_STRIDE;
            for (int k = 0; k < LANES; k += 4) {
                bj_v4 p = *(const bj_v4*)(pp + k) * *(const bj_v4*)(pf + k)
                          * *(const bj_v4*)(pinv + k);
                *(bj_v4*)(pd + k) = p;
                *(bj_v4*)(pa + k) += m * p;
            }
        }
        ++i;
    }
}

/* Nodes 1..n-1 of a trie over `lanes` (4, 8 or 16) shoes: tables as in evaluate_many. */
BJ_MULTIVERSION
static __attribute__((unused)) void bj_trie_pass(const bj_trie_node* nd, int n, const double* factor,
                         const unsigned char* any_left, const double* inv, double* prod,
                         double* acc, int lanes) {
    if (lanes <= 4)
        bj_trie_walk<4>(nd, n, factor, any_left, inv, prod, acc);
    else if (lanes <= 8)
        bj_trie_walk<8>(nd, n, factor, any_left, inv, prod, acc);
    else
        bj_trie_walk<16>(nd, n, factor, any_left, inv, prod, acc);
}

#endif
