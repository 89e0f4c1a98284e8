"""Rule flags of the command line that map one Rules field each."""
import io
import json

import pytest

from bjsolve import Rules
from bjsolve.cli import main
from bjsolve.cli.common import rules_from_args


def run(*args):
    out = io.StringIO()
    code = main(list(args), out=out)
    return code, out.getvalue()


def edges(*args) -> dict:
    code, text = run("edge", "--no-chart", "--format", "json", *args)
    assert code == 0
    values = json.loads(text)["values"]
    return {row: values[row]["house edge"] for row in values}


def both_naturals(decks: int) -> float:
    """Chance that the player and the dealer both hold a natural (ace and ten each), by
    counting: any dealing order of the four cards gives the same chance."""
    aces, tens, n = 4 * decks, 16 * decks, 52 * decks
    player = 2 * aces / n * tens / (n - 1)
    dealer = 2 * (aces - 1) / (n - 2) * (tens - 1) / (n - 3)
    return player * dealer


def test_natural_tie_moves_the_edge_by_the_tied_naturals_only():
    # with the peek a player natural has no decision, so only the tied naturals' payoff
    # changes: lose -1, push 0, win 3:2
    lose = edges("--decks", "1", "--dealer-wins-ties")
    push = edges("--decks", "1", "--dealer-wins-ties", "--natural-tie", "push")
    win = edges("--decks", "1", "--dealer-wins-ties", "--natural-tie", "WIN")
    p = both_naturals(1)
    for row in lose:
        assert lose[row] - push[row] == pytest.approx(p, abs=1e-13)
        assert lose[row] - win[row] == pytest.approx(2.5 * p, abs=1e-13)


def test_natural_tie_flag_reads_into_the_rules_and_overrides_the_summary():
    from bjsolve.cli import parse
    args = parse(["edge", "--rules", "6D dealer wins ties (tied naturals win)",
                  "--natural-tie", "push"])
    assert rules_from_args(args) == Rules(decks=6, dealer_wins_ties=True, natural_tie="push")


@pytest.mark.parametrize("args, words", [
    (["--natural-tie", "push"], "add --dealer-wins-ties"),
    (["--natural-tie", "draw", "--dealer-wins-ties"], "invalid choice: 'draw'"),
    (["--natural-tie"], "expected one argument"),
])
def test_bad_natural_tie_exits_2_with_one_line(args, words, capsys):
    code, out = run(*args)
    err = capsys.readouterr().err
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("bjsolve: error:")
    assert words in err
