"""What a simulation returns: totals, the per-true-count table, the risk of ruin (see
bjsolve.simulate)."""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from ..output.notebook import simulation_frame, simulation_html
from ..output.table import Grid, Table

TC_LOW, TC_HIGH = -20, 20          # the per-true-count table (the ends collect the rest)
MONEY_FIGURES = ("mean", "sd", "total_won", "total_bet")   # amounts: units; money with a unit
# the kernel's result arrays (bjcore/_simulate.pxd): sums won, won squared, bet, the side
# bet's won, won squared and bet, main x side; counts rounds, played, hands, shuffles,
# exhausted, ruined, side bets
SUMS, COUNTS = 7, 7
S_SIDE_WON, S_SIDE_WON_SQ, S_SIDE_BET, S_CROSS = 3, 4, 5, 6
C_SIDE_BETS = 6


@dataclass(frozen=True)
class TrueCountRow:
    """One row of a simulation's per-true-count table (the count the bet was made on)."""
    true_count: int          # TC_LOW / TC_HIGH rows also hold every count beyond them
    rounds: int              # rounds dealt at this count (played or sat out)
    frequency: float         # rounds / all rounds
    played: int              # rounds the player bet
    mean: float              # mean result per initial unit bet (per spot) when played
    sd: float                # SD of that result per round
    se: float                # standard error of mean


@dataclass(frozen=True)
class RuinResult:
    """Simulated risk of ruin: of ``paths`` bankroll paths of ``rounds_per_path`` rounds
    from ``bankroll`` units, ``ruined`` reached 0; ``risk_of_ruin`` their share and ``se``
    its binomial standard error (a simulation estimate, not the exact figure)."""
    paths: int
    rounds_per_path: int
    bankroll: float
    ruined: int
    risk_of_ruin: float
    se: float


@dataclass(frozen=True)
class SideBetTotals:
    """A side bet simulated beside the game (``simulate(..., sidebet=...)``), in units per
    round dealt: ``play`` says the bet; ``rounds_bet`` the rounds it was made in;
    ``total_won``, ``total_bet``; ``mean`` its win per round dealt, ``sd`` its SD per round,
    ``se`` the mean's standard error; ``win_rate`` its win per unit it bet;
    ``covariance`` of one round's main and side results; ``combined_mean``,
    ``combined_sd``, ``combined_se``: the main game and the side bet together (rounds
    treated as independent, as every SE of the simulator)."""
    play: str
    rounds_bet: int
    total_won: float
    total_bet: float
    mean: float
    sd: float
    se: float
    win_rate: float
    covariance: float
    combined_mean: float
    combined_sd: float
    combined_se: float


@dataclass(frozen=True)
class SimulationResult:
    """Totals of a simulation.  Money is in bet units (the flat bet or the ramp's units).

    rounds: rounds dealt; played: rounds with a bet (wonging and 0-unit steps sit out);
    hands: the player's hands (splits count each hand); mean: result per round dealt and
    its standard error ``se`` (rounds treated as independent); sd: SD per round;
    total_won, total_bet (initial bets); win_rate: total_won / total_bet;
    per_true_count: a TrueCountRow per integer true count (the count the bet was made on);
    partial: True when the run was interrupted and holds only the rounds simulated so far.
    """
    rounds: int
    played: int
    hands: int
    mean: float
    se: float
    sd: float
    total_won: float
    total_bet: float
    win_rate: float
    shuffles: int
    exhausted: int
    per_true_count: list
    chunks: int
    seed: int
    partial: bool = False
    ruin: RuinResult | None = None
    settings: dict = field(default_factory=dict)
    sidebet: SideBetTotals | None = None    # a side bet played beside the game (its totals)

    def __repr__(self):
        # the dataclass repr printed every per-true-count row and setting (~5 KB); the
        # rows are in .per_true_count and .to_pandas(), the settings in .settings
        ruin = (f", risk_of_ruin={self.ruin.risk_of_ruin:.4f} +- {self.ruin.se:.4f}"
                if self.ruin is not None else "")
        return (f"SimulationResult(rounds={self.rounds:,}, played={self.played:,}, "
                f"mean={_with_se(self.mean, self.se)}, sd={_shown(self.sd, '.4f')}, "
                f"win_rate={_shown(self.win_rate, '+.6f')}, seed={self.seed}"
                f"{', PARTIAL' if self.partial else ''}{ruin}, "
                f"{len(self.per_true_count)} true-count rows)")

    def true_count_row(self, tc: int) -> TrueCountRow:
        """The ``TrueCountRow`` of one integer true count (KeyError if the table has none;
        the ends of the table collect every count beyond them)."""
        for row in self.per_true_count:
            if row.true_count == tc:
                return row
        raise KeyError(tc)

    def to_pandas(self):
        """The per-true-count table as a pandas DataFrame (index: true count); the totals
        are in ``DataFrame.attrs``.  Needs pandas (not a bjsolve requirement)."""
        return simulation_frame(self)

    def _repr_html_(self):
        return simulation_html(self)

    def summary(self) -> dict:
        """The totals by name (no per-true-count rows), as ``to_pandas`` puts in ``attrs``."""
        out = {k: getattr(self, k) for k in ("rounds", "played", "hands", "mean", "se", "sd",
                                             "total_won", "total_bet", "win_rate", "shuffles",
                                             "exhausted", "chunks", "seed", "partial")}
        if self.ruin is not None:
            out["risk_of_ruin"] = self.ruin.risk_of_ruin
            out["risk_of_ruin_se"] = self.ruin.se
        side = self.sidebet
        if side is not None:
            out.update(sidebet_rounds=side.rounds_bet, sidebet_mean=side.mean,
                       sidebet_se=side.se, sidebet_sd=side.sd,
                       sidebet_win_rate=side.win_rate, covariance=side.covariance,
                       combined_mean=side.combined_mean, combined_se=side.combined_se,
                       combined_sd=side.combined_sd)
        return out

    def money(self, unit: float) -> dict:
        """The totals that are amounts (mean, sd, total_won, total_bet), in money at
        ``unit`` money per unit."""
        return {k: getattr(self, k) * unit for k in MONEY_FIGURES}

    def tables(self, unit: float | None = None):
        """The summary and the per-true-count table as ``bjsolve.output.table.Table`` objects
        (text cells formatted for reading; JSON carries the numbers as records); ``unit``
        (money per unit): the money beside the amounts."""
        s = self.summary()
        money = {} if unit is None else self.money(unit)
        shown = {
            "rounds": f"{self.rounds:,}", "played": f"{self.played:,}",
            "hands": f"{self.hands:,}",
            "mean": _with_se(self.mean, self.se, " per round"),
            "sd": (f"{self.sd:.4f} per round" if math.isfinite(self.sd)
                   else "-- (no SD from fewer than two rounds)"),
            "total_won": f"{self.total_won:+,.1f}",
            "total_bet": f"{self.total_bet:,.1f}",
            "win_rate": (f"{self.win_rate:+.6f} per unit bet ({100 * self.win_rate:+.3f}%)"
                         if math.isfinite(self.win_rate) else "-- (nothing bet)"),
            "shuffles": f"{self.shuffles:,}", "exhausted": f"{self.exhausted:,}",
            "chunks": f"{self.chunks:,}"}
        if self.ruin is not None:
            shown["risk_of_ruin"] = (f"{self.ruin.risk_of_ruin:.4f} +- {self.ruin.se:.4f} "
                                     f"({self.ruin.paths:,} paths, {self.ruin.rounds_per_path:,} "
                                     f"rounds, {self.ruin.bankroll:g} units"
                                     + ("" if unit is None else
                                        f", money {self.ruin.bankroll * unit:,.2f}") + ")")
        side = self.sidebet
        if side is not None:
            shown.update(
                sidebet_rounds=f"{side.rounds_bet:,}",
                sidebet_mean=_with_se(side.mean, side.se, " per round"),
                sidebet_sd=f"{_shown(side.sd, '.4f')} per round",
                sidebet_win_rate=_shown(side.win_rate, "+.6f") + " per unit it bet",
                covariance=f"{_shown(side.covariance, '+.5f')} per round",
                combined_mean=_with_se(side.combined_mean, side.combined_se, " per round"),
                combined_sd=f"{_shown(side.combined_sd, '.4f')} per round")
        for k, v in money.items():
            if math.isfinite(v):
                shown[k] += f" (money {v:+,.2f})" if k in ("mean", "total_won") \
                    else f" (money {v:,.2f})"
        names = tuple(shown)
        labels = tuple(SUMMARY_LABELS.get(k, k) for k in names)
        title = "Simulation" + (" PARTIAL" if self.partial else "")
        notes = (("PARTIAL: interrupted; these are the rounds simulated so far",)
                 if self.partial else ()) + tuple(f"{_SETTING_LABELS.get(k, k)}: {v}"
                                                  for k, v in self.settings.items()) + ((
            f"money: 1 unit = {unit:,.6g}",) if unit is not None else ()) + (
            f"seed: {self.seed}", "SE treats rounds as independent (rounds of one shoe are "
            "correlated through the count)")
        summary = Table("simulation", title, labels, ("value",),
                        np.array([[shown[k]] for k in names], dtype=object), notes=notes,
                        layout="summary", units="bet units unless stated",
                        records=[{"name": k, "value": s.get(k),
                                  **({"money": money[k]} if k in money else {})}
                                 for k in names if k in s]
                        + ([{"name": "risk_of_ruin", "value": self.ruin.risk_of_ruin,
                             "se": self.ruin.se}] if self.ruin is not None else []))
        rows = [r for r in self.per_true_count if r.rounds]
        cols = ("rounds", "frequency", "played", "mean", "sd", "se")
        cells = np.array([[f"{r.rounds:,}", f"{r.frequency:.5f}", f"{r.played:,}",
                           _shown(r.mean, "+.5f"), _shown(r.sd, ".4f"), _shown(r.se, ".5f")]
                          for r in rows],
                         dtype=object).reshape(len(rows), len(cols))
        by_tc = Table("per-true-count",
                      "Result by true count (per initial unit bet per spot, played rounds)",
                      tuple(f"{r.true_count:+d}" for r in rows), cols, cells,
                      notes=(f"true count: the whole number the bet was made on; rows "
                             f"{TC_LOW:+d} and {TC_HIGH:+d} include every count beyond",),
                      units="mean, sd, se: initial bets; frequency: share of rounds dealt",
                      records=[vars(r) for r in rows])
        return [summary, by_tc]

    def tables_for_files(self, unit: float | None = None):
        """``tables`` with a number in every cell, for CSV and JSON (``bjsolve simulate
        --format csv/json`` and the web page's downloads write these).  ``tables`` writes
        its cells for reading ('5,339,073', '+0.012124 +- 0.000268 per round (1 SE)',
        frequencies to five decimals), which a spreadsheet takes as text or rounds: here
        the same rows at full precision, the mean's SE (and the ruin's) and the seed in
        rows of their own, and with a ``unit`` each amount's money in a row of its own;
        the JSON records as in ``tables``."""
        summary, by_tc = self.tables(unit=unit)
        figures = self.summary()
        extra = {"se": "SE of the mean", "risk_of_ruin_se": "SE of the risk of ruin",
                 "sidebet_se": "SE of the side bet mean",
                 "combined_se": "SE of the combined mean",
                 "seed": "seed", "partial": "partial (1: interrupted)"}
        names = [k for k in figures if k in SUMMARY_LABELS or k in extra]
        rows = [SUMMARY_LABELS.get(k) or extra[k] for k in names]
        values = [_plain(figures[k]) for k in names]
        if unit is not None:
            for k, v in self.money(unit).items():
                rows.append(f"{SUMMARY_LABELS[k]} (money)")
                values.append(_plain(v))
        summary = replace(summary, rows=tuple(rows), values=Grid([[v] for v in values], 1),
                          style="prob")
        columns = by_tc.columns
        by_tc = replace(by_tc, values=Grid([[_plain(r[c]) for c in columns]
                                            for r in by_tc.records], len(columns)))
        return [summary, by_tc]

    def __str__(self):
        tail = " PARTIAL" if self.partial else ""
        return (f"SimulationResult({self.rounds} rounds, mean "
                f"{_with_se(self.mean, self.se, ' per round')}, SD {_shown(self.sd, '.4f')}, "
                f"win rate {_shown(self.win_rate, '+.6f')}{tail})")


def _plain(value):
    """A file's cell: a count stays a whole number, a flag 0/1, a figure a float (None,
    no figure: NaN, an empty cell)."""
    if value is None:
        return math.nan
    if isinstance(value, bool):
        return int(value)
    return value if isinstance(value, int) else float(value)


def _shown(value, spec: str) -> str:
    """A number for the text table; '--' where there is none (an SD from one round)."""
    return "--" if value is None or not math.isfinite(value) else format(value, spec)


def _with_se(mean, se, unit: str = "") -> str:
    """'+0.012000 +- 0.000300{unit} (1 SE)'; the mean alone from a single round (no SE),
    '--' from none."""
    if not math.isfinite(mean):
        return f"--{unit} (no rounds)"
    if not math.isfinite(se):
        return f"{mean:+.6f}{unit} (no SE from a single round)"
    return f"{mean:+.6f} +- {se:.6f}{unit} (1 SE)"


# the settings in the notes, in the words of the command line's flags
_SETTING_LABELS = {"decks_estimation": "decks estimation", "tc_rounding": "tc rounding",
                   "other_spots": "other spots", "index_plays": "index plays"}

# the summary's rows as a person reads them (JSON records keep the field names)
SUMMARY_LABELS = {
    "rounds": "rounds dealt", "played": "rounds played",
    "hands": "hands played", "mean": "mean", "sd": "SD", "total_won": "total won",
    "total_bet": "total bet", "win_rate": "win rate", "shuffles": "shuffles",
    "exhausted": "shoe ran out mid-round", "chunks": "seeded chunks",
    "risk_of_ruin": "risk of ruin",
    "sidebet_rounds": "side bets made", "sidebet_mean": "side bet mean",
    "sidebet_sd": "side bet SD", "sidebet_win_rate": "side bet win rate",
    "covariance": "main x side covariance", "combined_mean": "combined mean",
    "combined_sd": "combined SD",
}


def merge(chunks) -> dict:
    """Sum chunk results (sums, counts, tc_counts, tc_sums) in the order given."""
    sums = np.zeros(SUMS)
    counts = np.zeros(COUNTS, dtype=np.int64)
    tcc = np.zeros((TC_HIGH - TC_LOW + 1, 2), dtype=np.int64)
    tcs = np.zeros((TC_HIGH - TC_LOW + 1, 2))
    for s, c, a, b in chunks:
        sums += s
        counts += c
        tcc += a
        tcs += b
    return {"sums": sums, "counts": counts, "tc_counts": tcc, "tc_sums": tcs}


def _mean_sd(total, total_sq, n):
    if n <= 0:
        return math.nan, math.nan
    mean = float(total) / n
    if n < 2:
        return mean, math.nan
    var = max(0.0, (float(total_sq) - n * mean * mean) / (n - 1))
    return mean, math.sqrt(var)


def _side_totals(sums, counts, main_mean, play) -> SideBetTotals:
    """The side bet's totals from the kernel's sums (``merge``)."""
    rounds = int(counts[0])
    mean, sd = _mean_sd(sums[S_SIDE_WON], sums[S_SIDE_WON_SQ], rounds)
    # the combined result's sum of squares: main^2 + 2 main x side + side^2, round by round
    both_sq = sums[1] + 2 * sums[S_CROSS] + sums[S_SIDE_WON_SQ]
    both_mean, both_sd = _mean_sd(sums[0] + sums[S_SIDE_WON], both_sq, rounds)
    covariance = (float(sums[S_CROSS]) / rounds - main_mean * mean) * rounds / (rounds - 1) \
        if rounds > 1 else math.nan
    bet = float(sums[S_SIDE_BET])
    se = (lambda x: x / math.sqrt(rounds) if rounds > 1 else math.nan)
    return SideBetTotals(play, int(counts[C_SIDE_BETS]), float(sums[S_SIDE_WON]), bet, mean,
                         sd, se(sd), float(sums[S_SIDE_WON]) / bet if bet else math.nan,
                         covariance, both_mean, both_sd, se(both_sd))


def _result(merged, seed, chunks, partial, settings, sidebet=None) -> SimulationResult:
    sums, counts = merged["sums"], merged["counts"]
    rounds = int(counts[0])
    mean, sd = _mean_sd(sums[0], sums[1], rounds)
    rows = []
    for i in range(TC_HIGH - TC_LOW + 1):
        n_seen, n_played = (int(x) for x in merged["tc_counts"][i])
        m, s = _mean_sd(merged["tc_sums"][i, 0], merged["tc_sums"][i, 1], n_played)
        rows.append(TrueCountRow(TC_LOW + i, n_seen, n_seen / rounds if rounds else math.nan,
                                 n_played, m, s, s / math.sqrt(n_played) if n_played > 1
                                 else math.nan))
    total_bet = float(sums[2])
    return SimulationResult(
        rounds=rounds, played=int(counts[1]), hands=int(counts[2]), mean=mean,
        se=sd / math.sqrt(rounds) if rounds > 1 else math.nan, sd=sd,
        total_won=float(sums[0]), total_bet=total_bet,
        win_rate=float(sums[0]) / total_bet if total_bet else math.nan,
        shuffles=int(counts[3]), exhausted=int(counts[4]), per_true_count=rows,
        chunks=chunks, seed=seed, partial=partial, settings=settings,
        sidebet=None if sidebet is None else _side_totals(sums, counts, mean, sidebet))
