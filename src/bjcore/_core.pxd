# Declarations shared by the compiled core (see _core.pyx for the maths).
from libc.stdint cimport uint64_t, int8_t, int16_t, int32_t
from libcpp.unordered_map cimport unordered_map
from libcpp.vector cimport vector


cdef enum:
    N_RANKS = 10          # ranks 1..10 stored at index 0..9 (ten-valued cards pooled)
    MAX_DEPTH = 32        # longest dealer draw sequence the trie can hold
    N_DEALER = 6          # stored dealer outcomes: 17, 18, 19, 20, 21, blackjack
    MAX_A = 8             # split recursion tables (a, b < MAX_A)
    MAX_BATCH = 16        # shoes evaluated together in one trie pass
    MAX_FACTORS = 128     # distinct (rank, prior) pairs a dealer trie may use
    # packed hand keys: 5 bits per rank count (ranks 0..9), then the split context
    COUNT_BITS = 5
    PAIR_SHIFT = 50
    EXTRA_SHIFT = 54
    KIND_SHIFT = 58

# Actions, in the fixed order used to break ties (earlier wins).
cdef enum:
    ACT_STAND = 0
    ACT_HIT = 1
    ACT_DOUBLE = 2
    ACT_SPLIT = 3
    ACT_SURRENDER = 4
    ACT_NONE = 7

# Post-split strategy classes.
cdef enum:
    SPLIT_CDZ = 0
    SPLIT_CDP1 = 1
    SPLIT_CDP = 2
    SPLIT_POLICY = 3      # a user strategy (frozen decisions) drives every choice

# Kinds of decision a user policy is consulted for.
cdef enum:
    KIND_START = 0        # the original two cards (split and surrender may be allowed)
    KIND_LATER = 1        # any later decision of an unsplit hand
    KIND_SPLIT = 2        # any decision of a split hand


cdef struct RuleParams:
    int hit_soft_17
    int double_min_total     # 0 for any total; 9 or 10 for D9 / D10
    int double_soft
    int double_any_cards
    int double_after_split
    int max_split_hands
    int resplit_aces
    int hit_split_aces
    int surrender            # 0 none, 1 late (after the peek), 2 early (before it)
    double blackjack_payout
    int split_class
    int natural_takes_all    # ENHC: a dealer natural takes doubled and split bets too
    double tie_value         # what a push pays: 0, or -1 when the dealer wins ties
    double natural_tie_value # what a player natural gets against a dealer natural


cdef struct DealerBatch:
    # shoes waiting for one shared trie pass (see UpcardEngine.batch_add)
    double weights[MAX_BATCH * N_RANKS]
    double totals[MAX_BATCH]
    uint64_t keys[MAX_BATCH]
    int count


cdef struct HandValues:
    # Unconditioned values of one hand in one context; NaN until computed.
    double stand
    double hit
    double double_


cdef struct TrieNode:
    double mult         # draw orders of this composition that end here (0: not final)
    int32_t skip        # index just past this node's subtree
    int16_t factor      # row of the card-factor table: (rank, cards of it already drawn)
    int8_t depth        # number of cards drawn
    int8_t outcome      # 0..4 for 17..21, 5 natural, 6 not counted (bust is the complement)


cdef class DealerTrie:
    """Every dealer draw composition from one starting hand, as a pre-order trie."""
    cdef readonly int n_nodes
    cdef readonly int max_depth
    cdef vector[TrieNode] nodes
    cdef int n_factors                     # rows of the card-factor table
    cdef int8_t factor_rank[MAX_FACTORS]   # row -> rank index
    cdef int8_t factor_prior[MAX_FACTORS]  # row -> cards of that rank drawn before

    cdef void evaluate(self, const double* weights, double total, bint infinite,
                       double* out) noexcept nogil
    cdef void evaluate_many(self, const double* weights, const double* totals, int count,
                            bint infinite, double* out) noexcept nogil


cdef class HashIndex:
    """Open-addressing map from a packed 64-bit key to a slot number (linear probing)."""
    cdef vector[uint64_t] keys
    cdef vector[int32_t] slots
    cdef int shift            # 64 - log2(capacity)
    cdef int count
    cdef int find(self, uint64_t key) noexcept nogil
    cdef void insert(self, uint64_t key, int slot) noexcept nogil
    cdef void grow(self) noexcept nogil


cdef class UpcardEngine:
    cdef readonly int upcard          # rank 1..10 (0 when both dealer cards are known)
    cdef int dealer_cnt[N_RANKS]      # the dealer's known cards, out of the shoe
    cdef int dealer_n
    cdef int hole_rank                # rank index whose hole card makes a natural, or -1
    cdef RuleParams rules
    cdef double shoe[N_RANKS]         # analysis shoe S (counts, or probabilities if infinite)
    cdef double shoe_size
    cdef bint infinite
    cdef DealerTrie trie

    # current hand state, mutated in place by the recursion
    cdef int cnt[N_RANKS]
    cdef int hard_sum
    cdef int n_cards
    cdef int pair_rank                # 0 for an unsplit hand, else the split pair's rank
    cdef int extra                    # e: extra pair cards known to be gone
    cdef int extra_max                # while a split is valued: the largest e it needs
    cdef uint64_t hand_key

    cdef HashIndex dealer_index       # removed-cards key -> row of dealer_store
    cdef vector[double] dealer_store  # N_DEALER outcomes per row
    cdef HashIndex value_index        # context key -> row of value_store
    cdef vector[HandValues] value_store
    cdef unordered_map[uint64_t, int8_t] policy
    cdef int policy_missing

    cdef double split_cache[N_RANKS]

    cdef void clear_hand(self) noexcept nogil
    cdef void set_hand(self, list counts)
    cdef void add(self, int r) noexcept nogil
    cdef void remove(self, int r) noexcept nogil
    cdef int total(self) noexcept nogil
    cdef bint is_soft(self) noexcept nogil
    cdef bint is_natural(self) noexcept nogil
    cdef uint64_t removed_key(self) noexcept nogil
    cdef uint64_t context_key(self) noexcept nogil
    cdef void remaining(self, double* n) noexcept nogil
    cdef void next_card_weights(self, double* pi) noexcept nogil
    cdef double hole_natural_chance(self, const double* pi) noexcept nogil
    cdef double natural_refund(self, const double* pi) noexcept nogil
    cdef double surrender_value(self) noexcept nogil
    cdef const double* dealer_for_current(self) noexcept nogil
    cdef int store_dealer(self, uint64_t key, const double* dist) noexcept nogil
    cdef void prefetch_dealer(self, bint children) noexcept nogil
    cdef void prefetch_unsplit(self, int lowest, double* left, DealerBatch* batch) noexcept nogil
    cdef void batch_add(self, DealerBatch* batch, const double* left, int drawn,
                        uint64_t key) noexcept nogil
    cdef void batch_flush(self, DealerBatch* batch) noexcept nogil
    cdef int lookup(self) noexcept nogil
    cdef double stand_value(self) noexcept nogil
    cdef double hit_value(self) noexcept nogil
    cdef double double_value(self) noexcept nogil
    cdef double value_at(self, int row, int action) noexcept nogil
    cdef double get(self, int action) noexcept nogil
    cdef int may_double(self) noexcept nogil
    cdef int best_option(self, int double_ok) noexcept nogil
    cdef int policy_action(self, int kind) noexcept nogil
    cdef int optimal_unsplit_choice(self, int double_ok) noexcept nogil
    cdef double continuation(self) noexcept nogil
    cdef int hands_limit(self, int pair) noexcept nogil
    cdef double pair_hand_value(self, int pair, int extra, int second) noexcept nogil
    cdef double split_value(self, int pair) noexcept nogil
    cdef double gamma(self, double m, double n, int a, int b, double pp) noexcept nogil
    cdef double remove_unknown(self, double whole, double pair_part, double g) noexcept nogil
    cdef double draw_ratio(self, double m, double q, double n, int j, int k,
                           double pp) noexcept nogil
    cdef double start_choice_value(self, int c1, int c2) noexcept nogil
    cdef int start_choice(self) noexcept nogil
    cdef void freeze_walk(self, int lowest, const double* left) noexcept nogil
    cdef double round_value(self) noexcept nogil
