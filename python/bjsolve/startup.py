"""Ctrl-C while the command line is still starting.

The first tenth of a second or so of a command (more on a busy machine) goes to importing
argparse, numpy and the compiled kernels.  A KeyboardInterrupt raised there escapes as a
traceback from whatever module was loading, or, inside numpy's own import, as numpy's
"Importing the numpy C-extensions failed" ImportError.  So until the imports are done,
SIGINT ends the process at once: one line, exit code 130.  Afterwards Python's own handling
(KeyboardInterrupt) is back, which the commands turn into partial results.

This module imports only what the interpreter has loaded before any program runs (``os``
and the built-in ``_signal``: the ``signal`` module would first import ``enum``, which
takes milliseconds on an interpreter started without it), so that the guard is up before
anything slow starts.
"""
import _signal
import os

INTERRUPTED = b"bjsolve: interrupted\n"


def _leave_at_once(signum, frame):
    try:
        os.write(2, INTERRUPTED)
    except OSError:          # stderr closed: the exit code still says it
        pass
    os._exit(130)


def guard_imports() -> None:
    """SIGINT ends the process at once from now until ``imports_done()``.  Left alone when
    SIGINT is not Python's default: ignored (a shell's background job) or an embedding
    program's own handler."""
    if _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:
        _signal.signal(_signal.SIGINT, _leave_at_once)


def imports_done() -> None:
    """Import what every command needs (numpy, the kernels) under the guard, then give
    SIGINT back to Python (KeyboardInterrupt)."""
    if _signal.getsignal(_signal.SIGINT) is not _leave_at_once:
        return
    import numpy  # noqa: F401

    # the engines' kernels (bjcore loads each on first use): they take numpy's C
    # interface, which an interrupt in their import would turn into an ImportError
    from bjcore import GameEngine, UpcardEngine  # noqa: F401
    _signal.signal(_signal.SIGINT, _signal.default_int_handler)


def interrupted_before_the_guard(stderr: str) -> bool:
    """Whether ``stderr`` of an interrupted ``python -m bjsolve`` is a KeyboardInterrupt
    raised before the guard was up: in the interpreter's own start-up (no frame of bjsolve
    or bjcore), or in the few statements of the package that put the guard up (module-level
    code of ``bjsolve/__init__.py`` up to the guard's call, this module's and
    ``guard_imports``), with no other module's frame below them.  No program can shorten
    that window further; the tests and the fuzz campaign accept it as Python's default
    handling of SIGINT and nothing else."""
    import re
    if "KeyboardInterrupt" not in stderr:
        return "Fatal Python error: init_import_site" in stderr
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "__init__.py"), encoding="utf-8") as f:
        guard_line = next(number for number, line in enumerate(f, 1)
                          if line.strip() == "guard_imports()")

    def in_the_window(path, line, function):
        if path.endswith(f"{os.sep}bjsolve{os.sep}startup.py"):
            return function in ("<module>", "guard_imports")
        return (path.endswith(f"{os.sep}bjsolve{os.sep}__init__.py")
                and function == "<module>" and int(line) <= guard_line)

    frames = re.findall(r'File "([^"]+)", line (\d+)(?:, in (\S+))?', stderr)
    ours = [k for k, (path, _, _) in enumerate(frames)
            if f"{os.sep}bjsolve{os.sep}" in path or f"{os.sep}bjcore{os.sep}" in path]
    # from the package's first frame down, every frame is the window's own
    return not ours or all(in_the_window(*frame) for frame in frames[ours[0]:])
