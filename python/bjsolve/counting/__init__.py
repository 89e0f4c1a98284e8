"""Card counting: tag systems, effects of removal and linear estimates, true-count
advantage, the laws of the running and true count, and exact index numbers (risk-neutral and
risk-averse), with the tables the command line prints.
"""

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

# public name -> module that defines it (imported on first use)
_EXPORTS = {
    "SYSTEMS": "removal",
    "count_tags": "removal",
    "effects_of_removal": "removal",
    "estimate_ev": "removal",
    "decision_effects_of_removal": "removal",
    "advantage_by_true_count": "removal",
    "TrueCountAdvantage": "removal",
    "betting_correlation": "removal",
    "insurance_correlation": "removal",
    "playing_efficiency": "removal",
    "shoe_at_true_count": "removal",
    "true_count_shoes": "removal",
    "CountDistribution": "count_laws",
    "generate_indices": "indices",
    "as_index_table": "indices",
    "NAMED_SETS": "indices",
    "risk_indices_table": "risk_indices",
}

__all__ = list(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:  # the names as type checkers see them
    from .count_laws import CountDistribution
    from .indices import NAMED_SETS, as_index_table, generate_indices
    from .removal import (
        SYSTEMS,
        TrueCountAdvantage,
        advantage_by_true_count,
        betting_correlation,
        count_tags,
        decision_effects_of_removal,
        effects_of_removal,
        estimate_ev,
        insurance_correlation,
        playing_efficiency,
        shoe_at_true_count,
        true_count_shoes,
    )
    from .risk_indices import risk_indices_table
