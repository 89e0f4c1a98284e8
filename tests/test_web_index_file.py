"""An index file uploaded on the Counting and Simulate pages: the server reads it with the
library's parser, keeps it under its content hash (the link carries the hash), and the
figures are ``CountedGame``'s and ``simulate``'s for the table that file makes."""
import html
import math

import pytest

from web_extra import require_web_extra

require_web_extra()

import bjsolve
from bjsolve.counting.index_file import parse_index_file
from bjsolve.counting.indices import index_table_from_file
from bjsolve.web.index_uploads import IndexUploads

RULES = "1D H17 no DAS"
GAME = {"rules": RULES, "penetration": "0.5", "ramp": "0:1,1:2,2:4", "bankroll": "200"}
# three Illustrious-18 style lines written by hand: 16 v T stands at 0 and above, 12 v 3
# stands at +2, 11 v A doubles at +1 (plays: 1 stand, 2 hit, 3 double); insurance at +3
INDEX_TEXT = """# insurance: take at TC >= +3
16 10 1 0 0 2 0 1 +1000
12 3 1 0 0 2 2 1 +1000
11 1 1 0 0 2 1 3 +1000
"""
BAD_TEXT = "16 10 1 0 0 2 0 1 +1000\n12 3 1 0 0 9 2 1 +1000\n"


def upload(client, text, name="mine.txt"):
    return client.post("/api/indices", json={"name": name, "text": text})


def test_an_uploaded_file_gives_the_counted_game_of_its_table(client, counted_game,
                                                              counted_game_1d_h17_nodas):
    answer = upload(client, INDEX_TEXT)
    assert answer.status_code == 200 and answer.json()["errors"] == {}
    key = answer.json()["indices"]
    assert key.startswith("file:") and "mine.txt" in answer.json()["label"]
    body = client.get("/api/counting", params={**GAME, "indices": key}).json()
    assert body["errors"] == {}
    rules = bjsolve.Rules.parse(RULES)
    table = index_table_from_file(INDEX_TEXT, rules, "hilo")
    assert len(table.lines) == 3 and table.insurance == 3
    want = counted_game(RULES, "hilo", penetration=0.5,
                        index_text=INDEX_TEXT).evaluate("0:1,1:2,2:4", 200)
    got = body["data"]["figures"]
    for name in ("win_rate", "sd", "average_bet", "di", "score", "n0", "ror"):
        assert got[name] == pytest.approx(getattr(want, name), rel=1e-12), name
    # the file's plays matter: basic strategy alone wins less
    basic = counted_game_1d_h17_nodas.evaluate("0:1,1:2,2:4", 200)
    assert got["win_rate"] != pytest.approx(basic.win_rate, rel=1e-9)
    # the link keeps the key, and the page opened from it shows the file in the list
    assert f"indices={key.replace(':', '%3A')}" in body["query"]
    page = client.get("/counting" + body["query"])
    assert page.status_code == 200
    assert f'<option value="{key}" selected>mine.txt' in page.text
    # the same text again is the same key (a content hash): the same game, not a new one
    games = len(client.app.state.engine.games)
    assert upload(client, INDEX_TEXT, "copy.txt").json()["indices"] == key
    client.get("/api/counting", params={**GAME, "indices": key})
    assert len(client.app.state.engine.games) == games


def test_a_bad_file_is_refused_with_the_parsers_message(client):
    with pytest.raises(ValueError) as parser:
        parse_index_file(BAD_TEXT, source="index file bad.txt")
    answer = upload(client, BAD_TEXT, "bad.txt")
    assert answer.status_code == 400
    assert answer.json()["errors"] == {"indices": str(parser.value)}
    assert "line 2" in str(parser.value) and "play" in str(parser.value)
    # its insurance line is read as the counted game reads it
    bad_insurance = "# insurance: take at TC >= +5000\n" + INDEX_TEXT.split("\n", 1)[1]
    assert "insurance index +5000 is out of range" in \
        upload(client, bad_insurance).json()["errors"]["indices"]
    # a file of comments only, or not text at all, is refused beside the same field
    assert "no index lines" in upload(client, "# nothing\n").json()["errors"]["indices"]
    assert list(client.post("/api/indices", content=b"\xff").json()["errors"]) == ["indices"]
    # the page is still usable: a named set answers as before
    assert client.get("/api/counting", params={**GAME, "indices": ""}).status_code == 200


def test_a_file_the_server_does_not_keep_is_named_beside_the_field(client):
    params = {**GAME, "indices": "file:0123456789abcdef"}
    r = client.get("/api/counting", params=params)
    assert r.status_code == 400 and list(r.json()["errors"]) == ["indices"]
    assert "choose the file again" in r.json()["errors"]["indices"]
    page = client.get("/counting", params=params)
    assert page.status_code == 400 and "choose the file again" in html.unescape(page.text)
    assert client.post("/api/simulate", params=params).json()["errors"].keys() == {"indices"}


def test_the_store_keeps_the_newest_files():
    store = IndexUploads(size=2)
    keys = [store.add(f"16 10 1 0 0 2 {tc} 1 +1000")[0] for tc in (0, 1, 2)]
    assert len(set(keys)) == 3
    assert store.get(keys[0]) is None and store.get(keys[2])[1].endswith("\n")


def test_simulate_with_an_uploaded_file_is_the_apis_simulate(client):
    from bjsolve.web.simjobs import WEB_CHUNK_ROUNDS
    key = upload(client, INDEX_TEXT).json()["indices"]
    params = {"rules": "6D H17 DAS LS", "system": "hilo", "penetration": "0.75",
              "ramp": "0:1,1:2,2:4,3:8", "rounds": "200000", "seed": "11", "indices": key}
    answer = client.post("/api/simulate", params=params).json()
    while answer["state"] in ("queued", "running"):     # no time limit: until it ends
        answer = client.get(f"/api/simulate/{answer['job']}").json()
    assert answer["state"] == "done", answer
    rules = bjsolve.Rules.parse(params["rules"])
    want = bjsolve.simulate(rules, rounds=200_000, seed=11, penetration=0.75, system="hilo",
                            ramp=params["ramp"],
                            indices=index_table_from_file(INDEX_TEXT, rules, "hilo"),
                            chunk_rounds=WEB_CHUNK_ROUNDS, threads=1)
    got = answer["data"]["figures"]
    for name in ("rounds", "played", "hands", "mean", "sd", "total_won", "total_bet"):
        assert got[name] == getattr(want, name), name
    # the file's insurance index is played: basic strategy alone differs
    basic = bjsolve.simulate(rules, rounds=200_000, seed=11, penetration=0.75, system="hilo",
                             ramp=params["ramp"], chunk_rounds=WEB_CHUNK_ROUNDS, threads=1)
    assert not math.isclose(basic.mean, want.mean, rel_tol=1e-12)
