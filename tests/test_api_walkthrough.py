"""The public API as a quantitative analyst meets it in a notebook: every spelling a user
types gives the same answer or a clear error (never a silent None or a wrong number),
results print compactly, and results pickle for process pools.

Expected values come from identities between spellings or between API routes, never from
the engine's own output pasted back.
"""
import pickle

import numpy as np
import pytest

import bjsolve
from bjsolve import Rules
from bjsolve.counting import indices


@pytest.fixture(scope="module")
def hilo_6d():
    return indices.generate_indices(Rules(decks=6), "hilo", tc_rounding="exact")


# ---- index look-ups --------------------------------------------------------------------

@pytest.mark.parametrize("row, dealer, play", [
    ("16", "T", "stand"), ("16", "10", "stand"), ("16", "K", "stand"), (16, 10, "stand"),
    (np.int64(16), np.int64(10), "stand"), ("16", 10, "Stand"), ("T6", 10, "stand"),
    ((10, 6), 10, "stand"),
])
def test_index_accepts_every_spelling(hilo_6d, row, dealer, play):
    # 16 v T stand is an index play of every published Hi-Lo list; every spelling of it
    # must find the same line as the canonical one (it used to return None, read "never")
    canonical = hilo_6d.index("16", 10, "stand")
    assert canonical is not None
    assert hilo_6d.index(row, dealer, play) == canonical


@pytest.mark.parametrize("row, dealer, play, field", [
    ("16", 10, "fly", "play"), ("16", 11, "stand", "dealer"), ("X9", 10, "stand", "row"),
    ("21", 10, "stand", "row"), (True, 10, "stand", "row"), ("16", "TT", "stand", "dealer"),
])
def test_index_refuses_what_does_not_exist(hilo_6d, row, dealer, play, field):
    with pytest.raises((ValueError, TypeError), match=field):
        hilo_6d.index(row, dealer, play)


def test_index_table_repr_is_a_summary(hilo_6d):
    text = repr(hilo_6d)
    assert len(text) < 400, len(text)     # it printed ~100 KB of lines
    assert "hilo" in text and f"{len(hilo_6d.lines)} index lines" in text


# ---- a chart typed by the user -----------------------------------------------------------

@pytest.fixture(scope="module")
def six_decks():
    return bjsolve.solve(Rules(decks=6), threads=1)


def _respelled(chart, column, code=lambda c: c):
    return {row: {column(c): code(v) for c, v in cols.items()} for row, cols in chart.rows.items()}


_AS_INT = {"A": 1, "T": 10}


@pytest.mark.parametrize("column, code", [
    (lambda c: c, lambda v: v),                                   # the chart's own labels
    (lambda c: _AS_INT.get(c) or int(c), lambda v: v),           # 2..10 and 1 as ints
    (lambda c: {"T": "10", "A": "a"}.get(c, c), lambda v: v),    # "10", lower-case ace
    (lambda c: np.int64(_AS_INT.get(c) or int(c)), lambda v: v),  # numpy ints from a frame
    (lambda c: c, str.lower),                                     # codes in lower case
])
def test_a_user_copy_of_basic_strategy_gives_its_edge(six_decks, column, code):
    from bjsolve.exact.strategy import StrategyChart
    chart = six_decks.strategy
    copy = StrategyChart(_respelled(chart, column, code))
    # the same chart, spelled as a user types it, is the same strategy: its EV is the
    # chart's (it used to fail with "the chart has no entry for row 'AA' v T")
    assert six_decks.evaluate(copy) == six_decks.evaluate(chart)


@pytest.mark.parametrize("rows, field", [
    ({"X9": {"2": "H"}}, "row 'X9'"),
    ({"16": {"Z": "H"}}, "column 'Z'"),
    ({"16": {"2": "Q"}}, "code 'Q'"),
    ({(10, 6): {"2": "H"}}, "row codes"),
])
def test_a_chart_with_unknown_rows_or_columns_is_refused(rows, field):
    from bjsolve.exact.strategy import StrategyChart
    with pytest.raises((ValueError, TypeError), match=field):
        StrategyChart(rows)


@pytest.mark.parametrize("with_rules", [True, False])
def test_an_exposed_game_chart_keeps_its_hard_10_column(with_rules):
    from bjsolve.exact.strategy import StrategyChart
    sol = bjsolve.solve(Rules(decks=1, hole_card="exposed"), threads=1)
    chart = sol.strategy
    assert "10" in chart.rows["16"]          # the dealer's hard 10, not an upcard ten
    copy = StrategyChart(_respelled(chart, lambda c: c),
                         rules=sol.rules if with_rules else None)
    assert sol.evaluate(copy) == sol.evaluate(chart)


def test_strategy_chart_is_a_public_name():
    from bjsolve.exact.strategy import StrategyChart
    assert bjsolve.StrategyChart is StrategyChart
    assert "StrategyChart" in bjsolve.__all__


# ---- results sent to another process -----------------------------------------------------

@pytest.mark.parametrize("spots", [1, 2])
def test_an_outcome_distribution_pickles(six_decks, spots):
    dist = six_decks.outcome_distribution(spots=spots)
    back = pickle.loads(pickle.dumps(dist))
    assert back.pmf == dist.pmf and back.mean == dist.mean and back.sd == dist.sd
    assert back.per_spot.pmf == dist.per_spot.pmf
    assert back.quantile(0.5) == dist.quantile(0.5)
    with pytest.raises(TypeError):
        back.pmf[1.0] = 0.5                     # still read-only after the round trip
    with pytest.raises(ValueError):
        back.probabilities[0] = 0.5


# ---- rules and split classes as a notebook spells them ----------------------------------

def test_rules_read_numpy_bools_and_choices_in_any_case():
    typed = Rules(decks=np.int64(2), hit_soft_17=np.bool_(True), surrender="Late",
                  hole_card="ENHC", double="9-11 ")
    canonical = Rules(decks=2, hit_soft_17=True, surrender="late", hole_card="enhc",
                      double="9-11")
    assert typed == canonical and hash(typed) == hash(canonical)
    assert type(typed.hit_soft_17) is bool
    assert pickle.loads(pickle.dumps(typed)) == canonical


@pytest.mark.parametrize("field, value", [
    ("hit_soft_17", 1), ("hit_soft_17", np.int64(1)), ("hit_soft_17", "yes"),
    ("surrender", "sometimes"), ("surrender", None),
])
def test_rules_still_refuse_what_is_not_a_rule(field, value):
    with pytest.raises((ValueError, TypeError), match=field):
        Rules(**{field: value})


def test_split_class_names_in_any_case():
    rules = Rules(decks=1, max_split_hands=2)
    lower = bjsolve.solve(rules, split="cdp1", threads=1)
    assert lower.split == "CDP1"
    assert lower.expected_value == bjsolve.solve(rules, split="CDP1", threads=1).expected_value
    assert bjsolve.effects_of_removal(rules, split="cdz-").split == "CDZ-"
    with pytest.raises(ValueError, match="split"):
        bjsolve.solve(rules, split="CDP2")


# ---- results print as a summary --------------------------------------------------------

def test_a_simulation_result_prints_as_a_summary():
    result = bjsolve.simulate(Rules(decks=6), rounds=2000, seed=1, threads=1)
    text = repr(result)
    assert len(text) < 300, len(text)        # it printed every true-count row (~5 KB)
    assert "rounds=2,000" in text and "seed=1" in text
    assert len(result.per_true_count) > 0    # the rows are still there


def test_a_shoe_from_numpy_numbers_prints_plain_numbers():
    from bjsolve import Shoe
    proportions = np.array([1.0] * 9 + [4.0]) / 13
    shoe = Shoe.infinite(proportions)
    assert "np." not in repr(shoe) and len(repr(shoe)) < 250, repr(shoe)
    assert all(type(c) is float for c in shoe.counts)
    assert shoe == Shoe.infinite([float(p) for p in proportions])
    assert "np." not in repr(Shoe.fractional(np.array([4.5] * 9 + [16.0])))


# ---- a user strategy as a callable ----------------------------------------------------------

def _hard_17(cards, dealer, allowed):
    return "stand" if sum(cards) >= 17 else "hit"


@pytest.mark.parametrize("spell", [str.upper, str.title, lambda a: f" {a} ", np.str_])
def test_a_callable_may_spell_actions_in_any_case(spell):
    sol = bjsolve.solve(Rules(decks=1), threads=1)
    assert sol.evaluate(lambda c, u, a: spell(_hard_17(c, u, a))) == sol.evaluate(_hard_17)


def test_a_chart_of_another_game_names_its_columns():
    one_up = bjsolve.solve(Rules(decks=1), threads=1)
    both_up = bjsolve.solve(Rules(decks=1, hole_card="exposed"), threads=1)
    with pytest.raises(ValueError, match="its columns are 2, 3, 4"):
        both_up.evaluate(one_up.strategy)
    with pytest.raises(ValueError, match="strategy returned 'H'"):
        one_up.evaluate(lambda c, u, a: "H")


def test_the_simulator_reads_a_callable_as_evaluate_does():
    spelled = bjsolve.simulate(Rules(decks=1), rounds=500, seed=1, threads=1,
                               strategy=lambda c, u, a: _hard_17(c, u, a).upper())
    plain = bjsolve.simulate(Rules(decks=1), rounds=500, seed=1, threads=1, strategy=_hard_17)
    assert spelled.mean == plain.mean and spelled.hands == plain.hands


def test_advantage_by_true_count_is_keyed_by_plain_numbers():
    from bjsolve import counting
    rules = Rules(decks=2)
    by_array = counting.advantage_by_true_count(rules, "hilo", true_counts=np.arange(0, 2))
    assert [type(k) for k in by_array] == [int, int]
    assert by_array == counting.advantage_by_true_count(rules, "hilo", true_counts=[0, 1])


# ---- risk from a distribution a user has -------------------------------------------------

def test_risk_reads_a_pmf_mapping():
    from bjsolve.risk.ruin import lifetime_ruin, trip_ruin
    coin = {-1.0: 0.45, 1.0: 0.55}
    # gambler's ruin: P(ever losing 10 units) = (q/p)^10; one round from 1 unit: q
    assert lifetime_ruin(coin, 10).probability == pytest.approx((0.45 / 0.55) ** 10, rel=1e-12)
    assert trip_ruin(coin, 1, 1).probability == pytest.approx(0.45, abs=1e-15)


@pytest.mark.parametrize("dist, error", [
    (5, TypeError), ({"a": 1.0}, TypeError), ({-1.0: 0.5, 1.0: 0.7}, ValueError),
])
def test_risk_refuses_what_is_not_a_distribution(dist, error):
    from bjsolve.risk.ruin import trip_ruin
    with pytest.raises(error, match="dist"):
        trip_ruin(dist, 10, 10)


@pytest.mark.parametrize("values, probabilities, field", [
    ([-1, 1], [0.7, 0.7], "sum to 1"), ([-1, 1], [-0.5, 1.5], ">= 0"),
    ([float("nan"), 1], [0.5, 0.5], "finite"), ([-1, 1], [0.5, float("inf")], "finite"),
])
def test_a_hand_built_distribution_is_checked(values, probabilities, field):
    from bjsolve.exact.distribution import OutcomeDistribution
    with pytest.raises(ValueError, match=field):
        OutcomeDistribution(values, probabilities, exact=True, method="by hand")


def test_a_preset_with_changes():
    changed = Rules.preset("Vegas-Strip", decks=2, hit_soft_17=True)
    assert changed == Rules.preset("vegas-strip").replace(decks=2, hit_soft_17=True)
    with pytest.raises(TypeError, match="deck"):
        Rules.preset("classic", deck=2)
    with pytest.raises(ValueError, match="Rules.decks"):
        Rules.preset("classic", decks=0)


def test_the_dealer_table_reads_card_labels():
    rules = Rules(decks=2)
    table = bjsolve.dealer_table(rules)
    for spelled, rank in (("A", 1), ("T", 10), ("K", 10), ("7", 7), (np.int64(6), 6)):
        assert table[spelled] == bjsolve.dealer_probabilities(rules, rank)
    assert list(table) == [2, 3, 4, 5, 6, 7, 8, 9, 10, 1]
    with pytest.raises(TypeError):
        table[1] = None                                   # read-only, as the other results
    assert pickle.loads(pickle.dumps(table)) == table


def test_index_select_takes_a_numpy_count(hilo_6d):
    top = hilo_6d.select(np.int64(5))
    assert set(top.lines) == set(hilo_6d.select(5).lines) and len(top.lines) == 5
    assert top.selection == "top 5 by gain"
    with pytest.raises(ValueError, match="select"):
        hilo_6d.select(0)


def test_exposed_game_outcome_law_on_a_depleted_shoe():
    """Both dealer cards face up, a depleted one-deck shoe, CDP1 splits: the law sums to 1
    and its mean is the solve's EV (it summed to 1.0015 before the doubled busts of a
    two-hand split became leaves of their own)."""
    from bjsolve import Shoe
    rules = Rules(decks=1, hole_card="exposed", surrender="late", max_split_hands=2)
    sol = bjsolve.solve(rules, shoe=Shoe([3, 3, 1, 3, 4, 3, 2, 3, 4, 10]), split="CDP1", threads=1)
    dist = sol.outcome_distribution(threads=1)
    assert dist.probabilities.sum() == pytest.approx(1.0, abs=1e-14)
    assert dist.mean == pytest.approx(sol.expected_value, abs=1e-14)


def test_the_package_docstring_examples_run():
    # help(bjsolve) is where a notebook user starts: its examples must run as shown
    import doctest
    result = doctest.testmod(bjsolve, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 5 and result.failed == 0


@pytest.mark.parametrize("indices", [{"16": 0}, 2.5])
def test_counted_game_refuses_what_is_not_index_plays(indices):
    from bjsolve.risk.game import CountedGame
    with pytest.raises(TypeError, match="indices must be a named set"):
        CountedGame(Rules(decks=1), "hilo", penetration=0.6, indices=indices)


class _Stop(Exception):
    """Raised where the counted game's long work would start."""


@pytest.mark.parametrize("given", ["i18", "I18,fab4", ["i18", "fab4"], 4, "index file"])
def test_counted_game_takes_index_plays_as_simulate_does(given, monkeypatch, tmp_path):
    """CountedGame(rules, "hilo", indices="i18") was a TypeError while simulate and the
    command line's --indices took it: both now read indices with as_index_table (the
    exact table made for the game's rounding); the game stops before its solves here."""
    from bjsolve.risk.game import CountedGame
    rules = Rules(decks=1, surrender="late")
    table = indices.generate_indices(rules, "hilo", tc_rounding="truncate", true_counts=range(-4, 7))
    monkeypatch.setattr(indices, "exact_index_table",
                        lambda r, s, c, threads=None: table if (r, s, c) == (
                            rules, "hilo", "truncate") else None)
    if given == "index file":
        given = tmp_path / "fab4.idx"
        given.write_text(table.select("fab4").index_file())
    expected = indices.as_index_table(given, rules, "hilo", tc_rounding="truncate")
    seen = {}

    def stop(self):
        seen["indices"], seen["strategy"] = self.indices, self.strategy
        raise _Stop
    monkeypatch.setattr(CountedGame, "_solve_full_shoe", stop)
    with pytest.raises(_Stop):
        CountedGame(rules, "hilo", penetration=0.6, tc_rounding="truncate", indices=given)
    assert seen["strategy"] == "indices"
    assert seen["indices"].index_file() == expected.index_file() != ""
    assert seen["indices"].insurance == expected.insurance


def test_simulate_takes_a_published_index_set_by_name():
    # as the command line's --indices i18: the same plays as the exact table's selection
    rules = Rules(decks=6)
    table = indices.generate_indices(rules, "hilo", tc_rounding="floor").select("i18")
    by_name = bjsolve.simulate(rules, rounds=3000, seed=2, system="hilo", indices="I18",
                               threads=1)
    by_table = bjsolve.simulate(rules, rounds=3000, seed=2, system="hilo", indices=table,
                                threads=1)
    assert by_name.mean == by_table.mean and by_name.hands == by_table.hands
    assert by_name.settings["index_plays"] == by_table.settings["index_plays"] > 0
