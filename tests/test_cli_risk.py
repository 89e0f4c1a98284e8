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
                     "--trip-rounds", "200", "--format", "json")
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


@pytest.mark.parametrize("args", [["--spots", "4"], ["--spots", "0"], ["--trip-rounds", "100"],
                                  ["--bankroll", "10", "--rounds", "100"],
                                  ["--target-ror", "1"], ["--target-ror", "0"],
                                  ["--unit", "0"], ["--unit", "1e12"],
                                  ["--bankroll", "-1"], ["--bankroll", "inf"],
                                  ["--bankroll", "10", "--trip-rounds", "0"],
                                  ["--bankroll", "10", "--trip-rounds", "1e400"],
                                  ["--bankroll", "10", "--trip-rounds", "inf"],
                                  ["--hole-card", "exposed", "--insurance"]])
def test_bad_input_one_line_exit_2(args, capsys):
    code = main(["risk", *args])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err


def test_money_flags_are_the_games_flags():
    """risk and game spell the bankroll flags alike (--bankroll units, --unit money,
    --target-ror, --trip-rounds; simulate's --rounds are the rounds it deals)."""
    from bjsolve.cli import build_parser
    _, parsers, _ = build_parser()
    flags = {name: {f for a in parsers[name]._actions for f in a.option_strings}
             for name in ("risk", "game")}
    money = {"--bankroll", "--unit", "--target-ror", "--trip-rounds"}
    assert money <= flags["risk"] and money <= flags["game"]
    assert "--rounds" not in flags["risk"] and "--rounds" not in flags["game"]


def test_unit_puts_money_beside_the_units_and_target_ror_gives_its_bankroll():
    base = ["risk", "--decks", "1", "--bankroll", "400", "--format", "json"]
    code, plain = run(*base, "--target-ror", "0.05")
    code2, money = run(*base, "--target-ror", "0.05", "--unit", "25")
    assert code == code2 == 0
    plain_figures = {r["figure"]: r["value"] for r in json.loads(plain)["tables"][1]["records"]}
    records = {r["figure"]: r for r in json.loads(money)["tables"][1]["records"]}
    assert {k: r["value"] for k, r in records.items()} == plain_figures   # units unchanged
    assert records["bankroll (units)"]["money"] == 400 * 25
    assert records["SD per round"]["money"] == records["SD per round"]["value"] * 25
    assert records["DI = 1000 EV/SD"]["money"] is None
    # the target's bankroll: the same as the fixed 5% row, both from bankroll_for_risk
    target = "bankroll for 5% lifetime ruin (target)"
    assert records[target]["value"] == records["bankroll for 5% lifetime ruin"]["value"]
    code, text = run(*base[:-2], "--unit", "25", "--target-ror", "0.05")
    assert code == 0 and "money" in text
