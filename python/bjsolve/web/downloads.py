"""The pages' tables as files: each a ``bjsolve.output.table.Table`` made by the library
function the command line uses for it, written by ``bjsolve.output``'s renderers, so that a
table downloaded from the page is the file the matching command writes with the same
settings (tests/test_web_downloads.py checks each pair).

    download            the command that writes the same table
    edge                bjsolve edge --no-chart
    chart               bjsolve strategy
    upcards             bjsolve advantage
    exceptions          bjsolve exceptions
    actions             bjsolve hand (its CSV; the command's JSON is a document of its own)
    dealer              none: the dealer's outcomes with this hand's cards out of the shoe
    counts, figures     bjsolve game --unit U (its first and second table)
    simulation,         bjsolve simulate --chunk-rounds 1e5 --unit U (its two tables)
      sim-counts

A command that writes two tables writes CSV in long form (table,row,column,value) and JSON
as ``{"tables": [...]}``; the page downloads each table alone (a grid, one document).
"""
from __future__ import annotations

import dataclasses
import math

from ..exact.tables import advantage_table, exceptions_table, house_edge_table, strategy_table
from ..output import render_many
from ..output.table import Grid, Table, table_notes
from ..risk.ramp import ramp_table
from ..simulation.result import SUMMARY_LABELS

# download name -> the page whose settings it reads
TABLES = {"edge": "edge", "upcards": "edge", "chart": "edge", "exceptions": "edge",
          "actions": "hand", "dealer": "hand", "figures": "counting", "counts": "counting",
          "simulation": "simulate", "sim-counts": "simulate"}
FORMATS = ("csv", "json")


def render(table: Table, fmt: str) -> str:
    """One table as CSV or JSON, by ``bjsolve.output`` (as ``bjsolve ... --format``)."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, got {fmt[:20]!r}")
    return render_many([table], fmt)


# ---- the solve's tables ---------------------------------------------------------------------

def solve_table(name: str, solution) -> Table:
    """edge, chart, upcards or exceptions of a ``Solution``."""
    if name == "edge":
        return house_edge_table(solution)
    if name == "chart":
        return strategy_table(solution)
    if name == "upcards":
        return advantage_table(solution)
    if name == "exceptions":
        return exceptions_table(solution)
    raise ValueError(f"no solve table {name[:30]!r}")


def hand_table(name: str, solution, view: dict) -> Table:
    """actions or dealer of the Hand page's view (``compute.Engine.hand``).

    actions: rows named by the action, columns ev and best ('best' or empty), the table
    named 'action': its CSV is what ``bjsolve hand --format csv`` prints."""
    notes = table_notes(solution.rules, solution.shoe, f"hand: {view['hand']}")
    if name == "actions":
        measure = ("given no dealer blackjack" if view["given_no_blackjack"]
                   else "both dealer cards known" if view.get("exposed") else "unconditioned")
        actions = view["actions"]
        return Table("action", f"{view['hand']}: EV of each action", tuple(actions),
                     ("ev", "best"),
                     Grid([[v, "best" if a == view["best"] else ""]
                           for a, v in actions.items()], 2),
                     notes + (f"EV per initial bet, {measure}",),
                     units="fraction of the initial bet")
    if name == "dealer":
        measures = tuple(view["dealer"])
        outcomes = tuple(view["dealer"][measures[0]])
        return Table("dealer", f"{view['hand']}: the dealer's outcomes", outcomes, measures,
                     Grid([[view["dealer"][m][o] for m in measures] for o in outcomes],
                          len(measures)),
                     notes + ("the player's and the dealer's cards out of the shoe",),
                     style="prob", units="probability (fraction of 1)")
    raise ValueError(f"no hand table {name[:30]!r}")


# ---- the counted game's tables -----------------------------------------------------------

def counting_table(name: str, game, result) -> Table:
    """counts (``CountedGame.table``) or figures (``ramp_table``) for a ramp's
    ``RampResult``, as ``bjsolve game`` makes them."""
    if name == "counts":
        return game.table(result.ramp)
    if name == "figures":
        return ramp_table(result, "ramp " + result.ramp.describe())
    raise ValueError(f"no counting table {name[:30]!r}")


# ---- the simulation's tables -------------------------------------------------------------

def simulation_table(name: str, result, unit: float | None) -> Table:
    """simulation (the summary) or sim-counts (by true count) of a ``SimulationResult``,
    with a number in every cell, as ``bjsolve simulate --format csv/json`` writes them.

    ``SimulationResult.tables`` writes its cells for reading ('5,339,073', a mean with its
    SE); files need numbers: the same rows at full precision, the SE and the seed in rows of
    their own, each amount's money in a row of its own.  (The command line does the same in
    bjsolve.cli.cmd_simulate, which this layer may not import; the tests check both agree.)"""
    summary, by_tc = result.tables(unit=unit)
    if name == "sim-counts":
        columns = by_tc.columns
        return dataclasses.replace(
            by_tc, values=Grid([[_plain(r[c]) for c in columns] for r in by_tc.records],
                               len(columns)))
    if name != "simulation":
        raise ValueError(f"no simulation table {name[:30]!r}")
    figures = result.summary()
    extra = {"se": "SE of the mean", "risk_of_ruin_se": "SE of the risk of ruin",
             "seed": "seed", "partial": "partial (1: interrupted)"}
    names = [k for k in figures if k in SUMMARY_LABELS or k in extra]
    rows = [SUMMARY_LABELS.get(k) or extra[k] for k in names]
    values = [_plain(figures[k]) for k in names]
    if unit is not None:
        for k, v in result.money(unit).items():
            rows.append(f"{SUMMARY_LABELS[k]} (money)")
            values.append(_plain(v))
    return dataclasses.replace(summary, rows=tuple(rows),
                               values=Grid([[v] for v in values], 1), style="prob")


def _plain(value):
    """A count stays a whole number, a flag 0/1, a figure a float (NaN: no entry)."""
    if value is None:
        return math.nan
    if isinstance(value, bool):
        return int(value)
    return value if isinstance(value, int) else float(value)
