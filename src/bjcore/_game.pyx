# cython: language_level=3
# distutils: language = c++
"""``GameEngine``: exact player values of the games (Free Bet, Spanish 21 and their rules,
docs/games.md) against one dealer key, with ``UpcardEngine``'s Python interface, so that
the solver, the chart, removal effects and indices work on the games unchanged.

The walk itself (hand, split and round recursion, generic in its accumulator) is C++ in
``game_walk.h``; this module decodes the rules and the shoe with the rule model
(``_rules``), checks arguments, and calls the walk without the GIL.  With no game key set
it computes the classic game, equal to ``UpcardEngine`` to rounding (tests/test_game_engine.py);
bjsolve uses it only for the games (``exact.engines.make_engine``), the classic solver
staying the faster ``UpcardEngine``.
"""
import threading

from cpython.exc cimport PyErr_Occurred
from libc.stdint cimport uint64_t
from libcpp.vector cimport vector
from libcpp.memory cimport shared_ptr, make_shared

from bjcore._defs cimport RuleParams, N_RANKS, SPLIT_POLICY, SPLIT_CDZ, SPLIT_CDP1, SPLIT_CDP
from bjcore._rules cimport (ShoeParams, decode_rules, decode_shoe, decode_hand,
                            decode_policy_entry)


cdef extern from "game_walk.h" namespace "bjgame" nogil:
    cdef struct GameRules:
        int hit_soft_17, double_min_total, double_soft, double_any_cards, double_after_split
        int max_split_hands, resplit_aces, hit_split_aces, surrender, split_class
        int natural_takes_all
        double blackjack_payout, tie_value, natural_tie_value
        int dealer_22_push, free_double_totals, free_split_ranks, player_21_wins
        double bonus_21[3]
        double bonus_678[3]
        double bonus_777[3]
        int bonus_after_split
        double super_bonus
        double full_sevens
        int redoubles, double_rescue, double_split_aces
        int rescue_after_redouble
        int natural_loss, player_21_beats_natural
        double diamond_blackjack_payout
        int charlie
        int surrender_any_time, bonus_21_at_once

    cdef cppclass PolicyTable:
        int split_context
        size_t size "actions.size"()
        void clear "actions.clear"()

    cdef cppclass ValueWalk:
        GameRules R
        double shoe[10]
        double shoe_size
        bint infinite
        int dealer_cards[2]
        int dealer_n
        int dealer_cnt[10]
        int upcard
        int hole_rank
        int game
        shared_ptr[PolicyTable] policy
        long policy_missing
        bint use_lanes
        int cnt[10]
        int hard
        int n_cards
        int pair_rank
        double own_shoe[10]
        bint own_saved
        size_t dealer_index_size "dealer_index.size"()
        size_t row_index_size "row_count"()
        void init()
        void forget()
        void clear_hand()
        void add_card(int r)
        int hands_limit(int pair)
        bint may_double()
        double surrender_value()
        void set_decision(uint64_t key, int action)
        void law_for(const double* counts, bint recursive, int lanes, double* out)
        void set_other(const int* other)
        const int* stop
        int (*signals)() noexcept nogil

    int walk_round(ValueWalk* w, double* out)
    int walk_split(ValueWalk* w, int pair, double* out)
    int walk_hand(ValueWalk* w, double* out)
    int walk_freeze(ValueWalk* w)
    enum:
        WALK_NO_MEMORY "bjgame::NO_MEMORY"
        WALK_INTERRUPTED "bjgame::INTERRUPTED"


cdef extern from "Python.h":
    # (declared without an exception value: the handler's exception stays pending for
    # GameEngine.check, which raises it once the walk has returned)
    int check_signals_raw "PyErr_CheckSignals"()


cdef int signals_raised() noexcept with gil:
    """Run Python's signal handlers (the walk's ``signals``, main thread only): nonzero when
    one raised (Ctrl-C: KeyboardInterrupt), which is then pending."""
    return check_signals_raw() != 0


cdef class StopToken:
    """A run's stop flag (``bjsolve.exact.scheduler.run_units``): once set, the game walks
    running in the threads it is bound to (``bind_stop``) give up their long computations
    (BB+1's split sums) and raise KeyboardInterrupt.  Setting it is safe from any thread."""

    cdef int flag

    def set(self):
        self.flag = 1

    @property
    def is_set(self):
        return self.flag != 0


_bound = threading.local()


def bind_stop(token):
    """Bind ``token`` (a StopToken, or None) to the calling thread: the game walks this
    thread runs from now on stop when it is set.  Returns the token bound before."""
    if token is not None and not isinstance(token, StopToken):
        raise TypeError(f"token must be a StopToken or None, got {type(token).__name__}")
    before = getattr(_bound, "token", None)
    _bound.token = token
    return before


cdef extern from "game_law.h" namespace "bjgame" nogil:
    int walk_round_law(ValueWalk* w, int c1, int c2, vector[double]* values,
                       vector[double]* probs, vector[int]* outcomes, vector[int]* results,
                       long* combined, double* gap, size_t* entries, int want_moments,
                       double* m2_fix, long* moments_inexact, double* moments_mean_gap)
    int walk_start_laws(ValueWalk* w, const vector[int]& firsts, const vector[int]& seconds,
                        vector[double]* values, vector[double]* probs,
                        vector[int]* outcomes, vector[int]* results, vector[size_t]* starts)


cdef void copy_rules(const RuleParams* p, GameRules* g) noexcept:
    cdef int i
    g.hit_soft_17 = p.hit_soft_17
    g.double_min_total = p.double_min_total
    g.double_soft = p.double_soft
    g.double_any_cards = p.double_any_cards
    g.double_after_split = p.double_after_split
    g.max_split_hands = p.max_split_hands
    g.resplit_aces = p.resplit_aces
    g.hit_split_aces = p.hit_split_aces
    g.surrender = p.surrender
    g.split_class = p.split_class
    g.natural_takes_all = p.natural_takes_all
    g.blackjack_payout = p.blackjack_payout
    g.tie_value = p.tie_value
    g.natural_tie_value = p.natural_tie_value
    g.dealer_22_push = p.dealer_22_push
    g.free_double_totals = p.free_double_totals
    g.free_split_ranks = p.free_split_ranks
    g.player_21_wins = p.player_21_wins
    for i in range(3):
        g.bonus_21[i] = p.bonus_21[i]
        g.bonus_678[i] = p.bonus_678[i]
        g.bonus_777[i] = p.bonus_777[i]
    g.bonus_after_split = p.bonus_after_split
    g.super_bonus = p.super_bonus
    g.full_sevens = p.full_sevens
    g.redoubles = p.redoubles
    g.double_rescue = p.double_rescue
    g.double_split_aces = p.double_split_aces
    g.rescue_after_redouble = p.rescue_after_redouble
    g.natural_loss = p.natural_loss
    g.player_21_beats_natural = p.player_21_beats_natural
    g.diamond_blackjack_payout = p.diamond_blackjack_payout
    g.charlie = p.charlie
    g.surrender_any_time = p.surrender_any_time
    g.bonus_21_at_once = p.bonus_21_at_once


cdef class GameEngine:
    """Exact player values against one dealer key for one shoe and rule set, the games'
    rules included.  ``GameEngine(shoe, dealer, rules, infinite=False, fractional=False)``
    as ``UpcardEngine``: values are unconditioned fractions of the initial bet."""

    cdef ValueWalk* walk
    cdef readonly int upcard
    cdef bint spoiled
    cdef bint whole_shoe
    cdef StopToken armed   # the stop flag the walk reads during a call (kept alive)

    def __cinit__(self):
        self.walk = new ValueWalk()

    def __dealloc__(self):
        del self.walk

    def __init__(self, shoe, dealer, dict rules, bint infinite=False, bint fractional=False):
        cdef ShoeParams decoded
        cdef RuleParams params
        cdef int r
        decode_shoe(shoe, dealer, infinite, fractional, &decoded)
        # (the rule model refuses the combinations the games exclude: redoubles with free
        # doubles or splits)
        decode_rules(rules, &params)
        if params.natural_loss == 2 and params.max_split_hands > 1:
            # BB+1 charges a split round one unit for all its standing hands together
            # (game_bb1.h): computed without free splits
            if params.free_split_ranks:
                raise ValueError(f"rules: natural_loss 2 (BB+1) with max_split_hands "
                                 f"{params.max_split_hands} and free_split_ranks "
                                 f"{params.free_split_ranks}: BB+1 with splits is computed "
                                 f"without free splits")
        copy_rules(&params, &self.walk.R)
        self.walk.game = params.game
        self.walk.infinite = infinite
        self.walk.shoe_size = decoded.size
        for r in range(N_RANKS):
            self.walk.shoe[r] = decoded.counts[r]
            self.walk.dealer_cnt[r] = decoded.dealer_cnt[r]
        self.walk.dealer_n = decoded.dealer_n
        self.walk.dealer_cards[0] = decoded.dealer_cards[0]
        self.walk.dealer_cards[1] = decoded.dealer_cards[1]
        self.walk.upcard = decoded.upcard
        self.walk.hole_rank = decoded.hole_rank
        self.upcard = decoded.upcard
        self.walk.init()
        self.spoiled = False
        self.whole_shoe = not infinite and not fractional

    cdef void arm(self):
        """Before a walk: let its long loops stop on Ctrl-C (in the main thread, where
        Python's signal handlers run) or when the run bound to this thread is stopped."""
        self.armed = getattr(_bound, "token", None)
        self.walk.stop = &self.armed.flag if self.armed is not None else NULL
        self.walk.signals = NULL
        if threading.get_ident() == threading.main_thread().ident:
            self.walk.signals = signals_raised

    cdef int check(self, int status) except -1:
        """Raise MemoryError for a failed walk, KeyboardInterrupt for a stopped one,
        dropping its half-built tables."""
        if status == WALK_NO_MEMORY:
            self.walk.forget()
            raise MemoryError("the game walk ran out of memory")
        if status == WALK_INTERRUPTED:
            self.walk.forget()
            if PyErr_Occurred() != NULL:
                return -1   # (the signal handler's exception, raised inside the walk)
            raise KeyboardInterrupt("stopped: the run this computation belongs to was "
                                    "interrupted")
        return 0

    def round_ev(self):
        """E(u), unconditioned."""
        cdef double v
        cdef int status
        self.arm()
        with nogil:
            status = walk_round(self.walk, &v)
        self.check(status)
        return v

    def set_other(self, counts):
        """Value the hands from now on with another hand's cards (10 counts) out of the
        engine's shoe as well (Blackjack Switch); ``[0] * 10`` puts them back.  The dealer
        laws computed so far are kept and shared (keyed by every card out); the hands'
        values are forgotten.  A whole shoe only (not infinite, not fractional)."""
        cdef int other[10]
        cdef int r
        if not self.whole_shoe:
            raise ValueError("set_other: a whole shoe only (not infinite, not fractional)")
        if len(counts) != N_RANKS:
            raise ValueError(f"counts must have {N_RANKS} entries, got {len(counts)}")
        if self.walk.own_saved:
            for r in range(N_RANKS):
                self.walk.shoe[r] = self.walk.own_shoe[r]
        for r in range(N_RANKS):
            if counts[r] != int(counts[r]) or not 0 <= counts[r] <= 31:
                raise ValueError(f"counts[{r}] must be a whole number 0..31, got {counts[r]!r}")
            other[r] = <int>counts[r]
            if self.walk.shoe[r] - self.walk.dealer_cnt[r] - other[r] < 0:
                raise ValueError(f"counts[{r}] = {other[r]}: the shoe holds only "
                                 f"{self.walk.shoe[r] - self.walk.dealer_cnt[r]:g} of rank {r + 1}")
        self.walk.set_other(other)

    def _check_hand(self, counts, bint in_shoe=True):
        """The hand's 10 counts as ints, checked (``_rules.decode_hand``)."""
        return decode_hand(counts, self.walk.shoe, self.walk.dealer_cnt, self.walk.infinite, in_shoe)

    cdef void set_hand(self, list counts):
        self.walk.clear_hand()
        for r in range(N_RANKS):
            for _ in range(<int>counts[r]):
                self.walk.add_card(r)

    def surrender_ev(self, counts):
        """Unconditioned surrender value of the original two cards."""
        cdef double v
        self.set_hand(self._check_hand(counts))
        v = self.walk.surrender_value()
        self.walk.clear_hand()
        return v

    def hand_values(self, counts):
        """(stand, hit, double, natural chance) unconditioned, for an unsplit hand."""
        cdef double out[4]
        cdef int status
        self.set_hand(self._check_hand(counts))
        self.arm()
        with nogil:
            status = walk_hand(self.walk, out)
        self.check(status)
        return out[0], out[1], out[2], out[3]

    def opening_values(self, hands):
        """For each two-card hand of ``hands`` (10 counts each, in the shoe), valued one
        after the other in one call without the GIL (Blackjack Switch: the 55 hands of a
        context): (stand, hit, double, natural chance) as ``hand_values``, whether the
        rules let it double (``may_double_hand``), and for a pair the rules let split,
        ``split_ev``'s (split, natural chance), else NaN, NaN (also when the hole card
        surely makes a natural).  Returns a list of 7-tuples."""
        cdef Py_ssize_t n = len(hands), i
        cdef vector[int] cards
        cdef vector[double] out
        cdef int status = 0, r, c1, c2
        cdef double v, nan = float("nan")
        for i in range(n):
            counts = self._check_hand(hands[i])
            if sum(counts) != 2:
                raise ValueError(f"hands[{i}] must be two cards, got {list(hands[i])!r}")
            c1 = c2 = -1
            for r in range(N_RANKS):
                if counts[r] >= 1:
                    if c1 < 0:
                        c1 = r
                        if counts[r] == 2:
                            c2 = r
                    else:
                        c2 = r
            cards.push_back(c1)
            cards.push_back(c2)
        out.resize(7 * n)
        self.arm()
        with nogil:
            for i in range(n):
                c1, c2 = cards[2 * i], cards[2 * i + 1]
                self.walk.clear_hand()
                self.walk.add_card(c1)
                self.walk.add_card(c2)
                out[7 * i + 4] = 1.0 if self.walk.may_double() else 0.0
                status = walk_hand(self.walk, &out[7 * i])
                if status != 0:
                    break
                out[7 * i + 5] = out[7 * i + 6] = nan
                if c1 == c2 and out[7 * i + 3] < 1.0 and self.walk.hands_limit(c1 + 1) >= 2:
                    status = walk_split(self.walk, c1 + 1, &v)
                    if status != 0:
                        break
                    out[7 * i + 5] = v
                    out[7 * i + 6] = self.split_natural_chance(c1 + 1)
        self.walk.clear_hand()
        self.check(status)
        return [tuple(out[7 * i + r] for r in range(7)) for i in range(n)]

    cdef double split_natural_chance(self, int pair) noexcept nogil:
        """The chance of a dealer natural over S - 2P - u (``split_ev``)."""
        cdef double left = 0.0
        cdef double rho[10]
        cdef int r, hole = self.walk.hole_rank
        if hole < 0:
            return 0.0
        if self.walk.infinite:
            return self.walk.shoe[hole]
        for r in range(N_RANKS):
            rho[r] = self.walk.shoe[r] - self.walk.dealer_cnt[r]
        rho[pair - 1] -= 2
        for r in range(N_RANKS):
            left += rho[r]
        return rho[hole] / left if left > 0 and rho[hole] > 0 else 0.0

    def may_double_hand(self, counts, bint after_split=False):
        """Whether the rules allow doubling this hand (after a split: DAS gate too)."""
        cdef bint ok
        self.set_hand(self._check_hand(counts, in_shoe=False))
        ok = self.walk.may_double()
        if after_split and not self.walk.R.double_after_split:
            ok = False
        self.walk.clear_hand()
        return bool(ok)

    def split_limit(self, int pair):
        """M(P): hands the pair may become (0 or 1: no split)."""
        if pair < 1 or pair > 10:
            raise ValueError("pair rank must be 1..10")
        return self.walk.hands_limit(pair)

    def split_ev(self, int pair):
        """(unconditioned split expectation, natural chance over S - 2P - u), or NaN."""
        cdef double v
        cdef int status
        if pair < 1 or pair > 10:
            raise ValueError("pair rank must be 1..10")
        self.arm()
        with nogil:
            status = walk_split(self.walk, pair, &v)
        self.check(status)
        return v, self.split_natural_chance(pair)

    def freeze_decisions(self):
        """Record this engine's decision for every hand composition (as
        ``UpcardEngine.freeze_decisions``; a free split hand's decisions under a key of
        their own).  Returns the number of decisions recorded."""
        cdef int status
        if self.walk.R.split_class == SPLIT_POLICY:
            raise ValueError("a policy engine plays frozen decisions; it has none to record")
        self.walk.policy = make_shared[PolicyTable]()
        self.walk.policy.get().split_context = {SPLIT_CDZ: 0, SPLIT_CDP1: 1,
                                                SPLIT_CDP: 2}[self.walk.R.split_class]
        self.arm()
        with nogil:
            status = walk_freeze(self.walk)
        if status == WALK_NO_MEMORY:
            self.walk.policy = make_shared[PolicyTable]()
        self.check(status)
        return self.walk.policy.get().size()

    def copy_policy_to(self, GameEngine other not None):
        """Give ``other`` (a policy-mode engine) this engine's recorded decisions (shared:
        ``other`` copies them before any change of its own)."""
        other.walk.policy = self.walk.policy

    def set_policy(self, int kind, counts, int action):
        """Freeze the action for a composition: kind 0 start, 1 later, 2 split hand; with
        redoubles or double rescue, the choice after the d-th double (action 0 stand,
        2 redouble, 4 rescue) of an unsplit (split) hand is kind 4 + 2 (d - 1) (+ 1)."""
        cdef uint64_t key = decode_policy_entry(kind, counts, action, 15)
        cdef shared_ptr[PolicyTable] mine
        if self.walk.policy.use_count() > 1:
            mine = make_shared[PolicyTable](self.walk.policy.get()[0])
            self.walk.policy = mine
        if kind == 2 and self.walk.policy.get().split_context != 0:
            raise ValueError("this engine's split-hand decisions are recorded per split "
                             "context; set_policy gives one per composition")
        self.walk.set_decision(key, action)

    @property
    def policy_misses(self):
        """Decisions a policy solve met that had no frozen action (should be 0)."""
        return self.walk.policy_missing

    def _dealer_law(self, counts, bint recursive=False, int lanes=0):
        """The dealer's final outcome chances [17, 18, 19, 20, 21, natural, 22, over 22]
        for the 10 counts left in the shoe (the dealer's known cards already out), by the
        composition pass the engine uses or (``recursive``) by the plain recursion over
        every draw order; ``lanes`` > 0: by the batched pass, as the last of ``lanes``
        shoes computed together (the others each a card short): for tests."""
        cdef double n[10]
        cdef double out[8]
        cdef int r
        if len(counts) != N_RANKS:
            raise ValueError(f"counts must have {N_RANKS} entries, got {len(counts)}")
        for r in range(N_RANKS):
            n[r] = counts[r]
        if lanes < 0 or lanes > 64:
            raise ValueError(f"lanes must be 0..64, got {lanes}")
        self.walk.law_for(n, recursive, lanes, out)
        return [out[r] for r in range(8)]

    def _walk_split_contexts_together(self, bint together):
        """Walk a split hand once for all its contexts (True, the default) or once per
        context (False); the values must agree bit for bit (for tests).  Drops the memo
        tables."""
        self.walk.use_lanes = together
        self.walk.forget()

    @property
    def memo_sizes(self):
        """(dealer distributions, hand contexts) held in the memo tables."""
        return self.walk.dealer_index_size(), self.walk.row_index_size()

    def start_law_entries(self, hands):
        """``round_law_entries(c1, c2)`` of each (c1, c2) of ``hands`` (ranks 1..10, an
        upcard key), by one law walk whose memo serves them all (the same laws, fewer
        computed: a hand's law after its cards does not depend on the two that began it).
        Returns a list of (values, probs, outcomes, results), one a hand, sharing one
        ``values`` table."""
        cdef vector[int] firsts, seconds, outcomes, results
        cdef vector[double] values, probs
        cdef vector[size_t] starts
        cdef int status
        cdef size_t i
        if self.walk.dealer_n != 1:
            raise ValueError("the rounds after two cards are for an upcard key")
        for hand in hands:
            c1, c2 = hand
            if not (isinstance(c1, int) and isinstance(c2, int) and 1 <= c1 <= 10
                    and 1 <= c2 <= 10):
                raise ValueError(f"hands must be pairs of ranks 1..10, got {hand!r}")
            firsts.push_back(c1 - 1)
            seconds.push_back(c2 - 1)
        self.arm()
        with nogil:
            status = walk_start_laws(self.walk, firsts, seconds, &values, &probs, &outcomes,
                                     &results, &starts)
        self.check(status)
        table = list(values)
        out = []
        for i in range(firsts.size()):
            a, b = starts[i], starts[i + 1]
            out.append((table, [probs[k] for k in range(a, b)],
                        [outcomes[k] for k in range(a, b)], [results[k] for k in range(a, b)]))
        return out

    def round_law_entries(self, int c1=-1, int c2=-1, bint moments=False):
        """The law of one round's net result against this key, playing this engine's
        decisions (its solve's, or its frozen policy): ``game_law.h``.  c1, c2 (ranks
        1..10): the round after those two player cards (for tests); default: the whole
        round.  Returns (values, probs, outcomes, results, combined splits, largest gap
        between split hands' dealer marginals, law entries held, m2_fix, inexact,
        mean_gap): entry i has chance probs[i], dealer outcome outcomes[i] (0..4: 17..21,
        5 natural, 6 22, 7 over 22) and net result values[results[i]] (unconditioned).
        Dealer outcomes with no entries are left out; bjsolve.exact.game_law arranges these
        as arrays.  moments: also the exact second moment of every combined split that
        may make 3-4 hands where it can be made (``game_split_moments.h``): m2_fix[t] (8
        numbers) is what the round's E[S^2 ; dealer outcome t] adds to the law's own,
        inexact the combined splits whose variance stays the combination's (all of them
        without ``moments``), mean_gap the largest gap between such a split's exact
        E[S ; t] and its law's (a check)."""
        cdef vector[double] values, probs
        cdef vector[int] outcomes, results
        cdef long combined = 0
        cdef double gap = 0.0
        cdef size_t entries = 0
        cdef double m2_fix[8]
        cdef long inexact = 0
        cdef double mean_gap = 0.0
        cdef int status
        if c1 != -1 or c2 != -1:
            if not (1 <= c1 <= 10 and 1 <= c2 <= 10):
                raise ValueError(f"c1, c2 must be ranks 1..10, got {c1}, {c2}")
            if self.walk.dealer_n != 1:
                raise ValueError("the round after two cards is for an upcard key")
            c1 -= 1
            c2 -= 1
        self.arm()
        with nogil:
            status = walk_round_law(self.walk, c1, c2, &values, &probs, &outcomes,
                                    &results, &combined, &gap, &entries, moments, m2_fix,
                                    &inexact, &mean_gap)
        self.check(status)
        return (list(values), list(probs), list(outcomes), list(results), combined, gap,
                entries, [m2_fix[t] for t in range(8)], inexact, mean_gap)
