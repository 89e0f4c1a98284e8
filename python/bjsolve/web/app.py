"""The web app: Starlette routes over ``compute.Engine``.

Why Starlette (with uvicorn as its server and Jinja2 for the page templates): it is small,
well kept and typed, it serves static files from the package (so the page works offline,
with no CDN), its async handlers let a slow solve run in the thread pool while other
requests are answered, and its ``TestClient`` drives every route in the tests without a
server.  The pages are rendered on the server; a little script of our own
(``static/app.js``) re-asks the JSON routes when a field changes.

Routes: ``/`` (edge and chart), ``/hand``, ``/counting``; ``/api/edge``,
``/api/exceptions``, ``/api/hand``, ``/api/counting`` (JSON: figures, HTML fragments, field
errors); ``/download/NAME.csv|json``; ``/static/...``.  Every route reads the same query string, so a page's link reproduces it.
"""
from __future__ import annotations

import contextlib
from pathlib import Path
from urllib.parse import urlencode

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

import bjsolve

from . import tables
from .compute import Engine, FieldError, counting, game_key
from .forms import (
    CHOICES,
    COUNT_DEFAULTS,
    INDEX_SETS,
    SPLIT_CLASSES,
    SWITCHES,
    FieldErrors,
    count_from_query,
    rule_fields,
    rules_from_query,
    split_from_query,
)

HERE = Path(__file__).parent
PAGES = {"edge": "Edge and chart", "hand": "Hand", "counting": "Counting"}
# the page's own parameters (besides the rules) that its link keeps
PAGE_PARAMS = {"edge": ("split",), "hand": ("hand", "split"),
               "counting": tuple(COUNT_DEFAULTS)}
DEFAULT_HAND = "T6 v 9"


def _state(params) -> tuple:
    """(rules or None, split, errors) from a query string."""
    rules, errors = rules_from_query(params)
    split = split_from_query(params, errors)
    return (None if errors else rules), split, errors


def _summary_or_default(params) -> bjsolve.Rules:
    """The rules of the query's summary, where it reads, else the defaults: what the rules
    panel shows beside a field that is wrong."""
    try:
        return bjsolve.Rules.parse(params.get("rules", ""))
    except (TypeError, ValueError):
        return bjsolve.Rules()


def _link(page: str, rules: bjsolve.Rules, params) -> str:
    """The query string that reproduces the page: the rule summary and the page's fields."""
    query = {"rules": rules.describe()}
    for name in PAGE_PARAMS[page]:
        if params.get(name) and not (name == "split" and params[name] == "CDZ-"):
            query[name] = params[name]       # (the default split class goes without saying)
    return "?" + urlencode(query)


async def _view(engine: Engine, page: str, rules, split, params, errors: FieldErrors):
    """The page's figures, or None with the mistake put beside its field."""
    try:
        if page == "counting":
            count = count_from_query(params, errors)
            if errors:
                return None
            return await engine.run(counting, engine, rules, count, slow=True)
        if page == "edge":
            return await engine.run(engine.edge, rules, split)
        if page == "exceptions":
            return await engine.run(engine.exceptions, rules, split)
        return await engine.run(engine.hand, rules, params.get("hand") or DEFAULT_HAND, split)
    except FieldError as exc:
        errors[exc.field] = str(exc)
        return None
    except (TypeError, ValueError) as exc:
        errors["hand" if page == "hand" else "rules"] = str(exc)
        return None


def _fragments(page: str, view) -> dict:
    if page == "edge":
        return {"edge": tables.edge_html(view), "upcards": tables.upcards_html(view),
                "chart": view["chart_html"]}
    if page == "exceptions":
        return {"exceptions": tables.exceptions_html(view)}
    if page == "counting":
        return {"figures": tables.figures_html(view), "counts": tables.counts_html(view)}
    return {"actions": tables.actions_html(view), "dealer": tables.dealer_html(view)}


def create_app(engine: Engine | None = None, *, warm_up: bool = False) -> Starlette:
    """The app (an ASGI application); ``engine``: the cache and pool of solves to use;
    ``warm_up``: solve the default rules as the server starts (``bjsolve serve`` does)."""
    engine = engine or Engine()
    templates = Jinja2Templates(directory=str(HERE / "templates"))

    async def page(request: Request) -> Response:
        name = request.path_params.get("page", "edge")
        if name not in PAGES:
            return Response(f"no page {name!r}; pages: /, /hand, /counting", status_code=404,
                            media_type="text/plain")
        params = request.query_params
        rules, split, errors = _state(params)
        fields = dict(rule_fields(rules or _summary_or_default(params)))
        fields.update({k: params[k] for k in ("decks", "payout", "split_hands", *SWITCHES,
                                              *CHOICES) if k in params})
        # a counted game not yet made takes tens of seconds: the page comes at once and
        # asks for it itself
        count_errors = FieldErrors()
        count = count_from_query(params, count_errors)
        waits = (name == "counting" and rules is not None and not count_errors
                 and engine.games.peek(game_key(rules, count)) is None)
        view = (None if rules is None or waits
                else await _view(engine, name, rules, split, params, errors))
        context = {
            "page": name, "pages": PAGES, "fields": fields, "errors": errors,
            "summary": rules.describe() if rules else params.get("rules", ""),
            "split": split, "hand": params.get("hand") or DEFAULT_HAND,
            "count": {k: params.get(k) or v for k, v in COUNT_DEFAULTS.items()},
            "index_sets": INDEX_SETS, "autoload": waits,
            "fragments": _fragments(name, view) if view is not None else {},
            "query": _link(name, rules, params) if rules else "?" + urlencode(params),
            "choices": {"double": ("any", "9-11", "10-11"),
                        "surrender": ("none", "late", "early"),
                        "hole_card": ("peek", "enhc", "enhc-obo", "exposed"),
                        "natural_tie": ("lose", "push", "win"),
                        "split": SPLIT_CLASSES},
        }
        return templates.TemplateResponse(request, f"{name}.html", context,
                                          status_code=400 if errors else 200)

    async def api(request: Request) -> JSONResponse:
        name = request.path_params["view"]
        if name not in ("edge", "exceptions", "hand", "counting"):
            return JSONResponse({"errors": {"page": f"no view {name!r}"}}, status_code=404)
        params = request.query_params
        rules, split, errors = _state(params)
        view = None if rules is None else await _view(engine, name, rules, split, params, errors)
        if view is None:
            return JSONResponse({"errors": errors}, status_code=400)
        link_page = "edge" if name == "exceptions" else name
        return JSONResponse({"errors": {}, "summary": rules.describe(),
                             "fields": rule_fields(rules), "data": view,
                             "html": _fragments(name, view),
                             "query": _link(link_page, rules, params)})

    async def download(request: Request) -> Response:
        name, fmt = request.path_params["table"], request.path_params["fmt"]
        if name not in tables.TABLES or fmt not in ("csv", "json"):
            return Response(f"no table {name}.{fmt}; tables: {', '.join(tables.TABLES)} "
                            "as .csv or .json", status_code=404, media_type="text/plain")
        params = request.query_params
        rules, split, errors = _state(params)
        view = (None if rules is None
                else await _view(engine, tables.TABLES[name], rules, split, params, errors))
        if view is None:
            return Response("; ".join(f"{k}: {v}" for k, v in errors.items()),
                            status_code=400, media_type="text/plain")
        headers = {"Content-Disposition": f'attachment; filename="bjsolve-{name}.{fmt}"'}
        if fmt == "csv":
            return Response(tables.to_csv(name, view), media_type="text/csv", headers=headers)
        return Response(tables.to_json(name, view, rules.describe()),
                        media_type="application/json", headers=headers)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        if warm_up:
            engine.warm_up()
        yield
        engine.close()

    routes = [
        Route("/", page),
        Route("/{page:str}", page),
        Route("/api/{view:str}", api),
        Route("/download/{table:str}.{fmt:str}", download),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.engine = engine
    return app
