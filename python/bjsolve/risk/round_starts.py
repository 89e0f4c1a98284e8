"""Where rounds start, and the running count there.

Wanted: w(n, r), the expected number of rounds per shoe that start with n cards seen since
the shuffle (the burn card is not seen) and running count r, for every n before the cut
card.  Written as

    w(n, r) = P(running count r after n cards) x P(a round starts at n | n, r),

the first factor is exact (``count_distribution.CountDistribution``).  The second comes
from a model of the dealing, and the decomposition is chosen so that the model needs to be
right only about something local:

* Given the multiset of the first n cards, every order of them is equally likely.  Whether
  a round starts at n depends only on that order (do the n cards split into whole rounds?),
  so P(start at n | the seen cards) is a property of the seen cards alone, whatever the
  cards left.  In particular it is the same when the cards are dealt independently with
  fixed probabilities (every order of a multiset is equally likely there too).
* So the cards are dealt independently with the full shoe's probabilities, one round after
  another, each round's (cards used L, tag sum D) with the joint law J of the round model
  (``round_model.round_cards_law``: the same plays as the simulator, resplits too), and
  two laws are propagated from A(0, 0) = 1:

      A(n, r) = sum_L sum_D A(n - L, r - D) J(L, D)       (a round starts at n)
      B(n, r) = sum_j sum_S A(n - j, r - S) Q(j, S)       (card position n, any)

  Q(j, S) = P(the round is still running after j cards, their tags summing to S).  Every
  position n belongs to exactly one round, so B(n, .) is the law of the running count at
  n in this model and A / B = P(start at n | n, r) in it.  The model's own count law has
  no mean reversion (the deck is infinite); only the ratio is used.

What differs from the real shoe is the law of the seen cards given (n, r) (independent
draws instead of drawing without replacement).  To first order in 1/R (R cards unseen)
that is corrected inside a round: a sequence dealt without replacement has probability
prod p (1 - (earlier cards of its rank) / (R p_rank)) / (1 - (j - 1) / R) against prod p
with replacement; ``_depletion_terms`` adds that (computed at the full shoe) to J and Q.
Measured against 10^8 simulated rounds (benchmarks/bench_game.py): every true-count bin
within 3 standard errors in 6 and 2 decks; without the correction the 2-deck fit is
slightly worse (largest |z| 3.4 instead of 2.5).  Where it approximates: the order-only
argument is exact, the law of the seen cards given (n, r) is the independent-draws one
corrected to first order within rounds, the round model decides by total and plays index
plays (``strategy_at``) at the round's starting count.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..counting.count_laws import CountDistribution
from ..counting.removal import count_tags
from .round_model import RoundCardsLaw, round_cards_law


@dataclass
class RoundStarts:
    """``weight[n, j]``: expected round starts per shoe with n cards seen and running count
    ``count.running_counts[j]``, n = 0 .. cut - burn - 1; ``start_probability[n, j]``:
    P(a round starts at n | n, running count) (the factor applied to the exact count law);
    ``round_law``: the joint law of a round's cards and tag sum at the full shoe."""
    weight: np.ndarray
    start_probability: np.ndarray
    round_law: RoundCardsLaw

    @property
    def rounds_per_shoe(self) -> float:
        return float(self.weight.sum())


def rank_steps(system, scale: int) -> list:
    """Each rank's tag (A..T) as a whole number of 1/scale steps."""
    return [int(round(t * scale)) for t in count_tags(system)]


def _card_law(p, steps, smax: int) -> np.ndarray:
    """The law of one card's tag step, offsets -smax..smax."""
    card = np.zeros(2 * smax + 1, dtype=np.asarray(p).dtype)
    for r in range(10):
        card[steps[r] + smax] += p[r]
    return card


def running_laws(law: np.ndarray, card: np.ndarray) -> np.ndarray:
    """Q[j, S] = P(the round runs past j cards, their tags summing to S) from J[L, D] on
    the same frame (offsets centred): Q(0) = 1 at S = 0 and Q(j) = Q(j - 1) * one card -
    J(j): the j-th card is independent of the first j - 1, and whether the round ended by
    j cards depends on those alone."""
    k, span = law.shape
    smax = len(card) // 2
    q = np.zeros_like(law)
    q[0, span // 2] = 1.0
    for j in range(1, k):
        q[j] = np.convolve(q[j - 1], card)[smax:smax + span] - law[j]
    return q


def _framed(raw: RoundCardsLaw, k: int, half: int) -> np.ndarray:
    """The first k card counts and the tag sums -half..half of a law."""
    out = np.zeros((k, 2 * half + 1), dtype=raw.law.dtype)
    rows = min(k, raw.law.shape[0])
    for col, off in enumerate(raw.offsets):
        if -half <= off <= half:
            out[:rows, off + half] = raw.law[:rows, col]
    return out


def _depletion_terms(rules, strategy, p0, steps, spots: int, k: int, half: int,
                     after_double=None):
    """K[0] for J and K[1] for Q with law_finite = law + K / R + O(1/R^2), R the cards
    left, for a round dealt without replacement.  A sequence of j cards has probability
    prod p_r (1 - (earlier cards of its rank) / (R p_r)) / (1 - (i - 1) / R) over its
    cards i, against prod p_r with replacement; to first order its weight gains
    j (j - 1) / 2R - sum_r C(k_r, 2) / (R p_r), k_r its cards of rank r.
    E[C(k_r, 2); j, S] is half the second derivative of f(w) = E[w^(k_r); j, S] at w = 1,
    taken with one complex step: Re f(1 + i e) = f(1) - e^2 f''(1) / 2 + O(e^4), so
    f''(1) / 2 = (f(1) - Re f(1 + i e)) / e^2 (the raw generating function with rank r's
    probability p_r (1 + i e); relative error ~e^2 x the fourth factorial moment, about
    1e-3 here, and rounding noise ~1e-17 / e^2)."""
    smax = max(1, max(abs(v) for v in steps))

    def laws(p):
        raw = round_cards_law(rules, p, strategy, steps, spots=spots, raw=True,
                              after_double=after_double)
        j_law = _framed(raw, k, half)
        return np.stack([j_law, running_laws(j_law, _card_law(p, steps, smax))])

    eps = 0.02
    mid = np.real(laws(p0.astype(complex)))
    j = np.arange(k, dtype=float)
    out = mid * (j * (j - 1) / 2.0)[None, :, None]
    for r in range(10):
        if p0[r] == 0:
            continue
        step = p0.astype(complex)
        step[r] *= 1 + 1j * eps
        out -= (mid - np.real(laws(step))) / (eps * eps * p0[r])
    return np.where(np.abs(mid) > 1e-15, out, 0.0)    # no correction where nothing happens


def _policy_groups(count, strategy_at, last: int, decks_estimation: str, tc_rounding: str):
    """(group[n, j]: which strategy is played from state (n seen, running count j), the
    strategies): ``strategy_at(tc)`` gives (key, strategy) for a true count, counts with
    one key playing alike."""
    tcs = np.stack([count.true_counts(n, decks_estimation=decks_estimation,
                                      tc_rounding=tc_rounding)
                    for n in range(last + 1)])
    keys: dict = {}              # strategy key -> its index in strategies
    strategies: list = []
    by_tc = {}
    for tc in np.unique(tcs):
        key, strategy = strategy_at(float(tc))
        if key not in keys:
            keys[key] = len(strategies)
            strategies.append(strategy)
        by_tc[float(tc)] = keys[key]
    groups = np.vectorize(lambda t: by_tc[float(t)], otypes=[int])(tcs)
    return groups, strategies


def round_starts(rules, strategy, count: CountDistribution, *, cut: int, burn: int,
                 spots: int = 1, depletion: bool = True, strategy_at=None,
                 decks_estimation: str = "exact", tc_rounding: str = "floor",
                 after_double=None) -> RoundStarts:
    """Expected round starts per shoe by (cards seen, running count) for a shoe whose cut
    card lies after ``cut`` cards (``burn`` unseen cards dealt first): see the module
    docstring.  ``depletion``: the first-order correction for dealing without replacement
    within a round.

    ``strategy_at``: None (``strategy`` at every count), or tc -> (key, strategy) for a
    strategy that changes with the true count (index plays; true counts by ``decks_estimation``
    and ``tc_rounding``): a round starting at a state then uses the cards of the strategy played
    at the state's true count (one round law per distinct key; the depletion correction,
    first order already, stays ``strategy``'s).  Index plays change the cards a round
    uses (6D H17 LS with the Illustrious 18: 15 v T and 16 v 9 hit instead of
    surrendering below 0, and 12 v 4-6 hit: 5.506 cards a round at -6 against 5.432 at 0),
    so the chart's law alone put the rounds per shoe 0.5% high and leaned the true-count
    frequencies.  ``after_double``: the choice after a double in the games
    (``round_cards_law``)."""
    steps = rank_steps(count.system, count.classes.scale)
    smax = max(1, max(abs(v) for v in steps))
    p0 = np.array(count.shoe.counts, dtype=float) / count.cards
    last = cut - burn - 1                # the deepest n at which a round can start
    if strategy_at is None:
        groups, strategies = np.zeros((last + 1, count.probabilities.shape[1]), int), [strategy]
    else:
        groups, strategies = _policy_groups(count, strategy_at, last, decks_estimation,
                                              tc_rounding)
    raw_laws = [round_cards_law(rules, p0, s, steps, spots=spots, after_double=after_double)
                for s in strategies]
    k = max(raw.law.shape[0] for raw in raw_laws)
    half = smax * (k - 1)
    card = _card_law(p0, steps, smax)
    laws = []
    for raw in raw_laws:
        j_law = _framed(raw, k, half)
        laws.append(np.stack([j_law, running_laws(j_law, card)]))     # [2, k, S]
    law = raw_laws[0] if strategy_at is None else round_cards_law(
        rules, p0, strategy, steps, spots=spots, after_double=after_double)
    extra = (_depletion_terms(rules, strategy, p0, steps, spots, k, half, after_double)
             if depletion else None)
    width = count.probabilities.shape[1]
    size = 1 << int(np.ceil(np.log2(width + 2 * half + 1)))
    spectra = [np.fft.rfft(x, n=size, axis=2) for x in laws]
    extra = None if extra is None else np.fft.rfft(extra, n=size, axis=2)
    starts = np.zeros((last + 1, width))       # A
    covered = np.zeros((last + 1, width))      # B
    starts[0, int(np.argmax(count.probabilities[0]))] = 1.0    # running count 0 (or IRC)
    a, b = max(0, half), min(size, width + half)    # out[.., i] lands on index i - half
    for n in range(last + 1):
        row = starts[n]
        if not row.any():
            continue
        row_spectrum = np.fft.rfft(row, n=size)[None, None, :]
        if len(spectra) == 1:
            acc: np.ndarray | float = row_spectrum * spectra[0]
        else:
            acc = 0.0
            for g in np.unique(groups[n][row != 0]):
                part = np.where(groups[n] == g, row, 0.0)
                acc = acc + np.fft.rfft(part, n=size)[None, None, :] * spectra[g]
        if extra is not None:
            acc = acc + row_spectrum * extra / (count.cards - n)
        out = np.fft.irfft(acc, n=size, axis=2)
        reach = min(k, last - n + 1)
        if a < b:
            starts[n + 1:n + reach, a - half:b - half] += out[0, 1:reach, a:b]
            covered[n:n + reach, a - half:b - half] += out[1, :reach, a:b]
    # both laws are probabilities (B sums to 1 at every n); below 1e-15 they are the
    # transforms' rounding noise (about 1e-17 here), and where the model's count law is
    # below 1e-12 its ratio is left to the depth's mean start rate
    starts = np.where(starts > 1e-15, starts, 0.0)
    covered = np.where(covered > 1e-15, covered, 0.0)
    typical = starts.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = np.where(covered > 1e-12, starts / covered, typical)
    ratio = np.clip(ratio, 0.0, 1.0)
    exact = count.probabilities[:last + 1]
    ratio = np.where(exact > 0, ratio, 0.0)
    return RoundStarts(exact * ratio, ratio, law)
