"""Index numbers as counters use them: true-count conventions, the published Hi-Lo lists,
and the filter to the plays that matter most."""
import math

import pytest

from bjsolve import Rules
from bjsolve.counting.indices import (
    FAB_4,
    ILLUSTRIOUS_18,
    ILLUSTRIOUS_18_INSURANCE,
    bin_midpoint,
    generate_indices,
    integer_index,
)

# The grids of test_counting's I18 and Fab 4 tests: the shoes are solved once per session.
I18_GRID, FAB4_GRID = range(-5, 9), range(-3, 7)


@pytest.mark.parametrize("crossing, convention, expected", [
    # floor: bin k is [k, k+1), middle k + 1/2
    (1.32, "floor", 1), (0.41, "floor", 0), (0.6, "floor", 1), (-1.02, "floor", -1),
    (-0.6, "floor", -1), (3.0, "floor", 3),
    # round: bin k is [k - 1/2, k + 1/2), middle k
    (1.32, "round", 2), (-1.02, "round", -1), (3.0, "round", 3),
    # truncate: (k-1, k] below 0, (-1, 1) for 0, [k, k+1) above
    (0.07, "truncate", 1), (-0.2, "truncate", 0), (-1.02, "truncate", 0), (-1.6, "truncate", -1),
    (1.6, "truncate", 2), (1.4, "truncate", 1),
    # the exact true count, crossing rounded
    (1.32, "exact", 1), (1.5, "exact", 2), (-1.5, "exact", -1),
])
def test_integer_index_by_convention(crossing, convention, expected):
    assert integer_index(crossing, convention) == expected
    if convention != "exact":
        # the index's bin is the first whose middle is at or past the crossing
        assert bin_midpoint(expected, convention) >= crossing - 1e-9
        assert bin_midpoint(expected - 1, convention) < crossing


@pytest.fixture(scope="module")
def hilo_6d_floor():
    """The convention of simulation-made lists: floored true count, every hand of a total."""
    return generate_indices(Rules(decks=6), "hilo", true_counts=I18_GRID, tc_rounding="floor",
                            hands="all")


# With the floored true count and every hand of a total these published Illustrious 18
# entries come out exactly (the others within one; docs/counting.md says why), and all
# of the Fab 4 (two-card decisions under either option).
I18_EXACT_WITH_FLOOR = {("16", 10), ("15", 10), ("TT", 5), ("12", 2), ("9", 7), ("16", 9),
                        ("13", 2), ("12", 4), ("12", 5), ("12", 6)}


def test_illustrious_18_with_the_floored_true_count(hilo_6d_floor):
    table = hilo_6d_floor
    assert table.tc_rounding == "floor" and "floored true-count bin" in table.method()
    assert table.hands == "all" and "every hand of each total" in table.method()
    for row, up, play, published in ILLUSTRIOUS_18:
        got = table.index(row, up, play)
        assert got is not None and abs(got - published) <= 1, (row, up, play, got, published)
        if (row, up) in I18_EXACT_WITH_FLOOR:
            assert got == published, (row, up, play, got, published)
    assert table.insurance == ILLUSTRIOUS_18_INSURANCE


def test_fab_4_with_the_floored_true_count():
    table = generate_indices(Rules(decks=6, surrender="late"), "hilo", true_counts=FAB4_GRID,
                             tc_rounding="floor")
    for row, up, play, published in FAB_4:
        assert table.index(row, up, play) == published, (row, up)


def test_conventions_differ_only_by_where_the_bins_lie(hilo_6d_floor):
    """The same crossings under every convention (the solves are shared); the integer
    indices follow from the crossings by the bin rule."""
    rounded = generate_indices(Rules(decks=6), "hilo", true_counts=I18_GRID, tc_rounding="round",
                               hands="all")
    for key, line in hilo_6d_floor.lines.items():
        other = rounded.lines[key]
        assert other.crossings == line.crossings and other.plays == line.plays
        assert other.thresholds == [integer_index(c, "round") for c in line.crossings]


def test_select_named_sets_and_top_lines(hilo_6d_floor):
    table = hilo_6d_floor
    i18 = table.select("i18")
    assert set(i18.lines) == {(row, up) for row, up, _, _ in ILLUSTRIOUS_18}
    assert "i18" in i18.method() and i18.insurance == table.insurance
    top = table.select(5)
    assert len(top.lines) == 5
    weakest_kept = min(table.gains[k] for k in top.lines)
    assert all(table.gains[k] <= weakest_kept for k in table.lines if k not in top.lines)
    # the line most often met with the largest swing: 16 v T is among the top few
    assert ("16", 10) in table.select(8).lines
    with pytest.raises(ValueError, match="known: i18, fab4"):
        table.select("i99")
    with pytest.raises(ValueError, match="number of lines"):
        table.select(0)


def test_bad_convention():
    with pytest.raises(ValueError,
                       match="tc_rounding must be one of floor, truncate, round, exact"):
        generate_indices(Rules(decks=6), "hilo", tc_rounding="ceiling")


def test_every_hand_of_a_total_against_a_brute_force_over_card_orders():
    """The all-hands stand and hit values of a total, computed card order by card order:
    every ordered deal whose earlier hands (two cards or more) the player hits, the
    player making the best play (``Solution.hand_ev``), weighted by its chance; two-card
    pairs are their own rows.  For hard 5 (only 2,3) they are the two-card values."""
    from functools import lru_cache

    from bjsolve import Shoe, solve
    from bjsolve.counting.shoe_values import shoe_values
    from bjsolve.model.ranks import hand_total
    rules, u = Rules(decks=1), 10
    sol = solve(rules)
    values = shoe_values(rules, Shoe.decks(1), hands="all")

    @lru_cache(maxsize=None)
    def ev(cards):
        return sol.hand_ev(cards, u, given_no_blackjack=False)

    left = list(Shoe.decks(1).counts)
    left[u - 1] -= 1
    sums = {}

    def walk(seq, chance):
        cards = tuple(sorted(seq))
        if len(seq) >= 2:
            total, soft = hand_total(cards)
            if total > 21 or (len(seq) == 2 and total == 21):
                return
            row = (f"A{total - 11}" if soft and total > 12 else str(total)) if total < 21 else None
            if row and not (len(seq) == 2 and seq[0] == seq[1]):
                acc = sums.setdefault(row, [0.0, 0.0, 0.0])
                acc[0] += chance * ev(cards)["stand"]
                acc[1] += chance * ev(cards)["hit"]
                acc[2] += chance
            if ev(cards).best != "hit":
                return
        n = sum(left) - len(seq)
        for r in range(1, 11):
            have = left[r - 1] - seq.count(r)
            if have > 0:
                walk(seq + (r,), chance * have / n)

    walk((), 1.0)
    for row in ("5", "12", "14", "16", "A7"):
        stand, hit, w = sums[row]
        assert values.all_rows[u][row]["stand"] == pytest.approx(stand / w, abs=1e-14), row
        assert values.all_rows[u][row]["hit"] == pytest.approx(hit / w, abs=1e-14), row
    assert dict(values.all_rows[u]["5"]) == pytest.approx(
        {a: values.rows[u]["5"][a] for a in ("stand", "hit")}, abs=1e-15)
    # a two-card request reuses the richer entry
    assert shoe_values(rules, Shoe.decks(1)) is values


def test_two_card_tables_ignore_cached_all_hands_values(hilo_6d_floor):
    """A two-card table served from entries solved for hands="all" must still compare
    stand and hit on the two-card hands: its 16 v T crossing is the zero of the two-card
    stand - hit difference, interpolated between the grid points around it."""
    from bjsolve import Shoe
    from bjsolve.counting.removal import shoe_at_true_count
    from bjsolve.counting.shoe_values import shoe_values
    two = generate_indices(Rules(decks=6), "hilo", true_counts=I18_GRID, tc_rounding="floor")
    (crossing,) = two.lines[("16", 10)].crossings
    lo = math.floor(crossing)

    def diff(tc):
        shoe = Shoe.fractional(shoe_at_true_count("hilo", tc, 6, whole_cards=False))
        row = shoe_values(Rules(decks=6), shoe).rows[10]["16"]
        return row["stand"] - row["hit"]

    d0, d1 = diff(lo), diff(lo + 1)
    assert d0 < 0 <= d1
    assert crossing == pytest.approx(lo - d0 / (d1 - d0), abs=1e-12)
    assert crossing != hilo_6d_floor.lines[("16", 10)].crossings[0]


# ---- index plays as every caller takes them (as_index_table) ------------------------------

@pytest.fixture(scope="module")
def ls_6d_floor():
    """6 decks LS, Hi-Lo, floored true count: both published lists have their plays."""
    return generate_indices(Rules(decks=6, surrender="late"), "hilo", true_counts=I18_GRID,
                            tc_rounding="floor")


@pytest.fixture
def exact_tables(ls_6d_floor, monkeypatch):
    """as_index_table's exact table is this module's (its grid: fewer solves)."""
    from bjsolve.counting import indices
    monkeypatch.setattr(indices, "exact_index_table", lambda *a, **k: ls_6d_floor)
    return ls_6d_floor


I18_AND_FAB4 = ({(row, up) for row, up, _, _ in ILLUSTRIOUS_18}
                | {(row, up) for row, up, _, _ in FAB_4})


def test_select_takes_a_list_of_named_sets(ls_6d_floor):
    both = ls_6d_floor.select(["i18", "fab4"])
    # 15 v T is in both lists: one line, the table's, with every play of the hand
    assert set(both.lines) == I18_AND_FAB4 and len(both.lines) == 17 + 4 - 1
    assert both.lines[("15", 10)] is ls_6d_floor.lines[("15", 10)]
    assert both.insurance == ls_6d_floor.insurance and "i18 + fab4" in both.method()
    assert ls_6d_floor.select(("fab4", "i18")).lines.keys() == both.lines.keys()
    with pytest.raises(ValueError, match="empty list"):
        ls_6d_floor.select([])


@pytest.mark.parametrize("given", ["i18,fab4", "I18, Fab-4", ["i18", "fab4"], ("fab4", "i18"),
                                   ["i18", "fab4", "i18"]])
def test_every_spelling_of_two_sets_is_the_same_table(exact_tables, given):
    from bjsolve.counting.indices import as_index_table
    table = as_index_table(given, Rules(decks=6, surrender="late"), "hilo")
    assert set(table.lines) == I18_AND_FAB4
    assert table.index_file() == exact_tables.select(["i18", "fab4"]).index_file()


def test_a_set_a_number_a_table_true_and_none(exact_tables):
    from bjsolve.counting.indices import as_index_table
    rules = Rules(decks=6, surrender="late")
    assert as_index_table("I-18", rules).lines.keys() == exact_tables.select("i18").lines.keys()
    assert as_index_table(True, rules) is exact_tables
    assert as_index_table("all", rules) is exact_tables
    assert len(as_index_table(3, rules).lines) == len(as_index_table("3", rules).lines) == 3
    assert as_index_table(exact_tables, rules) is exact_tables
    assert as_index_table(None, rules) is None and as_index_table(False, rules) is None


def test_an_index_file_path_or_text_is_read_back_unchanged(exact_tables, tmp_path):
    from bjsolve.counting.indices import as_index_table
    rules = Rules(decks=6, surrender="late")
    i18 = exact_tables.select("i18")
    text = f"# insurance: take at TC >= {i18.insurance:+d}\n" + i18.index_file()
    path = tmp_path / "i18.idx"
    path.write_text(text)
    for given in (path, str(path), text):
        table = as_index_table(given, rules, "hilo")
        assert table.index_file() == i18.index_file()
        assert table.insurance == i18.insurance
        # the rows are the chart's: the game plays a line at the true count as the table does
        assert {k: [line.play_at(t) for t in range(-6, 10)] for k, line in table.lines.items()} \
            == {k: [line.play_at(t) for t in range(-6, 10)] for k, line in i18.lines.items()}


def test_a_set_with_a_file_that_agrees_is_one_table_and_a_conflict_is_refused(exact_tables,
                                                                                 tmp_path):
    from bjsolve.counting.indices import as_index_table
    rules = Rules(decks=6, surrender="late")
    fab4 = exact_tables.select("fab4")
    path = tmp_path / "fab4.idx"
    path.write_text(fab4.index_file())
    both = as_index_table(["i18", str(path)], rules, "hilo")
    assert set(both.lines) == I18_AND_FAB4
    # another index for 16 v T where the exact table has its own: refused, naming the hand
    line = exact_tables.lines[("16", 10)]
    other = line.index_file_line().replace(f"{line.thresholds[0]:+d}",
                                           f"{line.thresholds[0] + 5:+d}", 1)
    with pytest.raises(ValueError, match=r"two different lines for 16 v 10 \(may double"):
        as_index_table(["i18", other + "\n"], rules, "hilo")
    with pytest.raises(ValueError, match="two different insurance indices"):
        as_index_table(["i18", "# insurance: take at TC >= +9\n" + line.index_file_line()],
                       rules, "hilo")


@pytest.mark.parametrize("given, error, words", [
    ({"16": 0}, TypeError, "indices must be a named set"),
    (2.5, TypeError, "indices must be"),
    (0, ValueError, "number of lines must be >= 1"),
    ([], ValueError, "empty list"),
    ("i99", ValueError, "neither an index file .* nor an index set"),
])
def test_what_is_not_index_plays_is_refused_naming_it(given, error, words):
    from bjsolve.counting.indices import as_index_table
    with pytest.raises(error, match=words):
        as_index_table(given, Rules(decks=6), "hilo")
