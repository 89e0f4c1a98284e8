"""Index numbers for Blackjack Switch (docs/games.md, "Blackjack Switch", "Indices").

A Switch counter meets two kinds of decision, and both get indices here:

- **play indices**: how to play a hand (stand, hit, double, split, surrender) against an
  upcard at a true count, once the switch is decided.  After the switch each hand is
  played by the game's rules without the swap (``switch.game_rules``: dealer 22 pushes,
  naturals at their payout), so these are the classic index numbers of those rules
  (``generate_indices(game_rules(rules))``: the shoe at each true count, each two-card
  hand valued with its own cards and the upcard out).  The other hand's two cards are
  left in that shoe, as the counter who reads an index by total and upcard does not look
  at them: for the value of a fixed play this is exactly the average over the other
  hand's cards (they are a random draw from the same shoe, and the hand's and the
  dealer's draws could as well come from beneath them); only the later decisions of a
  hit hand could use them, which the Switch analysis does not either.
- **switch indices**: keep or switch, for a deal of two two-card hands against an upcard.
  At each true count of the grid the switch analysis (``solve_switch``, removal "full":
  each hand valued with all five dealt cards out) is solved on the shoe built at that
  count, in whole cards (the shoes of ``shoe_at_true_count``, as
  ``switch_advantage_by_true_count`` uses); for every deal whose better arrangement changes
  on the grid, the index is where the linear interpolation of (value switched - value
  kept) between the two grid points crosses 0, made whole by the counter's true-count
  convention (``indices.integer_index``), as the play indices are.

Values are given no dealer natural (the switch is decided after the peek), in units of
one hand's bet, the two hands summed.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np

from ..exact.switch import (
    ACE_TEN,
    PAIRS,
    REMOVALS,
    check_switch_rules,
    game_rules,
    hand_label,
    pair_indices,
    solve_switch,
)
from ..model.ranks import label
from ..model.rules import Rules
from .indices import (
    TC_ROUNDINGS,
    IndexTable,
    _crossing,
    generate_indices,
    insurance_index,
    integer_index,
    true_count_weights,
)
from .removal import count_tags, integer_grid, shoe_at_true_count, true_count_shoes

N_PAIRS = len(PAIRS)


@dataclass(frozen=True)
class SwitchIndexLine:
    """Keep or switch by true count for one deal: ``below`` the arrangement (two hands,
    each a sorted rank pair) played below the index, ``above`` the one played from it on;
    ``crossing`` the exact true count where the two are worth the same, ``index`` the
    whole true count (act at TC >= index); ``gaps`` {TC: value(above) - value(below)}
    on the grid (units of one hand's bet, both hands, given no dealer natural); ``gain``
    what playing the line gains over the choice at TC 0, per round (for ranking only:
    the chance of the deal x the gain by true count weighted by
    ``indices.true_count_weights``).  ``dealt``: for a line whose arrangements hold an
    ace-ten, the arrangement dealt (its ace-ten a natural; the other's ace-ten, made by the
    switch, a 21 unless ``switch_blackjack``): the same two arrangements dealt the other
    way round are another deal with other values and a line of their own; None for the
    other lines (either arrangement dealt, the same values)."""
    upcard: int
    below: tuple
    above: tuple
    crossing: float
    index: int
    gain: float = 0.0
    gaps: dict = field(default_factory=dict, compare=False)
    dealt: tuple | None = None

    def text(self) -> str:
        def arrangement(hands):
            return " + ".join(hand_label(h) for h in hands)
        dealt = "" if self.dealt is None else f" (dealt {arrangement(self.dealt)})"
        return (f"{arrangement(self.below)} -> {arrangement(self.above)} v "
                f"{label(self.upcard)}{dealt}")


@dataclass(frozen=True)
class SwitchIndexTable:
    """The index numbers of a count system for Blackjack Switch (module doc): ``plays``
    the play indices (an ``IndexTable`` of the game's rules without the swap; its
    ``index(row, upcard, play)`` reads them), ``switch_lines`` the keep-or-switch lines
    whose choice changes on the grid (``SwitchIndexLine``), most frequent crossing first
    by ``gain``; ``switch_index(hand1, hand2, upcard)`` reads one.  ``insurance``: insure
    both hands at true counts >= it (None: never on the grid), ``insurance_crossing`` the
    exact true count where insurance breaks even (``insurance_index`` on the grid's
    shoes, the ace and the four player cards out)."""
    system: str
    rules: Rules
    dealt_decks: float
    true_counts: tuple
    tc_rounding: str
    plays: IndexTable
    switch_lines: list
    unreachable: tuple = ()
    # insure both hands at TC >= this (None: never on the grid), and the exact crossing
    insurance: int | None = None
    insurance_crossing: float | None = None

    def switches_at(self, deals, played, tc: float) -> np.ndarray:
        """The keep-or-switch choices of a counter at true count ``tc``: ``played`` (which
        of the ordered deals ``deals`` = (a, b, c, e, u, ...) rank arrays, hand 1 = a, b,
        hand 2 = c, e, upcard u, are switched) with each line's choice at ``tc`` put in
        for the deals of that line (``above`` from the index on, ``below`` under it).
        A copy; the deals of no line keep their choice."""
        a, b, c, e, u = deals[:5]
        kept, switched = _arrangement_codes(a, b, c, e)
        out = np.array(played, dtype=bool, copy=True)
        for line in self.switch_lines:
            below, above = _arrangement_code(line.below), _arrangement_code(line.above)
            here = (u == line.upcard) & (((kept == below) & (switched == above))
                                        | ((kept == above) & (switched == below)))
            if line.dealt is not None:
                here &= kept == _arrangement_code(line.dealt)
            wanted = above if tc >= line.index else below
            out[here] = switched[here] == wanted
        return out

    def switch_index(self, hand1, hand2, upcard):
        """The line of the deal hand 1 + hand 2 (two cards each; the switch swaps their
        second cards) against ``upcard``, or None when its choice does not change on the
        grid."""
        (a, b), (c, e) = tuple(hand1), tuple(hand2)
        kept = _arrangement((a, b), (c, e))
        switched = _arrangement((a, e), (c, b))
        for line in self.switch_lines:
            if (line.upcard == upcard and {line.below, line.above} == {kept, switched}
                    and line.dealt in (None, kept)):
                return line
        return None

    def method(self) -> str:
        return (f"{self.system}: play indices: {self.plays.method()} (the game's rules "
                f"without the swap; each hand valued with its own two cards and the upcard "
                f"out). Switch indices: the switch analysis (each hand valued with all five "
                f"dealt cards out) on shoes built at each whole true count "
                f"{self.true_counts[0]:+d}..{self.true_counts[-1]:+d} with "
                f"{self.dealt_decks:g} of {self.rules.decks} decks dealt, in whole cards; "
                f"index = where value switched - value kept crosses 0 (linear between grid "
                f"points), made whole for a {self.tc_rounding} true count; values given no "
                f"dealer natural, both hands, units of one hand's bet. Insurance: "
                + ("never on the grid" if self.insurance is None else
                   f"both hands at TC >= {self.insurance:+d}")
                + " (3 P(ten) - 1 >= 0 with the ace and the four player cards out, on "
                  "the play indices' shoes: fractional, each exactly at its count)"
                + ("; out of reach at this depth: TC " + ", ".join(f"{t:+d}" for t in
                                                                    self.unreachable)
                   if self.unreachable else ""))


def _arrangement_codes(a, b, c, e) -> tuple:
    """(kept, switched): each ordered deal's two arrangements (hand 1 = a, b, hand 2 =
    c, e; switched: a, e and c, b) as order-free numbers, the smaller hand's PAIRS index
    x N_PAIRS + the larger's."""
    h1, h2 = pair_indices(a, b), pair_indices(c, e)
    s1, s2 = pair_indices(a, e), pair_indices(c, b)
    return (np.minimum(h1, h2) * N_PAIRS + np.maximum(h1, h2),
            np.minimum(s1, s2) * N_PAIRS + np.maximum(s1, s2))


def _arrangement_code(hands) -> int:
    """The number ``_arrangement_codes`` gives an arrangement (two sorted rank pairs)."""
    first, second = sorted(PAIRS.index(tuple(h)) for h in hands)
    return first * N_PAIRS + second


def _arrangement(h1, h2) -> tuple:
    """Two hands as an order-free key: each hand's ranks sorted, the hands sorted."""
    return tuple(sorted((tuple(sorted(h1)), tuple(sorted(h2)))))


def _switch_gaps(solution) -> dict:
    """{(first arrangement, second arrangement, upcard, which is dealt): (value(second) -
    value(first), the chance of the deal in any order of its cards)} for every deal of
    ``solution`` with a keep-or-switch choice (the arrangements as pair-index pairs,
    ``first`` < ``second``; which is dealt: 0 either, where neither holds an ace-ten or a
    switched one is a natural too, else 1 ``first``, 2 ``second``: an ace-ten dealt is a
    natural, made by the switch a 21, so the two ways round are two deals)."""
    a, b, c, e, u, prob, keep, swap, decided = solution._deals
    k, s = _arrangement_codes(a, b, c, e)
    use = decided & (k != s)
    first, second = np.minimum(k, s)[use], np.maximum(k, s)[use]
    gap = np.where(k < s, swap - keep, keep - swap)[use]
    ace_ten = ((pair_indices(a, b) == ACE_TEN) | (pair_indices(c, e) == ACE_TEN)
               | (pair_indices(a, e) == ACE_TEN) | (pair_indices(c, b) == ACE_TEN))[use]
    if solution.rules.switch_blackjack:
        ace_ten[:] = False
    dealt = np.where(ace_ten, np.where(k[use] < s[use], 1, 2), 0)
    keys = (((first * N_PAIRS * N_PAIRS + second) * 10 + (u[use] - 1)) * 3 + dealt)
    uniq, at, back = np.unique(keys, return_index=True, return_inverse=True)
    chance = np.bincount(back.ravel(), weights=prob[use])
    return dict(zip(uniq.tolist(), zip(gap[at].tolist(), chance.tolist())))


def _decode(key: int) -> tuple:
    """(first arrangement, second arrangement, upcard, the arrangement dealt or None) of
    a ``_switch_gaps`` key."""
    key, dealt = divmod(key, 3)
    up = key % 10 + 1
    pairs = key // 10
    first, second = divmod(pairs, N_PAIRS * N_PAIRS)

    def hands(code):
        return tuple(PAIRS[i] for i in divmod(code, N_PAIRS))
    return hands(first), hands(second), up, (None, hands(first), hands(second))[dealt]


def switch_indices(rules: Rules, system="hilo", *, true_counts=range(-6, 11),
                   dealt_decks: float | None = None, tc_rounding: str = "floor",
                   split: str = "CDZ-", threads: int | None = None,
                   progress=None) -> SwitchIndexTable:
    """Play and switch index numbers for Blackjack Switch (module doc).

    true_counts: the whole true counts the switch analysis is solved at (strictly
        increasing, at least two reachable; the play indices use the classic grid);
        dealt_decks: the depth (default half the shoe);
    tc_rounding: "floor" (default), "truncate", "round" or "exact" (the crossing rounded).
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a bjsolve.Rules, got {type(rules).__name__}")
    check_switch_rules(rules)
    if rules.infinite:
        raise ValueError("index numbers need a finite shoe (Rules.decks)")
    if tc_rounding not in TC_ROUNDINGS:
        raise ValueError(f"tc_rounding must be one of {', '.join(TC_ROUNDINGS)}, got "
                         f"{str(tc_rounding)[:40]!r}")
    count_tags(system)
    grid = integer_grid(true_counts, "true_counts")
    dealt = rules.decks / 2 if dealt_decks is None else dealt_decks
    # (the play indices on the classic grid, -10..+15, as ``bjsolve indices`` prints them)
    plays = generate_indices(game_rules(rules), system, dealt_decks=dealt,
                             tc_rounding=tc_rounding, threads=threads)
    gaps_at, shoes, unreachable = {}, {}, []
    for n, tc in enumerate(grid):
        try:
            shoe = shoe_at_true_count(system, tc, int(rules.decks), dealt_decks=dealt)
        except ValueError as exc:
            if "cannot be reached" not in str(exc):
                raise
            unreachable.append(tc)
            continue
        shoes[tc] = shoe
        gaps_at[tc] = _switch_gaps(solve_switch(rules, shoe, split=split, removal=REMOVALS[0],
                                                threads=threads))
        if progress is not None:
            progress(n + 1, len(grid))
    reach = sorted(gaps_at)
    if len(reach) < 2:
        raise ValueError(f"switch indices need at least two reachable true counts on the "
                         f"grid; reachable at this depth: {', '.join(map(str, reach)) or 'none'}")
    weights = true_count_weights(rules, system, shoes)
    base_tc = min(reach, key=abs)
    lines = []
    keys = set().union(*(g.keys() for g in gaps_at.values()))
    for key in keys:
        # a tie (the two arrangements worth the same to 1e-12: hands of equal value) is
        # no choice: such grid points are left out
        pts = [(tc, gaps_at[tc][key][0]) for tc in reach if key in gaps_at[tc]
               and abs(gaps_at[tc][key][0]) > 1e-12]
        if len({d > 0 for _, d in pts}) < 2:
            continue
        first, second, up, dealt_hands = _decode(key)
        # one line per deal: the first change of choice on the grid (a change back, rare,
        # is left out; its gaps are in the line)
        for (t0, d0), (t1, d1) in zip(pts, pts[1:]):
            if (d0 > 0) != (d1 > 0):
                below, above = (first, second) if d1 > 0 else (second, first)
                sign = 1.0 if d1 > 0 else -1.0
                crossing = _crossing(t0, sign * d0, t1, sign * d1)
                index = integer_index(crossing, tc_rounding)
                gaps = {tc: sign * d for tc, d in pts}
                # the gain of the line over the choice at TC 0: above where the line
                # plays it and TC 0 does not, and the other way round
                basic_above = base_tc >= index
                gain = sum(weights[tc] * (g if tc >= index and not basic_above else
                                          -g if tc < index and basic_above else 0.0)
                           for tc, g in gaps.items())
                chance = gaps_at[base_tc].get(key, (0.0, 0.0))[1]
                lines.append(SwitchIndexLine(up, below, above, crossing, index,
                                             chance * gain, gaps, dealt_hands))
                break
    lines.sort(key=lambda line: -line.gain)
    # insurance, on the play indices' shoes (fractional: each meets its count exactly;
    # the whole-card shoes above miss it by up to a card's tag): decided with the four
    # player cards dealt, unread by a count (``insurance_ev_at``: they leave the ten's
    # chance as it was)
    exact_shoes, _ = true_count_shoes(rules, system, grid, dealt)
    insurance, crossing = insurance_index(exact_shoes, tc_rounding, player_cards=4)
    # the play indices carry the same insurance index (their index file's "insurance:"
    # line, what a counted game reads from them), not the one-hand game's own
    plays = dataclasses.replace(plays, insurance=insurance, insurance_crossing=crossing)
    return SwitchIndexTable(str(system), rules, dealt, grid, tc_rounding, plays, lines,
                            tuple(unreachable), insurance, crossing)


def switch_indices_tables(rules: Rules, system="hilo", *, dealt_decks=None,
                          tc_rounding="floor", progress=None, top: int | None = None) -> list:
    """``bjsolve indices`` for Blackjack Switch: the play indices' table (the game's rules
    without the swap) and the switch indices' table (``top``: the N lines of largest gain,
    default all)."""
    from ..output.table import Table
    from ..output.table import table_notes as _notes
    from .tables import indices_table
    table = switch_indices(rules, system, dealt_decks=dealt_decks, tc_rounding=tc_rounding,
                           progress=progress)
    plays = indices_table(game_rules(rules), system, dealt_decks=table.dealt_decks,
                          tc_rounding=tc_rounding, index_table=table.plays)
    # (the title set in place: the table keeps its index_table for the index file)
    plays.title = (f"Blackjack Switch play indices ({system}; each hand after the switch, "
                   f"the game's rules without the swap)")
    shown = table.switch_lines[:top] if top else table.switch_lines
    rows = tuple(line.text() for line in shown)
    values = [[f"{line.index:+d}", f"{line.crossing:+.2f}", f"{line.gain:.2e}"]
              for line in shown]
    records = [{"below": [list(h) for h in line.below], "above": [list(h) for h in line.above],
                "dealt": None if line.dealt is None else [list(h) for h in line.dealt],
                "dealer": label(line.upcard), "index": line.index,
                "crossing": float(line.crossing), "gain_per_round": float(line.gain)}
               for line in shown]
    # insurance, both hands: a row of its own, last (as the play indices' table has it)
    rows += ("insure both hands v A",)
    values.append(["never" if table.insurance is None else f"{table.insurance:+d}",
                   "" if table.insurance_crossing is None
                   else f"{table.insurance_crossing:+.2f}", ""])
    records.append({"insurance": True, "dealer": "A",
                    "index": table.insurance,
                    "crossing": (None if table.insurance_crossing is None
                                 else float(table.insurance_crossing))})
    switch = Table("switch-indices", f"Blackjack Switch keep/switch indices ({system})", rows,
                   ("index", "exact TC", "gain/round"), np.array(values, dtype=object),
                   _notes(rules, rules.shoe(), table.method(),
                          "a line: the arrangement played below the index -> the one "
                          "played from it on (the switch swaps the two hands' second "
                          "cards); act at TC >= index",
                          "gain/round: what playing the line gains over the choice at TC 0, "
                          "per round in units of one hand's bet (chance of the deal x the gain "
                          "by true count, weighted by a normal approximation of the true "
                          "count at this depth); for ranking only",
                          f"{len(table.switch_lines)} deals change their choice on the grid"
                          + (f", the {len(shown)} of largest gain shown" if top else ""),
                          "insure both hands v A: half a unit on each hand at TC >= the "
                          "index, decided before the peek and the switch (the play indices' "
                          "insurance row and index file carry the same index)"),
                   style="ev", records=records)
    return [plays, switch]


__all__ = ["SwitchIndexLine", "SwitchIndexTable", "switch_indices", "switch_indices_tables"]
