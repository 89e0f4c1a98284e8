"""Risk-averse index numbers: the true count at which the play that maximises a bettor's
certainty equivalent changes, not only the EV.

A bettor who stakes the Kelly fraction ``f = edge / V`` of the bankroll at a true count
with round edge ``edge`` and round variance ``V`` grows the logarithm of the bankroll, for
one more unit of a decision whose result X (per unit bet) has mean ``m`` and variance
``s2``, by about ``f (m - f s2 / 2)``.  So the play to make is the one with the largest
certainty equivalent ``m - lambda s2`` with ``lambda = max(edge, 0) / (2 V)``: at counts
where the bettor bets the minimum (edge <= 0) this is the EV play, and above, plays that
put more money at risk (doubling) need a larger lead.

Per-decision means and variances are computed here exactly for stand, hit, double and
surrender: the dealer's cards are drawn after the player's (``DealerTrie`` distributions of
the cards left), and the player continues after a hit with the play of largest EV.  A
dealer natural takes the original bet only where the dealer peeks (``hole_card="peek"``)
and in ``"enhc-obo"``, every bet in ``"enhc"``; late surrender returns half the bet unless
the dealer has a natural, early surrender half the bet always.  The risk of a decision is
its variance where the player makes it: given no dealer natural after the peek,
unconditioned where nobody peeks (no hole card, or two-card decisions before an early
surrender's peek).

Pair rows ("22" .. "AA") add the split: its mean and second moment come from the law of
the whole split (every hand of it against one dealer hand) that the outcome kernel forms
(``bjcore.RoundLaws.split_law``), the split hands played CDZ- as in the EV
indices.  Its mean is the solver's split EV; a split into two hands is exact on every
whole shoe, a split that may make 3 or 4 hands (or any split on the fractional shoes of
the true counts, as the solver constructs splits there) combines its hands as independent
given the dealer's outcome, which on a finite shoe leaves out the cards the hands take
from one another (``split_moments``).

The game with both dealer cards face up (``hole_card="exposed"``) has no upcard: a row is
the player's two-card row against the dealer's two-card total (hard "4".."20", soft
"A2".."A9", "AA"), every dealer hand of that total weighted by its chance (so "16" v
"12" mixes T,2, 9,3, 8,4, 7,5 and 6,6); the dealer's cards are known, so a decision's risk
is its plain variance.  There is no default list of rows for that game.
"""
from __future__ import annotations

import numbers
from functools import lru_cache

import numpy as np

from bjcore import RoundLaws, dealer_trie

from ..exact.distribution import NATURAL_T, column_moments
from ..exact.kernel_rules import SPLIT_CLASSES, kernel_rules
from ..model.hands import PAIR_CODES, total_code
from ..model.ranks import hand_total, label, rank, show
from ..model.rules import Rules
from ..output.table import Table
from ..output.table import table_notes as _notes
from .indices import FAB_4, ILLUSTRIOUS_18, NAMED_SETS, TC_ROUNDINGS, Point, _index_line
from .removal import check_rules, count_tags, finite_number, integer_grid, true_count_shoes
from .shoe_values import shoe_values

RISK_PLAYS = ("stand", "hit", "double", "surrender")


def decision_moments(rules: Rules, counts, dealer):
    """A function ``moments(cards) -> {play: (mean, second moment)}`` (unconditioned, per
    unit of the initial bet) for hands (sorted tuples of ranks) against ``dealer``, drawn
    from a shoe of 10 (possibly fractional) ``counts``; memoised."""
    all_bets = rules.hole_card == "enhc"     # a dealer natural takes doubled bets too
    dealer_cards = _dealer_cards(dealer)
    trie = dealer_trie(dealer_cards, rules.hit_soft_17)
    tie = -1.0 if rules.dealer_wins_ties else 0.0
    shoe = list(counts)
    for c in dealer_cards:
        shoe[c - 1] -= 1

    def left_after(cards):
        left = list(shoe)
        for c in cards:
            left[c - 1] -= 1
        return left

    @lru_cache(maxsize=None)
    def dealer_outcomes(cards):
        # [17, 18, 19, 20, 21, natural, bust] with the player's cards out
        return tuple(trie.distribution(left_after(cards), False))

    @lru_cache(maxsize=None)
    def stand(cards):
        total, _ = hand_total(cards)
        d = dealer_outcomes(cards)
        m = s = 0.0
        for i, f in enumerate((17, 18, 19, 20, 21)):
            x = 1.0 if total > f else (tie if total == f else -1.0)
            m += d[i] * x
            s += d[i] * x * x
        m += -d[5] + d[6]          # a dealer natural wins, a bust loses
        s += d[5] + d[6]
        return m, s

    def draws(cards):
        left = left_after(cards)
        n = sum(left)
        return [(r, left[r - 1] / n) for r in range(1, 11) if left[r - 1] >= 1]

    @lru_cache(maxsize=None)
    def hit(cards):
        m = s = 0.0
        for r, p in draws(cards):
            nxt = tuple(sorted(cards + (r,)))
            if sum(nxt) > 21:
                mm, ss = -1.0, 1.0     # bust: the bet is lost, dealer natural or not
            else:
                mm, ss = best(nxt)
            m += p * mm
            s += p * ss
        return m, s

    @lru_cache(maxsize=None)
    def double(cards):
        m = s = 0.0
        for r, p in draws(cards):
            nxt = tuple(sorted(cards + (r,)))
            natural = dealer_outcomes(nxt)[5]
            if all_bets:                           # the natural takes both units: 2 x stand
                mm, ss = (-2.0, 4.0) if sum(nxt) > 21 else (2.0 * stand(nxt)[0],
                                                            4.0 * stand(nxt)[1])
            elif sum(nxt) > 21:
                # -2, except that a dealer natural takes the original bet only
                mm, ss = -2.0 + natural, 4.0 - 3.0 * natural
            else:
                sm, sq = stand(nxt)
                # stand's values counted the natural as -1 with weight 1: doubled elsewhere
                mm = 2.0 * (sm + natural) - natural
                ss = 4.0 * (sq - natural) + natural
            m += p * mm
            s += p * ss
        return m, s

    def may_double(cards):
        if len(cards) > 2 and not rules.double_any_cards:
            return False
        total, soft = hand_total(cards)
        if soft and not rules.double_soft:
            return False
        low = {"any": 0, "9-11": 9, "10-11": 10}[rules.double]
        return low == 0 or (not soft and low <= total <= 11)

    @lru_cache(maxsize=None)
    def best(cards):
        """(mean, second moment) of the play of largest mean after a hit."""
        options = [stand(cards), hit(cards)] if hand_total(cards)[0] < 21 else [stand(cards)]
        if may_double(cards) and len(cards) > 2:
            options.append(double(cards))
        return max(options, key=lambda ms: ms[0])

    def moments(cards):
        cards = tuple(sorted(cards))
        out = {"stand": stand(cards), "hit": hit(cards)}
        if may_double(cards):
            out["double"] = double(cards)
        if rules.surrender == "late" and len(cards) == 2:
            # a dealer natural takes the whole bet first (after the peek; or, with no hole
            # card, once the dealer's second card is dealt)
            natural = dealer_outcomes(cards)[5]
            out["surrender"] = (-natural - 0.5 * (1 - natural), natural + 0.25 * (1 - natural))
        elif rules.surrender != "none" and len(cards) == 2:
            out["surrender"] = (-0.5, 0.25)          # before any natural is known
        return out

    # (mypy has no notion of attributes set on a function)
    moments.dealer_outcomes = dealer_outcomes    # type: ignore[attr-defined]
    return moments


def given_no_blackjack(mean: float, second: float, natural: float) -> tuple:
    """(mean, variance) given no dealer natural, from unconditioned moments of a result
    that is exactly -1 when the dealer has one (chance ``natural``)."""
    p = 1.0 - natural
    m = (mean + natural) / p
    return m, (second - natural) / p - m * m


def split_moments(rules: Rules, counts, dealer, split: str = "CDZ-"):
    """A function ``moments(pair) -> (mean, second moment, chance of a dealer natural)``
    (unconditioned, per unit of the initial bet) of splitting ``pair`` (rank 1..10)
    against ``dealer`` on a shoe of 10 (possibly fractional) ``counts``, or None where the
    pair cannot be split; memoised.

    The law of the whole split is the outcome kernel's (``RoundLaws.split_law``: every
    hand of the split and the dealer's outcome, the split hands played as the post-split
    class ``split`` plays them).  Its mean is the solver's split EV on every shoe.  Into
    two hands (``rules.max_split_hands == 2``) the law is exact on every whole shoe; with
    resplits (and on fractional counts, no real shoe) the hands are combined as
    independent given the dealer's outcome, exact on an infinite shoe, and on a finite one
    the cards the hands take from each other are left out of the second moment (a change
    of order 1 / cards left)."""

    key = dealer if isinstance(dealer, int) else tuple(dealer)
    kernel = RoundLaws([float(c) for c in counts], key,
                       kernel_rules(rules, SPLIT_CLASSES[split]), False, True)
    cache: dict = {}

    def moments(pair: int):
        if pair not in cache:
            try:
                law, _ = kernel.split_law(pair)
            except ValueError:              # the rules (or the shoe) allow no split
                cache[pair] = None
                return None
            cache[pair] = (*column_moments(law.sum(axis=0), rules.blackjack_payout),
                           float(law[NATURAL_T].sum()))
        return cache[pair]

    return moments


def risk_averse_indices(rules: Rules, system="hilo", *, rows=None, true_counts=range(-5, 11),
                        dealt_decks: float | None = None, tc_rounding: str = "floor",
                        round_variance: float = 1.3) -> dict:
    """{(row, upcard): IndexLine} of the plays maximising the certainty equivalent (module
    docstring) on the two-card hands of each row (hard and soft totals without pairs, as
    in ``generate_indices``; pair rows the pair itself), on the same shoes at each true
    count.  With both dealer cards face up the keys are (row, dealer two-card total).

    rows: (row, upcard) pairs, default every entry of the Illustrious 18 and Fab 4 (with
        its two split entries, TT v 5 and TT v 6).  A pair row ("22" .. "AA") is the pair
        itself, with the split among its plays (``split_moments``) where the rules allow
        it.  With both dealer cards face up, rows are required: (row, dealer total) such
        as ("16", "12") (hard 12) or ("A7", "A6") (soft 17).
    round_variance: the variance of a round per unit bet (about 1.3 for common rules),
        which sets the Kelly bet.
    """
    check_rules(rules)
    if rules.infinite:
        raise ValueError("index numbers need a finite shoe (Rules.decks)")
    exposed = rules.hole_card == "exposed"
    if tc_rounding not in TC_ROUNDINGS:
        raise ValueError(f"tc_rounding must be one of {', '.join(TC_ROUNDINGS)}, got "
                         f"{str(tc_rounding)[:40]!r}")
    variance = finite_number(round_variance, "round_variance")
    if variance <= 0:
        raise ValueError(f"round_variance must be > 0, got {variance}")
    count_tags(system)
    grid = integer_grid(true_counts, "true_counts")
    if rows is None and exposed:
        raise ValueError("rows: the game with both dealer cards face up has no default "
                         "list; give (row, dealer total) pairs such as ('16', '12') or "
                         "('A7', 'A6')")
    if rows is None:
        rows = list(dict.fromkeys((row, up) for row, up, _, _ in ILLUSTRIOUS_18 + FAB_4))
    rows = _check_rows(rows, exposed)
    before_peek = rules.hole_card != "peek" or rules.surrender == "early"
    dealt = rules.decks / 2 if dealt_decks is None else dealt_decks
    shoes, _ = true_count_shoes(rules, system, grid, dealt)
    points: dict = {key: [] for key in rows}
    for tc, shoe in shoes.items():
        edge = shoe_values(rules, shoe).expected_value
        lam = max(edge, 0.0) / (2.0 * variance)
        for u in sorted({up for _, up in rows}, key=str):
            wanted = [row for row, up in rows if up == u]
            if exposed:     # every dealer hand of the total, weighted by its chance
                keys = {c: w for c, w in _hand_weights(shoe.counts, ()).items()
                        if total_code(c) == u}
            else:
                keys = {u: 1.0}
            acc: dict = {}
            for key, key_w in keys.items():
                for row, (ce, w) in _key_values(rules, shoe.counts, key, wanted, lam,
                                                before_peek).items():
                    slot = acc.setdefault(row, [{}, {}, 0.0])
                    for play, v in ce.items():
                        slot[0][play] = slot[0].get(play, 0.0) + key_w * w * v
                        slot[1][play] = slot[1].get(play, 0.0) + key_w * w
                    slot[2] += key_w * w
            for row, (sums, weights, total) in acc.items():
                # the plays offered against every dealer hand of the total
                ce = {play: v / weights[play] for play, v in sums.items()
                      if weights[play] >= total * (1 - 1e-12)}
                points[(row, u)].append(Point(tc, ce))
    return {key: _index_line(key[0], key[1], pts, tc_rounding, "rounded")
            for key, pts in points.items() if len(pts) >= 2}


def _key_values(rules: Rules, counts, key, rows, lam: float, before_peek: bool) -> dict:
    """{row: ({play: certainty equivalent}, chance of being dealt the row)} against one
    dealer key (an upcard, or both dealer cards when they are dealt face up)."""
    moments = decision_moments(rules, counts, key)
    weights = _hand_weights(counts, _dealer_cards(key))
    splits = None
    out = {}
    for row in rows:
        if row in _PAIR_ROWS:
            pair = rank(row[0])
            hands = {c: w for c, w in weights.items() if c == (pair, pair)}
            extra = {}
            if hands:
                if splits is None:    # (made once, for the first pair row dealt)
                    splits = split_moments(rules, counts, key)
                extra = {(pair, pair): splits(pair)}
        else:
            hands = {c: w for c, w in weights.items()
                     if total_code(c) == row and c[0] != c[1]}
            extra = {}
        if hands:
            out[row] = (_row_certainty_equivalents(moments, hands, lam, before_peek, extra),
                        sum(hands.values()))
    return out


def _dealer_cards(key) -> tuple:
    return (key,) if isinstance(key, int) else tuple(key)


def _hand_weights(counts, removed) -> dict:
    """{(a, b): chance of two cards a <= b (either order)} from 10 (possibly fractional)
    counts less the cards ``removed``; pairs the shoe is too short of are left out."""
    left = list(counts)
    for c in removed:
        left[c - 1] -= 1
    n = sum(left)
    out = {}
    for a in range(1, 11):
        for b in range(a, 11):
            if left[a - 1] < 1 or left[b - 1] < 1 + (a == b):
                continue
            w = left[a - 1] * (left[b - 1] - (a == b)) / (n * (n - 1))
            if w > 0:
                out[(a, b)] = w if a == b else 2 * w
    return out


def _row_certainty_equivalents(moments, hands: dict, lam: float,
                               before_peek: bool = False, splits: dict | None = None) -> dict:
    """{play: certainty equivalent} of a row: over its hands (weighted by their chance of
    being dealt), the unconditioned mean minus ``lam`` x the variance of the decision where
    it is made: after the peek, the variance given no dealer natural times the chance of
    no natural; ``before_peek`` (no hole card, or an early surrender's two-card decision),
    the unconditioned variance.  With ``lam = 0`` these are the row values
    ``generate_indices`` compares, so the risk-neutral lines are its lines.  ``splits``:
    {pair hand: (mean, second moment, natural chance) of splitting it, or None}."""
    acc: dict = {}
    total_w = 0.0
    for cards, w in hands.items():
        natural = moments.dealer_outcomes(cards)[5]
        total_w += w
        plays = {play: (m, s, natural) for play, (m, s) in moments(cards).items()}
        split = (splits or {}).get(cards)
        if split is not None:
            plays["split"] = split
        for play, (m, s, natural) in plays.items():
            if before_peek:
                risk = s - m * m
            else:
                risk = (1.0 - natural) * given_no_blackjack(m, s, natural)[1]
            slot = acc.setdefault(play, [0.0, 0.0])
            slot[0] += w * (m - lam * risk)
            slot[1] += w
    return {play: v / w for play, (v, w) in acc.items() if w >= total_w * (1 - 1e-12)}


_PAIR_ROWS = set(PAIR_CODES)
_TOTAL_ROWS = {str(t) for t in range(5, 20)} | {f"A{k}" for k in range(2, 10)}


_DEALER_TOTALS = ({str(t) for t in range(4, 21)} | {f"A{k}" for k in range(2, 10)} | {"AA"})


def _check_rows(rows, exposed: bool = False) -> list:
    """The (row, upcard) pairs asked for: two-card hard totals "5".."19", soft totals
    "A2".."A9" and pairs "22".."TT", "AA" against upcards 1..10; with both dealer cards
    face up, against the dealer's two-card total ("4".."20", soft "A2".."A9", "AA")."""
    try:
        rows = [tuple(r) for r in rows]
    except TypeError:
        raise TypeError(f"rows must be (row, upcard) pairs such as ('16', 10), got "
                        f"{show(rows)}") from None
    for item in rows:
        if len(item) != 2:
            raise ValueError(f"rows: each entry is (row, upcard), got {show(item)}")
        row, up = item
        if row not in _TOTAL_ROWS and row not in _PAIR_ROWS:
            raise ValueError(f"rows: row must be a hard total '5'..'19', a soft total "
                             f"'A2'..'A9' or a pair '22'..'TT', 'AA', got {show(row)}")
        if exposed:
            if up not in _DEALER_TOTALS:
                raise ValueError(f"rows: with both dealer cards face up the dealer entry is "
                                 f"the dealer's two-card total, hard '4'..'20', soft "
                                 f"'A2'..'A9' or 'AA', got {show(up)}")
        elif isinstance(up, bool) or not isinstance(up, numbers.Integral) or not 1 <= int(up) <= 10:
            raise ValueError(f"rows: upcard must be 1 (ace) .. 10, got {show(up)}")
    return rows


def risk_indices_table(rules: Rules, system="hilo", *, rows=None, select=None,
                       dealt_decks: float | None = None, tc_rounding: str = "floor",
                       round_variance: float = 1.3, true_counts=range(-5, 11)):
    """The risk-averse lines as a ``Table`` (one row per (row, upcard)), beside the
    risk-neutral (EV) crossing of the same shoes for comparison.  ``select``: "i18" or
    "fab4" (the rows of a named list) or a list of them (their rows together, each once),
    else ``rows`` (default: both lists)."""

    if select is not None:
        sets = list(select) if isinstance(select, (list, tuple)) else [select]
        if not sets or any(not isinstance(s, str) or s not in NAMED_SETS for s in sets):
            raise ValueError(f"select must be one of {', '.join(NAMED_SETS)} or a list of "
                             f"them, got {str(select)[:40]!r}")
        rows = list(dict.fromkeys((row, up) for s in sets for row, up, _, _ in NAMED_SETS[s]))
    averse = risk_averse_indices(rules, system, rows=rows, true_counts=true_counts,
                                  dealt_decks=dealt_decks,
                                 tc_rounding=tc_rounding, round_variance=round_variance)
    # lambda 0 (an enormous round variance): the EV lines of the same shoes
    neutral = risk_averse_indices(rules, system, rows=list(averse), true_counts=true_counts,
                                  dealt_decks=dealt_decks, tc_rounding=tc_rounding,
                                  round_variance=1e300)
    names, values, records = [], [], []

    def describe(line):
        if line is None or len(line.plays) < 2:
            return (line.plays[0] if line else "", "", "")
        return (" / ".join(f"{a}->{b}" for a, b in zip(line.plays, line.plays[1:])),
                " ".join(f"{t:+d}" for t in line.thresholds),
                " ".join(f"{c:+.2f}" for c in line.crossings))

    for (row, up), line in averse.items():
        dealer = label(up) if isinstance(up, int) else f"dealer {up}"
        names.append(f"{row} v {dealer}")
        change, index, exact = describe(line)
        ev = neutral.get((row, up))
        values.append([change, index, exact, describe(ev)[2] if ev else ""])
        records.append({"hand": row, "dealer": dealer, "plays": list(line.plays),
                        "indices": [int(t) for t in line.thresholds],
                        "crossings": [float(c) for c in line.crossings],
                        "ev_plays": list(ev.plays) if ev else [],
                        "ev_crossings": [float(c) for c in ev.crossings] if ev else []})
    method = (f"risk-averse indices ({system}): the play of largest certainty equivalent "
              f"m - lambda x var, lambda = max(edge, 0) / (2 x {round_variance:g}) (a Kelly "
              f"bettor), on shoes at each true count {true_counts[0]:+d}..{true_counts[-1]:+d} "
              f"({'half the shoe' if dealt_decks is None else f'{dealt_decks:g} decks'} "
              f"dealt), true counts {tc_rounding}; splits CDZ-; docs/counting.md")
    table = Table("risk_indices", f"risk-averse index numbers ({system})", tuple(names),
                  ("play change", "index", "exact TC", "EV exact TC"),
                  np.array(values, dtype=object),
                  _notes(rules, rules.shoe(), method,
                         "EV exact TC: the risk-neutral crossing of the same shoes"),
                  units="true counts", records=records)
    return table
