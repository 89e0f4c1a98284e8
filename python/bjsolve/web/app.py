"""The web app: Starlette routes over ``compute.Engine``.

Why Starlette (with uvicorn as its server and Jinja2 for the page templates): it is small,
well kept and typed, it serves static files from the package (so the page works offline,
with no CDN), its async handlers let a slow solve run in the thread pool while other
requests are answered, and its ``TestClient`` drives every route in the tests without a
server.  The pages are rendered on the server; a little script of our own
(``static/app.js``) re-asks the JSON routes when a field changes.

Routes: ``/`` (edge and chart), ``/hand``, ``/counting``, ``/simulate``; ``/api/edge``,
``/api/exceptions``, ``/api/hand``, ``/api/counting`` (JSON: figures, HTML fragments, field
errors); ``POST /api/indices`` takes an index file's text and keeps it (``index_uploads``); the simulation runs: ``POST /api/simulate`` starts one (a job id),
``GET /api/simulate/JOB`` its progress and result, ``POST /api/simulate/JOB/stop`` stops it
(see ``simjobs``); ``/download/NAME.csv|json`` (made by ``downloads``); ``/static/...``.  Every route reads the same query string, so a page's link reproduces it.
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
from bjsolve.counting import SYSTEMS
from bjsolve.risk.ramp import parse_ramp

from . import downloads, tables
from .compute import (
    Engine,
    FieldError,
    Superseded,
    counted_game,
    counting,
    game_key,
    ramp_result,
)
from .forms import (
    CHOICES,
    COUNT_DEFAULTS,
    COUNT_OPTIONAL,
    DECKS_ESTIMATIONS,
    INDEX_SETS,
    SIM_DEFAULTS,
    SPLIT_CLASSES,
    SPOTS_DEFAULT,
    SWITCHES,
    TC_ROUNDINGS,
    FieldErrors,
    count_from_query,
    preset_choices,
    preset_of,
    rule_fields,
    rules_from_query,
    split_from_query,
)
from .index_uploads import UPLOADS, is_upload, upload_label
from .simjobs import (
    Job,
    SimJobs,
    parse_rounds,
    parse_seed,
    parse_sim_options,
    sim_key,
    sim_view,
)

HERE = Path(__file__).parent
PAGES = {"edge": "Edge and chart", "hand": "Hand", "counting": "Counting",
         "simulate": "Simulate"}
# the page's own parameters (besides the rules) that its link keeps
PAGE_PARAMS = {"edge": ("split",), "hand": ("hand", "split"),
               "counting": (*COUNT_DEFAULTS, "spots", *COUNT_OPTIONAL),
               "simulate": (*COUNT_DEFAULTS, "wong_in", *SIM_DEFAULTS)}
DEFAULT_HAND = "T6 v 9"
# the Simulate page's options, which the link leaves out at their defaults
SIM_OPTION_DEFAULTS = {k: v for k, v in SIM_DEFAULTS.items() if k not in ("rounds", "seed")}


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
        if params.get(name) and not (name == "split" and params[name] == "CDZ-") \
                and not (name in SIM_OPTION_DEFAULTS
                         and params[name].strip().lower() == SIM_OPTION_DEFAULTS[name]):
            query[name] = params[name]       # (the default split class goes without saying)
    return "?" + urlencode(query)


async def _view(engine: Engine, page: str, rules, split, params, errors: FieldErrors):
    """The page's figures, or None with the mistake put beside its field."""
    try:
        if page == "counting":
            count = count_from_query(params, errors)
            if errors:
                return None
            ticket = engine.tickets.issue(params.get("client"))
            return await engine.run(counting, engine, rules, count, ticket, slow=True)
        if page == "edge":
            return await engine.run(engine.edge, rules, split)
        if page == "exceptions":
            return await engine.run(engine.exceptions, rules, split)
        return await engine.run(engine.hand, rules, params.get("hand") or DEFAULT_HAND, split)
    except FieldError as exc:
        errors[exc.field] = str(exc)
        return None
    except NotImplementedError as exc:
        # a game the solvers do not compute yet (blackjack-switch, BB+1 with free splits): the
        # library's message, which names the rule, goes beside the summary that carries it
        errors["rules"] = str(exc)
        return None
    except (TypeError, ValueError) as exc:
        errors["hand" if page == "hand" else "rules"] = str(exc)
        return None


def _sim_settings(params, errors: FieldErrors):
    """(rules, counting fields, rounds, seed, simulate's options) of the Simulate page, or
    None with each mistake put beside its field."""
    rules, _, errors_rules = _state(params)
    errors.update(errors_rules)
    count = count_from_query(params, errors)
    options = parse_sim_options(params, errors)
    values = {}
    for name, read in (("rounds", parse_rounds), ("seed", parse_seed)):
        try:
            values[name] = read(params.get(name) or SIM_DEFAULTS[name])
        except FieldError as exc:
            errors[exc.field] = str(exc)
    if "ramp" not in errors:
        try:
            parse_ramp(count["ramp"])
        except (TypeError, ValueError) as exc:
            errors["ramp"] = str(exc)
    if "unit" not in errors and not 1e-9 <= count["unit"] <= 1e9:
        errors["unit"] = (f"unit must be from 1e-09 to 1e+09 (what one unit is worth in "
                          f"money), got {count['unit']:g}")
    if errors or rules is None:
        return None
    return rules, count, values["rounds"], values["seed"], options


def _job_answer(job: Job) -> dict:
    """A job as the page polls it: its state and progress, and its result once there."""
    view = None if job.result is None else sim_view(job.result, job.unit, job.total)
    return {"job": job.id, "state": job.state, "done": job.done, "total": job.total,
            "errors": job.errors, "data": view,
            "html": _fragments("simulate", view) if view is not None else {}}


def _fragments(page: str, view) -> dict:
    if page == "simulate":
        return {"sim-figures": tables.sim_figures_html(view),
                "sim-counts": tables.sim_counts_html(view)}
    if page == "edge":
        return {"edge": tables.edge_html(view), "upcards": tables.upcards_html(view),
                "chart": view["chart_html"]}
    if page == "exceptions":
        return {"exceptions": tables.exceptions_html(view)}
    if page == "counting":
        return {"figures": tables.figures_html(view), "counts": tables.counts_html(view),
                "charts": tables.count_charts_html(view), "ramps": tables.ramps_html(view)}
    return {"actions": tables.actions_html(view), "dealer": tables.dealer_html(view)}


def create_app(engine: Engine | None = None, *, warm_up: bool = False) -> Starlette:
    """The app (an ASGI application); ``engine``: the cache and pool of solves to use;
    ``warm_up``: solve the default rules as the server starts (``bjsolve serve`` does)."""
    engine = engine or Engine()
    sims = SimJobs()
    templates = Jinja2Templates(directory=str(HERE / "templates"))

    async def page(request: Request) -> Response:
        name = request.path_params.get("page", "edge")
        if name not in PAGES:
            return Response(f"no page {name!r}; pages: /, /hand, /counting, /simulate", status_code=404,
                            media_type="text/plain")
        params = request.query_params
        rules, split, errors = _state(params)
        shown = rules or _summary_or_default(params)
        fields = dict(rule_fields(shown))
        fields.update({k: params[k] for k in ("decks", "payout", "split_hands", *SWITCHES,
                                              *CHOICES) if k in params})
        # a counted game not yet made takes tens of seconds: the page comes at once and
        # asks for it itself
        count_errors = FieldErrors()
        count = count_from_query(params, count_errors)
        waits = (name == "counting" and rules is not None and not count_errors
                 and engine.games.peek(game_key(rules, count)) is None)
        if name == "simulate":
            # a run is started by the page's button; a finished one is shown at once
            settings = _sim_settings(params, errors)
            kept = None if settings is None else sims.cached(sim_key(*settings))
            view = (None if kept is None
                    else sim_view(kept, settings[1]["unit"], settings[2]))
        else:
            view = (None if rules is None or waits
                    else await _view(engine, name, rules, split, params, errors))
        context = {
            "page": name, "pages": PAGES, "fields": fields, "errors": errors,
            "summary": rules.describe() if rules else params.get("rules", ""),
            # the rules the panel's fields start from (the summary the page's script sends
            # with a field changed: it keeps the games' rules that have no field)
            "accepted": shown.describe(),
            "presets": preset_choices(), "preset": preset_of(shown),
            "split": split, "hand": params.get("hand") or DEFAULT_HAND,
            "count": {**{k: params.get(k) or v for k, v in COUNT_DEFAULTS.items()},
                      **{k: params.get(k, "") for k in COUNT_OPTIONAL},
                      "spots": params.get("spots") or SPOTS_DEFAULT},
            "sim": {k: params.get(k) or v for k, v in SIM_DEFAULTS.items()},
            "index_sets": INDEX_SETS, "systems": SYSTEMS,
            # an uploaded index file named by the link: one more choice in the list
            "index_upload": ((count["indices"], upload_label(count["indices"]))
                             if is_upload(count["indices"]) else None), "autoload": waits,
            "tc_roundings": TC_ROUNDINGS, "decks_estimations": DECKS_ESTIMATIONS,
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
        try:
            view = (None if rules is None
                    else await _view(engine, name, rules, split, params, errors))
        except Superseded as exc:
            # the page has asked again since: it reads only the newest answer
            return JSONResponse({"errors": {}, "superseded": str(exc)}, status_code=409)
        if view is None:
            return JSONResponse({"errors": errors}, status_code=400)
        link_page = "edge" if name == "exceptions" else name
        return JSONResponse({"errors": {}, "summary": rules.describe(),
                             "fields": rule_fields(rules), "data": view,
                             "html": _fragments(name, view),
                             "query": _link(link_page, rules, params)})

    async def index_upload(request: Request) -> JSONResponse:
        """An index file's text (JSON ``{"name": ..., "text": ...}``, read by the page's
        script) checked by the library's parser and kept: its key for the ``indices``
        field, or the parser's message for the field."""
        try:
            body = await request.json()
            name, text = str(body.get("name") or "")[:80], body["text"]
            if not isinstance(text, str):
                raise TypeError
        except (ValueError, TypeError, KeyError, AttributeError):
            return JSONResponse({"errors": {"indices": "indices: send the index file as "
                                            "JSON {\"name\": ..., \"text\": ...}"}},
                                status_code=400)
        try:
            key, lines = UPLOADS.add(text, name)
        except ValueError as exc:
            return JSONResponse({"errors": {"indices": str(exc)}}, status_code=400)
        return JSONResponse({"errors": {}, "indices": key, "label": upload_label(key),
                             "lines": lines})

    async def sim_start(request: Request) -> JSONResponse:
        params = request.query_params
        errors = FieldErrors()
        settings = _sim_settings(params, errors)
        if settings is None:
            return JSONResponse({"errors": errors}, status_code=400)
        job = sims.start(*settings)
        answer = _job_answer(job)
        answer.update(query=_link("simulate", settings[0], params),
                      summary=settings[0].describe(), fields=rule_fields(settings[0]))
        return JSONResponse(answer)

    async def sim_poll(request: Request) -> JSONResponse:
        job = sims.get(request.path_params["job"])
        if job is None:
            return JSONResponse({"errors": {"rounds": "no such run (the server forgets old "
                                                      "runs, and all on a restart)"}},
                                status_code=404)
        return JSONResponse(_job_answer(job))

    async def sim_stop(request: Request) -> JSONResponse:
        job = sims.stop(request.path_params["job"])
        if job is None:
            return JSONResponse({"errors": {"rounds": "no such run"}}, status_code=404)
        return JSONResponse(_job_answer(job))

    def sim_download_result(params, errors: FieldErrors):
        """(SimulationResult, unit) of the run a download is for: the job named (a stopped
        run's partial result too), else the full result kept for the settings."""
        job = sims.get(params.get("job", ""))
        settings = _sim_settings(params, errors)
        if job is not None and job.result is not None:
            errors.clear()
            return job.result, (settings[1]["unit"] if settings else job.unit)
        kept = None if settings is None else sims.cached(sim_key(*settings))
        if kept is None:
            if not errors:
                errors["rounds"] = "no simulation for these settings yet: run it first"
            return None
        return kept, settings[1]["unit"]

    def download_table(name: str, params, errors: FieldErrors):
        """The library's Table for a download (see ``downloads``), or None with the
        mistakes in ``errors``."""
        page = downloads.TABLES[name]
        if page == "simulate":
            found = sim_download_result(params, errors)
            return None if found is None else downloads.simulation_table(name, *found)
        rules, split, rule_errors = _state(params)
        errors.update(rule_errors)
        if rules is None:
            return None
        try:
            if page == "edge":
                sol = engine.solution(rules, split)
                return downloads.solve_table(name, sol)
            if page == "hand":
                view = engine.hand(rules, params.get("hand") or DEFAULT_HAND, split)
                return downloads.hand_table(name, engine.solution(rules, split), view)
            count = count_from_query(params, errors)
            if errors:
                return None
            game = counted_game(engine, rules, count)
            return downloads.counting_table(name, game, ramp_result(game, count))
        except FieldError as exc:
            errors[exc.field] = str(exc)
        except NotImplementedError as exc:
            errors["rules"] = str(exc)        # a game not computed yet (see _view)
        except (TypeError, ValueError) as exc:
            errors["hand" if page == "hand" else "rules"] = str(exc)
        return None

    async def download(request: Request) -> Response:
        name, fmt = request.path_params["table"], request.path_params["fmt"]
        if name not in downloads.TABLES or fmt not in downloads.FORMATS:
            return Response(f"no table {name}.{fmt}; tables: {', '.join(downloads.TABLES)} "
                            "as .csv or .json", status_code=404, media_type="text/plain")
        errors = FieldErrors()
        slow = downloads.TABLES[name] == "counting"
        table = await engine.run(download_table, name, request.query_params, errors,
                                 slow=slow)
        if table is None:
            return Response("; ".join(f"{k}: {v}" for k, v in errors.items()),
                            status_code=400, media_type="text/plain")
        headers = {"Content-Disposition": f'attachment; filename="bjsolve-{name}.{fmt}"'}
        media = "text/csv" if fmt == "csv" else "application/json"
        return Response(downloads.render(table, fmt), media_type=media, headers=headers)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        if warm_up:
            engine.warm_up()
        yield
        sims.close()
        engine.close()

    routes = [
        Route("/api/simulate", sim_start, methods=["POST"]),
        Route("/api/indices", index_upload, methods=["POST"]),
        Route("/api/simulate/{job:str}", sim_poll),
        Route("/api/simulate/{job:str}/stop", sim_stop, methods=["POST"]),
        Route("/", page),
        Route("/{page:str}", page),
        Route("/api/{view:str}", api),
        Route("/download/{table:str}.{fmt:str}", download),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.engine = engine
    app.state.sims = sims
    return app
