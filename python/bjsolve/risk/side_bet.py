"""A side bet played beside the counted game: which bets, how it is bet, and its moments at
each round start of the game.

The counter bets the side bet on the first spot of the rounds the main game is bet, at the
true count of the MAIN count, ``units`` units (a number, or a ramp of its own in the
ramp's vocabulary) at true counts >= ``threshold`` (None: at every count).  The bets here
are the card bets settled by the round's first cards (the player's two, the up card and,
for Lucky Ladies, the hole card): their outcome does not depend on how the hands are
played, so the side bet's value given the count is exact as in
``bjsolve.sidebets.counted_sidebet`` (falling-factorial moments of the unseen tag classes,
``CountModel``) at every depth and running count where a round can start.

Used by ``CountedGame`` (per true count: the side bet's mean and second moment per unit,
exact given the round-start law of the counted game) and by ``simulate`` (the same bet,
played by the compiled simulator from dealt kinds, an outcome table built by the Monte
Carlo module's own classifiers, ``bjsolve.sidebets.simulate``).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..model.ranks import show as _show
from ..sidebets.paytables import PayTable
from .ramp import MAX_BET, MIN_BET, Ramp, _true_count, parse_ramp

__all__ = ["GAME_SIDE_BETS", "SideBetPlay", "side_bet_play", "side_moments_by_state",
           "side_outcome_table"]

# the side bets the counted game and the simulator play beside the main game: settled by
# the first cards alone (bets on the dealer's drawing depend on the hands' play, and
# insurance / Bust Bonus are made after the up card: later steps)
GAME_SIDE_BETS = ("21+3", "perfect-pairs", "lucky-ladies", "match-the-dealer",
                  "royal-match", "over-13", "under-13", "exactly-13", "lucky-lucky")
# the covariance of the side bet with the main hand within a true count (see
# docs/counted-game.md, "A side bet beside the ramp")
COVARIANCE_METHOD = ("within a true count, the full shoe's covariance of one unit of each, "
                     "exact over the first cards' joint law (player's two cards and up card; "
                     "first_cards_covariance); across true counts exact from the per-count "
                     "means")


@dataclass(frozen=True)
class SideBetPlay:
    """How the side bet is played: ``bet`` (a name of ``GAME_SIDE_BETS``), its pay table
    ``paytable`` (a ``bjsolve.sidebets.PayTable``), ``threshold`` (a whole true count of the main count, or
    None: every round the main game is bet) and ``units`` (a Ramp: the side bet's units by
    true count; a fixed amount is a one-point ramp)."""
    bet: str
    paytable: PayTable
    threshold: int | None
    units: Ramp

    def units_at(self, true_counts) -> np.ndarray:
        """The side bet's units at each of ``true_counts`` (0 below the threshold)."""
        tcs = np.asarray(true_counts, dtype=float)
        units = self.units.bets(tcs)
        if self.threshold is not None:
            units = np.where(tcs < self.threshold - 1e-9, 0.0, units)
        return units

    def describe(self) -> str:
        units = self.units.describe() if len(self.units.points) > 1 else \
            f"{self.units.points[0][1]:g} unit(s)"
        when = "every round bet" if self.threshold is None else \
            f"true count >= {self.threshold:+d}"
        return f"{self.bet} ({self.paytable.name}): {units} at {when} (main count)"


def side_bet_play(bet, paytable=None, *, threshold=None, units=1.0) -> SideBetPlay:
    """A ``SideBetPlay`` from the user's values, each checked (the error names the field)."""
    from ..sidebets.analysis import bet as _bet
    from ..sidebets.paytables import paytable as _paytable
    if not isinstance(bet, str):
        raise TypeError(f"sidebet must be a side bet's name ({', '.join(GAME_SIDE_BETS)}), "
                        f"got {_show(bet)}")
    the_bet = _bet(bet)
    if the_bet.name not in GAME_SIDE_BETS:
        raise ValueError(f"sidebet: {the_bet.name} is not played beside the game (it is "
                         f"settled by the dealer's drawing or made after the up card); "
                         f"the game takes {', '.join(GAME_SIDE_BETS)}")
    table = _paytable(the_bet, paytable)
    if threshold is not None:
        threshold = _true_count(threshold, "sidebet_threshold")
    if isinstance(units, bool):
        raise TypeError(f"sidebet_units must be a number of units or a ramp, got "
                        f"{_show(units)}")
    if isinstance(units, (int, float)):
        if not (MIN_BET <= units <= MAX_BET):
            raise ValueError(f"sidebet_units must be from {MIN_BET:g} to {MAX_BET:,} units "
                             f"(or a ramp), got {_show(units)}")
        ramp = Ramp(((0, float(units)),))
    else:
        try:
            ramp = parse_ramp(units)
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"sidebet_units: a number of units or a ramp; {exc}") from None
    return SideBetPlay(the_bet.name, table, threshold, ramp)


def side_moments_by_state(play: SideBetPlay, decks: int, system, seen_depths, running_counts,
                          scale) -> tuple:
    """[depth, running count] the side bet's mean and second moment per unit bet at a round
    start after ``seen_depths[i]`` cards seen with running count ``running_counts[j]`` (the
    count distribution's grid, ``scale`` its steps per unit): exact, the chances of its
    outcomes given the count (``CountModel.chances_by_running_count``) over the
    multivariate hypergeometric law of the cards seen.  A state the count law never
    reaches is 0 (it has no weight)."""
    from ..sidebets.analysis import bet as _bet
    from ..sidebets.analysis import resolve_shoe
    from ..sidebets.counted import CountModel
    from ..sidebets.paytables import paytable as _paytable
    the_bet = _bet(play.bet)
    table = _paytable(the_bet, play.paytable)
    model = CountModel(the_bet, table, resolve_shoe(None, decks=decks), system)
    pays = model.pays
    outcomes = len(pays)
    mean = np.zeros((len(seen_depths), len(running_counts)))
    second = np.zeros_like(mean)
    for i, n in enumerate(seen_depths):
        keys, mass, joint = model.chances_by_running_count(int(n))
        p = joint[:, :outcomes] / mass[:, None]
        win = p @ pays - (1.0 - p.sum(axis=1))
        square = p @ (pays * pays) + (1.0 - p.sum(axis=1))
        at = np.rint((keys - running_counts[0]) * scale).astype(int)
        mean[i, at] = win
        second[i, at] = square
    return mean, second


def side_outcome_table(play: SideBetPlay) -> tuple:
    """(cards, outcome of every deal, win per unit of each outcome) for the compiled
    simulator: ``cards`` 3, the deal is the kinds of the first card, the up card and the
    second card as one base-52 number; 4 (a bet that reads the hole card, Lucky Ladies
    through the dealer's natural alone), that number times 2 plus 1 when the hole card
    gives the dealer a natural.  Classified by the Monte Carlo module's own readers of the
    cards (``bjsolve.sidebets.simulate``), not by the exact module's labelling; the hole
    card shown to them is an ace or a ten-valued card that completes the natural, or a 2."""
    from ..sidebets.analysis import bet as _bet
    from ..sidebets.paytables import paytable as _paytable
    from ..sidebets.simulate import SIMULATED_BETS, settle
    the_bet = _bet(play.bet)
    table = _paytable(the_bet, play.paytable)
    classify, _ = SIMULATED_BETS[the_bet.name]
    pays = {o: table.pay(o) for o in the_bet.outcomes}
    key = (the_bet.name, tuple(sorted(pays.items())))
    if key in _OUTCOME_TABLES:
        return _OUTCOME_TABLES[key]
    cards = 4 if the_bet.name == "lucky-ladies" else 3   # the hole card: the dealer's natural
    up, second = np.indices((52, 52)).reshape(2, -1)
    up_value = np.minimum(up // 4, 9)
    wins = []
    for first in range(52):               # one first card at a time
        dealt = [np.full(up.shape, first), up, second]
        if cards == 3:
            wins.append(settle(classify(dealt + [np.zeros(up.shape, dtype=int)], None),
                               pays))
            continue
        # a hole card without a natural (a 2: kind 4), then one with it (a ten-valued card
        # under an ace, an ace under a ten-valued card; none under another up card)
        plain = np.full(up.shape, 4)
        natural = np.where(up_value == 0, 36, np.where(up_value == 9, 0, 4))
        win_plain = settle(classify(dealt + [plain], None), pays)
        win_natural = settle(classify(dealt + [natural], None), pays)
        wins.append(np.stack([win_plain, win_natural], axis=1).ravel())
    win = np.concatenate(wins)
    values, index = np.unique(win, return_inverse=True)
    if len(values) > 127:
        raise ValueError(f"sidebet: {the_bet.name} has more than 127 different wins")
    outcome = index.astype(np.int8).ravel()
    values = values.astype(float)
    outcome.flags.writeable = values.flags.writeable = False    # shared by later calls
    if len(_OUTCOME_TABLES) >= 8:
        _OUTCOME_TABLES.clear()
    _OUTCOME_TABLES[key] = (cards, outcome, values)
    return cards, outcome, values


# (bet, pays) -> side_outcome_table's answer: Lucky Ladies' table (52^4 deals) takes
# seconds to classify, and every simulate call of a campaign asks for it again
_OUTCOME_TABLES: dict = {}


def first_cards_law(play: SideBetPlay, decks: int) -> tuple:
    """The side bet by the first cards at the full shoe of ``decks`` decks: (P, E[S | ...])
    over the cells (v, natural) of the values v of the player's first card, the up card
    and the player's second card (index ((first x 10 + up) x 10 + second) x 2 + natural,
    values 0..9 = ace .. ten-valued) and whether the hole card gives the dealer a natural.
    Exact: every ordered deal of kinds (the hole card's too, for a 4-card bet) at its
    chance without replacement, settled by ``side_outcome_table``; a 3-card bet's mean
    is the same in both cells of a v."""
    cards, outcome, pays = side_outcome_table(play)
    counts = np.full(52, float(decks))              # copies of each kind
    total = 52.0 * decks
    kinds = np.indices((52,) * 4).reshape(4, -1) if cards == 4 else \
        np.indices((52,) * 3).reshape(3, -1)
    # P(the ordered kinds) without replacement: each later card of a kind seen before
    # has one copy fewer
    chance = np.ones(kinds.shape[1])
    for position in range(len(kinds)):
        left = counts[kinds[position]].copy()
        for earlier in range(position):
            left -= kinds[earlier] == kinds[position]
        chance *= np.maximum(left, 0.0) / (total - position)
    value = np.minimum(kinds // 4, 9)              # 0..9: ace .. ten-valued
    deal = (kinds[0] * 52 + kinds[1]) * 52 + kinds[2]
    key = ((value[0] * 10 + value[1]) * 10 + value[2]) * 2
    if cards == 4:
        natural = (value[1] + value[3] == 9) & ((value[1] == 0) | (value[3] == 0))
        deal = deal * 2 + natural
        key = key + natural
    win = pays[outcome[deal]]
    if cards == 4:
        p = np.bincount(key, weights=chance, minlength=2000)
        side = np.bincount(key, weights=chance * win, minlength=2000)
    else:
        # the natural's cell: its share of v from the hole card's chance (one of the
        # N - 3 cards left)
        p_v = np.bincount(key // 2, weights=chance, minlength=1000)
        natural = _natural_given_first_cards(np.array([4.0 * decks] * 9 + [16.0 * decks]))
        p = np.stack([p_v * (1 - natural), p_v * natural], axis=1).ravel()
        s_v = np.bincount(key // 2, weights=chance * win, minlength=1000)
        side = np.stack([s_v * (1 - natural), s_v * natural], axis=1).ravel()
    with np.errstate(invalid="ignore", divide="ignore"):
        return p, np.where(p > 0, side / p, 0.0)


def _natural_given_first_cards(value_counts) -> np.ndarray:
    """P(the hole card gives the dealer a natural | the first cards' values v), v indexed
    as ``first_cards_law``'s, from the cards of each value A..T (fractional allowed)."""
    c = np.asarray(value_counts, dtype=float)
    n = c.sum()
    first, up, second = np.indices((10, 10, 10)).reshape(3, -1)
    hole = np.where(up == 0, 9, np.where(up == 9, 0, -1))
    left = c[np.maximum(hole, 0)] - (first == hole) - (second == hole)
    return np.where(hole >= 0, np.maximum(left, 0.0) / (n - 3), 0.0)


def _first_cards_chances(value_counts) -> np.ndarray:
    """P(v) of the first cards' values (``first_cards_law``'s order) drawn without
    replacement from the cards of each value A..T."""
    c = np.asarray(value_counts, dtype=float)
    n = c.sum()
    first, up, second = np.indices((10, 10, 10)).reshape(3, -1)
    return (c[first] / n * np.maximum(c[up] - (up == first), 0.0) / (n - 1)
            * np.maximum(c[second] - (second == first) - (second == up), 0.0) / (n - 2))


def hand_values(solution, policy=None) -> np.ndarray:
    """E[X | v] by the first cards' values v (index as ``first_cards_law``'s): the round's
    value given the two cards and the up card on the solution's shoe, unconditioned (the
    dealer's natural included), ``solution.hand_ev``'s value of the action ``policy``
    (cards, dealer, allowed) plays first, or of the best action (None: optimal play); the
    play after it is the solution's.  0 where the shoe cannot deal the three cards."""
    x_v = np.zeros(1000)
    for first in range(10):
        for up in range(10):
            for second in range(first, 10):
                cards = (first + 1, second + 1)
                try:
                    values = dict(solution.hand_ev(cards, up + 1, given_no_blackjack=False))
                except ValueError:
                    # a (fractional) shoe that cannot deal these three cards: their
                    # chance there is 0 (``_first_cards_chances``)
                    continue
                play = None
                if sorted(cards) == [1, 10]:
                    play = "stand"                  # a natural is paid at once
                elif policy is not None and len(values) > 1:
                    play = policy(cards, up + 1, tuple(values))
                best = (float(values[play]) if play in values
                        else max(float(v) for v in values.values()))
                for k in {(first * 10 + up) * 10 + second, (second * 10 + up) * 10 + first}:
                    x_v[k] = best
    return x_v


def first_cards_covariance(side_law, hands, value_counts, natural_tie: float) -> float:
    """Cov(X, S) per unit of each from the first cards: the side bet's mean by cell
    ``side_law`` (``first_cards_law``: E[S | v, natural]), the round's value ``hands``
    (``hand_values``: E[X | v], unconditioned) and the cards of each value A..T
    ``value_counts`` (a count's composition; fractional allowed), which give P(v) and
    P(natural | v).  With the dealer's natural X is -1, or ``natural_tie`` for a player
    natural (the peek ends the round); without it, E[X | v, no natural] follows from the
    unconditioned value.  Exact at the full shoe when X is played as ``hands`` plays it
    and S depends on the hole card only through the dealer's natural (every bet here: S's
    kinds change no rank the hand draws from); at a count's mean composition E[S | cell]
    is the full shoe's."""
    _, s = side_law
    s_plain, s_natural = s[0::2], s[1::2]
    p_v = _first_cards_chances(value_counts)
    natural = _natural_given_first_cards(value_counts)
    first, _, second = np.indices((10, 10, 10)).reshape(3, -1)
    player_natural = (first + second == 9) & ((first == 0) | (second == 0))
    x_natural = np.where(player_natural, natural_tie, -1.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        x_plain = np.where(natural < 1, (hands - natural * x_natural) / (1 - natural), 0.0)
    mean_x = float(p_v @ hands)
    mean_s = float(p_v @ (natural * s_natural + (1 - natural) * s_plain))
    both = float(p_v @ (natural * x_natural * s_natural + (1 - natural) * x_plain * s_plain))
    return both - mean_x * mean_s
