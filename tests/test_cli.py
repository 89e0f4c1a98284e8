"""The command line, run as a user would (python -m bjsolve and the bjsolve script)."""
import csv
import io
import json
import shutil
import subprocess
import sys

import pytest

from bjsolve.__main__ import main


def run(*args):
    out = io.StringIO()
    code = main(list(args), out=out)
    return code, out.getvalue()


def test_python_m_and_console_script_agree():
    args = ["dealer", "--decks", "2", "--format", "csv"]
    a = subprocess.run([sys.executable, "-m", "bjsolve", *args], capture_output=True, text=True)
    assert a.returncode == 0, a.stderr
    script = shutil.which("bjsolve")
    if script:
        b = subprocess.run([script, *args], capture_output=True, text=True)
        assert b.returncode == 0 and b.stdout == a.stdout


def test_dealer_csv_is_fractions_matching_the_published_table():
    code, text = run("dealer", "--decks", "2", "--format", "csv")
    assert code == 0
    rows = list(csv.reader(line for line in text.splitlines() if not line.startswith("#")))
    assert rows[0] == ["dealer", "17", "18", "19", "20", "21", "bust", "blackjack"]
    six = dict(zip(rows[0], next(r for r in rows if r[0] == "6")))
    assert abs(float(six["bust"]) - 0.4221) < 0.00005   # published table: 42.21 %
    assert "given no dealer blackjack" not in text


def test_dealer_text_is_percent_and_states_measure():
    code, text = run("dealer", "--decks", "1", "--given-no-blackjack")
    assert code == 0 and "%" in text and "given no dealer blackjack" in text
    assert "1D S17" in text
    header = next(line for line in text.splitlines() if line.split()[:1] == ["17"])
    assert header.split() == ["17", "18", "19", "20", "21", "bust"]   # no all-zero natural column
    code, text = run("dealer", "--decks", "1")
    header = next(line for line in text.splitlines() if line.split()[:1] == ["17"])
    assert header.split()[-1] == "blackjack"


def test_dealer_json_and_markdown():
    code, text = run("dealer", "--infinite", "--format", "json")
    data = json.loads(text)
    assert code == 0 and data["table"] == "dealer"
    for row in data["values"].values():
        assert abs(sum(row.values()) - 1.0) < 1e-12
    code, text = run("dealer", "--format", "markdown")
    assert code == 0 and text.count("|") > 50


def test_hand_report_names_its_conventions():
    code, text = run("hand", "8", "8", "--dealer", "T", "--decks", "2")
    assert code == 0
    assert "given no dealer blackjack" in text and "split CDZ-" in text
    assert "split" in text and "<- best" in text


def test_tables_state_rules_and_split_class():
    code, text = run("split", "optimal", "--decks", "1", "--split", "CDP1")
    assert code == 0 and "post-split strategy CDP1" in text and "1D S17" in text


@pytest.mark.parametrize("args", [
    ["bogus"], ["--decks", "0"], ["--decks", "x"], ["--double", "7"], ["hand", "10", "--dealer", "3"],
    ["hand", "10", "6"], ["hand", "10", "6", "--dealer", "Z"], ["hand", "T", "T", "5", "--dealer", "2"],
    ["--split", "CDX"], ["--payout", "abc"], ["--remove", "A,A,A,A,A", "--decks", "1"],
    ["--preset", "moon"], ["dealer", "--preset", "easy", "--given-no-blackjack"],
])
def test_bad_arguments_exit_2_with_one_line(args, capsys):
    code, out = run(*args)
    err = capsys.readouterr().err
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("bjsolve: error:")
    assert "Traceback" not in err


def test_bad_arguments_from_a_real_process():
    p = subprocess.run([sys.executable, "-m", "bjsolve", "hand", "Q", "--dealer", "5"],
                       capture_output=True, text=True)
    assert p.returncode == 2 and "Traceback" not in p.stderr and p.stderr.count("\n") == 1


def test_counting_commands():
    code, text = run("eor", "--decks", "1")
    assert code == 0 and "fixed" in text and "reoptimized" in text and "mean" in text
    code, text = run("counts", "--decks", "1", "--system", "hilo", "--format", "csv")
    assert code == 0 and "Hi-Lo" in text
    code, text = run("tc-advantage", "--decks", "1", "--format", "json")
    data = json.loads(text)
    assert code == 0 and set(data["columns"]) == {"exact", "linear"}
    for args in (["counts", "--system", "nosuch"], ["indices", "--system", "1,2"],
                 ["eor", "--format", "index"], ["eor", "extra"]):
        assert run(*args)[0] == 2


def test_indices_index_format_and_quiet_progress():
    p = subprocess.run([sys.executable, "-m", "bjsolve", "indices", "--decks", "2",
                        "--format", "index"], capture_output=True, text=True)
    assert p.returncode == 0 and p.stderr == ""   # no progress bar when not a terminal
    lines = [l for l in p.stdout.splitlines() if not l.startswith("#")]
    assert lines and all(l.endswith("+1000") for l in lines)


def test_exposed_dealer_table_uses_scores(capsys):
    """The exposed game: the dealer table keys outcomes by score, 0 for a bust; a dealer hard 16
    ends bust 8/13 and on each of 17..21 with 1/13 (infinite shoe)."""
    assert main(["--preset", "easy", "dealer", "--format", "csv"]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    header = next(r for r in rows if r and r[0] == "dealer")
    assert header[1:] == ["0", "17", "18", "19", "20", "21", "BJ"]
    sixteen = dict(zip(header, next(r for r in rows if r and r[0] == "16")))
    assert float(sixteen["0"]) == pytest.approx(8 / 13, abs=1e-15)
    for score in ("17", "18", "19", "20", "21"):
        assert float(sixteen[score]) == pytest.approx(1 / 13, abs=1e-15)
