"""Ctrl-C while the command line is still starting.

The first tenth of a second or so of a command (more on a busy machine) goes to importing
argparse, numpy and the compiled kernels.  A KeyboardInterrupt raised there escapes as a
traceback from whatever module was loading, or, inside numpy's own import, as numpy's
"Importing the numpy C-extensions failed" ImportError.  So until the imports are done,
SIGINT ends the process at once: one line, exit code 130.  Afterwards Python's own handling
(KeyboardInterrupt) is back, which the commands turn into partial results.

This module imports only what the interpreter has loaded anyway, so that the guard is up
before anything slow starts.
"""
import os
import signal

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
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _leave_at_once)


def imports_done() -> None:
    """Import what every command needs (numpy, the kernels) under the guard, then give
    SIGINT back to Python (KeyboardInterrupt)."""
    if signal.getsignal(signal.SIGINT) is not _leave_at_once:
        return
    import numpy  # noqa: F401
    import bjcore  # noqa: F401  (its kernels take numpy's C interface, which an
    #                              interrupt in their import would turn into an ImportError)
    signal.signal(signal.SIGINT, signal.default_int_handler)
