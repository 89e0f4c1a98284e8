"""The game walk values a split hand once for all its contexts (lanes side by side:
docs/algorithms.md, "The game walk"); each lane does the arithmetic of walking that context
alone.  The identity checked here: split and round values with the contexts walked together
equal, bit for bit, those with each context walked alone (the engine's own one-context
walk, kept for policies and for this check), over the games' rules, every post-split class,
full, depleted and fractional shoes (one a hand overdraws), and every pair."""
from __future__ import annotations

import math

import pytest
from bjsolve import Rules, Shoe
from bjsolve.exact.engines import make_engine
from bjsolve.exact.kernel_rules import kernel_rules

GAMES = {
    "free bet": Rules.preset("free-bet"),
    "spanish 21": Rules.preset("spanish-21"),
    "super fun 21": Rules.preset("super-fun-21"),
    "pontoon": Rules.preset("pontoon"),
    "redoubles and rescue": Rules(decks=6, double_any_cards=True, redoubles=3,
                                  double_rescue=True, resplit_aces=True, hit_split_aces=True,
                                  double_split_aces=True, double_after_split=True),
}
SHOES = {
    "1 deck": Shoe.decks(1),
    "depleted": Shoe.decks(2).remove("TTT55A"),
    "overdrawn aces": Shoe.fractional([1.6, 4, 4, 4, 4, 4, 4, 4, 4, 16]),
}


def same(a: float, b: float) -> bool:
    return a == b or (math.isnan(a) and math.isnan(b))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("split_code", (0, 1, 2))
def test_contexts_walked_together_equal_each_walked_alone(game, split_code):
    params = kernel_rules(GAMES[game], split_code)
    for shoe_name, shoe in SHOES.items():
        for up in (1, 6, 10):
            together = make_engine(params, shoe, up)
            alone = make_engine(params, shoe, up)
            alone._walk_split_contexts_together(False)
            for pair in range(1, 11):
                a, b = together.split_ev(pair)[0], alone.split_ev(pair)[0]
                assert same(a, b), (shoe_name, up, pair, a, b)
            assert together.round_ev() == alone.round_ev(), (shoe_name, up)
            # (the two are different walks: alone, every split context has rows of its
            # own; Super Fun 21's surrender on split hands keeps the one-context walk)
            if game != "super fun 21":
                assert alone.memo_sizes[1] > together.memo_sizes[1]
