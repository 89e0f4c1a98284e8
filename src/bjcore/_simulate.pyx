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
  two cards, 1 later decision of an unsplit hand, 2 a split hand's decision; the games'
  rules add kinds (``game_kinds``): 3 a split ace's two cards when it may double but not
  hit (stand or double), and 4 + 2 * level + split the choice after a hand's double
  (level = doubles made - 1; split 1 for a split hand): 0 stand, 2 redouble, 4 rescue;
* index plays: ``decision[...] >> 3`` is 0 or 1 + an index line whose play at the current
  true count replaces the action when ``allowed[kind * n_comps + id]`` permits it (one
  16-bit table keeps the hot lookups in cache);
* betting: ``bet_by_tc[tc - TC_LOW]`` the bet at each (rounded, clamped) true count;
* a side bet (optional): ``side_by_tc[tc - TC_LOW]`` its units at each true count (0: not
  bet), ``side_outcome[cards]`` the outcome of the first spot's cards (kinds 0..51 of the
  first card, the up card and the second card as one base-52 number; for a bet that reads
  the hole card, times 2 plus 1 when the hole card gives the dealer a natural) and
  ``side_pays[outcome]`` its win per unit.

With a side bet every card also has a kind (rank and suit: kind // 4 the rank A..K,
kind % 4 the suit), held beside the deck of values and moved with its card, so that the
bet can read suits.  The shoe's cards of each value take that value's kinds in turn (the
i-th ace: kind i % 4; the i-th ten-valued card: kind 36 + i % 16, so T, J, Q, K of every
suit): the values, and the generator's draws, are those of a run without the side bet, so
the main game's results are the same for the same seed (a shoe of whole decks holds
every kind equally often).

The loop touches no Python object and runs without the GIL.
"""
from libc.stdint cimport uint64_t, uint32_t, int8_t, int16_t, int32_t, int64_t
from libc.stdlib cimport malloc, free

import numpy as np

from bjcore._defs cimport (RuleParams, ACT_STAND, ACT_HIT, ACT_DOUBLE, ACT_SPLIT, ACT_SURRENDER,
                           KIND_START, KIND_LATER, KIND_SPLIT)
from bjcore._rules cimport ShoeParams, decode_rules, decode_counts
# the counted shoe's arithmetic, shared with Blackjack Switch's simulator (bjcore._switch_sim)
from bjcore._counted_shoe cimport (pick_card, true_count_of, tc_bin, still_playing,
                                   sigint_received)

# kinds of decision in the decision table: the classic three (_defs), then the games'
cdef enum:
    KIND_SPLIT_ACE = 3       # a split ace that may double but not hit: stand or double
    KIND_AFTER_DOUBLE = 4    # + 2 * (doubles made - 1) + (1 for a split hand)

# comp_flags: what the games need to know of a hand composition
cdef enum:
    BONUS_MASK = 7           # a 21 that a bonus may pay: BONUS_21_5 .. BONUS_777, 0 none
    BONUS_21_5 = 1           # 21 of 5 cards (6: 2, 7 or more: 3)
    BONUS_678 = 4            # three-card 21 of 6, 7, 8
    BONUS_777 = 5            # three-card 21 of 7, 7, 7
    FLAG_FREE_DOUBLE = 8     # two cards, no ace, total in free_double_totals
    FLAG_CHARLIE = 16        # ``charlie`` cards or more: the hand stops and wins at once

# spot states during a round
cdef enum:
    SPOT_ACTIVE = 0
    SPOT_DONE = 1            # settled: net is final
    SPOT_NATURAL_WAITS = 2   # a natural waiting for a no-hole-card dealer's second card
    SPOT_LATE_SURRENDER = 3  # surrendered late; a no-hole-card dealer natural voids it
    SPOT_PLAYED = 4          # hands played, waiting for the dealer


# ---- the generator: xoshiro256** seeded through splitmix64 --------------------------------

from bjcore._rng cimport seed_rng, below

# this simulator's salt for the generator's streams (bjcore._rng)
cdef uint64_t RNG_SALT = <uint64_t>0x6A09E667F3BCC909


MAX_CARDS = SIM_MAX_CARDS        # the largest shoe run_chunk deals from


def game_kinds(int redoubles, bint double_rescue, bint double_split_aces,
               bint hit_split_aces):
    """The kinds of decision the decision table holds for these rules: 3 (the classic
    kinds), 4 with a split ace's stand-or-double (KIND_SPLIT_ACE), 4 + 2 * (redoubles + 1)
    with the after-double decisions (one unsplit and one split kind per double made)."""
    if redoubles or double_rescue:
        return KIND_AFTER_DOUBLE + 2 * (redoubles + 1)
    if double_split_aces and not hit_split_aces:
        return KIND_AFTER_DOUBLE
    return 3


def random_integers(uint64_t seed, uint64_t chunk, int count, uint32_t below_n):
    """``count`` draws of the chunk's generator, uniform in [0, below_n) (for tests)."""
    cdef Rng r
    seed_rng(&r, seed, chunk, RNG_SALT)
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
    int8_t* deck             # card values 1..10
    int8_t* kinds            # with a side bet: each card's kind 0..51, beside deck (else NULL)
    int last_kind            # with a side bet: the kind of the card draw() returned last
    int n_cards
    int infinite             # draws with replacement from deck[0:n_cards]; no count
    int pos                  # cards dealt since the shuffle (burn card included)
    int cut
    double rc                # running count of the cards seen
    int seen                 # cards seen since the shuffle
    const double* tags
    int deck_cards           # cards in a deck for the decks remaining (52; 48 Spanish)
    double tag_scale         # rc counts in units of 1 / tag_scale (IP_TAG_SCALE)
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
    # the games (rules.game): per-composition flags, which decisions the table holds,
    # and the suits of the cards in bonus hands (drawn from their own generator, so that
    # the ranks dealt are the same with or without them)
    int game
    int8_t* comp_flags
    int after_double         # the table holds after-double decisions (redoubles, rescue)
    int split_ace_double     # the table holds KIND_SPLIT_ACE decisions
    int suits_678            # the 6-7-8 payout depends on the suits
    int suits_777            # the 7-7-7 payout (or the super bonus) depends on the suits
    int suits_natural        # a natural's payout depends on its suits (diamond naturals)
    Rng suit_rng
    int suit_left[40]        # [rank - 1][suit]: suits not yet shown of the shoe's cards
    int suit_full[10]        # each rank's cards per suit in the full shoe


# A hand of the player's (unsplit, or one of a split's), as it stands after its play.
cdef struct Hand:
    int total                # best total; 0 = bust
    double own               # the player's stake on it (doubles included)
    double free              # the house's free stake on it (free splits, free doubles)
    double base_own          # its own stake before any double: what a rescue loses
    int rescued              # surrendered after its double (double_rescue)
    int bonus                # BONUS_* of a 21 a bonus may pay (not doubled; split: if allowed)
    int charlie              # a charlie: reached ``charlie`` cards undoubled, wins at once
    int surrendered          # surrendered after hitting or on a split hand (surrender_any_time)
    int split                # one of a split's hands


cdef void reset_suits(Sim* s) noexcept nogil:
    """A fresh shuffle: no card's suit is known."""
    cdef int r, k
    for r in range(10):
        for k in range(4):
            s.suit_left[r * 4 + k] = s.suit_full[r]


cdef int draw_suit(Sim* s, int rank) noexcept nogil:
    """The suit (0 = spades .. 3) of a dealt card of ``rank`` whose suit is not yet known.
    The shoe's suits are exchangeable, each rank's cards spread evenly over the four suits,
    and the player's play never looks at a suit: so the unknown suits of a rank's cards
    since the shuffle are a random arrangement of the suits not yet shown, and one card's
    suit is drawn from those counts (an infinite shoe: each suit 1/4)."""
    cdef int k, left = 0
    cdef int* row = &s.suit_left[(rank - 1) * 4]
    cdef uint32_t u
    if s.infinite:
        return <int>below(&s.suit_rng, 4)
    for k in range(4):
        left += row[k]
    if left <= 0:                # only after a refilled shoe (exhausted): any suit
        return <int>below(&s.suit_rng, 4)
    u = below(&s.suit_rng, <uint32_t>left)
    k = 0
    while <int>u >= row[k]:
        u -= row[k]
        k += 1
    row[k] -= 1
    return k


cdef inline int draw(Sim* s) noexcept nogil:
    """Next card of the shoe (an incremental Fisher-Yates shuffle: each draw picks a
    random undealt card).  An empty shoe is refilled, counted as an exhaustion."""
    cdef int j
    cdef int8_t c, kind
    if s.infinite:
        j = <int>below(&s.rng, <uint32_t>s.n_cards)
        if s.kinds != NULL:
            s.last_kind = s.kinds[j]
        return s.deck[j]
    if s.pos >= s.n_cards:
        s.exhausted += 1
        s.pos = 0
        s.rc = 0.0
        s.seen = 0
        if s.suits_678 or s.suits_777 or s.suits_natural:
            reset_suits(s)
    j = pick_card(&s.rng, s.deck, s.n_cards, s.pos)
    c = s.deck[s.pos]
    if s.kinds != NULL:          # the kinds move with their cards
        kind = s.kinds[j]
        s.kinds[j] = s.kinds[s.pos]
        s.kinds[s.pos] = kind
        s.last_kind = kind
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


cdef inline int true_count(Sim* s) noexcept nogil:
    """The integer true count of the cards seen (bjcore._counted_shoe.true_count_of); an
    infinite shoe has none (0)."""
    if s.infinite:
        return 0
    return true_count_of(s.rc, s.n_cards - s.seen, s.tc_method, s.deck_cards, s.tag_scale,
                         s.rounding)


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
                          double* bet) noexcept nogil:
    """Play a hand of the classic game from ``action`` on; returns its final total
    (0 = bust), sets its bet (1, or 2 once doubled).  Later decisions are of kind
    ``kind``."""
    cdef int c
    bet[0] = 1.0
    while True:
        if action == ACT_STAND:
            return s.total[comp]
        c = seen_draw(s)
        comp = s.child[comp * 10 + c - 1]
        if action == ACT_DOUBLE:
            bet[0] = 2.0
            return 0 if comp < 0 else s.total[comp]
        if comp < 0:
            return 0
        action = decide(s, kind, key, comp)


cdef inline void play_game_hand(Sim* s, Hand* hand, int comp, int action, int kind,
                                int key) noexcept nogil:
    """Play a hand of the games from ``action`` on (docs/games.md).  On entry ``hand``
    holds its stakes (own, free, base_own) and whether it is a split hand; on return its
    total (0 = bust), its stakes after doubling, whether it was rescued and its bonus
    class.  A double adds the hand's whole stake, free (a two-card hard total of
    free_double_totals: the house's) or paid; then, while the hand neither busted nor made
    21, the after-double decision: redouble (paid doubles only, up to ``redoubles``
    times), rescue, or stand."""
    cdef int level = 0
    cdef bint doubled = False
    cdef double stake
    hand.rescued = 0
    hand.bonus = 0
    hand.charlie = 0
    hand.surrendered = 0
    while action != ACT_STAND:
        if action == ACT_SURRENDER:
            # surrender_any_time: half the own stake (a table's surrender the rules do not
            # offer here stands, as the exact walk reads it)
            hand.surrendered = (s.rules.surrender_any_time and kind != KIND_SPLIT_ACE)
            break
        if action == ACT_DOUBLE:
            stake = hand.own + hand.free
            if s.comp_flags[comp] & FLAG_FREE_DOUBLE:
                hand.free += stake
            else:
                hand.own += stake
            doubled = True
            comp = s.child[comp * 10 + seen_draw(s) - 1]
            while s.after_double and comp >= 0 and s.total[comp] != 21:
                action = decide(s, KIND_AFTER_DOUBLE + 2 * level + hand.split, key, comp)
                if action == ACT_DOUBLE and level < s.rules.redoubles:
                    hand.own += hand.own          # (redoubles: no free stake, _rules)
                    comp = s.child[comp * 10 + seen_draw(s) - 1]
                    level += 1
                else:
                    # a rescue the rules do not offer here (after a redouble without
                    # rescue_after_redouble) stands, as the exact walk reads it
                    hand.rescued = (action == ACT_SURRENDER and s.rules.double_rescue
                                    and (level == 0 or s.rules.rescue_after_redouble))
                    break
            break
        comp = s.child[comp * 10 + seen_draw(s) - 1]
        if comp < 0:
            break
        if s.comp_flags[comp] & FLAG_CHARLIE:
            hand.charlie = 1         # it stops: no decision
            break
        action = decide(s, kind, key, comp)
    if comp < 0:
        hand.total = 0
        return
    hand.total = s.total[comp]
    if hand.total == 21 and not doubled and (not hand.split or s.rules.bonus_after_split):
        hand.bonus = s.comp_flags[comp] & BONUS_MASK


cdef inline double settle(int player, double bet, int dealer, double tie) noexcept nogil:
    if player == 0:
        return -bet
    if dealer > 21 or player > dealer:
        return bet
    if player < dealer:
        return -bet
    return tie * bet


cdef int suit_class(Sim* s, int a, int b, int c) noexcept nogil:
    """The suits of a three-card bonus hand of ranks a, b, c: 0 mixed, 1 one suit other
    than spades, 2 all spades."""
    cdef int x = draw_suit(s, a)
    cdef int y = draw_suit(s, b)
    cdef int z = draw_suit(s, c)
    if x != y or y != z:
        return 0
    return 2 if x == 0 else 1


cdef double bonus_payout(Sim* s, const Hand* hand, int up) noexcept nogil:
    """What a winning hand of bonus class ``hand.bonus`` (> 0) is paid per unit of its
    stake."""
    cdef int k
    if hand.bonus < BONUS_678:
        return s.rules.bonus_21[hand.bonus - 1]
    if hand.bonus == BONUS_678:
        return s.rules.bonus_678[suit_class(s, 6, 7, 8)] if s.suits_678 else s.rules.bonus_678[0]
    if not s.suits_777:
        return s.rules.bonus_777[0]
    k = suit_class(s, 7, 7, 7)
    # the super bonus: a suited 7-7-7 of an unsplit, undoubled hand against a 7 up
    if k > 0 and s.rules.super_bonus > 0.0 and up == 7 and not hand.split:
        return s.rules.super_bonus
    return s.rules.bonus_777[k]


cdef inline bint paid_at_once(Sim* s, const Hand* hand) noexcept nogil:
    """A player 21 paid before a no-hole-card dealer turns his second card
    (player_21_beats_natural): no dealer natural takes it."""
    return (s.rules.player_21_beats_natural and hand.total == 21 and not hand.rescued
            and not hand.surrendered)


cdef double natural_loss_charge(Sim* s, const Hand* hands, int n) noexcept nogil:
    """What a no-hole-card dealer natural takes from one spot's hands under OBBO or BB+1
    (docs/games.md): every busted hand's own stake and every rescued hand's original own
    stake (settled when it was rescued); of the hands still standing, OBBO takes each one's
    own stake before its doubles, BB+1 one unit in all (if their own stakes reach it)."""
    cdef double settled = 0.0, standing_base = 0.0, standing_own = 0.0
    cdef int h
    for h in range(n):
        if paid_at_once(s, &hands[h]):
            continue
        if hands[h].total == 0:
            settled += hands[h].own
        elif hands[h].rescued:
            settled += hands[h].base_own
        else:
            standing_base += hands[h].base_own
            standing_own += hands[h].own
    if s.rules.natural_loss == 1:
        return settled + standing_base
    return settled + (standing_own if standing_own < 1.0 else 1.0)


cdef inline double settle_game(Sim* s, const Hand* hand, int dealer, int up) noexcept nogil:
    """A hand of the games against the dealer's final total (22: exactly 22, 23: any other
    bust): a loss costs the own stake only, a win pays own and free stake (times a bonus's
    payout), a push is 0, a rescue loses the stake before the double."""
    if hand.total == 0:
        return -hand.own
    if hand.rescued:
        return -hand.base_own
    if hand.surrendered:
        return -0.5 * hand.own
    if hand.charlie:                 # it wins whatever the dealer made
        if hand.bonus == 0:
            return hand.own + hand.free
        return (hand.own + hand.free) * bonus_payout(s, hand, up)
    if not (s.rules.player_21_wins and hand.total == 21):
        if dealer == 22 and s.rules.dealer_22_push:
            return 0.0
        if dealer <= 21:
            if hand.total < dealer:
                return -hand.own
            if hand.total == dealer:
                return s.rules.tie_value * hand.own
    if hand.bonus == 0:
        return hand.own + hand.free
    return (hand.own + hand.free) * bonus_payout(s, hand, up)


cdef double natural_net(Sim* s, double value, double payout) noexcept nogil:
    """What a player natural nets, ``value`` being what a natural not in diamonds nets
    (``payout``, or the natural-tie value against a dealer natural): with
    diamond_blackjack_payout, a natural paid as a natural (value == payout) whose two cards
    are both diamonds (suit 2) nets that instead.  The two suits are drawn from the shoe's
    unseen suit counts, as the bonuses' suits are (draw_suit), not read from the cards'
    kinds: so the main game's results do not depend on whether a side bet is played."""
    cdef int ace_suit, ten_suit
    if not s.suits_natural or value != payout:
        return value
    ace_suit = draw_suit(s, 1)
    ten_suit = draw_suit(s, 10)
    if ace_suit == 2 and ten_suit == 2:
        return s.rules.diamond_blackjack_payout
    return value


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
              const int8_t[::1] side_outcome, const double[::1] side_pays,
              const double[::1] side_by_tc, uint64_t seed, uint64_t chunk, int64_t rounds, int8_t[::1] stop,
              bint watch_sigint=False):
    """Play ``rounds`` rounds; returns (sums, counts, tc_counts, tc_sums) numpy arrays.

    rules: the kernel rule dict (``bjsolve.exact.kernel_rules``), decoded and checked as
    every kernel does (bjcore._rules); its split class is not used (the decisions arrive
    as tables).  iparams' hole-card procedure must agree with its natural_takes_all.

    side_outcome, side_pays, side_by_tc: the side bet (iparams[IP_SIDE_CARDS] its cards, 0:
    none; then the arrays are not read); side_by_tc has TC_SPAN entries, side_outcome
    52 ** cards, side_pays one per outcome index in it.  The side bet is made on the first
    spot, in rounds the main game is bet, at side_by_tc units.

    sums: S_* (won, won squared, initial bets of the main game; the side bet's won, won
    squared and bets; the sum of main x side results per round); counts: C_*; tc_counts[TC_SPAN, 2]: rounds
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
    if iparams.shape[0] != IP_COUNT:
        raise ValueError(f"iparams: {IP_COUNT} parameters expected, got {iparams.shape[0]}")
    if (iparams[IP_DECK_CARDS] != 52 and iparams[IP_DECK_CARDS] != 48) or iparams[IP_TAG_SCALE] < 1:
        raise ValueError(f"iparams: deck cards must be 52 or 48 and the tag scale >= 1, got "
                         f"{iparams[IP_DECK_CARDS]} and {iparams[IP_TAG_SCALE]}")
    cdef int side_cards = <int>iparams[IP_SIDE_CARDS]
    if side_cards != 0:
        if side_cards != 3 and side_cards != 4:
            raise ValueError(f"iparams: side bet cards must be 0, 3 or 4, got {side_cards}")
        if (side_outcome.shape[0] != 52 ** 3 * (2 if side_cards == 4 else 1)
                or side_by_tc.shape[0] != TC_SPAN):
            raise ValueError("side_outcome / side_by_tc: wrong length for the side bet")
        for i in range(side_outcome.shape[0]):
            if side_outcome[i] < 0 or side_outcome[i] >= side_pays.shape[0]:
                raise ValueError("side_outcome: an outcome without a pay")
    decode_rules(rules, &s.rules)
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
    s.kinds = NULL
    if side_cards:
        s.kinds = <int8_t*>malloc(n_cards if n_cards > 0 else 1)
        if s.kinds == NULL:
            free(s.deck)
            raise MemoryError()
    # each value's cards take that value's kinds in turn: ace..nine the four suits of
    # their rank, the ten-valued cards the sixteen kinds T, J, Q, K of each suit
    k = 0
    for r in range(10):
        for i in range(shoe[r]):
            s.deck[k] = r + 1
            if s.kinds != NULL:
                s.kinds[k] = (4 * r + i % 4) if r < 9 else (36 + i % 16)
            k += 1
    s.last_kind = 0
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
    s.deck_cards = <int>iparams[IP_DECK_CARDS]
    s.tag_scale = <double>iparams[IP_TAG_SCALE]
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
    s.comp_flags = NULL
    seed_rng(&s.rng, seed, chunk, RNG_SALT)
    try:
        _setup_game(&s, shoe, decision.shape[0], allowed.shape[0], total.shape[0],
                    child.shape[0])
        if s.game:
            seed_rng(&s.suit_rng, seed ^ <uint64_t>0xBB67AE8584CAA73B, chunk, RNG_SALT)
        with nogil:
            _run(&s, &iparams[0], &dparams[0], &key_of[0], &bet_by_tc[0], &side_outcome[0],
                 &side_pays[0], &side_by_tc[0], rounds, &stop[0],
                 watch_sigint, &out_s[0], &out_c[0], &out_tcc[0, 0], &out_tcs[0, 0])
    finally:
        free(s.deck)
        free(s.kinds)
        free(s.comp_flags)
    return sums, counts, tc_counts, tc_sums


cdef int _setup_game(Sim* s, const int32_t[::1] shoe, Py_ssize_t n_decision,
                    Py_ssize_t n_allowed, Py_ssize_t n_total, Py_ssize_t n_child) except -1:
    """Check the tables' sizes against the rules (the games' kinds of decision) and, for
    the games, build the per-composition flags and the suits."""
    cdef int n_kinds = game_kinds(s.rules.redoubles, s.rules.double_rescue,
                                  s.rules.double_split_aces, s.rules.hit_split_aces)
    cdef int n = s.n_comps
    cdef int r, a, b, c, i, head, tail
    cdef int* queue
    cdef int8_t* cards
    if n < 1 or n_total != n or n_child != <Py_ssize_t>n * 10:
        raise ValueError(f"child and total must describe the {n} compositions (n_comps)")
    if (n_decision != <Py_ssize_t>n_kinds * s.n_keys * n
            or n_allowed != <Py_ssize_t>n_kinds * n):
        raise ValueError(f"decision: these rules take {n_kinds} kinds of decision "
                         f"(bjcore._simulate.game_kinds), a table of {n_kinds} x {s.n_keys} x "
                         f"{n} entries and allowed masks of {n_kinds} x {n}; got "
                         f"{n_decision} and {n_allowed} (build the plan with these rules)")
    s.game = s.rules.game
    s.after_double = s.rules.redoubles != 0 or s.rules.double_rescue != 0
    s.split_ace_double = s.rules.double_split_aces != 0 and s.rules.hit_split_aces == 0
    s.suits_678 = (s.rules.bonus_678[1] != s.rules.bonus_678[0]
                   or s.rules.bonus_678[2] != s.rules.bonus_678[0])
    s.suits_777 = (s.rules.bonus_777[1] != s.rules.bonus_777[0]
                   or s.rules.bonus_777[2] != s.rules.bonus_777[0]
                   or s.rules.super_bonus > 0.0)
    s.suits_natural = s.rules.diamond_blackjack_payout != 0.0
    # (redoubles with free stakes: refused by the rule model, _rules.decode_game_rules)
    for r in range(10):
        s.suit_full[r] = shoe[r] // 4
    if not s.infinite:
        for r, used in ((1, s.suits_natural), (6, s.suits_678), (7, s.suits_678 or s.suits_777),
                        (8, s.suits_678), (10, s.suits_natural)):
            if used and shoe[r - 1] % 4:
                raise ValueError(
                    f"shoe: the suited bonuses spread each rank's cards evenly over the four "
                    f"suits; {shoe[r - 1]} cards of rank {r} cannot be (a multiple of 4 is "
                    f"needed)")
    reset_suits(s)
    if not s.game:
        return 0
    s.comp_flags = <int8_t*>malloc(n)
    cards = <int8_t*>malloc(n)
    queue = <int*>malloc(n * sizeof(int))
    if s.comp_flags == NULL or cards == NULL or queue == NULL:
        free(cards)
        free(queue)
        raise MemoryError()
    try:
        for i in range(n):
            s.comp_flags[i] = 0
            cards[i] = -1
        # each composition's number of cards, breadth first from the empty hand (id 0)
        cards[0] = 0
        queue[0] = 0
        head, tail = 0, 1
        while head < tail:
            i = queue[head]
            head += 1
            for r in range(10):
                c = s.child[i * 10 + r]
                if 0 <= c < n and cards[c] < 0:
                    cards[c] = cards[i] + 1
                    queue[tail] = c
                    tail += 1
        for i in range(n):
            if s.total[i] == 21 and cards[i] >= 5:
                s.comp_flags[i] = BONUS_21_5 + (cards[i] - 5 if cards[i] < 7 else 2)
        for a in range(1, 11):
            for b in range(a, 11):
                c = s.child[s.child[a - 1] * 10 + b - 1]
                if a != 1 and (s.rules.free_double_totals >> (a + b)) & 1:
                    s.comp_flags[c] |= FLAG_FREE_DOUBLE
        if s.rules.charlie:
            for i in range(n):
                if cards[i] >= s.rules.charlie:
                    s.comp_flags[i] |= FLAG_CHARLIE
        if s.rules.bonus_21_at_once:
            # a 21 of five or more cards stops and wins at once, as a charlie does
            for i in range(n):
                if cards[i] >= 5 and s.total[i] == 21:
                    s.comp_flags[i] |= FLAG_CHARLIE
        c = s.child[s.child[s.child[5] * 10 + 6] * 10 + 7]
        s.comp_flags[c] = BONUS_678
        c = s.child[s.child[s.child[6] * 10 + 6] * 10 + 6]
        s.comp_flags[c] = BONUS_777
    finally:
        free(cards)
        free(queue)
    return 0


cdef void _run(Sim* s, const int64_t* ip, const double* dp, const int32_t* key_of,
               const double* bet_by_tc, const int8_t* side_outcome, const double* side_pays,
               const double* side_by_tc, int64_t rounds, volatile int8_t* stop, bint watch_sigint,
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
    cdef int side_cards = <int>ip[IP_SIDE_CARDS]
    cdef int first_kind = 0, up_kind = 0, second_kind = 0
    cdef int64_t side_index
    cdef double side, side_units, side_won = 0.0, side_sq = 0.0, side_bet = 0.0, cross = 0.0
    cdef int64_t side_bets = 0

    cdef int first[SIM_MAX_SPOTS]
    cdef int second[SIM_MAX_SPOTS]
    cdef int state[SIM_MAX_SPOTS]
    cdef double net[SIM_MAX_SPOTS]
    cdef int insured[SIM_MAX_SPOTS]
    cdef int n_hands[SIM_MAX_SPOTS]
    cdef Hand spot_hands[SIM_MAX_SPOTS * SIM_MAX_HANDS]   # spot sp: [sp * SIM_MAX_HANDS ..]
    cdef Hand* hd
    cdef bint game = s.game
    cdef bint free_split

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
            if s.suits_678 or s.suits_777 or s.suits_natural:
                reset_suits(s)
            draw(s)
            playing = not wong_in_set
        # ---- the bet, from the count before the round ----
        tc = true_count(s)
        playing = still_playing(playing, tc, wong_in_set, wong_in, wong_out_set, wong_out)
        bucket = tc_bin(tc, TC_LOW, TC_HIGH)
        bet = bet_by_tc[bucket] if playing else 0.0

        # ---- the deal: one card each, upcard, second card each, hole card ----
        for sp in range(n_spots):
            first[sp] = seen_draw(s)
            if sp == 0:
                first_kind = s.last_kind
        up = seen_draw(s)
        up_kind = s.last_kind
        for sp in range(n_spots):
            second[sp] = seen_draw(s)
            if sp == 0:
                second_kind = s.last_kind
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
                    net[sp] = natural_net(s, natural_tie, payout) if natural else -1.0
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
                        net[sp] = natural_net(s, payout, payout)
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
                    # a free split: every hand but the first is the house's stake
                    free_split = game and (s.rules.free_split_ranks >> pair) & 1
                    nh = 2
                    h = 0
                    while h < nh:
                        c = seen_draw(s)
                        while c == pair and nh < most:
                            nh += 1          # a pair card starts a new hand (forced resplit)
                            c = seen_draw(s)
                        comp = s.child[single * 10 + c - 1]
                        hd = &spot_hands[b + h]
                        hd.rescued = 0
                        hd.charlie = 0
                        hd.surrendered = 0
                        if game:
                            hd.own = 0.0 if (free_split and h > 0) else 1.0
                            hd.free = 1.0 - hd.own
                            hd.base_own = hd.own
                            hd.split = 1
                            if pair == 1 and not s.rules.hit_split_aces:
                                action = ACT_STAND
                                if s.split_ace_double:
                                    action = decide(s, KIND_SPLIT_ACE, key, comp)
                                play_game_hand(s, hd, comp, action, KIND_SPLIT_ACE, key)
                            else:
                                action = decide(s, KIND_SPLIT, key, comp)
                                play_game_hand(s, hd, comp, action, KIND_SPLIT, key)
                        elif pair == 1 and not s.rules.hit_split_aces:
                            hd.total = s.total[comp]
                            hd.own = 1.0
                        else:
                            action = decide(s, KIND_SPLIT, key, comp)
                            hd.total = play_hand(s, comp, action, KIND_SPLIT, key, &hd.own)
                        h += 1
                    n_hands[sp] = nh
                else:
                    hd = &spot_hands[b]
                    hd.rescued = 0
                    hd.charlie = 0
                    hd.surrendered = 0
                    if game:
                        hd.own = 1.0
                        hd.free = 0.0
                        hd.base_own = 1.0
                        hd.split = 0
                        play_game_hand(s, hd, comp, action, KIND_LATER, key)
                    else:
                        hd.total = play_hand(s, comp, action, KIND_LATER, key, &hd.own)
                    n_hands[sp] = 1

            # ---- a no-hole-card dealer takes the second card now ----
            if not hole_first:
                hole = draw(s)
                if up + hole == 11 and (up == 1 or hole == 1):
                    dealer_natural = True
                    for sp in range(n_spots):
                        if state[sp] == SPOT_NATURAL_WAITS:
                            net[sp] = natural_net(s, natural_tie, payout)
                        elif state[sp] == SPOT_LATE_SURRENDER:
                            net[sp] = -1.0
                        elif state[sp] == SPOT_PLAYED:
                            if obo:
                                net[sp] = -1.0
                            elif s.rules.natural_loss:
                                net[sp] = -natural_loss_charge(s, &spot_hands[sp * SIM_MAX_HANDS],
                                                               n_hands[sp])
                            else:
                                net[sp] = 0.0
                                # (a natural takes the player's own stakes, a
                                # rescued hand's too: it played as a doubled hand)
                                for h in range(n_hands[sp]):
                                    if not paid_at_once(s, &spot_hands[sp * SIM_MAX_HANDS + h]):
                                        net[sp] -= spot_hands[sp * SIM_MAX_HANDS + h].own
                            if game and s.rules.player_21_beats_natural:
                                # the 21s were paid at once (the dealer's total is moot:
                                # a 21 that always wins beats any)
                                for h in range(n_hands[sp]):
                                    hd = &spot_hands[sp * SIM_MAX_HANDS + h]
                                    if paid_at_once(s, hd):
                                        net[sp] += settle_game(s, hd, 21, up)
                        state[sp] = SPOT_DONE
                else:
                    for sp in range(n_spots):
                        if state[sp] == SPOT_NATURAL_WAITS:
                            net[sp] = natural_net(s, payout, payout)
                            state[sp] = SPOT_DONE
            if not dealer_natural:
                # ---- the dealer plays if some hand still stands ----
                any_live = False
                for sp in range(n_spots):
                    if state[sp] == SPOT_PLAYED:
                        for h in range(n_hands[sp]):
                            hd = &spot_hands[sp * SIM_MAX_HANDS + h]
                            if (hd.total != 0 and not hd.rescued and not hd.charlie
                                    and not hd.surrendered):
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
                    if d > 22:
                        d = 23               # a bust (22 kept: dealer_22_push)
                else:
                    d = 23
                for sp in range(n_spots):
                    if state[sp] == SPOT_PLAYED:
                        for h in range(n_hands[sp]):
                            hd = &spot_hands[sp * SIM_MAX_HANDS + h]
                            if game:
                                net[sp] += settle_game(s, hd, d, up)
                            else:
                                net[sp] += settle(hd.total, hd.own, d, tie)
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
            side = 0.0
            if side_cards:
                side_units = side_by_tc[bucket]
                if side_units > 0.0:
                    side_index = (first_kind * 52 + up_kind) * 52 + second_kind
                    if side_cards == 4:      # and whether the hole card made a natural
                        side_index = side_index * 2 + (up + hole == 11
                                                       and (up == 1 or hole == 1))
                    side = side_units * side_pays[side_outcome[side_index]]
                    side_won += side
                    side_sq += side * side
                    side_bet += side_units
                    cross += result * side
                    side_bets += 1
            if bankroll > 0.0:
                cumulative += result + side
                if bankroll + cumulative <= 0.0:
                    out_c[C_RUINED] = 1
                    break
    out_s[S_WON] = won
    out_s[S_WON_SQ] = won_sq
    out_s[S_BET] = total_bet
    out_s[S_SIDE_WON] = side_won
    out_s[S_SIDE_WON_SQ] = side_sq
    out_s[S_SIDE_BET] = side_bet
    out_s[S_CROSS] = cross
    out_c[C_SIDE_BETS] = side_bets
    out_c[C_ROUNDS] = done
    out_c[C_PLAYED] = played
    out_c[C_HANDS] = hands
    out_c[C_SHUFFLES] = shuffles
    out_c[C_EXHAUSTED] = s.exhausted
