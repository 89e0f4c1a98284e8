/* The inner loop of a dealer-trie pass (see DealerTrie.evaluate_many in _dealer.pyx).
 *
 * Written in C++ rather than Cython for one reason: on x86-64 with GCC and glibc the
 * function is compiled twice, for AVX2 and for the baseline instruction set, and the
 * loader picks the one the CPU supports (target_clones).  AVX2 handles four lanes per
 * instruction instead of two.  FMA is not enabled, so every lane's arithmetic is the
 * same IEEE operations in the same order either way: results are bit-identical.  Clang
 * (from version 14, which has target_clones) does the same; other compilers build one
 * version, and one without GCC's vector types builds the scalar one of portable.h, with
 * the same values.
 *
 * The passes are `static inline`: a kernel module that includes this header without
 * calling them gets neither their code nor an unused-function warning (Clang refuses
 * target_clones together with the `unused` attribute, which did that before).
 */
#ifndef BJSOLVE_TRIE_PASS_H
#define BJSOLVE_TRIE_PASS_H

#include <stdint.h>
#include "portable.h"

/* One trie node; _dealer.pxd declares the same layout. */
typedef struct {
    double mult;      /* draw orders of this composition that end here (0: not counted) */
    int32_t skip;     /* index just past this node's subtree */
    int16_t factor;   /* row of the card-factor table: (rank, cards of it already drawn) */
    int8_t depth;     /* number of cards drawn */
    int8_t outcome;   /* 0..4 for 17..21, 5 natural, 6 not counted (mult 0) */
} bj_trie_node;

#define BJ_STRIDE 32  /* = MAX_BATCH: the pair-group pass's per-lane tables (pair_group_pass.h) */
#define BJ_TRIE_STRIDE 64  /* = TRIE_BATCH: every per-lane table of a trie pass has this stride */

/* What one node's pass does and where it reads and writes, in doubles from the start of
 * each table (factor row, outcome row of acc, the parent's row of prod, and the node's
 * depth row of inv and of prod), with its multiplicity and kind: worked out once per trie
 * (DealerTrie), not at every visit, and read as one 32-byte record. */
typedef struct {
    double mult;      /* as the node's */
    int32_t factor;
    int32_t outcome;
    int32_t parent;
    int32_t depth;
    int32_t kind;     /* BJ_LEAF, BJ_DRAW_ON or BJ_DRAW_AND_END */
    int32_t skip;     /* as the node's */
} bj_node_offsets;
#define BJ_LEAF 0          /* ends the draw, nothing below it: adds mult * p to its outcome */
#define BJ_DRAW_ON 1       /* the dealer draws on: only its children need p */
#define BJ_DRAW_AND_END 2  /* both: counted and with children */
/* Leaf groups (bj_group_leaves, once per trie): `kind` also says how many leaves after the
 * node the pass does together with it, kind >> BJ_LEAVES_SHIFT (0: none).  A node with
 * children takes its first children that are leaves; a leaf takes the sibling leaves
 * right after it, its kind then BJ_LEAF_RUN.  Such leaves share the row of p they
 * multiply (their parent's) and their 1 / (cards left), which are then read once for all
 * of them instead of once a leaf: the pass is bound by its table reads. */
#define BJ_LEAF_RUN 3      /* a leaf and the sibling leaves after it */
#define BJ_KIND_MASK 3
#define BJ_LEAVES_SHIFT 2
#define BJ_MAX_GROUP 6     /* leaves in one group, at most (a node has at most 6 counted
                            * leaf children, one per outcome: a longer run is split) */
#define BJ_NOT_COUNTED 6  /* = N_DEALER: the outcome of a node that ends no draw */

#if defined(__x86_64__) && defined(__GLIBC__) && \
    ((defined(__GNUC__) && !defined(__clang__)) || (defined(__clang__) && __clang_major__ >= 14))
#define BJ_MULTIVERSION __attribute__((target_clones("avx2", "default")))
#else
#define BJ_MULTIVERSION
#endif

/* Four lanes as one value (bj_v4, and its lane masks bj_m4, in portable.h): GCC lowers
 * each operation to one AVX2 instruction or to two SSE2 ones, lane by lane, so the
 * arithmetic per lane is fixed. */

/* Mark the leaf groups of a trie's nodes 1..n-1 (see BJ_LEAF_RUN): `off` as built, every
 * kind BJ_LEAF, BJ_DRAW_ON or BJ_DRAW_AND_END.  A node's children are one row deeper
 * (parent == its depth); siblings have the same depth.  Grouping changes no value: each
 * lane's operations and their order are those of the node-by-node pass. */
static inline void bj_group_leaves(bj_node_offsets* off, int n) {
    int i = 1;
    while (i < n) {
        int j = i + 1;
        if (off[i].kind == BJ_LEAF) {
            while (j < n && j - i < BJ_MAX_GROUP && off[j].kind == BJ_LEAF
                   && off[j].depth == off[i].depth)
                ++j;
            if (j - i >= 2)
                off[i].kind = BJ_LEAF_RUN | ((j - i - 1) << BJ_LEAVES_SHIFT);
        } else {
            while (j < n && j - i <= BJ_MAX_GROUP && off[j].kind == BJ_LEAF
                   && off[j].parent == off[i].depth)
                ++j;
            off[i].kind |= (j - i - 1) << BJ_LEAVES_SHIFT;
        }
        i = j;
    }
}

/* Lanes done at once in a leaf group: two vectors, whose p and 1 / (cards left) stay in
 * registers across the group's leaves. */
#define BJ_GROUP_LANES 8

/* A node of kind HEAD (BJ_DRAW_ON or BJ_DRAW_AND_END) and its M first children, leaves
 * o[1..M]; or, HEAD = BJ_LEAF_RUN, the M sibling leaves o[0..M-1].  The same IEEE
 * operations per lane as node by node: p = p(parent) * factor * 1 / (cards left), and a
 * counted node adds mult * p to its outcome (in the nodes' order: leaves follow their
 * parent, siblings in order). */
template <int LANES, int HEAD, int M>
static BJ_ALWAYS_INLINE void bj_trie_group(
        const bj_node_offsets* o, const double* factor, const double* inv, double* prod,
        double* acc) {
    enum { G = LANES < BJ_GROUP_LANES ? LANES : BJ_GROUP_LANES, V = G / 4 };
    const bj_node_offsets* leaf = HEAD == BJ_LEAF_RUN ? o : o + 1;
    const double* pp = prod + o[0].parent;
    const double* head_f = factor + o[0].factor;
    const double* head_inv = inv + o[0].depth;
    double* head_p = prod + o[0].depth;
    double* head_acc = acc + o[0].outcome;
    const double head_m = o[0].mult;
    const double* leaf_inv = inv + leaf[0].depth;
    double m[M];
    const double* f[M];
    double* a[M];
    for (int j = 0; j < M; ++j) {
        m[j] = leaf[j].mult;
        f[j] = factor + leaf[j].factor;
        a[j] = acc + leaf[j].outcome;
    }
    for (int g = 0; g < LANES; g += G) {
        bj_v4 p[V], q[V];   /* the leaves' parent's p, and their 1 / (cards left) */
        for (int t = 0; t < V; ++t) {
            const int k = g + 4 * t;
            if (HEAD == BJ_LEAF_RUN) {
                p[t] = bj_load4(pp + k);
            } else {
                p[t] = bj_load4(pp + k) * bj_load4(head_f + k) * bj_load4(head_inv + k);
                bj_store4(head_p + k, p[t]);   /* (its later children read it) */
                if (HEAD == BJ_DRAW_AND_END)
                    bj_store4(head_acc + k, bj_load4(head_acc + k) + head_m * p[t]);
            }
            q[t] = bj_load4(leaf_inv + k);
        }
        for (int j = 0; j < M; ++j)
            for (int t = 0; t < V; ++t) {
                const int k = g + 4 * t;
                bj_store4(a[j] + k, bj_load4(a[j] + k) + m[j] * (p[t] * bj_load4(f[j] + k) * q[t]));
            }
    }
}

template <int LANES, int HEAD>
static BJ_ALWAYS_INLINE void bj_trie_group_of(
        int leaves, const bj_node_offsets* o, const double* factor, const double* inv,
        double* prod, double* acc) {
    switch (leaves) {
    case 1: bj_trie_group<LANES, HEAD, 1>(o, factor, inv, prod, acc); break;
    case 2: bj_trie_group<LANES, HEAD, 2>(o, factor, inv, prod, acc); break;
    case 3: bj_trie_group<LANES, HEAD, 3>(o, factor, inv, prod, acc); break;
    case 4: bj_trie_group<LANES, HEAD, 4>(o, factor, inv, prod, acc); break;
    case 5: bj_trie_group<LANES, HEAD, 5>(o, factor, inv, prod, acc); break;
    default: bj_trie_group<LANES, HEAD, BJ_MAX_GROUP>(o, factor, inv, prod, acc); break;
    }
}

/* CHECK_LEFT: whether some card-factor row is 0 in every lane (see any_left below);
 * when none is, as in every batch of a full 2-8 deck shoe, the walk need not test each
 * node.  (A leaf group's leaves are not tested: a leaf whose factor is 0 in every lane
 * adds +0 to its outcome, which changes nothing.) */
template <int LANES, bool CHECK_LEFT>
static BJ_ALWAYS_INLINE void bj_trie_walk(
        const bj_trie_node* nd, const bj_node_offsets* off, int n, const double* factor,
        const unsigned char* any_left, const double* inv, double* prod, double* acc) {
    int i = 1;
    while (i < n) {
        const int kind = off[i].kind & BJ_KIND_MASK;
        const int leaves = off[i].kind >> BJ_LEAVES_SHIFT;
        if (CHECK_LEFT && kind != BJ_LEAF_RUN && !any_left[nd[i].factor]) {
            i = off[i].skip;   /* no such card left in any shoe: the subtree is impossible */
            continue;
        }
        if (leaves) {
            if (kind == BJ_LEAF_RUN) {
                bj_trie_group_of<LANES, BJ_LEAF_RUN>(leaves + 1, off + i, factor, inv, prod, acc);
                i += leaves + 1;
            } else {
                if (kind == BJ_DRAW_ON)
                    bj_trie_group_of<LANES, BJ_DRAW_ON>(leaves, off + i, factor, inv, prod, acc);
                else
                    bj_trie_group_of<LANES, BJ_DRAW_AND_END>(leaves, off + i, factor, inv, prod, acc);
                i += leaves + 1;
            }
            continue;
        }
        const bj_node_offsets o = off[i];
        const double m = o.mult;
        const double* pf = factor + o.factor;
        const double* pp = prod + o.parent;
        const double* pinv = inv + o.depth;
        double* pa = acc + o.outcome;
        if (kind == BJ_LEAF) {
            /* a leaf: always counted, nothing below needs its probability */
            for (int k = 0; k < LANES; k += 4) {
                bj_v4 p = bj_load4(pp + k) * bj_load4(pf + k)
                          * bj_load4(pinv + k);
                bj_store4(pa + k, bj_load4(pa + k) + m * p);
            }
        } else if (kind == BJ_DRAW_ON) {
            /* the dealer draws on (a quarter of the nodes): only its children need its
             * probability, and nothing is added to any outcome */
            double* pd = prod + o.depth;
            for (int k = 0; k < LANES; k += 4)
                bj_store4(pd + k, bj_load4(pp + k) * bj_load4(pf + k)
                                  * bj_load4(pinv + k));
        } else {
            double* pd = prod + o.depth;
            for (int k = 0; k < LANES; k += 4) {
                bj_v4 p = bj_load4(pp + k) * bj_load4(pf + k)
                          * bj_load4(pinv + k);
                bj_store4(pd + k, p);
                bj_store4(pa + k, bj_load4(pa + k) + m * p);
            }
        }
        ++i;
    }
}

template <int LANES>
static BJ_ALWAYS_INLINE void bj_trie_walk_lanes(
        const bj_trie_node* nd, const bj_node_offsets* off, int n, const double* factor,
        const unsigned char* any_left, const double* inv, double* prod, double* acc,
        int check_left) {
    if (check_left)
        bj_trie_walk<LANES, true>(nd, off, n, factor, any_left, inv, prod, acc);
    else
        bj_trie_walk<LANES, false>(nd, off, n, factor, any_left, inv, prod, acc);
}

/* Nodes 1..n-1 of a trie over `lanes` (4, 8, 16, 32 or 64) shoes: tables as in evaluate_many.
 * check_left: some row of `any_left` read by a node is 0 (skipping a subtree whose
 * factors are 0 in every lane only saves work: its products are 0 and add +0). */
BJ_MULTIVERSION
static inline void bj_trie_pass(const bj_trie_node* nd, const bj_node_offsets* off,
                         int n, const double* factor,
                         const unsigned char* any_left, const double* inv, double* prod,
                         double* acc, int lanes, int check_left) {
    if (lanes <= 4)
        bj_trie_walk_lanes<4>(nd, off, n, factor, any_left, inv, prod, acc, check_left);
    else if (lanes <= 8)
        bj_trie_walk_lanes<8>(nd, off, n, factor, any_left, inv, prod, acc, check_left);
    else if (lanes <= 16)
        bj_trie_walk_lanes<16>(nd, off, n, factor, any_left, inv, prod, acc, check_left);
    else if (lanes <= 32)
        bj_trie_walk_lanes<32>(nd, off, n, factor, any_left, inv, prod, acc, check_left);
    else
        bj_trie_walk_lanes<64>(nd, off, n, factor, any_left, inv, prod, acc, check_left);
}

/* The per-lane tables a pass reads, for `count` shoes padded to LANES lanes (every row
 * BJ_TRIE_STRIDE doubles long):
 *   factor row i, lane k   cards of the row's rank left in shoe k before the draw
 *                          (weights less the row's prior draws; 0 when none, or padded);
 *   any_left[i]            whether row i is positive in some lane (else its subtrees are
 *                          skipped);
 *   inv row d, lane k      1 / (cards left) before the d-th card (0 when none are left, or
 *                          padded; 1 for an infinite shoe, padded or not); read from
 *                          `recip` (recip[x] = 1.0 / x, recip[0] = 0) when the caller
 *                          passes one, which it does only for whole-number totals within it.
 * The shoes come as weights[k * 10 + r] (transposed here), or with rank_major as
 * weights[r * BJ_TRIE_STRIDE + k] with lanes count..LANES-1 zero (DealerStore queues them
 * so, and the transpose is skipped).  Rows are filled lane-contiguous, so each loop is a few vector operations; every value
 * is the same IEEE expression as a lane-by-lane loop computes, in the same order. */
template <int LANES>
static BJ_ALWAYS_INLINE void bj_trie_tables_n(
        const double* weights, const double* totals, int count, int infinite,
        const int8_t* factor_rank, const int8_t* factor_prior, int n_factors, int max_depth,
        double* factor, unsigned char* any_left, double* inv, int rank_major,
        const double* recip) {
    double by_rank[10 * LANES];   /* weights transposed: rank-major, lanes contiguous */
    double total[LANES];
    const double* ranks = by_rank;
    int rank_stride = LANES;
    if (rank_major) {
        /* the caller laid the shoes out so already, padded with zeros to LANES lanes */
        ranks = weights;
        rank_stride = BJ_TRIE_STRIDE;
    } else {
        for (int k = 0; k < count; ++k)
            for (int r = 0; r < 10; ++r)
                by_rank[r * LANES + k] = weights[k * 10 + r];
        for (int k = count; k < LANES; ++k)
            for (int r = 0; r < 10; ++r)
                by_rank[r * LANES + k] = 0.0;
    }
    for (int k = 0; k < count; ++k)
        total[k] = totals[k];
    for (int k = count; k < LANES; ++k)
        total[k] = 0.0;
    const bj_v4 zero = {0.0, 0.0, 0.0, 0.0};
    for (int i = 0; i < n_factors; ++i) {
        const double* w = ranks + factor_rank[i] * rank_stride;
        const double p = infinite ? 0.0 : (double)factor_prior[i];
        const bj_v4 prior = {p, p, p, p};
        double* f = factor + i * BJ_TRIE_STRIDE;
        bj_m4 any = {0, 0, 0, 0};
        for (int k = 0; k < LANES; k += 4) {
            const bj_v4 v = bj_load4(w + k) - prior;
            const bj_m4 positive = v > zero;
            bj_store4(f + k, bj_select4(positive, v, zero));
            any |= positive;
        }
        any_left[i] = (any[0] | any[1] | any[2] | any[3]) != 0;
    }
    for (int d = 1; d <= max_depth; ++d) {
        double* row = inv + d * BJ_TRIE_STRIDE;
        if (infinite) {
            /* (padded lanes too: their products are 0 whatever they are multiplied by) */
            for (int k = 0; k < LANES; ++k)
                row[k] = 1.0;
            continue;
        }
        if (recip) {
            /* whole-number totals: 1.0 / left read from the caller's table of those
             * quotients (recip[x] = 1.0 / x, recip[0] = 0), the same bits */
            for (int k = 0; k < LANES; ++k) {
                const int left = (int)total[k] - d + 1;
                row[k] = recip[left > 0 ? left : 0];
            }
            continue;
        }
        for (int k = 0; k < LANES; ++k) {
            const double left = total[k] - d + 1;
            /* divide by a safe value where the result is not used: no branch, so the
             * loop vectorises, and the used lanes are the plain 1.0 / left (a padded
             * lane has no cards: left <= 0, and 0) */
            const double q = 1.0 / (left > 0 ? left : 1.0);
            row[k] = left > 0 ? q : 0.0;
        }
    }
}

BJ_MULTIVERSION
static inline void bj_trie_tables(
        const double* weights, const double* totals, int count, int infinite,
        const int8_t* factor_rank, const int8_t* factor_prior, int n_factors, int max_depth,
        double* factor, unsigned char* any_left, double* inv, int lanes, int rank_major,
        const double* recip) {
    if (lanes <= 4)
        bj_trie_tables_n<4>(weights, totals, count, infinite, factor_rank, factor_prior,
                            n_factors, max_depth, factor, any_left, inv, rank_major, recip);
    else if (lanes <= 8)
        bj_trie_tables_n<8>(weights, totals, count, infinite, factor_rank, factor_prior,
                            n_factors, max_depth, factor, any_left, inv, rank_major, recip);
    else if (lanes <= 16)
        bj_trie_tables_n<16>(weights, totals, count, infinite, factor_rank, factor_prior,
                             n_factors, max_depth, factor, any_left, inv, rank_major, recip);
    else if (lanes <= 32)
        bj_trie_tables_n<32>(weights, totals, count, infinite, factor_rank, factor_prior,
                             n_factors, max_depth, factor, any_left, inv, rank_major, recip);
    else
        bj_trie_tables_n<64>(weights, totals, count, infinite, factor_rank, factor_prior,
                             n_factors, max_depth, factor, any_left, inv, rank_major, recip);
}

#endif
