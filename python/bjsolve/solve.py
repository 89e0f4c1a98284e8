"""Exact solves: every action's EV for any hand, the round's EV, strategy evaluation.

``solve(rules, shoe, split=...)`` builds one compiled ``UpcardEngine`` per upcard and runs
them in parallel threads (the kernels release the GIL).  Conventions follow
DESIGN-exact.md: internal values are unconditioned; per-hand values returned to users are
conditioned on no dealer blackjack when the dealer peeks (and say so).
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor

from bjcore import UpcardEngine, dealer_trie

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


def check_split_class(split) -> str:
    if split not in SPLIT_CLASSES:
        raise ValueError(f"split must be one of {', '.join(SPLIT_CLASSES)} "
                         f"(post-split strategy class), got {split!r}")
    return split


def check_supported(rules: Rules) -> None:
    """Rule values whose maths has not landed yet raise instead of giving wrong numbers."""
    unsupported = []
    if rules.hole_card != "peek":
        unsupported.append(f"hole_card={rules.hole_card!r}")
    if rules.surrender == "early":
        unsupported.append("surrender='early'")
    if rules.dealer_wins_ties:
        unsupported.append("dealer_wins_ties=True")
    if unsupported:
        raise ValueError("not supported by the engine yet: " + ", ".join(unsupported)
                         + " (supported: hole_card='peek', surrender 'none'/'late', pushes push)")


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
        "late_surrender": rules.surrender == "late",
        "blackjack_payout": rules.blackjack_payout,
        "split_class": split_code,
    }


def upcards_of(shoe: Shoe) -> tuple[int, ...]:
    return tuple(u for u in range(1, 11) if shoe.is_infinite or shoe.counts[u - 1] > 0)


def upcard_weight(shoe: Shoe, u: int) -> float:
    return shoe.probabilities()[u - 1]


def run_engines(engines: dict) -> dict:
    """E(u) of every engine, in parallel threads; returns {upcard: E(u)}."""
    order = [u for u in _WORK_ORDER if u in engines]
    workers = max(1, min(len(order), os.cpu_count() or 1))
    if workers == 1:
        return {u: engines[u].round_ev() for u in order}
    with ThreadPoolExecutor(max_workers=workers) as pool:
        values = list(pool.map(lambda u: engines[u].round_ev(), order))
    return dict(zip(order, values))


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
        best = None
        for a in ACTIONS:
            if a in self._values and (best is None or self._values[a] > self._values[best]):
                best = a
        return best

    def __repr__(self):
        body = ", ".join(f"{k}: {v:+.6f}" for k, v in self._values.items())
        cards = "".join(label(c) for c in self.cards)
        measure = "given no dealer blackjack" if self.given_no_blackjack else "unconditioned"
        split = f", split {self.split_strategy}" if "split" in self._values else ""
        return f"ActionValues({cards} v {label(self.dealer)}, {measure}{split}: {{{body}}})"


class Solution:
    """The exact solve of one rule set and shoe; see ``solve``.

    expected_value: the round's EV before any card is dealt (unconditioned, fraction of the
        initial bet; negative = house edge).
    ev_by_upcard: upcard (1..10) -> E[round | upcard], unconditioned.
    """

    def __init__(self, rules: Rules, shoe: Shoe, split: str, engines: dict, ev_by_upcard: dict):
        self.rules = rules
        self.shoe = shoe
        self.split = split
        self._engines = engines
        self.ev_by_upcard = {u: ev_by_upcard[u] for u in sorted(ev_by_upcard)}
        self.expected_value = sum(upcard_weight(shoe, u) * v for u, v in self.ev_by_upcard.items())
        self._strategy = None

    def __repr__(self):
        return (f"Solution({self.rules.describe()}, shoe={self.shoe!r}, split={self.split}, "
                f"expected_value={self.expected_value:+.10f} unconditioned)")

    @property
    def conditioned(self) -> bool:
        """Per-hand values are given no dealer blackjack (the dealer peeks)."""
        return self.rules.hole_card == "peek"

    # ---- one hand --------------------------------------------------------------

    def _hand(self, cards, dealer):
        cards = tuple(sorted(ranks(cards, field="cards")))
        if len(cards) < 2:
            raise ValueError(f"cards: a hand needs at least two cards, got {cards}")
        if sum(cards) > 21:
            raise ValueError(f"cards: {cards} is already bust (hard total {sum(cards)})")
        up = ranks(dealer, field="dealer")
        if len(up) != 1:
            raise ValueError(f"dealer: give one upcard, got {up}")
        u = up[0]
        if u not in self._engines:
            raise ValueError(f"dealer: the shoe holds no {label(u)} to be the upcard")
        if not self.shoe.is_infinite:
            need = counts_of(cards)
            need[u - 1] += 1
            for r, k in enumerate(need):
                if k > self.shoe.counts[r]:
                    raise ValueError(f"cards: the shoe holds {self.shoe.counts[r]} x {label(r + 1)}, "
                                     f"the hand and upcard need {k}")
        return cards, u

    def allowed_actions(self, cards, dealer) -> tuple[str, ...]:
        """Actions allowed for this hand as an unsplit hand (2 cards: round start)."""
        cards, u = self._hand(cards, dealer)
        return self._allowed(cards, u)

    def _allowed(self, cards, u):
        engine = self._engines[u]
        out = ["stand", "hit"]
        if engine.may_double_hand(counts_of(cards)):
            out.append("double")
        if len(cards) == 2:
            if cards[0] == cards[1] and engine.split_limit(cards[0]) >= 2:
                out.append("split")
            if self.rules.surrender == "late":
                out.append("surrender")
        return tuple(out)

    def hand_ev(self, cards, dealer, *, given_no_blackjack: bool | None = None) -> ActionValues:
        """EV of every allowed action for this exact hand against the upcard.

        cards: two or more cards (ranks or labels); two cards are the original hand
        (split and surrender may be allowed), more cards a later decision.
        Values are fractions of the initial bet, given no dealer blackjack when the dealer
        peeks (``given_no_blackjack=False`` gives the unconditioned values).  Split values
        use this solve's post-split class (``self.split``).
        """
        cards, u = self._hand(cards, dealer)
        if given_no_blackjack is None:
            given_no_blackjack = self.conditioned
        engine = self._engines[u]
        st, ht, dd, beta = engine.hand_values(counts_of(cards))
        allowed = self._allowed(cards, u)
        raw = {"stand": st, "hit": ht, "double": dd}
        natural = len(cards) == 2 and cards == (1, 10)
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
                v = -0.5 if given_no_blackjack else -0.5 - 0.5 * beta
            values[a] = v
        return ActionValues(values, cards=cards, dealer=u, given_no_blackjack=given_no_blackjack,
                            split_strategy=self.split)

    def best_action(self, cards, dealer) -> str:
        """The composition-dependent optimal action for this hand against the upcard."""
        return self.hand_ev(cards, dealer, given_no_blackjack=False).best

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

        strategy: a ``StrategyChart`` or a callable ``f(cards, upcard, allowed) -> action``
        where cards is a sorted tuple of ranks, upcard a rank and allowed the tuple of legal
        actions; it is asked once per hand composition, upcard and kind of decision (the
        original two cards, a later decision, a split hand).  Resplits stay forced.
        """
        from .strategy import evaluate_policy
        return evaluate_policy(self.rules, self.shoe, strategy)

    def policy_engines(self, strategy) -> dict:
        from .strategy import policy_engines
        return policy_engines(self.rules, self.shoe, strategy)


def make_engines(rules: Rules, shoe: Shoe, split_code: int) -> dict:
    params = kernel_rules(rules, split_code)
    for u in upcards_of(shoe):
        dealer_trie((u,), rules.hit_soft_17)  # build shared tries before threads start
    return {u: UpcardEngine(shoe.kernel_weights(), u, params, shoe.is_infinite)
            for u in upcards_of(shoe)}


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
    check_supported(rules)
    shoe = resolve_shoe(rules, shoe)
    if not shoe.is_infinite and len(shoe) < 10:
        raise ValueError(f"shoe too small for a round: {len(shoe)} cards (at least 10 needed)")
    engines = make_engines(rules, shoe, SPLIT_CLASSES[split])
    return Solution(rules, shoe, split, engines, run_engines(engines))
