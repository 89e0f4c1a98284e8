"""``python -m bjsolve`` and the ``bjsolve`` script: the command line (see ``bjsolve.cli``).

Nothing slow is imported before ``console_main`` has put up the guard against an early
Ctrl-C (``bjsolve.startup``): the command line itself is imported inside it.
"""
from .startup import guard_imports

__all__ = ["console_main", "main"]   # main: for callers of the old module


def console_main() -> None:
    """Entry point of the ``bjsolve`` script and ``python -m bjsolve``."""
    guard_imports()
    from .cli import console_main as run_command_line
    run_command_line()


def __getattr__(name):
    if name == "main":        # imported on use, so that importing this module stays light
        from .cli import main
        return main
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if __name__ == "__main__":
    console_main()
