"""Where rounds start, and the running count there: a forward recursion over the shoe.

The state at the start of a round is (n, r): n cards seen since the shuffle (the burn card
is not seen), running count r.  A round started in state (n, r) uses L cards whose tags sum
to D, with the joint law J(L, D | composition) of the infinite-deck round model
(``round_model.round_cards_law``) at the expected remaining composition given (n, r): the
exact conditional expectation of the cards seen per tag class
(``CountDistribution.class_means``), each class's cards in the full shoe's proportions.
The next round starts in state (n + L, r + D) if fewer than ``cut`` cards are dealt by then
(burn card included), else the shoe is shuffled.  So

    w(0, 0) = 1,    w(n', r') = sum over (n, r) of w(n, r) J(n' - n, r' - r | n, r),

w(n, r) being the expected number of rounds per shoe that start in state (n, r).  The law
of the true count at round starts is w normalised.  What this captures that a renewal with
one law of L does not: a round's length and its count are correlated (a dealer natural is a
short round with a ten and an ace; small cards make long rounds), and the composition left
(the count) changes both.

Where it approximates:

* within a round cards are dealt with replacement at the round's starting composition (the
  round model is an infinite-deck model); the composition changes from round to round;
* given (n, r) the composition is taken at its expected value (for Hi-Lo the tag classes
  are 3, so one degree of freedom, the number of neutral cards seen, is averaged);
* J at a composition is the second-order Taylor expansion of J in the tag-class shares
  around the full shoe's (central differences of step ``STEP``; for more than 4 classes
  the mixed second derivatives are left out);
* the round model plays no resplits (a split hand that draws its pair card plays it as a
  total) and decides by total.

The benchmark (benchmarks/bench_game.py) measures the result against the shoe simulation.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from .count_distribution import CountDistribution
from .counting import count_tags
from .round_model import round_cards_law

STEP = 0.04          # finite-difference step in the tag-class shares


@dataclass
class RoundStarts:
    """``weight[n, j]``: expected round starts per shoe with n cards seen and running count
    ``count.running_counts[j]``; ``full_shoe_law``: the joint law of a round's cards and
    tag sum at the full shoe (``round_model.RoundCardsLaw``); ``evaluations``: round-model
    evaluations used for the Taylor expansion."""
    weight: np.ndarray
    full_shoe_law: object
    evaluations: int

    @property
    def rounds_per_shoe(self) -> float:
        return float(self.weight.sum())


def _rank_steps(system, scale: int) -> list:
    return [int(round(t * scale)) for t in count_tags(system)]


def _probabilities(count: CountDistribution, shares) -> np.ndarray:
    """Rank probabilities with tag-class shares ``shares``, each class's cards in the full
    shoe's proportions."""
    full = np.array(count.shoe.counts, dtype=float)
    cl = count.classes
    p = np.zeros(10)
    for c, members in enumerate(cl.members):
        for r in members:
            p[r - 1] = shares[c] * full[r - 1] / cl.sizes[c]
    return p


def _shares(q0, move):
    """The tag-class shares ``q0`` moved ``move[c]`` steps toward class c (away from the
    last class)."""
    q = np.array(q0, dtype=float)
    for c, m in enumerate(move):
        q[c] += m * STEP
        q[-1] -= m * STEP
    return q


def _taylor_terms(rules, strategy, count: CountDistribution, spots: int):
    """[(exponents, law)] with J(q0 + d) ~ sum_t law_t prod_c d_c^exponents_t[c] over the
    first C - 1 classes' share deviations d (the last class takes up the rest), laws on one
    frame of (cards, tag-sum offsets); returns (terms, lowest offset, full-shoe law,
    evaluations)."""
    cl = count.classes
    steps = _rank_steps(count.system, cl.scale)
    q0 = np.array(cl.sizes, dtype=float) / cl.total
    dims = len(q0) - 1
    cache: dict = {}

    def law_at(move):
        key = tuple(move)
        if key not in cache:
            cache[key] = round_cards_law(rules, _probabilities(count, _shares(q0, move)),
                                         strategy, steps, spots=spots)
        return cache[key]

    zero = (0,) * dims
    base = law_at(zero)

    def unit(c, sign):
        m = [0] * dims
        m[c] = sign
        return tuple(m)

    needed = [zero] + [unit(c, s) for c in range(dims) for s in (1, -1)]
    mixed = dims <= 3
    if mixed:
        for a, b in itertools.combinations(range(dims), 2):
            for s in (1, -1):
                m = [0] * dims
                m[a] = m[b] = s
                needed.append(tuple(m))
    laws = {m: law_at(m) for m in needed}
    k = max(law.law.shape[0] for law in laws.values())
    smax = max(1, max(abs(v) for v in steps))
    lo, hi = -smax * (k - 1), smax * (k - 1)
    frame = {}
    for m, law in laws.items():
        # [0]: J(L, D); [1]: Q(j, S) = P(the round runs past j cards, their tags sum to S)
        a = np.zeros((2, k, hi - lo + 1))
        a[0, :law.law.shape[0], law.offsets[0] - lo:law.offsets[-1] - lo + 1] = law.law
        p = _probabilities(count, _shares(q0, m))
        card = np.zeros(2 * smax + 1)
        for r in range(10):
            card[steps[r] + smax] += p[r]
        a[1, 0, -lo] = 1.0
        for j in range(1, k):
            a[1, j] = np.convolve(a[1, j - 1], card)[smax:smax + hi - lo + 1] - a[0, j]
        frame[m] = a
    f0 = frame[zero]
    terms = [((0,) * dims, f0)]
    h = STEP
    for c in range(dims):
        plus, minus = frame[unit(c, 1)], frame[unit(c, -1)]
        e = [0] * dims
        e[c] = 1
        terms.append((tuple(e), (plus - minus) / (2 * h)))
        e[c] = 2
        terms.append((tuple(e), (plus - 2 * f0 + minus) / (2 * h * h)))   # 1/2 f''
    if mixed:
        for a, b in itertools.combinations(range(dims), 2):
            pp = frame[tuple(1 if i in (a, b) else 0 for i in range(dims))]
            mm = frame[tuple(-1 if i in (a, b) else 0 for i in range(dims))]
            fa = frame[unit(a, 1)] + frame[unit(a, -1)]
            fb = frame[unit(b, 1)] + frame[unit(b, -1)]
            e = [0] * dims
            e[a] = e[b] = 1
            terms.append((tuple(e), (pp + mm - fa - fb + 2 * f0) / (2 * h * h)))
    return terms, lo, base, len(cache)


def round_starts(rules, strategy, count: CountDistribution, *, cut: int, burn: int,
                 spots: int = 1, depletion: bool = True, anchor: bool = True) -> RoundStarts:
    """The forward recursion of the module docstring: expected round starts per shoe by
    (cards seen, running count), for a shoe whose cut card lies after ``cut`` cards
    (``burn`` unseen cards dealt first).  ``depletion``: the within-round correction of
    the tag sum's variance; ``anchor``: the chain's P(a round starts | n, r) applied to the
    exact count law (else the chain's own law)."""
    cl = count.classes
    terms, lo, base, evaluations = _taylor_terms(rules, strategy, count, spots)
    last = cut - burn - 1                # the deepest n at which a round can start
    width = count.probabilities.shape[1]
    _, k_max, span = terms[0][1].shape
    size = 1 << int(np.ceil(np.log2(width + span)))
    spectra = [(e, np.fft.rfft(t, n=size, axis=2)) for e, t in terms]
    q0 = np.array(cl.sizes, dtype=float) / cl.total
    means = count.class_means()
    sizes = np.array(cl.sizes, dtype=float)[:, None]
    steps = np.array(_rank_steps(count.system, cl.scale), dtype=float)
    p0 = np.array(count.shoe.counts, dtype=float) / count.cards
    card_variance = float(p0 @ steps ** 2 - (p0 @ steps) ** 2)
    lengths = np.arange(k_max, dtype=float)
    starts = np.zeros((last + 1, width))      # A: expected round starts at (n, r)
    covered = np.zeros((last + 1, width))     # B: P(card position n has running count r)
    starts[0, int(np.argmax(count.probabilities[0]))] = 1.0     # running count 0 (or IRC)
    a, b = max(0, -lo), min(size, width - lo)  # out[.., i] lands on running count i + lo
    for n in range(last + 1):
        possible = count.probabilities[n] > 0
        row = np.where(possible, starts[n], 0.0)
        starts[n] = row
        if not row.any():
            continue
        left = count.cards - n
        shares = (sizes - np.nan_to_num(means[:, n, :])) / left        # [class, rc]
        dev = np.where(possible, shares[:-1] - q0[:-1, None], 0.0)
        acc = np.zeros((2, k_max, size // 2 + 1), dtype=complex)
        for e, spec in spectra:
            x = row.copy()
            for c, power in enumerate(e):
                if power:
                    x = x * dev[c] ** power
            acc += np.fft.rfft(x, n=size)[None, None, :] * spec
        out = np.fft.irfft(acc, n=size, axis=2)
        if depletion:
            # cards of one round are dealt without replacement: any two of its L cards
            # have tag covariance -sigma^2 / (R - 1) (R cards left), so L cards' tag sum
            # has L (L - 1) sigma^2 / (R - 1) less variance than with replacement; taken
            # out by a second difference (a kernel of that negative variance)
            shrink = lengths * (lengths - 1) * card_variance / (2.0 * max(left - 1, 1))
            out -= shrink[None, :, None] * (np.roll(out, 1, axis=2) - 2 * out
                                            + np.roll(out, -1, axis=2))
        reach = min(k_max, last - n + 1)
        if a < b:
            starts[n + 1:n + reach, a + lo:b + lo] += out[0, 1:reach, a:b]
            covered[n:n + reach, a + lo:b + lo] += out[1, :reach, a:b]
    starts = np.maximum(starts, 0.0)
    if anchor:
        covered = np.maximum(covered, 0.0)
        total = covered.sum(axis=1, keepdims=True)
        typical = starts.sum(axis=1, keepdims=True) / np.where(total > 0, total, 1.0)
        with np.errstate(invalid="ignore", divide="ignore"):
            ratio = np.where(covered > 1e-14 * total, starts / covered, typical)
        weight = count.probabilities[:last + 1] * np.clip(ratio, 0.0, 1.0)
    else:
        weight = starts
    return RoundStarts(weight, base, evaluations)
