"""The figures that README.md and docs/ quote about the code, recomputed.

Each row names a document, the text it quotes and how to get that text from the code as it
is now.  A figure that drifts (a fix changes a value, a doc is edited by hand) fails here
with both versions named, so the docs cannot silently describe an older build.

These are consistency checks of the documents: whether the values themselves are right is
tested elsewhere against independent sources (published exact figures, the pure-Python
reference, brute force, simulation).  Figures that depend on a simulation's seed or on a
machine (timings) are not listed; the documents say where they come from.
"""
from __future__ import annotations

import io
import math
import pathlib
import re

import pytest

import bjsolve
from bjsolve import Rules, Shoe
from bjsolve.cli import main as cli_main

ROOT = pathlib.Path(__file__).resolve().parent.parent


def document(name: str) -> str:
    # line breaks inside a paragraph are not part of a quoted figure
    return re.sub(r"\s+", " ", (ROOT / name).read_text(encoding="utf-8"))


def assert_quoted(name: str, text: str) -> None:
    text = re.sub(r"\s+", " ", text)
    assert text in document(name), f"{name} no longer quotes {text!r} (the code gives it)"


# ---- shared solves (module scope: several rows read the same distribution) ----------------

@pytest.fixture(scope="module")
def one_split(outcome_law):
    """1 deck and 6 decks, S17 DOA DAS, one split: (exact law, combined law) per deck count
    (the exact laws are the session's shared ones)."""
    out = {}
    for decks in (1, 6):
        sol, exact = outcome_law(decks=decks, max_split_hands=2)
        out[decks] = (exact, sol.outcome_distribution(exact_splits=False))
    return out


@pytest.fixture(scope="module")
def resplits(outcome_law):
    """1 deck and 6 decks, S17 DOA DAS, resplits to 4 hands."""
    return {decks: outcome_law(decks=decks)[1] for decks in (1, 6)}


def six(x: float) -> str:
    return f"{x:.6f}"


def short(x: float, places: int = 1) -> str:
    """3.2e-5, as the documents write a small figure (Python writes 3.2e-05)."""
    mantissa, exponent = f"{x:.{places}e}".split("e")
    return f"{mantissa}e{int(exponent)}"


# ---- README.md -------------------------------------------------------------------------

def test_readme_main_job_edges():
    out = io.StringIO()
    assert cli_main([], out=out) == 0
    lines = [line for line in out.getvalue().splitlines() if line.startswith("House edge")]
    assert len(lines) >= 2
    for line in lines[:2]:
        assert_quoted("README.md", line)


def test_readme_round_ev():
    ev = bjsolve.solve(Rules.parse("6D S17 DAS LS")).expected_value
    assert_quoted("README.md", f"{float(ev):.16f}"[:19] + "...")


def test_conventions_house_edge():
    ev = bjsolve.solve(Rules(decks=6)).expected_value
    assert_quoted("docs/conventions.md", f"{-100 * float(ev):.3f} % for 6 decks, S17, DAS")


def test_readme_free_bet_sd():
    dist = bjsolve.solve(Rules.preset("free-bet")).outcome_distribution()
    assert_quoted("README.md", f"fb.outcome_distribution().sd # {dist.sd:.4f} per round")


def test_risk_games_chart_sd():
    sol = bjsolve.solve(Rules.preset("free-bet"))
    dist = sol.outcome_distribution(sol.strategy)
    assert_quoted("docs/risk.md", f"against the law's {six(dist.sd)}; Spanish 21")


# ---- docs/split-classes.md --------------------------------------------------------------

@pytest.mark.parametrize("removed, quoted", [
    ("A 2 3 3 3 4 4 5 5 6 6 7 7 9 T T T",
     "{cdp1:+.6f} under CDP1 and {cdp:+.6f} under CDP, {gap} lower"),
    ("A 2 2 2 3 3 4 4 5 5 5 6 6 7 7 8 8 8 9 T T T T", "CDP is {gap} below CDP1"),
])
def test_split_class_order_examples(removed, quoted):
    shoe = Shoe.decks(1).remove(*removed.split())
    rules = Rules(decks=1)
    cdp1 = float(bjsolve.solve(rules, shoe=shoe, split="CDP1").expected_value)
    cdp = float(bjsolve.solve(rules, shoe=shoe, split="CDP").expected_value)
    assert_quoted("docs/split-classes.md", quoted.format(cdp1=cdp1, cdp=cdp, gap=short(cdp1 - cdp)))


# ---- docs/risk.md -------------------------------------------------------------------------

def test_risk_example_mean_and_sd(one_split):
    exact, _ = one_split[1]
    assert_quoted("docs/risk.md", f"# {exact.mean:+.7f}, {six(exact.sd)}")


def test_risk_one_split_exact_against_combined(one_split):
    (e1, c1), (e6, c6) = one_split[1], one_split[6]
    assert_quoted("docs/risk.md", f"SD {six(e1.sd)} exact against {six(c1.sd)} combined")
    assert_quoted("docs/risk.md", f"6 decks: {six(e6.sd)} against {six(c6.sd)}")


def test_risk_resplits_exact_against_pmf(resplits):
    d1, d6 = resplits[1], resplits[6]
    assert d1.variance_exact and d6.variance_exact
    assert_quoted("docs/risk.md", f"SD {six(d1.sd)} exact, "
                                  f"{six(math.sqrt(d1.pmf_variance))} from the pmf")
    assert_quoted("docs/risk.md", f"6 decks: {six(d6.sd)} against "
                                  f"{six(math.sqrt(d6.pmf_variance))}")


def test_risk_measured_figures(one_split, resplits):
    exact, combined = one_split[1]
    assert_quoted("docs/risk.md", f"one split: SD {six(exact.sd)} per round (exact; the fast "
                                  f"combination, `exact_splits=False`, gives {six(combined.sd)})")
    assert_quoted("docs/risk.md", f"resplits to 4: {six(resplits[6].sd)} (the exact variance; "
                                  f"the pmf's own, `pmf_variance`, gives "
                                  f"{six(math.sqrt(resplits[6].pmf_variance))})")


@pytest.mark.slow
def test_risk_two_spot_covariance():
    """exact_spots costs several CPU-seconds a solve: opt-in."""
    rows = []
    for max_hands in (2, 1):
        sol = bjsolve.solve(Rules(decks=1, max_split_hands=max_hands))
        exact = sol.outcome_distribution(spots=2, exact_spots=True)
        combined = sol.outcome_distribution(spots=2)
        rows.append((exact, combined))
    (e, c), (e0, c0) = rows
    assert_quoted("docs/risk.md", f"covariance {six(e.covariance)} exact against "
                                  f"{six(c.covariance)} combined, SD of the total "
                                  f"{six(e.sd)} against {six(c.sd)}")
    assert_quoted("docs/risk.md", f"no splits: {six(e0.covariance)} against "
                                  f"{six(c0.covariance)}")


# ---- docs/counted-game.md -----------------------------------------------------------------

COUNTED_GAME_RAMP = "1:1,2:2,3:4,4:8,5:12"


# The 6-deck games cost 10-15 s each to build: the sentences and rows that quote them run
# with --run-slow (whole, 2-deck figures included); the default run checks the 2D H17
# figures on their own, on the game the session shares with test_game.py.

@pytest.fixture(scope="module")
def counted_games(counted_game_6d_s17, counted_game_2d_h17):
    """The document's games: Hi-Lo, floor, 75% penetration, the basic chart (the session's
    shared builds; the 6D H17 game, quoted once, is built by its own slow test)."""
    return {"6D S17": counted_game_6d_s17, "2D H17": counted_game_2d_h17}


def percent(x: float, places: int) -> str:
    return f"{100 * x:.{places}f}%"


def test_counted_game_2d_h17_figures(counted_game_2d_h17):
    """The 2D H17 parts of the quotes below that name both games."""
    game = counted_game_2d_h17
    flat = float(game.frequency @ game.edge)
    assert_quoted("docs/counted-game.md", f"2D H17: {percent(flat, 4)} against "
                                          f"{percent(game.full_shoe_chart_ev, 4)})")
    two = game.evaluate(COUNTED_GAME_RAMP, bankroll=10_000)
    assert_quoted("docs/counted-game.md", f"| {two.win_rate:+.5f} / +0.03132 +- 0.00043 (z "
                                          f"{(two.win_rate - 0.03132) / 0.00043:+.2f}) | "
                                          f"{two.sd:.4f} / 4.4995 +- 0.0011 |")
    assert_quoted("docs/counted-game.md", f"2D H17 ramp SD {two.sd:.4f} and W/100 "
                                          f"{two.win_per_100:.4f}")
    assert_quoted("docs/counted-game.md", f"and {short(two.ror, 2)} (2D))")


@pytest.mark.slow
def test_counted_game_flat_edges_against_the_full_shoe(counted_games):
    flat = {name: float(g.frequency @ g.edge) for name, g in counted_games.items()}
    s17, h17 = counted_games["6D S17"], counted_games["2D H17"]
    assert_quoted("docs/counted-game.md",
                  f"(6D S17: {percent(flat['6D S17'], 4)} against "
                  f"{percent(s17.full_shoe_chart_ev, 4)}; 2D H17: {percent(flat['2D H17'], 4)} "
                  f"against {percent(h17.full_shoe_chart_ev, 4)})")


@pytest.mark.slow   # a third counted game of 6 decks: about 10 s to build, for one figure
def test_counted_game_6d_h17_flat_edge():
    from bjsolve.risk.game import CountedGame
    game = CountedGame(Rules(decks=6, hit_soft_17=True), "hilo", penetration=0.75)
    flat = float(game.frequency @ game.edge)
    assert_quoted("docs/counted-game.md", f"6D H17 DAS {percent(flat, 5)} (")


@pytest.mark.slow
def test_counted_game_ramp_figures(counted_games):
    six, two = (counted_games[n].evaluate(COUNTED_GAME_RAMP, bankroll=10_000)
                for n in ("6D S17", "2D H17"))
    assert_quoted("docs/counted-game.md", f"| 6D S17 DAS | {len(counted_games['6D S17'].labels)} |")
    assert_quoted("docs/counted-game.md", f"| {six.win_rate:+.5f} / +0.00710 +- 0.00028 (z "
                                          f"{(six.win_rate - 0.00710) / 0.00028:+.2f}) | "
                                          f"{six.sd:.4f} / 2.9116 +- 0.0018 |")
    assert_quoted("docs/counted-game.md", f"| {two.win_rate:+.5f} / +0.03132 +- 0.00043 (z "
                                          f"{(two.win_rate - 0.03132) / 0.00043:+.2f}) | "
                                          f"{two.sd:.4f} / 4.4995 +- 0.0011 |")
    assert_quoted("docs/counted-game.md", f"ramp SD (the present code; the simulation does "
                                          f"not depend on the model) {six.sd:.4f} against "
                                          f"2.9123 +- 0.0020 (6D, z -0.4) and {two.sd:.4f}")
    assert_quoted("docs/counted-game.md", f"| the same, the present code (default) | "
                                          f"{six.sd:.4f} (0.00%) | {two.sd:.4f} (-0.04%) |")
    assert_quoted("docs/counted-game.md", f"6D S17 ramp SD {six.sd:.4f}, W/100 "
                                          f"{six.win_per_100:.4f}")
    assert_quoted("docs/counted-game.md", f"2D H17 ramp SD {two.sd:.4f} and W/100 "
                                          f"{two.win_per_100:.4f}")
    assert_quoted("docs/counted-game.md", f"at 10,000 units the present method gives "
                                          f"{short(six.ror, 2)} (6D")
    assert_quoted("docs/counted-game.md", f"and {short(two.ror, 2)} (2D))")


# ---- docs/games.md: Pontoon ------------------------------------------------------------------

def test_games_pontoon_edges():
    def edges(rules):
        sol = bjsolve.solve(rules)
        return -100 * float(sol.evaluate(sol.strategy)), -100 * sol.expected_value

    pontoon = Rules.preset("pontoon")
    chart, optimal = edges(pontoon)
    assert_quoted("docs/games.md", f"house edge {chart:.3f} % with the chart, {optimal:.3f} % "
                                   "with optimal play")
    chart, _ = edges(pontoon.replace(super_bonus=100.0))
    assert_quoted("docs/games.md", f"with `super_bonus=100` give {chart:.3f} % here")
    chart, _ = edges(pontoon.replace(super_bonus=100.0, double="any"))
    assert_quoted("docs/games.md", f"({chart:.3f} % here for OBBO with doubling on any two "
                                   "cards against its 0.50 %)")
