"""Names of a package imported on first use (PEP 562), so that importing the package (and the
command line's ``--help``) stays fast: numpy and the compiled kernels load only when a name
that needs them is touched."""

from __future__ import annotations

from importlib import import_module


def lazy_exports(package: str, exports: dict):
    """``(__getattr__, __dir__)`` for the package ``package`` whose public names
    ``exports`` maps to the submodule (relative to the package) that defines each."""
    namespace = import_module(package).__dict__

    def __getattr__(name: str):
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(f".{module}", package), name)
        namespace[name] = value  # later look-ups skip this function
        return value

    def __dir__():
        return sorted(set(namespace) | set(exports))

    return __getattr__, __dir__
