"""The web app's CSV and JSON downloads are the command line's files: for each table the page
offers, the download and ``bjsolve COMMAND --format csv|json`` with the same settings are
compared (a command that writes two tables writes CSV in long form, table,row,column,value,
and JSON as {"tables": [...]}: the page's table is compared with its part).  Neither side is
the expected value of the other's numbers: the figures themselves are checked against the
API in tests/test_web.py; here the point is that both write the same file."""
import csv
import io
import json
import time

import pytest

from web_extra import require_web_extra

require_web_extra()

from bjsolve import cli  # noqa: E402

RULES = "2D H17 DAS LS"

# the files are compared, not the figures: the counted game the command and the page ask for
# with the same settings is analysed once for both (one game for four files and two commands)
pytestmark = pytest.mark.usefixtures("one_analysis_per_counted_game")


def command(*argv) -> str:
    out = io.StringIO()
    assert cli.main(list(argv), out=out) == 0
    return out.getvalue()


def download(client, name: str, fmt: str, params: dict) -> str:
    r = client.get(f"/download/{name}.{fmt}", params=params)
    assert r.status_code == 200, r.text
    assert "attachment" in r.headers["content-disposition"]
    return r.text


def long_form(grid_csv: str) -> list:
    """A one-table CSV grid (name,columns... then a row per row) as the long form's rows."""
    rows = list(csv.reader(io.StringIO(grid_csv)))
    name, columns = rows[0][0], rows[0][1:]
    return [[name, row[0], c, v] for row in rows[1:] for c, v in zip(columns, row[1:])]


def part_of_long_csv(long_csv: str, table: str) -> list:
    rows = list(csv.reader(io.StringIO(long_csv)))
    assert rows[0] == ["table", "row", "column", "value"]
    return [row for row in rows[1:] if row[0] == table]


@pytest.mark.parametrize("name, argv", [
    ("edge", ["edge", "--no-chart"]),
    ("chart", ["strategy"]),
    ("upcards", ["advantage"]),
    ("exceptions", ["exceptions"]),
])
@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_the_solves_tables_are_the_commands(client, name, argv, fmt):
    got = download(client, name, fmt, {"rules": RULES, "split": "CDZ-"})
    want = command(*argv, "--rules", RULES, "--format", fmt)
    assert got == want
    if fmt == "json":
        assert json.loads(got)["rows"]          # a table with rows, not an error


def test_the_hands_actions_csv_is_the_commands(client):
    got = download(client, "actions", "csv", {"rules": RULES, "hand": "T 6 v 9"})
    assert got == command("hand", "T", "6", "--dealer", "9", "--rules", RULES,
                          "--format", "csv")
    # the page's other hand table, which no command writes: rendered by the same layer
    doc = json.loads(download(client, "dealer", "json", {"rules": RULES, "hand": "T6 v 9"}))
    assert doc["table"] == "dealer" and doc["columns"][0] == "unconditioned"
    assert doc["units"] == "probability (fraction of 1)"


GAME = {"rules": "1D H17 no DAS", "system": "hilo", "penetration": "0.5",
        "ramp": "0:1,1:2,2:4", "bankroll": "200", "unit": "5"}
GAME_ARGV = ["game", "--rules", GAME["rules"], "--system", "hilo", "--penetration", "0.5",
             "--ramp", GAME["ramp"], "--bankroll", "200", "--unit", "5"]


def test_the_counted_games_tables_are_the_commands(client):
    long_csv = command(*GAME_ARGV, "--format", "csv")
    document = json.loads(command(*GAME_ARGV, "--format", "json"))
    counts, figures = document["tables"]
    for name, table in (("counts", counts), ("figures", figures)):
        got_csv = download(client, name, "csv", GAME)
        assert long_form(got_csv) == part_of_long_csv(long_csv, table["table"])
        assert json.loads(download(client, name, "json", GAME)) == table
    assert figures["records"] and figures["columns"] == ["units", "money"]


SIM = {"rules": "6D H17 DAS LS", "system": "hilo", "penetration": "0.75",
       "ramp": "0:1,1:2,2:4,3:8", "rounds": "200000", "seed": "5", "unit": "5",
       "spots": "2", "table_max": "6", "insurance": "3"}
SIM_ARGV = ["simulate", "--rules", SIM["rules"], "--system", "hilo", "--penetration", "0.75",
            "--ramp", SIM["ramp"], "--rounds", "200000", "--seed", "5", "--unit", "5",
            "--spots", "2", "--table-max", "6", "--insurance", "3",
            "--chunk-rounds", "1e5"]


def test_the_simulations_tables_are_the_commands(client):
    answer = client.post("/api/simulate", params=SIM).json()
    while answer["state"] in ("queued", "running"):
        time.sleep(0.05)
        answer = client.get(f"/api/simulate/{answer['job']}").json()
    assert answer["state"] == "done", answer
    long_csv = command(*SIM_ARGV, "--format", "csv")
    document = json.loads(command(*SIM_ARGV, "--format", "json"))
    summary, by_tc = document["tables"]
    for name, table in (("simulation", summary), ("sim-counts", by_tc)):
        got_csv = download(client, name, "csv", SIM)
        assert long_form(got_csv) == part_of_long_csv(long_csv, table["table"])
        got = json.loads(download(client, name, "json", SIM))
        assert got == table


def test_a_download_with_a_bad_field_names_it(client):
    r = client.get("/download/figures.csv", params={**GAME, "ramp": "0:1,1:"})
    assert r.status_code == 400 and r.text.startswith("ramp:")
    r = client.get("/download/actions.json", params={"rules": RULES, "hand": "T6"})
    assert r.status_code == 400 and r.text.startswith("hand:")
