"""``bjsolve simulate``: the same numbers as the API, every output format, one-line errors."""
import io
import json
import re
import time

import pytest

from children import child_env, sigint_as_in_a_terminal

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
                  "ramp: +1:1, +2:2, +3:4, +4:8", "decks estimation: exact",
                  "tc rounding: floor",
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
    (["--ramp", "1:-1"], "must be 0 (sits the round out) or a number"),
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
    (["--wong-in", "99999999999999999999"], "--wong-in must be a whole true count"),
    (["--wong-out", "-99999999999999999999"], "--wong-out must be a whole true count"),
    (["--insurance", "99999999999999999999"], "--insurance must be a whole true count"),
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
    code, _ = run("indices", "--decks", "2", "--set", "i18", "--tc-rounding", "floor",
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


# ---- one Ctrl-C ------------------------------------------------------------------------------

def _drain(fd, seen, text):
    """Read the child's terminal (its stderr) until it closes, so that the progress bar
    never blocks on a full terminal buffer; ``seen`` is set at the first bytes, ``text``
    collects them."""
    import os
    while True:
        try:
            data = os.read(fd, 4096)
        except OSError:
            return
        if not data:
            return
        text.append(data.decode(errors="replace"))
        seen.set()


@pytest.mark.skipif(not hasattr(__import__("os"), "openpty"), reason="needs a pseudo-terminal")
@pytest.mark.parametrize("threads", [["--threads", "2"],
                                     ["--threads", "1", "--chunk-rounds", "1e10"]])
def test_one_ctrl_c_prints_the_partial_result_at_once(threads):
    """`bjsolve simulate --rounds 1e10`: one SIGINT once the rounds are under way (the
    progress bar, drawn on a terminal only once the simulation runs, says when) ends the
    run with the rounds dealt so far, marked PARTIAL, exit 130; on two threads (the pool's
    shutdown waited for ever after an interrupt) and on one with a chunk of 1e10 rounds
    (the interrupt waited for the chunk).  Bounded waits only: a generous timeout."""
    import os
    import signal
    import subprocess
    import sys
    import threading
    master, slave = os.openpty()
    env = child_env(TERM="xterm", COLUMNS="100", BJSOLVE_DEBUG="1")
    child = subprocess.Popen(
        [sys.executable, "-m", "bjsolve", "simulate", "--rounds", "1e10", "--decks", "2",
         *threads], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave,
        text=True, env=env, preexec_fn=sigint_as_in_a_terminal)
    os.close(slave)
    drawn, terminal = threading.Event(), []
    reader = threading.Thread(target=_drain, args=(master, drawn, terminal), daemon=True)
    reader.start()
    try:
        assert drawn.wait(120), "no progress bar: the simulation never started"
        time.sleep(1.0)     # the bar can be drawn before the first chunk is under way
        child.send_signal(signal.SIGINT)
        out, _ = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        reader.join(5)
        os.close(master)
    assert child.returncode == 130, (out, "".join(terminal)[-2000:])
    dealt = re.search(r"rounds dealt:\s+([\d,]+)", out)
    assert "PARTIAL" in out and dealt and 0 < int(dealt.group(1).replace(",", "")) < 10**10


def test_an_unreachable_scheduler_fails_at_once_naming_the_address(monkeypatch, capsys):
    """--scheduler with nothing listening waited distributed's 30 s and said 'internal
    error'; now it gives up after SCHEDULER_TIMEOUT seconds, in one line with the address
    (exit 1: the command line was fine, the cluster was not there)."""
    pytest.importorskip("dask.distributed")
    import socket
    from bjsolve.cli import cmd_simulate
    monkeypatch.setattr(cmd_simulate, "SCHEDULER_TIMEOUT", 1)
    with socket.socket() as s:                   # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{s.getsockname()[1]}"
    code, out = run("simulate", "--rounds", "1000", "--scheduler", address)
    err = capsys.readouterr().err
    assert code == 1 and out == "" and err.count("\n") == 1, err
    assert f"--scheduler {address}: no Dask scheduler answered" in err
    assert "internal error" not in err


def test_one_round_shows_no_nan(capsys):
    """One round has a mean but no SD (a sample SD needs two rounds): the API keeps NaN,
    the text says so instead of '+- nan'."""
    code, text = run("simulate", "--rounds", "1", "--decks", "1")
    assert code == 0 and "nan" not in text.lower()
    words = " ".join(text.split())               # the text table wraps long cells
    assert "no SE from a single round" in words and "no SD from fewer than two" in words


def test_index_sets_combine_repeated_or_in_a_comma_list():
    """'--indices i18 --indices fab4' kept the last set only and 'i18,fab4' was refused:
    both are the two sets together, the game of simulate(indices=["i18", "fab4"])."""
    game = ["simulate", "--rounds", "20000", "--seed", "4", "--decks", "6", "--surrender",
            "late", "--format", "json"]
    docs = [json.loads(run(*game, *extra)[1])["tables"][0]
            for extra in (["--indices", "i18", "--indices", "fab4"], ["--indices", "i18,fab4"],
                          ["--indices", "i18"])]
    api = bjsolve.simulate(Rules(decks=6, surrender="late"), rounds=20000, seed=4,
                           system="hilo", indices=["i18", "fab4"])
    assert docs[0]["records"] == docs[1]["records"]
    assert docs[0]["notes"] == docs[1]["notes"]
    assert f"index plays: {api.settings['index_plays']}" in docs[0]["notes"]
    summary = {r["name"]: r["value"] for r in docs[0]["records"]}
    assert summary["total_won"] == api.total_won
    # fab4 adds the surrender lines of 14 v T, 15 v 9 and 15 v A to the i18 ones
    plays = [int(n.split(": ")[1]) for d in docs for n in d["notes"]
             if n.startswith("index plays: ")]
    assert plays[0] == plays[1] > plays[2]


def test_burn_is_the_games_flag_and_the_simulator_burns_one(capsys):
    """simulate had no --burn while game has: the same flag, default 1 (the simulator's
    dealer burns one card after every shuffle and refuses another number, naming it)."""
    game = ["simulate", "--rounds", "20000", "--seed", "2", "--decks", "2", "--format", "json"]
    assert run(*game)[1] == run(*game, "--burn", "1")[1]
    code, _ = run(*game, "--burn", "2")
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1 and "--burn" in err and "1 card" in err
    with pytest.raises(ValueError, match="burn: the simulator burns 1 card"):
        bjsolve.simulate(Rules(decks=2), rounds=1000, seed=1, burn=0)
    with pytest.raises(TypeError, match="burn must be a whole number"):
        bjsolve.simulate(Rules(decks=2), rounds=1000, seed=1, burn=1.5)


def test_unit_puts_money_beside_the_amounts_and_changes_nothing_else():
    """simulate --unit 25, as game and risk: the same run in units, each amount (mean, SD,
    total won, total bet) also in money; figures that are not amounts have none."""
    base = ("simulate", "--rounds", "20000", "--decks", "2", "--seed", "3", "--threads", "1",
            "--ramp", "1:1,2:4", "--format", "json")
    code, plain = run(*base)
    code2, money = run(*base, "--unit", "25")
    assert code == code2 == 0
    plain, money = (json.loads(t)["tables"][0]["records"] for t in (plain, money))
    assert [{k: v for k, v in r.items() if k != "money"} for r in money] == plain
    by_name = {r["name"]: r for r in money}
    for name in ("mean", "sd", "total_won", "total_bet"):
        assert by_name[name]["money"] == by_name[name]["value"] * 25
    assert "money" not in by_name["win_rate"] and "money" not in by_name["rounds"]
    code, csv = run(*base[:-2], "--unit", "25", "--format", "csv")
    assert code == 0 and "total won (money)" in csv


def test_unit_out_of_range_is_refused_as_in_game_and_risk():
    """simulate --unit takes the range game and risk take (one check for the three)."""
    import subprocess
    import sys

    from children import child_env
    proc = subprocess.run([sys.executable, "-m", "bjsolve", "simulate", "--rounds", "1000",
                           "--unit", "1e-30"], capture_output=True, text=True, env=child_env())
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "--unit must be from" in proc.stderr
