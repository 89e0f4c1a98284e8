"""BB+1 in split rounds of three and four hands (src/bjcore/game_bb1.h; docs/games.md, "No
hole card: what a dealer natural takes").

With the same play, BB+1 and OBBO settle every dealer outcome alike but the natural: OBBO
takes one unit from each hand still standing, BB+1 one unit in all (when one stands; the
split hands' own stakes are at least one unit each).  So, N being the number of hands
standing when the dealer turns a natural,

    split value (BB+1) - split value (OBBO) = E[nat (N - [N >= 1])].

The right side is enumerated here card by card in floats, independently of the engine: a
real split round dealt as the brute force of ``_reference_games`` deals it (the hand in
turn takes its second card, a pair card while fewer than the limit are out is split off,
the hand is played out, then the next), the hands playing the reference's decisions, the
hole card's natural weighed at the end on the cards left.  The engine's two split values
must differ by it to 1e-12, with resplits to three and four hands.  A slow case checks a
whole three-hand split value against the Fraction brute force.
"""
import math
import warnings
from functools import lru_cache

import pytest

from bjsolve import Rules, solve

EXACT = 1e-12


def _reference(rules, counts):
    from bjsolve._reference_games import GameReferenceSolver, reference_kwargs
    return GameReferenceSolver(counts, split="CDP1",
                               **reference_kwargs(rules.replace(natural_loss="obbo")))


def _natural_refund(rules, counts, upcard, pair, infinite=False):
    """E[nat (N - [N >= 1])] of splitting ``pair`` against ``upcard`` (shoe ``counts``,
    the upcard and the pair included; ``infinite``: cards drawn with the chances of
    ``counts``), the split hands playing the reference's CDP1 decisions; doubles after
    splits (one card, then the hand stands), no rescue."""
    ref = _reference(rules, None if infinite else counts)
    limit = rules.max_split_hands
    natural = 10 if upcard == 1 else 1
    start = list(counts)
    if not infinite:
        for c in (upcard, pair, pair):
            start[c - 1] -= 1

    def draws(shoe):
        left = sum(shoe)
        for r in range(1, 11):
            if shoe[r - 1]:
                rest = list(shoe)
                if not infinite:
                    rest[r - 1] -= 1
                yield r, shoe[r - 1] / left, tuple(rest)

    def hard(cards):
        return sum(cards)

    @lru_cache(maxsize=None)
    def deal_second(shoe, waiting, hands, standing):
        out = 0.0
        for r, p, rest in draws(shoe):
            if r == pair and hands < limit:
                out += p * deal_second(rest, waiting + 1, hands + 1, standing)
            else:
                out += p * play(rest, tuple(sorted((pair, r))), waiting, hands, standing)
        return out

    def finish(shoe, waiting, hands, standing):
        if waiting:
            return deal_second(shoe, waiting - 1, hands, standing)
        left = sum(shoe)
        nat = shoe[natural - 1] / left if left else 0.0
        return nat * (standing - (1 if standing else 0))

    @lru_cache(maxsize=None)
    def play(shoe, cards, waiting, hands, standing):
        action = ref.game_action(cards, upcard, split_pair=pair)
        if action == "stand":
            return finish(shoe, waiting, hands, standing + 1)
        if action not in ("hit", "double"):
            raise AssertionError(f"unexpected action {action!r}")
        out = 0.0
        for r, p, rest in draws(shoe):
            new = tuple(sorted(cards + (r,)))
            if hard(new) > 21:
                out += p * finish(rest, waiting, hands, standing)
            elif action == "double":
                out += p * finish(rest, waiting, hands, standing + 1)
            else:
                out += p * play(rest, new, waiting, hands, standing)
        return out

    return deal_second(tuple(start), 1, 2, 0)


def _engine_split(rules, counts, upcard, pair, loss, infinite=False):
    from bjcore import GameEngine
    from bjsolve.exact.kernel_rules import SPLIT_CLASSES, kernel_rules
    weights = [c / sum(counts) for c in counts] if infinite else [float(c) for c in counts]
    engine = GameEngine(weights, upcard,
                        kernel_rules(rules.replace(natural_loss=loss), SPLIT_CLASSES["CDP1"]),
                        infinite)
    return engine.split_ev(pair)[0]


def _rules(hands):
    return Rules(decks=1, hole_card="enhc", natural_loss="bb+1", max_split_hands=hands,
                 double_after_split=True)


STANDARD = (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)
SHOE = (1, 1, 1, 2, 1, 4, 1, 4, 1, 4)   # 20 cards: four 6s, four 8s (four hands)


@pytest.mark.parametrize("hands, upcard, pair", [
    (2, 10, 8), (3, 10, 8), (4, 10, 8), (4, 1, 8),
    pytest.param(4, 10, 6, marks=pytest.mark.slow),
])
def test_bb1_gives_back_the_standing_hands_units_but_one(hands, upcard, pair):
    rules = _rules(hands)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        refund = _natural_refund(rules, SHOE, upcard, pair)
    bb1 = _engine_split(rules, SHOE, upcard, pair, "bb+1")
    obbo = _engine_split(rules, SHOE, upcard, pair, "obbo")
    assert bb1 - obbo == pytest.approx(refund, abs=EXACT)
    assert refund > 1e-3


@pytest.mark.parametrize("hands", [3, 4])
def test_the_infinite_shoe(hands):
    """Hands dealt independently: the engine takes C as a product of the hands' chances."""
    rules = _rules(hands).replace(decks=math.inf)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        refund = _natural_refund(rules, STANDARD, 10, 8, infinite=True)
    bb1 = _engine_split(rules, STANDARD, 10, 8, "bb+1", infinite=True)
    obbo = _engine_split(rules, STANDARD, 10, 8, "obbo", infinite=True)
    assert bb1 - obbo == pytest.approx(refund, abs=EXACT)


def test_more_split_hands_give_back_more():
    """A fourth hand standing beside the others costs OBBO a unit that BB+1 keeps: the
    refund grows with the limit (the same shoe and play)."""
    refunds = [_engine_split(_rules(h), SHOE, 10, 8, "bb+1")
               - _engine_split(_rules(h), SHOE, 10, 8, "obbo") for h in (2, 3, 4)]
    assert refunds[0] < refunds[1] < refunds[2]


@pytest.mark.slow
def test_a_three_hand_split_against_the_fraction_brute_force():
    from test_natural_loss_law import _split_values
    rules = Rules(decks=1, hole_card="enhc", natural_loss="bb+1", max_split_hands=3)
    out = _split_values(rules, (1, 1, 1, 1, 1, 1, 1, 3, 1, 3), 10, 8)
    (brute_obbo, engine_obbo), (brute_bb1, engine_bb1) = out["obbo"], out["bb+1"]
    assert engine_obbo == pytest.approx(brute_obbo, abs=EXACT)
    assert engine_bb1 == pytest.approx(brute_bb1, abs=EXACT)
    assert brute_bb1 > brute_obbo + 1e-3


def test_free_splits_with_bb1_are_refused_by_name():
    with pytest.raises(NotImplementedError, match="free_splits"):
        solve(Rules(decks=1, hole_card="enhc", natural_loss="bb+1", max_split_hands=3,
                    free_splits=(8,)))
