"""What a person reads in an 80-column terminal: numbers, signs, hand notes, help."""
import io

import numpy as np
import pytest

from bjsolve.cli import main
from bjsolve.output.render import _cell, to_markdown, to_text
from bjsolve.output.table import Table


def run(*args):
    out = io.StringIO()
    code = main(list(args), out=out)
    return code, out.getvalue()


def test_a_mean_that_is_zero_up_to_rounding_shows_unsigned_zero():
    assert _cell(-1e-18) == "+0.000000"
    assert _cell(-1e-18, style="prob") == "0.000000"
    assert _cell(-1e-9, style="percent") == "0.000%"
    assert _cell(-0.001) == "-0.001000" and _cell(-4e-7) == "+0.000000"
    assert _cell(-6e-7) == "-0.000001"


def test_large_figures_in_a_probability_table_keep_seven_significant_digits():
    assert _cell(1106.5, style="prob") == "1106.5"
    assert _cell(163787.291869, style="prob") == "163787.3"
    assert _cell(400.0, style="prob") == "400" and _cell(0.25, style="prob") == "0.250000"


def ev_table(values, style):
    return Table("t", "test", tuple(f"r{i}" for i in range(len(values))), ("a", "b"),
                 np.array(values, dtype=float), style=style)


def test_percent_columns_of_evs_carry_signs_and_probabilities_do_not():
    evs = to_text(ev_table([[-0.02821, 0.00221], [0.01, 0.02]], "percent"))
    assert "-2.821%" in evs and "+0.221%" in evs and "+1.000%" in evs
    assert "+0.221%" in to_markdown(ev_table([[-0.02821, 0.00221]], "percent"))
    probs = to_text(ev_table([[0.5, 0.25], [0.125, 0.125]], "percent"))
    assert "50.000%" in probs and "+" not in probs


def test_a_one_row_table_printed_as_a_column_keeps_every_decimal():
    row = Table("t", "wide", ("EV",), tuple(f"column {i}" for i in range(12)),
                np.array([[-0.0123456789] * 12]))
    text = to_text(row, width=80)
    assert text.count("-0.012346") == 12 and "decimals to fit" not in text


def test_hand_note_names_the_total(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    code, text = run("hand", "T", "6", "--dealer", "T", "--decks", "1")
    assert code == 0 and "6 T (hard 16) v T: EV per initial bet, given no dealer" in text
    code, text = run("hand", "A7", "--dealer", "9", "--decks", "1")
    assert code == 0 and "A 7 (soft 18) v 9" in text
    code, text = run("hand", "A", "T", "--dealer", "5", "--decks", "1")
    assert code == 0 and "A T (natural) v 5" in text


def test_exposed_hand_says_both_dealer_cards_are_known(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    code, text = run("hand", "8", "8", "--dealer", "T,6", "--decks", "1", "--hole-card", "exposed")
    assert code == 0 and "8 8 (hard 16) v 6 T (16): EV per initial bet, both dealer cards " \
                         "known" in text
    assert "unconditioned" not in text


@pytest.mark.parametrize("command, line", [
    ("hand", "    bjsolve hand T 6 --dealer T --decks 6"),
    ("risk", "Example: bjsolve risk --decks 1 --bankroll 400 --trip-rounds 10000"),
    ("risk", "         bjsolve risk --decks 6 --spots 2 --format json"),
    ("simulate", "Example: bjsolve simulate --rounds 1e8 --seed 1 --penetration 0.75"),
    ("simulate", '         --system hilo --indices --ramp "1:1,2:2,3:4,4:8"'),   # not 'hilo
])                                                    # --indices' alone on a broken line
def test_help_examples_stay_command_lines(command, line, monkeypatch, capsys):
    # not run into the prose around them by the help's refilling
    monkeypatch.setenv("COLUMNS", "80")
    assert main([command, "--help"]) == 0
    assert line in capsys.readouterr().out.splitlines()


def test_the_default_command_prints_without_numpy():
    # the house edge and the chart are plain rows (tables.Grid); numpy loads only when a
    # table's values are read as an array
    import subprocess
    import sys
    code = ("import sys, io; from bjsolve.cli import main; "
            "assert main(['--decks', '1'], out=io.StringIO()) == 0; "
            "print('numpy' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_a_grid_table_reads_as_an_array():
    import pickle

    from bjsolve.output.table import Grid
    table = Table("t", "test", ("a", "b"), ("x", "y"), Grid([[1.5, "p"], [-2.0, "q"]], 2))
    assert table.cells() == [[1.5, "p"], [-2.0, "q"]]
    assert table.values.shape == (2, 2) and table.values.dtype == object
    assert table["b", "x"] == -2.0 and table.to_dict()["a"] == {"x": 1.5, "y": "p"}
    again = pickle.loads(pickle.dumps(table))
    assert again.values.tolist() == table.values.tolist()
    empty = Table("t", "test", (), ("x", "y"), Grid([], 2))
    assert empty.values.shape == (0, 2)


def test_summary_shows_a_tiny_probability_in_significant_digits():
    """A lifetime risk of ruin of 4.2e-8 printed with six decimals read 0.000000."""
    import numpy as np
    from bjsolve.output.render import render
    from bjsolve.output.table import Table
    rows = ("risk of ruin", "win probability")
    table = Table("summary", "ramp", rows, ("value",), np.array([[4.208e-8], [0.43]]), (),
                  style="prob", layout="summary")
    text = render(table, "text")
    assert "4.208e-08" in text and "0.000000" not in text
    assert "0.430000" in text


def test_probability_tables_keep_small_values_and_show_counts_as_integers():
    """A risk table mixes probabilities with a bankroll and a number of rounds: a
    probability of 6e-6 must not read 0.000006 (one digit), 400 units not 400.000000."""
    assert _cell(6.178e-6, style="prob") == "6.178e-06"
    assert _cell(400.0, style="prob") == "400" and _cell(10_000, style="prob") == "10000"
    assert _cell(0.5, style="prob") == "0.500000"
    assert _cell(float("inf"), style="prob") == "inf"
