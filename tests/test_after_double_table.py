"""The after-double chart a player reads (Spanish 21's redouble and rescue after a double's
card): the printed chart is the one whose house edge is printed, a row where every hand of
the total makes the same per-composition choice shows that choice, and the CLI prints it
(80 columns, a legend) for the games with the choice only."""
import io
import itertools
import json

import pytest

import bjsolve
from bjsolve import Rules
from bjsolve.cli import main
from bjsolve.exact.after_double_table import AfterDoubleTotals, row_label
from bjsolve.exact.policy import after_double_chart
from bjsolve.model.ranks import RANK_LABELS, hand_total

INF = float("inf")
CODE_ACTION = {"S": "stand", "RD": "redouble", "RS": "rescue"}


def run(argv, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    out = io.StringIO()
    assert main(argv, out=out) == 0
    return out.getvalue()


@pytest.fixture(scope="module")
def spanish_inf():
    rules = Rules.preset("spanish-21", decks=INF)
    solution = bjsolve.solve(rules)
    return solution, AfterDoubleTotals(solution)


def test_a_row_shows_the_choice_every_hand_of_its_total_makes(spanish_inf):
    # independent of the weighting: where the per-composition chart agrees for every
    # three-card hand of a total, the total's chart must say the same
    solution, totals = spanish_inf
    per_hand = after_double_chart(solution)
    by_row: dict = {}
    for cards in itertools.combinations_with_replacement(range(1, 11), 3):
        total, soft = hand_total(cards)
        if total < 21:
            by_row.setdefault(row_label(total, soft), []).append(cards)
    checked = 0
    for up in totals.upcards:
        for d in totals.doubles:
            allowed = ("stand", "rescue") + (("redouble",) if d <= solution.rules.redoubles
                                             else ())
            for row, hands in by_row.items():
                choices = {per_hand(c, up, allowed, False, d) for c in hands}
                if len(choices) == 1:
                    assert totals.choice(row, up, d) == choices.pop(), (row, up, d)
                    checked += 1
    assert checked > 500


def test_after_the_last_redouble_there_is_no_redouble(spanish_inf):
    _, totals = spanish_inf
    last = totals.doubles[-1]
    assert last == Rules.preset("spanish-21").redoubles + 1
    assert all("RD" not in row for row in totals.codes(last))


def test_free_bet_has_no_after_double_chart():
    with pytest.raises(ValueError, match="no choice after a double"):
        AfterDoubleTotals(bjsolve.solve(Rules.preset("free-bet", decks=INF)))


def parse_after_double(text):
    """{(doubles, row, upcard label): action} from the printed text charts."""
    out, doubles, cols = {}, None, None
    for line in text.splitlines():
        if line.startswith("== after"):
            head = line.strip("= ")
            if "first double" in head:
                doubles = [1]
            else:
                n = head.split("after ")[1].split(" doubles")[0]
                lo, _, hi = n.partition("-")
                doubles = list(range(int(lo), int(hi or lo) + 1))
            cols = None
        elif doubles and not line.startswith("#") and line.strip():
            parts = line.split()
            if cols is None:
                cols = parts
            elif len(parts) == len(cols) + 1:
                for d in doubles:
                    for col, code in zip(cols, parts[1:]):
                        out[(d, parts[0], col)] = CODE_ACTION[code]
        elif line.startswith("=="):
            doubles = None
    return out


# a small game with both choices (one redouble, rescue): quick to solve and evaluate
SMALL = "H17 DOA DAN DAS LS 3:2 spanish RDx1 RSC"


def test_the_printed_chart_is_the_one_whose_edge_is_printed(monkeypatch):
    text = run(["--rules", SMALL, "--infinite"], monkeypatch)
    for line in text.splitlines():
        assert len(line) <= 80, line
    assert "S stand, RD redouble" in text and "RS" in text
    printed = parse_after_double(text)
    edge_line = next(line for line in text.splitlines()
                     if line.startswith("House edge, chart + after-double chart:"))
    printed_edge = float(edge_line.split(":")[1].strip().rstrip("%"))
    # play the chart read back from the text, as a player would
    rules = Rules.parse(SMALL).replace(decks=INF)
    solution = bjsolve.solve(rules)
    last = max(d for d, _, _ in printed)

    def read_back(cards, dealer, allowed, split, doubles):
        total, soft = hand_total(cards)
        action = printed.get((min(doubles, last), row_label(total, soft),
                              RANK_LABELS[dealer - 1]), "stand")
        return action if action in allowed else "stand"
    value = float(solution.evaluate(solution.strategy, after_double=read_back))
    assert -100 * value == pytest.approx(printed_edge, abs=0.0005 + 1e-9)


def test_the_cli_leaves_it_out_on_request_and_for_games_without_the_choice(monkeypatch):
    text = run(["strategy", "--rules", SMALL, "--infinite", "--no-after-double"], monkeypatch)
    assert "after the double" not in text
    assert "after the double" not in run(["--preset", "free-bet", "--infinite"], monkeypatch)
    with_it = json.loads(run(["strategy", "--rules", SMALL, "--infinite", "--format", "json"],
                             monkeypatch))
    names = [t["table"] for t in with_it["tables"]]
    assert names[0] == "strategy" and set(names[1:]) == {"after-double"}
