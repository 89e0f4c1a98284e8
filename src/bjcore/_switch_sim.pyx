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
"""
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t


from bjcore._rng cimport Rng, seed_rng, below

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
    int counts[10]
    int left
    Rng rng


cdef inline int draw(Deck* d) noexcept nogil:
    """A card off the shoe (rank 1..10); an empty shoe gives 0."""
    cdef int x, r
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
    if shoe.shape[0] != 10 or switches.shape[0] != 100000 or first.shape[0] != 10 * 55 * 55:
        raise ValueError("run_switch_chunk: table shapes (10 ranks, 10^5 deals, 10x55x55)")
    if limits.shape[0] != 10 * 56 * 10 or keys.shape[0] != actions.shape[0]:
        raise ValueError("run_switch_chunk: limits 10x56x10, keys and actions one length")
    if histogram.shape[0] != 81:
        raise ValueError("run_switch_chunk: histogram of 81 bins")
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
    cdef bint lattice = (2.0 * payout) == <double>(<int>(2.0 * payout))
    cdef double total_sum = 0.0, total_sq = 0.0
    cdef int64_t switched_rounds = 0, misses = 0, i
    cdef int start[10]
    cdef int start_left = 0, r
    for r in range(10):
        start[r] = shoe[r]
        start_left += shoe[r]
    cdef Deck d
    seed_rng(&d.rng, seed, chunk, RNG_SALT)
    cdef int a, b, c, e, up, hole, k, act, pair, limit, made, other, o, hi, card
    cdef int hands[2][2]
    cdef bint naturals[2]
    cdef bint dealt_nat[2]
    cdef Finished fin[MAX_FINISHED]
    cdef int n_fin, n_cards, dn, dealer, h
    cdef int cards[24]
    cdef int dcards[24]
    cdef int pending, first_cards
    cdef double result, stake, insured
    cdef bint any_standing
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
            insured = 0.0
            if insure and up == 1:
                insured = 2.0 if hole == 10 else -1.0
            dealt_nat[0] = (a == 1 and b == 10) or (a == 10 and b == 1)
            dealt_nat[1] = (c == 1 and e == 10) or (c == 10 and e == 1)
            if (up == 1 and hole == 10) or (up == 10 and hole == 1):
                result = (0.0 if dealt_nat[0] else -1.0) + (0.0 if dealt_nat[1] else -1.0)
                result += insured
                total_sum += result
                total_sq += result * result
                if lattice:
                    histogram[<int>(2.0 * result + 40.5)] += 1.0
                continue
            if t.switches[(((a - 1) * 10 + b - 1) * 10 + c - 1) * 100 + (e - 1) * 10 + up - 1]:
                switched_rounds += 1
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
            result = insured
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
                        card = draw(&d)
                        while card == pair and made < limit:
                            pending += 1
                            made += 1
                            card = draw(&d)
                        cards[1] = card
                        if pair == 1 and not t.hit_aces:
                            fin[n_fin].total = best_total(cards, 2)
                            fin[n_fin].stake = 1.0
                        else:
                            play_on(&t, &d, cards, 2, other, up, t.das, &fin[n_fin], &misses)
                        n_fin += 1
                    continue
                cards[0] = hands[k][0]
                cards[1] = hands[k][1]
                if act == DOUBLE:
                    cards[2] = draw(&d)
                    hi = best_total(cards, 3)
                    fin[n_fin].total = hi if hi <= 21 else 0
                    fin[n_fin].stake = 2.0
                elif act == STAND:
                    fin[n_fin].total = best_total(cards, 2)
                    fin[n_fin].stake = 1.0
                elif act == HIT:
                    cards[2] = draw(&d)
                    play_on(&t, &d, cards, 3, other, up, True, &fin[n_fin], &misses)
                else:
                    misses += 1
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
                    if d.left <= 0:
                        dn = -1      # an empty shoe: the dealer busts (the analyzers' rule)
                        break
                    dcards[dn] = draw(&d)
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
            total_sum += result
            total_sq += result * result
            if lattice:
                histogram[<int>(2.0 * result + 40.5)] += 1.0
    return total_sum, total_sq, switched_rounds, misses
