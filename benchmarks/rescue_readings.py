"""How much the reading of the double rescue after a redouble moves Spanish 21's house edge.

    python benchmarks/rescue_readings.py        (about 6 minutes: the pure-Python reference)

The generous reading (``rescue_after_redouble=True``, docs/games.md): a rescue forfeits
the hand's original bet however often it was redoubled.  The preset's reading: no rescue
once the hand has redoubled.  Another reading has the rescue take back only the last
doubled portion (half the hand's stake is lost).  The engine computes the first two; the reference
(``bjsolve._reference_games``) is subclassed here to compute the other, exactly, on an
infinite shoe.  The reference is far too slow for Spanish decks' depleted shoes, so the
game is the Spanish 21 preset on an infinite *standard* deck: the point is the size of each
reading's effect, set beside redoubling with no rescue at all (the engine).

Measured 2026-11-28 (house edge, %; negative: a player advantage): RD0 -1.1175, RD3 with
the generous rescue -1.8888, RD3 with the half-stake rescue -1.7626, RD3 with no rescue
-1.6499; 2026-11-29, the engine: RD3 with no rescue after a redouble (the preset's reading)
-1.7632, next to the half-stake reading.
"""
import time

import bjsolve
from bjsolve import Rules
from bjsolve._reference_games import GameReferenceSolver, reference_kwargs


class HalfStakeRescue(GameReferenceSolver):
    """The rescue takes back only the last doubled portion: half the own stake is lost."""

    def _rescued(self, ctx, hand, key, own, own0):
        beta = self._leaf_beta(ctx, hand, key)
        return (1 - beta) * -(own / 2) + beta * self._natural_pay(own)


def main():
    rules = Rules.preset("spanish-21", spanish_deck=False, decks=float("inf"),
                         rescue_after_redouble=True)
    ours = bjsolve.solve(rules)
    preset = bjsolve.solve(rules.replace(rescue_after_redouble=False))
    no_redouble = bjsolve.solve(rules.replace(redoubles=0, rescue_after_redouble=False))
    no_rescue = bjsolve.solve(rules.replace(double_rescue=False, rescue_after_redouble=False))
    half = HalfStakeRescue(None, split="CDZ-", **reference_kwargs(rules))
    weights = {up: (4 if up < 10 else 16) / 52 for up in range(1, 11)}
    t0 = time.perf_counter()
    ev_half = 0.0
    for up in range(1, 11):
        v = float(half.ev_given_dealer(up))
        ev_half += weights[up] * v
        print(f"upcard {up}: half-stake {v:+.6f}, ours {float(ours.ev_by_dealer[up]):+.6f} "
              f"({time.perf_counter() - t0:.0f} s)", flush=True)
    print(f"house edge %: RD0 {-100 * float(no_redouble.expected_value):.4f}, RD3 generous "
          f"rescue {-100 * float(ours.expected_value):.4f}, RD3 no rescue after a redouble "
          f"{-100 * float(preset.expected_value):.4f}, RD3 half-stake rescue {-100 * ev_half:.4f}, "
          f"RD3 no rescue {-100 * float(no_rescue.expected_value):.4f}")


if __name__ == "__main__":
    main()
