"""What a new user met walking through every command at 80 columns: each test is one
finding (a bad input that ran for ever or passed silently, a flag spelled two ways, a
number that did not say what it was)."""
import io

import pytest

from bjsolve.cli import main


def run(*args):
    out = io.StringIO()
    code = main(list(args), out=out)
    return code, out.getvalue()


def one_error_line(capsys, args, words):
    code, out = run(*args)
    err = capsys.readouterr().err
    assert code == 2 and out == "", (args, code, err)
    assert len(err.strip().splitlines()) == 1 and err.startswith("bjsolve: error:"), err
    assert words in err, err


@pytest.mark.parametrize("args, words", [
    # ran for ever (a 99-spot round; a list of 10**24 chunks built before the run)
    (["game", "--spots", "99"], "'99' is not a whole number 1..7"),
    (["game", "--spots", "0"], "'0' is not a whole number 1..7"),
    (["simulate", "--rounds", "1e30"], "rounds must be a whole number 1..1000000000000000"),
    (["simulate", "--rounds", "1e9", "--chunk-rounds", "1"], "give a larger --chunk-rounds"),
    (["simulate", "--spots", "8"], "'8' is not a whole number 1..7"),
    (["simulate", "--threads", "0"], "'0' is not a whole number 1..1024"),
    # passed silently: nan, zero, and a flag that has no effect without another
    (["indices", "--risk-averse", "--round-variance", "nan"], "not a positive finite number"),
    (["indices", "--risk-averse", "--round-variance", "0"], "not a positive finite number"),
    (["indices", "--round-variance", "1.2"], "--round-variance goes with --risk-averse"),
    (["game", "--bankroll", "inf"], "not a positive finite number"),
    (["game", "--bankroll", "-3"], "not a positive finite number"),
    (["--rules", ""], "--rules: give the rules"),           # ran the defaults silently
    (["dealer", "--rules", "  "], "--rules: give the rules"),
])
def test_bad_input_is_refused_before_any_work(args, words, capsys):
    one_error_line(capsys, args, words)


def test_simulate_api_refuses_a_run_too_large_to_plan():
    import bjsolve
    with pytest.raises(ValueError, match="rounds must be a whole number"):
        bjsolve.simulate(rounds=10**16, seed=1)
    with pytest.raises(ValueError, match="chunk_rounds"):
        bjsolve.simulate(rounds=10**7, seed=1, chunk_rounds=1)


# ---- one idea, one flag: the counted commands spelled the true-count rounding --tc,
# --rounding and --tc-convention, the decks estimate --true-count half-deck and
# --decks-estimation half; now one flag each, the library's keyword with dashes -----------

def parsed(*argv):
    from bjsolve.cli import parse
    return parse(list(argv))


@pytest.mark.parametrize("command", ["game", "simulate", "indices"])
def test_tc_rounding_is_one_flag_with_one_default_in_every_counted_command(command, capsys):
    from bjsolve.cli import build_parser
    assert parsed(command, "--tc-rounding", "TRUNCATE").tc_rounding == "truncate"
    assert parsed(command).tc_rounding == "floor"
    _, parsers, _ = build_parser(only=command)
    text = parsers[command].format_help()
    assert "--tc-rounding" in text
    for old in ("--tc ", "--tc-convention", "--rounding", "--true-count"):
        assert old not in text


@pytest.mark.parametrize("command", ["game", "simulate"])
def test_decks_estimation_and_strategy_read_the_same_words(command):
    assert parsed(command, "--decks-estimation", "half").decks_estimation == "half"
    assert parsed(command, "--decks-estimation", "FULL").decks_estimation == "full"
    assert parsed(command).decks_estimation == "exact"
    assert parsed(command, "--strategy", "optimal").strategy == "optimal"
    assert parsed(command, "--strategy", "Basic").strategy == "basic"


@pytest.mark.parametrize("argv", [
    ["game", "--tc", "round"], ["game", "--tc-convention", "round"],
    ["simulate", "--rounding", "truncate"], ["simulate", "--true-count", "half"],
    ["indices", "--rounding", "ceiled"], ["simulate", "--decks-estimation", "half-deck"],
    ["simulate", "--strategy", "composition"], ["game", "--strategy", "chart"],
])
def test_old_spellings_are_refused(argv, capsys):
    code, _ = run(*argv)
    assert code == 2


def test_simulate_flags_reach_the_simulator_under_the_library_names():
    import json
    common = ["simulate", "--rounds", "20000", "--decks", "2", "--seed", "5",
              "--format", "json", "--threads", "1"]
    code, new = run(*common, "--decks-estimation", "half", "--tc-rounding", "round",
                    "--strategy", "optimal")
    assert code == 0
    code, default = run(*common)
    assert json.loads(default) != json.loads(new)      # the flags do reach the simulator
    notes = " ".join(json.loads(new)["tables"][0]["notes"])
    assert "decks estimation: half" in notes and "tc rounding: round" in notes
    assert "strategy: optimal" in notes


def test_advantage_basic_is_the_chart():
    import json
    code, basic = run("advantage", "--decks", "1", "--strategy", "basic", "--format", "json")
    assert code == 0
    code, optimal = run("advantage", "--decks", "1", "--format", "json")
    basic, optimal = (json.loads(t)["values"]["EV"]["overall"] for t in (basic, optimal))
    assert basic < optimal                 # the chart gives up the composition exceptions


def test_a_flag_of_another_command_is_named_in_the_hint(capsys):
    code, _ = run("strategy", "--index-rounding", "ceiled")
    err = capsys.readouterr().err
    assert code == 2 and "--index-rounding goes with: indices)" in err


# ---- what the text says ------------------------------------------------------------------

def test_a_probability_of_one_keeps_its_decimals_counts_stay_whole():
    from bjsolve.output.render import _cell
    # the cumulative column of 'risk' ended in '1' under a column of 0.999999
    assert _cell(1.0, style="prob") == "1.000000"
    assert _cell(0.999999, style="prob") == "0.999999"
    assert _cell(400.0, style="prob") == "400"          # a bankroll or a number of rounds


def test_simulate_summary_reads_as_words_and_fits_80_columns(monkeypatch):
    import json
    monkeypatch.setenv("COLUMNS", "80")
    args = ["simulate", "--rounds", "30000", "--seed", "3", "--threads", "1", "--ramp",
            "1:1,2:4", "--wong-in", "0", "--bankroll-trials", "200,1000,50"]
    code, text = run(*args)
    assert code == 0
    assert max(len(line) for line in text.splitlines()) <= 80
    for words in ("rounds dealt:", "rounds played:", "total won:", "win rate:",
                  "risk of ruin:"):
        assert words in text
    assert "total_won" not in text and "win_rate" not in text
    assert "nan" not in text          # counts wonged out (no round played) show '--'
    assert "      0       --     --      --" in text
    code, doc = run(*args, "--format", "json")
    records = {r["name"]: r["value"] for r in json.loads(doc)["tables"][0]["records"]}
    assert records["rounds"] == 30000 and "total_won" in records   # programs keep the keys
    assert records["played"] < records["rounds"]                  # wonged out of some


@pytest.mark.parametrize("command, present, absent", [
    ("hand", ["markdown", "html"], ["png", "colour"]),
    ("dealer", ["html", "png/svg"], ["colour", "index"]),
    ("strategy", ["html", "colour on a terminal"], ["index"]),
    ("indices", ["index: the index file"], ["png", "colour"]),
])
def test_format_help_names_only_the_formats_the_command_has(command, present, absent):
    from bjsolve.cli import build_parser
    _, parsers, _ = build_parser(only=command)
    action = parsers[command]._option_string_actions["--format"]
    for word in present:
        assert word in action.help
    for word in absent:
        assert word not in action.help, word


def test_advantage_notes_do_not_say_column_for_what_text_prints_as_rows():
    import json
    code, doc = run("advantage", "--decks", "1", "--format", "json")
    notes = " ".join(json.loads(doc)["notes"])
    assert "by column" not in notes and "each dealer card" in notes


def test_strategy_html_carries_the_house_edge_in_its_caption():
    # the README's printable chart: 'strategy --format html' showed the rules only
    import re
    code, page = run("strategy", "--decks", "1", "--format", "html")
    assert code == 0
    caption = re.search(r"<caption>([^<]*)", page).group(1)
    assert "House edge" in caption and "1D" in caption
    code, json_doc = run("edge", "--decks", "1", "--no-chart", "--format", "json")
    import json
    edge = json.loads(json_doc)["values"]["basic-strategy chart"]["house edge"]
    assert f"House edge {100 * edge:.3f}% with this chart" in caption
    code, text = run("strategy", "--decks", "1")
    assert "House edge" not in text            # the text chart stays the chart alone


def test_index_file_fits_80_columns_and_still_reads_back(tmp_path):
    # its comment lines ran to 371 characters
    path = tmp_path / "hilo-1d.txt"
    code, _ = run("indices", "--decks", "1", "--format", "index", "-o", str(path))
    assert code == 0
    lines = path.read_text().splitlines()
    assert max(len(line) for line in lines) <= 80
    data = [line for line in lines if line and not line.startswith("#")]
    assert len(data) > 30 and all(line.split()[-1] == "+1000" for line in data)
    code, text = run("simulate", "--decks", "1", "--rounds", "5000", "--threads", "1",
                     "--indices", str(path), "--format", "json")
    import json
    notes = json.loads(text)["tables"][0]["notes"]
    plays = next(n for n in notes if n.startswith("index plays: "))
    assert code == 0 and int(plays.split(": ")[1]) > 0


def test_a_table_with_nothing_in_it_prints_why_not_a_screen_of_dashes():
    code, text = run("surrender", "--decks", "1")
    assert code == 0
    assert "surrender is not offered under these rules" in text
    assert "--" not in text.replace("(see --surrender)", "")
    assert len(text.splitlines()) <= 6
    code, text = run("surrender", "--decks", "1", "--surrender", "late")
    assert code == 0 and len(text.splitlines()) > 35       # a real table still shows


def test_a_misspelt_rule_word_lists_every_word_once_and_whole(capsys):
    # the list was cut off at 'sp...' and gave each '(tied naturals ...)' twice
    code, _ = run("--rules", "6D H17 DZA")    # (DSA is a word now: double split aces)
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1
    assert err.endswith("tied naturals win") and "(tied" not in err
    assert "spl3" in err and "s17" in err


def test_initial_table_keeps_its_digits_at_80_columns(monkeypatch):
    # squeezed to 3 decimals of a fraction it read 0.002 for 0.18%
    import json
    monkeypatch.setenv("COLUMNS", "80")
    code, text = run("initial", "--decks", "6")
    assert code == 0 and max(len(line) for line in text.splitlines()) <= 80
    code, doc = run("initial", "--decks", "6", "--format", "json")
    values = json.loads(doc)["values"]
    p = values["7"]["2"]
    assert sum(sum(row.values()) for row in values.values()) == pytest.approx(1, abs=1e-12)
    row = next(line for line in text.splitlines() if line.split()[:1] == ["7"])
    assert row.split()[1] == f"{100 * p:.3f}%"


# ---- --indices reads the same words in game and simulate -------------------------------

def test_a_selected_index_set_writes_only_its_lines(tmp_path):
    # 'indices --set i18 --format index' wrote every line of the table (all_lines was not
    # cut), so 'simulate --indices FILE' played every index, not the 18
    from bjsolve.counting.indices import NAMED_SETS
    i18 = {(row, up) for row, up, _, _ in NAMED_SETS["i18"]}
    path = tmp_path / "i18.txt"
    code, _ = run("indices", "--decks", "1", "--set", "i18", "--format", "index", "-o",
                  str(path))
    assert code == 0
    data = [line.split() for line in path.read_text().splitlines()
            if line and not line.startswith("#")]
    assert 0 < len({(d[0], d[1]) for d in data}) <= len(i18)
    # the rows of the file are the 18 (hard totals, 'TT' as 20 with split allowed)
    for d in data:
        count, up = int(d[0]), int(d[1])
        row = "TT" if (count == 20 and d[3] == "1") else str(count)
        assert (row, up) in i18, d


def test_simulate_indices_takes_the_sets_game_takes():
    import json

    def plays(*extra):
        code, text = run("simulate", "--decks", "1", "--rounds", "5000", "--threads", "1",
                         "--surrender", "late", "--format", "json", *extra)
        assert code == 0, text
        notes = json.loads(text)["tables"][0]["notes"]
        return int(next(n for n in notes if n.startswith("index plays: ")).split(": ")[1])
    every, i18, fab4, top5 = (plays("--indices"), plays("--indices", "i18"),
                              plays("--indices", "FAB4"), plays("--indices", "5"))
    assert plays("--indices", "all") == every
    assert 0 < fab4 < i18 < every and 0 < top5 < every


def test_a_flag_shared_by_commands_is_written_the_same_in_their_help():
    import argparse
    from bjsolve.cli import build_parser
    _, parsers, _ = build_parser()
    metavars = {}
    for name, parser in parsers.items():
        for action in parser._actions:
            if action.help == argparse.SUPPRESS:
                continue
            for flag in action.option_strings:
                if flag.startswith("--") and flag != "--format":
                    metavars.setdefault(flag, {}).setdefault(
                        action.metavar or (tuple(action.choices) if action.choices else None),
                        []).append(name)
    # --indices: a set in both, simulate also reads a FILE; --tc-rounding: indices adds
    # 'exact' (the crossing itself); --insurance: a switch in risk, a true count in simulate
    allowed = {"--indices", "--tc-rounding", "--insurance"}
    mixed = {flag: spellings for flag, spellings in metavars.items()
             if len(spellings) > 1 and flag not in allowed}
    assert not mixed, mixed


@pytest.mark.parametrize("shoe, decks, words", [
    ("decks(6)", 6, "6 decks (312 cards)"),
    ("decks(1)", 1, "1 deck (52 cards)"),
    ("decks(2)", 6, "2 decks (104 cards)"),
    ("infinite()", float("inf"), "infinite"),
    ("decks(6).remove('A', 'A', '5')", 6, "6 decks less A A 5 (309 cards)"),
    ("decks(1).remove(*'23456789T23456789T2')", 1,
     "1 deck less 2 2 2 3 3 4 4 5 5 6 6 7 7 8 8 9 9 T T (33 cards)"),
    ("decks(1).remove(*'23456789T23456789T234')", 1,      # more than 20 out: the counts
     "31 cards: A 4, 2 1, 3 1, 4 1, 5 2, 6 2, 7 2, 8 2, 9 2, T 14"),
])
def test_the_shoe_note_reads_as_words_not_python(shoe, decks, words):
    # every table said 'shoe: Shoe.decks(6)' or 'shoe: Shoe([22, 24, ...])'
    from bjsolve import Shoe
    from bjsolve.output.table import shoe_words
    assert shoe_words(eval(f"Shoe.{shoe}"), decks) == words


def test_cli_notes_name_the_cards_taken_out():
    code, text = run("hand", "T", "6", "--dealer", "T", "--remove", "A,A,5")
    assert code == 0 and "# shoe: 6 decks less A A 5 (309 cards)" in text
    code, text = run("dealer", "--decks", "2")
    assert code == 0 and "# shoe: 2 decks (104 cards)" in text and "Shoe." not in text


def test_hand_has_the_html_format_every_other_command_has():
    import re
    code, page = run("hand", "8", "8", "--dealer", "A", "--decks", "1", "--format", "html")
    assert code == 0 and page.startswith("<!DOCTYPE html>")
    import bjsolve
    ev = bjsolve.solve(bjsolve.Rules(decks=1)).hand_ev((8, 8), 1)
    assert f"{ev[ev.best]:+.6f}" in page or f"{ev[ev.best]:.6f}" in page
    assert re.search(r">\s*best\s*<", page) and "given no dealer blackjack" in page
