"""The games' exact variance of a split that may make 3-4 hands on a finite shoe
(``src/bjcore/game_split_moments.h``, the game law's ``round_law_entries(moments=True)``;
docs/risk.md, "The games").

The pmf of such a split stays combined (its hands independent given the dealer's
outcome); its second moment is made exact from every pair of hands.

* one split round on a small shoe (17-20 cards, enough points that a round of M hands
  cannot run out: 31 M + 17) against the card-by-card brute force of
  ``_reference_games.brute_force_game_round(law=True)`` in Fractions, which deals a
  resplit in the real order (the first hand draws its second card, a pair card starts a
  new hand, ...): the variance to 1e-12 (measured 2e-14), where the combination's is
  1.2-4.3 % high.  Free Bet (free splits: the first hand holds the stake, the others are
  free; limits 3 and 4; split aces), Spanish 21 (split 8s; split 2s that double and
  redouble: slow), Super Fun 21, Pontoon (no hole card), ENHC with a redouble and the
  rescue, the classic game (limit 4 with resplit and hit split aces); CDZ- and CDP1; and a
  strategy frozen in a policy engine (a callable) against the brute force of that play;
* the classic game through the game engine: its exact variance is the classic kernel's
  (``bjcore._split_moments``: its own pair passes), 1, 2 and 6 decks;
* the law itself (pmf, mean) does not change; ``outcome_distribution`` says the variance
  is exact (and keeps the pmf's where it cannot be: BB+1, CDP, ``exact_splits=False``).
"""
import warnings

import numpy as np
import pytest
from bjsolve import Rules, Shoe, solve
from bjsolve._reference_games import brute_force_game_round, reference_kwargs
from bjsolve.exact.game_law import law_arrays
from bjsolve.exact.kernel_rules import SPLIT_CLASSES, kernel_rules
from bjsolve.exact.policy import policy_engines
from test_game_law import _brute_law, _moments

from bjcore import GameEngine

EXACT = 1e-12
# (31 * 3 + 17 = 110 points at least for three hands, 141 for four)
S121 = (1, 1, 1, 1, 1, 1, 1, 3, 1, 6)        # 17 cards, 121 points, three 8s
S153 = (1, 0, 1, 0, 1, 1, 1, 4, 1, 9)        # 19 cards, 153 points, four 8s
ACES = (3, 1, 1, 1, 1, 1, 1, 1, 1, 7)        # 18 cards, 117 points, three aces
ACES4 = (4, 0, 1, 0, 1, 1, 1, 1, 1, 10)      # 20 cards, 142 points, four aces
TWOS = (1, 3, 1, 1, 1, 1, 1, 1, 1, 7)        # 18 cards, 119 points, three 2s

FREE_BET = Rules.preset("free-bet", decks=1)
CASES = {
    # name: (rules, shoe, upcard, pair, split class); the combination's variance error
    "free-bet-3": (FREE_BET.replace(max_split_hands=3), S121, 6, 8, "CDP1"),          # 1.4 %
    "free-bet-4": (FREE_BET, S153, 6, 8, "CDP1"),                                     # 1.4 %
    "free-bet-4-CDZ-": pytest.param(FREE_BET, S153, 10, 8, "CDZ-",                   # 1.5 %
                                    marks=pytest.mark.slow),
    "free-bet-aces": (FREE_BET.replace(max_split_hands=3), ACES, 6, 1, "CDZ-"),       # 2.7 %
    "spanish-21-3": (Rules.preset("spanish-21", decks=1, max_split_hands=3), S121, 6, 8,
                     "CDZ-"),                                                          # 1.2 %
    "super-fun-21-3": (Rules.preset("super-fun-21", decks=1, max_split_hands=3), S121, 6,
                       8, "CDP1"),                                                     # 1.2 %
    "pontoon-3": (Rules.preset("pontoon", decks=1, max_split_hands=3), S121, 6, 8, "CDZ-"),
    "enhc-redouble-rescue": (Rules(decks=1, hole_card="enhc", max_split_hands=3,
                                   redoubles=1, double_rescue=True), S121, 6, 8, "CDZ-"),
    "classic-aces-4": (Rules(decks=1, resplit_aces=True, hit_split_aces=True), ACES4, 6, 1,
                       "CDP1"),                                                        # 4.3 %
    # (slow: the brute force of split 2s that double and redouble takes 7 s each)
    "spanish-21-twos-CDP1": pytest.param(
        Rules.preset("spanish-21", decks=1, max_split_hands=3), TWOS, 6, 2, "CDP1",
        marks=pytest.mark.slow),
    "spanish-21-twos-CDZ-": pytest.param(
        Rules.preset("spanish-21", decks=1, max_split_hands=3), TWOS, 5, 2, "CDZ-",
        marks=pytest.mark.slow),
}


def _engine_moments(rules, counts, upcard, cards, split):
    """(mean, exact variance, the pmf's variance, entries) of the engine's round after
    ``cards``."""
    engine = GameEngine([float(c) for c in counts], upcard,
                        kernel_rules(rules, SPLIT_CLASSES[split]), False)
    entries = engine.round_law_entries(*cards, moments=True)
    values, law = law_arrays(entries)
    mean = float(law.sum(axis=0) @ values)
    m2 = float(law.sum(axis=0) @ values ** 2)
    return mean, m2 + sum(entries[7]) - mean ** 2, m2 - mean ** 2, entries


@pytest.mark.parametrize("rules, counts, upcard, pair, split", list(CASES.values()),
                         ids=list(CASES))
def test_the_variance_of_a_resplit_is_the_brute_force(rules, counts, upcard, pair, split):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        brute, action = _brute_law(rules, counts, upcard, (pair, pair), split=split)
    assert action == "split"
    mb, vb = _moments(brute)
    mean, variance, pmf_variance, entries = _engine_moments(rules, counts, upcard,
                                                            (pair, pair), split)
    assert entries[4] == 1 and entries[8] == 0   # (combined, its variance made exact)
    assert mean == pytest.approx(mb, abs=EXACT)
    assert variance == pytest.approx(vb, abs=EXACT)
    assert pmf_variance - vb > 1e-3              # (the combination's, left behind)
    assert entries[9] < EXACT                    # (the moments' mean is the law's)


def test_a_shoe_a_round_of_four_hands_could_run_out_of_keeps_the_combination():
    # 132 points: enough for three hands (110), not for four (141)
    rules = Rules(decks=1, resplit_aces=True, hit_split_aces=True)
    *_, entries = _engine_moments(rules, (4, 0, 1, 0, 1, 1, 1, 1, 1, 9), 6, (1, 1), "CDP1")
    assert entries[4] == 1 and entries[8] == 1 and not any(entries[7])


def _game_engine_variance(sol):
    """(mean, variance) of the classic ``sol`` computed by the game engine's law with the
    exact moments of its splits."""
    params = kernel_rules(sol.rules, SPLIT_CLASSES[sol.split])
    m1 = m2 = 0.0
    for key in sol.deal.playable_keys:
        engine = GameEngine(sol.shoe.kernel_weights(), key, params, sol.shoe.is_infinite)
        entries = engine.round_law_entries(moments=True)
        assert entries[8] == 0
        values, law = law_arrays(entries)
        w = sol.deal.weights[key]
        m1 += w * float(law.sum(axis=0) @ values)
        m2 += w * (float(law.sum(axis=0) @ values ** 2) + sum(entries[7]))
    return m1, m2 - m1 * m1


@pytest.mark.parametrize("decks, change", [
    (1, dict()),                                                     # resplits to 4
    (6, dict()),
    (2, dict(hit_soft_17=True, double_after_split=False, resplit_aces=True)),
])
def test_the_classic_game_is_the_classic_kernels_exact_variance(decks, change):
    # two constructions written apart over one shared pattern step
    # (split_pair_moments.h): the classic kernel's pair passes (_split_moments.pyx) and
    # the game law's (game_split_moments.h); the combination is 4e-5 (6D) to 2.3e-4 (1D)
    # off in the variance
    sol = solve(Rules(decks=decks, **change), threads=1)
    classic = sol.outcome_distribution(threads=1)
    assert classic.variance_exact and not classic.exact
    mean, variance = _game_engine_variance(sol)
    assert mean == pytest.approx(classic.mean, abs=1e-13)
    assert variance == pytest.approx(classic.variance, abs=1e-13)


def test_the_law_itself_does_not_change():
    # the moments are computed beside the law: its entries are the same, bit for bit
    sol = solve(Rules.preset("spanish-21", decks=1), threads=1)
    engine = sol._engines[7]
    plain = engine.round_law_entries()
    with_moments = engine.round_law_entries(moments=True)
    assert plain[:5] == with_moments[:5]
    assert plain[8] == plain[4] > 0 and with_moments[8] == 0
    assert not any(plain[7]) and any(with_moments[7])


def test_outcome_distribution_of_a_preset_has_the_exact_variance():
    sol = solve(Rules.preset("free-bet", decks=1), threads=1)
    dist = sol.outcome_distribution(threads=1)
    assert not dist.exact and dist.variance_exact
    assert "variance is exact all the same" in dist.method
    assert dist.mean == pytest.approx(float(sol.expected_value), abs=1e-12)
    fast = sol.outcome_distribution(threads=1, exact_splits=False)
    assert not fast.variance_exact and "exact_splits=False" in fast.method
    # the pmf is the same; only the variance moved (the pmf's 2.3e-4 high in 1D)
    assert np.array_equal(dist.values, fast.values)
    assert np.array_equal(dist.probabilities, fast.probabilities)
    assert dist.pmf_variance == fast.variance
    assert 1e-5 < fast.variance - dist.variance < 1e-3


@pytest.mark.parametrize("rules, split, why", [
    (Rules.preset("free-bet", decks=1), "CDP", "CDP"),
    (Rules(decks=1, hole_card="enhc", natural_loss="bb+1"), "CDZ-", "BB+1"),
])
def test_where_the_variance_stays_the_combinations(rules, split, why):
    sol = solve(rules, split=split, threads=1)
    dist = sol.outcome_distribution(threads=1)
    assert not dist.exact and not dist.variance_exact
    assert why in dist.method
    assert dist.variance == dist.pmf_variance


def _fixed_play(cards, dealer, allowed):
    """A fixed strategy (split 8s, double hard 9-11, hit to 17 or soft 18)."""
    total = sum(cards)
    soft = 1 in cards and total + 10 <= 21
    total += 10 if soft else 0
    if "split" in allowed and len(cards) == 2 and cards[0] == cards[1] == 8:
        return "split"
    if "double" in allowed and 9 <= total <= 11 and not soft:
        return "double"
    return "hit" if total < (18 if soft else 17) else "stand"


def test_a_frozen_strategy_is_the_brute_force_of_that_play():
    # the decisions frozen in a policy engine (a chart or a callable) are read by the
    # split hands whatever the extra pair cards gone: the variance is exact there too
    rules = FREE_BET.replace(max_split_hands=3)
    counts, upcard = S121, 6
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        engine = policy_engines(rules, Shoe(list(counts)), _fixed_play)[upcard]
    entries = engine.round_law_entries(8, 8, moments=True)
    assert entries[4] == 1 and entries[8] == 0 and engine.policy_misses == 0
    values, law = law_arrays(entries)
    mean = float(law.sum(axis=0) @ values)
    variance = float(law.sum(axis=0) @ values ** 2) + sum(entries[7]) - mean ** 2
    kw = reference_kwargs(rules)
    kw.pop("natural_always_wins")
    kw.pop("natural_tie")
    rest = list(counts)
    for c in (upcard, 8, 8):
        rest[c - 1] -= 1
    brute = brute_force_game_round(rest, upcard, (8, 8),
                                   lambda cards, up, allowed, state: _fixed_play(cards, up,
                                                                                 allowed),
                                   law=True, sevens=counts[6], **kw)
    mb = sum(p * v for (_, v), p in brute.chances.items())
    vb = sum(p * v * v for (_, v), p in brute.chances.items()) - mb * mb
    assert mean == pytest.approx(float(mb), abs=EXACT)
    assert variance == pytest.approx(float(vb), abs=EXACT)
