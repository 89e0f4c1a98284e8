# The built-in module behind `signal`, which bjsolve._startup imports directly (importing
# `signal` would first import `enum`). typeshed has no stub for it; its functions are the
# ones `signal` re-exports, so their types come from there (its constants are plain ints,
# where `signal` wraps them in an enum). Only what bjsolve uses is listed.
from signal import default_int_handler as default_int_handler, getsignal as getsignal
from signal import signal as signal

SIGINT: int
