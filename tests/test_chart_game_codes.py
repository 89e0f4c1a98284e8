"""The chart's codes for the games' free plays (Fh/Fs, FP...) and its legend lines.

Where a code is free is checked against the Rules fields (free_doubles: two-card hard
totals; free_splits: pair ranks), never against the chart the engine printed before; the
classic charts are compared byte for byte with files written by the code before the free
codes existed (tests/data/classic_charts, from the base commit's `bjsolve strategy`)."""
import io
import json
from pathlib import Path

import pytest

import bjsolve
from bjsolve import Rules, StrategyChart
from bjsolve.cli import main
from bjsolve.exact.strategy import CODE_ACTIONS, _mark_free_plays
from bjsolve.model.ranks import RANK_LABELS
from bjsolve.output.render_html import chart_fragment
from bjsolve.output.table import CHART_LEGEND, chart_legend
from bjsolve.output.terminal import code_style

CLASSIC_DIR = Path(__file__).parent / "data" / "classic_charts"
FORMATS = (("text", "txt"), ("csv", "csv"), ("json", "json"), ("markdown", "md"),
           ("html", "html"))
DOUBLES = {"Dh", "Ds", "Fh", "Fs"}
SPLITS = {"P", "Ph", "Ps", "Pd", "FP", "FPh", "FPs", "FPd"}


def run(argv, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    out = io.StringIO()
    assert main(argv, out=out) == 0
    return out.getvalue()


def two_card_hard_total(row):
    """Written out again from the chart's row names: '9' -> 9, '55' -> 10, soft/AA -> None."""
    if is_pair(row):                           # "55" is not hard 55 (and "11" no pair)
        return None if row == "AA" else 2 * (RANK_LABELS.index(row[0]) + 1)
    return int(row) if row.isdigit() else None


def is_pair(row):
    return len(row) == 2 and row[0] == row[1] and row[0] in "A23456789T"


def pair_rank(row):
    if is_pair(row):
        return RANK_LABELS.index(row[0]) + 1
    return None


def assert_free_codes_follow_rules(chart, rules):
    for row, cols in chart.rows.items():
        for col, code in cols.items():
            where = f"{row} v {col}: {code}"
            if code in DOUBLES:
                free = two_card_hard_total(row) in rules.free_doubles
                assert code.startswith("F") == free, where
            elif code in SPLITS:
                free = pair_rank(row) in rules.free_splits
                assert code.startswith("F") == free, where
            else:
                assert not code.startswith("F"), where


# ---- the marking itself, on hand-made rows (no solve) ---------------------------------

def test_marks_only_the_totals_and_pairs_the_rules_make_free():
    rules = Rules(decks=6, free_doubles=(10, 11), free_splits=(8,), max_split_hands=4,
                  dealer_22="push")
    rows = {"9": {"2": "Dh", "3": "H"}, "10": {"2": "Dh", "3": "Ds"}, "11": {"2": "Dh"},
            "A7": {"2": "Ds"}, "55": {"2": "Dh"}, "44": {"2": "Dh"}, "88": {"2": "P", "3": "Pd"},
            "77": {"2": "P"}, "AA": {"2": "P"}, "16": {"2": "Rh"}}
    _mark_free_plays(rules, rows)
    assert rows == {"9": {"2": "Dh", "3": "H"}, "10": {"2": "Fh", "3": "Fs"},
                    "11": {"2": "Fh"}, "A7": {"2": "Ds"}, "55": {"2": "Fh"},
                    "44": {"2": "Dh"}, "88": {"2": "FP", "3": "FPd"}, "77": {"2": "P"},
                    "AA": {"2": "P"}, "16": {"2": "Rh"}}


def test_a_row_read_from_three_card_hands_keeps_a_paid_double():
    # free doubles are two-card doubles: a total only three cards reach doubles paid
    rules = Rules(decks=6, free_doubles=(9, 10, 11))
    rows = {"9": {"2": "Dh", "3": "Dh"}}
    _mark_free_plays(rules, rows, later_only={("9", "3")})
    assert rows == {"9": {"2": "Fh", "3": "Dh"}}


def test_the_classic_rules_mark_nothing():
    rows = {"10": {"2": "Dh"}, "88": {"2": "P"}}
    _mark_free_plays(Rules(), rows)
    assert rows == {"10": {"2": "Dh"}, "88": {"2": "P"}}


def test_free_codes_play_as_the_paid_ones():
    for free, paid in (("Fh", "Dh"), ("Fs", "Ds"), ("FP", "P"), ("FPh", "Ph"),
                       ("FPs", "Ps"), ("FPd", "Pd")):
        assert CODE_ACTIONS[free] == CODE_ACTIONS[paid]
    # a chart typed by hand may use them, any case
    chart = StrategyChart({"10": {"2": "fh"}, "88": {"2": "fp"}})
    assert chart.rows == {"10": {"2": "Fh"}, "88": {"2": "FP"}}
    assert chart((4, 6), 2, ("stand", "hit", "double")) == "double"
    assert chart((2, 3, 5), 2, ("stand", "hit")) == "hit"   # no double: its fallback


def test_free_codes_take_their_actions_colours():
    assert code_style("Fh") == code_style("Dh")
    assert code_style("FP") == code_style("FPd") == code_style("P")


# ---- the legend -----------------------------------------------------------------------

def test_classic_legend_is_the_classic_line_alone():
    for rules in (Rules(), Rules.preset("single-deck"), Rules.preset("european"), None):
        assert chart_legend(rules) == (CHART_LEGEND,)


def test_legend_says_what_each_game_code_means():
    fb = chart_legend(Rules.preset("free-bet"))
    assert fb[0] == CHART_LEGEND and len(fb) == 3
    assert fb[1].startswith("Fh/Fs free double else hit/stand (two-card hard 9-11:")
    assert fb[2].startswith("FP free split (pairs AA-99:") and "FPh/FPs/FPd" in fb[2]
    only_some = chart_legend(Rules(decks=6, free_doubles=(10, 11), free_splits=(2, 3, 8),
                                   max_split_hands=4))
    assert "two-card hard 10-11" in only_some[1] and "pairs 22-33, 88" in only_some[2]
    s21 = chart_legend(Rules.preset("spanish-21"))
    assert len(s21) == 2 and not any(line.startswith("F") for line in s21)
    assert "redouble (up to 3 times)" in s21[1] and "rescue" in s21[1]
    rescue_only = chart_legend(Rules(decks=6, double_rescue=True))
    assert "rescue" in rescue_only[1] and "redouble" not in rescue_only[1]


# ---- solved charts --------------------------------------------------------------------

@pytest.fixture(scope="module")
def free_bet():
    rules = Rules.preset("free-bet")
    return rules, bjsolve.solve(rules)


def test_free_bet_chart_marks_exactly_the_free_plays(free_bet):
    rules, solution = free_bet
    chart = solution.strategy
    assert_free_codes_follow_rules(chart, rules)
    # a free double of 11 and a free split of 8s are right against every upcard (they
    # are the paid plays' best cases made cheaper): the codes do appear
    assert set(chart.rows["11"].values()) == {"Fh"}
    assert set(chart.rows["88"].values()) == {"FP"}


def test_a_chart_with_some_free_totals_marks_only_those():
    rules = Rules(decks=2, hit_soft_17=True, double_after_split=True, max_split_hands=4,
                  dealer_22="push", free_doubles=(11,), free_splits=(8,))
    chart = bjsolve.solve(rules).strategy
    assert_free_codes_follow_rules(chart, rules)
    assert chart.rows["11"]["6"] == "Fh"
    assert chart.rows["10"]["6"] in ("Dh", "Ds")      # a paid double: 10 is not free here
    assert chart.rows["88"]["6"] == "FP"
    assert chart.rows["99"]["6"] in ("P", "Ph", "Ps", "Pd")


def test_every_format_carries_the_codes_and_the_legend(monkeypatch):
    legend = chart_legend(Rules.preset("free-bet"))
    text = run(["strategy", "--preset", "free-bet", "--color", "never"], monkeypatch)
    rows = {line.split()[0]: line.split()[1:] for line in text.splitlines()
            if line[:1] == " " and line.split()[0] in ("11", "88")}
    assert rows == {"11": ["Fh"] * 10, "88": ["FP"] * 10}
    assert "# Fh/Fs free double" in text and "# FP free split" in text
    assert max(len(line) for line in text.splitlines()) <= 80
    data = json.loads(run(["strategy", "--preset", "free-bet", "--format", "json"],
                          monkeypatch))
    assert set(legend) <= _json_notes(data)
    assert "Fh" in json.dumps(data) and "FP" in json.dumps(data)
    for fmt in ("csv", "markdown", "html"):
        out = run(["strategy", "--preset", "free-bet", "--format", fmt], monkeypatch)
        assert "Fh" in out and "FP" in out, fmt
    md = run(["strategy", "--preset", "free-bet", "--format", "markdown"], monkeypatch)
    assert all(line in md for line in legend)


def _json_notes(data):
    notes = []

    def walk(x):
        if isinstance(x, dict):
            notes.extend(n for n in x.get("notes", ()) if isinstance(n, str))
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(data)
    return set(notes)


def test_html_chart_colours_and_legend_for_free_codes(free_bet):
    _, solution = free_bet
    page = chart_fragment(solution.strategy.to_table())
    assert '<td style="background:#3b7dd8;color:#fff" title="free double' in page
    assert '<td style="background:#f0c93a;color:#000" title="free split' in page
    assert "<b>Fh</b> free double" in page and "<b>FP</b> free split" in page
    assert "<b>Fs</b>" not in page           # only the codes the chart shows get an item


@pytest.mark.parametrize("preset", ["single-deck", "vegas-strip", "european", "atlantic-city"])
@pytest.mark.parametrize("fmt,ext", FORMATS)
def test_classic_chart_is_byte_identical(preset, fmt, ext, monkeypatch):
    got = run(["strategy", "--preset", preset, "--format", fmt, "--color", "never"],
              monkeypatch)
    assert got == (CLASSIC_DIR / f"{preset}.{ext}").read_text()


def test_coloured_chart_without_notes_still_says_how_the_double_ends():
    # the web page and notebooks show chart_html, which prints no notes: the redouble /
    # rescue note is added under the chart, and only for rules that have them
    from bjsolve.output.notebook import chart_html
    from bjsolve.output.table import chart_table
    rows = {"11": {"6": "Dh"}}
    spanish = chart_html(chart_table(StrategyChart(rows, rules=Rules.preset("spanish-21"))))
    classic = chart_html(chart_table(StrategyChart(rows, rules=Rules())))
    assert "after a double&#x27;s card: stand, redouble (up to 3 times) or rescue" in spanish
    assert "after a double" not in classic
