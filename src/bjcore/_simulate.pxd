# Declarations of the real-game simulator (see _simulate.pyx for the game model).
from libc.stdint cimport uint64_t, int8_t, int32_t, int64_t

cdef enum:
    SIM_MAX_SPOTS = 7        # spots at the table (the player's and other players')
    SIM_MAX_HANDS = 4        # hands one spot can hold after splitting
    SIM_MAX_SEGMENTS = 8     # plays one index line can switch between
    SIM_MAX_CARDS = 100000000  # cards in a shoe: 32-bit positions, one byte each per thread
    TC_LOW = -20             # per-true-count tables run TC_LOW..TC_HIGH (ends collect the rest)
    TC_HIGH = 20
    TC_SPAN = 41

# Integer parameters: positions in the ``iparams`` array (Python builds it, simulate.py).
# The game's rules are not among them: run_chunk takes the kernel rule dict and decodes it
# (bjcore._rules, as every kernel does).
cdef enum:
    IP_CUT = 0               # reshuffle before a round once this many cards are dealt
    IP_SPOTS                 # the player's spots
    IP_OTHERS                # other players' spots (flat bets, not in the results)
    IP_HOLE                  # 0 peek, 1 enhc, 2 enhc-obo, 3 exposed (a table procedure:
                             # the rules themselves come as the kernel rule dict)
    IP_TC_METHOD             # 0 exact cards, 1 half-deck estimate, 2 full-deck estimate
    IP_ROUNDING              # 0 floor, 1 truncate, 2 round (half up)
    IP_WONG_IN_SET
    IP_WONG_IN
    IP_WONG_OUT_SET
    IP_WONG_OUT
    IP_INSURANCE_SET
    IP_INSURANCE             # insure (and take even money) at TC >= this
    IP_N_COMPS
    IP_N_KEYS
    IP_INFINITE              # 1: an infinite shoe (cards drawn with replacement, no count)
    IP_SIDE_CARDS            # the side bet's cards: 0 none, 3 (player's two, up card) or 4
                             # (and whether the hole card made a natural); see run_chunk
    IP_DECK_CARDS            # cards in a deck, for the decks remaining: 52, or 48 (Spanish)
    IP_TAG_SCALE             # the running count is in units of 1 / this (1; Python sets
                             # more when it balances a count by scaling its tags)
    IP_COUNT                 # the array's length

# Floating parameters: positions in ``dparams``.
cdef enum:
    DP_BANKROLL = 0          # > 0: stop at ruin (bankroll + winnings <= 0)
    DP_COUNT

# Results: positions in the ``sums`` (float64) and ``counts`` (int64) output arrays.
cdef enum:
    S_WON = 0                # total won (bet units)
    S_WON_SQ                 # sum of squared round results
    S_BET                    # total initial bets
    S_SIDE_WON               # the side bet: total won (units)
    S_SIDE_WON_SQ            # its sum of squared results
    S_SIDE_BET               # its total bet
    S_CROSS                  # sum over rounds of main result x side result (same round)
    S_COUNT
cdef enum:
    C_ROUNDS = 0             # rounds dealt (played or watched)
    C_PLAYED                 # rounds the player had a bet on
    C_HANDS                  # the player's hands (after splits)
    C_SHUFFLES
    C_EXHAUSTED              # rounds that ran out of cards (the shoe was refilled)
    C_RUINED                 # 1 if the bankroll was lost
    C_SIDE_BETS              # rounds with a side bet
    C_COUNT

# the generator's state (xoshiro256**)
from bjcore._rng cimport Rng
