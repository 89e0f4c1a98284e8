"""Exact solves: every action's EV for any hand, the round's EV, strategy evaluation.

``solve(rules, shoe, split=...)`` builds one compiled ``UpcardEngine`` per upcard and runs
them in parallel threads (the kernels release the GIL).  Conventions follow
DESIGN-exact.md: internal values are unconditioned; per-hand values returned to users are
conditioned on no dealer blackjack when the dealer peeks (and say so).
"""
from __future__ import annotations

import os
import warnings
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor

from bjcore import TIE_TOLERANCE, UpcardEngine, dealer_trie

from .deal import (dealer_columns, dealer_key_weight, dealer_keys, dealer_label, exposed,
                   is_natural, player_hand_weights, round_may_run_out)
from .dealer import resolve_shoe
from .ranks import counts_of, hand_total, label, ranks
from .rules import Rules
from .shoe import Shoe

SPLIT_CLASSES = {"CDZ-": 0, "CDP1": 1, "CDP": 2}
POLICY_CLASS = 3
ACTIONS = ("stand", "hit", "double", "split", "surrender")
ACTION_CODE = {a: i for i, a in enumerate(ACTIONS)}
# heavier upcards first so two threads finish together
_WORK_ORDER = (2, 3, 1, 4, 5, 6, 7, 8, 9, 10)


def improves(challenger: float, incumbent: float) -> bool:
    """Whether a later option beats the current choice (section 4 of DESIGN-exact: only if
    strictly better; values within a relative TIE_TOLERANCE are an exact tie rounded
    differently, and the earlier option keeps it).  The kernels use the same rule."""
    return challenger - incumbent > TIE_TOLERANCE * max(1.0, abs(incumbent))


def first_best(values) -> str | None:
    """The chosen action among ``values`` (action -> EV): the first strictly best in the
    order stand, hit, double, split, surrender."""
    best = None
    for a in ACTIONS:
        if a in values and (best is None or improves(values[a], values[best])):
            best = a
    return best


def check_split_class(split) -> str:
    if not isinstance(split, str) or split not in SPLIT_CLASSES:
        raise ValueError(f"split must be one of {', '.join(SPLIT_CLASSES)} "
                         f"(post-split strategy class), got {split!r}")
    return split


def kernel_rules(rules: Rules, split_code: int) -> dict:
    return {
        "hit_soft_17": rules.hit_soft_17,
        "double_min_total": {"any": 0, "9-11": 9, "10-11": 10}[rules.double],
        "double_soft": rules.double_soft,
        "double_any_cards": rules.double_any_cards,
        "double_after_split": rules.double_after_split,
        "max_split_hands": rules.max_split_hands,
        "resplit_aces": rules.resplit_aces,
        "hit_split_aces": rules.hit_split_aces,
        "surrender": {"none": 0, "late": 1, "early": 2}[rules.surrender],
        "blackjack_payout": rules.blackjack_payout,
        "split_class": split_code,
        "natural_takes_all": rules.hole_card == "enhc",
        "dealer_wins_ties": rules.dealer_wins_ties,
    }


def run_engines(engines: dict) -> dict:
    """E(u) of every engine, in parallel threads; returns {upcard: E(u)}."""
    order = [u for u in _WORK_ORDER if u in engines]
    order += sorted((k for k in engines if k not in order), key=str)
    workers = max(1, min(len(order), os.cpu_count() or 1))
    if workers == 1:
        return {u: engines[u].round_ev() for u in order}
    with ThreadPoolExecutor(max_workers=workers) as pool:
        values = list(pool.map(lambda u: engines[u].round_ev(), order))
    return dict(zip(order, values))


class EV(float):
    """A float that says what it means: ``given_no_blackjack`` tells whether it is
    conditioned on the dealer not holding a natural (False: unconditioned, dealer
    naturals included); ``split_strategy`` names the post-split class behind it."""

    def __new__(cls, value, given_no_blackjack: bool = False, split_strategy: str | None = None):
        self = super().__new__(cls, value)
        self.given_no_blackjack = bool(given_no_blackjack)
        self.split_strategy = split_strategy
        return self

    def __reduce__(self):
        return (EV, (float(self), self.given_no_blackjack, self.split_strategy))

    def __repr__(self):
        measure = "given no dealer blackjack" if self.given_no_blackjack else "unconditioned"
        split = f", split {self.split_strategy}" if self.split_strategy else ""
        return f"{float(self)!r} ({measure}{split})"


class ActionValues(Mapping):
    """Action -> EV for one hand against one upcard (fractions of the initial bet).

    ``given_no_blackjack`` says whether the values are conditioned on the dealer not
    holding a natural; ``split_strategy`` names the post-split class of the split value.
    """

    def __init__(self, values, *, cards, dealer, given_no_blackjack, split_strategy):
        self._values = dict(values)
        self.cards = cards
        self.dealer = dealer
        self.given_no_blackjack = given_no_blackjack
        self.split_strategy = split_strategy

    def __getitem__(self, key):
        return self._values[key]

    def __iter__(self):
        return iter(self._values)

    def __len__(self):
        return len(self._values)

    @property
    def best(self) -> str:
        """The best action (ties go to the earlier of stand, hit, double, split, surrender)."""
        return first_best(self._values)

    def __repr__(self):
        body = ", ".join(f"{k}: {v:+.6f}" for k, v in self._values.items())
        cards = "".join(label(c) for c in self.cards)
        measure = "given no dealer blackjack" if self.given_no_blackjack else "unconditioned"
        split = f", split {self.split_strategy}" if "split" in self._values else ""
        return (f"ActionValues({cards} v {dealer_label(self.dealer)}, {measure}{split}: "
                f"{{{body}}})")


class Solution:
    """The exact solve of one rule set and shoe; see ``solve``.

    expected_value: the round's EV before any card is dealt (unconditioned, fraction of the
        initial bet; negative = house edge).
    ev_by_upcard: upcard (1..10) -> E[round | upcard], unconditioned.
    ev_by_dealer: dealer key -> E[round | dealer key]: the upcard, or in the exposed game
        the sorted tuple of both dealer cards.
    """

    def __init__(self, rules: Rules, shoe: Shoe, split: str, engines: dict, ev_by_dealer: dict):
        self.rules = rules
        self.shoe = shoe
        self.split = split
        self._engines = engines
        keys = dealer_keys(rules, shoe)
        self.may_run_out = round_may_run_out(rules, shoe)
        self.ev_by_dealer = {k: self._ev(ev_by_dealer[k]) for k in keys}
        self.expected_value = self._ev(sum(dealer_key_weight(shoe, k) * v
                                           for k, v in self.ev_by_dealer.items()))
        if exposed(rules):
            by_up: dict = {}
            for k, v in self.ev_by_dealer.items():
                w = dealer_key_weight(shoe, k)
                for up in set(k):  # a hand {a, b} has a as its first card half the time
                    share = w if k[0] == k[1] else w / 2
                    tot = by_up.setdefault(up, [0.0, 0.0])
                    tot[0] += share * v
                    tot[1] += share
            self.ev_by_upcard = {u: self._ev(t[0] / t[1]) for u, t in sorted(by_up.items())}
        else:
            self.ev_by_upcard = dict(sorted(self.ev_by_dealer.items()))
        self._strategy = None

    def _ev(self, value) -> EV:
        return EV(value, False, self.split)

    def __repr__(self):
        caveat = ", shoe may run out (degenerate values)" if self.may_run_out else ""
        return (f"Solution({self.rules.describe()}, shoe={self.shoe!r}, split={self.split}, "
                f"expected_value={self.expected_value:+.10f} unconditioned{caveat})")

    @property
    def dealer_keys(self) -> list:
        return list(self.ev_by_dealer)

    def dealer_columns(self) -> list:
        """[(column label, [dealer keys])]: upcards 2..T, A, or the exposed game's codes."""
        return dealer_columns(self.dealer_keys)

    def conditioned_for(self, cards) -> bool:
        """Whether hand values are shown given no dealer blackjack: only when the dealer
        peeks before the decision (not for an early-surrender decision)."""
        if self.rules.hole_card != "peek":
            return False
        return not (self.rules.surrender == "early" and len(cards) == 2)

    @property
    def conditioned(self) -> bool:
        """Per-hand values are given no dealer blackjack (the dealer peeks)."""
        return self.rules.hole_card == "peek"

    # ---- one hand --------------------------------------------------------------

    def _dealer_key(self, dealer):
        cards = ranks(dealer, field="dealer")
        if exposed(self.rules):
            if len(cards) != 2:
                raise ValueError(f"dealer: both dealer cards are dealt face up in this game; "
                                 f"give two cards, got {cards}")
            key = tuple(sorted(cards))
            if is_natural(key):
                raise ValueError("dealer: the dealer's cards are a natural; the round is over")
        else:
            if len(cards) != 1:
                raise ValueError(f"dealer: give one upcard, got {cards}")
            key = cards[0]
        if key not in self._engines:
            raise ValueError(f"dealer: the shoe cannot deal the dealer {dealer_label(key)}")
        return key

    def _hand(self, cards, dealer):
        cards = tuple(sorted(ranks(cards, field="cards")))
        if len(cards) < 2:
            raise ValueError(f"cards: a hand needs at least two cards, got {cards}")
        if sum(cards) > 21:
            raise ValueError(f"cards: {cards} is already bust (hard total {sum(cards)})")
        key = self._dealer_key(dealer)
        if not self.shoe.is_infinite:
            need = counts_of(cards)
            for c in ((key,) if isinstance(key, int) else key):
                need[c - 1] += 1
            for r, k in enumerate(need):
                if k > self.shoe.counts[r]:
                    raise ValueError(f"cards: the shoe holds {self.shoe.counts[r]} x {label(r + 1)}, "
                                     f"the hand and the dealer's cards need {k}")
        return cards, key

    def allowed_actions(self, cards, dealer) -> tuple[str, ...]:
        """Actions allowed for this hand as an unsplit hand (2 cards: round start)."""
        cards, key = self._hand(cards, dealer)
        return self._allowed(cards, key)

    def _allowed(self, cards, key):
        engine = self._engines[key]
        out = ["stand", "hit"]
        if engine.may_double_hand(counts_of(cards)):
            out.append("double")
        if len(cards) == 2:
            if cards[0] == cards[1] and engine.split_limit(cards[0]) >= 2:
                out.append("split")
            if self.rules.surrender != "none":
                out.append("surrender")
        return tuple(out)

    def hand_ev(self, cards, dealer, *, given_no_blackjack: bool | None = None) -> ActionValues:
        """EV of every allowed action for this exact hand against the dealer.

        cards: two or more cards (ranks or labels); two cards are the original hand
        (split and surrender may be allowed), more cards a later decision.
        dealer: the upcard, or both dealer cards in the exposed game.
        Values are fractions of the initial bet, given no dealer blackjack when the dealer
        peeks before the decision; unconditioned otherwise (no hole card, an early
        surrender decision, or ``given_no_blackjack=False``).  The result says which.
        Split values use this solve's post-split class (``self.split``).
        """
        cards, key = self._hand(cards, dealer)
        if given_no_blackjack is not None and not isinstance(given_no_blackjack, bool):
            raise TypeError(f"given_no_blackjack must be True, False or None (the game's "
                            f"default), got {given_no_blackjack!r}")
        if given_no_blackjack is None:
            given_no_blackjack = self.conditioned_for(cards)
        elif given_no_blackjack and self.rules.hole_card != "peek":
            raise ValueError("given_no_blackjack=True needs a peek game (hole_card='peek')")
        engine = self._engines[key]
        counts = counts_of(cards)
        st, ht, dd, beta = engine.hand_values(counts)
        allowed = self._allowed(cards, key)
        raw = {"stand": st, "hit": ht, "double": dd}
        natural = is_natural(cards)
        p = 1.0 - beta
        values = {}
        for a in allowed:
            if a in raw:
                v = raw[a]
                if given_no_blackjack:
                    v = v / p if (natural and a == "stand") else (v + 1.0 - p) / p
            elif a == "split":
                v, beta_s = engine.split_ev(cards[0])
                if given_no_blackjack:
                    v = (v + beta_s) / (1.0 - beta_s)
            else:  # surrender
                v = -0.5 if given_no_blackjack else engine.surrender_ev(counts)
            values[a] = v
        return ActionValues(values, cards=cards, dealer=key, given_no_blackjack=given_no_blackjack,
                            split_strategy=self.split)

    def best_action(self, cards, dealer) -> str:
        """The composition-dependent optimal action for this hand against the dealer."""
        return self.hand_ev(cards, dealer, given_no_blackjack=False).best

    def insurance_ev(self, cards=()) -> EV:
        """EV per unit of an insurance bet (pays 2:1) against a dealer ace, with the given
        cards (e.g. the player's hand) and the ace removed from the shoe: unconditioned
        (the bet is settled on the hole card, so it cannot be given no blackjack)."""
        if exposed(self.rules):
            raise ValueError("insurance: both dealer cards are face up in this game, so no "
                             "insurance is offered")
        removed = ranks(cards, field="cards") if len(cards) else ()
        if not self.shoe.is_infinite:
            need = counts_of(removed + (1,))
            for r, k in enumerate(need):
                if k > self.shoe.counts[r]:
                    raise ValueError(f"cards: the shoe holds {self.shoe.counts[r]} x "
                                     f"{label(r + 1)}, the cards and the dealer's ace need {k}")
        left = self.shoe.remove(*(removed + (1,))) if not self.shoe.is_infinite else self.shoe
        if left.size <= 0:
            raise ValueError("cards: no card would be left for the dealer's hole card")
        p_ten = left.probabilities()[9]
        return EV(3.0 * p_ten - 1.0, False)

    # ---- strategies --------------------------------------------------------------

    @property
    def strategy(self):
        """The total-dependent basic-strategy chart with composition-dependent exceptions."""
        if self._strategy is None:
            from .strategy import basic_strategy
            self._strategy = basic_strategy(self)
        return self._strategy

    def evaluate(self, strategy) -> float:
        """Overall EV (unconditioned) of the round when the player follows ``strategy``.

        strategy: a ``StrategyChart`` or a callable ``f(cards, dealer, allowed) -> action``
        where cards is a sorted tuple of ranks, dealer the upcard (or the tuple of both
        dealer cards in the exposed game) and allowed the tuple of legal actions; it is
        asked once per hand composition, dealer and kind of decision (the original two
        cards, a later decision, a split hand).  Resplits stay forced.
        """
        from .strategy import evaluate_policy
        return EV(evaluate_policy(self.rules, self.shoe, strategy), False)

    def outcome_distribution(self, strategy="optimal", *, insurance=False, spots=1):
        """The distribution of a round's net outcome; see bjsolve.distribution."""
        from .distribution import outcome_distribution
        return outcome_distribution(self, strategy, insurance=insurance, spots=spots)


def natural_dealer_value(rules: Rules, shoe: Shoe, key) -> float:
    """E[round] when the exposed dealer cards are a natural: lose 1, a natural pushes."""
    weights = player_hand_weights(shoe, key)
    total = sum(weights.values())
    push = -1.0 if rules.dealer_wins_ties else 0.0
    return sum(w * (push if is_natural(h) else -1.0) for h, w in weights.items()) / total


def make_engines(rules: Rules, shoe: Shoe, split_code: int) -> dict:
    params = kernel_rules(rules, split_code)
    keys = [k for k in dealer_keys(rules, shoe) if not (isinstance(k, tuple) and is_natural(k))]
    for k in keys:
        dealer_trie((k,) if isinstance(k, int) else k, rules.hit_soft_17)  # before threads
    return {k: UpcardEngine(shoe.kernel_weights(), k, params, shoe.is_infinite,
                            shoe.is_fractional) for k in keys}


def round_values(rules: Rules, shoe: Shoe, engines: dict) -> dict:
    """{dealer key: E[round | key]} for every key, exposed naturals included."""
    values = run_engines(engines)
    for k in dealer_keys(rules, shoe):
        if k not in values:
            values[k] = natural_dealer_value(rules, shoe, k)
    return values


def solve(rules: Rules | None = None, shoe: Shoe | None = None, *, split: str = "CDZ-") -> Solution:
    """Solve a rule set exactly.

    rules: a ``Rules`` (default ``Rules()``).
    shoe: the analysis shoe (default: the full shoe of ``rules.decks``; any composition, or
        ``Shoe.infinite()``).
    split: post-split strategy class, "CDZ-", "CDP1" or "CDP" (see REFERENCE.md).
    """
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a bjsolve.Rules, got {type(rules).__name__}")
    check_split_class(split)
    shoe = resolve_shoe(rules, shoe)
    if shoe.size < 10:
        raise ValueError(f"shoe too small for a round: {shoe.size} cards (at least 10 needed)")
    if round_may_run_out(rules, shoe):
        warnings.warn(f"a round could run out of cards in this {shoe.size}-card shoe: the values "
                      f"follow the analyzers' degenerate conventions (a dealer who must draw "
                      f"from an empty shoe busts) and describe no real game",
                      RuntimeWarning, stacklevel=2)
    engines = make_engines(rules, shoe, SPLIT_CLASSES[split])
    return Solution(rules, shoe, split, engines, round_values(rules, shoe, engines))
