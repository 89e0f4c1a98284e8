"""Regression tests for the counting defects found by fuzzing, and for the shared per-shoe
values that let the counting tools reuse solves."""
import math
import subprocess
import sys
import threading

import pytest

from bjsolve import Rules, Shoe, solve
from bjsolve.counting.indices import generate_indices
from bjsolve.counting.removal import (
    SYSTEMS,
    advantage_by_true_count,
    betting_correlation,
    count_tags,
    decision_effects,
    decision_effects_of_removal,
    effects_of_removal,
    estimate_ev,
    insurance_correlation,
    playing_efficiency,
    shoe_at_true_count,
)
from bjsolve.counting.shoe_values import shoe_values, two_card_rows
from bjsolve.counting.tables import counts_table, tc_advantage_table

# ---- the hole card must complete a natural ------------------------------------------------


def test_decision_effects_when_the_hole_card_must_complete_a_natural():
    """One deck with A,A,A and every 2..9 gone: an ace up and only tens behind it.  "Given
    no blackjack" is undefined (it used to divide by zero): the values are unconditioned
    and say so.  The dealer surely has a natural that takes the original bet only, so
    every play of T,T loses exactly 1, whichever ten is removed."""
    gone = ["A"] * 3 + [str(r) for r in range(2, 10) for _ in range(4)]
    shoe = Shoe.decks(1).remove(*gone)
    d = decision_effects_of_removal(Rules(decks=1), ("T", "T"), "A", shoe=shoe)
    assert not d.given_no_blackjack and "undefined" in d.note
    assert set(d.values) == {"stand", "hit", "double", "split"}
    assert all(v == -1.0 for v in d.values.values())
    assert d.effects == {a: {10: 0.0} for a in d.values}


def test_decision_effects_still_conditioned_in_ordinary_shoes():
    d = decision_effects_of_removal(Rules(decks=1), (10, 6), 10)
    assert d.given_no_blackjack and d.note == ""
    assert d.values["stand"] == pytest.approx(solve(Rules(decks=1)).hand_ev((10, 6), 10)["stand"],
                                              abs=1e-14)


# ---- hands the depleted shoes cannot deal ------------------------------------------------------


def test_counts_with_a_card_removed_skips_hands_the_shoe_cannot_deal():
    """``counts --decks 1 --remove 2`` failed with KeyError '22': with one more 2 removed,
    2,2 against a 2 cannot be dealt.  That decision has no complete vector of effects and
    is left out; the table is finite."""
    shoe = Shoe.decks(1).remove(2)
    decisions = decision_effects(Rules(decks=1), shoe=shoe)
    assert decisions and not any(d.row == "22" and d.dealer == 2 for d in decisions)
    assert all(len(d.effects) == 10 and all(math.isfinite(x) for x in d.effects)
               for d in decisions)
    table = counts_table(Rules(decks=1), shoe, ["hilo", "halves"])
    assert all(math.isfinite(v) for v in table.values.ravel())


# ---- built-in systems at every deck count -----------------------------------------------------


@pytest.mark.parametrize("decks", [1, 2, 6])
@pytest.mark.parametrize("system", list(SYSTEMS))
def test_true_count_shoes_keep_a_card_of_every_rank(system, decks):
    """At the extremes of the default grid a tag class used to run out of a rank (Halves
    and APC weigh the 5 alone), so the dealer's upcard could not be dealt.  Now every
    shoe keeps one card of every rank, meets its count exactly, or is out of reach."""
    tags = count_tags(system)
    full = [4 * decks] * 9 + [16 * decks]
    dealt = 26 * decks
    expected = dealt * sum(t * c for t, c in zip(tags, full)) / (52 * decks)
    for tc in range(-10, 16):
        try:
            counts = shoe_at_true_count(system, tc, decks, whole_cards=False)
        except ValueError as exc:
            assert "cannot be reached" in str(exc)
            continue
        assert min(counts) >= 1 - 1e-9
        assert sum(counts) == pytest.approx(26 * decks)
        rc = sum(t * (f - c) for t, f, c in zip(tags, full, counts)) - expected
        assert rc / (decks / 2) == pytest.approx(tc, abs=1e-9)


@pytest.mark.parametrize("decks", [1, 2, 6])
@pytest.mark.parametrize("system", list(SYSTEMS))
def test_indices_and_tc_advantage_for_every_built_in_system(system, decks):
    """``indices`` and ``tc-advantage`` failed for Halves at 1, 2 and 4 decks and APC at 1
    deck.  The extremes of the default grids and 0 (solves shared between the two)."""
    rules = Rules(decks=decks)
    table = generate_indices(rules, system, true_counts=(-10, 0, 15))
    assert table.true_counts == (-10, 0, 15)
    assert set(table.unreachable) <= {-10, 15}
    assert all(u in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10) for _, u in table.lines)
    res = advantage_by_true_count(rules, system, true_counts=(-10, 0, 15))
    assert set(res) == {-10, 0, 15} - set(table.unreachable)
    assert all(math.isfinite(v) for pair in res.values() for v in pair)
    if 15 in res:
        assert res[15][0] > res[0][0]


def test_tc_advantage_table_names_unreachable_counts_by_leaving_them_out():
    table = tc_advantage_table(Rules(decks=1), "halves", true_counts=range(8, 11))
    assert len(table.rows) >= 1


# ---- wrong types, NaN, grids -------------------------------------------------------------------


@pytest.mark.parametrize("call", [
    lambda: effects_of_removal("6 decks"),
    lambda: estimate_ev({"decks": 1}, ("5",)),
    lambda: decision_effects_of_removal(6, (10, 6), 10),
    lambda: advantage_by_true_count(None, "hilo"),
    lambda: decision_effects("rules"),
    lambda: generate_indices(1.5, "hilo"),
])
def test_non_rules_arguments_raise_type_error_naming_the_field(call):
    with pytest.raises(TypeError, match="rules must be a bjsolve.Rules"):
        call()


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_non_finite_true_counts_and_base_evs_are_refused(bad):
    with pytest.raises(ValueError, match="true_count must be a finite number"):
        shoe_at_true_count("hilo", bad, 6)
    with pytest.raises(ValueError, match="true_counts must be a finite number"):
        advantage_by_true_count(Rules(decks=1), "hilo", true_counts=[0, bad])
    with pytest.raises(ValueError, match="base must be a finite number"):
        estimate_ev(Rules(decks=1), ("5",), effects=[0.0] * 10, base=bad, exact=False)
    with pytest.raises(ValueError, match="dealt_decks must be a finite number"):
        shoe_at_true_count("hilo", 1, 6, dealt_decks=bad)


@pytest.mark.parametrize("grid, match", [
    ((), "empty"), ([0, 1.5, 2], "whole true counts"), ([3, 1, 2], "strictly increasing"),
    ([0, 0, 1], "strictly increasing"), ([0, math.nan], "whole true counts"),
    ([True, 2], "whole true counts"),
])
def test_bad_index_grids_are_refused(grid, match):
    with pytest.raises(ValueError, match=match):
        generate_indices(Rules(decks=1), "hilo", true_counts=grid)


@pytest.mark.parametrize("scale", [1e300, 1e-300, 1e150, 1e-200])
def test_correlations_do_not_depend_on_the_magnitude(scale):
    """Tags and EORs of extreme magnitude used to overflow (NaN) or underflow (0.0 or
    "constant"): a correlation is scale-free."""
    tags = [scale * t for t in count_tags("hilo")]
    assert betting_correlation(tags) == pytest.approx(betting_correlation("hilo"), abs=1e-12)
    assert insurance_correlation(tags) == pytest.approx(insurance_correlation("hilo"), abs=1e-12)
    from bjsolve.counting.removal import GRIFFIN_1D_EOR
    eor = [scale * v for v in GRIFFIN_1D_EOR]
    assert betting_correlation("zen", eor) == pytest.approx(betting_correlation("zen"), abs=1e-12)


def test_correlation_of_a_constant_vector_is_refused():
    with pytest.raises(ValueError, match="constant"):
        betting_correlation([1e300] * 10)


# ---- shared per-shoe values ------------------------------------------------------------------


def test_cached_rows_equal_rows_from_a_fresh_engine():
    """The two-card values read from a solve's engines (after its round pass) equal
    those of a fresh engine asked hand by hand, and the EV equals a separate solve."""
    from bjcore import UpcardEngine
    from bjsolve.exact.kernel_rules import kernel_rules
    rules = Rules(decks=2, surrender="late")
    shoe = Shoe.decks(2).remove(5, 5, "T")
    values = shoe_values(rules, shoe)
    assert values.expected_value == solve(rules, shoe=shoe).expected_value
    for u in (1, 5, 10):
        engine = UpcardEngine(shoe.kernel_weights(), u, kernel_rules(rules, 0), False, False)
        fresh = two_card_rows(rules, engine, shoe.counts, u)
        assert set(fresh) == set(values.rows[u])
        for row, vals in fresh.items():
            assert dict(values.rows[u][row]) == pytest.approx(dict(vals), abs=1e-15)
    with pytest.raises(TypeError):
        values.rows[5]["16"]["stand"] = 0.0      # read-only: every caller shares it


def test_shared_values_from_threads_are_one_solve():
    rules, shoe = Rules(decks=1, hit_soft_17=True), Shoe.decks(1).remove(3, 4)
    got = []

    def ask():
        got.append(shoe_values(rules, shoe))

    threads = [threading.Thread(target=ask) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 6 and all(g is got[0] for g in got)
    assert got[0].expected_value == solve(rules, shoe=shoe).expected_value


def test_effects_of_removal_results_are_not_shared_mutably():
    rules = Rules(decks=1)
    first = effects_of_removal(rules)
    first.effects[5] = 99.0
    assert effects_of_removal(rules).effects[5] != 99.0


def test_counting_does_not_import_indices():
    """The counting <-> indices import cycle is gone: counting stands alone."""
    code = ("import sys, bjsolve.counting.removal; "
            "print('bjsolve.counting.indices' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"


@pytest.mark.parametrize("system", ["x" * 5000, ["y" * 5000] * 10, ("z" * 5000,)])
def test_count_system_errors_cap_what_they_echo(system):
    # a 5,000-character system name or tag must not come back whole in the message
    with pytest.raises(ValueError) as err:
        count_tags(system)
    assert len(str(err.value)) < 300


# ---- older defects: huge tags, infinite shoes, Fraction counts, a single card removed -------

@pytest.mark.parametrize("tags", [[10**400] + [0] * 9, [2**1100, 1, 1, 1, 1, 1, 1, 1, 1, -1],
                                  [0] * 9 + [-10**309]])
def test_tags_beyond_a_float_are_refused_naming_them(tags):
    """Python ints too large for a float raised OverflowError from deep inside."""
    for call in (count_tags, betting_correlation, insurance_correlation):
        with pytest.raises(ValueError, match="tags must be finite numbers") as info:
            call(tags)
        assert len(str(info.value)) < 300
    with pytest.raises(ValueError, match="effects of removal must be finite numbers"):
        betting_correlation("hilo", tags)


def _one_decision():
    """A close decision as decision_effects gives it; the effects are made up, the shape is
    what counts."""
    from bjsolve.counting.removal import CloseDecision
    return [CloseDecision("16", 10, "hit", "stand", 0.01, 0.02,
                          (-0.001, 0.002, 0.003, 0.004, 0.005, 0.006, 0.001, 0.0, -0.002,
                           -0.004))]


def test_playing_efficiency_needs_a_finite_shoe():
    """An infinite shoe is never depleted, so a count has nothing to gain (it gave NaN)."""
    finite = playing_efficiency("hilo", _one_decision(), shoe=Shoe.decks(1))
    assert 0.0 < finite <= 1.0
    with pytest.raises(ValueError, match="shoe: playing efficiency needs a finite shoe"):
        playing_efficiency("hilo", _one_decision(), shoe=Shoe.infinite())


def test_the_repr_of_a_shoe_with_fraction_counts_reads_back():
    from fractions import Fraction
    shoe = Shoe.fractional([Fraction(1, 3)] * 9 + [Fraction(4, 3)])
    text = repr(shoe)
    assert "Fraction(1, 3)" in text
    assert eval(text, {"Shoe": Shoe, "Fraction": Fraction}) == shoe
    assert repr(Shoe.fractional([0.5] * 10)) == "Shoe.fractional([0.5, 0.5, 0.5, 0.5, 0.5, 0.5, " \
                                                "0.5, 0.5, 0.5, 0.5])"


def test_estimate_ev_takes_one_card_as_the_card_removed():
    """estimate_ev(rules, 5) failed with "object of type 'int' has no len()"."""
    effects = [0.01 * r for r in range(1, 11)]
    one = estimate_ev(Rules(decks=1), 5, effects=effects, base=0.0, exact=False)
    assert one == estimate_ev(Rules(decks=1), [5], effects=effects, base=0.0, exact=False)
    assert one.removed == (5,)
    with pytest.raises(ValueError, match="removed"):
        estimate_ev(Rules(decks=1), 11, effects=effects, base=0.0, exact=False)
