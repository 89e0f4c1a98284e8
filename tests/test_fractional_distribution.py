"""The round's outcome distribution on fractional shoes (a shoe placed exactly at a true
count: ``Shoe.fractional``).  Such a shoe is no real shoe; the distribution follows the
solver's construction, so the identities hold as on whole cards: the probabilities sum to
one and the mean is the solve's expected value."""
import warnings

import numpy as np
import pytest

from bjsolve import Rules, solve
from bjsolve.counting import true_count_shoes


def _laws(rules, counts):
    shoes, _ = true_count_shoes(rules, "hilo", counts)
    for tc, shoe in shoes.items():
        assert shoe.is_fractional
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            sol = solve(rules, shoe)
            yield tc, sol, sol.outcome_distribution()


@pytest.mark.parametrize("kw", [dict(decks=2, max_split_hands=1),
                                dict(decks=2, max_split_hands=1, hole_card="exposed")])
def test_unsplit_mean_is_the_solve_value(kw):
    """Regression: the dealer's shoe after a hand holding more cards of a rank than the
    fractional shoe has (0.9 left, one drawn) was formed with the counts clipped at 0,
    the solver's with the counts less the cards drawn: the mean was 2-6e-7 off."""
    for tc, sol, dist in _laws(Rules(**kw), [-6, 1, 3, 8]):
        assert abs(dist.mean - sol.expected_value) < 1e-14, tc
        assert abs(dist.probabilities.sum() - 1.0) < 1e-15, tc


def test_exposed_game_split_without_blocks_sums_to_one():
    """Both dealer cards face up, 2 decks at true count +1: against (2, 2) a pair of 2s
    leaves -0.1 twos, so the split construction has no block at all; the solver values
    that split 0 and plays it.  Regression: the law was short by 9e-6."""
    for tc, sol, dist in _laws(Rules(decks=2, max_split_hands=2, hole_card="exposed"), [1]):
        assert abs(dist.probabilities.sum() - 1.0) < 1e-15, tc
        assert np.all(dist.probabilities >= 0)
        # splits on a fractional shoe follow the solver's construction, not a real game's
        # two-hand law, and say so
        assert not dist.exact
