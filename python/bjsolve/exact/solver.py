"""Exact solves: ``solve`` and what it returns (``Solution``, ``ActionValues``, ``EV``):
every action's EV for any hand, the round's EV, strategy evaluation.  The kernels' rule dict
is in ``kernel_rules``, the threads in ``scheduler``, the engines in ``engines``, strategy
evaluation in ``policy``.

``solve(rules, shoe=shoe, split=...)`` builds one compiled ``UpcardEngine`` per upcard and runs
them in parallel threads (the kernels release the GIL).  Conventions follow the exact
analyzers': internal values are unconditioned; per-hand values returned to users are
conditioned on no dealer blackjack when the dealer peeks (and say so).
"""
from __future__ import annotations

import contextlib
import threading
import warnings
from collections.abc import Mapping
from typing import Any

from ..model.actions import first_best
from ..model.deal import Deal, dealer_columns, dealer_label, exposed, is_natural
from ..model.mappings import CardMapping
from ..model.ranks import counts_of, hand_total, label, ranks
from ..model.ranks import show as _show
from ..model.rules import Rules
from ..model.shoe import Shoe
from ..output.notebook import action_values_html, solution_frame, solution_html
from ..output.table import shoe_words
from .dealer import resolve_shoe
from .engines import make_engines, solve_engines
from .ev import EV, insurance_ev_on
from .kernel_rules import SPLIT_CLASSES, check_split_class, check_threads, natural_tie_value
from .policy import after_double_chart, evaluate_policy
from .scheduler import run_units
from .strategy import StrategyChart, basic_strategy


class ActionValues(Mapping):
    """Action -> EV for one hand against one upcard (fractions of the initial bet).

    ``given_no_blackjack`` says whether the values are conditioned on the dealer not
    holding a natural; ``split`` names the post-split class of the split value.
    """

    def __init__(self, values, *, cards, dealer, given_no_blackjack, split):
        self._values = dict(values)
        self.cards = cards
        self.dealer = dealer
        self.given_no_blackjack = given_no_blackjack
        self.split = split

    def __getitem__(self, key):
        return self._values[key]

    def __iter__(self):
        return iter(self._values)

    def __len__(self):
        return len(self._values)

    @property
    def best(self) -> str:
        """The best action (ties go to the earlier of stand, hit, double, split, surrender)."""
        best = first_best(self._values)
        assert best is not None    # (Solution.hand_ev always values standing)
        return best

    def __repr__(self):
        body = ", ".join(f"{k}: {v:+.6f}" for k, v in self._values.items())
        cards = "".join(label(c) for c in self.cards)
        measure = "given no dealer blackjack" if self.given_no_blackjack else "unconditioned"
        split = f", split {self.split}" if "split" in self._values else ""
        return (f"ActionValues({cards} v {dealer_label(self.dealer)}, {measure}{split}: "
                f"{{{body}}})")

    def _repr_html_(self):
        return action_values_html(self)


class Solution:
    """The exact solve of one rule set and shoe; see ``solve``.

    expected_value: the round's EV before any card is dealt (unconditioned, fraction of the
        initial bet; negative = house edge).
    ev_by_upcard: upcard (1..10) -> E[round | upcard], unconditioned (only upcards the shoe
        can deal).
    ev_by_dealer: dealer key -> E[round | dealer key]: the upcard, or in the exposed game
        the sorted tuple of both dealer cards.

    A Solution may be shared between threads: the compiled engines keep per-hand state and
    memo tables, so every call into one engine holds that engine's lock, and the chart is
    built once under its own lock.  Different solves share nothing and run in parallel.
    A Solution pickles (its engines are rebuilt, empty, on loading; values are recomputed
    on demand and come out the same).
    """

    def __init__(self, rules: Rules, shoe: Shoe, split: str, engines: dict, ev_by_dealer: dict,
                 deal: Deal | None = None):
        self.rules = rules
        self.shoe = shoe
        self.split = split
        self.deal = Deal(rules, shoe) if deal is None else deal
        self._engines = engines
        self._engine_locks = {k: threading.RLock() for k in engines}
        self._strategy_lock = threading.Lock()
        self._strategy: StrategyChart | None = None    # (built on first use)
        self.may_run_out = self.deal.may_run_out
        # dicts here, made read-only CardMappings below
        self.ev_by_dealer: Mapping[Any, EV] = {k: self._ev(ev_by_dealer[k])
                                               for k in self.deal.keys}
        self.expected_value = self._ev(self.deal.combine(self.ev_by_dealer))
        if exposed(rules):
            by_up: dict = {}
            for k, v in self.ev_by_dealer.items():
                w = self.deal.weights[k]
                for up in set(k):  # a hand {a, b} has a as its first card half the time
                    share = w if k[0] == k[1] else w / 2
                    tot = by_up.setdefault(up, [0.0, 0.0])
                    tot[0] += share * v
                    tot[1] += share
            self.ev_by_upcard: Mapping[int, EV] = {u: self._ev(t[0] / t[1])
                                                   for u, t in sorted(by_up.items()) if t[1] > 0}
        else:
            self.ev_by_upcard = dict(sorted(self.ev_by_dealer.items()))
        # read-only, and indexable by card labels: sol.ev_by_upcard["A"]
        self.ev_by_upcard = CardMapping(self.ev_by_upcard, "upcard")
        self.ev_by_dealer = CardMapping(self.ev_by_dealer, "dealer")

    def _ev(self, value) -> EV:
        return EV(value, False, self.split)

    def __repr__(self):
        caveat = ", shoe may run out (degenerate values)" if self.may_run_out else ""
        return (f"Solution({self.rules.describe()}, shoe={self.shoe!r}, split={self.split}, "
                f"expected_value={self.expected_value:+.10f} unconditioned{caveat})")

    def __reduce__(self):
        raw = {k: float(v) for k, v in self.ev_by_dealer.items()}
        return (_restore_solution, (self.rules, self.shoe, self.split, raw, self._strategy))

    @contextlib.contextmanager
    def locked_engine(self, key):
        """``with sol.locked_engine(key) as engine:`` the compiled engine of a dealer key,
        held under its lock: the way for other modules (counting) to call engine methods
        that set hand state, freeze decisions or copy a policy on a shared solution."""
        with self._engine_locks[key]:
            yield self._engines[key]

    def _record_decisions(self) -> None:
        """Record every decision of this solve in its engines (``freeze_decisions``:
        the two cards, every later decision, split hands as the post-split class plays
        them), once: engines that play this solve's decisions copy them from there (the
        round laws, the fixed-strategy effects of removal).  Each engine is changed under
        its lock, so threads sharing the solution never see one half recorded; recording
        twice records the same decisions."""
        if getattr(self, "_decisions_recorded", False):
            return
        for key in list(self._engines):
            with self.locked_engine(key) as engine:
                engine.freeze_decisions()
        self._decisions_recorded = True

    def _share_decisions(self, kernels: dict) -> None:
        """Give each kernel of ``kernels`` ({dealer key: round laws or spot moments}) this
        solve's recorded decisions for its key (``copy_policy_from``: shared, not copied)."""
        self._record_decisions()
        for key, kernel in kernels.items():
            with self.locked_engine(key) as engine:
                kernel.copy_policy_from(engine)

    @property
    def dealer_keys(self) -> list:
        """The dealer keys the shoe can deal: upcards 1..10, or in the exposed game the
        sorted pairs of both dealer cards."""
        return list(self.ev_by_dealer)

    @property
    def playable_keys(self) -> tuple:
        """The dealer keys with decisions (all but an exposed dealer natural)."""
        return self.deal.playable_keys

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
                                 f"give two cards, got {_show(cards)}")
            key = tuple(sorted(cards))
            if is_natural(key):
                raise ValueError("dealer: the dealer's cards are a natural; the round is over")
        else:
            if len(cards) != 1:
                raise ValueError(f"dealer: give one upcard, got {_show(cards)}")
            key = cards[0]
        if key not in self._engines:
            raise ValueError(f"dealer: the shoe cannot deal the dealer {dealer_label(key)}")
        return key

    def _hand(self, cards, dealer):
        cards = tuple(sorted(ranks(cards, field="cards")))
        if len(cards) < 2:
            raise ValueError(f"cards: a hand needs at least two cards, got {cards}")
        if sum(cards) > 21:
            raise ValueError(f"cards: {_show(cards)} is already bust (hard total {sum(cards)})")
        key = self._dealer_key(dealer)
        need = counts_of(cards)
        for c in ((key,) if isinstance(key, int) else key):
            need[c - 1] += 1
        for r, k in enumerate(need):
            if self.shoe.is_infinite:
                if k and self.shoe.counts[r] <= 0:
                    raise ValueError(f"cards: this infinite shoe never deals a {label(r + 1)} "
                                     f"(its proportion is 0)")
            elif k and k - 1 >= self.shoe.counts[r]:  # k > count for whole counts; a
                # fractional shoe deals a rank while its count left is positive
                raise ValueError(f"cards: the shoe holds {self.shoe.counts[r]:g} x {label(r + 1)}, "
                                 f"the hand and the dealer's cards need {k}")
        return cards, key

    def allowed_actions(self, cards, dealer) -> tuple[str, ...]:
        """Actions allowed for this hand as an unsplit hand (2 cards: round start)."""
        cards, key = self._hand(cards, dealer)
        with self._engine_locks[key]:
            return self._allowed(cards, key)

    def _allowed(self, cards, key):
        # the caller holds the engine's lock (these calls set and clear the engine's hand)
        engine = self._engines[key]
        if self.rules.charlie and len(cards) >= self.rules.charlie:
            return ("stand",)    # a charlie stops and wins at once (docs/games.md)
        if self.rules.bonus_21_at_once and len(cards) >= 5 and hand_total(cards)[0] == 21:
            return ("stand",)    # a 21 of five or more cards is paid at once
        out = ["stand", "hit"]
        if engine.may_double_hand(counts_of(cards)):
            out.append("double")
        if len(cards) == 2:
            if cards[0] == cards[1] and engine.split_limit(cards[0]) >= 2:
                out.append("split")
            if self.rules.surrender != "none":
                out.append("surrender")
        elif self.rules.surrender_any_time:
            out.append("surrender")      # late surrender after hitting too
        return tuple(out)

    def hand_ev(self, cards, dealer, *, given_no_blackjack: bool | None = None) -> ActionValues:
        """EV of every allowed action for this exact hand against the dealer.

        cards: two or more cards (ranks or labels); two cards are the original hand
        (split and surrender may be allowed), more cards a later decision.
        dealer: the upcard, or both dealer cards in the exposed game.
        Values are fractions of the initial bet, given no dealer blackjack when the dealer
        peeks before the decision; unconditioned otherwise (no hole card, an early
        surrender decision, or ``given_no_blackjack=False``).  The result says which.
        Where the hole card surely completes a dealer natural (an ace up and only tens
        left, or the reverse), "given no blackjack" is undefined: by default the values
        are then unconditioned (``given_no_blackjack`` False on the result), and asking
        for ``given_no_blackjack=True`` raises ValueError.
        Split values use this solve's post-split class (``self.split``).
        A two-card natural is paid at once: its "stand" is the payout (a tied dealer
        natural per the rules); "hit" and "double" are listed as the published tables list
        them (the values of playing on a soft 21) but are no decision a player meets.
        """
        if given_no_blackjack is not None and not isinstance(given_no_blackjack, bool):
            raise TypeError(f"given_no_blackjack must be True, False or None (the game's "
                            f"default), got {_show(given_no_blackjack)}")
        cards, key = self._hand(cards, dealer)
        asked = given_no_blackjack
        if given_no_blackjack is None:
            given_no_blackjack = self.conditioned_for(cards)
        elif given_no_blackjack and self.rules.hole_card != "peek":
            raise ValueError("given_no_blackjack=True needs a peek game (hole_card='peek')")
        engine = self._engines[key]
        counts = counts_of(cards)
        with self._engine_locks[key]:
            st, ht, dd, beta = engine.hand_values(counts)
            allowed = self._allowed(cards, key)
            split = engine.split_ev(cards[0]) if "split" in allowed else None
            surrender = (engine.surrender_ev(counts) if "surrender" in allowed
                         and not given_no_blackjack else None)
        if given_no_blackjack and (beta >= 1.0 or (split is not None and split[1] >= 1.0)):
            if asked:
                raise ValueError(f"given_no_blackjack: undefined for "
                                 f"{''.join(label(c) for c in cards)} v {dealer_label(key)}: "
                                 f"the hole card surely completes a dealer natural")
            given_no_blackjack = False  # undefined: report the unconditioned values
            if "surrender" in allowed:
                with self._engine_locks[key]:
                    surrender = engine.surrender_ev(counts)
        raw = {"stand": st, "hit": ht, "double": dd}
        natural = is_natural(cards)
        p = 1.0 - beta
        values = {}
        for a in allowed:
            if a in raw:
                v = raw[a]
                if given_no_blackjack:
                    if natural and a == "stand":  # a tied natural is settled, not lost
                        v = (v - natural_tie_value(self.rules) * beta) / p
                    else:
                        v = (v + 1.0 - p) / p
            elif a == "split":
                assert split is not None    # (computed when split is allowed)
                v, beta_s = split
                if given_no_blackjack:
                    v = (v + beta_s) / (1.0 - beta_s)
            else:  # surrender
                v = -0.5 if given_no_blackjack else surrender
            values[a] = v
        return ActionValues(values, cards=cards, dealer=key, given_no_blackjack=given_no_blackjack,
                            split=self.split)

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
        removed = ranks(cards, field="cards")
        if 1 not in self._engines:
            raise ValueError("insurance: the shoe cannot deal the dealer an ace")
        return insurance_ev_on(self.shoe, removed, "cards")

    # ---- strategies --------------------------------------------------------------

    @property
    def strategy(self) -> StrategyChart:
        """The total-dependent basic-strategy chart with composition-dependent exceptions
        (built once, on first use; safe to ask from several threads)."""
        if self._strategy is None:
            with self._strategy_lock:
                if self._strategy is None:
                    self._strategy = basic_strategy(self, no_das=self._no_das_solution())
        return self._strategy

    def _no_das_solution(self):
        """The same solve without double after split, which the chart needs to mark the
        splits that are right only because of it (None where that cannot arise)."""
        rules = self.rules
        if rules.hole_card == "exposed" or not rules.double_after_split or rules.max_split_hands < 2:
            return None
        # only the pairs' values are needed: engines that compute them on demand, not a
        # whole second solve (which would also run every round)
        return PairsWithoutDAS(self)

    def evaluate(self, strategy, *, after_double=None) -> float:
        """Overall EV (unconditioned) of the round when the player follows ``strategy``.

        strategy: a ``StrategyChart`` or a callable ``f(cards, dealer, allowed) -> action``
        where cards is a sorted tuple of ranks, dealer the upcard (or the tuple of both
        dealer cards in the exposed game) and allowed the tuple of legal actions; it is
        asked once per hand composition, dealer and kind of decision (the original two
        cards, a later decision, a split hand).  Resplits stay forced.  A strategy whose
        answers depend only on the hand's hard total, whether it holds an ace, whether it
        is the first two cards and which pair (a ``StrategyChart``, or a class declaring
        ``total_dependent = True``) is asked once per such kind of hand instead.

        after_double: with redoubles or double rescue, the choice after a double's card as
        ``simulate(after_double=)`` takes it, f(cards, dealer, allowed, split, doubles) ->
        "stand", "redouble" or "rescue", or "basic": the full-shoe after-double chart
        (``bjsolve.exact.policy.after_double_chart``), which ``simulate(after_double=
        "basic")`` plays too; None (the default): the optimal choice for each hand.
        """
        if isinstance(after_double, str) and after_double == "basic":
            after_double = after_double_chart(self)
        return EV(evaluate_policy(self.rules, self.shoe, strategy, deal=self.deal,
                                  after_double=after_double), False)

    def outcome_distribution(self, strategy="optimal", *, insurance=False, spots=1,
                             threads=None, exact_splits=True, exact_spots=False,
                             after_double=None):
        """The distribution of a round's net outcome in initial bets (an
        ``OutcomeDistribution``): unconditioned (dealer naturals included); its mean equals
        ``expected_value`` (or ``evaluate(strategy)``) to about 1e-15; ``.exact`` says
        whether the probabilities are exact, ``.method`` how they were combined when not,
        ``.variance_exact`` whether the SD is.  strategy: "optimal" (this solve's play,
        split class ``self.split``), a ``StrategyChart`` or a callable as for ``evaluate``;
        spots: 1..3 hands against one dealer; after_double (the games, with a strategy):
        as for ``evaluate``.  The games' rules too (their own result values; a split into
        two hands exact, one that may make more hands combined given the dealer's outcome,
        ``exact=False`` then on a finite shoe).  Details:
        ``bjsolve.exact.distribution``."""
        # (lazy: the distribution needs numpy, which a solve and its chart do without)
        from .distribution import outcome_distribution
        return outcome_distribution(self, strategy, insurance=insurance, spots=spots,
                                    threads=threads, exact_splits=exact_splits,
                                    exact_spots=exact_spots, after_double=after_double)


    # ---- in a notebook ---------------------------------------------------------------
    def _repr_html_(self):
        return solution_html(self, shoe_words(self.shoe, self.rules.decks))

    def to_pandas(self):
        """EV of the round by dealer card (columns probability, ev: unconditioned, fraction
        of the initial bet); ``attrs`` hold the expected value.  Needs pandas."""
        return solution_frame(self)

class PairsWithoutDAS:
    """The unconditioned values of the pairs when doubling after a split is not allowed,
    for ``_mark_das_splits``: the same rules and shoe without DAS, with engines that
    compute a pair's split on demand instead of a whole second solve.  ``hand_ev`` gives
    what ``Solution.hand_ev(pair, key, given_no_blackjack=False)`` would.  Only the split
    depends on DAS: the other actions' values are the solution's own."""

    def __init__(self, solution):
        self.rules = solution.rules.replace(double_after_split=False)
        self.playable_keys = solution.playable_keys
        self._solution = solution
        self._engines = make_engines(self.rules, solution.shoe, SPLIT_CLASSES[solution.split])

    def prepare(self, needed, threads: int | None = None) -> None:
        """Value the splits of ``needed`` [(dealer key, pair rank)] ahead, in parallel
        threads (one per engine at a time; the engines keep the values)."""
        by_key: dict = {}
        for key, pair in needed:
            by_key.setdefault(key, []).append(pair)

        run_units(by_key, lambda key: [self._engines[key].split_ev(pair)
                                       for pair in by_key[key]], threads)

    def hand_ev(self, cards, key, *, given_no_blackjack=False) -> dict:
        if given_no_blackjack or len(cards) != 2 or cards[0] != cards[1]:
            raise ValueError("PairsWithoutDAS gives the unconditioned values of pairs only")
        values = dict(self._solution.hand_ev(cards, key, given_no_blackjack=False))
        if "split" in values:
            values["split"] = self._engines[key].split_ev(cards[0])[0]
        return values


def _restore_solution(rules, shoe, split, ev_by_dealer, strategy):
    """Unpickle a Solution: fresh (empty) engines, the round values as they were."""
    deal = Deal(rules, shoe)
    sol = Solution(rules, shoe, split, make_engines(rules, shoe, SPLIT_CLASSES[split], deal),
                   ev_by_dealer, deal)
    sol._strategy = strategy
    return sol


def solve(rules: Rules | None = None, *, shoe: Shoe | None = None, split: str = "CDZ-",
          threads: int | None = None) -> Solution:
    """Solve a rule set exactly.

    rules: a ``Rules`` (default ``Rules()``).
    shoe: the analysis shoe (default: the full shoe of ``rules.decks``; any composition, or
        ``Shoe.infinite()``).  A shoe given is the shoe solved: ``rules.decks`` is then not
        used (``solve(Rules(decks=1), shoe=Shoe.decks(6))`` is a six-deck solve).
    split: post-split strategy class, "CDZ-", "CDP1" or "CDP".  The classes are heuristics
        for play after a split, not bounds of one another: CDP's round EV is usually the
        highest, but on some depleted shoes it comes out below CDP1's or CDZ-'s (see
        docs/split-classes.md).
    threads: how many threads solve the upcards in parallel (None: every core; 1: the
        calling thread only).  The results do not depend on it, bit for bit.

    Blackjack Switch (``rules.switch``): the result is a ``bjsolve.exact.switch.
    SwitchSolution`` (the house edge per hand and per round, the method, the switch
    strategy and the hands' chart), not a ``Solution``.
    """
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a bjsolve.Rules, got {type(rules).__name__}")
    if rules.switch:
        from .switch import solve_switch
        # a different kind of result (two hands, a switch decision): typed as Solution for
        # the callers of the one-hand games, which never pass switch rules (their commands
        # refuse them by name)
        return solve_switch(rules, shoe, split=split, threads=threads)  # type: ignore[return-value]
    split = check_split_class(split)
    check_threads(threads)
    shoe = resolve_shoe(rules, shoe)
    if shoe.size < 10:
        raise ValueError(f"shoe too small for a round: {shoe.size:g} cards (at least 10 needed)")
    deal = Deal(rules, shoe)
    if deal.may_run_out:
        warnings.warn(f"a round could run out of cards in this {shoe.size:g}-card shoe: the values "
                      f"follow the analyzers' degenerate conventions (a dealer who must draw "
                      f"from an empty shoe busts) and describe no real game",
                      RuntimeWarning, stacklevel=2)
    engines, values = solve_engines(rules, shoe, SPLIT_CLASSES[split], deal, threads, kind=split)
    return Solution(rules, shoe, split, engines, values, deal)
