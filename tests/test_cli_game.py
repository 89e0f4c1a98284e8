"""bjsolve game: the true-count table and the ramp summary in every format, one-line errors."""
import csv
import io
import json

import pytest

from bjsolve.cli import main

BASE = ["game", "--decks", "1", "--penetration", "0.6", "--depth-bands", "1",
        "--ramp", "1:1,2:2,3:4", "--bankroll", "2000"]


# the CLI is tested for its plumbing: each distinct game is analysed once (the analysis
# itself is tested in test_game.py)
pytestmark = pytest.mark.usefixtures("one_analysis_per_counted_game")


def run(argv):
    out = io.StringIO()
    code = main(argv, out=out)
    return code, out.getvalue()


@pytest.fixture(scope="module")
def json_doc():
    code, text = run(BASE + ["--format", "json"])
    assert code == 0
    return json.loads(text)


def test_json_has_the_table_and_the_summary(json_doc):
    tables = {t["table"]: t for t in json_doc["tables"]}
    assert set(tables) == {"game", "summary"}
    game = tables["game"]
    rows = game["values"] if "values" in game else game["rows"]
    assert rows
    text = json.dumps(game)
    for column in ("frequency", "edge", "SD", "bet"):
        assert column in text
    summary = json.dumps(tables["summary"])
    for figure in ("win rate per 100", "SD per 100", "DI", "SCORE", "N0", "risk of ruin",
                   "CE per 100"):
        assert figure in summary


def test_text_output_agrees_with_the_api(json_doc):
    code, text = run(BASE)
    assert code == 0
    assert "true counts at round starts" in text.lower()
    summary = [t for t in json_doc["tables"] if t["table"] == "summary"][0]
    score = summary["values"]["SCORE"]["value"]
    assert f"{score:.6f}" in text
    # frequencies add up to one in the CSV
    code, data = run(BASE + ["--format", "csv"])
    assert code == 0
    rows = list(csv.reader(io.StringIO(data)))
    header, body = rows[0], rows[1:]
    freq = [float(r[header.index("frequency")]) for r in body] if "frequency" in header else \
        [float(r[3]) for r in body if r[0] == "game" and r[2] == "frequency"]
    assert sum(freq) == pytest.approx(1.0, abs=1e-9)


def test_ruin_rows_exact_diffusion_and_trip(json_doc):
    summary = [t for t in json_doc["tables"] if t["table"] == "summary"][0]
    values = {k: v["value"] for k, v in summary["values"].items()}
    exact, diffusion = values["risk of ruin"], values["risk of ruin (diffusion approx.)"]
    assert 0 <= exact <= 1 and 0 <= diffusion <= 1
    assert "exact, ladder heights" in json.dumps(summary)   # the method is named
    code, text = run(BASE + ["--trip-rounds", "500", "--format", "json"])
    assert code == 0
    doc = json.loads(text)
    summary = [t for t in doc["tables"] if t["table"] == "summary"][0]
    trip = summary["values"]["trip ruin in 500 rounds"]["value"]
    assert 0 <= trip <= exact + 1e-12


def test_trip_rounds_needs_a_bankroll(capsys):
    argv = [a for a in BASE if a not in ("--bankroll", "2000")] + ["--trip-rounds", "100"]
    code, _ = run(argv)
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1 and "--bankroll" in err


def test_markdown_and_html(tmp_path):
    code, text = run(BASE + ["--format", "markdown"])
    assert code == 0 and "| frequency" in text.replace("|frequency", "| frequency")
    path = tmp_path / "game.html"
    code, _ = run(BASE + ["--format", "html", "--output", str(path)])
    assert code == 0 and "<table" in path.read_text()


@pytest.mark.parametrize("extra, word", [
    (["--penetration", "0.05"], "penetration"),
    (["--penetration", "1.5"], "penetration"),
    (["--ramp", "1:x"], "ramp"),
    (["--ramp", "1:-1"], "ramp bet"),
    (["--ramp", "1:1,1:2"], "given twice"),
    (["--bankroll", "0"], "bankroll"),
    (["--bankroll", "-5"], "bankroll"),
    (["--optimal-spread", "0.5"], "spread"),
    (["--optimal-spread", "1e9"], "1..1,000,000"),   # printed bets of 7.7e+07 units
    (["--tc-rounding", "ceil"], "--tc-rounding"),
    (["--system", "nosuch"], "count system"),
    (["--indices", "i99"], "index set"),
    (["--infinite"], "finite shoe"),
    (["--trip-rounds", "0"], "--trip-rounds"),
    (["--rounds", "500"], "--rounds goes with: simulate"),   # the rounds simulate deals
    (["--ramp", "1:1e300"], "1,000,000 units"),     # overflowed the variance: exit 1
    (["--ramp=1e300:1"], "-1000..+1000"),
])
def test_bad_input_is_one_line_and_exit_2(extra, word, capsys):
    argv = BASE[:1] + BASE[3:] if "--infinite" in extra else BASE
    code, _ = run(argv + extra)
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert len(err.splitlines()) == 1 and word in err


def test_a_ramp_and_a_count_that_start_with_a_minus_sign():
    """`--ramp -1:1,2:4` and `--system -1,1,...` as counters type them: argparse alone
    reads those values as unknown flags; the same game as with `--flag=value`."""
    tags = "-1,1,1,1,1,1,0,0,0,-1"    # Hi-Lo from A to T, written out
    base = [a for a in BASE if a not in ("--ramp", "1:1,2:2,3:4")]
    code, spaced = run(base + ["--ramp", "-1:1,2:2,3:4", "--system", tags, "--format", "json"])
    assert code == 0
    code, joined = run(base + ["--ramp=-1:1,2:2,3:4", f"--system={tags}", "--format", "json"])
    assert code == 0
    assert json.loads(spaced) == json.loads(joined)
    assert "-1:1" in spaced


def test_text_table_signs_the_edge_and_shows_bets_as_units():
    code, text = run(BASE)
    assert code == 0
    lines = text.splitlines()
    header = next(i for i, line in enumerate(lines) if line.split() == ["frequency", "edge",
                                                                         "SD", "bet"])
    rows = [line.split() for line in lines[header + 1:] if line.strip()]
    rows = [r for r in rows if len(r) == 5 and r[0].lstrip("<>=").lstrip("+-").isdigit()]
    assert rows
    for label, freq, edge, sd, bet in rows:
        assert edge[0] in "+-", edge               # a signed EV
        assert bet in ("1", "2", "4"), bet         # the ramp 1:1,2:2,3:4 in units
    assert {r[4] for r in rows} == {"1", "2", "4"}


def test_ramp_summary_names_the_ramp_once_and_both_ramps_have_the_trip_ruin():
    """The ramp written out went in front of every figure ('Ramp 1:1,2:2,3:4, SD per 100:'),
    and the SCORE-optimal ramp's long name broke every line in two at 80 columns; its
    figures also left out the trip ruin that --trip-rounds asked for."""
    code, text = run(BASE + ["--trip-rounds", "500", "--optimal-spread", "4"])
    assert code == 0
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert lines.count("== ramp 1:1,2:2,3:4 ==") == 1
    assert sum("1:1,2:2,3:4" in line for line in lines) == 1
    assert sum(line.startswith("== SCORE-optimal ramp ") for line in lines) == 1
    assert sum("trip ruin in 500 rounds:" in line for line in lines) == 2
    figures = [line for line in lines if line.startswith("  SD per 100:")]
    assert len(figures) == 2


def test_spots_say_the_figures_are_per_hand():
    """'game --spots 2' moves only where rounds start: its win rate is one hand's, about
    half of 'simulate --spots 2' (two bets a round); the output and the help say so."""
    code, text = run(BASE + ["--spots", "2", "--format", "json"])
    assert code == 0
    doc = json.loads(text)
    for table in doc["tables"]:
        assert any("per one hand" in n and "--other-spots 1" in n for n in table["notes"])
    _, flat = run(BASE + ["--format", "json"])
    assert not any("per one hand" in n for t in json.loads(flat)["tables"] for n in t["notes"])


def test_game_sd_per_round_agrees_with_the_simulator_spot_for_spot():
    """The SD per round of 'game --spots 2' is one hand's at a two-hand table: the
    simulator's SD with --spots 1 --other-spots 1 (within a few percent at 2e5 rounds),
    not its SD with --spots 2 (two bets a round, about 1.6x)."""
    code, text = run(BASE + ["--spots", "2", "--format", "json"])
    summary = next(t for t in json.loads(text)["tables"] if t["table"] == "summary")
    game_sd = summary["values"]["SD per round"]["value"]
    sim = ["simulate", "--rounds", "2e5", "--seed", "5", "--decks", "1", "--penetration",
           "0.6", "--ramp", "1:1,2:2,3:4", "--format", "json"]

    def simulated_sd(*spots):
        code, out = run(sim + list(spots))
        assert code == 0
        records = json.loads(out)["tables"][0]["records"]
        return next(r["value"] for r in records if r["name"] == "sd")
    assert abs(game_sd / simulated_sd("--spots", "1", "--other-spots", "1") - 1) < 0.03
    assert simulated_sd("--spots", "2") / game_sd > 1.3


def test_a_short_ramp_gets_its_heading_too():
    code, text = run(BASE[:-4] + ["--ramp", "1:1,2:4", "--bankroll", "2000"])
    assert code == 0
    assert "== ramp 1:1,2:4 ==" in text.splitlines()
    assert not any(line.startswith("Ramp ") for line in text.splitlines())


def test_penetration_in_cards_as_for_simulate():
    """simulate took '--penetration 234' (cards) and game refused it ('between 0 and 1'):
    both read a fraction or a number of cards; 39 of 52 cards is the game at 0.75."""
    base = [a for a in BASE if a not in ("--penetration", "0.6")]
    code, cards = run(base + ["--penetration", "39", "--format", "json"])
    assert code == 0
    code, fraction = run(base + ["--penetration", "0.75", "--format", "json"])
    assert json.loads(cards) == json.loads(fraction)
    assert "cut card after 39 cards" in cards


@pytest.mark.parametrize("value, word", [("52", "goes beyond the 52-card shoe"),
                                         ("abc", "a number of cards"), ("nan", "above 0")])
def test_bad_penetration_in_cards(value, word, capsys):
    base = [a for a in BASE if a not in ("--penetration", "0.6")]
    code, _ = run(base + ["--penetration", value])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and word in err


def test_average_bet_says_it_is_per_round_played():
    """The notes said every figure is per round dealt, but the average bet is per round
    played: with --wong-in it is the bets' mean over the rounds with a bet, which the
    label and the notes now say; the advantage is the win over the amount bet."""
    code, text = run(BASE + ["--wong-in", "1", "--format", "json"])
    assert code == 0
    tables = json.loads(text)["tables"]
    figures = {k: v["value"] for k, v in tables[1]["values"].items()}
    rows = tables[0]["values"]
    played = sum(r["frequency"] for r in rows.values() if r["bet"] > 0)
    mean_bet = sum(r["frequency"] * r["bet"] for r in rows.values()) / played
    assert figures["average bet (rounds played)"] == pytest.approx(mean_bet, rel=1e-9)
    assert figures["advantage (win / amount bet)"] == pytest.approx(
        figures["win rate per round"] / (mean_bet * played), rel=1e-9)
    assert "average bet, per round played" in " ".join(tables[1]["notes"])


def test_notes_explain_ruin_only_when_it_is_shown():
    code, text = run(BASE[:-2] + ["--format", "json"])          # no --bankroll
    summary = json.loads(text)["tables"][1]
    assert not any("ruin" in k or "CE" in k for k in summary["values"])
    assert "ruin" not in " ".join(summary["notes"]) and "CE =" not in " ".join(summary["notes"])
    code, text = run(BASE + ["--format", "json"])
    assert "risk of ruin: lifetime" in " ".join(json.loads(text)["tables"][1]["notes"])


def test_indices_repeated_or_in_a_comma_list_are_one_list(tmp_path):
    """'game --indices i18 --indices fab4' kept the last set only and 'i18,fab4' was
    refused: both give CountedGame the list ["i18", "fab4"] (the game reads it with
    bjsolve.counting.indices.as_index_table, as simulate does); a file's name is kept whole."""
    from bjsolve.cli import parse
    from bjsolve.cli.counting_args import index_items
    odd = tmp_path / "hi,lo.idx"
    odd.write_text("16 10 0 0 0 2 +0 1 +1000\n")
    for argv, expected in ((["--indices", "i18", "--indices", "fab4"], ["i18", "fab4"]),
                           (["--indices", "i18,fab4"], ["i18", "fab4"]),
                           (["--indices", "i18", "--indices", str(odd)], ["i18", str(odd)]),
                           ([], None)):
        assert index_items(parse(["game", *argv]).indices) == expected


# flags only one counted command has, and why (test_the_counted_commands_share_their_flags)
GAME_ONLY = {"--bankroll": "exact ruin and certainty equivalent (simulate: --bankroll-trials)",
             "--optimal-spread": "the SCORE-optimal ramp, from the exact figures",
             "--depth-bands": "the exact evaluation's depth bands",
             "--trip-rounds": "the trip ruin's horizon (simulate deals --rounds)",
             "--target-ror": "the bankroll for a lifetime risk, from the exact ruin",
             "--plays": "Blackjack Switch's play indices (simulate plays Switch's hands "
                        "by the analysis' decisions)"}
SIMULATE_ONLY = {"--rounds": "rounds dealt", "--seed": "the generator", "--chunk-rounds":
                 "seeded chunks", "--scheduler": "a Dask cluster", "--bankroll-trials":
                 "simulated ruin paths", "--other-spots": "other players' spots (game: "
                 "--spots N counts every hand at the table)", "--wong-out": "leaving the "
                 "shoe (the game models wong-in only)", "--table-min": "bets raised to the "
                 "table's minimum", "--table-max": "bets cut to the table's maximum"}


def _flags(command) -> dict:
    """{flag: default} of a command's flags shown in --help."""
    import argparse

    from bjsolve.cli import build_parser
    _, own, _ = build_parser(only=command, flags=True)
    return {flag: action.default for action in own[command]._actions
            for flag in action.option_strings
            if action.help != argparse.SUPPRESS and flag not in ("-h", "--help")}


def test_the_counted_commands_share_their_flags_with_the_same_defaults():
    """game had no --insurance nor --threads, simulate no --burn, and --rounds was the trip
    ruin's horizon in game but the rounds dealt in simulate: a flag of one counted command
    is in the other, same name and default, unless it has no meaning there."""
    game, simulate = _flags("game"), _flags("simulate")
    assert set(game) - set(simulate) == set(GAME_ONLY)
    assert set(simulate) - set(game) == set(SIMULATE_ONLY)
    assert {f: (game[f], simulate[f]) for f in set(game) & set(simulate)
            if game[f] != simulate[f]} == {}
    for flag in ("--insurance", "--burn", "--threads", "--indices"):
        assert flag in game and flag in simulate


def test_insurance_and_threads_reach_the_game():
    from bjsolve.cli import parse
    args = parse(["game", "--insurance", "3", "--threads", "1"])
    assert args.insurance == 3 and args.threads == 1
    assert parse(["game", "--insurance", "never"]).insurance is False
    assert parse(["game"]).insurance is None
    code, text = run(BASE + ["--insurance", "3", "--format", "json"])
    assert code == 0
    notes = " ".join(json.loads(text)["tables"][0]["notes"])
    assert "strategy basic" in notes and "insurance at TC >= +3" in notes
    code, text = run(BASE + ["--format", "json"])
    assert "insurance never" in " ".join(json.loads(text)["tables"][0]["notes"])


def test_json_summary_figures_carry_their_own_units(json_doc):
    """One label, 'probability (fraction of 1)', covered the win rate, SD, DI, SCORE and N0:
    each figure's record now says its unit."""
    summary = [t for t in json_doc["tables"] if t["table"] == "summary"][0]
    assert "probability" not in summary["units"]
    unit = {r["figure"]: r["unit"] for r in summary["records"]}
    assert set(unit) == set(summary["rows"])
    assert unit["win rate per round"] == unit["SD per round"] == "units per round dealt"
    assert unit["win rate per 100"] == "units per 100 rounds dealt"
    assert unit["N0"] == "rounds dealt" and unit["DI"].startswith("no unit")
    assert unit["risk of ruin"] == "probability"
    values = {r["figure"]: r["value"] for r in summary["records"]}
    assert values["win rate per 100"] == pytest.approx(100 * values["win rate per round"])


def test_a_no_hole_card_game_is_counted_and_says_what_its_figures_mean():
    # ENHC: the table's notes say when the dealer's natural is settled and what it takes,
    # that the figures are unconditioned and how insurance is played
    code, text = run(BASE + ["--hole-card", "enhc", "--insurance", "3"])
    assert code == 0
    flat = " ".join(word for word in text.split() if word != "#")   # (notes wrap)
    assert "no hole card (enhc)" in flat and "takes every bet, doubles and splits too" in flat
    assert "unconditioned" in flat and "settled when the second card is turned" in flat

