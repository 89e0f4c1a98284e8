"""The rules panel's presets (the library's ``PRESETS``, classic ones and the games) through
Starlette's TestClient: the list, the games the game engine computes (their figures are the
API's ``solve`` of the preset), and the games no solver computes yet or a page cannot do
(the library's refusal beside the summary, never a crash or a number).  Skips where the
web extra is not installed."""
import html
import re
from urllib.parse import parse_qs

import pytest

from web_extra import require_web_extra

require_web_extra()

import bjsolve  # noqa: E402
from bjsolve.model.rules import PRESETS  # noqa: E402
from bjsolve.risk.game import CountedGame  # noqa: E402
from bjsolve.web.forms import rule_fields  # noqa: E402

COMPUTED_GAMES = ("free-bet", "spanish-21", "super-fun-21")
NOT_COMPUTED = ("blackjack-switch",)


@pytest.fixture(scope="module")
def solutions():
    return {name: bjsolve.solve(bjsolve.Rules.preset(name)) for name in COMPUTED_GAMES}


def summary_of(name: str) -> str:
    return bjsolve.Rules.preset(name).describe()


def preset_options(page_html: str) -> dict:
    """{name: (summary, selected)} of the preset list on a page."""
    select = re.search(r'<select id="f-preset".*?</select>', page_html, re.S).group(0)
    return {m.group(1): (html.unescape(m.group(2)), bool(m.group(3)))
            for m in re.finditer(r'<option value="([^"]+)" data-summary="([^"]*)" ?(selected)?',
                                 select)}


def error_beside(page_html: str, field: str) -> str:
    m = re.search(rf'data-error-for="{field}">([^<]*)<', page_html)
    return html.unescape(m.group(1)) if m else ""


@pytest.mark.parametrize("page", ["/", "/hand", "/counting", "/simulate"])
def test_every_preset_is_listed_with_its_summary(client, page):
    options = preset_options(client.get(page).text)
    assert set(options) == set(PRESETS) == set(bjsolve.Rules.presets())
    for name, (summary, _) in options.items():
        assert bjsolve.Rules.parse(summary) == bjsolve.Rules.preset(name)
    # the default rules are the classic preset: it is the one shown
    assert [n for n, (_, selected) in options.items() if selected] == ["classic"]


def test_the_list_shows_the_preset_the_rules_are(client):
    options = preset_options(client.get("/hand", params={"rules": summary_of("free-bet")}).text)
    assert [n for n, (_, selected) in options.items() if selected] == ["free-bet"]
    # one rule off the preset: no preset is selected ("custom")
    options = preset_options(client.get("/hand", params={
        "rules": summary_of("free-bet"), "decks": "2"}).text)
    assert not [n for n, (_, selected) in options.items() if selected]


@pytest.mark.parametrize("name", COMPUTED_GAMES)
def test_a_computed_game_shows_the_apis_edge_and_chart(client, solutions, name):
    sol = solutions[name]
    body = client.get("/api/edge", params={"rules": summary_of(name)}).json()
    assert body["errors"] == {}
    assert body["data"]["edge"]["optimal"] == -sol.expected_value
    assert body["data"]["edge"]["chart"] == -sol.evaluate(sol.strategy)
    assert body["data"]["chart"] == sol.strategy.rows
    # the summary and the link carry the game's rules, which have no field of their own
    assert bjsolve.Rules.parse(body["summary"]) == bjsolve.Rules.preset(name)
    link = parse_qs(body["query"].lstrip("?"))
    assert bjsolve.Rules.parse(link["rules"][0]) == bjsolve.Rules.preset(name)
    page = client.get("/", params={"rules": summary_of(name)})
    assert page.status_code == 200
    assert f'<b id="edge-optimal">{100 * -sol.expected_value:.3f}%</b>' in page.text
    assert 'class="chart' in page.text and error_beside(page.text, "rules") == ""


def test_free_bet_and_spanish_21_have_their_game_codes_in_the_summary():
    # (what the panel's summary box shows for the two presets: the games' own codes)
    assert {"P22", "FD9-11"} <= set(summary_of("free-bet").split())
    assert {"RDx3", "P21W"} <= set(summary_of("spanish-21").split())


def test_a_changed_field_keeps_the_summarys_game_rules(client):
    # the page's script sends the summary with every field; the fields override its
    # classic rules and the game rules (no field of their own) stay
    fields = rule_fields(bjsolve.Rules.preset("free-bet"))
    fields["decks"] = "2"
    body = client.get("/api/edge", params={"rules": summary_of("free-bet"), **fields}).json()
    assert bjsolve.Rules.parse(body["summary"]) == bjsolve.Rules.preset("free-bet", decks=2)
    sol = bjsolve.solve(bjsolve.Rules.preset("free-bet", decks=2))
    assert body["data"]["edge"]["optimal"] == -sol.expected_value


@pytest.mark.parametrize("name", COMPUTED_GAMES)
def test_a_computed_game_on_the_hand_page_is_the_apis_hand_ev(client, solutions, name):
    body = client.get("/api/hand", params={"rules": summary_of(name), "hand": "T6 v 9"}).json()
    values = solutions[name].hand_ev("T6", "9")
    assert body["data"]["actions"] == dict(values)
    assert body["data"]["best"] == values.best


def _library_refusal(call) -> str:
    with pytest.raises((NotImplementedError, ValueError)) as refused:
        call()
    return str(refused.value)


@pytest.mark.parametrize("name", NOT_COMPUTED)
def test_a_game_not_computed_yet_shows_the_librarys_message(client, name):
    rules = bjsolve.Rules.preset(name)
    if rules.switch:   # solved by the library (bjsolve.exact.switch), refused by the pages
        from bjsolve.exact.switch import PAGES_REFUSAL
        message = PAGES_REFUSAL
    else:
        message = _library_refusal(lambda: bjsolve.solve(rules))
    params = {"rules": summary_of(name)}
    for page in ("/", "/hand"):
        r = client.get(page, params=params)
        assert r.status_code == 400
        assert error_beside(r.text, "rules") == message
        # the page stays usable: the panel holds the game's rules, its list the preset
        assert preset_options(r.text)[name][1]
        assert 'id="edge-optimal"' not in r.text
    for view in ("edge", "exceptions", "hand"):
        r = client.get(f"/api/{view}", params=params)
        assert r.status_code == 400 and r.json() == {"errors": {"rules": message}}
    r = client.get("/download/chart.csv", params=params)
    assert r.status_code == 400 and message in r.text
    # and the classic rules still answer afterwards
    assert client.get("/api/edge", params={"rules": "6D H17 DAS LS"}).status_code == 200


def _pontoon_refused() -> bool:
    """Whether the counted game refuses Pontoon: while the games' round law does not hold
    OBBO and the 21 paid before the natural (asked of the law, as the game asks it)."""
    from bjsolve.risk.game import _check_outcome_law
    try:
        _check_outcome_law(bjsolve.Rules.preset("pontoon"))
    except NotImplementedError:
        return True
    return False


# the games whose counted game the pages refuse: Switch (the library computes it, in
# minutes: bjsolve.risk.switch_game) and Pontoon until the games' round law holds its loss
# rules; Free Bet, Spanish 21 and Super Fun 21 are counted (bjsolve.risk.game), with no
# hole card too
COUNTING_REFUSED = ("blackjack-switch",) + (("pontoon",) if _pontoon_refused() else ())


@pytest.mark.parametrize("name", COUNTING_REFUSED)
def test_the_counting_page_shows_the_counted_games_refusal(client, name):
    rules = bjsolve.Rules.preset(name)
    if rules.switch:
        from bjsolve.risk.switch_game import PAGES_COUNTING_REFUSAL
        message = PAGES_COUNTING_REFUSAL
    else:
        message = _library_refusal(lambda: CountedGame(rules))
    r = client.get("/api/counting", params={"rules": summary_of(name)})
    assert r.status_code == 400
    assert r.json() == {"errors": {"rules": message}}
    assert "data" not in r.json()
    page = client.get("/counting", params={"rules": summary_of(name)})
    assert page.status_code in (200, 400)      # the game is asked for by the page's script
    r = client.get("/download/figures.csv", params={"rules": summary_of(name)})
    assert r.status_code == 400 and message in r.text


def test_a_simulation_of_a_game_not_computed_shows_the_refusal_beside_the_summary(client):
    import time
    rules = bjsolve.Rules.preset("blackjack-switch")
    message = _library_refusal(lambda: bjsolve.simulate(rules, rounds=100, seed=1))
    answer = client.post("/api/simulate", params={"rules": summary_of("blackjack-switch"),
                                                   "rounds": "1000"}).json()
    for _ in range(1200):                   # (no timing asserted: waits for the job's end)
        if answer["state"] not in ("queued", "running"):
            break
        time.sleep(0.05)
        answer = client.get(f"/api/simulate/{answer['job']}").json()
    assert answer["state"] == "error"
    assert answer["errors"] == {"rules": message}
