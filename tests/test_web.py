"""The web app (bjsolve.web) through Starlette's TestClient: every page and JSON route,
bad input beside its field, the CSV/JSON downloads, and the `serve` command.  Every figure
is compared with what the Python API gives for the same rules (the app must show the
API's numbers, unchanged).  Skips where the web extra is not installed."""
import csv
import io
import json
import math
import re
import subprocess
import sys
import threading
import urllib.request

import pytest

from web_extra import require_web_extra

require_web_extra()

import bjsolve  # noqa: E402
from bjsolve import cli  # noqa: E402
from bjsolve.web.compute import Memo  # noqa: E402
from bjsolve.web.forms import parse_hand, rules_from_query  # noqa: E402

RULES = "6D H17 DAS LS"


@pytest.fixture(scope="module")
def sol():
    return bjsolve.solve(bjsolve.Rules.parse(RULES))


def test_edge_view_is_the_apis_solve(client, sol):
    r = client.get("/api/edge", params={"rules": RULES})
    assert r.status_code == 200
    data = r.json()["data"]
    assert data["edge"]["optimal"] == -sol.expected_value
    assert data["edge"]["chart"] == -sol.evaluate(sol.strategy)
    assert dict(data["upcards"]) == {("A" if u == 1 else "T" if u == 10 else str(u)): v
                                     for u, v in sol.ev_by_upcard.items()}
    assert data["chart"] == sol.strategy.rows
    assert r.json()["summary"] == sol.rules.describe()


def test_edge_page_shows_the_edge_chart_and_upcards(client, sol):
    r = client.get("/", params={"rules": RULES})
    assert r.status_code == 200
    page = r.text
    assert f"{-100 * sol.expected_value:.3f}%" in page
    assert f"{-100 * sol.evaluate(sol.strategy):.3f}%" in page
    assert '<table class="chart">' in page and "legend" in page      # the coloured chart
    assert f"{100 * sol.ev_by_upcard[6]:.2f}%" in page
    # the rules panel shows the rules: the summary and each field
    assert sol.rules.describe() in page
    assert re.search(r'id="f-h17"\s+checked', page)
    assert re.search(r'<option selected>late</option>', page)


def test_exceptions_are_the_charts(client, sol):
    rows = client.get("/api/exceptions", params={"rules": RULES}).json()["data"]
    want = sol.strategy.exceptions
    assert len(rows) == len(want)
    for row, d in zip(rows, want):
        assert (row["chart"], row["optimal"], row["gain"]) == \
            (d.chart_action, d.optimal_action, d.gain)


def test_fields_override_the_summary_and_the_summary_round_trips(client):
    r = client.get("/api/edge", params={"rules": "6D S17 DAS", "decks": "1", "h17": "1",
                                        "das": "0", "surrender": "late", "payout": "6:5"})
    body = r.json()
    want = bjsolve.Rules.parse("6D S17 DAS").replace(
        decks=1, hit_soft_17=True, double_after_split=False, surrender="late",
        blackjack_payout=1.2)
    assert body["summary"] == want.describe()
    assert bjsolve.Rules.parse(body["summary"]) == want
    assert body["fields"]["decks"] == "1" and body["fields"]["payout"] == "6:5"
    assert body["data"]["edge"]["optimal"] == -bjsolve.solve(want).expected_value
    # the link the page puts in the address reproduces the same view
    again = client.get("/api/edge" + body["query"]).json()
    assert again["data"]["edge"] == body["data"]["edge"]


def test_hand_view_is_the_apis_hand_ev(client, sol):
    body = client.get("/api/hand", params={"rules": RULES, "hand": "T6 v 9"}).json()
    values = sol.hand_ev("T6", "9")
    assert body["data"]["actions"] == dict(values)
    assert body["data"]["best"] == values.best
    assert body["data"]["given_no_blackjack"] is values.given_no_blackjack is True
    dealer = bjsolve.dealer_probabilities(sol.rules, 9, removed=(10, 6))
    assert body["data"]["dealer"]["unconditioned"] == {str(k): v for k, v in dealer.items()}
    assert '<tr class="best"><th>' + values.best in body["html"]["actions"]
    assert "given no dealer blackjack" in body["html"]["actions"]


def test_hand_spellings_and_the_dealers_cards_out_of_the_shoe(client, sol):
    a = client.get("/api/hand", params={"rules": RULES, "hand": "10 6 vs A"}).json()["data"]
    b = client.get("/api/hand", params={"rules": RULES, "hand": "t,6 V a"}).json()["data"]
    assert a == b
    assert a["actions"] == dict(sol.hand_ev((10, 6), 1))
    # the probabilities of each measure add up to one; given no blackjack, no natural
    for table in a["dealer"].values():
        assert sum(table.values()) == pytest.approx(1.0, abs=1e-12)
    assert a["dealer"]["given no dealer blackjack"]["blackjack"] == 0.0
    # without a hole-card peek the values are unconditioned and the page says so
    enhc = client.get("/api/hand", params={"rules": RULES + " ENHC", "hand": "T6 v 9"}).json()
    assert enhc["data"]["given_no_blackjack"] is False
    assert "unconditioned" in enhc["html"]["actions"]


def test_exposed_game_hand_takes_both_dealer_cards(client, capsys):
    rules = bjsolve.Rules.parse("6D H17 DAS").replace(hole_card="exposed")
    exposed = bjsolve.solve(rules)
    for typed, dealer in (("T6 v 9 7", ("9", "7")), ("10,6 vs 9,7", (9, 7)),
                          ("A7 v T 6", ("T", "6"))):
        body = client.get("/api/hand", params={"rules": rules.describe(),
                                               "hand": typed}).json()
        assert body["errors"] == {}, typed
        values = exposed.hand_ev(typed.split()[0].replace(",", "").replace("10", "T"), dealer)
        assert body["data"]["actions"] == dict(values)
        assert body["data"]["best"] == values.best
        assert body["data"]["exposed"] is True
        outcomes = bjsolve.dealer_probabilities(rules, values.dealer, removed=values.cards)
        assert body["data"]["dealer"] == {
            "both dealer cards known": {str(k): v for k, v in outcomes.items()}}
        assert "both dealer cards face up" in body["html"]["actions"]
    # the CLI's hand command, given the same pair, reads the same values
    assert cli.main(["hand", "T", "6", "--dealer", "9,7", "--rules", rules.describe(),
                     "--format", "json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    web = client.get("/api/hand", params={"rules": rules.describe(), "hand": "T6 v 9 7"})
    assert web.json()["data"]["actions"] == printed["ev"]
    # one dealer card in the exposed game, two elsewhere: the API's message, beside the hand
    one = client.get("/api/hand", params={"rules": rules.describe(), "hand": "T6 v 9"})
    assert one.status_code == 400 and "two cards" in one.json()["errors"]["hand"]
    two = client.get("/api/hand", params={"rules": RULES, "hand": "T6 v 9 7"})
    assert two.status_code == 400 and "one upcard" in two.json()["errors"]["hand"]
    page = client.get("/hand", params={"rules": rules.describe(), "hand": "T6 v 9 7"})
    assert page.status_code == 200 and 'value="T6 v 9 7"' in page.text


def test_hand_page_renders(client, sol):
    r = client.get("/hand", params={"rules": RULES, "hand": "A7 v 9"})
    assert r.status_code == 200
    values = sol.hand_ev("A7", "9")
    assert f"{values[values.best]:+.6f}" in r.text
    assert 'data-player="T"' in r.text and 'data-dealer="A"' in r.text


@pytest.mark.parametrize("params, field, words", [
    ({"decks": "0"}, "decks", "Rules.decks"),
    ({"decks": "six"}, "decks", "whole number"),
    ({"rules": "6D H17 FOO"}, "rules", "unknown word"),
    ({"payout": "3:0"}, "payout", "payout"),
    ({"surrender": "sometimes"}, "surrender", "surrender"),
    ({"h17": "maybe"}, "h17", "on or off"),
    ({"split_hands": "9"}, "split_hands", "max_split_hands"),
    ({"rules": "1D NDAS", "hsa": "1", "split_hands": "1"}, "hsa", "hit_split_aces"),
    ({"split": "CDX"}, "split", "CDZ-"),
])
def test_bad_rules_are_shown_beside_their_field(client, params, field, words):
    r = client.get("/api/edge", params=params)
    assert r.status_code == 400
    errors = r.json()["errors"]
    assert list(errors) == [field] and words in errors[field]
    # the page itself answers too, with the message beside the field and the form intact
    page = client.get("/", params=params)
    assert page.status_code == 400
    message = re.search(rf'data-error-for="{field}">([^<]*)<', page.text).group(1)
    assert words in message
    assert 'id="rules-form"' in page.text


def test_a_bad_field_keeps_the_summarys_other_rules_in_the_panel(client):
    page = client.get("/", params={"rules": "6D H17 DAS LS", "payout": "3:0"}).text
    assert re.search(r'id="f-h17"\s+checked', page)
    assert "<option selected>late</option>" in page
    assert re.search(r'id="f-payout" value="3:0"', page)


@pytest.mark.parametrize("hand, words", [
    ("T6", "such as 'T6 v 9'"), ("X9 v 9", "not a card"), ("T v 9", "at least two cards"),
    ("T6 v 99", "one upcard"),
])
def test_a_bad_hand_is_shown_beside_the_hand(client, hand, words):
    r = client.get("/api/hand", params={"rules": RULES, "hand": hand})
    assert r.status_code == 400
    assert words in r.json()["errors"]["hand"]
    page = client.get("/hand", params={"rules": RULES, "hand": hand})
    assert words in re.search(r'data-error-for="hand">([^<]*)<', page.text).group(1).replace(
        "&#39;", "'")


def test_csv_and_json_downloads(client, sol):
    """The downloads are the library's tables (tests/test_web_downloads.py: the same files
    as the command line's); here their figures against the API's."""
    r = client.get("/download/upcards.csv", params={"rules": RULES})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    assert "attachment" in r.headers["content-disposition"]
    rows = list(csv.reader(io.StringIO(r.text)))
    assert rows[0][0] == "advantage" and rows[0][-1] == "overall"
    by_upcard = dict(zip(rows[0][1:], map(float, rows[1][1:])))
    assert by_upcard["A"] == pytest.approx(sol.ev_by_upcard[1], rel=1e-12)
    assert by_upcard["overall"] == pytest.approx(sol.expected_value, rel=1e-12)
    chart = list(csv.reader(io.StringIO(
        client.get("/download/chart.csv", params={"rules": RULES}).text)))
    assert {row[0]: dict(zip(chart[0][1:], row[1:])) for row in chart[1:]} == sol.strategy.rows
    edge = client.get("/download/edge.json", params={"rules": RULES}).json()
    assert f"rules: {sol.rules.describe()}" in edge["notes"]
    assert edge["values"]["optimal play"]["house edge"] == -sol.expected_value
    actions = client.get("/download/actions.json",
                         params={"rules": RULES, "hand": "88 v T"}).json()
    values = sol.hand_ev("88", "T")
    assert {a: v["ev"] for a, v in actions["values"].items()} == dict(values)
    assert [a for a, v in actions["values"].items() if v["best"]] == [values.best]
    dealer = list(csv.reader(io.StringIO(
        client.get("/download/dealer.csv", params={"rules": RULES, "hand": "88 v T"}).text)))
    assert dealer[0] == ["dealer", "unconditioned", "given no dealer blackjack"]
    want = bjsolve.dealer_probabilities(sol.rules, 10, removed=(8, 8))
    assert {row[0]: float(row[1]) for row in dealer[1:]} == \
        {str(k): pytest.approx(v, rel=1e-12) for k, v in dict(want).items()}
    exceptions = client.get("/download/exceptions.json", params={"rules": RULES}).json()
    assert len(exceptions["rows"]) == len(sol.strategy.exceptions)


def test_bad_downloads(client):
    assert client.get("/download/nothing.csv").status_code == 404
    assert client.get("/download/edge.xml").status_code == 404
    r = client.get("/download/edge.csv", params={"decks": "0"})
    assert r.status_code == 400 and "decks" in r.text


def test_the_pages_fetch_nothing_from_elsewhere(client):
    """Offline: every script and style is the package's own, served from /static."""
    for path in ("/", "/hand", "/simulate", "/static/app.js", "/static/style.css"):
        r = client.get(path)
        assert r.status_code == 200, path
        assert not re.search(r"(https?:)?//[a-z]", r.text.replace("http://127.0.0.1", "")), path
    page = client.get("/").text
    assert re.findall(r'<script src="([^"]+)"', page) == ["/static/app.js"]
    assert re.findall(r'<link rel="stylesheet" href="([^"]+)"', page) == ["/static/style.css"]


def test_unknown_page_and_view(client):
    assert client.get("/counting-soon").status_code == 404
    assert client.get("/api/nothing").status_code == 404


def test_query_parsing_alone():
    rules, errors = rules_from_query({"decks": "inf", "h17": "on"})
    assert not errors and rules.infinite and rules.hit_soft_17
    assert parse_hand("A7 vs. 9") == ("A7", "9")
    assert parse_hand("10 6 v T") == (("10", "6"), "T")


def test_memo_computes_once_when_many_ask_at_once():
    memo = Memo(size=2)
    calls = []
    gate = threading.Event()

    def make():
        calls.append(1)
        gate.wait(5)
        return "value"

    got = []
    threads = [threading.Thread(target=lambda: got.append(memo.get("k", make)))
               for _ in range(6)]
    for t in threads:
        t.start()
    gate.set()
    for t in threads:
        t.join()
    assert got == ["value"] * 6 and len(calls) == 1
    memo.get("a", lambda: 1)
    memo.get("b", lambda: 2)                  # size 2: "k" is forgotten
    assert memo.get("k", lambda: "again") == "again"


# ---- the command line ----------------------------------------------------------------

def test_serve_without_the_web_extra_names_it(monkeypatch, capsys):
    import bjsolve.web
    monkeypatch.setattr(bjsolve.web, "web_stack_missing", lambda: "starlette")
    assert cli.main(["serve", "--no-browser"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "bjsolve[web]" in err[0]


def test_serve_refuses_a_bad_port(capsys):
    assert cli.main(["serve", "--port", "70000"]) == 2
    assert "--port" in capsys.readouterr().err


def test_serve_answers_on_localhost():
    proc = subprocess.Popen([sys.executable, "-m", "bjsolve", "serve", "--no-browser"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+/", line).group(0)
        with urllib.request.urlopen(url + "api/edge?rules=1D+H17", timeout=120) as r:
            body = json.load(r)
        assert body["data"]["edge"]["optimal"] == \
            -bjsolve.solve(bjsolve.Rules.parse("1D H17")).expected_value
    finally:
        proc.terminate()
        proc.wait(30)


# ---- the counting page -----------------------------------------------------------------

GAME = {"rules": "1D H17 no DAS", "system": "hilo", "penetration": "0.5"}


def test_counting_figures_are_the_apis(client, counted_game_1d_h17_nodas):
    game = counted_game_1d_h17_nodas
    for ramp, bankroll, unit in (("0:1,1:2,2:4", 200, 1), ("1:1,2:4,3:8", 500, 5)):
        body = client.get("/api/counting", params={**GAME, "ramp": ramp,
                                                   "bankroll": str(bankroll),
                                                   "unit": str(unit)}).json()
        want = game.evaluate(ramp, bankroll)           # bankroll in units
        got = body["data"]["figures"]
        for name in ("win_rate", "sd", "average_bet", "score", "n0", "di", "ror",
                     "ror_diffusion"):
            assert got[name] == pytest.approx(getattr(want, name), rel=1e-12), name
        # money: units x the unit
        assert body["data"]["money"]["win_rate"] == pytest.approx(want.win_rate * unit,
                                                                  rel=1e-12)
        counts = body["data"]["counts"]
        assert [c["tc"] for c in counts] == list(game.labels)
        assert [c["frequency"] for c in counts] == pytest.approx(list(game.frequency),
                                                                 rel=1e-12)
        assert [c["edge"] for c in counts] == pytest.approx(list(game.edge), rel=1e-12)
        assert [c["bet"] for c in counts] == list(want.ramp.bets(game.tc_values))
        assert f'id="fig-score">{got["score"]:.2f}<' in body["html"]["figures"]
    # the game is kept by rules, system, penetration and indices: one for both ramps
    engine = client.app.state.engine
    assert len(engine.games) == 1


def test_counting_page_and_downloads(client):
    page = client.get("/counting", params={**GAME, "ramp": "0:1,1:2,2:4"})
    assert page.status_code == 200 and 'id="fig-win_rate"' in page.text
    fresh = client.get("/counting", params={**GAME, "penetration": "0.6"})
    assert fresh.status_code == 200 and "data-autoload" in fresh.text   # asks for it itself
    bad = client.get("/counting", params={**GAME, "penetration": "lots"})
    assert bad.status_code == 400
    assert "must be a number" in re.search(r'data-error-for="penetration">([^<]*)<',
                                           bad.text).group(1)
    counts = list(csv.reader(io.StringIO(
        client.get("/download/counts.csv", params={**GAME, "ramp": "0:1,1:2,2:4"}).text)))
    assert "frequency" in counts[0] and "bet" in counts[0]
    figures = client.get("/download/figures.json", params={**GAME, "ramp": "0:1,1:2,2:4",
                                                           "bankroll": "200"}).json()
    assert [r["figure"] for r in figures["records"]][:2] == ["bankroll", "win rate per round"]


@pytest.mark.parametrize("bad, field, words", [
    ({"ramp": "0:1,1:"}, "ramp", "true count:bet"),
    ({"bankroll": "-5"}, "bankroll", "bankroll must be > 0"),
    ({"unit": "one"}, "unit", "must be a number"),
    ({"unit": "0"}, "unit", "unit must be from"),
    ({"system": "nosuch"}, "system", "unknown count system"),
    ({"penetration": "1.5"}, "penetration", "between 0 and 1"),
    ({"indices": "i99"}, "indices", "i18"),
    # (no hole card is counted; an exposed one is not)
    ({"rules": "1D H17 no DAS exposed"}, "rules", "hole_card"),
])
def test_bad_counting_input_beside_its_field(client, bad, field, words):
    r = client.get("/api/counting", params={**GAME, **bad})
    assert r.status_code == 400
    errors = r.json()["errors"]
    assert list(errors) == [field] and words in errors[field]


def test_counting_target_ror_trip_rounds_and_wong_in_are_the_apis(client,
                                                                  counted_game_1d_h17_nodas):
    game = counted_game_1d_h17_nodas
    ramp, bankroll = "0:1,1:2,2:4", 200
    params = {**GAME, "ramp": ramp, "bankroll": str(bankroll), "target_ror": "5%",
              "trip_rounds": "1000", "wong_in": "1"}
    body = client.get("/api/counting", params=params).json()
    assert body["errors"] == {}
    want = game.evaluate(ramp, bankroll, target_ror=0.05, trip_rounds=1000, wong_in=1)
    got = body["data"]
    for name in ("win_rate", "sd", "average_bet", "ror", "bankroll_for_target", "trip_ruin"):
        assert got["figures"][name] == pytest.approx(getattr(want, name), rel=1e-12), name
    # wonging in at +1 sits out the rounds below it: their bets are 0
    assert [c["bet"] for c in got["counts"]] == list(want.ramp.bets(game.tc_values))
    assert got["ramp"] == want.ramp.describe() and "wong" in got["ramp"]
    assert got["target_ror"] == want.target_ror == 0.05
    assert got["trip_rounds"] == want.trip_rounds == 1000
    assert "bankroll for 5% risk of ruin" in body["html"]["figures"]
    assert "trip ruin in 1,000 rounds" in body["html"]["figures"]
    # without the optional fields the figures are evaluate's without them
    plain = client.get("/api/counting", params={**GAME, "ramp": ramp,
                                                "bankroll": str(bankroll)}).json()["data"]
    assert plain["figures"]["bankroll_for_target"] is None
    assert plain["figures"]["trip_ruin"] is None
    assert plain["figures"]["win_rate"] == pytest.approx(game.evaluate(ramp, bankroll).win_rate,
                                                         rel=1e-12)
    assert "bankroll for" not in client.get("/api/counting", params={
        **GAME, "ramp": ramp, "bankroll": str(bankroll)}).json()["html"]["figures"]
    # kept in the link; the page's fields show them back
    assert "target_ror=5%25" in body["query"] and "trip_rounds=1000" in body["query"]
    assert "wong_in=1" in body["query"]
    page = client.get("/counting", params=params).text
    assert 'id="f-target_ror" value="5%"' in page and 'id="f-wong_in" value="1"' in page
    # the downloads carry the optional rows too
    records = client.get("/download/figures.json", params=params).json()["records"]
    shown = {r["figure"]: r["value"] for r in records}
    assert shown["bankroll for 5% risk of ruin"] == pytest.approx(want.bankroll_for_target,
                                                                  rel=1e-12)
    assert shown["trip ruin in 1000 rounds"] == pytest.approx(want.trip_ruin, rel=1e-12)
    # 0.05 and 5% are one target
    same = client.get("/api/counting", params={**params, "target_ror": "0.05"}).json()
    assert same["data"]["figures"] == got["figures"]


@pytest.mark.parametrize("bad, field, words", [
    ({"target_ror": "lots"}, "target_ror", "target_ror must be a probability"),
    ({"target_ror": "1.5"}, "target_ror", "strictly between 0 and 1"),
    ({"target_ror": "0"}, "target_ror", "strictly between 0 and 1"),
    ({"trip_rounds": "many"}, "trip_rounds", "trip_rounds must be a whole number"),
    ({"trip_rounds": "0"}, "trip_rounds", "trip_rounds must be a whole number"),
    ({"trip_rounds": "10.5"}, "trip_rounds", "trip_rounds must be a whole number"),
    ({"wong_in": "high"}, "wong_in", "wong_in must be a whole true count"),
    ({"wong_in": "1.5"}, "wong_in", "wong_in must be a whole number"),
    ({"wong_in": "40"}, "wong_in", "no round is played"),
])
def test_bad_optional_counting_input_beside_its_field(client, bad, field, words):
    r = client.get("/api/counting", params={**GAME, **bad})
    assert r.status_code == 400
    errors = r.json()["errors"]
    assert list(errors) == [field] and words in errors[field]
    page = client.get("/counting", params={**GAME, **bad})
    assert page.status_code == 400
    assert words in re.search(rf'data-error-for="{field}">([^<]*)<', page.text).group(1)


def test_serve_on_a_port_in_use_says_so(capsys):
    import socket
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert cli.main(["serve", "--no-browser", "--port", str(port)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"--port {port}: cannot listen" in err[0]


def test_the_package_and_the_command_help_import_no_web_stack():
    """``import bjsolve.web`` and ``bjsolve serve --help`` work without the web extra: the
    stack is imported only when the app is made."""
    code = ("import sys, io, contextlib\n"
            "import bjsolve.web\n"
            "from bjsolve.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    assert main(['serve', '--help']) == 0\n"
            "print([m for m in ('starlette', 'uvicorn', 'jinja2', 'numpy') if m in sys.modules])")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "[]"


def test_the_split_classes_offered_are_the_solvers():
    from bjsolve.exact.kernel_rules import SPLIT_CLASSES
    from bjsolve.web.forms import SPLIT_CLASSES as offered
    assert tuple(SPLIT_CLASSES) == offered


# ---- the simulate page -----------------------------------------------------------------

SIM = {"rules": "6D H17 DAS LS", "system": "hilo", "penetration": "0.75",
       "ramp": "0:1,1:2,2:4,3:8", "rounds": "300000", "seed": "7", "unit": "5"}


def _poll_until_finished(client, answer):
    """Poll a run as the page does until it is no longer queued or running (no time limit
    asserted: the loop ends when the run does)."""
    import time
    while answer["state"] in ("queued", "running"):
        time.sleep(0.05)
        answer = client.get(f"/api/simulate/{answer['job']}").json()
        assert 0 <= answer["done"] <= answer["total"]
    return answer


def test_simulation_run_is_the_apis_simulate(client):
    from bjsolve.web.simjobs import WEB_CHUNK_ROUNDS
    start = client.post("/api/simulate", params=SIM)
    assert start.status_code == 200
    answer = _poll_until_finished(client, start.json())
    assert answer["state"] == "done" and answer["done"] == answer["total"] == 300_000
    # the same settings and seed through the Python API (the result does not depend on
    # the number of threads, only on the seed and the chunk size)
    want = bjsolve.simulate(bjsolve.Rules.parse(SIM["rules"]), rounds=300_000, seed=7,
                            penetration=0.75, system="hilo", ramp=SIM["ramp"],
                            chunk_rounds=WEB_CHUNK_ROUNDS, threads=1)
    got = answer["data"]["figures"]
    assert not want.partial and not answer["data"]["partial"]
    for name in ("rounds", "played", "hands", "mean", "se", "sd", "win_rate", "total_won",
                 "total_bet", "shuffles"):
        assert got[name] == getattr(want, name), name
    assert got["win_per_100"] == 100 * want.mean
    assert answer["data"]["money"]["mean"] == want.mean * 5
    rows = [r for r in want.per_true_count if r.rounds]
    assert [(c["tc"], c["rounds"], c["played"]) for c in answer["data"]["counts"]] == \
        [(r.true_count, r.rounds, r.played) for r in rows]
    assert [c["mean"] for c in answer["data"]["counts"]] == \
        [r.mean if math.isfinite(r.mean) else None for r in rows]
    assert f'id="sim-mean">{want.mean:+.5f}<' in answer["html"]["sim-figures"]
    # kept by settings and seed: the same run again is done at once, and the page shows it
    again = client.post("/api/simulate", params=SIM).json()
    assert again["state"] == "done" and again["data"] == answer["data"]
    page = client.get("/simulate", params=SIM)
    assert page.status_code == 200 and f'id="sim-mean">{want.mean:+.5f}<' in page.text
    # downloads: the settings' kept result, or the job's
    table = list(csv.reader(io.StringIO(
        client.get("/download/sim-counts.csv", params=SIM).text)))
    assert table[0] == ["per-true-count", "rounds", "frequency", "played", "mean", "sd", "se"]
    assert [int(r[1]) for r in table[1:]] == [r.rounds for r in rows]
    summary = client.get("/download/simulation.json",
                         params={"job": answer["job"]}).json()
    assert summary["values"]["mean"]["value"] == want.mean


def test_stop_keeps_a_partial_result(client):
    start = client.post("/api/simulate", params={**SIM, "rounds": "1e9", "seed": "11"}).json()
    import time
    answer = start
    while answer["state"] in ("queued", "running") and answer["done"] == 0:
        time.sleep(0.05)                     # until a chunk is in: there is a result to keep
        answer = client.get(f"/api/simulate/{start['job']}").json()
    stopped = client.post(f"/api/simulate/{start['job']}/stop")
    assert stopped.status_code == 200
    answer = _poll_until_finished(client, stopped.json())
    assert answer["state"] == "stopped"
    data = answer["data"]
    assert data["partial"] and 0 < data["figures"]["rounds"] < 10**9
    assert data["figures"]["rounds"] == answer["done"]
    assert sum(c["rounds"] for c in data["counts"]) == data["figures"]["rounds"]
    assert "PARTIAL" in answer["html"]["sim-figures"]
    # a partial result is not kept for the settings: the job's download has it
    rows = client.get("/download/simulation.json", params={"job": start["job"]}).json()
    assert rows["values"]["partial (1: interrupted)"]["value"] == 1
    r = client.get("/download/simulation.csv", params={**SIM, "rounds": "1e9", "seed": "11"})
    assert r.status_code == 400 and "run it first" in r.text
    assert client.get("/api/simulate/nosuchjob").status_code == 404


@pytest.mark.parametrize("bad, field, words", [
    ({"rounds": "0"}, "rounds", "whole number 1..1,000,000,000"),
    ({"rounds": "1.5"}, "rounds", "whole number 1..1,000,000,000"),
    ({"rounds": "lots"}, "rounds", "whole number 1..1,000,000,000"),
    ({"rounds": "2e9"}, "rounds", "whole number 1..1,000,000,000"),
    ({"seed": "-1"}, "seed", "0..2**64-1"),
    ({"ramp": "0:1,1:"}, "ramp", "true count:bet"),
    ({"unit": "0"}, "unit", "unit must be from"),
    ({"decks": "0"}, "decks", ""),
])
def test_bad_simulation_input_beside_its_field(client, bad, field, words):
    r = client.post("/api/simulate", params={**SIM, **bad})
    assert r.status_code == 400
    errors = r.json()["errors"]
    assert list(errors) == [field] and words in errors[field]
    page = client.get("/simulate", params={**SIM, **bad})
    assert page.status_code == 400
    assert words in re.search(rf'data-error-for="{field}">([^<]*)<', page.text).group(1)


def test_a_simulation_error_found_while_running_is_shown_beside_its_field(client):
    # three spots leave room for four other players, not five: simulate says so
    answer = _poll_until_finished(client, client.post(
        "/api/simulate", params={**SIM, "spots": "3", "other_spots": "5"}).json())
    assert answer["state"] == "error" and list(answer["errors"]) == ["other_spots"]
    assert "0..4" in answer["errors"]["other_spots"]


def test_a_long_run_does_not_hold_up_the_other_pages(client):
    """A run of 1e9 rounds (minutes) in its own pool: a new solve for another page is
    answered while it runs; then the run is stopped."""
    start = client.post("/api/simulate", params={**SIM, "rounds": "1e9", "seed": "12"}).json()
    try:
        edge = client.get("/api/edge", params={"rules": "2D S17 DAS"})
        assert edge.status_code == 200
        want = bjsolve.solve(bjsolve.Rules.parse("2D S17 DAS"))
        assert edge.json()["data"]["edge"]["optimal"] == -want.expected_value
        assert client.get(f"/api/simulate/{start['job']}").json()["state"] in ("queued",
                                                                             "running")
    finally:
        _poll_until_finished(client, client.post(f"/api/simulate/{start['job']}/stop").json())
