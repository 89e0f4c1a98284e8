"""Risk of ruin and the standard bankroll figures from a round's outcome distribution.

Every function takes any object with ``.values`` (net outcomes per round, in units) and
``.probabilities`` on a common lattice (multiples of 1/2 for a blackjack round; any step
1/q with q <= 100 is accepted, e.g. a 6:5 natural on tenths), such as an
``OutcomeDistribution`` or a bet-ramp mixture.  Flat betting: one round is one draw of X.
The mean and SD figures (and the normal approximation) take a law's own ``.mean`` and
``.variance`` when it has them (an ``OutcomeDistribution``'s variance is its best figure:
exact for resplits even where its pmf combines split hands approximately, see its
``variance_exact``), else the pmf's; the ruin figures use the pmf as it is.

Conventions (docs/risk.md names every formula):

* bankroll B > 0 units; the player is *ruined* when the bankroll falls to 0 or below,
  i.e. at the first n with B + S_n <= 0, S_n = X_1 + ... + X_n.
* trip ruin: P(ruined within N rounds), by dynamic programming on the lattice (exact
  but for a bounded and reported error, below 1e-15 by default: tails cut and mass moved
  in blocks of rounds where Doob's inequality keeps it away from the barrier);
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
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

MAX_DENOMINATOR = 100       # lattice steps 1/q, q <= 100
LATTICE_TOLERANCE = 1e-9
TRIP_TOLERANCE = 1e-15      # trip ruin: the largest mass allowed to leave the window


# ---- input -------------------------------------------------------------------------------

def _arrays(dist):
    if isinstance(dist, Mapping):     # a pmf {net outcome: probability}
        values, probs = list(dist.keys()), list(dist.values())
    elif hasattr(dist, "values") and hasattr(dist, "probabilities"):
        values, probs = dist.values, dist.probabilities
    else:
        raise TypeError("dist must be an OutcomeDistribution (Solution.outcome_distribution), "
                        "an object with .values and .probabilities, or a mapping {outcome: "
                        f"probability}}, got {type(dist).__name__}")
    try:
        values = np.asarray(values, dtype=float)
        probs = np.asarray(probs, dtype=float)
    except (TypeError, ValueError):
        raise TypeError("dist: the outcomes and probabilities must be numbers") from None
    if values.ndim != 1 or values.shape != probs.shape or len(values) == 0:
        raise ValueError("dist: values and probabilities must be 1-D arrays of one length "
                         f"(got shapes {values.shape} and {probs.shape})")
    if not (np.all(np.isfinite(values)) and np.all(np.isfinite(probs))):
        raise ValueError("dist: values and probabilities must be finite")
    if np.any(probs < -1e-15):
        raise ValueError(f"dist: probabilities must be non-negative, got {probs.min():.3g}")
    total = probs.sum()
    if abs(total - 1.0) > 1e-9:
        raise ValueError(f"dist: probabilities must sum to 1, got {float(total)!r}")
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
    """(mean, variance) of one round's result X.  A law that states its own moments is
    taken at its word: an ``OutcomeDistribution`` decides which variance is its best (the
    exact one where its pmf combines resplit hands, each spot's exact one with several
    spots; ``bjsolve.distribution``), in one place.  Any other law (a bet ramp's mixture)
    gives the moments of its pmf."""
    values, probs = _arrays(dist)
    mean = getattr(dist, "mean", None)
    variance = getattr(dist, "variance", None)
    if mean is not None and variance is not None:
        return float(mean), float(variance)
    mean = float(np.dot(values, probs))
    return mean, float(np.dot(probs, (values - mean) ** 2))


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
    """Probability of losing ``bankroll`` units within ``rounds`` rounds: the law of the
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
    reach in that many rounds), 0 with that bound, at once."""
    bankroll = _check_bankroll(bankroll)
    rounds = _check_rounds(rounds)
    h, steps, probs = lattice(dist)
    lo = int(steps.min())
    start = _start_index(bankroll, h)
    if lo >= 0 or start + 1 > rounds * -lo:              # that much cannot be lost
        return TripRuin(0.0, bankroll, rounds, 0.0)
    bound = _maximal_bound(steps, probs, start + 1, rounds)
    if bound <= tolerance:
        return TripRuin(0.0, bankroll, rounds, bound)
    walk = _TripWalk(steps, probs, tolerance / (8.0 * rounds))
    ruined, error = walk.run(start, rounds)
    return TripRuin(min(1.0, ruined), bankroll, rounds, float(error))


class _TripWalk:
    """The trip-ruin recursion, fast: ``advance(f, base, k)`` moves the law ``f`` of the
    alive bankrolls (``f[0]`` at lattice index ``base``; ruin below index 0) ``k`` rounds.

    * Mass at index >= ``reach(k)`` reaches the barrier within k rounds with chance <= eps
      (Doob's maximal inequality, ``_Reach``): it moves as a block, one convolution with
      the law of the sum of k outcomes (FFT for long vectors), and mass times that chance
      goes into the error bound.
    * Mass below ``reach(k)`` moves k / BRANCH rounds at a time, the same way, down to
      blocks of FINEST rounds, which run round by round with the barrier in the compiled
      kernel (``bjcore._ruin.killed_rounds``).
    * Tails of mass <= eps are cut at each step (counted); after each top-level block,
      bankrolls too high to be ruined in the rounds left are dropped (counted: their mass
      times the Doob bound).

    Cost: the strip next to the barrier is a few standard deviations of a FINEST-round
    block wide and runs round by round; everything else costs a few FFTs per block.
    """

    BRANCH = 4            # a block of k rounds near the barrier is BRANCH blocks of k/BRANCH
    FINEST = 16           # blocks of at most this many rounds run round by round
    LARGEST = 4 ** 6      # the longest block moved at once

    def __init__(self, steps, probs, eps: float):
        from bjcore._ruin import killed_rounds
        self.killed_rounds = killed_rounds
        self.steps, self.probs, self.eps = steps, probs, eps
        self.reach = _Reach(steps, probs)
        lo = int(steps.min())
        step_law = np.zeros(int(steps.max()) - lo + 1)
        step_law[steps - lo] = probs
        self.kernels = {1: (lo, step_law, 0.0)}
        self.ruined = 0.0
        self.error = 0.0

    def run(self, start: int, rounds: int):
        f, base, done = np.ones(1), start, 0
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
        return self.ruined, self.error

    def kernel(self, k: int):
        """(offset, the law of the sum of k outcomes with tails of mass <= eps left out,
        the mass left out), built from the kernel of k / BRANCH."""
        if k not in self.kernels:
            off, part, lost = self.kernel(k // self.BRANCH)
            law, law_off, law_lost = part, off, lost
            for _ in range(self.BRANCH - 1):
                law = np.convolve(law, part)
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
    if len(a) < 2:
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


@dataclass(frozen=True)
class LifetimeRuin:
    """P(ever ruined) from ``bankroll`` units.

    probability: exact (the ladder-height method of ``RuinCurve``; equal to the root method
        over all roots of E[w^K] = 1 inside the unit circle);
    dominant_root: r^(B/h) from the root r in (0, 1) closest to 1 (r = per-step root; per
        unit it is r^(1/h)); normal: exp(-2 mu B / sigma^2).
    """
    probability: float
    dominant_root_estimate: float
    normal: float
    root: float               # r per unit of bankroll: dominant estimate = root ** B
    bankroll: float


class RuinCurve:
    """psi(B) = P(ever ruined from bankroll B) for one outcome law, at any bankroll.

    Built once per law (milliseconds: FFTs of a few thousand points; no eigenvalues, no
    BLAS); each bankroll then costs O(d^2 log B), d = the largest loss in lattice steps.

    * M = -min_n S_n (S_0 = 0), the walk's all-time low, is a sum of *ladder heights*: each
      time the walk goes below its previous low it does so by k = 1 .. d steps with
      probability h_k, independently of the earlier descents (sum h_k = P(the walk ever
      goes below 0) < 1 when E[X] > 0).  So psi(i) = P(M > i) obeys the renewal equation
      psi(i) = sum_k h_k psi(i - k) with psi = 1 below 0 (i: the start's lattice index).
    * The h_k are the Wiener-Hopf factor of the step law: w^d (1 - H(1/w)) is the monic
      polynomial whose roots are the d roots |w| < 1 of E[w^K] = 1 (the root method's
      roots).  They come without root finding from the logarithm of
      R(w) = w^d (E[w^K] - 1) / (w - 1) on the unit circle (its cepstrum): the
      negative-frequency half is log(1 - H(1/w)).  The dominant root r (near 1; bisection,
      then Newton in extended precision) is divided out first so the cepstrum decays as
      the other roots do and a short grid is exact to rounding; the grid doubles until the
      coefficients beyond degree d vanish to LADDER_TOLERANCE.  1 - H(1), which the ruin
      is proportional to, is pinned to its accurate value (``_ladder_heights``).
    * psi(i) is the sum of the coefficients of x^(i+d) mod chi(x), chi = x^d - sum_k h_k
      x^(d-k) (repeated squaring): every number there is a sum of products of the h_k, so
      nothing cancels.

    If the factorization does not converge on MAX_GRID points (other roots of E[w^K] = 1
    next to the unit circle: a law nearly confined to a coarser lattice, or an edge next to
    nothing; blackjack ramp laws have their next roots near 0.94 and 1.06), the root method
    (eigenvalues of the companion matrix, in double precision) is used; ``method`` says
    which.  The grid, hence the time, also grows as those roots approach the circle.
    """

    def __init__(self, dist):
        self.h, steps, probs = lattice(dist)
        mean = float(np.dot(steps, probs)) * self.h
        self.trivial = None
        self.method = "ladder heights (Wiener-Hopf factor by FFT)"
        self.g = 1
        if mean <= 0 or steps.min() >= 0:
            self.trivial = 1.0 if mean <= 0 else 0.0
            self.r = self.root = self.trivial
            return
        # a walk on multiples of g steps moves on a coarser lattice: work there
        self.g = int(np.gcd.reduce(steps))
        steps = steps // self.g
        self.r = _dominant_root(steps, probs)               # per g steps
        self.ladder = _ladder_heights(steps, probs, self.r)
        self.root = self.r ** (1.0 / (self.h * self.g))      # per unit of bankroll
        if self.ladder is not None:
            self._table = _reduction_table(self.ladder)
        else:
            self.method = "exact root method (eigenvalues: the factorization did not converge)"
            self._roots = _root_method(steps, probs)

    def index(self, bankroll: float) -> int:
        """The start on the walk's lattice: ruined once below 0."""
        i = _start_index(bankroll, self.h)
        return (i + self.g) // self.g - 1

    def __call__(self, bankroll: float) -> float:
        """P(ever ruined from ``bankroll`` units)."""
        if self.trivial is not None:
            return self.trivial
        i = self.index(bankroll)
        if self.ladder is not None:
            psi = _power_sum(self._table, i + len(self.ladder))
        else:
            psi = self._roots(i)
        return min(max(psi, 0.0), 1.0)

    def dominant(self, bankroll: float) -> float:
        """The dominant root alone, r^(i+1) (r^(B/h))."""
        if self.trivial is not None:
            return self.trivial
        return self.r ** (self.index(bankroll) + 1)


def _dominant_root(steps, probs):
    """The real root r in (0, 1) of E[r^K] = 1 (mean > 0, some loss): bisection, then
    Newton in extended precision.

    The slope of E[w^K] - 1 at r is about the mean in steps (1e-3 for a bet ramp), so in
    double precision r is only known to ~1e-16 / mean ~ 1e-13, and the ruin at a bankroll
    of i steps moves by ~ i x psi x that (1e-10 at 2,000 steps: measured); np.longdouble
    (80-bit on x86-64; plain double elsewhere) gives r to the last bit of a double."""
    ks = steps.astype(float)

    def f(w):
        return float(np.dot(probs, w ** ks)) - 1.0

    # f > 0 near 0 (there are losses), f < 0 on (r, 1), f(1) = 0
    a, b = 1e-12, 1.0 - 1e-15
    while f(b) >= 0 and b > 0.5:      # f'(1) = mean is small: f < 0 starts further left
        b = 1.0 - (1.0 - b) * 2
    for _ in range(200):
        m = 0.5 * (a + b)
        if f(m) > 0:
            a = m
        else:
            b = m
        if b - a < 1e-15:
            break
    kl = steps.astype(np.longdouble)
    pl = probs.astype(np.longdouble)
    w = np.longdouble(0.5 * (a + b))
    for _ in range(20):
        powers = w ** (kl - 1)
        slope = np.sum(pl * kl * powers)
        if not slope < 0:
            break
        step = (np.sum(pl * powers * w) - 1) / slope
        w -= step
        if abs(step) < 1e-20:
            break
    r = float(w)
    return r if 0.0 < r < 1.0 else 0.5 * (a + b)


def _ladder_heights(steps, probs, r):
    """h_1 .. h_d (see ``RuinCurve``) for steps of gcd 1, mean > 0 and some loss, with r
    the dominant root; None if the factorization does not converge on MAX_GRID points."""
    lo, hi = int(steps.min()), int(steps.max())
    d = -lo
    p = np.zeros(hi - lo + 1)
    np.add.at(p, steps - lo, probs)
    # R_j = -P(K <= j - d) for j < d, P(K > j - d) for j >= d: tail sums, no cancellation
    coeffs = np.concatenate((-np.cumsum(p[:d]), np.cumsum(p[::-1])[::-1][d + 1:]))
    n = 1 << max(12, (8 * len(coeffs)).bit_length())
    while n <= MAX_GRID:
        theta = (2.0 * np.pi / n) * np.arange(n)
        z = np.exp(-1j * theta)                                # the FFT's points
        f = np.fft.fft(coeffs, n) * np.exp(1j * d * theta)     # R(z) z^-d
        f /= 1.0 - r / z                                       # the dominant root out
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
            deficit = (1.0 - r) * math.exp(float(half.real[1:n // 2].sum()))
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
            return float(np.real(np.dot(coef, roots ** i)))
    return psi


def lifetime_ruin(dist, bankroll, *, curve: RuinCurve | None = None) -> LifetimeRuin:
    """Probability of ever losing ``bankroll`` units, playing forever (flat bets).
    ``curve``: a ``RuinCurve`` of ``dist`` already built (it is reused)."""
    bankroll = _check_bankroll(bankroll)
    mean, var = _moments(dist)
    curve = RuinCurve(dist) if curve is None else curve
    if curve.trivial is not None:
        one = curve.trivial
        return LifetimeRuin(one, one, one, one, bankroll)
    normal = math.exp(-2.0 * mean * bankroll / var) if var > 0 else 0.0
    exact = curve(bankroll)
    if not math.isfinite(exact):
        # the root system failed numerically: the dynamic programme to a long horizon
        exact = trip_ruin(dist, bankroll, 200_000).probability
    return LifetimeRuin(exact, curve.dominant(bankroll), normal, curve.root, bankroll)


def bankroll_for_risk(dist, risk, *, curve: RuinCurve | None = None) -> float:
    """The smallest bankroll (units, on the outcome lattice) whose lifetime ruin
    probability is at most ``risk``; inf when E[X] <= 0.  ``curve``: a ``RuinCurve`` of
    ``dist`` already built (it is reused)."""
    risk = _check_risk(risk)
    mean, _ = _moments(dist)
    if mean <= 0:
        return math.inf
    curve = RuinCurve(dist) if curve is None else curve
    h = curve.h
    guess = max(1, int(math.log(risk) / math.log(curve.root) / h))     # lattice steps
    lo, hi = 1, max(2, guess)
    while curve(hi * h) > risk:
        lo, hi = hi, hi * 2
    while lo < hi:                                       # smallest n with psi(n h) <= risk
        mid = (lo + hi) // 2
        if curve(mid * h) <= risk:
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
    score: float              # DI^2 = 10^6 EV^2 / Var: win per 100 rounds, Kelly bets, 10,000
                              # units (0 when EV <= 0: the Kelly bet is then nothing)
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
                 ("lifetime ruin (exact)", self.lifetime_ruin),
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
                  # a Kelly bettor stakes nothing without an edge: SCORE is 0, not DI^2
                  score=(di * di if mean > 0 else 0.0) if math.isfinite(di) else math.nan)
    if bankroll is not None:
        fields["bankroll"] = _check_bankroll(bankroll)
    elif rounds is not None:
        raise ValueError("rounds needs a bankroll (the trip ruin is P(losing the bankroll "
                         "within that many rounds))")
    # the lifetime ruin's curve, built once for every bankroll asked about (with an edge)
    curve = RuinCurve(dist) if mean > 0 else None
    if bankroll is not None:
        life = lifetime_ruin(dist, bankroll, curve=curve)
        fields.update(lifetime_ruin=life.probability,
                      lifetime_ruin_dominant_root=life.dominant_root_estimate,
                      lifetime_ruin_normal=life.normal)
        if rounds is not None:
            fields["rounds"] = _check_rounds(rounds)
            fields["trip_ruin"] = trip_ruin(dist, bankroll, rounds).probability
    if mean > 0:
        fields.update(bankroll_for_1pct=bankroll_for_risk(dist, 0.01, curve=curve),
                      bankroll_for_5pct=bankroll_for_risk(dist, 0.05, curve=curve),
                      bankroll_for_13_5pct=bankroll_for_risk(dist, 0.135, curve=curve))
    return RiskSummary(**fields)
