/* BB+1 in a split round of two to four hands (docs/games.md, "No hole card: what a dealer
 * natural takes").
 *
 * Without a hole card a dealer natural shows after the player has played.  BB+1 then
 * takes the busted (and rescued) bets, and one unit in all from the hands still standing;
 * the walk charges every hand as OBBO does (a standing hand its stake before the doubles:
 * one unit), which is BB+1 in a round of one hand.  In a split round of hands h with
 * s_h = 1 when hand h still stands (with own money on it) at the natural, N = sum s_h:
 *
 *     BB+1 - OBBO = nat * (N - [N >= 1]) = nat * N - nat + nat * [N = 0],
 *
 * nat being the event that the hole card makes a natural.  So the split value gets back
 *
 *   A = E[nat * N]      a sum over the hands: the walk's split assembly (the X / N blocks,
 *                       the removal recursions, the weights over the number of hands)
 *                       applied to each hand's chance of standing at a natural;
 *   B = E[nat]          the hole card is any unseen card alike (dealt after the player's):
 *                       the shoe's share of the natural's rank after the pair;
 *   C = E[nat * [N = 0]] no hand left standing (each busted, rescued or paid its 21):
 *                       a sum over the number of hands, the ways the resplits fall and
 *                       the hands' endings (below).
 *
 * The hands play the walk's own decisions (read as the round law reads them); those are
 * valued hand by hand with OBBO's charge of one unit for a standing hand, so they are the
 * best play of each hand alone, not the best play under BB+1's joint charge (a hand
 * behind one that stands owes nothing more for standing): the value is exact for that
 * play.  A hand of a round of H hands plays in the walk's context e = H - 1 (the pair
 * cards of the other hands gone), as the split assembly values it.  No free splits
 * (_game.pyx refuses them).
 */
#ifndef BJSOLVE_GAME_BB1_H
#define BJSOLVE_GAME_BB1_H

#include <map>
#include <tuple>
#include <vector>

#include "game_law.h"

namespace bjgame {

template <class Walk>
class BB1Split {
  public:
    Walk* w;
    GameLaw<Walk> law;   // (its decisions: the walk's, read as the round law reads them)
    int pair, p, M, nat_rank;
    std::map<uint64_t, double> stand_memo;                     // A: context -> chance
    std::map<std::tuple<uint64_t, int, double>, double> doubled_memo;   // A: (context, doubles, own)

    BB1Split(Walk* walk, int pair_, int M_) : w(walk), law(walk), pair(pair_), p(pair_ - 1),
                                              M(M_) {
        nat_rank = w->upcard == 1 ? 9 : 0;
    }

    /* ---- A: each hand's chance of standing at a natural, summed over the hands ---- */

    /* the current hand, standing with own stake ``own``: its chance of meeting a natural
     * (a 21 paid at once stands no more; a hand with no own stake adds nothing) */
    double stand_leaf(double own) {
        if (own <= 0.0) return 0.0;
        if (paid_at_once()) return 0.0;
        return w->dealer_outcomes()[D_NATURAL];
    }
    bool paid_at_once() const {
        return w->R.player_21_wins && w->R.player_21_beats_natural && w->total() == 21;
    }

    double hand_standing() {
        uint64_t key = w->context_key();
        auto it = stand_memo.find(key);
        if (it != stand_memo.end()) return it->second;
        double v;
        if (w->is_charlie()) {
            v = stand_leaf(w->own_stake());
        } else {
            int a = law.continuation_action();
            if (a == ACT_HIT) {
                double pi[N_RANKS];
                w->next_card_weights(pi);
                v = 0.0;
                for (int r = 0; r < N_RANKS; ++r) {
                    if (pi[r] <= 0.0) continue;
                    w->add_card(r);
                    if (w->hard <= 21) v += pi[r] * hand_standing();
                    w->remove_card(r);
                }
            } else if (a == ACT_DOUBLE) {
                double own = w->own_stake(), fr = w->free_hand ? 1.0 : 0.0;
                if (w->free_double_here()) fr += own + fr;
                else own += own + fr;
                v = doubled_standing(own, fr, w->R.redoubles, 1);
            } else {
                v = stand_leaf(w->own_stake());
            }
        }
        stand_memo[key] = v;
        return v;
    }

    double doubled_standing(double own, double fr, int redoubles_left, int doubles) {
        double pi[N_RANKS];
        w->next_card_weights(pi);
        double v = 0.0;
        for (int r = 0; r < N_RANKS; ++r) {
            if (pi[r] <= 0.0) continue;
            w->add_card(r);
            if (w->hard <= 21) {
                auto key = std::make_tuple(w->context_key(), doubles, own);
                auto it = doubled_memo.find(key);
                double x;
                if (it != doubled_memo.end()) {
                    x = it->second;
                } else {
                    int a = law.doubled_action(own, fr, redoubles_left);
                    if (a == ACT_DOUBLE)
                        x = doubled_standing(2.0 * own, 2.0 * fr, redoubles_left - 1,
                                             doubles + 1);
                    else if (a == ACT_SURRENDER) x = 0.0;   // (rescued: settled at once)
                    else x = stand_leaf(own);
                    doubled_memo[key] = x;
                }
                v += pi[r] * x;
            }
            w->remove_card(r);
        }
        return v;
    }

    double pair_hand_standing(int e, int second) {
        w->clear_hand();
        w->pair_rank = pair;
        w->extra = e;
        w->free_hand = 0;
        w->add_card(p);
        w->add_card(second);
        double v = hand_standing();
        w->clear_hand();
        return v;
    }

    /* A: the walk's split_value assembly with each hand's standing chance for its value */
    double standing_sum() {
        int amax = 2 * M - 4;
        if (!w->infinite && w->shoe[p] - 2 < amax) amax = (int)w->shoe[p] - 2;
        double X[MAX_A], Y[MAX_A];
        for (int a = 0; a < MAX_A; ++a) X[a] = Y[a] = 0.0;
        w->split_blocks(pair, amax, X, Y,
                        [&](int e, int r) { return pair_hand_standing(e, r); },
                        [](double& x, double wt, double v) { x += wt * v; });
        double pp, m, n;
        w->split_removal_params(p, m, n, pp);
        double q = n - m;
        double XT[MAX_A][MAX_A], NT[MAX_A][MAX_A];
        w->removal_tables(M, m, n, pp, X, Y, XT, NT);
        double sum = 0.0;
        for (int h = 2; h < M; ++h) {
            double wt = (h == 2 ? 1.0 : 2.0) * w->draw_ratio(m, q, n, h - 2, h, pp);
            if (wt != 0.0) sum += h * wt * NT[h - 2][h - 1];
        }
        for (int k = 0; k < M - 1; ++k) {
            double wt = ((M == 4 && k >= 1) ? 2.0 : 1.0) * w->draw_ratio(m, q, n, M - 2, k, pp);
            if (wt != 0.0) sum += wt * ((k > 0 ? k * NT[M - 2][k - 1] : 0.0) + (M - k) * XT[M - 2][k]);
        }
        return sum;
    }

    /* ---- C: no hand ends standing ------------------------------------------------- */

    /* The split hands are dealt as the real round deals them (the brute force's order):
     * the hand in turn takes its second card; a pair card while fewer than M hands are out
     * is split off (a new hand waits) and the hand takes another; then the hand is played
     * out, and the next waiting hand takes its second card.  A given sequence of cards has
     * the chance
     *     F(x) = prod_r (n_r)_(x_r) / (N)_(|x|)
     * (falling factorials; x its composition), whatever the order, so the chance that the
     * round ends with H hands on the compositions a_1 .. a_H (each after its pair card,
     * second card included), none standing, is  m * prod_h c(a_h) * F(sum a_h + (H - 2) p)
     * with c(a) the number of card orders of a that a hand's play draws (its decisions read
     * its own cards and its context e = H - 1, as the walk's split assembly values it) and
     * m the number of ways the resplits fall (paths below).  A hand whose second card came
     * while fewer than M hands were out has a second card other than the pair's (it would
     * have split): its orders are counted from the endings whose first card is not p.
     * The hole card, dealt after, makes a natural with chance
     * (n_X - x_X) / (N - |x|).  C sums that over H, the paths and the endings: the
     * compositions of the first H - 1 hands merged (a sum of counts per composition), the
     * last hand's endings summed against them. */
    struct Ending {
        int x[N_RANKS];
        int size;
        double count;
    };

    /* a hand state of the walk between draws */
    struct State {
        int x[N_RANKS];      // cards drawn after the pair card
        int doubles;         // 0: not doubled
        double own, fr;
        int redoubles_left;
        bool operator<(const State& o) const {
            for (int r = 0; r < N_RANKS; ++r)
                if (x[r] != o.x[r]) return x[r] < o.x[r];
            return std::tie(doubles, own, fr, redoubles_left)
                   < std::tie(o.doubles, o.own, o.fr, o.redoubles_left);
        }
    };

    void set_hand(const int* x, int e) {
        w->clear_hand();
        w->pair_rank = pair;
        w->extra = e;
        w->free_hand = 0;
        w->add_card(p);
        for (int r = 0; r < N_RANKS; ++r)
            for (int c = 0; c < x[r]; ++c) w->add_card(r);
    }

    void end_here(std::map<std::vector<int>, double>& out, const int* x, double count) {
        out[std::vector<int>(x, x + N_RANKS)] += count;
    }

    /* a split hand's endings without standing (busted, rescued, a 21 paid at once) in the
     * context e, with the number of card orders that reach each; its second card any
     * rank, any but the pair's, or the pair's */
    enum { SECOND_ANY, SECOND_NOT_PAIR, SECOND_PAIR };
    std::vector<Ending> list_endings(int e, int second) {
        std::map<std::vector<int>, double> out;
        std::map<State, double> level;
        // A card the shoe cannot deal in the hand's context is not drawn (its endings have
        // the chance 0 below, and a frozen chart has no decision for them)
        double pi[N_RANKS];
        int none[N_RANKS] = {};
        set_hand(none, e);
        w->next_card_weights(pi);
        for (int r = 0; r < N_RANKS; ++r) {   // the second card: no decision before it
            if ((r == p && second == SECOND_NOT_PAIR) || (r != p && second == SECOND_PAIR))
                continue;
            if (pi[r] <= 0.0) continue;
            State s{};
            s.x[r] = 1;
            level[s] = 1.0;
        }
        while (!level.empty()) {
            std::map<State, double> next;
            for (const auto& kv : level) {
                w->poll_interrupt(N_RANKS);
                const State& s = kv.first;
                double count = kv.second;
                set_hand(s.x, e);
                int a;
                if (s.doubles == 0) {
                    a = w->is_charlie() ? ACT_STAND : law.continuation_action();
                } else {
                    a = law.doubled_action(s.own, s.fr, s.redoubles_left);
                    if (a == ACT_SURRENDER) { end_here(out, s.x, count); continue; }
                    if (a == ACT_STAND) {
                        if (!ends_standing(s.own)) end_here(out, s.x, count);
                        continue;
                    }
                }
                if (a == ACT_STAND || a == ACT_SURRENDER) {
                    // (a later surrender: a no-hole-card natural voids it, the hand stands)
                    if (!ends_standing(w->own_stake())) end_here(out, s.x, count);
                    continue;
                }
                State base_state = s;
                if (s.doubles == 0 && a == ACT_DOUBLE) {
                    base_state.own = w->own_stake();
                    base_state.fr = 0.0;
                    if (w->free_double_here()) base_state.fr += base_state.own;
                    else base_state.own += base_state.own;
                    base_state.doubles = 1;
                    base_state.redoubles_left = w->R.redoubles;
                } else if (s.doubles > 0) {   // a redouble
                    base_state.own *= 2.0;
                    base_state.fr *= 2.0;
                    base_state.doubles += 1;
                    base_state.redoubles_left -= 1;
                }
                w->next_card_weights(pi);
                for (int r = 0; r < N_RANKS; ++r) {
                    if (pi[r] <= 0.0) continue;
                    State c = base_state;
                    c.x[r]++;
                    w->add_card(r);
                    bool bust = w->hard > 21;
                    w->remove_card(r);
                    if (bust) end_here(out, c.x, count);
                    else next[c] += count;
                }
            }
            level.swap(next);
        }
        w->clear_hand();
        std::vector<Ending> endings;
        for (const auto& kv : out) {
            Ending en;
            en.size = 0;
            for (int r = 0; r < N_RANKS; ++r) {
                en.x[r] = kv.first[r];
                en.size += en.x[r];
            }
            en.count = kv.second;
            endings.push_back(en);
        }
        return endings;
    }

    bool ends_standing(double own) const { return own > 0.0 && !paid_at_once(); }

    /* The ways the resplits fall: paths[H][k] counts the orders of second cards that end
     * with H hands, k of them dealt their second card while fewer than M hands were out
     * (a card other than the pair's), the other H - k at the limit (any card).  With two
     * hands at most (M = 2): one way, k = 0. */
    void count_paths(int hands_out, int in_turn, int k, double paths[5][5]) const {
        if (in_turn > hands_out) {
            paths[hands_out][k] += 1.0;
            return;
        }
        if (hands_out < M && hands_out < 4) {
            count_paths(hands_out + 1, in_turn, k, paths);   // a pair card: split off
            count_paths(hands_out, in_turn + 1, k + 1, paths);
        } else {
            count_paths(hands_out, in_turn + 1, k, paths);
        }
    }

    /* compositions merged: the first hands' cards, with their summed counts */
    typedef unsigned __int128 CompKey;
    static CompKey comp_key(const int* x) {
        CompKey key = 0;
        for (int r = 0; r < N_RANKS; ++r) key |= (CompKey)(unsigned)x[r] << (8 * r);
        return key;
    }
    /* (its low bits index the table: every bit of the key moves them) */
    static size_t comp_hash(CompKey k) {
        uint64_t h = (uint64_t)k ^ ((uint64_t)(k >> 64) * 0x9E3779B97F4A7C15ULL);
        h = (h ^ (h >> 31)) * 0xBF58476D1CE4E5B9ULL;
        return (size_t)(h ^ (h >> 29));
    }
    /* composition -> its place in a list, open addressing in one array: a node-based map
     * of millions of compositions took as long to free (node by node) as to fill, which
     * held up a Ctrl-C by half a second */
    class CompIndex {
        struct Slot {
            CompKey key;   // 0: empty (every composition here holds a card)
            size_t at;
        };
        std::vector<Slot> slots;
        size_t count = 0;
        void grow() {
            std::vector<Slot> old(2 * slots.size(), Slot{0, 0});
            old.swap(slots);
            size_t mask = slots.size() - 1;
            for (const Slot& e : old)
                if (e.key != 0) {
                    size_t j = comp_hash(e.key) & mask;
                    while (slots[j].key != 0) j = (j + 1) & mask;
                    slots[j] = e;
                }
        }
      public:
        /* room for about ``expected`` keys before it grows */
        explicit CompIndex(size_t expected) {
            size_t cap = 16;
            while (cap < 2 * expected) cap *= 2;
            slots.assign(cap, Slot{0, 0});
        }
        /* the place of ``key``, or ``at`` (then recorded as its place) when it is new */
        size_t find_or_add(CompKey key, size_t at) {
            if (2 * (count + 1) > slots.size()) grow();
            size_t mask = slots.size() - 1, j = comp_hash(key) & mask;
            while (slots[j].key != 0) {
                if (slots[j].key == key) return slots[j].at;
                j = (j + 1) & mask;
            }
            slots[j] = Slot{key, at};
            ++count;
            return at;
        }
    };

    /* the sums a + b of a composition of ``first`` and an ending of ``hand``, merged; a
     * sum the unseen cards cannot deal (the resplits' pair cards counted) is dropped */
    std::vector<Ending> convolve(const std::vector<Ending>& first,
                                 const std::vector<Ending>& hand, int pair_cards) {
        std::vector<Ending> out;
        CompIndex at(first.size() + hand.size());
        for (const Ending& a : first) {
            w->poll_interrupt(hand.size());   // (Ctrl-C: these sums take minutes on 6 decks)
            for (const Ending& b : hand) {
                Ending s;
                s.size = a.size + b.size;
                bool dealt = true;
                for (int r = 0; r < N_RANKS; ++r) {
                    s.x[r] = a.x[r] + b.x[r];
                    if (!w->infinite && s.x[r] + (r == p ? pair_cards : 0) > base[r])
                        dealt = false;
                }
                if (!dealt) continue;
                s.count = a.count * b.count;
                size_t i = at.find_or_add(comp_key(s.x), out.size());
                if (i < out.size()) out[i].count += s.count;
                else out.push_back(s);
            }
        }
        return out;
    }

    /* sum over a in ``first``, b in ``last`` of count(a) count(b) F(a + b + pair_cards p)
     * times the natural's chance after them */
    double closing_sum(const std::vector<Ending>& first, const std::vector<Ending>& last,
                       int pair_cards) {
        int most = 0, total = 0, most_a = 0, most_b = 0, size_a = 0, size_b = 0;
        for (const Ending& e : first) {
            if (e.size > size_a) size_a = e.size;
            for (int r = 0; r < N_RANKS; ++r) if (e.x[r] > most_a) most_a = e.x[r];
        }
        for (const Ending& e : last) {
            if (e.size > size_b) size_b = e.size;
            for (int r = 0; r < N_RANKS; ++r) if (e.x[r] > most_b) most_b = e.x[r];
        }
        most = most_a + most_b + pair_cards;
        total = size_a + size_b + pair_cards;
        // fall[r][k] = (n_r)_k, den[k] = (N)_k; the infinite shoe: p_r^k and 1
        std::vector<double> fall(N_RANKS * (most + 1)), den(total + 2);
        double N = 0.0;
        for (int r = 0; r < N_RANKS; ++r) N += base[r];
        for (int r = 0; r < N_RANKS; ++r) {
            double v = 1.0;
            for (int k = 0; k <= most; ++k) {
                fall[r * (most + 1) + k] = v;
                double f = w->infinite ? base[r] : base[r] - k;
                v = f > 0.0 ? v * f : 0.0;
            }
        }
        double v = 1.0;
        for (int k = 0; k <= total + 1; ++k) {
            den[k] = v;
            double f = w->infinite ? 1.0 : N - k;
            v = f > 0.0 ? v * f : 0.0;
        }
        int nat_pairs = nat_rank == p ? pair_cards : 0;
        double sum = 0.0;
        for (const Ending& a : first) {
            w->poll_interrupt(last.size());
            const double* row[N_RANKS];   // (n_r)_(a_r + pair cards + j) at j
            for (int r = 0; r < N_RANKS; ++r)
                row[r] = &fall[r * (most + 1) + a.x[r] + (r == p ? pair_cards : 0)];
            for (const Ending& b : last) {
                int k = a.size + b.size + pair_cards;
                if (den[k] == 0.0) continue;
                double f = a.count * b.count / den[k];
                for (int r = 0; r < N_RANKS && f != 0.0; ++r) f *= row[r][b.x[r]];
                if (f == 0.0) continue;
                double nat;
                if (w->infinite) {
                    nat = base[nat_rank];
                } else {
                    double left = N - k,
                           n_x = base[nat_rank] - a.x[nat_rank] - b.x[nat_rank] - nat_pairs;
                    nat = (left > 0.0 && n_x > 0.0) ? n_x / left : 0.0;
                }
                sum += f * nat;
            }
        }
        return sum;
    }

    /* the infinite shoe: a hand's chance of ending on one of ``endings`` (each order of
     * cards dealt independently) */
    double chance_of(const std::vector<Ending>& endings) const {
        double sum = 0.0;
        for (const Ending& e : endings) {
            double f = e.count;
            for (int r = 0; r < N_RANKS; ++r)
                for (int c = 0; c < e.x[r]; ++c) f *= base[r];
            sum += f;
        }
        return sum;
    }

    static double binomial(int n, int j) {
        if (j < 0 || j > n) return 0.0;
        double b = 1.0;
        for (int i = 1; i <= j; ++i) b = b * (n - j + i) / i;
        return b;
    }

    double none_left_standing() {
        double paths[5][5] = {};
        count_paths(2, 1, 0, paths);
        double C = 0.0;
        for (int H = 2; H <= M; ++H) {
            bool any = false;
            for (int k = 0; k <= H; ++k) any = any || paths[H][k] != 0.0;
            if (!any) continue;
            // the hands' context in the walk's split assembly (the infinite shoe: one)
            int e = w->infinite ? 1 : H - 1;
            if (M == 2) {   // two hands, each second card any: one double sum
                std::vector<Ending> any_second = list_endings(e, SECOND_ANY);
                C += paths[H][0] * closing_sum(any_second, any_second, 0);
                continue;
            }
            // A hand at the limit takes any second card: the pair's or another.  Counted
            // by the number j of hands whose second card is the pair's (every hand's
            // endings alike), the round's ways are coef[j] = sum over k of
            // paths[H][k] * binomial(H - k, j), each such round summed once.
            double coef[5] = {};
            for (int k = 0; k <= H; ++k)
                for (int j = 0; j <= H - k; ++j) coef[j] += paths[H][k] * binomial(H - k, j);
            std::vector<Ending> other = list_endings(e, SECOND_NOT_PAIR);
            std::vector<Ending> paired = list_endings(e, SECOND_PAIR);
            if (w->infinite) {
                // the hands independent: a product of their chances
                double n = chance_of(other), q = chance_of(paired);
                for (int j = 0; j <= H; ++j)
                    if (coef[j] != 0.0)
                        C += coef[j] * std::pow(n, H - j) * std::pow(q, j)
                             * std::pow(base[p], H - 2) * base[nat_rank];
                continue;
            }
            // the first hands' compositions merged: H - j hands on ``other``, j - 1 on
            // ``paired``; the last hand's endings summed against them
            std::vector<std::vector<Ending>> others(1, std::vector<Ending>(1));
            for (int r = 0; r < N_RANKS; ++r) others[0][0].x[r] = 0;   // no hand yet: one way
            others[0][0].size = 0;
            others[0][0].count = 1.0;
            for (int i = 1; i < H; ++i) others.push_back(convolve(others[i - 1], other, H - 2));
            for (int j = 0; j <= H; ++j) {
                if (coef[j] == 0.0) continue;
                if (j == 0) {
                    C += coef[0] * closing_sum(others[H - 1], other, H - 2);
                    continue;
                }
                std::vector<Ending> first = others[H - j];
                for (int i = 1; i < j; ++i) first = convolve(first, paired, H - 2);
                C += coef[j] * closing_sum(first, paired, H - 2);
            }
        }
        return C;
    }

    /* the unseen cards: the shoe less the dealer's and the pair's two (the infinite
     * shoe: its chances) */
    std::vector<double> base;

    /* ---- the refund ------------------------------------------------------------------ */

    double refund() {
        base.assign(N_RANKS, 0.0);
        for (int r = 0; r < N_RANKS; ++r)
            base[r] = w->infinite ? w->shoe[r] : w->shoe[r] - w->dealer_cnt[r];
        if (!w->infinite) base[p] -= 2;
        double N = 0.0;
        for (int r = 0; r < N_RANKS; ++r) N += base[r];
        double B = (N > 0.0 && base[nat_rank] > 0.0) ? base[nat_rank] / N : 0.0;
        if (w->infinite) B = base[nat_rank];
        double A = standing_sum();
        none_standing = none_left_standing();
        w->clear_hand();
        return A - B + none_standing;
    }
    double none_standing = 0.0;   // C, kept for the round law (GameWalk::split_none_standing)
};

/* What BB+1 gives back of the walk's (OBBO's) split value of ``pair`` (M hands at most),
 * against a dealer natural that the upcard makes possible: 0 otherwise.  Leaves C (the
 * chance of a natural with no split hand standing) in w.split_none_standing for the round
 * law (game_law.h, GameLaw::bb1_settle_natural). */
template <class Walk>
double bb1_split_refund(Walk& w, int pair, int M) {
    w.split_none_standing[pair - 1] = 0.0;
    if (!(w.R.natural_loss == 2 && w.R.natural_takes_all && w.dealer_n == 1
          && (w.upcard == 1 || w.upcard == 10)))
        return 0.0;
    if (M < 2 || M > 4) return NAN;   // (hands_limit: 2 .. 4)
    BB1Split<Walk> bb1(&w, pair, M);
    double refund = bb1.refund();
    w.split_none_standing[pair - 1] = bb1.none_standing;
    return refund;
}

}  // namespace bjgame

#endif
