"""The compiled engine against the exact pure-Python reference, for the rule variants of issue 4
(no hole card, early surrender, dealer wins ties, hitting split aces, payouts, the exposed-dealer
game), and the reference's variants against an independent card-by-card brute force.

Every engine comparison is on a random small finite shoe (seeded ``random.Random``; one card of
every rank at least) that can never run out within one round (``round_may_run_out``), plus the
exposed game on the infinite shoe.  The reference's semantics of each variant are written out in
the module docstring of ``bjsolve._reference``.
"""

import random
from fractions import Fraction

import pytest

import bjsolve
from bjsolve import Rules, Shoe
from bjsolve._reference import (ReferenceSolver, brute_force_round_ev, dealer_probabilities,
                                solver_policy, without)
from bjsolve.model.deal import round_may_run_out

TOL = 1e-12
RANKS = range(1, 11)


# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------

def is_natural(cards):
    return sorted(cards) == [1, 10]


def exact_payout(b):
    return Fraction(b).limit_denominator(1000)


def reference_for(fields, counts, split="CDZ-"):
    """A ReferenceSolver for the Rules fields ``fields`` (decks aside)."""
    keys = ("hit_soft_17", "double", "double_soft", "double_any_cards", "double_after_split",
            "max_split_hands", "resplit_aces", "surrender", "hole_card", "dealer_wins_ties",
            "hit_split_aces", "natural_tie")
    kwargs = {k: fields[k] for k in keys if k in fields}
    if "blackjack_payout" in fields:
        kwargs["blackjack_payout"] = exact_payout(fields["blackjack_payout"])
    return ReferenceSolver(counts, split=split, **kwargs)


def random_shoes(seed, count, lo, hi, rules, at_least=None):
    """``count`` random shoes of lo..hi cards (each rank at least once, or as often as
    ``at_least`` {rank: n} says; further cards drawn with deck proportions) in which no round
    can run out of cards under ``rules``."""
    rng = random.Random(seed)
    out = []
    for _ in range(10_000):
        counts = [max(1, (at_least or {}).get(r, 1)) for r in RANKS]
        for _ in range(rng.randint(lo, hi) - sum(counts)):
            counts[rng.choices(range(10), weights=[1] * 9 + [4])[0]] += 1
        if not round_may_run_out(rules, Shoe(counts)):
            out.append(tuple(counts))
            if len(out) == count:
                return out
    raise AssertionError("no suitable shoe found")


def two_card_hands(left):
    """Unordered two-card hands available from the count vector ``left`` (None: infinite)."""
    for a in RANKS:
        for b in range(a, 11):
            if left is None or (left[a - 1] >= 1 and left[b - 1] >= 1 + (a == b)):
                yield a, b


def compare_hands(sol, ref, key, left):
    """hand_ev (unconditioned) of every two-card hand against dealer key ``key``: the engine
    reports exactly the reference's options, except that the reference also values a double
    where the rules forbid it (DESIGN reports DD for every two-card hand).

    Splits whose value hangs on an exact tie between options are compared too: the engine
    treats values within a relative 1e-12 as a tie.  Returns the disagreements."""
    bad = []
    for cards in two_card_hands(left):
        want = ref.hand_values_unconditioned(cards, key)
        got = sol.hand_ev(cards, key, given_no_blackjack=False)
        got_opts = set(got.keys())
        allowed = set(ref._start_options(ref_hand(cards)))
        assert got_opts == allowed | {"stand", "hit"}, (cards, key, got_opts, allowed)
        for opt in got_opts:
            if abs(float(got[opt]) - float(want[opt])) > TOL:
                bad.append((cards, key, opt, float(got[opt]), float(want[opt])))
    return bad


def ref_hand(cards):
    counts = [0] * 10
    for r in cards:
        counts[r - 1] += 1
    return tuple(counts)


# ---------------------------------------------------------------------------------------------
# 1. Engine against reference on random small finite shoes
# ---------------------------------------------------------------------------------------------

# (name, Rules fields besides decks=1, post-split class, seed, number of shoes, shoe sizes
#  [, {rank: minimum count}])
VARIANTS = [
    ("enhc", dict(hole_card="enhc", max_split_hands=2), "CDZ-", 101, 2, (16, 18)),
    ("enhc-obo+LS", dict(hole_card="enhc-obo", surrender="late", max_split_hands=3),
     "CDZ-", 102, 1, (18, 20)),
    ("early-surrender", dict(surrender="early", max_split_hands=2), "CDZ-", 103, 2, (16, 17)),
    ("late-surrender-H17-D10", dict(surrender="late", hit_soft_17=True, double="10-11",
                                    max_split_hands=2), "CDP1", 104, 1, (16, 18)),
    ("ties", dict(dealer_wins_ties=True, max_split_hands=2), "CDZ-", 105, 2, (16, 18)),
    ("hit-split-aces", dict(hit_split_aces=True, max_split_hands=2, double_after_split=False),
     "CDZ-", 106, 1, (16, 18), {1: 3}),
    ("exposed", dict(hole_card="exposed", hit_soft_17=True, surrender="late",
                     max_split_hands=2), "CDZ-", 107, 1, (15, 16)),
    ("payout-1:1-D9", dict(blackjack_payout=1.0, double="9-11", max_split_hands=2),
     "CDZ-", 108, 1, (16, 18)),
    ("payout-2:1-DAN", dict(blackjack_payout=2.0, double_any_cards=True, max_split_hands=2),
     "CDZ-", 109, 1, (16, 16)),
    # combinations
    ("enhc+ES+H17", dict(hole_card="enhc", surrender="early", hit_soft_17=True,
                         max_split_hands=3), "CDP1", 110, 1, (18, 20)),
    ("ties+6:5", dict(dealer_wins_ties=True, blackjack_payout=1.2, surrender="late",
                      max_split_hands=2), "CDP", 111, 1, (16, 18)),
    ("HSA+DAS+RSA", dict(hit_split_aces=True, double_after_split=True, resplit_aces=True,
                         max_split_hands=3), "CDZ-", 112, 1, (18, 20), {1: 4}),
    ("enhc+HSA+ties+DAN", dict(hole_card="enhc", hit_split_aces=True, dealer_wins_ties=True,
                               double_any_cards=True, max_split_hands=2), "CDP", 113, 1,
     (16, 17), {1: 3}),
    ("exposed+ties+1:1", dict(hole_card="exposed", dealer_wins_ties=True, blackjack_payout=1.0,
                              max_split_hands=2), "CDZ-", 114, 1, (15, 16)),
    ("exposed+ES+HSA+no-soft-double", dict(hole_card="exposed", surrender="early",
                                           hit_split_aces=True, double_soft=False,
                                           max_split_hands=2), "CDP1", 115, 1, (15, 16),
     {1: 3}),
    # what a natural against a natural does when the dealer wins ties (Rules.natural_tie)
    ("ties-natural-push", dict(dealer_wins_ties=True, natural_tie="push", surrender="late",
                               max_split_hands=2), "CDZ-", 116, 1, (16, 18), {1: 2}),
    ("ties-natural-win+6:5+ES", dict(dealer_wins_ties=True, natural_tie="win",
                                     blackjack_payout=1.2, surrender="early",
                                     max_split_hands=2), "CDP1", 117, 1, (16, 18), {1: 2}),
    # the double-exposure game on a small shoe
    ("double-exposure", dict(hole_card="exposed", dealer_wins_ties=True, natural_tie="win",
                             blackjack_payout=1.0, double="9-11", hit_soft_17=True,
                             max_split_hands=2), "CDZ-", 119, 1, (15, 16), {1: 2}),
]


# Each case costs seconds (the exact reference in Fractions): the default run keeps a sample
# in which every variant, every combination's rare feature and all three post-split classes
# appear at least once (ENHC, OBO, early and late surrender, H17, D10 and D9, ties with 6:5
# and the natural that wins, hitting and resplitting split aces, doubling any cards, 1:1 and
# 2:1, the exposed game); the rest, costlier or repeating those features, run with --run-slow.
SLOW_ENGINE_CASES = {"enhc-1", "early-surrender-1", "ties-0", "ties-1", "hit-split-aces-0",
                     "enhc+HSA+ties+DAN-0", "exposed+ties+1:1-0",
                     "exposed+ES+HSA+no-soft-double-0", "ties-natural-push-0",
                     "double-exposure-0"}


def _engine_cases():
    cases = []
    for name, fields, split, seed, count, (lo, hi), *at_least in VARIANTS:
        rules = Rules(decks=1, **fields)
        shoes = random_shoes(seed, count, lo, hi, rules, *at_least)
        for i, counts in enumerate(shoes):
            case_id = f"{name}-{i}"
            marks = pytest.mark.slow if case_id in SLOW_ENGINE_CASES else ()
            cases.append(pytest.param(fields, split, counts, id=case_id, marks=marks))
    assert SLOW_ENGINE_CASES <= {c.id for c in cases}
    return cases


ENGINE_CASES = _engine_cases()


@pytest.mark.parametrize("fields, split, counts", ENGINE_CASES)
def test_engine_matches_reference_on_small_shoe(fields, split, counts):
    rules = Rules(decks=1, **fields)
    sol = bjsolve.solve(rules, shoe=Shoe(counts), split=split)
    ref = reference_for(fields, counts, split)
    exposed = rules.hole_card == "exposed"

    want_by_key = ref.ev_by_dealer()
    got_by_key = sol.ev_by_dealer if exposed else sol.ev_by_upcard
    assert set(got_by_key) == set(want_by_key)

    bad = []
    for key in want_by_key:
        cards = key if exposed else (key,)
        if exposed and is_natural(cards):
            continue  # no decisions against an exposed dealer natural
        bad += compare_hands(sol, ref, key, without(counts, *cards))
    assert not bad, bad[:10]

    for key, want in want_by_key.items():
        assert float(got_by_key[key]) == pytest.approx(float(want), abs=TOL), key
    assert float(sol.expected_value) == pytest.approx(float(ref.round_ev()), abs=TOL)


EASY = dict(hole_card="exposed", hit_soft_17=True, surrender="late", max_split_hands=4,
            double_after_split=True)


@pytest.fixture(scope="module")
def easy_pair():
    """The both-cards-up exercise game (infinite shoe): engine and reference."""
    rules = Rules.preset("easy")
    assert rules.hole_card == "exposed" and rules.infinite
    return bjsolve.solve(rules), reference_for(EASY, None)


# dealer 10-10 (the costliest of the four) with --run-slow; 6-10 is a hard total too
@pytest.mark.parametrize("key", [pytest.param((10, 10), marks=pytest.mark.slow), (6, 10), (1, 6),
                                 (1, 10)])
def test_engine_matches_reference_exposed_infinite_shoe(easy_pair, key):
    sol, ref = easy_pair
    assert float(sol.ev_by_dealer[key]) == pytest.approx(float(ref.ev_given_dealer(key)),
                                                         abs=TOL)
    if not is_natural(key):
        bad = compare_hands(sol, ref, key, None)
        assert not bad, bad[:10]


def test_exposed_infinite_round_is_the_weighted_sum(easy_pair):
    """E = sum_D P(D) E(D) with the engine's per-key EVs and the reference's P(D)."""
    sol, ref = easy_pair
    total = sum(float(ref.dealer_key_probability(k)) * float(v)
                for k, v in sol.ev_by_dealer.items())
    assert total == pytest.approx(float(sol.expected_value), abs=TOL)
    assert sum(ref.dealer_key_probability(k) for k in sol.ev_by_dealer) == 1


# ---------------------------------------------------------------------------------------------
# 2. The reference against the brute force, and the both-cards-up exercise figures
# ---------------------------------------------------------------------------------------------

def brute_rules(ref):
    return dict(blackjack_payout=ref.b, max_split_hands=ref.max_split_hands,
                resplit_aces=ref.resplit_aces, hit_soft_17=ref.hit_soft_17, double=ref.double,
                double_soft=ref.double_soft, double_any_cards=ref.double_any_cards,
                double_after_split=ref.double_after_split, surrender=ref.surrender,
                game=ref.hole_card, dealer_wins_ties=ref.dealer_wins_ties,
                hit_split_aces=ref.hit_split_aces, natural_tie=ref.natural_tie)


def allowed_first(ref, cards):
    """Options the brute force offers on the original two cards (computed here from the rules)."""
    total = sum(cards) + (10 if 1 in cards and sum(cards) <= 11 else 0)
    soft = 1 in cards and sum(cards) <= 11
    opts = ["stand", "hit"]
    if ((ref.double == "any" or total in ((9, 10, 11) if ref.double == "9-11" else (10, 11)))
            and (ref.double_soft or not soft)):
        opts.append("double")
    if cards[0] == cards[1]:
        limit = ref.max_split_hands if (cards[0] != 1 or ref.resplit_aces) \
            else min(ref.max_split_hands, 2)
        if limit >= 2:
            opts.append("split")
    if ref.surrender != "none":
        opts.append("surrender")
    return opts


SHOE_20 = (2, 2, 1, 1, 1, 1, 1, 1, 2, 8)
SHOE_ACES = (4, 1, 1, 1, 1, 1, 1, 1, 1, 9)
SHOE_19 = (2, 1, 1, 1, 1, 1, 1, 1, 2, 8)

# (id, reference kwargs, shoe, dealer key, hands whose every option is checked)
BRUTE_CASES = [
    ("enhc-vT", dict(hole_card="enhc", surrender="late"), SHOE_20, 10,
     [(1, 1), (2, 9), (1, 6), (9, 9), (10, 6), (1, 10), (2, 2)]),
    ("enhc-ES-vA", dict(hole_card="enhc", surrender="early", hit_soft_17=True), SHOE_20, 1,
     [(2, 9), (9, 9), (10, 6), (1, 10)]),
    ("enhc-obo-LS-vA", dict(hole_card="enhc-obo", surrender="late"), SHOE_20, 1,
     [(2, 9), (9, 9), (10, 6)]),
    ("peek-ES-vA", dict(surrender="early"), SHOE_20, 1, [(2, 9), (10, 6), (9, 9), (1, 10)]),
    ("ties-LS-6:5-vT", dict(dealer_wins_ties=True, surrender="late",
                            blackjack_payout=Fraction(6, 5)), SHOE_20, 10,
     [(1, 10), (10, 7), (2, 9), (9, 9), (10, 10)]),
    ("HSA-RSA-DAS-v6", dict(hit_split_aces=True, resplit_aces=True, double_after_split=True),
     SHOE_ACES, 6, [(1, 1), (1, 5), (2, 8)]),
    ("HSA-noDAS-vA", dict(hit_split_aces=True, max_split_hands=2, double_after_split=False),
     SHOE_ACES, 1, [(1, 1)]),
    ("exposed-ties-1:1-vT6", dict(hole_card="exposed", dealer_wins_ties=True, surrender="late",
                                  blackjack_payout=1), SHOE_20, (10, 6),
     [(1, 10), (1, 1), (9, 9), (2, 9), (10, 7)]),
    ("exposed-HSA-vA7", dict(hole_card="exposed", hit_split_aces=True, surrender="early"),
     SHOE_ACES, (1, 7), [(1, 1), (2, 9)]),
    ("ties-natural-push-vT", dict(dealer_wins_ties=True, natural_tie="push"), SHOE_20, 10,
     [(1, 10), (10, 7), (9, 9)]),
    ("ties-natural-win-6:5-vA", dict(dealer_wins_ties=True, natural_tie="win",
                                     blackjack_payout=Fraction(6, 5)), SHOE_20, 1,
     [(1, 10), (10, 7), (2, 9)]),
]


# ties-LS-6:5-vT and enhc-vT (the costliest) with --run-slow: ties, surrender, 6:5 and ENHC
# appear in the others
SLOW_BRUTE_CASES = {"ties-LS-6:5-vT", "enhc-vT"}


@pytest.mark.parametrize("kwargs, shoe, key, hands",
                         [pytest.param(*c[1:], id=c[0], marks=pytest.mark.slow
                                       if c[0] in SLOW_BRUTE_CASES else ())
                          for c in BRUTE_CASES])
def test_reference_option_values_equal_brute_force(kwargs, shoe, key, hands):
    """Every admissible first option of each listed hand, then the reference's strategy: the
    formula equals the exact EV of the real round (split: CDZ-, resplits forced)."""
    ref = ReferenceSolver(shoe, **kwargs)
    left = without(shoe, *((key,) if isinstance(key, int) else key))
    for cards in hands:
        values = ref.hand_values_unconditioned(cards, key)
        options = ["stand"] if is_natural(cards) else allowed_first(ref, cards)
        for option in options:
            brute = brute_force_round_ev(without(left, *cards), key, cards,
                                         solver_policy(ref, option), **brute_rules(ref))
            assert values[option] == brute, (cards, option, values[option], brute)


# (id, reference kwargs, shoe, dealer key) for the whole-round check E(key)
ROUND_CASES = [
    ("enhc-ES-vT", dict(hole_card="enhc", surrender="early"), SHOE_20, 10),
    ("ties-LS-vA", dict(dealer_wins_ties=True, surrender="late"), SHOE_19, 1),
    ("exposed-ties-vT7", dict(hole_card="exposed", dealer_wins_ties=True,
                              blackjack_payout=Fraction(1)), SHOE_20, (7, 10)),
    ("exposed-natural", dict(hole_card="exposed", dealer_wins_ties=True), SHOE_20, (1, 10)),
    ("exposed-natural-win", dict(hole_card="exposed", dealer_wins_ties=True, natural_tie="win",
                                 blackjack_payout=Fraction(1)), SHOE_20, (1, 10)),
    ("exposed-natural-push", dict(hole_card="exposed", dealer_wins_ties=True,
                                  natural_tie="push"), SHOE_20, (1, 10)),
    ("ties-natural-win-vA", dict(dealer_wins_ties=True, natural_tie="win"), SHOE_19, 1),
]


# three of the exposed game's four cases with --run-slow (each a second or two): the default
# run keeps ENHC with early surrender, ties with surrender, a natural that wins against an
# exposed dealer natural and one that wins under ties in the peek game
SLOW_ROUND_CASES = {"exposed-ties-vT7", "exposed-natural", "exposed-natural-push"}


@pytest.mark.parametrize("kwargs, shoe, key",
                         [pytest.param(*c[1:], id=c[0], marks=pytest.mark.slow
                                       if c[0] in SLOW_ROUND_CASES else ())
                          for c in ROUND_CASES])
def test_reference_ev_given_dealer_equals_brute_force(kwargs, shoe, key):
    """E(key) = sum over the player's ordered two cards of weight * brute-force round EV with
    the reference's strategy (naturals, surrender and the split choice included)."""
    ref = ReferenceSolver(shoe, **kwargs)
    left = without(shoe, *((key,) if isinstance(key, int) else key))
    size = sum(left)
    total = Fraction(0)
    for c1 in RANKS:
        for c2 in RANKS:
            weight = Fraction(left[c1 - 1], size) * Fraction(left[c2 - 1] - (c1 == c2), size - 1)
            if weight > 0:
                total += weight * brute_force_round_ev(without(left, c1, c2), key, (c1, c2),
                                                       solver_policy(ref), **brute_rules(ref))
    assert ref.ev_given_dealer(key) == total


def test_brute_force_enhc_and_early_surrender_do_not_depend_on_deal_order():
    """ENHC with the dealer's second card dealt before the player's (unseen, unchecked) equals
    dealing it last; the peek game with early surrender, real deal order (surrender decided
    before the check), equals the model's order."""
    for kwargs, key, cards in [(dict(hole_card="enhc", surrender="late"), 10, (9, 9)),
                               (dict(hole_card="enhc", surrender="early"), 1, (10, 6)),
                               (dict(surrender="early"), 1, (10, 6)),
                               (dict(surrender="early"), 10, (2, 2))]:
        ref = ReferenceSolver(SHOE_20, **kwargs)
        rest = without(SHOE_20, key, *cards)
        evs = {order: brute_force_round_ev(rest, key, cards, solver_policy(ref),
                                           hole_card=order, **brute_rules(ref))
               for order in ("last", "first")}
        assert evs["last"] == evs["first"]


def test_variant_identities_in_the_reference():
    """Exact relations between variants that follow from their definitions."""
    shoe = SHOE_20
    peek = ReferenceSolver(shoe, surrender="late")
    alias = ReferenceSolver(shoe, late_surrender=True)
    obo = ReferenceSolver(shoe, surrender="late", hole_card="enhc-obo")
    enhc = ReferenceSolver(shoe, surrender="late", hole_card="enhc")
    early = ReferenceSolver(shoe, surrender="early")
    for key in (1, 10, 6):
        for cards in [(10, 7), (2, 9), (9, 9), (1, 10)]:
            v_peek = peek.hand_values_unconditioned(cards, key)
            assert alias.hand_values_unconditioned(cards, key) == v_peek
            assert obo.hand_values_unconditioned(cards, key) == v_peek
            assert obo.hand_values(cards, key) == v_peek  # reported unconditioned
            v_enhc = enhc.hand_values_unconditioned(cards, key)
            rest = without(shoe, key, *cards)
            beta = {1: Fraction(rest[9], sum(rest)), 10: Fraction(rest[0], sum(rest))}.get(
                key, Fraction(0))
            assert v_enhc["stand"] == v_peek["stand"]
            assert v_enhc["surrender"] == v_peek["surrender"] == -Fraction(1, 2) - beta / 2
            assert v_enhc["double"] == v_peek["double"] - beta  # the doubled unit is lost too
            v_early = early.hand_values_unconditioned(cards, key)
            assert v_early["surrender"] == Fraction(-1, 2)
            assert {k: v for k, v in v_early.items() if k != "surrender"} == \
                {k: v for k, v in v_peek.items() if k != "surrender"}


def test_both_cards_up_exercise_worked_figures():
    """The both-cards-up exercise (infinite shoe, both dealer cards up, H17): hard 19 v dealer hard 20 hit
    -10/13, double -20/13, stand -1, surrender -1/2; hard 18 v dealer hard 16 stand 6/13;
    dealer hard 16 busts 8/13 and ends on each of 17..21 with 1/13."""
    ref = ReferenceSolver(None, **EASY)
    v = ref.hand_values_unconditioned((10, 9), (10, 10))
    assert v == {"stand": -1, "hit": Fraction(-10, 13), "double": Fraction(-20, 13),
                 "surrender": Fraction(-1, 2)}
    assert ref.hand_values((10, 9), (10, 10)) == v  # nothing is hidden: no conditioning
    assert ref.best_action((10, 9), (10, 10)) == "surrender"
    assert ref.hand_values_unconditioned((10, 8), (10, 6))["stand"] == Fraction(6, 13)
    assert ref.hand_values_unconditioned((10, 8), (6, 10))["stand"] == Fraction(6, 13)
    d = ref.dealer((10, 6))
    assert d["bust"] == Fraction(8, 13) and d["blackjack"] == 0
    assert all(d[k] == Fraction(1, 13) for k in (17, 18, 19, 20, 21))
    # A dealer natural ends the round: a player natural pushes, everything else loses.
    p_nat = 2 * Fraction(1, 13) * Fraction(4, 13)
    assert ref.ev_given_dealer((10, 1)) == -(1 - p_nat)
    assert dealer_probabilities(None, (10, 6), True)["bust"] == Fraction(8, 13)
    with pytest.raises(ValueError):
        ref.hand_values((10, 9), 10)
    with pytest.raises(ValueError):
        ref.hand_values((10, 9), (1, 10))


def test_dealer_wins_ties_stand_and_natural_values():
    """Ties: the stand value moves by -d_t (the pushes now lose); a natural against a possible
    dealer natural is b(1 - beta) - beta."""
    shoe = SHOE_20
    plain = ReferenceSolver(shoe)
    ties = ReferenceSolver(shoe, dealer_wins_ties=True)
    for key in (1, 6, 10):
        for cards, t in [((10, 7), 17), ((10, 9), 19), ((2, 3), 5)]:
            d = dealer_probabilities(without(shoe, key, *cards), (key,))
            pushes = d[t] if t >= 17 else 0
            assert ties.hand_values_unconditioned(cards, key)["stand"] == \
                plain.hand_values_unconditioned(cards, key)["stand"] - pushes
        rest = without(shoe, key, 1, 10)
        beta = {1: Fraction(rest[9], sum(rest)), 10: Fraction(rest[0], sum(rest))}.get(
            key, Fraction(0))
        assert ties.hand_values_unconditioned((1, 10), key)["stand"] == \
            Fraction(3, 2) * (1 - beta) - beta
        assert ties.hand_values((1, 10), key)["stand"] == Fraction(3, 2)


# ---------------------------------------------------------------------------------------------
# 3. Exact ties go to the earlier option, whatever the rounding
# ---------------------------------------------------------------------------------------------

TIE_SHOE = (1, 2, 1, 2, 1, 1, 2, 2, 2, 2)
TIE_FIELDS = dict(hole_card="exposed", max_split_hands=2)


def test_exact_ties_go_to_the_earlier_option():
    """8+9 v dealer (7,10) has stand = hit = double = 0 exactly; binary64 gives 0, ~8e-17,
    ~2e-16, and the engine must still pick stand (a tie), so that the CDZ- split of 8-8,
    whose split hand 8+9 is played by that pick, matches the reference and the brute force."""
    rules = Rules(decks=1, **TIE_FIELDS)
    sol = bjsolve.solve(rules, shoe=Shoe(TIE_SHOE))
    ref = reference_for(TIE_FIELDS, TIE_SHOE)
    values = ref.hand_values_unconditioned((8, 9), (7, 10))
    assert values["stand"] == values["hit"] == values["double"] == 0
    assert ref.best_action((8, 9), (7, 10)) == "stand"
    want = ref.split_ev(8, (7, 10))
    brute = brute_force_round_ev(without(TIE_SHOE, 7, 10, 8, 8), (7, 10), (8, 8),
                                 solver_policy(ref, "split"), **brute_rules(ref))
    assert want == brute == Fraction(7789, 11880)
    got = sol.hand_ev((8, 8), (7, 10), given_no_blackjack=False)["split"]
    assert sol.best_action((8, 9), (7, 10)) == "stand"
    assert float(got) == pytest.approx(float(want), abs=TOL)


def test_fundamental_theorem_holds_for_the_variants():
    """Section 8 with a variant game: sum_r P(r) E_fixed(S - [r]) = E(S) exactly (a fixed,
    zero-memory strategy), here under ENHC, early surrender, ties, hitting and resplitting
    split aces, doubling any number of cards and H17."""
    shoe = (2, 3, 1, 0, 1, 0, 1, 0, 1, 7)
    s0 = ReferenceSolver(shoe, hole_card="enhc", surrender="early", dealer_wins_ties=True,
                         hit_split_aces=True, resplit_aces=True, double_any_cards=True,
                         hit_soft_17=True)
    size = sum(shoe)
    mean = sum((Fraction(shoe[r - 1], size) * s0.fixed_strategy(without(shoe, r)).round_ev()
                for r in RANKS if shoe[r - 1]), Fraction(0))
    assert mean == s0.round_ev()
