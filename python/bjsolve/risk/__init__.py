"""Money: risk of ruin and bankroll figures from a round's outcome distribution, bet ramps,
and the counted game (true-count frequencies, edge and variance by count, a ramp's figures)
without a simulator.
"""

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

# public name -> module that defines it (imported on first use)
_EXPORTS = {
    "RuinCurve": "ruin",
    "trip_ruin": "ruin",
    "lifetime_ruin": "ruin",
    "risk_summary": "ruin",
    "bankroll_for_risk": "ruin",
    "Ramp": "ramp",
    "parse_ramp": "ramp",
    "CountedGame": "game",
}

__all__ = list(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:  # the names as type checkers see them
    from .game import CountedGame
    from .ramp import Ramp, parse_ramp
    from .ruin import RuinCurve, bankroll_for_risk, lifetime_ruin, risk_summary, trip_ruin
