"""A bet ramp: the bet at each true count.  One concept, one parser, used by the counted game
(``bjsolve.risk.game``), the simulator (``bjsolve.simulate``) and the command line.

A ramp is written ``"1:1,2:2,3:4,4:8"`` (true count:bet, comma separated; spaces allowed),
or given as a mapping {true count: bet}, as (true count, bet) pairs, or as a ``Ramp``.

* True counts are whole numbers from -1000 to +1000 (every true-count convention of the
  package bins whole counts), each at most once, in any order (they are sorted).
* Bets are finite numbers from 0 to 1,000,000 units (0: the round is sat out; a larger
  figure is a sign of the wrong unit, and squared bets must not overflow the variance);
  at least one is above 0.
* Between points the bet of the highest point at or below the count applies; below the
  lowest point, the lowest point's bet.
* ``wong_in`` (optional, a whole true count): rounds at true counts below it are sat out.

Bad input raises ``TypeError`` (a ramp, count or bet of the wrong type) or ``ValueError``
(the right type, a value not allowed), naming the field, the value (shortened) and what is
allowed.
"""
from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ..model.checks import is_finite_real
from ..model.ranks import show as _show
from ..output.notebook import ramp_frame, ramp_html, ramp_result_frame, ramp_result_html
from ..output.table import Table

__all__ = ["Ramp", "parse_ramp", "RampResult", "SideBetFigures", "ramp_figures",
           "diffusion_ruin", "ramp_table"]

EXAMPLE = "'1:1,2:2,3:4,4:8'"
MAX_TRUE_COUNT = 1000       # far beyond any true count a shoe reaches
MAX_BET = 1_000_000         # units; bets squared stay far from overflowing
MIN_BET = 1e-6              # units, for a bet above 0: squares of win rates stay normal floats
# what one unit may be worth, in money (a sane range; the figures stay in units)
MIN_UNIT, MAX_UNIT = 1e-9, 1e9


@dataclass(frozen=True)
class Ramp:
    """Bets by true count: ``points`` ((true count, bet), ...) with strictly increasing
    whole true counts; ``wong_in``: rounds below that true count are sat out (bet 0)."""
    points: tuple
    wong_in: int | None = None

    def __post_init__(self):
        # a Ramp built by hand is held to what parse_ramp allows (bets() needs the counts
        # increasing; a NaN bet or no point at all failed far from where it was made)
        points = self.points
        object.__setattr__(self, "points", tuple(points) if isinstance(points, _CheckedPoints)
                           else _checked_points(points))
        if self.wong_in is not None:
            object.__setattr__(self, "wong_in", _true_count(self.wong_in, "wong_in"))

    def bets(self, true_counts) -> np.ndarray:
        """The bet at each of ``true_counts`` (array-like of numbers)."""
        tcs = np.asarray(true_counts, dtype=float)
        keys = np.array([k for k, _ in self.points], dtype=float)
        vals = np.array([v for _, v in self.points], dtype=float)
        idx = np.clip(np.searchsorted(keys, tcs + 1e-9, side="right") - 1, 0, len(keys) - 1)
        out = vals[idx]
        if self.wong_in is not None:
            out = np.where(tcs < self.wong_in - 1e-9, 0.0, out)
        return out

    def bet_at(self, true_count: float) -> float:
        """The bet (units) at this true count: the bet of the highest point at or below it
        (the first point's bet below every point), 0 below ``wong_in``."""
        return float(self.bets([true_count])[0])

    @property
    def spread(self) -> float:
        """Largest bet over the smallest bet above 0."""
        bets = [v for _, v in self.points if v > 0]
        return max(bets) / min(bets)

    def describe(self) -> str:
        """The ramp as text "tc:bet,..." (``parse_ramp`` reads it back)."""
        text = ",".join(f"{k:g}:{v:g}" for k, v in self.points)
        return text + (f" (wong in at {self.wong_in:g})" if self.wong_in is not None else "")

    def to_pandas(self):
        """The ramp's points (columns true_count, bet in units).  Needs pandas."""
        return ramp_frame(self)

    def _repr_html_(self):
        return ramp_html(self)


def parse_ramp(ramp, *, wong_in=None) -> Ramp:
    """A ``Ramp`` from text "tc:bet,...", a mapping {tc: bet}, (tc, bet) pairs or a ``Ramp``
    (see the module docstring for what is allowed)."""
    if isinstance(ramp, Ramp):
        if wong_in is None:
            return ramp
        return Ramp(_CheckedPoints(ramp.points), _true_count(wong_in, "wong_in"))
    if isinstance(ramp, str):
        pairs = _parse_text(ramp)
    elif isinstance(ramp, Mapping):
        pairs = list(ramp.items())
    elif isinstance(ramp, (bytes, numbers.Number)) or ramp is None:
        raise TypeError(f"ramp must be text {EXAMPLE}, a mapping {{true count: bet}} or "
                        f"(true count, bet) pairs, got {_show(ramp)}")
    else:
        try:
            pairs = [tuple(p) for p in ramp]    # (their lengths are checked with the rest)
        except TypeError:
            raise TypeError(f"ramp must be text {EXAMPLE}, a mapping {{true count: bet}} or "
                            f"(true count, bet) pairs, got {_show(ramp)}") from None
    wong = None if wong_in is None else _true_count(wong_in, "wong_in")
    return Ramp(_CheckedPoints(_checked_points(pairs, sort=True, shown=ramp)), wong)


class _CheckedPoints(tuple):
    """Points already through ``_checked_points`` (parse_ramp's): a Ramp takes them as
    they are instead of checking every field a second time."""


def _checked_points(points, *, sort: bool = False, shown=None) -> tuple:
    """Points as ((int true count, float bet), ...), every field checked once, or the
    error naming the field.  ``sort`` (parse_ramp): any order, each count once, sorted;
    else (a Ramp built by hand) the counts must already increase.  ``shown``: what the
    caller was given, for the messages."""
    shown = points if shown is None else shown
    if isinstance(points, (str, bytes, Mapping)) or not hasattr(points, "__iter__"):
        raise TypeError(f"Ramp points must be (true count, bet) pairs in increasing "
                        f"true-count order (parse_ramp reads text {EXAMPLE} or a mapping), "
                        f"got {_show(points)}")
    pairs = [_checked_pair(item) for item in points]
    if not pairs:
        raise ValueError(f"ramp must give at least one true count:bet, e.g. {EXAMPLE}; got "
                         f"{_show(shown)}")
    if sort:
        counts = set()
        for tc, _ in pairs:
            if tc in counts:
                raise ValueError(f"ramp true count {tc:+d} is given twice (each count once)")
            counts.add(tc)
        pairs.sort()
    for (a, _), (b, _) in zip(pairs, pairs[1:]):
        if b <= a:
            raise ValueError(f"Ramp points must be in increasing true-count order, each count "
                             f"once (parse_ramp sorts them): {a:+d} then {b:+d}")
    if all(bet == 0 for _, bet in pairs):
        raise ValueError(f"ramp: every bet is 0 (at least one bet must be above 0), got "
                         f"{_show(shown)}")
    return tuple(pairs)


def _checked_pair(item) -> tuple:
    """One (true count, bet) entry as (int, float), or the error naming the field."""
    try:
        pair = tuple(item)
    except TypeError:
        pair = ()
    if len(pair) != 2:
        raise ValueError(f"ramp entries are (true count, bet) pairs, got {_show(item)}")
    tc = _true_count(pair[0], "ramp true count")
    return tc, _bet(pair[1], tc)


def _parse_text(text: str) -> list:
    pairs = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        bits = part.split(":")
        if len(bits) != 2:
            raise ValueError(f"ramp entry {_show(part)} is not 'true count:bet' (e.g. "
                             f"{EXAMPLE})")
        try:
            tc, bet = float(bits[0]), float(bits[1])
        except ValueError:
            raise ValueError(f"ramp entry {_show(part)} is not 'true count:bet' with two "
                             f"numbers (e.g. {EXAMPLE})") from None
        pairs.append((tc, bet))
    return pairs


def _true_count(value: float, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{field} must be a whole number, got {_show(value)}")
    if not is_finite_real(value) or value != int(value) or abs(value) > MAX_TRUE_COUNT:
        raise ValueError(f"{field} must be a whole number -{MAX_TRUE_COUNT}..+{MAX_TRUE_COUNT} "
                         f"(true counts are whole), got {_show(value)}")
    return int(value)


def checked_insurance(insurance):
    """None, False or a whole true count (the counted game's and ``simulate``'s
    ``insurance``: None the index plays' index, False never, TC insure at counts >= it),
    else the error naming the field."""
    if insurance is None or insurance is False:
        return insurance
    if insurance is True:
        raise ValueError("insurance must be a whole true count, False (never) or None (the "
                         "index plays' insurance index), got True")
    return _true_count(insurance, "insurance")


def _bet(value: float, tc: int) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"ramp bet at true count {tc:+d} must be a number >= 0, got "
                        f"{_show(value)}")
    if not is_finite_real(value) or not (value == 0 or MIN_BET <= value <= MAX_BET):
        raise ValueError(f"ramp bet at true count {tc:+d} must be 0 (sits the round out) or "
                         f"a number from {MIN_BET:g} to {MAX_BET:,} units, got {_show(value)}")
    return float(value)


# ---- a ramp's figures ---------------------------------------------------------------------------

@dataclass(frozen=True)
class SideBetFigures:
    """A side bet's share of a ramp's figures (units, per round dealt): ``play`` says the
    bet, its pay table, threshold and units; ``win_rate`` and ``sd``: the side bet's own
    win and SD per round; ``rounds_bet``: the share of rounds with a side bet;
    ``average_units``: its mean bet when made; ``main_win_rate`` and ``main_sd``: the main
    game's alone; ``covariance``: of the main and side results of one round (units^2),
    by ``covariance_method``.  The ramp's ``win_rate`` and ``sd`` are the combined play's:
    Var = main_sd^2 + sd^2 + 2 covariance."""
    play: str
    win_rate: float
    sd: float
    rounds_bet: float
    average_units: float
    main_win_rate: float
    main_sd: float
    covariance: float
    covariance_method: str

    @property
    def correlation(self) -> float:
        """The correlation of a round's main and side results."""
        sds = self.sd * self.main_sd
        return self.covariance / sds if sds > 0 else float("nan")


@dataclass(frozen=True)
class RampResult:
    """A ramp's figures, in units (the ramp's bets), per round dealt (rounds sat out count,
    with bet 0).  ``rounds_played``: the fraction of rounds with a bet.  ``unit``: what a
    unit is worth in money (None: not given); ``money()`` then gives the money figures.
    ``target_ror`` and ``bankroll_for_target``: the smallest bankroll (units) whose
    lifetime ruin is at most that risk (exact, on the ramp's mixture law)."""
    ramp: Ramp
    bankroll: float | None     # units
    win_rate: float            # per round
    sd: float                  # per round
    average_bet: float         # per round played
    rounds_played: float
    ror: float | None          # lifetime risk of ruin, exact, on the ramp's mixture law
    ror_method: str
    ror_diffusion: float | None = None      # the diffusion approximation exp(-2 W B / Var)
    ror_dominant_root: float | None = None  # r^(B/h), the dominant root alone
    trip_rounds: int | None = None          # with ``trip_ruin``: P(ruin within that many)
    trip_ruin: float | None = None
    trip_ruin_note: str | None = None       # why the trip ruin asked for is not given (None)
    caveat: str | None = None               # what makes these figures unreliable, if anything
    unit: float | None = None               # money per unit (None: units only)
    target_ror: float | None = None
    bankroll_for_target: float | None = None   # units; inf: no bankroll is enough
    sidebet: SideBetFigures | None = None   # a side bet played beside the ramp: its share

    @property
    def variance(self) -> float:
        """Variance of a round's result, units squared (``sd ** 2``)."""
        return self.sd ** 2

    @property
    def win_per_100(self) -> float:
        """Expected win per 100 rounds dealt, units."""
        return 100.0 * self.win_rate

    @property
    def sd_per_100(self) -> float:
        """SD of the result of 100 rounds, units (10 x SD per round: rounds independent)."""
        return 10.0 * self.sd

    @property
    def di(self) -> float:
        """Desirability index: 1000 x win rate / SD (per round); DI^2 = SCORE."""
        return 1000.0 * self.win_rate / self.sd if self.sd > 0 else float("nan")

    @property
    def score(self) -> float:
        """SCORE: win per 100 rounds with a 10,000-unit bankroll, the ramp scaled to the
        Kelly-optimal unit: 100 x 10^4 x W^2 / Var = DI^2; 0 for a ramp that does not win
        (W <= 0: no unit makes it pay), as ``bjsolve.risk.risk_summary`` gives it."""
        if not self.sd > 0:
            return float("nan")
        return 1e6 * self.win_rate ** 2 / self.variance if self.win_rate > 0 else 0.0

    @property
    def n0(self) -> float:
        """Rounds until the expected win equals one SD: Var / W^2."""
        return self.variance / self.win_rate ** 2 if self.win_rate != 0 else float("inf")

    @property
    def certainty_equivalent(self) -> float | None:
        """Per round: W - Var / (2 x bankroll) (log utility, small bets; the sure win a
        Kelly bettor values as much as this game)."""
        if self.bankroll is None:
            return None
        return self.win_rate - self.variance / (2.0 * self.bankroll)

    @property
    def advantage(self) -> float:
        """Win rate over the amount bet per round (the main bet, and the side bet's units
        with a side bet; NaN when no round is played: nothing is bet)."""
        staked = self.average_bet * self.rounds_played
        if self.sidebet is not None:          # the side bet's units are bet too
            staked += self.sidebet.average_units * self.sidebet.rounds_bet
        return self.win_rate / staked if staked > 0 else float("nan")

    def units(self) -> dict:
        """The unit of each figure of ``summary`` (money in the ramp's units)."""
        return {"bankroll": "units",
                f"bankroll for {_percent(self.target_ror)} risk of ruin": "units",
                "win rate per round": "units per round dealt",
                "win rate per 100": "units per 100 rounds dealt",
                "SD per round": "units per round dealt",
                "SD per 100": "units per 100 rounds dealt",
                "average bet (rounds played)": "units (the bet of a round played)",
                "advantage (win / amount bet)": "fraction of the amount bet",
                "share of rounds played": "fraction of the rounds dealt",
                "DI": "no unit (1000 x win rate / SD per round)",
                "SCORE": "units per 100 rounds for a 10,000-unit bankroll",
                "N0": "rounds dealt",
                "CE per 100": "units per 100 rounds dealt",
                "risk of ruin": "probability", "risk of ruin (diffusion approx.)": "probability",
                f"trip ruin in {self.trip_rounds} rounds": "probability",
                "side bet win per 100": "units per 100 rounds dealt",
                "side bet SD per round": "units per round dealt",
                "side bet share of rounds": "fraction of the rounds dealt",
                "main game win per 100": "units per 100 rounds dealt",
                "main game SD per round": "units per round dealt",
                "main x side covariance": "units^2 per round dealt"}

    def summary(self) -> dict:
        """The figures of the ramp by name, as printed (win rate, SD, DI, SCORE, N0, risk),
        money in units (``money()``: in money); None where not asked for."""
        ce = self.certainty_equivalent
        return {"bankroll": self.bankroll,
                f"bankroll for {_percent(self.target_ror)} risk of ruin":
                    self.bankroll_for_target,
                "win rate per round": self.win_rate, "win rate per 100": self.win_per_100,
                "SD per round": self.sd, "SD per 100": self.sd_per_100,
                "average bet (rounds played)": self.average_bet,
                "advantage (win / amount bet)": self.advantage,
                "share of rounds played": self.rounds_played, "DI": self.di, "SCORE": self.score,
                "N0": self.n0, "CE per 100": None if ce is None else 100 * ce,
                "risk of ruin": self.ror,
                "risk of ruin (diffusion approx.)": self.ror_diffusion,
                f"trip ruin in {self.trip_rounds} rounds": self.trip_ruin,
                **self._side_summary()}

    def _side_summary(self) -> dict:
        side = self.sidebet
        if side is None:
            return {}
        return {"side bet win per 100": 100 * side.win_rate, "side bet SD per round": side.sd,
                "side bet share of rounds": side.rounds_bet,
                "main game win per 100": 100 * side.main_win_rate,
                "main game SD per round": side.main_sd,
                "main x side covariance": side.covariance}

    def money(self) -> dict:
        """The figures of ``summary`` that are amounts of money, times ``unit`` (empty
        without a unit): the same names, in money.  SCORE is left out: it is a normalised
        figure (the win per 100 rounds at a 10,000-unit bankroll), which a counter reads as
        "per $10,000"; in money it would be the win of a 10,000 x unit bankroll."""
        if self.unit is None:
            return {}
        kinds = self.units()
        return {k: v * self.unit for k, v in self.summary().items()
                if v is not None and kinds[k].startswith("units")
                and k not in ("SCORE", "main x side covariance")}

    def to_pandas(self):
        """The figures of ``summary`` (index: figure; columns value, unit).  Needs pandas."""
        return ramp_result_frame(self)

    def _repr_html_(self):
        return ramp_result_html(self)


def _percent(p) -> str:
    """0.05 -> '5%', 0.135 -> '13.5%' (the target risk in a figure's name)."""
    return "?" if p is None else f"{100 * p:.4g}%"


def ramp_figures(ramp, bets, freq, edge, var, bankroll) -> RampResult:
    """A ramp's figures from per-true-count arrays: bets, frequency, edge (per unit bet) and
    variance (per unit bet squared); the risk of ruin by the diffusion formula alone (the
    counted game adds the exact figure)."""
    played = bets > 0
    win = float(np.sum(freq * bets * edge))
    second = float(np.sum(freq * bets ** 2 * (var + edge ** 2)))
    variance = max(second - win * win, 0.0)
    sd = math.sqrt(variance)
    share = float(freq[played].sum())
    avg = float(np.sum(freq * bets)) / share if share > 0 else 0.0
    ror = diffusion_ruin(win, variance, bankroll) if bankroll is not None else None
    return RampResult(ramp, bankroll, win, sd, avg, share, ror,
                      "diffusion exp(-2 W B / Var) (the exact ruin was not asked for)",
                      ror_diffusion=ror)


def diffusion_ruin(win: float, variance: float, bankroll: float) -> float:
    """Lifetime risk of ruin, the diffusion (normal) approximation exp(-2 W B / Var)
    (1 when W <= 0; 0 when W > 0 and the variance is 0, a walk that only wins)."""
    for name, value in (("win", win), ("variance", variance), ("bankroll", bankroll)):
        if not is_finite_real(value):
            raise ValueError(f"diffusion_ruin: {name} must be a finite number, got "
                             f"{_show(value)}")
    if variance < 0 or bankroll < 0:
        raise ValueError(f"diffusion_ruin: variance and bankroll must be >= 0, got "
                         f"{_show(variance)} and {_show(bankroll)}")
    if win <= 0:
        return 1.0
    if variance == 0:       # (also a variance that underflowed: bets of 1e-300 units)
        return 0.0
    return math.exp(-2.0 * win * bankroll / variance)


def ramp_table(result: RampResult, title: str):
    """A ramp's figures as a one-column ``bjsolve.output.table.Table`` (text: labelled lines under
    a heading that writes the ramp out)."""
    summary = result.summary()
    # a bankroll no bankroll reaches (a ramp without an edge: inf) is said in the notes
    unreachable = [k for k, v in summary.items() if v is not None and math.isinf(v)]
    rows = tuple(k for k, v in summary.items() if v is not None and k not in unreachable)
    notes = ("per round dealt (rounds sat out count with bet 0) but the average bet, per "
             "round played; amounts in units (the ramp's bets); "
             "SD per 100 = 10 x SD per round (rounds independent); DI = 1000 W / SD; "
             "SCORE = DI^2 (win per 100 rounds, 10,000-unit bankroll, Kelly-scaled bets; "
             "0 when the ramp does not win); "
             "N0 = Var / W^2" + (
                 "" if result.bankroll is None else
                 "; CE = W - Var / (2 bankroll); risk of ruin: lifetime, "
                 f"{result.ror_method} (rounds treated as independent)"),) + (
                 (f"trip ruin in {result.trip_rounds:,} rounds: {result.trip_ruin_note}",)
                 if result.trip_ruin_note else ()) + (
                 (f"UNRELIABLE: {result.caveat}",) if result.caveat else ()) + (
                 (f"side bet: {result.sidebet.play}; the win rate, SD, SCORE and risk are "
                  f"the combined play's; covariance: {result.sidebet.covariance_method}",)
                 if result.sidebet is not None else ()) + tuple(
                 f"{k}: none (ruin is certain without an edge)" for k in unreachable)
    unit = result.units()
    records = [{"figure": k, "value": float(summary[k]), "unit": unit[k]} for k in rows]
    if result.unit is None:
        return Table("summary", title, rows, ("value",),
                     np.array([[float(summary[k])] for k in rows]), notes, style="prob",
                     layout="figures", units="each figure's own: its record's 'unit'",
                     records=records)
    # a unit given: the money beside the units (a blank where a figure is no amount)
    money = result.money()
    for record in records:
        record["money"] = money.get(record["figure"])
    notes = notes + (f"money: 1 unit = {result.unit:,.6g}",)
    return Table("summary", title, rows, ("units", "money"),
                 np.array([[float(summary[k]), money.get(k, math.nan)] for k in rows]),
                 notes, style="prob", layout="figures",
                 units="each figure's own: its record's 'unit'; 'money': unit x the unit size",
                 records=records)
