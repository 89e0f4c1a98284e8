"""``python -m bjsolve``: the command line (see ``bjsolve.cli``)."""
from .cli import console_main, main

__all__ = ["console_main", "main"]   # main: for callers of the old module

if __name__ == "__main__":
    console_main()
