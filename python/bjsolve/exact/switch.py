"""Blackjack Switch: two hands whose second cards the player may swap (docs/games.md,
"Blackjack Switch").

The round: the player bets one unit on each of two hands; each hand gets two cards, the
dealer an upcard, and the dealer peeks.  With no dealer natural, the player either keeps
the hands or swaps their second cards, then plays each hand by the rules (dealer 22
pushes, a natural pays ``blackjack_payout``, usually 1:1).

The analysis (``solve_switch``), for every deal of four player cards and an upcard:

    E[deal] = beta * L + (1 - beta) * max(K, W)

beta: the chance that the hole card completes a dealer natural, the five cards out; L:
what the dealt hands get against a dealer natural (-1 each, a dealt natural its tie
value); K and W: the sums of the two hands' values, given no dealer natural, kept or
switched.  A hand's value is its best play (stand, hit, double, split, surrender) valued by
the game engine (``GameEngine``, the game's rules without the swap) on the shoe with:

- removal "full" (the default): all five cards out (its own two, the upcard, the other
  hand's two); exact for each hand played alone; one engine per upcard, the other hand's
  cards set out in turn (``GameEngine.set_other``: the contexts share the dealer laws);
- removal "own": only its own two cards and the upcard out (one engine per upcard: the
  hand values of the one-hand game), the other hand's cards ignored.

"full" is exact for the decisions it makes ("own" values each hand on a shoe that still
holds the other hand's cards: an approximation, measured in docs/games.md): a hand whose
decisions look only at its own cards and the dealt cards has the same EV whatever the
other hand draws before or after it
(the shoe's order is random, so the other hand's draws and the dealer's could as well come
from the bottom of the shoe).  What the analysis leaves out is the information in the
other hand's draws (hand 2 could see what hand 1 drew): the true optimum is a little
higher.  tests/test_switch.py checks both against a card-by-card brute force of the whole
round; the simulation (``bjsolve.simulation.switch``) plays the real round with splits
(docs/games.md gives the figures).
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..model.ranks import label
from ..model.rules import Rules
from ..model.shoe import Shoe
from .engines import make_engine
from .ev import insurance_ev_on
from .kernel_rules import SPLIT_CLASSES, check_split_class, check_threads, kernel_rules
from .scheduler import run_units

RANKS = tuple(range(1, 11))
# the 55 two-card hands as sorted rank pairs, and each one's index
PAIRS = tuple((a, b) for a in RANKS for b in RANKS if a <= b)
PAIR_INDEX = {p: i for i, p in enumerate(PAIRS)}
ACE_TEN = PAIR_INDEX[(1, 10)]
PAIR_RANKS = np.array(PAIRS)
# each hand's 10 counts, as an array (one row a hand) and as lists (the engine's argument)
PAIR_COUNTS = np.zeros((len(PAIRS), 10))
for _i, (_a, _b) in enumerate(PAIRS):
    PAIR_COUNTS[_i, _a - 1] += 1
    PAIR_COUNTS[_i, _b - 1] += 1
PAIR_LISTS = tuple([int(x) for x in row] for row in PAIR_COUNTS)
REMOVALS = ("full", "own")
PLAYS = ("optimal", "chart")


def not_computed(name: str) -> NotImplementedError:
    """The refusal of a one-hand Solution's table ``name`` (strategy, evaluate ...), which has
    no meaning for the two switched hands."""
    return NotImplementedError(f"Blackjack Switch (Rules.switch): {name} is not computed "
                               f"for the switch game; its result gives the house edge, "
                               f"the switch decisions and the hands' chart")


# what the web pages say for switch rules (their views are those of a one-hand Solution)
PAGES_REFUSAL = ("Rules.switch=True (Blackjack Switch) is computed by bjsolve.solve and "
                 "'bjsolve --preset blackjack-switch', not on these pages yet")
# the games' rules besides the dealer's 22 that the switch analysis does not combine with
_OTHER_GAME_RULES = ("spanish_deck", "free_doubles", "free_splits", "player_21_wins",
                     "diamond_blackjack_payout", "charlie", "surrender_any_time",
                     "bonus_21_at_once",
                     "natural_always_wins", "bonus_21", "bonus_678", "bonus_777",
                     "bonus_after_split", "super_bonus", "redoubles", "double_rescue",
                     "double_split_aces")


def pair_index(a: int, b: int) -> int:
    """The index in PAIRS of the hand of ranks a and b (any order)."""
    return PAIR_INDEX[(a, b) if a <= b else (b, a)]


def hand_label(hand) -> str:
    return "".join(label(c) for c in sorted(hand))


def check_switch_rules(rules: Rules) -> None:
    """Refuse what the switch analysis does not compute, naming the field."""
    if not rules.switch:
        raise ValueError("the switch analysis needs Rules.switch=True")
    if rules.hole_card != "peek":
        raise NotImplementedError(
            f"Rules.switch with Rules.hole_card={rules.hole_card!r}: only the peek game "
            f"(hole_card='peek') is computed for Blackjack Switch")
    if rules.surrender == "early":
        raise NotImplementedError("Rules.switch with Rules.surrender='early' is not computed "
                                  "(allowed: 'none', 'late')")
    if rules.dealer_wins_ties:
        raise NotImplementedError("Rules.switch with Rules.dealer_wins_ties=True is not computed")
    defaults = Rules()
    for name in _OTHER_GAME_RULES:
        if getattr(rules, name) != getattr(defaults, name):
            raise NotImplementedError(f"Rules.switch with Rules.{name}={getattr(rules, name)!r} "
                                      f"is not computed (Blackjack Switch takes dealer_22 only)")


def method_text(removal: str, play: str = "optimal") -> str:
    """What the figures are, in words (the result's ``method``)."""
    removed = ("all five cards out (its own two, the upcard and the other hand's two)"
               if removal == "full" else "its own two cards and the upcard out (the other "
               "hand's cards ignored)")
    played = ("its composition-dependent best play" if play == "optimal"
              else "the game's basic-strategy chart")
    exactness = ("exact for these decisions (the other hand's draws change no hand's EV), "
                 "the information in them is not used" if removal == "full" else
                 "an approximation of the full-removal figure")
    return ("per deal, the better of keeping and switching by the sum of the two hands' "
            "values, each hand played by " + played + ", valued alone by the game "
            "engine with " + removed + "; " + exactness)


@dataclass(frozen=True)
class HandTable:
    """Per (upcard u, other hand o, hand h), index [u - 1, o, h]: the hand's best value
    given no dealer natural, dealt (``dealt``) and made by switching (``switched``: an
    ace-ten that counts as 21 unless the rules make it a blackjack), and the chance
    ``beta`` of a dealer natural, the five cards out.  NaN where the shoe cannot deal it.
    ``action`` [u - 1, o, h]: the best first action (0 stand, 1 hit, 2 double, 3 split,
    4 surrender, 5 natural, -1 none)."""

    dealt: np.ndarray
    switched: np.ndarray
    beta: np.ndarray
    action: np.ndarray


ACTION_NAMES = ("stand", "hit", "double", "split", "surrender", "natural")


def _shoe_counts(shoe: Shoe) -> np.ndarray:
    return np.array(shoe.probabilities() if shoe.is_infinite else shoe.counts, dtype=float)


def _hole_natural_chance(left: np.ndarray, up: int, infinite: bool) -> float:
    """P(the hole card completes a natural) with ``left`` the counts after every known card."""
    hole = 10 if up == 1 else 1 if up == 10 else None
    if hole is None:
        return 0.0
    total = left.sum()
    return float(left[hole - 1] / total) if total > 0 else 0.0


class _ValueUnit:
    """The values of the 55 hands against one upcard with one other hand out (or none);
    with ``chart`` and its policy engine, the values of the hands played by the chart."""

    def __init__(self, rules: Rules, params: dict, shoe: Shoe, other, up: int,
                 chart=None, engine=None):
        self.rules, self.params, self.shoe, self.other, self.up = rules, params, shoe, other, up
        self.chart, self.engine = chart, engine

    def __call__(self):
        base = self.shoe if self.other is None else self.shoe.remove(*self.other)
        counts = _shoe_counts(base)
        if not _upcard_dealable(counts, self.up, base.is_infinite):
            return _no_values()
        engine = (self.engine if self.engine is not None
                  else make_engine(self.params, base, self.up))
        return _context_values(self.rules, engine, counts, self.up, base.is_infinite,
                               self.chart)


class _SharedUpcardUnit:
    """The values of the 55 hands against one upcard with each of ``others`` out in turn,
    on one engine of the whole shoe whose dealer laws the other hands share
    (``GameEngine.set_other``): the same values as one ``_ValueUnit`` per other hand
    (a law depends only on the counts left, whichever hand took the cards)."""

    def __init__(self, rules: Rules, params: dict, shoe: Shoe, up: int, others):
        self.rules, self.params, self.shoe, self.up, self.others = rules, params, shoe, up, others

    def __call__(self) -> dict:
        full = _shoe_counts(self.shoe)
        engine = make_engine(self.params, self.shoe, self.up)
        out = {}
        for o in self.others:
            a, b = PAIRS[o]
            other = [0] * 10
            other[a - 1] += 1
            other[b - 1] += 1
            counts = full - np.array(other, dtype=float)
            if not _upcard_dealable(counts, self.up, False):
                out[o] = _no_values()
                continue
            engine.set_other(other)
            out[o] = _context_values(self.rules, engine, counts, self.up, False, None)
        return out


def _no_values():
    n = len(PAIRS)
    return (np.full(n, np.nan), np.full(n, np.nan), np.full(n, np.nan),
            np.full(n, -1, dtype=np.int8))


def _upcard_dealable(counts: np.ndarray, up: int, infinite: bool) -> bool:
    return counts[up - 1] > 0 if infinite else counts[up - 1] - 1 >= 0


def _context_values(rules: Rules, engine, counts: np.ndarray, up: int, infinite: bool,
                    chart):
    """(dealt, switched, beta, action) of the 55 hands on ``engine``, whose shoe (the
    counts ``counts``, the upcard still in) is the one the hands are valued on: the
    engine values the hands the shoe deals in one call (``GameEngine.opening_values``),
    the options and the best of them are worked out here for all hands at once."""
    dealt, switched, beta, action = _no_values()
    if infinite:
        dealable = (counts[PAIR_RANKS[:, 0] - 1] > 0) & (counts[PAIR_RANKS[:, 1] - 1] > 0)
    else:
        left_all = counts - PAIR_COUNTS
        left_all[:, up - 1] -= 1
        dealable = (left_all.min(axis=1) >= 0) & (left_all.sum(axis=1) >= 1)
    idx = np.flatnonzero(dealable)
    if idx.size == 0:
        return dealt, switched, beta, action
    got = np.array(engine.opening_values([PAIR_LISTS[i] for i in idx]), dtype=float)
    st, ht, dd, bt, may_double, sv, sb = got.T
    decided = bt < 1.0    # else the hole card surely makes a dealer natural: no decision
    idx, st, ht, dd, bt = idx[decided], st[decided], ht[decided], dd[decided], bt[decided]
    may_double, sv, sb = may_double[decided], sv[decided], sb[decided]
    p = 1.0 - bt
    beta[idx] = bt
    options = [(st + bt) / p, (ht + bt) / p,
               np.where(may_double > 0, (dd + bt) / p, -np.inf),
               np.where(np.isnan(sv), -np.inf, (sv + sb) / (1.0 - sb))]
    if rules.surrender == "late":
        options.append(np.full(idx.size, -0.5))
    options = np.array(options).T
    natural = idx == ACE_TEN
    if chart is not None:
        best = np.zeros(idx.size, dtype=int)
        for k, i in enumerate(idx):
            if not natural[k]:
                allowed = tuple(name for name, v in zip(ACTION_NAMES, options[k]) if v > -np.inf)
                best[k] = ACTION_NAMES.index(chart(PAIRS[i], up, allowed))
    else:
        best = _first_best_rows(options)
    chosen = options[np.arange(idx.size), best]
    dealt[idx] = switched[idx] = chosen
    action[idx] = best
    if natural.any():
        dealt[ACE_TEN] = rules.blackjack_payout
        action[ACE_TEN] = 5
        switched[ACE_TEN] = (rules.blackjack_payout if rules.switch_blackjack
                             else _twenty_one(rules, engine, counts if infinite
                                              else left_all[ACE_TEN]))
    return dealt, switched, beta, action


def _first_best_rows(options: np.ndarray) -> np.ndarray:
    """The index of the best value of each row of ``options``; a later one only beyond a
    relative 1e-12 (ties go to the earlier action, docs/conventions.md)."""
    best = np.zeros(len(options), dtype=int)
    best_value = options[:, 0].copy()
    for j in range(1, options.shape[1]):
        v = options[:, j]
        with np.errstate(invalid="ignore"):
            better = v > best_value + 1e-12 * np.maximum(np.abs(v), np.abs(best_value))
        best = np.where(better, j, best)
        best_value = np.where(better, v, best_value)
    return best


def _twenty_one(rules: Rules, engine, left: np.ndarray) -> float:
    """A two-card 21 that is no natural, standing, given no dealer natural: it wins
    against 17..20 and a dealer bust, pushes a dealer 21 (and a 22 that pushes)."""
    law = engine._dealer_law([float(x) for x in left])
    p17, p18, p19, p20, p21, nat, p22, over = law
    win = p17 + p18 + p19 + p20 + over + (0.0 if rules.dealer_22 == "push" else p22)
    return win / (1.0 - nat) if nat < 1.0 else 0.0


def hand_table(rules: Rules, shoe: Shoe, removal: str = "full", split: str = "CDZ-",
               threads: int | None = None, play: str = "optimal", chart=None) -> HandTable:
    """Every hand's value against every upcard with every other hand out (``HandTable``);
    ``play`` "chart": each hand played by ``chart`` (removal "own")."""
    game = game_rules(rules)
    params = kernel_rules(game, SPLIT_CLASSES[split])
    n = len(PAIRS)
    shape = (10, n, n)
    dealt, switched, beta = np.full(shape, np.nan), np.full(shape, np.nan), np.full(shape, np.nan)
    action = np.full(shape, -1, dtype=np.int8)
    units: dict = {}
    if removal == "full" and not shoe.is_infinite:
        counts = shoe.counts
        keys = []
        for up in RANKS:
            for o, (a, b) in enumerate(PAIRS):
                need = [0] * 10
                for c in (a, b, up):
                    need[c - 1] += 1
                if all(need[r] <= counts[r] for r in range(10)):
                    keys.append((o, up))
        if shoe.is_fractional:
            units.update({k: _ValueUnit(rules, params, shoe, PAIRS[k[0]], k[1]) for k in keys})
            values = run_units(keys, lambda k: units[k](), threads)
        else:
            # one engine per upcard, the other hands in turn sharing its dealer laws
            by_up: dict = {}
            for o, up in keys:
                by_up.setdefault(up, []).append(o)
            units.update({up: _SharedUpcardUnit(rules, params, shoe, up, others)
                          for up, others in by_up.items()})
            values = {}
            cost_key = (rules, split, "switch", shoe.size)   # (plans the next such run)
            for up, rows in run_units(list(by_up), lambda k: units[k](), threads,
                                      cost_key).items():
                values.update({(o, up): row for o, row in rows.items()})
        for (o, up), (d, s, b, act) in values.items():
            dealt[up - 1, o], switched[up - 1, o], beta[up - 1, o], action[up - 1, o] = d, s, b, act
    elif play == "chart":
        from .policy import policy_engines
        engines = policy_engines(game, shoe, chart)
        units.update({up: _ValueUnit(rules, params, shoe, None, up, chart, engines.get(up))
                      for up in RANKS})
        values = run_units([up for up in RANKS if up in engines], lambda k: units[k](), threads)
        for up, (d, s, b, act) in values.items():
            dealt[up - 1, :], switched[up - 1, :] = d, s
            beta[up - 1, :], action[up - 1, :] = b, act
    else:
        units.update({up: _ValueUnit(rules, params, shoe, None, up) for up in RANKS})
        values = run_units(list(RANKS), lambda k: units[k](), threads)
        for up, (d, s, b, act) in values.items():
            dealt[up - 1, :], switched[up - 1, :] = d, s
            beta[up - 1, :], action[up - 1, :] = b, act
    return HandTable(dealt, switched, beta, action)


def _deal_arrays(shoe: Shoe):
    """Every ordered deal (a, b, c, e, u: hand 1 = a, b; hand 2 = c, e; upcard u) as rank
    arrays, with its probability and the chance of a dealer natural, the five cards out."""
    grid = np.indices((10,) * 5).reshape(5, -1) + 1
    a, b, c, e, u = grid
    counts = _shoe_counts(shoe)
    prob = np.ones(a.shape)
    if shoe.is_infinite:
        for x in (a, b, c, e, u):
            prob *= counts[x - 1]
        left = np.broadcast_to(counts, (a.size, 10)).copy()
    else:
        taken = np.zeros((a.size, 10))
        total = counts.sum()
        rows = np.arange(a.size)
        for k, x in enumerate((a, b, c, e, u)):
            prob *= np.maximum(counts[x - 1] - taken[rows, x - 1], 0) / (total - k)
            taken[rows, x - 1] += 1
        left = counts - taken
    hole = np.where(u == 1, 10, np.where(u == 10, 1, 0))
    size = left.sum(axis=1)
    beta = np.where(hole > 0, left[np.arange(a.size), np.maximum(hole, 1) - 1] / size, 0.0)
    beta = np.where(hole > 0, beta, 0.0)
    return a, b, c, e, u, prob, beta


@dataclass(frozen=True)
class Decision:
    """One deal's switch decision: the hands kept and switched, each arrangement's value
    given no dealer natural (sum of the two hands' values), and whether to switch."""

    hands: tuple
    switched_hands: tuple
    upcard: int
    keep: float
    switch: float

    @property
    def switches(self) -> bool:
        return self.switch > self.keep

    @property
    def gain(self) -> float:
        return max(self.switch - self.keep, 0.0)


def deal_values(rules: Rules, shoe: Shoe, table: HandTable):
    """Per ordered deal of ``shoe`` (hand 1's cards a, b, hand 2's c, e, the upcard u):
    ((a, b, c, e, u), its chance, the chance the hole card completes a natural, the two
    hands' value kept, switched (from ``table``), and what a dealer natural costs)."""
    a, b, c, e, u, prob, beta = _deal_arrays(shoe)
    ui = u - 1
    h1, h2 = _pair_idx(a, b), _pair_idx(c, e)
    s1, s2 = _pair_idx(a, e), _pair_idx(c, b)
    keep = table.dealt[ui, h2, h1] + table.dealt[ui, h1, h2]
    switch = table.switched[ui, s2, s1] + table.switched[ui, s1, s2]
    tie = rules_natural_tie(rules)
    loss = np.where(h1 == ACE_TEN, tie, -1.0) + np.where(h2 == ACE_TEN, tie, -1.0)
    return (a, b, c, e, u), prob, beta, keep, switch, loss


class SwitchSolution:
    """The Blackjack Switch analysis of a rule set and shoe (``solve_switch``).

    expected_value: E[round], both hands, in units of ONE hand's bet, unconditioned
        (dealer naturals included).
    house_edge_per_hand: -expected_value / 2 (the house edge per unit bet, as published).
    house_edge_per_round: -expected_value (per round of two one-unit bets).
    no_switch_value: E[round] when the player never switches (same method).
    switch_rate: the chance that a round is switched (among all rounds).
    method: what the figures are (``method_text``); ``removal``: "full" or "own".
    seconds: the wall time of the analysis.
    """

    def __init__(self, rules: Rules, shoe: Shoe, split: str, removal: str, table: HandTable,
                 seconds: float, play: str = "optimal"):
        self.rules, self.shoe, self.split, self.removal = rules, shoe, split, removal
        self.play = play
        self.table = table
        self.method = method_text(removal, play)
        (a, b, c, e, u), prob, beta, keep, switch, loss = deal_values(rules, shoe, table)
        live = prob > 0
        certain = live & (beta >= 1.0)     # the hole card surely completes a natural
        decided = live & ~certain
        if np.isnan(keep[decided]).any() or np.isnan(switch[decided]).any():
            raise RuntimeError("switch analysis: a dealable hand has no value (a bug)")
        best = np.where(decided, np.fmax(keep, switch), 0.0)
        kept = np.where(decided, keep, 0.0)
        value = np.where(live, beta * loss + (1.0 - beta) * best, 0.0)
        value_keep = np.where(live, beta * loss + (1.0 - beta) * kept, 0.0)
        self.expected_value = float(np.dot(prob, value))
        self.no_switch_value = float(np.dot(prob, value_keep))
        # which ordered deals (``_deals``) the analysis switches: the one place it is decided
        self.switched = switched = decided & (switch > keep)
        self.switch_rate = float(np.dot(prob, (1.0 - beta) * switched))
        self.house_edge_per_round = -self.expected_value
        self.house_edge_per_hand = -self.expected_value / 2.0
        self.seconds = seconds
        self._deals = (a, b, c, e, u, prob, keep, switch, decided)

    def __getattr__(self, name):
        # a one-hand Solution's tables (evaluate, hand_ev, strategy ...) have no meaning
        # for the two switched hands: say so by name instead of an AttributeError
        if name.startswith("_"):
            raise AttributeError(name)
        raise not_computed(name)

    def __repr__(self):
        return (f"SwitchSolution({self.rules.describe()}, house edge per hand "
                f"{100 * self.house_edge_per_hand:.4f}%, removal {self.removal})")

    # ---- the round's outcome -------------------------------------------------------

    def outcome_distribution(self, strategy: str = "optimal", *, insurance: bool = False,
                             threads: int | None = None):
        """The law of a round's net result (both hands, units of one hand's bet,
        unconditioned): an ``OutcomeDistribution`` with ``spots`` 2, ``per_spot`` the law
        of one hand, ``covariance`` between the two hands (``bjsolve.exact.switch_law``:
        exact mean and per-hand law; the two hands combined given the dealer's outcome).
        insurance: both hands insured whenever the upcard is an ace, half a unit each,
        paid 2:1 when the hole card is a ten (the mean: ``expected_value`` plus
        ``insurance_value``)."""
        from .switch_law import switch_outcome_distribution
        if strategy != "optimal":
            raise ValueError(f"strategy: Blackjack Switch's distribution follows the "
                             f"analysis' play, 'optimal'; got {strategy!r:.60}")
        if not isinstance(insurance, bool):
            raise TypeError(f"insurance must be True or False, got {insurance!r:.60}")
        check_threads(threads)
        return switch_outcome_distribution(self, threads, insurance)

    # ---- insurance -----------------------------------------------------------------

    def insurance_ev(self, hand1=(), hand2=()):
        """EV per unit of an insurance bet (pays 2:1) against a dealer ace, with the ace
        and the given cards (the player's four: ``hand1``, ``hand2``; any of them may be
        left out, then averaged over) out of the shoe: 3 P(ten in the hole) - 1,
        unconditioned (the bet is settled on the hole card, before the peek): an ``EV``."""
        from ..model.ranks import ranks as read_ranks
        known: tuple = ()
        for field, hand in (("hand1", hand1), ("hand2", hand2)):
            empty = isinstance(hand, (tuple, list, str)) and not hand
            cards = () if empty else read_ranks(hand, field=field)
            if len(cards) > 2:
                raise ValueError(f"{field}: a Switch hand is dealt two cards, got "
                                 f"{len(cards)}")
            known += cards
        if self.shoe.counts[0] <= 0:
            raise ValueError("insurance: the shoe cannot deal the dealer an ace")
        return insurance_ev_on(self.shoe, known, "hand1, hand2")

    @property
    def insurance_value(self) -> float:
        """E[the round's insurance], both hands insured whenever the upcard is an ace
        (half a unit each, paid 2:1), in units of one hand's bet, unconditioned: the sum
        over the deals with an ace up of their chance x (3 P(ten in the hole | the five
        cards) - 1) (each hand's insurance is worth half of that)."""
        *_, u, prob, beta = _deal_arrays(self.shoe)
        ace = (u == 1) & (prob > 0)
        return float(np.dot(prob[ace], 3.0 * beta[ace] - 1.0))

    # ---- one deal ----------------------------------------------------------------

    def decision(self, hand1, hand2, upcard) -> Decision:
        """Keep or switch for hand 1 = (first, second card), hand 2 likewise, upcard:
        the switch swaps the second cards."""
        from ..model.ranks import ranks as read_ranks
        (a, b), (c, e) = read_ranks(hand1, field="hand1"), read_ranks(hand2, field="hand2")
        up = read_ranks((upcard,), field="upcard")[0]
        t, ui = self.table, up - 1
        h1, h2, s1, s2 = pair_index(a, b), pair_index(c, e), pair_index(a, e), pair_index(c, b)
        keep = t.dealt[ui, h2, h1] + t.dealt[ui, h1, h2]
        switch = t.switched[ui, s2, s1] + t.switched[ui, s1, s2]
        if np.isnan(keep) or np.isnan(switch):
            raise ValueError(f"the shoe cannot deal {hand_label((a, b))} and "
                             f"{hand_label((c, e))} against {label(up)}, or the dealer "
                             f"surely has a natural")
        return Decision(((a, b), (c, e)), ((a, e), (c, b)), up, float(keep), float(switch))

    def hand_action(self, hand, other, upcard) -> str:
        """The first action of ``hand`` (two cards) with ``other`` the other hand, as valued."""
        i, o = pair_index(*hand), pair_index(*other)
        code = int(self.table.action[upcard - 1, o, i])
        return ACTION_NAMES[code] if code >= 0 else "none"

    # ---- the switch strategy ---------------------------------------------------------

    def switch_table(self) -> list:
        """[(hands kept, hands switched, upcard, keep, switch)] for every pairing of four
        cards and an upcard the shoe deals, one row per unordered pair of arrangements,
        the better arrangement first: ``keep`` the first's value, ``switch`` the second's
        (both sums of the two hands, given no dealer natural).  A deal switches when its
        dealt hands are the row's second arrangement."""
        rows = {}
        a, b, c, e, u, prob, keep, switch, decided = self._deals
        for i in np.flatnonzero(decided):
            kept = tuple(sorted((tuple(sorted((a[i], b[i]))), tuple(sorted((c[i], e[i]))))))
            swapped = tuple(sorted((tuple(sorted((a[i], e[i]))), tuple(sorted((c[i], b[i]))))))
            if kept == swapped:
                continue
            k, s = float(keep[i]), float(switch[i])
            better, worse, vb, vw = (kept, swapped, k, s) if k >= s else (swapped, kept, s, k)
            rows[(better, worse, int(u[i]))] = (vb, vw)
        return [(h, w, up, vb, vw) for (h, w, up), (vb, vw) in sorted(rows.items())]

    def hand_values(self) -> dict:
        """{(hand, upcard): value} of the two-card hands given no dealer natural, with only
        its own cards and the upcard out (the other hand's cards averaged over), as the
        published switch strategies tabulate them: switch when the two hands' values add up
        to more switched than kept.  Dealt naturals at their payout."""
        a, b, c, e, u, prob, keep, switch, decided = self._deals
        t = self.table
        out: dict = {}
        num = np.zeros((10, len(PAIRS)))
        den = np.zeros((10, len(PAIRS)))
        h1, h2 = _pair_idx(a, b), _pair_idx(c, e)
        ok = decided
        np.add.at(num, (u[ok] - 1, h1[ok]), prob[ok] * t.dealt[u[ok] - 1, h2[ok], h1[ok]])
        np.add.at(den, (u[ok] - 1, h1[ok]), prob[ok])
        for up in RANKS:
            for i, hand in enumerate(PAIRS):
                if den[up - 1, i] > 0:
                    out[(hand, up)] = float(num[up - 1, i] / den[up - 1, i])
        return out

    def simple_rule_loss(self) -> tuple[float, float]:
        """(rounds decided otherwise, EV lost per round) when the switch is decided by the
        sum of the ``hand_values`` table (the published kind of switch strategy) instead
        of each deal's own values."""
        values = self.hand_values()
        a, b, c, e, u, prob, keep, switch, decided = self._deals
        lost, differ = 0.0, 0.0
        tab = np.full((10, len(PAIRS)), np.nan)
        for (hand, up), v in values.items():
            tab[up - 1, PAIR_INDEX[hand]] = v
        sw_tab = tab.copy()
        if not self.rules.switch_blackjack:   # a switched ace-ten: 21, not the natural
            sw_tab[:, ACE_TEN] = np.nanmean(self.table.switched[:, :, ACE_TEN], axis=1)
        ui = u - 1
        k = tab[ui, _pair_idx(a, b)] + tab[ui, _pair_idx(c, e)]
        s = sw_tab[ui, _pair_idx(a, e)] + sw_tab[ui, _pair_idx(c, b)]
        simple = np.where(s > k, switch, keep)
        best = np.fmax(keep, switch)
        gap = np.where(decided, best - simple, 0.0)
        beta = self._beta()
        lost = float(np.dot(prob, (1.0 - beta) * gap))
        differ = float(np.dot(prob, np.where(decided & (gap > 0), 1.0 - beta, 0.0)))
        return differ, lost

    def _beta(self):
        return _deal_arrays(self.shoe)[6]

    # ---- the play of each hand -----------------------------------------------------------

    @property
    def game_rules(self) -> Rules:
        """The rules each hand is played by after the switch decision (the same rules
        without the swap: dealer 22 pushes, naturals at their payout): its chart is
        ``solve(switch.game_rules, shoe=switch.shoe).strategy``."""
        return game_rules(self.rules)


def game_rules(rules: Rules) -> Rules:
    """The one-hand game of switch rules: the same rules without the swap."""
    return rules.replace(switch=False, switch_blackjack=False)


def rules_natural_tie(rules: Rules) -> float:
    """What a player natural gets against a dealer natural (the peek game: a push)."""
    from .kernel_rules import natural_tie_value
    return natural_tie_value(rules)


def _pair_idx(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    lo, hi = np.minimum(x, y), np.maximum(x, y)
    # index of (lo, hi) in PAIRS: rows of lengths 10, 9, ..., 1
    return (lo - 1) * 10 - (lo - 1) * (lo - 2) // 2 + (hi - lo)


# a deal is five cards (two hands and the upcard) before any hand is played
DEAL_CARDS = 5


def check_switch_shoe(shoe: Shoe) -> None:
    """Refuse a fractional shoe the switch analysis cannot value: one with a count that is
    not whole and below 5.  Five cards are dealt before any play, and such a count lets a
    deal take more cards of its rank than the shoe holds (3.6 aces deal a fourth with
    weight 0.6, leaving -0.4): the weight of that deal is positive, but the game engine
    cannot hold the other hand's cards and the upcard past zero, nor is there a shoe whose
    round it would be.  Counts whole or at least 5 deal every five-card deal from positive
    counts: the same formulas as a whole shoe's (docs/games.md, "Blackjack Switch")."""
    if not shoe.is_fractional:
        return
    for r, c in enumerate(shoe.counts, start=1):
        if c != int(c) and c < DEAL_CARDS:
            raise ValueError(
                f"shoe: Blackjack Switch on a fractional shoe needs each count whole or at "
                f"least {DEAL_CARDS} (a deal's five cards must not take more of a rank than "
                f"the shoe holds); rank {label(r)} has {c:g}")


# the vectorized pair index under a public name, for the other subpackages (counting)
pair_indices = _pair_idx


def solve_switch(rules: Rules, shoe: Shoe | None = None, *, split: str = "CDZ-",
                 removal: str = "full", play: str = "optimal", chart=None,
                 threads: int | None = None) -> SwitchSolution:
    """The Blackjack Switch analysis of ``rules`` (``rules.switch`` True) on ``shoe``
    (default the rules' full shoe); ``removal``: "full" or "own" (the module's doc);
    ``play``: "optimal" (each hand's composition-dependent best play) or "chart" (each
    hand played by ``chart``, the switch decided by the chart's values; removal "own"
    only, as published strategies are made): give the game's chart,
    ``solve(game_rules(rules), shoe=shoe).strategy``, or any chart or strategy callable."""
    from .dealer import resolve_shoe
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a bjsolve.Rules, got {type(rules).__name__}")
    check_switch_rules(rules)
    split = check_split_class(split)
    check_threads(threads)
    if removal not in REMOVALS:
        raise ValueError(f"removal must be one of {', '.join(REMOVALS)}, got {removal!r}")
    if play not in PLAYS:
        raise ValueError(f"play must be one of {', '.join(PLAYS)}, got {play!r}")
    if play == "chart" and removal != "own":
        raise ValueError("play='chart' takes removal='own' (the chart's values on the shoe "
                         "with each hand's own cards and the upcard out)")
    if play == "chart" and chart is None:
        raise ValueError("play='chart' needs chart=: the game's chart is "
                         "solve(game_rules(rules), shoe=shoe).strategy")
    shoe = resolve_shoe(rules, shoe)
    if shoe.size < 16:
        raise ValueError(f"shoe too small for a switch round: {shoe.size:g} cards (at least "
                         f"16 needed)")
    check_switch_shoe(shoe)
    start = time.perf_counter()
    table = hand_table(rules, shoe, removal, split, threads, play, chart)
    return SwitchSolution(rules, shoe, split, removal, table, time.perf_counter() - start, play)
