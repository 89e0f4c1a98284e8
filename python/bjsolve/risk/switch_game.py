"""The counted game of Blackjack Switch (docs/games.md, "Blackjack Switch", "The counted
game"): ``CountedGame(rules)`` with ``rules.switch`` is a ``SwitchCountedGame``
(``bjsolve.risk.game``: ``SwitchRound``, this module's steps, over ``CountedGame``).

Units: a round bets one unit on each of its two hands.  Every figure of the game (the
edge and SD by true count, a ramp's win rate, SD and risk of ruin) is **per unit bet**,
the round's net result divided by the two units it bets: the edge is the published
edge per hand, and a ramp's bet is the round's total (a bet of 2 is one unit on each
hand).  ``edge_per_round`` and ``variance_per_round`` give the round with one unit on
each hand (the edge doubled, the variance four times).

What differs from the one-hand games (the steps are those of ``bjsolve.risk.game``):

1. Where rounds start: the round model deals two hands (``spots`` 2) played by the
   game's chart without the swap (an approximation of the cards a round takes: the
   swap changes which hands are played, not how many cards a hand takes on average by
   much).
2. The count at round starts: as the other games.
3. Edge and second moment by true count: each cell (true count, depth band) is played on
   its mean composition **in whole cards** (the switch analysis deals whole cards: the
   cards left rounded and shared over the tag classes, then each class's ranks, by
   largest remainders) by
   - ``strategy="basic"``: the full shoe's decisions frozen (every deal's keep or switch,
     every hand's plays: ``bjsolve.exact.switch_frozen``), a fixed strategy;
   - ``strategy="optimal"``: the cell's own switch analysis (``solve_switch``) and its
     outcome distribution.
   The calibration per depth band by the fundamental theorem is the other games': the
   full shoe's decisions played on every cell, the offsets that make their band average
   the full shoe's EV and second moment (one offset per band: the second moment's
   curvature is not measured for Switch).  With ``round_length_correction=False`` and the
   basic strategy, a flat bettor's win rate and second moment are the full shoe's switch
   analysis' (the tests hold them to 1e-12).
4. Each count's outcome law: the full shoe's round law (``switch_law``: the two hands
   combined given the dealer's outcome) reweighted to the count's edge and variance.

``strategy="indices"`` (given ``indices=``, ``plays=`` or both), as "basic" but:

- ``indices=`` (a ``SwitchIndexTable``, True / "all", or N lines): each cell's deals kept
  or switched as the keep-or-switch indices say at the cell's true count
  (``SwitchIndexTable.switches_at``; the hands' laws combined with those choices:
  ``frozen_switch_rounds(switches=...)``); the deals of no line keep the full shoe's
  choice (the counter plays the table: nothing is decided again from the cell's values);
- ``plays=`` (the hands' play indices: an ``IndexTable`` of the game's rules without the
  swap, or what the one-hand games take as ``indices``, cut from the switch table's own
  ``plays`` when ``indices`` is one): each cell's hands play the frozen decisions with
  the lines that depart at its count from their play at TC 0
  (``bjsolve.risk.switch_plays``; ``frozen_switch_rounds(plays=...)``), so the values of
  the arrangements a deal chooses between are those of the hands as played there;

calibrated by the full shoe's decisions as the one-hand games' index plays are.

Insurance (``insurance``: None, False or a whole true count, as the one-hand games take
it): both hands insured, half a unit each, at true counts at or above the index, the
count read after the deal (the four player cards and the ace seen: ``insurance_gains``
with the round's four cards); its gain in the edge, not in the SD.  None: the switch
index table's insurance index (``SwitchIndexTable.insurance``), else the play indices',
else never.

Not computed for Switch: side bets.
"""
from __future__ import annotations

import dataclasses
import numbers
from typing import TYPE_CHECKING

import numpy as np

from ..exact.distribution import merge_equal_values
from ..exact.solver import solve
from ..exact.strategy import StrategyChart
from ..exact.switch import game_rules, solve_switch
from ..exact.switch_frozen import frozen_switch_rounds
from ..model.shoe import Shoe
from .ramp import checked_insurance

if TYPE_CHECKING:   # the mixin's base as type checkers see it (the class it goes before)
    from .game import CountedGame as _Game
else:
    _Game = object

SWITCH_STRATEGIES = ("basic", "indices", "optimal")
# what the web pages say for Switch's counted game (minutes of exact laws per game)
PAGES_COUNTING_REFUSAL = ("Blackjack Switch's counted game takes minutes (one exact round "
                          "law per true count and depth band): CountedGame and 'bjsolve game "
                          "--preset blackjack-switch' compute it, not this page")


def _largest_remainders(x: np.ndarray, total: int) -> np.ndarray:
    """Whole numbers summing to ``total`` (at least floor(sum x), at most that plus the
    entries), each x floored and the rest given one by one to the largest fractions."""
    out = np.floor(x + 1e-9).astype(int)
    rest = total - int(out.sum())
    if rest > 0:
        order = np.argsort(-(x - out), kind="stable")
        out[order[:rest]] += 1
    return out


def switch_index_table(indices, rules, system, tc_rounding):
    """The keep-or-switch indices a counted game plays: a ``SwitchIndexTable`` of these
    rules and count (itself), True or "all" (every line of ``switch_indices``), or a
    whole number N (its N lines of largest gain), also as the command line gives them
    (a list of one item, "40")."""
    from ..counting.switch_indices import SwitchIndexTable, switch_indices
    if isinstance(indices, (list, tuple)) and len(indices) == 1:
        indices = indices[0]
    if isinstance(indices, str) and indices.strip().isdigit():
        indices = int(indices)
    if isinstance(indices, SwitchIndexTable):
        if (indices.rules, indices.system, indices.tc_rounding) != (rules, system, tc_rounding):
            raise ValueError(f"indices: a switch index table of other rules, count or true-count "
                             f"rounding ({indices.system}, {indices.tc_rounding}, "
                             f"{indices.rules.describe()}) than the game's ({system}, "
                             f"{tc_rounding}, {rules.describe()})")
        return indices
    top = None
    if isinstance(indices, numbers.Integral) and not isinstance(indices, bool) and indices > 0:
        top = int(indices)
    elif indices is not True and indices != "all":
        raise ValueError(f"indices: Blackjack Switch plays its keep-or-switch indices: a "
                         f"SwitchIndexTable (bjsolve.counting.switch_indices), True or 'all', "
                         f"or a number N of lines (the hands' play indices: plays=), "
                         f"got {str(indices)[:40]!r}")
    table = switch_indices(rules, system, tc_rounding=tc_rounding)
    if top is not None:
        lines = sorted(table.switch_lines, key=lambda line: -line.gain)[:top]
        table = dataclasses.replace(table, switch_lines=lines)
    return table


def _play_index_table(plays, rules, system, tc_rounding, switch_table, threads):
    """The hands' play indices a counted game plays (``bjsolve.risk.switch_plays``): what
    the one-hand games take as ``indices`` (``as_index_table``: True or "all", "i18",
    "fab4", a number N of lines, an index file, an ``IndexTable``, a list of those), for
    the game's rules without the swap.  With a ``SwitchIndexTable`` (``switch_table``)
    the sets are cut from its own play indices (``SwitchIndexTable.plays``, the table
    ``bjsolve indices --preset blackjack-switch`` prints)."""
    from ..counting.indices import as_index_table, index_set_word
    hand = game_rules(rules)
    items = list(plays) if isinstance(plays, (list, tuple)) else [plays]
    words = [index_set_word("all" if item is True else item) for item in items]
    if switch_table is not None and items and None not in words:
        table = switch_table.plays
        return table if words == ["all"] else table.select(words)
    try:
        table = as_index_table(plays, hand, system, tc_rounding=tc_rounding, threads=threads)
    except ValueError as exc:
        text = str(exc)
        raise ValueError("plays:" + text[len("indices:"):] if text.startswith("indices:")
                         else f"plays: {text}") from None
    if getattr(table, "rules", hand) != hand:
        raise ValueError(f"plays: an index table of other rules ({table.rules.describe()}) "
                         f"than the hands' (the game's rules without the swap: "
                         f"{hand.describe()}; bjsolve.counting.switch_indices(...).plays)")
    theirs = (getattr(table, "system", system), getattr(table, "tc_rounding", tc_rounding))
    # (an index file's lines are "as written": played as they stand, as the one-hand
    # games play them; its count is the game's, which read it)
    if isinstance(system, str) and theirs != (system, tc_rounding) and (
            theirs[1] != "as written" or theirs[0] != system):
        raise ValueError(f"plays: an index table of another count or true-count rounding "
                         f"({theirs[0]}, {theirs[1]}) than the game's ({system}, "
                         f"{tc_rounding})")
    return table


class SwitchRound(_Game):
    """What ``CountedGame`` does otherwise for Blackjack Switch (module doc), mixed in
    before it (``bjsolve.risk.game.SwitchCountedGame``): the same arguments, with
    ``strategy`` "basic" (the full shoe's decisions frozen), "indices" (those, each deal
    kept or switched by the keep-or-switch ``indices`` at the count and the hands'
    decisions departing where the play indices ``plays`` say at the count) or "optimal"
    (each count's own switch analysis); ``spots`` 1 (a round is the two hands);
    ``insurance`` both hands at or above a true count (module doc); no ``sidebet``.
    Figures per unit bet (a round bets two units)."""

    def __init__(self, rules, system="hilo", *, strategy: str = "basic", indices=None,
                 plays=None, insurance=None, spots: int = 1, sidebet=None,
                 sidebet_paytable=None, curvature: str = "band", **options):
        if indices is False:
            indices = None
        if plays is False:
            plays = None
        if (indices is not None or plays is not None) and strategy == "basic":
            strategy = "indices"      # index plays given are index plays played
        if strategy not in SWITCH_STRATEGIES:
            raise ValueError(f"strategy must be one of {', '.join(SWITCH_STRATEGIES)} for "
                             f"Blackjack Switch, got {str(strategy)[:30]!r}")
        if strategy == "indices" and indices is None and plays is None:
            raise ValueError("indices: strategy 'indices' needs the switch indices (a "
                             "SwitchIndexTable from switch_indices, True or 'all' for every "
                             "line, or a number N for the N lines of largest gain) or the "
                             "hands' play indices (plays=)")
        if strategy != "indices" and indices is not None:
            raise ValueError(f"indices: strategy {strategy!r} plays no index plays")
        if strategy != "indices" and plays is not None:
            raise ValueError(f"plays: strategy {strategy!r} plays no index plays (the "
                             f"hands' play indices go with strategy 'basic' or 'indices')")
        insurance = checked_insurance(insurance)
        if sidebet is not None or sidebet_paytable is not None:
            raise NotImplementedError("sidebet: a side bet beside Blackjack Switch is not "
                                      "computed")
        if isinstance(spots, bool) or spots != 1:
            raise ValueError(f"spots: a Blackjack Switch round is its two hands (spots 1), "
                             f"got {str(spots)[:30]!r}")
        if curvature not in ("count", "band"):
            raise ValueError(f"curvature must be 'count' or 'band', got {str(curvature)[:30]!r}")
        # keep-or-switch indices: the counter's choice per deal at each cell's true count
        self.switch_indices = (None if indices is None else
                               switch_index_table(indices, rules, system,
                                                   options.get("tc_rounding", "floor")))
        # the hands' play indices: the frozen decisions with the lines that depart at each
        # cell's count (``bjsolve.risk.switch_plays``)
        self.plays = (None if plays is None else
                      _play_index_table(plays, rules, system,
                                        options.get("tc_rounding", "floor"),
                                        self.switch_indices, options.get("threads")))
        # insurance: None takes the index tables' insurance index (the switch table's,
        # else the play indices'), else never; the parent adds its gain to the edge
        # (``_insurance_gains``: the true count read after the deal of spots x 2 = the
        # four player cards and the ace)
        if insurance is None:
            given = [getattr(table, "insurance", None)
                     for table in (self.switch_indices, self.plays)]
            insurance = next((index for index in given if index is not None), False)
        # the round model deals the round's two hands (the parent's own "indices" are its
        # index-table plays; this game's are kept above and played in ``_edges``)
        super().__init__(rules, system, strategy="basic" if strategy == "indices" else strategy,
                         insurance=insurance, spots=2, curvature="band", **options)
        self.strategy = strategy
        self.indices = self.switch_indices

    # the frozen EV by the EV engines too, beside the law's mean (``ev_path_gap``: the
    # largest difference; a check for the tests, a fifth more time)
    check_ev_paths = False

    def __repr__(self):
        return "Switch" + super().__repr__()

    def policy_at(self, tc: float):
        """The hands' chart at every count (for the round model): the switch indices
        change which hands are played, not how the model deals them."""
        return self.chart

    def _strategy_at(self):
        return None

    # ---- the full shoe ------------------------------------------------------------
    def _solve_full_shoe(self):
        self.switch_solution = solve_switch(self.rules, self.shoe, threads=self._threads)
        # the chart each hand plays by total, for the round model (where rounds start)
        solved = solve(self.hand_rules, shoe=self.shoe).strategy
        self._after_double = None
        self.chart = self._cached_chart(StrategyChart(solved.rows, rules=solved.rules,
                                                      split=solved.split))

    def cell_shoe(self, seen_per_class) -> Shoe:
        """A cell's mean composition (``composition``) in whole cards (the switch analysis
        deals whole cards): the cards left rounded, shared out over the tag classes and
        within each class over its ranks by largest remainders, so that each class keeps
        its share as closely as whole cards allow (the count changes by less than a card's
        tag; rounding each rank alone could move it by several)."""
        frac = np.array(self.composition(seen_per_class).counts, dtype=float)
        members = [[r - 1 for r in m] for m in self.count.classes.members]
        per_class = _largest_remainders(np.array([frac[m].sum() for m in members]),
                                        int(round(frac.sum())))
        counts = np.zeros(len(frac), dtype=int)
        for m, n in zip(members, per_class):
            counts[m] = _largest_remainders(frac[m], int(n))
        return Shoe([int(c) for c in counts])

    # ---- edge and second moment by true count ----------------------------------------
    def _edges(self):
        nb, nd = self.band_weight.shape
        self.band_edge = np.full((nb, nd), np.nan)
        self.band_second = np.full((nb, nd), np.nan)
        self.chart_edge = np.full((nb, nd), np.nan)
        self.chart_second = np.full((nb, nd), np.nan)
        self.edge = np.zeros(nb)
        self.variance = np.zeros(nb)
        self._chart_engines = None
        shoes: dict = {"full": self.shoe}
        for i in range(nb):
            for j in range(nd):
                if self.band_weight[i, j] > 0 or self._plain_weight[i, j] > 0:
                    shoes[(i, j)] = self.cell_shoe(self._band_seen[:, i, j])
        cells = [cell for cell in shoes if cell != "full"]
        # with switch indices: each cell's deals switched as the counter's indices say at
        # its true count (``cell_switches``; not decided again from the cell's values: the
        # counter plays the table, whose lines the switch analysis made at each count)
        self.cell_switches = {}
        if self.switch_indices is not None:
            deals = self.switch_solution._deals
            played = self.switch_solution.switched
            self.cell_switches = {
                cell: self.switch_indices.switches_at(deals, played,
                                                      float(self.tc_values[cell[0]]))
                for cell in cells}
        # with play indices: the cells whose count makes some line depart from its play at
        # TC 0 (``cell_plays``) have their hands played again with the departures (under
        # the key ("plays", cell)); the full shoe's play on every cell stays, for the
        # calibration
        self.cell_plays = {}
        if self.plays is not None:
            from .switch_plays import PlayDepartures
            at_count = {}
            for cell in cells:
                tc = float(self.tc_values[cell[0]])
                if tc not in at_count:
                    at_count[tc] = PlayDepartures(self.plays, tc)
                if at_count[tc]:
                    self.cell_plays[cell] = at_count[tc]

        def played(cell):
            return ("plays", cell) if cell in self.cell_plays else cell
        frozen = frozen_switch_rounds(
            self.switch_solution, {**shoes, **{played(c): shoes[c] for c in self.cell_plays}},
            self._threads, ev_path=self.check_ev_paths,
            switches={played(cell): {"indices": s} for cell, s in self.cell_switches.items()},
            plays={played(cell): d for cell, d in self.cell_plays.items()})
        self.solves = len(shoes) + len(self.cell_plays)
        # the EV engines' EV against the law's mean (with check_ev_paths)
        self.ev_path_gap = max((abs(m - float((law[0] * (law[1][:, None] + law[1][None, :]))
                                              .sum()))
                                for m, _, law in frozen.values()),
                               default=0.0) if self.check_ev_paths else None
        # each cell as the counter plays it (its hands and its switches), where that is
        # not the full shoe's play
        indexed = {}
        for cell in cells:
            key = played(cell)
            if cell in self.cell_switches:
                indexed[cell] = frozen.pop((key, "indices"))
            elif cell in self.cell_plays:
                indexed[cell] = frozen[key]
            if key != cell:
                frozen.pop(key)
        # (true count, band) -> (joint, values) of the two hands as the indices play them
        self.index_cell_laws = {cell: law for cell, (_, _, law) in indexed.items()}
        ev, second, (joint, values) = frozen.pop("full")
        # per unit bet: the round's result over its two units
        self.full_shoe_chart_ev, self.full_shoe_chart_second = ev / 2.0, second / 4.0
        totals = (values[:, None] + values[None, :]).ravel() / 2.0
        self._full_law = merge_equal_values(totals, joint.ravel())
        thin = np.zeros((nb, nd), dtype=bool)
        full_counts = np.array(self.shoe.counts)
        self.cell_laws = {}     # (true count, band) -> (joint, values) of the two hands
        for done, ((i, j), (m, s2, law)) in enumerate(frozen.items()):
            self.cell_laws[(i, j)] = law
            counts = np.array(shoes[(i, j)].counts)
            thin[i, j] = bool(((counts == 0) & (full_counts > 0)).any())
            self.chart_edge[i, j], self.chart_second[i, j] = m / 2.0, s2 / 4.0
            if (i, j) in indexed:
                m, s2, _ = indexed[(i, j)]
            elif self.strategy == "optimal":
                sol = solve_switch(self.rules, shoes[(i, j)], threads=self._threads)
                dist = sol.outcome_distribution(threads=self._threads)
                m = sol.expected_value
                s2 = float(dist.probabilities @ dist.values ** 2)
                self.solves += 1
            # insurance (any strategy): its gain per unit bet in the edge, not in the SD
            # (each hand's half unit: the round's gain over its two units is one hand's)
            self.band_edge[i, j] = m / 2.0 + self.band_insurance[i, j]
            self.band_second[i, j] = s2 / 4.0
            if self._progress is not None:
                self._progress(done + 1, len(frozen))
        weight = self.band_weight.sum(axis=1)
        thin_share = np.divide((self.band_weight * thin).sum(axis=1), weight,
                               out=np.zeros(nb), where=weight > 0)
        self.thin_counts = [self.labels[i] for i in range(nb) if thin_share[i] >= 0.1]
        self.curvature_anchors, self.curvature_laws = None, 0
        self.curvature_used = "band"
        self._calibrate(np.ones((nb, nd)))

    def _law_values(self, shoe: Shoe, engines) -> tuple:
        """The full shoe's round law per unit bet (the only law ``_outcome_laws`` asks
        for): the same for both strategies (the full shoe's decisions are its optimal)."""
        return self._full_law

    @property
    def edge_per_round(self) -> np.ndarray:
        """The edge by true count of a round with one unit on each hand (twice ``edge``)."""
        return 2.0 * self.edge

    @property
    def variance_per_round(self) -> np.ndarray:
        """The variance by true count of a round with one unit on each hand (four times
        ``variance``)."""
        return 4.0 * self.variance

    def _indices_note(self) -> str:
        """What strategy "indices" plays, for the notes."""
        switches = (f"each deal kept or switched by the "
                    f"{len(self.switch_indices.switch_lines)} keep-or-switch indices at the "
                    f"count" if self.switch_indices is not None
                    else "each deal kept or switched as the full shoe's analysis chose")
        plays = (f"the hands' plays frozen with the {len(self.plays.lines)} play-index lines' "
                 f"plays where they depart from their play at TC 0 (at "
                 f"{len(self.cell_plays)} of the cells)"
                 if self.plays is not None else "the full shoe's hand plays frozen")
        return f"{plays}, {switches}"

    def notes(self) -> tuple:
        notes = super().notes()
        keep = tuple(n for n in notes if not n.startswith(("SD:", "games:", "edge:")))
        return keep + (
            "Blackjack Switch: a round bets one unit on each of two hands; edge, SD and the "
            "ramp's figures per unit bet (the round's result / 2: the edge per hand; a bet "
            "of 2 = one unit a hand); edge_per_round, variance_per_round: one unit a hand",
            f"edge and SD: exact at each cell's mean composition in whole cards "
            f"(strategy {self.strategy}: "
            + {"basic": "the full shoe's keep-or-switch choices and hand plays frozen",
               "indices": self._indices_note(),
               "optimal": "each cell's own switch analysis"}[self.strategy]
            + f", {self.depth_bands} depth band(s), removal full, split CDZ-), calibrated "
            f"per depth band by the full shoe's decisions (one offset per band); SD from the "
            f"switch round's law (the two hands combined given the dealer's outcome)",
            "insurance: " + ("never" if self.insurance is None else
                             f"both hands at TC >= {self.insurance:+d} (half a unit each, "
                             f"paid 2:1; the true count read after the deal, the four "
                             f"player cards and the ace seen); its gain in the edge, not in "
                             f"the SD"),
            "frequency: the round model deals two hands by the game's chart without the "
            "swap (an approximation of the cards a switch round takes)")


__all__ = ["PAGES_COUNTING_REFUSAL", "SwitchRound", "switch_index_table"]
