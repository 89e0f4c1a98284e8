"""The Counting page's charts (inline SVG made on the server), the optimal ramp beside the
user's and the spots field.  Every number a chart or table shows is compared with
``bjsolve.CountedGame`` for the same settings: its frequencies and edges, and its
``optimal_ramp`` and ``evaluate`` for the ramp's reach."""
import html
import itertools
import math
import re

import pytest

from web_extra import require_web_extra

require_web_extra()

import bjsolve  # noqa: E402
from bjsolve.web.charts import nice_ticks  # noqa: E402

RULES = "1D H17 no DAS"
GAME = {"rules": RULES, "system": "hilo", "penetration": "0.5", "ramp": "0:1,1:2,2:4",
        "bankroll": "200"}


def bars(fragment: str, chart_id: str) -> list:
    """(label, series, value) of each bar of the chart ``chart_id`` in an HTML fragment."""
    svg = re.search(rf'<svg id="{chart_id}".*?</svg>', fragment, re.DOTALL)
    assert svg, f"no chart {chart_id}"
    return [(html.unescape(label), html.unescape(series), float(value))
            for label, series, value in re.findall(
                r'<rect class="bar [^"]*" [^>]*data-label="([^"]*)" data-series="([^"]*)" '
                r'data-value="([^"]*)"', svg.group(0))]


def cell(fragment: str, element_id: str) -> str:
    return html.unescape(re.search(rf'id="{element_id}"[^>]*>(.*?)</', fragment).group(1))


def test_frequency_and_edge_charts_are_the_games(client, counted_game_1d_h17_nodas):
    game = counted_game_1d_h17_nodas
    body = client.get("/api/counting", params=GAME).json()
    charts = body["html"]["charts"]
    labels = list(game.labels)
    frequency = bars(charts, "chart-frequency")
    assert [b[0] for b in frequency] == labels
    assert [b[2] for b in frequency] == pytest.approx(list(game.frequency), rel=1e-12)
    edge = bars(charts, "chart-edge")
    assert [b[0] for b in edge] == labels
    assert [b[2] for b in edge] == pytest.approx(list(game.edge), rel=1e-12)
    # axes named with their units; a tooltip per bar
    for words in ("true count at round start", "share of rounds (percent)",
                  "edge (percent of the bet)"):
        assert words in charts
    assert charts.count("<title>") == 2 * len(labels)
    # the frequencies sum to one: every round starts at some true count
    assert sum(b[2] for b in frequency) == pytest.approx(1.0, abs=1e-9)


def test_the_optimal_ramp_is_the_games_for_the_ramps_reach(client, counted_game_1d_h17_nodas):
    game = counted_game_1d_h17_nodas
    body = client.get("/api/counting", params=GAME).json()
    ramps = body["html"]["ramps"]
    # the user's ramp 0:1,1:2,2:4 bets 1 to 4 units: the optimal ramp for spread 4, bet 1
    want = game.optimal_ramp(4, min_bet=1)
    assert cell(ramps, "optimal-ramp") == want.describe()
    assert body["data"]["optimal"]["ramp"] == want.describe()
    chart = bars(ramps, "chart-ramps")
    yours = [b[2] for b in chart if b[1] == "your ramp"]
    optimal = [b[2] for b in chart if b[1] == "optimal ramp"]
    assert yours == list(bjsolve.risk.parse_ramp("0:1,1:2,2:4").bets(game.tc_values))
    assert optimal == list(want.bets(game.tc_values))
    # the bets' table: one row per true count, the two ramps' bets
    rows = re.findall(r"<tr><th>([^<]*)</th><td class=\"num\">([^<]*)</td>"
                      r"<td class=\"num\">([^<]*)</td></tr>",
                      re.search(r'<table class="grid" id="ramps-table">.*?</table>', ramps,
                                re.DOTALL).group(0))
    assert [html.unescape(r[0]) for r in rows] == list(game.labels)
    assert [float(r[1]) for r in rows] == yours and [float(r[2]) for r in rows] == optimal
    # the two ramps' figures side by side, each the game's evaluate at the bankroll
    for name, ramp in (("yours", "0:1,1:2,2:4"), ("optimal", want)):
        result = game.evaluate(ramp, 200)
        assert cell(ramps, f"{name}-score") == f"{result.score:.2f}"
        assert cell(ramps, f"{name}-win_rate") == f"{result.win_rate:+.4f}"
        assert cell(ramps, f"{name}-sd") == f"{result.sd:.3f}"
        assert cell(ramps, f"{name}-ror") == f"{100 * result.ror:.3f}%"
        for k in ("win_rate", "sd", "score", "ror"):
            assert body["data"]["optimal"]["figures" if name == "optimal" else "yours"][k] \
                == pytest.approx(getattr(result, k), rel=1e-12)
    # the optimal ramp's SCORE is at least the user's (it maximises SCORE over such ramps)
    assert body["data"]["optimal"]["figures"]["score"] >= \
        body["data"]["optimal"]["yours"]["score"] - 1e-9


def test_a_ramp_that_sits_out_gets_an_optimal_ramp_that_sits_out(client, counted_game_1d_h17_nodas):
    game = counted_game_1d_h17_nodas
    body = client.get("/api/counting", params={**GAME, "ramp": "-1:0,1:2,3:6"}).json()
    want = game.optimal_ramp(3, min_bet=2, wong=True)
    assert body["data"]["optimal"]["ramp"] == want.describe()
    assert body["data"]["optimal"]["wong"] is True
    assert [c["optimal_bet"] for c in body["data"]["counts"]] == \
        list(want.bets(game.tc_values))
    # sitting out where the edge is negative: a bet of 0 exactly there
    for c, e in zip(body["data"]["counts"], game.edge):
        assert (c["optimal_bet"] == 0) == (e <= 0)


def test_spots_make_the_game_of_that_many_spots(client):
    body = client.get("/api/counting", params={**GAME, "spots": "2"}).json()
    assert body["errors"] == {} and body["data"]["spots"] == 2
    assert "spots=2" in body["query"]
    two = bjsolve.CountedGame(bjsolve.Rules.parse(RULES), "hilo", penetration=0.5, spots=2)
    assert [c["frequency"] for c in body["data"]["counts"]] == \
        pytest.approx(list(two.frequency), rel=1e-12)
    assert body["data"]["figures"]["score"] == \
        pytest.approx(two.evaluate("0:1,1:2,2:4", 200).score, rel=1e-12)
    page = client.get("/counting", params={**GAME, "spots": "2"}).text
    assert 'id="f-spots" value="2"' in page


@pytest.mark.parametrize("typed", ["0", "8", "two", "1.5"])
def test_bad_spots_are_shown_beside_the_field(client, typed):
    r = client.get("/api/counting", params={**GAME, "spots": typed})
    assert r.status_code == 400
    errors = r.json()["errors"]
    assert list(errors) == ["spots"] and "spots must be a whole number of spots 1..7" in \
        errors["spots"] and repr(typed) in errors["spots"]


@pytest.mark.parametrize("low, high", [(0, 0.3236), (-0.136, 0.0561), (0, 4), (0, 12),
                                        (-2e-5, 1e-5), (0, 1)])
def test_ticks_are_round_and_cover_the_values(low, high):
    ticks = nice_ticks(low, high)
    assert ticks[0] <= min(low, 0) and ticks[-1] >= max(high, 0) and 0 in ticks
    steps = {round(b - a, 12) for a, b in itertools.pairwise(ticks)}
    assert len(steps) == 1
    step = steps.pop()
    mantissa = step / 10 ** math.floor(math.log10(step))
    assert round(mantissa, 9) in (1, 2, 5)
    assert 3 <= len(ticks) <= 12
