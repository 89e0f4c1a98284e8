"""The Python side of presentation: charts that print themselves, label-keyed read-only
results, tables for pandas, plain public names."""
import pickle
import warnings

import pytest

import bjsolve
from bjsolve import Rules, Shoe


@pytest.fixture(scope="module")
def sol():
    return bjsolve.solve(Rules(decks=2))


def test_print_chart_draws_it(sol):
    text = str(sol.strategy)
    lines = text.splitlines()
    assert lines[0] == "== basic strategy =="
    header = next(l for l in lines if l.split()[:2] == ["2", "3"])
    assert header.split() == ["2", "3", "4", "5", "6", "7", "8", "9", "T", "A"]
    row16 = next(l.split() for l in lines if l.split()[:1] == ["16"])
    assert row16[1:] == [sol.strategy.rows["16"][c] for c in header.split()]
    assert "StrategyChart(" in repr(sol.strategy)


def test_chart_html_for_notebooks(sol):
    html = sol.strategy._repr_html_()
    assert html.startswith("<table") and "Hard totals" in html and "Pairs" in html
    assert "background:" in html


def test_chart_code_accepts_labels_and_refuses_nonsense_cleanly(sol):
    chart = sol.strategy
    assert chart.code((10, 6), "T", can_split=True) == chart.code("T6", 10, can_split=False)
    assert chart.code(("Q", "6"), "K", can_split=True) == chart.rows["16"]["T"]
    with pytest.raises(ValueError, match="dealer"):
        chart.code((10, 6), "X", can_split=True)
    with pytest.raises(TypeError, match="can_split"):
        chart.code((10, 6), "T", can_split="yes")


def test_results_accept_card_labels_and_are_read_only(sol):
    by_up = sol.ev_by_upcard
    assert by_up["A"] == by_up[1] == by_up["ace"]
    assert by_up["T"] == by_up["K"] == by_up[10]
    assert list(by_up) == list(range(1, 11))
    with pytest.raises(TypeError):
        by_up["A"] = 0.0
    with pytest.raises(KeyError):
        by_up["Z"]
    # identity: the round's EV is the upcard-weighted mean of the EVs by upcard
    shares = Shoe.decks(2).probabilities()
    assert sum(p * by_up[r] for r, p in zip(range(1, 11), shares)) == pytest.approx(
        sol.expected_value, abs=1e-15)
    assert pickle.loads(pickle.dumps(by_up)) == by_up


def test_exposed_game_dealer_keys_accept_labels():
    easy = bjsolve.solve(Rules.preset("easy"))
    assert easy.ev_by_dealer["T6"] == easy.ev_by_dealer[(6, 10)] == easy.ev_by_dealer[["6", "T"]]


def test_dealer_outcomes_are_read_only():
    d = bjsolve.dealer_probabilities(Rules(decks=1), "6")
    with pytest.raises(TypeError, match="read-only"):
        d["bust"] = 0.5
    with pytest.raises(TypeError):
        d.update({"bust": 0.5})
    assert sum(d.values()) == pytest.approx(1.0, abs=1e-15)
    copy = pickle.loads(pickle.dumps(d))
    assert copy == d and copy.dealer == 6 and copy.given_no_blackjack is False


def test_tables_to_pandas(sol):
    pd = pytest.importorskip("pandas")
    from bjsolve.exact.tables import ev_table
    frame = ev_table(sol, "stand").to_pandas()
    assert isinstance(frame, pd.DataFrame) and list(frame.columns)[:2] == ["2", "3"]
    chart = sol.strategy.to_pandas()
    assert chart.loc["16", "T"] == sol.strategy.rows["16"]["T"]


def test_deviation_is_the_plain_name_and_the_old_one_still_works(sol):
    from bjsolve.exact import strategy
    assert all(isinstance(e, strategy.Deviation) for e in sol.strategy.exceptions)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert strategy.Exception_ is strategy.Deviation
    assert any(issubclass(w.category, DeprecationWarning) for w in caught)


def test_picture_formats_when_matplotlib_is_installed(tmp_path):
    pytest.importorskip("matplotlib")
    from bjsolve.cli import main
    png, svg = tmp_path / "chart.png", tmp_path / "hit.svg"
    assert main(["strategy", "--decks", "1", "--format", "png", "-o", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["hit", "--decks", "1", "--format", "svg", "-o", str(svg)]) == 0
    assert b"<svg" in svg.read_bytes()[:500]


def test_progress_bar_shows_an_eta_on_a_terminal_only():
    import io

    from bjsolve.output.progress import ProgressBar, progress_callback

    class Tty(io.StringIO):
        def isatty(self):
            return True

    piped, tty = io.StringIO(), Tty()
    for stream in (piped, tty):
        bar = ProgressBar("indices", stream, delay=0.0)
        for i in range(1, 4):
            bar(i, 3)
    assert piped.getvalue() == ""
    assert "indices" in tty.getvalue() and "ETA" in tty.getvalue()
    assert progress_callback(None) is None and progress_callback(False) is None
    assert isinstance(progress_callback(True), ProgressBar)
    with pytest.raises(TypeError, match="progress"):
        progress_callback("yes")


def test_python_progress_true_is_accepted_and_changes_nothing():
    rules = Rules(decks=1)
    quiet = bjsolve.effects_of_removal(rules, strategy="reoptimized")
    shown = bjsolve.effects_of_removal(rules, strategy="reoptimized", progress=True)
    assert shown.effects == quiet.effects


def test_das_split_marks_agree_with_a_full_no_das_solve():
    """The chart marks Ph/Ps/Pd from the pairs' values without double after split; those
    values must be what a whole no-DAS solve gives (2 decks: 22, 33, 44, 66 are marked)."""
    from bjsolve.exact.solver import PairsWithoutDAS
    rules = Rules(decks=2, surrender="late")
    sol = bjsolve.solve(rules)
    full = bjsolve.solve(rules.replace(double_after_split=False))
    pairs = PairsWithoutDAS(sol)
    for r in (2, 3, 4, 6, 8, 1):
        for up in (2, 5, 10, 1):
            mine = pairs.hand_ev((r, r), up, given_no_blackjack=False)
            assert mine == pytest.approx(dict(full.hand_ev((r, r), up, given_no_blackjack=False)),
                                         abs=1e-15)
    assert any(code in ("Ph", "Ps", "Pd") for row in sol.strategy.rows.values()
               for code in row.values())
