"""The simulator of the real game (a shoe dealt to a cut card, counted, bet by a ramp,
played by a strategy with index plays), what it returns, and runs on a Dask cluster.
"""

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

# public name -> module that defines it (imported on first use)
_EXPORTS = {
    "simulate": "simulator",
    "build_plan": "simulator",
    "SimulationResult": "result",
    "GamePlan": "game_plan",
    "simulate_switch_shoe": "switch_shoe",
}

__all__ = list(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:  # the names as type checkers see them
    from .game_plan import GamePlan
    from .result import SimulationResult
    from .simulator import build_plan, simulate
    from .switch_shoe import simulate_switch_shoe
