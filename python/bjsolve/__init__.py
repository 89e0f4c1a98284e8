"""bjsolve: exact blackjack analysis.

>>> import bjsolve
>>> rules = bjsolve.Rules.parse("6D S17 DAS")   # or Rules(decks=6, ...), Rules.preset(name)
>>> sol = bjsolve.solve(rules, threads=1)
>>> print(f"house edge, optimal play: {-sol.expected_value:.3%}")
house edge, optimal play: 0.403%
>>> print(f"house edge, basic chart:  {-sol.evaluate(sol.strategy):.3%}")
house edge, basic chart:  0.406%
>>> sol.hand_ev("T6", "T").best            # per-hand values: given no dealer blackjack
'hit'
>>> round(bjsolve.dealer_probabilities(rules, "6")["bust"], 4)
0.4228

Public names (each has a docstring saying what its numbers are):
``Rules``, ``Shoe`` (rules and the shoe analysed); ``solve`` -> ``Solution``
(``expected_value``, ``ev_by_upcard``, ``hand_ev`` -> ``ActionValues``, ``strategy`` ->
``StrategyChart``, ``evaluate``, ``insurance_ev``, ``outcome_distribution``);
``dealer_probabilities``, ``dealer_table`` (``DealerOutcomes``); ``effects_of_removal``,
``estimate_ev`` (more counting in ``bjsolve.counting`` and ``bjsolve.counting.indices``);
``simulate`` -> ``SimulationResult``; ``CountedGame`` (the counted game, exactly:
``evaluate`` -> ``RampResult``).

Subpackages, by concept (each lists its public names in ``__all__``; each builds only on
those before it): ``bjsolve.model`` (ranks, rules, shoes, hands, actions, the deal),
``bjsolve.output`` (tables and how they are shown), ``bjsolve.exact`` (dealer probabilities,
the solve, strategies, a round's outcome distribution), ``bjsolve.counting`` (tags, effects
of removal, count laws, index numbers), ``bjsolve.risk`` (risk of ruin, bet ramps,
``CountedGame``: the counted game), ``bjsolve.sidebets`` (side bets, exact with suits),
``bjsolve.simulation`` (the simulator, its results, Dask), ``bjsolve.cli`` (the command
line). ``bjsolve._reference`` and ``bjsolve._reference_distribution`` are the slow
pure-Python twins the tests check the engine against.

The public names are imported on first use (PEP 562), so ``import bjsolve`` and the command
line's ``--help`` stay fast: numpy and the compiled kernels load only when a name that needs
them is touched.
"""
import sys


def _started_as_the_command_line() -> bool:
    """Whether this import is ``python -m bjsolve`` locating its module (sys.argv[0] is
    "-m" only then), not a program importing the library."""
    if sys.argv[:1] != ["-m"]:
        return False
    argv = getattr(sys, "orig_argv", [])
    return "-m" in argv and argv[argv.index("-m") + 1:][:1] == ["bjsolve"]


if _started_as_the_command_line():
    # the Ctrl-C guard of the command line's start-up (bjsolve.startup) goes up before
    # anything else of the package runs
    from .startup import guard_imports
    guard_imports()

from .lazy import lazy_exports  # noqa: E402

__version__ = "0.1.0"

# public name -> module that defines it
_EXPORTS = {
    "Rules": "model.rules", "Shoe": "model.shoe",
    "dealer_probabilities": "exact.dealer", "dealer_table": "exact.dealer",
    "DealerOutcomes": "exact.dealer",
    "solve": "exact.solver", "Solution": "exact.solver", "ActionValues": "exact.solver",
    "StrategyChart": "exact.strategy",
    "effects_of_removal": "counting.removal", "estimate_ev": "counting.removal",
    "simulate": "simulation.simulator", "SimulationResult": "simulation.result",
    "CountedGame": "risk.game",
}

__all__ = list(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
