# The rule model: the kernel rule dict and the shoe, decoded and checked once (_rules.pyx).
# Plain C declarations (no C++): the simulator, compiled as C, cimports them as well.
from libc.stdint cimport uint64_t
from bjcore._defs cimport RuleParams


cdef struct ShoeParams:
    double counts[10]        # per rank 1..10 (index 0..9): cards, or probabilities (infinite)
    double size              # their sum
    int infinite             # cards drawn with replacement (counts are probabilities)
    int fractional           # a finite shoe with a count that is not a whole number
    int dealer_n             # dealer cards known: 0 (none given), 1 (upcard) or 2 (both)
    int dealer_cards[2]      # their ranks 1..10, upcard first
    int dealer_cnt[10]       # the same per rank index (cards out of the shoe)
    int upcard               # the upcard, or 0 when both dealer cards are known (or none)
    int hole_rank            # rank index whose hole card makes a natural, or -1


cdef int decode_rules(dict rules, RuleParams* out) except -1
cdef int refuse_game_rules(const RuleParams* rules, str kernel) except -1
cdef int decode_counts(object shoe, bint infinite, bint allow_fractional,
                       ShoeParams* out) except -1
cdef int decode_shoe(object shoe, object dealer, bint infinite, bint allow_fractional,
                     ShoeParams* out) except -1
cdef int decode_classic(object shoe, object dealer, dict rules, bint infinite,
                        bint allow_fractional, str kernel, ShoeParams* shoe_out,
                        RuleParams* rules_out) except -1
cdef list decode_hand(object counts, const double* shoe, const int* dealer_cnt,
                      bint infinite, bint in_shoe)
cdef uint64_t decode_policy_entry(int kind, object counts, int action,
                                  int max_kind) except? 0
