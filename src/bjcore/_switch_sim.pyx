# cython: language_level=3
"""The real Blackjack Switch round, simulated in C (bjsolve.simulation.switch builds the
tables; docs/games.md, "Blackjack Switch").

Each round is dealt from a fresh shoe (the first round off the top, as the analysis): hand 1's
first card, hand 2's first, the upcard, hand 1's second, hand 2's second, the hole card.
The dealer peeks: a natural ends the round (each dealt hand loses one unit, a dealt natural
pushes).  Else the player keeps or switches by the analysis' decision for the deal
(``switches``), plays hand 1 to the end, then hand 2 from what hand 1 left, and the dealer
draws from what both left.  Every decision comes from tables the Python side made from the
analysis' engines: the first action of each hand (``first``), the split limits, and every
later stand / hit / double by the hand's cards (``later_keys``, ``later_actions``, sorted
keys, a binary search).  The same round as the pure-Python ``simulate_switch``, card for
card in the same order.

``run_switch_shoe_chunk`` plays the same round (``play_round``) from a counted shoe: one
shoe shuffled, a card burnt, dealt round after round to the cut card, every card seen
counted, the round bet by the true count before it (and each deal of a keep-or-switch index
line kept or switched by it), both hands insured by the true count after the deal; the
shoe's arithmetic is the classic
simulator's (bjcore._counted_shoe) and its results come in the classic layout
(bjcore._simulate: sums, counts and the per-true-count tables).
"""
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, free

import numpy as np

from bjcore._rng cimport Rng, seed_rng, below
from bjcore._counted_shoe cimport (pick_card, true_count_of, tc_bin, still_playing,
                                   sigint_received)
from bjcore._simulate cimport (TC_LOW, TC_HIGH, TC_SPAN, SIM_MAX_CARDS, S_WON, S_WON_SQ,
                               S_BET, S_COUNT, C_ROUNDS, C_PLAYED, C_HANDS, C_SHUFFLES,
                               C_EXHAUSTED, C_RUINED, C_COUNT)

# this simulator's salt for the generator's streams (bjcore._rng; bjcore._simulate has its own)
cdef uint64_t RNG_SALT = <uint64_t>0x3C6EF372FE94F82B


cdef enum:
    STAND = 0
    HIT = 1
    DOUBLE = 2
    SPLIT = 3
    SURRENDER = 4
    TWENTY_ONE = 5        # an ace-ten made by switching that is no natural: stands on 21
    MAX_FINISHED = 8      # finished hands of a round (two hands, each split to 4 at most)
    NO_OTHER = 55         # the decision tables' "other hand" when the other hand's cards
                          # are not out (removal "own", an infinite shoe)


cdef struct Deck:
    # a fresh shoe each round (run_switch_chunk): the counts left, drawn from
    int counts[10]
    int left
    Rng rng
    # the counted shoe (run_switch_shoe_chunk): its cards in the order the shuffle deals
    # them, and the count of the cards seen since the shuffle
    bint counted
    int8_t* cards
    int n_cards
    int pos                  # cards dealt since the shuffle (the burn card included)
    double rc                # running count, in units of 1 / tag_scale
    int seen
    const double* tags
    int64_t exhausted        # rounds that ran out of cards (the shoe was refilled)


cdef inline int deal_unseen(Deck* d) noexcept nogil:
    """The counted shoe's next card, not seen (the burn card, the hole card until the end
    of the round).  An empty shoe is refilled, counted as an exhaustion (as the classic
    simulator does)."""
    if d.pos >= d.n_cards:
        d.exhausted += 1
        d.pos = 0
        d.rc = 0.0
        d.seen = 0
    pick_card(&d.rng, d.cards, d.n_cards, d.pos)
    d.pos += 1
    return d.cards[d.pos - 1]


cdef inline void see(Deck* d, int card) noexcept nogil:
    d.rc += d.tags[card - 1]
    d.seen += 1


cdef inline bint shoe_empty(const Deck* d) noexcept nogil:
    """No card left to draw (a fresh shoe only: the counted shoe is refilled)."""
    return not d.counted and d.left <= 0


cdef inline int draw(Deck* d) noexcept nogil:
    """A card off the shoe (rank 1..10), seen; an empty fresh shoe gives 0."""
    cdef int x, r
    if d.counted:
        x = deal_unseen(d)
        see(d, x)
        return x
    if d.left <= 0:
        return 0
    x = <int>below(&d.rng, <uint32_t>d.left)
    r = 0
    while x >= d.counts[r]:
        x -= d.counts[r]
        r += 1
    d.counts[r] -= 1
    d.left -= 1
    return r + 1


cdef inline int pair_index(int a, int b) noexcept nogil:
    """The index of the sorted pair (a, b) in bjsolve.exact.switch.PAIRS."""
    cdef int lo = a if a <= b else b
    cdef int hi = b if a <= b else a
    return (lo - 1) * 10 - (lo - 1) * (lo - 2) // 2 + (hi - lo)


cdef inline int hand_total(const int* cards, int n, bint* soft) noexcept nogil:
    """The best total of ``n`` cards (an ace counts 11 if that stays <= 21: ``soft``)."""
    cdef int t = 0, i
    cdef bint ace = False
    for i in range(n):
        t += cards[i]
        if cards[i] == 1:
            ace = True
    soft[0] = ace and t + 10 <= 21
    return t + 10 if soft[0] else t


cdef inline int best_total(const int* cards, int n) noexcept nogil:
    cdef bint soft
    return hand_total(cards, n, &soft)


cdef inline bint dealer_stands(const int* cards, int n, bint h17) noexcept nogil:
    cdef bint soft
    cdef int t = hand_total(cards, n, &soft)
    return t > 17 or (t == 17 and not (soft and h17))


cdef struct Tables:
    const uint8_t* switches      # [a-1][b-1][c-1][e-1][u-1]: 1 to switch
    const int8_t* first          # [u-1][other pair][hand pair]: the first action
    const int8_t* limits         # [u-1][other pair or 55][pair rank - 1]: split hands
    const uint64_t* keys         # sorted later-decision keys
    const uint8_t* actions       # their actions (STAND, HIT, DOUBLE)
    int64_t n_keys
    bint full                    # decisions keyed by the other hand (removal "full")
    bint h17, push22, das, hit_aces, double_any, switch_blackjack
    double payout


cdef inline uint64_t later_key(int other, int up, const int* cards, int n,
                               bint may_double) noexcept nogil:
    """other (0..55) << 55 | upcard << 51 | may_double << 50 | counts (5 bits a rank)."""
    cdef uint64_t comp = 0
    cdef int i
    for i in range(n):
        comp += (<uint64_t>1) << (5 * (cards[i] - 1))
    return ((<uint64_t>other) << 55) | ((<uint64_t>up) << 51) | \
        ((<uint64_t>(1 if may_double else 0)) << 50) | comp


cdef inline int later_action(const Tables* t, uint64_t key) noexcept nogil:
    """The action of a later decision; -1 when the table lacks it (a bug: counted)."""
    cdef int64_t lo = 0, hi = t.n_keys - 1, mid
    while lo <= hi:
        mid = (lo + hi) >> 1
        if t.keys[mid] == key:
            return t.actions[mid]
        if t.keys[mid] < key:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


cdef struct Finished:
    int total        # 0: bust
    double stake


cdef int play_on(const Tables* t, Deck* d, int* cards, int n, int other, int up,
                 bint may_double, Finished* out, int64_t* misses) noexcept nogil:
    """Play a hand on from its cards (two or more) by the later decisions."""
    cdef bint double_ok = may_double and n == 2
    cdef int total, action
    while True:
        total = best_total(cards, n)
        if total > 21:
            out.total = 0
            out.stake = 1.0
            return 0
        if total == 21:
            out.total = 21
            out.stake = 1.0
            return 0
        action = later_action(t, later_key(other, up, cards, n, double_ok or t.double_any))
        if action < 0:
            misses[0] += 1
            action = STAND
        if action == STAND:
            out.total = total
            out.stake = 1.0
            return 0
        cards[n] = draw(d)
        if cards[n] == 0:          # the shoe ran out (a tiny shoe): counted, the hand stands
            misses[0] += 1
            out.total = total
            out.stake = 1.0
            return 0
        n += 1
        if action == DOUBLE:
            total = best_total(cards, n)
            out.total = total if total <= 21 else 0
            out.stake = 2.0
            return 0
        double_ok = False


cdef double play_round(const Tables* t, Deck* d, int a, int b, int c, int e, int up,
                       int hole, bint switched, int* n_hands, int64_t* misses) noexcept nogil:
    """The round after the deal (hand 1 a, b; hand 2 c, e; the upcard and the hole card),
    insurance aside: the dealer's peek, the hands kept or (``switched``) switched, played,
    the dealer's draw, the result in units of one hand's bet.  ``n_hands``: the hands
    the round played (2, more after splits)."""
    cdef int k, act, pair, limit, made, other, o, hi, card, h, n_fin, dn, dealer
    cdef int hands[2][2]
    cdef bint naturals[2]
    cdef bint dealt_nat[2]
    cdef Finished fin[MAX_FINISHED]
    cdef int cards[24]
    cdef int dcards[24]
    cdef int pending
    cdef double result, stake
    cdef bint any_standing
    n_hands[0] = 2
    dealt_nat[0] = (a == 1 and b == 10) or (a == 10 and b == 1)
    dealt_nat[1] = (c == 1 and e == 10) or (c == 10 and e == 1)
    if (up == 1 and hole == 10) or (up == 10 and hole == 1):
        return (0.0 if dealt_nat[0] else -1.0) + (0.0 if dealt_nat[1] else -1.0)
    if switched:
        hands[0][0] = a
        hands[0][1] = e
        hands[1][0] = c
        hands[1][1] = b
        naturals[0] = t.switch_blackjack and pair_index(a, e) == 9
        naturals[1] = t.switch_blackjack and pair_index(c, b) == 9
    else:
        hands[0][0] = a
        hands[0][1] = b
        hands[1][0] = c
        hands[1][1] = e
        naturals[0] = dealt_nat[0]
        naturals[1] = dealt_nat[1]
    n_fin = 0
    result = 0.0
    for k in range(2):
        if naturals[k]:
            result += t.payout
            continue
        h = pair_index(hands[k][0], hands[k][1])
        o = pair_index(hands[1 - k][0], hands[1 - k][1])
        other = o if t.full else NO_OTHER
        act = t.first[((up - 1) * 55 + o) * 55 + h]
        if act == SURRENDER:
            result -= 0.5
            continue
        if act == TWENTY_ONE:
            fin[n_fin].total = 21
            fin[n_fin].stake = 1.0
            n_fin += 1
            continue
        if act == SPLIT:
            # forced resplits up to the limit, the split hands in the order they
            # were made, each played as the unsplit hand of its cards (CDZ-)
            pair = hands[k][0]
            limit = t.limits[((up - 1) * 56 + other) * 10 + pair - 1]
            pending = 2
            made = 2
            while pending > 0:
                pending -= 1
                cards[0] = pair
                card = draw(d)
                while card == pair and made < limit:
                    pending += 1
                    made += 1
                    card = draw(d)
                cards[1] = card
                if pair == 1 and not t.hit_aces:
                    fin[n_fin].total = best_total(cards, 2)
                    fin[n_fin].stake = 1.0
                else:
                    play_on(t, d, cards, 2, other, up, t.das, &fin[n_fin], misses)
                n_fin += 1
            n_hands[0] += made - 1
            continue
        cards[0] = hands[k][0]
        cards[1] = hands[k][1]
        if act == DOUBLE:
            cards[2] = draw(d)
            hi = best_total(cards, 3)
            fin[n_fin].total = hi if hi <= 21 else 0
            fin[n_fin].stake = 2.0
        elif act == STAND:
            fin[n_fin].total = best_total(cards, 2)
            fin[n_fin].stake = 1.0
        elif act == HIT:
            cards[2] = draw(d)
            play_on(t, d, cards, 3, other, up, True, &fin[n_fin], misses)
        else:
            misses[0] += 1
            fin[n_fin].total = best_total(cards, 2)
            fin[n_fin].stake = 1.0
        n_fin += 1
    any_standing = False
    for h in range(n_fin):
        if fin[h].total > 0:
            any_standing = True
    dealer = 0
    if any_standing:
        dcards[0] = up
        dcards[1] = hole
        dn = 2
        while not dealer_stands(dcards, dn, t.h17):
            if shoe_empty(d):
                dn = -1      # an empty shoe: the dealer busts (the analyzers' rule)
                break
            dcards[dn] = draw(d)
            dn += 1
        dealer = 23 if dn < 0 else best_total(dcards, dn)
    for h in range(n_fin):
        stake = fin[h].stake
        if fin[h].total == 0:
            result -= stake
        elif dealer > 22 or (dealer == 22 and not t.push22):
            result += stake
        elif dealer == 22:
            pass
        elif fin[h].total > dealer:
            result += stake
        elif fin[h].total < dealer:
            result -= stake
    return result


cdef inline int deal_index(int a, int b, int c, int e, int up) noexcept nogil:
    """The ordered deal's place in the switch tables ([a-1][b-1][c-1][e-1][u-1])."""
    return (((a - 1) * 10 + b - 1) * 10 + c - 1) * 100 + (e - 1) * 10 + up - 1


cdef Tables make_tables(const uint8_t[::1] switches, const int8_t[::1] first,
                        const int8_t[::1] limits, const uint64_t[::1] keys,
                        const uint8_t[::1] actions, bint full, bint h17, bint push22,
                        bint das, bint hit_aces, bint double_any, bint switch_blackjack,
                        double payout) except *:
    """The decision tables (bjsolve.simulation.switch_compiled.SwitchTables), checked."""
    if switches.shape[0] != 100000 or first.shape[0] != 10 * 55 * 55:
        raise ValueError("switch tables: table shapes (10^5 deals, 10x55x55)")
    if limits.shape[0] != 10 * 56 * 10 or keys.shape[0] != actions.shape[0]:
        raise ValueError("switch tables: limits 10x56x10, keys and actions one length")
    cdef Tables t
    t.switches = &switches[0]
    t.first = &first[0]
    t.limits = &limits[0]
    t.keys = &keys[0] if keys.shape[0] else NULL
    t.actions = &actions[0] if actions.shape[0] else NULL
    t.n_keys = keys.shape[0]
    t.full, t.h17, t.push22, t.das = full, h17, push22, das
    t.hit_aces, t.double_any, t.switch_blackjack = hit_aces, double_any, switch_blackjack
    t.payout = payout
    return t


def run_switch_chunk(const int32_t[::1] shoe, const uint8_t[::1] switches,
                     const int8_t[::1] first, const int8_t[::1] limits,
                     const uint64_t[::1] keys, const uint8_t[::1] actions,
                     bint full, bint h17, bint push22, bint das, bint hit_aces,
                     bint double_any, bint switch_blackjack, double payout,
                     uint64_t seed, uint64_t chunk, int64_t rounds,
                     double[::1] histogram, bint insure=False):
    """Play ``rounds`` rounds (module doc) with the generator's stream ``chunk`` of
    ``seed``: (sum of results, sum of squares, rounds switched, decisions missing from the
    tables).  ``histogram`` [k] += 1 for a round's result r with 2 r + 40 == k (0..80),
    when 2 x payout is whole.  ``insure``: against an ace up, both hands insured for half
    a unit each before the peek (+2 for the round when the hole card is a ten, else -1),
    in the round's result."""
    if shoe.shape[0] != 10:
        raise ValueError("run_switch_chunk: table shapes (10 ranks, 10^5 deals, 10x55x55)")
    if histogram.shape[0] != 81:
        raise ValueError("run_switch_chunk: histogram of 81 bins")
    cdef Tables t = make_tables(switches, first, limits, keys, actions, full, h17, push22,
                                das, hit_aces, double_any, switch_blackjack, payout)
    cdef bint lattice = (2.0 * payout) == <double>(<int>(2.0 * payout))
    cdef double total_sum = 0.0, total_sq = 0.0
    cdef int64_t switched_rounds = 0, misses = 0, i
    cdef int start[10]
    cdef int start_left = 0, r
    for r in range(10):
        start[r] = shoe[r]
        start_left += shoe[r]
    cdef Deck d
    d.counted = False
    seed_rng(&d.rng, seed, chunk, RNG_SALT)
    cdef int a, b, c, e, up, hole, n_hands
    cdef bint switched
    cdef double result
    with nogil:
        for i in range(rounds):
            for r in range(10):
                d.counts[r] = start[r]
            d.left = start_left
            a = draw(&d)
            c = draw(&d)
            up = draw(&d)
            b = draw(&d)
            e = draw(&d)
            hole = draw(&d)
            result = 0.0
            if insure and up == 1:
                result = 2.0 if hole == 10 else -1.0
            switched = t.switches[deal_index(a, b, c, e, up)] != 0
            if switched and not ((up == 1 and hole == 10) or (up == 10 and hole == 1)):
                switched_rounds += 1
            result += play_round(&t, &d, a, b, c, e, up, hole, switched, &n_hands, &misses)
            total_sum += result
            total_sq += result * result
            if lattice:
                histogram[<int>(2.0 * result + 40.5)] += 1.0
    return total_sum, total_sq, switched_rounds, misses


# ---- the counted shoe ------------------------------------------------------------------------

# positions in run_switch_shoe_chunk's ``iparams`` (bjsolve.simulation.switch_shoe builds it)
cdef enum:
    SW_CUT = 0               # shuffle before a round once this many cards are dealt
    SW_TC_METHOD             # 0 exact, 1 half-deck, 2 whole-deck estimate of the decks left
    SW_ROUNDING              # 0 floor, 1 truncate, 2 round
    SW_DECK_CARDS            # cards in a deck (52; 48 Spanish)
    SW_TAG_SCALE             # the running count in units of 1 / this
    SW_WONG_IN_SET
    SW_WONG_IN
    SW_WONG_OUT_SET
    SW_WONG_OUT
    SW_INSURANCE_SET
    SW_INSURANCE             # insure both hands at TC >= this (after the deal)
    SW_INDEXED               # 1: keep or switch by switches_by_tc at the round's TC
    SW_COUNT
    SW_DEALS = 100000        # ordered deals of the switch tables

SWITCH_SHOE_PARAMS = SW_COUNT   # the length of run_switch_shoe_chunk's iparams
DEALS = SW_DEALS


def run_switch_shoe_chunk(const int32_t[::1] shoe, const uint8_t[::1] switches,
                          const int8_t[::1] first, const int8_t[::1] limits,
                          const uint64_t[::1] keys, const uint8_t[::1] actions,
                          bint full, bint h17, bint push22, bint das, bint hit_aces,
                          bint double_any, bint switch_blackjack, double payout,
                          const double[::1] tags, const int64_t[::1] iparams,
                          const uint8_t[::1] switches_by_tc, const double[::1] bet_by_tc,
                          uint64_t seed, uint64_t chunk, int64_t rounds, int8_t[::1] stop,
                          bint watch_sigint=False, double bankroll=0.0):
    """Play ``rounds`` rounds of Blackjack Switch from a counted shoe (module doc) with the
    generator's stream ``chunk`` of ``seed``, from a fresh shuffle: returns (sums, counts,
    tc_counts, tc_sums) as bjcore._simulate.run_chunk does (S_WON, S_WON_SQ, S_BET;
    C_ROUNDS, C_PLAYED, C_HANDS, C_SHUFFLES, C_EXHAUSTED; the rest 0) and the decisions
    missing from the tables (a bug if not 0), a round's result per
    unit bet being its result over its two units (one a hand), its money ``bet x`` that,
    ``bet`` (bet_by_tc at the round's true count bin, TC_LOW..TC_HIGH) the round's total.

    Before each round: a shuffle once ``iparams[SW_CUT]`` cards are dealt (0: every round),
    a card burnt; the true count of the cards seen (bjcore._counted_shoe), wonging, the
    bet.  After the deal (the four player cards and the upcard seen): against an ace both
    hands insured at TC >= the insurance index (+2 for the round on a dealer natural, else
    -1); the deal kept or switched by ``switches`` or, with SW_INDEXED, by
    ``switches_by_tc[the round's tc bin x 10^5 + deal]`` (the count before the round, at
    which the index lines are made: the shoe at that count with the deal's five cards
    out).  The hole card is seen at the round's end.
    ``stop[0] != 0`` ends the chunk early (counts say how far it got); ``watch_sigint``
    (the main thread only): a Ctrl-C too, setting stop[0] = 2 (the caller raises it).
    ``bankroll`` > 0: the chunk ends at ruin (bankroll + winnings <= 0; C_RUINED set)."""
    if shoe.shape[0] != 10 or tags.shape[0] != 10 or iparams.shape[0] != SW_COUNT:
        raise ValueError(f"run_switch_shoe_chunk: 10 counts, 10 tags, {SW_COUNT} iparams")
    if bet_by_tc.shape[0] != TC_SPAN or stop.shape[0] < 1:
        raise ValueError(f"run_switch_shoe_chunk: bet_by_tc of {TC_SPAN} bins, a stop flag")
    cdef bint indexed = iparams[SW_INDEXED] != 0
    if indexed and switches_by_tc.shape[0] != TC_SPAN * SW_DEALS:
        raise ValueError(f"run_switch_shoe_chunk: switches_by_tc of {TC_SPAN} x {SW_DEALS}")
    if iparams[SW_DECK_CARDS] not in (48, 52) or iparams[SW_TAG_SCALE] < 1:
        raise ValueError("run_switch_shoe_chunk: deck cards 52 or 48, tag scale >= 1")
    cdef Tables t = make_tables(switches, first, limits, keys, actions, full, h17, push22,
                                das, hit_aces, double_any, switch_blackjack, payout)
    cdef int64_t n = 0
    cdef int r, k, i
    for r in range(10):
        if shoe[r] < 0:
            raise ValueError("run_switch_shoe_chunk: negative shoe counts")
        n += shoe[r]
    if n > SIM_MAX_CARDS or n < 7:
        raise ValueError(f"run_switch_shoe_chunk: a shoe of 7..{SIM_MAX_CARDS} cards, got {n}")
    cdef int cut = <int>iparams[SW_CUT]
    if cut < 0 or cut > n - 6:
        raise ValueError(f"run_switch_shoe_chunk: the cut card must leave a round (6 cards) "
                         f"behind it, got {cut} of {n}")
    sums = np.zeros(S_COUNT, dtype=np.float64)
    counts = np.zeros(C_COUNT, dtype=np.int64)
    tc_counts = np.zeros((TC_SPAN, 2), dtype=np.int64)
    tc_sums = np.zeros((TC_SPAN, 2), dtype=np.float64)
    cdef double[::1] out_s = sums
    cdef int64_t[::1] out_c = counts
    cdef int64_t[:, ::1] out_tcc = tc_counts
    cdef double[:, ::1] out_tcs = tc_sums
    cdef int64_t misses = 0
    cdef Deck d
    d.counted = True
    d.n_cards = <int>n
    d.cards = <int8_t*>malloc(d.n_cards)
    if d.cards == NULL:
        raise MemoryError()
    k = 0
    for r in range(10):
        for i in range(shoe[r]):
            d.cards[k] = r + 1
            k += 1
    d.pos = d.n_cards                # a shuffle before the first round
    d.rc = 0.0
    d.seen = 0
    d.tags = &tags[0]
    d.exhausted = 0
    d.left = 0
    seed_rng(&d.rng, seed, chunk, RNG_SALT)
    try:
        with nogil:
            _run_shoe(&t, &d, &iparams[0], &switches_by_tc[0] if indexed else NULL,
                      &bet_by_tc[0], cut, rounds, bankroll, &stop[0], watch_sigint,
                      &out_s[0], &out_c[0], &out_tcc[0, 0], &out_tcs[0, 0], &misses)
    finally:
        free(d.cards)
    return sums, counts, tc_counts, tc_sums, misses


cdef inline int deck_true_count(const Deck* d, const int64_t* ip) noexcept nogil:
    return true_count_of(d.rc, d.n_cards - d.seen, <int>ip[SW_TC_METHOD],
                         <int>ip[SW_DECK_CARDS], <double>ip[SW_TAG_SCALE],
                         <int>ip[SW_ROUNDING])


cdef void _run_shoe(const Tables* t, Deck* d, const int64_t* ip, const uint8_t* by_tc,
                    const double* bet_by_tc, int cut, int64_t rounds, double bankroll,
                    volatile int8_t* stop, bint watch_sigint, double* out_s,
                    int64_t* out_c, int64_t* out_tcc, double* out_tcs,
                    int64_t* out_misses) noexcept nogil:
    """The rounds of run_switch_shoe_chunk."""
    cdef bint wong_in_set = ip[SW_WONG_IN_SET] != 0
    cdef bint wong_out_set = ip[SW_WONG_OUT_SET] != 0
    cdef int wong_in = <int>ip[SW_WONG_IN]
    cdef int wong_out = <int>ip[SW_WONG_OUT]
    cdef bint insurance_set = ip[SW_INSURANCE_SET] != 0
    cdef int insurance_at = <int>ip[SW_INSURANCE]
    cdef bint playing = not wong_in_set
    cdef int64_t done = 0, played = 0, hands = 0, shuffles = 0, misses = 0
    cdef int tc, dealt_tc, bucket, a, b, c, e, up, hole, deal, n_hands
    cdef bint switched
    cdef double bet, result, unit, money, won = 0.0, won_sq = 0.0, total_bet = 0.0
    cdef double cumulative = 0.0
    while done < rounds:
        if (done & 0xFFFF) == 0:
            if stop[0] != 0:
                break
            if watch_sigint and sigint_received():
                stop[0] = 2          # bjcore._simulate.STOP_SIGINT
                break
        # ---- shuffle at the cut card; burn one card (never seen) ----
        if d.pos >= cut:
            d.pos = 0
            d.rc = 0.0
            d.seen = 0
            shuffles += 1
            deal_unseen(d)
            playing = not wong_in_set
        # ---- the bet, from the count before the round ----
        tc = deck_true_count(d, ip)
        playing = still_playing(playing, tc, wong_in_set, wong_in, wong_out_set, wong_out)
        bucket = tc_bin(tc, TC_LOW, TC_HIGH)
        bet = bet_by_tc[bucket] if playing else 0.0
        # ---- the deal: hand 1's first card, hand 2's, the upcard, the second cards, the
        # hole card (unseen until the round ends) ----
        a = draw(d)
        c = draw(d)
        up = draw(d)
        b = draw(d)
        e = draw(d)
        hole = deal_unseen(d)
        dealt_tc = deck_true_count(d, ip)
        result = 0.0
        if insurance_set and up == 1 and dealt_tc >= insurance_at:
            result = 2.0 if hole == 10 else -1.0
        deal = deal_index(a, b, c, e, up)
        if by_tc != NULL:
            switched = by_tc[<int64_t>bucket * SW_DEALS + deal] != 0
        else:
            switched = t.switches[deal] != 0
        result += play_round(t, d, a, b, c, e, up, hole, switched, &n_hands, &misses)
        see(d, hole)
        # ---- the player's result, per unit bet: the round's over its two units ----
        done += 1
        out_tcc[bucket * 2] += 1
        if bet > 0.0:
            unit = result / 2.0
            out_tcc[bucket * 2 + 1] += 1
            out_tcs[bucket * 2] += unit
            out_tcs[bucket * 2 + 1] += unit * unit
            money = bet * unit
            won += money
            won_sq += money * money
            total_bet += bet
            played += 1
            hands += n_hands
            if bankroll > 0.0:
                cumulative += money
                if bankroll + cumulative <= 0.0:
                    out_c[C_RUINED] = 1
                    break
    out_s[S_WON] = won
    out_s[S_WON_SQ] = won_sq
    out_s[S_BET] = total_bet
    out_c[C_ROUNDS] = done
    out_c[C_PLAYED] = played
    out_c[C_HANDS] = hands
    out_c[C_SHUFFLES] = shuffles
    out_c[C_EXHAUSTED] = d.exhausted
    out_misses[0] = misses
