/* The exact second moment of a split that may make 3 or 4 hands in the games' round law
 * (game_law.h, GameLaw::split_law; docs/risk.md, "The games").
 *
 * The round law combines such a split's hands as independent given the dealer's outcome
 * (its pmf stays so); its variance is made exact here from pairs of hands, as the classic
 * kernel does it (_split_moments.pyx, whose module doc gives the argument):
 * E[S^2 ; t] = sum_i E[X_i^2 ; t] + sum_{i != k} E[X_i X_k ; t].  A hand's play after its
 * second card looks at its own cards only (CDZ-, CDP1, a frozen chart: the walk's
 * decisions of a split hand are made in one basis context whatever the extra pair cards
 * gone), so its second-card stage and its body can be reordered, the other hands' bodies
 * drop out of a pair's law, and their second cards are cards gone unseen, known non-pair
 * or free (split_pair_moments.h takes those out and weighs the patterns of hands).
 *
 * What is the games' own: the pair tables at b = 0 (no other hand's card gone), one
 * exact two-hand pass per number a of extra pair cards gone, from the two-hand law's
 * machinery (game_two_hands.h): the hand graphs (their leaves the result's law given the
 * dealer's outcome t, so free stakes, bonuses by suits, redoubles, the rescue, a charlie
 * and the no-hole-card charges are the round law's own leaf code), the forward pass of
 * the first hand (the second hand's chances in closed form: HandDag::reach_closed, from
 * thousands of shoes) and the dealer's laws memoised by the union of both hands' cards.
 * Per a: the first hand's endings from the shoe less the second hand's pair card and the
 * a extra ones, grouped by their cards C1; per C1 the second hand's law from the shoe
 * less C1 (memoised by the cards gone: the same shoe comes back at other levels and in
 * the other table), reduced to its moments per t; the first hand's busts after a hit
 * from the second hand's law after the first hand's root less every other ending
 * (game_two_hands.h).  A hand "known non-pair" is the same pass with the paths through a
 * pair card as second card left out (the cut of reach_from, paths_cut of reach_closed),
 * its endings together the root's less the pair card's share.
 *
 * Free splits: the first hand holds the player's stake, every other hand is free, so the
 * pairs are (first, other) and (other, other): two tables (split_pair_moments.h).
 *
 * Not here (the caller keeps the combination's variance): BB+1 (the box's unit depends
 * on all the hands at once: whether any stands at the natural), CDP (its decisions depend
 * on the extra pair cards gone), fractional shoes and shoes a round of M hands could run
 * out of (31 M + 17 points or fewer: GameLaw::moments_apply).
 */
#ifndef BJSOLVE_GAME_SPLIT_MOMENTS_H
#define BJSOLVE_GAME_SPLIT_MOMENTS_H

#include <map>
#include <unordered_map>
#include <vector>

#include "split_pair_moments.h"

namespace bjgame {

template <class Walk>
class GameLaw;

template <class Walk>
class SplitMoments {
  public:
    GameLaw<Walk>& L;
    Walk* w;
    int pair, p, M;
    TwoHandSplit<Walk> pass;   // the graphs, the second hand's law, the dealer memo
    int V = 0;
    double shoe0[N_RANKS];     // the shoe less the dealer's cards
    enum { K = 3 * N_OUT };    // a hand's moments: P, E, E2 per dealer outcome

    SplitMoments(GameLaw<Walk>& law, int pair_)
        : L(law), w(law.w), pair(pair_), p(pair_ - 1), M(law.w->hands_limit(pair_)),
          pass(law, pair_) {}

    /* the second hands of graph B: their moments by the cards gone (shared by the tables
     * whose second hand is B: a free split's (first, other) and (other, other)) */
    struct Seconds {
        const HandDag* B;
        std::unordered_map<uint64_t, int> memo;      // cards gone -> row of 2 K: the
        std::vector<double> rows;                    // second hand free, then non-pair
        std::vector<int> leaf_class;                 // B's leaves' classes (leaf_classes)
        std::vector<double> class_mom;               // and the classes' moments given t
    };
    /* one table: the pairs (a hand of graph A dealt first, one of the seconds' graph) */
    struct Table {
        const HandDag* A;
        Seconds* sec;
        std::vector<double> J;                       // split_pair_moments.h's J
    };

    /* a graph's leaves' moments given t (P, E, E2 per t: K numbers a leaf), one per
     * class of leaves with the same moments (a stand on 19 with the player's stake, a
     * bust after a double, ...: a few dozen classes for thousands of leaves): the passes
     * sum the chances of a class's leaves times the dealer's law first, then weigh by the
     * class's moments once */
    void leaf_classes(Seconds& sec) {
        const HandDag& dag = *sec.B;
        size_t n = dag.leaf_from.size() - 1;
        std::map<std::vector<double>, int> index;
        std::vector<double> m(K);
        sec.leaf_class.assign(n, 0);
        sec.class_mom.clear();
        for (size_t leaf = 0; leaf < n; ++leaf) {
            std::fill(m.begin(), m.end(), 0.0);
            for (const LawEntry* e = dag.leaf_begin((int)leaf); e != dag.leaf_end((int)leaf); ++e) {
                int t = law_t(e->key);
                if (t >= N_OUT) continue;   // (BB+1's mark: not computed here)
                double y = L.values[law_v(e->key)];
                m[t] += e->p;
                m[N_OUT + t] += e->p * y;
                m[2 * N_OUT + t] += e->p * y * y;
            }
            auto found = index.find(m);
            if (found == index.end()) {
                found = index.emplace(m, (int)index.size()).first;
                sec.class_mom.insert(sec.class_mom.end(), m.begin(), m.end());
            }
            sec.leaf_class[leaf] = found->second;
        }
    }

    std::vector<double> acc;   // per (free or non-pair, class, t): the second hand's
                               // chances of the class's leaves times the dealer's law

    /* the second hand's moments (P, E, E2 per t; then the same with its second card known
     * non-pair, if ``non_pair``) from the shoe less ``gone`` (its cards ``cnt``: the first
     * hand's, and the a extra pair cards); both from one pass (TwoHandSplit::gather) */
    const double* second(Table& T, uint64_t gone, const int8_t* cnt, int a, int non_pair) {
        Seconds& sec = *T.sec;
        auto it = sec.memo.find(gone);
        if (it != sec.memo.end() && (!non_pair || sec.rows[(size_t)it->second * 2 * K + 2 * K - 1] >= 0.0))
            return &sec.rows[(size_t)it->second * 2 * K];
        double b[N_RANKS];
        for (int r = 0; r < N_RANKS; ++r) b[r] = shoe0[r] - cnt[r];
        b[p] -= a;
        const HandDag& B = *sec.B;
        size_t first_leaf = pass.gather(B, gone, b, non_pair != 0, p, true);
        size_t n_classes = sec.class_mom.size() / K;
        acc.assign(2 * n_classes * N_OUT, 0.0);
        double* acc_f = acc.data();
        double* acc_n = acc.data() + n_classes * N_OUT;
        for (size_t k = first_leaf; k < pass.live.size(); ++k) {
            int id = pass.live[k];
            const double* d = &pass.dealer_rows[(size_t)pass.rows[k] * N_OUT];
            size_t c = (size_t)sec.leaf_class[B.nodes[id].leaf] * N_OUT;
            double x = pass.reach2[id];
            for (int t = 0; t < N_OUT; ++t) acc_f[c + t] += x * d[t];
            if (!non_pair) continue;
            double xn = pass.reach_cut[id];
            if (xn == 0.0) continue;
            for (int t = 0; t < N_OUT; ++t) acc_n[c + t] += xn * d[t];
        }
        int row;
        if (it != sec.memo.end()) {
            row = it->second;
        } else {
            row = (int)(sec.rows.size() / (2 * K));
            sec.rows.resize(sec.rows.size() + 2 * K);
            sec.memo.emplace(gone, row);
        }
        double* out = &sec.rows[(size_t)row * 2 * K];
        for (int i = 0; i < 2; ++i) {
            double* o = out + i * K;
            std::fill(o, o + K, 0.0);
            if (i == 1 && !non_pair) {
                o[K - 1] = -1.0;   // (not computed: E2 is never below zero)
                continue;
            }
            const double* a_i = i ? acc_n : acc_f;
            double* busts = i ? pass.busts_cut : pass.busts;
            for (size_t c = 0; c < n_classes; ++c) {
                const double* cm = &sec.class_mom[c * K];
                for (int t = 0; t < N_OUT; ++t) {
                    double x = a_i[c * N_OUT + t];
                    busts[t] -= x;
                    o[t] += x * cm[t];
                    o[N_OUT + t] += x * cm[N_OUT + t];
                    o[2 * N_OUT + t] += x * cm[2 * N_OUT + t];
                }
            }
            if (B.bust_result < 0) continue;
            double y = L.values[B.bust_result];
            for (int t = 0; t < N_OUT; ++t) {
                o[t] += busts[t];
                o[N_OUT + t] += busts[t] * y;
                o[2 * N_OUT + t] += busts[t] * y * y;
            }
        }
        return out;
    }

    /* J[combo] += the first hand's moments g (P, E, E2 per t) joined with the second's s */
    static void join(double* J, const double* g, const double* s) {
        for (int t = 0; t < N_OUT; ++t) {
            double g0 = g[t], g1 = g[N_OUT + t], g2 = g[2 * N_OUT + t];
            double s0 = s[t], s1 = s[N_OUT + t], s2 = s[2 * N_OUT + t];
            J[PM_P * N_OUT + t] += g0 * s0;
            J[PM_E1 * N_OUT + t] += g1 * s0;
            J[PM_S1 * N_OUT + t] += g2 * s0;
            J[PM_E2 * N_OUT + t] += g0 * s1;
            J[PM_S2 * N_OUT + t] += g0 * s2;
            J[PM_C * N_OUT + t] += g1 * s1;
        }
    }

    /* the pair tables at b = 0 with a extra pair cards gone, unnormalised:
     * raw[combo * PM_N_MOM * N_OUT ...]; need_n: the combos with a non-pair hand */
    void level(Table& T, int a, bool need_nn, bool need_nf, double* raw) {
        const HandDag& A = *T.A;
        std::fill(raw, raw + PM_N_COMBO * PM_N_MOM * N_OUT, 0.0);
        uint64_t extra_key = (uint64_t)a * rank_unit(p);
        double b1[N_RANKS], left1 = 0.0;
        for (int r = 0; r < N_RANKS; ++r) b1[r] = shoe0[r];
        b1[p] -= 1 + a;   // the second hand's pair card and the extra ones
        for (int r = 0; r < N_RANKS; ++r) left1 += b1[r];
        bool need_n = need_nn || need_nf;
        std::vector<double> rf, rn;
        A.reach_from(b1, rf, need_n ? &rn : nullptr, p);
        std::vector<std::pair<uint64_t, int>> endings = A.endings_by_cards(rf);
        double* JNN = raw + PM_NN * PM_N_MOM * N_OUT;
        double* JNF = raw + PM_NF * PM_N_MOM * N_OUT;
        double* JFF = raw + PM_FF * PM_N_MOM * N_OUT;
        // the second hand's moments summed over the first hand's listed endings (for its
        // busts after a hit: the rest)
        double sum_ff[K] = {0}, sum_nf[K] = {0}, sum_nn[K] = {0};
        double gf[K], gn[K];
        for (size_t i = 0; i < endings.size();) {
            std::fill(gf, gf + K, 0.0);
            std::fill(gn, gn + K, 0.0);
            double ends_f = 0.0, ends_n = 0.0;
            size_t j = i;
            for (; j < endings.size() && endings[j].first == endings[i].first; ++j) {
                int id = endings[j].second;
                double xf = rf[id], xn = need_n ? rn[id] : 0.0;
                ends_f += xf;
                ends_n += xn;
                int leaf = A.nodes[id].leaf;
                for (const LawEntry* e = A.leaf_begin(leaf); e != A.leaf_end(leaf); ++e) {
                    int t = law_t(e->key);
                    if (t >= N_OUT) continue;   // (BB+1's mark: not computed here)
                    double y = L.values[law_v(e->key)];
                    gf[t] += xf * e->p;
                    gf[N_OUT + t] += xf * e->p * y;
                    gf[2 * N_OUT + t] += xf * e->p * y * y;
                    gn[t] += xn * e->p;
                    gn[N_OUT + t] += xn * e->p * y;
                    gn[2 * N_OUT + t] += xn * e->p * y * y;
                }
            }
            const HandDag::Node& c1 = A.nodes[endings[i].second];
            uint64_t gone = c1.key + extra_key;
            const double* sf = second(T, gone, c1.cnt, a, need_nn);   // (and sf + K)
            join(JFF, gf, sf);
            for (int k = 0; k < K; ++k) sum_ff[k] += ends_f * sf[k];
            if (need_nf) {
                join(JNF, gn, sf);
                for (int k = 0; k < K; ++k) sum_nf[k] += ends_n * sf[k];
            }
            if (need_nn) {
                const double* sn = sf + K;
                join(JNN, gn, sn);
                for (int k = 0; k < K; ++k) sum_nn[k] += ends_n * sn[k];
            }
            i = j;
        }
        if (A.bust_result < 0) return;
        // the first hand's busts after a hit (one result): the second hand's moments over
        // them are its moments after the first hand's pair card alone (all its endings),
        // less the listed endings'; a non-pair first hand: less the pair card's share too
        double y = L.values[A.bust_result];
        double g[K];
        for (int t = 0; t < N_OUT; ++t) {
            g[t] = 1.0;
            g[N_OUT + t] = y;
            g[2 * N_OUT + t] = y * y;
        }
        const HandDag::Node& root = A.nodes[0];
        double rest[K];
        const double* s = second(T, root.key + extra_key, root.cnt, a, need_nn);
        for (int k = 0; k < K; ++k) rest[k] = s[k] - sum_ff[k];
        join(JFF, g, rest);
        if (!need_n) return;
        int child = A.root_child(p);
        double pi = (left1 > root.n_cards && b1[p] - root.cnt[p] > 0.0)
                        ? (b1[p] - root.cnt[p]) / (left1 - root.n_cards) : 0.0;
        for (int nn = 0; nn < 2; ++nn) {
            if (nn ? !need_nn : !need_nf) continue;
            s = second(T, root.key + extra_key, root.cnt, a, need_nn) + (nn ? K : 0);
            const double* sum = nn ? sum_nn : sum_nf;
            for (int k = 0; k < K; ++k) rest[k] = s[k] - sum[k];
            if (child >= 0 && pi > 0.0) {
                const HandDag::Node& c = A.nodes[child];
                s = second(T, c.key + extra_key, c.cnt, a, need_nn) + (nn ? K : 0);
                for (int k = 0; k < K; ++k) rest[k] -= pi * s[k];
            }
            join(nn ? JNN : JNF, g, rest);
        }
    }

    /* T.J: the pair tables of every level, normalised, the unseen cards taken out */
    void tables(Table& T, double m, double n) {
        double q = n - m;
        int amax = 2 * M - 4;
        T.J.assign(PM_N_COMBO * PM_MAX_A * PM_MAX_A * PM_N_MOM * N_OUT, 0.0);
        std::vector<double> raw(PM_N_COMBO * PM_N_MOM * N_OUT);
        for (int a = 0; a <= amax; ++a) {
            if (m - a < 0) continue;
            // (what the patterns read after the removals: NN up to a + b = 2M - 6, NF
            // up to 2M - 5, FF up to 2M - 4)
            level(T, a, a <= 2 * M - 6, a <= 2 * M - 5, raw.data());
            for (int combo = 0; combo < PM_N_COMBO; ++combo) {
                double mass = 1.0;
                if (combo == PM_NN)
                    mass = n - a > 1 ? q * (q - 1) / ((n - a) * (n - a - 1)) : 0.0;
                else if (combo == PM_NF)
                    mass = n - a > 0 ? q / (n - a) : 0.0;
                double* out = &T.J[pm_at(N_OUT, combo, a, 0)];
                const double* in = &raw[(size_t)combo * PM_N_MOM * N_OUT];
                for (int i = 0; i < PM_N_MOM * N_OUT; ++i)
                    out[i] = mass > 0.0 ? in[i] / mass : 0.0;
            }
        }
        double g[PM_N_COMBO * PM_MAX_A * PM_MAX_A] = {0};
        const int n_known[PM_N_COMBO] = {2, 1, 0};
        for (int combo = 0; combo < PM_N_COMBO; ++combo)
            for (int b = 1; b <= amax; ++b)
                for (int a = 0; a <= amax - b; ++a)
                    g[(combo * PM_MAX_A + a) * PM_MAX_A + b] =
                        w->gamma(m, n + 1 - n_known[combo], a, b, 0.0);
        pm_removals(T.J.data(), N_OUT, amax, g);
    }

    /* p[t], m1[t] = E[S ; t], m2[t] = E[S^2 ; t] of the split's total S (unconditioned,
     * as split_law's law: a dealer natural as its hands settle it) */
    void moments(double* p_t, double* m1, double* m2) {
        bool free_split = (w->R.free_split_ranks >> pair) & 1;
        HandDag own, fre;
        L.given_outcome = true;
        pass.build(own, 0);
        if (free_split) pass.build(fre, 1);
        L.given_outcome = false;
        V = (int)L.values.size();
        pass.V = V;
        for (int r = 0; r < N_RANKS; ++r) shoe0[r] = w->shoe[r] - w->dealer_cnt[r];
        double m, n, pp;
        w->split_removal_params(p, m, n, pp);
        Seconds sec;
        sec.B = free_split ? &fre : &own;
        (free_split ? fre : own).count_paths(p);   // (the second hands' closed form)
        leaf_classes(sec);
        Table T0, T1;
        T0.A = &own;
        T0.sec = T1.sec = &sec;
        tables(T0, m, n);
        if (free_split) {
            T1.A = &fre;
            tables(T1, m, n);
        }
        double q = n - m, w_below[4] = {0}, w_limit[4] = {0};
        for (int h = 2; h < M; ++h)
            w_below[h] = (h == 2 ? 1.0 : 2.0) * w->draw_ratio(m, q, n, h - 2, h, pp);
        for (int k = 0; k < M - 1; ++k)
            w_limit[k] = ((M == 4 && k >= 1) ? 2.0 : 1.0) * w->draw_ratio(m, q, n, M - 2, k, pp);
        for (int t = 0; t < N_OUT; ++t) p_t[t] = m1[t] = m2[t] = 0.0;
        pm_patterns(T0.J.data(), free_split ? T1.J.data() : T0.J.data(), free_split ? 1 : 0,
                    N_OUT, M, w_below, w_limit, p_t, m1, m2);
    }
};

}  // namespace bjgame

#endif
