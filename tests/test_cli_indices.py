"""The indices command's counter conventions: --tc-rounding, --hands, --top, --set."""
import io
import json

from bjsolve.cli import main


def run(*args):
    out = io.StringIO()
    code = main(list(args), out=out)
    return code, out.getvalue()


# the published Fab 4 surrender plays (hand, upcard), a list fixed by the published tables
FAB4 = {("14", "T"), ("15", "T"), ("15", "9"), ("15", "A")}


def test_set_fab4_keeps_exactly_the_published_plays_and_insurance():
    code, text = run("indices", "--surrender", "late", "--set", "fab4", "--format", "json")
    assert code == 0
    records = json.loads(text)["records"]
    plays = {(r["hand"], r["dealer"]) for r in records if r["hand"] != "insurance"}
    assert plays == FAB4
    assert all("surrender" in r["plays"] for r in records if r["hand"] != "insurance")


def test_top_n_keeps_the_n_largest_gains():
    code, text = run("indices", "--top", "3", "--format", "json")
    assert code == 0
    lines = [r for r in json.loads(text)["records"] if r["hand"] != "insurance"]
    assert len(lines) == 3
    gains = [r["gain_per_round"] for r in lines]
    assert gains == sorted(gains, reverse=True)


def test_tc_convention_and_hands_are_stated_in_the_notes():
    code, text = run("indices", "--set", "i18", "--tc-rounding", "floor", "--hands", "all",
                     "--format", "json")
    assert code == 0
    notes = " ".join(json.loads(text)["notes"])
    assert "floored" in notes and "every hand" in notes


def test_top_and_set_are_mutually_exclusive():
    code, _ = run("indices", "--top", "3", "--set", "i18")
    assert code == 2
    code, _ = run("indices", "--top", "0")
    assert code == 2


def test_risk_averse_rows_of_a_named_set_and_their_ev_crossings():
    """--risk-averse --set fab4: the four surrender rows, each with the EV crossing of the
    same shoes beside it; a risk-averse bettor surrenders (gives up half a bet for
    certain) no later than the EV line says."""
    code, text = run("indices", "--risk-averse", "--surrender", "late", "--set", "fab4",
                     "--format", "json")
    assert code == 0
    records = json.loads(text)["records"]
    assert {(r["hand"], r["dealer"]) for r in records} == FAB4
    for r in records:
        assert r["ev_plays"] and "surrender" in r["ev_plays"]
        if "surrender" in r["plays"] and len(r["plays"]) == len(r["ev_plays"]):
            assert r["crossings"][-1] <= r["ev_crossings"][-1] + 1e-9, r


def test_risk_averse_refuses_what_it_does_not_cover():
    for extra in (["--top", "3"], ["--hands", "all"], ["--format", "index"]):
        code, _ = run("indices", "--risk-averse", *extra)
        assert code == 2, extra


def test_tc_advantage_says_how_the_exact_column_plays():
    """tc-advantage's exact column is composition-dependent play at an exact true count;
    game's edge plays the chart on floored counts: the notes say which, so +0.22% here and
    +0.38% in game's +1 row do not read as a disagreement.  '1 deck dealt', not '1 decks'."""
    code, text = run("tc-advantage", "--decks", "2", "--format", "json")
    assert code == 0
    notes = " ".join(json.loads(text)["notes"])
    assert "composition-dependent" in notes and "floored counts" in notes
    assert "1 deck dealt" in notes


def test_an_eor_vector_with_nan_names_the_rank(capsys):
    """'--eor nan,1,...' answered 'give 10 finite numbers ..., got 10'."""
    code, _ = run("counts", "--eor", "nan,1,1,1,1,inf,1,1,1,1")
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert "A=nan, 6=inf" in err


def test_set_repeated_or_a_comma_list_shows_both_sets():
    """'--set i18 --set fab4' kept the last set only, 'i18,fab4' was refused: both lists
    together, 15 v T (in both) once."""
    answers = [run("indices", "--surrender", "late", *extra, "--tc-rounding", "floor",
                   "--format", "json")
               for extra in (["--set", "i18", "--set", "fab4"], ["--set", "i18,fab4"],
                             ["--set", "fab4"])]
    assert [code for code, _ in answers] == [0, 0, 0]
    both, comma, fab4 = (json.loads(text)["records"] for _, text in answers)
    assert both == comma
    hands = [(r["hand"], r["dealer"]) for r in both if r["hand"] != "insurance"]
    assert len(hands) == len(set(hands)) == 17 + 4 - 1
    assert FAB4 <= set(hands) and ("16", "T") in hands
    code, _ = run("indices", "--set", "i18,i99")
    assert code == 2
