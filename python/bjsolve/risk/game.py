"""The counted game without a simulator: true-count frequencies at round starts, edge and
variance by true count, and bet-ramp analytics.

``CountedGame(rules, system, penetration=...)`` does the expensive part once (count
distributions, where rounds start, one exact evaluation per true count and depth band);
``game.evaluate(ramp, bankroll)`` then takes milliseconds (numpy on the cached per-count
figures), so ramps and bankrolls can be explored interactively.

Method (also in docs/counted-game.md, with the measured errors):

1. Where rounds start, and the count there (``round_starts``): the expected number of
   rounds per shoe starting with n cards seen and running count r is the exact
   probability of r after n cards (``count_distribution.CountDistribution``) times
   P(a round starts at n | n, r).  Given the cards seen, every order of them is equally
   likely and whether they split into whole rounds depends on the order alone, so that
   probability is computed by dealing independent cards at the full shoe's probabilities
   round after round (the joint law of a round's cards and tag sum from the round model,
   ``round_model.round_cards_law``), corrected to first order for dealing without
   replacement within a round.  The burn card is dealt first and never seen; a round
   starts while fewer than ``penetration x N`` cards are dealt (the cut card).
   APPROXIMATION (measured in benchmarks/bench_game.py: every true count within 3
   standard errors of 10^8 simulated rounds in 6 and 2 decks): the law of the seen cards
   given (n, r) is the independent-draws one, corrected within rounds; index plays are
   taken at the round's starting count.
2. The true count of a state (n, r) follows the chosen convention (decks remaining judged
   from the cards not yet seen: the burn card counts as unseen, as in the simulator).
3. Edge by true count.  The states of one true count are grouped in depth bands; each band
   is evaluated exactly at its mean remaining composition (the exact expectation over the
   band's states, per tag class, spread over the class's ranks in the full shoe's
   proportions; a fractional shoe), under the strategy: ``"basic"`` (the full shoe's
   total-dependent chart), ``"indices"`` (the chart with an index table's plays at that
   true count, and insurance at or above its index) or ``"optimal"``
   (composition-dependent optimal play of the band's composition).  The true count's edge
   is the band-weighted mean, calibrated per depth band (the fundamental theorem): each
   cell's predicted excess of the EV over its mean composition (the EV's curvature
   measured as the second moment's, step 4) is added to the band's offset, less its
   band average.  With one band this is the "average composition" shortcut; the
   benchmark measures what it costs.
4. Variance by true count: in the same pass, the exact outcome law of each band's mean
   composition (the kernel of ``Solution.outcome_distribution`` with the strategy's
   frozen decisions copied in) gives the second moment;
   the fundamental theorem holds for the whole outcome law of a fixed strategy, so the
   second moment is calibrated per depth band as the edge is, each band's offset shared
   out over its true counts in proportion to the cell's within-class spread of
   compositions times the curvature of E[X^2] at its count (measured at three counts,
   interpolated; ``_curvature_shape``).  The count's
   variance: its band-weighted second moment minus its edge squared.  Each count's
   outcome law: the full shoe's exact law reweighted to the count's edge and variance
   (``_outcome_laws``).
5. A ramp: bet b(t) at true count t; per round W = sum f b m, second moment
   sum f b^2 (v + m^2), variance = second moment - W^2 (rounds treated as independent).
   Risk of ruin: exact (``bjsolve.risk.RuinCurve``: the mixture's ladder heights) on the law
   sum_t f_t (law_t scaled by b_t) (+ a point mass at 0 for rounds sat out), with the
   diffusion figure exp(-2 W B / Var) beside it.

The games (Free Bet, Spanish 21; docs/counted-game.md, "The games"): the game engine gives
the edges (``make_engines`` picks it), the game walk's round law the second moments
(``game_round_law``), the round model plays their cards, the full shoe's after-double chart
is frozen with the chart, and a Spanish shoe is counted in 48-card decks.
"""
from __future__ import annotations

import ctypes
import gc
import math
import numbers
import platform
import time
from dataclasses import replace
from fractions import Fraction
from types import SimpleNamespace

import numpy as np
from bjcore import GameEngine

from ..counting.count_laws import (
    WHOLE_TC_ROUNDINGS,
    CountDistribution,
    check_convention,
    decks_remaining,
    round_true_count,
)
from ..counting.indices import as_index_table
from ..counting.removal import count_tags, finite_number
from ..exact.distribution import (
    OutcomeDistribution,
    column_moments,
    column_values,
    game_round_law,
    merge_equal_values,
    round_laws,
)
from ..exact.engines import make_engines, round_values
from ..exact.kernel_rules import (
    POLICY_CLASS,
    SPLIT_CLASSES,
    check_threads,
    kernel_rules,
    natural_tie_value,
)
from ..exact.policy import after_double_chart, after_double_questions, policy_engines
from ..exact.scheduler import run_units
from ..exact.solver import solve
from ..exact.strategy import StrategyChart
from ..model.checks import is_finite_real
from ..model.deal import Deal
from ..model.hands import total_code
from ..model.ranks import show as _show
from ..model.rules import Rules
from ..model.shoe import Shoe
from ..output.notebook import counted_game_frame, counted_game_html
from ..output.table import Table
from .ramp import (
    MAX_BET,
    MAX_UNIT,
    MIN_BET,
    MIN_UNIT,
    Ramp,
    RampResult,
    SideBetFigures,
    _true_count,
    checked_insurance,
    diffusion_ruin,
    parse_ramp,
    ramp_figures,
)
from .indexed_chart import IndexedChart
from .round_model import check_supported, round_cards_law
from .switch_game import SwitchRound
from .side_bet import (
    COVARIANCE_METHOD,
    first_cards_covariance,
    first_cards_law,
    hand_values,
    side_bet_play,
    side_moments_by_state,
)
from .round_starts import rank_steps, round_starts
from .ruin import (
    MAX_BANKROLL,
    MAX_ROUNDS,
    MAX_TRIP_SECONDS,
    RuinCurve,
    _check_risk,
    bankroll_for_risk,
    lattice,
    trip_ruin,
)

STRATEGIES = ("basic", "indices", "optimal")
MIN_BIN_FREQUENCY = 1e-4   # true counts rarer than this are pooled into the end bins
MAX_RUIN_CHIPS = 32        # the exact ruin's cost grows with the largest bet in chips
# evaluate is interactive: a trip ruin estimated to cost more is left out, saying why (the
# estimate can be off by 2x, and several times under a loaded machine: 10^4 rounds of a
# 1-100 ramp with a 1-unit bankroll, estimated 5 s, ran from 3 s to over 2 minutes)
GAME_TRIP_SECONDS = 2.5
ANCHOR_TC = 8              # the second moment's curvature is measured at true counts -8, 0, +8
MIN_CURVATURE_CARDS = 52   # ... when that many cards are left there (docs/counted-game.md)


def _release_free_memory():
    """Give the memory freed so far back to the system (glibc keeps it in its arenas: the
    full shoe's solve and the round starts leave tens of MB there before the laws)."""
    if platform.libc_ver()[0] == "glibc":
        try:
            ctypes.CDLL(None).malloc_trim(0)
        except (OSError, AttributeError):
            pass


def _trip_ruin(mixture, bankroll: float, rounds: int) -> tuple:
    """(P(ruin within ``rounds``), None) for ``evaluate``, or (None, why not): a trip ruin
    whose estimated cost is beyond GAME_TRIP_SECONDS (the law too wide or the trip too
    long for it) is left out with the reason, and the ramp's other figures stand."""
    try:
        return trip_ruin(mixture, bankroll, rounds,
                         max_seconds=GAME_TRIP_SECONDS).probability, None
    except ValueError as exc:       # (bankroll and rounds are checked: the cost is refused)
        return None, (f"not computed, beyond the {GAME_TRIP_SECONDS:g} s the counted game "
                      f"spends on it: {exc} (bjsolve.risk.trip_ruin on the ramp's law, "
                      f"CountedGame.ramp_distribution, allows an estimated "
                      f"{MAX_TRIP_SECONDS:g} s)")


def _check_outcome_law(rules: Rules) -> None:
    """Refuse, in milliseconds and before any solve, a game whose round outcome law (the
    SD by true count) the games' kernel does not compute yet: the law of one small
    two-card hand (T, 9 against a ten) is asked for, and the kernel's own refusal (it
    names the rule: no-hole-card natural rules such as OBBO, BB+1 and a 21 paid before
    the dealer's natural, while game_law.h settles them as ENHC) becomes the counted
    game's.  Once the kernel computes such rules the question is answered and the game
    goes on: nothing here names them."""
    if rules.is_classic:
        return
    params = kernel_rules(rules, SPLIT_CLASSES["CDZ-"])
    engine = GameEngine(Shoe.decks(1, spanish=rules.spanish_deck).kernel_weights(), 10,
                        params, False, False)
    try:
        engine.round_law_entries(10, 9)
    except ValueError as exc:
        raise NotImplementedError(f"rules {rules.describe()}: the counted game needs the "
                                  f"round's outcome law (the SD by true count), not "
                                  f"computed for them yet: {exc}") from None


def _hand_rules(rules: Rules) -> Rules:
    """The rules each hand is played by: Blackjack Switch's without the swap, else
    ``rules``."""
    if rules.switch:
        from ..exact.switch import game_rules
        return game_rules(rules)
    return rules


def _checked_end_bins(tc_min, tc_max) -> tuple:
    """(tc_min, tc_max) as whole true counts within the ramp's range (or None), tc_min
    below tc_max when both are given; else the error naming the field."""
    ends: list = [None if value is None else _true_count(value, name)    # int or None
            for name, value in (("tc_min", tc_min), ("tc_max", tc_max))]
    if None not in ends and ends[0] >= ends[1]:
        raise ValueError(f"tc_min must be below tc_max, got {ends[0]} and {ends[1]}")
    return tuple(ends)


def _shares(shape, ok, weights) -> np.ndarray | float:
    """How a depth band's calibration offset is shared out over its true counts: in
    proportion to each count's predicted excess ``shape`` (its average 1 over the counts
    ``ok`` with weights ``weights``, so that the fundamental theorem's identity holds); 1
    for every count (one offset) when the predicted excess changes sign in the band."""
    share = shape[ok]
    if not (np.all(share > 0) or np.all(share < 0)):
        return 1.0
    return shape / float(weights @ share)


def _closest_chips(bets, frequency):
    """(chip, bets in chips, largest relative move of a bet) for a ramp whose bets share
    no chip with at most MAX_RUIN_CHIPS per bet: among the chips top / k and b / j (b a
    bet) that keep every bet within MAX_RUIN_CHIPS chips, the one whose rounding moves the
    bets least (largest relative move, then the frequency-weighted one; a bet is never
    rounded to 0)."""
    played = bets > 0
    top = float(bets.max())
    candidates = {top / k for k in range(1, MAX_RUIN_CHIPS + 1)}
    candidates |= {float(b) / j for b in set(bets[played].tolist())
                   for j in range(1, MAX_RUIN_CHIPS + 1) if top / (b / j) <= MAX_RUIN_CHIPS + 1e-9}
    best = None
    for chip in sorted(candidates, reverse=True):
        chips = np.maximum(np.rint(bets / chip), 1.0) * played
        move = np.abs(chips * chip - bets)[played] / bets[played]
        key = (round(float(move.max()), 12), float(frequency[played] @ move))
        if best is None or key < best[0]:
            best = (key, chip, chips.astype(int))
    (miss, _), chip, chips = best
    return chip, chips, miss


# ---- the game ---------------------------------------------------------------------------

class CountedGame:
    """A counted shoe game analysed exactly (see the module docstring for the method).

    rules: a peek or no-hole-card game (``Rules``, finite decks; hole_card "peek", "enhc"
    or "enhc-obo"), classic or one of the games (Free Bet, Spanish 21, ...: docs/games.md).
    With no hole card every figure is unconditioned, the dealer's natural settled at the
    end of the round as ``rules`` say; insurance is offered on an ace up before the hands
    are played and settled when the dealer's second card is turned (docs/counted-game.md,
    "No hole card").  system: a count system name or 10 tags.
    penetration: the fraction of the shoe dealt before the cut card (0 < p < 1).
    burn: cards burnt (unseen) after the shuffle.  decks_estimation / tc_rounding: how
    the true count is taken (``count_distribution``; tc_rounding "floor", "truncate" or
    "round": the game needs whole true counts).  strategy: "basic", "indices" (needs ``indices``;
    giving ``indices`` selects it) or "optimal".  indices: the index plays, as ``simulate``
    takes them (``bjsolve.counting.indices.as_index_table``): a named set "i18", "fab4" or
    "all" (the exact indices for this tc_rounding), a number N (the N lines of
    largest gain), a list of those ("i18,fab4" or ["i18", "fab4"]: their lines together),
    an index file (path or text), an ``IndexTable`` (or anything with ``.lines``
    {(row, upcard): line with ``play_at(tc)``} and ``.insurance``), or a list mixing them
    (a hand given two different lines is refused, naming the hand).  insurance: None (the
    index plays' insurance index, else never), False (never) or a whole true count: insure
    at true counts >= it, as ``simulate``'s ``insurance`` (in the edge, not in the SD).
    spots: hands per round (for where rounds start).  depth_bands: depth bands per true
    count for the edge (1: the average composition).  tc_min/tc_max: end bins (None: pool
    true counts rarer than 1e-4).
    sidebet: a side bet played beside the ramp (a name of
    ``bjsolve.risk.side_bet.GAME_SIDE_BETS``; ``sidebet_paytable`` a preset of it): its
    mean and second moment by true count are computed here, exact given the round-start
    law (``bjsolve.risk.side_bet``); ``evaluate``'s ``sidebet_threshold`` and
    ``sidebet_units`` say when and how much it is bet.
    round_length_correction: where rounds start from ``bjsolve.risk.round_starts`` (default);
    False: the plain renewal, round starts taken as random depletions of the shoe (kept
    to measure what the round structure changes).  calibrate: the fundamental theorem's
    calibration per depth band (default True).  curvature: "count" (default) shares each
    band's offsets (of the mean and of the second moment) out over its true counts by
    each moment's measured curvature (when the middle band holds >= 52 cards; else, and
    with "band", one offset per band).
    """

    def __new__(cls, rules=None, *args, **kwargs):
        # Blackjack Switch (rules.switch) has its own round: two hands and the swap
        # (SwitchCountedGame, below); every other game is this class
        if cls is CountedGame and isinstance(rules, Rules) and rules.switch:
            return super().__new__(SwitchCountedGame)
        return super().__new__(cls)

    def __init__(self, rules: Rules, system="hilo", *, penetration: float = 0.75,
                 burn: int = 1, decks_estimation: str = "exact", tc_rounding: str = "floor",
                 strategy: str = "basic", indices=None, insurance=None, spots: int = 1,
                 depth_bands: int = 3, tc_min: int | None = None, tc_max: int | None = None,
                 sidebet: str | None = None, sidebet_paytable: str | None = None,
                 round_length_correction: bool = True, calibrate: bool = True,
                 curvature: str = "count", threads: int | None = None, progress=None):
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a bjsolve.Rules, got {type(rules).__name__}")
        if rules.infinite:
            raise ValueError("rules.decks: a counted game needs a finite shoe, got infinite")
        # the rules each hand is played by (Blackjack Switch: the game without the swap),
        # which the round model deals
        self.hand_rules = _hand_rules(rules)
        check_supported(self.hand_rules)
        _check_outcome_law(self.hand_rules)
        if isinstance(system, str):
            count_tags(system)
        check_convention(decks_estimation, tc_rounding)
        if tc_rounding not in WHOLE_TC_ROUNDINGS:
            raise ValueError(f"tc_rounding: the game needs whole true counts "
                             f"({', '.join(WHOLE_TC_ROUNDINGS)}), got {tc_rounding!r}")
        if strategy not in STRATEGIES:
            raise ValueError(f"strategy must be one of {', '.join(STRATEGIES)}, got "
                             f"{str(strategy)[:30]!r}")
        if strategy == "indices" and indices is None:
            raise ValueError("indices: strategy 'indices' needs index plays (e.g. "
                             "indices='i18')")
        if indices is False:
            indices = None
        if strategy != "indices" and indices is not None:
            strategy = "indices"      # index plays given are index plays played
        penetration = finite_number(penetration, "penetration")
        if not 0.0 < penetration < 1.0:
            raise ValueError(f"penetration must be between 0 and 1 (the fraction dealt before "
                             f"the shuffle), got {penetration:g}")
        for name, v, lo in (("burn", burn, 0), ("spots", spots, 1),
                            ("depth_bands", depth_bands, 1)):
            if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < lo:
                raise ValueError(f"{name} must be a whole number >= {lo}, got {str(v)[:30]!r}")
        self.rules, self.system, self.penetration = rules, system, penetration
        self.burn = int(burn)
        self.decks_estimation, self.tc_rounding = decks_estimation, tc_rounding
        self.strategy, self.indices, self.spots = strategy, indices, int(spots)
        self.depth_bands = int(depth_bands)
        self.round_length_correction = bool(round_length_correction)
        self.calibrate = bool(calibrate)
        if curvature not in ("count", "band"):
            raise ValueError(f"curvature must be 'count' or 'band', got {str(curvature)[:30]!r}")
        self.curvature = curvature
        self.timings: dict = {}
        self._threads = check_threads(threads)
        self._progress = progress
        # every check that needs no solve comes before the full shoe's solve: bad input
        # fails in milliseconds, not after seconds of work
        self._end_bins = _checked_end_bins(tc_min, tc_max)
        insurance = checked_insurance(insurance)
        self.sidebet = None if sidebet is None and sidebet_paytable is None else \
            side_bet_play(sidebet, sidebet_paytable)
        if self.sidebet is not None and not rules.is_classic:
            raise ValueError(f"sidebet: a side bet beside the games' rules is not computed "
                             f"yet (rules {rules.describe()}); play it beside a classic game")
        if self.sidebet is not None and rules.hole_card != "peek":
            # (its covariance with the main hand takes a dealer natural as the end of the
            # round, side_bet.first_cards_covariance: with no hole card it is not)
            raise ValueError(f"sidebet: a side bet beside a no-hole-card game "
                             f"(hole_card={rules.hole_card!r}) is not computed yet; play it "
                             f"beside a peek game")
        self.shoe = rules.shoe()
        if self.sidebet is not None and list(self.shoe.counts) != [4 * rules.decks] * 9 + [
                16 * rules.decks]:
            raise ValueError(f"sidebet: the side bet is computed on a shoe of whole standard "
                             f"decks, got the counts {list(self.shoe.counts)} (A..T)")
        self.cut = self._checked_cut()
        if indices is not None:
            # (a named set's exact table is made for the game's true-count rounding)
            self.indices = as_index_table(indices, rules, system, tc_rounding=tc_rounding,
                                          threads=self._threads)
        # the index at or above which insurance is taken (None: never)
        self.insurance = (getattr(self.indices, "insurance", None) if insurance is None
                          else None if insurance is False else insurance)
        self._ruin_cache: dict = {}
        t0 = time.perf_counter()
        self._solve_full_shoe()
        # a Spanish shoe's decks are 48 cards: the counter judges the decks left in them
        self.count = CountDistribution(system, self.shoe,
                                       deck_cards=48 if rules.spanish_deck else 52)
        self.timings["count distribution"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        self._round_starts()
        self._states(*self._end_bins)
        _release_free_memory()
        self.timings["round starts"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        self._edges()
        self.timings["edges"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        self._outcome_laws()
        self.timings["outcome distributions"] = time.perf_counter() - t0
        if self.sidebet is not None:
            t0 = time.perf_counter()
            self._side_moments()
            self.timings["side bet"] = time.perf_counter() - t0

    # ---- step 1: where rounds start -------------------------------------------------
    def __repr__(self):
        system = self.system if isinstance(self.system, str) else list(self.system)
        return (f"CountedGame({self.rules.describe()}, system={system!r}, "
                f"penetration={self.penetration:g}, strategy={self.strategy!r}, "
                f"spots={self.spots}, decks_estimation={self.decks_estimation!r}, "
                f"tc_rounding={self.tc_rounding!r})")

    def _checked_cut(self) -> int:
        """The cards dealt before the cut card (penetration x the shoe), or an error when
        the burn card(s) reach it."""
        n = len(self.shoe)
        cut = int(round(self.penetration * n))
        if self.burn >= cut:
            raise ValueError(f"burn must be fewer cards than the cut card leaves to deal "
                             f"({cut} at penetration {self.penetration:g}), got "
                             f"{_show(self.burn)}")
        if n - cut < 10:
            raise ValueError(f"penetration {self.penetration:g} leaves {n - cut} cards behind "
                             f"the cut card; at least 10 are needed to finish the last round")
        return cut

    def _solve_full_shoe(self):
        # only the chart's rows are kept: the game plays the chart by total, and the chart
        # as solved keeps its pending search for composition-dependent exceptions, a
        # closure over the solution and its engines (6D H17 DAS: 27 MB held to the end)
        solution = solve(self.rules, shoe=self.shoe)
        solved = solution.strategy
        # the games' choice after a double (redouble, rescue, stand): the full shoe's
        # after-double chart, frozen like the chart (a fixed strategy, as the calibration
        # needs; the simulator's after_double="basic" plays the same)
        self._after_double = (AfterDoubleTable(solution) if self.rules.redoubles
                              or self.rules.double_rescue else None)
        self.chart = CachedChart(StrategyChart(solved.rows, rules=solved.rules,
                                               split=solved.split))
        if self.sidebet is not None:
            # for the side bet's covariance with the main hand within a true count: the
            # first cards' joint law at the full shoe (``first_cards_law``)
            self._side_first_cards = first_cards_law(self.sidebet, self.rules.decks)
        del solution
        # the solution's engines are in reference cycles: freed now and given back, they do
        # not add to the peak of the laws to come (docs/counted-game.md, "Speed")
        del solved
        gc.collect()
        _release_free_memory()

    @staticmethod
    def _cached_chart(chart):
        """``chart`` answering each question once (``CachedChart``)."""
        return CachedChart(chart)

    def _round_starts(self):
        """Expected round starts per shoe by (cards seen, running count):
        ``bjsolve.risk.round_starts`` (a forward recursion with the joint law of a round's
        cards and count) by default; with ``round_length_correction=False`` the plain
        renewal (one law of the cards a round uses, independent of the count: round starts
        see random depletions of the shoe)."""
        steps = rank_steps(self.system, self.count.classes.scale)
        full = round_cards_law(self.hand_rules, self.shoe.probabilities(), self.chart, steps,
                               spots=self.spots, after_double=self._after_double)
        self.cards_per_round = full.law.sum(axis=1)
        mean_cards = full.mean_cards
        if self.cut - self.burn < math.ceil(mean_cards):
            raise ValueError(f"penetration {self.penetration:g} leaves less than a round before "
                             f"the cut card ({self.cut - self.burn} cards after the burn; a round "
                             f"takes {mean_cards:.1f} on average)")
        seen = np.arange(self.cut - self.burn)
        if self.round_length_correction:
            weight = round_starts(self.hand_rules, self.chart, self.count, cut=self.cut,
                                  burn=self.burn, spots=self.spots,
                                  strategy_at=self._strategy_at(),
                                  decks_estimation=self.decks_estimation,
                                  tc_rounding=self.tc_rounding,
                                  after_double=self._after_double).weight
        else:
            u = np.zeros(len(seen))
            u[0] = 1.0
            law = self.cards_per_round
            for d in range(1, len(seen)):
                lo = max(0, d - len(law) + 1)
                u[d] = float(u[lo:d] @ law[d - lo:0:-1]) if d > lo else 0.0
            weight = self.count.probabilities[seen] * u[:, None]
        self._start_weight = weight               # [cards seen, running count]
        self.start_density = np.zeros(self.cut)   # expected round starts at depth d
        self.start_density[self.burn:] = weight.sum(axis=1)
        self.rounds_per_shoe = float(weight.sum())

    def _strategy_at(self):
        """For ``round_starts``: None (the chart at every count), or with index plays
        tc -> (the plays that differ from the chart's, the strategy played)."""
        if self.strategy != "indices":
            return None

        def at(tc):
            policy = self.policy_at(tc)
            return tuple(sorted(policy.overrides.items())), CachedChart(policy)
        return at

    # ---- step 2: the count at round starts -----------------------------------------
    def _states(self, tc_min, tc_max):
        cd = self.count
        depths = np.arange(self.burn, self.cut)
        seen = depths - self.burn
        weights = self.start_density[depths] / self.rounds_per_shoe
        # decks remaining from the cards not yet seen (the burn card is unseen), as the
        # simulator (bjsolve.simulate) counts them
        tcs = np.stack([cd.true_counts(int(k), decks_estimation=self.decks_estimation,
                                       tc_rounding=self.tc_rounding) for k in seen])
        means = cd.class_means()[:, seen, :]                      # [class, depth, rc]
        probs = self._start_weight / self.rounds_per_shoe          # [depth, running count]
        # every state in its own true count's cell, round starts or not: the calibration
        # averages the cells over the random depletions (the exact count law), states
        # where the round-start model puts no weight included (putting them all in the
        # lowest bin mixed extreme counts of both signs into one composition there and
        # moved 6D H17's first-band offset by 4e-4 with 3 bands)
        tc_int = np.rint(tcs).astype(int)
        started = probs > 0
        lo_all, hi_all = int(tc_int[started].min()), int(tc_int[started].max())
        freq_all = np.bincount(tc_int[started] - lo_all, weights=probs[started],
                               minlength=hi_all - lo_all + 1)
        common = np.nonzero(freq_all >= MIN_BIN_FREQUENCY)[0]
        lo = lo_all + int(common.min()) if tc_min is None else tc_min
        hi = lo_all + int(common.max()) if tc_max is None else tc_max
        if lo >= hi:
            raise ValueError(f"tc_min must be below tc_max, got {lo} and {hi} (the end bins "
                             f"that occur are {lo_all + int(common.min()):+d} and "
                             f"{lo_all + int(common.max()):+d})")
        clipped = np.clip(tc_int, lo, hi)
        # the true counts that occur (a small shoe can skip some whole numbers)
        self.tc_values = np.unique(clipped[started])
        self._start_probs, self._start_tc = probs, clipped   # [cards seen, running count]
        self.labels = [(f"<={t:+d}" if t == lo and lo > lo_all else
                        f">={t:+d}" if t == hi and hi < hi_all else f"{t:+d}")
                       for t in self.tc_values]
        # (a count no round starts at joins its nearest bin above, for the calibration)
        bins = np.minimum(np.searchsorted(self.tc_values, clipped), len(self.tc_values) - 1)
        nb = len(self.tc_values)
        band_edges = np.linspace(0, len(seen), self.depth_bands + 1)
        band_of = np.minimum(np.searchsorted(band_edges, np.arange(len(seen)), side="right") - 1,
                             self.depth_bands - 1)
        cell = (bins * self.depth_bands + band_of[:, None]).ravel()
        ncell = nb * self.depth_bands
        w_cell = np.bincount(cell, weights=probs.ravel(), minlength=ncell)
        # the same cells weighted as random depletions (no round-length correction): the
        # fundamental theorem's average, for the calibration in _edges
        plain = cd.probabilities[seen] * weights[:, None]
        self._plain_weight = np.bincount(cell, weights=plain.ravel(),
                                         minlength=ncell).reshape(nb, self.depth_bands)
        seen_cell = np.stack([np.bincount(cell, weights=(np.nan_to_num(m) * probs).ravel(),
                                          minlength=ncell) for m in means])
        self.frequency = w_cell.reshape(nb, self.depth_bands).sum(axis=1)
        self.band_weight = w_cell.reshape(nb, self.depth_bands)
        # a cell no round starts in (a count reachable there only at depths where no round
        # can start) still needs a composition for the calibration: its random-depletion
        # mean
        seen_plain = np.stack([np.bincount(cell, weights=(np.nan_to_num(m) * plain).ravel(),
                                           minlength=ncell) for m in means])
        plain_cell = self._plain_weight.ravel()
        with np.errstate(invalid="ignore", divide="ignore"):
            self._band_seen = np.where(w_cell > 0, seen_cell / w_cell,
                                       seen_plain / plain_cell).reshape(-1, nb, self.depth_bands)
            pooled = seen_cell.reshape(-1, nb, self.depth_bands).sum(axis=2)
            self._bin_seen = pooled / self.frequency
        # how widely each class's cards seen spread over a cell's states: E[k (S - k)]
        # (k of the class's S cards seen), exact from the count law's first two moments;
        # it sets the within-class spread of the cell's compositions (_curvature_shape)
        sizes = np.array(self.count.classes.sizes, dtype=float)[:, None, None]
        spread = sizes * means - cd.class_second_moments()[:, seen, :]
        with np.errstate(invalid="ignore", divide="ignore"):
            spread_cell = np.stack([np.bincount(cell, weights=(np.nan_to_num(m) * probs).ravel(),
                                                minlength=ncell) for m in spread])
            spread_plain = np.stack([np.bincount(cell, weights=(np.nan_to_num(m) * plain).ravel(),
                                                 minlength=ncell) for m in spread])
            self._band_spread = np.where(w_cell > 0, spread_cell / w_cell,
                                         spread_plain / plain_cell).reshape(-1, nb,
                                                                             self.depth_bands)
        self.band_insurance = self._insurance_gains(seen, cell, probs, w_cell)
        self.band_depths = [(int(seen[int(a)]) + self.burn,
                             int(seen[min(int(b), len(seen)) - 1]) + self.burn)
                            for a, b in zip(band_edges[:-1], band_edges[1:])]

    def _side_moments(self):
        """The side bet's mean and second moment per unit by true count: its exact moments
        at every round-start state (``side_moments_by_state``) averaged over the states of
        each true count with their round-start weights."""
        cd = self.count
        seen = np.arange(self._start_probs.shape[0])
        mean, second = side_moments_by_state(self.sidebet, self.rules.decks, self.system,
                                             seen, cd.running_counts, cd.classes.scale)
        probs, tc = self._start_probs, self._start_tc
        at = np.searchsorted(self.tc_values, tc)
        ok = (probs > 0) & (at < len(self.tc_values))
        weight = np.bincount(at[ok], weights=probs[ok], minlength=len(self.tc_values))
        with np.errstate(invalid="ignore", divide="ignore"):
            self.side_mean = np.bincount(at[ok], weights=(probs * mean)[ok],
                                         minlength=len(self.tc_values)) / weight
            self.side_second = np.bincount(at[ok], weights=(probs * second)[ok],
                                           minlength=len(self.tc_values)) / weight
        # the covariance of one unit of each within a true count: the first cards' law
        # drawn from the count's mean composition, with the hand values E[X | v] of that
        # composition (a solve of it, the strategy's first action) and the side bet's
        # E[S | v] of the full shoe (``first_cards_covariance``)
        tie = natural_tie_value(self.rules)
        covariance = []
        for i, tc in enumerate(self.tc_values):
            shoe = self.composition(self._bin_seen[:, i])
            hands = hand_values(solve(self.rules, shoe=shoe, threads=self._threads),
                                self._side_policy(float(tc)))
            covariance.append(first_cards_covariance(self._side_first_cards, hands,
                                                     shoe.counts, tie))
        self.side_covariance = np.array(covariance)

    def _side_policy(self, tc: float):
        """The first action the strategy plays at true count tc, for ``hand_values``
        (None: optimal play)."""
        return None if self.strategy == "optimal" else self.policy_at(tc)

    @property
    def insurance_cards(self) -> int:
        """The player's cards seen when insurance is decided: two a spot (Blackjack
        Switch: its two hands, four cards)."""
        return 2 * self.spots

    def _insurance_gains(self, seen, cell, probs, w_cell) -> np.ndarray:
        """[true count, band] the insurance gain per round (``insurance_gains``, per state)
        averaged over each cell's round starts; 0 without an insurance index."""
        nb = len(self.tc_values)
        index = self.insurance
        if index is None:
            return np.zeros((nb, self.depth_bands))
        gain = insurance_gains(self.count, seen, index, hands=self.insurance_cards,
                               decks_estimation=self.decks_estimation,
                               tc_rounding=self.tc_rounding)
        gain = np.where(probs > 0, gain, 0.0)
        total = np.bincount(cell, weights=(gain * probs).ravel(), minlength=len(w_cell))
        return np.divide(total, w_cell, out=np.zeros(len(w_cell)),
                         where=w_cell > 0).reshape(nb, self.depth_bands)

    def composition(self, seen_per_class) -> Shoe:
        """The remaining (fractional) shoe once ``seen_per_class`` cards of each tag class
        are seen (and the burn card is gone unseen: it leaves the expected composition of
        the cards left unchanged), each class's cards in the full shoe's proportions."""
        full = np.array(self.shoe.counts, dtype=float)
        left = full.copy()
        for c, members in enumerate(self.count.classes.members):
            size = self.count.classes.sizes[c]
            for r in members:
                left[r - 1] -= seen_per_class[c] * full[r - 1] / size
        return Shoe.fractional(np.maximum(left, 0.0).tolist(), dealt_from=self.shoe)

    # ---- step 3 and 4: edge and variance by true count ---------------------------------
    def _policy_engines(self, strategy) -> dict:
        """Policy engines on the full shoe with ``strategy``'s decisions frozen (and, in the
        games with redoubles or the rescue, the full shoe's after-double choices): the game
        engine when a game rule is set (``make_engines``)."""
        return policy_engines(self.rules, self.shoe, strategy, after_double=self._after_double)

    def policy_at(self, tc: float):
        """The strategy played at true count tc (a chart-like callable)."""
        if self.strategy != "indices":
            return self.chart
        return IndexedChart(self.chart, self.indices, tc)

    def _edges(self):
        """Edge and variance by true count: one exact outcome law per (true count, depth
        band) at the band's mean composition (``_exact_law``: its mean is the exact EV,
        its second moment the exact second moment), calibrated per depth band by the
        fundamental theorem (first and second moment alike); see the module docstring."""
        nb, nd = self.band_weight.shape
        self.band_edge = np.full((nb, nd), np.nan)
        self.band_second = np.full((nb, nd), np.nan)    # E[X^2] of the strategy played
        self.chart_edge = np.full((nb, nd), np.nan)     # the basic chart in every cell
        self.chart_second = np.full((nb, nd), np.nan)
        self.edge = np.zeros(nb)
        self.variance = np.zeros(nb)
        self.solves = 0
        chart_engines = self._policy_engines(self.chart)
        self._chart_engines = chart_engines
        full = self._exact_moments(self.shoe, chart_engines)
        self.full_shoe_chart_ev, self.full_shoe_chart_second = full
        by_plays = {}     # index plays -> engines: neighbouring counts often share them
        # cells whose mean composition holds less than one card of some rank: there the
        # interpolation between shoes (a fractional shoe) stops describing the shoes it
        # averages (see ``thin_counts``)
        thin = np.zeros((nb, nd), dtype=bool)
        for i, tc in enumerate(self.tc_values):
            engines = chart_engines
            if self.strategy == "indices":
                policy = self.policy_at(float(tc))
                key = tuple(sorted(policy.overrides.items()))
                if key not in by_plays:
                    by_plays[key] = self._policy_engines(policy)
                engines = by_plays[key]
            for j in range(nd):
                if self.band_weight[i, j] <= 0 and self._plain_weight[i, j] <= 0:
                    continue
                shoe = self.composition(self._band_seen[:, i, j])
                thin[i, j] = any(0.0 < c < 1.0 for c in shoe.counts)
                m, s2 = self._exact_moments(shoe, chart_engines)
                self.chart_edge[i, j], self.chart_second[i, j] = m, s2
                self.solves += 1
                if self.strategy == "optimal":
                    sol = solve(self.rules, shoe=shoe)
                    s2 = self._second_moment(shoe, None)
                    m = sol.expected_value
                    self.solves += 1
                elif self.strategy == "indices":
                    m, s2 = self._exact_moments(shoe, engines)
                    self.solves += 1
                # insurance (any strategy): its gain in the edge, not in the SD
                m += self.band_insurance[i, j]
                self.band_edge[i, j], self.band_second[i, j] = m, s2
            if self._progress is not None:
                self._progress(i + 1, nb)
        # Calibration (fundamental theorem of card counting): a fixed strategy's outcome
        # averaged over random depletions of the shoe has the full shoe's DISTRIBUTION
        # (every card unseen is as likely to be any card of the shoe), so its mean and its
        # second moment are the full shoe's, at every depth.  The cells' mean compositions
        # miss both by the curvature over the spread of compositions in a cell (measured:
        # docs/counted-game.md); the chart's misses in each depth band are added back, each
        # moment's shared out over the band's counts by its own curvature measured at a few
        # counts (_curvature_shape): the second moment's in proportion, the mean's as each
        # count's predicted excess plus the band's remaining miss.  (The mean's offset was once added to every cell of the
        # band alike: 2D Pontoon's edges then sat 0.08% of a bet above 1.8e8 simulated
        # rounds at true counts <= -5, z +3.2, and 0.12% below at >= +6, z -3.3.)
        weight = self.band_weight.sum(axis=1)
        thin_share = np.divide((self.band_weight * thin).sum(axis=1), weight,
                               out=np.zeros(nb), where=weight > 0)
        self.thin_counts = [self.labels[i] for i in range(nb) if thin_share[i] >= 0.1]
        shapes, self.curvature_anchors, self.curvature_laws = None, None, 0
        self.edge_curvature_anchors = None
        if self.calibrate and self.curvature == "count":
            shapes = self._curvature_shape()
        # where the curvature cannot be measured (a shoe too small), one offset per band
        self.curvature_used = "count" if shapes is not None else "band"
        if shapes is None:
            self._calibrate(np.ones((nb, nd)))
        else:
            self._calibrate(shapes[1], shapes[0])

    def _calibrate(self, shape, edge_shape=None):
        """The true counts' edges and variances from the cells' exact moments, with the
        calibration offsets (``shape``: [true count, band] how the band's second-moment
        offset is shared out over its counts, in proportion; ``edge_shape``: the mean's
        predicted excess per cell, added to the band's offset less its band average; ones,
        and an edge_shape of None: the same offset for every count)."""
        nb, nd = self.band_weight.shape
        self.curvature_shape = shape
        self.edge_curvature_shape = edge_shape
        if edge_shape is None:
            edge_shape = np.zeros((nb, nd))
        self.band_offset = np.zeros(nd)
        self.band_offset_second = np.zeros(nd)
        # per cell: each moment's offset (the band's, shared out by curvature)
        self.cell_offset = np.zeros((nb, nd))
        self.cell_offset_second = np.zeros((nb, nd))
        if self.calibrate:
            for j in range(nd):
                w = self._plain_weight[:, j]
                ok = (w > 0) & ~np.isnan(self.chart_edge[:, j])
                if ok.any():
                    wn = w[ok] / w[ok].sum()
                    self.band_offset[j] = self.full_shoe_chart_ev - float(
                        wn @ self.chart_edge[ok, j])
                    self.band_offset_second[j] = self.full_shoe_chart_second - float(
                        wn @ self.chart_second[ok, j])
                    # shared out over the band's counts in proportion to each cell's
                    # predicted curvature x spread (its band average 1: the fundamental
                    # theorem's identity holds as before)
                    # (the mean's predicted excess, in units of the edge, often changes
                    # sign in a band: it is added as it is, and the band's remaining miss
                    # to every count alike; one offset when edge_shape is None)
                    self.cell_offset[:, j] = self.band_offset[j] + edge_shape[:, j] - float(
                        wn @ edge_shape[ok, j])
                    self.cell_offset_second[:, j] = self.band_offset_second[j] * _shares(
                        shape[:, j], ok, wn)
        for i in range(nb):
            w = self.band_weight[i]
            ok = (w > 0) & ~np.isnan(self.band_edge[i])
            wn = w[ok] / w[ok].sum()
            self.edge[i] = float(wn @ (self.band_edge[i, ok] + self.cell_offset[i, ok]))
            second = float(wn @ (self.band_second[i, ok] + self.cell_offset_second[i, ok]))
            # within the count: E[X^2] over its states minus its edge squared (the spread
            # of the edge between the count's states is in it)
            self.variance[i] = second - self.edge[i] ** 2

    def _class_curvatures(self, i: int, j: int) -> np.ndarray:
        """[moment, class]: per tag class, the excess of the chart's mean E[X] and second
        moment E[X^2] over a spread of compositions around cell (i, j)'s mean composition,
        per unit of spread and times the cards left squared: for class c, moving cards
        within the class (ranks r of the class, shares q_r of it in the full shoe) with
        covariance a (diag q - q q^T) raises a moment by about a/2 tr(H (diag q - q q^T))
        (H its Hessian in the rank counts).  Measured by symmetric differences along the
        eigenvectors of diag q - q q^T, one spread's SD (a = the cell's E[k (S - k)] /
        (S - 1)) each way: 2 (m - 1) exact laws for a class of m ranks (each law gives
        both moments), and one at the centre."""
        cl = self.count.classes
        full = np.array(self.shoe.counts, dtype=float)
        shoe = self.composition(self._band_seen[:, i, j])
        left = np.array(shoe.counts, dtype=float)
        # (the centre's moments from the same law as the differences: its mean is the EV
        # engine's to rounding, taken from the law all the same)
        centre = np.array(self._law_moments(shoe, self._chart_engines))
        self.curvature_laws += 1
        cards_left = float(left.sum())
        out = np.zeros((2, len(cl.sizes)))
        for c, members in enumerate(cl.members):
            size = cl.sizes[c]
            if size < 2 or len(members) < 2:
                continue
            a = float(self._band_spread[c, i, j]) / (size - 1)
            idx = [r - 1 for r in members]
            q = full[idx] / size
            lam, vec = np.linalg.eigh(np.diag(q) - np.outer(q, q))
            excess = np.zeros(2)
            for l, v in zip(lam, vec.T):
                if l < 1e-12 or a <= 0:
                    continue
                d = np.zeros(len(full))
                d[idx] = math.sqrt(a * l) * v
                # shrink the step so no rank leaves 0 .. its full count; the difference
                # is divided by the shrink squared (the curvature stays per unit spread)
                room = [(full[r] - left[r]) / abs(d[r]) if d[r] else np.inf for r in idx]
                room += [left[r] / abs(d[r]) if d[r] else np.inf for r in idx]
                shrink = min(1.0, 0.9 * min(room))
                d *= shrink
                up = np.array(self._law_moments(
                    Shoe.fractional((left + d).tolist(), dealt_from=self.shoe),
                    self._chart_engines))
                down = np.array(self._law_moments(
                    Shoe.fractional((left - d).tolist(), dealt_from=self.shoe),
                    self._chart_engines))
                excess += ((up + down) / 2.0 - centre) / shrink ** 2
                self.curvature_laws += 2
            out[:, c] = excess / a * cards_left ** 2 if a > 0 else 0.0
        return out

    def _curvature_shape(self) -> np.ndarray | None:
        """[moment, true count, band] the mean's (moment 0) and the second moment's
        (moment 1) predicted excess over the cell's mean composition, up to a factor per
        band: sum over classes of the cell's spread
        E[k (S - k)] / (S - 1) x the class's curvature at the cell's count / cards left^2.
        The curvature per class (``_class_curvatures``, x cards left^2, so that it depends
        on the proportions of the shoe, not its size) is measured in the middle depth band
        at three true counts (ANCHOR_TC and 0, or the nearest counts the band holds) and
        interpolated by the parabola through them (held constant a quarter of their span
        beyond the outer ones: below -12 and above +12).  None where it cannot be measured:
        no cells in the middle band, or fewer than MIN_CURVATURE_CARDS cards left there."""
        nb, nd = self.band_weight.shape
        mid = nd // 2
        tcs = np.asarray(self.tc_values, dtype=float)
        held = (self._plain_weight[:, mid] > 0) & ~np.isnan(self.chart_second[:, mid])
        anchors = []
        for target in (-ANCHOR_TC, 0, ANCHOR_TC):
            cand = np.nonzero(held)[0]
            if not len(cand):
                return None
            k = int(cand[np.argmin(np.abs(tcs[cand] - target))])
            if k not in anchors:
                anchors.append(k)
        cards_left = len(self.shoe) - self._band_seen.sum(axis=0)               # [tc, band]
        if min(cards_left[k, mid] for k in anchors) < MIN_CURVATURE_CARDS:
            return None
        # [anchor, moment, class]
        curv = np.array([self._class_curvatures(k, mid) for k in anchors])
        self.curvature_anchors = (tcs[anchors], curv[:, 1])
        self.edge_curvature_anchors = (tcs[anchors], curv[:, 0])
        x = tcs[anchors]
        lo, hi = x.min(), x.max()
        t = np.clip(tcs, lo - (hi - lo) / 4, hi + (hi - lo) / 4)
        deg = len(x) - 1
        sizes = np.array(self.count.classes.sizes, dtype=float)
        spread = self._band_spread / np.maximum(sizes - 1, 1)[:, None, None]    # [class, tc, band]
        shapes = []
        for moment in (0, 1):
            per_tc = np.stack([np.polyval(np.polyfit(x, curv[:, moment, c], deg), t) if deg
                               else np.full(len(t), curv[0, moment, c])
                               for c in range(curv.shape[2])])
            shapes.append((spread * per_tc[:, :, None]).sum(axis=0) / cards_left ** 2)
        return np.nan_to_num(np.array(shapes))

    def _exact_moments(self, shoe: Shoe, engines) -> tuple:
        """(EV, second moment) of a round on ``shoe`` playing the decisions frozen in
        ``engines``: the EV from the EV engine (``_frozen_ev``), the second moment from the
        outcome law (``_exact_law``).  The law's own mean is the EV engine's on whole
        shoes and on the fractional shoes of the true counts alike (the law follows the
        solver's construction there, docs/risk.md; measured 2-6 decks, Hi-Lo -6 .. +8, a
        chart and optimal play: within 2e-16), so either could give the edge; it comes
        from the EV engine, as every other EV of the package."""
        return self._frozen_ev(engines, shoe), self._second_moment(shoe, engines)

    def _second_moment(self, shoe: Shoe, engines) -> float:
        """E[X^2] of a round on ``shoe`` (``engines``: frozen decisions; None: the shoe's
        optimal play): the outcome kernel's law (``_exact_law``), or in the games the game
        law (``_game_law``)."""
        return self._law_moments(shoe, engines)[1]

    def _law_moments(self, shoe: Shoe, engines) -> tuple:
        """(E[X], E[X^2]) of a round on ``shoe`` from one outcome law (as
        ``_second_moment``)."""
        if self.rules.is_classic:
            return column_moments(self._exact_law(shoe, engines), self.rules.blackjack_payout)
        values, probs = self._game_law(shoe, engines)
        return float(probs @ values), float(probs @ (values * values))

    def _law_values(self, shoe: Shoe, engines) -> tuple:
        """(values, probabilities) of a round's net outcome per unit bet on ``shoe``, equal
        values merged: ``_exact_law`` on its columns, or the game law."""
        if self.rules.is_classic:
            return merge_equal_values(column_values(self.rules.blackjack_payout),
                                      self._exact_law(shoe, engines))
        return self._game_law(shoe, engines)

    def _game_law(self, shoe: Shoe, engines) -> tuple:
        """The games' ``_exact_law``: (values, probabilities) of a round's net outcome per
        unit bet (free stakes, bonuses, redoubles and the rescue as docs/games.md settles
        them), from the game walk's outcome law per dealer key
        (``bjsolve.exact.distribution.game_round_law``) with the decisions frozen in
        ``engines`` (None: the shoe's optimal play, CDZ-), mixed over the dealer keys."""
        deal = Deal(self.rules, shoe)
        keys = [k for k in deal.keys if deal.weights[k] > 0]

        def one_key(key):
            values, law = game_round_law(self.rules, shoe, key,
                                         None if engines is None else engines[key])
            return np.asarray(values, dtype=float), np.asarray(law, dtype=float).sum(axis=0)
        laws = run_units(keys, one_key, self._threads)
        total = sum(deal.weights[k] for k in keys)
        values = np.concatenate([laws[k][0] for k in keys])
        probs = np.concatenate([deal.weights[k] / total * laws[k][1] for k in keys])
        return merge_equal_values(values, probs)

    def _frozen_ev(self, engines, shoe: Shoe) -> float:
        """The round's EV (unconditioned) on ``shoe`` playing the decisions frozen in
        ``engines`` (built on the full shoe), from the EV engine."""
        deal = Deal(self.rules, shoe)
        local = make_engines(self.rules, shoe, POLICY_CLASS, deal)
        for key, eng in local.items():
            engines[key].copy_policy_to(eng)
        return deal.combine(round_values(self.rules, shoe, local, deal))

    def _exact_law(self, shoe: Shoe, engines):
        """The law of a round's net outcome per unit bet on ``shoe``: probabilities over
        the outcome kernel's columns (net (k - 16) / 2 units, the last column a natural at
        the table's payout; ``distribution.column_values``), from the kernel of
        ``Solution.outcome_distribution`` (``distribution.round_laws``) with the decisions
        frozen in ``engines`` (policy engines of the strategy, built on the full shoe)
        copied in; ``engines=None``: the composition's own optimal play (CDZ-).  On a whole
        shoe a split into two hands is exact (the joint law of both hands and the dealer)
        and a split that may make more hands is combined as independent given the dealer,
        as ``outcome_distribution``'s pmf is; on the fractional shoes of the true counts (no
        real shoe) every split is combined so, as the solver constructs splits there.  The
        exact resplit second moments are not used (docs/counted-game.md)."""
        deal = Deal(self.rules, shoe)
        keys = [k for k in deal.keys if deal.weights[k] > 0]
        # one dealer key per call, on this thread and the solver's helper threads
        # (``run_units``: they stop taking keys once one fails or is interrupted): a key's
        # kernel holds its tables until round_laws returns (all ten at once: +59 MB in 6
        # decks, one: +27 MB), and each thread keeps the peak of its malloc arena.  The
        # solver's helpers reuse the arenas that held the full shoe's solve (6D H17 DAS,
        # 2 threads: 147-151 MB peak on threads of the game's own, 122 MB so)
        def one_key(key):
            return round_laws(self.rules, shoe, [key], engines, threads=1)[0][key]
        laws = run_units(keys, one_key, self._threads)
        return sum(deal.weights[k] * laws[k].sum(axis=0) for k in keys) / sum(
            deal.weights[k] for k in keys)

    def _outcome_laws(self):
        """Per true count, the law of one round's net outcome (per unit bet), for the exact
        risk of ruin of a ramp: the exact law of the full shoe under the strategy played
        at true count 0, exponentially tilted, p_t(x) proportional to
        p_0(x) exp(a y + b y^2), y = x - mu_0, with a, b (Newton) such that its mean is the
        count's edge and its variance the count's variance: the support and shape (the
        tails of splits and doubles) are the full shoe's, the first two moments the
        count's, every probability positive."""
        if self.strategy == "basic":
            engines = self._chart_engines
        elif self.strategy == "optimal":
            engines = None
        else:
            engines = self._policy_engines(self.policy_at(0.0))
        values, probs = self._law_values(self.shoe, engines)
        dist = OutcomeDistribution(values, probs / probs.sum(), exact=False,
                                   method="the outcome kernel, split hands combined as "
                                          "independent given the dealer's outcome"
                                   if self.rules.is_classic else "the game walk's law")
        self.full_shoe_outcomes = dist
        self.outcome_values = dist.values
        x = dist.values - dist.mean
        p0 = dist.probabilities
        laws = np.empty((len(self.tc_values), len(p0)))
        self.outcome_law_misfit = 0.0
        for i, (m, v) in enumerate(zip(self.edge, self.variance)):
            shift = m - dist.mean
            laws[i] = _tilt(p0, x, shift, v + shift * shift)
            got_m = float(laws[i] @ x)
            got_v = float(laws[i] @ x ** 2) - got_m ** 2
            self.outcome_law_misfit = max(self.outcome_law_misfit, abs(got_m - shift),
                                          abs(got_v - v) / v)
        self.outcome_laws = laws

    # ---- results ---------------------------------------------------------------------
    def table(self, ramp=None):
        """The true-count table as a ``bjsolve.output.table.Table``: frequency, edge, SD (and the
        ramp's bet when a ramp is given)."""
        columns = [self.frequency, self.edge, np.sqrt(self.variance)]
        names = ["frequency", "edge", "SD"]
        if ramp is not None:
            columns.append(parse_ramp(ramp).bets(self.tc_values))
            names.append("bet")
        notes = self.notes()
        if self.sidebet is not None:
            columns += [self.side_mean, np.sqrt(np.maximum(self.side_second
                                                           - self.side_mean ** 2, 0.0))]
            names += ["side EV", "side SD"]
            notes += (f"side EV, side SD: {self.sidebet.bet} ({self.sidebet.paytable.name}) "
                      f"per unit, exact given the count at the round starts "
                      f"(bjsolve.risk.side_bet)",)
        return Table("game", "true counts at round starts", tuple(self.labels), tuple(names),
                     np.column_stack(columns), notes, style="prob",
                     units="frequency: fraction of rounds; edge: EV per unit bet "
                           "(unconditioned); SD: per unit bet; bet: units",
                     column_styles={"edge": "ev", "bet": "units", "side EV": "ev"})

    def to_pandas(self):
        """The true-count table as a DataFrame: index the true count at round start
        (``labels``; the end rows pool the rarer counts), columns frequency (share of
        rounds), edge (EV per unit bet, unconditioned), sd (per unit bet).  Needs pandas."""
        return counted_game_frame(self)

    def _repr_html_(self):
        return counted_game_html(self)

    def notes(self) -> tuple:
        return (f"rules: {self.rules.describe()}",
                f"count: {self.system}, true count = running count / decks remaining "
                f"(decks estimation {self.decks_estimation}, tc rounding {self.tc_rounding}); "
                f"burn {self.burn}; penetration "
                f"{self.penetration:g} (cut card after {self.cut} cards); "
                f"{self.rounds_per_shoe:.2f} rounds per shoe",
                f"edge: exact, unconditioned (fraction of the bet), strategy {self.strategy}, "
                f"{self.depth_bands} depth band(s) per true count (split CDZ-), calibrated "
                f"per depth band by the fundamental theorem"
                + (", each cell's predicted excess (the EV's measured curvature x the "
                   "spread of the cell's compositions) added to the band's offset"
                   if self.curvature_used == "count" else ", one offset per band")
                + "; insurance "
                + ("never" if self.insurance is None else f"at TC >= {self.insurance:+d}"),
                "frequency: exact count law by depth x P(a round starts there | depth, "
                "count) from independent dealing (exact given the cards seen), corrected "
                "for dealing without replacement to first order (an approximation: every "
                "true count within 3 standard errors of 1e8 simulated rounds in 6D S17 and "
                "2D H17; docs/counted-game.md)"
                if self.round_length_correction else
                "frequency: exact count law by depth x the renewal density of round starts "
                "(round starts taken as random depletions: a plain approximation)",
                "SD: exact second moment of each depth band's mean composition ("
                + ("outcome kernel" if self.rules.is_classic else "the game walk's law, "
                   "bjsolve.exact.distribution.game_round_law") +
                ", split hands independent given the dealer), calibrated per depth "
                "band by the fundamental theorem like the edge"
                + (", the band's offset shared out over the true counts by the measured "
                   "curvature x spread of each cell" if self.curvature_used == "count" else
                   ", one offset per band") + "; insurance not in it; docs/counted-game.md",
                ) + self._no_hole_card_notes() + self._game_notes() + (
                    (f"UNRELIABLE at true counts {_runs(self.labels, self.thin_counts)}: "
                      f"their deepest rounds' mean compositions hold "
                      f"less than one card of some ranks, where the interpolation between "
                      f"shoes fails (1 deck, penetration 0.75: edge -0.06 at +15 against "
                      f"+0.06 simulated); simulate gives these counts",)
                     if self.thin_counts else ())

    def _no_hole_card_notes(self) -> tuple:
        """What the figures mean with no hole card, for ``notes`` (none with the peek)."""
        rules = self.rules
        if rules.hole_card == "peek":
            return ()
        takes = {"enhc-obo": "the original bets only",
                 "obbo": "the busted bets and, of every other hand, its bet before "
                         "doubling (OBBO)",
                 "bb+1": "the busted bets and one unit more (BB+1)"}.get(
            rules.natural_loss if rules.hole_card == "enhc" else rules.hole_card,
            "every bet, doubles and splits too")
        if rules.player_21_beats_natural:
            takes += " (a player 21 is paid at once, before the second card)"
        return (f"no hole card ({rules.hole_card}): the dealer's second card is dealt after "
                f"the hands are played, a dealer natural then takes {takes}; edge and SD "
                f"are unconditioned (every round, the dealer's natural included); insurance "
                f"is offered on an ace up before the hands are played and settled when the "
                f"second card is turned, its gain the peek game's (the card is any unseen "
                f"card alike)",)

    def _game_notes(self) -> tuple:
        """The games' conventions, for ``notes`` (none in the classic game)."""
        rules = self.rules
        if rules.is_classic:
            return ()
        free = ("; a free double or split is the house's stake (it wins, never loses: "
                "docs/games.md)" if rules.free_doubles or rules.free_splits else "")
        out = [("games: figures per unit of the player's own initial bet, unconditioned"
                f"{free}; the edge is the game engine's, the frequencies from a round "
                "model playing the games' cards (6D Free Bet and Spanish 21: every true "
                "count within 3.8 standard errors of 4e7 simulated rounds, rounds per shoe "
                "0.12-0.13% above the simulator's; docs/counted-game.md, 'The games')")]
        if rules.redoubles or rules.double_rescue:
            out.append("after a double: the full shoe's after-double chart (stand, redouble "
                       "or rescue by the full shoe's values of the hand) at every count, as "
                       "simulate(..., after_double='basic') plays")
        if rules.spanish_deck:
            extra = self.count.mean_tag * self.count.deck_cards
            out.append(f"Spanish shoe: decks remaining in 48-card decks; the count's tags on "
                       f"the cards present ({extra:+g} a deck), the true count the running "
                       f"count in excess of its expected value at that depth, as simulate "
                       f"counts a Spanish shoe")
        return tuple(out)

    def evaluate(self, ramp, bankroll: float | None = None, *, wong_in=None,
                 unit: float | None = None, trip_rounds: int | None = None,
                 target_ror: float | None = None, exact_ruin: bool = True,
                 sidebet_threshold: int | None = None, sidebet_units=1.0) -> RampResult:
        """The ramp's figures (numpy on the cached per-count results).  ``ramp``: a
        ``Ramp``, a mapping {true count: bet}, or "tc:bet,..." text, bets in units;
        ``bankroll`` in units (> 0) for the risk of ruin and the certainty equivalent;
        ``unit``: what a unit is worth in money (1e-9..1e9; ``RampResult.money()`` then
        gives the money figures beside the units); ``trip_rounds`` (with a bankroll): also
        the trip ruin, P(losing the bankroll within that many rounds) (``None`` when its
        estimated cost is beyond GAME_TRIP_SECONDS: the reason is in ``trip_ruin_note``);
        ``target_ror`` (0 < risk < 1): also the smallest bankroll (units) whose lifetime
        ruin is at most that (``bankroll_for_target``; inf when the ramp has no edge).  A
        ramp that bets at none of the game's true counts (``wong_in`` above them all) is
        refused: no round would be played.

        Risk of ruin: exact (``bjsolve.risk.RuinCurve``, the ladder heights of the ramp's
        mixture law ``ramp_distribution``), and the diffusion approximation beside it.  A
        new ramp costs one factorization (milliseconds), cached per ramp, so a bankroll
        change is cheaper still (``exact_ruin=False`` reports the diffusion figure alone).

        With the game's ``sidebet``: it is bet on the first spot in the rounds the ramp bets,
        ``sidebet_units`` units (a number, or a ramp of its own) at true counts >=
        ``sidebet_threshold`` (None: every round bet); the figures (win rate, SD, SCORE,
        risk of ruin) are the combined play's, ``result.sidebet`` the side bet's share
        (``bjsolve.risk.ramp.SideBetFigures``).  Its risk of ruin is the diffusion figure
        (the exact ruin of the combined law is not computed yet)."""
        ramp = parse_ramp(ramp, wong_in=wong_in)
        side_play = None
        if self.sidebet is not None:
            side_play = side_bet_play(self.sidebet.bet, self.sidebet.paytable,
                                      threshold=sidebet_threshold, units=sidebet_units)
        elif sidebet_threshold is not None or not (
                isinstance(sidebet_units, (int, float)) and sidebet_units == 1.0):
            raise ValueError("sidebet_threshold / sidebet_units: the game has no side bet "
                             "(give CountedGame(..., sidebet=NAME))")
        if unit is not None:
            unit = finite_number(unit, "unit")
            if not MIN_UNIT <= unit <= MAX_UNIT:
                raise ValueError(f"unit must be from {MIN_UNIT:g} to {MAX_UNIT:g} (what one "
                                 f"unit of the ramp is worth in money), got {unit:g}")
        if bankroll is not None:
            bankroll = finite_number(bankroll, "bankroll")
            if bankroll <= 0:
                raise ValueError(f"bankroll must be > 0 (units), got {bankroll:g}")
        if target_ror is not None:
            target_ror = _check_risk(target_ror, "target_ror")
        rounds = trip_rounds
        if rounds is not None and bankroll is None:
            raise ValueError("trip_rounds needs a bankroll (the trip ruin is P(losing the "
                             "bankroll within that many rounds))")
        if rounds is not None and not (is_finite_real(rounds) and rounds == int(rounds)
                                       and 1 <= rounds <= MAX_ROUNDS):
            raise ValueError(f"trip_rounds must be a whole number from 1 to {MAX_ROUNDS:,} (the "
                             f"trip's length; further out the lifetime ruin is the limit), "
                             f"got {_show(rounds)}")
        bets = ramp.bets(self.tc_values)
        if not np.any(bets > 0):
            # every figure per amount bet would be 0 / 0: refused rather than reported
            raise ValueError(f"ramp {ramp.describe()}: no round is played, the ramp bets 0 "
                             f"at every true count the game reaches "
                             f"({self.tc_values[0]:+d}..{self.tc_values[-1]:+d}); lower "
                             f"wong_in or bet at those counts")
        result = ramp_figures(ramp, bets, self.frequency, self.edge, self.variance, bankroll)
        more: dict = {"unit": unit}
        if side_play is not None:
            return self._with_side_bet(result, side_play, bets, more, target_ror)
        if self.thin_counts:
            thin = np.isin(np.array(self.labels), self.thin_counts)
            money = self.frequency * bets
            share = float(money[thin].sum() / money.sum()) if money.sum() > 0 else 0.0
            if share >= 0.01:
                more["caveat"] = (f"{100 * share:.0f}% of the money bet is at true counts "
                                  f"whose edge is unreliable (see the true-count table's "
                                  f"notes): simulate this ramp for its win rate")
        if (bankroll is None and target_ror is None) or not exact_ruin:
            return replace(result, **more)
        mixture, chip, note = self.ramp_distribution(bets)
        curve = self._ruin_curve(mixture)
        if target_ror is not None:
            # the mixture's outcomes are in chips of ``chip`` units
            more.update(target_ror=target_ror,
                        bankroll_for_target=chip * bankroll_for_risk(mixture, target_ror,
                                                                     curve=curve))
        if bankroll is None:
            return replace(result, **more)
        in_chips = bankroll / chip
        if not in_chips <= MAX_BANKROLL:
            raise ValueError(f"bankroll {bankroll:g} is beyond {MAX_BANKROLL:g} chips of the "
                             f"ramp's bets ({chip:g} units each): give larger bets or a "
                             f"smaller bankroll")
        more.update(ror=curve(in_chips), ror_dominant_root=curve.dominant(in_chips),
                    ror_method=(f"exact, {curve.method}, on the ramp's mixture law ({note}); "
                                "diffusion exp(-2 W B / Var) beside it"))
        if rounds is not None:
            more["trip_rounds"] = int(rounds)
            more["trip_ruin"], more["trip_ruin_note"] = _trip_ruin(mixture, in_chips,
                                                                   int(rounds))
        return replace(result, **more)

    def _with_side_bet(self, result, play, bets, more, target_ror) -> RampResult:
        """The ramp's figures with the side bet beside it (``evaluate``): per true count t,
        main bet b, side units u (0 where the ramp sits out), the combined second moment
        f_t (b^2 E[X^2] + u^2 E[S^2] + 2 b u (E[X] E[S] + c)), c the covariance of one
        unit of each within a true count, taken as the full shoe's (COVARIANCE_METHOD)."""
        f, m, v = self.frequency, self.edge, self.variance
        units = play.units_at(self.tc_values) * (bets > 0)
        main_win, main_var = result.win_rate, result.variance
        side_win = float(np.sum(f * units * self.side_mean))
        side_var = max(float(np.sum(f * units ** 2 * self.side_second)) - side_win ** 2, 0.0)
        covariance = float(np.sum(f * bets * units * (m * self.side_mean
                                                      + self.side_covariance))) \
            - main_win * side_win
        win = main_win + side_win
        variance = max(main_var + side_var + 2 * covariance, 0.0)
        share = float(f[units > 0].sum())
        side = SideBetFigures(play.describe(), side_win, math.sqrt(side_var), share,
                              float(np.sum(f * units)) / share if share > 0 else 0.0,
                              main_win, math.sqrt(main_var), covariance, COVARIANCE_METHOD)
        bankroll = result.bankroll
        ror = diffusion_ruin(win, variance, bankroll) if bankroll is not None else None
        if target_ror is not None:
            more.update(target_ror=target_ror, bankroll_for_target=(
                -variance * math.log(target_ror) / (2 * win) if win > 0 else math.inf))
        return replace(result, win_rate=win, sd=math.sqrt(variance), ror=ror,
                       ror_diffusion=ror, sidebet=side,
                       ror_method="diffusion exp(-2 W B / Var) on the combined play (the "
                                  "exact ruin with a side bet is not computed yet)", **more)

    def ramp_distribution(self, bets):
        """The law of one round's win under bets ``bets`` (units, one per true count of
        ``tc_values``): sum over true counts of frequency x the count's outcome law scaled
        by its bet; a round sat out (bet 0) is a point mass at 0.  Returned in CHIPS, the
        largest unit of which every bet is a whole multiple (bets are first put on a grid
        of 1/100 unit; if the largest bet would exceed MAX_RUIN_CHIPS chips, rounded to the
        chip of at most MAX_RUIN_CHIPS per bet that moves the bets least, ``_closest_chips``),
        so the values lie on the outcome lattice: returns (distribution, chip in units, a
        note saying how the bets were put on the lattice)."""
        bets = self._checked_bets(bets)
        top = float(bets.max())
        fr = [Fraction(float(b)).limit_denominator(100) for b in bets]
        grid = all(abs(float(f) - b) < 1e-9 for f, b in zip(fr, bets))
        chip = Fraction(0)
        for f in fr:
            chip = Fraction(math.gcd(chip.numerator * f.denominator,
                                     f.numerator * chip.denominator),
                            chip.denominator * f.denominator)
        if grid and chip > 0 and top / float(chip) <= MAX_RUIN_CHIPS + 1e-9:
            chips = np.array([int(f / chip) for f in fr])
            chip = float(chip)
            note = f"bets in chips of {chip:g} unit(s), exact"
        else:
            chip, chips, miss = _closest_chips(bets, self.frequency)
            note = (f"bets rounded to chips of {chip:g} unit(s) (largest bet {chips.max()} "
                    f"chips; bets moved by up to {100 * miss:.2g}%) for the ruin")
        h = lattice(self.full_shoe_outcomes)[0]          # 1/2 unit (3:2), 1/10 (6:5)
        steps = np.rint(self.outcome_values / h).astype(np.int64)   # same order as the laws
        span = int(np.abs(steps).max()) * int(max(chips.max(), 1))
        index = (chips[:, None] * steps[None, :] + span).ravel()
        played = (self.frequency * (chips > 0))[:, None] * self.outcome_laws
        mass = np.bincount(index, weights=played.ravel(), minlength=2 * span + 1)
        mass[span] += float(self.frequency[chips == 0].sum())
        keep = np.nonzero(mass > 0)[0]
        values = (keep - span) * h
        probs = mass[keep] / mass.sum()
        return SimpleNamespace(values=values, probabilities=probs), chip, note

    def _checked_bets(self, bets) -> np.ndarray:
        """``bets`` as a float array, one finite bet >= 0 per true count of ``tc_values``
        and one above 0, or an error naming what is wrong."""
        n = len(self.tc_values)
        counts = f"{n} of them, {self.tc_values[0]:+d}..{self.tc_values[-1]:+d}"
        try:
            array = np.asarray(bets, dtype=float)
        except (TypeError, ValueError):
            raise TypeError(f"bets must be numbers, one per true count of tc_values "
                            f"({counts}), got {_show(bets)}") from None
        except OverflowError:       # an int beyond a float's range
            raise ValueError(f"bets must be finite numbers >= 0 (units), got "
                             f"{_show(bets)}") from None
        if array.shape != (n,):
            raise ValueError(f"bets: give one bet per true count of tc_values ({counts}), "
                             f"got {_show(bets)}")
        if not np.all(np.isfinite(array)) or np.any(array < 0):
            raise ValueError(f"bets must be finite numbers >= 0 (units; 0 sits the round "
                             f"out), got {_show(bets)}")
        if not np.any(array > 0):
            raise ValueError("bets: at least one bet must be above 0 (every round sat out "
                             "has no law to bet on)")
        return array

    def __getstate__(self):
        # the compiled engines (used while the game is built) and the progress callback
        # do not pickle and are not needed afterwards; every figure does
        state = dict(self.__dict__)
        state.update(_chart_engines=None, _progress=None, _ruin_cache={})
        return state

    def _ruin_curve(self, mixture):
        """Lifetime ruin as a function of the bankroll (in the mixture's units): a
        ``bjsolve.risk.RuinCurve`` (ladder heights of the mixture; milliseconds to build),
        cached per mixture so a bankroll change costs O(d^2 log B)."""
        key = (mixture.values.tobytes(), mixture.probabilities.tobytes())
        curve = self._ruin_cache.get(key)
        if curve is None:
            if len(self._ruin_cache) > 64:
                self._ruin_cache.clear()
            curve = self._ruin_cache[key] = RuinCurve(mixture)
        return curve

    def optimal_ramp(self, max_spread: float, *, min_bet: float = 1.0, chip: float | None = None,
                     wong: bool = False) -> Ramp:
        """The ramp that maximises SCORE with bets between ``min_bet`` and ``max_spread`` x
        ``min_bet``: bets proportional to edge / variance (the Kelly bet at each count),
        clipped to the spread, the scale chosen for the best SCORE; rounded to multiples
        of ``chip`` (default: ``min_bet``).  ``wong``: sit out (bet 0) where the edge is
        negative."""
        max_spread = finite_number(max_spread, "max_spread")
        if not 1 <= max_spread <= MAX_BET:
            raise ValueError(f"max_spread must be from 1 to {MAX_BET:,} (the largest bet over "
                             f"the smallest), got {max_spread:g}")
        min_bet = finite_number(min_bet, "min_bet")
        # the ramp's bets run from min_bet to max_spread x min_bet: both ends must be bets
        # a Ramp takes, or its error would name a bet the caller never gave
        if not MIN_BET <= min_bet <= MAX_BET / max_spread:
            raise ValueError(f"min_bet must be from {MIN_BET:g} to {MAX_BET:,} / max_spread "
                             f"= {MAX_BET / max_spread:g} units (the ramp's bets run from "
                             f"min_bet to max_spread x min_bet, at most {MAX_BET:,}), got "
                             f"{min_bet:g}")
        chip = min_bet if chip is None else finite_number(chip, "chip")
        if not MIN_BET <= chip <= MAX_BET:
            raise ValueError(f"chip must be from {MIN_BET:g} to {MAX_BET:,} units, got "
                             f"{chip:g}")
        kelly = self.edge / self.variance
        best, best_score = None, -np.inf
        positive = kelly[kelly > 0]
        scales = (np.geomspace(1.0 / positive.max(), max_spread / positive.min(), 400)
                  if len(positive) else [1.0])
        for s in scales:
            bets = np.clip(s * kelly, 1.0, max_spread) * min_bet
            bets = np.maximum(np.round(bets / chip) * chip, min_bet)
            bets = np.minimum(bets, max_spread * min_bet)
            if wong:
                bets = np.where(self.edge <= 0, 0.0, bets)
            if not np.any(bets > 0):
                continue
            fig = ramp_figures(None, bets, self.frequency, self.edge, self.variance, None)
            if fig.win_rate > 0 and fig.score > best_score + 1e-12:
                best, best_score = bets, fig.score
        if best is None:
            best = np.full(len(self.tc_values), min_bet)
        points, last = [], None
        for tc, b in zip(self.tc_values, best):
            if b != last:
                points.append((int(tc), float(b)))
                last = b
        return Ramp(tuple(points))


def insurance_gains(count: CountDistribution, seen, index: int, *, hands: int = 2,
                    decks_estimation: str = "exact", tc_rounding: str = "floor") -> np.ndarray:
    """[seen, running count] the insurance gain per round (half the bet, paid 2:1; even
    money for a natural is the same bet) at the start of a round with ``seen[i]`` cards
    seen and running count ``count.running_counts[j]``, when insurance is taken at true
    counts >= ``index`` counted AFTER the deal, as in the simulator and at the table: the
    ``hands`` cards of the hands (2 x spots) and the ace up seen.

    With R = N - n cards unseen (n seen; the burn card among the unseen: it is as likely as
    any unseen card to be each rank),
    gain = 1.5 P(ace up, ten in the hole, insured) - 0.5 P(ace up, insured).
    P(ace up) = E[u_A] / R and P(ace up, ten in the hole) = E[u_A u_T] / (R (R - 1)) are
    exact (u the cards unseen of a rank; E[u_A u_T] from the count law's within-class
    second moments, ``CountDistribution.unseen_rank_moments``: the product of the mean ace
    and ten counts overstates it, because aces and tens share Hi-Lo's tag class and so
    move against each other at a given count).  Whether the count after the deal reaches
    the index depends on the hands' cards: their tag classes are drawn (every order of the
    cards is equally likely, so after the ace and the ten) from the state's expected class
    counts less those two cards, multivariate hypergeometric on fractional counts (the one
    approximation: exact when the decision does not depend on them)."""
    cl = count.classes
    seen = np.asarray(seen)
    aces, ace_ten = (m[seen] for m in count.unseen_rank_moments(1, 10))
    unseen = (count.cards - seen).astype(float)[:, None]
    p_ace = np.nan_to_num(aces / unseen)
    p_ace_ten = np.nan_to_num(ace_ten / (unseen * (unseen - 1.0)))
    of = {r: c for c, members in enumerate(cl.members) for r in members}
    left = np.array(cl.sizes, dtype=float)[:, None, None] - np.nan_to_num(
        count.class_means()[:, seen, :])                             # [class, seen, rc]
    without_ace = left.copy()
    without_ace[of[1]] -= 1.0
    without_ace_ten = without_ace.copy()
    without_ace_ten[of[10]] -= 1.0
    after = seen[:, None] + hands + 1.0            # cards seen once the ace is up
    insured_ace, insured_ace_ten = np.zeros(p_ace.shape), np.zeros(p_ace.shape)
    total_ace, total_ace_ten = np.zeros(p_ace.shape), np.zeros(p_ace.shape)
    for draw in _class_draws(len(cl.sizes), hands):
        excess = (count.running_counts[None, :] + float(np.dot(draw, cl.tags))
                  + cl.tags[of[1]] - count.mean_tag * after)
        tc = round_true_count(excess / decks_remaining(count.cards - after, decks_estimation,
                                                       count.deck_cards), tc_rounding)
        insured = tc >= index
        p = _draw_probability(without_ace, draw)
        q = _draw_probability(without_ace_ten, draw)
        insured_ace += insured * p
        insured_ace_ten += insured * q
        total_ace += p
        total_ace_ten += q
    # normalised: where a class holds less than one card the clipped falling factorials
    # no longer sum to 1, and a decision that does not depend on the draw stays exact
    with np.errstate(invalid="ignore", divide="ignore"):
        share_ace = np.nan_to_num(insured_ace / total_ace)
        share_ace_ten = np.nan_to_num(insured_ace_ten / total_ace_ten)
    return 1.5 * p_ace_ten * share_ace_ten - 0.5 * p_ace * share_ace


def _class_draws(classes: int, cards: int):
    """Every way of drawing ``cards`` cards from ``classes`` tag classes: tuples of cards
    per class summing to ``cards``."""
    if classes == 1:
        yield (cards,)
        return
    for k in range(cards + 1):
        for rest in _class_draws(classes - 1, cards - k):
            yield (k,) + rest


def _draw_probability(left, draw) -> np.ndarray:
    """P(a draw of sum(draw) cards without replacement has draw[c] cards of class c) from
    (fractional) class counts ``left`` [class, ...]: the multivariate hypergeometric
    m! / prod k_c! x prod_c (left_c)_(k_c) / (total)_(m), falling factorials clipped at 0."""
    total = left.sum(axis=0)
    out = np.full(total.shape, float(math.factorial(sum(draw))))
    for c, k in enumerate(draw):
        for i in range(k):
            out = out * np.maximum(left[c] - i, 0.0) / (i + 1)
    for i in range(sum(draw)):
        out = out / (total - i)
    return out


TILT_CLIP = 16.0    # units: beyond, outcomes are tilted as at +-16 (the games' bonuses)


def _tilt(p0, y, mean, second, iterations: int = 60):
    """p0 exp(a u + b u^2), normalised, with E[y] = mean and E[y^2] = second (Newton on
    (a, b): the Jacobian is the covariance of (y, y^2) with (u, u^2) under the tilted
    law).  u = y where |y| <= TILT_CLIP (every outcome of the classic game); beyond, u is
    clipped to +-TILT_CLIP, so the rare large outcomes of the games (a super bonus of
    200 units, redoubled splits) keep their shape relative to the outcomes at the clip
    instead of being tilted by exp(b y^2) out of all proportion."""
    theta = np.zeros(2)
    clipped = float(np.abs(y).max()) > TILT_CLIP
    u = np.clip(y, -TILT_CLIP, TILT_CLIP) if clipped else y
    feats = np.stack([u, u * u])
    moments = np.stack([y, y * y]) if clipped else feats
    target = np.array([mean, second])
    scale = float(np.abs(u).max()) or 1.0
    for _ in range(iterations):
        z = theta @ feats
        w = p0 * np.exp(z - z.max())
        q = w / w.sum()
        mom = moments @ q
        err = mom - target
        if np.abs(err).max() < 1e-15:
            break
        cov = (moments * q) @ feats.T - np.outer(mom, feats @ q)
        step = np.linalg.solve(cov, err)
        # damped: a step never moves the exponent by more than 1 anywhere
        reach = float(np.abs(step[0]) * scale + np.abs(step[1]) * scale * scale)
        theta -= step / max(1.0, reach)
    return q


class AfterDoubleTable:
    """The full shoe's after-double choices (``bjsolve.exact.policy.after_double_chart``)
    asked once for every question a hand can meet (``after_double_questions``) and kept
    as a table, so the solution is not held: f(cards, dealer, allowed, split, doubles) ->
    "stand", "redouble" or "rescue", the same callable ``policy_engines`` and the
    simulator's ``after_double`` take.  A hand outside the table stands (the table keeps
    the other answers only)."""

    def __init__(self, solution):
        choose = after_double_chart(solution)
        rules, deal = solution.rules, solution.deal
        self._choices = {}
        for u in deal.playable_keys:
            for cards, allowed, split, doubles, _ in after_double_questions(
                    rules, deal.hand_limit(u)):
                choice = choose(cards, u, allowed, split, doubles)
                if choice != "stand":            # (the commonest answer is not kept)
                    self._choices[(cards, u, allowed, bool(split), doubles)] = choice

    def __call__(self, cards, dealer, allowed, split, doubles):
        key = (tuple(sorted(cards)), dealer, tuple(allowed), bool(split), int(doubles))
        return self._choices.get(key, "stand")


class CachedChart:
    """A total-dependent chart's decisions, remembered: the chart's play depends only on the
    hand's row (its total, or the pair), the dealer and the allowed actions, and the exact
    evaluation asks for every composition."""

    def __init__(self, chart):
        self.chart = chart
        self._memo = {}

    def __call__(self, cards, dealer, allowed):
        cards = tuple(cards)
        pair = cards[0] if len(cards) == 2 and cards[0] == cards[1] else 0
        key = (pair, total_code(cards), dealer, tuple(allowed))
        play = self._memo.get(key)
        if play is None:
            play = self._memo[key] = self.chart(cards, dealer, tuple(allowed))
        return play


def _runs(labels: list, chosen: list) -> str:
    """``chosen`` labels as runs of consecutive ``labels``: '+13, +15 to >=+27'."""
    at = sorted(labels.index(c) for c in chosen)
    runs, start = [], at[0]
    for prev, cur in zip(at, at[1:] + [None]):
        if cur != prev + 1:
            runs.append(labels[start] if start == prev else f"{labels[start]} to {labels[prev]}")
            start = cur    # type: ignore[assignment]  # None only past the last run
    return ", ".join(runs)


class SwitchCountedGame(SwitchRound, CountedGame):
    """``CountedGame`` of Blackjack Switch (``rules.switch``): ``CountedGame(rules)`` makes
    one; its steps and units in ``bjsolve.risk.switch_game``."""
