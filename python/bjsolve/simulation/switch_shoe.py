"""Blackjack Switch played as a counter plays it: one shoe dealt to the cut card, counted,
bet by a ramp, both hands insured and each deal kept or switched by the true count
(docs/games.md, "Blackjack Switch", "Simulation").

The round is the one ``simulate_switch`` plays from a fresh shoe (``bjcore._switch_sim``:
hand 1, hand 2 from what hand 1 left, the dealer from what both left; every decision by the
full shoe's analysis, ``SwitchTables``).  What the counted shoe adds comes from the classic
simulator (``bjsolve.simulation.simulator``, ``bjcore._counted_shoe``): the cut card, the
burn card, the count and its true count (``decks_estimation``, ``tc_rounding``), the ramp
within the table limits, wonging, the seeded chunks run on threads (``run_local``) and the
totals and per-true-count table (``SimulationResult``).

Units, as the Switch counted game counts them (``bjsolve.risk.switch_game``): a round bets
its ramp bet, half on each hand (a bet of 2 is one unit on each hand); every figure is per
unit bet, the round's result over the two units a flat round bets (the edge per hand).

The true count a round's decisions read: its bet and the keep-or-switch index lines, the
count before the round (the lines are made on the shoe at a true count with the deal's five
cards out: the count before the deal); insurance, the count after the deal (the four player
cards and the upcard seen), as the classic simulator and the counted game read it.
"""
from __future__ import annotations

import dataclasses
import weakref

import numpy as np

from ..exact.switch import SwitchSolution, check_switch_rules, solve_switch
from ..model.rules import Rules
from ..risk.ramp import checked_insurance
from .result import TC_HIGH, TC_LOW, SimulationResult, _result, merge
from .simulator import (
    DECKS_ESTIMATIONS,
    DEFAULT_CHUNK_ROUNDS,
    TC_ROUNDINGS,
    _check_burn,
    _choice,
    _count_convention,
    _progress_reporter,
    _tags,
    bets_by_true_count,
    checked_bankroll_trials,
    checked_run,
    cut_card,
    ruin_paths,
    run_local,
    wonging,
)
from .switch_compiled import SwitchTables

ROUND_CARDS = 6        # the fewest cards a round takes: two hands of two, the dealer's two
# positions in the kernel's iparams (bjcore/_switch_sim.pyx, SW_*)
IP_FIELDS = ("cut", "decks_estimation", "tc_rounding", "deck_cards", "tag_scale",
             "wong_in_set", "wong_in", "wong_out_set", "wong_out", "insurance_set",
             "insurance", "indexed")


@dataclasses.dataclass
class SwitchShoePlan:
    """Everything the compiled rounds read (``bjcore.run_switch_shoe_chunk``), built once;
    ``run`` plays one seeded chunk, as the classic ``GamePlan.run`` does (so that the
    classic ``run_local`` runs it on threads)."""
    tables: SwitchTables
    tags: np.ndarray
    iparams: np.ndarray
    switches_by_tc: np.ndarray
    bet_by_tc: np.ndarray

    def run(self, seed: int, chunk: int, rounds: int, stop=None, bankroll: float = 0.0,
            watch_sigint: bool = False):
        """(sums, counts, tc_counts, tc_sums) of ``rounds`` rounds of stream ``chunk``."""
        from bjcore import run_switch_shoe_chunk
        if stop is None:
            stop = np.zeros(1, dtype=np.int8)
        t, f = self.tables, self.tables.flags
        sums, counts, tc_counts, tc_sums, misses = run_switch_shoe_chunk(
            t.shoe, t.switches, t.first, t.limits, t.keys, t.actions, f["full"], f["h17"],
            f["push22"], f["das"], f["hit_aces"], f["double_any"], f["switch_blackjack"],
            t.payout, self.tags, self.iparams, self.switches_by_tc, self.bet_by_tc,
            seed, chunk, rounds, stop, watch_sigint, bankroll)
        if misses:
            raise RuntimeError(f"simulate_switch_shoe: {misses} decisions had no table entry "
                               f"(a bug)")
        return sums, counts, tc_counts, tc_sums


# the decision tables of each analysis simulated (building them takes seconds: a run of a
# few rounds, or several runs of one analysis, would spend most of their time there)
_TABLES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _tables(solution: SwitchSolution) -> SwitchTables:
    tables = _TABLES.get(solution)
    if tables is None:
        tables = _TABLES[solution] = SwitchTables(solution)
    return tables


def _solution(switch, threads) -> SwitchSolution:
    """The analysis whose decisions the hands play: ``switch`` itself, or the rules'
    full-shoe analysis."""
    if isinstance(switch, SwitchSolution):
        return switch
    if isinstance(switch, Rules):
        check_switch_rules(switch)
        return solve_switch(switch, threads=threads)
    raise TypeError(f"switch must be a SwitchSolution (solve_switch) or Blackjack Switch "
                    f"Rules, got {type(switch).__name__}")


def _switches_by_tc(solution: SwitchSolution, indices, system, tc_rounding) -> tuple:
    """(the index table or None, the keep-or-switch choice of every deal at each true count
    TC_LOW..TC_HIGH, rows of 10^5, or an empty array without indices)."""
    if indices is None or indices is False:
        return None, np.zeros(0, dtype=np.uint8)
    from ..risk.switch_game import switch_index_table
    table = switch_index_table(indices, solution.rules, system, tc_rounding)
    rows = [table.switches_at(solution._deals, solution.switched, float(tc))
            for tc in range(TC_LOW, TC_HIGH + 1)]
    return table, np.ascontiguousarray(np.concatenate(rows).astype(np.uint8))


def build_switch_plan(switch, *, penetration=0.75, burn=1, system=None, indices=None,
                      plays=None, insurance=None, decks_estimation="exact",
                      tc_rounding="floor", ramp=None, wong_in=None, wong_out=None,
                      table_min=1.0, table_max=None, threads=None) -> tuple:
    """Check the settings and build the plan (``simulate_switch_shoe``); returns (plan,
    settings for the record)."""
    if plays is not None and plays is not False:
        raise ValueError("plays: the hands' play indices are not simulated for Blackjack "
                         "Switch (its hands play the analysis' decisions); "
                         "CountedGame(rules, plays=...) values them")
    solution = _solution(switch, threads)
    if solution.shoe.is_infinite or solution.shoe.is_fractional:
        raise ValueError("switch: a counted shoe deals whole cards from a finite shoe; the "
                         "analysis is of an infinite or fractional one")
    counts = [int(c) for c in solution.shoe.counts]
    n_cards = sum(counts)
    _check_burn(burn)
    if n_cards < ROUND_CARDS + 1:
        raise ValueError(f"shoe: {n_cards} cards cannot deal one round of Blackjack Switch")
    cut = cut_card(penetration, n_cards, ROUND_CARDS, False, "two hands and the dealer")
    decks_estimation = _choice(decks_estimation, "decks_estimation", DECKS_ESTIMATIONS)
    tc_rounding = _choice(tc_rounding, "tc_rounding", TC_ROUNDINGS)
    system = "hilo" if system is None else system
    tags = _tags(system)
    deck_cards, tag_scale, run_tags = _count_convention(solution.rules, tags, counts, False)
    steps, bets = bets_by_true_count(ramp, table_min, table_max)
    wong_in, wong_out = wonging(wong_in, wong_out)
    insurance = checked_insurance(insurance)
    table, by_tc = _switches_by_tc(solution, indices, system, tc_rounding)
    if insurance is None:        # the switch index table's insurance index, else never
        insurance = None if table is None else table.insurance
    elif insurance is False:
        insurance = None
    ip = dict(cut=cut, decks_estimation=DECKS_ESTIMATIONS.index(decks_estimation),
              tc_rounding=TC_ROUNDINGS.index(tc_rounding), deck_cards=deck_cards,
              tag_scale=tag_scale, wong_in_set=int(wong_in is not None),
              wong_in=wong_in or 0, wong_out_set=int(wong_out is not None),
              wong_out=wong_out or 0, insurance_set=int(insurance is not None),
              insurance=insurance or 0, indexed=int(table is not None))
    plan = SwitchShoePlan(_tables(solution), np.asarray(run_tags, dtype=np.float64),
                          np.array([ip[f] for f in IP_FIELDS], dtype=np.int64), by_tc,
                          np.ascontiguousarray(bets, dtype=np.float64))
    plan.run(0, 0, 0)            # the kernel's checks, once, before any worker starts
    settings = dict(
        game="Blackjack Switch, one shoe dealt to the cut card and counted",
        rules=solution.rules.describe(), shoe=f"{n_cards} cards",
        penetration=("every round" if cut == 0 else f"{cut} of {n_cards} cards"),
        system=system if isinstance(system, str) else "user tags",
        decisions=(f"the switch and every play by the full shoe's analysis (removal "
                   f"{solution.removal}, split {solution.split})"
                   + ("" if table is None else
                      f"; each deal kept or switched by the {len(table.switch_lines)} "
                      f"keep-or-switch index lines at the round's true count")),
        insurance=("never" if insurance is None else
                   f"both hands, half a unit each, at TC >= {insurance:+d} (the count "
                   f"after the deal)"),
        decks_estimation=decks_estimation, tc_rounding=tc_rounding,
        ramp=", ".join(f"{c:+d}:{b:g}" for c, b in steps) or "flat",
        wong=("off" if wong_in is None and wong_out is None else
              f"in at TC >= {wong_in}, out below {wong_out}"),
        table=f"{table_min:g}.." + ("no maximum" if table_max is None else f"{table_max:g}"),
        units=("a round bets the ramp's bet, half on each hand: mean and SD per round in "
               "those bets (at a flat 1, the round's result / 2); win rate and the rows by "
               "true count per unit bet"))
    return plan, settings


def simulate_switch_shoe(switch, rounds, seed: int = 1, *, penetration=0.75, burn: int = 1,
                         system=None, indices=None, plays=None, insurance=None,
                         decks_estimation: str = "exact", tc_rounding: str = "floor",
                         ramp=None, wong_in=None, wong_out=None, table_min: float = 1.0,
                         table_max=None, threads: int | None = None,
                         chunk_rounds: int = DEFAULT_CHUNK_ROUNDS,
                         progress=False, bankroll_trials=None) -> SimulationResult:
    """Simulate ``rounds`` rounds of Blackjack Switch from a counted shoe (module doc).

    switch: a ``SwitchSolution`` (its shoe is dealt, its decisions played) or Blackjack
        Switch ``Rules`` (their full shoe's analysis, ``solve_switch``).
    penetration, burn, system, decks_estimation, tc_rounding, ramp, wong_in, wong_out,
        table_min, table_max, threads, chunk_rounds, progress: as ``simulate`` takes them
        (the ramp's bet is the round's, half on each hand).
    indices: the keep-or-switch index lines (a ``SwitchIndexTable``, True or "all", a number
        N of lines; ``CountedGame``'s ``indices`` for Switch): each deal kept or switched as
        they say at the round's true count (before the deal); deals of no line keep the
        analysis' choice.  None: the analysis' choices.
    plays: refused (the hands' play indices are not simulated).
    bankroll_trials: (paths, rounds per path, bankroll), as ``simulate`` takes it: that many
        independent paths from the bankroll (in the ramp's bets), each ended by ruin;
        ``result.ruin.risk_of_ruin`` the share ruined.
    insurance: None (the index table's insurance index, else never), False (never) or a
        whole true count: both hands insured, half a unit each, at TC >= it.

    The result depends on (seed, chunk_rounds), not on ``threads``."""
    rounds, seed, chunk_rounds, threads = checked_run(rounds, seed, chunk_rounds, threads)
    trials = checked_bankroll_trials(bankroll_trials)
    plan, settings = build_switch_plan(
        switch, penetration=penetration, burn=burn, system=system, indices=indices,
        plays=plays, insurance=insurance, decks_estimation=decks_estimation,
        tc_rounding=tc_rounding, ramp=ramp, wong_in=wong_in, wong_out=wong_out,
        table_min=table_min, table_max=table_max, threads=threads)
    specs = [(k, min(chunk_rounds, rounds - k * chunk_rounds))
             for k in range(-(-rounds // chunk_rounds))]
    done, partial = run_local(plan, seed, specs, threads, _progress_reporter(progress, rounds))
    result = _result(merge(done), seed, len(done), partial, settings)
    if trials is not None and not partial:
        try:
            result = dataclasses.replace(result, ruin=ruin_paths(plan, seed, trials, threads))
        except KeyboardInterrupt:       # the rounds stand; the bankroll paths are dropped
            result = dataclasses.replace(result, partial=True)
    return result


__all__ = ["simulate_switch_shoe", "build_switch_plan", "SwitchShoePlan"]
