"""Render tables as text, CSV, JSON or Markdown."""
from __future__ import annotations

import csv
import io
import json

import numpy as np

FORMATS = ("text", "csv", "json", "markdown")


def _cell(v, *, style: str = "ev", exact: bool = False) -> str:
    if isinstance(v, str):
        return v
    if v is None or (isinstance(v, (float, np.floating)) and np.isnan(v)):
        return "" if exact else "--"
    if exact:
        return repr(float(v))
    if style == "percent":
        return f"{100 * v:.2f}%"
    if style == "prob":
        return f"{v:.6f}"
    return f"{v:+.6f}"


def render(table, fmt: str = "text") -> str:
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; known: {', '.join(FORMATS)}")
    return {"text": to_text, "csv": to_csv, "json": to_json, "markdown": to_markdown}[fmt](table)


def to_text(table) -> str:
    cells = [[_cell(v, style=table.style) for v in row] for row in table.values]
    width = max([len(c) for row in cells for c in row] + [len(c) for c in table.columns] + [2])
    head = max([len(r) for r in table.rows] + [4])
    lines = [f"== {table.title} =="] + [f"# {n}" for n in table.notes]
    lines.append(" " * head + " " + " ".join(c.rjust(width) for c in table.columns))
    for r, row in zip(table.rows, cells):
        lines.append(r.rjust(head) + " " + " ".join(c.rjust(width) for c in row))
    return "\n".join(lines) + "\n"


def to_csv(table) -> str:
    buf = io.StringIO()
    for n in table.notes:
        buf.write(f"# {n}\n")
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([table.name] + list(table.columns))
    for r, row in zip(table.rows, table.values):
        w.writerow([r] + [_cell(v, exact=True) for v in row])
    return buf.getvalue()


def to_json(table) -> str:
    return json.dumps({"table": table.name, "title": table.title, "notes": list(table.notes),
                       "rows": list(table.rows), "columns": list(table.columns),
                       "values": table.to_dict()}, indent=1) + "\n"


def to_markdown(table) -> str:
    lines = [f"**{table.title}**", ""] + [f"- {n}" for n in table.notes] + [""]
    lines.append("| " + " | ".join([""] + list(table.columns)) + " |")
    lines.append("|" + "---|" * (len(table.columns) + 1))
    for r, row in zip(table.rows, table.values):
        cells = [_cell(v, style=table.style) for v in row]
        lines.append("| " + " | ".join([r] + cells) + " |")
    return "\n".join(lines) + "\n"
