"""HTML output: one self-contained page (inline CSS, no scripts, no external files) that
prints well: strategy charts in colour with hard, soft and pair sections, other tables as
plain grids, every table with its notes."""
from __future__ import annotations

import html

from .cells import cell as _cell
from .cells import chart_sections as _sections
from .cells import number as _number
from .terminal import ACTION_COLORS, action_letter

CSS = """
body { font-family: Helvetica, Arial, sans-serif; margin: 1.5em; color: #111; }
h1 { font-size: 1.3em; margin: 0 0 .2em 0; }
table { border-collapse: collapse; margin: .4em 0 1em 0; }
caption { caption-side: top; text-align: left; font-size: .9em; padding-bottom: .4em; }
th, td { border: 1px solid #888; padding: 2px 6px; text-align: center;
         font-variant-numeric: tabular-nums; }
td.num { text-align: right; }
th.section { background: #333; color: #fff; text-align: left; }
.chart td { width: 2.2em; font-weight: bold; }
.legend span { display: inline-block; padding: 1px 6px; margin: 0 .6em .3em 0;
               border: 1px solid #888; }
.edge { font-size: 1.1em; margin: .2em 0 .6em 0; }
ul.notes { font-size: .8em; color: #444; margin-top: 0; }
* { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
@media print { body { margin: 0; } section { page-break-inside: avoid; } }
"""


def _e(text) -> str:
    return html.escape(str(text))


def _code_cell(code: str) -> str:
    entry = ACTION_COLORS.get(action_letter(code)) if code else None
    if not entry:
        return f"<td>{_e(code)}</td>"
    _, color, meaning = entry
    if code.startswith("FP"):
        meaning = "free split (the house puts up the new hand's bet)"
    elif code.startswith("F"):
        meaning = "free double (the house puts up the extra bet)"
    fg = "#fff" if action_letter(code) in ("S", "D") else "#000"
    return f'<td style="background:{color};color:{fg}" title="{_e(meaning)}">{_e(code)}</td>'


LEGEND_ITEM = ("display:inline-block;padding:1px 6px;margin:0 .6em .3em 0;"
               "border:1px solid #888")


# the games' free plays, shown in the legend only when the chart has the code
FREE_LEGEND_ITEMS = (
    ("Fh", "free double (the house puts up the extra bet), else hit"),
    ("Fs", "free double, else stand"),
    ("FP", "free split (the house puts up the new hand's bet)"),
    ("FPh", "free split if double after split is allowed, else hit"),
    ("FPd", "free split with DAS, else double"), ("FPs", "free split with DAS, else stand"))


def legend(codes=()) -> str:
    """The coloured legend of the codes; ``codes``: those the chart shows (the free plays'
    items appear only when it has them)."""
    present = set(codes)
    items = [("H", "hit"), ("S", "stand"), ("Dh", "double, else hit"),
             ("Ds", "double, else stand"), ("P", "split"),
             ("Ph", "split if double after split is allowed, else hit"),
             ("Pd", "split with DAS, else double"), ("Ps", "split with DAS, else stand"),
             ("Rh", "surrender, else hit"), ("Rs", "surrender, else stand"),
             ("Rp", "surrender, else split")]
    items += [(code, meaning) for code, meaning in FREE_LEGEND_ITEMS if code in present]
    spans = []
    for code, meaning in items:
        _, color, _ = ACTION_COLORS[action_letter(code)]
        fg = "#fff" if action_letter(code) in ("S", "D") else "#000"
        # (inline: a notebook shows the chart without the page's style sheet)
        spans.append(f'<span style="background:{color};color:{fg};{LEGEND_ITEM}"><b>{code}</b> '
                     f'{_e(meaning)}</span>')
    return '<div class="legend">' + "".join(spans) + "</div>"


def chart_fragment(table, caption: str | None = None) -> str:
    """A strategy chart as an HTML table (for notebooks and pages)."""
    cols = [str(c) for c in table.columns]
    rules = next((n[len("rules: "):] for n in table.notes if n.startswith("rules: ")), "")
    if caption is None:
        caption = f"Basic strategy{': ' + rules if rules else ''}"
    head = "<tr><th>hand</th>" + "".join(f"<th>{_e(c)}</th>" for c in cols) + "</tr>"
    body = []
    index = {str(r): i for i, r in enumerate(table.rows)}
    for title, rows in _sections([str(r) for r in table.rows]):
        if not rows:
            continue
        body.append(f'<tr><th class="section" colspan="{len(cols) + 1}">{title}'
                    f' <small>(dealer upcard across)</small></th></tr>')
        for r in rows:
            cells = "".join(_code_cell(str(v)) for v in table.values[index[r]])
            body.append(f"<tr><th>{_e(r)}</th>{cells}</tr>")
    return (f'<table class="chart"><caption>{_e(caption)}</caption>{head}'
            + "\n".join(body) + "</table>"
            + legend(str(v) for row in table.values for v in row))


def grid_fragment(table) -> str:
    own = table.column_styles or {}       # a column's own style (the game's edge: signed)
    styles = [own.get(c, table.style) for c in table.columns]
    head = "<tr><th></th>" + "".join(f"<th>{_e(c)}</th>" for c in table.columns) + "</tr>"
    rows = []
    for r, row in zip(table.rows, table.values):
        cells = "".join(
            f'<td class="{"" if isinstance(_number(v), str) else "num"}">'
            f"{_e(_cell(v, style=style))}</td>" for v, style in zip(row, styles))
        rows.append(f"<tr><th>{_e(r)}</th>{cells}</tr>")
    title = table.title + (" (percent)" if table.style == "percent" else "")
    return f"<table><caption>{_e(title)}</caption>{head}" + "\n".join(rows) + "</table>"


def _edge_line(edge) -> str:
    """'House edge 0.19 % with this chart (optimal play 0.15 %)' from the edge table."""
    chart, optimal = (float(edge.values[i][0]) for i in range(2))
    return (f"House edge {100 * chart:.3f}% with this chart "
            f"({100 * optimal:.3f}% with composition-dependent optimal play)")


def to_html(tables) -> str:
    tables = list(tables)
    edge = next((t for t in tables if t.name == "edge"), None)
    charts = [t for t in tables if t.kind == "strategy"]
    parts = []
    for t in tables:
        if t is edge and charts:
            continue            # the house edge goes into the chart's caption
        notes = "".join(f"<li>{_e(n)}</li>" for n in t.notes)
        if t.kind == "strategy":
            rules = next((n[7:] for n in t.notes if n.startswith("rules: ")), "")
            caption = f"Rules: {rules}" if rules else "Basic strategy"
            if edge is not None:
                caption += ". " + _edge_line(edge) + "; one player, full shoe off the top."
            body = chart_fragment(t, caption)
            if edge is not None:
                notes += "".join(f"<li>{_e(n)}</li>" for n in edge.notes[2:])
        else:
            body = grid_fragment(t)
        parts.append(f"<section><h1>{_e(t.title[:1].upper() + t.title[1:])}</h1>{body}"
                     f'<ul class="notes">{notes}</ul></section>')
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>bjsolve: {_e(', '.join(t.title for t in tables))}</title>"
            f"<style>{CSS}</style></head><body>\n" + "\n".join(parts) + "\n</body></html>\n")
