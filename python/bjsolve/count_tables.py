"""Tables for the card-counting calculator (used by the CLI)."""
from __future__ import annotations

import numpy as np

from .counting import (GRIFFIN_1D_EOR, SYSTEMS, advantage_by_true_count, betting_correlation,
                       count_tags, decision_effects, effects_of_removal, insurance_correlation,
                       playing_efficiency)
from .indices import generate_indices
from .ranks import RANK_LABELS, label
from .shoe import Shoe
from .tables import Table, _notes


def eor_table(rules, shoe, split="CDZ-") -> Table:
    fixed = effects_of_removal(rules, shoe, strategy="fixed", split=split)
    reopt = effects_of_removal(rules, shoe, strategy="reoptimized", split=split)
    rows = RANK_LABELS + ("mean",)
    values = np.full((len(rows), 2), np.nan)
    for r in range(1, 11):
        values[r - 1] = [fixed.effects.get(r, np.nan), reopt.effects.get(r, np.nan)]
    values[10] = [fixed.weighted_mean(), reopt.weighted_mean()]
    return Table("eor", "effects of removal", rows, ("fixed", "reoptimized"), values,
                 _notes(rules, fixed.shoe,
                        f"change in the round's EV (unconditioned, fraction of the initial bet; "
                        f"text in percent) when one card of the rank leaves the shoe; base EV "
                        f"{fixed.base_ev:+.10f}",
                        "fixed: the full shoe's optimal decisions frozen (split hands as the "
                        "unsplit hand); reoptimized: each depleted shoe solved afresh",
                        f"split {split}; mean = probability-weighted mean (0 for a fixed "
                        "strategy)"), style="percent")


def counts_table(rules, shoe, systems, progress=None) -> Table:
    eor = effects_of_removal(rules, shoe, strategy="reoptimized").as_vector()
    decisions = decision_effects(rules, shoe)
    rows, values = [], []
    for name in systems:
        rows.append(SYSTEMS[name][0] if isinstance(name, str) and name in SYSTEMS else str(name))
        values.append([betting_correlation(name, eor), insurance_correlation(name),
                       playing_efficiency(name, decisions), betting_correlation(name, GRIFFIN_1D_EOR)])
    return Table("counts", "count systems", tuple(rows), ("BC", "IC", "PE", "BC Griffin 1D"),
                 np.array(values),
                 _notes(rules, shoe if shoe is not None else Shoe.decks(rules.decks),
                        "BC: correlation of the tags with this game's re-optimised effects of "
                        "removal; BC Griffin 1D: with Griffin's published single-deck EORs",
                        "IC: correlation with the insurance vector (+4 non-ten, -9 ten); 13 "
                        "ranks, ten's entry counted four times",
                        "PE: correlation method (mean absolute correlation with the effects of "
                        "removal of the close two-card decisions, weighted by probability x "
                        "spread); not Griffin's method, so not comparable with published PE"),
                 style="prob")


def indices_table(rules, system, *, dealt_decks=None, rounding="rounded", progress=None):
    table = generate_indices(rules, system, dealt_decks=dealt_decks, rounding=rounding,
                             progress=progress)
    rows, values = [], []
    for (row, u), line in table.lines.items():
        rows.append(f"{row} v {label(u)}")
        change = " / ".join(f"{a}->{b}" for a, b in zip(line.plays, line.plays[1:]))
        values.append([change, " ".join(f"{t:+d}" for t in line.thresholds),
                       " ".join(f"{c:+.2f}" for c in line.crossings)])
    rows.append("insurance")
    values.append(["take insurance", "never" if table.insurance is None else f"{table.insurance:+d}",
                   "" if table.insurance_crossing is None else f"{table.insurance_crossing:+.2f}"])
    t = Table("indices", f"index numbers ({system})", tuple(rows),
              ("play change", "index", "exact TC"), np.array(values, dtype=object),
              _notes(rules, Shoe.decks(rules.decks), table.method()))
    t.index_table = table
    return t


def index_file(table) -> str:
    """The index-file format ``count up dbl spl sur p1 tc1 p2 ... +1000`` (see IndexLine)."""
    lines = [f"# {n}" for n in table.notes]
    lines.append("# count up dbl spl sur p1 tc1 p2 ... +1000 (count < 0 soft; 1 stand, 2 hit, "
                 "3 double, 4 split, 5 surrender)")
    lines += [line.index_file_line() for line in table.index_table.lines.values()]
    return "\n".join(lines) + "\n"


def tc_advantage_table(rules, system, *, dealt_decks=None, true_counts=range(-5, 11),
                       progress=None) -> Table:
    res = advantage_by_true_count(rules, system, true_counts=true_counts, dealt_decks=dealt_decks,
                                  progress=progress)
    rows = tuple(f"{tc:+d}" for tc in res)
    values = np.array([list(v) for v in res.values()])
    depth = rules.decks / 2 if dealt_decks is None else dealt_decks
    return Table("tc-advantage", f"advantage by true count ({system})", rows,
                 ("exact", "linear"), values,
                 _notes(rules, Shoe.decks(rules.decks),
                        f"EV of a round (unconditioned, text in percent) with the shoe at each "
                        f"true count (running count / decks remaining), {depth:g} decks dealt, "
                        f"removals proportional within tag classes, fractional counts so the "
                        f"count is exact",
                        "exact: the shoe solved; linear: full-shoe EV plus the fixed-strategy "
                        "effects of removal, rescaled to the cards left"), style="percent")
