"""The pages' tables as HTML fragments, each made from a view of ``compute.Engine``: plain
dicts of numbers, so the page and the tests read the same figures.  (The CSV and JSON
downloads are the library's own tables, rendered by ``bjsolve.output``: see ``downloads``.)"""
from __future__ import annotations

import html
import math

from . import charts

# the counting figures: key -> (label, unit, how shown)
FIGURES = {
    "win_rate": ("win rate", "units per round", "{:+.4f}"),
    "win_per_100": ("win per 100 rounds", "units", "{:+.2f}"),
    "sd": ("SD", "units per round", "{:.3f}"),
    "sd_per_100": ("SD of 100 rounds", "units", "{:.2f}"),
    "average_bet": ("average bet", "units a round bet", "{:.3f}"),
    "advantage": ("advantage", "win rate / average bet", "pct"),
    "di": ("DI", "1000 x win rate / SD", "{:.2f}"),
    "score": ("SCORE", "DI squared", "{:.2f}"),
    "n0": ("N0", "rounds to win one SD", "{:,.0f}"),
    "ror": ("risk of ruin", "lifetime, exact", "pct"),
    "ror_diffusion": ("risk of ruin (diffusion)", "exp(-2 W B / Var)", "pct"),
}

# the simulation's figures: key -> (label, unit, how shown)
SIM_FIGURES = {
    "rounds": ("rounds dealt", "rounds", "{:,}"),
    "played": ("rounds played", "rounds with a bet", "{:,}"),
    "hands": ("hands", "hands played (a split makes two)", "{:,}"),
    "mean": ("win per round", "units per round dealt", "{:+.5f}"),
    "se": ("SE of the win per round", "units (rounds taken as independent)", "{:.5f}"),
    "win_per_100": ("win per 100 rounds", "units", "{:+.3f}"),
    "se_per_100": ("SE of the win per 100 rounds", "units", "{:.3f}"),
    "sd": ("SD", "units per round", "{:.4f}"),
    "win_rate": ("win rate", "total won / total bet", "pct"),
    "average_bet": ("average bet", "units per round dealt", "{:.3f}"),
    "total_won": ("total won", "units", "{:+,.1f}"),
    "total_bet": ("total bet", "units (initial bets)", "{:,.1f}"),
    "shuffles": ("shuffles", "shoes dealt", "{:,}"),
}


def _e(text) -> str:
    return html.escape(str(text))


def pct(value: float, places: int = 3) -> str:
    """0.00527 -> '0.527%'; a minus sign that shows (U+2212 is not used: copy-paste safe)."""
    return f"{100 * value:.{places}f}%"


# ---- HTML fragments ------------------------------------------------------------------

def edge_html(view) -> str:
    chart, optimal = view["edge"]["chart"], view["edge"]["optimal"]
    return (f'<p class="edge">House edge <b id="edge-chart">{pct(chart)}</b> with the basic '
            f'chart, <b id="edge-optimal">{pct(optimal)}</b> with composition-dependent '
            f'optimal play <small>(one player, full shoe, percent of the initial bet; '
            f'negative: a player advantage)</small></p>')


def upcards_html(view) -> str:
    body = "".join(f'<tr><th>{_e(u)}</th><td class="num">{pct(v, 2)}</td></tr>'
                   for u, v in view["upcards"])
    return ('<table class="grid" id="upcards"><caption>Player EV by dealer upcard<br>'
            '(percent, not given no dealer blackjack)</caption><tr><th>upcard</th>'
            f"<th>EV</th></tr>{body}</table>")


def exceptions_html(view) -> str:
    if not view:
        return "<p>No composition-dependent exceptions (hands of 2 to 4 cards).</p>"
    body = "".join(
        f"<tr><td>{_e(d['cards'])}</td><td>{_e(d['upcard'])}</td><td>{_e(d['chart'])}</td>"
        f"<td><b>{_e(d['optimal'])}</b></td><td class=\"num\">{pct(d['gain'], 4)}</td></tr>"
        for d in view)
    return ('<table class="grid" id="exceptions-table"><caption>Composition-dependent '
            "exceptions: hands of 2 to 4 cards where the optimal play departs from the chart "
            "(gain: EV per initial bet of the hand)</caption><tr><th>cards</th><th>upcard</th>"
            "<th>chart</th><th>optimal</th><th>gain</th></tr>" + body + "</table>")


def actions_html(view) -> str:
    condition = ("given no dealer blackjack (the dealer has peeked)" if view["given_no_blackjack"]
                 else "both dealer cards face up (exposed game)" if view.get("exposed")
                 else "unconditioned (a dealer natural included)")
    body = "".join(
        f'<tr class="{"best" if a == view["best"] else ""}"><th>{_e(a)}</th>'
        f'<td class="num">{v:+.6f}</td><td class="num">{pct(v, 3)}</td></tr>'
        for a, v in view["actions"].items())
    return (f'<table class="grid" id="actions"><caption>{_e(view["hand"])}: EV of each action '
            f'per initial bet, {condition}; best: <b id="best">{_e(view["best"])}</b>'
            "</caption><tr><th>action</th><th>EV</th><th>percent</th></tr>" + body + "</table>")


def dealer_html(view) -> str:
    measures = list(view["dealer"])
    outcomes = list(view["dealer"][measures[0]])
    head = "".join(f"<th>{_e(m)}</th>" for m in measures)
    body = "".join(
        f"<tr><th>{_e(o)}</th>"
        + "".join(f'<td class="num">{pct(view["dealer"][m][o], 2)}</td>' for m in measures)
        + "</tr>" for o in outcomes)
    return ('<table class="grid" id="dealer"><caption>Dealer outcomes with these cards out '
            f"of the shoe (percent)</caption><tr><th>outcome</th>{head}</tr>{body}</table>")


def _figure(value, how: str) -> str:
    if value is None or math.isnan(value):        # not given, or undefined (no bet)
        return "-"
    return pct(value, 3) if how == "pct" else how.format(value)


def figures_html(view) -> str:
    unit = view["unit"]
    body = "".join(
        f'<tr><th>{_e(label)}</th><td class="num" id="fig-{k}">'
        f'{_figure(view["figures"][k], how)}</td>'
        f'<td class="num">{_money(view["money"].get(k))}</td>'
        f'<td class="unit">{_e(unit_name)}</td></tr>'
        for k, (label, unit_name, how) in _asked_figures(view).items())
    caveat = f'<p class="error">{_e(view["caveat"])}</p>' if view.get("caveat") else ""
    if view.get("trip_ruin_note"):
        caveat += f'<p class="muted">{_e(view["trip_ruin_note"])}</p>'
    return (f'<table class="grid" id="figures"><caption>Ramp {_e(view["ramp"])}: '
            f'{view["rounds_per_shoe"]:.2f} rounds per shoe; money at {unit:g} a unit'
            "</caption><tr><th>figure</th><th>units</th><th>money</th><th></th></tr>"
            f"{body}</table>{caveat}")


def _asked_figures(view) -> dict:
    """FIGURES, and the optional ones the user asked for (a target risk, a trip's length)."""
    rows = dict(FIGURES)
    if view.get("target_ror") is not None:
        rows["bankroll_for_target"] = ((f"bankroll for {100 * view['target_ror']:g}% risk of "
                                        "ruin"), "units (lifetime ruin, exact)", "{:,.1f}")
    if view.get("trip_rounds") is not None:
        rows["trip_ruin"] = (f"trip ruin in {view['trip_rounds']:,} rounds",
                             "P(losing the bankroll in the trip)", "pct")
    return rows


def _money(value) -> str:
    return "" if value is None else f"{value:,.2f}"


def counts_html(view) -> str:
    body = "".join(
        f'<tr><th>{_e(c["tc"])}</th><td class="num">{pct(c["frequency"], 2)}</td>'
        f'<td class="num">{pct(c["edge"], 2)}</td><td class="num">{c["sd"]:.3f}</td>'
        f'<td class="num">{c["bet"]:g}</td></tr>' for c in view["counts"])
    return ('<table class="grid" id="counts"><caption>True counts at round starts: '
            "frequency, player edge (unconditioned, per unit bet), SD per unit bet, the "
            "ramp's bet (units)</caption><tr><th>TC</th><th>frequency</th><th>edge</th>"
            "<th>SD</th><th>bet</th></tr>" + body + "</table>")


def sim_figures_html(view) -> str:
    unit = view["unit"]
    body = "".join(
        f'<tr><th>{_e(label)}</th><td class="num" id="sim-{k}">'
        f'{_figure(view["figures"][k], how)}</td>'
        f'<td class="num">{_money(view["money"].get(k))}</td>'
        f'<td class="unit">{_e(unit_name)}</td></tr>'
        for k, (label, unit_name, how) in SIM_FIGURES.items())
    done, total = view["figures"]["rounds"], view["total"]
    title = (f'<b class="partial">PARTIAL</b>: stopped after {done:,} of {total:,} rounds'
             if view["partial"] else f"{done:,} rounds")
    return (f'<table class="grid" id="sim-figures"><caption>{title}; seed {view["seed"]}, '
            f'chunks of {view["chunk_rounds"]:,} rounds; money at {unit:g} a unit</caption>'
            "<tr><th>figure</th><th>units</th><th>money</th><th></th></tr>"
            f"{body}</table>")


def sim_counts_html(view) -> str:
    body = "".join(
        f'<tr><th>{c["tc"]:+d}</th><td class="num">{c["rounds"]:,}</td>'
        f'<td class="num">{_figure(c["frequency"], "pct")}</td>'
        f'<td class="num">{c["played"]:,}</td>'
        f'<td class="num">{_figure(c["mean"], "pct")}</td>'
        f'<td class="num">{_figure(c["se"], "pct")}</td>'
        f'<td class="num">{_figure(c["sd"], "{:.3f}")}</td></tr>' for c in view["counts"])
    return ('<table class="grid" id="sim-counts"><caption>By the true count the bet was made '
            "on: rounds dealt, their share, rounds played, and the result per initial unit "
            "bet of the played rounds (the edge at that count) with its SE and SD; the end "
            "rows hold every count beyond</caption><tr><th>TC</th><th>rounds</th>"
            "<th>frequency</th><th>played</th><th>edge</th><th>SE</th><th>SD</th></tr>"
            + body + "</table>")


# ---- the Counting page's charts and the optimal ramp ---------------------------------------

def _pct_tick(value: float) -> str:
    return f"{100 * value:g}%"


def count_charts_html(view) -> str:
    """The true-count frequencies and the edge by true count as bar charts (the figures of
    the true-count table, ``counts_html``)."""
    counts = view["counts"]
    labels = [c["tc"] for c in counts]
    frequency = charts.bar_chart(
        "chart-frequency", "How often each true count starts a round", labels,
        [charts.Series("frequency", [c["frequency"] for c in counts], "freq")],
        x_name="true count at round start",
        y_name="share of rounds (percent)", tick_text=_pct_tick,
        value_text=lambda v: pct(v, 3) + " of rounds")
    edge = charts.bar_chart(
        "chart-edge", "Player edge by true count (unconditioned)", labels,
        [charts.Series("edge", [c["edge"] for c in counts], "edge")],
        x_name="true count at round start",
        y_name="edge (percent of the bet)", tick_text=_pct_tick,
        value_text=lambda v: pct(v, 3) + " of the bet")
    return f'<div class="charts">{frequency}{edge}</div>'


def ramps_html(view) -> str:
    """The optimal ramp beside the user's: the bets by true count (a chart and a table) and
    their figures side by side."""
    counts, optimal = view["counts"], view["optimal"]
    labels = [c["tc"] for c in counts]
    chart = charts.bar_chart(
        "chart-ramps", "Bet by true count: your ramp and the optimal one", labels,
        [charts.Series("your ramp", [c["bet"] for c in counts], "yours"),
         charts.Series("optimal ramp", [c["optimal_bet"] for c in counts], "optimal")],
        x_name="true count at round start", y_name="bet (units)",
        tick_text=lambda v: f"{v:g}", value_text=lambda v: f"{v:g} units", width=720)
    rows = "".join(
        f'<tr><th>{_e(c["tc"])}</th><td class="num">{c["bet"]:g}</td>'
        f'<td class="num">{c["optimal_bet"]:g}</td></tr>' for c in counts)
    bets = ('<table class="grid" id="ramps-table"><caption>Bets (units) by true count'
            '</caption><tr><th>TC</th><th>yours</th><th>optimal</th></tr>'
            f"{rows}</table>")
    compared = "".join(
        f'<tr><th>{_e(FIGURES[k][0])}</th>'
        f'<td class="num" id="yours-{k}">{_figure(optimal["yours"][k], FIGURES[k][2])}</td>'
        f'<td class="num" id="optimal-{k}">{_figure(optimal["figures"][k], FIGURES[k][2])}'
        f'</td><td class="unit">{_e(FIGURES[k][1])}</td></tr>' for k in optimal["figures"])
    sits = "sitting out where the edge is negative, " if optimal["wong"] else ""
    figures = ('<table class="grid" id="ramps-figures"><caption>The optimal ramp '
               f'<b id="optimal-ramp">{_e(optimal["ramp"])}</b>: the best SCORE with your '
               f'ramp\'s smallest bet ({optimal["min_bet"]:g} unit(s), also the step) and '
               f'spread (1-{optimal["max_spread"]:g}), {sits}bets proportional to edge / '
               'variance (Kelly) at each count; both at your bankroll</caption>'
               '<tr><th>figure</th><th>your ramp</th><th>optimal</th><th></th></tr>'
               f"{compared}</table>")
    return (f'<div class="ramps">{chart}<div class="columns">{figures}'
            f'<div class="scroll">{bets}</div></div></div>')
