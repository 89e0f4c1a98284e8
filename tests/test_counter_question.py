"""The counter's question, asked both ways with the same words: "win rate, SD, SCORE, risk
of ruin and true-count frequencies for 6D H17 DAS LS, Hi-Lo with the Illustrious 18, a 1-12
ramp, a $10,000 bankroll at $25 a unit".  The command line's flags are the library's
keywords with dashes, and both give the same figures (the same computation: equal, not
close).

The question's own six decks (two such games, tens of seconds each) run with --run-slow; the
default run asks the same question, in the same words, of one deck (seconds)."""
import json
import subprocess
import sys

import pytest

import bjsolve
from children import child_env

QUESTIONS = [pytest.param("6D H17 DAS LS", marks=pytest.mark.slow, id="6D"),
             pytest.param("1D H17 DAS LS", id="1D")]
RAMP = "1:1,2:2,3:4,4:8,5:12"        # 1 unit up to +1, 12 units from +5
UNIT = 25                            # dollars a unit
BANKROLL = 10_000 / UNIT             # units: $10,000
TARGET = 0.05


@pytest.fixture(scope="module", params=QUESTIONS)
def both_ways(request):
    rules = request.param
    # the command line, as a counter runs it (its own process)
    env = child_env(COLUMNS="80")     # the bjsolve this test imports, not the source tree
    # one thread each, the two at once (one on each core): the same figures as with every
    # core (a game's figures do not depend on its threads), in half the wall time
    cli = subprocess.Popen(
        [sys.executable, "-m", "bjsolve", "game", "--rules", rules, "--indices", "i18",
         "--ramp", RAMP, "--bankroll", f"{BANKROLL:g}", "--unit", str(UNIT),
         "--target-ror", str(TARGET), "--tc-rounding", "floor", "--decks-estimation",
         "exact", "--threads", "1", "--format", "json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        # the library, with the same words
        game = bjsolve.CountedGame(bjsolve.Rules.parse(rules), "hilo", indices="i18",
                                   tc_rounding="floor", decks_estimation="exact", threads=1)
        result = game.evaluate(RAMP, bankroll=BANKROLL, unit=UNIT, target_ror=TARGET)
        stdout, stderr = cli.communicate(timeout=1800)
    finally:
        if cli.poll() is None:
            cli.kill()
            cli.wait()
    assert cli.returncode == 0, stderr
    return json.loads(stdout), game, result


def test_the_ramp_figures_are_the_same_both_ways(both_ways):
    doc, _, result = both_ways
    summary = next(t for t in doc["tables"] if t["table"] == "summary")
    figures = {r["figure"]: r for r in summary["records"]}
    python = result.summary()
    for name in ("win rate per round", "win rate per 100", "SD per round", "SD per 100",
                 "SCORE", "risk of ruin", "bankroll", "bankroll for 5% risk of ruin"):
        assert figures[name]["value"] == python[name], name
    money = result.money()
    assert figures["bankroll"]["money"] == money["bankroll"] == 10_000
    assert figures["win rate per 100"]["money"] == money["win rate per 100"]
    # SCORE is per 10,000 units of bankroll, a normalised figure: no money beside it
    assert "SCORE" not in money and figures["SCORE"]["money"] is None
    assert figures["SCORE"]["value"] == result.score and figures["risk of ruin"]["value"] == result.ror
    # what the figures must be, independently of how they were computed
    assert 0 < result.ror < 1 and result.win_rate > 0
    assert result.score == pytest.approx(1e6 * result.win_rate ** 2 / result.sd ** 2, rel=1e-12)
    assert result.bankroll_for_target > BANKROLL     # 5% needs more than 400 units (6D, 1D)


def test_the_true_count_frequencies_are_the_same_both_ways(both_ways):
    doc, game, _ = both_ways
    table = next(t for t in doc["tables"] if t["table"] == "game")
    shown = [table["values"][label]["frequency"] for label in table["rows"]]
    assert table["rows"] == [str(label) for label in game.labels]
    assert shown == [float(f) for f in game.frequency]
    assert sum(shown) == pytest.approx(1.0, abs=1e-12)
    # the notes say the conventions in the flags' words
    assert "decks estimation exact, tc rounding floor" in " ".join(table["notes"])


def test_the_flags_are_the_keywords_with_dashes():
    """Every keyword the Python call above used is a flag of 'game' (and back)."""
    from bjsolve.cli import build_parser
    _, parsers, _ = build_parser(only="game")
    flags = {f for a in parsers["game"]._actions for f in a.option_strings}
    for keyword in ("indices", "tc_rounding", "decks_estimation", "bankroll", "unit",
                    "target_ror", "trip_rounds", "penetration", "burn", "spots", "insurance",
                    "strategy", "threads", "wong_in", "depth_bands"):
        assert "--" + keyword.replace("_", "-") in flags, keyword
