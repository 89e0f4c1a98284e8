"""Render ``bjsolve.output.table.Table`` objects as text, CSV, JSON, Markdown or HTML.

Units: the values of a table are fractions (of the initial bet for EVs, of 1 for
probabilities) in CSV and JSON; text, Markdown and HTML show percentages where the table's
style is "percent" and say so in the title.
"""
from __future__ import annotations

import csv
import io
import json
import textwrap

from .cells import EV_DECIMALS
from .cells import cell as _cell
from .cells import is_missing as _is_missing
from .cells import number as _number
from .render_html import to_html
from .render_plot import render_picture
from .terminal import colored_chart

FORMATS = ("text", "csv", "json", "markdown", "html", "png", "svg")


def _rows(table):
    """The table's values row by row (``Table.cells``: no numpy needed for plain rows)."""
    cells = getattr(table, "cells", None)
    return cells() if cells is not None else table.values


def _column_styles(table) -> list:
    """The text style of each column: the table's, or its own (``Table.column_styles``)."""
    own = table.column_styles or {}
    return [own.get(c, table.style) for c in table.columns]


def _signed(table) -> bool:
    """Percent tables with negative values (EVs) sign every value, so a column reads
    +0.221% next to -2.821%; probabilities stay unsigned."""
    return table.style == "percent" and any(
        not isinstance(n, str) and n is not None and n < 0
        for row in _rows(table) for n in map(_number, row))


def _exact(v) -> str:
    """A CSV cell: the shortest text that reads back as the same float; '' for no entry."""
    v = _number(v)
    if isinstance(v, str):
        return v
    if _is_missing(v):
        return ""
    return repr(v)


def units(table) -> str:
    """What the numbers of ``table`` measure, in CSV/JSON (text may show percent)."""
    explicit = getattr(table, "units", None)
    if explicit:
        return explicit
    return {"ev": "fraction of the initial bet", "prob": "probability (fraction of 1)",
            "percent": "fraction of the initial bet (text output shows percent)"}.get(
                table.style, "")


def render(table, fmt: str = "text", **options) -> str:
    """One table in one format (see ``render_many``)."""
    return render_many([table], fmt, **options)


def render_many(tables, fmt: str = "text", *, color: bool = False, width: int | None = None):
    """Several tables as one output: text/markdown one after the other, CSV one grid (a
    single table wide, several in long form), JSON one document, HTML one page, PNG/SVG one
    picture (bytes; needs matplotlib)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; known: {', '.join(FORMATS)}")
    tables = list(tables)
    if fmt == "text":
        return "\n".join(to_text(t, width=width, color=color) for t in tables)
    if fmt == "markdown":
        return "\n".join(to_markdown(t) for t in tables)
    if fmt == "csv":
        return to_csv(tables[0]) if len(tables) == 1 else to_long_csv(tables)
    if fmt == "json":
        docs = [table_document(t) for t in tables]
        doc = docs[0] if len(docs) == 1 else {"tables": docs}
        return json.dumps(doc, indent=1, allow_nan=False) + "\n"
    if fmt in ("png", "svg"):
        return render_picture(tables, fmt)
    return to_html(tables)


# ---- text ---------------------------------------------------------------------------------

def _wrap_notes(notes, width) -> list:
    lines = []
    for n in notes:
        lines += textwrap.wrap(n, width=max(width, 20), initial_indent="# ",
                               subsequent_indent="#   ", break_on_hyphens=False) or ["#"]
    return lines


def to_text(table, *, width: int | None = None, color: bool = False) -> str:
    """Text for people: fits ``width`` columns (default 80) without breaking a number:
    fewer decimals first, then the columns in blocks."""
    width = width or 80
    if table.layout in ("summary", "figures"):
        return _summary_text(table, width)
    if table.kind == "strategy" and color:
        return colored_chart(table, to_text(table, width=width))
    title = f"== {table.title}" + (" (percent)" if table.style == "percent" else "") + " =="
    lines = [title] + _wrap_notes(table.notes, width)
    if table.rows and all(_is_missing(_number(v)) for row in _rows(table) for v in row):
        # nothing to show (surrender where the rules have none): the notes say why, a grid
        # of '--' would only fill the screen
        return "\n".join(lines) + "\n"
    head = max([len(str(r)) for r in table.rows] + [4])
    cells: list[list[str]]    # set by the loop below (it runs at least once)
    signed = _signed(table)
    styles = _column_styles(table)
    for decimals in (EV_DECIMALS, 5, 4, 3):
        cells = [[_cell(v, style=style, decimals=decimals, signed=signed)
                  for v, style in zip(row, styles)] for row in _rows(table)]
        cw = _col_widths(table, cells)
        if head + sum(w + 1 for w in cw) <= width:
            break
    cw = _col_widths(table, cells)
    if len(table.rows) == 1 and head + sum(w + 1 for w in cw) > width:
        # printed as a column, which has room for every decimal
        return _one_row_text(table, lines, [_cell(v, style=style, signed=signed)
                                            for v, style in zip(_rows(table)[0], styles)],
                             width)
    if decimals < EV_DECIMALS and table.style != "percent" and _numeric(table):
        lines += _wrap_notes([f"{decimals} decimals to fit {width} columns (a wider terminal "
                              "or --format csv gives every digit)"], width)
    # columns in blocks that fit the width
    blocks, start = [], 0
    while start < len(cw):
        end, used = start, head
        while end < len(cw) and (end == start or used + cw[end] + 1 <= width):
            used += cw[end] + 1
            end += 1
        blocks.append((start, end))
        start = end
    for b, (s, e) in enumerate(blocks):
        if b:
            lines.append("")
        lines.append(" " * head + "".join(" " + str(c).rjust(cw[j])
                                          for j, c in enumerate(table.columns[s:e], s)))
        for r, row in zip(table.rows, cells):
            lines.append(str(r).rjust(head) + "".join(" " + c.rjust(cw[j])
                                                      for j, c in enumerate(row[s:e], s)))
    return "\n".join(lines) + "\n"


def _numeric(table) -> bool:
    return any(not isinstance(_number(v), str) for row in _rows(table) for v in row)


def _one_row_text(table, lines, cells, width) -> str:
    """A one-row table too wide for the terminal, printed as a column."""
    head = max(len(str(c)) for c in table.columns)
    cell_w = max(len(c) for c in cells)
    lines.append(" " * head + " " + str(table.rows[0]).rjust(cell_w))
    for c, v in zip(table.columns, cells):
        lines.append(str(c).rjust(head) + " " + v.rjust(cell_w))
    return "\n".join(lines) + "\n"


def _col_widths(table, cells):
    return [max([len(str(c))] + [len(row[j]) for row in cells] + [2])
            for j, c in enumerate(table.columns)]


def _summary_text(table, width) -> str:
    """One labelled line per row: 'Title, label: value  (the other columns)'; layout
    "figures" (a ramp's figures: its title is the ramp written out) puts the title once on a
    heading line instead of in front of every label."""
    title = f"{table.title[:1].upper()}{table.title[1:]}"
    head = max(len(str(r)) for r in table.rows) + 1
    lines, prefix = [], f"{title}, "
    if table.layout == "figures":
        lines, prefix = [f"== {table.title} =="], "  "
    values = []
    for row in _rows(table):
        value = _cell(row[0], style=table.style, decimals=6)
        small = _number(row[0])
        if (table.style == "prob" and not isinstance(small, str) and not _is_missing(small)
                and 0 < abs(small) < 1e-3):
            value = f"{small:.3e}"   # a risk of ruin of 4e-8 must not read 0.000000
        values.append(value.partition(" "))
    # the numbers line up on their last digit, words after them ('1.1530 per round')
    lead = max([9] + [len(number) for number, _, _ in values])
    for r, row, (number, space, words) in zip(table.rows, _rows(table), values):
        value = number.rjust(lead) + space + words
        rest = "; ".join(str(v) for v in row[1:]
                         if isinstance(_number(v), str) and not _is_missing(_number(v)))
        first = f"{prefix}{str(r) + ':':<{head}} {value}"
        # numbers in the other columns (a ramp's money beside its units) on the same line
        first += "".join(f"  {c} {_number(v):,.2f}" for c, v in zip(table.columns[1:], row[1:])
                         if not isinstance(_number(v), str) and not _is_missing(_number(v)))
        number = _number(row[0])
        if table.name == "edge" and not isinstance(number, str) and number < 0:
            first += "  (a player advantage)"
        # a long value (a mean with its SE and units) goes on under its label, whole words
        lines += textwrap.wrap(first, width=max(width, 20), subsequent_indent="    ",
                               break_long_words=False, break_on_hyphens=False)
        if rest:
            lines += textwrap.wrap(rest, width=max(width, 20), initial_indent="    ",
                                   subsequent_indent="    ")
    return "\n".join(lines + _wrap_notes(table.notes, width)) + "\n"


# ---- CSV ------------------------------------------------------------------------------------

def to_csv(table) -> str:
    """One table as a grid: a header row (the table name, then the columns) and one row per
    table row; full-precision numbers, empty cells for no entry, no comment lines."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([table.name] + list(table.columns))
    for r, row in zip(table.rows, _rows(table)):
        w.writerow([r] + [_exact(v) for v in row])
    return buf.getvalue()


def to_long_csv(tables) -> str:
    """Several tables as one grid: table,row,column,value."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["table", "row", "column", "value"])
    for t in tables:
        for r, row in zip(t.rows, _rows(t)):
            for c, v in zip(t.columns, row):
                w.writerow([t.name, r, c, _exact(v)])
    return buf.getvalue()


# ---- JSON -----------------------------------------------------------------------------------

def _json_value(v):
    v = _number(v)
    return None if _is_missing(v) else v


def table_document(table) -> dict:
    """A table as plain JSON data: real numbers (null for no entry), units stated, values
    keyed by row then column, and ``records`` with structured fields where the table has
    them (for example the cards and the upcard of an exception)."""
    doc = {"table": table.name, "title": table.title, "units": units(table),
           "notes": list(table.notes), "rows": [str(r) for r in table.rows],
           "columns": [str(c) for c in table.columns],
           "values": {str(r): {str(c): _json_value(v) for c, v in zip(table.columns, row)}
                      for r, row in zip(table.rows, _rows(table))}}
    records = getattr(table, "records", None)
    if records:
        # (a flag stays true/false, not 1.0/0.0)
        doc["records"] = [{k: v if isinstance(v, (list, tuple, dict, bool)) else _json_value(v)
                           for k, v in rec.items()} for rec in records]
    return doc


def to_json(table) -> str:
    return json.dumps(table_document(table), indent=1, allow_nan=False) + "\n"


# ---- Markdown -------------------------------------------------------------------------------

def to_markdown(table) -> str:
    title = table.title + (" (percent)" if table.style == "percent" else "")
    lines = [f"**{title}**", ""] + [f"- {n}" for n in table.notes] + [""]
    lines.append("| " + " | ".join([""] + [str(c) for c in table.columns]) + " |")
    lines.append("|" + "---|" * (len(table.columns) + 1))
    signed = _signed(table)
    styles = _column_styles(table)
    for r, row in zip(table.rows, _rows(table)):
        cells = [_cell(v, style=style, signed=signed) for v, style in zip(row, styles)]
        lines.append("| " + " | ".join([str(r)] + cells) + " |")
    return "\n".join(lines) + "\n"
