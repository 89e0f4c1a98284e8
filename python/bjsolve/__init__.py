"""bjsolve: exact blackjack analysis.

>>> import bjsolve
>>> rules = bjsolve.Rules(decks=6)
>>> bjsolve.dealer_probabilities(rules, "6")["bust"]      # doctest: +SKIP
>>> sol = bjsolve.solve(rules)
>>> sol.expected_value                                   # doctest: +SKIP

The public names are imported on first use (PEP 562), so ``import bjsolve`` and the command
line's ``--help`` stay fast: numpy and the compiled kernels load only when a name that needs
them is touched.
"""
import sys
import types
from importlib import import_module

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
