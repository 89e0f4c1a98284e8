"""The compiled real-game simulator (``bjsolve.simulate``).

Independent checks: with a fresh shuffle every round the simulated mean must lie within 4
standard errors of the exact EV of the same strategy (``Solution.evaluate`` of the chart,
``expected_value`` for the composition-dependent table); dealt to a cut card, its per-true-
count frequencies and means must agree with the pure-Python twin (tests/simulator.py);
identities (determinism, shoes whose outcome is certain) and known effects (the cut-card
effect, a winning Hi-Lo ramp).  Seeds are fixed, so the numbers do not change run to run.
"""
import functools
import math
import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bjsolve  # noqa: E402
from bjsolve import Rules  # noqa: E402
from bjsolve.simulation.simulator import parse_index_file  # noqa: E402
from simulator import simulate_shoe  # noqa: E402

Z_LIMIT = 4.0


@functools.lru_cache(maxsize=None)
def _solve(rules):
    return bjsolve.solve(rules)


@functools.lru_cache(maxsize=None)
def _chart_ev(rules):
    sol = _solve(rules)
    return sol.strategy, sol.evaluate(sol.strategy)


def _z(result, exact):
    return (result.mean - exact) / result.se


# ---- the mean equals the exact EV with a fresh shoe every round -----------------------------

@pytest.mark.parametrize("rules", [
    Rules(decks=6),
    Rules(decks=1, hit_soft_17=True, double_after_split=False, max_split_hands=2),
    Rules(decks=2, blackjack_payout=1.2, double_any_cards=True, surrender="late"),
    Rules(decks=2, hole_card="enhc-obo", surrender="late"),
    Rules(decks=1, hit_soft_17=True, hole_card="enhc", surrender="late"),
    Rules(decks=1, surrender="early", resplit_aces=True, double="10-11"),
    Rules(decks=2, hit_split_aces=True, resplit_aces=True),
    Rules(decks=1, dealer_wins_ties=True),
    Rules(decks=1, hole_card="exposed", dealer_wins_ties=True, blackjack_payout=1.0),
    # tied naturals paid as a win (the simulator once settled them as every other tie: -1)
    Rules(decks=1, dealer_wins_ties=True, natural_tie="win"),
    Rules(decks=2, hole_card="enhc", dealer_wins_ties=True, natural_tie="push"),
], ids=lambda r: r.describe())
def test_chart_mean_matches_exact_ev(rules):
    chart, exact = _chart_ev(rules)
    result = bjsolve.simulate(rules, rounds=3_000_000, seed=11, penetration="every-round",
                              strategy=chart)
    z = _z(result, exact)
    print(f"{rules.describe()}: exact {exact:+.6f} simulated {result.mean:+.6f} "
          f"+- {result.se:.6f} z {z:+.2f}")
    assert abs(z) <= Z_LIMIT
    assert result.rounds == result.played == 3_000_000 and result.shuffles == 3_000_000


@pytest.mark.parametrize("rules", [Rules(decks=1), Rules(decks=2, hole_card="enhc")],
                         ids=lambda r: r.describe())
def test_composition_strategy_mean_matches_optimal_ev(rules):
    result = bjsolve.simulate(rules, rounds=3_000_000, seed=12, penetration="every-round",
                              strategy="optimal")
    assert abs(_z(result, _solve(rules).expected_value)) <= Z_LIMIT


def test_infinite_shoe_matches_exact_ev():
    rules = Rules(decks=math.inf, hit_soft_17=True, surrender="late")
    chart, exact = _chart_ev(rules)
    result = bjsolve.simulate(rules, rounds=2_000_000, seed=13, strategy=chart)
    assert abs(_z(result, exact)) <= Z_LIMIT


# ---- shoes whose outcome is certain -----------------------------------------------------------

def _always(action):
    def policy(cards, dealer, allowed):
        return action if action in allowed else "stand"
    return policy


TENS = (0,) * 9 + (60,)


@pytest.mark.parametrize("rules, action, want", [
    (Rules(), "stand", 0.0),                               # 20 v 20 pushes
    (Rules(dealer_wins_ties=True), "stand", -1.0),
    (Rules(), "hit", -1.0),                                # 30 busts
    (Rules(), "double", -2.0),
    (Rules(surrender="late"), "surrender", -0.5),
    (Rules(dealer_wins_ties=True), "split", -4.0),         # forced resplits to 4 hands
    (Rules(dealer_wins_ties=True, max_split_hands=3), "split", -3.0),
])
def test_a_shoe_of_tens(rules, action, want):
    result = bjsolve.simulate(rules, rounds=500, seed=1, shoe=TENS, penetration=30,
                              strategy=_always(action))
    assert result.mean == want and result.sd == 0.0
    hands = {"split": -want, "stand": 1}.get(action, 1)
    assert result.hands == 500 * hands


def test_a_round_that_empties_the_shoe_refills_it():
    # 20 cards cut at 16: a round started with 5 cards left often needs more
    shoe = (2, 2, 2, 2, 2, 2, 2, 2, 0, 4)
    result = bjsolve.simulate(Rules(decks=1), rounds=20_000, seed=2, shoe=shoe, penetration=16,
                              strategy=_always("hit"))
    assert result.rounds == 20_000 and result.exhausted > 0
    # hitting to a bust loses every round except a natural's (paid 1.5, or pushed)
    assert -1.0 < result.mean < -0.5


# ---- the twin: per-true-count frequencies and means -------------------------------------------

def test_per_true_count_agrees_with_the_python_twin():
    rules = Rules(decks=2, hit_soft_17=True, surrender="late")
    chart, _ = _chart_ev(rules)
    tags = bjsolve.counting.count_tags("hilo")
    cut = 78   # 75% of 104 cards

    def policy(cards, dealer, allowed, is_split):
        return chart(cards, dealer[0], allowed)

    twin = simulate_shoe(rules, policy, rounds=150_000, seed=5, cut=cut, tags=tags)
    n_twin = sum(v[0] for v in twin.values())
    fast = bjsolve.simulate(rules, rounds=6_000_000, seed=5, penetration=cut, strategy=chart,
                            system="hilo", decks_estimation="exact", tc_rounding="floor")
    shoes = n_twin / 9.0  # rounds per 2-deck shoe at this depth: a conservative sample size
    worst_f = worst_m = 0.0
    for tc in range(-6, 7):
        n, s, sq = twin.get(tc, (0, 0.0, 0.0))
        row = fast.true_count_row(tc)
        f_twin = n / n_twin
        z_f = (f_twin - row.frequency) / math.sqrt(max(row.frequency * (1 - row.frequency),
                                                       1e-9) / shoes)
        worst_f = max(worst_f, abs(z_f))
        if n >= 2000:
            mean = s / n
            sd = math.sqrt(max(0.0, sq / n - mean * mean))
            z_m = (mean - row.mean) / math.hypot(sd / math.sqrt(n), row.se)
            worst_m = max(worst_m, abs(z_m))
        print(f"TC {tc:+d}: frequency {f_twin:.4f} v {row.frequency:.4f} (z {z_f:+.2f}); "
              f"mean {s / n if n else float('nan'):+.4f} v {row.mean:+.4f}")
    assert worst_f <= 4.5 and worst_m <= 4.5
    # the count matters: a high count is worth more than a low one
    assert fast.true_count_row(4).mean > fast.true_count_row(-4).mean + 0.04


def _half_deck_truncated(rc, unseen):
    # decks remaining to the nearest half deck (at least one half), then toward zero
    halves = max(1, math.floor(unseen / 26 + 0.5))
    return math.trunc(rc / (halves / 2))


def _full_deck_rounded(rc, unseen):
    # decks remaining to the nearest whole deck (at least one), then to the nearest, halves up
    decks = max(1, math.floor(unseen / 52 + 0.5))
    return math.floor(rc / decks + 0.5)


@pytest.mark.parametrize("system, method, rounding, twin_tc", [
    ("zen", "half", "truncate", _half_deck_truncated),
    ("hilo", "full", "round", _full_deck_rounded),
])
def test_true_count_conventions_agree_with_the_twin(system, method, rounding, twin_tc):
    rules = Rules(decks=2)
    chart, _ = _chart_ev(rules)
    tags = bjsolve.counting.count_tags(system)
    twin = simulate_shoe(rules, lambda c, d, a, s: chart(c, d[0], a), rounds=50_000, seed=6,
                         cut=80, tags=tags, true_count=twin_tc)
    n_twin = sum(v[0] for v in twin.values())
    fast = bjsolve.simulate(rules, rounds=2_000_000, seed=6, penetration=80, strategy=chart,
                            system=system, decks_estimation=method, tc_rounding=rounding)
    shoes = n_twin / 9.0
    for tc in range(-8, 9):
        f_twin = twin.get(tc, (0,))[0] / n_twin
        f = fast.true_count_row(tc).frequency
        assert abs(f_twin - f) <= 4.5 * math.sqrt(max(f * (1 - f), 1e-9) / shoes), tc
    if rounding == "truncate":
        # truncation piles the counts between -1 and +1 onto 0
        assert fast.true_count_row(0).frequency > 2 * fast.true_count_row(1).frequency


def test_several_spots_and_other_players():
    rules = Rules(decks=6)
    chart, exact = _chart_ev(rules)
    result = bjsolve.simulate(rules, rounds=1_000_000, seed=14, penetration="every-round",
                              strategy=chart, spots=3, other_spots=2)
    # every spot of a freshly shuffled shoe has the round's EV
    assert abs((result.mean - 3 * exact) / result.se) <= Z_LIMIT
    assert result.total_bet == 3_000_000 and result.hands > 3_000_000


# ---- reproducibility -------------------------------------------------------------------------

def _plain(result):
    return (result.rounds, result.total_won, result.mean, result.sd, result.hands,
            [(r.rounds, r.played, r.mean) for r in result.per_true_count])


def test_same_seed_same_result_whatever_the_threads():
    kw = dict(rounds=700_000, seed=99, chunk_rounds=100_000, system="hilo",
              ramp="1:1,2:2,3:4,4:8", indices=_small_index_file())
    one = bjsolve.simulate(Rules(decks=6), threads=1, **kw)
    two = bjsolve.simulate(Rules(decks=6), threads=2, **kw)
    three = bjsolve.simulate(Rules(decks=6), threads=3, **kw)
    assert _plain(one) == _plain(two) == _plain(three)
    assert one.chunks == 7
    other = bjsolve.simulate(Rules(decks=6), threads=2, **dict(kw, seed=100))
    assert other.total_won != one.total_won
    # another chunking is another (equally valid) sample
    rechunked = bjsolve.simulate(Rules(decks=6), threads=2, **dict(kw, chunk_rounds=70_000))
    assert rechunked.total_won != one.total_won


def test_generator_is_uniform_and_seeded_per_chunk():
    from bjcore import random_integers
    a = random_integers(1, 0, 60_000, 6)
    assert (a == random_integers(1, 0, 60_000, 6)).all()
    assert not (a == random_integers(1, 1, 60_000, 6)).all()
    assert not (a == random_integers(2, 0, 60_000, 6)).all()
    counts = np.bincount(a, minlength=6)
    chi2 = float(((counts - 10_000) ** 2 / 10_000).sum())
    assert chi2 < 25.7  # 5 degrees of freedom, p = 1e-4


# ---- known effects ---------------------------------------------------------------------------

def test_cut_card_effect_lowers_the_single_deck_mean():
    # one deck, flat betting, one spot, cut at 26 cards: rounds that use many cards end the
    # shoe sooner, so low-card-rich (player-unfavourable) remainders are played more often
    rules = Rules(decks=1)
    chart, exact = _chart_ev(rules)
    result = bjsolve.simulate(rules, rounds=16_000_000, seed=21, penetration=26, strategy=chart)
    print(f"cut-card: off the top {exact:+.5f}, dealt to the cut {result.mean:+.5f} "
          f"+- {result.se:.5f}")
    assert result.mean < exact - 3 * result.se


def test_hilo_ramp_wins_at_good_penetration():
    result = bjsolve.simulate(Rules(decks=2, surrender="late"), rounds=4_000_000, seed=31,
                              penetration=0.8, system="hilo", ramp="1:1,2:4,3:8",
                              indices=True)   # the exact Hi-Lo indices, insurance included
    assert result.mean > 3 * result.se
    assert result.win_rate > 0
    assert result.total_bet > result.played  # the ramp raised some bets
    assert result.settings["index_plays"] > 50 and result.settings["insurance"] != "never"
    flat = bjsolve.simulate(Rules(decks=2, surrender="late"), rounds=4_000_000, seed=31,
                            penetration=0.8)
    assert flat.mean < 0


def test_wonging_sits_out_low_counts():
    result = bjsolve.simulate(Rules(decks=6), rounds=1_000_000, seed=3, wong_in=2, wong_out=0)
    assert 0 < result.played < result.rounds
    for row in result.per_true_count:
        if row.true_count < 0:
            assert row.played == 0
        if row.true_count >= 2:
            assert row.played == row.rounds
    assert result.mean > 0


# ---- results, interruption, bankroll ---------------------------------------------------------

def test_to_pandas_and_tables():
    pytest.importorskip("pandas")
    result = bjsolve.simulate(Rules(decks=6), rounds=200_000, seed=4)
    df = result.to_pandas()
    assert df["rounds"].sum() == 200_000
    assert abs(df["frequency"].sum() - 1) < 1e-12
    assert df.attrs["rounds"] == 200_000
    summary, by_tc = result.tables()
    assert summary["rounds dealt", "value"] == "200,000"      # rows read as words
    assert {r["name"]: r["value"] for r in summary.records}["rounds"] == 200_000
    assert sum(r["rounds"] for r in by_tc.records) == 200_000


def test_ctrl_c_returns_what_was_simulated_marked_partial():
    calls = []

    def progress(done, total):
        calls.append(done)
        if len(calls) == 2:
            raise KeyboardInterrupt

    result = bjsolve.simulate(Rules(decks=6), rounds=1_000_000, seed=4, chunk_rounds=100_000,
                              threads=1, progress=progress)
    # the two chunks reported, and what the worker thread had dealt of the next ones
    assert result.partial and 100_000 * len(calls) <= result.rounds < 1_000_000
    assert "PARTIAL" in str(result)


class _InterruptOnceRunning:
    """Wraps a GamePlan's run: once a chunk is under way, interrupt the main thread as a
    Ctrl-C would.  If the main thread has not finished simulate() within ``rescue_after``
    seconds (the kernel holds it until its chunk ends), set the kernel's stop flag so that
    a broken test fails instead of hanging."""

    def __init__(self, monkeypatch, rescue_after=60.0):
        import _thread
        import signal
        import threading
        import time
        from bjsolve.simulation.game_plan import GamePlan
        self.rescued = False
        self.returned = threading.Event()
        started = threading.Event()
        stops = []
        original = GamePlan.run

        def run(plan, seed, chunk, rounds, stop=None, bankroll=0.0, *rest):
            stops.append(stop)
            started.set()
            return original(plan, seed, chunk, rounds, stop, bankroll, *rest)

        def interrupt():
            started.wait()
            time.sleep(0.5)              # into the kernel (not a timing assertion)
            _thread.interrupt_main()
            if not self.returned.wait(rescue_after):
                self.rescued = True
                for stop in stops:
                    stop[0] = 1
        monkeypatch.setattr(GamePlan, "run", run)
        # Ctrl-C as in a terminal: a process started in the background (as CI may start
        # pytest) begins with SIGINT ignored, and interrupt_main() then does nothing
        self._sigint = signal.signal(signal.SIGINT, signal.default_int_handler)
        threading.Thread(target=interrupt, daemon=True).start()

    def close(self):
        import signal
        self.returned.set()
        signal.signal(signal.SIGINT, self._sigint)


@pytest.mark.parametrize("threads, rounds, chunk_rounds", [(1, 10**12, 10**12),
                                                         (2, 10**10, 10**6)])
def test_keyboard_interrupt_stops_a_long_run_at_once(monkeypatch, threads, rounds,
                                                     chunk_rounds):
    """One Ctrl-C (KeyboardInterrupt in the main thread) ends simulate() within moments,
    however long the chunk under way (the kernel looks at a stop flag every 65,536 rounds),
    and returns the rounds dealt so far."""
    watch = _InterruptOnceRunning(monkeypatch)
    try:
        result = bjsolve.simulate(Rules(decks=2), rounds=rounds, seed=8, threads=threads,
                                  chunk_rounds=chunk_rounds)
    finally:
        watch.close()
    assert not watch.rescued, "simulate() went on after the KeyboardInterrupt"
    assert result.partial and 0 <= result.rounds < rounds
    assert result.played == result.rounds                # flat betting plays every round


def test_one_round_has_a_mean_but_no_sd():
    """The sample SD of one round is undefined: NaN in the API (as the per-true-count rows
    of a count seen once), never 'nan' in what is shown."""
    r = bjsolve.simulate(Rules(decks=1), rounds=1, seed=1)
    assert r.rounds == 1 and math.isfinite(r.mean) and math.isnan(r.sd) and math.isnan(r.se)
    assert "nan" not in (str(r) + repr(r)).lower()
    assert "no SE from a single round" in str(r)


def test_bankroll_trials():
    r = bjsolve.simulate(Rules(decks=6), rounds=1000, seed=5,
                         bankroll_trials=(400, 2000, 10.0))
    small = r.ruin
    big = bjsolve.simulate(Rules(decks=6), rounds=1000, seed=5,
                           bankroll_trials=(400, 2000, 400.0)).ruin
    # a random walk with SD ~1.15 per round: 10 units are lost within 2000 rounds most of
    # the time, 400 units (7.5 SD of the whole path) never
    assert 0.5 < small.risk_of_ruin < 1.0 and big.ruined == 0


# ---- bad input -------------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, match", [
    (dict(rounds=0), "rounds"),
    (dict(rounds=-5), "rounds"),
    (dict(rounds=2.5), "rounds"),
    (dict(rounds="10"), "rounds"),
    (dict(seed=1.5), "seed"),
    (dict(seed="1"), "seed"),
    (dict(seed=-1), "seed"),
    (dict(penetration=1.0), "beyond"),
    (dict(penetration=400), "beyond"),
    (dict(penetration=3), "below one round"),
    (dict(penetration=-0.5), "penetration"),
    (dict(penetration="deep"), "penetration"),
    (dict(ramp="1:1,2:-2"), "must be 0 .sits the round out. or a number"),
    (dict(ramp="2:1,2:2"), "given twice"),
    (dict(ramp="1:0,2:0"), "every bet is 0"),
    (dict(ramp="1.5:2"), "whole number"),
    (dict(ramp="1:1,x"), "count:bet"),
    (dict(system="nosuch"), "unknown count system"),
    (dict(system=(1, 2, 3)), "10 numbers"),
    (dict(decks_estimation="quarter-deck"), "decks_estimation"),
    (dict(tc_rounding="up"), "tc_rounding"),
    (dict(spots=8), "spots"),
    (dict(strategy="perfect"), "strategy"),
    (dict(wong_in=1, wong_out=3), "wong_out"),
    (dict(indices="10 5 1 0 0 2 x 3 +1000\n"), "line 1"),
    (dict(indices="16 10 0 0 0 2 +0 1 +1000\n12 4 1 0\n"), "line 2"),
    (dict(bankroll_trials=(10, 10)), "bankroll_trials"),
    (dict(indices="no-such-file.idx"), "neither an index file"),
    (dict(table_min=0), "table_min"),
    (dict(table_max=0.5), "table_max"),
    # inf, NaN and ints too large for the kernel's 64-bit (or a float's) range
    (dict(penetration=math.inf), "penetration"),
    (dict(penetration=math.nan), "penetration"),
    (dict(wong_in=math.inf), "wong_in"),
    (dict(wong_in=math.nan), "wong_in"),
    (dict(wong_out=-10**30), "wong_out"),
    (dict(insurance=10**30), "insurance"),
    (dict(insurance=math.inf), "insurance"),
    (dict(table_min=10**400), "table_min"),
    (dict(table_max=10**400), "table_max"),
    (dict(table_max=math.nan), "table_max"),
    (dict(bankroll_trials=(10, 10, 10**400)), "bankroll"),
    (dict(bankroll_trials=(10**9, 10**9, 10)), "bankroll_trials"),
    (dict(system=(1e308,) + (0,) * 9), "tags must be within"),
    (dict(system=(10**400,) + (0,) * 9), "tags"),
    # bets beyond the ramp's range: 1e308 overflowed the squared results (mean NaN)
    (dict(table_min=1e308), "table_min must be a bet from 1e-06 to 1,000,000 units"),
    (dict(table_min=1e-300), "table_min must be a bet from 1e-06"),
    (dict(table_min=1e6 + 1), "table_min"),
    # a callable of another signature failed in Python's words inside the run
    (dict(progress=lambda: None), r"progress must be .*progress\(done, total\).*<lambda>\(\)"),
    (dict(progress=lambda done: None), r"progress\(done, total\)"),
    (dict(progress=42), r"progress must be True, False, None or a callable"),
])
def test_bad_input_is_refused_before_any_work(kwargs, match):
    args = dict(rounds=1000, seed=1)
    args.update(kwargs)
    with pytest.raises((ValueError, TypeError), match=match):
        bjsolve.simulate(Rules(decks=6), **args)


@pytest.mark.parametrize("trials", [(10**400, 1, 1), (1, 10**400, 1), (10**16, 10**16, 1)])
def test_bankroll_trials_messages_stay_short(trials):
    """(10**400, 1, 1) echoed all 400 digits (a 602-character message)."""
    with pytest.raises(ValueError, match="bankroll_trials") as info:
        bjsolve.simulate(Rules(decks=6), rounds=1000, seed=1, bankroll_trials=trials)
    assert len(str(info.value)) < 150, str(info.value)


def test_table_limits_keep_the_figures_finite():
    """The extremes that are taken give finite figures (1e308 gave mean NaN); a
    table_max above every bet changes nothing."""
    kw = dict(rounds=1000, seed=1, threads=1)
    for table_min in (1e-6, 1e6):
        r = bjsolve.simulate(Rules(decks=2, hit_soft_17=True), table_min=table_min, **kw)
        assert all(math.isfinite(x) for x in (r.mean, r.sd, r.se, r.win_rate))
    flat = bjsolve.simulate(Rules(decks=2), **kw)
    assert bjsolve.simulate(Rules(decks=2), table_max=1e308, **kw).summary() == flat.summary()


@pytest.mark.parametrize("penetration", [-0.5, math.nan, "deep", [0.5]])
def test_penetration_messages_give_the_range_taken(penetration):
    """Every message says (0, 1): a fraction of 1 leaves no round behind the cut card
    (two said (0, 1], which is refused)."""
    with pytest.raises((ValueError, TypeError), match=r"a fraction of the shoe in \(0, 1\), a "
                                                      r"number of cards, or 'every-round'"):
        bjsolve.simulate(Rules(decks=6), rounds=10, seed=1, penetration=penetration)
    with pytest.raises(ValueError, match="beyond"):
        bjsolve.simulate(Rules(decks=6), rounds=10, seed=1, penetration=1.0)


def test_the_shoe_limit_is_the_kernels():
    """One limit: simulate's MAX_SHOE_CARDS is the kernel's MAX_CARDS (not a copy)."""
    import importlib
    import bjcore
    sim = importlib.import_module("bjsolve.simulation.simulator")
    assert sim.MAX_SHOE_CARDS is bjcore.MAX_CARDS


@pytest.mark.parametrize("shoe", [[3 * 10**8] * 10,                 # 3e9 cards: past 2**31
                                  [20_000_001] * 5 + [0] * 5,         # just past the limit
                                  bjsolve.Shoe.infinite([10**8] * 10)])
def test_a_shoe_too_large_to_hold_is_refused(shoe):
    """A shoe of more than 2**31 cards overflowed the kernel's card positions (a crash of
    the interpreter); every worker holds the shuffled shoe, one byte a card, so the
    simulator takes at most MAX_SHOE_CARDS cards and says so."""
    from bjsolve.simulation.simulator import MAX_SHOE_CARDS
    assert MAX_SHOE_CARDS < 2**31
    with pytest.raises(ValueError, match=r"shoe: .* cards; the simulator deals from at most "
                                         r"100,000,000"):
        bjsolve.simulate(Rules(decks=1), rounds=10, seed=1, threads=1, shoe=shoe,
                         penetration="every-round")


@pytest.mark.parametrize("counts, words", [
    ([3 * 10**8] * 10, "3,000,000,000 cards"),
    ([-1] + [4] * 8 + [16], "counts must be finite and non-negative")])
def test_the_kernel_refuses_a_shoe_it_cannot_hold(counts, words):
    """A GamePlan is public: a hand-made one with a shoe past the kernel's limit is a
    ValueError from the kernel itself (its card positions overflowed: a segfault)."""
    from bjcore import MAX_CARDS
    from bjsolve.simulation.simulator import MAX_SHOE_CARDS, build_plan
    assert MAX_CARDS == MAX_SHOE_CARDS
    plan, _ = build_plan(Rules(decks=1), penetration="every-round")
    big = type(plan)(**dict(vars(plan), shoe=np.array(counts, dtype=np.int32)))
    with pytest.raises(ValueError, match=words):
        big.run(1, 0, 10)


def test_bankroll_paths_run_in_bounded_batches(monkeypatch):
    """bankroll_trials=(10**8, 1, 1) built every path's chunk (and its result) at once:
    3.9 GB.  The paths run RUIN_BATCH_PATHS at a time keeping only whether each was
    ruined, and the batching does not change the figures (each path is its own seeded
    chunk)."""
    import importlib
    sim = importlib.import_module("bjsolve.simulation.simulator")
    kw = dict(rounds=10, seed=3, bankroll_trials=(50, 40, 4.0), threads=2)
    whole = bjsolve.simulate(Rules(decks=2), **kw).ruin
    batches = []
    run_local = sim.run_local

    def recording(plan, seed, specs, *args, **kwargs):
        batches.append(len(specs))
        return run_local(plan, seed, specs, *args, **kwargs)
    monkeypatch.setattr(sim, "RUIN_BATCH_PATHS", 16)
    monkeypatch.setattr(sim, "run_local", recording)
    batched = bjsolve.simulate(Rules(decks=2), **kw).ruin
    assert batches[1:] == [16, 16, 16, 2]          # batches[0]: the 10 rounds themselves
    assert batched == whole and 0 < whole.ruined < 50


def test_strategy_returning_a_disallowed_action_is_named():
    with pytest.raises(ValueError, match="strategy returned 'split'"):
        bjsolve.simulate(Rules(decks=1), rounds=10, seed=1, strategy=lambda c, d, a: "split")


# ---- index files -----------------------------------------------------------------------------

def _small_index_file():
    # 16 v T: hit below 0, stand from 0; 12 v 3: hit below +2; 10 v A: hit below +4
    return ("16 10 1 0 1 2 +0 1 +1000\n16 10 0 0 0 2 +0 1 +1000\n"
            "12 3 1 0 1 2 +2 1 +1000\n12 3 0 0 0 2 +2 1 +1000\n"
            "10 1 1 0 1 2 +4 3 +1000\n")


def test_index_file_round_trip():
    plays = parse_index_file(_small_index_file())
    assert plays[0].count == 16 and plays[0].dealer == 10 and plays[0].flags == (1, 0, 1)
    assert plays[0].plays == ("hit", "stand") and plays[0].thresholds == (0,)


def test_index_plays_change_the_result():
    kw = dict(rounds=300_000, seed=8, chunk_rounds=100_000)
    base = bjsolve.simulate(Rules(decks=6, surrender="late"), **kw)
    # an index that always stands on 16 v T (threshold far below any count) differs
    always = "16 10 1 0 1 2 -900 1 +1000\n16 10 0 0 0 2 -900 1 +1000\n"
    moved = bjsolve.simulate(Rules(decks=6, surrender="late"), indices=always, **kw)
    assert moved.total_won != base.total_won
