"""Risk of ruin and the standard bankroll figures from a round's outcome distribution.

Every function takes any object with ``.values`` (net outcomes per round, in units) and
``.probabilities`` on a common lattice (multiples of 1/2 for a blackjack round; any step
1/q with q <= 100 is accepted, e.g. a 6:5 natural on tenths), such as an
``OutcomeDistribution`` or a bet-ramp mixture.  Flat betting: one round is one draw of X.
The law is checked once: values and probabilities finite real numbers (not strings or
bools), probabilities non-negative and summing to 1 within 1e-9.  The mean and SD figures
(and the normal approximation) take an ``OutcomeDistribution``'s own ``.mean`` and
``.variance`` (its variance is its best figure: exact for resplits even where its pmf
combines split hands approximately, see its ``variance_exact``); any other law's are
computed from its pmf, whatever moments it states; the ruin figures use the pmf as it is.

Conventions (docs/risk.md names every formula):

* bankroll B > 0 units; the player is *ruined* when the bankroll falls to 0 or below,
  i.e. at the first n with B + S_n <= 0, S_n = X_1 + ... + X_n.
* trip ruin: P(ruined within N rounds), by dynamic programming on the lattice (exact
  but for a bounded and reported error, below 1e-15 by default: tails cut and mass moved
  in blocks of rounds where Doob's inequality keeps it away from the barrier, or all of
  it round by round where that is cheaper).  Its cost grows linearly with N:
  N <= MAX_ROUNDS = 10^6, and laws too wide for that (a span over MAX_TRIP_SPAN lattice
  steps, or an estimated cost over MAX_TRIP_SECONDS, with the rounds allowed) are
  refused, saying why;
* lifetime ruin: P(ever ruined).  1 when E[X] <= 0 and there is a loss, 0 when there is
  no loss (the sign of E[X] exact, from the probabilities as given).  Otherwise, with the
  outcomes in
  lattice steps k (X = k h), psi(i) = P(ruin | i steps from ruin) solves the renewal
  equation psi(i) = sum_k p_k psi(i + k) with psi = 1 below the barrier; its solution is
  psi(i) = sum_j c_j w_j^i over the d roots |w_j| < 1 of the characteristic equation
  E[w^K] = 1 (d = the largest loss in steps), the c_j fixed by psi = 1 on the d states
  just below the barrier ("exact root method").  The single dominant root r = w_1 gives
  the classic r^(B/h) ("dominant root"; r = exp(-R), R the adjustment coefficient,
  computed to the last digits for any edge), and exp(-2 mu B / sigma^2) is the normal
  (diffusion) approximation.  ``RuinCurve`` computes the exact figure in closed form
  (losses of one step), by ladder heights, or beyond those methods' reach within
  Lundberg's bracket r^(i+d) <= psi(i) <= r^(i+1), with the bracket as error bound.

Bad input (non-finite or out-of-range numbers, a law whose every outcome is 0, ...)
raises ValueError or TypeError naming the field.
"""
from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..exact.distribution import OutcomeDistribution
from ..model.checks import is_finite_real
from ..model.ranks import show as _show
from ..output.notebook import (lifetime_ruin_html, risk_summary_frame, risk_summary_html,
                               trip_ruin_html)

MAX_DENOMINATOR = 100       # lattice steps 1/q, q <= 100
LATTICE_TOLERANCE = 1e-9
TRIP_TOLERANCE = 1e-15      # trip ruin: the largest mass allowed to leave the window
MAX_OUTCOME = 1e9           # |outcome| in units: the lattice steps stay exact integers
MAX_BANKROLL = 1e300        # units: the lattice index of the bankroll stays a finite float
MAX_ROUNDS = 1_000_000      # trip ruin: its cost grows linearly with the rounds (docs/risk.md)
MAX_TRIP_SPAN = 1024        # trip ruin: the largest span of the outcomes in lattice steps
MAX_TRIP_SECONDS = 10.0     # trip ruin: the largest estimated cost (_TripWalk.seconds)


# ---- input -------------------------------------------------------------------------------

def _raw_arrays(dist):
    """(values, probabilities as given, clipped at 0): checked, not yet normalised."""
    if isinstance(dist, Mapping):     # a pmf {net outcome: probability}
        values, probs = list(dist.keys()), list(dist.values())
    elif hasattr(dist, "values") and hasattr(dist, "probabilities"):
        values, probs = dist.values, dist.probabilities
    else:
        raise TypeError("dist must be an OutcomeDistribution (Solution.outcome_distribution), "
                        "an object with .values and .probabilities, or a mapping {outcome: "
                        f"probability}}, got {type(dist).__name__}")
    values = _real_array(values, "values")
    probs = _real_array(probs, "probabilities")
    if values.ndim != 1 or values.shape != probs.shape or len(values) == 0:
        raise ValueError("dist: values and probabilities must be 1-D arrays of one length "
                         f"(got shapes {values.shape} and {probs.shape})")
    if not (np.all(np.isfinite(values)) and np.all(np.isfinite(probs))):
        raise ValueError("dist: values and probabilities must be finite")
    if np.any(np.abs(values) > MAX_OUTCOME):
        raise ValueError(f"dist: outcomes must be at most {MAX_OUTCOME:g} units in size, got "
                         f"{float(values[np.argmax(np.abs(values))])!r}")
    if np.any(probs < -1e-15):
        raise ValueError(f"dist: probabilities must be non-negative, got {probs.min():.3g}")
    probs = np.clip(probs, 0.0, None)
    total = probs.sum()
    if abs(total - 1.0) > 1e-9:
        raise ValueError(f"dist: probabilities must sum to 1, got {float(total)!r}")
    return values, probs


def _real_array(items, field: str) -> np.ndarray:
    """``dist``'s ``field`` as a float array: every entry a real number (not a bool, a
    string or a complex, which numpy would turn into a float or refuse in its own words),
    finite; TypeError / ValueError naming the field and the entry otherwise."""
    if isinstance(items, np.ndarray) and items.dtype.kind in "iuf":
        return items.astype(float)                 # numbers already (checked finite later)
    if isinstance(items, np.ndarray):
        entries = items.ravel().tolist()
    elif isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
        raise TypeError(f"dist: {field} must be a sequence of real numbers, got "
                        f"{_show(items)}")
    else:
        entries = items = list(items)
    for x in entries:
        if isinstance(x, bool) or not isinstance(x, numbers.Real):
            raise TypeError(f"dist: {field} must be real numbers, got {_show(x)} "
                            f"({type(x).__name__})")
        if not is_finite_real(x):
            raise ValueError(f"dist: {field} must be finite numbers, got {_show(x)}")
    return np.asarray(items, dtype=float)


def _arrays(dist):
    values, probs = _raw_arrays(dist)
    return values, probs / probs.sum()


def _lattice_steps(values):
    """(h, integer steps k with values = k h, unmerged)."""
    for q in range(1, MAX_DENOMINATOR + 1):
        scaled = values * q
        if np.all(np.abs(scaled - np.round(scaled)) < LATTICE_TOLERANCE * q):
            return 1.0 / q, np.round(scaled).astype(np.int64)
    raise ValueError(f"dist: the values are not on a lattice of step 1/q, q <= "
                     f"{MAX_DENOMINATOR} (e.g. {values[:4]})")


def _merge(steps, probs):
    """Equal steps merged, zero probabilities left out: (steps ascending, probabilities)."""
    uniq, inv = np.unique(steps, return_inverse=True)
    merged = np.zeros(len(uniq))
    np.add.at(merged, inv, probs)
    keep = merged > 0
    return uniq[keep], merged[keep]


def lattice(dist):
    """(step h, integer steps k, probabilities): the distribution as X = k h."""
    values, probs = _arrays(dist)
    h, steps = _lattice_steps(values)
    return (h, *_merge(steps, probs))


@dataclass(frozen=True)
class _Law:
    """A law on its lattice, X = K h, for the ruin figures.  ``mean``: E[K] as an exact
    fraction of the probabilities as given (normalised by their exact sum): its sign
    decides whether ruin is certain, and an edge of 1e-15 keeps all its digits (a float
    sum of k p_k would leave only its rounding)."""
    h: float
    steps: np.ndarray
    probs: np.ndarray
    mean: Fraction


def _law(dist) -> _Law:
    values, raw = _raw_arrays(dist)
    h, raw_steps = _lattice_steps(values)
    steps, probs = _merge(raw_steps, raw / raw.sum())
    if not np.any(steps != 0):
        raise ValueError("dist: every outcome is 0 (the bankroll never moves): there is no "
                         "risk to compute; give a law with some win or loss")
    return _Law(h, steps, probs, _exact_mean(raw_steps, raw))


def _exact_mean(steps, probs) -> Fraction:
    """sum k p / sum p exactly (each float p is an integer over a power of two)."""
    ratios = [float(p).as_integer_ratio() for p in probs]
    common = max(den for _, den in ratios)
    weights = [num * (common // den) for num, den in ratios]
    return Fraction(sum(int(k) * w for k, w in zip(steps, weights)), sum(weights))


def _number(value, name: str, allowed: str) -> float:
    """A real number as a float, or TypeError / ValueError naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer,
                                                         np.floating)):
        raise TypeError(f"{name} must be {allowed}, got {type(value).__name__}")
    try:
        return float(value)
    except OverflowError:
        raise ValueError(f"{name} must be {allowed}, got an integer of about "
                         f"{_digits(int(value)):,} digits") from None


def _digits(n: int) -> int:
    """The number of decimal digits of ``n``, to within one (len(str(n)) is refused by
    Python beyond 4,300 digits)."""
    return int(abs(n).bit_length() * math.log10(2)) + 1


def _check_bankroll(bankroll) -> float:
    allowed = f"a finite number of units > 0 and at most {MAX_BANKROLL:g}"
    b = _number(bankroll, "bankroll", allowed)
    if not (math.isfinite(b) and 0 < b <= MAX_BANKROLL):
        raise ValueError(f"bankroll must be {allowed}, got {_show(bankroll)}")
    return b


def _check_rounds(rounds, field: str = "trip_rounds") -> int:
    if isinstance(rounds, bool) or not isinstance(rounds, (int, np.integer)):
        raise TypeError(f"{field} must be an int >= 1, got {type(rounds).__name__}")
    if rounds < 1:
        raise ValueError(f"{field} must be an int >= 1, got {_show(rounds)}")
    if rounds > MAX_ROUNDS:
        shown = rounds if rounds < 10 ** 30 else \
            f"an integer of about {_digits(int(rounds)):,} digits"
        raise ValueError(f"{field} must be at most {MAX_ROUNDS:,} (the trip ruin's cost grows "
                         f"with the rounds; further out use the lifetime ruin, its limit), "
                         f"got {shown}")
    return int(rounds)


def _check_risk(risk, field: str = "risk") -> float:
    allowed = "a probability strictly between 0 and 1"
    r = _number(risk, field, allowed)
    if not 0.0 < r < 1.0:
        raise ValueError(f"{field} must be {allowed}, got {_show(risk)}")
    return r


def _start_index(bankroll: float, h: float) -> int:
    """Lattice index of the starting bankroll: alive while index >= 0."""
    return math.ceil(bankroll / h - LATTICE_TOLERANCE) - 1


def _moments(dist):
    """(mean, variance) of one round's result X.  An ``OutcomeDistribution`` (the
    package's own, ``bjsolve.exact.distribution``) is taken at its word: it decides which
    variance is its best (the exact one where its pmf combines resplit hands, each spot's
    exact one with several spots), in one place.  Any other law (a bet ramp's mixture, a
    hand-made object) gives the moments of its pmf, whatever its own ``.mean`` or
    ``.variance`` say (a stated mean of inf or "x" would pass into every figure)."""
    values, probs = _arrays(dist)
    if isinstance(dist, OutcomeDistribution):
        return float(dist.mean), float(dist.variance)
    mean = float(np.dot(values, probs))
    return mean, float(np.dot(probs, (values - mean) ** 2))


# ---- trip ruin -----------------------------------------------------------------------------

@dataclass(frozen=True)
class TripRuin:
    """P(ruined within ``trip_rounds`` rounds) from ``bankroll`` units; ``error_bound``:
    the probability mass that left the computation window (the result is exact to it)."""
    probability: float
    bankroll: float
    trip_rounds: int
    error_bound: float

    def __float__(self):
        return self.probability

    def _repr_html_(self):
        return trip_ruin_html(self)


def trip_ruin(dist, bankroll, trip_rounds, *, tolerance: float = TRIP_TOLERANCE,
              max_seconds: float = MAX_TRIP_SECONDS) -> TripRuin:
    """Probability of losing ``bankroll`` units within ``trip_rounds`` rounds: the law of the
    bankroll of the players not yet ruined, carried on the outcome lattice (``_TripWalk``:
    round by round next to the ruin barrier, in blocks of rounds by convolution far from
    it, where the barrier is out of reach within the block).

    Exact but for ``error_bound``, a rigorous bound (at most ``tolerance`` in all) on what
    was left out: the far tails of the law (mass below ``tolerance`` per cut), and the
    chance, bounded by Doob's maximal inequality, that mass moved as a block (or dropped as
    too far from ruin for the rounds left) would have reached the barrier.  Floating-point
    rounding is not in it (measured: ~1e-16 relative to the largest probability, and
    ~1e-13 relative after 10,000 rounds, as the round-by-round recursion).  When Doob's
    inequality already bounds the whole probability by ``tolerance`` (a bankroll out of
    reach in that many rounds), 0 with that bound, at once.  ``max_seconds``: the largest
    estimated cost accepted (a caller that must answer sooner gives less)."""
    bankroll = _check_bankroll(bankroll)
    rounds = _check_rounds(trip_rounds, "trip_rounds")
    tol = _number(tolerance, "tolerance", "a number strictly between 0 and 1")
    if not 0.0 < tol < 1.0:
        raise ValueError(f"tolerance must be a number strictly between 0 and 1, got "
                         f"{_show(tolerance)}")
    max_seconds = _number(max_seconds, "max_seconds", "a number of seconds > 0")
    if not max_seconds > 0:
        raise ValueError(f"max_seconds must be a number of seconds > 0, got "
                         f"{_show(max_seconds)}")
    law = _law(dist)
    h, steps, probs = law.h, law.steps, law.probs
    start = _start_index(bankroll, h)
    g = int(np.gcd.reduce(np.abs(steps)))
    if g > 1:
        # every outcome a multiple of g steps (a flat bet of 100 units: +-100): the walk on
        # the lattice g times coarser is ruined in the same rounds, and its window is g
        # times narrower (a +-100 walk took minutes at 10^5 rounds); ruin at index < 0,
        # so from i + 1 steps above it, ceil((i + 1) / g) coarse steps
        steps, h = steps // g, h * g
        start = (start + g) // g - 1
    lo = int(steps.min())
    if lo >= 0 or start + 1 > rounds * -lo:              # that much cannot be lost
        return TripRuin(0.0, bankroll, rounds, 0.0)
    bound = _maximal_bound(steps, probs, start + 1, rounds)
    if bound <= tol:
        return TripRuin(0.0, bankroll, rounds, bound)
    steps, probs = _clamp_gains(steps, probs, (rounds - 1) * -lo + 1)
    span = int(steps.max()) - lo
    if span > MAX_TRIP_SPAN:
        raise ValueError(
            f"dist: trip_ruin takes outcomes spanning at most {MAX_TRIP_SPAN} lattice steps "
            f"(the window of bankrolls it carries widens by the span every round), got "
            f"{span} steps of {h:g} unit(s) from {lo * h:g} to {int(steps.max()) * h:g} "
            f"units (gains beyond the {rounds - 1} rounds' largest possible fall count as "
            f"that fall); lifetime_ruin has no such limit")
    walk = _TripWalk(steps, probs, tol / (8.0 * rounds), start, rounds)
    cost = walk.estimate(start, rounds)
    if cost > max_seconds:
        allowed = rounds                    # halved until the estimate fits
        while allowed > 1 and walk.estimate(start, allowed) > max_seconds:
            allowed //= 2
        raise ValueError(
            f"rounds must be at most about {allowed:,} for this law and bankroll, got "
            f"{rounds:,}: the trip ruin's estimated cost here is {cost:.3g} s, over its "
            f"{max_seconds:g} s limit (its work widens with the law's spread, {span} "
            f"lattice steps of {h:g} unit(s), and its {len(steps)} outcomes); lifetime_ruin "
            f"has no such limit")
    ruined, error = walk.run(start, rounds, tol, _lundberg_rate(steps, probs))
    return TripRuin(min(1.0, ruined), bankroll, rounds, float(error))


def _clamp_gains(steps, probs, cap: int):
    """The law with every gain above ``cap`` steps moved to ``cap``: exact for the ruin
    within N rounds when cap = (N - 1) d + 1 (d the largest loss): from any index >= cap the
    other N - 1 rounds cannot reach the barrier, and every gain of at least cap puts the
    walk there."""
    if int(steps.max()) <= cap:
        return steps, probs
    return _merge(np.minimum(steps, cap), probs)


def _lundberg_rate(steps, probs):
    """R with E[exp(-R K)] = 1 when E[K] > 0 (then P(ever ruined from index j) <=
    exp(-R (j + 1)), Lundberg), else None."""
    mean = _exact_mean(steps, probs)
    if mean <= 0:
        return None
    return _adjustment_coefficient(steps, probs, float(mean))


class _TripWalk:
    """The trip-ruin recursion, fast: ``advance(f, base, k)`` moves the law ``f`` of the
    alive bankrolls (``f[0]`` at lattice index ``base``; ruin below index 0) ``k`` rounds.

    * Mass at index >= ``reach(k)`` reaches the barrier within k rounds with chance <= eps
      (Doob's maximal inequality, ``_Reach``): it moves as a block, one convolution with
      the law of the sum of k outcomes (``_convolve``: direct when short, by FFT when
      long), and mass times that chance goes into the error bound.  The laws of the sums
      (``kernel``) are built once each by direct convolution (an FFT's noise would keep
      their tails from being cut).
    * Mass below ``reach(k)`` moves k / BRANCH rounds at a time, the same way, down to
      blocks of FINEST rounds, which run round by round with the barrier in the compiled
      kernel (``bjcore.killed_rounds``, src/bjcore/_ruin.pyx).
    * Tails of mass <= eps are cut at each step (counted); after each top-level block,
      bankrolls too high to be ruined in the rounds left are dropped (counted: their mass
      times the Doob bound).
    * After each top-level block, the ruin the alive mass can still suffer is bounded (its
      mass; with an edge, Lundberg's bound): once that fits in what is left of the
      tolerance, the walk stops and the bound goes into the error bound.

    Cost (``seconds``, for a plan (FINEST, BRANCH)): the strip next to the barrier is a
    few standard deviations of a FINEST-round block wide and runs round by round; the mass
    beyond it costs one convolution per block; and the laws of the sums of k outcomes cost
    their width squared to build, once: a width that grows with k and the law's spread in
    lattice steps (a law on a 1/100 lattice spreads 50 times as many steps as one on
    halves).  So the cost grows linearly with the rounds (~4-8 s of CPU per million
    rounds for a blackjack law: MAX_ROUNDS), plus the laws of the blocks.  The finest
    blocks are 16 rounds (split 4 ways above) or 64 (split 8 ways), or the whole trip runs
    round by round (ROUND_BY_ROUND: no block laws, the window as wide as the bankroll and
    the reach of the wins), whichever the estimate finds cheapest: a narrow law (flat
    betting) pays mostly the Python work per block, so 64, a wide one (a bet ramp's,
    losses of ~200 steps, ~50 outcomes) mostly the strip's width, so 16 (measured: 6-deck
    flat law, 10^5 rounds, 0.58 s against 0.62 s, and 0.68 s against 1.33 s for the
    1-deck law over 2 x 10^5; the 1-12 ramp's law over 10^4, 0.23 s against 0.36 s), and
    a law spanning hundreds of steps over a few hundred rounds, whose block laws would be
    tens of thousands of steps wide, round by round.
    """

    LARGEST = 4096        # the longest block moved at once (4^6 = 8^4)
    SHAPES = ((16, 4), (64, 8))  # (FINEST, BRANCH): blocks of at most FINEST rounds run
                                 # round by round; a block of k rounds near the barrier is
                                 # BRANCH blocks of k / BRANCH
    ROUND_BY_ROUND = (LARGEST, 8)  # every block round by round: no laws of blocks built
    BLOCK_SECONDS = 1e-4  # measured Python work per finest block (advance, trims, bounds)
    STEP_SECONDS = 3e-10  # and per state and outcome in the compiled kernel
    SPAN_SECONDS = 1e-7   # and per round and lattice step of the outcomes' span (moving
                          # the mass far from the barrier: a convolution per block)
    TERM_SECONDS = 1.2e-9  # and per product term building the laws of blocks (measured
                           # 1-1.2 ns, up to 2.7 ns with the other core busy)

    def __init__(self, steps, probs, eps: float, start: int, rounds: int):
        # (lazy: the trip-ruin kernel loads when it is needed)
        from bjcore import killed_rounds
        self.killed_rounds = killed_rounds
        self.steps, self.probs, self.eps = steps, probs, eps
        self.reach = _Reach(steps, probs)
        self.rise = _Reach(-steps, probs)    # the same bound for the highest point
        lo = int(steps.min())
        step_law = np.zeros(int(steps.max()) - lo + 1)
        step_law[steps - lo] = probs
        self.kernels = {1: (lo, step_law, 0.0)}
        self.ruined = 0.0
        self.error = 0.0
        self.FINEST, self.BRANCH = self._plan(start, rounds)

    def _plan(self, start: int, rounds: int):
        """The cheapest plan by the estimates; round by round only when its estimate is
        under half the blocks' (their estimates run 2-3x over the measured time, its own
        1-1.5x: the 1-12 ramp's law over 10^4 rounds, estimated 1.06 s and 0.94 s, took
        0.39 s in blocks and 0.69 s round by round)."""
        blocks = min(self.SHAPES, key=lambda plan: self.seconds(plan, start, rounds))
        if 2.0 * self.seconds(self.ROUND_BY_ROUND, start, rounds) < \
                self.seconds(blocks, start, rounds):
            return self.ROUND_BY_ROUND
        return blocks

    def estimate(self, start: int, rounds: int) -> float:
        """The estimated seconds of ``rounds`` rounds from index ``start`` with the plan
        chosen for that many."""
        return self.seconds(self._plan(start, rounds), start, rounds)

    def seconds(self, plan, start: int, rounds: int) -> float:
        """The estimated seconds of ``rounds`` rounds from index ``start`` with finest
        blocks and branching ``plan`` (calibrated on a shared 2-core machine: within ~2x
        of the measured CPU time for flat-bet, bet-ramp, +-3,000-unit and 1/100-lattice
        laws)."""
        finest, branch = plan
        if finest >= self.LARGEST:
            return self._round_by_round_seconds(start, rounds)
        return rounds * self._finest_cost(finest) + self._kernel_seconds(finest, branch,
                                                                         start, rounds)

    def _width(self, rounds: int) -> int:
        """The width of the law of the sum of ``rounds`` outcomes with its tails of mass
        <= eps cut, at most: from its Doob bound below to its Doob bound above, and
        never more than rounds x the span."""
        span = int(self.steps.max()) - int(self.steps.min())
        return min(rounds * span,
                   self.reach.index(rounds, self.eps) + self.rise.index(rounds, self.eps)) + 1

    def _strip_work(self, finest: int) -> float:
        """States x outcomes a round of the round-by-round part handles, roughly: the
        strip's width (the reach of a ``finest``-round block, plus the way up its wins
        spread) x the outcomes."""
        width = self.reach.index(finest, self.eps) + finest // 2 * max(
            int(self.steps.max()), 0)
        return float(width * len(self.steps))

    def _finest_cost(self, finest: int) -> float:
        """Estimated seconds per round with finest blocks of ``finest`` rounds, but for
        building the laws of the blocks (``_kernel_seconds``)."""
        span = int(self.steps.max()) - int(self.steps.min())
        return (self.BLOCK_SECONDS / finest + self.STEP_SECONDS * self._strip_work(finest)
                + self.SPAN_SECONDS * span)

    def _kernel_seconds(self, finest: int, branch: int, start: int, rounds: int) -> float:
        """The estimated cost of building the laws of the sum of k outcomes (``kernel``,
        by direct convolution) that blocks of up to ``rounds`` rounds need: each k =
        branch^j takes branch - 1 products of the law of k / branch (width w) with the
        growing partial sum, w^2 (1 + 2 + ... + (branch - 1)) product terms, and needs
        those below it.  The longest block's law is needed only if alive mass can lie
        beyond its reach at the start of a block: at ``start``, or where the reach of the
        rounds still to go exceeds it (with an edge the reach stops growing: a law
        drifting up never needs it); none when the blocks needed run round by round."""
        longest = 1
        while longest * branch <= min(rounds, self.LARGEST):
            longest *= branch
        reach = self.reach.index(longest, self.eps)
        if longest > 1 and start < reach and self.reach.index(rounds, self.eps) <= reach:
            longest //= branch
        if longest <= finest:
            return 0.0
        total, k = 0.0, branch
        while k <= longest:
            part = float(self._width(k // branch))
            total += branch * (branch - 1) / 2 * part * part * self.TERM_SECONDS
            k *= branch
        return total

    def _round_by_round_seconds(self, start: int, rounds: int) -> float:
        """The estimated cost of running every round in the compiled kernel: after n
        rounds the window runs from the barrier to start + the reach of n rounds' wins
        (its top tail of mass <= eps cut each round), times the outcomes; summed over the
        rounds (trapezoids over 32 points), plus the Python work per block."""
        ns = np.unique(np.linspace(1, rounds, 32).astype(np.int64))
        widths = np.array([start + 1 + self._width_up(int(n)) for n in ns], dtype=float)
        states = float(np.sum((widths[1:] + widths[:-1]) / 2 * np.diff(ns))) + widths[0]
        blocks = rounds / self.LARGEST + math.log(rounds + 1, 8) * 8
        return float(self.STEP_SECONDS * len(self.steps) * states + self.BLOCK_SECONDS * blocks)

    def _width_up(self, rounds: int) -> int:
        """How far above its start the window of ``rounds`` rounds reaches, at most."""
        return min(rounds * max(int(self.steps.max()), 0), self.rise.index(rounds, self.eps))

    def run(self, start: int, rounds: int, tolerance: float, rate):
        """(ruined, error bound) after ``rounds`` rounds from index ``start``.  Stops early
        once what the alive mass can still lose is below what is left of ``tolerance``:
        at most its mass, and with an edge (``rate`` = R) at most its Lundberg bound
        sum_j f_j exp(-R (j + 1)); that is added to the error bound."""
        f, base, done, blocks = np.ones(1), start, 0, 0
        while done < rounds and len(f):
            k = 1
            while k * self.BRANCH <= min(rounds - done, self.LARGEST):
                k *= self.BRANCH
            f, base = self.advance(f, base, k)
            done += k
            left = rounds - done
            if left and len(f):             # too high to be ruined in the rounds left
                safe = self.reach.index(left, self.eps)
                if base + len(f) > safe:
                    cut = max(safe - base, 0)
                    self.error += float(f[cut:].sum()) * self.reach.bound(left, safe)
                    f = f[:cut]
                blocks += 1
                still = self._still_to_lose(f, base, rate, blocks % 16 == 0)
                if self.error + still <= tolerance:
                    self.error += still
                    break
        return self.ruined, self.error

    @staticmethod
    def _still_to_lose(f, base: int, rate, closely: bool) -> float:
        """An upper bound of the ruin still to come from the alive law ``f``: its mass,
        with an edge at most mass x exp(-R (base + 1)), and ``closely`` (an exp per
        entry: now and then) sum_j f_j exp(-R (base + j + 1))."""
        mass = float(f.sum())
        if rate is None or mass == 0.0:
            return mass
        bound = mass * math.exp(-rate * (base + 1))
        if closely:
            with np.errstate(under="ignore"):
                weights = np.exp(-rate * (base + 1 + np.arange(len(f), dtype=float)))
            bound = float(np.dot(f, weights))
        return min(mass, bound)

    def kernel(self, k: int):
        """(offset, the law of the sum of k outcomes with tails of mass <= eps left out,
        the mass left out), built from the kernel of k / BRANCH."""
        if k not in self.kernels:
            off, part, lost = self.kernel(k // self.BRANCH)
            law, law_off, law_lost = part, off, lost
            for _ in range(self.BRANCH - 1):
                law = np.convolve(law, part)    # not by FFT: its noise would keep tails
                law_off += off
                law_lost += lost
            law, law_off, cut = _trim(np.clip(law, 0.0, None), law_off, self.eps)
            self.kernels[k] = (law_off, law, law_lost + cut)
        return self.kernels[k]

    def advance(self, f, base: int, k: int):
        if k <= self.FINEST:
            near = f
            if base > 0:                     # the kernel's index 0 is the barrier
                near = np.zeros(base + len(f))
                near[base:] = f
            law, ruined, dropped = self.killed_rounds(near, self.steps, self.probs, k,
                                                      self.eps)
            self.ruined += ruined
            law, off, cut = _trim(law, 0, self.eps)
            self.error += cut + dropped
            return law, off
        split = min(max(self.reach.index(k, self.eps) - base, 0), len(f))
        parts = []
        if split < len(f):
            far = f[split:]
            mass = float(far.sum())
            if mass > 0:
                off, law, lost = self.kernel(k)
                self.error += mass * (lost + self.reach.bound(k, base + split))
                parts.append((base + split + off, _convolve(far, law)))
        if split > 0:
            near, near_base = f[:split], base
            for _ in range(self.BRANCH):
                if not near.any():
                    break
                near, near_base = self.advance(near, near_base, k // self.BRANCH)
            parts.append((near_base, near))
        if not parts:
            return np.zeros(0), base
        low = min(b for b, _ in parts)
        new = np.zeros(max(b + len(g) for b, g in parts) - low)
        for b, g in parts:
            new[b - low:b - low + len(g)] += g
        if low < 0:                          # moved as a block to below 0: ruined
            self.ruined += float(new[:-low].sum())
            new, low = new[-low:], 0
        new, low, cut = _trim(new, low, self.eps)
        self.error += cut
        return new, low


class _Reach:
    """Doob's maximal inequality for the walk's lowest point, on a grid of t > 0: for
    each t, P(min_{n <= r} S_n <= -m) <= exp(r max(log M(t), 0) - t m), M(t) = E[exp(-t K)]
    (exp(-t S_n) is a sub- or supermartingale); the grid's best t bounds it."""

    def __init__(self, steps, probs):
        losses = -steps.astype(float)
        self.largest_loss = max(int(losses.max()), 0)
        self.t = np.geomspace(1e-4, 50.0, 400) / max(1.0, float(losses.max()))
        z = np.log(probs)[None, :] + self.t[:, None] * losses[None, :]
        top = z.max(axis=1)
        self.log_m = np.maximum(top + np.log(np.exp(z - top[:, None]).sum(axis=1)), 0.0)
        self._index: dict = {}

    def index(self, rounds: int, eps: float) -> int:
        """The lowest start index from which ruin within ``rounds`` has chance <= eps (at
        most rounds x the largest loss: nothing lower is out of reach)."""
        key = (rounds, eps)
        if key not in self._index:
            need = (rounds * self.log_m - math.log(eps)) / self.t
            doob = max(int(math.ceil(float(need.min()))) - 1, 0)
            self._index[key] = min(doob, rounds * self.largest_loss)
        return self._index[key]

    def bound(self, rounds: int, index: int) -> float:
        """P(ruin within ``rounds`` from ``index``) <= this (0 out of reach)."""
        if index + 1 > rounds * self.largest_loss:
            return 0.0
        return math.exp(min(0.0, float((rounds * self.log_m - self.t * (index + 1)).min())))


def _trim(a, offset: int, cut: float):
    """Drop the tails of ``a`` of mass <= cut at each end: (array, offset, mass dropped)."""
    if len(a) < 2 or (a[0] > cut and a[-1] > cut):      # nothing to drop (the usual case)
        return a, offset, 0.0
    low = np.cumsum(a)
    i = min(int(np.searchsorted(low, cut, side="right")), len(a) - 1)
    high = np.cumsum(a[::-1])
    j = min(int(np.searchsorted(high, cut, side="right")), len(a) - 1 - i)
    dropped = (float(low[i - 1]) if i else 0.0) + (float(high[j - 1]) if j else 0.0)
    return a[i:len(a) - j], offset + i, dropped


def _convolve(a, b):
    """a * b: directly when short, else by FFT (rounding ~1e-16 of the largest entry;
    the negative specks it leaves are set to 0)."""
    if len(a) * len(b) < 100_000 or min(len(a), len(b)) < 64:
        return np.convolve(a, b)
    n = len(a) + len(b) - 1
    size = 1 << (n - 1).bit_length()
    out = np.fft.irfft(np.fft.rfft(a, size) * np.fft.rfft(b, size), size)[:n]
    return np.clip(out, 0.0, None, out=out)


def _maximal_bound(steps, probs, loss: int, rounds: int) -> float:
    """An upper bound of P(min_{n <= rounds} S_n <= -loss) (S in lattice steps): for t > 0,
    exp(-t S_n) is a sub- or supermartingale, so by Doob's maximal inequality the
    probability is at most max(1, M(t))^rounds exp(-t loss), M(t) = E[exp(-t K)];
    minimised over t (the logarithm is convex in t: golden-section search)."""
    ks = -steps.astype(float)
    logp = np.log(probs)

    def log_bound(t):
        z = logp + t * ks
        top = float(z.max())
        log_m = top + math.log(float(np.exp(z - top).sum()))
        return rounds * max(log_m, 0.0) - t * loss

    a, b = 0.0, 50.0 / max(1.0, float(ks.max()))
    g = (math.sqrt(5.0) - 1.0) / 2.0
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = log_bound(c), log_bound(d)
    for _ in range(80):
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = log_bound(c)
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = log_bound(d)
    return math.exp(min(fc, fd, 0.0))


# ---- lifetime ruin -------------------------------------------------------------------------

# the largest coefficient the factorization may leave beyond degree d (its measured
# rounding floor: ~1e-14)
LADDER_TOLERANCE = 1e-13
MAX_GRID = 1 << 20          # the factorization's largest FFT grid
# The exact methods' reach (beyond it: Lundberg's bracket, with its width as error bound).
# The ladder heights take a d x d table and O(d^2 log B) per bankroll, d = the largest loss
# in lattice steps, and an FFT grid of at least 8 x the outcomes' span; the root method
# (the fallback) the eigenvalues of a companion matrix as large as the span.
MAX_LADDER_LOSS = 2048
MAX_LADDER_SPAN = MAX_GRID // 8
MAX_ROOT_SPAN = 1024
# psi(i) = C r^(i+1) once the other roots of E[w^K] = 1 have died out: used from about
# here on (in lattice steps), where the power sum's rounding would otherwise grow with i
ASYMPTOTE_START = 4096


@dataclass(frozen=True)
class LifetimeRuin:
    """P(ever ruined) from ``bankroll`` units.

    probability: exact (``RuinCurve``: a closed form when the largest loss is one lattice
        step, else the ladder heights, equal to the root method over all roots of
        E[w^K] = 1 inside the unit circle), to ``error_bound`` (0: exact to rounding; > 0
        only for laws beyond the exact methods' reach, ``method`` says so);
    dominant_root: r^(B/h) from the root r in (0, 1) closest to 1 (r = per-step root; per
        unit it is r^(1/h)), Lundberg's upper bound; normal: exp(-2 mu B / sigma^2).
    When the answer is certain (no losses: 0; E[X] <= 0: 1) all three are that value.
    """
    probability: float
    dominant_root_estimate: float
    normal: float
    root: float               # r per unit of bankroll: dominant estimate = root ** B
    bankroll: float
    error_bound: float = 0.0
    method: str = ""

    def _repr_html_(self):
        return lifetime_ruin_html(self)


def _phi2(x):
    """(e^x - 1 - x) / x^2 elementwise, without cancellation (1/2 at 0; inf past ~709)."""
    x = np.asarray(x, dtype=float)
    out = np.empty_like(x)
    small = np.abs(x) < 0.5
    xs = x[small]
    acc = np.zeros_like(xs)
    for n in range(17, -1, -1):          # sum_n x^n / (n + 2)!: 18 terms, < 1e-22 left
        acc = acc * xs + 1.0 / math.factorial(n + 2)
    out[small] = acc
    xl = x[~small]
    with np.errstate(over="ignore"):
        out[~small] = (np.expm1(xl) - xl) / (xl * xl)
    return out


def _adjustment_coefficient(steps, probs, mean: float) -> float:
    """R > 0 with E[exp(-R K)] = 1 (K in lattice steps, ``mean`` = E[K] > 0, some loss):
    the dominant root of E[w^K] = 1 is r = exp(-R) (Lundberg's adjustment coefficient).

    F(R) = E[expm1(-R K)] = R G(R), G(R) = R Q(R) - mean, Q(R) = E[K^2 phi2(-R K)] > 0,
    vanishes there; each value of F is taken from whichever of its two forms is the
    further from its rounding noise.  For a small edge that is R G: every term of Q has
    one sign and the mean is exact (``_Law``), so R keeps all its digits however small
    (Newton on w = e^-R, next to 1, keeps only the digits of 1 - w that a double holds:
    none for an edge of 1e-16).  Where R is not small and the mean is large beside the
    terms that fix R (a rare huge win), R G cancels and the plain sum does not.  G = F / R
    is increasing (the slope of a convex function's chord) from G(0) = -mean: the root is
    bracketed from the start, and false position with the Illinois halving (superlinear,
    ~10 steps) closes the bracket to the last bit."""
    if not mean >= 2.2250738585072014e-308:       # the edge underflowed to 0 or lost digits
        raise ValueError(f"dist: the edge, {mean:.3g} lattice steps a round, is too small "
                         f"for a float to carry (below 2.2e-308): its ruin figures are "
                         f"1 to float precision for any bankroll; give a law with a larger "
                         f"edge")
    ks = steps.astype(float)
    k2p = probs * ks * ks

    def chord(rate) -> float:            # G(rate); inf past the overflow of exp
        x = -rate * ks
        with np.errstate(over="ignore", invalid="ignore"):
            rq = rate * float(np.dot(k2p, _phi2(x)))
            terms = probs * np.expm1(x)
        if not math.isfinite(rq):
            return math.inf
        g, g_noise = rq - mean, rq + mean
        f, f_noise = float(terms.sum()), float(np.abs(terms).sum())
        if math.isfinite(f) and abs(f) * g_noise > abs(g) * f_noise:
            return f / rate
        return g

    lo, g_lo = 0.0, -mean
    hi = 2.0 * mean / float(k2p.sum())               # the diffusion value 2 mu / E[K^2]
    g_hi = chord(hi)
    while not g_hi > 0:
        lo, g_lo, hi = hi, g_hi, 2.0 * hi
        g_hi = chord(hi)
    kept = 0                             # which end stayed last time (Illinois)
    for _ in range(400):
        if math.isfinite(g_hi):
            mid = hi - g_hi * (hi - lo) / (g_hi - g_lo)
        else:
            mid = 0.5 * (lo + hi)
        if not lo < mid < hi:
            mid = 0.5 * (lo + hi)
            if not lo < mid < hi:
                break
        g = chord(mid)
        if g > 0:
            hi, g_hi = mid, g
            if kept == 1:
                g_lo *= 0.5
            kept = 1
        elif g < 0:
            lo, g_lo = mid, g
            if kept == -1:
                g_hi *= 0.5
            kept = -1
        else:
            return mid
    if lo == 0.0:
        return hi
    return lo if abs(chord(lo)) < abs(chord(hi)) else hi


class RuinCurve:
    """psi(B) = P(ever ruined from bankroll B) for one outcome law, at any bankroll.

    With X = K h (K integer lattice steps, divided by their gcd), d = the largest loss in
    steps and E[X] > 0, the adjustment coefficient R > 0 solves E[exp(-R K)] = 1 (r =
    exp(-R), the dominant root of E[w^K] = 1; ``_adjustment_coefficient``, exact to the
    last digits for any edge), and from lattice index i (i + 1 steps above ruin):

    * d = 1 (the walk cannot jump over a level on its way down): psi(i) = r^(i+1),
      exactly; any gains (a win of 10^6 units costs nothing more).
    * d <= MAX_LADDER_LOSS and a span of at most MAX_LADDER_SPAN steps: the ladder heights.
      M = -min_n S_n, the walk's all-time low, is a sum of *ladder heights*: each time the
      walk goes below its previous low it does so by k = 1 .. d steps with probability
      h_k, independently of the earlier descents (sum h_k = P(the walk ever goes below 0)
      < 1).  So psi(i) = P(M > i) obeys the renewal equation psi(i) = sum_k h_k psi(i - k)
      with psi = 1 below 0.  The h_k are the Wiener-Hopf factor of the step law:
      w^d (1 - H(1/w)) is the monic polynomial whose roots are the d roots |w| < 1 of
      E[w^K] = 1 (the root method's roots).  They come without root finding from the
      logarithm of R(w) / (w - r), R(w) = w^d (E[w^K] - 1) / (w - 1), on the unit circle
      (its cepstrum; the division by w - r is done on the coefficients, without
      cancellation next to r = 1, ``_deflated``): the negative-frequency half is
      log((1 - H(1/w)) / (1 - r / w)).  The grid doubles until the coefficients beyond
      degree d vanish to LADDER_TOLERANCE.  psi(i) is the sum of the coefficients of
      x^(i+d) mod chi(x), chi = x^d - sum_k h_k x^(d-k) (repeated squaring: sums of
      products of the h_k, nothing cancels), and from ASYMPTOTE_START steps on, once the
      other roots' terms have died out (checked), C r^(i+1) with C from the power sum
      (the power sum's rounding would move the root of chi by ~1e-16, i.e. psi by
      ~1e-16 x i relative: 0.1 at 10^15 steps).
    * Otherwise, or if the factorization does not converge on MAX_GRID points (other roots
      next to the unit circle: a law nearly confined to a coarser lattice), the root
      method (eigenvalues of the companion matrix, double precision) when the span is at
      most MAX_ROOT_SPAN and its figure lies within Lundberg's bracket; else Lundberg's
      bracket itself: r^(i+d) <= psi(i) <= r^(i+1) (e^(-R i) = E[e^(-R Y); ruin], Y the
      index at ruin, -d <= Y <= -1), its midpoint with its half-width as ``error_bound``
      (tight when R d is small).  ``method`` says which.

    Built once per law (milliseconds for blackjack and bet-ramp laws); a bankroll then
    costs O(d^2 log B) at most.
    """

    def __init__(self, dist):
        law = _law(dist)
        self.h = law.h
        self.g = 1
        self.trivial = None
        steps, probs = law.steps, law.probs
        if steps.min() >= 0 or law.mean <= 0:
            # no losses: never ruined; E[X] <= 0 and a loss: S_n falls below any level
            # (to -inf, or, with mean 0 and a loss, recurrently), ruin is certain
            self.trivial = 0.0 if steps.min() >= 0 else 1.0
            self.r = self.root = self.trivial
            self.rate = math.inf if self.trivial == 0.0 else 0.0
            self.method = ("no losses: never ruined" if self.trivial == 0.0 else
                           "E[X] <= 0: ruined for sure")
            return
        # a walk on multiples of g steps moves on a coarser lattice: work there
        self.g = int(np.gcd.reduce(steps))
        steps = steps // self.g
        self.losses = d = -int(steps.min())
        self.rate = _adjustment_coefficient(steps, probs, float(law.mean / self.g))
        self.r = math.exp(-self.rate)                            # per g steps
        self.root = math.exp(-self.rate / (self.h * self.g))     # per unit of bankroll
        self.ladder = self._roots = self._asymptote = None
        span = int(steps.max()) + d
        if d == 1:
            self.method = "closed form r^(i+1) (losses of one lattice step)"
            return
        if d <= MAX_LADDER_LOSS and span <= MAX_LADDER_SPAN:
            self.ladder = _ladder_heights(steps, probs, float(law.mean / self.g), self.rate)
        if self.ladder is not None:
            self.method = "ladder heights (Wiener-Hopf factor by FFT)"
            self._table = _reduction_table(self.ladder)
            self._asymptote = self._find_asymptote()
        elif span <= MAX_ROOT_SPAN:
            self.method = ("exact root method (eigenvalues: the factorization did not "
                           "converge), where it lies within Lundberg's bracket, else the "
                           "bracket's midpoint")
            self._roots = _root_method(steps, probs)
        else:
            self.method = self._bracket_method(d, span)

    @staticmethod
    def _bracket_method(d: int, span: int) -> str:
        return (f"Lundberg's bracket r^(i+d) <= psi <= r^(i+1), midpoint (largest loss d = "
                f"{d} steps, span {span} steps: beyond the exact methods' "
                f"d <= {MAX_LADDER_LOSS}, span <= {MAX_LADDER_SPAN})")

    def index(self, bankroll: float) -> int:
        """The start on the walk's lattice: ruined once below 0.  ``bankroll``: units,
        checked (a finite number > 0 and at most MAX_BANKROLL)."""
        i = _start_index(_check_bankroll(bankroll), self.h)
        return (i + self.g) // self.g - 1

    def evaluate(self, bankroll: float):
        """(P(ever ruined from ``bankroll`` units), its error bound)."""
        if self.trivial is not None:
            _check_bankroll(bankroll)
            return self.trivial, 0.0
        return self._at(self.index(bankroll))

    def _at(self, i: int):
        """(P(ever ruined from index i on the walk's lattice), its error bound)."""
        top = math.exp(-self.rate * (i + 1))                  # Lundberg: psi <= top
        if self.losses == 1:                                  # and the closed form
            return top, 0.0
        bottom = math.exp(-self.rate * (i + self.losses))     # and psi >= bottom
        if self.ladder is not None:
            return min(max(self._ladder_value(i), bottom), top), 0.0
        if self._roots is not None:
            psi = self._roots(i)
            slack = 1e-9 * top + 1e-15
            if bottom - slack <= psi <= top + slack:
                return min(max(psi, bottom), top), 0.0
        return 0.5 * (top + bottom), 0.5 * (top - bottom)

    def __call__(self, bankroll: float) -> float:
        """P(ever ruined from ``bankroll`` units)."""
        return self.evaluate(bankroll)[0]

    def dominant(self, bankroll: float) -> float:
        """The dominant root alone, r^(i+1) (r^(B/h)): Lundberg's upper bound."""
        if self.trivial is not None:
            _check_bankroll(bankroll)
            return self.trivial
        return math.exp(-self.rate * (self.index(bankroll) + 1))

    def _ladder_value(self, i: int) -> float:
        if self._asymptote is not None and i >= self._asymptote[0]:
            return self._asymptote[1] * math.exp(-self.rate * (i + 1))
        return _power_sum(self._table, i + len(self.ladder))

    def _find_asymptote(self):
        """(I, C) with psi(i) = C r^(i+1) for i >= I to ~1e-12 relative (C from the power
        sum at I, where it agrees with the power sum at I / 2), or None: not needed where
        r^i underflows first, or not found by 2^24 steps."""
        start = max(ASYMPTOTE_START, 16 * self.losses)
        if self.rate * start > 600.0:
            return None

        def scaled(i):
            return _power_sum(self._table, i + self.losses) * math.exp(self.rate * (i + 1))

        before, i = scaled(start), start
        while i < 1 << 24 and self.rate * 2 * i <= 600.0:
            i *= 2
            now = scaled(i)
            if abs(now - before) <= 1e-12 * now:
                return i, now
            before = now
        return None


def _deflated(steps, probs, mean: float, r: float, one_minus_r: float):
    """The coefficients of U(w) = R(w) / (w - r), R(w) = w^d (E[w^K] - 1) / (w - 1), for
    steps of mean > 0 and some loss, r the dominant root.

    R(1) = E[K] and R(w) = (w - 1) T(w) + E[K], T's coefficients t_j = sum_{m > j} R_m:
    for j >= d - 1 tail sums of P(K > .) (positive), for j < d - 1 E[K] plus sums of
    P(K <= .) (positive).  As E[K] = (1 - r) T(r),
    U(w) = T(w) - (1 - r) (T(w) - T(r)) / (w - r): T less a small multiple of the
    synthetic division's coefficients c_j = sum_{m > j} t_m r^(m-j-1) (positive).  No
    cancellation next to r = 1 (dividing R(z) by z - r on the grid would leave
    ~1e-16 / E[K] of relative error there: the whole figure for a tiny edge)."""
    lo, hi = int(steps.min()), int(steps.max())
    d = -lo
    p = np.zeros(hi - lo + 1)
    np.add.at(p, steps - lo, probs)
    below = np.cumsum(p[:d])                       # P(K <= j - d), j = 0 .. d - 1
    above = np.cumsum(p[::-1])[::-1][d + 1:]       # P(K > j - d), j = d .. d + hi - 1
    tail = np.cumsum(above[::-1])[::-1]            # t_j, j = d - 1 .. d + hi - 2
    head = mean + np.cumsum(below[:d - 1])         # t_j, j = 0 .. d - 2
    t = np.concatenate((head, tail))
    c = np.zeros(len(t))                           # c_j, j = 0 .. len(t) - 2 (c_last = 0)
    for j in range(len(t) - 2, -1, -1):
        c[j] = t[j + 1] + r * c[j + 1]
    return t - one_minus_r * c


def _ladder_heights(steps, probs, mean: float, rate: float):
    """h_1 .. h_d (see ``RuinCurve``) for steps of gcd 1, ``mean`` = E[K] > 0 and some
    loss, with r = exp(-rate) the dominant root; None if the factorization does not
    converge on MAX_GRID points."""
    d = -int(steps.min())
    r, one_minus_r = math.exp(-rate), -math.expm1(-rate)
    coeffs = _deflated(steps, probs, mean, r, one_minus_r)     # R(w) / (w - r)
    n = 1 << max(12, (8 * len(coeffs)).bit_length())
    while n <= MAX_GRID:
        theta = (2.0 * np.pi / n) * np.arange(n)               # z = exp(-i theta)
        f = np.fft.fft(coeffs, n) * np.exp(1j * (d - 1) * theta)   # R(z) z^-d / (1 - r/z)
        phase = np.unwrap(np.angle(f))
        cep = np.fft.ifft(np.log(np.abs(f)) + 1j * phase)
        half = np.zeros(n, dtype=complex)                      # log((1 - H(y)) / (1 - r y))
        k = np.arange(1, n // 2)
        half[k] = cep[n - k]
        rest = np.fft.ifft(np.exp(np.fft.fft(half))).real      # (1 - H(y)) / (1 - r y)
        # times (1 - r y), the whole series: exact whatever r's last digits (r is known to
        # ~1e-16 / E[K]; the series (1 - H) / (1 - r y) then has a tiny tail)
        one_minus_h = rest[:n // 2].copy()
        one_minus_h[1:] -= r * rest[:n // 2 - 1]
        spill = float(np.abs(one_minus_h[d + 1:]).max())       # a polynomial of degree d
        if spill < LADDER_TOLERANCE and abs(phase[-1] - phase[0]) < 1.0:
            h = np.clip(-one_minus_h[1:d + 1] / one_minus_h[0], 0.0, None)
            # 1 - H(1) = P(the walk never goes below 0) is small (~1e-3 for a ramp) and the
            # ruin is proportional to it, but 1 - sum(h) loses ~1e-13 to the rounding of
            # the transforms (a 5e-10 relative error, measured against 50-digit roots).
            # It is known far better as (1 - r) x rest(1), rest(1) = exp(the cepstrum's
            # sum); the h are nudged (relative changes ~1e-13) to that sum while keeping
            # sum h_k r^-k = 1, the equation of the dominant root
            deficit = one_minus_r * math.exp(float(half.real[1:n // 2].sum()))
            return _nudge(h, 1.0 - deficit, 1.0 / r)
        n *= 2
    return None


def _nudge(h, total, x):
    """h_k (1 + a + b k / d) with sum = ``total`` and sum h_k x^k = 1 (a 2 x 2 solve)."""
    d = len(h)
    k = np.arange(1, d + 1, dtype=float)
    xk = x ** k
    rows = np.array([[h.sum(), (h * k).sum() / d], [h @ xk, (h * k) @ xk / d]])
    need = np.array([total - h.sum(), 1.0 - h @ xk])
    try:
        a, b = np.linalg.solve(rows, need)
    except np.linalg.LinAlgError:
        return h
    if not (abs(a) < 1e-6 and abs(b) < 1e-6):          # a correction, not a new law
        return h
    return np.clip(h * (1.0 + a + b * k / d), 0.0, None)


def _reduction_table(h):
    """Row t: the coefficients of x^(d+t) mod chi(x), chi = x^d - sum_k h_k x^(d-k)."""
    d = len(h)
    table = np.empty((d, d))
    table[0] = h[::-1]                   # x^d = sum_k h_k x^(d-k)
    for t in range(1, d):
        table[t, 0] = 0.0
        table[t, 1:] = table[t - 1, :-1]
        table[t] += table[t - 1, -1] * table[0]
    return table


def _power_sum(table, m: int) -> float:
    """The sum of the coefficients of x^m mod chi (``_reduction_table``)."""
    d = len(table)
    if m < d:
        return 1.0
    poly = np.zeros(d)
    poly[0] = 1.0
    for bit in bin(m)[2:]:
        square = np.convolve(poly, poly)                       # degree <= 2d - 2
        poly = square[:d] + square[d:] @ table[:d - 1]
        if bit == "1":                                         # times x
            top = poly[-1]
            poly = np.concatenate(([0.0], poly[:-1])) + top * table[0]
    return float(poly.sum())


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


def _root_method(steps, probs):
    """psi(i) = sum_j c_j w_j^i over the roots |w_j| < 1 of E[w^K] = 1, the c_j from psi = 1
    on the d states below the barrier (the classic "exact root method"; O(d^3)).  Returns
    a function of i giving nan where the root system fails."""
    # (lazy: threadpoolctl loads only for the root method)
    from threadpoolctl import threadpool_limits
    # one BLAS thread: the O(d^3) eigenvalue and linear solves of a wide law (d ~ 1,000)
    # take 2-3 s on one thread, and 7-27 s of CPU when OpenBLAS's threads spin against
    # other work on a busy machine
    with threadpool_limits(limits=1, user_api="blas"):
        d, roots = _characteristic_roots(steps, probs)
        coef = None
        if len(roots) == d:
            js = -np.arange(1, d + 1)
            try:
                coef = np.linalg.solve(roots[np.newaxis, :] ** js[:, np.newaxis],
                                       np.ones(d, dtype=complex))
            except np.linalg.LinAlgError:
                coef = None

    def psi(i: int) -> float:
        if coef is None:
            return math.nan
        with np.errstate(all="ignore"):
            return float(np.real(np.dot(coef, roots ** float(i))))
    return psi


def lifetime_ruin(dist, bankroll, *, curve: RuinCurve | None = None) -> LifetimeRuin:
    """Probability of ever losing ``bankroll`` units, playing forever (flat bets).
    ``curve``: a ``RuinCurve`` of ``dist`` already built (it is reused).  Exact (see
    ``RuinCurve`` for the methods) but for ``error_bound``, which is 0 except for laws
    beyond the exact methods' reach (a largest loss of more than MAX_LADDER_LOSS lattice
    steps, or a span of more than MAX_LADDER_SPAN): there Lundberg's bracket."""
    bankroll = _check_bankroll(bankroll)
    curve = RuinCurve(dist) if curve is None else curve
    if curve.trivial is not None:
        one = curve.trivial
        return LifetimeRuin(one, one, one, one, bankroll, 0.0, curve.method)
    mean, var = _moments(dist)
    normal = _normal_ruin(mean, var, bankroll)
    exact, error = curve.evaluate(bankroll)
    return LifetimeRuin(exact, curve.dominant(bankroll), normal, curve.root, bankroll, error,
                        curve.method)


def _normal_ruin(mean: float, var: float, bankroll: float) -> float:
    """The diffusion approximation exp(-2 mu B / sigma^2): 1 without an edge."""
    if mean <= 0:
        return 1.0
    if var <= 0:
        return 0.0
    return min(1.0, math.exp(-2.0 * mean * bankroll / var))


def bankroll_for_risk(dist, risk, *, curve: RuinCurve | None = None) -> float:
    """The smallest bankroll (units, on the outcome lattice) whose lifetime ruin
    probability is at most ``risk``; the lattice step when the law has no losses; inf
    when E[X] <= 0 (no bankroll is enough), and inf too when the bankroll needed is beyond
    MAX_BANKROLL units (an edge so small beside the spread that no bankroll a float
    counts is enough).  Where ``lifetime_ruin`` has an error bound (Lundberg's bracket),
    the bracket's upper end is held to ``risk``: the bankroll is then safe, but may be up
    to d - 1 lattice steps more than the smallest.  ``curve``: a ``RuinCurve`` of
    ``dist`` already built (it is reused)."""
    risk = _check_risk(risk)
    curve = RuinCurve(dist) if curve is None else curve
    step = Fraction(curve.h).limit_denominator(MAX_DENOMINATOR) * curve.g
    if curve.trivial is not None:
        return math.inf if curve.trivial == 1.0 else float(step / curve.g)

    def bankroll(j) -> Fraction:   # the smallest on the outcome lattice with index j
        return (j * curve.g + 1) * step / curve.g

    def ruin(j):                   # on the walk's lattice: index j is (j + 1) g steps
        psi, error = curve._at(j)
        return psi + error

    # Lundberg's bracket r^(j+d) <= psi(j) <= r^(j+1) brackets the answer within d
    # indices of the dominant root's; one more on each side for the rounding of exp
    need = -math.log(risk) / curve.rate
    if not need * float(step) <= 2.0 * MAX_BANKROLL:        # (also inf and NaN)
        return math.inf
    hi = max(math.ceil(need), 1)
    lo = max(math.floor(need) - curve.losses - 1, 0)
    if bankroll(lo) > MAX_BANKROLL:
        return math.inf
    while ruin(hi) > risk:
        hi = 2 * hi
    if lo and ruin(lo) <= risk:
        lo = 0
    while lo < hi:                           # the smallest j with ruin(j) <= risk
        mid = (lo + hi) // 2
        if ruin(mid) <= risk:
            hi = mid
        else:
            lo = mid + 1
    found = bankroll(lo)
    return math.inf if found > MAX_BANKROLL else float(found)


# ---- the summary ---------------------------------------------------------------------------

@dataclass(frozen=True)
class RiskSummary:
    """Per-round figures of a flat bet of one unit (see docs/risk.md for each formula);
    amounts in units, and with ``unit`` (money per unit) ``money()`` gives them in money."""
    ev: float                 # E[X] per round
    sd: float                 # SD[X] per round
    ev_per_100: float         # 100 E[X]
    sd_per_100: float         # 10 SD[X] (sqrt(100) rounds)
    n0: float                 # (SD / EV)^2: rounds for the EV to equal one SD
    di: float                 # desirability index 1000 EV / SD
    score: float              # DI^2 = 10^6 EV^2 / Var: win per 100 rounds, Kelly bets, 10,000
                              # units (0 when EV <= 0: the Kelly bet is then nothing)
    bankroll: float | None = None
    trip_rounds: int | None = None
    trip_ruin: float | None = None
    lifetime_ruin: float | None = None
    lifetime_ruin_dominant_root: float | None = None
    lifetime_ruin_normal: float | None = None
    bankroll_for_1pct: float | None = None
    bankroll_for_5pct: float | None = None
    bankroll_for_13_5pct: float | None = None
    target_ror: float | None = None
    bankroll_for_target: float | None = None
    unit: float | None = None

    # the rows of ``rows`` that are amounts (units; money with a unit)
    _AMOUNTS = ("EV per round", "SD per round", "EV per 100 rounds", "SD per 100 rounds",
                "bankroll (units)", "bankroll for 1% lifetime ruin",
                "bankroll for 5% lifetime ruin", "bankroll for 13.5% lifetime ruin")

    def rows(self):
        """[(label, value)] in print order (None left out)."""
        names = [("EV per round", self.ev), ("SD per round", self.sd),
                 ("EV per 100 rounds", self.ev_per_100), ("SD per 100 rounds", self.sd_per_100),
                 ("N0 = (SD/EV)^2 (rounds)", self.n0), ("DI = 1000 EV/SD", self.di),
                 ("SCORE = DI^2", self.score), ("bankroll (units)", self.bankroll),
                 ("trip rounds", self.trip_rounds), ("trip ruin", self.trip_ruin),
                 ("lifetime ruin (exact)", self.lifetime_ruin),
                 ("lifetime ruin (dominant root)", self.lifetime_ruin_dominant_root),
                 ("lifetime ruin (normal approx.)", self.lifetime_ruin_normal),
                 ("bankroll for 1% lifetime ruin", self.bankroll_for_1pct),
                 ("bankroll for 5% lifetime ruin", self.bankroll_for_5pct),
                 ("bankroll for 13.5% lifetime ruin", self.bankroll_for_13_5pct),
                 (self.target_label(), self.bankroll_for_target)]
        return [(k, v) for k, v in names if v is not None]

    def target_label(self) -> str:
        return f"bankroll for {100 * (self.target_ror or 0):.4g}% lifetime ruin (target)"

    def to_pandas(self):
        """The figures of ``rows`` (index: figure; column value).  Needs pandas."""
        return risk_summary_frame(self)

    def _repr_html_(self):
        return risk_summary_html(self)

    def money(self) -> dict:
        """{row label: amount in money} of the rows that are amounts (empty without a
        unit)."""
        if self.unit is None:
            return {}
        amounts = self._AMOUNTS + (self.target_label(),)
        return {k: v * self.unit for k, v in self.rows() if k in amounts}


def risk_summary(dist, bankroll=None, trip_rounds=None, *, target_ror=None,
                 unit=None) -> RiskSummary:
    """SD per round and per 100, N0, DI, SCORE; with ``bankroll`` (units) the lifetime ruin
    (three ways) and with ``trip_rounds`` too the trip ruin; bankrolls for 1%, 5% and
    13.5% lifetime ruin unless ruin is certain (E[X] <= 0), and with ``target_ror`` the
    bankroll for that risk; ``unit``: money per unit, for ``RiskSummary.money``.  A law
    with no spread (SD 0) has N0 = 0 and DI = +-inf; a law whose every outcome is 0 is
    refused (nothing can happen)."""
    if bankroll is not None:
        bankroll = _check_bankroll(bankroll)
    rounds = trip_rounds
    if rounds is not None:
        if bankroll is None:
            raise ValueError("trip_rounds needs a bankroll (the trip ruin is P(losing the "
                             "bankroll within that many rounds))")
        rounds = _check_rounds(rounds)
    if target_ror is not None:
        target_ror = _check_risk(target_ror, "target_ror")
    if unit is not None:
        unit = _number(unit, "unit", "a positive number (money per unit)")
        if not unit > 0 or not math.isfinite(unit):
            raise ValueError(f"unit must be a positive number (money per unit), got "
                             f"{_show(unit)}")
    # the lifetime ruin's curve, built once for every bankroll asked about (it checks the
    # law, refusing one that never moves)
    curve = RuinCurve(dist)
    mean, var = _moments(dist)
    sd = math.sqrt(max(var, 0.0))
    n0 = (sd / mean) ** 2 if mean != 0 else math.inf
    di = 1000.0 * mean / sd if sd > 0 else math.copysign(math.inf, mean)
    fields = dict(ev=mean, sd=sd, ev_per_100=100 * mean, sd_per_100=10 * sd, n0=n0, di=di,
                  # a Kelly bettor stakes nothing without an edge: SCORE is 0, not DI^2
                  score=di * di if mean > 0 else 0.0)
    if bankroll is not None:
        fields["bankroll"] = bankroll
        life = lifetime_ruin(dist, bankroll, curve=curve)
        fields.update(lifetime_ruin=life.probability,
                      lifetime_ruin_dominant_root=life.dominant_root_estimate,
                      lifetime_ruin_normal=life.normal)
        if rounds is not None:
            fields["trip_rounds"] = rounds
            fields["trip_ruin"] = trip_ruin(dist, bankroll, rounds).probability
    if curve.trivial != 1.0:
        fields.update(bankroll_for_1pct=bankroll_for_risk(dist, 0.01, curve=curve),
                      bankroll_for_5pct=bankroll_for_risk(dist, 0.05, curve=curve),
                      bankroll_for_13_5pct=bankroll_for_risk(dist, 0.135, curve=curve))
    if target_ror is not None:
        fields["target_ror"] = target_ror
        if curve.trivial != 1.0:      # (as the fixed targets: left out when ruin is sure)
            fields["bankroll_for_target"] = bankroll_for_risk(dist, target_ror, curve=curve)
    return RiskSummary(**fields, unit=unit)
