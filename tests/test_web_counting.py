"""The Counting page's count systems (a built-in name, or 10 tags typed in) and how it
stops a counted game nobody waits for any more.  Figures are compared with
``bjsolve.CountedGame`` for the same rules, tags and ramp."""
import html
import threading

import pytest

from web_extra import require_web_extra

require_web_extra()

import bjsolve  # noqa: E402
from bjsolve.web import compute  # noqa: E402
from bjsolve.web.forms import FieldErrors, count_from_query  # noqa: E402

RULES = "1D H17 no DAS"
GAME = {"rules": RULES, "penetration": "0.5", "ramp": "0:1,1:2,2:4", "bankroll": "200"}
# a count of one's own: Hi-Lo without the ace (no built-in system has these tags)
TAGS = (0, 1, 1, 1, 1, 1, 0, 0, 0, -1)
TYPED = "0, 1, 1, 1, 1, 1, 0, 0, 0, -1"


def test_typed_tags_give_the_counted_game_of_those_tags(client, counted_game):
    typed = TYPED
    body = client.get("/api/counting", params={**GAME, "system": typed}).json()
    assert body["errors"] == {}
    game = counted_game(RULES, TAGS, penetration=0.5)
    want = game.evaluate("0:1,1:2,2:4", 200)
    got = body["data"]["figures"]
    for name in ("win_rate", "sd", "average_bet", "di", "score", "n0", "ror"):
        assert got[name] == pytest.approx(getattr(want, name), rel=1e-12), name
    assert [c["tc"] for c in body["data"]["counts"]] == list(game.labels)
    assert [c["frequency"] for c in body["data"]["counts"]] == \
        pytest.approx(list(game.frequency), rel=1e-12)
    # the tags stay in the link as typed; the page shows them back in the field
    assert "system=0%2C+1%2C+1%2C" in body["query"]
    page = client.get("/counting", params={**GAME, "system": typed})
    assert f'id="f-system" value="{typed}"' in page.text
    # spaces instead of commas, and whole tags written 1.0: the same game, not a new one
    games = len(client.app.state.engine.games)
    again = client.get("/api/counting", params={
        **GAME, "system": "0 1 1 1 1 1.0 0 0 0 -1"}).json()
    assert again["data"]["figures"] == got
    assert len(client.app.state.engine.games) == games


def test_a_named_system_is_picked_in_any_case(client):
    errors = FieldErrors()
    assert count_from_query({"system": "KO"}, errors)["system"] == "ko" and not errors
    errors = FieldErrors()
    assert count_from_query({"system": "-1,1,1,1,1,1,1,0,0,-1"}, errors)["system"] == \
        (-1, 1, 1, 1, 1, 1, 1, 0, 0, -1)


@pytest.mark.parametrize("typed, words", [
    ("1,2,3", "tags are 10 numbers, one for each rank A,2,3,4,5,6,7,8,9,T"),
    ("-1,1,1,1,1,1,0,0,0", "got 9 numbers"),
    ("-1,1,x,1,1,1,0,0,0,-1", "'x' is not a number"),
    ("-1,1,1,1,1,1,0,0,0,nan", "finite"),
    ("nosuch", "unknown count system"),
])
def test_bad_tags_are_shown_beside_the_system_field(client, typed, words):
    r = client.get("/api/counting", params={**GAME, "system": typed})
    assert r.status_code == 400
    assert list(r.json()["errors"]) == ["system"] and words in r.json()["errors"]["system"]
    page = client.get("/counting", params={**GAME, "system": typed})
    assert page.status_code == 400 and words in html.unescape(page.text)
    # the Simulate page reads the same field
    r = client.post("/api/simulate", params={**GAME, "system": typed, "rounds": "1000"})
    assert r.status_code == 400 and words in r.json()["errors"]["system"]


def _held_games(monkeypatch, penetration: float):
    """CountedGame, but the game of ``penetration`` stops after its first true count until
    ``release`` is set (``started`` says it got there): a game surely still being made
    when the test sends its next request."""
    started, release = threading.Event(), threading.Event()
    real = bjsolve.CountedGame

    def make(rules, system, *, progress=None, **options):
        def held(done, total):
            if options["penetration"] == penetration and done == 1:
                started.set()
                release.wait(120)
            if progress is not None:
                progress(done, total)
        return real(rules, system, progress=held, **options)

    monkeypatch.setattr(compute, "counted_game_class", lambda: make)
    return started, release


def _in_thread(function):
    box = {}
    thread = threading.Thread(target=lambda: box.update(answer=function()))
    thread.start()
    return thread, box


def test_a_newer_request_from_the_same_page_stops_the_older_game(client, monkeypatch,
                                                                 counted_game):
    engine = client.app.state.engine
    started, release = _held_games(monkeypatch, 0.6)
    old = {**GAME, "system": "hilo", "penetration": "0.6", "client": "tab-1"}
    thread, box = _in_thread(lambda: client.get("/api/counting", params=old))
    try:
        assert started.wait(120)
        # the page's next request (another count system, whose game is kept from the
        # first test, or made now) arrives while that game is being made
        new = client.get("/api/counting", params={**old, "system": TYPED, "penetration": "0.5"})
        assert new.status_code == 200
        want = counted_game(RULES, TAGS, penetration=0.5).evaluate("0:1,1:2,2:4", 200)
        assert new.json()["data"]["figures"]["score"] == pytest.approx(want.score, rel=1e-12)
    finally:
        release.set()
        thread.join(120)
    # the older game stopped at its next true count: answered "superseded", nothing kept
    assert box["answer"].status_code == 409 and "superseded" in box["answer"].json()
    assert engine.abandoned_games == 1
    key = compute.game_key(bjsolve.Rules.parse(RULES),
                           count_from_query(old, FieldErrors()))
    assert engine.games.peek(key) is None and engine.waiting(key) == 0


def test_a_game_another_page_waits_for_is_not_stopped(client, monkeypatch):
    engine = client.app.state.engine
    before = engine.abandoned_games
    started, release = _held_games(monkeypatch, 0.6)
    mine = {**GAME, "system": "hilo", "penetration": "0.6", "client": "tab-1"}
    key = compute.game_key(bjsolve.Rules.parse(RULES), count_from_query(mine, FieldErrors()))
    first, first_box = _in_thread(lambda: client.get("/api/counting", params=mine))
    second, second_box = _in_thread(
        lambda: client.get("/api/counting", params={**mine, "client": "tab-2"}))
    try:
        assert started.wait(120)
        while engine.waiting(key) < 2:      # the second page's request is waiting too
            threading.Event().wait(0.01)
        # the first page moves on (to a game kept from the first test); both of the
        # counted games' threads are taken, so its request waits in the queue, but it has
        # arrived: the first page's older request is superseded
        asked = engine.tickets.latest("tab-1")
        third, third_box = _in_thread(lambda: client.get("/api/counting", params={
            **mine, "system": TYPED, "penetration": "0.5"}))
        while engine.tickets.latest("tab-1") == asked:
            threading.Event().wait(0.01)
    finally:
        release.set()
        first.join(120)
        second.join(120)
        third.join(120)
    assert second_box["answer"].status_code == 200
    assert third_box["answer"].status_code == 200
    assert engine.abandoned_games == before and engine.games.peek(key) is not None
