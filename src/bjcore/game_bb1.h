/* BB+1 in a split round of two hands (docs/games.md, "No hole card: what a dealer natural
 * takes").
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
 *   C = E[nat * [N = 0]] neither hand left standing (each busted, rescued or paid its 21):
 *                       a double sum over the endings of the two hands (below).
 *
 * The hands play the walk's own decisions (read as the round law reads them); those are
 * valued hand by hand with OBBO's charge of one unit for a standing hand, so they are the
 * best play of each hand alone, not the best play under BB+1's joint charge (a hand
 * behind one that stands owes nothing more for standing): the value is exact for that
 * play.  Two hands at most (max_split_hands 2: C for three or four hands is a triple or
 * quadruple sum, not written), no free splits: _game.pyx refuses the others.
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
        double X[MAX_A], Y[MAX_A], rho[N_RANKS];
        for (int a = 0; a < MAX_A; ++a) X[a] = Y[a] = 0.0;
        for (int a = 0; a <= amax; ++a) {
            if (w->infinite && a > 0) {
                X[a] = X[0];
                Y[a] = Y[0];
                continue;
            }
            if (!w->split_card_chances(p, a, rho)) continue;
            for (int r = 0; r < N_RANKS; ++r)
                if (rho[r] > 0.0) X[a] += rho[r] * pair_hand_standing(a + 1, r);
            if (rho[p] > 0.0) Y[a] = pair_hand_standing(a + 1, p);
        }
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

    /* ---- C: both hands end without standing ----------------------------------------- */

    /* Two hands (no resplit): hand 1 takes its second card and is played out, then hand
     * 2, from one shoe.  A given sequence of cards has the chance
     *     F(x) = prod_r (n_r)_(x_r) / (N)_(|x|)
     * (falling factorials; x its composition), whatever the order, so the chance that
     * hand 1 ends on composition a and hand 2 on b, neither standing, is c(a) c(b) F(a + b),
     * c(a) being the number of orders of a that the hand's play draws (its decisions read
     * its own cards only).  The hole card, dealt after, makes a natural with chance
     * (n_X - x_X) / (N - |x|).  So C = sum over a, b of c(a) c(b) F(a + b) nat(a + b),
     * from one list of a split hand's non-standing endings. */
    struct Ending {
        int x[N_RANKS];
        int size;
        double count;
    };
    std::vector<Ending> endings;

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

    void set_hand(const int* x) {
        w->clear_hand();
        w->pair_rank = pair;
        w->extra = 1;
        w->free_hand = 0;
        w->add_card(p);
        for (int r = 0; r < N_RANKS; ++r)
            for (int c = 0; c < x[r]; ++c) w->add_card(r);
    }

    void end_here(std::map<std::vector<int>, double>& out, const int* x, double count) {
        out[std::vector<int>(x, x + N_RANKS)] += count;
    }

    /* the split hand's endings without standing (busted, rescued, a 21 paid at once),
     * with the number of card orders that reach each */
    void list_endings() {
        std::map<std::vector<int>, double> out;
        std::map<State, double> level;
        for (int r = 0; r < N_RANKS; ++r) {   // the second card: no decision before it
            State s{};
            s.x[r] = 1;
            level[s] = 1.0;
        }
        while (!level.empty()) {
            std::map<State, double> next;
            for (const auto& kv : level) {
                const State& s = kv.first;
                double count = kv.second;
                set_hand(s.x);
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
                if (a == ACT_STAND) {
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
                for (int r = 0; r < N_RANKS; ++r) {
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
        endings.clear();
        for (const auto& kv : out) {
            Ending e;
            e.size = 0;
            for (int r = 0; r < N_RANKS; ++r) {
                e.x[r] = kv.first[r];
                e.size += e.x[r];
            }
            e.count = kv.second;
            endings.push_back(e);
        }
    }

    bool ends_standing(double own) const { return own > 0.0 && !paid_at_once(); }

    double both_end_without_standing() {
        list_endings();
        int most = 0, total = 0;
        for (const Ending& e : endings) {
            if (e.size > total) total = e.size;
            for (int r = 0; r < N_RANKS; ++r) if (e.x[r] > most) most = e.x[r];
        }
        most *= 2;
        total *= 2;
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
        double sum = 0.0;
        for (const Ending& a : endings)
            for (const Ending& b : endings) {
                int k = a.size + b.size;
                if (den[k] == 0.0) continue;
                double f = a.count * b.count / den[k];
                for (int r = 0; r < N_RANKS && f != 0.0; ++r)
                    f *= fall[r * (most + 1) + a.x[r] + b.x[r]];
                if (f == 0.0) continue;
                double nat;
                if (w->infinite) {
                    nat = base[nat_rank];
                } else {
                    double left = N - k, n_x = base[nat_rank] - a.x[nat_rank] - b.x[nat_rank];
                    nat = (left > 0.0 && n_x > 0.0) ? n_x / left : 0.0;
                }
                sum += f * nat;
            }
        return sum;
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
        double C = both_end_without_standing();
        w->clear_hand();
        return A - B + C;
    }
};

/* What BB+1 gives back of the walk's (OBBO's) split value of ``pair`` (M hands at most),
 * against a dealer natural that the upcard makes possible: 0 otherwise. */
template <class Walk>
double bb1_split_refund(Walk& w, int pair, int M) {
    if (!(w.R.natural_loss == 2 && w.R.natural_takes_all && w.dealer_n == 1
          && (w.upcard == 1 || w.upcard == 10)))
        return 0.0;
    if (M != 2) return NAN;   // (refused before: _game.pyx)
    BB1Split<Walk> bb1(&w, pair, M);
    return bb1.refund();
}

}  // namespace bjgame

#endif
