/* The game walk: the hand, split and round recursion of the games (Free Bet, Spanish 21 and
 * the classic game as their special case), written once, generic in what it accumulates
 * (docs/algorithms.md, "The game walk").
 *
 * GameWalk<Acc> values one dealer key (an upcard, or both dealer cards face up) for one shoe
 * and rule set.  Acc is the accumulator: what a hand's outcome adds up to.  ValueAcc (the
 * expected value) is the only one today; a law or moments accumulator plugs in by giving the
 * same five operations (zero, constant, add, settle, mean).  Decisions always compare the
 * mean, so every accumulator follows the same play.
 *
 * A hand carries its stake: ``own`` (the player's money on it) and ``free`` (the house's, in
 * Free Bet: a free double or a free split).  One function, ``settle``, pays a standing hand
 * against the dealer's outcome law for every rule of the contract (docs/games.md): the
 * dealer's 22 that pushes, the player's 21 that always wins, the bonus payouts, ties.
 *
 * Conventions are the classic engine's (docs/conventions.md): unconditioned fractions of the
 * initial bet; a hand standing is charged its own stake against a dealer natural, and each
 * double node gives back what it added when a natural takes only the original bet (peek);
 * the split assembly is the classic X/Y one (docs/split-classes.md), with one hand's value
 * own-stake and the others' free-stake when the split is free.
 *
 * Entry points return 0, or BJ_GAME_NO_MEMORY when an allocation failed (the memo tables
 * are then dropped by the caller through ``forget``), or INTERRUPTED when a long computation
 * was asked to stop (``poll_interrupt``: Ctrl-C; the tables are dropped the same way).
 * Nothing here throws past them.
 */
#ifndef BJSOLVE_GAME_WALK_H
#define BJSOLVE_GAME_WALK_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

#include "alloc.h"
#include "game_dealer.h"

namespace bjgame {

enum { MAX_A = 8 };
enum { ACT_STAND = 0, ACT_HIT = 1, ACT_DOUBLE = 2, ACT_SPLIT = 3, ACT_SURRENDER = 4 };
enum { SPLIT_CDZ = 0, SPLIT_CDP1 = 1, SPLIT_CDP = 2, SPLIT_POLICY = 3 };
/* the kinds of decision a policy table holds (the simulator's table numbers them alike);
 * KIND_SPLIT_ACES: split aces' double on their second card when they may not hit, which
 * the split hand's entry (KIND_SPLIT: stand, hit or double) cannot say */
enum { KIND_START = 0, KIND_LATER = 1, KIND_SPLIT = 2, KIND_SPLIT_ACES = 3,
       KIND_AFTER_DOUBLE = 4 };
enum { OK = 0, NO_MEMORY = 1, INTERRUPTED = 2 };
/* thrown by GameWalk::poll_interrupt, caught by the entry points (INTERRUPTED) */
struct WalkInterrupted {};
/* a split hand's context: the pair rank 1..10, or GENERIC (CDZ-'s model: the split hand
 * seen with only its own cards gone, whatever its pair) */
enum { PAIR_GENERIC = 15 };

static const int PAIR_SHIFT = 50, EXTRA_SHIFT = 54, FREE_SHIFT = 58,
                 KIND_SHIFT = 58, POLICY_FREE_SHIFT = 62;
static const double TIE_TOL = 1e-12;

static inline bool improves(double challenger, double incumbent) {
    double scale = std::fabs(incumbent);
    if (!(scale > 1.0)) scale = 1.0;
    return challenger - incumbent > TIE_TOL * scale;
}

static inline double falling(double x, int k) {
    double v = 1.0;
    for (int j = 0; j < k; ++j) v *= x - j;
    return v;
}

/* The rules the walk reads (filled from RuleParams by _game.pyx). */
struct GameRules {
    int hit_soft_17, double_min_total, double_soft, double_any_cards, double_after_split;
    int max_split_hands, resplit_aces, hit_split_aces, surrender, split_class;
    int natural_takes_all;
    double blackjack_payout, tie_value, natural_tie_value;
    int dealer_22_push, free_double_totals, free_split_ranks, player_21_wins;
    double bonus_21[3], bonus_678[3], bonus_777[3];
    int bonus_after_split;
    double super_bonus;
    double full_sevens;   // the whole shoe's sevens (seven_suit_chance); 0: the shoe's own
    int redoubles, double_rescue, double_split_aces;
    int rescue_after_redouble;   // the rescue stays offered after a redouble
    /* no hole card: what a dealer natural takes (docs/games.md): 0 every own stake;
     * 1 OBBO, 2 BB+1: a busted hand's stake, and of a hand still standing its own stake
     * before any double (BB+1 differs from OBBO only in split rounds, not walked) */
    int natural_loss;
    /* no hole card: a player 21 that always wins is paid at once, so a dealer natural
     * turned later does not take it (Pontoon) */
    int player_21_beats_natural;
    double diamond_blackjack_payout;   // 0: no diamond natural rule
    int charlie;                       // 0: no charlie
    /* Super Fun 21: late surrender on any hand at any decision (after hitting, on split
     * hands), for half the hand's own stake; after a double only by double_rescue */
    int surrender_any_time;
    /* a 21 of five or more cards (undoubled) wins at once, paid its bonus_21 */
    int bonus_21_at_once;
};

/* ---- accumulators ------------------------------------------------------------------ */

/* What a standing hand meets: the chances that it wins, loses (to a dealer total or a
 * natural), ties (equal totals) against the dealer, given its cards and the shoe.  A dealer
 * 22 that pushes is in none of them. */
struct StandLaw {
    double win, lose, natural, tie;
};

/* The expected value. */
struct ValueAcc {
    double v;
    static ValueAcc zero() { return ValueAcc{0.0}; }
    static ValueAcc constant(double x) { return ValueAcc{x}; }
    /* this += w * other */
    void add(double w, const ValueAcc& other) { v += w * other.v; }
    /* this += w * a constant payoff x */
    void add_constant(double w, double x) { v += w * x; }
    /* a hand standing with own stake ``own``: a win pays ``win_pays`` (its whole stake,
     * times the bonus where one is paid), a loss and a natural cost ``own``, a tie
     * ``tie_value`` per own unit */
    static ValueAcc settle(const StandLaw& law, double own, double win_pays, double tie_value) {
        return ValueAcc{win_pays * law.win - own * (law.lose + law.natural)
                        + tie_value * own * law.tie};
    }
    double mean() const { return v; }
};

/* ---- a flat hash index: packed key -> row ---------------------------------------------
 * Open addressing with linear probing over a power-of-two table, grown at half full (the
 * walk looks a key up once or more for every hand it visits: a node-based map's pointer
 * chasing and its frees were a fifth of a solve). */
class FlatIndex {
    struct Slot {
        uint64_t key;   // key + 1 (0: empty)
        int val;
    };
    std::vector<Slot> slots;   // (a key and its row side by side: one cache line a probe)
    size_t count_ = 0, mask = 0;
    int shift = 64;
    /* Fibonacci hashing: the product's top bits, which every bit of the key moves (its
     * middle bits, taken before, ignored the key's high bits: the tens' count and the
     * split context, so that a hand's contexts all probed from one slot) */
    size_t slot(uint64_t key) const { return (size_t)((key * 0x9E3779B97F4A7C15ull) >> shift); }
    size_t first_capacity;
    void grow() {
        std::vector<Slot> old;
        old.swap(slots);
        size_t cap = old.empty() ? first_capacity : 2 * old.size();
        slots.assign(cap, Slot{0, -1});
        mask = cap - 1;
        shift = 64;
        for (size_t c = cap; c > 1; c >>= 1) --shift;
        for (size_t i = 0; i < old.size(); ++i)
            if (old[i].key) {
                size_t j = slot(old[i].key - 1);
                while (slots[j].key) j = (j + 1) & mask;
                slots[j] = old[i];
            }
    }
  public:
    explicit FlatIndex(size_t first = 4096) : first_capacity(first) {}
    size_t size() const { return count_; }
    void clear() {
        std::vector<Slot>().swap(slots);
        count_ = 0;
        mask = 0;
        shift = 64;
    }
    int find(uint64_t key) const {
        if (slots.empty()) return -1;
        size_t j = slot(key);
        while (slots[j].key) {
            if (slots[j].key == key + 1) return slots[j].val;
            j = (j + 1) & mask;
        }
        return -1;
    }
    /* start loading the key's first slot (a look-up soon after finds it in the cache) */
    void prefetch(uint64_t key) const {
        if (!slots.empty()) BJ_PREFETCH(&slots[slot(key)]);
    }
    /* empty, keeping the table's memory */
    void reset() {
        if (count_ == 0) return;
        std::fill(slots.begin(), slots.end(), Slot{0, -1});
        count_ = 0;
    }
    void insert(uint64_t key, int val) {
        if (2 * (count_ + 1) > slots.size()) grow();
        size_t j = slot(key);
        while (slots[j].key) {
            if (slots[j].key == key + 1) {
                slots[j].val = val;
                return;
            }
            j = (j + 1) & mask;
        }
        slots[j] = Slot{key + 1, val};
        ++count_;
    }
};

/* ---- frozen decisions ---------------------------------------------------------------- */

/* A table of frozen decisions: key -> action, in the walk's open-addressing index (a
 * policy engine reads a decision at every hand it meets, and copies the table before its
 * first change of a shared one: std::unordered_map's look-ups (a division each) and
 * copies (a node an entry) cost a tenth of a Blackjack Switch cell of the counted game) */
struct PolicyTable {
    FlatIndex actions{1024};
    int split_context = 0;   // 0 CDZ-/user, 1 CDP1 (pair, one extra), 2 CDP (pair, extra)
    int get(uint64_t key) const { return actions.find(key); }
    void set(uint64_t key, int action) { actions.insert(key, action); }
};

/* ---- the walk -------------------------------------------------------------------------- */

template <class Acc>
struct HandRow {
    Acc stand, hit, dbl;
    StandLaw law;
    uint8_t have = 0;     // bits: 1 stand, 2 hit, 4 double, 8 law, 16 law asked for (child_rows)
    int8_t choice = -1;
    int32_t draws = -1;   // its next card's chances and children's rows (GameWalk::row_draws)
};

template <class Acc>
class GameWalk {
  public:
    GameRules R;
    double shoe[N_RANKS];     // counts, or probabilities (infinite)
    double shoe_size = 0;
    bool infinite = false;
    int dealer_cards[2] = {0, 0};
    int dealer_n = 0;
    int dealer_cnt[N_RANKS];
    int upcard = 0;           // 0 when both dealer cards are known
    int hole_rank = -1;
    std::shared_ptr<PolicyTable> policy = std::make_shared<PolicyTable>();
    long policy_missing = 0;
    int game = 0;             // any game rule set (RuleParams.game)

    /* Stopping a long computation (Ctrl-C: a unit of BB+1's split sums runs for minutes).
     * ``stop``: a flag another thread sets when the run this walk belongs to is abandoned;
     * ``signals`` (set for the main thread only): runs Python's signal handlers, nonzero
     * when one raised (KeyboardInterrupt, left pending for the caller).  The long loops
     * call poll_interrupt with the work done since (inner iterations); it looks every
     * POLL_WORK of them (some milliseconds apart). */
    enum { POLL_WORK = 1 << 18 };
    const volatile int* stop = nullptr;
    int (*signals)() = nullptr;
    size_t poll_work = 0;
    void poll_interrupt(size_t work) {
        poll_work += work;
        if (poll_work < POLL_WORK) return;
        poll_work = 0;
        if ((stop != nullptr && *stop != 0) || (signals != nullptr && signals() != 0))
            throw WalkInterrupted();
    }

    // the hand being valued (mutated in place by the recursion)
    int cnt[N_RANKS];
    int hard = 0, n_cards = 0;
    int pair_rank = 0, extra = 0;
    int free_hand = 0;        // a free split hand: own 0, free 1 (else own 1)
    uint64_t hand_key = 0;

    DealerDraws dealer;           // the dealer's draw compositions (game_dealer.h)
    /* (a round's walk holds 6,000-27,000 laws on 6 decks: begun at 32768 slots, as most
     * upcards of Free Bet and Spanish 21 hold more than 8,192, half of 16384) */
    FlatIndex dealer_index{32768};
    std::vector<double> dealer_rows;     // N_OUT per row
    /* the hand rows' index, one table per context (pair rank, extra pair cards, free
     * hand): the walk stays in one context for long runs, and a small table stays in the
     * cache (one table for all missed it at nearly every look-up) */
    enum { N_CONTEXTS = 12 * 16 * 2 };   // (extra: the key's four bits)
    std::vector<FlatIndex> row_index = first_row_index();
    static int context_slot(int pair, int extra, int free) {
        return ((pair == PAIR_GENERIC ? 11 : pair) * 16 + extra) * 2 + free;
    }
    /* (the unsplit and the generic split hands, own stake, take a row for every hand of a
     * hard total of 21 at most, 3,072 of two cards or more: their tables begun at 8192
     * slots, not grown from 256 five times at every solve) */
    static std::vector<FlatIndex> first_row_index() {
        std::vector<FlatIndex> index(N_CONTEXTS, FlatIndex(256));
        index[context_slot(0, 0, 0)] = FlatIndex(8192);
        index[context_slot(PAIR_GENERIC, 0, 0)] = FlatIndex(8192);
        return index;
    }
    size_t row_count() const { return rows.size(); }
    std::vector<HandRow<Acc>> rows;
    double split_cache[N_RANKS];
    bool split_have[N_RANKS];
    /* BB+1 (game_bb1.h): the chance, with the split of each pair, that the hole card makes
     * a natural and no split hand stands (valid with split_have; the round law reads it) */
    double split_none_standing[N_RANKS];

    void init() {
        clear_hand();
        forget();
        dealer.build(dealer_cards, dealer_n, hole_rank, R.hit_soft_17, infinite);
    }

    /* keep a law under its removed-cards key: the over-22 bust as the complement, as the
     * classic engine counts it */
    const double* store_law(uint64_t key, double* out) {
        over_as_complement(out);
        int row = (int)(dealer_rows.size() / N_OUT);
        dealer_rows.insert(dealer_rows.end(), out, out + N_OUT);
        dealer_index.insert(key, row);
        return &dealer_rows[(size_t)row * N_OUT];
    }

    /* A split hand's law: computed with those of its other contexts (e = 1 .. extra_max
     * extra pair cards gone) not stored yet, in one shared pass. */
    int extra_max = 0;   // while a split is valued: its contexts' largest e
    const double* split_dealer_outcomes(uint64_t key) {
        int p = pair_rank - 1, saved = extra;
        for (int e = 1; e <= extra_max; ++e) {
            extra = e;
            uint64_t ke = removed_key();
            double row[N_RANKS], left = 0.0;
            remaining(row);
            if (e != saved && (row[p] < 0.0 || dealer_index.find(ke) >= 0)) continue;
            for (int r = 0; r < N_RANKS; ++r) {
                if (row[r] < 0.0) row[r] = 0.0;
                left += row[r];
            }
            queue_law(ke, row, left);
        }
        extra = saved;
        flush_laws();
        return &dealer_rows[(size_t)dealer_index.find(key) * N_OUT];
    }

    /* The clamped laws of the split lanes that cannot hold their hand (never weighted:
     * see "a split hand in all its contexts at once"), kept apart from the shared ones so
     * that no other hand reads them. */
    FlatIndex clamped_index{64};
    std::vector<double> clamped_rows;
    static bool overdrawn(const double* n) {
        for (int r = 0; r < N_RANKS; ++r)
            if (n[r] < 0.0) return true;
        return false;
    }
    const double* clamped_law(uint64_t key, const double* counts) {
        int found = clamped_index.find(key);
        if (found < 0) {
            double n[N_RANKS], out[N_OUT], left = 0.0;
            for (int r = 0; r < N_RANKS; ++r) {
                n[r] = counts[r] < 0.0 ? 0.0 : counts[r];
                left += n[r];
            }
            dealer.law(n, left, out);
            over_as_complement(out);
            found = (int)(clamped_rows.size() / N_OUT);
            clamped_rows.insert(clamped_rows.end(), out, out + N_OUT);
            clamped_index.insert(key, found);
        }
        return &clamped_rows[(size_t)found * N_OUT];
    }

    /* Laws wanted soon are queued and computed together, in passes shared by up to 16
     * shoes (DealerDraws::law_batch: each shoe's arithmetic is the single pass's).  A
     * queued law gets its row and its key at once (the row is filled by the flush: a
     * reader of a found row flushes first while any law waits), so that the caller keeps
     * the row and a key is never queued twice (callers queue only keys not found).  The
     * queue is flushed when a law waiting in it is read, or when it is full, not after
     * each hand's children: the walk, depth first, queues the children of several hands
     * before it stands on one, and the passes run full (of a Spanish 21 solve's 25,000
     * passes, a third had 4 shoes or fewer when each hand's children were flushed). */
    enum { LAW_QUEUE = 64 };
    double queued_n[LAW_QUEUE * N_RANKS], queued_left[LAW_QUEUE];
    int queued_rows[LAW_QUEUE];
    int queued = 0;
    int pending_from = INT32_MAX;   // the first row waiting in the queue (rows from it on may)
    bool waiting(int row) const { return row >= pending_from; }

    int queue_law(uint64_t key, const double* n, double left) {
        if (queued == LAW_QUEUE) flush_laws();
        int row = (int)(dealer_rows.size() / N_OUT);
        if (queued == 0) pending_from = row;
        dealer_rows.resize(dealer_rows.size() + N_OUT);
        dealer_index.insert(key, row);
        std::memcpy(queued_n + queued * N_RANKS, n, sizeof(double) * N_RANKS);
        queued_left[queued] = left;
        queued_rows[queued++] = row;
        return row;
    }
    void flush_laws() {
        double out[LAW_QUEUE * N_OUT];
        dealer.law_batch(queued_n, queued_left, queued, out);
        for (int i = 0; i < queued; ++i) {
            double* law = out + i * N_OUT;
            over_as_complement(law);
            std::memcpy(&dealer_rows[(size_t)queued_rows[i] * N_OUT], law, sizeof(double) * N_OUT);
        }
        queued = 0;
        pending_from = INT32_MAX;
    }

    /* Before a hit or a double's card: the rows of the hands one card larger (``kids``,
     * -1 where no card is dealt), looked up together so that their memory loads overlap,
     * and the laws those rows lack that are not known yet, in one batch (the walk is about
     * to stand on most of them); while a split is valued, its first context queues them for
     * every context.  A shoe with a negative count (a fractional shoe the hand overdraws)
     * is left to dealer_outcomes, whose clamping depends on the hand's kind; any other
     * shoe's law is the same either way.
     * The children of ``row`` (the current hand's) are found once and kept, with the next
     * card's chances (``pi``: next_card_weights): a hand asks for them at its hit and at
     * each of its doubles, five times where any hand may double and redouble three times
     * (Spanish 21); the look-ups were a sixth of its solve, the chances' divisions half of
     * doubled_draw's time.  Only the first asking queues their laws: a later one would
     * find them all known or queued, or leave them to dealer_outcomes, which computes the
     * same law (the pass's arithmetic per shoe is one, batched or not). */
    struct RowDraws {
        double pi[N_RANKS];
        int32_t kids[N_RANKS];
    };
    std::vector<RowDraws> row_draws;   // one a row that asked (HandRow::draws)
    void child_rows(int row, double* pi, int* kids) {
        if (rows[row].draws >= 0) {
            const RowDraws& kept = row_draws[(size_t)rows[row].draws];
            std::memcpy(pi, kept.pi, sizeof kept.pi);
            std::memcpy(kids, kept.kids, sizeof kept.kids);
            return;
        }
        next_card_weights(pi);
        FlatIndex& index = row_index[context_slot(pair_rank, extra, free_hand)];
        for (int r = 0; r < N_RANKS; ++r) {   // (the slots' loads overlap)
            if (!(pi[r] > 0.0) || hard + r + 1 > 21) continue;
            add_card(r);
            index.prefetch(context_key());
            remove_card(r);
        }
        for (int r = 0; r < N_RANKS; ++r) {
            kids[r] = -1;
            if (!(pi[r] > 0.0) || hard + r + 1 > 21) continue;
            add_card(r);
            kids[r] = lookup();
            remove_card(r);
        }
        rows[row].draws = (int32_t)row_draws.size();   // (after the look-ups: rows may grow)
        row_draws.emplace_back();
        std::memcpy(row_draws.back().pi, pi, sizeof(double) * N_RANKS);
        std::memcpy(row_draws.back().kids, kids, sizeof(int) * N_RANKS);
        if (infinite) return;
        if (hand_laws_asked && !extra_rank()) {
            // an unsplit or generic hand's children's laws were all asked for by the
            // round's ask_hand_laws (looking them up again found each of them, a tenth of
            // this call): only their slots loaded, for the stands soon after
            for (int r = 0; r < N_RANKS; ++r) {
                if (kids[r] < 0 || (rows[kids[r]].have & 8)) continue;
                add_card(r);
                dealer_index.prefetch(removed_key());
                remove_card(r);
            }
            return;
        }
        int e_hi = extra;
        if (extra_rank() && extra_max > 1 && extra >= 1 && extra <= extra_max) {
            if (extra != 1) return;   // (the first context queued them)
            e_hi = extra_max;
        }
        int saved = extra;
        // the laws' slots first, so that their memory loads overlap (the dealer table is
        // large when contexts share it: GameWalk::set_other)
        for (int r = 0; r < N_RANKS; ++r) {
            if (kids[r] < 0 || (rows[kids[r]].have & 24)) continue;
            add_card(r);
            for (int e = saved; e <= e_hi; ++e) {
                extra = e;
                dealer_index.prefetch(removed_key());
            }
            extra = saved;
            remove_card(r);
        }
        for (int r = 0; r < N_RANKS; ++r) {
            if (kids[r] < 0 || (rows[kids[r]].have & 24)) continue;
            // (bit 16: its law is known or queued, or its shoe is not whole: not again)
            if (e_hi == saved) rows[kids[r]].have |= 16;
            add_card(r);
            for (int e = saved; e <= e_hi; ++e) {
                extra = e;
                uint64_t key = removed_key();
                int found = dealer_index.find(key);
                if (found >= 0) {
                    BJ_PREFETCH(&dealer_rows[(size_t)found * N_OUT]);
                    continue;
                }
                double n[N_RANKS], left = 0.0;
                bool whole = true;
                remaining(n);
                for (int j = 0; j < N_RANKS; ++j) {
                    whole &= n[j] >= 0.0;
                    left += n[j];
                }
                if (whole) queue_law(key, n, left);
            }
            extra = saved;
            remove_card(r);
        }
        // (no flush: the queue fills until a law waiting in it is read, or it is full)
    }

    void forget() {
        hand_laws_asked = false;
        queued = 0;
        pending_from = INT32_MAX;
        dealer_index.clear();
        std::vector<double>().swap(dealer_rows);
        clamped_index.clear();
        std::vector<double>().swap(clamped_rows);
        forget_lanes();
        forget_rows();
    }

    /* Blackjack Switch (bjsolve.exact.switch): the hands valued with another hand's cards
     * out of the shoe as well, one such hand after another on one walk.  The dealer laws
     * stay: they are keyed by every card out of the engine's own shoe (``other_key``
     * added), so the contexts share them; the hand rows are the context's own.  Counts of
     * a whole (not fractional, not infinite) shoe only: ``other`` the 10 counts out. */
    double own_shoe[N_RANKS];
    double own_size = 0;
    bool own_saved = false;
    uint64_t other_key = 0;
    void set_other(const int* other) {
        if (!own_saved) {
            std::memcpy(own_shoe, shoe, sizeof shoe);
            own_size = shoe_size;
            own_saved = true;
        }
        other_key = 0;
        hand_laws_asked = false;   // (the laws are keyed by the other hand's cards too)
        shoe_size = own_size;
        for (int r = 0; r < N_RANKS; ++r) {
            shoe[r] = own_shoe[r] - other[r];
            shoe_size -= other[r];
            other_key += (uint64_t)other[r] * rank_unit(r);
        }
        // the rows' memory is kept for the next context (freeing and faulting it in again
        // was a tenth of the time)
        for (FlatIndex& index : row_index) index.reset();
        rows.clear();
        row_draws.clear();
        for (FlatIndex& index : lane_index) index.reset();
        lane_rows.clear();
        lane_kids.clear();
        lane_vals.clear();
        lane_after.clear();
        after_double.clear();
        after_double_have.clear();
        for (int r = 0; r < N_RANKS; ++r) split_have[r] = false;
        clear_hand();
    }

    void forget_rows() {
        for (FlatIndex& index : row_index) index.clear();
        std::vector<HandRow<Acc>>().swap(rows);
        std::vector<RowDraws>().swap(row_draws);
        std::vector<Acc>().swap(after_double);
        std::vector<uint8_t>().swap(after_double_have);
        for (int r = 0; r < N_RANKS; ++r) split_have[r] = false;
        clear_hand();
    }

    void clear_hand() {
        for (int r = 0; r < N_RANKS; ++r) cnt[r] = 0;
        hard = n_cards = pair_rank = extra = free_hand = 0;
        hand_key = 0;
    }
    void add_card(int r) { cnt[r]++; hard += r + 1; n_cards++; hand_key += rank_unit(r); }
    void remove_card(int r) { cnt[r]--; hard -= r + 1; n_cards--; hand_key -= rank_unit(r); }

    int total() const { return (cnt[0] > 0 && hard + 10 <= 21) ? hard + 10 : hard; }
    bool is_soft() const { return cnt[0] > 0 && hard + 10 <= 21; }
    bool is_natural() const {
        return pair_rank == 0 && n_cards == 2 && cnt[0] == 1 && cnt[9] == 1;
    }
    bool is_split() const { return pair_rank != 0; }
    int extra_rank() const { return (pair_rank >= 1 && pair_rank <= 10) ? pair_rank : 0; }

    /* ---- the shoe ------------------------------------------------------------------- */

    uint64_t removed_key() const {
        if (infinite) return 0;
        int p = extra_rank();
        return (p ? hand_key + (uint64_t)extra * rank_unit(p - 1) : hand_key) + other_key;
    }
    uint64_t context_key() const {
        return hand_key | ((uint64_t)pair_rank << PAIR_SHIFT)
               | ((uint64_t)extra << EXTRA_SHIFT) | ((uint64_t)free_hand << FREE_SHIFT);
    }
    void remaining(double* n) const {
        for (int r = 0; r < N_RANKS; ++r) n[r] = shoe[r] - cnt[r] - dealer_cnt[r];
        int p = extra_rank();
        if (p) n[p - 1] -= extra;
    }
    void next_card_weights(double* pi) const {
        if (infinite) {
            for (int r = 0; r < N_RANKS; ++r) pi[r] = shoe[r];
            return;
        }
        double left = 0.0;
        remaining(pi);
        for (int r = 0; r < N_RANKS; ++r) {
            if (pi[r] < 0.0) pi[r] = 0.0;
            left += pi[r];
        }
        for (int r = 0; r < N_RANKS; ++r) pi[r] = left > 0.0 ? pi[r] / left : 0.0;
    }
    double hole_natural_chance(const double* pi) const {
        return hole_rank < 0 ? 0.0 : pi[hole_rank];
    }
    /* what a double node gives back per own unit it adds: the natural takes only the
     * original bet (peek, OBO), or everything (ENHC) */
    double natural_refund(const double* pi) const {
        return R.natural_takes_all ? 0.0 : hole_natural_chance(pi);
    }

    /* ---- the dealer ------------------------------------------------------------------ */

    /* the dealer's outcome law for the counts n left in the shoe, by the composition pass
     * (``recursive``: by the plain recursion over every draw order; ``lanes`` > 0: as the
     * last of that many shoes in one batch, the others each short of one card, or of a whole
     * rank past the tenth, for tests) */
    void law_for(const double* counts, bool recursive, int lanes, double* out) const {
        double n[N_RANKS], left = 0.0;
        for (int r = 0; r < N_RANKS; ++r) {
            n[r] = counts[r] < 0.0 ? 0.0 : counts[r];
            left += n[r];
        }
        if (infinite) left = 1.0;
        if (!recursive && lanes > 0) {
            std::vector<double> shoes((size_t)lanes * N_RANKS), lefts(lanes), laws((size_t)lanes * N_OUT);
            for (int j = 0; j < lanes; ++j) {
                double* m = &shoes[(size_t)j * N_RANKS];
                std::memcpy(m, n, sizeof n);
                if (j < lanes - 1) {
                    int r = j % N_RANKS;
                    m[r] = j < N_RANKS ? (m[r] >= 1.0 ? m[r] - 1.0 : m[r]) : 0.0;
                }
                lefts[j] = 0.0;
                for (int r = 0; r < N_RANKS; ++r) lefts[j] += m[r];
                if (infinite) lefts[j] = 1.0;
            }
            dealer.law_batch(shoes.data(), lefts.data(), lanes, laws.data());
            std::memcpy(out, &laws[(size_t)(lanes - 1) * N_OUT], sizeof(double) * N_OUT);
        } else if (!recursive) {
            dealer.law(n, left, out);
        } else {
            for (int k = 0; k < N_OUT; ++k) out[k] = 0.0;
            int dh = 0, da = 0;
            for (int i = 0; i < dealer_n; ++i) {
                dh += dealer_cards[i];
                da += dealer_cards[i] == 1;
            }
            dealer.by_every_order(n, left, dh, da, dealer_n, 1.0, out);
        }
        over_as_complement(out);
    }

    const double* dealer_outcomes() {
        uint64_t key = removed_key();
        int found = dealer_index.find(key);
        if (found >= 0) {
            if (waiting(found)) flush_laws();
            return &dealer_rows[(size_t)found * N_OUT];
        }
        if (!infinite && extra_max > 1 && pair_rank >= 1 && pair_rank <= 10
            && extra >= 1 && extra <= extra_max)
            return split_dealer_outcomes(key);
        double n[N_RANKS], out[N_OUT], left = 0.0;
        if (infinite) {
            for (int r = 0; r < N_RANKS; ++r) n[r] = shoe[r];
            left = 1.0;
        } else {
            // A fractional count the hand overdraws (0.6 aces left, one drawn) stays negative
            // in the total of an unsplit hand's shoe, as the classic engine's pass keeps it
            // (the pass deals no card of a rank whose count is not positive); a split
            // hand's shoe is clamped at 0, as the classic engine's split passes clamp it.
            remaining(n);
            for (int r = 0; r < N_RANKS; ++r) {
                if (n[r] < 0.0 && pair_rank != 0) n[r] = 0.0;
                left += n[r];
            }
        }
        dealer.law(n, left, out);
        return store_law(key, out);
    }

    /* ---- settlement ----------------------------------------------------------------- */

    StandLaw stand_law() { return stand_law_from(dealer_outcomes()); }
    StandLaw stand_law_from(const double* d) const {
        int t = total();
        bool always = R.player_21_wins && t == 21;
        StandLaw law{0.0, 0.0, d[D_NATURAL], 0.0};
        for (int k = 0; k < 5; ++k) {
            if (always || t > 17 + k) law.win += d[k];
            else if (t < 17 + k) law.lose += d[k];
            else law.tie += d[k];
        }
        if (always || !R.dealer_22_push) law.win += d[D_22];
        law.win += d[D_OVER];
        if (always && R.player_21_beats_natural) {
            law.win += law.natural;
            law.natural = 0.0;
        }
        return law;
    }

    /* the chance that three sevens dealt to the player are all of one given suit.  The
     * suits of the cards gone from the whole shoe are not known, so the sevens left are
     * any of its sevens alike, and three of them dealt are three of the whole shoe's: the
     * chance is the whole shoe's (full_sevens, four suits alike), however many are gone
     * (docs/games.md).  A shoe holding more sevens than that is taken as whole itself. */
    double seven_suit_chance() const {
        if (infinite) return 1.0 / 64.0;
        double n = shoe[6] > R.full_sevens ? shoe[6] : R.full_sevens, m = n / 4.0;
        if (n < 3.0) return 0.0;
        return m * (m - 1.0) * (m - 2.0) / (n * (n - 1.0) * (n - 2.0));
    }

    /* what a winning undoubled hand pays per unit of its stake: the bonus, averaged over
     * the suits where they matter, or 1 */
    double bonus_multiplier() const {
        if (pair_rank != 0 && !R.bonus_after_split) return 1.0;
        if (total() != 21) return 1.0;
        if (n_cards >= 5) return R.bonus_21[n_cards >= 7 ? 2 : n_cards - 5];
        if (n_cards != 3) return 1.0;
        if (cnt[5] == 1 && cnt[6] == 1 && cnt[7] == 1)
            return (60.0 * R.bonus_678[0] + 3.0 * R.bonus_678[1] + R.bonus_678[2]) / 64.0;
        if (cnt[6] == 3) {
            double s = seven_suit_chance();
            double mixed = 1.0 - 4.0 * s;
            if (R.super_bonus > 0.0 && pair_rank == 0 && upcard == 7)
                return mixed * R.bonus_777[0] + 4.0 * s * R.super_bonus;
            return mixed * R.bonus_777[0] + 3.0 * s * R.bonus_777[1] + s * R.bonus_777[2];
        }
        return 1.0;
    }

    double own_stake() const { return free_hand ? 0.0 : 1.0; }

    /* ---- memo rows ------------------------------------------------------------------ */

    int lookup() {
        uint64_t key = context_key();
        FlatIndex& index = row_index[context_slot(pair_rank, extra, free_hand)];
        int found = index.find(key);
        if (found >= 0) return found;
        int row = (int)rows.size();
        rows.emplace_back();
        index.insert(key, row);
        return row;
    }

    const StandLaw& law_at(int row) {
        if (!(rows[row].have & 8)) {
            StandLaw law = stand_law();
            rows[row].law = law;
            rows[row].have |= 8;
        }
        return rows[row].law;
    }

    Acc value_at(int row, int action) {
        if (action == ACT_SURRENDER) return Acc::constant(later_surrender_value());
        uint8_t bit = action == ACT_STAND ? 1 : action == ACT_HIT ? 2 : 4;
        if (rows[row].have & bit)
            return action == ACT_STAND ? rows[row].stand
                   : action == ACT_HIT ? rows[row].hit : rows[row].dbl;
        Acc v = action == ACT_STAND ? stand_value(row)
                : action == ACT_HIT ? hit_value(row) : double_value(row);
        HandRow<Acc>& h = rows[row];   // (the store may have grown)
        if (action == ACT_STAND) h.stand = v;
        else if (action == ACT_HIT) h.hit = v;
        else h.dbl = v;
        h.have |= bit;
        return v;
    }
    Acc get(int action) { return value_at(lookup(), action); }

    /* ---- stand, hit, double ---------------------------------------------------------- */

    /* a natural under diamond_blackjack_payout: both its cards are diamonds with chance
     * 1/16 (an ace and a ten, ranks apart: each a diamond with chance 1/4, independently,
     * the suits being exchangeable; docs/games.md), which pays the diamond payout, as does
     * a tie paid as a natural (natural_tie_value = blackjack_payout) against a dealer
     * natural.  Four outcomes, so that an accumulator of laws sees each payout. */
    Acc diamond_natural_value() {
        double beta = 0.0;
        if (hole_rank >= 0) {
            double pi[N_RANKS];
            next_card_weights(pi);
            beta = hole_natural_chance(pi);
        }
        double tie = R.natural_tie_value;
        double diamond_tie = tie == R.blackjack_payout ? R.diamond_blackjack_payout : tie;
        Acc v = Acc::zero();
        v.add_constant((1.0 - beta) * (15.0 / 16.0), R.blackjack_payout);
        v.add_constant((1.0 - beta) * (1.0 / 16.0), R.diamond_blackjack_payout);
        if (beta > 0.0) {
            v.add_constant(beta * (15.0 / 16.0), tie);
            v.add_constant(beta * (1.0 / 16.0), diamond_tie);
        }
        return v;
    }

    /* whether the current (undoubled) hand stops and wins at once: a charlie (``charlie``
     * cards, not busted), or a 21 of five or more cards under bonus_21_at_once */
    bool is_charlie() const {
        return (R.charlie > 0 && n_cards >= R.charlie)
               || (R.bonus_21_at_once && n_cards >= 5 && total() == 21);
    }

    /* a charlie wins at once whatever the dealer makes, a dealer 22 included: paid its
     * whole stake times the bonus of a 21 of its cards where one is paid; only a dealer
     * natural (found after the players, without a hole card; peek: charged as every
     * standing hand, the round's assembly gives it back) takes its own stake */
    Acc charlie_value(int row) {
        const StandLaw& law = law_at(row);
        StandLaw won{1.0 - law.natural, 0.0, law.natural, 0.0};
        return Acc::settle(won, own_stake(), (own_stake() + (free_hand ? 1.0 : 0.0))
                                                 * bonus_multiplier(), R.tie_value);
    }

    Acc stand_value(int row) {
        if (is_natural()) {
            if (R.diamond_blackjack_payout != 0.0) return diamond_natural_value();
            if (hole_rank >= 0) {
                double pi[N_RANKS];
                next_card_weights(pi);
                double beta = hole_natural_chance(pi);
                return Acc::constant(R.blackjack_payout * (1.0 - beta)
                                     + R.natural_tie_value * beta);
            }
            return Acc::constant(R.blackjack_payout);
        }
        if (is_charlie()) return charlie_value(row);
        StandLaw law = law_at(row);
        return Acc::settle(law, own_stake(), (own_stake() + (free_hand ? 1.0 : 0.0))
                                                 * bonus_multiplier(), R.tie_value);
    }

    Acc hit_value(int row) {
        double pi[N_RANKS];
        int kids[N_RANKS];
        child_rows(row, pi, kids);
        Acc ev = Acc::zero();
        double own = own_stake();
        for (int r = 0; r < N_RANKS; ++r) {
            if (pi[r] <= 0.0) continue;
            if (hard + r + 1 > 21) {
                ev.add_constant(pi[r], -own);
                continue;
            }
            add_card(r);
            ev.add(pi[r], continuation_at(kids[r]));
            remove_card(r);
        }
        return ev;
    }

    /* whether the current two cards double free (a hard total of the mask) */
    bool free_double_here() const {
        return n_cards == 2 && !is_soft() && ((R.free_double_totals >> total()) & 1);
    }

    Acc double_value(int row) {
        // the stake after the double: a free double adds a free unit per unit of stake;
        // a paid one the player's (on a free split hand: own 0 -> 1)
        double own = own_stake(), fr = free_hand ? 1.0 : 0.0, added_own;
        if (free_double_here()) {
            fr += own + fr;
            added_own = 0.0;
        } else {
            added_own = own + fr;
            own += added_own;
        }
        return doubled_draw(row, own, fr, added_own, R.redoubles);
    }

    /* one card to a hand (``row``) whose stake is now (own, free), ``added_own`` of it just
     * added */
    Acc doubled_draw(int row, double own, double fr, double added_own, int redoubles_left) {
        double pi[N_RANKS];
        int kids[N_RANKS];
        child_rows(row, pi, kids);
        Acc ev = Acc::constant(added_own * natural_refund(pi));
        for (int r = 0; r < N_RANKS; ++r) {
            if (pi[r] <= 0.0) continue;
            if (hard + r + 1 > 21) {
                ev.add_constant(pi[r], -own);
                continue;
            }
            add_card(r);
            ev.add(pi[r], doubled_choice(kids[r], own, fr, redoubles_left));
            remove_card(r);
        }
        return ev;
    }

    /* The choice after a double's card, kept per hand row and doubles left when the
     * stake is the player's alone (redoubles exclude free stakes, so the stake is then
     * 2^(doubles) own units): each redouble would otherwise walk the hands below it
     * again for every hand above it that doubled.  The pick is kept with the value: a
     * split hand whose pick is made in its basis context (basis_after_double_pick) reads
     * it there, once per split hand and doubles left under CDZ-, where the generic
     * context's rows serve every pair. */
    std::vector<Acc> after_double;        // row * 4 + redoubles left
    std::vector<uint8_t> after_double_have;   // the pick + 1 (0: not yet)
    Acc doubled_choice(int row, double own, double fr, int redoubles_left,
                       int* picked = nullptr) {
        if (!(R.redoubles > 0 && fr == 0.0 && !free_hand))
            return doubled_choice_at(row, own, fr, redoubles_left, picked);
        size_t slot = (size_t)row * 4 + (size_t)redoubles_left;
        if (slot < after_double_have.size() && after_double_have[slot]) {
            if (picked) *picked = after_double_have[slot] - 1;
            return after_double[slot];
        }
        int pick = ACT_STAND;
        Acc v = doubled_choice_at(row, own, fr, redoubles_left, &pick);
        if (picked) *picked = pick;
        if (slot >= after_double_have.size()) {
            size_t size = 4 * rows.size();
            if (size <= slot) size = slot + 1;
            after_double.resize(size);
            after_double_have.resize(size, 0);
        }
        after_double[slot] = v;
        after_double_have[slot] = (uint8_t)(pick + 1);
        return v;
    }

    /* after a double's card: stand, redouble (a paid double of the whole stake) or the
     * rescue (surrender losing the original own stake); ties go to the earlier.  The
     * choice made goes to ``picked`` (ACT_STAND, ACT_DOUBLE, ACT_SURRENDER): the round
     * law plays it (game_law.h) */
    Acc doubled_choice_at(int row, double own, double fr, int redoubles_left,
                          int* picked = nullptr) {
        const StandLaw law = law_at(row);
        Acc stand = R.natural_loss ? natural_loss_stand(law, own, fr)
                                   : Acc::settle(law, own, own + fr, R.tie_value);
        bool may_redouble = redoubles_left > 0 && total() < 21;
        // a rescue is a late surrender: it saves the doubled stake only from a dealer
        // who turns out not to hold a natural (with no hole card, the natural found
        // after the players takes the doubled hand's own stake, as the simulator and
        // the reference settle it)
        double orig = own_stake();
        // the rescue is offered after the first double; after a redouble only with
        // rescue_after_redouble
        bool may_rescue = R.double_rescue
                          && (R.rescue_after_redouble || redoubles_left == R.redoubles);
        int frozen = R.split_class == SPLIT_POLICY && total() < 21
                         ? frozen_after_double(R.redoubles - redoubles_left + 1) : -1;
        // a policy's frozen choice (the simulator's table: a redouble or rescue the rules
        // do not offer here stands), or a split hand's pick in its basis context
        int pick = -1;
        if (frozen >= 0)
            pick = frozen == ACT_DOUBLE && may_redouble      ? ACT_DOUBLE
                   : frozen == ACT_SURRENDER && may_rescue ? ACT_SURRENDER
                                                           : ACT_STAND;
        else if ((may_redouble || may_rescue) && basis_elsewhere())
            pick = basis_after_double_pick(own, fr, redoubles_left);
        if (pick >= 0) {
            if (picked) *picked = pick;
            if (pick == ACT_DOUBLE) return doubled_draw(row, 2.0 * own, 2.0 * fr, own, redoubles_left - 1);
            if (pick == ACT_SURRENDER) return Acc::constant(rescue_value(law, own, orig));
            return stand;
        }
        Acc best = stand;
        pick = ACT_STAND;
        if (may_redouble) {
            Acc v = doubled_draw(row, 2.0 * own, 2.0 * fr, own, redoubles_left - 1);
            if (improves(v.mean(), best.mean())) { best = v; pick = ACT_DOUBLE; }
        }
        if (may_rescue) {
            Acc v = Acc::constant(rescue_value(law, own, orig));
            if (improves(v.mean(), best.mean())) { best = v; pick = ACT_SURRENDER; }
        }
        if (picked) *picked = pick;
        return best;
    }

    /* In the games a split hand's choice after a double (ACT_STAND, ACT_DOUBLE for the
     * redouble, ACT_SURRENDER for the rescue) and split aces' double are made as its other
     * choices, in its post-split class's basis context (docs/games.md): CDZ- the generic
     * split context (only its own cards gone: cdz_choice), CDP1 the first split hand's
     * (one extra pair card gone), CDP its own.  Otherwise its play would not be one a
     * player of that class could follow.  (In the lanes ``extra`` is 0: every lane of a
     * CDP1 split hand takes the first hand's pick.) */
    bool basis_elsewhere() const {
        if (!game || !is_split() || pair_rank == PAIR_GENERIC) return false;
        return R.split_class == SPLIT_CDZ || (R.split_class == SPLIT_CDP1 && extra != 1);
    }
    void enter_basis() {
        if (R.split_class == SPLIT_CDZ) {
            pair_rank = PAIR_GENERIC;
            extra = 0;
        } else {
            extra = 1;
        }
    }
    int basis_after_double_pick(double own, double fr, int redoubles_left) {
        int pick = ACT_STAND, sp = pair_rank, se = extra;
        enter_basis();
        doubled_choice(lookup(), own, fr, redoubles_left, &pick);
        pair_rank = sp;
        extra = se;
        return pick;
    }
    bool basis_split_aces_double() {
        int sp = pair_rank, se = extra;
        enter_basis();
        int basis = lookup();
        bool dbl = improves(value_at(basis, ACT_DOUBLE).mean(),
                            value_at(basis, ACT_STAND).mean());
        pair_rank = sp;
        extra = se;
        return dbl;
    }

    /* a rescue: the original own stake is lost; a later no-hole-card natural takes the
     * doubled own stake (ENHC), or nothing more (OBBO, BB+1: the rescue was settled at
     * once, and the natural would take no more than that original stake anyway) */
    double rescue_value(const StandLaw& law, double own, double orig) const {
        if (R.natural_loss) return -orig;
        return -orig * (1.0 - law.natural) - own * law.natural;
    }

    /* a doubled hand standing under OBBO / BB+1: settled as always against the dealer's
     * other outcomes; a dealer natural takes only its own stake before the doubles (the
     * doubles come back) */
    Acc natural_loss_stand(const StandLaw& law, double own, double fr) const {
        StandLaw rest = law;
        rest.natural = 0.0;
        Acc v = Acc::settle(rest, own, own + fr, R.tie_value);
        v.add_constant(law.natural, -own_stake());
        return v;
    }

    /* the policy key of the choice after the ``doubles``-th double of this hand: kind
     * KIND_AFTER_DOUBLE + 2 (doubles - 1) (+ 1 on a split hand), as the simulator's
     * decision table numbers them (bjsolve.simulation.game_plan) */
    uint64_t after_double_key(int doubles) const {
        uint64_t kind = KIND_AFTER_DOUBLE + 2 * (doubles - 1) + (is_split() ? 1 : 0);
        uint64_t key = hand_key | (kind << KIND_SHIFT);
        return is_split() && pair_rank != PAIR_GENERIC ? key | split_context_bits() : key;
    }
    /* the frozen choice after the ``doubles``-th double (a free split hand's own entry
     * first), or -1 */
    int frozen_after_double(int doubles) const {
        uint64_t key = after_double_key(doubles);
        int a = free_hand ? policy->get(key | ((uint64_t)1 << POLICY_FREE_SHIFT)) : -1;
        return a >= 0 ? a : policy->get(key);
    }

    /* ---- choices ---------------------------------------------------------------------- */

    bool may_double_cards() const {
        int t = total();
        if (R.double_min_total > 0 && !(R.double_min_total <= t && t <= 11)) return false;
        if (is_soft() && !R.double_soft) return false;
        if (n_cards != 2 && !R.double_any_cards) return false;
        return true;
    }
    bool split_aces_stand() const { return pair_rank == 1 && !R.hit_split_aces; }
    /* whether the current hand may double in its context */
    bool may_double() const {
        if (!may_double_cards()) return false;
        if (!is_split()) return true;
        if (!R.double_after_split) return false;
        if (split_aces_stand()) return R.double_split_aces && n_cards == 2;
        return true;
    }

    int best_option_at(int row, bool double_ok) {
        int best = ACT_STAND;
        double v = value_at(row, ACT_STAND).mean();
        double w = value_at(row, ACT_HIT).mean();
        if (improves(w, v)) { best = ACT_HIT; v = w; }
        if (double_ok) {
            w = value_at(row, ACT_DOUBLE).mean();
            if (improves(w, v)) { best = ACT_DOUBLE; v = w; }
        }
        if (may_surrender_later() && improves(later_surrender_value(), v))
            best = ACT_SURRENDER;
        return best;
    }

    /* surrender_any_time: a hand past its first decision (hit, or split) may surrender,
     * except split aces that stand on their card (they have no decision) */
    bool may_surrender_later() const {
        return R.surrender_any_time && (n_cards >= 3 || is_split()) && !split_aces_stand();
    }
    /* half the own stake, unless the dealer has a natural (the hole card's, charged to
     * every hand as a standing hand's: the round's assembly gives it back in the peek
     * game; without a hole card the natural voids the surrender and takes the stake) */
    double later_surrender_value() {
        double own = own_stake(), nat = dealer_outcomes()[D_NATURAL];
        return -0.5 * own * (1.0 - nat) - own * nat;
    }
    int best_option(bool double_ok) { return best_option_at(lookup(), double_ok); }

    /* the pick of a split hand made in another context (CDZ-: its own cards gone only;
     * CDP1: one extra pair card gone) */
    int choice_in_context(int pair, int e, bool double_ok) {
        int sp = pair_rank, se = extra;
        pair_rank = pair;
        extra = e;
        int row = lookup();
        int a = rows[row].choice;
        if (a < 0) {
            a = best_option_at(row, double_ok);
            rows[row].choice = (int8_t)a;
        }
        pair_rank = sp;
        extra = se;
        return a;
    }

    /* CDZ-'s pick for the current split hand: the classic game takes the unsplit hand's
     * (its own cards gone, doubling as after a split); the games keep the split hand's
     * own stake and rules (bonus_after_split, no natural) in a context of its own */
    int cdz_choice() {
        bool double_ok = R.double_after_split && may_double_cards();
        if (game) return choice_in_context(PAIR_GENERIC, 0, may_double_generic());
        int sp = pair_rank, se = extra, sf = free_hand;
        pair_rank = extra = free_hand = 0;
        int a = best_option(double_ok);
        pair_rank = sp;
        extra = se;
        free_hand = sf;
        return a;
    }
    bool may_double_generic() {
        int sp = pair_rank;
        pair_rank = PAIR_GENERIC;
        bool ok = may_double();
        pair_rank = sp;
        return ok;
    }

    int strategy_choice(int row) {
        if (!is_split()) return best_option_at(row, may_double());
        bool double_ok = may_double();
        if (pair_rank == PAIR_GENERIC) return best_option_at(row, double_ok);
        if (R.split_class == SPLIT_CDZ) return cdz_choice();
        if (R.split_class == SPLIT_CDP1 && extra != 1)
            return choice_in_context(pair_rank, 1, double_ok);
        return best_option_at(row, double_ok);
    }

    /* split aces that may double on their second card but not hit: ACT_DOUBLE or ACT_STAND */
    int split_aces_choice(int row) {
        if (R.split_class == SPLIT_POLICY) {
            int a = -1;
            if (free_hand)
                a = policy->get(policy_key(KIND_SPLIT_ACES) | ((uint64_t)1 << POLICY_FREE_SHIFT));
            if (a < 0) a = policy->get(policy_key(KIND_SPLIT_ACES));
            if (a < 0) a = policy_action(KIND_SPLIT);   // a user's chart: its split-hand entry
            return a == ACT_DOUBLE ? ACT_DOUBLE : ACT_STAND;
        }
        if (basis_elsewhere()) return basis_split_aces_double() ? ACT_DOUBLE : ACT_STAND;
        return improves(value_at(row, ACT_DOUBLE).mean(), value_at(row, ACT_STAND).mean())
                   ? ACT_DOUBLE : ACT_STAND;
    }

    uint64_t policy_key(int kind) const {
        uint64_t key = hand_key | ((uint64_t)kind << KIND_SHIFT);
        if (kind == KIND_SPLIT || kind == KIND_SPLIT_ACES) key |= split_context_bits();
        return key;
    }
    /* a recorded split hand decision's context: none (CDZ-, a user's table), the pair
     * (CDP1: the first split hand's), the pair and the extra pair cards gone (CDP) */
    uint64_t split_context_bits() const {
        int context = policy->split_context;
        if (context == 0) return 0;
        return ((uint64_t)pair_rank << PAIR_SHIFT)
               | ((uint64_t)(context == 1 ? 1 : extra) << EXTRA_SHIFT);
    }
    /* a free split hand's decision: its own entry, else the split hands' */
    int policy_action(int kind) {
        int a = -1;
        if (kind == KIND_SPLIT && free_hand)
            a = policy->get(policy_key(kind) | ((uint64_t)1 << POLICY_FREE_SHIFT));
        if (a < 0) a = policy->get(policy_key(kind));
        if (a < 0) {
            policy_missing++;
            return ACT_STAND;
        }
        return a;
    }

    /* the value of the option the strategy picks for the current hand */
    Acc continuation() { return continuation_at(lookup()); }
    Acc continuation_at(int row) {
        if (is_charlie()) return value_at(row, ACT_STAND);   // it stops: no decision
        if (split_aces_stand()) {
            // split aces take one card and stand, or double on it (double_split_aces)
            if (!(n_cards == 2 && may_double())) return value_at(row, ACT_STAND);
            return value_at(row, split_aces_choice(row));
        }
        int a;
        if (R.split_class == SPLIT_POLICY && pair_rank != PAIR_GENERIC) {
            a = policy_action(is_split() ? KIND_SPLIT : KIND_LATER);
            if (split_aces_stand() && a != ACT_DOUBLE) a = ACT_STAND;
            if (a == ACT_SURRENDER && !may_surrender_later()) a = ACT_STAND;
            return value_at(row, a);
        }
        a = rows[row].choice;
        if (a < 0) {
            a = strategy_choice(row);
            rows[row].choice = (int8_t)a;
        }
        return value_at(row, a);
    }

    /* ---- a split hand in all its contexts at once ("lanes") --------------------------
     * The split assembly wants each split hand's value in every context e = 1 .. L (e
     * extra pair cards gone: docs/split-classes.md), for the own stake and, in a free
     * split, the free one.  The contexts share the hand's tree and, but under CDP, its
     * decisions, so the hand is walked once for all of them: a row holds the contexts'
     * values side by side (L lanes, 2 L in a free split), and each lane's arithmetic is
     * the one-context walk's, operation for operation (the values are those of walking
     * each context alone, bit for bit: tests/test_game_split_lanes.py).  The walk descends
     * to a card when any lane may draw it and adds the result to the lanes that may; a
     * lane whose shoe cannot hold the hand is valued too (its shoe clamped, its law kept
     * apart) but never weighted; one that may, with a negative count (a fractional count
     * overdrawn), shares its clamped law as the one-context walk does (first asker).
     * Only the traversal, the row look-ups and the choices are shared: the dealer laws are
     * still one per context (the two stakes share it), batched (DealerDraws::law_batch).
     * Policies, the round law (game_law.h) and the frozen decisions keep the one-context
     * walk. */
    enum { MAX_CONTEXTS = 8, MAX_LANES = 2 * MAX_CONTEXTS };
    enum { LV_STAND, LV_HIT, LV_DOUBLE, LV_N };
    struct LaneRow {
        uint32_t base;                  // lane_vals: LV_N blocks of ``lanes`` doubles
        uint32_t after = 0xffffffffu;   // lane_after: 4 blocks (redoubles left 0..3)
        uint8_t have = 0;               // bits: 1 stand, 2 hit, 4 double, 8 law
        uint8_t after_have = 0;         // bit k: the block of k redoubles left
        bool chosen = false;
        bool located = false;           // law_row filled
        uint16_t reach = 0;             // bit l: lane l may hold the hand (a weighted lane)
        int8_t choice[MAX_LANES];
        int32_t law_row[MAX_CONTEXTS];  // each context's dealer row (-1: a clamped law)
        int32_t kids = -1;              // where its children's rows are kept (lane_kids)
    };
    /* while a split hand is walked in lanes: its L contexts (lane l: e = l % L + 1) for
     * one stake (the current free_hand), or, in a free split, for both stakes (lanes L .. 2L
     * - 1 the free split hands') */
    int contexts = 0, stakes = 1, lanes = 0;
    int lane_free(int l) const { return stakes == 2 ? l / contexts : free_hand; }
    double lane_own(int l) const { return lane_free(l) ? 0.0 : 1.0; }
    bool use_lanes = true;     // false: each context walked alone (for tests)
    std::vector<FlatIndex> lane_index = std::vector<FlatIndex>(2 * N_RANKS, FlatIndex(1024));
    std::vector<LaneRow> lane_rows;
    std::vector<double> lane_vals, lane_after;

    void forget_lanes() {
        for (FlatIndex& index : lane_index) index.clear();
        std::vector<LaneRow>().swap(lane_rows);
        std::vector<int32_t>().swap(lane_kids);
        std::vector<double>().swap(lane_vals);
        std::vector<double>().swap(lane_after);
    }
    bool lanes_apply(int amax) const {
        return use_lanes && std::is_same<Acc, ValueAcc>::value && !infinite
               && R.split_class != SPLIT_POLICY && amax + 1 <= MAX_CONTEXTS
               // (Super Fun 21's surrender on split hands and five-card 21 paid at once
               // are not in the lanes yet: the one-context walk values them)
               && !R.surrender_any_time && !R.bonus_21_at_once;
    }
    double* lane_at(int row, int what) {
        return &lane_vals[lane_rows[row].base + (size_t)what * lanes];
    }
    /* lane l's stand law (after lane_laws): from its dealer row, kept by index (a row
     * holds no law of its own: 4 L doubles less a row, the solve's memory under malloc's
     * trim threshold) */
    StandLaw lane_law(int row, int l) const {
        int found = lane_rows[row].law_row[l % contexts];
        return stand_law_from(found >= 0 ? &dealer_rows[(size_t)found * N_OUT]
                                         : &clamped_rows[(size_t)(-2 - found) * N_OUT]);
    }

    /* the row of the current split hand (pair_rank, free_hand, the cards) */
    int lane_lookup() {
        FlatIndex& index = lane_index[(pair_rank - 1) * 2 + free_hand];
        int found = index.find(hand_key);
        if (found >= 0) return found;
        int row = (int)lane_rows.size();
        LaneRow fresh;
        fresh.base = (uint32_t)lane_vals.size();
        lane_rows.push_back(fresh);
        lane_vals.resize(lane_vals.size() + (size_t)LV_N * lanes);
        index.insert(hand_key, row);
        return row;
    }

    /* remaining() and next_card_weights() in context e */
    void lane_remaining(int e, double* n) const {
        for (int r = 0; r < N_RANKS; ++r) n[r] = shoe[r] - cnt[r] - dealer_cnt[r];
        n[pair_rank - 1] -= e;
    }
    void lane_weights(double pi[][N_RANKS]) const {
        for (int l = 0; l < contexts; ++l) {
            double* q = pi[l];
            double left = 0.0;
            lane_remaining(l + 1, q);
            for (int r = 0; r < N_RANKS; ++r) {
                if (q[r] < 0.0) q[r] = 0.0;
                left += q[r];
            }
            for (int r = 0; r < N_RANKS; ++r) q[r] = left > 0.0 ? q[r] / left : 0.0;
        }
        for (int l = contexts; l < lanes; ++l) std::memcpy(pi[l], pi[l - contexts], sizeof pi[l]);
    }
    /* the lanes that may draw rank r */
    unsigned drawing(double pi[][N_RANKS], int r) const {
        unsigned m = 0;
        for (int l = 0; l < lanes; ++l)
            if (pi[l][r] > 0.0) m |= 1u << l;
        return m;
    }
    /* context c's dealer-law key (e = c + 1 extra pair cards gone) */
    uint64_t lane_key(int c) const {
        return hand_key + (uint64_t)(c + 1) * rank_unit(pair_rank - 1) + other_key;
    }

    /* find the dealer rows of the row's lanes (the current hand), queueing the laws not
     * known (a shoe with a negative count: -1, its clamped law made when read) */
    void queue_lane_laws(int row) {
        // (the contexts' shoes differ in the pair rank's count alone: lane_remaining's
        // arithmetic, the rest worked out once)
        double base[N_RANKS];
        for (int r = 0; r < N_RANKS; ++r) base[r] = shoe[r] - cnt[r] - dealer_cnt[r];
        const int p = pair_rank - 1;
        bool others_short = false;
        for (int r = 0; r < N_RANKS; ++r) others_short |= r != p && base[r] < 0.0;
        for (int l = 0; l < contexts; ++l) {
            double n[N_RANKS], left = 0.0;
            std::memcpy(n, base, sizeof n);
            n[p] -= l + 1;
            int found = -1;
            if (!others_short && !(n[p] < 0.0)) {
                uint64_t key = lane_key(l);
                found = dealer_index.find(key);
                if (found < 0) {
                    for (int r = 0; r < N_RANKS; ++r) left += n[r];
                    found = queue_law(key, n, left);
                }
            }
            lane_rows[row].law_row[l] = found;
        }
        lane_rows[row].located = true;
    }
    /* a weighted lane's shoe with a negative count (a fractional count the hand
     * overdraws): dealer_outcomes' law, clamped, shared under its key with whichever hand
     * asks first, as the one-context walk shares it */
    int overdrawn_law(int l, const double* counts) {
        uint64_t key = lane_key(l);
        int found = dealer_index.find(key);
        if (found >= 0) return found;
        double n[N_RANKS], out[N_OUT], left = 0.0;
        for (int r = 0; r < N_RANKS; ++r) {
            n[r] = counts[r] < 0.0 ? 0.0 : counts[r];
            left += n[r];
        }
        dealer.law(n, left, out);
        found = (int)(dealer_rows.size() / N_OUT);
        store_law(key, out);
        return found;
    }
    /* every lane's dealer row of the row (the current hand), made and final: a shared
     * row (index >= 0) or a clamped one of clamped_rows (-2 - index) */
    void lane_laws(int row) {
        if (lane_rows[row].have & 8) return;
        if (!lane_rows[row].located) queue_lane_laws(row);
        unsigned reach = lane_rows[row].reach;
        if (stakes == 2) reach |= reach >> contexts;
        for (int l = 0; l < contexts; ++l) {
            if (lane_rows[row].law_row[l] != -1) continue;
            double n[N_RANKS];
            lane_remaining(l + 1, n);
            int found;
            if ((reach >> l) & 1) {
                found = overdrawn_law(l, n);
            } else {
                clamped_law(lane_key(l), n);
                found = -2 - clamped_index.find(lane_key(l));
            }
            lane_rows[row].law_row[l] = found;
        }
        for (int l = 0; l < contexts; ++l)
            if (waiting(lane_rows[row].law_row[l])) {
                flush_laws();
                break;
            }
        lane_rows[row].have |= 8;
    }

    /* the rows of the hands one card larger that some lane may draw (else -1), the
     * missing laws of those that will stand queued and computed in one batch (child_rows):
     * after a double every one, after a hit (``hit``) under CDZ- those whose pick (made
     * in the generic context, so known before any lane's values) stands: the others would
     * never read them.  The children of ``row`` (the current hand's) are found once and
     * kept, as child_rows keeps them (a split hand asks at its hit and its doubles). */
    std::vector<int32_t> lane_kids;   // N_RANKS a lane row that asked (LaneRow::kids)
    void lane_child_rows(int row, double pi[][N_RANKS], int* kids, bool hit) {
        if (lane_rows[row].kids >= 0) {
            std::memcpy(kids, &lane_kids[(size_t)lane_rows[row].kids], sizeof(int) * N_RANKS);
        } else {
            for (int r = 0; r < N_RANKS; ++r) {
                kids[r] = -1;
                if (hard + r + 1 > 21) continue;
                bool drawn = false;
                for (int l = 0; l < lanes; ++l) drawn |= pi[l][r] > 0.0;
                if (!drawn) continue;
                add_card(r);
                kids[r] = lane_lookup();
                remove_card(r);
            }
            lane_rows[row].kids = (int32_t)lane_kids.size();   // (lane_rows may have grown)
            lane_kids.insert(lane_kids.end(), kids, kids + N_RANKS);
        }
        bool wanted[N_RANKS];
        for (int r = 0; r < N_RANKS; ++r) {
            int kid = kids[r];
            wanted[r] = false;
            if (kid < 0 || lane_rows[kid].located) continue;
            add_card(r);
            wanted[r] = !(hit && lane_never_stands(kid));
            if (wanted[r])
                for (int l = 0; l < contexts; ++l) dealer_index.prefetch(lane_key(l));
            remove_card(r);
        }
        for (int r = 0; r < N_RANKS; ++r) {
            if (!wanted[r]) continue;
            add_card(r);
            queue_lane_laws(kids[r]);
            remove_card(r);
        }
    }
    /* whether the current hand's walk in lanes never stands at its row (CDZ-: the pick) */
    bool lane_never_stands(int row) {
        if (R.split_class != SPLIT_CDZ || is_charlie() || split_aces_stand()) return false;
        const int8_t* c = lane_choices(row, 0);
        for (int l = 0; l < lanes; ++l)
            if (c[l] == ACT_STAND) return false;
        return true;
    }

    void lane_value(int row, int action, double* out, unsigned mask) {
        uint8_t bit = action == ACT_STAND ? 1 : action == ACT_HIT ? 2 : 4;
        int what = action == ACT_STAND ? LV_STAND : action == ACT_HIT ? LV_HIT : LV_DOUBLE;
        if (!(lane_rows[row].have & bit)) {
            double v[MAX_LANES];
            if (action == ACT_STAND) lane_stand(row, v);
            else if (action == ACT_HIT) lane_hit(row, v, mask);
            else lane_double(row, v, mask);
            double* kept = lane_at(row, what);
            for (int l = 0; l < lanes; ++l) kept[l] = v[l];
            lane_rows[row].have |= bit;
        }
        const double* kept = lane_at(row, what);
        for (int l = 0; l < lanes; ++l) out[l] = kept[l];
    }

    /* stand_value of a split hand (never a natural), charlie_value */
    void lane_stand(int row, double* out) {
        lane_laws(row);
        double bonus = bonus_multiplier();
        bool charlie = is_charlie();
        for (int l = 0; l < lanes; ++l) {
            double own = lane_own(l), pays = (own + (lane_free(l) ? 1.0 : 0.0)) * bonus;
            StandLaw law = lane_law(row, l);
            if (charlie) law = StandLaw{1.0 - law.natural, 0.0, law.natural, 0.0};
            out[l] = ValueAcc::settle(law, own, pays, R.tie_value).v;
        }
    }

    void lane_hit(int row, double* out, unsigned mask) {
        double pi[MAX_LANES][N_RANKS];
        lane_weights(pi);
        int kids[N_RANKS];
        lane_child_rows(row, pi, kids, true);
        for (int l = 0; l < lanes; ++l) out[l] = 0.0;
        for (int r = 0; r < N_RANKS; ++r) {
            if (hard + r + 1 > 21) {
                for (int l = 0; l < lanes; ++l)
                    if (pi[l][r] > 0.0) out[l] += pi[l][r] * -lane_own(l);
                continue;
            }
            if (kids[r] < 0) continue;
            double v[MAX_LANES];
            add_card(r);
            lane_continuation(kids[r], v, mask & drawing(pi, r));
            remove_card(r);
            for (int l = 0; l < lanes; ++l)
                if (pi[l][r] > 0.0) out[l] += pi[l][r] * v[l];
        }
    }

    void lane_double(int row, double* out, unsigned mask) {
        double own[MAX_LANES], fr[MAX_LANES], added_own[MAX_LANES];
        bool free_double = free_double_here();
        for (int l = 0; l < lanes; ++l) {
            own[l] = lane_own(l);
            fr[l] = lane_free(l) ? 1.0 : 0.0;
            if (free_double) {
                fr[l] += own[l] + fr[l];
                added_own[l] = 0.0;
            } else {
                added_own[l] = own[l] + fr[l];
                own[l] += added_own[l];
            }
        }
        lane_doubled_draw(row, own, fr, added_own, R.redoubles, out, mask);
    }

    /* (a stake per lane: the lanes of a free split hold both stakes) */
    void lane_doubled_draw(int row, const double* own, const double* fr, const double* added_own,
                           int redoubles_left, double* out, unsigned mask) {
        double pi[MAX_LANES][N_RANKS];
        lane_weights(pi);
        int kids[N_RANKS];
        lane_child_rows(row, pi, kids, false);
        for (int l = 0; l < lanes; ++l) out[l] = added_own[l] * natural_refund(pi[l]);
        for (int r = 0; r < N_RANKS; ++r) {
            if (hard + r + 1 > 21) {
                for (int l = 0; l < lanes; ++l)
                    if (pi[l][r] > 0.0) out[l] += pi[l][r] * -own[l];
                continue;
            }
            if (kids[r] < 0) continue;
            double v[MAX_LANES];
            add_card(r);
            lane_doubled_choice(kids[r], own, fr, redoubles_left, v, mask & drawing(pi, r));
            remove_card(r);
            for (int l = 0; l < lanes; ++l)
                if (pi[l][r] > 0.0) out[l] += pi[l][r] * v[l];
        }
    }

    void lane_doubled_choice(int row, const double* own, const double* fr, int redoubles_left,
                             double* out, unsigned mask) {
        lane_rows[row].reach |= (uint16_t)mask;
        // (redoubles exclude free stakes: a free split's lanes never redouble)
        if (!(R.redoubles > 0 && stakes == 1 && fr[0] == 0.0 && !free_hand)) {
            lane_doubled_choice_at(row, own, fr, redoubles_left, out, mask);
            return;
        }
        if ((lane_rows[row].after_have >> redoubles_left) & 1) {
            const double* kept = &lane_after[lane_rows[row].after + (size_t)redoubles_left * lanes];
            for (int l = 0; l < lanes; ++l) out[l] = kept[l];
            return;
        }
        lane_doubled_choice_at(row, own, fr, redoubles_left, out, mask);
        LaneRow& lr = lane_rows[row];
        if (lr.after == 0xffffffffu) {
            lr.after = (uint32_t)lane_after.size();
            lane_after.resize(lane_after.size() + 4 * (size_t)lanes);
        }
        double* kept = &lane_after[lr.after + (size_t)redoubles_left * lanes];
        for (int l = 0; l < lanes; ++l) kept[l] = out[l];
        lr.after_have |= (uint8_t)(1 << redoubles_left);
    }

    /* doubled_choice_at in every lane (no policy: the lanes never play one) */
    void lane_doubled_choice_at(int row, const double* own, const double* fr,
                                int redoubles_left, double* out, unsigned mask) {
        lane_laws(row);
        int saved_free = free_hand;
        for (int l = 0; l < lanes; ++l) {
            StandLaw law = lane_law(row, l);
            free_hand = lane_free(l);   // (natural_loss_stand reads the hand's own stake)
            out[l] = R.natural_loss ? natural_loss_stand(law, own[l], fr[l]).mean()
                                    : ValueAcc::settle(law, own[l], own[l] + fr[l], R.tie_value).v;
        }
        free_hand = saved_free;
        bool may_redouble = redoubles_left > 0 && total() < 21;
        bool may_rescue = R.double_rescue
                          && (R.rescue_after_redouble || redoubles_left == R.redoubles);
        if ((may_redouble || may_rescue) && basis_elsewhere()) {
            lane_basis_after_double(row, own, fr, redoubles_left, out, mask);
            return;
        }
        if (may_redouble) {
            double v[MAX_LANES];
            lane_redouble(row, own, fr, redoubles_left, v, mask);
            for (int l = 0; l < lanes; ++l)
                if (improves(v[l], out[l])) out[l] = v[l];
        }
        if (may_rescue)
            for (int l = 0; l < lanes; ++l) {
                double v = rescue_value(lane_law(row, l), own[l], lane_own(l));
                if (improves(v, out[l])) out[l] = v;
            }
    }

    /* a redouble in every lane: the stake (own, fr) doubled, one card and the choices after */
    void lane_redouble(int row, const double* own, const double* fr, int redoubles_left,
                       double* v, unsigned mask) {
        double own2[MAX_LANES], fr2[MAX_LANES];
        for (int l = 0; l < lanes; ++l) {
            own2[l] = 2.0 * own[l];
            fr2[l] = 2.0 * fr[l];
        }
        lane_doubled_draw(row, own2, fr2, own, redoubles_left - 1, v, mask);
    }

    /* CDZ-, CDP1: each lane takes the basis context's pick for its stake
     * (basis_after_double_pick); ``out`` holds the stand values */
    void lane_basis_after_double(int row, const double* own, const double* fr,
                                 int redoubles_left, double* out, unsigned mask) {
        int pick[MAX_LANES];
        bool redouble = false;
        int saved_free = free_hand;
        for (int l = 0; l < lanes; ++l) {
            if (l % contexts == 0) {
                free_hand = lane_free(l);
                pick[l] = basis_after_double_pick(own[l], fr[l], redoubles_left);
                free_hand = saved_free;
            } else {
                pick[l] = pick[l - 1];
            }
            redouble |= pick[l] == ACT_DOUBLE;
        }
        if (redouble) {
            double v[MAX_LANES];
            lane_redouble(row, own, fr, redoubles_left, v, mask);
            for (int l = 0; l < lanes; ++l)
                if (pick[l] == ACT_DOUBLE) out[l] = v[l];
        }
        for (int l = 0; l < lanes; ++l)
            if (pick[l] == ACT_SURRENDER)
                out[l] = rescue_value(lane_law(row, l), own[l], lane_own(l));
    }

    /* best_option_at in every lane */
    void lane_best(int row, bool double_ok, int8_t* choice, unsigned mask) {
        double st[MAX_LANES], h[MAX_LANES], d[MAX_LANES];
        lane_value(row, ACT_STAND, st, mask);
        lane_value(row, ACT_HIT, h, mask);
        if (double_ok) lane_value(row, ACT_DOUBLE, d, mask);
        for (int l = 0; l < lanes; ++l) {
            int best = ACT_STAND;
            double v = st[l];
            if (improves(h[l], v)) { best = ACT_HIT; v = h[l]; }
            if (double_ok && improves(d[l], v)) best = ACT_DOUBLE;
            choice[l] = (int8_t)best;
        }
    }
    /* strategy_choice in every lane: CDZ-'s pick in the generic context, CDP1's in the
     * first context (e = 1), CDP's in each */
    const int8_t* lane_choices(int row, unsigned mask) {
        if (!lane_rows[row].chosen) {
            int8_t c[MAX_LANES];
            bool double_ok = may_double();
            if (R.split_class == SPLIT_CDZ) {
                // (the generic context's pick, per stake)
                int saved_free = free_hand;
                for (int l = 0; l < lanes; ++l) {
                    if (l % contexts == 0) {
                        free_hand = lane_free(l);
                        c[l] = (int8_t)cdz_choice();
                        free_hand = saved_free;
                    } else {
                        c[l] = c[l - 1];
                    }
                }
            } else {
                lane_best(row, double_ok, c, mask);
                if (R.split_class == SPLIT_CDP1)
                    for (int l = 0; l < lanes; ++l) c[l] = c[l - l % contexts];
            }
            std::memcpy(lane_rows[row].choice, c, sizeof c);
            lane_rows[row].chosen = true;
        }
        return lane_rows[row].choice;
    }

    /* continuation_at in every lane */
    void lane_continuation(int row, double* out, unsigned mask) {
        lane_rows[row].reach |= (uint16_t)mask;
        if (is_charlie()) {
            lane_value(row, ACT_STAND, out, mask);
            return;
        }
        if (split_aces_stand()) {
            lane_value(row, ACT_STAND, out, mask);
            if (!(n_cards == 2 && may_double())) return;
            double dd[MAX_LANES];
            lane_value(row, ACT_DOUBLE, dd, mask);
            if (basis_elsewhere()) {
                // CDZ-: the generic context's pick, per stake
                int saved_free = free_hand;
                bool dbl = false;
                for (int l = 0; l < lanes; ++l) {
                    if (l % contexts == 0) {
                        free_hand = lane_free(l);
                        dbl = basis_split_aces_double();
                        free_hand = saved_free;
                    }
                    if (dbl) out[l] = dd[l];
                }
                return;
            }
            for (int l = 0; l < lanes; ++l)
                if (improves(dd[l], out[l])) out[l] = dd[l];
            return;
        }
        int8_t a[MAX_LANES];
        std::memcpy(a, lane_choices(row, mask), sizeof a);
        for (int action = ACT_STAND; action <= ACT_DOUBLE; ++action) {
            bool wanted = false;
            for (int l = 0; l < lanes; ++l) wanted |= a[l] == action;
            if (!wanted) continue;
            double v[MAX_LANES];
            lane_value(row, action, v, mask);
            for (int l = 0; l < lanes; ++l)
                if (a[l] == action) out[l] = v[l];
        }
    }

    /* blocks() with each split hand walked once for the contexts e = 1 .. amax + 1 */
    void blocks_in_lanes(int pair, int amax, bool free_split, double* X, double* Y,
                         double* Xf, double* Yf) {
        int p = pair - 1;
        double rho[MAX_A][N_RANKS];
        bool usable[MAX_A], wanted[N_RANKS] = {false};
        for (int a = 0; a < MAX_A; ++a) X[a] = Y[a] = Xf[a] = Yf[a] = 0.0;
        for (int a = 0; a <= amax; ++a) {
            double* q = rho[a];
            usable[a] = split_card_chances(p, a, q);
            if (!usable[a]) continue;
            for (int r = 0; r < N_RANKS; ++r) wanted[r] |= q[r] > 0.0;
        }
        double V[N_RANKS][MAX_LANES];
        contexts = amax + 1;
        stakes = free_split ? 2 : 1;
        lanes = contexts * stakes;
        auto start_split_hand = [&](int r) {   // the split hand: its pair card and r
            clear_hand();
            pair_rank = pair;
            add_card(p);
            add_card(r);
        };
        // the split hands' first rows and their laws, asked for together
        for (int r = 0; r < N_RANKS; ++r) {
            if (!wanted[r]) continue;
            start_split_hand(r);
            int row = lane_lookup();
            if (!lane_rows[row].located) queue_lane_laws(row);
        }
        for (int r = 0; r < N_RANKS; ++r) {
            if (!wanted[r]) continue;
            start_split_hand(r);
            unsigned mask = 0;
            for (int a = 0; a <= amax; ++a)
                if (usable[a] && rho[a][r] > 0.0) mask |= (free_split ? 1u | 1u << contexts : 1u) << a;
            lane_continuation(lane_lookup(), V[r], mask);
            clear_hand();
        }
        lanes = contexts = 0;
        stakes = 1;
        for (int a = 0; a <= amax; ++a) {
            if (!usable[a]) continue;
            for (int r = 0; r < N_RANKS; ++r)
                if (rho[a][r] > 0.0) X[a] += rho[a][r] * V[r][a];
            if (rho[a][p] > 0.0) Y[a] = V[p][a];
            if (!free_split) continue;
            int f = amax + 1 + a;   // (the free stake's lane of context a + 1)
            for (int r = 0; r < N_RANKS; ++r)
                if (rho[a][r] > 0.0) Xf[a] += rho[a][r] * V[r][f];
            if (rho[a][p] > 0.0) Yf[a] = V[p][f];
        }
    }

    /* ---- splits (the classic X/Y assembly, sections 6.4-6.6) ---------------------- */

    int hands_limit(int pair) const {
        int limit = R.max_split_hands;
        if (pair == 1 && !R.resplit_aces && limit > 2) limit = 2;
        if (!infinite && shoe[pair - 1] < limit) limit = (int)shoe[pair - 1];
        return limit;
    }

    Acc pair_hand_value(int pair, int e, int second, int free) {
        clear_hand();
        pair_rank = pair;
        extra = e;
        free_hand = free;
        add_card(pair - 1);
        add_card(second);
        Acc v = continuation();
        clear_hand();
        return v;
    }

    double gamma(double m, double n, int a, int b, double pp) const {
        if (infinite) return pp;
        if (m - a <= 0.0) return 0.0;
        double denom = n - a - b;
        if (denom <= 0.0) return 1.0;
        return (m - a) / denom;
    }
    static double remove_unknown(double whole, double pair_part, double g) {
        if (g >= 1.0) return 0.0;
        if (g == 0.0) return whole;
        return (whole - g * pair_part) / (1.0 - g);
    }
    double draw_ratio(double m, double q, double n, int j, int k, double pp) const {
        if (infinite) return std::pow(pp, j) * std::pow(1.0 - pp, k);
        double num = falling(m, j) * falling(q, k);
        if (num == 0.0) return 0.0;
        return num / falling(n, j + k);
    }

    /* The second card's chances of a split hand of pair rank p + 1 when a more pair cards
     * are gone besides the two split (and the dealer's cards): rho (the infinite shoe: its
     * proportions).  False when that shoe cannot be (too few pair cards, or no card). */
    bool split_card_chances(int p, int a, double* rho) const {
        for (int r = 0; r < N_RANKS; ++r) rho[r] = shoe[r];
        if (infinite) return true;
        double left = 0.0;
        rho[p] -= a + 2;
        for (int r = 0; r < N_RANKS; ++r) rho[r] -= dealer_cnt[r];
        if (rho[p] < 0) return false;
        for (int r = 0; r < N_RANKS; ++r) left += rho[r];
        if (left <= 0) return false;
        for (int r = 0; r < N_RANKS; ++r) rho[r] /= left;
        return true;
    }

    /* The split's removal parameters (6.5): m pair cards and n cards left once the two
     * split and the dealer's are out; the infinite shoe: pp the pair rank's chance. */
    void split_removal_params(int p, double& m, double& n, double& pp) const {
        pp = 0.0;
        if (infinite) {
            pp = shoe[p];
            m = n = 0.0;
        } else {
            m = shoe[p] - 2 - dealer_cnt[p];
            n = shoe_size - 2 - dealer_n;
        }
    }

    /* X_a, Y_a for a = 0..amax of the split hands of one stake */
    void blocks(int pair, int amax, int free, double* X, double* Y) {
        for (int a = 0; a < MAX_A; ++a) X[a] = Y[a] = 0.0;
        split_blocks(pair, amax, X, Y,
                     [&](int e, int r) { return pair_hand_value(pair, e, r, free).mean(); },
                     [](double& x, double w, double v) { x += w * v; });
    }

    /* The split blocks of whatever a split hand is valued by (its value here, its law in
     * game_law.h, its standing chance in game_bb1.h): X[a] = sum over r of rho_a(r)
     * value(a + 1, r) and Y[a] = value(a + 1, pair), rho_a the chances of the hand's second
     * card with a extra pair cards gone; ``add(x, w, v)`` adds w v to x.  X and Y come
     * cleared; an infinite shoe's blocks are all the first. */
    template <class T, class Value, class Add>
    void split_blocks(int pair, int amax, T* X, T* Y, Value value, Add add) {
        int p = pair - 1;
        double rho[N_RANKS];
        for (int a = 0; a <= amax; ++a) {
            if (infinite && a > 0) {
                X[a] = X[0];
                Y[a] = Y[0];
                continue;
            }
            if (!split_card_chances(p, a, rho)) continue;
            for (int r = 0; r < N_RANKS; ++r)
                if (rho[r] > 0.0) add(X[a], rho[r], value(a + 1, r));
            if (rho[p] > 0.0) Y[a] = value(a + 1, p);
        }
    }

    /* the removal recursions (6.5): XT, NT from the blocks */
    void removal_tables(int M, double m, double n, double pp, const double* X,
                        const double* Y, double XT[MAX_A][MAX_A], double NT[MAX_A][MAX_A]) {
        for (int a = 0; a < MAX_A; ++a)
            for (int b = 0; b < MAX_A; ++b) XT[a][b] = NT[a][b] = 0.0;
        for (int a = 0; a < 2 * M - 3; ++a) {
            XT[a][0] = X[a];
            double g = gamma(m, n, a, 0, pp);
            NT[a][0] = remove_unknown(X[a], Y[a], g);
        }
        for (int b = 1; b < 2 * M - 3; ++b)
            for (int a = 0; a < 2 * M - 3 - b; ++a) {
                double g = gamma(m, n + 1, a, b, pp);
                XT[a][b] = remove_unknown(XT[a][b - 1], XT[a + 1][b - 1], g);
                g = gamma(m, n, a, b, pp);
                NT[a][b] = remove_unknown(NT[a][b - 1], NT[a + 1][b - 1], g);
            }
    }

    /* the most extra pair cards a split hand of ``pair`` (M hands at most) is valued with:
     * 2 M - 4, fewer when the shoe holds fewer pair cards (its contexts: 1 .. amax + 1) */
    int split_amax(int pair, int M) const {
        int amax = 2 * M - 4;
        if (!infinite && shoe[pair - 1] - 2 < amax) amax = (int)shoe[pair - 1] - 2;
        return amax;
    }

    /* Unconditioned expectation of splitting the pair (every hand, every bet).  A free
     * split: the first hand keeps the player's stake, every other hand is free; the first
     * hand is the first to take a card that is not a pair card (its own resplits go first),
     * so it is one of the "N" hands when any hand drew one before the hand limit, else an
     * "X" hand. */
    double split_value(int pair) {
        int M = hands_limit(pair);
        int p = pair - 1;
        if (M < 2) return NAN;
        if (split_have[p]) return split_cache[p];
        bool free_split = (R.free_split_ranks >> pair) & 1;
        int amax = split_amax(pair, M);
        double Xo[MAX_A], Yo[MAX_A], Xf[MAX_A], Yf[MAX_A];
        extra_max = amax + 1;   // the contexts e = 1 .. amax + 1 about to be valued
        if (lanes_apply(amax)) {
            blocks_in_lanes(pair, amax, free_split, Xo, Yo, Xf, Yf);
        } else {
            blocks(pair, amax, 0, Xo, Yo);
            if (free_split) blocks(pair, amax, 1, Xf, Yf);
        }
        extra_max = 0;
        double pp, m, n;
        split_removal_params(p, m, n, pp);
        double q = n - m;
        double XTo[MAX_A][MAX_A], NTo[MAX_A][MAX_A], XTf[MAX_A][MAX_A], NTf[MAX_A][MAX_A];
        removal_tables(M, m, n, pp, Xo, Yo, XTo, NTo);
        if (free_split) removal_tables(M, m, n, pp, Xf, Yf, XTf, NTf);
        else {
            std::memcpy(XTf, XTo, sizeof XTo);
            std::memcpy(NTf, NTo, sizeof NTo);
        }
        double ev = 0.0;
        for (int h = 2; h < M; ++h) {
            double w = (h == 2 ? 1.0 : 2.0) * draw_ratio(m, q, n, h - 2, h, pp);
            if (w != 0.0) {
                if (free_split) ev += w * (NTo[h - 2][h - 1] + (h - 1) * NTf[h - 2][h - 1]);
                else ev += h * w * NTo[h - 2][h - 1];
            }
        }
        for (int k = 0; k < M - 1; ++k) {
            double w = ((M == 4 && k >= 1) ? 2.0 : 1.0) * draw_ratio(m, q, n, M - 2, k, pp);
            if (w == 0.0) continue;
            if (!free_split) {
                ev += w * ((k > 0 ? k * NTo[M - 2][k - 1] : 0.0) + (M - k) * XTo[M - 2][k]);
            } else if (k > 0) {
                ev += w * (NTo[M - 2][k - 1] + (k - 1) * NTf[M - 2][k - 1]
                           + (M - k) * XTf[M - 2][k]);
            } else {
                ev += w * (XTo[M - 2][0] + (M - 1) * XTf[M - 2][0]);
            }
        }
        // A dealer natural takes one unit, not one per hand (peek): give back what the
        // other paid hands were charged.  Free hands were charged nothing.
        if (!free_split && hole_rank >= 0 && !R.natural_takes_all
            && (infinite || shoe[p] - 2 - dealer_cnt[p] >= 0)) {
            if (infinite) {
                double beta_s = shoe[hole_rank];
                double P2 = (1.0 - pp) * (1.0 - pp);
                double P3 = 2.0 * pp * std::pow(1.0 - pp, 3);
                if (beta_s > 0.0) ev += (expected_hands(M, P2, P3) - 1.0) * beta_s;
            } else {
                double rho[N_RANKS];
                for (int r = 0; r < N_RANKS; ++r) rho[r] = shoe[r] - dealer_cnt[r];
                rho[p] -= 2;
                ev += refund_finite(rho, p, hole_rank, M);
            }
        }
        // BB+1: one unit for the standing hands together, not one each (game_bb1.h)
        if (R.natural_loss == 2) ev += bb1_split_refund(*this, pair, M);
        split_cache[p] = ev;
        split_have[p] = true;
        return ev;
    }

    static double expected_hands(int M, double P2, double P3) {
        if (M == 2) return 2.0;
        if (M == 3) return 2.0 * P2 + 3.0 * (1.0 - P2);
        return 2.0 * P2 + 3.0 * P3 + 4.0 * (1.0 - P2 - P3);
    }
    static double refund_finite(const double* rho, int p, int hole, int M) {
        double left = 0.0;
        for (int r = 0; r < N_RANKS; ++r) left += rho[r];
        double beta_s = (left > 0 && rho[hole] > 0) ? rho[hole] / left : 0.0;
        if (beta_s <= 0.0) return 0.0;
        double n2 = left - 1, m2 = rho[p] - (hole == p ? 1 : 0);
        double P2 = n2 >= 2 ? falling(n2 - m2, 2) / falling(n2, 2) : 1.0;
        double P3 = n2 >= 4 ? 2.0 * m2 * falling(n2 - m2, 3) / falling(n2, 4) : 0.0;
        return (expected_hands(M, P2, P3) - 1.0) * beta_s;
    }

    /* ---- the round -------------------------------------------------------------------- */

    double surrender_value() {
        if (R.surrender == 2) return -0.5;
        double pi[N_RANKS];
        next_card_weights(pi);
        return -0.5 - 0.5 * hole_natural_chance(pi);
    }

    /* the optimal round-start action on the current two cards (split values cached) */
    int start_choice() {
        int a = ACT_STAND;
        double best = get(ACT_STAND).mean(), v = get(ACT_HIT).mean();
        if (improves(v, best)) { a = ACT_HIT; best = v; }
        if (may_double()) {
            v = get(ACT_DOUBLE).mean();
            if (improves(v, best)) { a = ACT_DOUBLE; best = v; }
        }
        for (int p = 0; p < N_RANKS; ++p)
            if (cnt[p] == 2 && hands_limit(p + 1) >= 2) {
                v = split_cache[p];
                if (improves(v, best)) { a = ACT_SPLIT; best = v; }
            }
        if (R.surrender) {
            v = surrender_value();
            if (improves(v, best)) { a = ACT_SURRENDER; best = v; }
        }
        return a;
    }

    double start_choice_value(int c1, int c2) {
        bool split_ok = c1 == c2 && hands_limit(c1 + 1) >= 2;
        if (split_ok && R.split_class != SPLIT_POLICY) split_value(c1 + 1);
        clear_hand();
        add_card(c1);
        add_card(c2);
        int a;
        if (R.split_class == SPLIT_POLICY) {
            a = policy_action(KIND_START);
            if (a == ACT_SPLIT && !split_ok) a = ACT_STAND;
        } else {
            a = start_choice();
        }
        double v;
        if (a == ACT_SPLIT) v = split_value(c1 + 1);
        else if (a == ACT_SURRENDER) v = surrender_value();
        else v = get(a).mean();
        clear_hand();
        return v;
    }

    /* every hand of two cards or more (at most 21) asks for its law (an unsplit hand's
     * shoe, which the split hands' pick in the generic context shares): the round's walk
     * needs them all, and asked for together they fill the passes (``hand_laws_asked``:
     * done for this shoe, so child_rows need not look for them) */
    bool hand_laws_asked = false;
    void ask_hand_laws(int lowest) {
        if (n_cards >= 2) {
            ask_law();
            if (split_contexts_asked) ask_split_laws();
        }
        for (int r = lowest; r < N_RANKS; ++r) {
            if (hard + r + 1 > 21) break;
            add_card(r);
            ask_hand_laws(r);
            remove_card(r);
        }
    }

    /* queue the current hand's law (its shoe whole) unless known */
    void ask_law() {
        uint64_t key = removed_key();
        if (dealer_index.find(key) >= 0) return;
        double n[N_RANKS], left = 0.0;
        remaining(n);
        if (overdrawn(n)) return;
        for (int r = 0; r < N_RANKS; ++r) left += n[r];
        queue_law(key, n, left);
    }
    /* CDP1 and CDP value every composition a split hand can reach, in every context (e
     * extra pair cards gone, e = 1 .. the split's contexts): the current cards as a split
     * hand of each pair rank they hold, in each context whose shoe is no unsplit hand's
     * (the cards out, the hand's and the extra pair cards, over 21: an unsplit hand's law
     * is asked for anyway), asked for with the unsplit hands' so that the passes run full
     * (the split walk asked for them a few at a time) */
    bool split_contexts_asked = false;
    void ask_split_laws() {
        for (int p = 0; p < N_RANKS; ++p) {
            if (!cnt[p] || !split_contexts[p]) continue;
            pair_rank = p + 1;
            for (extra = 1; extra <= split_contexts[p]; ++extra)
                if (hard + extra * (p + 1) > 21) ask_law();
            pair_rank = 0;
            extra = 0;
        }
    }
    int split_contexts[N_RANKS] = {0};   // a pair's split contexts (0: no split)
    void count_split_contexts() {
        for (int p = 0; p < N_RANKS; ++p) {
            int M = hands_limit(p + 1), amax = split_amax(p + 1, M);
            split_contexts[p] = M < 2 || amax < 0 ? 0 : amax + 1;
        }
    }

    double round_value() {
        if (!infinite) {
            // the tables' usual sizes on 6 decks reserved at once (not copied as they grow;
            // pages never written cost no memory)
            // (6D: 5,700-20,400 laws an upcard in Free Bet and Spanish 21, 6,144 hand rows
            // in Spanish 21, 9,163 in Free Bet)
            dealer_rows.reserve((size_t)24576 * N_OUT);
            rows.reserve(12288);
            row_draws.reserve(12288);
            lane_rows.reserve(8192);
            lane_vals.reserve((size_t)8192 * LV_N * 5);
            clear_hand();
            split_contexts_asked = R.split_class == SPLIT_CDP1 || R.split_class == SPLIT_CDP;
            if (split_contexts_asked) count_split_contexts();
            ask_hand_laws(0);
            split_contexts_asked = false;
            hand_laws_asked = true;
            clear_hand();
        }
        double n[N_RANKS], left = 0.0, ev = 0.0;
        for (int r = 0; r < N_RANKS; ++r) n[r] = shoe[r];
        if (!infinite) {
            for (int r = 0; r < N_RANKS; ++r) n[r] -= dealer_cnt[r];
            for (int r = 0; r < N_RANKS; ++r) left += n[r];
        }
        for (int c1 = 0; c1 < N_RANKS; ++c1)
            for (int c2 = 0; c2 < N_RANKS; ++c2) {
                double w;
                if (infinite) {
                    w = n[c1] * n[c2];
                } else {
                    w = n[c1] * (n[c2] - (c1 == c2 ? 1 : 0));
                    if (w <= 0.0) continue;
                    w /= left * (left - 1);
                }
                if (w > 0.0) ev += w * start_choice_value(c1, c2);
            }
        forget_draws();
        return ev;
    }

    /* The rows' kept children and chances (child_rows, lane_child_rows) serve the walk
     * that makes them; the engines of a solve are kept with their rows, and these would
     * keep a sixth of a Free Bet solve's memory (its peak under malloc's trim threshold,
     * tune_allocator).  A later walk finds them again. */
    void forget_draws() {
        for (HandRow<Acc>& h : rows) h.draws = -1;
        std::vector<RowDraws>().swap(row_draws);
        for (LaneRow& lr : lane_rows) lr.kids = -1;
        std::vector<int32_t>().swap(lane_kids);
    }

    /* ---- recording decisions ----------------------------------------------------------- */

    void set_decision(uint64_t key, int action) { policy->set(key, action); }

    void freeze_walk(int lowest, const double* left) {
        if (n_cards >= 2) {
            if (n_cards == 2) set_decision(policy_key(KIND_START), start_choice());
            else set_decision(policy_key(KIND_LATER), best_option(may_double()));
            if (policy->split_context == 0) {
                // CDZ-: a split hand's decision is its composition's (cdz_choice)
                uint64_t key = policy_key(KIND_SPLIT);
                for (int f = 0; f < 2; ++f) {
                    if (f && !R.free_split_ranks) break;
                    pair_rank = 1;   // (any pair: cdz_choice reads none)
                    free_hand = f;
                    int a = cdz_choice();
                    pair_rank = 0;
                    free_hand = 0;
                    set_decision(f ? key | ((uint64_t)1 << POLICY_FREE_SHIFT) : key, a);
                }
                if (game) freeze_cdz_split_choices();
            }
            if (game) freeze_after_double_choices(0);   // the unsplit hand's
        }
        for (int r = lowest; r < N_RANKS; ++r) {
            if (hard + r + 1 > 21) break;
            if (!infinite && cnt[r] + 1 > left[r]) continue;
            add_card(r);
            freeze_walk(r, left);
            remove_card(r);
        }
    }

    /* The current hand's choice after each number of doubles it can hold, as the walk
     * makes it in the current context (doubled_choice_at), for the stake of paid doubles;
     * a policy engine reads it back (frozen_after_double) */
    void freeze_after_double_choices(uint64_t free_bit) {
        if (!(n_cards >= 3 && total() < 21 && (R.redoubles > 0 || R.double_rescue))) return;
        double own = own_stake(), fr = free_hand ? 1.0 : 0.0;
        own += own + fr;
        for (int d = 1; d <= R.redoubles + 1 && d <= n_cards - 2; ++d) {
            int pick = ACT_STAND;
            doubled_choice_at(lookup(), own, fr, R.redoubles - (d - 1), &pick);
            set_decision(after_double_key(d) | free_bit, pick);
            own *= 2.0;
            fr *= 2.0;
        }
    }

    /* CDZ- in the games: the split hands' picks the walk makes in the generic context
     * besides cdz_choice, for the current composition: after each double, and split
     * aces' double on their second card */
    void freeze_cdz_split_choices() {
        for (int f = 0; f < 2; ++f) {
            if (f && !R.free_split_ranks) break;
            uint64_t free_bit = f ? (uint64_t)1 << POLICY_FREE_SHIFT : 0;
            free_hand = f;
            pair_rank = PAIR_GENERIC;
            freeze_after_double_choices(free_bit);
            pair_rank = 1;
            if (n_cards == 2 && cnt[0] > 0 && split_aces_stand() && may_double())
                set_decision(policy_key(KIND_SPLIT_ACES) | free_bit,
                             basis_split_aces_double() ? ACT_DOUBLE : ACT_STAND);
            pair_rank = 0;
            free_hand = 0;
        }
    }

    void freeze_split_walk(int lowest, const double* left) {
        if (n_cards >= 2) {
            int a = best_option(may_double());
            uint64_t key = policy_key(KIND_SPLIT);
            uint64_t free_bit = free_hand ? (uint64_t)1 << POLICY_FREE_SHIFT : 0;
            set_decision(key | free_bit, a);
            if (n_cards == 2 && split_aces_stand() && may_double())
                set_decision(policy_key(KIND_SPLIT_ACES) | free_bit, split_aces_choice(lookup()));
            freeze_after_double_choices(free_bit);
        }
        for (int r = lowest; r < N_RANKS; ++r) {
            if (hard + r + 1 > 21) break;
            if (!infinite && cnt[r] + 1 > left[r]) continue;
            add_card(r);
            freeze_split_walk(r, left);
            remove_card(r);
        }
    }

    void freeze_all() {
        double left[N_RANKS];
        for (int p = 0; p < N_RANKS; ++p) left[p] = shoe[p] - dealer_cnt[p];
        for (int p = 0; p < N_RANKS; ++p)
            if (hands_limit(p + 1) >= 2) split_value(p + 1);
        clear_hand();
        freeze_walk(0, left);
        clear_hand();
        if (policy->split_context == 0) return;
        for (int p = 0; p < N_RANKS; ++p) {
            int M = hands_limit(p + 1);
            if (M < 2 || (p == 0 && !R.hit_split_aces && !R.double_split_aces)) continue;
            int amax = 2 * M - 4;
            if (!infinite && shoe[p] - 2 < amax) amax = (int)shoe[p] - 2;
            int e_max = policy->split_context == 1 ? 1 : amax + 1;
            for (int e = 1; e <= e_max; ++e) {
                for (int r = 0; r < N_RANKS; ++r) left[r] = shoe[r] - dealer_cnt[r];
                left[p] -= e;
                if (!infinite && left[p] < 1) continue;
                for (int f = 0; f < 2; ++f) {
                    if (f && !((R.free_split_ranks >> (p + 1)) & 1)) break;
                    clear_hand();
                    pair_rank = p + 1;
                    extra = e;
                    free_hand = f;
                    add_card(p);
                    freeze_split_walk(0, left);
                }
            }
        }
        clear_hand();
    }
};

/* The entry points: 0, NO_MEMORY or INTERRUPTED (the walk's tables are then half-built:
 * forget them).  ``guarded`` runs one entry point's work and turns the two ways it can
 * stop (memory running out, a stop asked for) into their status. */
template <class Work>
static inline int guarded(Work&& work) {
    bj_prepare_thread();   // alloc.h: ready to throw before memory runs out
    try {
        work();
    } catch (const std::bad_alloc&) {
        return NO_MEMORY;
    } catch (const WalkInterrupted&) {
        return INTERRUPTED;
    }
    return OK;
}
template <class Acc>
static inline int walk_round(GameWalk<Acc>* w, double* out) {
    return guarded([&] { *out = w->round_value(); });
}
template <class Acc>
static inline int walk_split(GameWalk<Acc>* w, int pair, double* out) {
    return guarded([&] { *out = w->split_value(pair); });
}
template <class Acc>
static inline int walk_hand(GameWalk<Acc>* w, double* out) {
    /* stand, hit, double of the current (unsplit) hand; the hand is cleared after */
    int status = guarded([&] {
        out[0] = w->get(ACT_STAND).mean();
        out[1] = w->get(ACT_HIT).mean();
        out[2] = w->get(ACT_DOUBLE).mean();
        double pi[N_RANKS];
        w->next_card_weights(pi);
        out[3] = w->hole_natural_chance(pi);
    });
    w->clear_hand();
    return status;
}
template <class Acc>
static inline int walk_freeze(GameWalk<Acc>* w) {
    return guarded([&] { w->freeze_all(); });
}

typedef GameWalk<ValueAcc> ValueWalk;

}  // namespace bjgame

#endif
