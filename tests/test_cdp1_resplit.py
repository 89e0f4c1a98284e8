"""A split that may resplit, under CDZ- and CDP1, is the EV of playing the class's own
picks: the engine's split value against the card-by-card brute force of the round
(``_reference_games.brute_force_game_round``, exact fractions, the split hands taking the
reference solver's picks), 8-8 against a 6 split to three hands on 17- and 18-card shoes
that no round can run out of (``deal.round_may_run_out``).

On a shoe a round could run out of, the two may part (a 13-card shoe of 81 points, three
8s: CDP1 4e-5 to 5e-5 apart, Free Bet's free splits 3.4e-4): a dealer who must draw from
an empty shoe busts by convention, which the split construction's exchange of card orders
does not carry over; such values describe no real game (docs/conventions.md).
"""
import warnings

import pytest
from bjsolve import Rules, Shoe
from bjsolve.model.deal import round_may_run_out
from test_game_law import _brute_law, _engine_law, _moments

RULES = Rules(decks=1, max_split_hands=3, double_after_split=False)
SHOES = [(1, 1, 1, 1, 1, 1, 1, 3, 1, 6), (2, 1, 1, 1, 1, 1, 1, 3, 2, 5)]   # three 8s each


@pytest.mark.parametrize("split", ["CDZ-", "CDP1"])
@pytest.mark.parametrize("shoe", SHOES)
def test_a_split_with_a_resplit_is_the_ev_of_playing_its_picks(shoe, split):
    assert not round_may_run_out(RULES, Shoe(list(shoe)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        brute, action = _brute_law(RULES, shoe, 6, (8, 8), split=split)
    assert action == "split"
    engine = _engine_law(RULES, shoe, 6, (8, 8), split=split)
    assert float(_moments(engine)[0]) == pytest.approx(float(_moments(brute)[0]), abs=1e-12)
