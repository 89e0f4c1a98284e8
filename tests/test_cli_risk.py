"""bjsolve risk: the outcome table and the risk figures, in every format; bad input."""
import csv
import io
import json

import pytest

from bjsolve import Rules, solve
from bjsolve.__main__ import main
from bjsolve.risk.ruin import lifetime_ruin


def run(*args):
    out = io.StringIO()
    code = main(list(args), out=out)
    return code, out.getvalue()


def test_json_carries_the_distribution_and_the_figures():
    code, text = run("risk", "--decks", "1", "--max-split-hands", "2", "--bankroll", "400",
                     "--rounds", "200", "--format", "json")
    assert code == 0
    doc = json.loads(text)
    outcomes, risk = doc["tables"]
    probs = {r["outcome"]: r["probability"] for r in outcomes["records"]}
    assert abs(sum(probs.values()) - 1) < 1e-12
    figures = {r["figure"]: r["value"] for r in risk["records"]}
    # an independent figure: 1D S17 DAS one split has an SD of 1.156 per round
    assert abs(figures["SD per round"] - 1.156) < 5e-4
    mean = sum(v * p for v, p in probs.items())
    assert abs(figures["mean"] - mean) < 1e-12
    # the lifetime ruin is the library's exact root method on the same distribution
    dist = solve(Rules(decks=1, max_split_hands=2)).outcome_distribution()
    assert abs(figures["lifetime ruin (exact)"] - lifetime_ruin(dist, 400).probability) < 1e-12
    assert 0 <= figures["trip ruin"] < figures["lifetime ruin (exact)"]


@pytest.mark.parametrize("fmt", ["text", "csv", "markdown", "html"])
def test_every_format(fmt):
    code, text = run("risk", "--infinite", "--spots", "2", "--format", fmt)
    assert code == 0 and "covariance between two spots" in text
    if fmt == "csv":
        rows = list(csv.reader(io.StringIO(text)))
        assert rows[0] == ["table", "row", "column", "value"]
    if fmt == "text":
        assert "exact" in text and "+1.5" in text


def test_insurance_flag_changes_the_mean_by_the_insurance_ev():
    _, plain = run("risk", "--decks", "6", "--format", "json")
    _, ins = run("risk", "--decks", "6", "--insurance", "--format", "json")
    mean = lambda doc: {r["figure"]: r["value"] for r in json.loads(doc)["tables"][1]["records"]}["mean"]
    sol = solve(Rules(decks=6))
    expect = sol.shoe.probabilities()[0] * 0.5 * sol.insurance_ev()
    assert abs(mean(ins) - mean(plain) - expect) < 1e-12


@pytest.mark.parametrize("args", [["--spots", "4"], ["--spots", "0"], ["--rounds", "100"],
                                  ["--bankroll", "-1"], ["--bankroll", "inf"],
                                  ["--bankroll", "10", "--rounds", "0"],
                                  ["--bankroll", "10", "--rounds", "1e400"],
                                  ["--bankroll", "10", "--rounds", "inf"],
                                  ["--hole-card", "exposed", "--insurance"]])
def test_bad_input_one_line_exit_2(args, capsys):
    code = main(["risk", *args])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err


def test_trip_rounds_is_the_games_word_and_rounds_still_reads():
    """risk and game say --trip-rounds for the trip ruin's horizon (simulate's --rounds are
    the rounds it deals); risk still reads its old --rounds, the same figure."""
    base = ["risk", "--decks", "1", "--bankroll", "400", "--format", "json"]
    new = run(*base, "--trip-rounds", "200")
    old = run(*base, "--rounds", "200")
    assert new[0] == old[0] == 0 and new[1] == old[1]
    assert "trip ruin" in new[1]
