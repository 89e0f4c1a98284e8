"""bjsolve serve: the local web app (house edge and chart, one hand's EVs, counting,
simulation) in a browser.

Serves on 127.0.0.1 only, on a free port unless --port names one, and opens the page in
the default browser (--no-browser: only print its address).  Needs the web extra: pip
install 'bjsolve[web]'.  Ctrl-C stops the server.  Example:

    bjsolve serve
    bjsolve serve --port 8765 --no-browser
"""
from __future__ import annotations

from . import common

NAME = "serve"
HELP = ("the local web app: edge and chart, one hand's EVs, counting, simulation "
        "(needs bjsolve[web])")


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise common.UsageError(f"--port must be a whole number 0..65535, got {text[:20]!r}") \
            from None
    if not 0 <= port <= 65535:
        raise common.UsageError(f"--port must be 0..65535 (0: a free port), got {port}")
    return port


def add_arguments(parser) -> None:
    parser.add_argument("--port", type=_port, default=0, metavar="N",
                        help="the port on 127.0.0.1 (default: 0, a free port)")
    parser.add_argument("--no-browser", dest="browser", action="store_false",
                        help="print the page's address only (default: open it in a browser)")


def run(args) -> int:
    from ..web import EXTRA_HINT, serve, web_stack_missing
    if web_stack_missing():
        raise common.UsageError(EXTRA_HINT)
    try:
        serve(args.port, open_browser=args.browser,
              announce=lambda line: print(line, flush=True))
    except KeyboardInterrupt:
        pass
    return 0
