"""Risk-averse indices: per-decision means and variances against independent calculations,
and the certainty-equivalent lines."""
import pytest

from bjsolve import Rules, Shoe, solve
from bjsolve.model.ranks import hand_total
from bjsolve.counting.risk_indices import decision_moments, given_no_blackjack, risk_averse_indices


def test_means_equal_the_engines_hand_values():
    """The recursion here is separate from the kernel's: its means must agree."""
    rules = Rules(decks=2, hit_soft_17=True, surrender="late")
    sol = solve(rules)
    for u in (1, 2, 6, 10):
        moments = decision_moments(rules, sol.shoe.counts, u)
        for cards in [(10, 6), (10, 2), (5, 6), (4, 5), (1, 7), (9, 7), (2, 2, 8), (3, 4, 5)]:
            ev = sol.hand_ev(cards, u, given_no_blackjack=False)
            for play, (mean, _) in moments(cards).items():
                assert mean == pytest.approx(ev[play], abs=1e-14), (cards, u, play)


def _brute_force(counts, cards, up, play, policy, s17=True, all_bets=False):
    """(E[X], E[X^2]) by enumerating every card the player and then the dealer draws
    (hole card after the player's cards), the player continuing after a hit with
    ``policy(cards)``; a dealer natural takes the original bet only (``all_bets``: every
    bet, as without a hole card)."""
    left = list(counts)
    for c in cards + (up,):
        left[c - 1] -= 1

    def dealer_end(hand, left):
        """{final: chance}: 'bj', 'bust' or 17..21."""
        total, soft = hand_total(hand)
        if len(hand) == 2 and total == 21:
            return {"bj": 1.0}
        if total > 21:
            return {"bust": 1.0}
        if total > 17 or (total == 17 and (s17 or not soft)):
            return {total: 1.0}
        n, out = sum(left), {}
        for r in range(1, 11):
            if left[r - 1] > 0:
                left[r - 1] -= 1
                for k, p in dealer_end(hand + (r,), left).items():
                    out[k] = out.get(k, 0.0) + p * (left[r - 1] + 1) / n
                left[r - 1] += 1
        return out

    def settle(total, stake, left, busted=False):
        m = s = 0.0
        for k, p in dealer_end((up,), left).items():
            if k == "bj":
                x = -stake if all_bets else -1.0
            elif busted:
                x = -stake
            elif k == "bust" or total > k:
                x = stake
            elif total == k:
                x = 0.0
            else:
                x = -stake
            m += p * x
            s += p * x * x
        return m, s

    def after(hand, left, how):
        total = hand_total(hand)[0]
        if how == "stand":
            return settle(total, 1.0, left)
        m = s = 0.0
        n = sum(left)
        for r in range(1, 11):
            if left[r - 1] == 0:
                continue
            p = left[r - 1] / n
            left[r - 1] -= 1
            nxt = tuple(sorted(hand + (r,)))
            if how == "double":
                mm, ss = settle(hand_total(nxt)[0], 2.0, left, busted=sum(nxt) > 21)
            elif sum(nxt) > 21:
                mm, ss = -1.0, 1.0
            else:
                mm, ss = after(nxt, left, policy(nxt))
            left[r - 1] += 1
            m += p * mm
            s += p * ss
        return m, s

    return after(tuple(sorted(cards)), left, play)


def test_second_moments_against_a_brute_force_on_a_small_shoe():
    # small enough to enumerate; the solver warns that some round could empty it, but no
    # deal of these hands does (the brute force would lose that deal's probability)
    shoe = Shoe([2, 2, 1, 2, 2, 1, 2, 1, 2, 5])
    rules = Rules(decks=1)
    with pytest.warns(RuntimeWarning, match="could run out"):
        sol = solve(rules, shoe=shoe)
    for up in (10, 1):
        moments = decision_moments(rules, shoe.counts, up)

        def policy(cards):
            ev = sol.hand_ev(cards, up, given_no_blackjack=False)
            return "hit" if ev["hit"] > ev["stand"] else "stand"

        for cards in [(10, 6), (5, 6), (1, 5)]:
            got = moments(cards)
            for play in ("stand", "hit", "double"):
                mean, second = _brute_force(shoe.counts, cards, up, play, policy)
                assert got[play][0] == pytest.approx(mean, abs=1e-13), (cards, up, play)
                assert got[play][1] == pytest.approx(second, abs=1e-13), (cards, up, play)


def test_given_no_blackjack_moments():
    # a result of -1 with chance 0.1 (the natural), else +1 or -1 evenly: mean 0 and
    # variance 1 given no natural
    assert given_no_blackjack(-0.1, 1.0, 0.1) == pytest.approx((0.0, 1.0), abs=1e-15)


def test_risk_averse_lines_need_a_larger_lead_to_double():
    """At counts where the bettor has the edge, a risky play needs more lead than its EV
    gain, so the certainty-equivalent index of a double is never below the EV index; at
    risk 0 (huge round variance) the lines are the EV lines.  (The grid of the I18 tests:
    the shoes are solved once.)"""
    from bjsolve.counting.indices import generate_indices
    rules, grid = Rules(decks=6), range(-5, 9)
    rows = [("11", 1), ("10", 1), ("16", 10)]
    averse = risk_averse_indices(rules, "hilo", rows=rows, true_counts=grid)
    neutral = risk_averse_indices(rules, "hilo", rows=rows, true_counts=grid, round_variance=1e12)
    ev = generate_indices(rules, "hilo", true_counts=grid, tc_rounding="floor")
    for key in rows:
        assert neutral[key].plays == ev.lines[key].plays, key
        assert neutral[key].crossings == pytest.approx(ev.lines[key].crossings, abs=1e-9), key
    for key in (("11", 1), ("10", 1)):
        assert averse[key].plays in (["hit"], ["hit", "double"])
        if len(averse[key].plays) == 2:
            assert averse[key].crossings[0] > neutral[key].crossings[0], key


@pytest.mark.parametrize("hole_card", ["enhc", "enhc-obo"])
def test_games_without_a_hole_card(hole_card):
    """Means against the engine's hand values (an independent computation), second
    moments against the brute force on a small shoe; in ENHC a dealer natural takes the
    doubled bet too."""
    rules = Rules(decks=2, hit_soft_17=True, hole_card=hole_card, surrender="late")
    sol = solve(rules)
    for u in (1, 10, 6):
        moments = decision_moments(rules, sol.shoe.counts, u)
        for cards in [(10, 6), (5, 6), (1, 7), (2, 2, 8)]:
            ev = sol.hand_ev(cards, u, given_no_blackjack=False)
            for play, (mean, _) in moments(cards).items():
                assert mean == pytest.approx(ev[play], abs=1e-14), (cards, u, play)
    shoe = Shoe([2, 2, 1, 2, 2, 1, 2, 1, 2, 5])
    small = Rules(decks=1, hole_card=hole_card)
    with pytest.warns(RuntimeWarning, match="could run out"):
        small_sol = solve(small, shoe=shoe)
    for up in (10, 1):
        moments = decision_moments(small, shoe.counts, up)

        def policy(cards):
            ev = small_sol.hand_ev(cards, up, given_no_blackjack=False)
            return "hit" if ev["hit"] > ev["stand"] else "stand"

        for cards in [(10, 6), (5, 6)]:
            for play in ("stand", "hit", "double"):
                mean, second = _brute_force(shoe.counts, cards, up, play, policy,
                                            all_bets=hole_card == "enhc")
                got = moments(cards)[play]
                assert got[0] == pytest.approx(mean, abs=1e-13), (cards, up, play)
                assert got[1] == pytest.approx(second, abs=1e-13), (cards, up, play)


def test_risk_averse_lines_without_a_hole_card():
    """In ENHC a double risks two units against a natural too: at the counts with an
    edge its certainty-equivalent index is at or above the risk-neutral one, and the
    risk-neutral lines are the EV lines."""
    from bjsolve.counting.indices import generate_indices
    rules, grid = Rules(decks=6, hole_card="enhc"), range(-2, 8)
    rows = [("11", 10), ("10", 10)]
    averse = risk_averse_indices(rules, "hilo", rows=rows, true_counts=grid)
    neutral = risk_averse_indices(rules, "hilo", rows=rows, true_counts=grid, round_variance=1e12)
    ev = generate_indices(rules, "hilo", true_counts=grid, tc_rounding="floor")
    assert ("11", 10) in ev.lines
    # 11 v 10 doubles from about +3.7 risk-neutrally; the risk-averse line doubles later
    # or not at all within the grid (measured: not at all)
    key = ("11", 10)
    assert neutral[key].plays == ["hit", "double"]
    assert averse[key].plays == ["hit"] or averse[key].crossings[0] >= neutral[key].crossings[0]
    for key in rows:
        if key not in ev.lines:                 # the EV table lists lines that change play
            assert len(neutral[key].plays) == 1, key
            continue
        assert neutral[key].plays == ev.lines[key].plays, key
        assert neutral[key].crossings == pytest.approx(ev.lines[key].crossings, abs=1e-9), key
        if len(averse[key].plays) == 2 and len(neutral[key].plays) == 2:
            assert averse[key].crossings[0] >= neutral[key].crossings[0] - 1e-9, key


def test_risk_averse_bad_input():
    with pytest.raises(ValueError, match="or a pair '22'"):
        risk_averse_indices(Rules(decks=6), rows=[("T9", 5)], true_counts=(0, 1))
    with pytest.raises(ValueError, match="row must be a hard total"):
        risk_averse_indices(Rules(decks=6), rows=[("27", 5)], true_counts=(0, 1))
    with pytest.raises(ValueError, match="upcard must be 1"):
        risk_averse_indices(Rules(decks=6), rows=[("16", 11)], true_counts=(0, 1))
    with pytest.raises(TypeError, match="rows must be"):
        risk_averse_indices(Rules(decks=6), rows=5, true_counts=(0, 1))
    with pytest.raises(ValueError, match="round_variance must be > 0"):
        risk_averse_indices(Rules(decks=6), round_variance=0.0)


# ---- pair rows: the split ----------------------------------------------------------------

def _split_brute_force(counts, pair, up, action, s17=True):
    """(E[X], E[X^2], P(dealer natural)) of splitting ``pair`` into two hands (no
    resplit) against ``up`` in a peek game, every card of the real round enumerated in the
    casino's order: the hole card (a natural ends the round, the original bet lost), the
    first hand's cards, the second hand's, the dealer's.  ``action(cards)`` (0 stand, 1
    hit, 2 double) plays a split hand holding ``cards``."""
    from functools import lru_cache
    left0 = list(counts)
    for c in (pair, pair, up):
        left0[c - 1] -= 1

    @lru_cache(maxsize=None)
    def dealer_end(hand, left):
        total, soft = hand_total(hand)
        if total > 21:
            return (("bust", 1.0),)
        if total > 17 or (total == 17 and (s17 or not soft)):
            return ((total, 1.0),)
        n, out = sum(left), {}
        for r in range(1, 11):
            if left[r - 1] > 0:
                rest = list(left)
                rest[r - 1] -= 1
                for k, p in dealer_end(tuple(sorted(hand + (r,))), tuple(rest)):
                    out[k] = out.get(k, 0.0) + p * left[r - 1] / n
        return tuple(out.items())

    def play(cards, left, stake):
        """[(final total or 'bust', stake, chance, cards left)] of one split hand."""
        if sum(cards) > 21:
            return [("bust", stake, 1.0, left)]
        how = action(cards) if len(cards) >= 2 else 1     # the hand's second card
        if how == 0:
            return [(hand_total(cards)[0], stake, 1.0, left)]
        out, n = [], sum(left)
        for r in range(1, 11):
            if left[r - 1] == 0:
                continue
            rest = list(left)
            rest[r - 1] -= 1
            nxt = tuple(sorted(cards + (r,)))
            if how == 2:
                end = "bust" if sum(nxt) > 21 else hand_total(nxt)[0]
                out.append((end, 2.0, left[r - 1] / n, tuple(rest)))
            else:
                out += [(e, s, p * left[r - 1] / n, lf) for e, s, p, lf in
                        play(nxt, tuple(rest), stake)]
        return out

    def settle(end, stake, dealer):
        if end == "bust":
            return -stake
        if dealer == "bust" or end > dealer:
            return stake
        return 0.0 if end == dealer else -stake

    m = s = natural = 0.0
    n = sum(left0)
    for hole in range(1, 11):
        if left0[hole - 1] == 0:
            continue
        ph = left0[hole - 1] / n
        if sorted((up, hole)) == [1, 10]:
            natural += ph
            m -= ph
            s += ph
            continue
        left = list(left0)
        left[hole - 1] -= 1
        for e1, s1, p1, l1 in play((pair,), tuple(left), 1.0):
            for e2, s2, p2, l2 in play((pair,), l1, 1.0):
                for d, pd in dealer_end(tuple(sorted((up, hole))), l2):
                    x = settle(e1, s1, d) + settle(e2, s2, d)
                    w = ph * p1 * p2 * pd
                    m += w * x
                    s += w * x * x
    return m, s, natural


# 8-8 v T (about 10 s) and 2-2 v 4 (5 s) run with --run-slow; 9-9 v A (the dealer's
# natural) in the default run
@pytest.mark.parametrize("pair,up", [pytest.param(8, 10, marks=pytest.mark.slow),
                                     pytest.param(2, 4, marks=pytest.mark.slow), (9, 1)])
def test_split_moments_against_a_brute_force_on_a_small_shoe(pair, up):
    """A split into two hands (no resplitting, double after split) against an enumeration
    of every card of the real round; the split hands play the kernel's decisions (the
    law, not the decisions, is under test; the means are checked against the solver's
    split EV below)."""
    from bjcore import RoundLaws

    from bjsolve.counting.risk_indices import split_moments
    from bjsolve.exact.kernel_rules import SPLIT_CLASSES, kernel_rules
    counts = [2, 2, 2, 2, 2, 2, 2, 3, 3, 6]
    rules = Rules(decks=1, max_split_hands=2, double_after_split=True)
    kernel = RoundLaws([float(c) for c in counts], up,
                       kernel_rules(rules, SPLIT_CLASSES["CDZ-"]), False, True)

    def action(cards):
        return kernel.split_hand_action(pair, [cards.count(r) for r in range(1, 11)])

    got = split_moments(rules, counts, up)(pair)
    want = _split_brute_force(counts, pair, up, action)
    # the kernel's removal recursions subtract: rounding up to ~1.5e-12 measured
    assert got == pytest.approx(want, abs=1e-11)
    assert abs(got[1] - want[1]) < 1e-11 * want[1] and abs(got[0] - want[0]) < 1e-12


@pytest.mark.parametrize("max_hands", [2, 4])
def test_split_means_equal_the_solvers_split_values(max_hands):
    rules = Rules(decks=2, max_split_hands=max_hands, double_after_split=True)
    sol = solve(rules)
    from bjsolve.counting.risk_indices import split_moments
    for up in (1, 6, 10):
        splits = split_moments(rules, sol.shoe.counts, up)
        for pair in (1, 2, 8, 10):
            ev = sol.hand_ev((pair, pair), up, given_no_blackjack=False)["split"]
            mean, second, natural = splits(pair)
            assert mean == pytest.approx(ev, abs=1e-13), (pair, up)
            assert second >= mean * mean
    assert split_moments(Rules(decks=2, max_split_hands=1), sol.shoe.counts, 6)(8) is None


def test_pair_lines_risk_neutral_equal_the_ev_lines_and_splits_need_a_larger_lead():
    """TT v 5 and TT v 6 (the split entries of the Illustrious 18) and 9,9 v 7: at lambda
    0 the lines are ``generate_indices``'s; with the Kelly bettor's risk a split (two
    bets out) needs more than its EV lead over standing.  (The grid of the I18 tests.)"""
    from bjsolve.counting.indices import generate_indices
    rules, grid = Rules(decks=6), range(-5, 9)
    rows = [("TT", 5), ("TT", 6), ("99", 7)]
    averse = risk_averse_indices(rules, "hilo", rows=rows, true_counts=grid)
    neutral = risk_averse_indices(rules, "hilo", rows=rows, true_counts=grid, round_variance=1e12)
    ev = generate_indices(rules, "hilo", true_counts=grid, tc_rounding="floor")
    for key in rows:
        assert neutral[key].plays == ev.lines[key].plays == ["stand", "split"], key
        assert neutral[key].crossings == pytest.approx(ev.lines[key].crossings, abs=1e-9), key
        assert averse[key].plays == ["stand", "split"], key
        assert averse[key].crossings[0] > neutral[key].crossings[0] + 0.5, key


def test_pair_crossing_by_brute_force_over_counts():
    """TT v 6: the certainty equivalents of standing and splitting recomputed here at
    every true count of the grid from the decisions' exact moments (given no dealer
    natural, times its complement) and the round's exact edge, and the crossing found
    by scanning the counts: the line's crossing."""
    from bjsolve.counting.removal import true_count_shoes
    from bjsolve.counting.risk_indices import decision_moments, split_moments
    rules, grid, variance = Rules(decks=6), range(-5, 9), 1.3
    line = risk_averse_indices(rules, "hilo", rows=[("TT", 6)], true_counts=grid)[("TT", 6)]
    shoes, _ = true_count_shoes(rules, "hilo", grid, 3.0)
    diff = {}
    for tc, shoe in shoes.items():
        lam = max(solve(rules, shoe=shoe).expected_value, 0.0) / (2 * variance)
        ce = {}
        sm, ss = decision_moments(rules, shoe.counts, 6)((10, 10))["stand"]
        nat = decision_moments(rules, shoe.counts, 6).dealer_outcomes((10, 10))[5]
        pm, ps, pnat = split_moments(rules, shoe.counts, 6)(10)
        for play, (m, s, q) in {"stand": (sm, ss, nat), "split": (pm, ps, pnat)}.items():
            cond_mean = (m + q) / (1 - q)              # given no natural (-1 with chance q)
            cond_var = (s - q) / (1 - q) - cond_mean ** 2
            ce[play] = m - lam * (1 - q) * cond_var
        diff[tc] = ce["split"] - ce["stand"]
    tcs = sorted(diff)
    up = [t for a, t in zip(tcs, tcs[1:]) if diff[a] < 0 <= diff[t]]
    assert len(up) == 1
    t1 = up[0]
    t0 = tcs[tcs.index(t1) - 1]
    crossing = t0 + (t1 - t0) * -diff[t0] / (diff[t1] - diff[t0])
    assert line.plays == ["stand", "split"]
    assert line.crossings[0] == pytest.approx(crossing, abs=1e-9)


# ---- both dealer cards face up ---------------------------------------------------------

EXPOSED = Rules(decks=2, hole_card="exposed", dealer_wins_ties=True, natural_tie="win")


def test_exposed_means_equal_the_engines_hand_values():
    """Against both dealer cards: the recursion's means and the split's mean are the
    solver's values of the same hands."""
    from bjsolve.counting.risk_indices import split_moments
    sol = solve(EXPOSED)
    for key in ((10, 6), (1, 6), (5, 5), (10, 4)):
        moments = decision_moments(EXPOSED, sol.shoe.counts, key)
        splits = split_moments(EXPOSED, sol.shoe.counts, key)
        for cards in [(10, 6), (5, 6), (1, 7), (8, 8), (10, 10)]:
            ev = sol.hand_ev(cards, key, given_no_blackjack=False)
            for play, (mean, second) in moments(cards).items():
                assert mean == pytest.approx(ev[play], abs=1e-13), (key, cards, play)
                assert second >= mean * mean
            if "split" in ev:
                assert splits(cards[0])[0] == pytest.approx(ev["split"], abs=1e-12)


def test_exposed_row_against_the_engine_over_counts():
    """T,T against a dealer hard 14 (T,4 9,5 8,6 7,7), at lambda 0: the row's split-minus-
    stand value recomputed here at each true count from the solver's hand values of every
    dealer hand of the total (weighted by the chance of the dealer hand and of T,T beside
    it), and the crossing found by scanning the counts: the line's crossing.  With risk,
    the split (two bets out) comes later."""
    from bjsolve.counting.removal import true_count_shoes
    grid = range(-3, 1)
    key = ("TT", "14")
    neutral = risk_averse_indices(EXPOSED, "hilo", rows=[key], true_counts=grid,
                                  round_variance=1e300)[key]
    averse = risk_averse_indices(EXPOSED, "hilo", rows=[key], true_counts=range(-3, 2))[key]
    shoes, _ = true_count_shoes(EXPOSED, "hilo", grid, 1.0)
    diff = {}
    for tc, shoe in shoes.items():
        sol = solve(EXPOSED, shoe=shoe)
        c = list(shoe.counts)
        n = sum(c)
        num = den = 0.0
        for d1 in range(1, 11):
            for d2 in range(d1, 11):
                if d1 + d2 != 14 or d1 == 1:
                    continue
                p = c[d1 - 1] * (c[d2 - 1] - (d1 == d2)) / (n * (n - 1)) * (1 if d1 == d2 else 2)
                left = list(c)
                left[d1 - 1] -= 1
                left[d2 - 1] -= 1
                m = sum(left)
                q = left[9] * (left[9] - 1) / (m * (m - 1))          # T,T beside them
                ev = sol.hand_ev((10, 10), (d1, d2), given_no_blackjack=False)
                num += p * q * (ev["split"] - ev["stand"])
                den += p * q
        diff[tc] = num / den
    tcs = sorted(diff)
    up = [t for a, t in zip(tcs, tcs[1:]) if diff[a] < 0 <= diff[t]]
    assert len(up) == 1
    t0, t1 = tcs[tcs.index(up[0]) - 1], up[0]
    crossing = t0 + (t1 - t0) * -diff[t0] / (diff[t1] - diff[t0])
    assert neutral.plays == ["stand", "split"]
    assert neutral.crossings[0] == pytest.approx(crossing, abs=1e-9)
    assert averse.plays == ["stand", "split"]
    assert averse.crossings[0] > neutral.crossings[0]


def test_exposed_rows_are_checked():
    with pytest.raises(ValueError, match="no default"):
        risk_averse_indices(EXPOSED, true_counts=(0, 1))
    with pytest.raises(ValueError, match="dealer's two-card total"):
        risk_averse_indices(EXPOSED, rows=[("16", 10)], true_counts=(0, 1))
    with pytest.raises(ValueError, match="upcard must be 1"):
        risk_averse_indices(Rules(decks=6), rows=[("16", "12")], true_counts=(0, 1))
