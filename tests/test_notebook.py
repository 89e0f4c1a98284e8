"""Results in a notebook: every result's ``_repr_html_`` is well-formed HTML whose tables
hold the object's own figures (read back from the parsed cells and compared with its
attributes, to the digits shown), text from the object is escaped, and ``to_pandas``
gives the object's data.  The pandas tests skip where pandas is absent; the example
notebook runs where nbclient is installed."""
import json
import math
import pathlib
import sys
from decimal import Decimal
from html.parser import HTMLParser

import numpy as np
import pytest

import bjsolve
from bjsolve import Rules
from bjsolve.exact import OutcomeDistribution

ROOT = pathlib.Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "docs" / "examples" / "counter.ipynb"
VOID = {"br", "hr", "img", "meta", "link", "input", "col", "wbr"}


class Page(HTMLParser):
    """Checks that tags nest and close, and collects the tables (caption, rows of cell
    texts) and the whole text."""

    def __init__(self, markup: str):
        super().__init__(convert_charrefs=True)
        self.stack, self.tables, self.text = [], [], []
        self._cell = None
        self.feed(markup)
        self.close()
        assert not self.stack, f"unclosed tags: {self.stack}"

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        self.stack.append(tag)
        if tag == "table":
            self.tables.append({"caption": "", "rows": []})
        elif tag == "tr":
            self.tables[-1]["rows"].append([])
        elif tag in ("td", "th", "caption"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes {self.stack[-1:]}"
        self.stack.pop()
        if tag in ("td", "th"):
            self.tables[-1]["rows"][-1].append("".join(self._cell).strip())
            self._cell = None
        elif tag == "caption":
            self.tables[-1]["caption"] = "".join(self._cell).strip()
            self._cell = None

    def handle_data(self, data):
        self.text.append(data)
        if self._cell is not None:
            self._cell.append(data)

    def table(self, caption_start: str) -> list:
        """The rows of the table whose caption starts so."""
        found = [t["rows"] for t in self.tables if t["caption"].startswith(caption_start)]
        assert len(found) == 1, [t["caption"] for t in self.tables]
        return found[0]

    def by_row(self, caption_start: str) -> dict:
        """{row label: its cells} of a table (the header row included under its corner)."""
        return {row[0]: row[1:] for row in self.table(caption_start)}

    @property
    def all_text(self) -> str:
        return "".join(self.text)


def page(obj) -> Page:
    markup = obj._repr_html_()
    assert isinstance(markup, str) and markup.startswith("<")
    return Page(markup)


def shows(text: str, value: float, scale: float = 1.0) -> bool:
    """Whether ``text`` ("-0.6154%", "1,234.5", "4.883e-08") is ``value`` x ``scale`` to
    the digits it shows."""
    digits = text.strip().rstrip("%").replace(",", "")
    shown = Decimal(digits)
    half_unit = 0.5 * 10.0 ** shown.as_tuple().exponent
    return abs(float(shown) - value * scale) <= half_unit * (1 + 1e-9) + 1e-15


# ---- objects shared by the tests (each is seconds at most) --------------------------------

@pytest.fixture(scope="module")
def one_deck():
    return bjsolve.solve(Rules(decks=1, hit_soft_17=True))


@pytest.fixture(scope="module")
def coin():
    """A law built by hand: a win of 1.5 with 0.45, a loss with 0.5, a push with 0.05."""
    return OutcomeDistribution([1.5, -1.0, 0.0], [0.45, 0.5, 0.05], exact=True,
                               method="by hand", description="a <test> law & more")


# ---- the exact solve ----------------------------------------------------------------------

def test_solution_html_holds_its_figures(one_deck):
    p = page(one_deck)
    figures = p.by_row("Figures")
    assert shows(figures["expected value"][0], one_deck.expected_value, 100)
    assert shows(figures["house edge"][0], -one_deck.expected_value, 100)
    assert figures["split class"][0] == one_deck.split == "CDZ-"
    by_dealer = p.by_row("EV of the round by dealer card")
    labels = by_dealer["dealer"]
    assert labels == ["2", "3", "4", "5", "6", "7", "8", "9", "T", "A"]
    for label, ev, prob in zip(labels, by_dealer["EV"], by_dealer["probability"]):
        assert shows(ev, one_deck.ev_by_upcard[label], 100)
        # one full deck: an upcard is each rank's share, 4/52 (16/52 for tens)
        assert shows(prob, (16 if label == "T" else 4) / 52)
    text = p.all_text
    assert "unconditioned" in text and "given no dealer blackjack" in text
    assert one_deck.rules.describe() in text


def test_solution_to_pandas(one_deck):
    pytest.importorskip("pandas")
    frame = one_deck.to_pandas()
    assert list(frame.columns) == ["probability", "ev"]
    assert list(frame.index) == ["2", "3", "4", "5", "6", "7", "8", "9", "T", "A"]
    for label, row in frame.iterrows():
        assert row["ev"] == float(one_deck.ev_by_upcard[label])
        assert row["probability"] == pytest.approx((16 if label == "T" else 4) / 52, abs=1e-15)
    # the round's EV is the upcards' mean
    assert float((frame.probability * frame.ev).sum()) == pytest.approx(
        float(one_deck.expected_value), abs=1e-14)
    assert frame.attrs["expected_value"] == float(one_deck.expected_value)


def test_hand_values_html_states_the_convention(one_deck):
    values = one_deck.hand_ev("88", "6")
    p = page(values)
    rows = p.by_row("EV by action")
    for action, ev in values.items():
        label = action + (" (best)" if action == values.best else "")
        assert shows(rows[label][0], ev, 100)
    assert "given no dealer blackjack" in p.all_text
    assert "post-split class CDZ-" in p.all_text
    unconditioned = page(one_deck.hand_ev("T6", "T", given_no_blackjack=False))
    assert "unconditioned" in unconditioned.all_text
    assert "split" not in unconditioned.all_text.split("EVs")[-1]


def test_dealer_outcomes_html():
    outcomes = bjsolve.dealer_probabilities(Rules(decks=1), "6")
    rows = page(outcomes).by_row("probability of each final total")
    assert rows["outcome"] == [str(k) for k in outcomes]
    for key, cell in zip(outcomes, rows["probability"]):
        assert shows(cell, outcomes[key])


def test_the_chart_and_cli_tables_html(one_deck):
    from bjsolve.exact import ev_table
    table = ev_table(one_deck, "stand")
    p = page(table)
    rows = {r[0]: r[1:] for r in p.tables[0]["rows"]}
    for i, row in enumerate(table.rows):
        for j, _ in enumerate(table.columns):
            assert shows(rows[row][j], float(table.values[i, j]))
    for note in table.notes:
        assert note in p.all_text
    chart = Page(one_deck.strategy._repr_html_())
    assert chart.tables


def test_text_from_the_object_is_escaped():
    from bjsolve.output import Table
    table = Table("t", "a <b>bold</b> & co", ("<=-5",), ("x<y",),
                  np.array([[0.25]]), notes=("<script>alert(1)</script>",), style="prob")
    markup = table._repr_html_()
    assert "<script>" not in markup and "<b>bold" not in markup and "<=-5" not in markup
    p = Page(markup)
    assert "<script>alert(1)</script>" in p.all_text
    assert "a <b>bold</b> & co" in p.all_text
    assert p.tables[0]["rows"][1][0] == "<=-5"


# ---- the outcome distribution -------------------------------------------------------------

def test_distribution_html_lists_every_outcome(coin):
    p = page(coin)
    assert "a <test> law & more" in p.all_text
    rows = p.table("P(net result)")[1:]
    assert len(rows) == len(coin.values)
    cumulative = 0.0
    for (value, prob, cdf), v, q in zip(rows, coin.values, coin.probabilities):
        cumulative += q
        assert float(value) == v
        assert shows(prob, q) and shows(cdf, cumulative)
    figures = p.by_row("Figures")
    assert shows(figures["mean"][0], coin.mean) and shows(figures["SD"][0], coin.sd)
    # the hand-made law's moments, independently: mean 0.175, E[X^2] 1.5125
    assert coin.mean == pytest.approx(0.175) and coin.sd == pytest.approx(
        math.sqrt(1.5125 - 0.175 ** 2))


def test_solved_distribution_html(one_deck):
    dist = one_deck.outcome_distribution()
    p = page(dist)
    assert shows(p.by_row("Figures")["mean"][0], dist.mean)
    assert len(p.table("P(net result)")) == len(dist.values) + 1
    assert ("probabilities: exact" in p.all_text) == dist.exact


def test_distribution_to_pandas(coin):
    pytest.importorskip("pandas")
    frame = coin.to_pandas()
    assert list(frame.columns) == ["value", "probability"]
    assert frame.value.tolist() == [-1.0, 0.0, 1.5]
    assert frame.probability.tolist() == [0.5, 0.05, 0.45]


# ---- counting -----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def eor():
    return bjsolve.effects_of_removal(Rules(decks=1, hit_soft_17=True))


def test_removal_effects_html(eor):
    p = page(eor)
    rows = p.by_row("Change in the round's EV")
    assert rows["rank"] == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T"]
    for label, cell in zip(rows["rank"], rows["EOR"]):
        assert shows(cell, eor[label], 100)
    assert "fixed" in p.all_text and "CDZ-" in p.all_text
    assert shows(p.by_row("Figures")["EV of the full shoe"][0], eor.base_ev, 100)


def test_removal_effects_to_pandas(eor):
    pytest.importorskip("pandas")
    frame = eor.to_pandas()
    assert list(frame.index) == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T"]
    assert frame.effect.tolist() == list(eor.as_vector())
    assert frame.probability.tolist() == pytest.approx([4 / 52] * 9 + [16 / 52], abs=1e-15)
    # the fundamental theorem: a fixed strategy's effects average to zero
    assert float((frame.effect * frame.probability).sum()) == pytest.approx(0, abs=1e-12)


def test_decision_effects_html_and_frame():
    from bjsolve.counting import decision_effects_of_removal
    effects = decision_effects_of_removal(Rules(decks=6), (10, 6), 10)
    p = page(effects)
    rows = p.by_row("EV of each action")
    labels = rows["action"][1:]
    assert labels == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T"]
    for action, value in effects.values.items():
        assert shows(rows[action][0], value, 100)
        for label, cell in zip(labels, rows[action][1:]):
            rank = {"A": 1, "T": 10}.get(label) or int(label)
            assert shows(cell, effects.effects[action][rank], 100)
    assert "given no dealer blackjack" in p.all_text
    pytest.importorskip("pandas")
    frame = effects.to_pandas()
    assert list(frame.index) == list(effects.values)
    assert frame.ev.to_dict() == effects.values
    assert frame["T"].to_dict() == {a: e[10] for a, e in effects.effects.items()}


@pytest.fixture(scope="module")
def i18():
    from bjsolve.counting import as_index_table
    return as_index_table("i18", Rules(decks=6), "hilo")      # (true count floored)


def test_index_table_html(i18):
    p = page(i18)
    rows = p.table("Play below the index")
    assert rows[0] == ["hand", "play below", "index", "play from index", "crossing", "gain"]
    body = rows[1:]
    assert len(body) == sum(len(line.thresholds) for line in i18.lines.values())
    for hand, below, index, above, crossing, gain in body:
        row, upcard = hand.split(" v ")
        assert i18.index(row, upcard, above) == int(index)
        line = i18.lines[(row, 1 if upcard == "A" else 10 if upcard == "T" else int(upcard))]
        assert below in line.plays and above in line.plays
    assert f"at TC >= {i18.insurance:+d}" in p.all_text


def test_index_table_to_pandas(i18):
    pytest.importorskip("pandas")
    frame = i18.to_pandas()
    assert list(frame.columns) == ["hand", "dealer", "play_below", "index", "play_from",
                                   "crossing", "gain"]
    assert len(frame) == sum(len(line.thresholds) for line in i18.lines.values())
    for _, r in frame.iterrows():
        assert i18.index(r.hand, r.dealer, r.play_from) == r["index"]


# ---- the counted game and what it returns -------------------------------------------------

# (the two-deck game tests/test_game.py and test_docs_figures.py read too: what the
# notebook shows does not depend on the shoe)
def test_counted_game_html(counted_game_2d_h17):
    game = counted_game_2d_h17
    p = page(game)
    rows = p.by_row("By true count")
    assert list(rows)[1:] == list(game.labels)        # the pooled ends' '<=' escaped and back
    for label, f, e, v in zip(game.labels, game.frequency, game.edge, game.variance):
        freq, edge, sd = rows[label]
        assert shows(freq, f) and shows(edge, e, 100) and shows(sd, math.sqrt(v))
    assert "unconditioned" in p.all_text
    flat = p.by_row("Figures")["flat-bet edge"][0]
    assert shows(flat, float(np.dot(game.frequency, game.edge)), 100)


def test_counted_game_to_pandas(counted_game_2d_h17):
    pytest.importorskip("pandas")
    game = counted_game_2d_h17
    frame = game.to_pandas()
    assert list(frame.index) == list(game.labels)
    assert list(frame.columns) == ["frequency", "edge", "sd"]
    assert frame.frequency.tolist() == game.frequency.tolist()
    assert frame.edge.tolist() == game.edge.tolist()
    assert frame.sd.tolist() == np.sqrt(game.variance).tolist()


def test_ramp_result_html_and_frame(counted_game_2d_h17):
    result = counted_game_2d_h17.evaluate("1:1,2:2,3:4,4:8", bankroll=1000, unit=25)
    p = page(result)
    rows = p.by_row("Figures per round dealt")
    for name, amount in result.money().items():            # units, and money beside
        assert rows[name][1].endswith(f" = {amount:,.2f} in money")
        rows[name][1] = result.units()[name]
    summary = {k: v for k, v in result.summary().items() if v is not None}
    assert set(rows) - {"figure"} == set(summary)
    for name, value in summary.items():
        assert shows(rows[name][0], value, 100 if name.startswith("advantage") else 1)
        assert rows[name][1] == result.units()[name]
    pytest.importorskip("pandas")
    frame = result.to_pandas()
    assert frame.value.to_dict() == {k: float(v) for k, v in summary.items()}


def test_ramp_html_and_frame():
    from bjsolve.risk import parse_ramp
    ramp = parse_ramp("-1:0,1:1,2:4,4:12", wong_in=-1)
    rows = page(ramp).by_row("bet (units)")
    assert rows["true count"] == ["-1", "+1", "+2", "+4"]
    assert [float(b) for b in rows["bet"]] == [0, 1, 4, 12]
    pytest.importorskip("pandas")
    frame = ramp.to_pandas()
    assert frame.true_count.tolist() == [-1, 1, 2, 4] and frame.bet.tolist() == [0, 1, 4, 12]


# ---- simulation and risk ------------------------------------------------------------------

def test_simulation_html():
    result = bjsolve.simulate(Rules(decks=1), rounds=3000, seed=7)
    p = page(result)
    summary = p.by_row("Simulation")
    assert summary["rounds dealt"] == [f"{result.rounds:,}"]
    by_tc = p.by_row("Result by true count")
    shown = [r for r in result.per_true_count if r.rounds]
    assert list(by_tc)[1:] == [f"{r.true_count:+d}" for r in shown]
    for r in shown:
        assert by_tc[f"{r.true_count:+d}"][0] == f"{r.rounds:,}"


def test_risk_results_html_and_frame(coin):
    from bjsolve.risk import lifetime_ruin, risk_summary, trip_ruin
    summary = risk_summary(coin, bankroll=20, trip_rounds=50)
    rows = page(summary).by_row("Figures")
    for name, value in summary.rows():
        assert shows(rows[name][0], value)
    trip = trip_ruin(coin, 20, 50)
    assert shows(page(trip).by_row("P(ruined")["probability"][0], trip.probability)
    life = lifetime_ruin(coin, 20)
    assert shows(page(life).by_row("P(ever ruined)")["probability"][0], life.probability)
    pytest.importorskip("pandas")
    frame = summary.to_pandas()
    assert frame.value.to_dict() == {k: float(v) for k, v in summary.rows()}


# ---- pandas is optional -------------------------------------------------------------------

def test_to_pandas_without_pandas_names_the_extra(coin, monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)     # import pandas now fails
    with pytest.raises(ImportError, match=r"bjsolve\[pandas\]"):
        coin.to_pandas()


# ---- the example notebook -----------------------------------------------------------------

def test_example_notebook_is_kept_with_its_outputs():
    doc = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    code = [c for c in doc["cells"] if c["cell_type"] == "code"]
    assert code and all(c["outputs"] and c["execution_count"] for c in code)
    assert not any(o.get("output_type") == "error" for c in code for o in c["outputs"])


@pytest.mark.slow
def test_example_notebook_runs():
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    outputs = [o for c in notebook.cells if c.cell_type == "code" for o in c.outputs]
    assert not any(o.output_type == "error" for o in outputs)
    assert any("text/html" in o.get("data", {}) for o in outputs)
