# cython: language_level=3
"""The real-game simulator: a shoe dealt to a cut card, counted, bet and played.

One call of ``run_chunk`` plays ``rounds`` rounds with its own generator, seeded from
(seed, chunk index), starting from a freshly shuffled shoe.  Everything the game needs
arrives as flat arrays built once in Python (bjsolve/simulation/simulator.py):

* hand compositions: every multiset of ranks with hard total <= 21 has an id (0 = no
  card); ``child[id * 10 + r - 1]`` is the id after one more card of rank r (-1: bust),
  ``total[id]`` its best total (soft counted as soft);
* decisions: ``decision[(kind * n_keys + key) * n_comps + id] & 7`` is the action (0 stand,
  1 hit, 2 double, 3 split, 4 surrender) for a hand of that composition, against dealer key
  ``key`` (upcard - 1, or both dealer cards' index in the exposed game), kind 0 original
  two cards, 1 later decision of an unsplit hand, 2 a split hand's decision;
* index plays: ``decision[...] >> 3`` is 0 or 1 + an index line whose play at the current
  true count replaces the action when ``allowed[kind * n_comps + id]`` permits it (one
  16-bit table keeps the hot lookups in cache);
* betting: ``bet_by_tc[tc - TC_LOW]`` the bet at each (rounded, clamped) true count.

The loop touches no Python object and runs without the GIL.
"""
from libc.stdint cimport uint64_t, uint32_t, int8_t, int16_t, int32_t, int64_t
from libc.stdlib cimport malloc, free

cdef extern from "Python.h":
    # true (once) when SIGINT arrived since the last look, in the main thread only; it takes
    # the signal without running Python's handler (the caller re-raises it)
    int PyOS_InterruptOccurred()

import numpy as np

from bjcore._defs cimport RuleParams
from bjcore._rules cimport ShoeParams, decode_rules, refuse_game_rules, decode_counts

cdef enum:
    ACT_STAND = 0
    ACT_HIT = 1
    ACT_DOUBLE = 2
    ACT_SPLIT = 3
    ACT_SURRENDER = 4

# spot states during a round
cdef enum:
    SPOT_ACTIVE = 0
    SPOT_DONE = 1            # settled: net is final
    SPOT_NATURAL_WAITS = 2   # a natural waiting for a no-hole-card dealer's second card
    SPOT_LATE_SURRENDER = 3  # surrendered late; a no-hole-card dealer natural voids it
    SPOT_PLAYED = 4          # hands played, waiting for the dealer


# ---- the generator: xoshiro256** seeded through splitmix64 --------------------------------

cdef inline uint64_t splitmix64(uint64_t* x) noexcept nogil:
    x[0] += <uint64_t>0x9E3779B97F4A7C15
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline uint64_t rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef inline uint64_t next_u64(Rng* r) noexcept nogil:
    cdef uint64_t result = rotl(r.s1 * 5, 7) * 9
    cdef uint64_t t = r.s1 << 17
    r.s2 ^= r.s0
    r.s3 ^= r.s1
    r.s1 ^= r.s2
    r.s0 ^= r.s3
    r.s2 ^= t
    r.s3 = rotl(r.s3, 45)
    return result


cdef void seed_rng(Rng* r, uint64_t seed, uint64_t chunk) noexcept nogil:
    """Chunk k of seed s: four splitmix64 outputs from a start mixing s and k."""
    cdef uint64_t a = seed
    cdef uint64_t b = chunk ^ <uint64_t>0x6A09E667F3BCC909
    cdef uint64_t x = splitmix64(&a) ^ rotl(splitmix64(&b), 32)
    r.s0 = splitmix64(&x)
    r.s1 = splitmix64(&x)
    r.s2 = splitmix64(&x)
    r.s3 = splitmix64(&x)


cdef inline uint32_t below(Rng* r, uint32_t n) noexcept nogil:
    """Uniform integer in [0, n) without bias (Lemire's multiply-and-reject)."""
    cdef uint64_t m = (next_u64(r) >> 32) * <uint64_t>n
    cdef uint32_t low = <uint32_t>m
    cdef uint32_t threshold
    if low < n:
        threshold = (<uint32_t>(-n)) % n
        while low < threshold:
            m = (next_u64(r) >> 32) * <uint64_t>n
            low = <uint32_t>m
    return <uint32_t>(m >> 32)


MAX_CARDS = SIM_MAX_CARDS        # the largest shoe run_chunk deals from


def random_integers(uint64_t seed, uint64_t chunk, int count, uint32_t below_n):
    """``count`` draws of the chunk's generator, uniform in [0, below_n) (for tests)."""
    cdef Rng r
    seed_rng(&r, seed, chunk)
    out = np.empty(count, dtype=np.int64)
    cdef int64_t[::1] o = out
    cdef int i
    for i in range(count):
        o[i] = below(&r, below_n)
    return out


# ---- the simulator's state ------------------------------------------------------------------

cdef struct Sim:
    Rng rng
    # shoe
    int8_t* deck
    int n_cards
    int infinite             # draws with replacement from deck[0:n_cards]; no count
    int pos                  # cards dealt since the shuffle (burn card included)
    int cut
    double rc                # running count of the cards seen
    int seen                 # cards seen since the shuffle
    const double* tags
    int tc_method
    int rounding
    # tables
    const int32_t* child
    const int8_t* total
    const int16_t* decision  # action | (index line + 1) << 3
    const int8_t* allowed
    const int32_t* line_nseg
    const int32_t* line_thr
    const int8_t* line_play
    int tc                   # the true count, valid while tc_valid
    int tc_valid
    int n_comps
    int n_keys
    # rules: decoded from the kernel rule dict (bjcore._rules), and the two split limits
    # they imply (a pair of aces may be held to two hands without resplit_aces)
    RuleParams rules
    int split_limit
    int split_limit_aces
    int64_t exhausted


cdef inline int draw(Sim* s) noexcept nogil:
    """Next card of the shoe (an incremental Fisher-Yates shuffle: each draw picks a
    random undealt card).  An empty shoe is refilled, counted as an exhaustion."""
    cdef int j
    cdef int8_t c
    if s.infinite:
        return s.deck[below(&s.rng, <uint32_t>s.n_cards)]
    if s.pos >= s.n_cards:
        s.exhausted += 1
        s.pos = 0
        s.rc = 0.0
        s.seen = 0
    j = s.pos + <int>below(&s.rng, <uint32_t>(s.n_cards - s.pos))
    c = s.deck[j]
    s.deck[j] = s.deck[s.pos]
    s.deck[s.pos] = c
    s.pos += 1
    return c


cdef inline void see(Sim* s, int card) noexcept nogil:
    s.rc += s.tags[card - 1]
    s.seen += 1
    s.tc_valid = 0


cdef inline int seen_draw(Sim* s) noexcept nogil:
    cdef int c = draw(s)
    see(s, c)
    return c


cdef inline int floor_int(double x) noexcept nogil:
    """floor(x) as an int without a libm call (|x| is clamped to a million first)."""
    cdef int i
    if x < -1000000.0:
        return -1000000
    if x > 1000000.0:
        return 1000000
    i = <int>x                    # truncates toward zero
    return i - 1 if x < i else i


cdef inline int true_count(Sim* s) noexcept nogil:
    """The integer true count: running count over the decks not yet seen (exact, or
    estimated to the half or whole deck), rounded by the chosen convention."""
    cdef int unseen = s.n_cards - s.seen
    cdef int estimate
    cdef double tc
    if s.infinite:
        return 0
    if unseen < 1:
        unseen = 1
    if s.tc_method == 0:
        tc = s.rc * 52.0 / unseen
    elif s.tc_method == 1:
        estimate = (unseen + 13) // 26          # half decks, to the nearest
        tc = s.rc * 2.0 / (estimate if estimate > 0 else 1)
    else:
        estimate = (unseen + 26) // 52          # whole decks, to the nearest
        tc = s.rc / (estimate if estimate > 0 else 1)
    if s.rounding == 0:
        return floor_int(tc)
    if s.rounding == 1:
        return -floor_int(-tc) if tc < 0 else floor_int(tc)
    return floor_int(tc + 0.5)


cdef inline int current_true_count(Sim* s) noexcept nogil:
    """true_count, computed once per card seen."""
    if not s.tc_valid:
        s.tc = true_count(s)
        s.tc_valid = 1
    return s.tc


cdef inline int decide(Sim* s, int kind, int key, int comp) noexcept nogil:
    cdef int64_t at = (<int64_t>kind * s.n_keys + key) * s.n_comps + comp
    cdef int entry = s.decision[at]
    cdef int action = entry & 7
    cdef int line = (entry >> 3) - 1
    cdef int k, n, tc, play
    if line >= 0:
        tc = current_true_count(s)
        n = s.line_nseg[line]
        k = 0
        while k < n - 1 and tc >= s.line_thr[line * SIM_MAX_SEGMENTS + k]:
            k += 1
        play = s.line_play[line * SIM_MAX_SEGMENTS + k]
        if s.allowed[kind * s.n_comps + comp] & (1 << play):
            action = play
    return action


cdef inline int play_hand(Sim* s, int comp, int action, int kind, int key,
                          int* bet) noexcept nogil:
    """Play a hand from ``action`` on; returns its final total (0 = bust), sets its bet
    (1, or 2 once doubled).  Later decisions are of kind ``kind``."""
    cdef int c
    bet[0] = 1
    while True:
        if action == ACT_STAND:
            return s.total[comp]
        c = seen_draw(s)
        comp = s.child[comp * 10 + c - 1]
        if action == ACT_DOUBLE:
            bet[0] = 2
            return 0 if comp < 0 else s.total[comp]
        if comp < 0:
            return 0
        action = decide(s, kind, key, comp)


cdef inline double settle(int player, int bet, int dealer, double tie) noexcept nogil:
    if player == 0:
        return -bet
    if dealer > 21 or player > dealer:
        return bet
    if player < dealer:
        return -bet
    return tie * bet


cdef int sigint_received() noexcept with gil:
    return PyOS_InterruptOccurred()


cdef enum:
    SIM_STOP_SIGINT = 2
STOP_SIGINT = SIM_STOP_SIGINT    # stop[0] after a chunk that a Ctrl-C ended (watch_sigint)


# ---- one chunk ------------------------------------------------------------------------------

def run_chunk(dict rules, const int64_t[::1] iparams, const double[::1] dparams,
              const int32_t[::1] shoe, const double[::1] tags, const int32_t[::1] child,
              const int8_t[::1] total,
              const int16_t[::1] decision, const int8_t[::1] allowed,
              const int32_t[::1] line_nseg, const int32_t[::1] line_thr,
              const int8_t[::1] line_play, const int32_t[::1] key_of, const double[::1] bet_by_tc,
              uint64_t seed, uint64_t chunk, int64_t rounds, int8_t[::1] stop,
              bint watch_sigint=False):
    """Play ``rounds`` rounds; returns (sums, counts, tc_counts, tc_sums) numpy arrays.

    rules: the kernel rule dict (``bjsolve.exact.kernel_rules``), decoded and checked as
    every kernel does (bjcore._rules); its split class is not used (the decisions arrive
    as tables).  iparams' hole-card procedure must agree with its natural_takes_all.

    sums: S_* (won, won squared, initial bets); counts: C_*; tc_counts[TC_SPAN, 2]: rounds
    dealt and rounds played at each true count TC_LOW..TC_HIGH; tc_sums[TC_SPAN, 2]: the
    result per initial unit bet per spot (round result / bet / spots) and its square, over
    played rounds.
    ``stop[0] != 0`` (set by another thread) ends the chunk early: counts say how far it got.
    ``watch_sigint`` (only when called from the main thread): a Ctrl-C also ends it early,
    setting ``stop[0] = STOP_SIGINT``; the signal is taken, so the caller must raise it again.
    The stop flag (and SIGINT) are looked at every 65,536 rounds.
    """
    sums = np.zeros(S_COUNT, dtype=np.float64)
    counts = np.zeros(C_COUNT, dtype=np.int64)
    tc_counts = np.zeros((TC_SPAN, 2), dtype=np.int64)
    tc_sums = np.zeros((TC_SPAN, 2), dtype=np.float64)
    cdef double[::1] out_s = sums
    cdef int64_t[::1] out_c = counts
    cdef int64_t[:, ::1] out_tcc = tc_counts
    cdef double[:, ::1] out_tcs = tc_sums
    cdef Sim s
    cdef int64_t shoe_cards = 0
    cdef int n_cards
    cdef int r, k, i
    cdef ShoeParams decoded_shoe
    decode_rules(rules, &s.rules)
    refuse_game_rules(&s.rules, "the simulator")
    if s.rules.natural_takes_all != (iparams[IP_HOLE] == 1):
        raise ValueError(f"rules: natural_takes_all ({bool(s.rules.natural_takes_all)}) must "
                         f"be true exactly for the ENHC hole-card procedure (hole "
                         f"{iparams[IP_HOLE]}: 0 peek, 1 enhc, 2 enhc-obo, 3 exposed)")
    decode_counts(shoe, False, False, &decoded_shoe)   # whole, non-negative counts
    for r in range(10):
        shoe_cards += shoe[r]
    if shoe_cards > SIM_MAX_CARDS:       # positions are ints; each worker holds the deck
        raise ValueError(f"shoe: {shoe_cards:,} cards; the simulator deals from at most "
                         f"{MAX_CARDS:,}")
    n_cards = <int>shoe_cards
    s.deck = <int8_t*>malloc(n_cards if n_cards > 0 else 1)
    if s.deck == NULL:
        raise MemoryError()
    k = 0
    for r in range(10):
        for i in range(shoe[r]):
            s.deck[k] = r + 1
            k += 1
    s.n_cards = n_cards
    s.infinite = <int>iparams[IP_INFINITE]
    s.pos = n_cards  # forces a shuffle before the first round
    s.cut = <int>iparams[IP_CUT]
    if s.infinite:
        s.pos = 0
        s.cut = 2147483647
    s.rc = 0.0
    s.seen = 0
    s.tags = &tags[0]
    s.tc_method = <int>iparams[IP_TC_METHOD]
    s.rounding = <int>iparams[IP_ROUNDING]
    s.child = &child[0]
    s.total = &total[0]
    s.decision = &decision[0]
    s.allowed = &allowed[0]
    s.line_nseg = &line_nseg[0]
    s.line_thr = &line_thr[0]
    s.line_play = &line_play[0]
    s.tc_valid = 0
    s.n_comps = <int>iparams[IP_N_COMPS]
    s.n_keys = <int>iparams[IP_N_KEYS]
    s.split_limit = s.rules.max_split_hands
    s.split_limit_aces = s.split_limit if (s.rules.resplit_aces or s.split_limit < 2) else 2
    s.exhausted = 0
    seed_rng(&s.rng, seed, chunk)
    try:
        with nogil:
            _run(&s, &iparams[0], &dparams[0], &key_of[0], &bet_by_tc[0], rounds, &stop[0],
                 watch_sigint, &out_s[0], &out_c[0], &out_tcc[0, 0], &out_tcs[0, 0])
    finally:
        free(s.deck)
    return sums, counts, tc_counts, tc_sums


cdef void _run(Sim* s, const int64_t* ip, const double* dp, const int32_t* key_of,
               const double* bet_by_tc, int64_t rounds, volatile int8_t* stop, bint watch_sigint,
               double* out_s, int64_t* out_c, int64_t* out_tcc, double* out_tcs) noexcept nogil:
    cdef int spots = <int>ip[IP_SPOTS]
    cdef int n_spots = spots + <int>ip[IP_OTHERS]
    cdef int surrender = s.rules.surrender
    cdef int hole_rule = <int>ip[IP_HOLE]
    cdef bint exposed = hole_rule == 3
    cdef bint hole_first = hole_rule == 0 or hole_rule == 3   # peek or exposed
    cdef bint obo = hole_rule == 2
    cdef bint wong_in_set = ip[IP_WONG_IN_SET] != 0
    cdef bint wong_out_set = ip[IP_WONG_OUT_SET] != 0
    cdef int wong_in = <int>ip[IP_WONG_IN]
    cdef int wong_out = <int>ip[IP_WONG_OUT]
    cdef bint insurance_set = ip[IP_INSURANCE_SET] != 0 and not exposed
    cdef int insurance_at = <int>ip[IP_INSURANCE]
    cdef double payout = s.rules.blackjack_payout
    cdef double bankroll = dp[DP_BANKROLL]
    cdef double tie = s.rules.tie_value
    # a player natural against a dealer natural: a push, or with dealer_wins_ties what the
    # rules' natural_tie says (lose -1, push 0, win the payout), as the solver values it
    cdef double natural_tie = s.rules.natural_tie_value
    cdef bint h17 = s.rules.hit_soft_17 != 0

    cdef int first[SIM_MAX_SPOTS]
    cdef int second[SIM_MAX_SPOTS]
    cdef int state[SIM_MAX_SPOTS]
    cdef double net[SIM_MAX_SPOTS]
    cdef int insured[SIM_MAX_SPOTS]
    cdef int n_hands[SIM_MAX_SPOTS]
    cdef int hand_total[SIM_MAX_SPOTS * SIM_MAX_HANDS]
    cdef int hand_bet[SIM_MAX_SPOTS * SIM_MAX_HANDS]
    cdef int split_comp[SIM_MAX_HANDS]

    cdef int64_t done = 0
    cdef bint playing = not wong_in_set
    cdef int tc, bucket, sp, up, hole, key, comp, action, c, pair, most, nh, h, b, d, ace
    cdef int single
    cdef bint dealer_natural, any_live, natural
    cdef double bet, result, unit, won = 0.0, won_sq = 0.0, total_bet = 0.0, cumulative = 0.0
    cdef int64_t played = 0, hands = 0, shuffles = 0

    while done < rounds:
        if (done & 0xFFFF) == 0:
            if stop[0] != 0:
                break
            if watch_sigint and sigint_received():
                stop[0] = SIM_STOP_SIGINT
                break
        # ---- shuffle at the cut card; burn one card (never seen) ----
        if s.pos >= s.cut:
            s.pos = 0
            s.rc = 0.0
            s.seen = 0
            shuffles += 1
            draw(s)
            playing = not wong_in_set
        # ---- the bet, from the count before the round ----
        tc = true_count(s)
        if playing and wong_out_set and tc < wong_out:
            playing = False
        elif not playing and wong_in_set and tc >= wong_in:
            playing = True
        bucket = tc
        if bucket < TC_LOW:
            bucket = TC_LOW
        elif bucket > TC_HIGH:
            bucket = TC_HIGH
        bucket -= TC_LOW
        bet = bet_by_tc[bucket] if playing else 0.0

        # ---- the deal: one card each, upcard, second card each, hole card ----
        for sp in range(n_spots):
            first[sp] = seen_draw(s)
        up = seen_draw(s)
        for sp in range(n_spots):
            second[sp] = seen_draw(s)
            state[sp] = SPOT_ACTIVE
            net[sp] = 0.0
            insured[sp] = 0
            n_hands[sp] = 0
        hole = 0
        if hole_first:
            hole = draw(s)
            if exposed:
                see(s, hole)
        key = key_of[(up - 1) * 10 + (hole - 1 if exposed else 0)]
        dealer_natural = hole_first and up + hole == 11 and (up == 1 or hole == 1)

        # ---- insurance (even money for a natural) by the count ----
        if insurance_set and up == 1:
            if true_count(s) >= insurance_at:
                for sp in range(spots):
                    insured[sp] = 1

        # ---- early surrender, before the dealer checks for a natural ----
        if surrender == 2 and not exposed:
            for sp in range(n_spots):
                if first[sp] + second[sp] == 11 and (first[sp] == 1 or second[sp] == 1):
                    continue
                comp = s.child[s.child[first[sp] - 1] * 10 + second[sp] - 1]
                if decide(s, 0, key, comp) == ACT_SURRENDER:
                    net[sp] = -0.5
                    state[sp] = SPOT_DONE

        if dealer_natural:
            # peek or exposed: the round ends; a natural ties, everything else loses 1
            for sp in range(n_spots):
                if state[sp] == SPOT_ACTIVE:
                    natural = first[sp] + second[sp] == 11 and (first[sp] == 1 or second[sp] == 1)
                    net[sp] = natural_tie if natural else -1.0
                    state[sp] = SPOT_DONE
        else:
            # ---- the players' hands, spot by spot ----
            for sp in range(n_spots):
                if state[sp] != SPOT_ACTIVE:
                    continue
                if first[sp] + second[sp] == 11 and (first[sp] == 1 or second[sp] == 1):
                    if not hole_first and (up == 1 or up == 10):
                        state[sp] = SPOT_NATURAL_WAITS
                    else:
                        net[sp] = payout
                        state[sp] = SPOT_DONE
                    continue
                comp = s.child[s.child[first[sp] - 1] * 10 + second[sp] - 1]
                action = decide(s, 0, key, comp)
                if action == ACT_SURRENDER:
                    net[sp] = -0.5
                    state[sp] = SPOT_LATE_SURRENDER
                    continue
                state[sp] = SPOT_PLAYED
                b = sp * SIM_MAX_HANDS
                if action == ACT_SPLIT:
                    pair = first[sp]
                    most = s.split_limit_aces if pair == 1 else s.split_limit
                    single = s.child[pair - 1]
                    nh = 2
                    h = 0
                    while h < nh:
                        c = seen_draw(s)
                        while c == pair and nh < most:
                            nh += 1          # a pair card starts a new hand (forced resplit)
                            c = seen_draw(s)
                        comp = s.child[single * 10 + c - 1]
                        if pair == 1 and not s.rules.hit_split_aces:
                            hand_total[b + h] = s.total[comp]
                            hand_bet[b + h] = 1
                        else:
                            action = decide(s, 2, key, comp)
                            hand_total[b + h] = play_hand(s, comp, action, 2, key,
                                                          &hand_bet[b + h])
                        h += 1
                    n_hands[sp] = nh
                else:
                    hand_total[b] = play_hand(s, comp, action, 1, key, &hand_bet[b])
                    n_hands[sp] = 1

            # ---- a no-hole-card dealer takes the second card now ----
            if not hole_first:
                hole = draw(s)
                if up + hole == 11 and (up == 1 or hole == 1):
                    dealer_natural = True
                    for sp in range(n_spots):
                        if state[sp] == SPOT_NATURAL_WAITS:
                            net[sp] = natural_tie
                        elif state[sp] == SPOT_LATE_SURRENDER:
                            net[sp] = -1.0
                        elif state[sp] == SPOT_PLAYED:
                            if obo:
                                net[sp] = -1.0
                            else:
                                net[sp] = 0.0
                                for h in range(n_hands[sp]):
                                    net[sp] -= hand_bet[sp * SIM_MAX_HANDS + h]
                        state[sp] = SPOT_DONE
                else:
                    for sp in range(n_spots):
                        if state[sp] == SPOT_NATURAL_WAITS:
                            net[sp] = payout
                            state[sp] = SPOT_DONE
            if not dealer_natural:
                # ---- the dealer plays if some hand still stands ----
                any_live = False
                for sp in range(n_spots):
                    if state[sp] == SPOT_PLAYED:
                        for h in range(n_hands[sp]):
                            if hand_total[sp * SIM_MAX_HANDS + h] != 0:
                                any_live = True
                if any_live:
                    d = up + hole
                    ace = up == 1 or hole == 1
                    while True:
                        if ace and d <= 11:
                            if d + 10 > 17 or (d + 10 == 17 and not h17):
                                d += 10
                                break
                        elif d >= 17:
                            break
                        c = seen_draw(s)
                        d += c
                        if c == 1:
                            ace = True
                    if d > 21:
                        d = 22
                else:
                    d = 22
                for sp in range(n_spots):
                    if state[sp] == SPOT_PLAYED:
                        for h in range(n_hands[sp]):
                            net[sp] += settle(hand_total[sp * SIM_MAX_HANDS + h],
                                              hand_bet[sp * SIM_MAX_HANDS + h], d, tie)
        if not exposed:
            see(s, hole)             # the hole card is turned over at the end of the round

        # ---- the player's result ----
        done += 1
        out_tcc[bucket * 2] += 1
        if bet > 0.0:
            result = 0.0
            for sp in range(spots):
                result += net[sp]
                if insured[sp]:
                    result += 1.0 if dealer_natural else -0.5
                hands += n_hands[sp] if n_hands[sp] > 0 else 1
            out_tcc[bucket * 2 + 1] += 1
            unit = result / spots            # per initial unit bet per spot
            out_tcs[bucket * 2] += unit
            out_tcs[bucket * 2 + 1] += unit * unit
            result *= bet
            won += result
            won_sq += result * result
            total_bet += bet * spots
            played += 1
            if bankroll > 0.0:
                cumulative += result
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
    out_c[C_EXHAUSTED] = s.exhausted
