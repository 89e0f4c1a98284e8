"""How many cards a round uses, and the round's variance: an infinite-deck model.

The counted-game analysis needs two things the exact engine does not report: the law of
the number of cards a round takes jointly with the count those cards carry
(``round_cards_law``: where the next round starts, and at which count) and the second
moment of the round's result (``round_profile``: for the SD of each true count).  This module computes both for a
strategy given as a chart (``f(cards, upcard, allowed) -> action``), dealing every card
independently with the probabilities of a given composition (the infinite-deck
approximation at that composition).

Method, per upcard: the dealer's final total and number of cards drawn (given no natural,
the dealer peeks); for each two-card hand the chart's play, the law of (final total, bet,
cards drawn) of the hand, settled against the dealer's total.  A split makes two hands,
independent given the dealer's total (infinite deck), each starting from the pair card and
one more card; ``round_profile`` does not model resplits (a split hand that draws the pair
card plays it as a total), ``round_cards_law`` does (up to the rules' hands, aces only
with resplit_aces).  The dealer draws only when a player hand is left standing; a dealer or player
natural and a surrender end the round after the four cards of the deal.  With no hole card
(``round_cards_law`` only) the dealer's second card comes after the players' hands, so a
dealer natural ends the round only once the hands are played out.

Where it approximates: the deck is infinite (card removal within the round is ignored),
``round_profile`` drops resplits, and the chart decides by total (its
composition-dependent exceptions are not played).  The mean it gives is NOT used (the exact solves give the mean); its
variance and its cards-per-round law are, and both change little with these details (the
counted-game benchmark measures them against a simulation of the real shoe).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..model.rules import Rules

MAX_EXTRA = 24                      # cards a hand or the dealer may draw (tail folded in)
FINALS = (0, 16, 17, 18, 19, 20, 21)  # bust, 16 or less, 17..21
DEALER_FINALS = (17, 18, 19, 20, 21, 22)  # 22: bust


@dataclass(frozen=True)
class RoundProfile:
    """The round at one composition: ``mean`` and ``second_moment`` of the net result
    (initial bets, unconditioned), ``variance``, and ``cards[k]`` = P(the round uses k
    cards), k = 0..len-1."""
    mean: float
    second_moment: float
    cards: np.ndarray

    @property
    def variance(self) -> float:
        return self.second_moment - self.mean ** 2

    @property
    def mean_cards(self) -> float:
        return float(np.arange(len(self.cards)) @ self.cards)


COUNTED_HOLE_CARDS = ("peek", "enhc", "enhc-obo")


def check_supported(rules: Rules) -> None:
    """The counted-game analysis models the peek game and the no-hole-card games (the
    dealer takes the second card after the players' hands: ``enhc``, ``enhc-obo``, and
    the games' ``natural_loss`` rules), with late or no surrender.  An exposed hole card
    is not modelled: the player's plays depend on both dealer cards there."""
    if rules.hole_card not in COUNTED_HOLE_CARDS:
        raise ValueError(f"the counted-game analysis supports hole_card "
                         f"{', '.join(map(repr, COUNTED_HOLE_CARDS))}, got {rules.hole_card!r}")
    _check_surrender(rules)


def _check_surrender(rules: Rules) -> None:
    if rules.surrender == "early":
        raise ValueError("the counted-game analysis supports surrender 'none' or 'late', "
                         "got 'early'")


def _shift(a: np.ndarray, by: int) -> np.ndarray:
    """Move probability mass up ``by`` cards along the last axis (the tail stays in the
    last bin)."""
    if by == 0:
        return a
    out = np.zeros_like(a)
    out[..., by:] = a[..., :-by]
    out[..., -1] += a[..., -by:].sum(axis=-1)
    return out


def _representative(hard: int, ace: bool, pair: int | None = None) -> tuple:
    """A two-card hand with this hard total (and an ace if ``ace``), for a chart that
    decides by total; ``pair``: the pair itself."""
    if pair is not None:
        return (pair, pair)
    if ace and hard <= 11:       # soft: the ace counts 11
        return (1, hard - 1)
    a = max(2, hard - 10)
    if a == hard - a and hard > 4 and a + 1 <= 10:
        a += 1
    return tuple(sorted((a, hard - a)))


class _Model:
    def __init__(self, rules: Rules, probs, strategy):
        self.rules = rules
        self.p = np.asarray(probs, dtype=float)
        self.strategy = strategy
        self.dbl_min = {"any": 0, "9-11": 9, "10-11": 10}[rules.double]

    # ---- the dealer -----------------------------------------------------------------
    def dealer(self, up: int) -> np.ndarray:
        """law[d, j]: final total DEALER_FINALS[d] after drawing j cards beyond the hole
        card, given no dealer natural."""
        p, h17 = self.p, self.rules.hit_soft_17
        memo: dict[tuple[int, bool], np.ndarray] = {}    # (hard, ace) -> law

        def draw(hard, ace):
            key = (hard, ace)
            if key in memo:
                return memo[key]
            total = hard + 10 if ace and hard <= 11 else hard
            out = np.zeros((6, MAX_EXTRA + 1))
            if hard > 21:
                out[5, 0] = 1.0
            elif total >= 17 and not (total == 17 and ace and hard <= 11 and h17):
                out[total - 17, 0] = 1.0
            else:
                acc = np.zeros_like(out)
                for c in range(1, 11):
                    if p[c - 1] > 0:
                        acc += p[c - 1] * draw(hard + c, ace or c == 1)
                out = _shift(acc, 1)
            memo[key] = out
            return out

        law = np.zeros((6, MAX_EXTRA + 1))
        for hole in range(1, 11):
            if p[hole - 1] == 0 or {up, hole} == {1, 10}:
                continue
            law += p[hole - 1] * draw(up + hole, up == 1 or hole == 1)
        return law / law.sum()

    # ---- the player -----------------------------------------------------------------
    def may_double(self, hard, ace, ncards, split):
        r = self.rules
        if ncards != 2 and not r.double_any_cards:
            return False
        if split and not r.double_after_split:
            return False
        if ace and hard <= 11:
            return r.double_soft and self.dbl_min == 0
        return self.dbl_min == 0 or self.dbl_min <= hard <= 11

    def hand(self, up, hard, ace, ncards, split, action=None, memo=None):
        """law[f, b, k]: final FINALS[f] with bet b+1 after k more cards."""
        key = (hard, ace, ncards >= 3, split, action)
        if key in memo:
            return memo[key]
        total = hard + 10 if ace and hard <= 11 else hard
        out = np.zeros((7, 2, MAX_EXTRA + 1))
        if hard > 21:
            out[0, 0, 0] = 1.0
            memo[key] = out
            return out
        if action is None:
            if total >= 21:
                action = "stand"
            else:
                allowed = ("stand", "hit") + (
                    ("double",) if self.may_double(hard, ace, ncards, split) else ())
                action = self.strategy(_representative(hard, ace), up, allowed)
        if action == "stand":
            out[FINALS.index(total) if total >= 17 else 1, 0, 0] = 1.0
        elif action == "double":
            for c in range(1, 11):
                if self.p[c - 1] == 0:
                    continue
                h, a = hard + c, ace or c == 1
                t = h + 10 if a and h <= 11 else h
                f = 0 if h > 21 else (FINALS.index(t) if t >= 17 else 1)
                out[f, 1, 1] += self.p[c - 1]
        else:  # hit: the law after one more card, moved up one card
            for c in range(1, 11):
                if self.p[c - 1] > 0:
                    out += self.p[c - 1] * self.hand(up, hard + c, ace or c == 1, ncards + 1,
                                                     split, None, memo)
            out = _shift(out, 1)
        memo[key] = out
        return out


def _start_options(model: "_Model", rules: Rules, a: int, b: int) -> tuple:
    """The actions a strategy may choose on the first two cards a, b (not a natural)."""
    allowed = ["stand", "hit"]
    if model.may_double(a + b, a == 1, 2, False):
        allowed.append("double")
    if a == b and rules.max_split_hands >= 2:
        allowed.append("split")
    if rules.surrender == "late":
        allowed.append("surrender")
    return tuple(allowed)


def _settle(dealer_final: int, dwt: bool) -> np.ndarray:
    """net[f, b] for a hand's final FINALS[f] and bet b+1 against the dealer's total."""
    out = np.zeros((7, 2))
    for i, f in enumerate(FINALS):
        if f == 0:                      # the player busted first
            s = -1.0
        elif dealer_final == 22 or f > dealer_final:   # 16 or less beats only a bust
            s = 1.0
        elif f == dealer_final:
            s = -1.0 if dwt else 0.0
        else:
            s = -1.0
        out[i] = (s, 2 * s)
    return out


def round_profile(rules: Rules, probabilities, strategy, *, spots: int = 1) -> RoundProfile:
    """The round's mean, second moment and cards-used law at a composition given by its
    rank probabilities A..T, the player following ``strategy`` (a chart or any
    ``f(cards, upcard, allowed) -> action`` deciding by total); see the module docstring.
    ``spots``: hands the player (or the table) plays per round; the cards law counts every
    spot, the moments are per spot.  The peek game only (a dealer natural ends the round
    after the deal)."""
    if rules.hole_card != "peek":
        raise ValueError(f"round_profile models hole_card='peek' only, got "
                         f"{rules.hole_card!r}")
    _check_surrender(rules)
    p = np.asarray(probabilities, dtype=float)
    p = p / p.sum()
    model = _Model(rules, p, strategy)
    dwt = rules.dealer_wins_ties
    payout = rules.blackjack_payout
    tie_nat = -1.0 if dwt else 0.0
    settle = np.array([_settle(d, dwt) for d in DEALER_FINALS])    # [d, f, b]
    settle2 = settle ** 2
    n = MAX_EXTRA * 3 + 5
    ex = ex2 = 0.0
    # per spot: law of the player's extra cards and whether a hand stands (per dealer
    # total); spots are independent given the dealer's total
    cards_total = np.zeros(n * spots)
    for up in range(1, 11):
        pu = p[up - 1]
        if pu == 0:
            continue
        q_nat = p[9] if up == 1 else (p[0] if up == 10 else 0.0)
        pnat_player = 2 * p[0] * p[9]
        # dealer natural: one spot loses 1 (a natural pushes); four cards per spot pair
        ex += pu * q_nat * (-(1 - pnat_player) + pnat_player * tie_nat)
        ex2 += pu * q_nat * ((1 - pnat_player) + pnat_player * tie_nat ** 2)
        nat_cards = np.zeros(n * spots)
        nat_cards[2 + 2 * spots] = 1.0
        cards_total += pu * q_nat * nat_cards
        if q_nat >= 1.0:
            continue
        dealer = model.dealer(up)              # [d, j]
        p_d = dealer.sum(axis=1)               # law of the dealer's total
        memo: dict = {}
        # per dealer total d: law over (player extra cards, any hand standing) of one spot
        spot_live = np.zeros((6, n))
        spot_dead = np.zeros((6, n))
        m1 = np.zeros(6)                       # E[net | d] of one spot
        m2 = np.zeros(6)                       # E[net^2 | d] of one spot
        played = np.zeros((7, 2))              # law of (final, bet) of unsplit hands
        for a in range(1, 11):
            for b in range(a, 11):
                w = p[a - 1] * p[b - 1] * (1 if a == b else 2)
                if w == 0:
                    continue
                if {a, b} == {1, 10}:
                    m1 += w * payout
                    m2 += w * payout ** 2
                    spot_dead[:, 0] += w
                    continue
                hard, ace = a + b, a == 1
                action = strategy((a, b), up, _start_options(model, rules, a, b))
                if action == "surrender":
                    m1 += w * -0.5
                    m2 += w * 0.25
                    spot_dead[:, 0] += w
                    continue
                if action == "split":
                    one = _split_hand(model, up, a, memo)     # [f, b, k]
                    live_k = one[1:].sum(axis=(0, 1))
                    dead_k = one[0].sum(axis=0)
                    fb = one.sum(axis=2)
                    x = np.tensordot(settle, fb, axes=2)
                    x2 = np.tensordot(settle2, fb, axes=2)
                    m1 += w * 2 * x
                    m2 += w * (2 * x2 + 2 * x * x)
                    # two hands: dead only if both are
                    both_dead = np.convolve(dead_k, dead_k)[:n]
                    total = np.convolve(live_k + dead_k, live_k + dead_k)[:n]
                    spot_dead[:, :len(both_dead)] += w * both_dead
                    spot_live[:, :len(total)] += w * (total - both_dead)
                    continue
                h = model.hand(up, hard, ace, 2, False, action, memo)
                played += w * h.sum(axis=2)
                spot_live[:, :MAX_EXTRA + 1] += w * h[1:].sum(axis=(0, 1))
                spot_dead[:, :MAX_EXTRA + 1] += w * h[0].sum(axis=0)
        m1 += np.tensordot(settle, played, axes=2)
        m2 += np.tensordot(settle2, played, axes=2)
        ex += pu * (1 - q_nat) * float(p_d @ m1)
        ex2 += pu * (1 - q_nat) * float(p_d @ m2)
        # cards: 2 per spot + 2 dealer cards + player extras + dealer draws if any stands
        for d in range(6):
            if p_d[d] == 0:
                continue
            dead, alive = spot_dead[d], spot_live[d]
            all_dead = dead.copy()
            any_law = dead + alive
            for _ in range(spots - 1):
                all_dead = np.convolve(all_dead, dead)
                any_law = np.convolve(any_law, dead + alive)
            some_live = np.zeros(len(any_law))
            some_live[:len(any_law)] = any_law
            some_live[:len(all_dead)] -= all_dead
            base = 2 + 2 * spots
            law = np.zeros(n * spots)
            m = min(len(all_dead), len(law) - base)
            law[base:base + m] += all_dead[:m]
            with_dealer = np.convolve(some_live, dealer[d] / p_d[d])
            m = min(len(with_dealer), len(law) - base)
            law[base:base + m] += with_dealer[:m]
            cards_total += pu * (1 - q_nat) * p_d[d] * law
    last = np.nonzero(cards_total > 1e-15)[0][-1] + 1
    return RoundProfile(float(ex), float(ex2), cards_total[:last] / cards_total.sum())


def _split_hand(model: _Model, up: int, pair: int, memo: dict) -> np.ndarray:
    """law[f, b, k] of one split hand (k counts its second card too)."""
    key = ("split", pair)
    if key in memo:
        return memo[key]
    rules = model.rules
    out = np.zeros((7, 2, MAX_EXTRA + 1))
    for c in range(1, 11):
        pc = model.p[c - 1]
        if pc == 0:
            continue
        hard, ace = pair + c, pair == 1 or c == 1
        if pair == 1 and not rules.hit_split_aces:
            t = hard + 10 if hard <= 11 else hard
            h = np.zeros((7, 2, MAX_EXTRA + 1))
            h[FINALS.index(t) if t >= 17 else 1, 0, 0] = 1.0
        else:
            h = model.hand(up, hard, ace, 2, True, None, memo)
        out += pc * h
    out = _shift(out, 1)       # the split hand's second card
    memo[key] = out
    return out


# ---- the joint law of a round's cards and their count -------------------------------------

@dataclass(frozen=True)
class RoundCardsLaw:
    """``law[k, j]`` = P(the round uses k cards whose tags sum to ``offsets[j]``) (tags in
    whole steps: the count system's tags times its scale), at one composition."""
    law: np.ndarray
    offsets: np.ndarray

    @property
    def mean_cards(self) -> float:
        return float(np.arange(self.law.shape[0]) @ self.law.sum(axis=1))

    @property
    def mean_count(self) -> float:
        return float(self.law.sum(axis=0) @ self.offsets)


def _representative_cards(hard: int, ace: bool, n: int) -> tuple:
    """A hand of ``n`` cards (sorted) with this hard total, holding an ace if ``ace``: the
    composition an after-double choice is asked about in the model, which follows hands
    by total (a doubled hand has 3 or more cards).  Cards are spread as evenly as the
    total allows (no ace unless ``ace``)."""
    cards = [1] if ace else []
    rest, m = hard - len(cards), n - len(cards)
    low = 1 if ace else 2
    while m > 0:
        c = min(10, max(low, rest // m))
        cards.append(c)
        rest -= c
        m -= 1
    return tuple(sorted(cards))


def round_cards_law(rules: Rules, probabilities, strategy, steps, *, spots: int = 1,
                    max_cards: int | None = None, raw: bool = False,
                    after_double=None) -> RoundCardsLaw:
    """The joint law of the number of cards a round uses and the sum of their tags (every
    card of the round is seen by the end of it: the hole card too), in the same
    infinite-deck round model as ``round_profile`` (the same plays) with resplits (a pair
    card drawn to a split hand while fewer than ``max_split_hands`` hands are in play
    starts another hand, aces only with ``resplit_aces``, as in the simulator; without
    them the 6D H17 game had 0.2% more rounds per shoe than the simulator, now 0.09%).

    ``steps``: each rank's tag as a whole number (A..T).  Computed with generating
    functions E[x^cards y^tags] evaluated on a grid of roots of unity, then inverted by a
    two-dimensional FFT: every card multiplies by x y^tag, independent parts (split hands,
    spots, the dealer's draws) multiply; the grid is large enough that nothing wraps
    around except rounds of more than ``max_cards`` cards (default 12 + 12 spots, 8 more
    in the games; such rounds have probability far below 1e-12).

    The games (docs/games.md) take cards as the classic game does but where their plays
    differ: a free double or free split takes the cards of a double or split (the chart
    says "double" or "split" for its free codes); a split ace may double with
    ``double_split_aces`` (the chart asked with stand or double); after a double's card,
    while the hand is below 21, ``after_double(cards, upcard, allowed, split, doubles)``
    (``bjsolve.exact.policy.after_double_chart``'s signature; None: stand, as the
    simulator plays without one) chooses "stand", "redouble" (one more card, up to
    ``rules.redoubles`` times) or "rescue" (the hand is surrendered: it needs no dealer
    draw), asked about a representative hand of that total and size.  Super Fun 21's
    rules end hands early: a charlie (``rules.charlie`` cards, not doubled) and a 21 of
    five or more cards with ``bonus_21_at_once`` stop and win at once, and with
    ``surrender_any_time`` the strategy is offered "surrender" after hitting and on a split
    hand's first two cards; such hands take no more cards and need no dealer draw (6D
    Super Fun 21: 0.057 fewer cards a round).  A dealer 22, a player 21 winning and the
    bonuses change no card; a Spanish shoe is just its probabilities.

    ``raw``: ``probabilities`` are used as given (not normalised) and the coefficients
    are returned untrimmed on the whole grid, complex: with weights p_r w for one rank
    (w may be complex) the result is E[w^(cards of that rank) ; cards, tags], for its
    moments."""
    check_supported(rules)
    p = np.asarray(probabilities, dtype=complex if raw else float)
    if not raw:
        p = p / p.sum()
    steps = [int(s) for s in steps]
    smax = max(1, max(abs(s) for s in steps))
    # (the games' rounds run longer: redoubles, hitting split aces, doubling any cards;
    # 6D Spanish 21 has 8e-8 of its rounds beyond 24 cards, none beyond 34)
    kx = int(max_cards or 12 + 12 * spots + (0 if rules.is_classic else 8))
    my = 2 * smax * (kx - 1) + 1
    x = np.exp(2j * np.pi * np.arange(kx) / kx)[:, None]
    y = np.exp(2j * np.pi * np.arange(my) / my)[None, :]
    z = [x * y ** s for s in steps]               # the monomial of one card of each rank
    pz = [p[c] * z[c] for c in range(10)]         # ... times its probability
    model = _Model(rules, np.real(p), strategy)     # (its may_double rules only)
    one = np.ones((kx, my), dtype=complex)
    zero = np.zeros((kx, my), dtype=complex)

    def live_or_bust(hard):
        return (one, zero) if hard > 21 else (zero, one)

    choices_after_double = bool(rules.redoubles or rules.double_rescue)

    def doubled(up, hard, ace, ncards, split, doubles, memo):
        """(dead, live): GFs of the further cards of a hand that has made ``doubles``
        doubles and taken its card (not busted): the after-double choice, while below 21."""
        total = hard + 10 if ace and hard <= 11 else hard
        if total >= 21 or not choices_after_double:
            return zero, one
        key = ("doubled", hard, ace, ncards, split, doubles)
        if key in memo:
            return memo[key]
        allowed = ("stand",) + (("redouble",) if doubles <= rules.redoubles else ()) + (
            ("rescue",) if rules.double_rescue else ())
        choice = "stand" if after_double is None else after_double(
            _representative_cards(hard, ace, ncards), up, allowed, split, doubles)
        if choice == "rescue":
            out = (one, zero)                    # surrendered: no dealer draw for it
        elif choice == "redouble":
            dead, live = zero.copy(), zero.copy()
            for c in range(1, 11):
                if p[c - 1] == 0:
                    continue
                if hard + c > 21:
                    d, l_ = one, zero
                else:
                    d, l_ = doubled(up, hard + c, ace or c == 1, ncards + 1, split,
                                    doubles + 1, memo)
                dead += pz[c - 1] * d
                live += pz[c - 1] * l_
            out = (dead, live)
        else:
            out = (zero, one)
        memo[key] = out
        return out

    # Super Fun 21's hands that end at once (docs/games.md): a charlie (``charlie`` cards
    # without busting) and a 21 of five or more cards with ``bonus_21_at_once`` stop and win
    # whatever the dealer makes, so they need no dealer draw; with ``surrender_any_time`` a
    # hand may surrender after hitting, and a split hand on its first two cards too (a
    # surrendered hand needs no dealer draw either).  The simulator plays them so.  A
    # doubled hand is never a charlie, and only hits lead to three or more cards here.
    stops = bool(rules.charlie or rules.bonus_21_at_once)
    size_cap = max(rules.charlie, 5)       # the hand sizes these rules tell apart

    def ends_at_once(total, ncards):
        return ((rules.charlie and ncards >= rules.charlie)
                or (rules.bonus_21_at_once and ncards >= 5 and total == 21))

    def hand(up, hard, ace, ncards, split, action, memo):
        """(dead, live): GFs of the extra cards of a hand, ending busted or standing (a
        surrendered hand and one that wins at once are dead: no dealer draw for them)."""
        key = (hard, ace, min(ncards, size_cap) if stops else ncards >= 3, split, action)
        if key in memo:
            return memo[key]
        total = hard + 10 if ace and hard <= 11 else hard
        if hard > 21:
            out = (one, zero)
        elif action is None and stops and ends_at_once(total, ncards):
            out = (one, zero)
        else:
            if action is None:
                if total >= 21:
                    action = "stand"
                else:
                    allowed = ("stand", "hit") + (
                        ("double",) if model.may_double(hard, ace, ncards, split) else ()) + (
                        ("surrender",) if rules.surrender_any_time and (ncards >= 3 or split)
                        else ())
                    action = strategy(_representative(hard, ace), up, allowed)
            if action == "stand":
                out = (zero, one)
            elif action == "surrender":
                out = (one, zero)
            else:
                dead, live = zero.copy(), zero.copy()
                for c in range(1, 11):
                    if p[c - 1] == 0:
                        continue
                    if action == "double":
                        d, l_ = (live_or_bust(hard + c) if hard + c > 21 else
                                 doubled(up, hard + c, ace or c == 1, ncards + 1, split, 1,
                                         memo))
                    else:
                        d, l_ = hand(up, hard + c, ace or c == 1, ncards + 1, split, None, memo)
                    dead += pz[c - 1] * d
                    live += pz[c - 1] * l_
                out = (dead, live)
        memo[key] = out
        return out

    def split_hand(up, pair, memo):
        dead, live = zero.copy(), zero.copy()
        for c in range(1, 11):
            if p[c - 1] == 0:
                continue
            d, l_ = split_card(up, pair, c, memo)
            dead += pz[c - 1] * d
            live += pz[c - 1] * l_
        return dead, live

    def split_card(up, pair, c, memo):
        """(dead, live) of a split hand of ``pair`` that drew ``c``: one card to a split
        ace (which may double with ``double_split_aces``), else played on."""
        if pair == 1 and not rules.hit_split_aces:
            if not (rules.double_split_aces and model.may_double(1 + c, True, 2, True)):
                return zero, one
            action = strategy((1, c), up, ("stand", "double"))
            return (zero, one) if action != "double" else hand(
                up, 1 + c, True, 2, True, "double", memo)
        return hand(up, pair + c, pair == 1 or c == 1, 2, True, None, memo)

    def split_hands(up, pair, memo):
        """(all the split's hands end dead, any ending): GFs of the cards of the hands a
        split makes, resplitting a pair card drawn while fewer than the rules' hands are
        in play (aces only with resplit_aces), as the simulator does; a pair card drawn
        at the limit plays as a total."""
        limit = rules.max_split_hands if pair != 1 or rules.resplit_aces else 2
        d_all, l_all = split_hand(up, pair, memo)           # the pair card as a total
        if limit <= 2:
            return d_all * d_all, (d_all + l_all) ** 2
        d_pair, l_pair = split_card(up, pair, pair, memo)
        d_other = d_all - pz[pair - 1] * d_pair            # a card other than the pair's
        t_other = d_all + l_all - pz[pair - 1] * (d_pair + l_pair)
        out = {}

        def pending(k, n):
            """(all dead, any) for k hands still to draw their second card, n in play."""
            if k == 0:
                return one, one
            if n >= limit:
                return d_all ** k, (d_all + l_all) ** k
            if (k, n) not in out:
                d_more, t_more = pending(k + 1, n + 1)     # the pair card: one more hand
                d_less, t_less = pending(k - 1, n)
                out[(k, n)] = (pz[pair - 1] * d_more + d_other * d_less,
                               pz[pair - 1] * t_more + t_other * t_less)
            return out[(k, n)]
        return pending(2, 2)

    dealer_memo: dict = {}

    def dealer_draws(hard, ace):
        """GF of the cards the dealer draws after the hole card from this total."""
        key = (hard, ace)
        if key in dealer_memo:
            return dealer_memo[key]
        total = hard + 10 if ace and hard <= 11 else hard
        if hard > 21 or (total >= 17 and not (total == 17 and ace and hard <= 11
                                             and rules.hit_soft_17)):
            out = one
        else:
            out = zero.copy()
            for c in range(1, 11):
                if p[c - 1] > 0:
                    out = out + pz[c - 1] * dealer_draws(hard + c, ace or c == 1)
        dealer_memo[key] = out
        return out

    card = sum(pz)                                       # one card of the shoe
    # no hole card: the dealer's second card is dealt after the players' hands (always,
    # as in the simulator, even when every hand is dead); the cards the round uses are
    # the same law whether it comes before or after them, but a natural no longer stops
    # the hands being played
    peek = rules.hole_card == "peek"
    gf = zero.copy()
    for up in range(1, 11):
        pu = p[up - 1]
        if pu == 0:
            continue
        memo: dict = {}
        dead, live = zero.copy(), zero.copy()          # one spot, its two cards included
        for a in range(1, 11):
            for b in range(a, 11):
                w = p[a - 1] * p[b - 1] * (1 if a == b else 2)
                if w == 0:
                    continue
                zz = w * z[a - 1] * z[b - 1]
                if {a, b} == {1, 10}:
                    dead += zz
                    continue
                hard, ace = a + b, a == 1
                action = strategy((a, b), up, _start_options(model, rules, a, b))
                if action == "surrender":
                    dead += zz
                elif action == "split":
                    all_dead, every = split_hands(up, a, memo)
                    dead += zz * all_dead
                    live += zz * (every - all_dead)
                else:
                    d, l_ = hand(up, hard, ace, 2, False, action, memo)
                    dead += zz * d
                    live += zz * l_
        all_dead = dead ** spots
        some_live = (dead + live) ** spots - all_dead
        two_cards = card * card
        for hole in range(1, 11):
            ph = p[hole - 1]
            if ph == 0:
                continue
            if {up, hole} == {1, 10}:
                # dealer natural: with the peek the round ends after the deal; with no
                # hole card the hands were played out before the dealer's second card
                # showed it, and the dealer draws no more
                rest = two_cards ** spots if peek else (dead + live) ** spots
            else:
                rest = all_dead + some_live * dealer_draws(up + hole, up == 1 or hole == 1)
            gf += pu * ph * z[up - 1] * z[hole - 1] * rest
    # gf[a, b] = sum_kj P(k, j) e^{2 pi i (a k / kx + b j / my)}: the forward transform
    # gives kx my P(k, j mod my) back
    coef = np.fft.fft2(gf) / (kx * my)
    offsets = np.arange(my)
    offsets = np.where(offsets > my // 2, offsets - my, offsets)
    order = np.argsort(offsets)
    offsets = offsets[order]
    if raw:                                   # complex: a polynomial in w, evaluated
        return RoundCardsLaw(coef[:, order], offsets)
    law = np.real(coef[:, order])
    law = np.where(law > 1e-15, law, 0.0)
    keep = np.nonzero(law.sum(axis=0) > 0)[0]
    law = law[:, keep.min():keep.max() + 1]
    offsets = offsets[keep.min():keep.max() + 1]
    last = np.nonzero(law.sum(axis=1) > 0)[0][-1] + 1
    law = law[:last]
    return RoundCardsLaw(law / law.sum(), offsets)
