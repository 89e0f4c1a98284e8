"""Card counting: effects of removal, linear estimates, true-count advantage, count-system
correlations and exact index numbers.

Conventions (stated again in every table the CLI prints):

* An effect of removal (EOR) is ``E(S - [r]) - E(S)``: the change in the round's EV
  (unconditioned, fraction of the initial bet) when one card of rank r leaves shoe S.
  ``strategy="fixed"`` plays S's composition-dependent optimal decisions, frozen, on the
  depleted shoe: every decision, split hands as the post-split class played them (CDZ-:
  as the unsplit hand; CDP1: per pair rank; CDP: per pair rank and extra pair cards gone);
  ``"reoptimized"`` solves the depleted shoe afresh.
* True count = running count / decks remaining.  A shoe "at true count TC" is built at a
  stated depth: ``dealt`` cards are removed, in proportion within each tag class, and
  removals are moved from the lowest-tag class to the highest-tag class until the running
  count equals TC x decks remaining (for unbalanced systems, the running count in excess
  of its expected value at that depth).  A class is never depleted below one card of each
  of its ranks (the shoe must still be able to deal every card); a true count that needs
  more is out of reach at that depth.

Solves are shared through ``shoe_values`` (one solve per rules, shoe and split class per
process); see docs/counting.md for the methods.
"""
from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import NamedTuple, cast

import numpy as np


from ..exact.dealer import resolve_shoe
from ..exact.engines import engine_class, make_engines, round_values
from ..exact.kernel_rules import (POLICY_CLASS, SPLIT_CLASSES, check_split_class, kernel_rules,
                                   with_shoe)
from ..model.checks import is_finite_real
from ..model.deal import dealer_key_weight
from ..model.hands import hand_code
from ..model.ranks import UPCARD_ORDER, label, rank, ranks, show
from ..model.rules import Rules
from ..model.shoe import Shoe
from ..output.notebook import (decision_effects_frame, decision_effects_html,
                               removal_effects_frame, removal_effects_html)
from ..output.progress import progress_callback
from ..output.table import shoe_words
from .shoe_values import cached, remember, shoe_key, shoe_values, solve_and_keep, two_card_weights

# Tags for A, 2, ..., 9, T.
SYSTEMS = {
    "hilo": ("Hi-Lo", (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1)),
    "ko": ("KO", (-1, 1, 1, 1, 1, 1, 1, 0, 0, -1)),
    "hiopt1": ("Hi-Opt I", (0, 0, 1, 1, 1, 1, 0, 0, 0, -1)),
    "hiopt2": ("Hi-Opt II", (0, 1, 1, 2, 2, 1, 1, 0, 0, -2)),
    "omega2": ("Omega II", (0, 1, 1, 2, 2, 2, 1, 0, -1, -2)),
    "zen": ("Zen", (-1, 1, 1, 2, 2, 2, 1, 0, 0, -2)),
    "halves": ("Wong Halves", (-1, 0.5, 1, 1, 1.5, 1, 0.5, 0, -0.5, -1)),
    "red7": ("Red 7 (7 counted +0.5)", (-1, 1, 1, 1, 1, 1, 0.5, 0, 0, -1)),
    "uston-apc": ("Uston APC", (0, 1, 2, 2, 3, 2, 2, 1, -1, -3)),
}
INSURANCE_VECTOR = (4, 4, 4, 4, 4, 4, 4, 4, 4, -9)
# Griffin's single-deck betting EORs (percent), as published in The Theory of Blackjack
GRIFFIN_1D_EOR = (-0.61, 0.38, 0.44, 0.55, 0.69, 0.46, 0.28, 0.00, -0.18, -0.51)


def count_tags(system) -> tuple:
    """Tags A..T of a named system (see ``SYSTEMS``) or of a user vector of 10 numbers."""
    if isinstance(system, str):
        try:
            return tuple(float(t) for t in SYSTEMS[system.lower()][1])
        except KeyError:
            raise ValueError(f"unknown count system {show(system)}; known: "
                             f"{', '.join(SYSTEMS)} (or give 10 tags A..T)") from None
    return _ten_numbers(system, "a tag vector", "tags")


def _ten_numbers(vector, what: str, items: str) -> tuple:
    """10 finite numbers A, 2..9, T as floats, or a clear ValueError."""
    if isinstance(vector, (str, bytes)):
        raise ValueError(f"{what} needs 10 numbers (A, 2..9, T), got {show(vector)}")
    try:
        values = tuple(vector)
    except TypeError:
        raise ValueError(f"{what} needs 10 numbers (A, 2..9, T), got {show(vector)}") from None
    if len(values) != 10:
        raise ValueError(f"{what} needs 10 numbers (A, 2..9, T), got {len(values)}")
    out = []
    for t in values:
        if not is_finite_real(t):
            raise ValueError(f"{items} must be finite numbers (within a float's range, "
                             f"about 1.8e308), got {show(t)}")
        out.append(float(t))
    return tuple(out)


def check_rules(rules) -> Rules:
    """``rules`` itself, or a TypeError naming the field."""
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a bjsolve.Rules, got {type(rules).__name__}")
    return rules


def finite_number(value, field: str) -> float:
    """``value`` as a float, or a clear error: a real, finite number."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{field} must be a number, got {type(value).__name__}")
    if not is_finite_real(value):
        raise ValueError(f"{field} must be a finite number (within a float's range), "
                         f"got {show(value)}")
    return float(value)


def integer_grid(true_counts, field: str = "true_counts") -> tuple:
    """A non-empty, strictly increasing sequence of whole true counts, or a clear error."""
    try:
        values = tuple(true_counts)
    except TypeError:
        raise TypeError(f"{field} must be a sequence of whole true counts, got "
                        f"{type(true_counts).__name__}") from None
    if not values:
        raise ValueError(f"{field} is empty: give whole true counts in increasing order")
    out = []
    for t in values:
        if (isinstance(t, bool) or not isinstance(t, (int, float, np.integer, np.floating))
                or not math.isfinite(t) or t != int(t)):
            raise ValueError(f"{field} must hold whole true counts, got {str(t)[:40]!r}")
        out.append(int(t))
    if any(b <= a for a, b in zip(out, out[1:])):
        shown = ", ".join(map(str, out[:12])) + (", ..." if len(out) > 12 else "")
        raise ValueError(f"{field} must be strictly increasing, got {shown}")
    return tuple(out)


def eor_vector(eor) -> tuple:
    """The 10 effects of removal A..T of a ``RemovalEffects`` or a user vector (any unit:
    correlations do not depend on it)."""
    if isinstance(eor, RemovalEffects):
        missing = [label(r) for r in range(1, 11) if r not in eor.effects]
        if missing:
            raise ValueError(f"no effect of removal for {', '.join(missing)} (none in the shoe)")
        return eor.as_vector()
    return _ten_numbers(eor, "an EOR vector", "effects of removal")


def _thirteen(v):
    """Per-rank vector A..T expanded to 13 ranks (the ten-valued entry four times)."""
    return np.array(list(v[:9]) + [v[9]] * 4, dtype=float)


def correlation(tags, vector) -> float:
    """Pearson correlation over the 13 ranks (T, J, Q, K share the ten's entries).

    Each vector is scaled to a largest entry of 1 before and after centring, so that
    huge or tiny magnitudes (1e300, 1e-300) neither overflow nor underflow."""
    return float(_unit_centred(tags) @ _unit_centred(vector))


def _unit_centred(vector) -> np.ndarray:
    v = _thirteen(vector)
    if not np.all(np.isfinite(v)):
        raise ValueError("correlation needs finite numbers")
    for _ in range(2):
        top = float(np.max(np.abs(v)))
        if top == 0.0:
            break
        v = v / top
        v = v - v.mean()
    norm = float(np.sqrt(v @ v))
    if norm == 0.0 or not math.isfinite(norm):
        raise ValueError("correlation undefined: a vector is constant")
    return v / norm


def betting_correlation(system, eor=GRIFFIN_1D_EOR) -> float:
    """BC: correlation of the tags with the effects of removal (``eor``: a
    ``RemovalEffects`` from ``effects_of_removal`` or any 10 numbers A..T; default
    Griffin's published single-deck vector)."""
    return correlation(count_tags(system), eor_vector(eor))


def insurance_correlation(system) -> float:
    """IC: correlation of the tags with the insurance vector (+4 non-ten, -9 ten)."""
    return correlation(count_tags(system), INSURANCE_VECTOR)


# ---- effects of removal ------------------------------------------------------------------

def _frozen_engines(sol0, shoe1: Shoe):
    """Engines for shoe1 playing sol0's decisions (frozen)."""
    engines = make_engines(sol0.rules, shoe1, POLICY_CLASS)
    for key, engine in engines.items():
        with sol0.locked_engine(key) as source:
            source.copy_policy_to(engine)
    return engines


def fixed_strategy_ev(sol0, shoe1: Shoe) -> float:
    """EV (unconditioned) on ``shoe1`` of sol0's optimal decisions, frozen.

    Every decision of the solve is frozen: the first two cards, every later decision, and
    the decisions of split hands as sol0's post-split class made them: CDZ- plays a split
    hand like the unsplit hand of the same composition, CDP1 by the choice it made with one
    extra pair card gone (per pair rank), CDP by its choice in each split context (pair
    rank and extra pair cards gone).  The fixed-strategy effects of removal therefore
    average to zero for every class."""
    sol0._record_decisions()
    values = round_values(sol0.rules, shoe1, _frozen_engines(sol0, shoe1))
    return sum(dealer_key_weight(shoe1, k) * v for k, v in values.items())


@dataclass(frozen=True)   # (its generated __eq__ compares the fields, not Mapping's)
class RemovalEffects(Mapping):
    """rank -> change in the round's EV (fraction of the initial bet) when one card of
    that rank is removed, with the strategy named (``"fixed"`` or ``"reoptimized"``).

    A read-only ``Mapping`` keyed by rank: any card spelling looks an entry up
    (``eor["A"]``, ``eor[1]``, ``eor["K"]``); iteration, ``keys()``, ``items()``,
    ``values()``, ``dict(eor)`` and ``list(eor)`` give the ranks 1..10 in the order A,
    2..9, T, as ``CardMapping`` results (``sol.ev_by_upcard``) do.  A key that is not a
    card is a ValueError or TypeError naming it (``in`` answers False)."""
    effects: dict
    base_ev: float
    strategy: str
    split: str
    rules: Rules
    shoe: Shoe

    def __getitem__(self, r):
        return self.effects[rank(r, field="rank")]

    def __iter__(self):
        return iter(sorted(self.effects))

    def __len__(self):
        return len(self.effects)

    def __contains__(self, r):
        try:
            return rank(r, field="rank") in self.effects
        except (TypeError, ValueError):
            return False

    def weighted_mean(self) -> float:
        """Sum of p_r * EOR_r: 0 for a fixed strategy (fundamental theorem)."""
        p = self.shoe.probabilities()
        return sum(p[r - 1] * v for r, v in self.effects.items())

    def as_vector(self) -> tuple:
        """The effects of removal A, 2..9, T as a tuple (NaN for a rank not in the shoe)."""
        return tuple(self.effects.get(r, float("nan")) for r in range(1, 11))

    def to_pandas(self):
        """The effects by rank (index A, 2..9, T; columns effect: fraction of the initial
        bet, unconditioned; probability: the rank's share of the shoe).  Needs pandas."""
        return removal_effects_frame(self)

    def _repr_html_(self):
        return removal_effects_html(self, shoe_words(self.shoe, self.rules.decks))


def effects_of_removal(rules: Rules, *, shoe: Shoe | None = None, strategy: str = "fixed",
                       split: str = "CDZ-", progress=None) -> RemovalEffects:
    """Effect of removing one card of each rank on the round's EV: rank -> E(S - [r]) - E(S)
    (unconditioned, fraction of the initial bet).  ``strategy="fixed"`` plays the full
    shoe's composition-dependent optimal decisions, frozen, on each depleted shoe (their
    probability-weighted mean is 0); ``"reoptimized"`` solves each depleted shoe afresh.
    ``progress(done, total)`` is called after each depleted shoe; ``progress=True`` draws a
    bar with an ETA on a terminal or in a notebook."""
    progress = progress_callback(progress, "effects of removal")
    return _removal_effects(rules, shoe, (strategy,), split, progress)[0]


def _removal_effects(rules, shoe, strategies, split, progress=None) -> list:
    """Effects of removal for several strategies, sharing the full shoe's solve.

    Work is shared across calls in this process: each shoe's exact EV comes from
    ``shoe_values`` (the re-optimised effects and the per-decision effects of the same
    depleted shoes use one solve each), and finished fixed-strategy effects are kept by
    rules, shoe and split class."""
    check_rules(rules)
    for strategy in strategies:
        if strategy not in ("fixed", "reoptimized"):
            raise ValueError(f"strategy must be 'fixed' or 'reoptimized', got {strategy!r}")
    split = check_split_class(split)
    shoe = resolve_shoe(rules, shoe)
    if shoe.is_infinite:
        raise ValueError("an infinite shoe has no effects of removal (removing a card changes nothing)")
    empty = [label(r) for r in range(1, 11) if shoe.counts[r - 1] < 1]
    if empty:
        raise ValueError(f"effects of removal need a card of every rank to remove; the shoe has "
                         f"no {', '.join(empty)} left")
    total = 10 * len(strategies)
    done = [0]

    def step():
        done[0] += 1
        if progress is not None:
            progress(done[0], total)

    base_ev = None
    out: list[RemovalEffects] = []
    for strategy in strategies:
        if strategy == "fixed":
            base_ev, effects = cached(("fixed-eor",) + shoe_key(rules, shoe, split),
                                      lambda: _fixed_effects(rules, shoe, split, step))
        else:
            base_ev = shoe_values(rules, shoe, split).expected_value
            effects = {}
            for r in range(1, 11):
                effects[r] = shoe_values(rules, shoe.remove(r), split).expected_value - base_ev
                step()
            effects = tuple(effects.items())
        done[0] = 10 * (len(out) + 1)
        out.append(RemovalEffects(dict(effects), base_ev, strategy, split, rules, shoe))
    return out


def _fixed_effects(rules, shoe, split, step) -> tuple:
    """(base EV, ((rank, fixed-strategy effect), ...)): the base solve is this call's own,
    since freezing its decisions marks its engines; its values still go to the cache."""
    values, sol0 = solve_and_keep(rules, shoe, split)
    remember(values)
    effects = []
    for r in range(1, 11):
        effects.append((r, fixed_strategy_ev(sol0, shoe.remove(r)) - sol0.expected_value))
        step()
    return float(sol0.expected_value), tuple(effects)


@dataclass(frozen=True)
class EVEstimate:
    """``estimate_ev``'s answer (fractions of the initial bet): ``linear`` the EOR estimate
    of the EV after ``removed`` left the shoe and ``linear_change`` = linear - base;
    ``exact`` that shoe's exact EV and ``exact_change`` = exact - base (both None when not
    asked for); ``base`` the EV the estimate starts from; ``strategy`` the EORs' strategy
    ("fixed", "reoptimized" or "user")."""
    linear: float
    linear_change: float
    exact: float | None
    exact_change: float | None
    base: float
    removed: tuple
    strategy: str


def estimate_ev(rules: Rules, removed, *, shoe: Shoe | None = None, strategy: str = "fixed",
                split: str = "CDZ-", effects=None, base: float | None = None,
                rescale: bool = True, exact: bool = True) -> EVEstimate:
    """Linear (EOR) estimate of the EV after ``removed`` cards leave the shoe, beside the
    exact EV of that shoe (a solve of it).

    ``effects``: a ``RemovalEffects`` (default: this shoe's, ``strategy``) or a user vector
    of 10 effects A..T as fractions of a bet (then ``base`` is the full shoe's EV; default:
    this shoe's exact EV).  The estimate is ``base + c * sum_r k_r * EOR_r`` for k cards
    removed from N, with ``c = (N - 1)/(N - k)`` (``rescale=True``: the EORs are linear in
    the shoe's proportions, rescaled to the cards that are left; fixed-strategy EORs then
    estimate a proportional removal exactly) or ``c = 1`` (``rescale=False``: the plain
    sum, as in the worked example of Solowiej (2024)).  Returns an ``EVEstimate``
    (``exact`` and ``exact_change`` None with ``exact=False``).
    """
    check_rules(rules)
    split = check_split_class(split)
    shoe = resolve_shoe(rules, shoe)
    if shoe.is_infinite:
        raise ValueError("removing cards from an infinite shoe changes nothing: give a finite shoe")
    # one card (5, "T") or several; "" as () removes nothing
    out = () if isinstance(removed, str) and not removed.strip() else ranks(removed,
                                                                           field="removed")
    left = shoe.remove(*out) if out else shoe
    if len(left) < 1:
        raise ValueError("the removals leave no cards in the shoe")
    if effects is None:
        effects = effects_of_removal(rules, shoe=shoe, strategy=strategy, split=split)
    if isinstance(effects, RemovalEffects):
        vector, label_ = effects.as_vector(), effects.strategy
        base_ev: float | None = effects.base_ev if base is None else finite_number(base, "base")
    else:
        vector, label_ = _ten_numbers(effects, "an EOR vector", "effects of removal"), "user"
        base_ev = None if base is None else finite_number(base, "base")
    for c in set(out):
        if math.isnan(vector[c - 1]):
            raise ValueError(f"no effect of removal for {label(c)}")
    exact_ev = shoe_values(rules, left, split).expected_value if exact else None
    if base_ev is None:
        base_ev = shoe_values(rules, shoe, split).expected_value
    n, k = len(shoe), len(out)
    factor = (n - 1) / (n - k) if rescale else 1.0
    change = factor * sum(vector[c - 1] for c in out)
    return EVEstimate(linear=base_ev + change, linear_change=change, exact=exact_ev,
                      exact_change=None if exact_ev is None else exact_ev - base_ev,
                      base=base_ev, removed=tuple(out), strategy=label_)


# ---- per-decision effects of removal -----------------------------------------------------

@dataclass(frozen=True)
class DecisionEffects:
    """Effects of removal on one decision: one hand (exact composition) against one upcard.

    ``values``: action -> EV in the shoe (fraction of the initial bet, given no dealer
    blackjack in a peek game, as ``Solution.hand_ev``); ``effects``: action -> {rank ->
    change in that EV when one more card of the rank leaves the shoe}.  ``difference(a,
    b)`` gives rank -> change in EV(a) - EV(b), the per-decision EOR that index numbers
    and playing efficiency use."""
    cards: tuple
    dealer: int
    values: dict
    effects: dict
    given_no_blackjack: bool
    note: str = ""

    def difference(self, first: str, second: str) -> dict:
        """rank -> effect of removal on EV(first) - EV(second): how removing one card of
        the rank moves the gap between two options (the index-play direction)."""
        for a in (first, second):
            if a not in self.values:
                raise ValueError(f"{a!r} is not an option here; options: {', '.join(self.values)}")
        return {r: self.effects[first][r] - self.effects[second][r]
                for r in self.effects[first]}

    def gap(self, first: str, second: str) -> float:
        """EV(first) - EV(second) in the shoe."""
        return self.values[first] - self.values[second]

    def to_pandas(self):
        """One row per action: ev, then the effect of removing one card of each rank
        (columns A, 2..9, T; fractions of the initial bet).  Needs pandas."""
        return decision_effects_frame(self)

    def _repr_html_(self):
        return decision_effects_html(self)


def decision_effects_of_removal(rules: Rules, cards, dealer, *, shoe: Shoe | None = None,
                                split: str = "CDZ-") -> DecisionEffects:
    """Per-decision effects of removal: for the hand ``cards`` (two cards: the original
    hand, with split and surrender where allowed; more: a later decision) against
    ``dealer`` (the upcard), how each action's EV changes when one card of each rank is removed from
    the shoe (the hand's and the upcard's cards are already out).  Ranks with no card
    left are skipped.

    Values are given no dealer blackjack when the dealer peeks, as ``Solution.hand_ev``.
    When the hole card must complete a natural in the shoe or in one of the depleted
    shoes (an ace up and only tens left, or a ten up and only aces), "given no
    blackjack" is undefined there: every value is then unconditioned, and
    ``given_no_blackjack`` is False and ``note`` says why."""
    check_rules(rules)
    split = check_split_class(split)
    shoe = resolve_shoe(rules, shoe)
    if shoe.is_infinite:
        raise ValueError("decision effects of removal need a finite shoe")
    if rules.hole_card == "exposed":
        raise ValueError("decision effects of removal are for games with one dealer upcard")
    hand = ranks(cards, field="cards")
    if len(hand) < 2:
        raise ValueError("a hand needs two or more cards")
    (up,) = ranks((dealer,), field="dealer")
    left = shoe.remove(*hand, up)           # a clear error if the shoe lacks these cards
    counts = [0] * 10
    for c in hand:
        counts[c - 1] += 1
    if sum(hand) > 21:
        raise ValueError("the hand is bust")
    peek = rules.hole_card == "peek" and not (rules.surrender == "early" and len(hand) == 2)
    # (``left``: every shoe valued here is dealt from the one ``left`` is dealt from)
    krules = with_shoe(kernel_rules(rules, SPLIT_CLASSES[split]), left)
    natural = len(hand) == 2 and sorted(hand) == [1, 10]

    def raw_values(shoe_counts):
        """({action: unconditioned value}, {action: chance the hole card completes a
        natural, for that action's measure})."""
        engine = engine_class(krules)([float(c) for c in shoe_counts], up, krules, False, False)
        st, ht, dd, beta = engine.hand_values(counts)
        vals = {"stand": st, "hit": ht}
        if engine.may_double_hand(counts):
            vals["double"] = dd
        betas = dict.fromkeys(vals, beta)
        if len(hand) == 2 and hand[0] == hand[1] and engine.split_limit(hand[0]) >= 2:
            vals["split"], betas["split"] = engine.split_ev(hand[0])
        if len(hand) == 2 and rules.surrender != "none":
            vals["surrender"], betas["surrender"] = engine.surrender_ev(counts), beta
        return vals, betas

    shoes: dict[int, tuple | list] = {0: shoe.counts}
    for r in range(1, 11):
        if left.counts[r - 1] >= 1:
            depleted = list(shoe.counts)
            depleted[r - 1] -= 1
            shoes[r] = depleted
    raw = {r: raw_values(c) for r, c in shoes.items()}
    note = ""
    conditioned = peek
    if peek and any(b >= 1.0 for _, betas in raw.values() for b in betas.values()):
        conditioned = False
        note = ("the hole card completes a dealer natural for certain in this shoe or a "
                "depleted one, so values given no blackjack are undefined: all values here "
                "are unconditioned")

    def measured(vals, betas):
        if not conditioned:
            return vals
        out = {}
        for a, v in vals.items():
            p = 1.0 - betas[a]
            if a == "surrender":
                out[a] = -0.5
            elif natural and a == "stand":
                out[a] = v / p
            else:
                out[a] = (v + betas[a]) / p
        return out

    values = {r: measured(*raw[r]) for r in raw}
    base = values.pop(0)
    effects = {a: {r: vals[a] - base[a] for r, vals in values.items()} for a in base}
    return DecisionEffects(tuple(hand), up, base, effects, conditioned, note)


# ---- shoes at a true count ---------------------------------------------------------------

def shoe_at_true_count(system, true_count: float, decks: float, *, dealt_decks: float | None = None,
                       whole_cards: bool = True, spanish: bool = False):
    """A shoe of ``decks`` decks with ``dealt_decks`` decks dealt (default: half the shoe)
    whose running count is ``true_count`` x decks remaining (method: module docstring).
    ``spanish``: 48-card Spanish decks (12 ten-valued cards a deck), decks dealt and left
    counted in 48-card decks, as ``CountedGame`` and ``simulate`` count a Spanish shoe.

    ``whole_cards=True`` returns a ``Shoe`` (whole cards; the count is met as closely as
    whole cards allow); ``False`` returns the 10 fractional counts that meet it exactly.
    """
    tags = count_tags(system)
    true_count = finite_number(true_count, "true_count")
    if isinstance(decks, bool) or not isinstance(decks, (int, np.integer)) or not 1 <= decks <= 10_000:
        raise ValueError(f"decks must be a whole number of decks 1..10000, got {str(decks)[:40]}")
    deck = 48 if spanish else 52
    full = [4 * decks] * 9 + [(deck - 36) * decks]
    dealt_decks = decks / 2 if dealt_decks is None else finite_number(dealt_decks, "dealt_decks")
    dealt = int(round(deck * dealt_decks))
    if not 0 <= dealt < deck * decks - 20:
        raise ValueError(f"dealt_decks must leave at least 20 cards, got {dealt_decks}")
    remaining_decks = (deck * decks - dealt) / deck
    # the expected running count at this depth (0 for balanced systems)
    expected = dealt * sum(t * c for t, c in zip(tags, full)) / sum(full)
    target = expected + true_count * remaining_decks
    classes = sorted(set(tags))
    in_class = {t: [r for r in range(10) if tags[r] == t] for t in classes}
    size = {t: sum(full[r] for r in in_class[t]) for t in classes}
    # at most this many removals per class: every rank keeps at least one card (removals
    # are proportional within a class, so its smallest rank sets the limit)
    room = {t: size[t] * (1.0 - 1.0 / min(full[r] for r in in_class[t])) for t in classes}
    take = {t: dealt * size[t] / sum(full) for t in classes}  # proportional, fractional
    # Move removals between tag classes until the count fits: to raise the running count,
    # remove fewer cards of the lowest-tag class and more of the highest (then the next
    # classes in), and the other way round to lower it.
    lo, hi = 0, len(classes) - 1
    need = target - sum(t * take[t] for t in classes)
    while abs(need) > 1e-12 and lo < hi:
        src, dst = (classes[lo], classes[hi]) if need > 0 else (classes[hi], classes[lo])
        gain = dst - src                      # running-count change per card moved
        move = min(take[src], room[dst] - take[dst], need / gain)
        take[src] -= move
        take[dst] += move
        need -= move * gain
        src_empty = take[src] <= 1e-12
        dst_full = room[dst] - take[dst] <= 1e-12
        if need > 0:
            lo, hi = lo + src_empty, hi - dst_full
        else:
            hi, lo = hi - src_empty, lo + dst_full
    if abs(need) > 1e-9:
        raise ValueError(f"true count {true_count} cannot be reached at this depth")
    if not whole_cards:
        return [full[r] - take[tags[r]] * full[r] / size[tags[r]] for r in range(10)]
    whole = _whole_class_takes(take, {t: int(math.floor(room[t] + 1e-9)) for t in classes},
                               dealt, target)
    removed = [0] * 10
    for t in classes:
        share = [whole[t] * full[r] / size[t] for r in in_class[t]]
        ints = _largest_remainder(share, whole[t])
        for r, k in zip(in_class[t], ints):
            removed[r] = k
    return Shoe([f - k for f, k in zip(full, removed)], dealt_from=Shoe(full))


def _largest_remainder(shares, total):
    base = [int(math.floor(x + 1e-12)) for x in shares]
    order = sorted(range(len(shares)), key=lambda i: shares[i] - base[i], reverse=True)
    for i in order[:total - sum(base)]:
        base[i] += 1
    return base


def _whole_class_takes(take, room, dealt, target):
    """Whole numbers of cards per tag class: same total, running count as close to the
    target as whole cards allow (single-card moves between classes, greedily; at most
    ``room[t]`` cards from class t)."""
    classes = list(take)
    whole = dict(zip(classes, _largest_remainder([take[t] for t in classes], dealt)))

    def miss(w):
        return abs(sum(t * k for t, k in w.items()) - target)

    improved = True
    while improved and miss(whole) > 1e-12:
        improved = False
        best = (miss(whole), None)
        for a in classes:
            for b in classes:
                if a != b and whole[a] > 0 and whole[b] < room[b]:
                    trial = dict(whole)
                    trial[a] -= 1
                    trial[b] += 1
                    m = miss(trial)
                    # prefer small moves away from the proportional split on ties
                    if m < best[0] - 1e-12:
                        best = (m, trial)
        if best[1] is not None:
            whole, improved = best[1], True
    return whole


def true_count_shoes(rules: Rules, system, true_counts, dealt_decks=None) -> tuple:
    """({TC: fractional Shoe exactly at that true count}, [TCs out of reach at this
    depth]) for ``rules.decks`` decks with ``dealt_decks`` dealt (default half the shoe)."""
    shoes, unreachable = {}, []
    for tc in true_counts:
        try:
            counts = shoe_at_true_count(system, tc, rules.decks, dealt_decks=dealt_decks,
                                        whole_cards=False, spanish=rules.spanish_deck)
        except ValueError as exc:
            if "cannot be reached" not in str(exc):
                raise
            unreachable.append(tc)
            continue
        shoes[tc] = Shoe.fractional(counts, dealt_from=rules.shoe())
    return shoes, unreachable


class TrueCountAdvantage(NamedTuple):
    """The EV of a round (unconditioned) with the shoe at one true count: ``exact`` from
    solving that shoe, ``linear`` from the full shoe's effects of removal."""
    exact: float
    linear: float


def advantage_by_true_count(rules: Rules, system="hilo", *, true_counts=range(-5, 11),
                            dealt_decks: float | None = None, split: str = "CDZ-",
                            effects: RemovalEffects | None = None,
                            progress=None) -> dict[int | float, TrueCountAdvantage]:
    """{TC: TrueCountAdvantage(exact, linear)} for shoes built at each true count (method: module doc;
    fractional counts, so each shoe is exactly at its true count; ``dealt_decks`` decks
    dealt, default half the shoe).  The linear estimate is the full shoe's EV plus its
    fixed-strategy effects of removal, rescaled to the cards left (``estimate_ev``).
    True counts out of reach at that depth (a tag class would run out of a rank) are
    left out of the result."""
    progress = progress_callback(progress, "true counts")
    check_rules(rules)
    if rules.infinite:
        raise ValueError("true counts need a finite shoe (Rules.decks)")
    if rules.hole_card == "exposed":
        raise ValueError("advantage by true count is for games with one dealer upcard")
    count_tags(system)  # a clear error before any solve
    split = check_split_class(split)
    try:
        true_counts = list(true_counts)
    except TypeError:
        raise TypeError(f"true_counts must be a sequence of numbers, got "
                        f"{type(true_counts).__name__}") from None
    if not true_counts:
        raise ValueError("true_counts is empty")
    for tc in true_counts:
        finite_number(tc, "true_counts")
    # the result is keyed by these: plain Python numbers (np.arange gives np.int64 keys)
    true_counts = [int(tc) if isinstance(tc, numbers.Integral) else float(tc)
                   for tc in true_counts]
    if effects is not None and not isinstance(effects, RemovalEffects):
        raise TypeError(f"effects must be a RemovalEffects, got {type(effects).__name__}")
    shoes, _ = true_count_shoes(rules, system, true_counts, dealt_decks)
    full = rules.shoe()
    steps = len(shoes) + (10 if effects is None else 0)
    if effects is None:
        effects = effects_of_removal(
            rules, shoe=full, strategy="fixed", split=split,
            progress=None if progress is None else (lambda d, t: progress(d, steps)))
    n = len(full)
    out = {}
    for i, (tc, shoe) in enumerate(shoes.items()):
        k = n - shoe.size
        removed = [f - c for f, c in zip(full.counts, shoe.counts)]
        linear = effects.base_ev + (n - 1) / (n - k) * sum(
            removed[r - 1] * v for r, v in effects.effects.items())
        out[tc] = TrueCountAdvantage(shoe_values(rules, shoe, split).expected_value,
                                     linear)
        if progress is not None:
            progress(steps - len(shoes) + i + 1, steps)
    return out


# ---- playing efficiency ------------------------------------------------------------------

@dataclass(frozen=True)
class CloseDecision:
    """A close two-card decision (``decision_effects``): ``row`` against ``dealer`` (the
    upcard), its ``best`` and ``second`` plays ``gap`` apart (fraction of a bet) in the full
    shoe, dealt with ``probability``; ``effects`` A..T: the change in EV(second) -
    EV(best) when one card of each rank is removed."""
    row: str
    dealer: int
    best: str
    second: str
    probability: float
    gap: float
    effects: tuple


def decision_effects(rules: Rules, *, shoe: Shoe | None = None, close: float = 0.1) -> list:
    """Per-decision effects of removal for the close two-card decisions.

    For every row (hard/soft total, pair) and upcard whose best and second-best plays
    differ by at most ``close`` (fraction of a bet) in the full shoe, the vector over ranks
    r of the change in EV(second) - EV(best) when one card of rank r is removed.  Returns
    a list of ``CloseDecision``.
    A rank with no card left has effect 0 (it cannot be removed).  A decision that some
    depleted shoe can no longer deal (a pair whose cards would run out) has no complete
    vector of effects and is left out.  The solves are shared (``shoe_values``) with the
    re-optimised effects of removal of the same shoe.
    """
    check_rules(rules)
    close = finite_number(close, "close")
    shoe = resolve_shoe(rules, shoe)
    if shoe.is_infinite:
        raise ValueError("decision effects need a finite shoe")
    if rules.hole_card == "exposed":
        raise ValueError("decision effects are for games with one dealer upcard")
    # (rows: None only in the exposed game, refused above)
    base = cast(MappingProxyType, shoe_values(rules, shoe, "CDZ-").rows)
    depleted = {r: cast(MappingProxyType, shoe_values(rules, shoe.remove(r), "CDZ-").rows)
                for r in range(1, 11) if shoe.counts[r - 1] > 0}
    probs = shoe.probabilities()
    out = []
    for u in UPCARD_ORDER:
        if u not in base:
            continue
        weights: dict = {}
        for cards, w in two_card_weights(shoe.counts, u).items():
            weights[hand_code(cards)] = weights.get(hand_code(cards), 0.0) + w * probs[u - 1]
        for row, vals in base[u].items():
            order = sorted(vals, key=lambda a: -vals[a])
            if len(order) < 2:
                continue
            best, second = order[0], order[1]
            gap = vals[best] - vals[second]
            if gap > close:
                continue
            if any(u not in d or row not in d[u] for d in depleted.values()):
                continue   # this deal cannot be dealt from some depleted shoe
            eff = [(depleted[r][u][row][second] - depleted[r][u][row][best]) + gap
                   if r in depleted else 0.0 for r in range(1, 11)]
            out.append(CloseDecision(row, u, best, second, weights.get(row, 0.0), gap,
                                     tuple(eff)))
    return out


def playing_efficiency(system, decisions, *, shoe: Shoe, dealt_fraction: float = 0.25) -> float:
    """Playing efficiency by Griffin's gain ratio (The Theory of Blackjack): the gain a
    count captures from varying the close decisions, over the gain perfect knowledge of
    the cards dealt would capture.

    For a decision whose better play leads by ``M`` in the full shoe and whose difference
    moves by ``d_r`` per card of rank r removed, after ``k`` random cards are dealt from
    ``N`` the difference is approximately normal with mean ``-M`` and standard deviation
    ``s = sd(d) * sqrt(k (N - 1) / (N - k))`` (linear effects, sampling without
    replacement, effects rescaled to the cards left).  Acting on it gains
    ``G(s, M) = s phi(M/s) - M (1 - Phi(M/s))``; a count that correlates ``rho`` with ``d``
    sees only ``rho * s`` of it and gains ``G(|rho| s, M)``.  PE = sum p G(|rho| s, M) /
    sum p G(s, M) over the decisions, weighted by their probability ``p``.
    ``decisions``: from ``decision_effects``; ``shoe``: the shoe they were computed for;
    ``dealt_fraction``: the depth k / N (default a quarter of the shoe dealt).  With one
    deck this reproduces Griffin's published PE within about 0.03 (a test).
    """
    if not 0.0 < dealt_fraction < 1.0:
        raise ValueError(f"dealt_fraction must be between 0 and 1, got {dealt_fraction!r}")
    if not isinstance(shoe, Shoe) or shoe.is_infinite:
        # an infinite shoe is never depleted: there is no gain to capture (it gave NaN)
        raise ValueError(f"shoe: playing efficiency needs a finite shoe (the shoe the "
                         f"decisions were computed for), got {show(shoe)}")
    tags = np.array(count_tags(system), dtype=float)
    p = np.array(shoe.probabilities(), dtype=float)
    n = float(shoe.size)
    k = dealt_fraction * n
    if n - k <= 1.0:
        raise ValueError("playing efficiency needs a shoe of more than a few cards")
    tag_dev = tags - p @ tags
    tag_var = float(p @ tag_dev ** 2)
    if tag_var == 0.0:
        raise ValueError("a count whose tags are all equal carries no information")
    num = den = 0.0
    for decision in decisions:
        prob, gap = decision.probability, decision.gap
        dev = np.array(decision.effects, dtype=float)
        dev -= p @ dev
        var = float(p @ dev ** 2)
        if var == 0.0 or prob == 0.0:
            continue
        spread = math.sqrt(var * k * (n - 1.0) / (n - k))
        rho = abs(float(p @ (dev * tag_dev))) / math.sqrt(var * tag_var)
        num += prob * _normal_gain(rho * spread, gap)
        den += prob * _normal_gain(spread, gap)
    return num / den if den else float("nan")


def _normal_gain(spread: float, lead: float) -> float:
    """E[max(0, X)] for X normal with mean -lead and standard deviation spread."""
    if spread <= 0.0:
        return max(0.0, -lead)
    z = lead / spread
    return (spread * math.exp(-0.5 * z * z) / math.sqrt(2.0 * math.pi)
            - lead * 0.5 * math.erfc(z / math.sqrt(2.0)))