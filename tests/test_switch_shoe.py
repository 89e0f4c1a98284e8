"""Blackjack Switch dealt from a counted shoe (``simulate_switch_shoe``; docs/games.md,
"Blackjack Switch", "Simulation"), checked against independent figures: the analysis' EV
and its insured law on a fresh shoe every round, the full shoe's insurance value by a
count of the cards (a fixed bet on a dealt shoe), the same seed on any number of threads,
and the counted game (slow: tests marked slow, benchmarks/bench_switch_shoe.py)."""
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from bjsolve import CountedGame, Rules
from bjsolve.exact.switch import solve_switch
from bjsolve.model.shoe import Shoe
from bjsolve.simulation.switch_shoe import simulate_switch_shoe

ROOT = Path(__file__).resolve().parent.parent
# the tests' 40-card shoe (tests/test_switch_figures.py): aces, sixes, eights and tens
FORTY = (6, 0, 0, 0, 0, 8, 0, 8, 0, 18)
NO_SPLIT = Rules.preset("blackjack-switch", max_split_hands=1)
ALWAYS = -1000        # insure at every true count (the lowest index taken)


@pytest.fixture(scope="module")
def forty():
    return solve_switch(NO_SPLIT, Shoe(list(FORTY)), threads=1)


@pytest.fixture(scope="module")
def one_deck():
    # one deck, no splitting (the decision tables take seconds: built once, for each run)
    return solve_switch(Rules.preset("blackjack-switch", decks=1, max_split_hands=1),
                        threads=1)


def test_a_fresh_shoe_every_round_gives_the_analysis_ev(forty):
    # every round shuffled afresh (a card burnt, then dealt): flat, no insurance, the
    # analysis' EV per round over its two units; the count is 0 before every round
    rounds = 1_000_000
    run = simulate_switch_shoe(forty, rounds, seed=3, penetration="every-round",
                               insurance=False, threads=2)
    assert run.rounds == run.played == run.shuffles == rounds
    assert run.total_bet == rounds and run.win_rate == pytest.approx(run.mean, abs=1e-15)
    assert abs(run.mean - forty.expected_value / 2) < 4 * run.se
    assert run.true_count_row(0).rounds == rounds
    assert run.hands >= 2 * rounds and run.exhausted == 0


def test_every_ace_insured_gives_the_insured_law(forty):
    # both hands insured against every ace, a fresh shoe every round: the analysis'
    # insured outcome law's mean (per unit bet: over two units)
    insured = forty.outcome_distribution(insurance=True, threads=1)
    run = simulate_switch_shoe(forty, 1_000_000, seed=4, penetration="every-round",
                               insurance=ALWAYS, threads=2)
    assert abs(run.mean - insured.mean / 2) < 4 * run.se
    # (insuring moves the mean: the test tells the two games apart)
    assert abs(insured.mean - forty.expected_value) / 2 > 8 * run.se


def _insurance_gain(switch, rounds, seed, insurance):
    """What insuring at ``insurance`` adds to the mean per unit bet: the same seed deals
    the same cards with and without insurance (it takes no card and changes no play), so
    the difference of the two runs is the insurance alone."""
    runs = [simulate_switch_shoe(switch, rounds, seed=seed, penetration=0.75, insurance=ins,
                                 threads=2) for ins in (False, insurance)]
    for a, b in zip(runs[0].per_true_count, runs[1].per_true_count):
        assert (a.rounds, a.played) == (b.rounds, b.played)
    return runs[1].mean - runs[0].mean


def test_insurance_on_a_dealt_shoe_is_a_fixed_bet_worth_the_full_shoes(one_deck):
    # insuring every ace is a fixed bet: by the fundamental theorem of card counting its
    # mean over the rounds of dealt shoes is the full shoe's, an ace up 4 times in 52 and
    # a ten in the hole 16 times in 51 (each hand's half unit wins 1 or loses 1/2; per
    # unit bet, over the round's two units); the SE from its second moment
    rounds = 1_000_000
    gain = _insurance_gain(one_deck, rounds, 9, ALWAYS)
    p_ace, p_ten = 4 / 52, 16 / 51
    full = p_ace * (p_ten * 1.0 - (1 - p_ten) * 0.5)
    second = p_ace * (p_ten * 1.0 + (1 - p_ten) * 0.25)
    assert abs(gain - full) < 4 * math.sqrt((second - full ** 2) / rounds)


def test_insurance_at_an_index_against_the_counted_game(one_deck):
    # both hands insured at TC >= +3 (Hi-Lo, the count after the deal): the gain against
    # the Switch counted game's.  That game's round model and insurance are the one-hand
    # game's of the rules without the swap with two spots (its insurance read after the
    # four player cards and the ace; the slow test below holds the two gains equal), which
    # is computed here in seconds rather than minutes.  The SE is bounded by every ace up
    # being insured for a whole unit's swing (E[x^2] <= 4/52).
    from bjsolve.exact.switch import game_rules
    games = [CountedGame(game_rules(one_deck.rules), "hilo", penetration=0.75, spots=2,
                         depth_bands=1, insurance=ins) for ins in (False, 3)]
    expected = float(games[1].frequency @ games[1].edge - games[0].frequency @ games[0].edge)
    rounds = 2_000_000
    gain = _insurance_gain(one_deck, rounds, 12, 3)
    assert expected > 0.0005
    assert abs(gain - expected) < 4 * math.sqrt(4 / 52 / rounds)


def test_bankroll_paths_of_one_round_are_ruined_by_a_losing_round(forty):
    # a bankroll of half a unit and paths of one round from a fresh shoe, flat 1 (half a
    # unit a hand): a path is ruined exactly when the round loses a unit or more, whose
    # chance the analysis' outcome law gives (the rounds' paths as the classic simulator
    # runs them: simulation.simulator.ruin_paths)
    law = forty.outcome_distribution(threads=1)
    lose = float(law.probabilities[law.values <= -1.0].sum())
    paths = 20_000
    run = simulate_switch_shoe(forty, 1000, seed=4, penetration="every-round",
                               insurance=False, bankroll_trials=(paths, 1, 0.5), threads=2)
    assert run.ruin.paths == paths and run.ruin.rounds_per_path == 1
    assert abs(run.ruin.risk_of_ruin - lose) < 4 * math.sqrt(lose * (1 - lose) / paths)
    # a bankroll no round can lose is never ruined
    safe = simulate_switch_shoe(forty, 1000, seed=4, insurance=False,
                                bankroll_trials=(50, 100, 10_000), threads=2)
    assert safe.ruin.ruined == 0


def test_the_same_seed_gives_the_same_result_on_any_number_of_threads(forty):
    kw = dict(penetration=0.7, ramp="-1:1,0:2,1:4", insurance=1, wong_out=-4,
              decks_estimation="half", tc_rounding="round", chunk_rounds=50_000)
    one = simulate_switch_shoe(forty, 200_000, seed=5, threads=1, **kw)
    two = simulate_switch_shoe(forty, 200_000, seed=5, threads=2, **kw)
    assert one.summary() == two.summary()
    assert one.per_true_count == two.per_true_count
    assert one.chunks == 4 and one.played < one.rounds          # wonged out at -4


def test_a_ramp_bets_the_round_half_on_each_hand(forty):
    # a flat bet of 2 (one unit a hand) doubles every round's money and leaves the
    # figures per unit bet as they are
    one = simulate_switch_shoe(forty, 100_000, seed=8, threads=1)
    two = simulate_switch_shoe(forty, 100_000, seed=8, threads=1, ramp="0:2")
    assert two.total_bet == 2 * one.total_bet == 200_000
    assert two.total_won == pytest.approx(2 * one.total_won, rel=1e-12)
    assert two.win_rate == pytest.approx(one.win_rate, rel=1e-12)
    assert one.settings["ramp"] == "flat" and "half on each hand" in one.settings["units"]


def _one_line_table(sol, index, flip):
    """A switch index table of one line: the deal (no ace-ten either way) whose keep or
    switch matters most, its analysis' choice below ``index`` and (``flip``) the other
    from it on, else the analysis' choice either side."""
    from bjsolve.counting.switch_indices import SwitchIndexLine, SwitchIndexTable
    from bjsolve.exact.switch import PAIRS
    a, b, c, e, u, prob, keep, swap, decided = sol._deals
    def ace_ten(x, y):
        return ((x == 1) & (y == 10)) | ((x == 10) & (y == 1))
    plain = decided & ~(ace_ten(a, b) | ace_ten(c, e) | ace_ten(a, e) | ace_ten(c, b))
    plain &= (a != c) & (b != e)
    k = int(np.argmax(np.where(plain, prob * np.abs(keep - swap), -1.0)))
    kept = tuple(sorted((tuple(sorted((a[k], b[k]))), tuple(sorted((c[k], e[k]))))))
    switched = tuple(sorted((tuple(sorted((a[k], e[k]))), tuple(sorted((c[k], b[k]))))))
    chosen, other = (switched, kept) if sol.switched[k] else (kept, switched)
    assert all(h in PAIRS for h in kept + switched)
    line = SwitchIndexLine(int(u[k]), chosen, other if flip else chosen, 0.0, index)
    table = SwitchIndexTable("hilo", sol.rules, 0.5, (0, 1), "floor", None, [line])
    return table, float(prob[k] * abs(keep[k] - swap[k]))


def test_keep_or_switch_indices_at_the_count(forty):
    # one keep-or-switch line: choosing as the analysis does at every count plays the
    # analysis (the same seed, the same figures); flipping to the other arrangement from a
    # count every round reaches loses, and from one no round reaches changes nothing
    kw = dict(penetration=0.7, insurance=False, threads=1)
    base = simulate_switch_shoe(forty, 200_000, seed=6, **kw)
    same, _ = _one_line_table(forty, -1000, flip=False)
    assert simulate_switch_shoe(forty, 200_000, seed=6, indices=same, **kw).summary() \
        == base.summary()
    never, _ = _one_line_table(forty, 1000, flip=True)
    assert simulate_switch_shoe(forty, 200_000, seed=6, indices=never, **kw).summary() \
        == base.summary()
    always, worth = _one_line_table(forty, -1000, flip=True)
    flipped = simulate_switch_shoe(forty, 200_000, seed=6, indices=always, **kw)
    assert "1 keep-or-switch index lines" in flipped.settings["decisions"]
    assert flipped.mean < base.mean and worth > 0
    # the lines read the round's count, before the deal: a fresh shoe every round starts
    # every round at 0 (the count after the deal, five cards seen, is mostly not 0), so
    # a line from +1 never flips and one from 0 always does
    kw["penetration"] = "every-round"
    fresh = {index: simulate_switch_shoe(forty, 100_000, seed=7,
                                         indices=_one_line_table(forty, index, True)[0],
                                         **kw).summary()
             for index in (-1000, 0, 1)}
    assert fresh[0] == fresh[-1000]
    assert fresh[1] == simulate_switch_shoe(forty, 100_000, seed=7, **kw).summary()
    assert fresh[1] != fresh[0]


@pytest.mark.parametrize("kwargs, error, field", [
    (dict(plays="all"), ValueError, "plays"),
    (dict(penetration=39), ValueError, "penetration"),
    (dict(penetration="deep"), ValueError, "penetration"),
    (dict(insurance=True), ValueError, "insurance"),
    (dict(insurance=1.5), ValueError, "insurance"),
    (dict(tc_rounding="up"), ValueError, "tc_rounding"),
    (dict(decks_estimation="some"), ValueError, "decks_estimation"),
    (dict(ramp="1:x"), ValueError, "ramp"),
    (dict(wong_in=1, wong_out=3), ValueError, "wong_out"),
    (dict(table_min=0), ValueError, "table_min"),
    (dict(burn=2), ValueError, "burn"),
    (dict(system="nosuch"), ValueError, "system|count"),
    (dict(seed=-1), ValueError, "seed"),
    (dict(threads=0), ValueError, "threads"),
    (dict(rounds=0), ValueError, "rounds"),
    (dict(bankroll_trials=(10, 10)), ValueError, "bankroll_trials"),
    (dict(bankroll_trials=(10, 10, -1)), ValueError, "bankroll"),
])
def test_bad_input_names_the_field(forty, kwargs, error, field):
    kw = dict(rounds=10, seed=1)
    kw.update(kwargs)
    with pytest.raises(error, match=field):
        simulate_switch_shoe(forty, **kw)


def test_what_is_not_switch_is_refused_by_name():
    with pytest.raises(TypeError, match="switch"):
        simulate_switch_shoe("blackjack-switch", 10)
    with pytest.raises(ValueError, match="switch"):
        simulate_switch_shoe(Rules(), 10)


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "bjsolve", "simulate", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=120, check=False)


def test_the_command_line_simulates_the_counted_shoe(one_deck, monkeypatch):
    # in this process, with the analysis of the one-deck fixture (its decision tables
    # built once for every test): the command line's reading, run and tables
    import io

    from bjsolve.cli import main
    from bjsolve.exact import switch as switch_module
    monkeypatch.setattr(switch_module, "solve_switch", lambda rules, **kw: one_deck)
    out = io.StringIO()
    code = main(["simulate", "--preset", "blackjack-switch", "--decks", "1",
                 "--max-split-hands", "1", "--rounds", "2e4", "--ramp", "1:1,2:2,3:4",
                 "--insurance", "3", "--format", "json"], out=out)
    assert code == 0
    text = out.getvalue()
    assert "counted" in text and "half on each hand" in text and "TC >= +3" in text
    json.loads(text)


@pytest.mark.parametrize("flags, word", [
    (("--spots", "2"), "--spots"), (("--plays",), "--plays"),
    (("--strategy", "optimal"), "--strategy"), (("--ramp", "1:x"), "ramp"),
])
def test_the_command_line_refuses_in_one_line(flags, word):
    out = _cli("--preset", "blackjack-switch", "--decks", "1", "--rounds", "100", *flags)
    assert out.returncode == 2
    assert word in out.stderr and len(out.stderr.strip().splitlines()) == 1, out.stderr


@pytest.mark.slow
def test_the_counted_shoe_against_the_counted_game():
    # two decks, no splitting, penetration 0.6, Hi-Lo floored, flat: the game's flat win
    # rate within 4 SE of 4 x 10^7 rounds in 40 runs (errors from the runs' spread), and
    # its edge at the counts inside its bins within 4 SE and the model's allowance: the
    # game plays each cell on its composition in whole cards, which moves the cell's
    # true count by up to half a count on two decks (+1.51 -> +0.98 at +1, +2.46 -> +2.89
    # at +2, in the last band), and the edge by up to about half of one count's step
    # (0.005 per unit bet here).  benchmarks/bench_switch_shoe.py prints every bin
    # (measured: docs/games.md; one deck: the flat win rate agrees, some counts' edges
    # are 8-12 SE apart, as the one-hand games' single-deck counted game's)
    rules = Rules.preset("blackjack-switch", decks=2, max_split_hands=1)
    game = CountedGame(rules, "hilo", penetration=0.6, tc_min=-3, tc_max=4)
    switch = solve_switch(rules)
    runs = [simulate_switch_shoe(switch, 1_000_000, seed=1000 + k, penetration=0.6)
            for k in range(40)]
    rates = np.array([r.win_rate for r in runs])
    se = rates.std(ddof=1) / math.sqrt(len(rates))
    assert abs(rates.mean() - float(game.frequency @ game.edge)) < 4 * se
    for i, label in enumerate(game.labels):
        if label.startswith(("<", ">")):
            continue
        edges = np.array([r.true_count_row(int(label)).mean for r in runs])
        se = edges.std(ddof=1) / math.sqrt(len(edges))
        assert abs(edges.mean() - game.edge[i]) < 4 * se + 0.0025, label


@pytest.mark.slow
def test_the_switch_games_insurance_gain_is_the_one_hand_games_with_two_spots():
    # what the fast test above takes the Switch counted game's insurance gain from
    from bjsolve.exact.switch import game_rules
    rules = Rules.preset("blackjack-switch", decks=1, max_split_hands=1)
    kw = dict(penetration=0.75, depth_bands=1, tc_min=-3, tc_max=4)
    switch = [CountedGame(rules, "hilo", insurance=ins, **kw) for ins in (False, 3)]
    hand = [CountedGame(game_rules(rules), "hilo", spots=2, insurance=ins, **kw)
            for ins in (False, 3)]
    gain = [float(g[1].frequency @ g[1].edge - g[0].frequency @ g[0].edge)
            for g in (switch, hand)]
    assert gain[0] == pytest.approx(gain[1], abs=1e-12)
    assert np.allclose(switch[0].frequency, hand[0].frequency, atol=1e-12)
