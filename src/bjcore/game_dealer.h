/* The dealer's draws for the game walk (game_walk.h): his final outcome law, with a
 * final 22 kept apart from the other busts, for any shoe, by one pass over the multisets
 * of cards he may draw (docs/algorithms.md, "The game walk").
 */
#ifndef BJSOLVE_GAME_DEALER_H
#define BJSOLVE_GAME_DEALER_H

#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include <unordered_map>

#include "portable.h"
#include <vector>

/* no-alias pointers (the lanes' loops vectorize when the compiler knows the rows apart) */
#if defined(_MSC_VER)
#define BJ_GAME_RESTRICT __restrict
#else
#define BJ_GAME_RESTRICT __restrict__
#endif

namespace bjgame {

enum { N_RANKS = 10 };
/* dealer outcomes: final 17..21, natural, exactly 22, over 22 */
enum { D_NATURAL = 5, D_22 = 6, D_OVER = 7, N_OUT = 8 };
static const int COUNT_BITS = 5;   // packed compositions: 5 bits per rank count

static inline uint64_t rank_unit(int r) { return (uint64_t)1 << (COUNT_BITS * r); }

/* A law as the engines keep it: its over-22 bust the complement of the other outcomes, as
 * the classic engine counts it (every law the walks store goes through here) */
static inline void over_as_complement(double* law) {
    double listed = 0.0;
    for (int j = 0; j < D_OVER; ++j) listed += law[j];
    law[D_OVER] = 1.0 - listed;
}

/* One dealer key's draws: built once (``build``), then a law per shoe (``law``). */
class DealerDraws {
  public:
    int dealer_cards[2] = {0, 0};
    int dealer_n = 0;
    int hole_rank = -1;
    int hit_soft_17 = 0;
    bool infinite = false;

    /* The nodes depend on the dealer key alone (his known cards, the hole rank, H17; not
     * the shoe): built once a process and copied to every engine of the key after (a
     * solve builds an engine per key; the ten upcards' trees took 1.3 ms to build, 3% of
     * a one-thread 6D Spanish 21 solve).  Engines are built on several threads: the
     * kept trees are locked. */
    void build(const int* cards, int n, int hole, int h17, bool inf) {
        dealer_cards[0] = cards[0];
        dealer_cards[1] = n == 2 ? cards[1] : 0;
        dealer_n = n;
        hole_rank = hole;
        hit_soft_17 = h17;
        infinite = inf;
        static std::mutex lock;
        static std::map<std::array<int, 5>, DealerDraws> built;
        const std::array<int, 5> key = {dealer_cards[0], dealer_cards[1], n, hole, h17};
        {
            std::lock_guard<std::mutex> hold(lock);
            auto it = built.find(key);
            if (it != built.end()) {
                *this = it->second;
                infinite = inf;
                return;
            }
        }
        build_nodes();
        std::lock_guard<std::mutex> hold(lock);
        built.emplace(key, *this);
    }

    /* ---- the dealer's draw compositions ----------------------------------------------
     * Every multiset of cards the dealer may draw after his known cards (hard total at
     * most 16 before the last card), in pre-order (cards added in non-decreasing rank),
     * each with how many of its orders are a legal
     * draw sequence that ends there (the dealer hits after every proper prefix, and no
     * hole card made a natural first).  The chance of one order is the product of
     * (n_r - k) / (left - K) over its cards, the same for every order of the multiset:
     * so a shoe's outcome law is one pass over the nodes, each multiplying its parent's
     * product by one factor (the classic engine's trie, with the dealer's 22 kept). */
    struct DealerNode {
        int8_t rank, prior, depth, outcome;   // outcome -1: the dealer draws on from here
        int32_t skip;                          // index past the node's subtree
        double orders;                         // legal orders ending here (0: none)
    };
    std::vector<DealerNode> dnodes;
    int dealer_depth = 0;                              // most cards drawn before a node's
    int max_prior[N_RANKS] = {0};                      // most cards of a rank drawn before one
    /* a node as the batched pass reads it: offsets (in doubles) into its tables, whose
     * rows are LAW_STRIDE lanes long, worked out once: its row of the step table (the
     * factor times 1 / (left - depth), one row per (factor, depth) some node has), its
     * parent's row of the products, its outcome's row (-1: none), and its kind */
    struct LawNode {
        double orders;
        int32_t step, depth, outcome, kind, skip;
        int32_t run;   // a leaf: the leaves from it on that are its siblings, itself included
    };
    /* LAW_LEAF: counted, with nothing below (its product is not kept); LAW_DRAW_ON: not
     * counted, the dealer draws on (only its children read its product); LAW_BOTH; and
     * LAW_NONE: neither (a draw whose every next card busts past 22): nothing to do */
    enum { LAW_LEAF = 0, LAW_DRAW_ON = 1, LAW_BOTH = 2, LAW_NONE = 3 };
    enum { LAW_STRIDE = 16 };
    std::vector<LawNode> law_nodes;
    std::vector<int32_t> step_factor, step_depth;   // each step row's factor and inv rows
    int factor_base[N_RANKS] = {0};                    // factor row of (rank, 0 before)
    std::unordered_map<uint64_t, double> hitting_orders;   // build-time memo

    void dealer_state(const int* k, int& t, bool& soft, int& hard_out) const {
        int h = 0, aces = 0;
        for (int i = 0; i < dealer_n; ++i) {
            h += dealer_cards[i];
            aces += dealer_cards[i] == 1;
        }
        for (int r = 0; r < N_RANKS; ++r) {
            h += k[r] * (r + 1);
            aces += r == 0 ? k[r] : 0;
        }
        soft = aces > 0 && h + 10 <= 21;
        t = soft ? h + 10 : h;
        hard_out = h;
    }
    /* whether the dealer draws again after the known cards and the drawn multiset k */
    bool dealer_hits(const int* k, int drawn) const {
        if (drawn == 1 && dealer_n == 1 && hole_rank >= 0 && k[hole_rank] == 1) return false;
        int t, h;
        bool soft;
        dealer_state(k, t, soft, h);
        if (h > 21) return false;
        return t < 17 || (t == 17 && soft && hit_soft_17);
    }
    /* orders of the multiset k in which the dealer hits after every prefix, k included */
    double hit_orders(int* k, int drawn, uint64_t key) {
        if (drawn == 0) return 1.0;
        if (!dealer_hits(k, drawn)) return 0.0;
        auto it = hitting_orders.find(key);
        if (it != hitting_orders.end()) return it->second;
        double v = 0.0;
        for (int r = 0; r < N_RANKS; ++r)
            if (k[r] > 0) {
                k[r]--;
                v += hit_orders(k, drawn - 1, key - rank_unit(r));
                k[r]++;
            }
        hitting_orders.emplace(key, v);
        return v;
    }
    void dealer_nodes_from(int* k, int drawn, uint64_t key, int lowest) {
        for (int r = lowest; r < N_RANKS; ++r) {
            k[r]++;
            DealerNode node;
            node.rank = (int8_t)r;
            node.prior = (int8_t)(k[r] - 1);
            node.depth = (int8_t)drawn;   // cards drawn before this one
            uint64_t child = key + rank_unit(r);
            bool hits = dealer_hits(k, drawn + 1);
            double orders = 0.0;
            if (!hits) {
                // legal orders: a prefix of drawn cards the dealer hits after, then the last
                for (int j = 0; j < N_RANKS; ++j)
                    if (k[j] > 0) {
                        k[j]--;
                        orders += hit_orders(k, drawn, child - rank_unit(j));
                        k[j]++;
                    }
            }
            int t, h;
            bool soft;
            dealer_state(k, t, soft, h);
            int outcome = -1;
            if (!hits) {
                if (drawn == 0 && dealer_n == 1 && hole_rank >= 0 && r == hole_rank)
                    outcome = D_NATURAL;
                else if (h > 22) outcome = D_OVER;
                else if (h == 22) outcome = D_22;
                else outcome = t - 17;
            }
            node.outcome = (int8_t)outcome;
            node.orders = orders;
            // a larger multiset may be drawn in an order that passes through this one as
            // a different prefix (upcard 6: A then 5 stops at soft 17, 5 then A draws on
            // from 12): grow every multiset whose hard total leaves the dealer a hit
            bool grow = h <= 16;
            size_t at = dnodes.size();
            bool keep = grow || (outcome != D_OVER && orders > 0.0);
            if (keep) {
                dnodes.push_back(node);
                if (grow) dealer_nodes_from(k, drawn + 1, child, r);
                dnodes[at].skip = (int32_t)dnodes.size();
            }
            k[r]--;
        }
    }
    void build_nodes() {
        int k[N_RANKS] = {0};
        dnodes.clear();
        hitting_orders.clear();
        dealer_nodes_from(k, 0, 0, 0);
        hitting_orders.clear();
        dealer_depth = 0;
        for (int r = 0; r < N_RANKS; ++r) max_prior[r] = 0;
        for (const DealerNode& nd : dnodes) {
            if (nd.depth > dealer_depth) dealer_depth = nd.depth;
            if (nd.prior > max_prior[nd.rank]) max_prior[nd.rank] = nd.prior;
        }
        for (int r = 0, row = 0; r < N_RANKS; ++r) {
            factor_base[r] = row;
            row += max_prior[r] + 1;
        }
        law_nodes.clear();
        step_factor.clear();
        step_depth.clear();
        std::unordered_map<int, int> steps;
        for (size_t i = 0; i < dnodes.size(); ++i) {
            const DealerNode& nd = dnodes[i];
            int factor = factor_base[nd.rank] + nd.prior;
            auto it = steps.find(factor * 64 + nd.depth);
            int step;
            if (it == steps.end()) {
                step = (int)step_factor.size();
                steps.emplace(factor * 64 + nd.depth, step);
                step_factor.push_back(factor * LAW_STRIDE);
                step_depth.push_back(nd.depth * LAW_STRIDE);
            } else {
                step = it->second;
            }
            bool counted = nd.outcome >= 0, below = (size_t)nd.skip > i + 1;
            int kind = counted ? (below ? LAW_BOTH : LAW_LEAF) : (below ? LAW_DRAW_ON : LAW_NONE);
            law_nodes.push_back(LawNode{nd.orders, step * LAW_STRIDE, nd.depth * LAW_STRIDE,
                                        counted ? nd.outcome * LAW_STRIDE : -1, kind,
                                        nd.skip, kind == LAW_LEAF ? 1 : 0});
        }
        // (in pre-order, consecutive leaves of one depth are siblings: one parent's product)
        for (size_t i = law_nodes.size(); i-- > 1;)
            if (law_nodes[i].kind == LAW_LEAF && law_nodes[i - 1].kind == LAW_LEAF
                && law_nodes[i].depth == law_nodes[i - 1].depth)
                law_nodes[i - 1].run = law_nodes[i].run + 1;
    }


    /* the dealer's outcome law for the counts n (``left`` cards; infinite: chances) */
    void law(const double* n, double left, double* out) const {
        double prod[40];
        double inv[40];
        for (int k = 0; k < N_OUT; ++k) out[k] = 0.0;
        for (int d = 0; d <= dealer_depth; ++d)
            inv[d] = infinite ? 1.0 : (left - d > 0.0 ? 1.0 / (left - d) : 0.0);
        prod[0] = 1.0;
        size_t i = 0, end = dnodes.size();
        while (i < end) {
            const DealerNode& nd = dnodes[i];
            double avail = infinite ? n[nd.rank] : n[nd.rank] - nd.prior;
            double f = avail > 0.0 ? avail * inv[nd.depth] : 0.0;
            double p = prod[nd.depth] * f;
            if (p == 0.0) {
                i = nd.skip;
                continue;
            }
            prod[nd.depth + 1] = p;
            if (nd.outcome >= 0) out[nd.outcome] += nd.orders * p;
            ++i;
        }
    }

    /* The law of ``count`` shoes at once (n: ``count`` rows of N_RANKS counts, left: their
     * card totals; out: ``count`` rows of N_OUT), by passes over the nodes shared by up to
     * 16 shoes: each shoe's arithmetic is law()'s, operation for operation, so a law is the
     * same whichever way it is computed (docs/algorithms.md, "The game walk"). */
    void law_batch(const double* n, const double* left, int count, double* out) const;

    /* The dealer's final outcomes for the shoe ``n`` by the plain recursion over every
     * draw order, from a dealer hand of hard total ``dhard`` with ``daces`` aces and
     * ``dcards`` cards (for tests: the composition pass must agree). */
    void by_every_order(double* n, double left, int dhard, int daces, int dcards, double p,
                     double* out) const {
        int t = (daces > 0 && dhard + 10 <= 21) ? dhard + 10 : dhard;
        bool soft = daces > 0 && dhard + 10 <= 21;
        if (dhard > 21) {
            out[dhard == 22 ? D_22 : D_OVER] += p;
            return;
        }
        if (t > 17 || (t == 17 && !(soft && hit_soft_17))) {
            out[t - 17] += p;
            return;
        }
        if (!(left > 0.0)) return;   // (a shoe without cards: the rest counts as a bust)
        for (int r = 0; r < N_RANKS; ++r) {
            double w = infinite ? n[r] : n[r] / left;
            if (!(n[r] > 0.0)) continue;
            double q = p * w;
            if (dcards == 1 && hole_rank >= 0 && r == hole_rank) {
                out[D_NATURAL] += q;   // the hole card makes a natural
                continue;
            }
            if (!infinite) n[r] -= 1.0;
            by_every_order(n, infinite ? left : left - 1.0, dhard + r + 1, daces + (r == 0),
                        dcards + 1, q, out);
            if (!infinite) n[r] += 1.0;
        }
    }
};

/* ---- the batched pass ---------------------------------------------------------------
 * Lane l of a pass is law() for shoe l: the factor (n_r - prior) clamped at 0, times
 * 1 / (left - depth), times the parent's product; a node whose product is 0 in every lane
 * skips its subtree (law() skips per shoe: the other lanes' zeros add +0).  Written with
 * the four-lane vectors of portable.h, compiled for AVX2 and the baseline (target_clones,
 * as trie_pass.h; no FMA, so the same IEEE operations either way). */
#if defined(__x86_64__) && defined(__GLIBC__) && \
    ((defined(__GNUC__) && !defined(__clang__)) || (defined(__clang__) && __clang_major__ >= 14))
#define BJ_GAME_MULTIVERSION __attribute__((target_clones("avx2", "default")))
#else
#define BJ_GAME_MULTIVERSION
#endif

enum { LAW_MAX_LANES = 16 };

/* (the dealer draws on at a hard total of 16 at most, so at most 16 / r cards of rank r
 * come before another: sum over r of (16 / r + 1) = 54 rows) */
enum { MAX_FACTOR_ROWS = 64 };

/* (the (factor, depth) pairs the nodes have: at most 240, the ace upcard's with H17, of
 * every dealer key; law_batch takes law() for a tree with more) */
enum { MAX_STEP_ROWS = 256 };

template <int LANES, bool CHECK>
static BJ_ALWAYS_INLINE void dealer_law_pass(const DealerDraws& dd, const double* n,
                                             const double* left, double* out) {
    enum { S = DealerDraws::LAW_STRIDE };
    alignas(32) double prod[41 * S];
    alignas(32) double inv[41 * S];
    // the factor of a card of rank r after j of them: max(n_r - j, 0), row base[r] + j
    alignas(32) double factor[MAX_FACTOR_ROWS * S];
    // a node's step: its factor times 1 / (left - depth), the product law() takes
    alignas(32) double step[MAX_STEP_ROWS * S];
    alignas(32) double acc[N_OUT * S];
    const bool infinite = dd.infinite;
    for (int k = 0; k < N_OUT; ++k)
        for (int l = 0; l < LANES; ++l) acc[k * S + l] = 0.0;
    for (int d = 0; d <= dd.dealer_depth; ++d)
        for (int l = 0; l < LANES; ++l)
            inv[d * S + l] = infinite ? 1.0 : (left[l] - d > 0.0 ? 1.0 / (left[l] - d) : 0.0);
    for (int r = 0; r < N_RANKS; ++r)
        for (int j = 0; j <= dd.max_prior[r]; ++j)
            for (int l = 0; l < LANES; ++l) {
                double av = n[l * N_RANKS + r] - (infinite ? 0.0 : (double)j);
                factor[(dd.factor_base[r] + j) * S + l] = av > 0.0 ? av : 0.0;
            }
    const int32_t* step_factor = dd.step_factor.data();
    const int32_t* step_depth = dd.step_depth.data();
    for (size_t q = 0, e = dd.step_factor.size(); q < e; ++q) {
        const double* a = factor + step_factor[q];
        const double* iv = inv + step_depth[q];
        for (int l = 0; l < LANES; l += 4)
            bj_store4(step + q * S + l, bj_load4(a + l) * bj_load4(iv + l));
    }
    for (int l = 0; l < LANES; ++l) prod[l] = 1.0;
    const bj_v4 zero = {0.0, 0.0, 0.0, 0.0};
    const DealerDraws::LawNode* nodes = dd.law_nodes.data();
    size_t i = 0, end = dd.law_nodes.size();
    while (i < end) {
        const DealerDraws::LawNode& nd = nodes[i];
        const double* a = step + nd.step;
        const double* up = prod + nd.depth;
        if (nd.kind == DealerDraws::LAW_LEAF) {
            // a run of sibling leaves, their parent's product loaded once (a product 0 in
            // every lane adds +0, as law() skipping it adds nothing)
            bj_v4 u[LANES / 4];
            for (int l = 0; l < LANES; l += 4) u[l / 4] = bj_load4(up + l);
            const int run = nd.run;
            for (int k = 0; k < run; ++k) {
                const DealerDraws::LawNode& leaf = nodes[i + k];
                const double* s = step + leaf.step;
                double* o = acc + leaf.outcome;
                const double w = leaf.orders;
                for (int l = 0; l < LANES; l += 4)
                    bj_store4(o + l, bj_load4(o + l) + w * (u[l / 4] * bj_load4(s + l)));
            }
            i += run;
            continue;
        }
        if (nd.kind == DealerDraws::LAW_NONE) {
            ++i;
            continue;
        }
        double* p = prod + nd.depth + S;
        bj_m4 any = {0, 0, 0, 0};
        for (int l = 0; l < LANES; l += 4) {
            bj_v4 pl = bj_load4(up + l) * bj_load4(a + l);
            bj_store4(p + l, pl);
            if (CHECK) any |= pl > zero;
        }
        if (CHECK && !(any[0] | any[1] | any[2] | any[3])) {
            i = nd.skip;
            continue;
        }
        if (nd.kind == DealerDraws::LAW_BOTH) {
            double* o = acc + nd.outcome;
            const double w = nd.orders;
            for (int l = 0; l < LANES; l += 4)
                bj_store4(o + l, bj_load4(o + l) + w * bj_load4(p + l));
        }
        ++i;
    }
    for (int l = 0; l < LANES; ++l)
        for (int k = 0; k < N_OUT; ++k) out[l * N_OUT + k] = acc[k * S + l];
}

/* one pass over up to LAW_MAX_LANES shoes (``count``; the tables padded with empty shoes).
 * ``check``: some node's factor may be 0 in every lane (else testing for a subtree to skip
 * only costs: every product is positive, as in a full shoe) */
template <bool CHECK>
static BJ_ALWAYS_INLINE void dealer_law_lanes_n(const DealerDraws& dd, const double* n,
                                                const double* left, int count, double* out) {
    if (count <= 4) dealer_law_pass<4, CHECK>(dd, n, left, out);
    else if (count <= 8) dealer_law_pass<8, CHECK>(dd, n, left, out);
    else if (count <= 12) dealer_law_pass<12, CHECK>(dd, n, left, out);
    else dealer_law_pass<16, CHECK>(dd, n, left, out);
}
BJ_GAME_MULTIVERSION
static void dealer_law_lanes(const DealerDraws& dd, const double* n, const double* left,
                             int count, bool check, double* out) {
    if (check) dealer_law_lanes_n<true>(dd, n, left, count, out);
    else dealer_law_lanes_n<false>(dd, n, left, count, out);
}

inline void DealerDraws::law_batch(const double* n, const double* left, int count,
                                   double* out) const {
    if (step_factor.size() > MAX_STEP_ROWS) {   // (never, on the trees there are)
        for (int i = 0; i < count; ++i) law(n + i * N_RANKS, left[i], out + i * N_OUT);
        return;
    }
    double pn[LAW_MAX_LANES * N_RANKS], pleft[LAW_MAX_LANES], pout[LAW_MAX_LANES * N_OUT];
    for (int at = 0; at < count; at += LAW_MAX_LANES) {
        int k = count - at < LAW_MAX_LANES ? count - at : LAW_MAX_LANES;
        int lanes = (k + 3) / 4 * 4;
        // (a padded lane's products are 0: it never makes a node worth skipping)
        bool check = false;
        for (int l = 0; l < lanes; ++l) {
            for (int r = 0; r < N_RANKS; ++r) {
                pn[l * N_RANKS + r] = l < k ? n[(at + l) * N_RANKS + r] : 0.0;
                if (l < k && !infinite && !(pn[l * N_RANKS + r] - max_prior[r] > 0.0))
                    check = true;
            }
            pleft[l] = l < k ? left[at + l] : 0.0;
            if (l < k && !infinite && !(pleft[l] - dealer_depth > 0.0)) check = true;
            if (l < k && infinite) check = true;
        }
        dealer_law_lanes(*this, pn, pleft, k, check, pout);
        for (int l = 0; l < k; ++l)
            for (int j = 0; j < N_OUT; ++j) out[(at + l) * N_OUT + j] = pout[l * N_OUT + j];
    }
}

}  // namespace bjgame

#endif
