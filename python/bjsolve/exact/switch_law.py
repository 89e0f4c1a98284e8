"""The outcome distribution of a Blackjack Switch round (docs/games.md, "Blackjack Switch").

A round is two hands of one unit each.  For every deal the round plays the arrangement
the analysis (``bjsolve.exact.switch``) chose, each hand by its own decisions, and:

- a dealer natural (chance beta given the five dealt cards) ends the round at the dealt
  hands' loss, exactly (each hand -1, a dealt natural pushes);
- otherwise each hand's law comes from the game engine's round law
  (``GameEngine.round_law_entries``, ``src/bjcore/game_law.h``) after its two cards, on the
  shoe with all five cards out (the analysis' engines, removal "full"), jointly with the
  dealer's final outcome t (17, 18, 19, 20, 21, 22, over 22).  Both hands' laws have the
  same dealer marginal (the dealer's law of that shoe: game_law.h keeps a hand's dealer
  marginal whatever it draws), and the two hands are combined **as independent given t**:

      P(r1, r2) = sum_t P(t) P(r1 | t) P(r2 | t).

  So the mean is exact (each hand adds its own exact mean) and so is each hand's own law
  (up to a split's hands, which game_law.h combines the same way).  What is left out on a
  finite shoe is the cards one hand takes from the other (hand 2 draws from what hand 1
  left) beyond what the dealer's outcome says: the covariance of the two hands is
  approximate.  On an infinite shoe the combination is exact.  The error is measured
  against the real round's exact law on a small shoe (tests/test_switch_figures.py) and
  against the simulation (docs/games.md).

Units: one hand's bet; the round's law is the total of both hands (``spots`` 2), its
``per_spot`` the law of one hand (the two hands' laws are equal: the deal is symmetric),
``covariance`` between the two hands.  Unconditioned (dealer naturals included).
"""
from __future__ import annotations

import numpy as np

from .engines import make_engine
from .game_law import law_arrays
from .kernel_rules import SPLIT_CLASSES, kernel_rules, natural_tie_value
from .scheduler import run_units

# The two-card hands in the order of ``bjsolve.exact.switch.PAIRS`` (its tables' index;
# the tests check the two agree).  This module takes the analysis' results from its
# ``SwitchSolution`` and does not import that module, which offers this one's law as a
# method.
PAIRS = tuple((a, b) for a in range(1, 11) for b in range(1, 11) if a <= b)
ACE_TEN = PAIRS.index((1, 10))


def _pair_idx(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The PAIRS index of the hands (x, y), element by element."""
    lo, hi = np.minimum(x, y), np.maximum(x, y)
    return (lo - 1) * 10 - (lo - 1) * (lo - 2) // 2 + (hi - lo)

# the non-natural dealer outcomes of a game law (GAME_DEALER_OUTCOMES without "blackjack")
_OUTCOME_ROWS = (0, 1, 2, 3, 4, 6, 7)
# a hand's result columns: (k - 16) / 2 for k = 0..32 (the half-unit lattice -8..+8), and
# the natural's payout in column 33
_LATTICE = 33
_NATURAL_COL = 33
_COLS = 34

METHOD = ("each deal's chosen arrangement; a dealer natural exact; otherwise each hand's "
          "law from the game engine's round law (all five cards out), the two hands "
          "combined as independent given the dealer's final total (exact mean and per-hand "
          "law; the covariance leaves out the cards one hand takes from the other)")


def _column(value: float) -> int:
    k = 2.0 * value + 16.0
    col = int(round(k))
    if abs(k - col) > 1e-9 or not 0 <= col < _LATTICE:
        raise RuntimeError(f"switch law: a hand's result {value!r} is off the half-unit "
                           f"lattice -8..+8 (a bug)")
    return col


def _hand_law_from_entries(entries, beta: float) -> np.ndarray:
    """[7 outcomes, 34 columns]: a hand's joint law with the dealer's outcome given no
    dealer natural, from the engine's unconditioned entries."""
    values, law = law_arrays(entries)
    out = np.zeros((len(_OUTCOME_ROWS), _COLS))
    for j, v in enumerate(values):
        col = _column(float(v))
        out[:, col] += law[list(_OUTCOME_ROWS), j]
    return out / (1.0 - beta)


class _LawUnit:
    """The laws of the needed hands against one upcard with one other hand out (or none:
    the infinite shoe): {hand index: law}, and the switched ace-ten's (key ``-1``)."""

    def __init__(self, switch, params: dict, other, up: int, hands):
        self.switch, self.params, self.other, self.up, self.hands = (switch, params, other,
                                                                     up, hands)

    def __call__(self) -> dict:
        sw, up = self.switch, self.up
        base = sw.shoe if self.other is None else sw.shoe.remove(*self.other)
        engine = make_engine(self.params, base, up)
        return hand_laws(sw.rules, engine, base, up, self.hands)


def hand_laws(rules, engine, base, up: int, hands) -> dict:
    """{hand index: [7 dealer outcomes, 34 columns] law given no dealer natural} of
    ``hands`` (indices of PAIRS) against ``up`` on ``engine`` (a game engine of the shoe
    ``base``, the other hand's cards out and the upcard in; its own decisions, or the
    frozen ones of a policy engine), and a switched ace-ten's law that is no natural
    under the key ``-1`` when the ace-ten is asked for."""
    counts = np.array(base.probabilities() if base.is_infinite else base.counts, dtype=float)
    if not base.is_infinite:
        counts[up - 1] -= 1
    out = {}
    played = [h for h in hands if h != ACE_TEN]
    # (one law walk for all the hands: its memo serves the hands they reach in common)
    entries = dict(zip(played, engine.start_law_entries([PAIRS[h] for h in played])))
    for h in hands:
        a, b = PAIRS[h]
        left = counts.copy()
        if not base.is_infinite:
            left[a - 1] -= 1
            left[b - 1] -= 1
        dealer = np.array(engine._dealer_law([float(x) for x in left]))
        beta = float(dealer[5])
        given = dealer[list(_OUTCOME_ROWS)] / (1.0 - beta)
        if h == ACE_TEN:
            # a natural: the payout whatever the dealer's outcome; a switched ace-ten
            # that is no natural stands on 21: wins against 17..20 and over 22,
            # pushes 21 (and 22 where it pushes)
            natural = np.zeros((len(_OUTCOME_ROWS), _COLS))
            natural[:, _NATURAL_COL] = given
            out[h] = natural
            twenty_one = np.zeros((len(_OUTCOME_ROWS), _COLS))
            push22 = rules.dealer_22 == "push"
            for row, t in enumerate(_OUTCOME_ROWS):
                win = t in (0, 1, 2, 3, 7) or (t == 6 and not push22)
                twenty_one[row, _column(1.0 if win else 0.0)] = given[row]
            out[-1] = twenty_one
            continue
        out[h] = _hand_law_from_entries(entries[h], beta)
    return out


def switch_round_joint(switch, threads: int | None = None):
    """(joint, values, gap): ``joint[i, j]`` the chance that hand 1 ends at column i and
    hand 2 at column j of ``values`` (the half-unit lattice and the natural's payout),
    unconditioned; ``gap`` the largest difference between the two hands' dealer marginals
    in a deal (0 up to rounding: the same shoe)."""
    parts, values, gap = switch_round_parts(switch, threads)
    return sum(joint for joint, _ in parts), values, gap


# an insured hand's half-unit insurance bet (paid 2:1): what it adds to the hand's result
# when the hole card completes the dealer's natural, and when it does not
INSURANCE_WINS, INSURANCE_LOSES = 1.0, -0.5


def switch_round_parts(switch, threads: int | None = None, insurance: bool = False):
    """(parts, values, gap): the round's joint law (``switch_round_joint``) as a list of
    (joint, shift): ``joint[i, j]`` as there, ``shift`` what each hand's insurance adds to
    both hands' ``values`` in that part.  Without insurance one part, shift 0; with
    insurance (both hands insured whenever the upcard is an ace) three: the other
    upcards (0), an ace up completed to a natural by the hole card (+1 a hand), an ace up
    without (-0.5 a hand).  The insurance bet is settled by the hole card alone, which
    the law already splits exactly (the dealer's natural part against the rest), so the
    insured law is as exact as the law."""
    if switch.play != "optimal":
        raise NotImplementedError("the outcome distribution of Blackjack Switch follows the "
                                  "analysis' optimal play (play='optimal'), not a chart")
    if switch.removal != "full" and not switch.shoe.is_infinite:
        raise NotImplementedError("the outcome distribution of Blackjack Switch takes "
                                  "removal='full' (the two hands' laws on one shoe); "
                                  f"got removal={switch.removal!r}")
    rules = switch.rules
    a, b, c, e, u, prob, keep, swap, decided = switch._deals
    beta = switch._beta()
    switched = switch.switched
    h1, h2 = played_hands((a, b, c, e), switched)
    full = not switch.shoe.is_infinite

    # the laws each played hand needs, grouped by engine (other hand, upcard)
    need: dict = {}
    idx = np.flatnonzero(decided)
    for i in idx:
        up = int(u[i])
        for hand, other in ((h1[i], h2[i]), (h2[i], h1[i])):
            key = (int(other) if full else None, up)
            need.setdefault(key, set()).add(int(hand))
    params = kernel_rules(switch.game_rules, SPLIT_CLASSES[switch.split])
    units = {k: _LawUnit(switch, params, None if k[0] is None else PAIRS[k[0]], k[1],
                         sorted(v)) for k, v in need.items()}
    laws = run_units(list(units), lambda k: units[k](), threads)

    if not insurance:
        joint, values, gap = combine_hands(rules, (a, b, c, e, u, prob, beta), decided,
                                           switched, laws, full)
        return [(joint, 0.0)], values, gap
    parts = []
    for ace_up in (False, True):
        here = (u == 1) == ace_up
        deal = (a, b, c, e, u, np.where(here, prob, 0.0), beta)
        natural, played, values, gap_here = combine_hand_parts(rules, deal, decided & here,
                                                               switched, laws, full)
        if ace_up:
            parts += [(natural, INSURANCE_WINS), (played, INSURANCE_LOSES)]
        else:
            parts.append((natural + played, 0.0))
            gap = gap_here
    return parts, values, max(gap, gap_here)


def _law_table(laws) -> tuple:
    """(table, row_of): the hands' laws ``laws`` {(other hand or None, upcard): {hand or
    -1: law}} stacked in one array [law, t, column], and ``row_of(other, up, hand)`` the
    rows of arrays of keys (other -1 for None, hand -1 for a switched ace-ten's 21)."""
    rows: list[np.ndarray] = []
    index = np.full((56, 11, 56), -1, dtype=np.int64)
    for (other, up), per_hand in laws.items():
        for hand, law in per_hand.items():
            index[55 if other is None else other, up, 55 if hand == -1 else hand] = len(rows)
            rows.append(law)
    table = np.array(rows) if rows else np.zeros((0, len(_OUTCOME_ROWS), _COLS))

    def row_of(other, up, hand):
        found = index[np.where(other < 0, 55, other), up, np.where(hand < 0, 55, hand)]
        if (found < 0).any():
            raise KeyError("switch law: a played hand's law was not computed (a bug)")
        return found
    return table, row_of


def played_hands(deal, switched) -> tuple:
    """The PAIRS indices of the two hands played in every deal ``deal`` = (a, b, c, e, u,
    ...): the dealt ones, or the switched ones where ``switched``."""
    a, b, c, e = deal[:4]
    h1 = np.where(switched, _pair_idx(a, e), _pair_idx(a, b))
    h2 = np.where(switched, _pair_idx(c, b), _pair_idx(c, e))
    return h1, h2


def combine_hands(rules, deal, decided, switched, laws, full: bool):
    """(joint, values, gap) of ``switch_round_joint`` from every deal ``deal`` = (a, b, c,
    e, u, prob, beta) (the chance of each ordered deal and of a dealer natural given its
    five cards), which deals have a decision (``decided``) and are switched
    (``switched``), and the hands' laws ``laws`` {(other hand or None, upcard): {hand:
    law}} (``hand_laws``)."""
    natural, played, values, gap = combine_hand_parts(rules, deal, decided, switched, laws,
                                                      full)
    return natural + played, values, gap


def combine_hand_parts(rules, deal, decided, switched, laws, full: bool):
    """(natural, played, values, gap): ``combine_hands``' joint in its two parts, the
    rounds the dealer's natural ends (``natural``) and the rounds played (``played``, no
    dealer natural); an insurance bet is settled by which part a round is in."""
    a, b, c, e, u, prob, beta = deal
    h1, h2 = played_hands(deal, switched)
    idx = np.flatnonzero(decided)
    values = np.array([(k - 16) / 2.0 for k in range(_LATTICE)] + [rules.blackjack_payout])
    natural = np.zeros((_COLS, _COLS))
    tie_col = _column(natural_tie_value(rules))
    lose_col = _column(-1.0)
    # a dealer natural: the dealt hands' loss, exact
    dealt1, dealt2 = _pair_idx(a, b), _pair_idx(c, e)
    nat_w = np.where(prob > 0, prob * np.where(decided, beta, 1.0), 0.0)
    c1 = np.where(dealt1 == ACE_TEN, tie_col, lose_col)
    c2 = np.where(dealt2 == ACE_TEN, tie_col, lose_col)
    np.add.at(natural, (c1, c2), nat_w)
    joint = np.zeros((_COLS, _COLS))

    # no dealer natural: sum over deals of w * sum_t P(t) P(r1 | t) P(r2 | t), grouped by
    # the played arrangement (one term per distinct one)
    # (vectorized: a key per played arrangement, the weights summed by np.unique)
    sw_bit = switched[idx].astype(np.int64)
    keys = ((u[idx].astype(np.int64) * 55 + h1[idx]) * 55 + h2[idx]) * 2 + sw_bit
    uniq, back = np.unique(keys, return_inverse=True)
    weight = np.bincount(back.ravel(), weights=prob[idx] * (1.0 - beta[idx]))
    rest, sw = np.divmod(uniq, 2)
    rest, y = np.divmod(rest, 55)
    up, x = np.divmod(rest, 55)
    # every hand's law in one array, and where each arrangement's two laws are in it: the
    # first hand's with the second's cards out (its law given t, times P(t)), the second's
    # with the first's out, given t (a switched ace-ten that is no natural: its law "-1")
    table, row_of = _law_table(laws)
    sw = sw.astype(bool)
    twenty_one = sw & (not rules.switch_blackjack)
    first = row_of(np.where(full, y, -1), up, np.where(twenty_one & (x == ACE_TEN), -1, x))
    second = row_of(np.where(full, x, -1), up, np.where(twenty_one & (y == ACE_TEN), -1, y))
    marginal = table.sum(axis=2)                       # P(t) of each law
    with np.errstate(invalid="ignore", divide="ignore"):
        given_t = np.where(marginal[:, :, None] > 0, table / marginal[:, :, None], 0.0)
    gap = float(np.abs(marginal[first] - marginal[second]).max()) if len(weight) else 0.0
    # sum over arrangements k and outcomes t of W_k X[k, t, i] Y[k, t, j], on the columns
    # some law uses, by einsum's own loops: a matrix product here went to the BLAS
    # threads, which on a busy machine took seconds a cell waiting for each other
    used = np.flatnonzero(table.any(axis=(0, 1)))
    for at in range(0, len(weight), 8192):
        part = slice(at, at + 8192)
        joint[np.ix_(used, used)] += np.einsum(
            "k,kti,ktj->ij", weight[part], table[first[part]][:, :, used],
            given_t[second[part]][:, :, used], optimize=False)
    return natural, joint, values, gap


def switch_outcome_distribution(switch, threads: int | None = None, insurance: bool = False):
    """The outcome distribution of a switch round (module doc) of ``switch``, a
    ``SwitchSolution`` (its ``outcome_distribution``): an ``OutcomeDistribution``
    of the round's total over both hands (``spots`` 2, units of one hand's bet), its
    ``per_spot`` the law of one hand, ``covariance`` between the two hands.
    ``insurance``: both hands insured (half a unit each, paid 2:1) whenever the upcard
    is an ace (``switch_round_parts``)."""
    from .distribution import OutcomeDistribution, merge_equal_values
    parts, values, gap = switch_round_parts(switch, threads, insurance)
    exact = switch.shoe.is_infinite
    method = METHOD if not exact else METHOD.split(" (exact")[0] + " (exact: infinite shoe)"
    if insurance:
        method += "; both hands insured against an ace (settled by the hole card: exact)"
    hand_values, hand_p, totals, total_p = [], [], [], []
    m1 = m2 = cross = 0.0
    for joint, shift in parts:
        shifted = values + shift
        hand1, hand2 = joint.sum(axis=1), joint.sum(axis=0)
        hand_values.append(shifted)
        hand_p.append((hand1 + hand2) / 2.0)
        m1 += float(shifted @ hand1)
        m2 += float(shifted @ hand2)
        cross += float(shifted @ joint @ shifted)
        totals.append((shifted[:, None] + shifted[None, :]).ravel())
        total_p.append(joint.ravel())
    covariance = cross - m1 * m2
    hv, hp = merge_equal_values(np.concatenate(hand_values), np.concatenate(hand_p))
    keep = hp > 0
    description = "one hand of a Blackjack Switch round"
    if insurance:
        description += ", insured against an ace"
    per_hand = OutcomeDistribution(hv[keep], hp[keep], exact=exact, method=method,
                                   validate=False, description=description)
    v, p = merge_equal_values(np.concatenate(totals), np.concatenate(total_p))
    nz = p > 0
    description = "a Blackjack Switch round: both hands, units of one hand's bet"
    if insurance:
        description += "; both hands insured against an ace"
    return OutcomeDistribution(v[nz], p[nz], exact=exact, method=method, spots=2,
                               covariance=covariance, per_spot=per_hand, validate=False,
                               description=description)


__all__ = ["switch_outcome_distribution", "switch_round_joint", "switch_round_parts",
           "hand_laws", "combine_hands", "combine_hand_parts", "played_hands",
           "INSURANCE_WINS", "INSURANCE_LOSES"]
