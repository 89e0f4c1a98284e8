"""Colour for strategy charts on a terminal (rich), in the colours of the usual printed
charts: hit green, stand red, double blue, split yellow, surrender grey."""
from __future__ import annotations

import io

# first letter of an action code -> (text style, meaning); shared with the HTML chart
ACTION_COLORS = {
    "H": ("black on green", "#5cb85c", "hit"),
    "S": ("white on red", "#d9534f", "stand"),
    "D": ("white on blue", "#3b7dd8", "double"),
    "P": ("black on yellow", "#f0c93a", "split"),
    "R": ("black on white", "#d6d6d6", "surrender"),
}


def code_style(code: str) -> str | None:
    entry = ACTION_COLORS.get(code[:1]) if code else None
    return entry[0] if entry else None


def colored_chart(table, width: int) -> str:
    """The text chart of ``to_text`` with each action code on its colour (ANSI codes)."""
    from rich.console import Console
    from rich.text import Text

    from .render import to_text
    plain = to_text(table, width=width, color=False)
    rows = {str(r) for r in table.rows}
    console = Console(file=io.StringIO(), force_terminal=True, color_system="standard",
                      width=max(width, 20), soft_wrap=True, highlight=False)
    for line in plain.splitlines():
        words = line.split()
        text = Text(line)
        if words and words[0] in rows and not line.startswith("#"):
            pos = len(line) - len(line.lstrip()) + len(words[0])
            for word in words[1:]:
                start = line.index(word, pos)
                style = code_style(word)
                if style:   # the whole two-character cell, so the colours form blocks
                    text.stylize(style, max(start - (2 - len(word)), 0), start + len(word))
                pos = start + len(word)
        console.print(text)
    return console.file.getvalue()
