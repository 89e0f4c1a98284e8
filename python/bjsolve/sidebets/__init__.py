"""Side bets, exact with suits: 21+3, Perfect Pairs, Lucky Ladies, Lucky Lucky, Royal Match,
Match the Dealer, Over/Under 13, insurance, Bust It, Buster Blackjack, Bust Bonus and Free
Bet's Push 22.

>>> from bjsolve import sidebets
>>> r = sidebets.edge("21+3", "classic", decks=6)
>>> print(f"{r.house_edge:.4%}")
3.2386%

Every probability is exact for the shoe given (a ``SuitedShoe``: counts by rank and suit;
a ``bjsolve.Shoe`` is spread evenly over suits).  Pay tables are data (``PRESETS``, or any
mapping {outcome: pay to one}).  ``effects_of_removal`` and ``best_count`` give the
effects of removing each card and the best linear count; ``edges_table`` every bet under
every preset; ``counted_sidebet`` how often a count finds an edge and what betting then
earns (card bets; a first exact model); ``suit_count`` the best count over the (rank, suit)
cells and the suit counts' effects (``SUIT_SYSTEMS``: the red-black count, and "suits", the
four suit counts ``counted_sidebet`` and the simulator take); ``simulate_sidebet`` an
independent Monte Carlo check of both (flat, or at a true-count threshold).  The bets the
dealer's drawing settles take ``strategy`` ("two-cards", or the hands played out by
"basic"/"optimal" over ``spots``; the same law, ``played_out`` says why).  Conventions:
docs/side-bets.md.
"""
from typing import TYPE_CHECKING

from ..lazy import lazy_exports

# public name -> module that defines it (imported on first use)
_EXPORTS = {
    "BETS": "analysis",
    "BestCount": "analysis",
    "RemovalEffects": "analysis",
    "SideBetResult": "analysis",
    "best_count": "analysis",
    "bet": "analysis",
    "edge": "analysis",
    "edges_table": "analysis",
    "effects_of_removal": "analysis",
    "resolve_shoe": "analysis",
    "CountedSideBet": "counted",
    "counted_sidebet": "counted",
    "DEFAULT_PAYTABLE": "paytables",
    "PRESETS": "paytables",
    "PayTable": "paytables",
    "paytable": "paytables",
    "register_paytable": "paytables",
    "SUIT_SYSTEMS": "suits",
    "SuitCount": "suits",
    "suit_count": "suits",
    "SIMULATED_BETS": "simulate",
    "SimulatedSideBet": "simulate",
    "simulate_sidebet": "simulate",
}

__all__ = list(_EXPORTS) + ["SuitedShoe", "parse_card"]
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

# the suit-aware shoe lives with the game model (bjsolve.model), shared with the games that
# pay on suits; it is plain Python, so it is imported here at once
from ..model.suited_shoe import SuitedShoe, parse_card  # noqa: E402

if TYPE_CHECKING:  # the names as type checkers see them
    from .analysis import (
        BETS,
        BestCount,
        RemovalEffects,
        SideBetResult,
        best_count,
        bet,
        edge,
        edges_table,
        effects_of_removal,
        resolve_shoe,
    )
    from .counted import CountedSideBet, counted_sidebet
    from .paytables import (
        DEFAULT_PAYTABLE,
        PRESETS,
        PayTable,
        paytable,
        register_paytable,
    )
    from .simulate import SIMULATED_BETS, SimulatedSideBet, simulate_sidebet
    from .suits import SUIT_SYSTEMS, SuitCount, suit_count
