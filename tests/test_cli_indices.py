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


def two_card(records):
    """The two-card lines of an indices JSON document (not insurance, not the stand/hit
    lines of hands that may no longer double, split or surrender)."""
    return [r for r in records if r["hand"] != "insurance" and r["options"] != ["stand", "hit"]]


def test_set_fab4_keeps_exactly_the_published_plays_and_insurance():
    code, text = run("indices", "--surrender", "late", "--set", "fab4", "--format", "json")
    assert code == 0
    records = json.loads(text)["records"]
    plays = {(r["hand"], r["dealer"]) for r in records if r["hand"] != "insurance"}
    assert plays == FAB4
    assert all("surrender" in r["plays"] for r in two_card(records))


def test_top_n_keeps_the_n_largest_gains():
    code, text = run("indices", "--top", "3", "--format", "json")
    assert code == 0
    lines = two_card(json.loads(text)["records"])
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
    hands = [(r["hand"], r["dealer"]) for r in two_card(both)]
    assert len(hands) == len(set(hands)) == 17 + 4 - 1
    assert FAB4 <= set(hands) and ("16", "T") in hands
    code, _ = run("indices", "--set", "i18,i99")
    assert code == 2


def test_every_format_shows_the_lines_the_index_file_plays():
    """With late surrender the i18 two-card lines of 16 v T, 15 v T and 16 v 9 are
    hit->surrender; the stand indices of those hands once they may no longer surrender
    (16 v T +1, 15 v T +4) were only in --format index.  Every line of the index file
    that changes play is now a line of the text, CSV and JSON tables."""
    from bjsolve.counting.index_file import parse_index_file
    common = ("indices", "--surrender", "late", "--set", "i18", "--decks", "6")
    code, index_text = run(*common, "--format", "index")
    assert code == 0
    code, doc = run(*common, "--format", "json")
    assert code == 0
    shown = {(r["hand"], r["dealer"], tuple(r["options"]), tuple(r["plays"]),
              tuple(r["indices"])) for r in json.loads(doc)["records"]
             if r["hand"] != "insurance"}
    by_hand = {}
    for r in shown:
        by_hand.setdefault(r[:2], []).append(r[3:])
    names = {1: "stand", 2: "hit", 3: "double", 4: "split", 5: "surrender"}
    for play in parse_index_file(index_text):
        if len(play.plays) < 2:
            continue            # one play at every count: the chart's, nothing to show
        plays, indices = tuple(play.plays), tuple(play.thresholds)
        hands = [(h, d) for h, d, *_ in shown
                 if d == "TA23456789"[play.dealer % 10] and _count_of(h) == play.count]
        assert hands, play
        # the line itself, or the same line already shown for the hand's two-card options
        assert (plays, indices) in by_hand[hands[0]], play
    code, text = run(*common)
    for words in ("16 v T stand/hit     hit->stand    +1", "15 v T stand/hit     hit->stand    +4"):
        assert words in text
    code, csv = run(*common, "--format", "csv")
    assert "16 v T stand/hit" in csv


def _count_of(hand: str) -> int:
    """An index file's count of a chart row: hard total, soft totals negative, pairs their
    total (AA -12)."""
    values = {"A": 1, "T": 10, **{str(k): k for k in range(2, 10)}}
    if hand == "AA":
        return -12
    if len(hand) == 2 and hand[0] == hand[1] and hand != "11":    # a pair ("11": hard 11)
        return 2 * values[hand[0]]
    if hand.startswith("A"):
        return -(11 + values[hand[1]])
    return int(hand)


def test_index_rounding_goes_with_the_exact_true_count(capsys):
    """--index-rounding makes an exact crossing whole; with a whole true count (floor, the
    default) it would change nothing, so it is refused rather than ignored."""
    code, _ = run("indices", "--index-rounding", "ceiled")
    assert code == 2 and "--tc-rounding exact" in capsys.readouterr().err
    code, rounded = run("indices", "--tc-rounding", "exact", "--set", "i18", "--format", "json")
    code2, ceiled = run("indices", "--tc-rounding", "exact", "--index-rounding", "ceiled",
                        "--set", "i18", "--format", "json")
    assert code == code2 == 0
    import math
    for a, b in zip(json.loads(rounded)["records"], json.loads(ceiled)["records"]):
        # the same crossing, made whole two ways: nearest and up
        assert a["crossings"] == b["crossings"]
        assert a["indices"] == [math.floor(c + 0.5) for c in a["crossings"]]
        assert b["indices"] == [math.ceil(c - 1e-9) for c in b["crossings"]]
