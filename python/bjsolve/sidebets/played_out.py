"""Which of the player's cards are out when the dealer draws: the two conventions of the
bets settled by the dealer's drawing (Bust It, Buster Blackjack, Bust Bonus, Push 22).

``strategy="two-cards"`` (the default, the convention of published tables): only the
player's first two cards (and the up card) are out.  ``strategy="basic"`` / ``"optimal"``
/ a ``StrategyChart``: the player's ``spots`` are played out first, each by that
strategy (splits, doubles, surrender, naturals), and the dealer draws from what is left.

Why the two give the same probabilities.  The bet does not see the player's cards.  Given
the cards seen so far (the up card, the player's cards), the chance that the dealer's
remaining cards make a given final hand is a function of the unseen cards' counts, and as
one more card is dealt its expectation does not change (the unseen cards are exchangeable:
the next card and the ones after it are alike).  So that chance is a martingale in the
number of cards the player has taken, and the player stops by looking only at cards
already dealt.  By optional stopping, its expectation when the player has finished equals
its value before he started: averaged over the player's play, the dealer's final-hand law
(ranks, suits, the order of his first three cards) is exactly the law on the shoe with
the player's cards unseen, whatever the strategy, the number of spots, splits and doubles.
The same holds for the Buster award with a player natural (the natural's two cards are
seen and out; the other spots' play averages away).  Two conditions, checked here:

* the dealer completes his hand in every round, even when every player hand has busted,
  surrendered or is a natural, as the rules of these bets require (Buster Blackjack's
  rules say so; a table that skipped the draw would settle the bet on a two-card hand);
* no round can run out of cards (``check_round_fits``): a shoe with too few cards for
  every spot's hands and the dealer's is refused.

The test suite plays whole rounds out card by card with Fractions (its own small chart,
one and two spots, S17 and H17, suits) and the simulator plays the chart on shuffled
shoes; both agree with the two-card figures (docs/side-bets.md).
"""
from __future__ import annotations

import numbers
from dataclasses import dataclass

from ..model import Rules, show
from ..model.suited_shoe import SuitedShoe

__all__ = ["DEALER_DRAWN_BETS", "PLAY_STRATEGIES", "Play", "check_round_fits", "convention_of",
           "resolve_play"]

PLAY_STRATEGIES = ("two-cards", "basic", "optimal")
MAX_SPOTS = 7
# the bets settled by cards the dealer draws after the player has played
DEALER_DRAWN_BETS = ("bust-it", "buster", "bust-bonus", "push-22")

# most of a hand's value (aces as 1) a round can take: a player hand draws while its hard
# total is at most 20 and its last card is at most 10; the dealer draws to hard 16 at most
HAND_VALUE, DEALER_VALUE = 30, 26


@dataclass(frozen=True)
class Play:
    """How the player's cards leave the shoe before the dealer draws.

    strategy: "two-cards" (only the first two cards; the published convention), "basic"
    (the rule set's basic-strategy chart), "optimal" (``bjsolve.solve(rules, shoe=...)``'s
    choice for each hand, split hands CDZ-) or "chart" (a ``StrategyChart`` given);
    spots: the player's spots, each played out in turn (the bet is on the first; every
    spot's bet has the same law); rules: the game the strategy plays."""
    strategy: str
    spots: int
    rules: Rules | None = None
    chart: object = None

    @property
    def played_out(self) -> bool:
        return self.strategy != "two-cards"

    def describe(self) -> str:
        """The convention in words, for a result's ``convention``."""
        if not self.played_out:
            return ("two cards: the dealer's hand is drawn from the shoe given, only the "
                    "player's first two cards (unseen, so changing nothing on average) and "
                    "the up card out, as published tables do; the player's draws are not "
                    "modelled")
        by = {"basic": "the rule set's basic-strategy chart",
              "optimal": "optimal play (bjsolve.solve's choice for each hand)",
              "chart": "the chart given"}[self.strategy]
        spots = "one spot" if self.spots == 1 else f"{self.spots} spots"
        return (f"played out: the player's {spots} played by {by} (splits: each split hand "
                f"played by the same strategy; doubles one card; surrender; a natural takes "
                f"no card), every spot's cards out before the dealer draws, and the dealer "
                f"completes his hand in every round, even when every player hand busted, "
                f"surrendered or is a natural; the player's cards are unseen by the bet, so "
                f"by optional stopping the dealer's final-hand law equals the two-card "
                f"convention's, exactly")


def resolve_play(strategy="two-cards", spots=1, rules=None, hit_soft_17: bool = False) -> Play:
    """Check and bundle the play keywords (``strategy``, ``spots``, ``rules``)."""
    from ..exact.strategy import StrategyChart
    if isinstance(spots, bool) or not isinstance(spots, numbers.Integral) \
            or not 1 <= int(spots) <= MAX_SPOTS:
        raise ValueError(f"spots must be a whole number 1..{MAX_SPOTS}, got {show(spots)}")
    chart = None
    if isinstance(strategy, StrategyChart):
        chart, strategy = strategy, "chart"
    elif not isinstance(strategy, str):
        raise TypeError(f"strategy must be one of {', '.join(PLAY_STRATEGIES)} or a "
                        f"StrategyChart, got {show(strategy)}")
    else:
        strategy = strategy.strip().lower()
        if strategy not in PLAY_STRATEGIES:
            raise ValueError(f"strategy: {show(strategy)} is not a way to play; allowed: "
                             f"{', '.join(PLAY_STRATEGIES)} (or a StrategyChart)")
    if strategy == "two-cards":
        if spots != 1:
            raise ValueError(f"spots={show(spots)}: other spots matter only when the hands "
                             "are played out; give strategy='basic' or 'optimal'")
        if rules is not None:
            raise ValueError("rules: the two-card convention plays no hand; give strategy="
                             "'basic' or 'optimal' with rules")
        return Play("two-cards", 1)
    if rules is None:
        rules = Rules(hit_soft_17=hit_soft_17)
    elif not isinstance(rules, Rules):
        raise TypeError(f"rules must be a bjsolve.Rules, got {show(rules)}")
    elif rules.hit_soft_17 != hit_soft_17:
        raise ValueError(f"rules.hit_soft_17={rules.hit_soft_17} but hit_soft_17="
                         f"{hit_soft_17}: the dealer's rule must be the same in both")
    return Play(strategy, int(spots), rules, chart)


def check_round_fits(shoe: SuitedShoe, play: Play, spare: float = 0) -> None:
    """Refuse a shoe on which a played-out round could run out of cards.

    A round that runs out has taken every card; while some hand still wants a card, the
    round has taken at most HAND_VALUE per player hand (less the 10 the wanting hand has
    not drawn) and DEALER_VALUE, in card values with aces 1.  A shoe worth more than that
    cannot run out.  ``spare``: value that may still leave the shoe first (10 for the
    effects of removal, which take one more card out)."""
    if not play.played_out:
        return
    hands = play.spots * (play.rules.max_split_hands if play.rules is not None else 4)
    most = hands * HAND_VALUE + DEALER_VALUE - 10
    counts = shoe.array().reshape(13, 4).sum(axis=1)
    worth = float(sum(min(r + 1, 10) * c for r, c in enumerate(counts)))
    if worth - spare <= most:
        raise ValueError(f"shoe too small for {play.spots} spot(s) played out: its cards are "
                         f"worth {worth - spare:g} (aces 1), and a round of up to {hands} player "
                         f"hands and the dealer's could take {most} before a hand wants "
                         f"another card (the round could run out)")


def convention_of(the_bet, play: Play) -> str:
    """A result's ``convention``: which cards settle the bet, which of the player's cards
    are out, and the bet's own assumptions."""
    own = the_bet.convention
    if the_bet.name not in DEALER_DRAWN_BETS:
        if play.played_out:
            own += ("; settled by cards dealt before the player plays, so the player's play "
                    "(and other spots) changes nothing")
        return f"{the_bet.cards}; {own}"
    return f"{the_bet.cards}; {play.describe()}; {own}"
