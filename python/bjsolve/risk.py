"""Risk of ruin and the standard bankroll figures from a round's outcome distribution.

Every function takes any object with ``.values`` (net outcomes per round, in units) and
``.probabilities`` on a common lattice (multiples of 1/2 for a blackjack round; any step
1/q with q <= 100 is accepted, e.g. a 6:5 natural on tenths), such as an
``OutcomeDistribution`` or a bet-ramp mixture.  Flat betting: one round is one draw of X.

Conventions (docs/risk.md names every formula):

* bankroll B > 0 units; the player is *ruined* when the bankroll falls to 0 or below,
  i.e. at the first n with B + S_n <= 0, S_n = X_1 + ... + X_n.
* trip ruin: P(ruined within N rounds), by dynamic programming on the lattice (exact
  but for the mass pushed beyond the upper end of the window, which is bounded and
  reported: below 1e-15 by default);
* lifetime ruin: P(ever ruined).  1 when E[X] <= 0.  Otherwise, with the outcomes in
  lattice steps k (X = k h), psi(i) = P(ruin | i steps from ruin) solves the renewal
  equation psi(i) = sum_k p_k psi(i + k) with psi = 1 below the barrier; its solution is
  psi(i) = sum_j c_j w_j^i over the d roots |w_j| < 1 of the characteristic equation
  E[w^K] = 1 (d = the largest loss in steps), the c_j fixed by psi = 1 on the d states
  just below the barrier ("exact root method").  The single dominant root r = w_1 gives
  the classic r^(B/h) ("dominant root"), and exp(-2 mu B / sigma^2) is the normal
  (diffusion) approximation.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

MAX_DENOMINATOR = 100       # lattice steps 1/q, q <= 100
LATTICE_TOLERANCE = 1e-9
TRIP_TOLERANCE = 1e-15      # trip ruin: the largest mass allowed to leave the window


# ---- input -------------------------------------------------------------------------------

def _arrays(dist):
    try:
        values = np.asarray(dist.values, dtype=float)
        probs = np.asarray(dist.probabilities, dtype=float)
    except AttributeError:
        raise TypeError("dist must have .values and .probabilities (e.g. an "
                        f"OutcomeDistribution), got {type(dist).__name__}") from None
    if values.ndim != 1 or values.shape != probs.shape or len(values) == 0:
        raise ValueError("dist: values and probabilities must be 1-D arrays of one length "
                         f"(got shapes {values.shape} and {probs.shape})")
    if not (np.all(np.isfinite(values)) and np.all(np.isfinite(probs))):
        raise ValueError("dist: values and probabilities must be finite")
    if np.any(probs < -1e-15):
        raise ValueError(f"dist: probabilities must be non-negative, got {probs.min():.3g}")
    total = probs.sum()
    if abs(total - 1.0) > 1e-9:
        raise ValueError(f"dist: probabilities must sum to 1, got {total!r}")
    return values, np.clip(probs, 0.0, None) / total


def lattice(dist):
    """(step h, integer steps k, probabilities): the distribution as X = k h."""
    values, probs = _arrays(dist)
    for q in range(1, MAX_DENOMINATOR + 1):
        scaled = values * q
        if np.all(np.abs(scaled - np.round(scaled)) < LATTICE_TOLERANCE * q):
            steps = np.round(scaled).astype(np.int64)
            # merge equal steps
            uniq, inv = np.unique(steps, return_inverse=True)
            merged = np.zeros(len(uniq))
            np.add.at(merged, inv, probs)
            keep = merged > 0
            return 1.0 / q, uniq[keep], merged[keep]
    raise ValueError(f"dist: the values are not on a lattice of step 1/q, q <= "
                     f"{MAX_DENOMINATOR} (e.g. {values[:4]})")


def _check_bankroll(bankroll) -> float:
    if isinstance(bankroll, bool) or not isinstance(bankroll, (int, float, np.integer,
                                                               np.floating)):
        raise TypeError(f"bankroll must be a number of units, got {type(bankroll).__name__}")
    b = float(bankroll)
    if not math.isfinite(b) or b <= 0:
        raise ValueError(f"bankroll must be a finite number of units > 0, got {bankroll!r}")
    return b


def _check_rounds(rounds) -> int:
    if isinstance(rounds, bool) or not isinstance(rounds, (int, np.integer)):
        raise TypeError(f"rounds must be an int >= 1, got {type(rounds).__name__}")
    if rounds < 1:
        raise ValueError(f"rounds must be an int >= 1, got {rounds!r}")
    if rounds > 10_000_000:
        raise ValueError(f"rounds must be at most 10,000,000, got {rounds!r}")
    return int(rounds)


def _check_risk(risk) -> float:
    if isinstance(risk, bool) or not isinstance(risk, (int, float, np.integer, np.floating)):
        raise TypeError(f"risk must be a probability, got {type(risk).__name__}")
    r = float(risk)
    if not 0.0 < r < 1.0:
        raise ValueError(f"risk must be a probability strictly between 0 and 1, got {risk!r}")
    return r


def _start_index(bankroll: float, h: float) -> int:
    """Lattice index of the starting bankroll: alive while index >= 0."""
    return math.ceil(bankroll / h - LATTICE_TOLERANCE) - 1


def _moments(dist):
    values, probs = _arrays(dist)
    mean = float(np.dot(values, probs))
    var = float(np.dot(probs, (values - mean) ** 2))
    return mean, var


# ---- trip ruin -----------------------------------------------------------------------------

@dataclass(frozen=True)
class TripRuin:
    """P(ruined within ``rounds`` rounds) from ``bankroll`` units; ``error_bound``: the
    probability mass that left the computation window (the result is exact to it)."""
    probability: float
    bankroll: float
    rounds: int
    error_bound: float

    def __float__(self):
        return self.probability


def trip_ruin(dist, bankroll, rounds, *, tolerance: float = TRIP_TOLERANCE) -> TripRuin:
    """Probability of losing ``bankroll`` units within ``rounds`` rounds (dynamic
    programming on the outcome lattice: the law of the bankroll of the players not yet
    ruined, one round at a time)."""
    bankroll = _check_bankroll(bankroll)
    rounds = _check_rounds(rounds)
    h, steps, probs = lattice(dist)
    lo, hi = int(steps.min()), int(steps.max())
    kernel = np.zeros(hi - lo + 1)
    kernel[steps - lo] = probs
    start = _start_index(bankroll, h)
    alive = np.zeros(start + 1)
    alive[start] = 1.0
    ruined = 0.0
    dropped = 0.0
    per_round_cut = tolerance / rounds
    for n in range(rounds):
        new = np.convolve(alive, kernel)       # new[j] is index j + lo
        if lo < 0:
            ruined += float(new[:-lo].sum())
            new = new[-lo:]
        elif lo > 0:
            new = np.concatenate((np.zeros(lo), new))
        # rounds left after this one: an index above (rounds left) * (largest loss) is safe
        left = rounds - n - 1
        safe_from = left * max(-lo, 0)
        if len(new) > safe_from + 1:
            new = new[:safe_from + 1]          # those players can no longer be ruined
        # the far upper tail carries next to no mass; leave it out, counting what is left out
        tail = np.cumsum(new[::-1])
        k = int(np.searchsorted(tail, per_round_cut, side="left"))   # tail[:k] < cut
        k = min(k, len(new) - 1)
        if k > 0:
            dropped += float(tail[k - 1])
            new = new[:len(new) - k]
        alive = new
        if not alive.any():
            break
    return TripRuin(min(1.0, ruined), bankroll, rounds, float(dropped))


# ---- lifetime ruin -------------------------------------------------------------------------

@dataclass(frozen=True)
class LifetimeRuin:
    """P(ever ruined) from ``bankroll`` units.

    probability: the exact root method (all roots of E[w^K] = 1 inside the unit circle);
    dominant_root: r^(B/h) from the root r in (0, 1) closest to 1 (r = per-step root; per
        unit it is r^(1/h)); normal: exp(-2 mu B / sigma^2).
    """
    probability: float
    dominant_root_estimate: float
    normal: float
    root: float               # r per unit of bankroll: dominant estimate = root ** B
    bankroll: float


def _characteristic_roots(steps, probs):
    """Roots w, |w| < 1, of sum_k p_k w^k = 1 (polynomial after multiplying by w^d)."""
    lo, hi = int(steps.min()), int(steps.max())
    d = -lo
    coeffs = np.zeros(hi - lo + 1)            # index = power of w
    coeffs[steps - lo] += probs
    coeffs[d] -= 1.0
    roots = np.roots(coeffs[::-1])
    poly = np.polynomial.Polynomial(coeffs)
    deriv = poly.deriv()
    for _ in range(3):                         # polish each root (Newton)
        dv = deriv(roots)
        ok = np.abs(dv) > 1e-300
        roots = np.where(ok, roots - poly(roots) / np.where(ok, dv, 1.0), roots)
    inside = roots[np.abs(roots) < 1.0 - 1e-10]
    return d, inside


def _dominant_root(steps, probs):
    """The real root r in (0, 1) of E[r^K] = 1 (mean > 0), by bisection and Newton."""
    def f(w):
        return float(np.dot(probs, w ** steps.astype(float))) - 1.0
    a, b = 1e-12, 1.0 - 1e-15
    # f(0+) = +inf (there are losses), f(1) = 0 with f'(1) = mean > 0: f < 0 just below 1
    while f(b) >= 0 and b > 0.5:
        b = 1.0 - (1.0 - b) * 2
    for _ in range(200):
        m = 0.5 * (a + b)
        if f(m) > 0:
            a = m
        else:
            b = m
        if b - a < 1e-16:
            break
    return 0.5 * (a + b)


def lifetime_ruin(dist, bankroll) -> LifetimeRuin:
    """Probability of ever losing ``bankroll`` units, playing forever (flat bets)."""
    bankroll = _check_bankroll(bankroll)
    h, steps, probs = lattice(dist)
    mean, var = _moments(dist)
    if mean <= 0 or steps.min() >= 0:
        one = 1.0 if mean <= 0 else 0.0
        return LifetimeRuin(one, one, one, 1.0 if mean <= 0 else 0.0, bankroll)
    normal = math.exp(-2.0 * mean * bankroll / var) if var > 0 else 0.0
    i = _start_index(bankroll, h)
    r = _dominant_root(steps, probs)
    dominant = r ** (i + 1)
    d, roots = _characteristic_roots(steps, probs)
    exact = float("nan")
    if len(roots) == d:
        # psi(j) = sum c_k w_k^j with psi = 1 at j = -1 .. -d (ruined states)
        js = -np.arange(1, d + 1)
        A = roots[np.newaxis, :] ** js[:, np.newaxis]
        try:
            c = np.linalg.solve(A, np.ones(d, dtype=complex))
            exact = float(np.real(np.dot(c, roots ** i)))
        except np.linalg.LinAlgError:
            exact = float("nan")
    if not (0.0 <= exact <= 1.0 + 1e-9) or not math.isfinite(exact):
        # the root system failed numerically: the dynamic programme to a long horizon
        exact = trip_ruin(dist, bankroll, 200_000).probability
    return LifetimeRuin(min(max(exact, 0.0), 1.0), dominant, normal, r ** (1.0 / h), bankroll)


def bankroll_for_risk(dist, risk) -> float:
    """The smallest bankroll (units, on the outcome lattice) whose lifetime ruin
    probability (exact root method) is at most ``risk``; inf when E[X] <= 0."""
    risk = _check_risk(risk)
    h, steps, probs = lattice(dist)
    mean, _ = _moments(dist)
    if mean <= 0:
        return math.inf
    r = _dominant_root(steps, probs)
    guess = max(1, int(math.log(risk) / math.log(r)))     # lattice steps
    lo, hi = 1, max(2, guess)
    while lifetime_ruin(dist, hi * h).probability > risk:
        lo, hi = hi, hi * 2
    while lo < hi:                                       # smallest n with psi(n h) <= risk
        mid = (lo + hi) // 2
        if lifetime_ruin(dist, mid * h).probability <= risk:
            hi = mid
        else:
            lo = mid + 1
    return float(Fraction(lo) * Fraction(h).limit_denominator(MAX_DENOMINATOR))


# ---- the summary ---------------------------------------------------------------------------

@dataclass(frozen=True)
class RiskSummary:
    """Per-round figures of a flat bet of one unit (see docs/risk.md for each formula)."""
    ev: float                 # E[X] per round
    sd: float                 # SD[X] per round
    ev_per_100: float         # 100 E[X]
    sd_per_100: float         # 10 SD[X] (sqrt(100) rounds)
    n0: float                 # (SD / EV)^2: rounds for the EV to equal one SD
    di: float                 # desirability index 1000 EV / SD
    score: float              # DI^2 = 10^6 EV^2 / Var: win per 100 rounds, Kelly bets, 10,000 units
    bankroll: float | None = None
    rounds: int | None = None
    trip_ruin: float | None = None
    lifetime_ruin: float | None = None
    lifetime_ruin_dominant_root: float | None = None
    lifetime_ruin_normal: float | None = None
    bankroll_for_1pct: float | None = None
    bankroll_for_5pct: float | None = None
    bankroll_for_13_5pct: float | None = None

    def rows(self):
        """[(label, value)] in print order (None left out)."""
        names = [("EV per round", self.ev), ("SD per round", self.sd),
                 ("EV per 100 rounds", self.ev_per_100), ("SD per 100 rounds", self.sd_per_100),
                 ("N0 = (SD/EV)^2 (rounds)", self.n0), ("DI = 1000 EV/SD", self.di),
                 ("SCORE = DI^2", self.score), ("bankroll (units)", self.bankroll),
                 ("rounds", self.rounds), ("trip ruin", self.trip_ruin),
                 ("lifetime ruin (exact roots)", self.lifetime_ruin),
                 ("lifetime ruin (dominant root)", self.lifetime_ruin_dominant_root),
                 ("lifetime ruin (normal approx.)", self.lifetime_ruin_normal),
                 ("bankroll for 1% lifetime ruin", self.bankroll_for_1pct),
                 ("bankroll for 5% lifetime ruin", self.bankroll_for_5pct),
                 ("bankroll for 13.5% lifetime ruin", self.bankroll_for_13_5pct)]
        return [(k, v) for k, v in names if v is not None]


def risk_summary(dist, bankroll=None, rounds=None) -> RiskSummary:
    """SD per round and per 100, N0, DI, SCORE; with ``bankroll`` the lifetime ruin (three
    ways) and with ``rounds`` too the trip ruin; bankrolls for 1%, 5% and 13.5% lifetime
    ruin when the game has an edge."""
    mean, var = _moments(dist)
    sd = math.sqrt(var)
    n0 = (sd / mean) ** 2 if mean != 0 else math.inf
    di = 1000.0 * mean / sd if sd > 0 else math.nan
    fields = dict(ev=mean, sd=sd, ev_per_100=100 * mean, sd_per_100=10 * sd, n0=n0, di=di,
                  score=di * di if math.isfinite(di) else math.nan)
    if bankroll is not None:
        fields["bankroll"] = _check_bankroll(bankroll)
        life = lifetime_ruin(dist, bankroll)
        fields.update(lifetime_ruin=life.probability,
                      lifetime_ruin_dominant_root=life.dominant_root_estimate,
                      lifetime_ruin_normal=life.normal)
        if rounds is not None:
            fields["rounds"] = _check_rounds(rounds)
            fields["trip_ruin"] = trip_ruin(dist, bankroll, rounds).probability
    elif rounds is not None:
        raise ValueError("rounds needs a bankroll (the trip ruin is P(losing the bankroll "
                         "within that many rounds))")
    if mean > 0:
        fields.update(bankroll_for_1pct=bankroll_for_risk(dist, 0.01),
                      bankroll_for_5pct=bankroll_for_risk(dist, 0.05),
                      bankroll_for_13_5pct=bankroll_for_risk(dist, 0.135))
    return RiskSummary(**fields)
