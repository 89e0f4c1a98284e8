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
``estimate_ev`` (more counting in ``bjsolve.counting`` and ``bjsolve.indices``);
``simulate`` -> ``SimulationResult``.  Modules: ``bjsolve.risk`` (risk of ruin),
``bjsolve.game`` (``CountedGame``: the counted game), ``bjsolve.distribution``,
``bjsolve.sidebets`` (side bets, exact with suits).

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
    # the Ctrl-C guard of the command line's start-up (bjsolve._startup) goes up before
    # anything else of the package runs
    from ._startup import guard_imports
    guard_imports()

import types  # noqa: E402
from importlib import import_module  # noqa: E402

__version__ = "0.1.0"

# public name -> module that defines it
_EXPORTS = {
    "Rules": "rules", "Shoe": "shoe",
    "dealer_probabilities": "dealer", "dealer_table": "dealer", "DealerOutcomes": "dealer",
    "solve": "solve", "Solution": "solve", "ActionValues": "solve",
    "StrategyChart": "strategy",
    "effects_of_removal": "counting", "estimate_ev": "counting",
    "simulate": "simulate", "SimulationResult": "simulate",
}

__all__ = list(_EXPORTS)


def __getattr__(name):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'bjsolve' has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value     # later look-ups skip this function
    return value


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS))


class _Package(types.ModuleType):
    """Keeps ``bjsolve.solve`` the function: importing the submodule ``bjsolve.solve`` would
    otherwise replace the package attribute with the module (the submodule stays reachable
    through ``sys.modules`` and ``from bjsolve.solve import ...``)."""

    def __setattr__(self, name, value):
        if name in _EXPORTS and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
