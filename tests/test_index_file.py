"""Index files (``bjsolve simulate --indices FILE``, ``IndexTable.index_file()``): bad
values are refused with the line named, duplicates are settled, and the work stays linear
in the number of lines."""
import io

import pytest

from bjsolve import Rules
from bjsolve.__main__ import main
from bjsolve.simulation.game_plan import (
    _dealer_keys,
    _decision_table,
    _index_plays,
    _line_tables,
    _shoe_counts,
    compositions,
    parse_index_file,
)

LINE = "16 10 0 0 0 1 0 2 +1000\n"      # 16 v T, stand or hit only: stand below TC 0, hit from 0


def _line_of(plays, rules=Rules(decks=6)):
    """The index line of every (kind, dealer key, hand) entry, as the simulator builds it."""
    counts, _ = _shoe_counts(rules, None)
    keys, _ = _dealer_keys(False)
    comps = compositions()

    def stand(cards, dealer, allowed, kind):
        return "stand"
    _, allowed = _decision_table(rules, counts, keys, comps, stand)
    return _line_tables(plays, keys, comps, allowed, False)


def test_a_hundred_thousand_lines_parse_and_attach_in_linear_time():
    """10^5 copies of one line used to take minutes (every hand of the total compared
    with every copy); copies of a line are one line."""
    plays = parse_index_file(LINE * 100_000)
    assert len(plays) == 1
    line_of, nseg, thr, play = _line_of(plays)
    assert list(nseg) == [2] and thr[0] == 0
    assert (line_of == 0).sum() > 0 and line_of.max() == 0


def test_identical_duplicates_are_one_line_and_conflicting_ones_are_refused():
    assert parse_index_file(LINE + "# again\n" + LINE) == parse_index_file(LINE)
    with pytest.raises(ValueError, match="lines 1 and 2") as info:
        parse_index_file(LINE + "16 10 0 0 0 1 3 2 +1000\n")
    assert "16 v 10" in str(info.value) or "16 10" in str(info.value)
    # the same total and upcard for a hand with other options is another line
    assert len(parse_index_file(LINE + "16 10 1 0 1 1 0 2 +1000\n")) == 2


@pytest.mark.parametrize("line", [
    "16 10 0 0 0 1 " + "9" * 400 + " 2 +1000",       # 400 digits (was OverflowError)
    "16 10 0 0 0 1 -" + "9" * 400 + " 2 +1000",
    "16 10 0 0 0 1 -3000000000 2 +1000",               # beyond int32 (was OverflowError)
    "16 10 0 0 0 1 -1001 2 +1000",
    "16 10 0 0 0 1 0 2 +1e400",
    "9" * 400 + " 10 0 0 0 1 0 2 +1000",
    "16 " + "9" * 400 + " 0 0 0 1 0 2 +1000",
])
def test_numbers_out_of_range_are_refused_naming_the_line(line):
    with pytest.raises(ValueError, match="line 1") as info:
        parse_index_file(line + "\n")
    assert len(str(info.value)) < 400


def test_a_fraction_is_refused_not_truncated():
    with pytest.raises(ValueError, match=r"line 1.*'2\.7'.*whole"):
        parse_index_file("16 10 0 0 0 1 2.7 2 +1000\n")
    # a whole number written with a decimal point is still that number
    assert parse_index_file("16 10 0 0 0 1 2.0 2 +1000\n") == parse_index_file(
        "16 10 0 0 0 1 2 2 +1000\n")


def test_a_directory_is_not_an_index_file(tmp_path):
    with pytest.raises(ValueError, match="indices: .* is a directory"):
        _index_plays(str(tmp_path), Rules(), "hilo")
    with pytest.raises(ValueError, match="is a directory"):
        _index_plays(tmp_path, Rules(), "hilo")


def test_the_cli_reports_a_directory_in_one_line(tmp_path, capsys):
    code = main(["simulate", "--system", "hilo", "--indices", str(tmp_path), "--rounds",
                 "1000"], out=io.StringIO())
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "is a directory" in err and "Traceback" not in err


@pytest.mark.parametrize("line, field, value, allowed", [
    ("16 11 0 0 0 1 0 2 +1000", "field 2 (upcard)", "11", "1 (ace) .. 10"),
    ("16 10 2 0 0 1 0 2 +1000", "field 3 (may double flag)", "2", "0 or 1"),
    ("16 10 0 -1 0 1 0 2 +1000", "field 4 (may split flag)", "-1", "0 or 1"),
    ("16 10 0 0 7 1 0 2 +1000", "field 5 (may surrender flag)", "7", "0 or 1"),
    ("0 10 0 0 0 1 0 2 +1000", "field 1 (hand total)", "0", "-21..21 but not -1, 0 or 1"),
    ("22 10 0 0 0 1 0 2 +1000", "field 1 (hand total)", "22", "-21..21"),
    ("16 10 0 0 0 1 0 6 +1000", "field 8 (play)", "6", "5 surrender"),
    ("16 10 0 0 0 0 0 2 +1000", "field 6 (play)", "0", "1 stand"),
    ("16 10 0 0 0 1 -1001 2 +1000", "field 7 (true count)", "-1001", "-1000..+1000"),
    ("16 10 0 0 0 1 " + "9" * 400 + " 2 +1000", "field 7 (true count)", "999999", "-1000..+1000"),
    ("16 10 0 0 0 1 3 2 3 1 +1000", "field 9 (true count)", "3", "must increase"),
    ("16 10 0 0 0 1 0 2 +999", "field 9 (last true count)", "999", "ends with +1000"),
    ("16 10 0 0 0 1 2.7 2 +1000", "field 7", "'2.7'", "not a whole number"),
    ("16 10 0 0 0 1 0 2", "has 8 fields", "", "pairs of a play and a true count"),
])
def test_a_bad_field_is_named_with_its_line_value_and_what_is_allowed(line, field, value,
                                                                        allowed):
    with pytest.raises(ValueError) as info:
        parse_index_file("# two lines of comments\n\n" + line + "\n")
    message = str(info.value)
    assert "line 3" in message and field in message and value in message, message
    assert allowed in message, message
    assert len(message) < 400, message


def test_a_pair_line_is_for_pairs_only():
    """A pair's line is numbered by the pair's total (8,8 is 16), as a hard 16 is: a hand
    that cannot split must never take it, even with no line of its own (a hard 16 after a
    hit took the 8,8 line of a file that had no 16 line, and with it a split it may not
    play)."""
    from bjsolve.model.actions import ACTION_CODE, KIND_START
    hit, split = ACTION_CODE["hit"] + 1, ACTION_CODE["split"] + 1     # the file counts from 1
    plays = parse_index_file(f"16 10 1 1 1 {hit} 0 {split} +1000\n")   # 8,8 v T only
    line_of, *_ = _line_of(plays)
    keys, _ = _dealer_keys(False)
    ten = list(keys).index(10)
    hands = compositions().hands
    for k, hand in enumerate(hands):
        if sum(hand) == 16 and 1 not in hand and hand != (8, 8):
            assert (line_of[:, ten, k] == -1).all(), hand
    assert line_of[KIND_START, ten, hands.index((8, 8))] == 0


@pytest.mark.parametrize("index", ["+9999999", "-1001", "+" + "9" * 400])
def test_an_insurance_line_out_of_range_is_refused_naming_the_line(index, tmp_path):
    """An index file's '# insurance:' line beyond any true count escaped as 'internal error:
    OverflowError' once simulate read it (the kernel holds a 32-bit count)."""
    from bjsolve import simulate
    text = f"{LINE}# insurance: take at TC >= {index}\n"
    with pytest.raises(ValueError, match=r"line 2: the insurance index .* allowed: whole") as info:
        simulate(Rules(decks=2), rounds=1000, seed=1, threads=1, indices=text)
    assert len(str(info.value)) < 200
    path = tmp_path / "plays.txt"
    path.write_text(text)
    err = io.StringIO()
    import contextlib
    with contextlib.redirect_stderr(err):
        code = main(["simulate", "--decks", "2", "--rounds", "1000", "--indices", str(path)],
                    out=io.StringIO())
    assert code == 2 and err.getvalue().count("\n") == 1 and "insurance index" in err.getvalue()


def test_an_insurance_line_in_range_is_read():
    from bjsolve.counting.indices import file_insurance
    assert file_insurance(f"{LINE}# insurance: take at TC >= -1000\n") == -1000
    assert file_insurance(f"# insurance: take at TC >= +3\n{LINE}") == 3
    assert file_insurance(LINE) is None
