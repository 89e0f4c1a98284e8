"""bjsolve: exact blackjack analysis.

>>> import bjsolve
>>> rules = bjsolve.Rules(decks=6)
>>> bjsolve.dealer_probabilities(rules, "6")[  "bust"]      # doctest: +SKIP
>>> sol = bjsolve.solve(rules)
>>> sol.expected_value                                   # doctest: +SKIP
"""
from .dealer import DealerOutcomes, dealer_probabilities, dealer_table
from .rules import Rules
from .shoe import Shoe
from .solve import ActionValues, Solution, solve
from .counting import effects_of_removal, estimate_ev  # noqa: E402  (card counting)
from .simulate import SimulationResult, simulate  # noqa: E402  (the real-game simulator)

__all__ = ["Rules", "Shoe", "dealer_probabilities", "dealer_table", "DealerOutcomes",
           "solve", "Solution", "ActionValues", "effects_of_removal", "estimate_ev",
           "simulate", "SimulationResult"]
__version__ = "0.1.0"
