"""Card counting: effects of removal, linear estimates, count systems, index numbers."""
import math

import pytest

import bjsolve
from bjsolve import Rules, Shoe, solve
from bjsolve.counting.indices import generate_indices
from bjsolve.counting.removal import (
    GRIFFIN_1D_EOR,
    SYSTEMS,
    advantage_by_true_count,
    betting_correlation,
    count_tags,
    decision_effects_of_removal,
    effects_of_removal,
    estimate_ev,
    insurance_correlation,
    shoe_at_true_count,
)


@pytest.fixture(scope="module")
def eor_1d():
    return (effects_of_removal(Rules(decks=1), strategy="fixed"),
            effects_of_removal(Rules(decks=1), strategy="reoptimized"))


def test_fixed_strategy_effects_average_to_zero(eor_1d):
    fixed, reopt = eor_1d
    assert abs(fixed.weighted_mean()) < 1e-15
    # re-optimising can only help: every re-optimised effect is >= the fixed one
    for r in range(1, 11):
        assert reopt.effects[r] >= fixed.effects[r] - 1e-15
    assert reopt.weighted_mean() > 0


def test_fixed_effects_average_to_zero_with_other_rules():
    rules = Rules(decks=2, hit_soft_17=True, surrender="late", double_after_split=False)
    assert abs(effects_of_removal(rules).weighted_mean()) < 1e-15


def test_kernel_freeze_equals_a_python_frozen_strategy(eor_1d):
    """The compiled frozen decisions against the strategy-callable path (the CDZ- freezing
    rules written out in Python from the full-shoe solve)."""
    fixed, _ = eor_1d
    rules = Rules(decks=1)
    sol0 = solve(rules)

    def frozen(cards, up, allowed):
        # a split hand is played as the unsplit hand of the same composition; A,T after a
        # split is 21, which hand_ev values as the natural (stand only): stand on it too
        ev = sol0.hand_ev(cards, up, given_no_blackjack=False)
        return _best({a: ev[a] for a in allowed if a in ev})

    for r in (1, 5, 10):
        depleted = solve(rules, shoe=Shoe.decks(1).remove(r))
        assert depleted.evaluate(frozen) - sol0.expected_value == pytest.approx(
            fixed.effects[r], abs=1e-14)


def _best(values):
    best = None
    for a in ("stand", "hit", "double", "split", "surrender"):
        if a in values and (best is None or values[a] > values[best]):
            best = a
    return best


def test_one_deck_effects_look_like_griffins(eor_1d):
    # not an exact figure (Griffin's rules differ); the signs and order of size match
    fixed, _ = eor_1d
    for r, g in zip(range(1, 11), GRIFFIN_1D_EOR):
        assert abs(100 * fixed.effects[r] - g) < 0.06


@pytest.mark.parametrize("system, bc, ic", [
    ("hilo", .968, .760), ("ko", .977, .783), ("hiopt1", .875, .850), ("hiopt2", .909, .909),
    ("omega2", .917, .850), ("zen", .962, .850), ("halves", .992, .725), ("uston-apc", .904, .901),
    ("red7", .983, .780),
])
def test_correlations_with_griffins_vector(system, bc, ic):
    assert betting_correlation(system, GRIFFIN_1D_EOR) == pytest.approx(bc, abs=5e-4)
    assert insurance_correlation(system) == pytest.approx(ic, abs=5e-4)


def test_user_tag_vectors_and_bad_systems():
    assert betting_correlation((-1, 1, 1, 1, 1, 1, 0, 0, 0, -1)) == betting_correlation("hilo")
    with pytest.raises(ValueError, match="known: hilo"):
        count_tags("nosuch")
    with pytest.raises(ValueError, match="10 numbers"):
        count_tags((1, 2, 3))
    with pytest.raises(ValueError, match="finite numbers"):
        count_tags(("a",) * 10)


def test_linear_estimate_is_exact_for_one_reoptimised_removal():
    rules = Rules(decks=1)
    reopt = effects_of_removal(rules, strategy="reoptimized")
    out = estimate_ev(rules, (5,), effects=reopt)
    assert out.linear == pytest.approx(out.exact, abs=1e-15)
    # the worked example's removal in Solowiej (2024) (2 decks); the paper's own
    # finite-deck EVs are off, so only the estimate's consistency is checked
    removed = ("A", "A", 2, 2, 3, 4, 4, 4, 5, 5, 5, 7, 7, 8, "T")
    out = estimate_ev(Rules(decks=2, resplit_aces=True), removed)
    assert out.exact > out.base and out.linear > out.base
    with pytest.raises(ValueError, match="cannot remove"):
        estimate_ev(rules, ("A",) * 5)


@pytest.mark.parametrize("system", list(SYSTEMS))
@pytest.mark.parametrize("tc", [-4, 0, 3, 7])
def test_shoes_at_a_true_count(system, tc):
    tags = count_tags(system)
    full = [24] * 9 + [96]
    exact = shoe_at_true_count(system, tc, 6, whole_cards=False)
    removed = [f - c for f, c in zip(full, exact)]
    assert sum(removed) == pytest.approx(156)
    expected = 156 * sum(t * c for t, c in zip(tags, full)) / 312
    assert (sum(t * k for t, k in zip(tags, removed)) - expected) / 3 == pytest.approx(tc, abs=1e-9)
    whole = shoe_at_true_count(system, tc, 6)
    rc = sum(t * (f - c) for t, f, c in zip(tags, full, whole.counts)) - expected
    assert len(whole) == 156 and abs(rc / 3 - tc) <= 0.5 / 3 + 1e-9


# The published Hi-Lo Illustrious 18 and Fab 4 (6 decks S17 DAS peek), +-1
ILLUSTRIOUS_18 = [("16", 10, "stand", 0), ("15", 10, "stand", 4), ("TT", 5, "split", 5),
                  ("TT", 6, "split", 4), ("10", 10, "double", 4), ("12", 3, "stand", 2),
                  ("12", 2, "stand", 3), ("11", 1, "double", 1), ("9", 2, "double", 1),
                  ("10", 1, "double", 4), ("9", 7, "double", 3), ("16", 9, "stand", 5),
                  ("13", 2, "stand", -1), ("12", 4, "stand", 0), ("12", 5, "stand", -2),
                  ("12", 6, "stand", -1), ("13", 3, "stand", -2)]
FAB_4 = [("14", 10, 3), ("15", 10, 0), ("15", 9, 2), ("15", 1, 1)]


def test_hilo_illustrious_18():
    table = generate_indices(Rules(decks=6), "hilo", true_counts=range(-5, 9), tc_rounding="exact")
    assert "running count / decks remaining" in table.method()
    for row, up, play, published in ILLUSTRIOUS_18:
        got = table.index(row, up, play)
        assert got is not None and abs(got - published) <= 1, (row, up, play, got, published)
    assert abs(table.insurance - 3) <= 1
    line = table.lines[("16", 10)]
    # hard 16 v T, a two-card hand that may double (not split, no surrender): hit, then stand
    assert line.index_file_line().startswith("16 10 1 0 0 2 ")
    assert line.index_file_line().endswith(" 1 +1000")
    _check_index_file(table)


def test_hilo_fab_4():
    table = generate_indices(Rules(decks=6, surrender="late"), "hilo", true_counts=range(-3, 7),
                             tc_rounding="exact")
    for row, up, published in FAB_4:
        got = table.index(row, up, "surrender")
        assert got is not None and abs(got - published) <= 1, (row, up, got, published)
    _check_index_file(table)
    assert "15 10 1 0 1 " in table.index_file()    # hard 15 v T with surrender offered


def test_bad_index_requests():
    with pytest.raises(ValueError, match="finite"):
        generate_indices(Rules(decks=math.inf))
    with pytest.raises(ValueError, match="known"):
        generate_indices(Rules(decks=6), "nosuch")


def _check_index_file(table):
    """Every line parses as ``count up dbl spl sur p1 tc1 ... pk +1000``; one line per
    situation (total, upcard, options); thresholds non-decreasing."""
    seen = set()
    text = table.index_file()
    for line in text.splitlines():
        f = line.split()
        count, up, flags = int(f[0]), int(f[1]), tuple(int(x) for x in f[2:5])
        assert -21 <= count <= 21 and 1 <= up <= 10 and set(flags) <= {0, 1}
        assert f[-1] == "+1000" and len(f) % 2 == 1
        plays, tcs = [int(x) for x in f[5::2]], [int(x) for x in f[6:-1:2]]
        assert set(plays) <= {1, 2, 3, 4, 5} and tcs == sorted(tcs)
        assert (count, up, flags) not in seen, line
        seen.add((count, up, flags))
        if 3 in plays:
            assert flags[0] == 1
        if 4 in plays:
            assert flags[1] == 1
        if 5 in plays:
            assert flags[2] == 1
    # a pair and the same hard total are different situations (4,4 v 2 and 8 v 2)
    assert any(line.startswith("8 2 1 1 ") for line in text.splitlines())
    assert any(line.startswith("8 2 1 0 ") for line in text.splitlines())
    assert any(line.startswith("16 10 0 0 0 ") for line in text.splitlines())


def test_top_level_api():
    assert bjsolve.effects_of_removal is effects_of_removal
    assert bjsolve.estimate_ev is estimate_ev


def test_decision_effects_of_removal_against_depleted_solves():
    """Per-decision EORs equal differences of Solution.hand_ev on depleted shoes, and for
    the fixed plays stand and double the EORs average to zero over the cards left
    (the fundamental theorem for one decision)."""
    rules = Rules(decks=1, surrender="late")
    d = decision_effects_of_removal(rules, (10, 6), 10)
    base = solve(rules).hand_ev((10, 6), 10)
    assert d.given_no_blackjack and d.values == pytest.approx(dict(base), abs=1e-14)
    five = solve(rules, shoe=Shoe.decks(1).remove(5)).hand_ev((10, 6), 10)
    assert d.difference("stand", "hit")[5] == pytest.approx(
        (five["stand"] - five["hit"]) - (base["stand"] - base["hit"]), abs=1e-14)
    d6 = decision_effects_of_removal(Rules(decks=1), (9, 2), 6)
    left = Shoe.decks(1).remove(9, 2, 6).counts
    for action in ("stand", "double"):
        mean = sum(left[r - 1] * v for r, v in d6.effects[action].items()) / sum(left)
        assert abs(mean) < 1e-15
    with pytest.raises(ValueError, match="not an option"):
        d6.difference("split", "hit")


# J. Solowiej, "Finding Blackjack's Optimal Strategy in Real-time and Player's Expected
# Win" (2024), Table 4 (2 decks, DAS, resplits allowed): effect of removal
# in percent, and its worked example (cards A,A,2,2,3,4,4,4,5,5,5,7,7,8,T removed): linear
# estimate 0.01965 from Table 4 by plain summation.
SOLOWIEJ_2D_EOR = (-.316, .187, .216, .289, .373, .209, .134, -.010, -.097, -.236)
SOLOWIEJ_REMOVED = ("A", "A", 2, 2, 3, 4, 4, 4, 5, 5, 5, 7, 7, 8, "T")


def test_solowiej_worked_example():
    rules = Rules(decks=2, resplit_aces=True, max_split_hands=4)
    # the paper's own EOR vector, summed as the paper does (its 0.01965; Table 4 is rounded
    # to 0.001 %, 15 cards: +-7.5e-5)
    out = estimate_ev(rules, SOLOWIEJ_REMOVED, effects=[v / 100 for v in SOLOWIEJ_2D_EOR], base=0.0,
                      rescale=False, exact=False)
    assert out.linear_change == pytest.approx(0.01965, abs=1e-4)
    # our own fixed-strategy EORs for these rules agree with Table 4 (the paper's finite-deck
    # EVs are off by a constant; its effects of removal are close)
    fixed = effects_of_removal(rules)
    for r, paper in zip(range(1, 11), SOLOWIEJ_2D_EOR):
        assert 100 * fixed.effects[r] == pytest.approx(paper, abs=0.025), r
    mine = estimate_ev(rules, SOLOWIEJ_REMOVED, effects=fixed, rescale=False)
    assert mine.linear_change == pytest.approx(0.01965, abs=5e-4)
    # the exact EV of the depleted shoe is an independent solve
    assert mine.exact == solve(rules, shoe=Shoe.decks(2).remove(*SOLOWIEJ_REMOVED)).expected_value


def test_true_count_zero_is_the_proportional_shoe():
    """A balanced count at TC 0 with half of 2 decks dealt leaves exactly one deck's
    proportions: exact = the 1-deck solve; linear = the 2-deck EV (fixed EORs, fundamental
    theorem)."""
    rules = Rules(decks=2)
    res = advantage_by_true_count(rules, "hilo", true_counts=[0, 4])
    exact, linear = res[0]
    assert exact == pytest.approx(solve(Rules(decks=1)).expected_value, abs=1e-13)
    assert linear == pytest.approx(solve(rules).expected_value, abs=1e-13)
    assert res[4][0] > res[0][0] and res[4][1] > res[0][1]
    assert res[0].exact == exact and res[0].linear == linear     # named fields


def test_user_eor_vectors_and_bad_input(eor_1d):
    fixed, reopt = eor_1d
    assert betting_correlation("hilo", reopt) == betting_correlation("hilo", reopt.as_vector())
    assert betting_correlation("hilo", [100 * v for v in GRIFFIN_1D_EOR]) == pytest.approx(
        betting_correlation("hilo"), abs=1e-15)   # any unit
    for bad, match in ((GRIFFIN_1D_EOR[:9], "10 numbers"), ("x" * 10, "10 numbers"),
                       ([None] * 10, "finite numbers"), ([math.nan] * 10, "finite")):
        with pytest.raises(ValueError, match=match):
            betting_correlation("hilo", bad)
    with pytest.raises(ValueError, match="no A left"):
        effects_of_removal(Rules(decks=1), shoe=Shoe.decks(1).remove("A", "A", "A", "A"))
    with pytest.raises(ValueError, match="cannot remove"):
        estimate_ev(Rules(decks=1), ("5",) * 5, effects=fixed)
    with pytest.raises(ValueError, match="known: hilo"):
        advantage_by_true_count(Rules(decks=1), "nosuch")
    with pytest.raises(ValueError, match="10 numbers"):
        advantage_by_true_count(Rules(decks=1), (1, 2, 3))


# ---- command line (the counting commands) -----------------------------------------------

def _run(*argv):
    import io

    from bjsolve.__main__ import main
    out = io.StringIO()
    return main(list(argv), out), out.getvalue()


def test_cli_counts_one_system_or_all():
    code, text = _run("counts", "--decks", "1", "--system", "hilo", "--format", "csv")
    assert code == 0 and text.count("\n") - text.count("# ") == 2   # header + Hi-Lo
    code, text = _run("counts", "--decks", "1", "--system=-1,1,1,1,1,1,0,0,0,-1",
                      "--eor=-0.61,0.38,0.44,0.55,0.69,0.46,0.28,0,-0.18,-0.51", "--format", "json")
    import json
    table = json.loads(text)
    (row,) = table["values"].values()
    # the user EOR vector is Griffin's: BC is the published Hi-Lo .968 (to 3 places)
    assert row["BC"] == pytest.approx(.968, abs=5e-4) and row["IC"] == pytest.approx(.760, abs=5e-4)


def test_cli_tc_advantage_and_index_file_state_their_method():
    code, text = _run("tc-advantage", "--decks", "1", "--system", "hilo")
    assert code == 0
    assert "running count / decks remaining" in text and "0.5 decks dealt" in text
    rows = [line.split()[0] for line in text.splitlines()
            if not line.startswith(("#", "=")) and "exact" not in line]
    assert rows == [f"{tc:+d}" for tc in range(-5, 11)]


@pytest.mark.parametrize("argv, match", [
    (("counts", "--system", "nosuch"), "known: hilo, ko, hiopt1"),
    (("indices", "--system", "1,2"), "10 numbers"),
    (("tc-advantage", "--system", "1,2,3,4,5,6,7,8,9,x"), "10 comma-separated numbers"),
    (("counts", "--eor", "1,2"), "10 finite numbers"),
    (("eor", "--decks", "1", "--remove", "A,A,A,A"), "no A left"),
    (("eor", "--decks", "1", "--remove", "5,5,5,5,5"), "cannot remove"),
    (("eor", "--infinite"), "finite shoe"),
    (("eor", "--format", "index"), "indices"),
])
def test_cli_bad_counting_input(argv, match, capsys):
    code, text = _run(*argv)
    err = capsys.readouterr().err
    assert code == 2 and text == "" and err.count("\n") == 1 and match in err, err


def test_progress_bar_only_on_a_terminal(capsys):
    from bjsolve.cli.common import progress

    with progress(None, total=3, label="indices") as update:    # stderr is not a terminal
        for i in range(1, 4):
            update(i, 3)
    assert capsys.readouterr().err == ""


# Published playing efficiencies (Griffin's method, The Theory of Blackjack).
PUBLISHED_PE = {"hilo": .51, "ko": .55, "hiopt1": .61, "hiopt2": .67, "omega2": .67,
                "zen": .63, "halves": .57, "uston-apc": .69}


def test_playing_efficiency_reproduces_griffins_published_values():
    """Our single-deck per-decision EORs in Griffin's gain ratio give the published PE of
    every system to within 0.035, and keep their order where the published ones differ
    by more than that."""
    from bjsolve.counting.removal import decision_effects, playing_efficiency
    shoe = Shoe.decks(1)
    decisions = decision_effects(Rules(decks=1), shoe=shoe)
    ours = {name: playing_efficiency(name, decisions, shoe=shoe) for name in PUBLISHED_PE}
    for name, published in PUBLISHED_PE.items():
        assert abs(ours[name] - published) < 0.035, (name, ours[name], published)
    assert ours["hilo"] < ours["halves"] < ours["zen"] < ours["hiopt2"]


def test_playing_efficiency_bad_input():
    from bjsolve.counting.removal import playing_efficiency
    with pytest.raises(ValueError, match="dealt_fraction"):
        playing_efficiency("hilo", [], shoe=Shoe.decks(1), dealt_fraction=1.0)
    with pytest.raises(ValueError, match="all equal"):
        playing_efficiency([1] * 10, [], shoe=Shoe.decks(1))


def test_effects_of_removal_are_a_mapping_keyed_by_rank(eor_1d):
    """list(eor) and dict(eor) raised 'rank: 0 is not a rank' (a __getitem__ and no
    __iter__: Python iterated it by asking eor[0], eor[1], ...)."""
    from collections.abc import Mapping
    fixed, reopt = eor_1d
    assert isinstance(fixed, Mapping)
    assert list(fixed) == list(fixed.keys()) == list(range(1, 11)) and len(fixed) == 10
    assert dict(fixed) == fixed.effects and dict(fixed.items()) == fixed.effects
    assert tuple(fixed.values()) == fixed.as_vector()
    assert fixed["A"] == fixed[1] == fixed.effects[1] and fixed["K"] == fixed["T"] == fixed[10]
    assert "A" in fixed and 10 in fixed and 0 not in fixed and "X" not in fixed
    assert "AK" not in fixed and (1, 10) not in fixed    # two cards are not a rank
    assert [r for r, _ in reopt.items()] == list(range(1, 11))
    with pytest.raises(ValueError, match="rank: 0 is not a rank"):
        fixed[0]
    # equality stays the result's (the strategies' effects differ)
    assert fixed == fixed and fixed != reopt
