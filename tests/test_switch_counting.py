"""Blackjack Switch's counting: its index numbers (the plays and keep-or-switch) and its
counted game (docs/games.md, "Blackjack Switch"), checked against independent figures:
the uncounted analysis (an identity), the compiled simulation of the real round, and the
one-hand game's solver on the shoes either side of an index."""
import copy
import dataclasses
import itertools
import math
from fractions import Fraction
from itertools import pairwise
from types import SimpleNamespace

import numpy as np
import pytest
from bjsolve import CountedGame, Rules, solve
from bjsolve.counting.removal import shoe_at_true_count, true_count_shoes
from bjsolve.counting.switch_indices import switch_indices
from bjsolve.exact.engines import make_engine
from bjsolve.exact.game_law import law_arrays
from bjsolve.exact.kernel_rules import SPLIT_CLASSES, kernel_rules
from bjsolve.exact.switch import ACTION_NAMES, PAIRS, game_rules, solve_switch
from bjsolve.exact.switch_removal import frozen_engine
from bjsolve.model.deal import hand_limit
from bjsolve.model.hands import PAIR_CODES, total_code
from bjsolve.risk.game import SwitchCountedGame
from bjsolve.risk.switch_game import _play_index_table
from bjsolve.simulation.switch_compiled import SwitchTables, simulate_switch_compiled

# one deck without splitting: every Switch rule of the preset, small and quick
RULES = Rules.preset("blackjack-switch").replace(decks=1, max_split_hands=1)
ROUNDS = 1 << 17      # per true count against the simulation (the long runs: benchmarks/)


class CheckedSwitchGame(SwitchCountedGame):
    check_ev_paths = True     # each cell's frozen EV two ways (the EV engines, the law)


# insure both hands at every true count (the lowest index a game takes): a fixed bet,
# whose gain the fundamental theorem makes the full shoe's
ALWAYS = -1000


@pytest.fixture(scope="module")
def game():
    # round starts as random depletions (no round-length correction): the fundamental
    # theorem then makes the flat bettor's figures the full shoe's exactly
    return CheckedSwitchGame(RULES, "hilo", penetration=0.6, depth_bands=1, tc_min=0,
                             tc_max=1, round_length_correction=False, insurance=ALWAYS)


@pytest.fixture(scope="module")
def analysis(game):
    # the analysis the game was made from (solve_switch: its own engines, not the frozen
    # policy engines the game's figures come from)
    return game.switch_solution


@pytest.fixture(scope="module")
def indices():
    return switch_indices(RULES, "hilo", true_counts=range(-2, 5))


# ---- the counted game ---------------------------------------------------------------------

def test_the_counted_game_of_switch_rules_is_the_switch_game(game):
    assert type(CountedGame.__new__(CountedGame, RULES)) is SwitchCountedGame
    assert sum(game.frequency) == pytest.approx(1.0, abs=1e-12)
    assert np.array_equal(game.edge_per_round, 2 * game.edge)
    assert np.array_equal(game.variance_per_round, 4 * game.variance)
    # the edge rises with the count (Hi-Lo: the high cards left help the player)
    assert game.edge[0] < game.edge[-1]


def test_a_flat_bettor_gets_the_uncounted_analysis(game, analysis):
    # per unit bet (the round's result over its two units): the mean is the analysis'
    # EV per hand plus what insuring both hands against every ace is worth per unit, by
    # a count of the cards: an ace up 4 times in 52, a ten in the hole 16 times in 51
    # (each hand's half unit wins 1 or loses 1/2); the second moment the outcome
    # distribution's E[X^2] / 4 (insurance is in the edge, not in the SD), to 1e-12
    flat = game.evaluate({0: 1})
    insurance = 4 / 52 * (16 / 51 * 1 - 35 / 51 * 0.5)
    assert flat.win_rate == pytest.approx(analysis.expected_value / 2 + insurance,
                                          abs=1e-12)
    assert analysis.insurance_value / 2 == pytest.approx(insurance, abs=1e-15)
    dist = analysis.outcome_distribution()
    second = float(dist.probabilities @ dist.values ** 2) / 4
    assert flat.variance + flat.win_rate ** 2 == pytest.approx(second, abs=1e-12)
    assert any(note.startswith("insurance: both hands at TC >= -1000") and
               "not in the SD" in note for note in game.notes())
    # insurance is decided on the count after the four player cards and the ace
    # (tests/test_switch_insurance_gains.py checks the gains of that deal)
    assert game.insurance_cards == 4


def test_the_frozen_round_law_has_the_frozen_ev(game):
    # two paths to the EV of the full shoe's decisions on every cell's shoe: the EV
    # engines' values (the fixed effects of removal's) and the round law's mean
    assert game.ev_path_gap < 1e-12


def test_each_true_count_against_the_compiled_simulation(game):
    # the simulator has no dealt-down Switch shoe: it plays each true count's cell
    # composition, round by round from that shoe, by the full shoe's decisions (the
    # tables of the analysis), against the cell's exact EV and SD (before calibration)
    tables = SwitchTables(game.switch_solution)
    for n, ((i, j), (joint, values)) in enumerate(sorted(game.cell_laws.items())):
        shoe = game.cell_shoe(game._band_seen[:, i, j])
        tables.shoe = np.array(shoe.counts, dtype=np.int32)
        run = simulate_switch_compiled(game.switch_solution, ROUNDS, seed=31 + n,
                                       tables=tables)
        assert abs(run.mean - 2 * game.chart_edge[i, j]) < 4 * run.standard_error
        totals = values[:, None] + values[None, :]
        mean = float((joint * totals).sum())
        var = float((joint * (totals - mean) ** 2).sum())
        mu4 = float((joint * (totals - mean) ** 4).sum())
        se_sd = math.sqrt((mu4 - var ** 2) / ROUNDS) / (2 * math.sqrt(var))
        assert abs(run.sd - math.sqrt(var)) < 4 * se_sd


def test_what_the_switch_game_does_not_play_is_refused_by_name():
    # the one-hand game's index sets are not Switch's keep-or-switch indices
    with pytest.raises(ValueError, match="indices: Blackjack Switch plays its keep-or-switch"):
        CountedGame(RULES, strategy="indices", indices="i18")
    with pytest.raises(ValueError, match="indices: strategy 'indices' needs"):
        CountedGame(RULES, strategy="indices")
    with pytest.raises(ValueError, match="insurance must be a whole true count, False "
                                         "\\(never\\) or None .* got True"):
        CountedGame(RULES, insurance=True)
    with pytest.raises(ValueError, match="insurance must be a whole number .* got 2.5"):
        CountedGame(RULES, insurance=2.5)
    with pytest.raises(ValueError, match="spots"):
        CountedGame(RULES, spots=2)
    with pytest.raises(NotImplementedError, match="sidebet"):
        CountedGame(RULES, sidebet="21+3")
    # the hands' play indices: the field named, the value and what is allowed
    with pytest.raises(ValueError, match="plays: 'xyz' is neither an index file"):
        CountedGame(RULES, plays="xyz")
    with pytest.raises(ValueError, match="plays: strategy 'optimal' plays no index plays"):
        CountedGame(RULES, strategy="optimal", plays="i18")
    with pytest.raises(ValueError, match=r"plays: an index table of another count .* \(ko, "):
        CountedGame(RULES, plays=SimpleNamespace(lines={}, insurance=None, system="ko",
                                                 rules=game_rules(RULES)))
    with pytest.raises(ValueError, match="plays: an index table of other rules"):
        CountedGame(RULES, plays=SimpleNamespace(lines={}, insurance=None, rules=Rules()))


# ---- the counted game with the keep-or-switch indices ---------------------------------------

@pytest.fixture(scope="module")
def indexed_game(indices):
    # the game above with the keep-or-switch indices and the hands' play indices played
    # (the cell at TC +1 departs from the frozen play on a few lines; at TC 0 no line
    # departs from its play at TC 0)
    # (no insurance: the simulation it is held to does not insure)
    return CheckedSwitchGame(RULES, "hilo", penetration=0.6, depth_bands=1, tc_min=0,
                             tc_max=1, round_length_correction=False, indices=indices,
                             plays=indices.plays, insurance=False)


def _order_free(h1, h2) -> tuple:
    return tuple(sorted((tuple(sorted(map(int, h1))), tuple(sorted(map(int, h2))))))


def test_each_cell_switches_as_the_index_lines_say(indexed_game, indices):
    # a sample of the deals, each read back through the table's own reader
    # (``switch_index``: the line of a deal's two hands): the line's choice at the cell's
    # true count, or the full shoe's choice when the deal has no line
    deals = indexed_game.switch_solution._deals
    a, b, c, e, u, _, keep, swap, decided = deals
    full_shoe = decided & (swap > keep)
    rng = np.random.default_rng(5)
    assert indexed_game.strategy == "indices" and indexed_game.indices is indices
    for (i, _), chosen in indexed_game.cell_switches.items():
        tc = indexed_game.tc_values[i]
        differ = np.flatnonzero(chosen != full_shoe)
        assert differ.size > 0
        sample = np.concatenate([differ[:150],
                                 rng.choice(np.flatnonzero(decided), 600, replace=False)])
        for k in sample.tolist():
            hand1, hand2 = (int(a[k]), int(b[k])), (int(c[k]), int(e[k]))
            line = indices.switch_index(hand1, hand2, int(u[k]))
            if line is None:
                assert chosen[k] == full_shoe[k]
                continue
            wanted = line.above if tc >= line.index else line.below
            switched = _order_free((hand1[0], hand2[1]), (hand2[0], hand1[1]))
            assert chosen[k] == (switched == wanted)


def test_each_true_count_with_the_indices_against_the_compiled_simulation(indexed_game):
    # the simulator switching each cell's deals as the indices do, against the cell's
    # exact EV and SD with those choices
    game = indexed_game
    assert game.ev_path_gap < 1e-12        # the EV engines' EV and the law's mean agree
    full_shoe = SwitchTables(game.switch_solution)
    assert game.cell_plays      # (some cell departs from the frozen play)
    for n, ((i, j), (joint, values)) in enumerate(sorted(game.index_cell_laws.items())):
        # the hands' plays of the cell's play indices where they depart, in the tables
        tables = (full_shoe.with_plays(game.cell_plays[(i, j)]) if (i, j) in game.cell_plays
                  else copy.copy(full_shoe))
        shoe = game.cell_shoe(game._band_seen[:, i, j])
        tables.shoe = np.array(shoe.counts, dtype=np.int32)
        tables.switches = np.ascontiguousarray(game.cell_switches[(i, j)].astype(np.uint8))
        run = simulate_switch_compiled(game.switch_solution, ROUNDS, seed=71 + n,
                                       tables=tables)
        assert abs(run.mean - 2 * game.band_edge[i, j]) < 4 * run.standard_error
        totals = values[:, None] + values[None, :]
        mean = float((joint * totals).sum())
        assert mean == pytest.approx(2 * game.band_edge[i, j], abs=1e-12)
        var = float((joint * (totals - mean) ** 2).sum())
        mu4 = float((joint * (totals - mean) ** 4).sum())
        se_sd = math.sqrt((mu4 - var ** 2) / ROUNDS) / (2 * math.sqrt(var))
        assert abs(run.sd - math.sqrt(var)) < 4 * se_sd


def _hand_law_mean(engine, a: int, b: int) -> float:
    """The mean of a two-card hand's round law on ``engine`` (unconditioned): the value of
    the first action its policy holds."""
    values, law = law_arrays(engine.round_law_entries(a, b))
    return float(law.sum(axis=0) @ values)


def test_each_cells_hands_play_the_index_lines_at_its_count(indexed_game, indices):
    # read back from a cell's policy engines (the full shoe's frozen decisions with the
    # cell's departures set in): a two-card hand's round law has the mean of the play it
    # holds, which is the value of the play the index line gives at the cell's count
    # (IndexLine.play_at) where that departs from the line's play at TC 0, and the full
    # shoe's first action (the analysis' table) everywhere else
    game = indexed_game
    base = game.switch_solution
    plays = indices.plays
    params = kernel_rules(game_rules(RULES), SPLIT_CLASSES[base.split])
    cell, departures = next(iter(game.cell_plays.items()))
    tc = float(game.tc_values[cell[0]])
    departing = {(line.row, line.dealer): line.play_at(tc) for line in plays.all_lines
                 if line.play_at(tc) != line.play_at(0) and len(line.options) == 3}
    assert departing and tc == 1
    shoe = game.cell_shoe(game._band_seen[:, cell[0], cell[1]])
    rng = np.random.default_rng(3)
    checked = changed = 0
    for up in sorted({up for _, up in departing}):
        for o in rng.choice(len(PAIRS), 3, replace=False).tolist():
            source = make_engine(params, base.shoe.remove(*PAIRS[o]), up)
            source.freeze_decisions()
            engine = frozen_engine(base, shoe, o, up, source)
            departures.apply(engine, up, hand_limit(base.shoe, up))
            for h, (a, b) in enumerate(PAIRS):
                counts = [0] * 10
                counts[a - 1] += 1
                counts[b - 1] += 1
                left = np.array(shoe.counts) - counts
                for x in (*PAIRS[o], up):
                    left[x - 1] -= 1
                if (a, b) == (1, 10) or left.min() < 0:
                    continue
                stand, hit, double, _ = engine.hand_values(counts)
                value = {"stand": stand, "hit": hit, "double": double}
                play = departing.get((total_code((a, b)), up))
                if play is None:
                    play = ACTION_NAMES[base.table.action[up - 1, o, h]]
                else:
                    changed += 1
                assert _hand_law_mean(engine, a, b) == pytest.approx(value[play], abs=1e-12)
                checked += 1
    assert changed > 0 and checked > 100


def test_the_play_indices_are_read_as_the_one_hand_games_read_theirs(indices):
    # with a switch index table the sets are cut from its own play indices; an
    # IndexTable of the hands' rules is itself; a number N keeps the N lines of largest gain
    assert _play_index_table(True, RULES, "hilo", "floor", indices, None) is indices.plays
    assert _play_index_table(["all"], RULES, "hilo", "floor", indices, None) is indices.plays
    five = _play_index_table("5", RULES, "hilo", "floor", indices, None)
    by_gain = sorted(indices.plays.gains, key=lambda k: -indices.plays.gains[k])
    assert set(five.lines) == set(by_gain[:5])
    assert _play_index_table(indices.plays, RULES, "hilo", "floor", None, None) is indices.plays


def test_with_no_play_index_lines_the_game_is_todays(game, indices):
    # the hands' play indices with no line: every figure is the basic game's, bit for bit
    # (insurance not given: the play indices' insurance index is taken, here the fixture's)
    no_lines = dataclasses.replace(indices.plays, lines={}, all_lines=[], insurance=ALWAYS)
    same = CheckedSwitchGame(RULES, "hilo", penetration=0.6, depth_bands=1, tc_min=0,
                             tc_max=1, round_length_correction=False, plays=no_lines)
    assert same.insurance == ALWAYS
    assert same.strategy == "indices" and same.cell_plays == {}
    assert any("the 0 play-index lines' plays" in note for note in same.notes())
    for name in ("band_edge", "band_second", "chart_edge", "edge", "variance", "frequency"):
        assert np.array_equal(getattr(same, name), getattr(game, name)), name


# ---- the indices --------------------------------------------------------------------------

def _around(line_gaps: dict, crossing: float) -> tuple:
    """The grid true counts either side of a crossing."""
    below = max(t for t in line_gaps if t <= crossing)
    above = min(t for t in line_gaps if t > crossing)
    return below, above


def _arrangement_value(shoe, hands, up) -> float:
    """Both hands' best values given no dealer natural, each solved by the one-hand
    game's solver on the shoe with the other hand's cards out (all five cards out)."""
    total = 0.0
    for hand, other in ((hands[0], hands[1]), (hands[1], hands[0])):
        sol = solve(game_rules(RULES), shoe=shoe.remove(*other), threads=1)
        values = sol.hand_ev(hand, up, given_no_blackjack=True)
        total += max(values.values())
    return total


def test_a_switch_index_by_brute_force(indices):
    # the line of largest gain without an ace-ten (a switched one is a 21, valued apart)
    line = next(x for x in indices.switch_lines
                if (1, 10) not in x.below + x.above and len(x.gaps) >= 2)
    lo, hi = _around(line.gaps, line.crossing)
    for tc, sign in ((lo, -1), (hi, +1)):
        shoe = shoe_at_true_count("hilo", tc, 1, dealt_decks=indices.dealt_decks)
        gap = (_arrangement_value(shoe, line.above, line.upcard)
               - _arrangement_value(shoe, line.below, line.upcard))
        assert gap * sign > 0
        assert gap == pytest.approx(line.gaps[tc], abs=1e-9)
    assert lo < line.crossing <= hi
    assert indices.switch_index(line.below[0], line.below[1], line.upcard) in (line, None)


def test_a_play_index_by_brute_force(indices):
    # a soft row is one hand (an ace and its other card): its two plays' values on the
    # shoes either side of the crossing, from the one-hand game's solver, change sign there
    plays = indices.plays
    key, line = next((k, x) for k, x in sorted(plays.lines.items())
                     if k[0].startswith("A") and k[0] not in PAIR_CODES and len(x.plays) == 2)
    row, up = key
    cards = (1, int(row[1]))
    old, new = line.plays
    lo, hi = math.floor(line.crossings[0]), math.floor(line.crossings[0]) + 1
    shoes, _ = true_count_shoes(game_rules(RULES), "hilo", (lo, hi), plays.dealt_decks)
    gaps = []
    for tc in (lo, hi):
        values = solve(game_rules(RULES), shoe=shoes[tc], threads=1).hand_ev(cards, up)
        gaps.append(values[new] - values[old])
    assert gaps[0] < 0 < gaps[1]
    assert plays.index(row, up, new) == line.thresholds[0]


def test_each_line_chooses_as_the_analysis_it_was_made_from(indices):
    # on the grid shoes the switch lines were made from, every deal of a line whose
    # crossing lies a whole true count or more away (beyond the true-count convention's
    # rounding) and whose gaps change sign once is kept or switched as that shoe's own
    # analysis chooses (ties aside), the deals with an ace-ten included: one dealt is a
    # natural, one made by the switch a 21, so the same two arrangements dealt either way
    # round are two deals (one line each; one line for both switched naturals away)
    base = solve_switch(RULES)
    a, b, c, e, u = base._deals[:5]
    for tc in (0, 3):
        shoe = shoe_at_true_count("hilo", tc, 1, dealt_decks=indices.dealt_decks)
        own = solve_switch(RULES, shoe)
        assert all(np.array_equal(x, y) for x, y in zip(own._deals[:5], base._deals[:5]))
        keep, swap, decided = own._deals[6:]
        chosen = indices.switches_at(base._deals, base.switched, float(tc))
        # each line found by its deal: its two arrangements, upcard and (with an ace-ten)
        # the arrangement dealt
        lines = {}
        for line in indices.switch_lines:
            signs = [g > 0 for _, g in sorted(line.gaps.items())]
            if abs(line.crossing - tc) >= 1 and sum(x != y for x, y in pairwise(signs)) == 1:
                lines[(frozenset((line.below, line.above)), line.upcard, line.dealt)] = line
        checked = naturals = 0
        for k in np.flatnonzero(decided & (np.abs(swap - keep) > 1e-12)).tolist():
            kept = _order_free((a[k], b[k]), (c[k], e[k]))
            switched = _order_free((a[k], e[k]), (c[k], b[k]))
            pair, up = frozenset((kept, switched)), int(u[k])
            line = lines.get((pair, up, None)) or lines.get((pair, up, kept))
            if line is None:
                continue
            assert chosen[k] == own.switched[k], (line.text(), tc, k)
            checked += 1
            naturals += line.dealt is not None
        assert checked > 1000 and naturals > 0


def _insurance_ev_by_enumeration(counts) -> Fraction:
    """3 P(ten in the hole) - 1 with the ace out, averaged over every draw of the four
    player cards from the rest (grouped by their ranks, any order), in fractions: the
    counts may be fractional (the hypergeometric weights are polynomials in them)."""
    left = [Fraction(c) for c in counts]
    left[0] -= 1
    size = sum(left)
    total = Fraction(0)
    for cards in itertools.combinations_with_replacement(range(10), 4):
        take = [cards.count(r) for r in range(10)]
        w = Fraction(math.factorial(4), math.prod(math.factorial(t) for t in take))
        for r, t in enumerate(take):
            for i in range(t):
                w *= left[r] - i
        for i in range(4):
            w /= size - i
        total += w * (3 * (left[9] - take[9]) / (size - 4) - 1)
    return total


def test_the_insurance_index_where_the_insurance_ev_changes_sign(indices):
    # on the play indices' shoes (exactly at each true count), the insurance EV with the
    # ace and the four player cards out, counted in fractions; the index is where it
    # turns >= 0, the crossing linear between the grid counts either side, made whole
    # for floored true counts
    shoes, _ = true_count_shoes(game_rules(RULES), "hilo", indices.true_counts,
                                indices.dealt_decks)
    evs = {tc: _insurance_ev_by_enumeration(shoe.counts) for tc, shoe in shoes.items()}
    above = min(tc for tc, ev in evs.items() if ev >= 0)
    below = max(tc for tc in evs if tc < above)
    crossing = below + (above - below) * float(-evs[below] / (evs[above] - evs[below]))
    assert evs[below] < 0
    assert indices.insurance_crossing == pytest.approx(crossing, abs=1e-9)
    assert indices.insurance == math.ceil(crossing - 0.5 - 1e-9)
    # the play indices carry it (their index file's "insurance:" line, the counted
    # game's default); the player's four unseen cards leave the ten's chance as it was,
    # so it is the one-hand game's index on the same shoes
    assert indices.plays.insurance == indices.insurance
    from bjsolve.counting.indices import insurance_index
    assert insurance_index(shoes, "floor")[0] == indices.insurance


def test_the_insurance_index_goes_through_the_index_file(indices, tmp_path):
    # bjsolve indices --format index writes the play indices' file with the Switch
    # insurance line; read back as the hands' play indices it gives the counted game's
    # default insurance
    import io

    from bjsolve.cli import main
    out = io.StringIO()
    assert main(["indices", "--preset", "blackjack-switch", "--decks", "1",
                 "--max-split-hands", "1", "--format", "index"], out=out) == 0
    text = out.getvalue()
    assert f"# insurance: take at TC >= {indices.insurance:+d}" in text
    path = tmp_path / "switch.idx"
    path.write_text(text)
    table = _play_index_table(str(path), RULES, "hilo", "floor", None, None)
    assert table.insurance == indices.insurance


def test_the_switch_indices_read_back(indices):
    assert indices.switch_lines
    gains = [line.gain for line in indices.switch_lines]
    assert gains == sorted(gains, reverse=True)
    for line in indices.switch_lines[:20]:
        # below the crossing the arrangement "below" is the better, from it on "above"
        lo, hi = _around(line.gaps, line.crossing)
        assert line.gaps[lo] < 0 < line.gaps[hi]
        # floored true counts: the smallest k whose bin [k, k + 1) has its middle at or
        # beyond the crossing
        assert line.index == math.ceil(line.crossing - 0.5 - 1e-9)
        # the deal is found from its hands in the order dealt (first card, second card):
        # one order of each hand's cards makes the swap give the other arrangement
        (a, b), (c, e) = line.below
        found = {indices.switch_index(h1, h2, line.upcard)
                 for h1 in ((a, b), (b, a)) for h2 in ((c, e), (e, c))}
        assert line in found


def test_the_command_line_refuses_what_switch_does_not_take_in_one_line(capsys):
    import io

    from bjsolve.cli import main
    for argv, word in ((["indices", "--preset", "blackjack-switch", "--set", "i18"], "--set"),
                       (["indices", "--preset", "blackjack-switch", "--risk-averse"],
                        "--risk-averse"),
                       (["game", "--preset", "blackjack-switch", "--insurance", "3.5"],
                        "--insurance"),
                       (["game", "--preset", "blackjack-switch", "--plays", "xyz"], "--plays"),
                       (["game", "--preset", "blackjack-switch", "--plays", "i18",
                         "--strategy", "optimal"], "--plays"),
                       (["game", "--decks", "1", "--plays"], "--plays")):
        assert main(argv, out=io.StringIO()) == 2
        err = capsys.readouterr().err
        assert word in err and len(err.strip().splitlines()) == 1
