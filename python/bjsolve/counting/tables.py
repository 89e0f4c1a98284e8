"""Tables for the card-counting calculator (used by the CLI)."""
from __future__ import annotations

import textwrap

import numpy as np

from ..model.ranks import RANK_LABELS, label
from ..output.table import Table
from ..output.table import table_notes as _notes
from .indices import generate_indices
from .removal import (
    GRIFFIN_1D_EOR,
    SYSTEMS,
    _removal_effects,
    advantage_by_true_count,
    betting_correlation,
    decision_effects,
    effects_of_removal,
    eor_vector,
    insurance_correlation,
    playing_efficiency,
)


def eor_table(rules, shoe, split="CDZ-", progress=None) -> Table:
    fixed, reopt = _removal_effects(rules, shoe, ("fixed", "reoptimized"), split, progress)
    rows = RANK_LABELS + ("mean",)
    values = np.full((len(rows), 2), np.nan)
    for r in range(1, 11):
        values[r - 1] = [fixed.effects.get(r, np.nan), reopt.effects.get(r, np.nan)]
    values[10] = [fixed.weighted_mean(), reopt.weighted_mean()]
    return Table("eor", "effects of removal", rows, ("fixed", "reoptimized"), values,
                 _notes(rules, fixed.shoe,
                        f"change in the round's EV (unconditioned, fraction of the initial bet: "
                        f"+0.001000 = +0.1 %) when one card of the rank leaves the shoe; base EV "
                        f"{fixed.base_ev:+.10f}",
                        "fixed: the full shoe's optimal decisions frozen (split hands as the "
                        "unsplit hand); reoptimized: each depleted shoe solved afresh",
                        f"split {split}; mean = probability-weighted mean (0 for a fixed "
                        "strategy)"), style="ev")


def counts_table(rules, shoe, systems, eor=None, progress=None) -> Table:
    """BC, IC and PE of each system; ``eor``: a user EOR vector A..T (any unit) for the BC
    column instead of this game's re-optimised effects of removal."""
    if eor is None:
        own = eor_vector(effects_of_removal(rules, shoe=shoe, strategy="reoptimized",
                                            progress=progress))
        bc_source = ("BC: correlation of the tags with this game's re-optimised effects of "
                     "removal")
    else:
        own = eor_vector(eor)
        bc_source = ("BC: correlation of the tags with the given EOR vector "
                     + ", ".join(f"{v:g}" for v in own))
    pe_shoe = shoe if shoe is not None else rules.shoe()
    decisions = decision_effects(rules, shoe=pe_shoe)
    rows, values = [], []
    for name in systems:
        rows.append(SYSTEMS[name][0] if isinstance(name, str) and name in SYSTEMS else
                    ",".join(f"{t:g}" for t in name) if not isinstance(name, str) else str(name))
        values.append([betting_correlation(name, own), insurance_correlation(name),
                       playing_efficiency(name, decisions, shoe=pe_shoe),
                       betting_correlation(name, GRIFFIN_1D_EOR)])
    return Table("counts", "count systems", tuple(rows), ("BC", "IC", "PE", "BC Griffin 1D"),
                 np.array(values),
                 _notes(rules, shoe if shoe is not None else rules.shoe(),
                        bc_source + "; BC Griffin 1D: with Griffin's published single-deck "
                        "EORs (The Theory of Blackjack)",
                        "IC: correlation with the insurance vector (+4 non-ten, -9 ten); 13 "
                        "ranks, ten's entry counted four times",
                        "PE: Griffin's gain ratio (normal approximation) over the close "
                        "two-card decisions (best and second-best play within 0.1 bet) with "
                        "their own effects of removal, a quarter of the shoe dealt; for one "
                        "deck it gives Griffin's published values within ~0.03 (Hi-Lo .51)"),
                 style="prob")


def indices_table(rules, system, *, dealt_decks=None, tc_rounding="floor",
                  index_rounding="rounded",
                  hands="two-card", select=None, progress=None, index_table=None):
    """The index numbers as a Table (``generate_indices``); ``select``: None (every line
    whose play changes), a number N (the N lines of largest gain), "i18" / "fab4" or a
    list of those (``IndexTable.select``).  ``index_table``: the ``IndexTable`` to show,
    already made (Blackjack Switch's play indices, with its insurance index)."""
    table = index_table if index_table is not None else generate_indices(
        rules, system, dealt_decks=dealt_decks, index_rounding=index_rounding,
        tc_rounding=tc_rounding, hands=hands, progress=progress)
    if select is not None:
        table = table.select(select)
    rows, values, records = [], [], []
    for (row, u), line, gain in _shown_lines(table):
        stand_hit = tuple(line.options) == ("stand", "hit")
        rows.append(f"{row} v {label(u)}" + (" stand/hit" if stand_hit else ""))
        change = " / ".join(f"{a}->{b}" for a, b in zip(line.plays, line.plays[1:]))
        values.append([change, " ".join(f"{t:+d}" for t in line.thresholds),
                       " ".join(f"{c:+.2f}" for c in line.crossings),
                       "" if gain is None else f"{gain:.2e}"])
        # JSON: the same lines with real numbers and the hand and upcard as separate fields
        records.append({"hand": row, "dealer": label(u), "options": list(line.options),
                        "plays": list(line.plays),
                        "indices": [int(t) for t in line.thresholds],
                        "crossings": [float(c) for c in line.crossings],
                        "gain_per_round": gain})
    rows.append("insurance")
    values.append(["take insurance", "never" if table.insurance is None else f"{table.insurance:+d}",
                   "" if table.insurance_crossing is None else f"{table.insurance_crossing:+.2f}",
                   ""])
    records.append({"hand": "insurance", "dealer": "A", "plays": ["no insurance", "insurance"],
                    "indices": [] if table.insurance is None else [int(table.insurance)],
                    "crossings": ([] if table.insurance_crossing is None
                                  else [float(table.insurance_crossing)])})
    t = Table("indices", f"index numbers ({system})", tuple(rows),
              ("play change", "index", "exact TC", "gain/round"), np.array(values, dtype=object),
              _notes(rules, rules.shoe(), table.method(),
                     "gain/round: what playing the line gains over the play at TC 0, per "
                     "round in fractions of a bet (chance of the deal x the gain by true "
                     "count, weighted by a normal approximation of the true count at this "
                     "depth); for ranking only",
                     *(("stand/hit: the line played by a hand that may no longer double, "
                        "split or surrender (three or more cards, or after a split), where "
                        "it differs from the two-card line above it",)
                       if any(r.endswith(" stand/hit") for r in rows) else ())),
              units="true counts", records=records)
    t.index_table = table
    return t


def _shown_lines(table):
    """[((row, upcard), line, gain or None)] in the table's order: each two-card line, and
    after it the stand-or-hit line of the same hand when it changes play with the count and
    differs from the two-card line (with late surrender the two-card 16 v T line is
    hit->surrender, and the stand index of a 16 that can no longer surrender is that line's):
    every line the index file carries that a player acts on."""
    later: dict = {}
    for line in table.all_lines or ():
        if tuple(line.options) == ("stand", "hit") and len(line.plays) > 1:
            later[(line.row, line.dealer)] = line
    out = []
    for key, line in table.lines.items():
        out.append((key, line, float(table.gains.get(key, 0.0))))
        other = later.get(key)
        if other is not None and (other.plays, other.thresholds) != (line.plays,
                                                                      line.thresholds):
            out.append((key, other, None))
    return out


def index_file(table) -> str:
    """The index-file format ``count up dbl spl sur p1 tc1 p2 ... +1000`` (see IndexLine);
    the comment lines wrapped to 80 columns, each piece starting with '#'."""
    ins = table.index_table.insurance
    comments = list(table.notes) + [
        "count up dbl spl sur p1 tc1 p2 ... +1000 (count < 0 soft; 1 stand, 2 hit, 3 double, "
        "4 split, 5 surrender)",
        "act at TC >= tc_i; dbl/spl/sur 1: the line is for a hand that may "
        "double/split/surrender (0 0 0: stand or hit only)",
        "insurance: " + ("never on the grid" if ins is None else f"take at TC >= {ins:+d}")]
    lines = []
    for comment in comments:
        lines += textwrap.wrap(comment, 80, initial_indent="# ", subsequent_indent="#   ",
                               break_long_words=False, break_on_hyphens=False)
    return "\n".join(lines) + "\n" + table.index_table.index_file()


def tc_advantage_table(rules, system, *, dealt_decks=None, true_counts=range(-5, 11),
                       split="CDZ-", progress=None) -> Table:
    res = advantage_by_true_count(rules, system, true_counts=true_counts, dealt_decks=dealt_decks,
                                  split=split, progress=progress)
    rows = tuple(f"{tc:+d}" for tc in res)
    values = np.array([list(v) for v in res.values()])
    depth = rules.decks / 2 if dealt_decks is None else dealt_decks
    missing = [tc for tc in true_counts if tc not in res]
    reach = ("; out of reach at this depth (a rank would run out): TC "
             + ", ".join(f"{tc:+d}" for tc in missing)) if missing else ""
    return Table("tc-advantage", f"advantage by true count ({system})", rows,
                 ("exact", "linear"), values,
                 _notes(rules, rules.shoe(),
                        f"EV of a round (unconditioned, text in percent) with the shoe at each "
                        f"true count (running count / decks remaining), {depth:g} "
                        f"deck{'' if depth == 1 else 's'} dealt, "
                        f"removals proportional within tag classes, fractional counts so the "
                        f"count is exact",
                        "exact: the shoe solved, every hand played its best way for that "
                        "shoe (composition-dependent; 'bjsolve game' plays the chart, on "
                        "floored counts); linear: full-shoe EV plus the fixed-strategy "
                        "effects of removal, rescaled to the cards left" + reach,
                        f"split {split}"), style="percent")
