"""Exact analysis of one shoe: dealer outcome probabilities, the solve (every action's EV,
the optimal and the basic-strategy play), strategy evaluation, the distribution of a round's
outcome, and the tables of a solve.

``solver`` (``solve`` and its results), ``kernel_rules`` (the kernels' rule dict),
``scheduler`` (the threads of a solve), ``engines`` (the compiled engines), ``policy``
(evaluating a strategy), ``strategy`` (charts), ``dealer``, ``distribution``, ``tables``.
"""

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

# public name -> module that defines it (imported on first use)
_EXPORTS = {
    "solve": "solver",
    "Solution": "solver",
    "ActionValues": "solver",
    "EV": "solver",
    "dealer_probabilities": "dealer",
    "dealer_table": "dealer",
    "DealerOutcomes": "dealer",
    "StrategyChart": "strategy",
    "basic_strategy": "strategy",
    "evaluate_policy": "policy",
    "OutcomeDistribution": "distribution",
    "build_table": "tables",
    "TABLE_NAMES": "tables",
    "ev_table": "tables",
    "strategy_table": "tables",
    "house_edge_table": "tables",
}

__all__ = list(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:  # the names as type checkers see them
    from .dealer import DealerOutcomes, dealer_probabilities, dealer_table
    from .distribution import OutcomeDistribution
    from .policy import evaluate_policy
    from .solver import EV, ActionValues, Solution, solve
    from .strategy import StrategyChart, basic_strategy
    from .tables import TABLE_NAMES, build_table, ev_table, house_edge_table, strategy_table
