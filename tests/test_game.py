"""The counted game: identities, the round model against the exact engine and a simulation,
true-count frequencies, edges and ramp figures against a shoe-game simulation."""
import math
import re
from dataclasses import replace

import numpy as np
import pytest

from bjsolve import Rules, Shoe, solve
from bjsolve.counting.removal import SYSTEMS
from bjsolve.risk.game import CountedGame, parse_ramp
from bjsolve.risk.round_model import round_profile

from shoe_game_sim import ramp_totals, simulate_shoe_game, summarize
from simulator import simulate

RULES_2D = Rules(decks=2, hit_soft_17=True)
TC_MIN, TC_MAX = -6, 8
SIM_ROUNDS = 150_000


@pytest.fixture(scope="module")
def game():
    return CountedGame(RULES_2D, "hilo", penetration=0.75, depth_bands=1,
                       tc_min=TC_MIN, tc_max=TC_MAX)


@pytest.fixture(scope="module")
def sim(game):
    return simulate_shoe_game(RULES_2D, SYSTEMS["hilo"][1], lambda tc: game.chart,
                              rounds=SIM_ROUNDS, seed=2024, penetration=0.75)


def _pooled(result, lo, hi):
    """The simulation's per-batch sums with the end true counts pooled like the game's."""
    bins = {}
    for tc, cells in result["bins"].items():
        key = min(max(tc, lo), hi)
        slot = bins.setdefault(key, [[0, 0.0, 0.0] for _ in cells])
        for a, b in zip(slot, cells):
            a[0] += b[0]
            a[1] += b[1]
            a[2] += b[2]
    return {"bins": bins, "rounds": result["rounds"], "cards": result["cards"]}


# ---- the round model ------------------------------------------------------------------

@pytest.mark.parametrize("rules", [
    Rules(decks=math.inf, max_split_hands=2),
    Rules(decks=math.inf, max_split_hands=2, hit_soft_17=True, surrender="late",
          double_after_split=False, hit_split_aces=True, double="10-11",
          blackjack_payout=1.2, dealer_wins_ties=True),
])
def test_round_model_mean_equals_the_exact_engine(rules):
    # without resplits the infinite-deck model plays exactly the game the engine solves
    chart = solve(rules).strategy
    exact = solve(rules).evaluate(chart)
    profile = round_profile(rules, Shoe.infinite().probabilities(), chart)
    assert profile.mean == pytest.approx(exact, abs=1e-12)
    assert profile.cards.sum() == pytest.approx(1.0, abs=1e-12)


def test_round_model_variance_matches_a_simulation():
    rules = Rules(decks=math.inf, max_split_hands=2)
    sol = solve(rules)
    chart = sol.strategy
    profile = round_profile(rules, Shoe.infinite().probabilities(), chart)
    rounds = 200_000

    def policy(cards, dealer_cards, allowed, is_split):
        return chart(cards, dealer_cards[0], allowed)

    mean, se = simulate(rules, policy, rounds=rounds, seed=99)
    sd = se * math.sqrt(rounds)
    # the SD of a sample SD is about SD * sqrt((kurtosis - 1) / 4n); blackjack's kurtosis
    # is below 5, so 3 standard errors are within 3 * SD * 1/sqrt(n)
    assert sd == pytest.approx(math.sqrt(profile.variance), abs=3 * sd / math.sqrt(rounds) * 1.2)
    assert abs(mean - profile.mean) < 3 * se


def test_round_cards_law_marginal_and_walds_identity():
    # the joint law of (cards, tag sum) sums to the cards law of round_profile (which has
    # no resplits: two hands at most here), and (Wald's identity: the round's cards are a
    # stopping time of independent draws) its mean tag sum is the mean cards times the
    # mean tag, at any composition
    from bjsolve.risk.round_model import round_cards_law
    rules = Rules(decks=2, hit_soft_17=True, surrender="late", max_split_hands=2)
    chart = solve(rules, shoe=Shoe.decks(2)).strategy
    tags = SYSTEMS["hilo"][1]
    for probs in (Shoe.decks(2).probabilities(),
                  np.array([5, 3, 3, 3, 4, 4, 4, 4, 4, 18], dtype=float) / 52):
        joint = round_cards_law(rules, probs, chart, tags)
        cards = round_profile(rules, probs, chart).cards
        k = max(len(cards), joint.law.shape[0])
        a, b = np.zeros(k), np.zeros(k)
        a[:len(cards)], b[:joint.law.shape[0]] = cards, joint.law.sum(axis=1)
        assert np.abs(a - b).max() < 1e-12
        assert joint.law.sum() == pytest.approx(1.0, abs=1e-12) and joint.law.min() >= 0
        mean_tag = float(np.asarray(probs) / np.sum(probs) @ np.asarray(tags, dtype=float))
        assert joint.mean_count == pytest.approx(joint.mean_cards * mean_tag, abs=1e-12)


def test_round_cards_law_resplits():
    # resplits take more cards (a law that still sums to 1 and keeps Wald's identity);
    # without resplitting aces the aces add nothing, and the law with resplit aces is the
    # same when split aces are not resplit-able anyway (two hands)
    from bjsolve.risk.round_model import round_cards_law
    tags = SYSTEMS["hilo"][1]
    probs = Shoe.decks(6).probabilities()
    chart = solve(Rules(decks=6), shoe=Shoe.decks(6)).strategy
    mean = {m: round_cards_law(Rules(decks=6, max_split_hands=m), probs, chart, tags)
            for m in (2, 3, 4)}
    assert mean[2].mean_cards < mean[3].mean_cards < mean[4].mean_cards
    for law in mean.values():
        assert law.law.sum() == pytest.approx(1.0, abs=1e-12) and law.law.min() >= 0
        # (Hi-Lo is balanced: 0 up to the transforms' rounding, a few 1e-12 on this grid)
        assert law.mean_count == pytest.approx(law.mean_cards * float(probs @ np.array(tags)),
                                               abs=1e-10)
    # a split adds about 2 cards a hand; resplits to 4 hands happen in about 1 round in 300
    assert 0.002 < mean[4].mean_cards - mean[2].mean_cards < 0.03


def test_the_docs_say_the_round_model_resplits():
    """docs/counted-game.md's round model section described the model as playing no
    resplits while round_cards_law, the one the game uses, plays them (the test above)."""
    import pathlib
    text = (pathlib.Path(__file__).resolve().parent.parent / "docs" / "counted-game.md"
            ).read_text(encoding="utf-8")
    section = " ".join(text.split("### The round model")[1].split("\n## ")[0].split())
    assert "The game uses `round_cards_law`" in section
    assert "with resplits as the simulator plays them" in section
    # "no resplits" only where round_profile is meant
    for sentence in re.split(r"(?<=\.)\s", section):
        if "no resplits" in sentence or "without resplits" in sentence:
            assert "round_profile" in sentence, sentence


def test_round_starts_identities():
    # P(start | n, running count) is a probability; the weights are the exact count law
    # times it; rounds start only where a round can end (n = 0 or n >= 4 seen), and the
    # first round starts at n = 0 with the running count 0
    from bjsolve.counting.count_laws import CountDistribution
    from bjsolve.risk.round_starts import round_starts
    rules = Rules(decks=1)
    count = CountDistribution("hilo", Shoe.decks(1))
    chart = solve(rules, shoe=Shoe.decks(1)).strategy
    rs = round_starts(rules, chart, count, cut=39, burn=1)
    assert rs.weight.shape == (38, count.probabilities.shape[1])
    assert 0 <= rs.start_probability.min() and rs.start_probability.max() <= 1
    assert np.allclose(rs.weight, count.probabilities[:38] * rs.start_probability, atol=0)
    assert rs.weight[0].sum() == 1.0 and rs.weight[0, list(count.running_counts).index(0)] == 1
    assert rs.weight[1:4].sum() == 0
    # one round of 4 cards after the first: n = 4 carries P(L = 4) starts
    assert rs.weight[4].sum() == pytest.approx(rs.round_law.law[4].sum(), rel=0.02)
    # a round takes >= 4 cards, so at most one start per 4 cards (plus the first)
    assert rs.rounds_per_shoe <= 1 + 37 / 4


def test_round_starts_with_a_strategy_by_count():
    # one strategy at every count (two keys for it): the same weights as without; a
    # strategy that stands on everything below TC 0 uses fewer cards there, so more rounds
    # start in a shoe, and states below 0 gain round starts against those above
    from bjsolve.counting.count_laws import CountDistribution
    from bjsolve.risk.round_starts import round_starts
    rules = Rules(decks=2)
    count = CountDistribution("hilo", Shoe.decks(2))
    chart = solve(rules, shoe=Shoe.decks(2)).strategy
    plain = round_starts(rules, chart, count, cut=78, burn=1, depletion=False)
    same = round_starts(rules, chart, count, cut=78, burn=1, depletion=False,
                        strategy_at=lambda tc: (tc >= 0, chart))
    assert np.allclose(same.weight, plain.weight, rtol=1e-12, atol=1e-15)

    def stand(cards, dealer, allowed):
        return "stand"
    mixed = round_starts(rules, chart, count, cut=78, burn=1, depletion=False,
                         strategy_at=lambda tc: (tc >= 0, chart if tc >= 0 else stand))
    assert mixed.rounds_per_shoe > plain.rounds_per_shoe
    tcs = np.stack([count.true_counts(n) for n in range(77)])
    low = lambda rs: float(rs.weight[tcs < 0].sum() / rs.weight.sum())   # noqa: E731
    assert low(mixed) > low(plain)


def _compiled_frequencies(rules, lo, hi, rounds, runs, seed):
    """Frequencies of the true counts lo..hi (ends pooled) at round starts in ``runs``
    independent runs of the compiled shoe simulator: (mean, standard error) per count."""
    import bjsolve
    from one_plan import one_plan_for_every_run
    table = np.zeros((runs, hi - lo + 1))
    with one_plan_for_every_run():     # the runs differ in their seed only
        results = [bjsolve.simulate(rules, rounds=rounds // runs, seed=seed + k,
                                    penetration=0.75, system="hilo", tc_rounding="floor")
                   for k in range(runs)]
    for k, res in enumerate(results):
        for row in res.per_true_count:
            table[k, min(max(int(row.true_count), lo), hi) - lo] += row.rounds / res.rounds
    return table.mean(axis=0), table.std(axis=0, ddof=1) / math.sqrt(runs)


def _model_frequencies(weight, count, lo, hi):
    freq = np.zeros(hi - lo + 1)
    for n in range(weight.shape[0]):
        tcs = count.true_counts(n)
        np.add.at(freq, np.clip(tcs, lo, hi).astype(int) - lo, weight[n])
    return freq / freq.sum()


# 6 decks S17 (about 6 s: 4 x 10^6 rounds and a 6-deck count law) with --run-slow
@pytest.mark.parametrize("decks, h17, lo, hi", [(2, True, -8, 10),
                                                pytest.param(6, False, -7, 7,
                                                             marks=pytest.mark.slow)])
def test_round_start_frequencies_match_the_compiled_simulator(decks, h17, lo, hi):
    # 4,000,000 simulated rounds in 8 independent runs; every bin (ends pooled) within 4
    # standard errors, and the misses not all of one sign (benchmarks/bench_game.py does
    # 10^8 rounds: within 3)
    from bjsolve.counting.count_laws import CountDistribution
    from bjsolve.risk.round_starts import round_starts
    rules = Rules(decks=decks, hit_soft_17=h17, double_after_split=True)
    shoe = Shoe.decks(decks)
    count = CountDistribution("hilo", shoe)
    chart = solve(rules, shoe=shoe).strategy
    rs = round_starts(rules, chart, count, cut=round(0.75 * len(shoe)), burn=1)
    model = _model_frequencies(rs.weight, count, lo, hi)
    sim, se = _compiled_frequencies(rules, lo, hi, 4_000_000, 8, seed=7_000 + decks)
    z = (model - sim) / se
    assert np.abs(z).max() < 4, list(zip(range(lo, hi + 1), np.round(z, 2)))
    assert float(np.sum(z * z)) < 2.5 * len(z)


# ---- frequencies, edges and ramps against the shoe simulation ------------------------

def test_true_count_frequencies_match_the_simulation(game, sim):
    summary = summarize(_pooled(sim, TC_MIN, TC_MAX))
    z2 = []
    for i, tc in enumerate(game.tc_values):
        f, se, *_ = summary[int(tc)]
        z = (game.frequency[i] - f) / se
        assert abs(z) < 3, (tc, game.frequency[i], f, se)
        z2.append(z * z)
    assert sum(game.frequency) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.slow   # a second game and 150,000 simulated rounds, for the negative control
def test_round_length_correction_is_needed():
    # without it, the frequencies of the common true counts miss the simulation by many
    # standard errors (the uncorrected law assumes round starts independent of the count)
    plain = CountedGame(RULES_2D, "hilo", penetration=0.75, depth_bands=1, tc_min=TC_MIN,
                        tc_max=TC_MAX, round_length_correction=False, strategy="basic")
    sim = simulate_shoe_game(RULES_2D, SYSTEMS["hilo"][1], lambda tc: plain.chart,
                             rounds=SIM_ROUNDS, seed=2024, penetration=0.75)
    summary = summarize(_pooled(sim, TC_MIN, TC_MAX))
    worst = max(abs(plain.frequency[i] - summary[int(tc)][0]) / summary[int(tc)][1]
                for i, tc in enumerate(plain.tc_values))
    assert worst > 4


def test_edges_match_the_simulation(game, sim):
    summary = summarize(_pooled(sim, TC_MIN, TC_MAX))
    # a sample SD of n rounds is uncertain by sd sqrt((kurtosis - 1) / (4 n)) (relative);
    # the kurtosis of a round from the full shoe's exact law
    law = game.full_shoe_outcomes
    x = law.values - law.mean
    kurtosis = float(law.probabilities @ x ** 4) / law.variance ** 2
    for i, tc in enumerate(game.tc_values):
        _, _, mean, se, sd, n = summary[int(tc)]
        assert abs(game.edge[i] - mean) < 3 * se, (tc, game.edge[i], mean, se)
        # the SD by true count (exact second moments, calibrated) within 3.5 of those
        # errors (150,000 rounds: 1% in the common bins, 2-4% in the rare ones)
        rel = 3.5 * math.sqrt((kurtosis - 1) / (4 * n))
        assert math.sqrt(game.variance[i]) == pytest.approx(sd, rel=rel), (tc, sd, n)


def test_mean_cards_per_round_matches_the_simulation(game, sim):
    cards = sim["cards"]
    mean = sum(k * v for k, v in cards.items()) / sum(cards.values())
    model = float(np.arange(len(game.cards_per_round)) @ game.cards_per_round)
    assert model == pytest.approx(mean, rel=0.005)


def test_flat_betting_win_rate_is_the_frequency_weighted_edge_and_the_full_shoe_ev():
    # Without the round-length correction the states at round starts are random
    # depletions of the shoe, and a fixed strategy's EV averaged over random depletions
    # is the full shoe's EV (the fundamental theorem of card counting).  Uncalibrated, the
    # mean compositions of the cells miss it by their curvature (a few 1e-4 in one deck);
    # calibrated, exactly.
    full = None
    for calibrate, tolerance in ((False, 6e-4), (True, 1e-12)):
        g = CountedGame(Rules(decks=1), "hilo", penetration=0.6, depth_bands=1,
                        tc_min=-4, tc_max=6, round_length_correction=False,
                        calibrate=calibrate)
        flat = g.evaluate({0: 1})
        assert flat.win_rate == pytest.approx(float(g.frequency @ g.edge), abs=1e-15)
        if full is None:
            full = solve(Rules(decks=1)).evaluate(g.chart)
        assert flat.win_rate == pytest.approx(full, abs=tolerance)
        if not calibrate:
            assert abs(flat.win_rate - full) > 1e-6    # the shortcut does cost something


def test_flat_betting_second_moment_is_the_full_shoe_one():
    # The fundamental theorem holds for the whole outcome law of a fixed strategy: over
    # random depletions the second moment per round is the full shoe's.  Calibrated per
    # depth band, the flat bettor's E[X^2] = sum f (v + m^2) is the full shoe's exact
    # second moment (from Solution.outcome_distribution, which asks the chart hand by
    # hand); uncalibrated the mean compositions miss it by their curvature.
    full = None
    for calibrate in (False, True):
        g = CountedGame(Rules(decks=1), "hilo", penetration=0.6, depth_bands=2,
                        tc_min=-4, tc_max=6, round_length_correction=False,
                        calibrate=calibrate)
        flat = g.evaluate({0: 1})
        second = flat.variance + flat.win_rate ** 2
        assert second == pytest.approx(float(g.frequency @ (g.variance + g.edge ** 2)),
                                       rel=1e-12)
        if full is None:
            dist = solve(Rules(decks=1)).outcome_distribution(g.chart)
            full = dist.pmf_variance + dist.mean ** 2   # the pmf's (the game's laws are pmfs)
        if calibrate:
            assert second == pytest.approx(full, abs=1e-12)
        else:
            assert abs(second - full) > 1e-4


def test_per_count_moments_are_the_exact_outcome_distribution_of_its_composition():
    # one band, uncalibrated, optimal play: each true count's edge and variance are the
    # exact outcome distribution's of the count's mean composition (a fractional shoe)
    g = CountedGame(Rules(decks=1), "hilo", penetration=0.6, depth_bands=1, tc_min=-3,
                    tc_max=4, calibrate=False, strategy="optimal")
    for i in (0, len(g.tc_values) // 2, len(g.tc_values) - 1):
        sol = solve(g.rules, shoe=g.composition(g._band_seen[:, i, 0]))
        dist = sol.outcome_distribution("optimal")
        assert g.edge[i] == pytest.approx(sol.expected_value, abs=1e-12)
        # the kernel's law may leave out a little mass on a fractional shoe (worth 0)
        second = float(dist.probabilities @ dist.values ** 2)
        assert g.variance[i] + g.edge[i] ** 2 == pytest.approx(second, abs=1e-12)


def _cell_compositions(g, tc, band, size, rng):
    """Whole remaining shoes drawn from true count tc's states in depth band ``band``: a
    state (cards seen, running count) with its weight among the round starts, the cards
    seen per tag class given that state (hypergeometric: prop. to the product of
    C(class size, cards seen of it)), the ranks within each class (multivariate
    hypergeometric).  Hi-Lo only (classes high -1, neutral 0, low +1)."""
    cd, cl = g.count, g.count.classes
    assert cl.tags == (-1.0, 0.0, 1.0)
    probs = g._start_weight / g.rounds_per_shoe                # [cards seen, running count]
    seen = np.arange(probs.shape[0])
    tcs = np.stack([cd.true_counts(int(k)) for k in seen])
    edges = np.linspace(0, len(seen), g.depth_bands + 1)
    band_of = np.minimum(np.searchsorted(edges, seen, side="right") - 1, g.depth_bands - 1)
    t = np.clip(np.rint(np.where(probs > 0, tcs, 0)).astype(int), g.tc_values[0],
                g.tc_values[-1])
    ns, js = np.nonzero((t == tc) & (band_of[:, None] == band) & (probs > 0))
    w = probs[ns, js]
    full = np.array(g.shoe.counts)
    sizes = cl.sizes
    out = []
    for s in rng.choice(len(w), size=size, p=w / w.sum()):
        n, rc = int(ns[s]), int(round(cd.running_counts[js[s]]))
        splits, weight = [], []
        for high in range(sizes[0] + 1):
            low = rc + high
            neutral = n - high - low
            if 0 <= low <= sizes[2] and 0 <= neutral <= sizes[1]:
                splits.append((high, neutral, low))
                weight.append(math.comb(sizes[0], high) * math.comb(sizes[1], neutral)
                              * math.comb(sizes[2], low))
        weight = np.array(weight, dtype=float)
        k = splits[rng.choice(len(splits), p=weight / weight.sum())]
        gone = np.zeros(10, dtype=int)
        for c, members in enumerate(cl.members):
            idx = [r - 1 for r in members]
            gone[idx] = rng.multivariate_hypergeometric(full[idx], k[c])
        out.append(full - gone)
    return out


@pytest.fixture(scope="module")
def game_3_bands(counted_game_2d_h17):
    return counted_game_2d_h17


@pytest.mark.parametrize("tc, band, band_offset_misses_more", [(-8, 1, True), (8, 2, False)])
def test_per_count_second_moment_is_the_average_over_the_counts_compositions(
        game_3_bands, tc, band, band_offset_misses_more):
    # What the calibrated second moment of a cell (true count, depth band) stands for:
    # the average of the exact E[X^2] over the whole shoes of that cell.  Drawn at random
    # (exact laws of whole shoes, the chart's frozen decisions), averaged with the cards
    # left as control variates (their mean over the cell is the mean composition the model
    # evaluates at, so the regression's intercept is the average with a smaller error).
    # The curvature offset shared out per count must agree within 3 standard errors (the
    # deep band's error, about 0.002 in E[X^2] of 1.25, is as large as the difference
    # between the two methods there; in the middle band it is about 0.001, and one offset
    # per band, the previous method, misses TC -8 by more than the per-count offset).
    from bjsolve.exact.distribution import column_moments
    g = game_3_bands
    assert g.curvature_used == "count"
    i = list(g.tc_values).index(tc)
    rng = np.random.default_rng(20261122 + tc)
    shoes = _cell_compositions(g, tc, band, 60, rng)
    values = np.array([column_moments(g._exact_law(Shoe([int(x) for x in c]),
                                                    g._chart_engines),
                                      g.rules.blackjack_payout)[1] for c in shoes])
    average, se = _cell_average(g, i, band, shoes, values)
    per_count = g.chart_second[i, band] + g.cell_offset_second[i, band]
    per_band = g.chart_second[i, band] + g.band_offset_second[band]
    assert se < 0.004
    assert abs(per_count - average) < 3 * se
    if band_offset_misses_more:
        assert abs(per_count - average) < abs(per_band - average)


def _cell_average(g, i, band, shoes, values):
    """The mean of ``values`` over the cell's compositions and its standard error, the
    cards left (about the cell's mean composition) taken as control variates."""
    centre = np.array(g.composition(g._band_seen[:, i, band]).counts)
    design = np.column_stack([np.ones(len(values)), np.array(shoes, dtype=float) - centre])
    coef, *_ = np.linalg.lstsq(design, values, rcond=None)
    resid = values - design @ coef
    cov = np.linalg.pinv(design.T @ design) * (resid @ resid) / (len(values) - design.shape[1])
    return coef[0], math.sqrt(cov[0, 0])


@pytest.mark.slow   # 600 exact EVs of whole shoes: about 20 s
def test_per_count_edge_is_the_average_over_the_counts_compositions(game_3_bands):
    # The same for the edge: the calibrated edge of a cell stands for the average of the
    # exact EV (the EV engine, the chart's frozen decisions) over the whole shoes of the
    # cell, drawn at random, averaged with the cards left as control variates.  The
    # middle band at TC -8: the mean's predicted excess per count added to the band's
    # offset agrees within 3 standard errors (about 7e-5); one offset per band (the
    # previous method) is 4.2e-4 higher, beyond 3 of them (in 2D Pontoon that tilt of the
    # edges against the count showed against 1.8e8 simulated rounds).
    g = game_3_bands
    tc, band = -8, 1
    i = list(g.tc_values).index(tc)
    rng = np.random.default_rng(20261129)
    shoes = _cell_compositions(g, tc, band, 600, rng)
    values = np.array([g._frozen_ev(g._chart_engines, Shoe([int(x) for x in c]))
                       for c in shoes])
    average, se = _cell_average(g, i, band, shoes, values)
    per_count = g.chart_edge[i, band] + g.cell_offset[i, band]
    per_band = g.chart_edge[i, band] + g.band_offset[band]
    assert se < 1e-4
    assert abs(per_count - average) < 3 * se
    assert abs(per_band - average) > 3 * se


def test_chart_law_on_a_depleted_shoe_is_the_outcome_distribution(game):
    # the game's law of a depleted shoe (the chart's decisions frozen once, in policy
    # engines of the full shoe, and copied into the kernel) is the law
    # Solution.outcome_distribution gives for the chart on that shoe, its mean the EV engine's
    from bjsolve.exact.distribution import column_moments
    counts = list(game.shoe.counts)
    counts[0] -= 3            # three aces and five tens gone, two fives
    counts[9] -= 5
    counts[4] -= 2
    shoe = Shoe(counts)
    dist = solve(game.rules, shoe=shoe).outcome_distribution(game.chart)
    mean, second = column_moments(game._exact_law(shoe, game._chart_engines),
                                  game.rules.blackjack_payout)
    assert mean == pytest.approx(dist.mean, abs=1e-13)
    assert second - mean ** 2 == pytest.approx(dist.pmf_variance, abs=1e-12)
    assert mean == pytest.approx(solve(game.rules, shoe=shoe).evaluate(game.chart), abs=1e-13)


def test_ramp_win_rate_and_variance_match_the_simulation(game, sim):
    ramp = parse_ramp("1:1,2:2,3:4,4:8,5:12")
    got = game.evaluate(ramp, 10_000)
    pooled = _pooled(sim, TC_MIN, TC_MAX)
    win, se, var = ramp_totals(pooled, lambda tc: float(ramp.bets([tc])[0]))
    assert abs(got.win_rate - win) < 3 * se
    # variance formula: sum f b^2 (v + m^2) - W^2, against the simulated variance per round
    assert got.variance == pytest.approx(var, rel=0.03)
    # flat betting: the variance is the frequency-weighted second moment minus W^2
    flat = game.evaluate({0: 1})
    w = float(game.frequency @ game.edge)
    assert flat.variance == pytest.approx(
        float(game.frequency @ (game.variance + game.edge ** 2)) - w * w, rel=1e-12)


def test_ramp_figures_are_consistent(game):
    r = game.evaluate("1:1,2:2,3:4,4:8,5:12", 10_000)
    assert r.score == pytest.approx(r.di ** 2, rel=1e-12)
    assert r.n0 == pytest.approx((r.sd / r.win_rate) ** 2, rel=1e-12)
    assert r.sd_per_100 == pytest.approx(10 * r.sd)
    # doubling every bet doubles the win rate and SD, leaves DI/SCORE unchanged
    r2 = game.evaluate("1:2,2:4,3:8,4:16,5:24", 10_000, exact_ruin=False)
    assert r2.win_rate == pytest.approx(2 * r.win_rate)
    assert r2.score == pytest.approx(r.score)
    assert r2.ror == pytest.approx(r2.ror_diffusion) and "diffusion" in r2.ror_method
    # a larger bankroll lowers the risk of ruin; the CE approaches the win rate
    big = game.evaluate("1:1,2:2,3:4,4:8,5:12", 100_000)
    assert big.ror < r.ror
    assert abs(big.certainty_equivalent - big.win_rate) < abs(r.certainty_equivalent - r.win_rate)
    # wonging in at +1: fewer rounds played, a higher edge per bet
    w = game.evaluate("1:1,2:2,3:4,4:8,5:12", wong_in=1)
    assert w.rounds_played < 1 and w.advantage > r.advantage


def test_optimal_ramp_beats_other_ramps_with_the_same_spread(game):
    best = game.optimal_ramp(12)
    assert max(b for _, b in best.points) <= 12 and min(b for _, b in best.points) >= 1
    score = game.evaluate(best).score
    rng = np.random.default_rng(5)
    for _ in range(30):
        bets = np.sort(rng.uniform(1, 12, size=len(game.tc_values)).round())
        ramp = {float(t): float(b) for t, b in zip(game.tc_values, bets)}
        assert game.evaluate(ramp).score <= score + 1e-9
    # a spread of 1 is flat betting
    assert {b for _, b in game.optimal_ramp(1).points} == {1.0}
    # chips: every bet a multiple of the chip
    chips = game.optimal_ramp(8, min_bet=10, chip=5)
    assert all(b % 5 == 0 for _, b in chips.points)


def test_reevaluation_uses_the_cache(game):
    # evaluate() does no solving: the per-count figures are computed once
    solves = game.solves
    for bankroll in (1000, 5000, 20000):
        game.evaluate("1:1,4:8", bankroll)
    assert game.solves == solves


# ---- risk of ruin of a ramp ---------------------------------------------------------------

def _by_hand(game, bets):
    """The mixture law of one round's win built here from the per-count laws: frequency x
    law scaled by the bet, rounds sat out a point mass at 0 (independent of
    ``ramp_distribution``'s bincount and chip lattice)."""
    from types import SimpleNamespace
    pmf = {}
    for f, b, law in zip(game.frequency, bets, game.outcome_laws):
        for v, p in zip(game.outcome_values, law if b > 0 else [1.0]):
            key = round(float(v * b), 9)
            pmf[key] = pmf.get(key, 0.0) + f * p
    keys = sorted(pmf)
    return SimpleNamespace(values=np.array(keys), probabilities=np.array([pmf[k] for k in keys]))


def test_per_count_laws_have_the_counts_edge_and_variance(game):
    for law, m, v in zip(game.outcome_laws, game.edge, game.variance):
        assert law.sum() == pytest.approx(1.0, abs=1e-12) and law.min() >= 0
        assert float(law @ game.outcome_values) == pytest.approx(m, abs=1e-12)
        var = float(law @ (game.outcome_values - m) ** 2)
        assert var == pytest.approx(v, rel=1e-10)
    # the full shoe's law is the exact outcome distribution of the chart (asked hand by
    # hand there; the game copies the chart's frozen decisions into the kernel)
    dist = solve(game.rules, shoe=game.shoe).outcome_distribution(game.chart)
    assert np.allclose(game.full_shoe_outcomes.values, dist.values, atol=1e-12)
    assert np.allclose(game.full_shoe_outcomes.probabilities, dist.probabilities, atol=1e-14)


def test_flat_ramp_ruin_is_the_risk_module_on_the_single_distribution(game):
    from bjsolve.risk.ruin import lifetime_ruin
    # flat bets at true counts >= +1 (sat out below): a game with an edge
    wong = parse_ramp({1: 1}, wong_in=1)
    bets = wong.bets(game.tc_values)
    single = _by_hand(game, bets)
    for bankroll in (50, 400):
        got = game.evaluate(wong, bankroll)
        want = lifetime_ruin(single, bankroll)
        assert got.ror == pytest.approx(want.probability, rel=1e-9, abs=1e-15)
        assert got.ror_dominant_root == pytest.approx(want.dominant_root_estimate, rel=1e-9)
        # the same ramp with bets of 2 units: ruin of the half bankroll
        double = game.evaluate({1: 2}, 2 * bankroll, wong_in=1)
        assert double.ror == pytest.approx(want.probability, rel=1e-9, abs=1e-15)
    # a losing game (flat at every count) is ruined for sure
    assert game.evaluate({0: 1}, 1000).ror == 1.0


def test_ramp_ruin_exact_against_diffusion_and_the_mixture(game):
    from bjsolve.risk.ruin import lifetime_ruin
    ramp = "1:1,2:2,3:4"
    bets = parse_ramp(ramp).bets(game.tc_values)
    mix, chip, _ = game.ramp_distribution(bets)
    hand = _by_hand(game, bets)
    assert chip == 1.0
    assert np.allclose(mix.values, hand.values) and np.allclose(mix.probabilities,
                                                                hand.probabilities, atol=1e-15)
    # a bankroll large against the bets: the exact figure is within a few per cent of the
    # diffusion figure (both are ~exp(-c B); the exponents agree to O(skewness))
    r = game.evaluate(ramp, 400)
    assert 0.001 < r.ror < 0.3
    assert r.ror == pytest.approx(r.ror_diffusion, rel=0.05)
    assert r.ror == pytest.approx(lifetime_ruin(hand, 400).probability, rel=1e-9)
    # a bankroll change reuses the cached roots and stays ordered
    assert game.evaluate(ramp, 800).ror < r.ror
    # trip ruin: below the lifetime ruin, growing with the rounds
    t1 = game.evaluate(ramp, 400, trip_rounds=200).trip_ruin
    t2 = game.evaluate(ramp, 400, trip_rounds=2000).trip_ruin
    assert 0 <= t1 < t2 < r.ror


@pytest.mark.parametrize("ramp, bankroll, rounds", [
    # bets 1 to 100 units and a 1-unit bankroll: the law spans 1,024 lattice steps; 10^4
    # rounds ran for minutes on a loaded machine (the trip's estimate now allows about
    # 6,000 rounds at this budget, run round by round in the compiled kernel)
    ({-5: 0, -1: 1, 1: 1, 3: 0, 4: 100, 9: 2}, 1, 100_000),
    ("1:1,2:2,3:4,4:8", 1000, 1_000_000),     # refused by trip_ruin: evaluate raised
])
def test_a_trip_ruin_too_costly_for_evaluate_is_left_out_saying_why(game, ramp, bankroll,
                                                                     rounds):
    """evaluate stays interactive: a trip ruin estimated beyond GAME_TRIP_SECONDS is not
    computed (None), the reason is in trip_ruin_note and the table's notes, and every
    other figure is given as without rounds."""
    from bjsolve.risk.game import GAME_TRIP_SECONDS
    from bjsolve.risk.ramp import ramp_table
    from bjsolve.risk.ruin import trip_ruin
    result = game.evaluate(ramp, bankroll, trip_rounds=rounds)
    assert result.trip_ruin is None and result.trip_rounds == rounds
    assert result.trip_ruin_note.startswith(f"not computed, beyond the {GAME_TRIP_SECONDS:g} s")
    assert "rounds must be at most about" in result.trip_ruin_note
    plain = game.evaluate(ramp, bankroll)
    assert (result.win_rate, result.sd, result.ror) == (plain.win_rate, plain.sd, plain.ror)
    notes = ramp_table(result, "ramp").notes
    assert any(n.startswith(f"trip ruin in {rounds:,} rounds: not computed") for n in notes)
    # the same law and bankroll are refused by trip_ruin at that budget too
    mixture, chip, _ = game.ramp_distribution(parse_ramp(ramp).bets(game.tc_values))
    with pytest.raises(ValueError, match="rounds must be at most about"):
        trip_ruin(mixture, bankroll / chip, rounds, max_seconds=GAME_TRIP_SECONDS)


def test_evaluate_refuses_more_rounds_than_the_trip_ruin_takes(game):
    with pytest.raises(ValueError, match="rounds must be a whole number from 1 to 1,000,000"):
        game.evaluate("1:1,3:4", 1000, trip_rounds=1_000_001)


def test_a_trip_ruin_within_the_budget_is_trip_ruins_figure(game):
    from bjsolve.risk.ruin import trip_ruin
    ramp = "1:1,2:2,3:4,4:8"
    result = game.evaluate(ramp, 500, trip_rounds=5000)
    mixture, chip, _ = game.ramp_distribution(parse_ramp(ramp).bets(game.tc_values))
    assert result.trip_ruin_note is None
    assert result.trip_ruin == trip_ruin(mixture, 500 / chip, 5000).probability
    with pytest.raises(ValueError, match="max_seconds"):
        trip_ruin(mixture, 500 / chip, 5000, max_seconds=0)


def test_non_integer_bets_are_put_on_a_chip_lattice(game):
    bets = parse_ramp("1:1,2:1.5,3:3").bets(game.tc_values)
    mix, chip, note = game.ramp_distribution(bets)
    assert chip == 0.5 and "exact" in note
    ruin = game.evaluate("1:1,2:1.5,3:3", 500).ror
    assert ruin == pytest.approx(game.evaluate("1:2,2:3,3:6", 1000).ror, rel=1e-9)
    _, chip, note = game.ramp_distribution(bets * 1.0001)
    assert "rounded" in note


def test_a_ramp_off_every_small_chip_is_rounded_little():
    """1, 1.5, 3, 7, 13.37 share no chip with at most 32 chips a bet: the chosen chip
    moves no bet by more than 1% (largest bet / 32 would move the 1 by 7%), and no chip
    largest bet / k does better."""
    from bjsolve.risk.game import MAX_RUIN_CHIPS, _closest_chips
    bets = np.array([0.0, 1.0, 1.5, 3.0, 7.0, 13.37])
    freq = np.full(len(bets), 1 / len(bets))
    chip, chips, miss = _closest_chips(bets, freq)
    assert chips[0] == 0 and chips.max() <= MAX_RUIN_CHIPS
    moved = np.abs(chips[1:] * chip - bets[1:]) / bets[1:]
    assert miss == pytest.approx(moved.max()) and miss < 0.01
    for k in range(1, MAX_RUIN_CHIPS + 1):
        c = 13.37 / k
        other = np.maximum(np.rint(bets[1:] / c), 1) * c
        assert np.max(np.abs(other - bets[1:]) / bets[1:]) >= miss - 1e-12


# ---- bad input -------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, field", [
    (dict(penetration=0.01), "penetration"),
    (dict(penetration=1.0), "penetration"),
    (dict(penetration=0.999), "penetration"),
    (dict(tc_rounding="ceil"), "tc_rounding"),
    (dict(decks_estimation="quarter"), "decks_estimation"),
    (dict(tc_rounding="exact"), "tc_rounding"),
    (dict(system="nosuch"), "count system"),
    (dict(strategy="perfect"), "strategy"),
    (dict(strategy="indices"), "indices"),
    (dict(spots=0), "spots"),
    (dict(curvature="cell"), "curvature"),
])
def test_bad_game_input_names_the_field(kwargs, field):
    args = dict(penetration=0.75)
    args.update(kwargs)
    system = args.pop("system", "hilo")
    with pytest.raises(ValueError, match=field):
        CountedGame(Rules(decks=1), system, **args)


@pytest.mark.parametrize("kwargs, error, field", [
    (dict(tc_max=10**30), ValueError, "tc_max"),        # overflowed np.clip after the solve
    (dict(tc_min=-10**30), ValueError, "tc_min"),
    (dict(tc_min=1001), ValueError, "tc_min"),
    (dict(tc_min=1.5), ValueError, "tc_min"),
    (dict(tc_max="7"), TypeError, "tc_max"),
    (dict(tc_min=5, tc_max=5), ValueError, "tc_min must be below tc_max"),
    (dict(burn=39), ValueError, "burn"),                # the cut card is after 39 cards
    (dict(penetration=0.9), ValueError, "penetration"),  # 5 cards behind the cut card
])
def test_bad_game_input_is_refused_before_the_full_shoe_is_solved(monkeypatch, kwargs, error,
                                                                   field):
    """Input that needs no solve to be judged is judged before it: the error comes in
    milliseconds, naming the field, not after the seconds of the full shoe's solve."""
    def solved_first(self):
        raise AssertionError("the full shoe was solved before the input was checked")
    monkeypatch.setattr(CountedGame, "_solve_full_shoe", solved_first)
    with pytest.raises(error, match=field):
        CountedGame(Rules(decks=1), **dict(dict(penetration=0.75), **kwargs))


@pytest.mark.parametrize("ramp, error, field", [
    ("1:1,2", ValueError, "ramp"), ("a:b", ValueError, "ramp"),
    ("1:-2", ValueError, "ramp bet"), ({1: float("nan")}, ValueError, "ramp bet"),
    ("", ValueError, "ramp"), ("1:0,2:0", ValueError, "every bet"),
    ("1:1,1:2", ValueError, "twice"), (5, TypeError, "ramp"),
])
def test_bad_ramps(game, ramp, error, field):
    """The counted game refuses a bad ramp with the shared parser's errors
    (tests/test_ramp.py checks the parser itself)."""
    with pytest.raises(error, match=field):
        game.evaluate(ramp)


def test_bad_bankroll_and_spread(game):
    with pytest.raises(ValueError, match="bankroll"):
        game.evaluate("1:1", 0)
    with pytest.raises(ValueError, match="bankroll"):
        game.evaluate("1:1", -5)
    with pytest.raises(ValueError, match="max_spread"):
        game.optimal_ramp(0.5)
    with pytest.raises(ValueError, match="bankroll"):
        game.evaluate("1:1", 0, trip_rounds=100)
    with pytest.raises(ValueError, match="rounds needs a bankroll"):
        game.evaluate("1:1", trip_rounds=100)
    with pytest.raises(ValueError, match="rounds"):
        game.evaluate("1:1,3:4", 1000, trip_rounds=0)


@pytest.mark.parametrize("kwargs, words", [
    (dict(min_bet=1e-9), "min_bet must be from 1e-06"),        # Ramp's error named a bet
    (dict(min_bet=2e5), "min_bet must be from 1e-06 to 1,000,000 / max_spread = 125000"),
    (dict(min_bet=0), "min_bet"),
    (dict(min_bet=math.nan), "min_bet"),
    (dict(chip=1e-9), "chip"),
])
def test_optimal_ramp_names_min_bet(game, kwargs, words):
    with pytest.raises(ValueError) as info:
        game.optimal_ramp(8, **kwargs)
    assert words in str(info.value)


def test_optimal_ramp_at_the_ends_of_min_bet(game):
    for min_bet in (1e-6, 125000):
        ramp = game.optimal_ramp(8, min_bet=min_bet)
        bets = [b for _, b in ramp.points]
        assert min(bets) >= min_bet and max(bets) <= 8 * min_bet


def test_unsupported_games_are_refused():
    # (no hole card is counted: tests/test_counted_game_no_hole_card.py)
    with pytest.raises(ValueError, match="hole_card"):
        CountedGame(Rules(decks=2, hole_card="exposed"))
    with pytest.raises(ValueError, match="decks"):
        CountedGame(Rules(decks=math.inf))


def test_one_deck_extreme_counts_are_flagged_unreliable():
    """In 1 deck the deepest rounds at extreme counts average shoes holding less than one
    card of some ranks, where the mean-composition edge fails: the simulator gives about
    +0.06 at TC +15 where the cell's fractional shoe gives -0.06.  Those counts are
    flagged in the notes, and a ramp betting there says so (6 decks has none: below)."""
    import warnings
    from bjsolve import Rules
    from bjsolve.risk.game import CountedGame
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        one = CountedGame(Rules(decks=1), "hilo", penetration=0.75)
    assert "+15" in one.thin_counts and "+1" not in one.thin_counts
    assert any(note.startswith("UNRELIABLE at true counts") and "+15" in note
               for note in one.notes())
    ramp = one.evaluate("0:1,1:2,2:3,3:4")
    assert ramp.caveat is not None and "unreliable" in ramp.caveat


@pytest.mark.slow   # the 6-deck game: 10-15 s to build (shared with test_docs_figures.py)
def test_six_deck_counts_are_not_flagged_unreliable(counted_game_6d_s17):
    six = counted_game_6d_s17
    assert six.thin_counts == []
    assert not any(note.startswith("UNRELIABLE") for note in six.notes())
    assert six.evaluate("0:1,1:2,2:4").caveat is None


# ---- the worker threads ---------------------------------------------------------------------

def test_a_built_game_leaves_no_worker_thread_behind():
    """The threads that built the game's laws are released with its construction (they
    were kept for the process, idle)."""
    import threading
    CountedGame(Rules(decks=1), depth_bands=1, threads=2)
    assert not [t for t in threading.enumerate() if t.name.startswith("bjsolve-game-laws")]


def test_the_game_keeps_the_chart_not_the_solution(game):
    """The chart as solved keeps a pending search for composition-dependent exceptions, a
    closure over the whole solution and its engines (6D: 27 MB held to the end); the game
    plays the chart by total and keeps its rows alone, the same plays."""
    chart = game.chart.chart
    assert chart._find_exceptions is None and chart.exceptions == []
    solved = solve(game.rules, shoe=game.shoe).strategy
    assert chart.rows == solved.rows
    for cards, dealer, allowed in (((10, 6), 10, ("stand", "hit", "double", "surrender")),
                                   ((8, 8), 1, ("stand", "hit", "double", "split")),
                                   ((1, 7), 3, ("stand", "hit", "double"))):
        assert chart(cards, dealer, allowed) == solved(cards, dealer, allowed)


def test_an_interrupt_stops_the_law_threads(game, monkeypatch):
    """A KeyboardInterrupt (Ctrl-C) while the laws are built: the other threads finish
    the dealer key in hand and take no other (the game's own workers went on through
    every key left, with nothing to stop them)."""
    import threading
    import time
    import bjsolve.risk.game as game_module
    done = []

    def round_laws(rules, shoe, keys, engines, threads=1):
        if threading.current_thread() is threading.main_thread():
            raise KeyboardInterrupt
        time.sleep(0.05)
        done.append(keys[0])
        return [{keys[0]: np.zeros((1, 1))}]
    monkeypatch.setattr(game_module, "round_laws", round_laws)
    monkeypatch.setattr(game, "_threads", 3)
    with pytest.raises(KeyboardInterrupt):
        game._exact_law(game.shoe, game._chart_engines)
    assert len(done) <= 2          # one key in hand per other thread, of the ten
    assert not [t for t in threading.enumerate() if t.name.startswith("bjsolve-game-laws")]


# ---- bad input to a built game, and pickling -------------------------------------------------

def test_wong_in_beyond_every_reachable_count_is_refused(game):
    """No round would be played: every figure per amount bet is undefined (the summary
    divided by zero), so the ramp is refused, saying where the game's counts end."""
    top = int(game.tc_values.max())
    for call in (lambda: game.evaluate("1:1", wong_in=1000),
                 lambda: game.evaluate("1:1", 1000, wong_in=top + 1),
                 lambda: game.evaluate("-1000:0,1000:1")):
        with pytest.raises(ValueError, match=r"no round is played.*" + re.escape(f"{top:+d}")):
            call()
    # the highest count reached still plays
    assert game.evaluate("1:1", wong_in=top).rounds_played > 0


@pytest.mark.parametrize("unit", [1e-300, 1e300, 1e-10, 1e10, 0.0, -1.0])
def test_units_outside_a_money_range_are_refused(game, unit):
    with pytest.raises(ValueError, match=r"unit must be .*1e-09.*1e\+09"):
        game.evaluate("1:1", 1000, unit=unit)


def test_a_unit_puts_money_beside_the_units_and_changes_no_figure(game):
    """Bankroll and figures stay in units (one meaning); ``unit`` adds the money: each
    amount times the unit, ratios (DI, SCORE's definition, ruin) not in it."""
    base = game.evaluate("1:1,3:4", 1000, target_ror=0.05)
    for unit in (1e-9, 25, 1e9):
        scaled = game.evaluate("1:1,3:4", 1000, unit=unit, target_ror=0.05)
        assert replace(scaled, unit=None) == base
        money = scaled.money()
        assert money["win rate per 100"] == base.win_per_100 * unit
        assert money["SD per 100"] == base.sd_per_100 * unit
        assert money["bankroll"] == 1000 * unit
        assert money["bankroll for 5% risk of ruin"] == base.bankroll_for_target * unit
        assert "DI" not in money and "risk of ruin" not in money
    assert base.money() == {}


def test_target_ror_is_the_smallest_bankroll_within_the_risk(game):
    """bankroll_for_target: the ruin at that bankroll is within the target, a bankroll a
    chip smaller is not (the lifetime ruin falls as the bankroll grows)."""
    ramp = "1:1,2:2,3:4,4:8"
    result = game.evaluate(ramp, target_ror=0.05)
    target = result.bankroll_for_target
    _, chip, _ = game.ramp_distribution(parse_ramp(ramp).bets(game.tc_values))
    assert game.evaluate(ramp, target).ror <= 0.05 < game.evaluate(ramp, target - chip).ror
    assert result.ror is None       # no bankroll given: no ruin figure
    with pytest.raises(ValueError, match="target_ror"):
        game.evaluate(ramp, target_ror=1.5)
    # a ramp that loses in the long run: no bankroll is enough, said in the table's notes
    from bjsolve.risk.ramp import ramp_table
    losing = game.evaluate("-1000:1", target_ror=0.05)
    assert losing.win_rate < 0 and losing.bankroll_for_target == math.inf
    table = ramp_table(losing, "flat")
    assert "bankroll for 5% risk of ruin: none (ruin is certain without an edge)" in table.notes
    assert "bankroll for 5% risk of ruin" not in table.rows


@pytest.mark.parametrize("bets, words", [
    ([], "one bet per true count"),
    ([1.0], "one bet per true count"),
    ("x", "bets"),
    ("nan", "bets"),
    ("negative", "bets"),
    ("zeros", "at least one bet"),
])
def test_ramp_distribution_checks_its_bets(game, bets, words):
    n = len(game.tc_values)
    if isinstance(bets, str) and bets != "x":
        bets = {"nan": [math.nan] * n, "negative": [-1.0] * n, "zeros": [0.0] * n}[bets]
    with pytest.raises((ValueError, TypeError), match=words):
        game.ramp_distribution(bets)


def test_a_counted_game_pickles_and_gives_the_same_figures(game):
    import pickle
    again = pickle.loads(pickle.dumps(game))
    assert repr(again) == repr(game)
    for ramp, bankroll in (("1:1,3:4", 1000), ("0:1,2:8", None)):
        a, b = game.evaluate(ramp, bankroll), again.evaluate(ramp, bankroll)
        assert a.summary() == b.summary()
    assert again.table().rows == game.table().rows


def test_an_index_line_is_taken_by_the_hands_options_as_the_simulator_does():
    """A hand takes the line whose options are exactly its own (else the narrowest that
    includes them), as the simulator reads an index file: a 16 v T after a hit (stand or
    hit only) plays the row's stand-or-hit line.  The two-card line's surrender, not
    allowed there, made the game fall back to the chart's hit between the two lines'
    thresholds (2D S17 LS I18: 0.015% below a 2 x 10^9-round simulation, z -7.3)."""
    from types import SimpleNamespace
    from bjsolve.risk.game import IndexedChart
    from bjsolve.counting.indices import IndexLine

    def chart(cards, dealer, allowed):
        return "surrender" if "surrender" in allowed else "hit"
    two_card = IndexLine("16", 10, ["surrender", "stand"], [4.0], [4],
                         options=("stand", "hit", "double", "surrender"))
    stand_or_hit = IndexLine("16", 10, ["hit", "stand"], [0.0], [0], options=("stand", "hit"))
    table = SimpleNamespace(lines={("16", 10): two_card}, all_lines=[two_card, stand_or_hit])
    at_2 = IndexedChart(chart, table, 2.0)
    first = ("stand", "hit", "double", "surrender")
    assert at_2((10, 6), 10, first) == "surrender"             # below the two-card index
    assert at_2((10, 3, 3), 10, ("stand", "hit")) == "stand"   # the stand-or-hit line: TC >= 0
    assert IndexedChart(chart, table, -1.0)((10, 3, 3), 10, ("stand", "hit")) == "hit"
    assert IndexedChart(chart, table, 5.0)((10, 6), 10, first) == "stand"
    # after a split (double, no surrender): the narrowest line that includes the options,
    # the two-card one; its surrender is not allowed, so the chart plays
    assert at_2((10, 6), 10, ("stand", "hit", "double")) == "hit"


def test_trip_rounds_is_the_trip_ruins_horizon_and_rounds_is_not_read(game):
    """'rounds' is simulate's word for the rounds dealt; the trip ruin's horizon is
    trip_rounds, here as in bjsolve.risk and on the command line (no second name)."""
    new = game.evaluate("1:1,2:2,3:4", 400, trip_rounds=300)
    assert new.trip_rounds == 300 and 0 <= new.trip_ruin <= new.ror
    with pytest.raises(ValueError, match="trip_rounds needs a bankroll"):
        game.evaluate("1:1", trip_rounds=100)
    with pytest.raises(TypeError, match="rounds"):
        game.evaluate("1:1", 400, rounds=100)


@pytest.mark.parametrize("insurance, error, words", [
    (True, ValueError, "insurance must be a whole true count, False"),
    ("3", TypeError, "insurance must be a whole number"),
    (2.5, ValueError, "insurance must be a whole number"),
])
def test_counted_game_insurance_is_a_whole_true_count_false_or_none(insurance, error, words):
    with pytest.raises(error, match=words):
        CountedGame(RULES_2D, "hilo", insurance=insurance)
