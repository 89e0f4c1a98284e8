"""Risk-averse indices: per-decision means and variances against independent calculations,
and the certainty-equivalent lines."""
import pytest

from bjsolve import Rules, Shoe, solve
from bjsolve.ranks import hand_total
from bjsolve.risk_indices import decision_moments, given_no_blackjack, risk_averse_indices


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
        sol = solve(rules, shoe)
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
    from bjsolve.indices import generate_indices
    rules, grid = Rules(decks=6), range(-5, 9)
    rows = [("11", 1), ("10", 1), ("16", 10)]
    averse = risk_averse_indices(rules, "hilo", rows=rows, grid=grid)
    neutral = risk_averse_indices(rules, "hilo", rows=rows, grid=grid, round_variance=1e12)
    ev = generate_indices(rules, "hilo", grid=grid, tc_convention="floor")
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
        small_sol = solve(small, shoe)
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
    from bjsolve.indices import generate_indices
    rules, grid = Rules(decks=6, hole_card="enhc"), range(-2, 8)
    rows = [("11", 10), ("10", 10)]
    averse = risk_averse_indices(rules, "hilo", rows=rows, grid=grid)
    neutral = risk_averse_indices(rules, "hilo", rows=rows, grid=grid, round_variance=1e12)
    ev = generate_indices(rules, "hilo", grid=grid, tc_convention="floor")
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
    with pytest.raises(ValueError, match="hole_card"):
        risk_averse_indices(Rules(decks=6, hole_card="exposed"), rows=[("16", 10)],
                            grid=(0, 1))
    with pytest.raises(ValueError, match="'TT' is a pair: risk-averse indices do not cover"):
        risk_averse_indices(Rules(decks=6), rows=[("TT", 5)], grid=(0, 1))
    with pytest.raises(ValueError, match="row must be a hard total"):
        risk_averse_indices(Rules(decks=6), rows=[("27", 5)], grid=(0, 1))
    with pytest.raises(ValueError, match="upcard must be 1"):
        risk_averse_indices(Rules(decks=6), rows=[("16", 11)], grid=(0, 1))
    with pytest.raises(TypeError, match="rows must be"):
        risk_averse_indices(Rules(decks=6), rows=5, grid=(0, 1))
    with pytest.raises(ValueError, match="round_variance must be > 0"):
        risk_averse_indices(Rules(decks=6), round_variance=0.0)
