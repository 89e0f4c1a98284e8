"""Suite-wide options: the suite runs on every core (pytest-xdist's ``-n auto``; ``-n 0`` runs
it in one process); tests marked ``slow`` (long exact or simulation campaigns) run only
with ``--run-slow`` or ``BJSOLVE_SLOW=1``, so that the default run stays within minutes."""
import os

import pytest


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config):
    """Run the suite on every core by default: ``-n auto --dist loadfile`` (pytest-xdist,
    which the test extra installs) unless the command line chose (``-n 0`` or ``-p no:xdist``
    runs it in this one process, ``-n 4`` on four workers, ``--dist load`` test by test).
    Whole files go to a worker: a file's module fixtures (a counted game, a command line
    run beside the library) are then built once, not once on each worker that got some of
    its tests.  So one test file, or tests of one file, run in this process by default:
    on workers they would all go to one of them, after its start-up.  Runs before xdist's
    own hook, which turns ``auto`` into the number of cores; not in xdist's workers (they
    run what they are sent) nor where xdist is not installed (the suite then runs in one
    process, as it always could)."""
    if not config.pluginmanager.hasplugin("xdist") or hasattr(config, "workerinput"):
        return
    if config.option.numprocesses is None:
        config.option.numprocesses = 0 if _names_one_file(config) else "auto"
    if config.option.numprocesses and config.option.dist == "no" \
            and not getattr(config.option, "distload", False):
        config.option.dist = "loadfile"


def _names_one_file(config) -> bool:
    """Whether the command line's test paths are one file (``tests/test_x.py``, also with
    ``::test_name`` after it, once or more)."""
    files = {arg.split("::")[0] for arg in config.args}
    return len(files) == 1 and os.path.isfile(
        os.path.join(config.invocation_params.dir, next(iter(files))))


def pytest_addoption(parser):
    parser.addoption("--run-slow", action="store_true", default=False,
                     help="also run the tests marked slow (long campaigns)")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--run-slow") or os.environ.get("BJSOLVE_SLOW", "") not in ("", "0"):
        return
    skip = pytest.mark.skip(reason="slow: run with --run-slow or BJSOLVE_SLOW=1")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


# ---- exact outcome distributions shared by several test files ------------------------------

@pytest.fixture(scope="session")
def outcome_law():
    """``outcome_law(split="CDZ-", **rules)``: the (solution, outcome distribution) of the
    optimal strategy for ``Rules(**rules)`` on its full shoe, computed once per session
    (a 6-deck law costs 1-3 s; the standard games are read by several files).  The tests
    read the objects and never change them."""
    from bjsolve import Rules, solve
    cache = {}

    def law(split="CDZ-", **rules):
        key = (split, tuple(sorted(rules.items())))
        if key not in cache:
            sol = solve(Rules(**rules), split=split)
            cache[key] = (sol, sol.outcome_distribution())
        return cache[key]
    return law


# ---- counted games shared by several test files (each costs seconds to build) --------------

@pytest.fixture(scope="session")
def counted_game_6d_s17():
    """6 decks S17 DAS, Hi-Lo, floor, 75% penetration, the basic chart: the defaults."""
    from bjsolve import Rules
    from bjsolve.risk.game import CountedGame
    return CountedGame(Rules(decks=6), "hilo", penetration=0.75)


@pytest.fixture(scope="session")
def counted_game_2d_h17():
    """2 decks H17 DAS, Hi-Lo, floor, 75% penetration, the basic chart: the defaults."""
    from bjsolve import Rules
    from bjsolve.risk.game import CountedGame
    return CountedGame(Rules(decks=2, hit_soft_17=True), "hilo", penetration=0.75)


@pytest.fixture(scope="session")
def counted_game_1d_h17_nodas(counted_game):
    """1 deck H17 no DAS, Hi-Lo, 50% penetration, the basic chart: the small counted game
    the web app's tests compare their pages with (a few seconds)."""
    return counted_game("1D H17 no DAS", "hilo", penetration=0.5)


@pytest.fixture(scope="session")
def counted_game():
    """``counted_game(rules_text, system="hilo", **settings)``: ``CountedGame(
    Rules.parse(rules_text), system, **settings)``, built once per session (a one-deck game
    costs 2-4 s; the web app's tests compare several pages with the same few games).
    ``index_text=`` gives the index table that text makes (``index_table_from_file``) as
    ``indices``.  The tests read the games and never change them."""
    from bjsolve import Rules
    from bjsolve.counting.indices import index_table_from_file
    from bjsolve.risk.game import CountedGame
    cache = {}

    def game(rules_text, system="hilo", index_text=None, **settings):
        key = (rules_text, system, index_text, tuple(sorted(settings.items())))
        if key not in cache:
            rules = Rules.parse(rules_text)
            if index_text is not None:
                settings["indices"] = index_table_from_file(index_text, rules, system)
            cache[key] = CountedGame(rules, system, **settings)
        return cache[key]
    return game


@pytest.fixture(scope="module")
def one_analysis_per_counted_game():
    """For the modules that test plumbing (the command line's and the web app's tables and
    files; the analysis itself is tested in test_game.py and its kin): while the module runs,
    ``bjsolve.risk.game.CountedGame`` analyses each distinct game once.  A game is its
    arguments bound to CountedGame's signature with the defaults filled in (``progress``
    left out), so the same game asked for in other words (the CLI names every default, the
    web app a few) is one game, and a game asked for with other settings is another."""
    import inspect

    import bjsolve.risk.game as game_module
    real = game_module.CountedGame
    signature = inspect.signature(real)
    memo = {}

    def analysed_once(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        key = repr(sorted((name, value) for name, value in bound.arguments.items()
                          if name != "progress"))
        if key not in memo:
            memo[key] = real(*args, **kwargs)
        return memo[key]

    game_module.CountedGame = analysed_once
    yield
    game_module.CountedGame = real


# ---- the web app ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def client():
    """Starlette's TestClient on a new web app, one per test module: the app keeps memos,
    uploaded index files and simulation jobs, so a module sees only its own.  Skips where
    the web extra is missing (tests/web_extra.py)."""
    from web_extra import require_web_extra
    require_web_extra()
    from starlette.testclient import TestClient

    from bjsolve.web import create_app
    with TestClient(create_app()) as c:
        yield c
