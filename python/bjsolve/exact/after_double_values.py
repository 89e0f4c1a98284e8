"""The value of each choice after a double's card, priced as the game engine prices it.

After its d-th double a hand's own stake is 2^d original bets.  Its choices:

- stand: 2^d x the hand's stand value (per unit of stake);
- rescue (where offered: after the first double, after a redouble only with
  ``rescue_after_redouble``): the ORIGINAL bet is lost, whatever the stake has grown to
  (the engine's rule, ``src/bjcore/game_walk.h``, ``doubled_choice``);
- redouble (while redoubles remain): one more card at stake 2^(d+1), then the best of
  these choices again at d + 1 doubles.

A redouble is NOT 2^d x the hand's double value: that value is a first double's, whose
later rescue costs one unit per unit of stake (2^d after scaling, where the engine charges
1), and which has every redouble still ahead of it.  So the redouble is walked here card by
card, from the engine's stand values of the hands it reaches.

Values are unconditioned (``hand_ev(..., given_no_blackjack=False)``), as inside the
engine: ``beta`` is the chance that the dealer's hole card completes a natural given the
hand; with a peek (or an original-bets-only) dealer the stake added by a double comes back
when the natural shows, with ``hole_card="enhc"`` the natural takes it.  Every option of a
hand shares the natural's part where the natural takes the original bet only, so the
choice is the one given no dealer natural.  (Under OBBO / BB+1 a rescue costs the original
bet whatever the dealer holds; a redouble's doubled 21 and returned stake there are priced as
under ENHC: no game deals redoubles with those rules.)
"""
from __future__ import annotations

from ..model.ranks import hand_total


def rescue_offered(rules, doubles: int) -> bool:
    """Whether a hand that has doubled ``doubles`` times may still be rescued."""
    return bool(rules.double_rescue and (doubles == 1 or rules.rescue_after_redouble))


class AfterDoubleValues:
    """``options(cards, upcard, doubles)`` -> {action: unconditioned value in original
    bets} for a doubled hand below 21 (one upcard per dealer key)."""

    def __init__(self, solution):
        self.solution = solution
        self.rules = solution.rules
        shoe = solution.shoe
        self.infinite = bool(shoe.is_infinite)
        self.counts = [float(c) for c in shoe.counts]
        self.refund = self.rules.hole_card != "enhc"   # the double's stake comes back
        self._stand: dict = {}
        self._best: dict = {}

    # ---- the shoe a hand sees --------------------------------------------------------
    def _left(self, cards, upcard):
        left = list(self.counts)
        if not self.infinite:
            for c in (upcard,) + tuple(cards):
                left[c - 1] -= 1
        return left

    def _natural_chance(self, left, upcard) -> float:
        """The chance that the hole card completes a dealer natural (peek or not)."""
        if upcard not in (1, 10):
            return 0.0
        total = sum(left)
        return (left[9] if upcard == 1 else left[0]) / total if total > 0 else 0.0

    def stand(self, cards, upcard) -> float:
        """A doubled hand's stand value per unit of stake (unconditioned)."""
        key = (cards, upcard)
        v = self._stand.get(key)
        if v is None:
            if hand_total(cards)[0] == 21:
                v = self._doubled_21(cards, upcard)
            else:
                values = self.solution.hand_ev(cards, upcard, given_no_blackjack=False)
                v = float(values["stand"])
            self._stand[key] = v
        return v

    def _doubled_21(self, cards, upcard) -> float:
        """A doubled 21 stands without a bonus (``hand_ev``'s stand pays the 5-card or
        6-7-8 bonus an undoubled hand gets): settled from the dealer's law as the engine
        settles a standing hand (game_walk.h, ``stand_law``)."""
        rules = self.rules
        left = self._left(cards, upcard)
        if self.infinite:
            total = sum(left)
            left = [c / total for c in left]
        engine = self.solution._engines[upcard]
        with self.solution._engine_locks[upcard]:
            d17, d18, d19, d20, d21, natural, d22, over = engine._dealer_law(left)
        always = rules.player_21_wins
        win = d17 + d18 + d19 + d20 + over + (d21 if always else 0.0)
        tie = 0.0 if always else d21
        if always or rules.dealer_22 != "push":
            win += d22
        tie_value = -1.0 if rules.dealer_wins_ties else 0.0
        return win - natural + tie_value * tie

    # ---- the choices -------------------------------------------------------------------
    def options(self, cards, upcard, doubles) -> dict:
        cards = tuple(sorted(cards))
        stake = 2.0 ** doubles
        left = self._left(cards, upcard)
        beta = self._natural_chance(left, upcard)
        out = {"stand": stake * self.stand(cards, upcard)}
        if doubles <= self.rules.redoubles:
            out["redouble"] = self._redouble(cards, upcard, doubles, left, beta)
        if rescue_offered(self.rules, doubles):
            # the engine's rescue: the original bet (no hole card: a later natural takes
            # the doubled stake; OBBO / BB+1: settled at once for the original bet)
            out["rescue"] = (-1.0 if self.rules.natural_loss != "hole-card"
                             else -(1.0 - beta) - stake * beta)
        return out

    def best(self, cards, upcard, doubles) -> float:
        cards = tuple(sorted(cards))
        key = (cards, upcard, doubles)
        v = self._best.get(key)
        if v is None:
            if hand_total(cards)[0] >= 21:
                v = (2.0 ** doubles) * self.stand(cards, upcard)
            else:
                v = pick(self.options(cards, upcard, doubles))[1]
            self._best[key] = v
        return v

    def _redouble(self, cards, upcard, doubles, left, beta) -> float:
        stake = 2.0 ** doubles                 # the stake added; the new one is 2 stake
        total = sum(left)
        v = stake * beta if self.refund else 0.0
        hard = sum(cards)
        for r in range(1, 11):
            p = left[r - 1] / total if total > 0 else 0.0
            if p <= 0:
                continue
            if hard + r > 21:
                v -= p * 2.0 * stake
            else:
                v += p * self.best(cards + (r,), upcard, doubles + 1)
        return v


def pick(options: dict) -> tuple[str, float]:
    """The best option (ties, within the engine's relative 1e-12: stand, then redouble,
    then rescue), and its value."""
    best = "stand"
    for name in ("redouble", "rescue"):
        if name in options and options[name] - options[best] > 1e-12 * max(
                1.0, abs(options[best])):
            best = name
    return best, options[best]
