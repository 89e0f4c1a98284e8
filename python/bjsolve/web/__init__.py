"""A local web app over bjsolve: ``bjsolve serve`` (needs the ``web`` extra:
``pip install 'bjsolve[web]'``, which brings Starlette, uvicorn and Jinja2).

Pages: the house edge with the coloured basic-strategy chart, its composition-dependent
exceptions and the EV by upcard (``/``); one hand's every action EV and the dealer's
outcomes (``/hand``); the counted game's figures for a ramp and bankroll (``/counting``).
The counted game simulated, with a progress bar and a Stop that keeps the partial result
(``/simulate``).  A shared rules panel reads and prints the rule summary
(``6D H17 DAS LS``); the page's address keeps its state; tables download as CSV or JSON.
Everything the page uses ships in this package (no CDN): it works offline.

``create_app()`` gives the ASGI app (for tests or another server); ``serve()`` runs it on
127.0.0.1.  Importing this package does not import the web stack: only those two do.
"""
from __future__ import annotations

__all__ = ["EXTRA_HINT", "create_app", "serve", "web_stack_missing"]

# the one line the command line prints when the web stack is not installed
EXTRA_HINT = "serve needs the web extra: pip install 'bjsolve[web]' (Starlette, uvicorn, Jinja2)"


def web_stack_missing() -> str | None:
    """The name of the first web package that is not installed, or None."""
    import importlib.util
    for name in ("starlette", "uvicorn", "jinja2"):
        if importlib.util.find_spec(name) is None:
            return name
    return None


def create_app(engine=None, *, warm_up: bool = False):
    """The Starlette app (see ``bjsolve.web.app``)."""
    from .app import create_app as make
    return make(engine, warm_up=warm_up)


def serve(port: int = 0, *, open_browser: bool = True, announce=print) -> None:
    """Run the app on 127.0.0.1 until interrupted.  ``port`` 0: a free port.  The page's
    address is announced (printed) and, with ``open_browser``, opened."""
    from .server import run
    run(port, open_browser=open_browser, announce=announce)
