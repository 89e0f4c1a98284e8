"""What a user of the command line sees: the house edge first, output that fits 80 columns,
CSV and JSON that programs read, help that documents every flag, one-line errors."""
import contextlib
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

import bjsolve
from bjsolve import cli
from bjsolve.cli.table_command import TABLE_NAMES, build_tables
from bjsolve.output.render import render_many


def run(*args, env=None):
    """In process: (exit code, stdout text, stderr text)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        code = cli.main(list(args), out=out)
    return code, out.getvalue(), err.getvalue()


def process(*args, env=None, **kwargs):
    full_env = dict(os.environ, **(env or {}))
    return subprocess.run([sys.executable, "-m", "bjsolve", *args], capture_output=True,
                          text=True, env=full_env, **kwargs)


def edge_percent(text, label):
    m = re.search(rf"{label}:\s+(-?\d+\.\d+)%", text)
    assert m, text
    return float(m.group(1))


# ---- the house edge first ---------------------------------------------------------------

def test_default_command_leads_with_the_house_edge_of_both_strategies():
    p = process(env={"COLUMNS": "80"})
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[0].startswith("House edge, basic-strategy chart:")
    assert "House edge, optimal play:" in p.stdout
    # published exact EV of 6D S17 DOA DAS SPL3 no RSA, optimal CDZ- play: -0.0040287023611541
    assert edge_percent(p.stdout, "optimal play") == pytest.approx(0.403, abs=0.0005)
    # conventions stated: one player, full shoe, split class, percent
    assert "one player, full shoe off the top" in p.stdout and "CDZ-" in p.stdout
    assert "== basic strategy ==" in p.stdout           # the chart follows
    assert max(len(line) for line in lines) <= 80


@pytest.mark.parametrize("flags, published_ev", [
    (["--decks", "1"], 0.0018193430614842354),
    (["--rules", "2d s17 das"], -0.0017885990553269115),
])
def test_house_edge_lines_match_published_figures_and_the_chart_evaluation(flags, published_ev):
    code, text, _ = run(*flags, "--no-chart")
    assert code == 0
    optimal = edge_percent(text, "optimal play")
    assert optimal == pytest.approx(-100 * published_ev, abs=0.0005)
    assert ("player advantage" in text) == (published_ev > 0)
    # formatting check: the chart line is the evaluation of the chart, as a house edge
    rules = cli.common.rules_from_args(cli.parse(flags))
    sol = bjsolve.solve(rules, split=cli.parse(flags).split)
    assert edge_percent(text, "basic-strategy chart") == pytest.approx(
        -100 * sol.evaluate(sol.strategy), abs=0.0005)
    assert edge_percent(text, "basic-strategy chart") >= optimal   # chart never beats optimal


def test_advantage_shows_either_strategy():
    _, optimal, _ = run("advantage", "--decks", "1", "--format", "json")
    _, chart, _ = run("advantage", "--decks", "1", "--strategy", "basic", "--format", "json")
    opt = json.loads(optimal)["values"]["EV"]["overall"]
    ch = json.loads(chart)["values"]["EV"]["overall"]
    assert opt == pytest.approx(0.0018193430614842354, abs=1e-12)   # published exact EV
    assert ch < opt
    assert "basic-strategy chart" in " ".join(json.loads(chart)["notes"])


# ---- text fits the terminal -------------------------------------------------------------------

@pytest.fixture(scope="module")
def all_tables():
    """Every table of one solve (1 deck, late surrender so the surrender table has values)."""
    rules = bjsolve.Rules(decks=1, surrender="late")
    return build_tables(list(TABLE_NAMES), rules, bjsolve.Shoe.decks(1), "CDZ-")


def test_no_text_line_is_wider_than_80_columns(all_tables):
    text = render_many(all_tables, "text", width=80)
    too_long = [line for line in text.splitlines() if len(line) > 80]
    assert not too_long, too_long[:3]
    # and a wide terminal gets every decimal
    wide = render_many([t for t in all_tables if t.name == "hit"], "text", width=200)
    assert re.search(r"[+-]0\.\d{6}\b", wide)


def test_counting_and_hand_commands_fit_80_columns(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    for args in (["counts", "--decks", "1", "--system", "hilo"],
                 ["hand", "8", "8", "--dealer", "T", "--decks", "1"],
                 ["dealer", "--given-no-blackjack"]):
        code, text, _ = run(*args)
        assert code == 0 and text
        assert max(len(line) for line in text.splitlines()) <= 80, args


def test_colour_only_when_asked_or_on_a_terminal():
    code, plain, _ = run("strategy", "--decks", "1")
    assert code == 0 and "\x1b[" not in plain          # not a terminal: no colour
    code, colored, _ = run("strategy", "--decks", "1", "--color", "always")
    assert code == 0 and "\x1b[" in colored
    strip = re.sub(r"\x1b\[[0-9;]*m", "", colored)
    assert strip.split() == plain.split()              # the same chart underneath


# ---- CSV and JSON for programs ----------------------------------------------------------------

def test_every_table_reads_as_pure_csv(all_tables):
    pandas = pytest.importorskip("pandas")
    for table in all_tables:
        text = render_many([table], "csv")
        rows = list(csv.reader(io.StringIO(text)))
        assert rows[0] == [table.name] + [str(c) for c in table.columns]
        assert len(rows) == len(table.rows) + 1
        assert all(len(r) == len(rows[0]) for r in rows)
        frame = pandas.read_csv(io.StringIO(text), index_col=0)
        assert frame.shape == (len(table.rows), len(table.columns))
    long = render_many(all_tables, "csv")
    frame = pandas.read_csv(io.StringIO(long))
    assert list(frame.columns) == ["table", "row", "column", "value"]
    assert set(frame["table"]) == set(TABLE_NAMES)


def test_csv_from_the_command_line_is_pure_and_notes_go_to_stderr():
    p = process("dealer", "--decks", "2", "--format", "csv")
    assert p.returncode == 0 and not any(l.startswith("#") for l in p.stdout.splitlines())
    assert "rules: 2D" in p.stderr
    rows = list(csv.reader(io.StringIO(p.stdout)))
    six = dict(zip(rows[0], next(r for r in rows if r[0] == "6")))
    assert float(six["bust"]) == pytest.approx(0.4221, abs=0.00005)   # published 42.21 %


def test_every_json_output_is_one_document_with_real_numbers(all_tables):
    doc = json.loads(render_many(all_tables, "json"))
    assert [t["table"] for t in doc["tables"]] == list(TABLE_NAMES)
    for t in doc["tables"]:
        assert t["units"]
        for row in t["values"].values():
            for v in row.values():
                assert v is None or isinstance(v, (int, float, str))
    exceptions = next(t for t in doc["tables"] if t["table"] == "exceptions")
    rec = exceptions["records"][0]
    assert isinstance(rec["gain"], float) and rec["gain"] > 0 and isinstance(rec["cards"], list)
    # the hand's total is a number and a soft flag, not the chart's code ("13", "A7")
    for rec in exceptions["records"]:
        ranks = [{"A": 1, "T": 10}.get(c) or int(c) for c in rec["cards"]]
        soft = 1 in ranks and sum(ranks) + 10 <= 21
        assert rec["total"] == sum(ranks) + 10 * soft and rec["soft"] is soft
    # the default command (two tables) is one document too
    code, text, _ = run("--decks", "1", "--format", "json")
    doc = json.loads(text)
    assert code == 0 and [t["table"] for t in doc["tables"]] == ["edge", "strategy"]
    edge = doc["tables"][0]["records"]
    assert edge[1]["ev"] == pytest.approx(0.0018193430614842354, abs=1e-12)


# ---- help, flags, errors ------------------------------------------------------------------------

def _parsers():
    _, parsers, _ = cli.build_parser()
    return parsers


@pytest.mark.parametrize("command, flags, absent", [
    ("edge", ["--rules", "--decks", "--h17", "--split", "--no-chart", "--color"], ["--system"]),
    ("hand", ["--dealer", "--unconditioned", "--split"], ["--given-no-blackjack", "--color"]),
    ("dealer", ["--given-no-blackjack", "--remove"], ["--split", "--system"]),
    ("indices", ["--system", "--tc-rounding", "--index-rounding", "--dealt-decks"], ["--remove", "--split"]),
    ("counts", ["--system", "--eor"], ["--tc-rounding", "--index-rounding"]),
    ("advantage", ["--strategy"], ["--given-no-blackjack"]),
])
def test_each_command_help_names_its_own_flags(command, flags, absent, capsys):
    assert cli.main([command, "--help"]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"usage: bjsolve {command}")
    for f in flags:
        assert f in text
    for f in absent:
        assert f not in text


def test_every_flag_has_help_and_a_stated_default():
    for name, parser in _parsers().items():
        by_dest = {}
        for action in parser._actions:
            if action.dest in ("help",) or not action.option_strings or action.required:
                continue
            assert action.help, (name, action.option_strings)
            by_dest.setdefault(action.dest, []).append(action.help)
        for dest, helps in by_dest.items():
            assert any("default" in h for h in helps), (name, dest)


def test_version_and_top_level_help(capsys):
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"bjsolve {bjsolve.__version__}"
    assert cli.main(["--help"]) == 0
    text = capsys.readouterr().out
    for command in ("edge", "hand", "eor", "counts", "indices", "tc-advantage"):
        assert command in text


@pytest.mark.parametrize("args, expect", [
    (["--h17", "--s17"], "not allowed with"),
    (["--das", "--no-das"], "not allowed with"),
    (["--decks", "2", "--infinite"], "not allowed with"),
    (["--preset", "easy", "--rules", "6D"], "not allowed with"),
    (["--deck", "2"], "did you mean '--decks'"),         # no prefix abbreviations
    (["stnd"], "did you mean 'stand'"),
    (["strategy", "--system", "hilo"], "--system goes with: counts, indices, tc-advantage"),
    (["strategy", "--index-rounding", "ceiled"], "--index-rounding goes with: indices"),
    (["eor", "--format", "index"], "--format index goes with: indices"),
    (["--rules", "6D H71"], "did you mean 'h17'"),
    (["indices", "--dealt-decks", "inf"], "positive finite number"),
])
def test_bad_command_lines_exit_2_with_one_line(args, expect):
    code, out, err = run(*args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("bjsolve: error:") and expect in err, err


def test_conflicting_flags_from_a_real_process():
    p = process("--h17", "--s17")
    assert p.returncode == 2 and p.stdout == "" and p.stderr.count("\n") == 1


def test_closed_stdout_is_one_line_not_an_internal_error():
    p = subprocess.run(f"'{sys.executable}' -m bjsolve dealer --decks 1 >&-", shell=True,
                       capture_output=True, text=True)
    assert p.returncode == 2 and "internal error" not in p.stderr, p.stderr
    assert p.stderr.count("\n") == 1


@pytest.mark.parametrize("value, shows_traceback", [
    ("0", False), ("false", False), ("no", False), ("", False), ("1", True), ("yes", True)])
def test_bjsolve_debug_zero_means_off(monkeypatch, value, shows_traceback):
    def broken(args):
        raise RuntimeError("a bug")
    monkeypatch.setattr(cli.command_modules()["dealer"], "run", broken)
    monkeypatch.setenv("BJSOLVE_DEBUG", value)
    if shows_traceback:
        with pytest.raises(RuntimeError):
            run("dealer")
    else:
        code, _, err = run("dealer")
        assert code == 1 and err.startswith("bjsolve: internal error: RuntimeError: a bug")


def test_a_valueerror_from_inside_is_a_bug_not_bad_input(monkeypatch):
    """Only the library's own refusal of an argument (a raise statement in bjsolve) is bad
    input (exit 2); a ValueError or TypeError from numpy or a builtin on a value the code
    computed is an internal error (exit 1), not blamed on the user."""
    import numpy as np

    def numpy_fails(args):
        np.zeros(-1)            # numpy's ValueError: negative dimensions

    def builtin_fails(args):
        int("not a number")     # Python's ValueError, from a line of bjsolve's code

    def library_refuses(args):
        bjsolve.Rules(decks=0)  # the library's check of an argument: bad input

    monkeypatch.delenv("BJSOLVE_DEBUG", raising=False)
    dealer = cli.command_modules()["dealer"]
    for broken in (numpy_fails, builtin_fails):
        monkeypatch.setattr(dealer, "run", broken)
        code, _, err = run("dealer")
        assert code == 1, err
        assert err.startswith("bjsolve: internal error: ValueError") and "a bug" in err, err
        assert err.count("\n") == 1
    monkeypatch.setattr(dealer, "run", library_refuses)
    code, _, err = run("dealer")
    assert code == 2 and err.startswith("bjsolve: error: ") and "decks" in err, err
    assert "internal" not in err and err.count("\n") == 1


def test_presets_split_names_and_choices_are_case_insensitive():
    code, text, _ = run("hand", "8", "8", "--dealer", "t", "--preset", "Single-Deck",
                        "--split", "cdp1", "--surrender", "LATE")
    assert code == 0 and "1D H17" in text and "split CDP1" in text
    assert bjsolve.Rules.preset("Vegas-Strip") == bjsolve.Rules.preset("vegas-strip")


# ---- hand and surrender -------------------------------------------------------------------------

def test_a_natural_offers_no_decision():
    code, text, _ = run("hand", "A", "T", "--dealer", "6", "--format", "json")
    data = json.loads(text)
    assert code == 0 and data["natural"] is True and list(data["ev"]) == ["stand"]
    assert data["ev"]["stand"] == 1.5            # 3:2, and a 6 up cannot make a natural


def test_hand_unconditioned_values():
    # A,T v A, 6 decks, unconditioned: the natural pays 3:2 unless the hole card is one of
    # the 95 tens among the 309 cards left: 1.5 * 214/309
    code, text, _ = run("hand", "A", "T", "--dealer", "A", "--unconditioned", "--format", "json")
    data = json.loads(text)
    assert code == 0 and data["measure"] == "unconditioned"
    assert data["ev"]["stand"] == pytest.approx(1.5 * 214 / 309, abs=1e-14)


def test_surrender_table_shows_what_surrender_gains():
    code, text, _ = run("surrender", "--surrender", "late", "--infinite", "--format", "json")
    doc = json.loads(text)
    gain = doc["values"]["16"]["T"]
    sol = bjsolve.solve(bjsolve.Rules(decks=float("inf"), surrender="late"))
    best_other = max(v for a, v in sol.hand_ev((9, 7), 10).items() if a != "surrender")
    # hard 16 v T mixes 9,7 / T,6 / 8,8-less compositions: in an infinite shoe every 16
    # has the same values, so the row is the 9,7 hand: surrender is -0.5 given no natural
    assert gain == pytest.approx(-0.5 - best_other, abs=1e-12) and gain > 0
    assert any("-0.5 in every cell" in n for n in doc["notes"])


# ---- pictures -----------------------------------------------------------------------------------

def test_html_chart_is_one_self_contained_page(tmp_path):
    path = tmp_path / "chart.html"
    code, out, _ = run("--decks", "1", "--format", "html", "--output", str(path))
    page = path.read_text()
    assert code == 0 and out == ""
    assert page.startswith("<!DOCTYPE html>") and "<style>" in page
    assert not re.search(r"(src|href)=", page)          # nothing outside the page
    for section in ("Hard totals", "Soft totals", "Pairs"):
        assert section in page
    assert "Rules: 1D S17" in page and "House edge" in page and "legend" in page


@pytest.mark.skipif(not shutil.which("chromium"), reason="no headless browser here")
def test_html_chart_renders_in_a_browser(tmp_path):
    """A headless browser draws the page; the screenshot holds the chart's colours."""
    image = pytest.importorskip("matplotlib.image")
    page = tmp_path / "chart.html"
    assert run("strategy", "--decks", "2", "--format", "html", "--output", str(page))[0] == 0
    shot = tmp_path / "chart.png"
    subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                    "--window-size=800,1200", f"--screenshot={shot}", page.as_uri()],
                   capture_output=True, timeout=120)
    pixels = image.imread(str(shot))[..., :3]
    def share(rgb):
        target = [int(rgb[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        return (abs(pixels - target).max(axis=-1) < 0.02).mean()
    for color in ("#5cb85c", "#d9534f", "#3b7dd8", "#f0c93a"):   # hit, stand, double, split
        assert share(color) > 0.002, color


def test_every_help_fits_80_columns(monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "80")
    for name in [None] + list(_parsers()):
        assert cli.main(([name] if name else []) + ["--help"]) == 0
        text = capsys.readouterr().out
        assert max(len(line) for line in text.splitlines()) <= 80, name
