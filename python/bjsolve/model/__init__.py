"""The game being analysed: card ranks, casino rules, shoes (also by suit), hands, actions
and the deal.

Plain Python (no kernels); every other subpackage builds on it.
"""

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

# public name -> module that defines it (imported on first use)
_EXPORTS = {
    "rank": "ranks",
    "label": "ranks",
    "hand_total": "ranks",
    "counts_of": "ranks",
    "show": "ranks",
    "RANK_LABELS": "ranks",
    "UPCARD_ORDER": "ranks",
    "Rules": "rules",
    "parse_payout": "rules",
    "payout_label": "rules",
    "parse_rounds": "quantities",
    "Shoe": "shoe",
    "SuitedShoe": "suited_shoe",
    "parse_card": "suited_shoe",
    "hand_code": "hands",
    "total_code": "hands",
    "compositions": "hands",
    "HARD_CODES": "hands",
    "SOFT_CODES": "hands",
    "PAIR_CODES": "hands",
    "ACTIONS": "actions",
    "first_best": "actions",
    "Deal": "deal",
    "dealer_label": "deal",
    "is_natural": "deal",
    "round_may_run_out": "deal",
    "CardMapping": "mappings",
    "is_finite_real": "checks",
}

__all__ = list(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:  # the names as type checkers see them
    from .actions import ACTIONS, first_best
    from .checks import is_finite_real
    from .deal import Deal, dealer_label, is_natural, round_may_run_out
    from .hands import HARD_CODES, PAIR_CODES, SOFT_CODES, compositions, hand_code, total_code
    from .mappings import CardMapping
    from .ranks import RANK_LABELS, UPCARD_ORDER, counts_of, hand_total, label, rank, show
    from .quantities import parse_rounds
    from .rules import Rules, parse_payout, payout_label
    from .shoe import Shoe
    from .suited_shoe import SuitedShoe, parse_card
