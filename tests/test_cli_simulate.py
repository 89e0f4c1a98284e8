"""``bjsolve simulate``: the same numbers as the API, every output format, one-line errors."""
import io
import json
import re

import pytest

import bjsolve
from bjsolve import Rules
from bjsolve.cli import main


def run(*args):
    out = io.StringIO()
    code = main(list(args), out=out)
    return code, out.getvalue()


def test_cli_matches_the_api():
    code, text = run("simulate", "--rounds", "2e5", "--seed", "3", "--decks", "2",
                     "--penetration", "0.75", "--system", "hilo", "--ramp", "1:1,2:2,3:4",
                     "--format", "json")
    assert code == 0
    doc = json.loads(text)
    summary = {r["name"]: r["value"] for r in doc["tables"][0]["records"]}
    api = bjsolve.simulate(Rules(decks=2), rounds=200_000, seed=3, penetration=0.75,
                           system="hilo", ramp="1:1,2:2,3:4")
    assert summary["rounds"] == 200_000
    assert summary["total_won"] == api.total_won and summary["mean"] == api.mean
    by_tc = doc["tables"][1]["records"]
    assert sum(r["rounds"] for r in by_tc) == 200_000


def test_cli_text_output_names_the_settings():
    code, text = run("simulate", "--rounds", "50000", "--seed", "1", "--decks", "6",
                     "--ramp", "1:1,2:2,3:4,4:8", "--wong-out", "-1")
    assert code == 0
    for words in ("rounds", "mean", "win rate", "penetration: 234 of 312 cards",
                  "ramp: +1:1, +2:2, +3:4, +4:8", "decks estimation: exact", "tc convention: floor",
                  "Result by true count"):
        assert words in text


def test_cli_index_file(tmp_path):
    path = tmp_path / "hilo.idx"
    path.write_text("16 10 1 0 0 2 +0 1 +1000\n16 10 0 0 0 2 +0 1 +1000\n")
    code, text = run("simulate", "--rounds", "20000", "--decks", "6", "--indices", str(path),
                     "--format", "csv")
    assert code == 0 and "rounds" in text
    path.write_text("16 10 1 0 0 2 +0 1 +1000\n16 ten\n")
    code, _ = run("simulate", "--rounds", "20000", "--decks", "6", "--indices", str(path))
    assert code == 2


@pytest.mark.parametrize("args, words", [
    (["--rounds", "0"], "--rounds"),
    (["--rounds", "2.5"], "--rounds"),
    (["--seed", "x"], "--seed"),
    (["--penetration", "2.0"], "penetration"),
    (["--ramp", "2:1,2:2"], "given twice"),
    (["--ramp", "1:-1"], ">= 0"),
    (["--ramp", "1:1e300"], "1,000,000 units"),
    (["--system", "nosuch"], "unknown count system"),
    (["--spots", "9"], "spots"),
])
def test_cli_bad_input_is_one_line_and_exit_2(args, words, capsys):
    code, _ = run("simulate", "--rounds", "1000", *args)
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and words in err


@pytest.mark.parametrize("args, words", [
    (["--wong-in", "1", "--wong-out", "3"], "--wong-out (+3) must not be above --wong-in (+1)"),
    (["--other-spots", "7"], "--other-spots must be"),
    (["--table-min", "5", "--table-max", "2"], "--table-max must be a number >= --table-min"),
    (["--seed", "-1"], "--seed must be"),
])
def test_api_errors_name_the_flags_as_typed(args, words, capsys):
    """The simulator's errors named its parameters (wong_out, other_spots, table_max); the
    command line names the flags the user typed."""
    code, _ = run("simulate", "--rounds", "1000", *args)
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert words in err and "_" not in err


def test_wong_in_alone_plays_exactly_the_rounds_at_or_above_it():
    """--wong-in alone leaves the shoe below the same count (the help said 'never leave'):
    the same run as --wong-out at that count, and 'game --wong-in' means the same."""
    _, alone = run("simulate", "--rounds", "20000", "--wong-in", "1", "--format", "json")
    _, both = run("simulate", "--rounds", "20000", "--wong-in", "1", "--wong-out", "1",
                  "--format", "json")
    _, never = run("simulate", "--rounds", "20000", "--wong-in", "1", "--wong-out", "-99",
                   "--format", "json")
    assert alone == both and alone != never
    from bjsolve.cli import build_parser
    help_text = build_parser(only="simulate")[1]["simulate"].format_help()
    help_text = " ".join(help_text.split())
    assert "(default: never leave)" not in help_text
    assert "(default: the --wong-in count, else never leave)" in help_text


def test_csv_and_json_carry_numbers_not_text_for_reading():
    """simulate --format csv wrote '"5,339,073"', '+0.012 +- 0.003 per round (1 SE)' and
    frequencies to five decimals: text a spreadsheet cannot add up.  Every cell is a number
    now (the SE in a row of its own), the same as the JSON records, counts whole."""
    import csv as csv_module
    code, text = run("simulate", "--rounds", "30000", "--seed", "4", "--format", "csv")
    assert code == 0
    cells = list(csv_module.DictReader(io.StringIO(text)))
    for cell in cells:
        if cell["value"]:
            float(cell["value"])                       # a number, or empty for no entry
    by_key = {(c["table"], c["row"], c["column"]): c["value"] for c in cells}
    assert by_key[("simulation", "rounds dealt", "value")] == "30000"
    code, doc = run("simulate", "--rounds", "30000", "--seed", "4", "--format", "json")
    doc = json.loads(doc)
    records = {r["name"]: r["value"] for r in doc["tables"][0]["records"]}
    assert float(by_key[("simulation", "mean", "value")]) == records["mean"]
    se = float(by_key[("simulation", "SE of the mean", "value")])
    assert se == pytest.approx(records["sd"] / 30000 ** 0.5, rel=1e-6)
    frequencies = {r["true_count"]: r["frequency"] for r in doc["tables"][1]["records"]}
    for (table, row, column), value in by_key.items():
        if table == "per-true-count" and column == "frequency":
            assert float(value) == frequencies[int(row)]
    assert isinstance(doc["tables"][1]["values"]["+0"]["rounds"], int)     # 5339, not 5339.0


def test_text_summary_lines_the_numbers_up():
    """The summary's values were right-aligned to 9 characters, so '20,000,000' and
    '+0.012959 +- ...' stuck out past '465,780': every number now ends in one column."""
    code, text = run("simulate", "--rounds", "1e7", "--seed", "2")    # 10,000,000: 10 wide
    assert code == 0
    lines = [line for line in text.splitlines() if line.startswith("Simulation, ")]
    assert len(lines) >= 10
    ends = {len(line.split(":", 1)[0]) + 1 + len(line.split(":", 1)[1].split()[0])
            + len(line.split(":", 1)[1]) - len(line.split(":", 1)[1].lstrip())
            for line in lines}
    assert len(ends) == 1, lines


def test_an_index_file_keeps_its_insurance_index(tmp_path):
    """'indices --set i18 --format index' writes the insurance index as its
    '# insurance: take at TC >= +3' line; 'simulate --indices FILE' played insurance never,
    so the file gave another game than '--indices i18'.  Now the same game, same numbers."""
    path = tmp_path / "i18.idx"
    code, _ = run("indices", "--decks", "2", "--set", "i18", "--tc-convention", "floor",
                  "--format", "index", "--output", str(path))
    assert code == 0 and "# insurance: take at TC >= " in path.read_text()
    game = ["simulate", "--rounds", "30000", "--seed", "9", "--decks", "2", "--format", "json"]
    _, from_file = run(*game, "--indices", str(path))
    _, named = run(*game, "--indices", "i18")
    notes = json.loads(from_file)["tables"][0]["notes"]
    assert any(n.startswith("insurance: at TC >= ") for n in notes), notes
    assert json.loads(from_file)["tables"][0]["records"] == json.loads(named)["tables"][0]["records"]
    _, never = run(*game, "--indices", str(path), "--insurance", "never")
    assert "insurance: never" in json.loads(never)["tables"][0]["notes"]


def test_rare_true_counts_do_not_read_as_never_seen():
    code, text = run("simulate", "--rounds", "200000", "--seed", "3")
    assert code == 0
    rows = [line.split() for line in text.splitlines()
            if line.split() and re.fullmatch(r"[+-]\d+", line.split()[0])]
    assert rows
    for tc, rounds, frequency, *_ in rows:
        assert float(frequency) > 0, (tc, rounds, frequency)   # was 0.00000 below 5e-6
    assert any("e-0" in r[2] for r in rows)
    assert max(len(line) for line in text.splitlines()) <= 80
