"""The probability distribution of one round's net outcome (units of the initial bet).

``Solution.outcome_distribution(strategy, insurance=..., spots=...)`` gives the probability
of every net result of a round: -8 .. +8 in half units after splits and doubles, the
payout for a natural, -1/2 for a surrender, unconditioned (dealer naturals included).

How it is computed (docs/risk.md has the details):

* the compiled kernel (``bjcore._distribution``) carries, through the solver's own
  recursions, the joint law of each hand's final state and the dealer's outcome, with the
  solver's decisions; its mean is the solve's expected value (to rounding, ~1e-16);
* one hand played out (no split) is exact on every shoe;
* a split into two hands (no resplitting) is exact on every shoe: on a finite shoe the
  kernel forms the joint law of both hands and the dealer (the second hand played on the
  shoe less the first hand's cards);
* a split that may make 3 or 4 hands combines its hands as independent given the dealer's
  final outcome.  Each hand's joint law with the dealer is exact, so the mean is exact on
  every shoe; on an infinite shoe the whole distribution is exact (every card is an
  independent draw); on a finite shoe the cards the split hands take from one another are
  left out of the pmf (``exact=False``; the error measured against a card-by-card
  enumeration is stated in the docs), but not out of the variance: ``variance`` is the
  exact second moment (every pair of split hands' joint law with the dealer,
  ``bjcore._split_moments``; ``variance_exact=True``) except with CDP, and the pmf's own
  variance is ``pmf_variance``;
* several spots (one player, 2 or 3 hands against one dealer hand) are combined the same
  way, given the dealer's cards and final outcome: exact on an infinite shoe.  On a
  finite shoe ``exact_spots=True`` makes the covariance between spots exact (the spots take
  cards from each other; ``bjcore._spot_moments``), hence the variance of the total; the
  pmf stays combined.
"""
from __future__ import annotations

import math
import warnings
from concurrent.futures import ThreadPoolExecutor
from types import MappingProxyType

import numpy as np

from bjcore import RoundLaws, SpotMoments, second_moments, split_moment_jobs

from ..model.deal import exposed, is_natural
from ..output.notebook import distribution_frame, distribution_html
from .game_law import (  # noqa: F401  (game_round_law: the counted game's entry)
    GAME_DEALER_OUTCOMES,
    classic_to_game_law,
    game_round_law,
    game_round_laws,
    is_game,
)
from .kernel_rules import (
    POLICY_CLASS,
    SPLIT_CLASSES,
    check_threads,
    kernel_rules,
    natural_tie_value,
)
from .policy import after_double_chart, policy_engines
from .strategy import StrategyChart

# dealer outcomes t in the kernel's order
DEALER_OUTCOMES = ("17", "18", "19", "20", "21", "blackjack", "bust")
NATURAL_T = 5
LATTICE = 34          # columns: net outcome (k - 16) / 2 for k < 33, column 33 a natural
NATURAL_COL = 33
_KEY_DIGITS = 9       # outcome values are merged after rounding to 1e-9


class OutcomeDistribution:
    """The distribution of a round's net outcome, in units of the initial bet per spot.

    values: ascending numpy array of the possible net outcomes (multiples of 1/2, and the
        natural's payout); probabilities: their probabilities (same length, sum 1).
    mean, variance, sd: of the total over all spots.  ``pmf`` maps value -> probability.
        The mean is always exact.  ``variance`` (and ``sd``) are the exact figures when
        ``variance_exact`` is True, even when the pmf is not: then they come from the exact
        second moment, not from the pmf, whose own variance is ``pmf_variance``.
    exact: whether the probabilities are exact (else ``method`` names the approximation).
    variance_exact: whether ``variance`` is exact.  spots: hands played per round against
        one dealer.
    per_spot: the one-spot distribution when ``spots > 1`` (else ``self``);
    covariance: between the outcomes of two spots of the same round (0 for one spot);
        exact on an infinite shoe, or with ``exact_spots=True``, else combined.
    may_run_out: the shoe is so small that a round could run out of cards (the values then
        follow the degenerate convention of ``solve`` and describe no real game).

    Built by hand (``OutcomeDistribution([-1, 1], [0.45, 0.55], exact=True, method="coin")``,
    for the risk functions) the probabilities must be finite, >= 0 and sum to 1
    (``validate=False`` skips those checks).
    """

    def __init__(self, values, probabilities, *, exact: bool, method: str, spots: int = 1,
                 covariance: float = 0.0, per_spot=None, may_run_out: bool = False,
                 description: str = "", variance=None, variance_exact=None,
                 validate: bool = True):
        values = np.asarray(values, dtype=float)
        probabilities = np.asarray(probabilities, dtype=float)
        if values.shape != probabilities.shape or values.ndim != 1:
            raise ValueError("values and probabilities must be 1-D arrays of the same length")
        # a distribution built by hand (a simulation's, a textbook game's) is checked as
        # the risk functions would check it, so that its mean and SD mean something
        # (``validate=False``: the solver's own laws, which its tests check instead)
        if not (np.all(np.isfinite(values)) and np.all(np.isfinite(probabilities))):
            raise ValueError("values and probabilities must be finite numbers")
        if validate:
            if probabilities.size and probabilities.min() < -1e-12:
                raise ValueError(f"probabilities must be >= 0, got "
                                 f"{float(probabilities.min())!r}")
            if abs(float(probabilities.sum()) - 1.0) > 1e-9:
                raise ValueError(f"probabilities must sum to 1, got "
                                 f"{float(probabilities.sum())!r}")
        order = np.argsort(values, kind="stable")
        self.values = values[order]
        self.probabilities = probabilities[order]
        self.values.setflags(write=False)
        self.probabilities.setflags(write=False)
        self.exact = bool(exact)
        self.method = method
        self.spots = int(spots)
        self.covariance = float(covariance)
        self.per_spot = self if per_spot is None else per_spot
        self.may_run_out = bool(may_run_out)
        self.description = description
        self.mean = float(np.dot(self.values, self.probabilities))
        self.pmf_variance = float(np.dot(self.probabilities, (self.values - self.mean) ** 2))
        # the variance: the pmf's unless a better figure (the exact second moment) is given
        self.variance = self.pmf_variance if variance is None else float(variance)
        self.variance_exact = self.exact if variance_exact is None else bool(variance_exact)
        self.sd = math.sqrt(max(self.variance, 0.0))
        self.pmf = MappingProxyType({float(v): float(p)
                                     for v, p in zip(self.values, self.probabilities)})

    # pickling (results sent to a process pool): the read-only views do not pickle as such
    def __getstate__(self):
        return dict(self.__dict__, pmf=dict(self.pmf))

    def __setstate__(self, state):
        self.__dict__.update(state, pmf=MappingProxyType(state["pmf"]))
        self.values.setflags(write=False)
        self.probabilities.setflags(write=False)

    @property
    def correlation(self) -> float:
        """Correlation between two spots of the same round (0 for one spot)."""
        v = self.per_spot.variance
        return self.covariance / v if self.spots > 1 and v > 0 else 0.0

    def cdf(self, x: float) -> float:
        """P(outcome <= x)."""
        return float(self.probabilities[self.values <= x + 1e-12].sum())

    def quantile(self, q: float) -> float:
        """The smallest outcome v with P(outcome <= v) >= q, for 0 <= q <= 1."""
        if isinstance(q, bool) or not isinstance(q, (int, float, np.floating, np.integer)):
            raise TypeError(f"q must be a number in [0, 1], got {type(q).__name__}")
        q = float(q)
        if not 0.0 <= q <= 1.0:
            raise ValueError(f"q must be in [0, 1], got {q!r}")
        cum = np.cumsum(self.probabilities)
        i = int(np.searchsorted(cum, q - 1e-15, side="left"))
        return float(self.values[min(i, len(self.values) - 1)])

    def to_pandas(self):
        """A pandas DataFrame with columns value, probability (needs pandas)."""
        return distribution_frame(self)

    def _repr_html_(self):
        return distribution_html(self)

    def __repr__(self):
        how = ("exact" if self.exact else
               f"approximate pmf{' (variance exact)' if self.variance_exact else ''}: "
               f"{self.method}")
        spots = f", spots={self.spots}" if self.spots > 1 else ""
        return (f"OutcomeDistribution(mean={self.mean:+.10f}, sd={self.sd:.6f}, "
                f"{len(self.values)} outcomes{spots}, {how})")


# ---- building the laws ------------------------------------------------------------------

def _check_spots(spots) -> int:
    if isinstance(spots, bool) or not isinstance(spots, (int, np.integer)):
        raise TypeError(f"spots must be an int 1..3 (hands one player plays per round), "
                        f"got {type(spots).__name__}")
    if not 1 <= int(spots) <= 3:
        raise ValueError(f"spots must be 1, 2 or 3 (hands one player plays per round), "
                         f"got {int(spots)}")
    return int(spots)


def _kernel_laws(solution, strategy, threads, exact_splits=True):
    """``round_laws`` of ``solution``'s rules and shoe, for every dealer key the player
    decides against, playing ``strategy``: "optimal" (the solve's own play, its post-split
    class included), a ``StrategyChart`` or a callable (its decisions frozen in policy
    engines first, exactly as ``Solution.evaluate`` freezes them)."""
    if isinstance(strategy, str):
        if strategy != "optimal":
            raise ValueError(f"strategy must be 'optimal', a StrategyChart or a callable "
                             f"f(cards, dealer, allowed) -> action, got {strategy!r:.60}")
        engines = None
    else:
        if not (isinstance(strategy, StrategyChart) or callable(strategy)):
            raise TypeError("strategy must be 'optimal', a StrategyChart or a callable "
                            f"f(cards, dealer, allowed) -> action, got {type(strategy).__name__}")
        engines = policy_engines(solution.rules, solution.shoe, strategy, solution.deal)
    return round_laws(solution.rules, solution.shoe, solution.deal.playable_keys, engines,
                      split=solution.split, solution=solution, exact_splits=exact_splits,
                      exact_moments=exact_splits, threads=threads)


def round_laws(rules, shoe, keys, engines=None, *, split: str = "CDZ-", solution=None,
               exact_splits: bool = True, exact_moments: bool = False, threads: int = 1):
    """The outcome kernel's law of one round against each dealer key of ``keys``, from
    ``bjcore.RoundLaws``: the one place round laws are built
    (``outcome_distribution`` and the counted game's per-count laws both come here;
    ``risk_indices.split_moments`` asks a kernel for single splits' laws).

    engines: {dealer key: policy engine} (``solve.policy_engines``) whose frozen decisions
        the player follows, shared with the kernels (no Python call per hand); None: the
        optimal play of post-split class ``split`` on ``shoe`` (the kernels never decide
        by themselves: the law's play is the solver's).
    solution: with ``engines`` None, a ``Solution`` of ``rules``, ``shoe`` and ``split``
        whose recorded decisions the kernels share; None: each kernel records a solve of
        its own dealer key.
    exact_splits: on a finite shoe, the exact joint law of a split into two hands (else
        every split's hands are combined as independent given the dealer's outcome).
    exact_moments: also E[S^2 ; dealer outcome t] with every split the law combines
        approximately given its exact second moment (``bjcore._split_moments``).
    threads: dealer keys (and then the splits' moments, longest first) computed in
        parallel (the kernels release the GIL; the figures do not depend on it).

    Returns ({key: 7 x 34 law: P(dealer outcome t, net outcome column k)}, whether a split
    was combined approximately, {key: E[S^2 ; t] or None}, whether every one of those
    second moments is exact: False without ``exact_moments``)."""
    params = kernel_rules(rules, SPLIT_CLASSES[split] if engines is None else POLICY_CLASS)
    laws = {k: RoundLaws(shoe.kernel_weights(), k, params, shoe.is_infinite, exact_splits)
            for k in keys}
    if engines is None and solution is not None:
        solution._share_decisions(laws)
    elif engines is not None:
        for key, law in laws.items():
            law.copy_policy_from(engines[key])
    order = list(laws)

    def law_job(key):
        law = laws[key].outcome_law()
        # the exact second moments of the splits the law combines approximately, as jobs
        # (not for the fast combination: they would cost as much as the exact law they
        # stand in for); building them takes the split trees from the key's own laws
        return law, (split_moment_jobs(laws[key]) if exact_moments else ([], False))

    workers = max(1, min(len(order), threads))
    pool = ThreadPoolExecutor(max_workers=workers) if workers > 1 else None
    try:
        results = (list(pool.map(law_job, order)) if pool
                   else [law_job(k) for k in order])
        # then every split's moments, longest first (one dealer key's splits are far
        # from equal: upcard 7 alone holds most of the work for 6 decks); each job's
        # result does not depend on the thread that ran it, and ``second_moments`` adds
        # them in a fixed order, so the figures are the same for any number of threads
        jobs = sorted((job for _, (key_jobs, _) in results for job in key_jobs),
                      key=lambda job: -job.cost)
        if pool:
            list(pool.map(lambda job: job.run(), jobs))
        else:
            for job in jobs:
                job.run()
    finally:
        if pool:
            pool.shutdown()
    moments = {k: (second_moments(laws[k], key_jobs, exact) if exact_moments else (None, False))
               for k, (_, (key_jobs, exact)) in zip(order, results)}
    misses = sum(law.policy_misses for law in laws.values())
    if misses:
        raise RuntimeError(f"internal error: {misses} decisions had no frozen action")
    # splits whose hands were combined as independent given the dealer's outcome (finite
    # shoe, more than two hands possible); two-hand splits are exact
    approx = any(law.approx_splits_played for law in laws.values())
    moments_exact = all(exact for _, exact in moments.values())   # False without exact_moments
    return ({k: law for k, (law, _) in zip(order, results)}, approx,
            {k: m2 for k, (m2, _) in moments.items()}, moments_exact)


def _game_laws(solution, strategy, threads, after_double=None, moments=True):
    """({key: (values, law)} of the game engine, whether a split was combined,
    {key: E[S^2 ; t]}, whether those are exact) for a game ``solution`` playing
    ``strategy`` (as ``_kernel_laws`` takes it): the solve's own engines for "optimal",
    policy engines of the strategy otherwise; ``moments``: the exact second moments of
    the combined splits where they can be made (``game_law.game_round_laws``)."""
    if isinstance(strategy, str):
        if strategy != "optimal":
            raise ValueError(f"strategy must be 'optimal', a StrategyChart or a callable "
                             f"f(cards, dealer, allowed) -> action, got {strategy!r:.60}")
        if after_double is not None:
            raise ValueError("after_double: a frozen choice after a double goes with a "
                             "strategy (a chart); 'optimal' makes the optimal choice")
        engines = {k: solution._engines[k] for k in solution.deal.playable_keys}
        # the solve's own engines are shared with every other call on the solution
        return game_round_laws(engines, threads, locks=solution._engine_locks,
                               moments=moments)
    else:
        if not (isinstance(strategy, StrategyChart) or callable(strategy)):
            raise TypeError("strategy must be 'optimal', a StrategyChart or a callable "
                            f"f(cards, dealer, allowed) -> action, got {type(strategy).__name__}")
        if isinstance(after_double, str) and after_double == "basic":
            after_double = after_double_chart(solution)
        engines = policy_engines(solution.rules, solution.shoe, strategy, solution.deal,
                                 after_double=after_double)
    return game_round_laws(engines, threads, moments=moments)


def _natural_dealer_law(rules, deal, key) -> np.ndarray:
    """Exposed dealer natural: every hand loses one unit, a player natural pushes."""
    out = np.zeros((len(DEALER_OUTCOMES), LATTICE))
    weights = deal.hand_weights(key)
    total = sum(weights.values())
    tie = natural_tie_value(rules)
    for cards, w in weights.items():
        if is_natural(cards) and tie == rules.blackjack_payout:
            col = NATURAL_COL
        else:
            col = 16 + int(round(2 * (tie if is_natural(cards) else -1.0)))
        out[NATURAL_T, col] += w / total
    return out


def column_values(payout: float) -> np.ndarray:
    """The net outcome of each of the outcome kernel's columns (natural paid ``payout``)."""
    v = (np.arange(LATTICE) - 16) / 2.0
    v[NATURAL_COL] = payout
    return v


def column_moments(law, payout: float) -> tuple:
    """(mean, second moment) of a law over the outcome kernel's columns (LATTICE
    probabilities, e.g. a kernel law summed over the dealer's outcomes)."""
    values = column_values(payout)
    return float(law @ values), float(law @ values ** 2)


def merge_equal_values(values, probs) -> tuple[np.ndarray, np.ndarray]:
    """Sum the probabilities of equal values; drop zero entries."""
    acc: dict = {}
    for v, p in zip(values, probs):
        if p != 0.0:
            k = round(float(v), _KEY_DIGITS)
            acc[k] = acc.get(k, 0.0) + float(p)
    keys = sorted(acc)
    return np.array(keys, dtype=float), np.array([acc[k] for k in keys], dtype=float)


def _convolve(a: dict, b: dict) -> dict:
    out: dict = {}
    for va, pa in a.items():
        for vb, pb in b.items():
            k = round(va + vb, _KEY_DIGITS)
            out[k] = out.get(k, 0.0) + pa * pb
    return out


def _game_variance_why(rules, solution, strategy, exact_splits: bool) -> str:
    """Why a game's combined splits keep the pmf's variance (game_law.h, moments_apply)."""
    if not exact_splits:
        return "exact_splits=False"
    if solution.shoe.is_fractional:
        return "a fractional shoe"
    if solution.may_run_out:
        return "a shoe a round could run out of"
    if rules.natural_loss == "bb+1":
        return "BB+1: the box's unit depends on every hand at once"
    if isinstance(strategy, str) and solution.split == "CDP":
        return "CDP: its split hands decide by the extra pair cards gone"
    return "a shoe a round of split hands could run out of"


def _exactness(infinite: bool, split_approx: bool, spots: int,
               game: bool = False) -> tuple[bool, str]:
    if game and not infinite and (split_approx or spots > 1):
        what = ((["split hands (splits that may make 3-4 hands, or on a fractional shoe)"]
                 if split_approx else [])
                + (["spots"] if spots > 1 else []))
        return False, (f"the games: {' and '.join(what)} combined as independent given the "
                       f"dealer's cards and final outcome; each hand's joint law with the "
                       f"dealer exact, so the mean is exact")
    if infinite:
        return True, ("exact: infinite shoe, the hands of a round are independent given the "
                      "dealer's cards and final outcome")
    if not split_approx and spots == 1:
        return True, ("exact: finite shoe, every hand played out card by card (a split into "
                      "two hands by the joint law of both hands and the dealer)")
    what = ((["split hands (splits that may make 3-4 hands)"] if split_approx else [])
            + (["spots"] if spots > 1 else []))
    return False, (f"{' and '.join(what)} combined as independent given the dealer's cards "
                   f"and final outcome; each hand's joint law with the dealer exact, so the "
                   f"mean is exact")



# ---- several spots: the exact covariance on a finite shoe --------------------------------

def spots_may_run_out(rules, shoe, spots: int) -> bool:
    """Whether a round of ``spots`` spots could need a card from an empty shoe (the bound of
    ``deal.round_may_run_out``, every spot holding at most 31 hard points per hand)."""
    if shoe.is_infinite:
        return False
    points = sum(r * c for r, c in enumerate(shoe.counts, 1))
    return points <= 31 * rules.max_split_hands * spots + 26


def exact_spots_unavailable(solution, strategy, spots: int) -> str:
    """Why the exact covariance between spots cannot be computed here ("" when it can)."""
    shoe = solution.shoe
    if shoe.is_infinite:
        return "the infinite shoe needs none"
    if shoe.is_fractional:
        return "a fractional shoe is no real shoe"
    if spots_may_run_out(solution.rules, shoe, spots):
        return f"{spots} spots could run out of cards in this {shoe.size:g}-card shoe"
    if isinstance(strategy, str) and solution.split == "CDP" and solution.rules.max_split_hands > 2:
        return ("CDP with resplits values a split by a construction, not one playable "
                "strategy")
    return ""


def _natural_key_cross(rules, shoe, key) -> float:
    """E[X_1 X_2] against an exposed dealer natural: each spot loses one unit, a spot with
    a natural gets the natural-against-natural value; the spots' first cards come from the
    shoe less the dealer's two."""
    left = list(shoe.counts)
    for c in key:
        left[c - 1] -= 1
    n, a, t = sum(left), left[0], left[9]
    p1 = 2.0 * a * t / (n * (n - 1))
    p2 = 4.0 * a * (a - 1) * t * (t - 1) / (n * (n - 1) * (n - 2) * (n - 3))
    x = natural_tie_value(rules)
    return x * x * p2 - 2.0 * x * (p1 - p2) + (1.0 - 2.0 * p1 + p2)


def _spot_cross_moments(solution, strategy, threads):
    """({dealer key: c[t] = E[X_1 X_2 ; dealer outcome t]} for two spots, whether every one
    is exact) by ``bjcore._spot_moments`` (see there for the method)."""
    code = SPLIT_CLASSES[solution.split] if isinstance(strategy, str) else POLICY_CLASS
    params = kernel_rules(solution.rules, code)
    shoe = solution.shoe
    laws = {k: SpotMoments(shoe.kernel_weights(), k, params) for k in solution._engines}
    if code == POLICY_CLASS:      # the strategy's decisions frozen as round_laws does
        engines = policy_engines(solution.rules, shoe, strategy, solution.deal)
        for key, law in laws.items():
            law.copy_policy_from(engines[key])
    else:                         # the solve's own decisions, recorded
        solution._share_decisions(laws)
    order = list(laws)
    workers = max(1, min(len(order), threads))
    if workers == 1:
        results = [laws[k].cross_moments() for k in order]
    else:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(lambda k: laws[k].cross_moments(), order))
    return ({k: c for k, (c, _, _) in zip(order, results)},
            all(ok for _, _, ok in results))

def outcome_distribution(solution, strategy="optimal", *, insurance: bool = False,
                         spots: int = 1, threads: int | None = None,
                         exact_splits: bool = True,
                         exact_spots: bool = False,
                         after_double=None) -> OutcomeDistribution:
    """The distribution of a round's net outcome for ``solution``'s rules and shoe.

    strategy: "optimal" (the solve's play, its post-split class included), a
        ``StrategyChart`` or a callable ``f(cards, dealer, allowed) -> action`` as
        ``Solution.evaluate`` takes.
    insurance: take insurance (half a unit, pays 2:1) on every hand when the upcard is an
        ace (not offered when both dealer cards are dealt face up).
    spots: 1, 2 or 3 hands played by one player against the same dealer hand; the result
        is the total over the spots, with ``per_spot`` and ``covariance``.
    threads: dealer keys computed in parallel (None: every core).
    exact_splits: on a finite shoe, give a split into two hands (no resplitting) its exact
        joint law, and every split its exact variance (default); False combines the hands
        of every split as independent given the dealer's outcome, variance included
        (about 10 times faster for 6 decks, pmf off by ~1e-5; docs/risk.md).
    exact_spots: with 2 or 3 spots on a finite shoe, compute the covariance between spots
        exactly (the spots take cards from each other), so that ``variance`` is exact;
        the pmf stays combined.  Costly (1 deck with resplits: about a minute of CPU;
        docs/risk.md), hence off by default; not for CDP with resplits, fractional shoes
        or shoes that 2-3 spots could exhaust (the combination is kept, ``method`` says
        why).
    after_double: the games with redoubles or double rescue, a strategy other than
        "optimal": the choice after a double as ``Solution.evaluate(chart, after_double=)``
        takes it ("basic" or a callable); None: the optimal choice for each hand.

    The games (a game rule set): the game engine's own law (``game_law``), over the exact
    result values (free stakes, bonuses, redoubles); a split into two hands is exact on
    every whole shoe (the joint law of both hands and the dealer, always), a split that
    may make 3-4 hands is combined as independent given the dealer's outcome (exact on an
    infinite shoe, the mean exact on every shoe), its variance exact all the same on whole
    shoes with ``exact_splits`` (not CDP, not BB+1: the pmf's, ``method`` says why);
    ``exact_spots`` does not apply (docs/risk.md, "The games").
    """
    threads = check_threads(threads)
    if not isinstance(exact_splits, bool):
        raise TypeError(f"exact_splits must be True or False, got {exact_splits!r:.60}")
    if not isinstance(insurance, bool):
        raise TypeError(f"insurance must be True or False, got {insurance!r:.60}")
    if not isinstance(exact_spots, bool):
        raise TypeError(f"exact_spots must be True or False, got {exact_spots!r:.60}")
    spots = _check_spots(spots)
    rules, shoe = solution.rules, solution.shoe
    if insurance and exposed(rules):
        raise ValueError("insurance: both dealer cards are dealt face up in this game, so no "
                         "insurance is offered")
    if solution.may_run_out:
        warnings.warn(f"a round could run out of cards in this {shoe.size:g}-card shoe: the values "
                      f"follow the analyzers' degenerate conventions (a dealer who must draw "
                      f"from an empty shoe busts) and describe no real game",
                      RuntimeWarning, stacklevel=3)
    # a shoe too small for a round describes no real game: its splits follow the solver's
    # degenerate conventions (the independent combination), not a card-by-card law
    columns = column_values(rules.blackjack_payout)
    game = is_game(rules, solution.split)
    if game:
        # the games: the game engine's own laws over their exact result values (a split
        # that may make 3-4 hands combined given the dealer's outcome, its second moment
        # exact where it can be: game_split_moments.h)
        game_laws, split_played, second_moments, moments_exact = _game_laws(
            solution, strategy, threads, after_double,
            exact_splits and not solution.may_run_out)
    else:
        if after_double is not None:
            raise ValueError("after_double: the choice after a double is a rule of the games "
                             "(redoubles, double rescue); these rules have none")
        kernel_laws, split_played, second_moments, moments_exact = _kernel_laws(
            solution, strategy, threads, exact_splits and not solution.may_run_out)
        game_laws = {k: (columns, law) for k, law in kernel_laws.items()}
    deal = solution.deal
    for key in deal.keys:
        if key not in game_laws:
            natural = _natural_dealer_law(rules, deal, key)
            game_laws[key] = (classic_to_game_law(natural, columns) if game
                              else (columns, natural))
    # per (dealer key, dealer outcome): weight and the conditional law of one spot
    parts = []
    second_moment = 0.0     # E[S^2] of one spot, from the exact second moments
    for key, (key_values, law) in game_laws.items():
        wk = deal.weights[key]
        m2 = second_moments.get(key)
        for t in range(law.shape[0]):
            p_t = float(law[t].sum())
            ins = ((1.0 if t == NATURAL_T else -0.5) if insurance and key == 1 else 0.0)
            m2_t = float(m2[t]) if m2 is not None else float(law[t] @ key_values ** 2)
            second_moment += wk * (m2_t + 2.0 * ins * float(law[t] @ key_values)
                                   + ins * ins * p_t)
            if wk * p_t == 0.0:
                continue
            vals = np.array(key_values, dtype=float)
            if insurance and key == 1:
                vals += 1.0 if t == NATURAL_T else -0.5
            cond: dict = {}
            for v, p in zip(vals, law[t] / p_t):
                if p != 0.0:
                    k = round(float(v), _KEY_DIGITS)
                    cond[k] = cond.get(k, 0.0) + float(p)
            parts.append((wk * p_t, cond))
    one_v, one_p = merge_equal_values([v for _, c in parts for v in c],
                          [w * p for w, c in parts for p in c.values()])
    mean1 = float(np.dot(one_v, one_p))
    second = sum(w * sum(v * p for v, p in c.items()) ** 2 for w, c in parts)
    covariance = second - mean1 ** 2
    exact1, method1 = _exactness(shoe.is_infinite, split_played, 1, game)
    exact, method = _exactness(shoe.is_infinite, split_played, spots, game)
    variance1 = second_moment - mean1 ** 2
    variance_exact1 = exact1 or (moments_exact and not solution.may_run_out)
    if not exact1 and variance_exact1:
        method1 += ("; the variance is exact all the same (from every pair of split hands' "
                    "joint law with the dealer; the probabilities' own variance, "
                    "pmf_variance, differs slightly)")
    elif not exact1 and game:
        method1 += ("; the variance is the pmf's (" + _game_variance_why(rules, solution, strategy,
                                                                          exact_splits) + ")")
    desc = f"{rules.describe()}; shoe {shoe!r}; strategy " + (
        f"optimal ({solution.split})" if isinstance(strategy, str) else repr(strategy)[:60])
    if insurance:
        desc += "; insurance on every hand against an ace"
    single = OutcomeDistribution(one_v, one_p, exact=exact1, method=method1,
                                 may_run_out=solution.may_run_out, description=desc,
                                 variance=variance1 if variance_exact1 else None,
                                 variance_exact=variance_exact1, validate=False)
    if spots == 1:
        return single
    total: dict = {}
    for w, c in parts:
        conv = c
        for _ in range(spots - 1):
            conv = _convolve(conv, c)
        for v, p in conv.items():
            total[v] = total.get(v, 0.0) + w * p
    tv, tp = merge_equal_values(list(total), list(total.values()))
    # each spot's variance exact (when variance_exact1); the covariance between spots as
    # the pmf's (exact on the infinite shoe only) unless computed exactly
    cov_exact = exact
    if exact_spots and not exact and game:
        method += "; exact_spots not applied: not computed for the games yet"
    elif exact_spots and not exact:
        why = exact_spots_unavailable(solution, strategy, spots)
        if why:
            method += f"; exact_spots not applied: {why}"
        else:
            cross, cross_ok = _spot_cross_moments(solution, strategy, threads)
            if cross_ok:
                second12 = 0.0     # E[X_1 X_2] of two spots of the same round
                for key in deal.keys:
                    wk = deal.weights[key]
                    if key not in cross:
                        second12 += wk * _natural_key_cross(rules, shoe, key)
                        continue
                    law = game_laws[key][1]
                    for t in range(len(DEALER_OUTCOMES)):
                        ins = ((1.0 if t == NATURAL_T else -0.5)
                               if insurance and key == 1 else 0.0)
                        second12 += wk * (float(cross[key][t])
                                          + 2.0 * ins * float(law[t] @ columns)
                                          + ins * ins * float(law[t].sum()))
                covariance = second12 - mean1 ** 2
                cov_exact = True
            else:
                method += "; exact_spots not applied: a decision was missing on a depleted shoe"
    if cov_exact and not exact:
        method += ("; variance: the covariance between spots exact (exact_spots), each "
                   "spot's variance " + ("exact" if variance_exact1 else "as combined"))
    elif not exact:
        method += ("; variance: each spot's exact when it can be, the covariance between "
                   "spots as combined")
    return OutcomeDistribution(tv, tp, exact=exact, method=method, spots=spots,
                               covariance=covariance, per_spot=single,
                               may_run_out=solution.may_run_out,
                               description=desc + f"; {spots} spots",
                               variance=(spots * single.variance
                                         + spots * (spots - 1) * covariance),
                               variance_exact=exact or (cov_exact and variance_exact1),
                               validate=False)
