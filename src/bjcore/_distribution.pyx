# cython: language_level=3
"""The probability law of one round's net outcome against one dealer key.

The solver (``_core``) carries one number per hand: its expectation.  This kernel carries
the whole joint law of a hand's final state and the dealer's outcome instead, through the
same recursions, so that every expectation the solver forms is a linear functional of a
law formed here in the same way:

* a hand's *law* is a 14 x 7 array ``L[j, t]``: the probability that the hand ends in
  state ``j`` (bet 1 or 2 times: bust, a total of 16 or less, 17 .. 21) while the dealer
  ends in ``t`` (17 .. 21, a natural, bust).  Leaves (a stand, a doubled hand's one card,
  a bust) put the dealer's distribution from the shoe left after the hand into their row;
  a hit is the card-weighted sum of the children's laws; the value of a law is its dot
  product with the payoff table (a natural costs one unit, or every bet under ENHC);
* decisions are never made here: the law plays a table of frozen decisions, the value
  engine's (``_policy``): a strategy's, or an optimal solve's recorded by its post-split
  class (``need_decisions`` records one when none is given).  The law therefore walks the
  solver's play, and its mean is the solver's EV, by construction;
* a split combines the laws of its hands through the solver's removal recursions
  (X_{a,b}, N_{a,b}: the law of total probability, applied entry by entry) and its
  weights over the number of hands.  Within one pattern of hands the hands are combined
  as independent given the dealer's outcome ``t``: exact on an infinite shoe (every card
  is an independent draw); on a finite shoe every hand's joint law with the dealer is
  exact (so the mean is the solver's EV) and only the dependence between the split hands
  through the cards they take from each other is left out;
* on a finite shoe, a split into two hands (no resplitting) gets its exact joint law
  instead (``tree_split``: the second hand played on the shoe less each ending of the
  first, both by one pass over the tree of a split hand's play).

The result is ``out[t, k]``: the probability that the dealer ends in ``t`` and the round's
net outcome is ``(k - 16) / 2`` units (``k = 33``: a natural paid at the table's payout).
"""
from libc.math cimport lround
from bjcore._defs cimport (rank_unit, double_allowed, split_context_weights,
                           natural_refund_finite, unknown_pair_chance, remove_unknown,
                           pair_draw_ratio, surrender_worth, first_two_chance,
                           split_removal_counts,
                           cards_total, cards_soft, cards_natural, cards_context_key,
                           ACT_STAND as ST, ACT_HIT as HT, ACT_DOUBLE as DD, ACT_SPLIT as SP,
                           ACT_SURRENDER as SU, SPLIT_POLICY as POLICY,
                           KIND_START, KIND_LATER, KIND_SPLIT)
from bjcore._memo cimport DecisionTable
from bjcore._core cimport UpcardEngine
from libc.string cimport memset
from libc.stdint cimport uint64_t
from libcpp.unordered_map cimport unordered_map
from bjcore._alloc cimport vector, guard, guard_int
from bjcore._rules cimport (ShoeParams, decode_classic,
                            decode_policy_entry)
from cython.operator cimport dereference as deref

import numpy as np

from bjcore._memo import HashIndex

from bjcore._dealer import dealer_trie

cdef inline int column(double value) noexcept nogil:
    """Lattice column of a net outcome that is a multiple of one half."""
    return ZERO_COL + <int>lround(2.0 * value)


cdef class RoundLaws:
    """The law of a round's outcome against one dealer key (upcard, or both dealer cards
    when they are dealt face up), for one shoe, rule set and strategy."""

    def __init__(self, shoe, dealer, dict rules, bint infinite=False, bint exact_splits=True):
        cdef int r, j, t, s, m, dealer_total
        cdef double v
        cdef ShoeParams decoded
        # the rule model (_rules): the solver's checks, the same decoded rules
        decode_classic(shoe, dealer, rules, infinite, True, "the classic round laws", &decoded,
                       &self.rules)
        cards = tuple([decoded.dealer_cards[r] for r in range(decoded.dealer_n)])
        self.dealer_key = dealer
        self.shoe_arg = list(shoe)
        self.rules_arg = dict(rules)
        self.dealer_index = HashIndex()
        self.law_index = HashIndex()
        self.policy = DecisionTable()
        self.policy_shared = False
        self.hole_rank = decoded.hole_rank
        self.infinite = infinite
        self.shoe_size = decoded.size
        self.fractional = decoded.fractional
        for r in range(D_RANKS):
            self.dealer_cnt[r] = decoded.dealer_cnt[r]
            self.shoe[r] = decoded.counts[r]
        self.trie = dealer_trie(cards, bool(self.rules.hit_soft_17))
        # payoff of one hand: state j (bet m, s = bust, <=16, 17..21) against outcome t
        for j in range(D_STATES):
            m = 1 + j // 7
            s = j % 7
            for t in range(D_OUT):
                if t == 5:
                    v = -m if self.rules.natural_takes_all else -1.0
                elif s == 0:
                    v = -m
                elif t == 6:
                    v = m
                elif s == 1:
                    v = -m
                else:
                    dealer_total = 17 + t
                    if s + 15 > dealer_total:
                        v = m
                    elif s + 15 < dealer_total:
                        v = -m
                    else:
                        v = self.rules.tie_value * m
                self.payoff[j * D_OUT + t] = v
        for r in range(D_RANKS):
            self.split_done[r] = False
            self.split_mean[r] = 0.0
        guard(self.split_out.assign(D_RANKS * D_OUT * D_LATTICE, 0.0))
        self.policy_missing = 0
        # a fractional shoe is no real shoe: its splits follow the solver's construction
        # (split_dist), so that the mean is the solve's value (docs/risk.md)
        self.compact = False
        self.law_len = D_LAW
        self.exact_two_hands = exact_splits and not infinite and not self.fractional
        for r in range(D_RANKS):
            self.exact_done[r] = False
        self.approx_splits_played = 0
        self.clear_hand()

    # ---- hand state ----------------------------------------------------------------

    cdef uint64_t context_key(self) noexcept nogil:
        """Memo key of the current hand in its context.  On an infinite shoe (optimal
        play) a hand's law depends only on its hard sum, whether it holds an ace and
        whether it still has two cards, as in the solver (whose recorded decisions, keyed
        by composition, are then the same across such hands)."""
        return cards_context_key(&self.hand, self.comp_key(),
                                 self.infinite and self.rules.split_class != POLICY)

    # ---- the shoe after the current hand ----------------------------------------------

    cdef void next_card_weights(self, double* pi) noexcept nogil:
        """pi[r]: chance the next card is r (the hand, its extra pair cards and the
        dealer's known cards out)."""
        cdef int r
        cdef double left
        if self.infinite:
            for r in range(D_RANKS):
                pi[r] = self.shoe[r]
            return
        left = self.cards_left(pi, True)
        for r in range(D_RANKS):
            pi[r] = pi[r] / left if left > 0.0 else 0.0

    cdef double cards_left(self, double* n, bint clamp) noexcept nogil:
        """n[r]: the cards of rank r left after the current hand, its extra pair cards
        and the dealer's known cards (with ``clamp``, a count below zero raised to zero);
        returns their total.  (Finite shoes.)"""
        cdef int r
        cdef double left = 0.0
        for r in range(D_RANKS):
            n[r] = self.shoe[r] - self.hand.cnt[r] - self.dealer_cnt[r]
        if self.hand.pair_rank:
            n[self.hand.pair_rank - 1] -= self.hand.extra
        for r in range(D_RANKS):
            if n[r] < 0.0 and clamp:
                n[r] = 0.0
            left += n[r]
        return left

    cdef double hole_chance(self) noexcept nogil:
        cdef double pi[D_RANKS]
        if self.hole_rank < 0:
            return 0.0
        self.next_card_weights(pi)
        return pi[self.hole_rank]

    cdef const double* dealer(self) noexcept nogil:
        """The dealer's outcome law (17..21, natural, bust) from the shoe left after the
        current hand; memoised on the cards out."""
        cdef uint64_t key = 0
        cdef double n[D_RANKS]
        cdef double out[6]
        cdef double left
        cdef int r, row
        if not self.infinite:
            key = self.removed_key()
        row = self.dealer_index.find(key)
        if row >= 0:
            return &self.dealer_store[row * D_OUT]
        if self.infinite:
            for r in range(D_RANKS):
                n[r] = self.shoe[r]
            left = 1.0
        else:
            # fractional: see prefetch_children, clamps_dealer_shoe
            left = self.cards_left(n, self.clamps_dealer_shoe(self.hand.hard_sum))
        self.trie.evaluate(n, left, self.infinite, out)
        row = self.store_dealer(key, out)
        return &self.dealer_store[row * D_OUT]

    cdef bint clamps_dealer_shoe(self, int hard_sum) noexcept nogil:
        """Whether the dealer's shoe after the current hand (of hard total ``hard_sum``;
        one card more for a child) has its counts below zero raised to zero, as the
        solver's has.  On whole cards always (such a shoe does not occur).  On a
        fractional shoe a rank may have less than one card left (0.9) and still be dealt;
        the solver takes the dealer's law after the cards gone (the hand, and a split
        hand's extra pair cards) with the negative count kept in the total where those
        cards could be an unsplit hand (at most 21: the law comes from the pass over the
        unsplit hands), and with it raised to zero for a split hand whose cards gone come
        to more (``_hands.split_dealer_for_current``)."""
        if not self.fractional:
            return True
        return self.hand.pair_rank != 0 and hard_sum + self.hand.extra * self.hand.pair_rank > 21

    cdef int store_dealer(self, uint64_t key, const double* out) noexcept nogil:
        cdef int r, row = <int>(self.dealer_store.size() // D_OUT)
        cdef double listed = 0.0
        for r in range(6):
            self.dealer_store.push_back(out[r])
            listed += out[r]
        # bust is the complement (a dealer who must draw from an empty shoe busts).  On a
        # fractional shoe a count below zero kept in the total (1.5 left, two drawn: -0.5)
        # can make the listed outcomes exceed one: the complement is then below zero, as
        # in the solver's stand values (stand_from_outcomes), so the law still sums to one
        # and its value is the solver's
        if self.fractional:
            self.dealer_store.push_back(1.0 - listed)
        else:
            self.dealer_store.push_back(1.0 - listed if listed < 1.0 else 0.0)
        self.dealer_index.set(key, row)
        return row

    cdef void prefetch_children(self) noexcept nogil:
        """Enumerate, in one pass over the dealer trie, the dealer laws of every child of
        the current hand (one more card, not bust) that is not memoised yet."""
        cdef double n[D_RANKS]
        cdef uint64_t base
        cdef double left = 0.0
        cdef int r
        if self.infinite:
            return
        base = self.removed_key()
        # On a fractional shoe a rank may hold less than one card (0.8 left): it is still
        # dealt, and the dealer's shoe after it is the solver's: the counts less the
        # cards drawn, negative ones included in the total (the trie counts no card of
        # such a rank), which is what the solver's prefetch passes to the trie; or, for
        # a split hand whose cards gone exceed 21, raised to zero (clamps_dealer_shoe).
        left = self.cards_left(n, not self.fractional)
        self.prefetch_from(n, left, base)

    cdef void prefetch_from(self, const double* n, double left, uint64_t base) noexcept nogil:
        """The dealer laws, memoised under ``base`` plus the card, of every shoe ``n``
        (``left`` cards) less one card the current hand can take without busting, that
        are not memoised yet: one pass over the dealer trie."""
        cdef double w[D_BATCH * D_RANKS]
        cdef double tot[D_BATCH]
        cdef double out[D_BATCH * 6]
        cdef uint64_t keys[D_BATCH]
        cdef uint64_t key
        cdef int r, q, count = 0
        for r in range(D_RANKS):
            if self.hand.hard_sum + r + 1 > 21:
                break
            if n[r] < 1.0 and not (self.fractional and n[r] > 0.0):
                continue
            key = base + rank_unit(r)
            if self.dealer_index.find(key) >= 0:
                continue
            for q in range(D_RANKS):
                w[count * D_RANKS + q] = n[q]
            w[count * D_RANKS + r] -= 1.0
            tot[count] = left - 1.0
            if self.fractional and self.clamps_dealer_shoe(self.hand.hard_sum + r + 1):
                tot[count] = 0.0
                for q in range(D_RANKS):
                    if w[count * D_RANKS + q] < 0.0:
                        w[count * D_RANKS + q] = 0.0
                    tot[count] += w[count * D_RANKS + q]
            keys[count] = key
            count += 1
        if count == 0:
            return
        self.trie.evaluate_many(w, tot, count, False, out)
        for q in range(count):
            self.store_dealer(keys[q], &out[q * 6])

    # ---- laws of the current hand ------------------------------------------------------

    cdef void leaf_add(self, double w, int mult, double* out) noexcept nogil:
        """out += w * the law of the current hand standing (or bust) with ``mult`` bets."""
        cdef const double* d = self.dealer()
        cdef int t, s
        if self.hand.hard_sum > 21:
            s = 0
        else:
            t = cards_total(&self.hand)
            s = 1 if t <= 16 else t - 15
        self.state_add(w, (mult - 1) * 7 + s, d, out)

    cdef void state_add(self, double w, int j, const double* d, double* out) noexcept nogil:
        """out += w * (final state j jointly with the dealer's law d), in full or, when
        compact, only its value and mass per dealer outcome."""
        cdef int t
        if self.compact:
            for t in range(D_OUT):
                out[t] += w * d[t] * self.payoff[j * D_OUT + t]
                out[D_OUT + t] += w * d[t]
            return
        for t in range(D_OUT):
            out[j * D_OUT + t] += w * d[t]

    cdef void bust_rest(self, const double* pi, double* rest) noexcept nogil:
        """rest[t] = the dealer's law joint with the next card busting the current hand.

        Removing one unseen card does not change the dealer's law, so summed over the
        next card r, pi_r * D(hand + r) is D(hand); the busting cards' share is D(hand)
        minus the others' (whose laws the recursion needs anyway), which spares a dealer
        enumeration for every bust composition."""
        cdef const double* d = self.dealer()
        cdef int r, t
        for t in range(D_OUT):
            rest[t] = d[t]
        for r in range(D_RANKS):
            if pi[r] <= 0.0 or self.hand.hard_sum + r + 1 > 21:
                continue
            self.add(r)
            d = self.dealer()
            for t in range(D_OUT):
                rest[t] -= pi[r] * d[t]
            self.remove(r)

    cdef void draw_add(self, double w, bint doubled, double* out) noexcept nogil:
        """out += w * the law of the current hand taking one card, then playing on (a hit:
        the strategy's option for the hand it makes) or, ``doubled``, standing with two
        bets."""
        cdef double pi[D_RANKS]
        cdef double rest[D_OUT]
        cdef int r
        cdef bint busts = False
        self.prefetch_children()
        self.next_card_weights(pi)
        for r in range(D_RANKS):
            if pi[r] <= 0.0:
                continue
            self.add(r)
            if self.hand.hard_sum > 21:
                busts = True
            elif doubled:
                self.leaf_add(w * pi[r], 2, out)
            else:
                self.continuation_add(w * pi[r], out)
            self.remove(r)
        if busts:
            self.bust_rest(pi, rest)
            self.state_add(w, 7 if doubled else 0, rest, out)   # bust with two bets or one

    cdef void double_add(self, double w, double* out) noexcept nogil:
        cdef double law[D_LAW]
        cdef int i
        if not (self.fractional and self.hole_rank >= 0 and not self.rules.natural_takes_all):
            self.draw_add(w, True, out)
            return
        memset(law, 0, sizeof(law))
        self.draw_add(1.0, True, law)
        self.natural_as_solver(law)
        for i in range(D_LAW):
            out[i] += w * law[i]

    cdef void natural_as_solver(self, double* law) noexcept nogil:
        """Give the law of doubling the current hand (``law``, weight 1; a fractional shoe,
        a game where a dealer natural takes one unit) the solver's chance of a natural.

        The solver charges a doubled hand two units times the natural's chance after its
        card and gives one back times the chance that the hole card makes a natural given
        the cards seen (the next card's weights).  On whole cards the two chances agree
        and are the law's natural row.  On a fractional shoe a count may be below zero
        after the hand (0.9 left, two drawn): the dealer's laws keep the negative count in
        the total, the next card's weights do not, and the law's value misses the solver's
        by the difference.  So mass moves, state by state, between a dealer natural (the
        doubled hand loses one unit) and the dealer's other outcomes where the doubled
        hand loses two, until the natural's chance is the solver's: the value is then the
        solver's double value, the hand's final states and the sum unchanged."""
        cdef double pi[D_RANKS]
        cdef double natural = 0.0, movable = 0.0, delta, f, moved, losses
        cdef int j, t
        self.next_card_weights(pi)
        for j in range(D_STATES):
            natural += law[j * D_OUT + 5]
        delta = pi[self.hole_rank] - natural    # natural mass wanted in addition
        if delta > 0.0:
            # from the two-unit losses (every state's in proportion) to a natural
            for j in range(D_STATES):
                for t in range(D_OUT):
                    if t != 5 and self.payoff[j * D_OUT + t] == -2.0:
                        movable += law[j * D_OUT + t]
            if movable <= 0.0:
                return
            f = delta / movable
            if f > 1.0:
                f = 1.0
            for j in range(D_STATES):
                moved = 0.0
                for t in range(D_OUT):
                    if t != 5 and self.payoff[j * D_OUT + t] == -2.0:
                        moved += f * law[j * D_OUT + t]
                        law[j * D_OUT + t] -= f * law[j * D_OUT + t]
                law[j * D_OUT + 5] += moved
        elif delta < 0.0:
            # from a natural to the two-unit losses of the same state
            for j in range(D_STATES):
                for t in range(D_OUT):
                    if t != 5 and self.payoff[j * D_OUT + t] == -2.0 and law[j * D_OUT + t] > 0.0:
                        movable += law[j * D_OUT + 5]
                        break
            if movable <= 0.0:
                return
            f = -delta / movable
            if f > 1.0:
                f = 1.0
            for j in range(D_STATES):
                losses = 0.0
                for t in range(D_OUT):
                    if t != 5 and self.payoff[j * D_OUT + t] == -2.0:
                        losses += law[j * D_OUT + t]
                if losses <= 0.0:
                    continue
                moved = f * law[j * D_OUT + 5]
                law[j * D_OUT + 5] -= moved
                for t in range(D_OUT):
                    if t != 5 and self.payoff[j * D_OUT + t] == -2.0:
                        law[j * D_OUT + t] += moved * law[j * D_OUT + t] / losses

    cdef void action_add(self, int action, double w, double* out) noexcept nogil:
        if action == HT:
            self.draw_add(w, False, out)
        elif action == DD:
            self.double_add(w, out)
        else:
            self.leaf_add(w, 1, out)

    cdef void continuation_add(self, double w, double* out) noexcept nogil:
        """out += w * the law of the option the strategy picks for the current hand."""
        cdef uint64_t key = self.context_key()
        cdef int row = self.law_index.find(key)
        cdef double local[D_LAW]
        cdef int i, a
        cdef const double* law
        if row < 0:
            memset(local, 0, self.law_len * sizeof(double))
            a = self.choose()
            self.action_add(a, 1.0, local)
            row = <int>(self.law_store.size() // self.law_len)
            for i in range(self.law_len):
                self.law_store.push_back(local[i])
            self.law_index.set(key, row)
        law = &self.law_store[row * self.law_len]
        for i in range(self.law_len):
            out[i] += w * law[i]

    # ---- decisions -----------------------------------------------------------------

    cdef int may_double(self) noexcept nogil:
        """The solver's rule (``double_allowed``) for the current hand's own cards."""
        return double_allowed(&self.rules, cards_total(&self.hand), cards_soft(&self.hand), self.hand.n_cards)

    cdef int policy_action(self, int kind) noexcept nogil:
        """The frozen decision of ``kind`` for the current hand (keyed as the value engine
        keys it: ``decision_key``); a decision the table lacks is counted and stands."""
        cdef int a = self.policy.get(decision_key(&self.hand, self.comp_key(), kind,
                                                  self.policy.split_context))
        if a < 0:
            self.policy_missing += 1
            return ST
        return a

    cdef int choose(self) noexcept nogil:
        """The option the strategy takes at a later decision (unsplit hand of 3+ cards, or
        any split hand): the frozen decision, split hands' as their post-split class keys
        them (docs/algorithms.md, "Post-split classes")."""
        if self.hand.pair_rank == 0:
            return self.policy_action(KIND_LATER)
        if self.hand.pair_rank == 1 and not self.rules.hit_split_aces:
            return ST    # split aces take one card and stand
        return self.policy_action(KIND_SPLIT)

    # ---- splits ------------------------------------------------------------------------

    cdef void pair_hand_law(self, int pair, int extra, int second, double* out) noexcept nogil:
        self.clear_hand()
        self.hand.pair_rank = pair
        self.hand.extra = extra
        self.add(pair - 1)
        self.add(second)
        self.continuation_add(1.0, out)
        self.clear_hand()

    cdef void combine_hands(self, double w, const double* law_n, int count_n,
                            const double* law_x, int count_x, double* out,
                            double* natural) noexcept nogil:
        """out += w * the round law of ``count_n`` hands with law ``law_n`` and ``count_x``
        with law ``law_x``, independent given the dealer's outcome.

        On a whole shoe both laws have the same dealer marginal (taking out cards nobody
        has seen leaves the dealer's law unchanged), read from the first.  On a fractional
        shoe they differ slightly: the dealer laws there clamp counts below one card
        (0.9 left, two drawn) and so do not obey that identity.  Then the dealer's outcome
        t takes the larger chance p(t) of the two laws, and a hand's results given t are its
        law's entries divided by p(t), the remainder 1 - p_i(t) / p(t) on a result of 0
        (worth 0, as a block the shoe cannot make): each hand then adds its own law's value
        to the mean, as it adds its block's value to the solver's split value.  There
        ``natural[0]`` gains w times the hands' summed chance of a dealer natural (see
        ``settle_fractional_split``)."""
        cdef double conv[17]
        cdef double nxt[17]
        cdef double q[D_RESULTS]
        cdef double p_t, p_i, p_n, p_x
        cdef const double* law
        cdef int t, j, g, c, k, i, count
        for t in range(D_OUT):
            if self.fractional:
                p_n = 0.0
                p_x = 0.0
                for j in range(D_STATES):
                    if count_n > 0:
                        p_n += law_n[j * D_OUT + t]
                    if count_x > 0:
                        p_x += law_x[j * D_OUT + t]
                p_t = p_n if p_n > p_x else p_x
                if t == 5:
                    natural[0] += w * (count_n * p_n + count_x * p_x)
            else:
                law = law_n if count_n > 0 else law_x
                p_t = 0.0
                for j in range(D_STATES):
                    p_t += law[j * D_OUT + t]
            if p_t == 0.0:
                continue
            if t == 5 and not self.rules.natural_takes_all:
                out[t * D_LATTICE + column(-1.0)] += w * p_t   # a natural takes one unit
                continue
            for k in range(17):
                conv[k] = 0.0
            conv[8] = 1.0
            for g in range(2):
                law = law_n if g == 0 else law_x
                count = count_n if g == 0 else count_x
                if count == 0:
                    continue
                p_i = 0.0
                for k in range(D_RESULTS):
                    q[k] = 0.0
                for j in range(D_STATES):
                    p_i += law[j * D_OUT + t]
                    q[<int>lround(self.payoff[j * D_OUT + t]) + 2] += law[j * D_OUT + t]
                if p_i == 0.0:
                    continue
                if self.fractional:
                    for k in range(D_RESULTS):
                        q[k] /= p_t
                    q[2] += 1.0 - p_i / p_t      # (the hand's results 0 sit at index 2)
                else:
                    for k in range(D_RESULTS):
                        q[k] /= p_i
                for c in range(count):
                    for k in range(17):
                        nxt[k] = 0.0
                    for k in range(17):
                        if conv[k] == 0.0:
                            continue
                        for i in range(D_RESULTS):
                            if 0 <= k + i - 2 < 17:
                                nxt[k + i - 2] += conv[k] * q[i]
                    for k in range(17):
                        conv[k] = nxt[k]
            for k in range(17):
                if conv[k] != 0.0:
                    out[t * D_LATTICE + ZERO_COL + 2 * (k - 8)] += w * p_t * conv[k]

    cdef void split_dist(self, int pair) noexcept nogil:
        """The round law of splitting ``pair``: the solver's split construction (docs/algorithms.md,
        "Splitting"), entry by entry."""
        cdef int M = self.hands_limit(pair)
        cdef int p = pair - 1, a, b, r, k, h, amax, i
        cdef vector[double] X, Y, XT, NT
        cdef double rho[D_RANKS]
        cdef double law[D_LAW]
        cdef double m, n, q, g, left, w, pp = 0.0
        cdef double* out = &self.split_out[p * D_OUT * D_LATTICE]
        cdef double mean = 0.0
        cdef double natural = 0.0      # fractional shoes: see combine_hands
        cdef int L = self.law_len    # a compact law is linear in the hands' laws too
        if self.split_done[p] or M < 2:
            return
        X.assign(D_MAX_A * L, 0.0)
        Y.assign(D_MAX_A * L, 0.0)
        XT.assign(D_MAX_A * D_MAX_A * L, 0.0)
        NT.assign(D_MAX_A * D_MAX_A * L, 0.0)
        amax = 2 * M - 4
        if not self.infinite and self.shoe[p] - 2 < amax:
            amax = <int>self.shoe[p] - 2
        for a in range(amax + 1):
            if self.infinite and a > 0:
                for i in range(L):
                    X[a * L + i] = X[i]
                    Y[a * L + i] = Y[i]
                continue
            if not split_context_weights(self.shoe, self.dealer_cnt, p, a, self.infinite, rho):
                continue
            self.clear_hand()
            self.hand.pair_rank = pair
            self.hand.extra = a + 1
            self.add(p)
            self.prefetch_children()      # every two-card split hand P + r at this e
            self.clear_hand()
            for r in range(D_RANKS):
                if rho[r] > 0.0:
                    memset(law, 0, sizeof(law))
                    self.pair_hand_law(pair, a + 1, r, law)
                    for i in range(L):
                        X[a * L + i] += rho[r] * law[i]
            if rho[p] > 0.0:
                memset(law, 0, sizeof(law))
                self.pair_hand_law(pair, a + 1, p, law)
                for i in range(L):
                    Y[a * L + i] = law[i]
        # the removal recursions X_{a,b}, N_{a,b}, entry by entry
        split_removal_counts(self.shoe, self.dealer_cnt, self.shoe_size, p, self.infinite,
                             &pp, &m, &n)
        q = n - m
        for a in range(2 * M - 3):
            g = unknown_pair_chance(self.infinite, m, n, a, 0, pp)
            for i in range(L):
                XT[(a * D_MAX_A) * L + i] = X[a * L + i]
                NT[(a * D_MAX_A) * L + i] = remove_unknown(X[a * L + i],
                                                              Y[a * L + i], g)
        for b in range(1, 2 * M - 3):
            for a in range(2 * M - 3 - b):
                g = unknown_pair_chance(self.infinite, m, n + 1, a, b, pp)
                for i in range(L):
                    XT[(a * D_MAX_A + b) * L + i] = remove_unknown(
                        XT[(a * D_MAX_A + b - 1) * L + i],
                        XT[((a + 1) * D_MAX_A + b - 1) * L + i], g)
                g = unknown_pair_chance(self.infinite, m, n, a, b, pp)
                for i in range(L):
                    NT[(a * D_MAX_A + b) * L + i] = remove_unknown(
                        NT[(a * D_MAX_A + b - 1) * L + i],
                        NT[((a + 1) * D_MAX_A + b - 1) * L + i], g)
        # the patterns of hands: exactly h < M hands, or the limit M with k completed
        for h in range(2, M):
            w = (1.0 if h == 2 else 2.0) * pair_draw_ratio(self.infinite, m, q, n, h - 2, h, pp)
            if w != 0.0:
                self.combine_hands(w, &NT[((h - 2) * D_MAX_A + h - 1) * L], h,
                                   NULL, 0, out, &natural)
        for k in range(M - 1):
            w = (2.0 if (M == 4 and k >= 1) else 1.0) * pair_draw_ratio(self.infinite, m, q, n,
                                                                          M - 2, k, pp)
            if w != 0.0:
                self.combine_hands(w, &NT[((M - 2) * D_MAX_A + (k - 1 if k > 0 else 0)) * L],
                                   k, &XT[((M - 2) * D_MAX_A + k) * L], M - k, out,
                                   &natural)
        if self.fractional:
            self.settle_fractional_split(pair, M, natural, out)
        for i in range(D_OUT * D_LATTICE):
            k = i % D_LATTICE
            if k != D_NATURAL_COL:
                mean += out[i] * 0.5 * (k - ZERO_COL)
        self.split_mean[p] = mean
        self.split_done[p] = True

    cdef void settle_fractional_split(self, int pair, int M, double natural,
                                      double* out) noexcept nogil:
        """A shoe with fractional counts is no real shoe (the solver interpolates between
        real ones); the split law keeps the solver's split value as its mean and sums to
        one, as follows.

        * A dealer natural: the solver values each split hand with a natural taking its
          bet and adds back (expected hands - 1) x the natural's chance (its formula,
          ``natural_refund_units``).  On whole cards the hands' chances of a natural add
          up to exactly that; on a fractional shoe they do not, so the natural's row is
          set to the solver's figure: the hands' summed chance (``natural``, from
          ``combine_hands``) less the refund.
        * The split construction meets blocks for more pair cards than such a shoe holds
          (``amax`` in split_dist); it leaves them at zero, as the solver does.  On whole
          cards their weights vanish; on fractional counts they do not, and the law falls
          short of one by their weight (up to ~1e-5); ``combine_hands`` may also give a
          little more than one (the larger of two dealer chances).  The solver counts
          those blocks as worth 0, so the difference goes on a net result of 0: added
          over the dealer's outcomes as the rest of the law is, taken from the results of
          0 in proportion to them; the mean is unchanged.
        """
        cdef double total = 0.0, row, short, zeros = 0.0
        cdef double rows[D_OUT]
        cdef const double* d
        cdef int t, k
        cdef bint natural_rule = self.hole_rank >= 0 and not self.rules.natural_takes_all
        if natural_rule and natural > 0.0:
            out[5 * D_LATTICE + column(-1.0)] = natural - self.natural_refund_units(pair, M)
        for t in range(D_OUT):
            row = 0.0
            for k in range(D_LATTICE):
                row += out[t * D_LATTICE + k]
            rows[t] = row
            total += row
        short = 1.0 - total
        if natural_rule:
            total -= rows[5]      # the natural's row is settled above
            rows[5] = 0.0
        if total > 0.0 and short >= 0.0:
            for t in range(D_OUT):
                out[t * D_LATTICE + ZERO_COL] += short * rows[t] / total
        elif total > 0.0:
            for t in range(D_OUT):
                if rows[t] != 0.0:
                    zeros += out[t * D_LATTICE + ZERO_COL]
            for t in range(D_OUT):
                if rows[t] != 0.0:
                    out[t * D_LATTICE + ZERO_COL] += short * (out[t * D_LATTICE + ZERO_COL]
                                                              / zeros)
        else:
            # no block at all (e.g. both dealer cards and both of the player's of a rank
            # holding 3.9 cards: -0.1 left): the solver values the split 0, and may play
            # it; the dealer's outcomes are those from the shoe less the player's pair
            self.clear_hand()
            self.add(pair - 1)
            self.add(pair - 1)
            d = self.dealer()
            for t in range(D_OUT):
                out[t * D_LATTICE + ZERO_COL] += short * d[t]
            self.clear_hand()

    cdef double natural_refund_units(self, int pair, int M) noexcept nogil:
        """What the solver's split value adds back for a dealer natural taking one unit,
        not one per hand (finite shoe, hole-card games): the solver's own formula,
        ``_defs.natural_refund_finite``."""
        cdef double rho[D_RANKS]
        cdef int r, p = pair - 1
        for r in range(D_RANKS):
            rho[r] = self.shoe[r] - self.dealer_cnt[r]
        rho[p] -= 2
        return natural_refund_finite(rho, p, self.hole_rank, M)

    # ---- exact two-hand splits: the tree of a split hand's play ---------------------
    #
    # The probability of a whole sequence of cards drawn without replacement depends only
    # on the multiset drawn.  So the joint law of (first hand's final state, second hand's
    # final state, dealer's outcome) is: for every way the first hand can end (its cards
    # C1 and state j1, weighted by the chance of reaching them), the joint law of the
    # second hand and the dealer on the shoe less C1.
    #
    # Both hands of a two-hand split play the same fixed decisions (the split class's,
    # which do not look at the other hand's cards), so the tree of a split hand's play
    # (its compositions, the action taken at each, its leaves) is built once; only the
    # chances along it and the dealer's laws at its leaves depend on the cards the first
    # hand took.  One forward pass over the tree in topological order gives the chance of
    # reaching every node from any shoe.

    cdef void split_tree(self, int pair) noexcept nogil:
        """Build the tree of a split hand of ``pair`` (the solver's decisions)."""
        cdef unordered_map[uint64_t, int] decision_index, leaf_index
        cdef unordered_map[uint64_t, int].iterator found
        cdef vector[int] level, nxt
        cdef double pi[D_RANKS]
        cdef uint64_t key, child_key
        cdef int idx, a, r, child, total, s
        cdef size_t i
        self.t_key.clear()
        self.t_kind.clear()
        self.t_state.clear()
        self.t_busts.clear()
        self.t_child.clear()
        self.clear_hand()
        self.hand.pair_rank = pair
        self.hand.extra = 1
        self.add(pair - 1)
        self.t_key.push_back(self.comp_key())
        self.t_kind.push_back(T_HIT)
        self.t_state.push_back(0)
        self.t_busts.push_back(0)
        for r in range(D_RANKS):
            self.t_child.push_back(-1)
        level.push_back(0)
        while level.size() > 0:
            nxt.clear()
            for i in range(level.size()):
                idx = level[i]
                self.set_hand_from_key(self.t_key[idx])
                a = HT if self.hand.n_cards == 1 else self.choose()
                if a != HT and a != DD:
                    total = cards_total(&self.hand)
                    s = 1 if total <= 16 else total - 15
                    self.t_kind[idx] = T_STAND
                    self.t_state[idx] = s
                    continue
                self.t_kind[idx] = T_HIT if a == HT else T_DOUBLE
                self.next_card_weights(pi)
                for r in range(D_RANKS):
                    if pi[r] <= 0.0:
                        continue
                    if self.hand.hard_sum + r + 1 > 21 and a == HT:
                        self.t_busts[idx] = 1   # (hit busts: the root's law less the rest)
                        continue
                    # a doubled hand that busts is a leaf of its own, with its own dealer
                    # law: a bust share taken as a node's law less its other children's
                    # would not pair up when both hands of a split bust doubled hands
                    self.add(r)
                    child_key = self.comp_key()
                    if a == HT:
                        found = decision_index.find(child_key)
                        if found != decision_index.end():
                            child = deref(found).second
                        else:
                            child = <int>self.t_key.size()
                            decision_index[child_key] = child
                            nxt.push_back(child)
                    else:
                        found = leaf_index.find(child_key)
                        if found != leaf_index.end():
                            child = deref(found).second
                        else:
                            child = <int>self.t_key.size()
                            leaf_index[child_key] = child
                    if child == <int>self.t_key.size():
                        total = cards_total(&self.hand)
                        s = 0 if total > 21 else (1 if total <= 16 else total - 15)
                        self.t_key.push_back(child_key)
                        self.t_kind.push_back(T_HIT if a == HT else T_DOUBLED)
                        self.t_state.push_back(0 if a == HT else 7 + s)
                        self.t_busts.push_back(0)
                        for s in range(D_RANKS):
                            self.t_child.push_back(-1)
                    self.t_child[idx * D_RANKS + r] = child
                    self.remove(r)
            level.swap(nxt)
        # the children of a node some card busts need the dealer's law too (bit 2)
        for i in range(self.t_key.size()):
            if self.t_busts[i] & 1:
                for r in range(D_RANKS):
                    child = self.t_child[i * D_RANKS + r]
                    if child >= 0:
                        self.t_busts[child] |= 2
        # what tree_split needs the dealer's law at: the root (the law of every ending
        # together), the leaves and the double nodes some card busts; the hit nodes'
        # busts are the root's law minus all the rest (see tree_split)
        self.t_need.clear()
        self.t_need_pos.assign(self.t_key.size(), -1)
        self.t_hit_busts = False
        self.t_slot_max = 0
        self.t_cnt.assign(self.t_key.size() * D_RANKS, 0.0)
        for i in range(self.t_key.size()):
            for r in range(D_RANKS):
                self.t_cnt[i * D_RANKS + r] = <int>((self.t_key[i] >> (5 * r)) & 31)
            if self.t_kind[i] == T_HIT and self.t_busts[i] & 1:
                self.t_hit_busts = True
            if (i == 0 or self.t_kind[i] >= T_STAND
                    or (self.t_kind[i] == T_DOUBLE and self.t_busts[i] & 1)):
                self.t_need_pos[i] = <int>self.t_need.size()
                self.t_need.push_back(<int>i)
                self.t_slot_max += 1 if self.t_kind[i] >= T_STAND else 1 + D_RANKS
        self.clear_hand()
        self.t_reach.assign(self.t_key.size(), 0.0)
        self.t_pi.assign(self.t_key.size() * D_RANKS, 0.0)
        self.t_drow.assign(self.t_key.size(), -1)

    cdef void tree_pass(self, int pair, const double* base, uint64_t ext_key,
                        bint need_dealer) noexcept nogil:
        """Chances of reaching every node (``t_reach``) and of each next card at the draw
        nodes (``t_pi``) when ``base[r]`` cards of rank r are left besides the hand's
        own; with ``need_dealer``, make sure the dealer's law is stored for every node
        the results need (leaves, draw nodes some card busts), in batched trie passes."""
        cdef size_t n = self.t_key.size()
        cdef size_t i
        cdef int r, c, q, count = 0
        cdef uint64_t key, unit_pair = rank_unit(pair - 1)
        cdef double left, x
        cdef double* pi
        cdef double w[D_TRIE_BATCH * D_RANKS]
        cdef double tot[D_TRIE_BATCH]
        cdef double out[D_TRIE_BATCH * 6]
        cdef uint64_t keys[D_TRIE_BATCH]
        cdef int nodes[D_TRIE_BATCH]
        for i in range(n):
            self.t_reach[i] = 0.0
        self.t_reach[0] = 1.0
        for i in range(n):
            if self.t_reach[i] == 0.0:
                continue
            key = self.t_key[i]
            if need_dealer and (self.t_kind[i] >= T_STAND or self.t_busts[i] != 0):
                key = key + unit_pair + ext_key
                c = self.dealer_index.find(key)
                if c >= 0:
                    self.t_drow[i] = c
                else:
                    left = 0.0
                    for r in range(D_RANKS):
                        x = base[r] - <int>((self.t_key[i] >> (5 * r)) & 31)
                        if x < 0.0:
                            x = 0.0
                        w[count * D_RANKS + r] = x
                        left += x
                    tot[count] = left
                    keys[count] = key
                    nodes[count] = <int>i
                    count += 1
                    if count == D_TRIE_BATCH:
                        self.trie.evaluate_many(w, tot, count, False, out)
                        for q in range(count):
                            self.t_drow[nodes[q]] = self.store_dealer(keys[q], &out[q * 6])
                        count = 0
            if self.t_kind[i] >= T_STAND:
                continue
            pi = &self.t_pi[i * D_RANKS]
            left = 0.0
            for r in range(D_RANKS):
                x = base[r] - <int>((self.t_key[i] >> (5 * r)) & 31)
                pi[r] = x if x > 0.0 else 0.0
                left += pi[r]
            if left <= 0.0:
                self.tree_ran_out = True   # a draw from an empty shoe: no real game
            else:
                x = self.t_reach[i] / left
                for r in range(D_RANKS):
                    c = self.t_child[i * D_RANKS + r]
                    if c >= 0 and pi[r] > 0.0:
                        self.t_reach[c] += x * pi[r]
                    pi[r] = pi[r] / left
        if count > 0:
            self.trie.evaluate_many(w, tot, count, False, out)
            for q in range(count):
                self.t_drow[nodes[q]] = self.store_dealer(keys[q], &out[q * 6])

    cdef const double* second_results(self, int pair, uint64_t first_key) noexcept nogil:
        """Q[t * D_RESULTS + k]: the chance that the second split hand's result is k - 2
        units while the dealer ends in t, when the first hand ended holding
        ``first_key`` (its pair card included); memoised.  The pointer is valid until the
        next call."""
        cdef unordered_map[uint64_t, int].iterator it = self.second_index.find(first_key)
        cdef double q[D_OUT * D_RESULTS]
        cdef double base[D_RANKS]
        cdef double rest[D_OUT]
        cdef const double* d
        cdef uint64_t ext, unit_pair = rank_unit(pair - 1)
        cdef size_t i, n = self.t_key.size()
        cdef int r, t, c, row, bet
        cdef double reach
        if it != self.second_index.end():
            return &self.second_store[deref(it).second * D_OUT * D_RESULTS]
        ext = first_key - unit_pair               # the first hand's drawn cards
        for r in range(D_RANKS):
            base[r] = self.shoe[r] - self.dealer_cnt[r] - <int>((ext >> (5 * r)) & 31)
        base[pair - 1] -= 1                       # the first hand's pair card
        self.tree_pass(pair, base, ext, True)
        memset(q, 0, sizeof(q))
        for i in range(n):
            reach = self.t_reach[i]
            if reach == 0.0:
                continue
            if self.t_kind[i] >= T_STAND:
                d = &self.dealer_store[self.t_drow[i] * D_OUT]
                for t in range(D_OUT):
                    q[t * D_RESULTS + <int>self.payoff[self.t_state[i] * D_OUT + t] + 2] += (
                        reach * d[t])
            elif self.t_busts[i] & 1:
                # the busting cards' share: the node's dealer law minus the other children's
                d = &self.dealer_store[self.t_drow[i] * D_OUT]
                for t in range(D_OUT):
                    rest[t] = d[t]
                for r in range(D_RANKS):
                    c = self.t_child[i * D_RANKS + r]
                    if c >= 0 and self.t_pi[i * D_RANKS + r] > 0.0:
                        d = &self.dealer_store[self.t_drow[c] * D_OUT]
                        for t in range(D_OUT):
                            rest[t] -= self.t_pi[i * D_RANKS + r] * d[t]
                bet = 2 if self.t_kind[i] == T_DOUBLE else 1
                for t in range(D_OUT):
                    q[t * D_RESULTS + 2 - bet] += reach * rest[t]
        row = <int>(self.second_store.size() // (D_OUT * D_RESULTS))
        for r in range(D_OUT * D_RESULTS):
            self.second_store.push_back(q[r])
        self.second_index[first_key] = row
        return &self.second_store[row * D_OUT * D_RESULTS]

    cdef int queue_dealer(self, uint64_t key, const double* base,
                          uint64_t hand_key) noexcept nogil:
        """The row of ``dealer_store`` for the dealer's law with ``key``'s cards out (the
        shoe ``base`` less the hand ``hand_key``).  A law not stored yet gets its row at
        once and is queued; ``flush_dealer`` enumerates the queue D_TRIE_BATCH shoes per
        trie pass and fills the rows (read a row only after the flush)."""
        cdef int row = self.dealer_index.find(key)
        cdef int r, k
        cdef double x, left = 0.0
        if row >= 0:
            return row
        row = <int>(self.dealer_store.size() // D_OUT)
        for r in range(D_OUT):
            self.dealer_store.push_back(0.0)
        self.dealer_index.insert(key, row)
        k = self.pend_count
        for r in range(D_RANKS):
            x = base[r] - <int>((hand_key >> (5 * r)) & 31)
            if x < 0.0:
                x = 0.0
            self.pend_w[k * D_RANKS + r] = x
            left += x
        self.pend_tot[k] = left
        self.pend_row[k] = row
        self.pend_count = k + 1
        if self.pend_count == D_TRIE_BATCH:
            self.flush_dealer()
        return row

    cdef void flush_dealer(self) noexcept nogil:
        """Enumerate the queued dealer shoes (one trie pass) into their reserved rows."""
        cdef double out[D_TRIE_BATCH * 6]
        cdef double listed
        cdef double* d
        cdef int q, r
        if self.pend_count == 0:
            return
        self.trie.evaluate_many(self.pend_w, self.pend_tot, self.pend_count, False, out)
        for q in range(self.pend_count):
            d = &self.dealer_store[self.pend_row[q] * D_OUT]
            listed = 0.0
            for r in range(6):
                d[r] = out[q * 6 + r]
                listed += out[q * 6 + r]
            # bust is the complement, as in store_dealer
            d[6] = 1.0 - listed if listed < 1.0 else 0.0
        self.pend_count = 0

    cdef void reach_pass(self, const double* base) noexcept nogil:
        """``tree_pass`` without the dealer: the chance of reaching every node
        (``t_reach``) from the shoe ``base`` (the same arithmetic; node counts read from
        ``t_cnt``); the next-card chances (``t_pi``) are normalised only at the double
        nodes some card busts (elsewhere they are left as card counts)."""
        cdef size_t n = self.t_key.size()
        cdef size_t i
        cdef int r, c
        cdef double left, x, reach
        cdef double* pi
        cdef const double* cnt
        cdef double* rch = &self.t_reach[0]
        for i in range(n):
            rch[i] = 0.0
        rch[0] = 1.0
        for i in range(n):
            reach = rch[i]
            if reach == 0.0 or self.t_kind[i] >= T_STAND:
                continue
            pi = &self.t_pi[i * D_RANKS]
            cnt = &self.t_cnt[i * D_RANKS]
            left = 0.0
            for r in range(D_RANKS):
                x = base[r] - cnt[r]
                pi[r] = x if x > 0.0 else 0.0
                left += pi[r]
            if left <= 0.0:
                self.tree_ran_out = True   # a draw from an empty shoe: no real game
                continue
            x = reach / left
            for r in range(D_RANKS):
                c = self.t_child[i * D_RANKS + r]
                if c >= 0 and pi[r] > 0.0:
                    rch[c] += x * pi[r]
            if self.t_kind[i] == T_DOUBLE and self.t_busts[i] & 1:
                for r in range(D_RANKS):    # (only hand_slots' doubled busts read pi)
                    pi[r] = pi[r] / left

    cdef int hand_slots(self, int pair, const double* base, uint64_t ext,
                        int from_node) noexcept nogil:
        """One hand of a two-hand split played from the shoe ``base`` (the cards left
        besides the hand's own; ``ext``: the other hand's drawn cards, also out): the
        chances along its tree (``reach_pass``), then, appended to the slots ``s_*``,
        its endings as (node, dealer row, signed weight, final state):

        * a stand or doubled leaf: its chance, its state;
        * a double node X some card busts: the doubled busts' share of the dealer's law
          is P(X) D(X) - sum over the other cards r of P(X) pi_r D(X + r) (taking one
          unseen card out does not change the dealer's law): a slot for X and one for
          each child, state 7 (bust with two bets);
        * the busts of hit nodes: every ending of the hand together has the dealer's law
          of the root (the pair card alone), so they are the root's law less all the
          other slots -- a slot for the root (state D_STATES: "bust with one bet"), and
          each other slot counts minus once at "bust with one bet" (``slot_results``).
          This spares the dealer's law of every hit node.

        ``from_node`` < 0: the first hand, every slot, no dealer rows (-1).  Otherwise
        the second hand when the first ended at need node ``from_node``: only slots at
        nodes >= from_node, those beyond it weighted twice (the two hands play the same
        tree and P(first ends at a, second at b) = P(first at b, second at a): the pair
        (a, b) stands for (b, a) too), with their dealer rows queued (``queue_dealer``).
        Returns the root's dealer row (or -1)."""
        cdef uint64_t unit_pair = rank_unit(pair - 1)
        cdef size_t k, k0 = 0, m = self.t_need.size()
        cdef int c, ch, r, row, root_row = -1
        cdef double reach, pr, twice
        cdef bint need_dealer = from_node >= 0
        cdef size_t at = self.s_count
        self.reach_pass(base)
        if need_dealer:
            k0 = <size_t>self.t_need_pos[from_node]
            for k in range(k0, m):
                c = self.t_need[k]
                if self.t_reach[c] != 0.0:
                    self.t_drow[c] = self.queue_dealer(self.t_key[c] + unit_pair + ext,
                                                       base, self.t_key[c])
            if k0 == 0:
                root_row = self.t_drow[0]
        if k0 == 0 and self.t_hit_busts:
            self.s_node[at] = 0
            self.s_row[at] = root_row
            self.s_w[at] = 1.0
            self.s_state[at] = D_STATES
            at += 1
        for k in range(k0 if k0 > 0 else 1, m):
            c = self.t_need[k]
            reach = self.t_reach[c]
            if reach == 0.0:
                continue
            twice = 2.0 if need_dealer and c != from_node else 1.0
            row = self.t_drow[c] if need_dealer else -1
            self.s_node[at] = c
            self.s_row[at] = row
            self.s_w[at] = twice * reach
            if self.t_kind[c] >= T_STAND:
                self.s_state[at] = self.t_state[c]
                at += 1
                continue
            self.s_state[at] = 7                      # a double node some card busts
            at += 1
            for r in range(D_RANKS):
                ch = self.t_child[c * D_RANKS + r]
                pr = self.t_pi[c * D_RANKS + r]
                if ch >= 0 and pr > 0.0:
                    self.s_node[at] = ch
                    self.s_row[at] = self.t_drow[ch] if need_dealer else -1
                    self.s_w[at] = -2.0 * reach * pr if need_dealer else -reach * pr
                    self.s_state[at] = 7
                    at += 1
        self.s_count = at
        return root_row

    cdef void slot_results(self, size_t first, size_t last, double* q) noexcept nogil:
        """q[t * D_RESULTS + k]: the weight of the hand's result k - 2 units joint with
        the dealer's outcome t, from the slots first .. last - 1 (dealer rows filled;
        see hand_slots for the root's slot and the hit nodes' busts)."""
        cdef const double* d
        cdef double w, x
        cdef size_t s
        cdef int j, t
        memset(q, 0, D_OUT * D_RESULTS * sizeof(double))
        for s in range(first, last):
            d = &self.dealer_store[self.s_row[s] * D_OUT]
            w = self.s_w[s]
            j = self.s_state[s]
            if j == D_STATES:                     # the root: bust with one bet, -1
                for t in range(D_OUT):
                    q[t * D_RESULTS + 1] += w * d[t]
                continue
            j *= D_OUT
            for t in range(D_OUT):
                x = w * d[t]
                q[t * D_RESULTS + self.result_col[j + t]] += x
                if self.t_hit_busts:
                    q[t * D_RESULTS + 1] -= x

    cdef void tree_split(self, int pair) noexcept nogil:
        """The exact round law of splitting ``pair`` into two hands (no resplit) on a
        finite shoe, into ``split_out``.

        The first hand's pass (``hand_slots``) lists its endings (slots: leaves, the
        signed terms of doubled busts and of hit busts) with their chances; for each
        node a first hand may end at, the second hand is played from the shoe less
        that node's cards, giving its results joint with the dealer (``slot_results``,
        over the slots at that node and beyond, the latter twice: each unordered pair
        of endings once).  The dealer laws the second hands need are queued for
        D_CHUNK first-hand nodes at a time and enumerated D_TRIE_BATCH to a trie pass."""
        cdef int p = pair - 1
        cdef uint64_t unit_pair = rank_unit(p)
        cdef double* out = &self.split_out[p * D_OUT * D_LATTICE]
        cdef double base[D_RANKS]
        cdef vector[int] f_node, f_state, ends
        cdef vector[double] f_w
        cdef vector[size_t] offsets
        cdef const double* q
        cdef uint64_t ext
        cdef size_t i, e, start, stop, m, f_count
        cdef int r, j, t, c
        cdef double w
        for i in range(D_OUT * D_LATTICE):
            out[i] = 0.0
        self.tree_ran_out = False
        self.split_tree(pair)
        m = self.t_need.size()
        for j in range(D_STATES):
            for t in range(D_OUT):
                self.result_col[j * D_OUT + t] = <int>lround(self.payoff[j * D_OUT + t]) + 2
        for r in range(D_RANKS):
            base[r] = self.shoe[r] - self.dealer_cnt[r]
        base[p] -= 1                              # the other hand's pair card
        self.size_slots(self.t_slot_max)
        self.hand_slots(pair, base, 0, -1)
        self.h1_reach = self.t_reach
        f_count = self.s_count
        f_node.swap(self.s_node)
        f_w.swap(self.s_w)
        f_state.swap(self.s_state)
        for i in range(m):                        # the nodes a first hand may end at
            if self.h1_reach[self.t_need[i]] != 0.0:
                ends.push_back(<int>i)
        self.need_q.assign(m * D_OUT * D_RESULTS, 0.0)
        self.pend_count = 0
        self.size_slots(D_CHUNK * self.t_slot_max)
        start = 0
        while start < ends.size():
            stop = start + D_CHUNK
            if stop > ends.size():
                stop = ends.size()
            self.s_count = 0
            offsets.clear()
            offsets.push_back(0)
            for e in range(start, stop):
                c = self.t_need[ends[e]]
                ext = self.t_key[c] - unit_pair     # the first hand's drawn cards
                for r in range(D_RANKS):
                    base[r] = self.shoe[r] - self.dealer_cnt[r] - <int>((ext >> (5 * r)) & 31)
                base[p] -= 1                      # the first hand's pair card
                self.hand_slots(pair, base, ext, c)
                offsets.push_back(self.s_count)
            self.flush_dealer()
            for e in range(start, stop):
                self.slot_results(offsets[e - start], offsets[e - start + 1],
                                  &self.need_q[ends[e] * D_OUT * D_RESULTS])
            start = stop
        # the round: every slot of the first hand against the second's results
        for i in range(f_count):
            q = &self.need_q[self.t_need_pos[f_node[i]] * D_OUT * D_RESULTS]
            w = f_w[i]
            if f_state[i] == D_STATES:
                self.add_results(w, 0, q, out)
                continue
            self.add_results(w, f_state[i], q, out)
            if self.t_hit_busts:
                self.add_results(-w, 0, q, out)
        self.tree_nodes = <int64_t>self.t_key.size()
        self.second_laws = <int64_t>ends.size()
        self.size_slots(0)

    cdef void size_slots(self, size_t count) noexcept nogil:
        """Room for ``count`` slots (hand_slots writes them without growing)."""
        self.s_node.resize(count)
        self.s_row.resize(count)
        self.s_w.resize(count)
        self.s_state.resize(count)
        self.s_count = 0

    cdef void exact_two_hands_law(self, int pair) noexcept nogil:
        """``split_out`` of ``pair`` by the exact two-hand law; if a hand could draw from
        an empty shoe (a shoe too small for the round: no real game), the independent
        combination instead, which follows the solver's degenerate conventions."""
        cdef int i
        cdef double* out = &self.split_out[(pair - 1) * D_OUT * D_LATTICE]
        self.tree_split(pair)
        if not self.tree_ran_out:
            self.exact_done[pair - 1] = True
            return
        for i in range(D_OUT * D_LATTICE):
            out[i] = 0.0
        self.split_done[pair - 1] = False
        self.split_dist(pair)

    cdef void add_results(self, double w, int j1, const double* q,
                          double* out) noexcept nogil:
        """out += w * (first hand in state j1) x (second hand's results with the dealer)."""
        cdef int t, k
        cdef double mass, v1
        for t in range(D_OUT):
            if t == 5 and not self.rules.natural_takes_all:
                mass = 0.0
                for k in range(D_RESULTS):
                    mass += q[t * D_RESULTS + k]
                out[t * D_LATTICE + column(-1.0)] += w * mass   # a natural takes one unit
                continue
            v1 = self.payoff[j1 * D_OUT + t]
            for k in range(D_RESULTS):
                if q[t * D_RESULTS + k] != 0.0:
                    out[t * D_LATTICE + column(v1 + k - 2)] += w * q[t * D_RESULTS + k]

    cdef void set_hand_from_key(self, uint64_t key) noexcept nogil:
        """The current hand's cards from a composition key (pair context unchanged)."""
        cdef int r, c
        self.hand.hard_sum = 0
        self.hand.n_cards = 0
        for r in range(D_RANKS):
            c = <int>((key >> (5 * r)) & 31)
            self.hand.cnt[r] = c
            self.hand.hard_sum += c * (r + 1)
            self.hand.n_cards += c

    # ---- the round ------------------------------------------------------------------

    cdef double surrender_value(self) noexcept nogil:
        return surrender_worth(&self.rules, self.hole_chance())

    cdef int start_action(self, int c1, int c2) noexcept nogil:
        """The round-start choice for the two-card hand c1, c2 (the current hand): the
        frozen one."""
        cdef bint split_ok = c1 == c2 and self.hands_limit(c1 + 1) >= 2
        cdef int a = self.policy_action(KIND_START)
        if a == SP and not split_ok:
            a = ST
        return a

    cdef void round_dist(self) noexcept nogil:
        cdef double n[D_RANKS]
        cdef double law[D_LAW]
        cdef double left = 0.0, w, tie, dealt = 0.0
        cdef double dd[D_OUT]
        cdef const double* d
        cdef const double* sp
        cdef int c1, c2, a, t, j, i
        cdef bint split_ok
        memset(self.round_out, 0, sizeof(self.round_out))
        self.splits_played = 0
        for c1 in range(D_RANKS):
            n[c1] = self.shoe[c1]
            if not self.infinite:
                n[c1] -= self.dealer_cnt[c1]
            left += n[c1]
        for c1 in range(D_RANKS):
            self.clear_hand()
            self.add(c1)
            self.prefetch_children()          # every starting hand c1 + c2
            self.clear_hand()
            for c2 in range(c1, D_RANKS):
                w = first_two_chance(n, left, c1, c2, self.infinite)
                if c1 != c2:
                    w *= 2.0
                if w <= 0.0:
                    continue
                dealt += w
                self.clear_hand()
                self.add(c1)
                self.add(c2)
                a = self.start_action(c1, c2)
                if a == SP:
                    self.splits_played += 1
                    self.split_dist(c1 + 1)
                    if self.exact_two_hands and self.hands_limit(c1 + 1) == 2:
                        if not self.exact_done[c1]:
                            self.exact_two_hands_law(c1 + 1)
                    if not self.exact_done[c1]:
                        self.approx_splits_played += 1
                    sp = &self.split_out[c1 * D_OUT * D_LATTICE]
                    for i in range(D_OUT * D_LATTICE):
                        self.round_out[i] += w * sp[i]
                elif a == SU:
                    d = self.start_dealer_outcomes(dd)
                    for t in range(D_OUT):
                        if self.rules.surrender == 2 or t != 5:
                            self.round_out[t * D_LATTICE + column(-0.5)] += w * d[t]
                        else:
                            self.round_out[t * D_LATTICE + column(-1.0)] += w * d[t]
                elif a == ST and cards_natural(&self.hand):
                    d = self.start_dealer_outcomes(dd)
                    tie = self.rules.natural_tie_value
                    for t in range(D_OUT):
                        if t == 5 and tie != self.rules.blackjack_payout:
                            self.round_out[t * D_LATTICE + column(tie)] += w * d[t]
                        else:
                            self.round_out[t * D_LATTICE + D_NATURAL_COL] += w * d[t]
                else:
                    memset(law, 0, sizeof(law))
                    self.action_add(a, 1.0, law)
                    if self.compact:        # the value given t, on the column of +1
                        for t in range(D_OUT):
                            self.round_out[t * D_LATTICE + column(1.0)] += w * law[t]
                        self.clear_hand()
                        continue
                    for j in range(D_STATES):
                        for t in range(D_OUT):
                            self.round_out[t * D_LATTICE + column(self.payoff[j * D_OUT + t])] += (
                                w * law[j * D_OUT + t])
                self.clear_hand()
        if self.fractional:
            self.settle_start_weights(1.0 - dealt)

    cdef const double* start_dealer_outcomes(self, double* dd) noexcept nogil:
        """The dealer's outcomes after the current two-card hand for a natural or a
        surrender: the dealer's law (whole cards), or on a fractional shoe with a hole
        card, that law with the natural's chance the solver's (the hole card's chance
        given the cards seen, ``hole_chance``), the other outcomes scaled to the rest.
        The two differ where the hand leaves a count below zero (1.6 aces, an ace up and
        one in the hand), which the dealer's law keeps in its total."""
        cdef const double* d = self.dealer()
        cdef double beta, rest
        cdef int t
        if not self.fractional or self.hole_rank < 0:
            return d
        beta = self.hole_chance()
        rest = 1.0 - d[5]
        for t in range(D_OUT):
            dd[t] = d[t] * (1.0 - beta) / rest if rest > 0.0 else 0.0
        dd[5] = beta
        return dd

    cdef void settle_start_weights(self, double short) noexcept nogil:
        """On a fractional shoe a pair of a rank with less than two cards left (0.85:
        0.85 x -0.15) has a starting weight below zero; the solver leaves it out, values it
        0, and its weights come to 1 + the left-out part.  So does the law; the difference
        goes on a net result of 0 (taken from, or added to, the results of 0 in proportion
        to them): the mean stays the solver's, the sum is one."""
        cdef double zeros = 0.0
        cdef int t
        if short == 0.0:
            return
        for t in range(D_OUT):
            zeros += self.round_out[t * D_LATTICE + ZERO_COL]
        if zeros <= 0.0:
            return
        for t in range(D_OUT):
            self.round_out[t * D_LATTICE + ZERO_COL] += (
                short * self.round_out[t * D_LATTICE + ZERO_COL] / zeros)

    # ---- Python edge ---------------------------------------------------------------
    # Every kernel call runs under a guard (alloc.h): out of memory raises MemoryError,
    # after ``forget`` has dropped the memo tables the unwound call left half-updated.

    cdef void forget(self) except *:
        """Forget every law and dealer law computed (keeping the decisions: each is stored
        once made), the splits counted and the hand being played, so that the next call
        starts clean."""
        cdef int r
        self.clear_shoe_laws(False)
        self.pend_count = 0
        self.second_index.clear()
        self.second_store.clear()
        for r in range(D_RANKS):
            self.exact_done[r] = False
        self.approx_splits_played = 0
        self.clear_hand()

    cdef void clear_shoe_laws(self, bint keep_dealer) noexcept nogil:
        """Drop the laws that depend on the shoe: the hands' laws, the splits' laws and
        means, and (unless ``keep_dealer``) the dealer's laws."""
        cdef int r
        if not keep_dealer:
            self.dealer_index.clear()
            self.dealer_store.clear()
        self.law_index.clear()
        self.law_store.clear()
        for r in range(D_RANKS):
            self.split_done[r] = False
            self.split_mean[r] = 0.0
        for r in range(<int>self.split_out.size()):
            self.split_out[r] = 0.0

    cdef void guarded_round_dist(self) except *:
        """``round_dist`` under the guard: out of memory forgets what the unwound call
        left half-built (``forget``) and raises MemoryError."""
        self.need_decisions()
        try:
            with nogil:
                guard(self.round_dist())
        except MemoryError:
            self.forget()
            raise

    cdef void freeze(self, uint64_t key, int action) noexcept nogil:
        self.policy.set(key, action)

    cdef void need_decisions(self) except *:
        """The decisions the law plays, before a kernel call that plays them: with an
        optimal post-split class and none given (``copy_policy_from``), the value engine's
        optimal decisions on this shoe, recorded (``freeze_decisions``: a solve of this
        dealer key) -- the round laws never decide by themselves, so every law's play is
        the solver's and its mean the solver's EV."""
        cdef UpcardEngine engine
        if self.rules.split_class == POLICY or len(self.policy) > 0:
            return
        engine = UpcardEngine(self.shoe_arg, self.dealer_key, self.rules_arg, self.infinite,
                              self.fractional)
        engine.round_ev()
        engine.freeze_decisions()
        self.policy = engine.e.policy

    def copy_policy_from(self, UpcardEngine engine not None):
        """Play the decisions frozen in ``engine`` (a policy engine of the same rules and
        dealer key: a chart's or a user strategy's, or an optimal solve's recorded by
        ``freeze_decisions``, its split hands keyed as its post-split class keys them).
        The table is shared, not copied: neither writes to it again without copying it
        first.  Returns the number of decisions."""
        self.policy = engine.e.policy
        self.policy_shared = True
        engine.e.policy_shared = True
        return len(self.policy)

    def set_policy(self, int kind, counts, int action):
        """Freeze the action for a composition: kind 0 start, 1 later, 2 split hand."""
        cdef uint64_t key = decode_policy_entry(kind, counts, action, KIND_SPLIT)
        if self.policy_shared:
            self.policy = self.policy.copy()
            self.policy_shared = False
        guard(self.freeze(key, action))

    def split_law(self, int pair, bint exact=True):
        """(``out[t, k]`` of splitting ``pair`` -- as ``outcome_law`` -- and the
        solver's split expectation) for testing; exact two-hand law when it applies."""
        if not 1 <= pair <= 10 or self.hands_limit(pair) < 2:
            raise ValueError("pair cannot be split here")
        self.need_decisions()
        try:
            with nogil:
                guard(self.split_dist(pair))
                if exact and self.exact_two_hands and self.hands_limit(pair) == 2:
                    guard(self.exact_two_hands_law(pair))
        except MemoryError:
            self.forget()
            raise
        result = np.array(self.split_out[(pair - 1) * D_OUT * D_LATTICE:
                                         pair * D_OUT * D_LATTICE]).reshape(D_OUT, D_LATTICE)
        return result, self.split_mean[pair - 1]

    def split_hand_action(self, int pair, counts):
        """The action (0 stand, 1 hit, 2 double) the kernel takes for a hand of a
        two-hand split of ``pair`` holding ``counts`` (its pair card included): the
        split class's decision, as the exact two-hand law plays it (for testing)."""
        cdef int r, a
        if not 1 <= pair <= 10 or len(counts) != D_RANKS or counts[pair - 1] < 1:
            raise ValueError("bad split hand")
        self.need_decisions()
        self.clear_hand()
        self.hand.pair_rank = pair
        self.hand.extra = 1
        for r in range(D_RANKS):
            for _ in range(int(counts[r])):
                self.add(r)
        try:
            with nogil:
                a = guard_int(self.choose())
        except MemoryError:
            self.forget()
            raise
        self.clear_hand()
        return a

    @property
    def dealer_laws_computed(self):
        """Distinct shoes the dealer's law was enumerated for (a cost measure)."""
        return len(self.dealer_index)

    @property
    def policy_misses(self):
        """Decisions met that had no frozen action (should be 0)."""
        return self.policy_missing

    def outcome_law(self):
        """``out[t, k]``: P(dealer outcome t and net outcome (k - 16) / 2), t = 17..21,
        natural, bust; column 33 is a natural paid at the table's payout."""
        self.guarded_round_dist()
        result = np.empty((D_OUT, D_LATTICE))
        cdef double[:, ::1] view = result
        cdef int t, k
        for t in range(D_OUT):
            for k in range(D_LATTICE):
                view[t, k] = self.round_out[t * D_LATTICE + k]
        return result
