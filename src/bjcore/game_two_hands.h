/* The exact law of a split into two hands in the games' round law (game_law.h,
 * GameLaw::split_law; docs/risk.md, "The games").
 *
 * When a split can make two hands only (at most two hands, or no pair card left to
 * resplit) on a finite shoe of whole counts, the law of (the first hand's result, the
 * second's, the dealer's outcome) is summed over the first hand's endings:
 *
 *     P(r1 + r2, t) = sum over C1 of P(C1) P(r1 | C1, t) P(r2, t | the shoe less C1),
 *
 * C1 the first hand's cards when it is settled, r1 its result given the dealer's outcome
 * t, and the second hand dealt from the shoe less C1, the dealer from the shoe less both
 * hands' cards.  (The classic kernel's RoundLaws.exact_two_hands_law computes the same for
 * the classic game.)
 *
 * How.  Both hands play the value walk's decisions of the split context (the pair, one
 * more pair card gone: what each hand knows is its own cards), whatever the other hand
 * took; so a hand's play is one graph of hand states, built once (HandDag: a node per
 * hand and stake state, an edge per card drawn, a leaf per settled hand holding its
 * result law given t, made by the round law's own leaf code with the dealer at chance 1
 * for every outcome).  The chance of reaching each node from a given shoe is one forward
 * pass over the graph in order of cards held (a node's chance of its next card depends on
 * its cards only).  So: one pass of the first hand from the split's shoe gives its
 * endings, grouped by their cards C1; per C1, one pass of the second hand from the shoe
 * less C1, its leaves settled against the dealer's law of the shoe less both hands
 * (memoised by the union of the cards), gives P(r2, t | the shoe less C1); the two are
 * joined outcome by outcome.  A free split: the first hand holds the player's stake, the
 * second is free (the order of the two hands does not change the law: each plays on its
 * own cards, and the chance of two card sequences dealt one after the other depends on
 * their cards only).
 *
 * BB+1 (the box pays one unit at the dealer's natural when any of its hands stands) is
 * exact here without bb1_settle_natural: the joint law knows whether either hand stands.
 * A natural taking the original bet only (peek) is put at -1 for the round by start_law,
 * as for every round.
 *
 * Cost: one pass of the second hand per distinct C1, each its graph's edges and leaves;
 * the dealer's laws, one per union of the two hands' cards.
 */
#ifndef BJSOLVE_GAME_TWO_HANDS_H
#define BJSOLVE_GAME_TWO_HANDS_H

#include <algorithm>
#include <cstdint>
#include <vector>

namespace bjgame {

/* one split hand's play: its states, the cards between them, and its settled leaves */
struct HandDag {
    struct Node {
        int8_t cnt[N_RANKS];
        int n_cards;
        uint64_t key;          // the hand's cards (hand_key)
        int first_edge = 0, n_edges = 0;
        int leaf = -1;         // settled here: its law given t (leaf_law), else -1
        bool hit_bust = false; // a bust after a hit (not after a double)
    };
    struct Edge {
        int to, rank;
    };
    std::vector<Node> nodes;   // nodes[0]: the pair card alone (its edges: the second card)
    std::vector<Edge> edges;
    /* the leaves' laws given t, one after another in one array (read at every pass):
     * leaf i's entries (weight, t or LAW_NATURAL_STANDING, result) from leaf_from[i] to
     * leaf_from[i + 1] */
    std::vector<LawEntry> leaf_entries;
    std::vector<int> leaf_from{0};
    const LawEntry* leaf_begin(int leaf) const { return leaf_entries.data() + leaf_from[leaf]; }
    const LawEntry* leaf_end(int leaf) const { return leaf_entries.data() + leaf_from[leaf + 1]; }
    std::vector<int> leaf_nodes;   // (the busts after a hit apart: hit_bust)
    std::vector<int> order;    // the nodes by the number of cards held (parents first)
    /* The same chances in closed form (game_split_moments.h, where a second hand is
     * played from thousands of shoes): a sequence of draws without replacement has a
     * chance that depends only on the cards drawn, so the chance of reaching a node is
     * its number of draw orders from the root (paths; paths_cut: those whose first draw
     * is not of rank cut) times the chance of one of them, built along one parent per
     * node: no pass over the edges per shoe.  count_paths first (once per graph). */
    std::vector<double> paths, paths_cut;
    std::vector<int> parent, via;   // one parent of each node, and the rank drawn from it
    void count_paths(int cut_rank) {
        size_t n = nodes.size();
        paths.assign(n, 0.0);
        paths_cut.assign(n, 0.0);
        parent.assign(n, -1);
        via.assign(n, 0);
        paths[0] = paths_cut[0] = 1.0;
        for (int id : order)
            for (int k = nodes[id].first_edge; k < nodes[id].first_edge + nodes[id].n_edges; ++k) {
                int to = edges[k].to;
                if (parent[to] < 0) {
                    parent[to] = id;
                    via[to] = edges[k].rank;
                }
                paths[to] += paths[id];
                if (!(id == 0 && edges[k].rank == cut_rank)) paths_cut[to] += paths_cut[id];
            }
    }
    void reach_closed(const double* b, std::vector<double>& reach, std::vector<double>* cut,
                      std::vector<double>& chance) const {
        double left = 0.0;
        for (int r = 0; r < N_RANKS; ++r) left += b[r];
        size_t n = nodes.size();
        reach.resize(n);
        chance.resize(n);
        if (cut) cut->resize(n);
        for (int id : order) {
            double x = 1.0;
            if (id != 0) {
                const Node& par = nodes[parent[id]];
                double c = b[via[id]] - par.cnt[via[id]], rest = left - par.n_cards;
                x = c > 0.0 && rest > 0.0 ? chance[parent[id]] * c / rest : 0.0;
            }
            chance[id] = x;
            reach[id] = paths[id] * x;
            if (cut) (*cut)[id] = paths_cut[id] * x;
        }
    }

    /* the leaves reached (reach > 0) as (the hand's cards, node), sorted: the endings of
     * one set of cards C1 together */
    std::vector<std::pair<uint64_t, int>> endings_by_cards(const std::vector<double>& reach) const {
        std::vector<std::pair<uint64_t, int>> out;
        for (int id : leaf_nodes)
            if (reach[id] > 0.0) out.push_back(std::make_pair(nodes[id].key, id));
        std::sort(out.begin(), out.end());
        return out;
    }
    /* the root's child by a second card of rank r, or -1 */
    int root_child(int r) const {
        for (int k = nodes[0].first_edge; k < nodes[0].first_edge + nodes[0].n_edges; ++k)
            if (edges[k].rank == r) return edges[k].to;
        return -1;
    }
    int bust_result = -1;      // the result of a bust after a hit (-own stake)

    /* the chance of reaching each node, the hand's cards drawn from the counts b (its
     * own cards among them); cut (game_split_moments.h: a resplit's hand known to have
     * drawn no pair card): the same chances, in the same pass, of the paths whose first
     * draw (the hand's second card) is not of rank cut_rank */
    void reach_from(const double* b, std::vector<double>& reach,
                    std::vector<double>* cut = nullptr, int cut_rank = -1) const {
        double left = 0.0;
        for (int r = 0; r < N_RANKS; ++r) left += b[r];
        reach.assign(nodes.size(), 0.0);
        reach[0] = 1.0;
        if (cut) {
            cut->assign(nodes.size(), 0.0);
            (*cut)[0] = 1.0;
        }
        for (int id : order) {
            double x = reach[id];
            if (x == 0.0) continue;
            const Node& nd = nodes[id];
            double rest = left - nd.n_cards;
            if (rest <= 0.0) continue;
            double xc = cut ? (*cut)[id] : 0.0;
            for (int k = nd.first_edge; k < nd.first_edge + nd.n_edges; ++k) {
                double c = b[edges[k].rank] - nd.cnt[edges[k].rank];
                if (c <= 0.0) continue;
                reach[edges[k].to] += x * c / rest;
                if (xc != 0.0 && !(id == 0 && edges[k].rank == cut_rank))
                    (*cut)[edges[k].to] += xc * c / rest;
            }
        }
    }
};

template <class Walk>
class GameLaw;

template <class Walk>
class TwoHandSplit {
  public:
    GameLaw<Walk>& L;
    Walk* w;
    int pair, p;
    enum { ROWS = N_OUT + 1 };   // dealer outcomes, and LAW_NATURAL_STANDING (BB+1)

    TwoHandSplit(GameLaw<Walk>& law, int pair_) : L(law), w(law.w), pair(pair_), p(pair_ - 1) {}

    /* ---- the hand's graph ------------------------------------------------------------ */

    struct Stake {
        double own, fr;
        int redoubles_left, doubles, free_first;
        int state() const { return doubles == 0 ? 0 : 1 + ((doubles - 1) & 3) * 2 + free_first; }
    };

    HandDag* dag = nullptr;
    FlatIndex index[9];   // per stake state: hand context -> node

    int new_node() {
        HandDag::Node nd;
        for (int r = 0; r < N_RANKS; ++r) nd.cnt[r] = (int8_t)w->cnt[r];
        nd.n_cards = w->n_cards;
        nd.key = w->hand_key;
        dag->nodes.push_back(nd);
        return (int)dag->nodes.size() - 1;
    }
    void settle(int id, Law law) {
        dag->nodes[id].leaf = (int)dag->leaf_from.size() - 1;
        dag->leaf_entries.insert(dag->leaf_entries.end(), law.begin(), law.end());
        dag->leaf_from.push_back((int)dag->leaf_entries.size());
        dag->leaf_nodes.push_back(id);
    }
    /* a bust after a hit: not listed among the leaves (bust identity, second_hand) */
    void hit_bust(int id) {
        dag->nodes[id].hit_bust = true;
        dag->bust_result = L.vid(-w->own_stake());
    }

    /* the current hand's next cards (any the first hand may draw), each to its node */
    void draw(int id, const Stake& s) {
        double pi[N_RANKS];
        w->next_card_weights(pi);
        int to[N_RANKS], rank[N_RANKS], n = 0;
        for (int r = 0; r < N_RANKS; ++r) {
            if (pi[r] <= 0.0) continue;
            w->add_card(r);
            to[n] = node(s);
            rank[n++] = r;
            w->remove_card(r);
        }
        dag->nodes[id].first_edge = (int)dag->edges.size();
        dag->nodes[id].n_edges = n;
        for (int k = 0; k < n; ++k) dag->edges.push_back(HandDag::Edge{to[k], rank[k]});
    }

    /* the node of the current hand in stake s, played as the round law plays it
     * (continuation_law, hit_law, double_law, doubled_choice_law) */
    int node(const Stake& s) {
        FlatIndex& ix = index[s.state()];
        uint64_t key = w->context_key();
        int found = ix.find(key);
        if (found >= 0) return found;
        int id = new_node();
        ix.insert(key, id);
        if (w->hard > 21) {
            if (s.doubles == 0) hit_bust(id);
            else settle(id, L.bust_law(s.own));
            return id;
        }
        if (s.doubles == 0) {
            if (w->is_charlie()) {
                settle(id, L.charlie_law());
                return id;
            }
            int a = L.continuation_action();
            if (a == ACT_HIT) {
                draw(id, s);
            } else if (a == ACT_DOUBLE) {
                Stake d{0.0, 0.0, w->R.redoubles, 1, 0};
                L.first_double_stakes(d.own, d.fr, d.free_first);
                draw(id, d);
            } else {
                settle(id, L.action_law(a));
            }
            return id;
        }
        int choice = L.doubled_action(s.own, s.fr, s.redoubles_left);
        if (choice == ACT_DOUBLE)
            draw(id, Stake{2.0 * s.own, 2.0 * s.fr, s.redoubles_left - 1, s.doubles + 1,
                           s.free_first});
        else if (choice == ACT_SURRENDER)
            settle(id, L.rescue_law(s.own));
        else
            settle(id, L.stand_law(s.own, s.fr, false));
        return id;
    }

    /* the graph of a split hand of this pair (free: a free split hand) */
    void build(HandDag& g, int free) {
        dag = &g;
        for (FlatIndex& ix : index) ix.reset();
        w->clear_hand();
        w->pair_rank = pair;
        w->extra = 1;   // (the walk's context of a hand of a two-hand split)
        w->free_hand = free;
        w->add_card(p);
        int root = new_node();
        draw(root, Stake{w->own_stake(), free ? 1.0 : 0.0, 0, 0, 0});
        w->clear_hand();
        g.order.resize(g.nodes.size());
        for (size_t i = 0; i < g.order.size(); ++i) g.order[i] = (int)i;
        std::stable_sort(g.order.begin(), g.order.end(), [&](int a, int b) {
            return g.nodes[a].n_cards < g.nodes[b].n_cards;
        });
        dag = nullptr;
    }

    /* ---- the law ---------------------------------------------------------------------- */

    FlatIndex dealer_index;
    std::vector<double> dealer_rows;

    std::vector<int> live, rows;
    std::vector<uint64_t> keys;
    std::vector<double> reach2, reach_cut;

    std::vector<double> batch_n, batch_left, batch_out;
    std::vector<int> batch_rows;

    /* rows[k] = the row of the dealer's law of the counts b less the cards of the node
     * live[k] of ``dag`` (keys[k]: every card gone); the laws not known yet computed in
     * one batch (DealerDraws::law_batch: the same arithmetic as law, per shoe) */
    void dealer_rows_of(const HandDag& dag, const double* b) {
        rows.resize(live.size());
        batch_n.clear();
        batch_left.clear();
        batch_rows.clear();
        for (size_t k = 0; k < live.size(); ++k) {
            int found = dealer_index.find(keys[k]);
            if (found < 0) {
                found = (int)(dealer_rows.size() / N_OUT);
                dealer_rows.resize(dealer_rows.size() + N_OUT);
                dealer_index.insert(keys[k], found);
                const int8_t* cnt = dag.nodes[live[k]].cnt;
                double left = 0.0;
                for (int r = 0; r < N_RANKS; ++r) {
                    double n = b[r] - cnt[r];
                    if (n < 0.0) n = 0.0;
                    batch_n.push_back(n);
                    left += n;
                }
                batch_left.push_back(left);
                batch_rows.push_back(found);
            }
            rows[k] = found;
        }
        if (!batch_rows.empty()) {
            int count = (int)batch_rows.size();
            batch_out.resize((size_t)count * N_OUT);
            w->dealer.law_batch(batch_n.data(), batch_left.data(), count, batch_out.data());
            for (int i = 0; i < count; ++i) {
                double* law = &batch_out[(size_t)i * N_OUT];
                over_as_complement(law);
                std::memcpy(&dealer_rows[(size_t)batch_rows[i] * N_OUT], law,
                            sizeof(double) * N_OUT);
            }
        }
        for (size_t k = 0; k < live.size(); ++k)
            BJ_PREFETCH(&dealer_rows[(size_t)rows[k] * N_OUT]);
    }

    std::vector<int> sums;   // (r1, r2, the box's BB+1 unit) -> the result index
    int V = 0;
    int sum_index(int a, int b, int unit) {
        int& s = sums[((size_t)a * V + b) * 2 + unit];
        if (s < 0) s = L.vid(L.values[a] + L.values[b] - (unit ? 1.0 : 0.0));
        return s;
    }

    /* The second hand dealt from the counts b (the shoe less the cards ``gone``: the
     * first hand's, c1), the dealer from b less the second hand's cards: the chances of
     * its nodes (reach2) and the dealer's laws of its endings (live[k], dealer row rows[k]
     * from the returned first_leaf on), and in busts[t] the dealer's law of its busts after
     * a hit: all its endings together have the dealer's law of b less its pair card (the
     * hand's cards are drawn before the dealer's without looking at them), so the busts'
     * laws are that one less the other endings' (the caller takes those off), and need no
     * look-up.  cut (game_split_moments.h): also the same with the hand's second card
     * known not to be of rank cut_rank (reach_cut, busts_cut; unnormalised, as
     * reach_from's cut): its endings together have the root's dealer law less the cut
     * card's share, pi_cut times the law after it. */
    double busts[N_OUT], busts_cut[N_OUT];
    std::vector<double> chance;
    size_t gather(const HandDag& second, uint64_t gone, const double* b, bool cut = false,
                  int cut_rank = -1, bool closed = false) {
        if (closed) second.reach_closed(b, reach2, cut ? &reach_cut : nullptr, chance);
        else second.reach_from(b, reach2, cut ? &reach_cut : nullptr, cut_rank);
        // the dealer's laws: the hand's root's (live[0], for the busts), with a cut the
        // root's child by the cut card (live[1]), then its leaves' (looked up in sweeps,
        // each starting the memory loads of the next: the memo is large, and its look-ups
        // were most of the time; the missing ones computed in batches)
        live.clear();
        keys.clear();
        live.push_back(0);
        keys.push_back(gone + second.nodes[0].key + w->other_key);
        int cut_child = cut ? second.root_child(cut_rank) : -1;
        double pi_cut = 0.0;
        if (cut_child >= 0) {
            const HandDag::Node& root = second.nodes[0];
            double left = 0.0;
            for (int r = 0; r < N_RANKS; ++r) left += b[r];
            double c = b[cut_rank] - root.cnt[cut_rank];
            pi_cut = (c > 0.0 && left > root.n_cards) ? c / (left - root.n_cards) : 0.0;
        }
        size_t first_leaf = 1;
        if (pi_cut > 0.0) {
            live.push_back(cut_child);
            keys.push_back(gone + second.nodes[cut_child].key + w->other_key);
            first_leaf = 2;
        }
        for (int id : second.leaf_nodes)
            if (reach2[id] != 0.0) {
                live.push_back(id);
                keys.push_back(gone + second.nodes[id].key + w->other_key);
                dealer_index.prefetch(keys.back());
            }
        dealer_rows_of(second, b);
        for (int t = 0; t < N_OUT; ++t) busts[t] = dealer_rows[(size_t)rows[0] * N_OUT + t];
        if (cut) {
            for (int t = 0; t < N_OUT; ++t) busts_cut[t] = busts[t];
            if (first_leaf == 2)
                for (int t = 0; t < N_OUT; ++t)
                    busts_cut[t] -= pi_cut * dealer_rows[(size_t)rows[1] * N_OUT + t];
        }
        w->poll_interrupt(second.edges.size() + live.size());
        return first_leaf;
    }

    /* S = the law of (t, r2) of the second hand (gather) */
    void second_hand(const HandDag& second, uint64_t gone, const double* b,
                     std::vector<double>& S) {
        size_t first_leaf = gather(second, gone, b);
        std::fill(S.begin(), S.end(), 0.0);
        for (size_t k = first_leaf; k < live.size(); ++k) {
            const HandDag::Node& c2 = second.nodes[live[k]];
            const double* d = &dealer_rows[(size_t)rows[k] * N_OUT];
            double x = reach2[live[k]];
            for (int t = 0; t < N_OUT; ++t) busts[t] -= x * d[t];
            for (const LawEntry* e = second.leaf_begin(c2.leaf); e != second.leaf_end(c2.leaf);
                 ++e) {
                int t = law_t(e->key);
                double dt = d[t == LAW_NATURAL_STANDING ? (int)D_NATURAL : t];
                S[(size_t)t * V + law_v(e->key)] += x * e->p * dt;
            }
        }
        if (second.bust_result >= 0)
            for (int t = 0; t < N_OUT; ++t) S[(size_t)t * V + second.bust_result] += busts[t];
    }

    Law law() {
        HandDag first, free_hand;
        bool free_split = (w->R.free_split_ranks >> pair) & 1;
        L.given_outcome = true;
        build(first, 0);
        if (free_split) build(free_hand, 1);
        L.given_outcome = false;
        const HandDag& second = free_split ? free_hand : first;
        V = (int)L.values.size();   // (every hand's result is in the table now)
        sums.assign((size_t)V * V * 2, -1);

        double shoe[N_RANKS];
        for (int r = 0; r < N_RANKS; ++r) shoe[r] = w->shoe[r] - w->dealer_cnt[r];
        // the first hand's endings, grouped by their cards (its busts after a hit apart)
        double b[N_RANKS];
        std::memcpy(b, shoe, sizeof b);
        b[p] -= 1.0;   // (the second hand's pair card)
        std::vector<double> reach1;
        first.reach_from(b, reach1);
        std::vector<std::pair<uint64_t, int>> endings = first.endings_by_cards(reach1);

        std::vector<double> G((size_t)ROWS * V), S((size_t)ROWS * V), busts((size_t)ROWS * V);
        std::vector<std::vector<double>> J(N_OUT);
        // the first hand's busts after a hit: one result, joined with the second hand's law
        // over them, which is the second hand's law after the first hand's pair card alone
        // (every ending of the first hand together) less its law after the other endings
        const HandDag::Node& root = first.nodes[0];
        for (int r = 0; r < N_RANKS; ++r) b[r] = shoe[r] - root.cnt[r];
        second_hand(second, root.key, b, busts);
        for (size_t i = 0; i < endings.size();) {
            size_t j = i;
            std::fill(G.begin(), G.end(), 0.0);
            double ends = 0.0;
            for (; j < endings.size() && endings[j].first == endings[i].first; ++j) {
                int id = endings[j].second;
                ends += reach1[id];
                int leaf = first.nodes[id].leaf;
                for (const LawEntry* e = first.leaf_begin(leaf); e != first.leaf_end(leaf); ++e)
                    G[(size_t)law_t(e->key) * V + law_v(e->key)] += reach1[id] * e->p;
            }
            const HandDag::Node& c1 = first.nodes[endings[i].second];
            for (int r = 0; r < N_RANKS; ++r) b[r] = shoe[r] - c1.cnt[r];
            second_hand(second, c1.key, b, S);
            join(G, S, J);
            for (size_t k = 0; k < S.size(); ++k) busts[k] -= ends * S[k];
            i = j;
        }
        if (first.bust_result >= 0) {
            std::fill(G.begin(), G.end(), 0.0);
            for (int t = 0; t < N_OUT; ++t) G[(size_t)t * V + first.bust_result] = 1.0;
            join(G, busts, J);
        }
        Law out;
        for (int t = 0; t < N_OUT; ++t)
            for (size_t v = 0; v < J[t].size(); ++v)
                if (J[t][v] != 0.0) out.push_back(LawEntry{J[t][v], law_key(t, (int)v)});
        return out;
    }

    /* J += the hands joined at each dealer outcome: (r1 + r2, t); at a natural, less the
     * box's unit of BB+1 when either hand stands (row LAW_NATURAL_STANDING) */
    void join(const std::vector<double>& G, const std::vector<double>& S,
              std::vector<std::vector<double>>& J) {
        std::vector<std::pair<int, double>> g, s;
        auto nonzero = [&](const std::vector<double>& A, int row,
                           std::vector<std::pair<int, double>>& out) {
            out.clear();
            for (int v = 0; v < V; ++v)
                if (A[(size_t)row * V + v] != 0.0) out.push_back(std::make_pair(v, A[(size_t)row * V + v]));
        };
        for (int t = 0; t < N_OUT; ++t) {
            int parts = t == D_NATURAL ? 2 : 1;
            for (int a = 0; a < parts; ++a) {
                nonzero(G, a ? (int)LAW_NATURAL_STANDING : t, g);
                if (g.empty()) continue;
                for (int c = 0; c < parts; ++c) {
                    nonzero(S, c ? (int)LAW_NATURAL_STANDING : t, s);
                    int unit = (a || c) ? 1 : 0;
                    for (const auto& x : g)
                        for (const auto& y : s) {
                            int v = sum_index(x.first, y.first, unit);
                            if ((size_t)v >= J[t].size()) J[t].resize(v + 1, 0.0);
                            J[t][v] += x.second * y.second;
                        }
                }
            }
        }
    }
};

}  // namespace bjgame

#endif
