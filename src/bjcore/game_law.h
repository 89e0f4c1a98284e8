/* The law of one round's net result in the games (docs/risk.md, "The games"), beside the
 * game walk's values (game_walk.h).
 *
 * GameLaw<Walk> follows a GameWalk that has valued (or will value, lazily) the same dealer
 * key: every decision is the walk's own, read from its memo rows, its policy table or its
 * comparisons of ValueAcc means, so the law is that of exactly the play the solve (or a
 * frozen chart) chose, bit for bit.  What it adds is the law: for each hand state the joint
 * law of (the dealer's outcome, the hand's net result), kept sparse.
 *
 * Representation.  The games' results leave the classic half-unit lattice (free stakes,
 * bonus payouts 1.5/2/3 times a stake of 1..2, the super bonus of 200 units, redoubled
 * stakes of 8), and a round has few distinct results, so each result is an index into one
 * table of exact doubles (every result is a small sum of products of the stakes and the
 * payouts, exact in binary); a law is a vector of (probability, result index, dealer
 * outcome) kept sorted by (outcome, result), so that adding two laws is one merge.
 *
 * Memory.  One law per hand context the round reaches (the walk's memo rows, about 60 000
 * a dealer key in 6 decks) and per doubled-hand state; each holds a few dozen entries of
 * 16 bytes.  The tables live only while one key's round law is built (``forget``).
 *
 * Dealer naturals.  The walk's values charge a standing hand its own stake against a
 * dealer natural and give back at each double node what the natural does not take; a law
 * cannot carry such corrections.  Here every leaf (stand, bust, rescue) carries the dealer's
 * law for the cards gone, natural included, and where a natural takes only the original
 * bet (peek, ENHC-OBO: ``!natural_takes_all``) the round's natural row is then put at -1
 * (a player natural at its own payout), as the real round settles it.  No hole card
 * (``natural_takes_all``): the leaves' natural entries are what the natural takes from
 * that hand, as the walk charges it: ENHC its whole own stake, OBBO / BB+1 (the same
 * without a split) its own stake before any double (a rescue: its original stake, settled
 * at once), and nothing from a 21 paid at once (``player_21_beats_natural``: paid as it
 * wins).  BB+1's split hands that stand at the natural are marked instead
 * (LAW_NATURAL_STANDING, 0 of their own): the box pays one unit for them together, settled
 * when the hands are combined (combine, bb1_settle_natural).  A bust keeps the
 * dealer's law of the busted hand's cards, so that a hand's dealer marginal is the
 * dealer's law of the shoe it was dealt from, whatever the play (the splits use that).
 *
 * Splits.  A split that can make two hands only, on a finite shoe of whole counts: the
 * exact joint law of both hands and the dealer (game_two_hands.h).  Any other split: the
 * walk's split construction (the X / N blocks, the removal recursions, the
 * weights over the number of hands) applied to laws entry by entry (every step is linear);
 * within one pattern of hands the hands are combined as independent given the dealer's
 * outcome.  Exact on an infinite shoe; on a finite shoe the cards the split hands take
 * from one another are left out of the pmf (not out of the mean: each hand keeps its own
 * exact joint law with the dealer), and its second moment can be made exact beside it
 * (want_moments: game_split_moments.h, from every pair of hands).  BB+1's one unit
 * depends on the hands together (whether any stands at the natural): its chance is made
 * the walk's exact one (bb1_settle_natural), so that the mean stays exact there too.
 */
#ifndef BJSOLVE_GAME_LAW_H
#define BJSOLVE_GAME_LAW_H

#include <algorithm>
#include <cstring>
#include <map>
#include <utility>
#include <vector>

#include "game_walk.h"

namespace bjgame {

struct LawEntry {
    double p;
    uint32_t key;   // dealer outcome t << 16 | result index
};
typedef std::vector<LawEntry> Law;

static inline uint32_t law_key(int t, int v) { return ((uint32_t)t << 16) | (uint32_t)v; }
/* a dealer outcome of the laws only: a natural that finds this BB+1 split hand standing
 * (not charged by the hand: the box pays one unit for all its standing hands, settled in
 * GameLaw::combine and bb1_settle_natural; never in a round's law) */
enum { LAW_NATURAL_STANDING = N_OUT };
static inline int law_t(uint32_t key) { return (int)(key >> 16); }
static inline int law_v(uint32_t key) { return (int)(key & 0xFFFF); }

/* a * A + b * B, both sorted by key.  (The merges write through a pointer into room made
 * first: push_back's capacity test and call per entry were an eighth of a law walk.) */
static inline Law law_combine(double a, const Law& A, double b, const Law& B) {
    Law out(A.size() + B.size());
    LawEntry* o = out.data();
    size_t i = 0, j = 0, k = 0;
    const size_t na = A.size(), nb = B.size();
    while (i < na || j < nb) {
        if (j >= nb || (i < na && A[i].key < B[j].key)) {
            o[k++] = LawEntry{a * A[i].p, A[i].key};
            ++i;
        } else if (i >= na || B[j].key < A[i].key) {
            o[k++] = LawEntry{b * B[j].p, B[j].key};
            ++j;
        } else {
            o[k++] = LawEntry{a * A[i].p + b * B[j].p, A[i].key};
            ++i;
            ++j;
        }
    }
    out.resize(k);
    return out;
}
/* out += w * in: law_combine's merge with a = 1 (the same bits), into a buffer kept by
 * the thread and swapped with ``out`` (a hand's law sums up to ten children: a new vector
 * for each sum was a sixth of a law walk's time, in its allocations).  Its own loop: the
 * merge shared with law_combine (a law_combine_into) made the laws 2-8% slower, measured */
static inline void law_add(Law& out, double w, const Law& in) {
    if (in.empty() || w == 0.0) return;
    const size_t no = out.size(), ni = in.size();
    if (no == 0) {
        out.resize(ni);
        LawEntry* o = out.data();
        for (size_t j = 0; j < ni; ++j) o[j] = LawEntry{w * in[j].p, in[j].key};
        return;
    }
    thread_local Law merged;
    if (merged.size() < no + ni) merged.resize(no + ni);
    LawEntry* m = merged.data();
    const LawEntry* x = out.data();
    const LawEntry* y = in.data();
    size_t i = 0, j = 0, k = 0;
    while (i < no || j < ni) {
        if (j >= ni || (i < no && x[i].key < y[j].key)) {
            m[k++] = x[i];
            ++i;
        } else if (i >= no || y[j].key < x[i].key) {
            m[k++] = LawEntry{w * y[j].p, y[j].key};
            ++j;
        } else {
            m[k++] = LawEntry{x[i].p + w * y[j].p, x[i].key};
            ++i;
            ++j;
        }
    }
    out.assign(m, m + k);
}
/* sort by key and merge equal keys (a law built entry by entry) */
static inline size_t law_normalize_entries(LawEntry* e, size_t n) {
    std::sort(e, e + n, [](const LawEntry& x, const LawEntry& y) { return x.key < y.key; });
    size_t k = 0;
    for (size_t i = 0; i < n; ++i) {
        if (k > 0 && e[k - 1].key == e[i].key) e[k - 1].p += e[i].p;
        else e[k++] = e[i];
    }
    return k;
}
static inline void law_normalize(Law& L) { L.resize(law_normalize_entries(L.data(), L.size())); }
/* a leaf's law from its entries made in a small array (one allocation of the right size:
 * a push_back per entry was a twentieth of a law walk) */
static inline Law law_of_entries(LawEntry* e, size_t n) {
    n = law_normalize_entries(e, n);
    return Law(e, e + n);
}

}  // namespace bjgame

#include "game_two_hands.h"   // (a split into two hands: its exact law)
#include "game_split_moments.h"   // (a split that may make 3-4 hands: its exact variance)


namespace bjgame {

template <class Walk>
class GameLaw {
  public:
    Walk* w;
    std::vector<double> values;          // result index -> net result (units)
    std::map<double, int> value_index;
    FlatIndex memo_index;                // hand context -> continuation law
    std::vector<Law> memo;
    FlatIndex doubled_index[8];          // (doubles made, free first double) -> law
    FlatIndex bust_index;                // removed cards of a busted hand -> dealer law
    std::vector<double> bust_rows;
    long combined_splits = 0;            // splits whose hands were combined (finite shoe)
    /* while the hand trees of a two-hand split are built (game_two_hands.h): every leaf is
     * made against a dealer at chance 1 for each outcome, which makes it the hand's result
     * given the dealer's outcome */
    bool given_outcome = false;
    double ones[N_OUT] = {1, 1, 1, 1, 1, 1, 1, 1};
    double law_max_marginal_gap = 0.0;   // largest gap between split hands' dealer marginals
    /* The exact second moments of the splits the law combines (want_moments; a split
     * that may make 3-4 hands: game_split_moments.h).  m2_fix[t]: what the round's
     * E[S^2 ; t] adds to the law's own (round_law, or start_law's round); split_m*: the
     * last split_law's moments while start_law settles its round; moments_inexact: the
     * combined splits (finite shoe) whose variance stays the combination's;
     * moments_mean_gap: the largest gap between a split's exact E[S ; t] and its law's
     * (a check: both are exact). */
    bool want_moments = false;
    double m2_fix[N_OUT] = {0}, start_fix[N_OUT] = {0};
    double split_p[N_OUT], split_m1[N_OUT], split_m2[N_OUT];
    bool split_moments_made = false;
    long moments_inexact = 0;
    double moments_mean_gap = 0.0;

    explicit GameLaw(Walk* walk) : w(walk) {}

    int vid(double x) {
        if (x == 0.0) x = 0.0;   // (no -0)
        auto it = value_index.find(x);
        if (it != value_index.end()) return it->second;
        int i = (int)values.size();
        values.push_back(x);
        value_index.emplace(x, i);
        return i;
    }

    /* ---- leaves ------------------------------------------------------------------- */

    /* the dealer's outcome law a leaf is settled against: the walk's for the hand's cards
     * gone (or 1 for each outcome: given_outcome) */
    const double* leaf_dealer() { return given_outcome ? ones : w->dealer_outcomes(); }

    /* BB+1 (no hole card): the round's natural takes one unit in all from the hands still
     * standing; a split hand standing at it is marked, not charged (game_bb1.h) */
    bool bb1_round() const { return w->R.natural_loss == 2 && w->R.natural_takes_all; }
    bool bb1_marks() const { return bb1_round() && w->pair_rank != 0; }
    LawEntry standing_at_natural(double p) {
        return LawEntry{p, law_key(LAW_NATURAL_STANDING, vid(0.0))};
    }

    /* the dealer's outcome law for a busted hand's cards (the walk keeps only those of
     * hands still standing) */
    const double* bust_dealer() {
        if (given_outcome) return ones;
        uint64_t key = w->removed_key();
        int found = bust_index.find(key);
        if (found >= 0) return &bust_rows[(size_t)found * N_OUT];
        double n[N_RANKS], out[N_OUT], left;
        bust_shoe(n, left);
        w->dealer.law(n, left, out);
        return store_bust(key, out);
    }
    /* the shoe the dealer draws from after the current (busted) hand */
    void bust_shoe(double* n, double& left) const {
        left = 0.0;
        if (w->infinite) {
            for (int r = 0; r < N_RANKS; ++r) n[r] = w->shoe[r];
            left = 1.0;
            return;
        }
        w->remaining(n);
        for (int r = 0; r < N_RANKS; ++r) {
            if (n[r] < 0.0 && w->pair_rank != 0) n[r] = 0.0;
            left += n[r];
        }
    }
    const double* store_bust(uint64_t key, double* out) {
        over_as_complement(out);
        int row = (int)(bust_rows.size() / N_OUT);
        bust_rows.insert(bust_rows.end(), out, out + N_OUT);
        bust_index.insert(key, row);
        return &bust_rows[(size_t)row * N_OUT];
    }
    /* Before a draw (next card chances ``pi``): the laws of the busting cards' hands not
     * known yet, in one batched pass (DealerDraws::law_batch, each shoe's arithmetic
     * law()'s: the laws bust_dealer would make, bit for bit).  A hand of hard 12 and up
     * busts by several ranks, each bust a dealer law of its own: one pass each, they were
     * a fifth of a Free Bet outcome distribution. */
    void bust_laws_ahead(const double* pi) {
        double n[N_RANKS * N_RANKS], left[N_RANKS], out[N_RANKS * N_OUT];
        uint64_t keys[N_RANKS];
        int count = 0;
        for (int r = 0; r < N_RANKS; ++r) {
            if (pi[r] <= 0.0 || w->hard + r + 1 <= 21) continue;
            w->add_card(r);
            uint64_t key = w->removed_key();
            bool known = bust_index.find(key) >= 0;
            for (int i = 0; i < count && !known; ++i) known = keys[i] == key;
            if (!known) {
                bust_shoe(n + count * N_RANKS, left[count]);
                keys[count++] = key;
            }
            w->remove_card(r);
        }
        if (count < 2) return;   // (one: bust_dealer's single pass is the cheaper)
        w->dealer.law_batch(n, left, count, out);
        for (int i = 0; i < count; ++i) store_bust(keys[i], out + i * N_OUT);
    }

    /* every dealer outcome: the result x, a dealer natural: x_natural */
    Law flat_law(const double* d, double x, double x_natural) {
        LawEntry e[N_OUT];
        size_t n = 0;
        int v = vid(x), vn = vid(x_natural);
        for (int t = 0; t < N_OUT; ++t)
            if (d[t] != 0.0) e[n++] = LawEntry{d[t], law_key(t, t == D_NATURAL ? vn : v)};
        return Law(e, e + n);
    }

    Law bust_law(double own) { return flat_law(bust_dealer(), -own, -own); }

    /* what a winning standing hand is paid per unit of stake: (chance, payout) pairs,
     * the suits of 6-7-8 and 7-7-7 apart (the walk's bonus_multiplier is their mean) */
    int win_options(bool bonus, double* q, double* m) const {
        q[0] = 1.0;
        m[0] = 1.0;
        const GameRules& R = w->R;
        if (!bonus || (w->pair_rank != 0 && !R.bonus_after_split) || w->total() != 21)
            return 1;
        int n = w->n_cards;
        if (n >= 5) {
            m[0] = R.bonus_21[n >= 7 ? 2 : n - 5];
            return 1;
        }
        if (n != 3) return 1;
        if (w->cnt[5] == 1 && w->cnt[6] == 1 && w->cnt[7] == 1) {
            q[0] = 60.0 / 64.0; q[1] = 3.0 / 64.0; q[2] = 1.0 / 64.0;
            m[0] = R.bonus_678[0]; m[1] = R.bonus_678[1]; m[2] = R.bonus_678[2];
            return 3;
        }
        if (w->cnt[6] == 3) {
            double s = w->seven_suit_chance();
            q[0] = 1.0 - 4.0 * s;
            m[0] = R.bonus_777[0];
            if (R.super_bonus > 0.0 && w->pair_rank == 0 && w->upcard == 7) {
                q[1] = 4.0 * s;
                m[1] = R.super_bonus;
                return 2;
            }
            q[1] = 3.0 * s; q[2] = s;
            m[1] = R.bonus_777[1]; m[2] = R.bonus_777[2];
            return 3;
        }
        return 1;
    }

    /* a hand standing with stake (own, fr), settled as the walk's stand_law + settle */
    Law stand_law(double own, double fr, bool bonus) {
        const GameRules& R = w->R;
        const double* d = leaf_dealer();
        int t = w->total();
        bool always = R.player_21_wins && t == 21;
        double q[3], m[3];
        int k = win_options(bonus, q, m);
        int lose = vid(-own), tie = vid(R.tie_value * own), push = vid(0.0);
        int win[3];
        for (int i = 0; i < k; ++i) win[i] = vid((own + fr) * m[i]);
        // no hole card: a dealer natural takes a doubled hand's own stake before the
        // doubles under OBBO / BB+1 (the walk's natural_loss_stand), and never a 21 paid at
        // once (player_21_beats_natural)
        int natural_lose = R.natural_loss ? vid(-w->own_stake()) : lose;
        LawEntry L[3 * N_OUT];
        size_t n = 0;
        for (int o = 0; o < N_OUT; ++o) {
            if (d[o] == 0.0) continue;
            int kind;   // 0 win, 1 lose, 2 tie, 3 push
            if (o < 5) kind = (always || t > 17 + o) ? 0 : (t < 17 + o ? 1 : 2);
            else if (o == D_NATURAL) kind = (always && R.player_21_beats_natural) ? 0 : 1;
            else if (o == D_22) kind = (always || !R.dealer_22_push) ? 0 : 3;
            else kind = 0;
            if (kind == 1 && o == D_NATURAL) {
                L[n++] = bb1_marks() ? standing_at_natural(d[o])
                                     : LawEntry{d[o], law_key(o, natural_lose)};
                continue;
            }
            if (kind == 0) {
                for (int i = 0; i < k; ++i)
                    if (q[i] != 0.0) L[n++] = LawEntry{d[o] * q[i], law_key(o, win[i])};
            } else {
                L[n++] = LawEntry{d[o], law_key(o, kind == 1 ? lose : kind == 2 ? tie : push)};
            }
        }
        return law_of_entries(L, n);
    }

    /* ---- the hand -------------------------------------------------------------------- */

    /* the action the walk's ``continuation`` takes for the current hand */
    int continuation_action() {
        const GameRules& R = w->R;
        int row = w->lookup();
        if (w->split_aces_stand()) {
            if (!(w->n_cards == 2 && w->may_double())) return ACT_STAND;
            return w->split_aces_choice(row);
        }
        if (R.split_class == SPLIT_POLICY && w->pair_rank != PAIR_GENERIC) {
            int a = w->policy_action(w->is_split() ? KIND_SPLIT : KIND_LATER);
            if (w->split_aces_stand() && a != ACT_DOUBLE) a = ACT_STAND;
            if (a == ACT_SURRENDER && !w->may_surrender_later()) a = ACT_STAND;
            return a;
        }
        int a = w->rows[row].choice;
        if (a < 0) {
            a = w->strategy_choice(row);
            w->rows[row].choice = (int8_t)a;
        }
        return a;
    }

    /* (a reference into the memo: valid until the next law is memoised) */
    const Law& continuation_law() {
        uint64_t key = w->context_key();
        int found = memo_index.find(key);
        if (found >= 0) return memo[found];
        Law L = w->is_charlie() ? charlie_law() : action_law(continuation_action());
        memo_index.insert(key, (int)memo.size());
        memo.push_back(std::move(L));
        return memo.back();
    }

    /* stand, hit or double of the current hand (the walk's value_at) */
    Law action_law(int a) {
        if (a == ACT_HIT) return hit_law();
        if (a == ACT_SURRENDER) {
            // a later surrender (surrender_any_time; the walk's later_surrender_value): a
            // dealer natural voids it, the hand stands
            double own = w->own_stake();
            if (!bb1_marks()) return flat_law(leaf_dealer(), -0.5 * own, -own);
            Law L = flat_law(leaf_dealer(), -0.5 * own, 0.0);
            for (LawEntry& e : L)
                if (law_t(e.key) == D_NATURAL) e = standing_at_natural(e.p);
            law_normalize(L);
            return L;
        }
        if (a == ACT_DOUBLE) return double_law();
        if (w->is_natural()) {
            const double* d = w->dealer_outcomes();
            if (w->R.diamond_blackjack_payout != 0.0) return diamond_natural_law(d);
            return flat_law(d, w->R.blackjack_payout,
                            w->hole_rank >= 0 ? w->R.natural_tie_value : w->R.blackjack_payout);
        }
        if (w->is_charlie()) return charlie_law();
        return stand_law(w->own_stake(), w->free_hand ? 1.0 : 0.0, true);
    }

    /* a natural under diamond_blackjack_payout: one in 16 is in diamonds (the walk's
     * diamond_natural_value), paid the diamond payout, against a dealer natural too where
     * the tie is paid as a natural */
    Law diamond_natural_law(const double* d) {
        const GameRules& R = w->R;
        double tie = w->hole_rank >= 0 ? R.natural_tie_value : R.blackjack_payout;
        double diamond_tie = tie == R.blackjack_payout ? R.diamond_blackjack_payout : tie;
        return law_combine(15.0 / 16.0, flat_law(d, R.blackjack_payout, tie), 1.0 / 16.0,
                           flat_law(d, R.diamond_blackjack_payout, diamond_tie));
    }

    /* a charlie (the walk's charlie_value): it wins whatever the dealer's total, its stake
     * times the 21 bonus where one is paid; a dealer natural takes its own stake */
    Law charlie_law() {
        const GameRules& R = w->R;
        const double* d = leaf_dealer();
        double own = w->own_stake(), fr = w->free_hand ? 1.0 : 0.0, q[3], m[3];
        int k = win_options(true, q, m);
        int lose = vid(-own), win[3];
        for (int i = 0; i < k; ++i) win[i] = vid((own + fr) * m[i]);
        // (a charlie of 21 is paid before a natural under player_21_beats_natural, as the
        // walk's stand law pays it)
        bool paid = R.player_21_wins && R.player_21_beats_natural && w->total() == 21;
        Law L;
        for (int o = 0; o < N_OUT; ++o) {
            if (d[o] == 0.0) continue;
            if (o == D_NATURAL && !paid) {
                L.push_back(bb1_marks() ? standing_at_natural(d[o])
                                        : LawEntry{d[o], law_key(o, lose)});
                continue;
            }
            for (int i = 0; i < k; ++i)
                if (q[i] != 0.0) L.push_back(LawEntry{d[o] * q[i], law_key(o, win[i])});
        }
        law_normalize(L);
        return L;
    }

    Law hit_law() {
        double pi[N_RANKS];
        w->next_card_weights(pi);
        double own = w->own_stake();
        bust_laws_ahead(pi);
        Law L;
        for (int r = 0; r < N_RANKS; ++r) {
            if (pi[r] <= 0.0) continue;
            w->add_card(r);
            if (w->hard > 21) law_add(L, pi[r], bust_law(own));
            else law_add(L, pi[r], continuation_law());
            w->remove_card(r);
        }
        return L;
    }

    Law double_law() {
        double own, fr;
        int free_first;
        first_double_stakes(own, fr, free_first);
        return doubled_draw_law(own, fr, w->R.redoubles, 1, free_first);
    }

    /* the current hand's stakes (own, free) once it doubles, and whether the double is
     * free */
    void first_double_stakes(double& own, double& fr, int& free_first) const {
        own = w->own_stake();
        fr = w->free_hand ? 1.0 : 0.0;
        free_first = 0;
        if (w->free_double_here()) {
            fr += own + fr;
            free_first = 1;
        } else {
            own += own + fr;
        }
    }

    /* the rescue after a double (``own``: the doubled own stake): the double taken back,
     * the original stake lost, settled at once (the walk's rescue_value; OBBO / BB+1: a
     * natural then takes no more) */
    Law rescue_law(double own) {
        return flat_law(leaf_dealer(), -w->own_stake(), w->R.natural_loss ? -w->own_stake() : -own);
    }

    /* the walk's doubled_draw (its natural refund is the round's natural row, above) */
    Law doubled_draw_law(double own, double fr, int redoubles_left, int doubles,
                         int free_first) {
        double pi[N_RANKS];
        w->next_card_weights(pi);
        bust_laws_ahead(pi);
        Law L;
        for (int r = 0; r < N_RANKS; ++r) {
            if (pi[r] <= 0.0) continue;
            w->add_card(r);
            if (w->hard > 21) law_add(L, pi[r], bust_law(own));
            else law_add(L, pi[r], doubled_choice_law(own, fr, redoubles_left, doubles,
                                                      free_first));
            w->remove_card(r);
        }
        return L;
    }

    /* the walk's doubled_choice: stand, redouble or rescue, as it picks them */
    /* (a reference into the memo, as continuation_law's) */
    const Law& doubled_choice_law(double own, double fr, int redoubles_left, int doubles,
                                  int free_first) {
        FlatIndex& index = doubled_index[((doubles - 1) & 3) * 2 + free_first];
        uint64_t key = w->context_key();
        int found = index.find(key);
        if (found >= 0) return memo[found];
        int choice = doubled_action(own, fr, redoubles_left);
        Law L;
        if (choice == ACT_DOUBLE)
            L = doubled_draw_law(2.0 * own, 2.0 * fr, redoubles_left - 1, doubles + 1, free_first);
        else if (choice == ACT_SURRENDER)
            L = rescue_law(own);
        else
            L = stand_law(own, fr, false);
        index.insert(key, (int)memo.size());
        memo.push_back(std::move(L));
        return memo.back();
    }

    /* the action the walk's doubled_choice takes after a double's card, the doubled stake
     * (own, fr): ACT_STAND, ACT_DOUBLE (redouble) or ACT_SURRENDER (the rescue) */
    int doubled_action(double own, double fr, int redoubles_left) {
        int choice = ACT_STAND;
        w->doubled_choice_at(w->lookup(), own, fr, redoubles_left, &choice);
        return choice;
    }

    /* ---- splits ------------------------------------------------------------------------- */

    Law pair_hand_law(int pair, int e, int second, int free) {
        w->clear_hand();
        w->pair_rank = pair;
        w->extra = e;
        w->free_hand = free;
        w->add_card(pair - 1);
        w->add_card(second);
        Law L = continuation_law();
        w->clear_hand();
        return L;
    }

    void blocks_law(int pair, int amax, int free, Law* X, Law* Y) {
        for (int a = 0; a < MAX_A; ++a) X[a].clear(), Y[a].clear();
        w->split_blocks(pair, amax, X, Y,
                        [&](int e, int r) { return pair_hand_law(pair, e, r, free); },
                        [](Law& x, double wt, const Law& v) { law_add(x, wt, v); });
    }

    static Law remove_unknown(const Law& whole, const Law& pair_part, double g) {
        if (g >= 1.0) return Law();
        if (g == 0.0) return whole;
        return law_combine(1.0 / (1.0 - g), whole, -g / (1.0 - g), pair_part);
    }

    void removal_tables(int M, double m, double n, double pp, const Law* X, const Law* Y,
                        Law XT[MAX_A][MAX_A], Law NT[MAX_A][MAX_A]) {
        for (int a = 0; a < 2 * M - 3; ++a) {
            XT[a][0] = X[a];
            NT[a][0] = remove_unknown(X[a], Y[a], w->gamma(m, n, a, 0, pp));
        }
        for (int b = 1; b < 2 * M - 3; ++b)
            for (int a = 0; a < 2 * M - 3 - b; ++a) {
                XT[a][b] = remove_unknown(XT[a][b - 1], XT[a + 1][b - 1],
                                          w->gamma(m, n + 1, a, b, pp));
                NT[a][b] = remove_unknown(NT[a][b - 1], NT[a + 1][b - 1],
                                          w->gamma(m, n, a, b, pp));
            }
    }

    struct Group {
        const Law* law;
        int count;
    };

    /* out += weight * the law of the hands of ``groups`` (count hands of each law) taken
     * as independent given the dealer's outcome t.  The dealer's chance of t is the
     * largest of the groups' marginals (equal on a whole shoe: a hand's marginal is the
     * dealer's law of the shoe it is dealt from); a hand's results given t are its law's
     * entries over that chance, the rest on a result of 0, so that each hand adds its own
     * law's mean to the round's, as it adds its block's value to the walk's split value.
     * BB+1: given a natural, the hands' marked entries (standing) count in t's chance and
     * the combination keeps whether any hand stands: such rounds go out under
     * LAW_NATURAL_STANDING, their unit not yet paid (bb1_settle_natural pays it). */
    void combine(double weight, const Group* groups, int n_groups, Law& out) {
        if (weight == 0.0) return;
        Law add;
        for (int t = 0; t < N_OUT; ++t) {
            bool marked = t == D_NATURAL && bb1_round();
            auto at_t = [&](uint32_t key) {
                return law_t(key) == t || (marked && law_t(key) == LAW_NATURAL_STANDING);
            };
            // a hand's (or the hands') state given t: result index * 2 + whether standing
            auto state = [](uint32_t key) {
                return law_v(key) * 2 + (law_t(key) == LAW_NATURAL_STANDING ? 1 : 0);
            };
            double marg[4], p_t = 0.0;
            for (int g = 0; g < n_groups; ++g) {
                marg[g] = 0.0;
                if (groups[g].count == 0) continue;
                for (const LawEntry& e : *groups[g].law)
                    if (at_t(e.key)) marg[g] += e.p;
                if (marg[g] > p_t) p_t = marg[g];
            }
            for (int g = 0; g < n_groups; ++g)
                if (groups[g].count > 0) {
                    double gap = std::fabs(marg[g] - p_t);
                    if (gap > law_max_marginal_gap) law_max_marginal_gap = gap;
                }
            if (p_t == 0.0) continue;
            if (t == D_NATURAL && !w->R.natural_takes_all) {
                add.push_back(LawEntry{p_t, law_key(t, vid(-1.0))});   // one unit in all
                continue;
            }
            std::map<int, double> conv;   // state (above) -> chance, given t
            conv[vid(0.0) * 2] = 1.0;
            for (int g = 0; g < n_groups; ++g) {
                if (groups[g].count == 0) continue;
                std::map<int, double> q;
                double rest = 1.0;
                for (const LawEntry& e : *groups[g].law)
                    if (at_t(e.key)) {
                        q[state(e.key)] += e.p / p_t;
                        rest -= e.p / p_t;
                    }
                if (rest != 0.0) q[vid(0.0) * 2] += rest;
                for (int c = 0; c < groups[g].count; ++c) {
                    std::map<int, double> next;
                    for (const auto& x : conv)
                        for (const auto& y : q)
                            next[vid(values[x.first / 2] + values[y.first / 2]) * 2
                                 + ((x.first | y.first) & 1)] += x.second * y.second;
                    conv.swap(next);
                }
            }
            for (const auto& x : conv)
                if (x.second != 0.0)
                    add.push_back(LawEntry{p_t * x.second,
                                           law_key((x.first & 1) ? (int)LAW_NATURAL_STANDING : t,
                                                   x.first / 2)});
        }
        law_normalize(add);
        law_add(out, weight, add);
    }

    /* whether a split of ``pair`` (at most M hands) makes two hands only, on a finite shoe
     * of whole counts that the round cannot run out of (its law then exact:
     * game_two_hands.h; a fractional shoe, or one so small that a hand or the dealer could
     * want a card from an empty shoe, keeps the combination: there the values follow the
     * engines' conventions for an empty shoe, which describe no real game and which the
     * two-hand law would not follow) */
    bool two_hands_only(int pair, int M) const {
        if (w->infinite) return false;
        for (int r = 0; r < N_RANKS; ++r)
            if (w->shoe[r] != std::floor(w->shoe[r])) return false;
        // (deal.round_may_run_out's count, made for two hands: while a card is wanted, a
        // finished hand holds at most 31 hard points, the hand playing at most 20 and the
        // dealer, who stops once his hard points reach 17, at most 16 before his last
        // card; a shoe of 2 * 31 + 17 points or more always has the card)
        double points = 0.0;
        for (int r = 0; r < N_RANKS; ++r) points += (r + 1) * w->shoe[r];
        if (points < 2 * 31 + 17) return false;
        int p = pair - 1;
        return M == 2 || w->shoe[p] - 2 - w->dealer_cnt[p] <= 0;
    }

    /* whether the exact second moment of a split of ``pair`` that may make M > 2 hands is
     * made (game_split_moments.h): a finite shoe of whole counts that a round of M hands
     * cannot run out of (two_hands_only's count: M finished hands of 31 hard points at
     * most, and the dealer's 16 before his last card); a split hand's play decided in
     * one context whatever the extra pair cards gone (not CDP, nor a chart frozen from
     * CDP); not BB+1 (its unit depends on every hand at once) */
    bool moments_apply(int M) const {
        if (w->infinite) return false;
        double points = 0.0;
        for (int r = 0; r < N_RANKS; ++r) {
            if (w->shoe[r] != std::floor(w->shoe[r])) return false;
            points += (r + 1) * w->shoe[r];
        }
        if (points < 31.0 * M + 17) return false;
        if (w->R.split_class == SPLIT_CDP) return false;
        if (w->R.split_class == SPLIT_POLICY && w->policy->split_context == 2) return false;
        return !bb1_round();
    }

    /* the law of splitting the pair: the walk's split_value, with laws */
    Law split_law(int pair) {
        Law out;
        int M = w->hands_limit(pair);
        int p = pair - 1;
        split_moments_made = false;
        if (M < 2) return out;
        w->split_value(pair);   // (the walk's dealer laws of the split contexts, as it makes them)
        if (two_hands_only(pair, M)) return TwoHandSplit<Walk>(*this, pair).law();
        bool free_split = (w->R.free_split_ranks >> pair) & 1;
        int amax = 2 * M - 4;
        if (!w->infinite && w->shoe[p] - 2 < amax) amax = (int)w->shoe[p] - 2;
        std::vector<Law> store(4 * MAX_A + 4 * MAX_A * MAX_A);
        Law* Xo = &store[0];
        Law* Yo = &store[MAX_A];
        Law* Xf = &store[2 * MAX_A];
        Law* Yf = &store[3 * MAX_A];
        typedef Law Table[MAX_A][MAX_A];
        Table& XTo = *reinterpret_cast<Table*>(&store[4 * MAX_A]);
        Table& NTo = *reinterpret_cast<Table*>(&store[4 * MAX_A + MAX_A * MAX_A]);
        Table& XTf = *reinterpret_cast<Table*>(&store[4 * MAX_A + 2 * MAX_A * MAX_A]);
        Table& NTf = *reinterpret_cast<Table*>(&store[4 * MAX_A + 3 * MAX_A * MAX_A]);
        w->extra_max = amax + 1;
        blocks_law(pair, amax, 0, Xo, Yo);
        if (free_split) blocks_law(pair, amax, 1, Xf, Yf);
        w->extra_max = 0;
        double pp, m, n;
        w->split_removal_params(p, m, n, pp);
        double q = n - m;
        removal_tables(M, m, n, pp, Xo, Yo, XTo, NTo);
        if (free_split) removal_tables(M, m, n, pp, Xf, Yf, XTf, NTf);
        if (!w->infinite) {
            combined_splits++;
            if (want_moments && moments_apply(M)) {
                SplitMoments<Walk>(*this, pair).moments(split_p, split_m1, split_m2);
                split_moments_made = true;
            } else {
                moments_inexact++;
            }
        }
        for (int h = 2; h < M; ++h) {
            double wt = (h == 2 ? 1.0 : 2.0) * w->draw_ratio(m, q, n, h - 2, h, pp);
            if (wt == 0.0) continue;
            if (free_split) {
                Group g[2] = {{&NTo[h - 2][h - 1], 1}, {&NTf[h - 2][h - 1], h - 1}};
                combine(wt, g, 2, out);
            } else {
                Group g[1] = {{&NTo[h - 2][h - 1], h}};
                combine(wt, g, 1, out);
            }
        }
        for (int k = 0; k < M - 1; ++k) {
            double wt = ((M == 4 && k >= 1) ? 2.0 : 1.0) * w->draw_ratio(m, q, n, M - 2, k, pp);
            if (wt == 0.0) continue;
            if (!free_split) {
                Group g[2] = {{k > 0 ? &NTo[M - 2][k - 1] : &NTo[M - 2][0], k},
                              {&XTo[M - 2][k], M - k}};
                combine(wt, g, 2, out);
            } else if (k > 0) {
                Group g[3] = {{&NTo[M - 2][k - 1], 1}, {&NTf[M - 2][k - 1], k - 1},
                              {&XTf[M - 2][k], M - k}};
                combine(wt, g, 3, out);
            } else {
                Group g[2] = {{&XTo[M - 2][0], 1}, {&XTf[M - 2][0], M - 1}};
                combine(wt, g, 2, out);
            }
        }
        if (bb1_round()) bb1_settle_natural(out, pair);
        return out;
    }

    /* BB+1: the split round's natural settled.  combine leaves its rounds with a hand
     * standing apart (LAW_NATURAL_STANDING, the box's unit not yet paid) from those with
     * none.  How the chance of the natural splits between the two is the one thing of
     * BB+1 that the hands, combined as independent given the dealer's outcome, do not keep
     * on a finite shoe (the cards they take from one another): it is made the walk's exact
     * C (the chance of a natural with no hand standing: game_bb1.h) by moving chance
     * between the two at each result of the hands' own charges (busted and rescued
     * stakes, 21s paid at once), in proportion, so that the law of those charges, and with
     * it the mean, stays; then the standing rounds pay their unit.  (On the infinite shoe
     * the two agree to rounding and nothing moves.) */
    void bb1_settle_natural(Law& L, int pair) {
        double none = 0.0, some = 0.0;
        for (const LawEntry& e : L) {
            if (law_t(e.key) == D_NATURAL) none += e.p;
            else if (law_t(e.key) == LAW_NATURAL_STANDING) some += e.p;
        }
        double gap = w->split_none_standing[pair - 1] - none;
        double to_none = (gap > 0.0 && some > 0.0) ? std::min(1.0, gap / some) : 0.0;
        double to_some = (gap < 0.0 && none > 0.0) ? std::min(1.0, -gap / none) : 0.0;
        Law out;
        out.reserve(L.size() + 8);
        for (const LawEntry& e : L) {
            int t = law_t(e.key), v = law_v(e.key);
            if (t == D_NATURAL) {   // no hand standing: the result as it is
                if (to_some < 1.0) out.push_back(LawEntry{e.p * (1.0 - to_some), e.key});
                if (to_some > 0.0)
                    out.push_back(LawEntry{e.p * to_some,
                                           law_key(D_NATURAL, vid(values[v] - 1.0))});
            } else if (t == LAW_NATURAL_STANDING) {   // a hand standing: one unit more
                if (to_none < 1.0)
                    out.push_back(LawEntry{e.p * (1.0 - to_none),
                                           law_key(D_NATURAL, vid(values[v] - 1.0))});
                if (to_none > 0.0) out.push_back(LawEntry{e.p * to_none, law_key(D_NATURAL, v)});
            } else {
                out.push_back(e);
            }
        }
        law_normalize(out);
        L.swap(out);
    }

    /* ---- the round ----------------------------------------------------------------------- */

    /* the round's law after the two cards c1, c2 (unconditioned on the hole card) */
    Law start_law(int c1, int c2) {
        const GameRules& R = w->R;
        bool split_ok = c1 == c2 && w->hands_limit(c1 + 1) >= 2;
        if (split_ok && R.split_class != SPLIT_POLICY) w->split_value(c1 + 1);
        w->clear_hand();
        w->add_card(c1);
        w->add_card(c2);
        int a;
        if (R.split_class == SPLIT_POLICY) {
            a = w->policy_action(KIND_START);
            if (a == ACT_SPLIT && !split_ok) a = ACT_STAND;
        } else {
            a = w->start_choice();
        }
        bool natural = w->is_natural();
        Law L;
        for (int t = 0; t < N_OUT; ++t) start_fix[t] = 0.0;
        split_moments_made = false;
        if (a == ACT_SPLIT) {
            L = split_law(c1 + 1);
        } else if (a == ACT_SURRENDER) {
            const double* d = w->dealer_outcomes();
            L = flat_law(d, -0.5, R.surrender == 2 ? -0.5 : -1.0);
        } else {
            L = action_law(a);
        }
        w->clear_hand();
        if (!natural && a != ACT_SURRENDER && !R.natural_takes_all) {
            // a dealer natural takes the original bet only: one unit for the round
            double nat = 0.0;
            Law kept;
            for (const LawEntry& e : L) {
                if (law_t(e.key) == D_NATURAL) nat += e.p;
                else kept.push_back(e);
            }
            if (nat != 0.0) {
                kept.push_back(LawEntry{nat, law_key(D_NATURAL, vid(-1.0))});
                law_normalize(kept);
            }
            L.swap(kept);
        }
        if (split_moments_made) exact_split_moments(L);
        return L;
    }

    /* start_fix[t]: the exact E[S^2 ; t] of a split round (split_m2) less its law's own,
     * whose hands were combined; the natural row where it takes one unit in all (peek) is
     * exact in the law already (-1 whatever the hands) */
    void exact_split_moments(const Law& L) {
        double m1[N_OUT] = {0}, m2[N_OUT] = {0};
        for (const LawEntry& e : L) {
            int t = law_t(e.key);
            if (t >= N_OUT) continue;
            double x = values[law_v(e.key)];
            m1[t] += e.p * x;
            m2[t] += e.p * x * x;
        }
        for (int t = 0; t < N_OUT; ++t) {
            if (t == D_NATURAL && !w->R.natural_takes_all) continue;
            start_fix[t] = split_m2[t] - m2[t];
            double gap = std::fabs(split_m1[t] - m1[t]);
            if (gap > moments_mean_gap) moments_mean_gap = gap;
        }
        split_moments_made = false;
    }

    Law round_law() {
        double n[N_RANKS], left = 0.0;
        for (int r = 0; r < N_RANKS; ++r) n[r] = w->shoe[r];
        if (!w->infinite) {
            for (int r = 0; r < N_RANKS; ++r) n[r] -= w->dealer_cnt[r];
            for (int r = 0; r < N_RANKS; ++r) left += n[r];
        }
        Law out;
        for (int c1 = 0; c1 < N_RANKS; ++c1)
            for (int c2 = 0; c2 < N_RANKS; ++c2) {
                double wt;
                if (w->infinite) {
                    wt = n[c1] * n[c2];
                } else {
                    wt = n[c1] * (n[c2] - (c1 == c2 ? 1 : 0));
                    if (wt <= 0.0) continue;
                    wt /= left * (left - 1);
                }
                if (wt > 0.0) {
                    law_add(out, wt, start_law(c1, c2));
                    for (int t = 0; t < N_OUT; ++t) m2_fix[t] += wt * start_fix[t];
                }
            }
        return out;
    }

    size_t memo_entries() const {
        size_t s = 0;
        for (const Law& L : memo) s += L.size();
        return s;
    }
};

typedef GameLaw<ValueWalk> ValueWalkLaw;

/* Entry points: 0, NO_MEMORY or INTERRUPTED (game_walk.h).  ``out``: the law's entries (the
 * caller's vector); c1 < 0: the whole round, else the round after the player's two cards
 * c1, c2 (0-based). */
static inline int walk_round_law(ValueWalk* w, int c1, int c2, std::vector<double>* values,
                                 std::vector<double>* probs, std::vector<int>* outcomes,
                                 std::vector<int>* results, long* combined, double* gap,
                                 size_t* entries, int want_moments, double* m2_fix,
                                 long* moments_inexact, double* moments_mean_gap) {
    int status = guarded([&] {
        ValueWalkLaw law(w);
        law.want_moments = want_moments != 0;
        Law L = c1 < 0 ? law.round_law() : law.start_law(c1, c2);
        for (int t = 0; t < N_OUT; ++t) m2_fix[t] = c1 < 0 ? law.m2_fix[t] : law.start_fix[t];
        *moments_inexact = law.moments_inexact;
        *moments_mean_gap = law.moments_mean_gap;
        *values = law.values;
        probs->clear();
        outcomes->clear();
        results->clear();
        for (const LawEntry& e : L) {
            probs->push_back(e.p);
            outcomes->push_back(law_t(e.key));
            results->push_back(law_v(e.key));
        }
        *combined = law.combined_splits;
        *gap = law.law_max_marginal_gap;
        *entries = law.memo_entries();
    });
    if (status != OK) w->clear_hand();   // (a walk stopped midway leaves its hand dealt)
    return status;
}

/* The laws of several rounds, each after its own two player cards (``firsts``,
 * ``seconds``: 0-based ranks), by one law walk: its memo serves them all, since a hand's
 * law after its cards depends on those cards alone, whichever two began it (Blackjack
 * Switch values 55 starting hands per context: one walk each redid the hands they share).
 * ``starts``: where each round's entries begin in probs/outcomes/results (one more: the
 * end); ``values``: the result table they index, one for all. */
static inline int walk_start_laws(ValueWalk* w, const std::vector<int>& firsts,
                                  const std::vector<int>& seconds,
                                  std::vector<double>* values, std::vector<double>* probs,
                                  std::vector<int>* outcomes, std::vector<int>* results,
                                  std::vector<size_t>* starts) {
    int status = guarded([&] {
        ValueWalkLaw law(w);
        probs->clear();
        outcomes->clear();
        results->clear();
        starts->clear();
        for (size_t i = 0; i < firsts.size(); ++i) {
            starts->push_back(probs->size());
            Law L = law.start_law(firsts[i], seconds[i]);
            for (const LawEntry& e : L) {
                probs->push_back(e.p);
                outcomes->push_back(law_t(e.key));
                results->push_back(law_v(e.key));
            }
        }
        starts->push_back(probs->size());
        *values = law.values;
    });
    if (status != OK) w->clear_hand();
    return status;
}

}  // namespace bjgame

#include "game_bb1.h"   // (BB+1's split refund: the walk's split_value calls it)

#endif
