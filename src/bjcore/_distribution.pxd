# Declarations of the round-distribution kernel (see _distribution.pyx for the maths).
from libc.stdint cimport int64_t, uint64_t
from libcpp.unordered_map cimport unordered_map
from bjcore._alloc cimport vector

from bjcore._defs cimport (RuleParams, HandCards, cards_clear, cards_add, cards_remove,
                           cards_total, cards_soft, cards_natural, cards_key,
                           cards_removed_key, split_hands_limit, decision_key)
from bjcore._dealer cimport DealerTrie   # the one dependency on the core: dealer enumeration
from bjcore._memo cimport HashIndex, DecisionTable


cdef enum:
    D_RANKS = 10          # ranks 1..10 at index 0..9
    D_OUT = 7             # dealer outcomes t: 17, 18, 19, 20, 21, natural, bust
    D_STATES = 14         # a hand's final state j: (bet 1 or 2) x (bust, <=16, 17..21)
    D_LAW = 98            # D_STATES * D_OUT: a hand's joint law with the dealer outcome
    D_LATTICE = 34        # round outcomes -8 .. +8 in half units (33), then a natural win
    D_NATURAL_COL = 33
    D_MAX_A = 8           # split recursion tables (as the solver's)
    D_RESULTS = 5         # one split hand's result given t: -2 .. +2
    D_BATCH = 10          # dealer shoes enumerated in one trie pass (<= the trie's 16)
    D_TRIE_BATCH = 32     # dealer shoes per trie pass in tree_pass and queue_dealer
                          # (= the trie's MAX_BATCH: full lanes share the per-node work)
    D_CHUNK = 32          # first-hand endings whose dealer laws are queued together
    ZERO_COL = 16         # lattice column of a net outcome of 0
    NATURAL_T = 5         # the dealer outcome t of a natural
    # kinds of node of the tree of a split hand's play (split_tree)
    T_HIT = 0
    T_DOUBLE = 1          # draw nodes
    T_STAND = 2
    T_DOUBLED = 3         # leaves


cdef class RoundLaws:
    cdef DealerTrie trie
    cdef RuleParams rules
    cdef double shoe[D_RANKS]
    cdef double shoe_size
    cdef bint infinite
    cdef bint fractional          # some count is not a whole number of cards
    cdef bint compact             # hand laws carry only their means: per dealer outcome
                                  # t, the value sum_j law[j, t] payoff[j, t] (entry t) and
                                  # the mass sum_j law[j, t] (entry D_OUT + t); see law_len
    cdef int law_len              # entries of a hand law: D_LAW, or 2 D_OUT when compact
    cdef int dealer_cnt[D_RANKS]
    cdef int hole_rank
    cdef readonly object dealer_key
    cdef object shoe_arg             # the shoe and rule dict as given (for the engines
    cdef dict rules_arg              # built from them: need_decisions, SpotMoments)

    # current hand state, mutated in place by the walk (the value engine's: _defs.HandCards)
    cdef HandCards hand

    cdef double payoff[D_LAW]
    cdef HashIndex dealer_index          # removed-cards key -> row of dealer_store
    cdef vector[double] dealer_store
    cdef HashIndex law_index             # hand's context key -> row of law_store
    cdef vector[double] law_store
    # the decisions played: the value engine's (an optimal solve's, recorded, or a
    # strategy's), never decided here, so the law's mean is the EV by construction
    cdef DecisionTable policy
    cdef bint policy_shared              # the table is another engine's: copy before writing
    cdef int policy_missing
    cdef readonly int splits_played     # starting hands (per composition) the strategy split
    cdef double split_mean[D_RANKS]
    cdef bint split_done[D_RANKS]
    cdef vector[double] split_out      # per pair: D_OUT x D_LATTICE
    cdef double round_out[D_OUT * D_LATTICE]

    # exact two-hand splits on a finite shoe
    cdef bint exact_two_hands          # use the exact joint law when a split makes 2 hands
    cdef unordered_map[uint64_t, int] second_index   # first hand's cards -> second's results
    cdef vector[double] second_store
    cdef bint exact_done[D_RANKS]
    cdef bint tree_ran_out             # a tree pass met a draw from an empty shoe
    # the tree of one split hand's play (nodes in topological order, see split_tree)
    cdef vector[uint64_t] t_key        # composition, the hand's pair card included
    cdef vector[int] t_kind            # T_HIT, T_DOUBLE (draw), T_STAND, T_DOUBLED (leaves)
    cdef vector[int] t_state           # a leaf's final state j
    cdef vector[int] t_busts           # bit 1: some card busts this draw node; bit 2:
                                       # a child of such a node (its dealer law is needed)
    cdef vector[int] t_child           # D_RANKS per node: child node, or -1
    cdef vector[double] t_reach        # chance of reaching each node (one pass)
    cdef vector[double] t_pi           # D_RANKS per node: next-card chances (one pass)
    cdef vector[int] t_drow            # row of dealer_store for the node (one pass)
    cdef vector[double] h1_reach       # the first hand's reach and next-card chances
    cdef vector[double] h1_pi
    cdef vector[int] t_need            # nodes the exact law needs the dealer's law at:
                                       # the root, the leaves, double nodes some card busts
    cdef vector[int] t_need_pos        # per node: its place in t_need, or -1
    cdef bint t_hit_busts              # some card busts a hit node of the tree
    cdef vector[double] t_cnt          # D_RANKS per node: its cards of each rank
    cdef size_t t_slot_max             # most slots one hand pass can list
    cdef size_t s_count                # slots listed (s_* are sized ahead)
    # the endings of one hand pass that need the dealer's law ("slots"): node, dealer
    # row, signed weight, final state (see hand_slots)
    cdef vector[int] s_node
    cdef vector[int] s_row
    cdef vector[double] s_w
    cdef vector[int] s_state
    cdef vector[double] need_q         # per t_need entry: the second hand's results
    cdef int result_col[D_LAW]         # a hand's result column (payoff + 2) by (j, t)
    # dealer laws whose rows are reserved, enumerated D_TRIE_BATCH at a time
    cdef double pend_w[D_TRIE_BATCH * D_RANKS]
    cdef double pend_tot[D_TRIE_BATCH]
    cdef int pend_row[D_TRIE_BATCH]
    cdef int pend_count
    cdef readonly int64_t tree_nodes           # cost measures of the last exact split
    cdef readonly int64_t second_laws
    cdef readonly int approx_splits_played   # splits played whose hands were combined
                                             # as independent given the dealer's outcome

    cdef void forget(self) except *
    cdef void clear_shoe_laws(self, bint keep_dealer) noexcept nogil
    cdef void guarded_round_dist(self) except *
    cdef void freeze(self, uint64_t key, int action) noexcept nogil
    cdef void need_decisions(self) except *
    cdef uint64_t context_key(self) noexcept nogil
    cdef void next_card_weights(self, double* pi) noexcept nogil
    cdef double cards_left(self, double* n, bint clamp) noexcept nogil
    cdef double hole_chance(self) noexcept nogil
    cdef const double* dealer(self) noexcept nogil
    cdef int store_dealer(self, uint64_t key, const double* out) noexcept nogil
    cdef void prefetch_children(self) noexcept nogil
    cdef void prefetch_from(self, const double* n, double left, uint64_t base) noexcept nogil
    cdef void state_add(self, double w, int j, const double* d, double* out) noexcept nogil
    cdef void leaf_add(self, double w, int mult, double* out) noexcept nogil
    cdef void bust_rest(self, const double* pi, double* rest) noexcept nogil
    cdef void draw_add(self, double w, bint doubled, double* out) noexcept nogil
    cdef void double_add(self, double w, double* out) noexcept nogil
    cdef void natural_as_solver(self, double* law) noexcept nogil
    cdef void action_add(self, int action, double w, double* out) noexcept nogil
    cdef void continuation_add(self, double w, double* out) noexcept nogil
    cdef int may_double(self) noexcept nogil
    cdef int policy_action(self, int kind) noexcept nogil
    cdef int choose(self) noexcept nogil
    cdef void pair_hand_law(self, int pair, int extra, int second, double* out) noexcept nogil
    cdef void split_dist(self, int pair) noexcept nogil
    cdef bint clamps_dealer_shoe(self, int hard_sum) noexcept nogil
    cdef void settle_fractional_split(self, int pair, int M, double natural,
                                      double* out) noexcept nogil
    cdef double natural_refund_units(self, int pair, int M) noexcept nogil
    cdef void combine_hands(self, double w, const double* law_n, int count_n,
                            const double* law_x, int count_x, double* out,
                            double* natural) noexcept nogil
    cdef double surrender_value(self) noexcept nogil
    cdef const double* start_dealer_outcomes(self, double* dd) noexcept nogil
    cdef void settle_start_weights(self, double short) noexcept nogil
    cdef int start_action(self, int c1, int c2) noexcept nogil
    cdef void set_hand_from_key(self, uint64_t key) noexcept nogil
    cdef void split_tree(self, int pair) noexcept nogil
    cdef void tree_pass(self, int pair, const double* base, uint64_t ext_key,
                        bint need_dealer) noexcept nogil
    cdef const double* second_results(self, int pair, uint64_t first_key) noexcept nogil
    cdef int queue_dealer(self, uint64_t key, const double* base,
                          uint64_t hand_key) noexcept nogil
    cdef void flush_dealer(self) noexcept nogil
    cdef void reach_pass(self, const double* base) noexcept nogil
    cdef void size_slots(self, size_t count) noexcept nogil
    cdef int hand_slots(self, int pair, const double* base, uint64_t ext,
                        int from_node) noexcept nogil
    cdef void slot_results(self, size_t first, size_t last, double* q) noexcept nogil
    cdef void tree_split(self, int pair) noexcept nogil
    cdef void exact_two_hands_law(self, int pair) noexcept nogil
    cdef void add_results(self, double w, int j1, const double* q, double* out) noexcept nogil
    cdef void round_dist(self) noexcept nogil

    # The hand's own steps, inline (as the value engine's): they run once or more per
    # hand visited, and a cdef method is otherwise an indirect call.

    cdef inline void clear_hand(self) noexcept nogil:
        cards_clear(&self.hand)

    cdef inline void add(self, int r) noexcept nogil:
        cards_add(&self.hand, r)

    cdef inline void remove(self, int r) noexcept nogil:
        cards_remove(&self.hand, r)

    cdef inline uint64_t comp_key(self) noexcept nogil:
        return cards_key(&self.hand)

    cdef inline uint64_t removed_key(self) noexcept nogil:
        """The cards out of the shoe for the hand: its own and its extra pair cards."""
        return cards_removed_key(&self.hand, cards_key(&self.hand))

    cdef inline int hands_limit(self, int pair) noexcept nogil:
        return split_hands_limit(&self.rules, self.shoe, self.infinite, pair)
