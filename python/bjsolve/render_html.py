"""HTML output: self-contained pages (inline CSS, no scripts, no external files)."""
from __future__ import annotations

import html


def to_html(tables) -> str:
    from .render import _cell
    parts = []
    for t in tables:
        rows = "".join("<tr><th>" + html.escape(str(r)) + "</th>" + "".join(
            f"<td>{html.escape(_cell(v, style=t.style))}</td>" for v in row) + "</tr>\n"
            for r, row in zip(t.rows, t.values))
        head = "<tr><th></th>" + "".join(f"<th>{html.escape(str(c))}</th>" for c in t.columns)
        notes = "".join(f"<li>{html.escape(n)}</li>" for n in t.notes)
        parts.append(f"<section><h2>{html.escape(t.title)}</h2><table>{head}</tr>\n{rows}"
                     f"</table><ul>{notes}</ul></section>")
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>bjsolve</title>"
            "</head><body>\n" + "\n".join(parts) + "\n</body></html>\n")
