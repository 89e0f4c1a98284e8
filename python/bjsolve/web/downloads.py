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

from ..exact.tables import (
    advantage_table,
    exceptions_table,
    house_edge_table,
    strategy_table,
)
from ..output import render_many
from ..output.table import Grid, Table, table_notes
from ..risk.ramp import ramp_table

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
    with a number in every cell: ``SimulationResult.tables_for_files``, the tables
    ``bjsolve simulate --format csv/json`` writes."""
    if name not in ("simulation", "sim-counts"):
        raise ValueError(f"no simulation table {name[:30]!r}")
    summary, by_tc = result.tables_for_files(unit)
    return summary if name == "simulation" else by_tc
